//! The normative algorithm (spec §7): tableau of (P2), Bland's rule, certificates.

use proxima_lcp::Rational;
use proxima_lcp::simplex::{PivotTolerances, RunEnd, Tableau};
use proxima_num::Field;

use super::{
    CollisionOutcome, LpCollision, LpCollisionInfo, LpCollisionSettings, LpPath, Separation, UndecidedReason,
};
use crate::error::GeomError;

/// Validated point sets: common dimension n ≥ 1, finite entries.
pub(super) struct Points<T> {
    pub(super) n: usize,
    pub(super) a: Vec<Vec<T>>,
    pub(super) b: Vec<Vec<T>>,
}

pub(super) fn validate_sets<T: Field, P: AsRef<[T]>, Q: AsRef<[T]>>(
    a: &[P],
    b: &[Q],
) -> Result<Points<T>, GeomError> {
    let n = match (a.first(), b.first()) {
        (Some(p), _) => p.as_ref().len(),
        (None, Some(q)) => q.as_ref().len(),
        (None, None) => 0,
    };
    let rows_a = a.iter().map(|p| p.as_ref());
    let rows_b = b.iter().map(|q| q.as_ref());
    if n == 0 && !(a.is_empty() && b.is_empty()) {
        return Err(GeomError::DimensionMismatch {
            what: "polytope point dimension (must be >= 1)",
            expected: 1,
            found: 0,
        });
    }
    for row in rows_a.clone().chain(rows_b.clone()) {
        if row.len() != n {
            return Err(GeomError::DimensionMismatch {
                what: "polytope point",
                expected: n,
                found: row.len(),
            });
        }
        if row.iter().any(|v| !v.is_finite()) {
            return Err(GeomError::NonFinite { what: "polytope point" });
        }
    }
    Ok(Points { n, a: rows_a.map(<[T]>::to_vec).collect(), b: rows_b.map(<[T]>::to_vec).collect() })
}

/// Converts `f64` point sets exactly into `Rational` (NaN/∞ rejected).
pub(super) fn to_rational<P: AsRef<[f64]>>(set: &[P]) -> Result<Vec<Vec<Rational>>, GeomError> {
    set.iter()
        .map(|p| {
            p.as_ref()
                .iter()
                .map(|&v| Rational::from_f64_exact(v).ok_or(GeomError::NonFinite { what: "polytope point" }))
                .collect()
        })
        .collect()
}

/// The tableau of spec §4 for arbitrary n: (k + 1) × (m + k + 1), k = n + 2, m = |S| + |T|.
pub(super) fn build_tableau<T: Field>(n: usize, a: &[Vec<T>], b: &[Vec<T>]) -> Tableau<T> {
    let (ms, m, k) = (a.len(), a.len() + b.len(), n + 2);
    let width = m + k + 1;
    let mut rows = vec![vec![T::zero(); width]; k + 1];
    for (i, p) in a.iter().enumerate() {
        for (c, v) in p.iter().enumerate() {
            rows[1 + c][i] = v.clone();
        }
        rows[n + 1][i] = T::one();
    }
    for (j, p) in b.iter().enumerate() {
        for (c, v) in p.iter().enumerate() {
            rows[1 + c][ms + j] = v.neg();
        }
        rows[n + 2][ms + j] = T::one();
    }
    for l in 0..k {
        rows[1 + l][m + l] = T::one();
    }
    rows[n + 1][width - 1] = T::one();
    rows[n + 2][width - 1] = T::one();
    for j in 0..m {
        let mut s = T::zero();
        for row in &rows[1..] {
            s.add_assign(&row[j]);
        }
        rows[0][j] = s.neg();
    }
    rows[0][width - 1] = T::from_i64(-2);
    Tableau::from_rows(rows, (m..m + k).collect())
}

fn dot<T: Field>(a: &[T], b: &[T]) -> T {
    let mut s = T::zero();
    for (x, y) in a.iter().zip(b) {
        s.add_mul_assign(x, y);
    }
    s
}

fn max_t<T: Field>(a: T, b: T) -> T {
    if b > a { b } else { a }
}

/// Divides weights by their sum (which must be positive); `None` otherwise.
fn normalise_weights<T: Field>(w: &mut [T]) -> Option<()> {
    for v in w.iter_mut() {
        if v.is_negative() {
            *v = T::zero();
        }
    }
    let mut s = T::zero();
    for v in w.iter() {
        s.add_assign(v);
    }
    if !s.is_positive() {
        return None;
    }
    if s != T::one() {
        for v in w.iter_mut() {
            *v = v.div(&s);
        }
    }
    Some(())
}

fn combination<T: Field>(n: usize, pts: &[Vec<T>], w: &[T]) -> Vec<T> {
    let mut p = vec![T::zero(); n];
    for (pt, wi) in pts.iter().zip(w) {
        if wi.is_zero() {
            continue;
        }
        for (o, v) in p.iter_mut().zip(pt) {
            o.add_mul_assign(wi, v);
        }
    }
    p
}

/// The generic core on validated, non-empty sets.
pub(super) fn run<T: Field>(pts: &Points<T>, settings: &LpCollisionSettings) -> LpCollision<T> {
    let n = pts.n;
    let total = pts.a.len() + pts.b.len();
    // Normalisation (spec §7): centroid c and largest deviation σ.
    let (work_a, work_b, sigma) = if settings.normalize {
        let mut c = vec![T::zero(); n];
        for p in pts.a.iter().chain(&pts.b) {
            for (ci, v) in c.iter_mut().zip(p) {
                ci.add_assign(v);
            }
        }
        let count = T::from_i64(total as i64);
        for ci in c.iter_mut() {
            *ci = ci.div(&count);
        }
        let mut sigma = T::zero();
        for p in pts.a.iter().chain(&pts.b) {
            for (ci, v) in c.iter().zip(p) {
                sigma = max_t(sigma, v.sub(ci).abs());
            }
        }
        if sigma.is_zero() {
            // Every point coincides: a common point, exactly.
            let mut wa = vec![T::zero(); pts.a.len()];
            let mut wb = vec![T::zero(); pts.b.len()];
            wa[0] = T::one();
            wb[0] = T::one();
            return LpCollision {
                outcome: CollisionOutcome::Colliding {
                    point: pts.a[0].clone(),
                    weights_a: wa,
                    weights_b: wb,
                },
                info: LpCollisionInfo {
                    objective: T::zero(),
                    pivots: 0,
                    near_boundary: false,
                    path: if T::EXACT { LpPath::Exact } else { LpPath::Float },
                    scale: 0.0,
                },
            };
        }
        let map = |set: &[Vec<T>]| -> Vec<Vec<T>> {
            set.iter().map(|p| p.iter().zip(&c).map(|(v, ci)| v.sub(ci).div(&sigma)).collect()).collect()
        };
        (map(&pts.a), map(&pts.b), sigma.to_f64())
    } else {
        (pts.a.clone(), pts.b.clone(), 1.0)
    };

    let mut tab = build_tableau(n, &work_a, &work_b);
    let (ms, m, k) = (pts.a.len(), total, n + 2);
    let tol = PivotTolerances::<T>::from_relative(
        settings.eps_reduced_cost,
        settings.eps_pivot,
        settings.tie_rel,
        1.0,
    );
    let decision = T::tolerance(settings.eps_decision, 1.0);
    let max_pivots = settings.max_pivots.unwrap_or((k + 1) * (m + k + 1));
    let mut pivots = 0usize;
    let end = tab.run_bland(&tol, m + k, max_pivots, &mut pivots, |t| t.objective() <= decision);
    let f = tab.objective();
    let path = if T::EXACT { LpPath::Exact } else { LpPath::Float };
    let roundoff = T::tolerance(64.0 * f64::EPSILON * k as f64, 1.0);
    let mut info = LpCollisionInfo { objective: f.clone(), pivots, near_boundary: false, path, scale: sigma };
    let undecided = |reason, info| LpCollision { outcome: CollisionOutcome::Undecided { reason }, info };
    match end {
        RunEnd::MaxIterations => undecided(UndecidedReason::MaxIterations, info),
        RunEnd::Unbounded { .. } => undecided(UndecidedReason::NumericalFailure, info),
        RunEnd::Stopped => {
            let x = tab.primal();
            let mut wa = x[..ms].to_vec();
            let mut wb = x[ms..m].to_vec();
            if normalise_weights(&mut wa).is_none() || normalise_weights(&mut wb).is_none() {
                return undecided(UndecidedReason::NumericalFailure, info);
            }
            info.near_boundary = f > roundoff;
            let point = combination(n, &pts.a, &wa);
            LpCollision { outcome: CollisionOutcome::Colliding { point, weights_a: wa, weights_b: wb }, info }
        }
        RunEnd::Optimal => {
            // Dual of the optimal basis: y_l = 1 − (reduced cost of slack l).
            let y: Vec<T> = (0..k).map(|l| T::one().sub(tab.get(0, m + l))).collect();
            let w = y[..n].to_vec();
            let max_a = pts.a.iter().map(|p| dot(&w, p)).reduce(max_t).expect("non-empty");
            let min_b =
                pts.b.iter().map(|p| dot(&w, p)).reduce(|x, y| if y < x { y } else { x }).expect("non-empty");
            let gap = min_b.sub(&max_a);
            if !gap.is_positive() {
                return undecided(UndecidedReason::NumericalFailure, info);
            }
            let norm_w = w.iter().map(|v| v.to_f64() * v.to_f64()).sum::<f64>().sqrt();
            let offset = max_a.add(&min_b).div(&T::from_i64(2));
            info.near_boundary = !T::EXACT && f.to_f64() < settings.boundary_band;
            let separation =
                Separation { distance_lower_bound: gap.to_f64() / norm_w, normal: w, offset, max_a, min_b };
            LpCollision { outcome: CollisionOutcome::Separated(separation), info }
        }
    }
}
