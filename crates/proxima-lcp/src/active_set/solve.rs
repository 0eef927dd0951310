//! The primal active-set loop: start, delta, lambda and alpha steps (see the module docs).

use super::dense::{complement, orthonormalize, symmetric_eigen};
use super::problem::dot;
use super::{ActiveSetResidual, ActiveSetSettings, ActiveSetSolution, ActiveSetStatus, InequalityQp};
use crate::error::LcpError;
use crate::simplex::{Lp, SimplexSettings, SimplexStatus, solve_simplex};

/// Dependence threshold for working-set normals (relative, Gram–Schmidt).
const INDEPENDENCE: f64 = 1e-9;

/// Solves `qp` from the feasible start `x0` (or a simplex phase-I point when `None`).
///
/// Errors: invalid settings, a start point of the wrong length, non-finite, or violating a
/// constraint by more than 100 × `feasibility_tolerance` × scale.
pub fn solve_active_set(
    qp: &InequalityQp,
    x0: Option<&[f64]>,
    settings: &ActiveSetSettings,
) -> Result<ActiveSetSolution, LcpError> {
    settings.validate()?;
    let (n, m) = (qp.n(), qp.m());
    let cscale = qp.constraint_scale();
    let feas = settings.feasibility_tolerance * cscale;
    let x = match x0 {
        Some(x0) => {
            if x0.len() != n {
                return Err(LcpError::DimensionMismatch { what: "x0", expected: n, found: x0.len() });
            }
            if let Some(index) = x0.iter().position(|v| !v.is_finite()) {
                return Err(LcpError::NonFinite { what: "x0", index });
            }
            if (0..m).any(|j| qp.slack(j, x0) < -100.0 * feas * (1.0 + norm_inf(x0))) {
                return Err(LcpError::InvalidProblem { reason: "the start point x0 is infeasible".into() });
            }
            x0.to_vec()
        }
        None => match phase_one(qp)? {
            Ok(x) => x,
            Err(status) => return Ok(finish(qp, status, vec![0.0; n], vec![0.0; m], Vec::new(), 0)),
        },
    };
    Ok(run(qp, x, settings))
}

/// A feasible point of A x ≥ b by the simplex method, or the status to report.
fn phase_one(qp: &InequalityQp) -> Result<Result<Vec<f64>, ActiveSetStatus>, LcpError> {
    let (n, m) = (qp.n(), qp.m());
    if m == 0 {
        return Ok(Ok(vec![0.0; n]));
    }
    // −A (x⁺ − x⁻) ≤ −b, x± ≥ 0.
    let rows: Vec<Vec<f64>> =
        (0..m).map(|j| qp.row(j).iter().map(|v| -v).chain(qp.row(j).iter().copied()).collect()).collect();
    let lp = Lp::inequality(rows, qp.b().iter().map(|v| -v).collect(), vec![0.0; 2 * n])?;
    let sol = solve_simplex(&lp, &SimplexSettings::default())?;
    Ok(match sol.status {
        SimplexStatus::Optimal => Ok((0..n).map(|i| sol.x[i] - sol.x[n + i]).collect()),
        SimplexStatus::Infeasible => Err(ActiveSetStatus::Infeasible),
        _ => Err(ActiveSetStatus::NumericalFailure),
    })
}

fn norm_inf(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |s, x| s.max(x.abs()))
}

/// Outcome of one delta step.
enum Delta {
    /// A finite step (possibly zero) inside the working set.
    Step(Vec<f64>),
    /// A descent ray of zero curvature (the step length is set by the ratio test alone).
    Ray(Vec<f64>),
    /// Negative curvature.
    NonConvex,
}

fn delta_step(qp: &InequalityQp, x: &[f64], working: &[usize], settings: &ActiveSetSettings) -> Delta {
    let n = qp.n();
    let mut g = qp.h_times(x);
    g.iter_mut().zip(qp.c()).for_each(|(gi, ci)| *gi += ci);
    let rows: Vec<&[f64]> = working.iter().map(|&j| qp.row(j)).collect();
    let (q, _) = orthonormalize(&rows, INDEPENDENCE);
    let z = complement(&q, n);
    let k = z.len();
    if k == 0 {
        return Delta::Step(vec![0.0; n]);
    }
    let hz: Vec<Vec<f64>> = z.iter().map(|zi| qp.h_times(zi)).collect();
    let mut kmat = vec![0.0; k * k];
    for i in 0..k {
        for j in 0..k {
            kmat[i * k + j] = 0.5 * (dot(&z[i], &hz[j]) + dot(&z[j], &hz[i]));
        }
    }
    let rg: Vec<f64> = z.iter().map(|zi| dot(zi, &g)).collect();
    let (w, v) = symmetric_eigen(kmat, k);
    let hscale = 1.0 + norm_inf(qp.h());
    let ctol = settings.curvature_tolerance * hscale;
    let gscale = qp.scale() * (1.0 + norm_inf(x));
    let mut y = vec![0.0; k];
    let mut ray = vec![0.0; k];
    let mut has_ray = false;
    for l in 0..k {
        let s: f64 = (0..k).map(|i| v[i * k + l] * rg[i]).sum();
        if w[l] < -ctol {
            return Delta::NonConvex;
        }
        if w[l] > ctol {
            (0..k).for_each(|i| y[i] -= v[i * k + l] * s / w[l]);
        } else if s.abs() > settings.step_tolerance * gscale {
            has_ray = true;
            (0..k).for_each(|i| ray[i] -= v[i * k + l] * s);
        }
    }
    let lift = |c: &[f64]| -> Vec<f64> {
        let mut out = vec![0.0; n];
        for (zi, ci) in z.iter().zip(c) {
            out.iter_mut().zip(zi).for_each(|(o, zv)| *o += ci * zv);
        }
        out
    };
    if has_ray { Delta::Ray(lift(&ray)) } else { Delta::Step(lift(&y)) }
}

/// Least-squares multipliers of the working set: A_𝒲ᵀ λ = Hx + c.
fn multipliers(qp: &InequalityQp, x: &[f64], working: &[usize]) -> Vec<f64> {
    let w = working.len();
    if w == 0 {
        return Vec::new();
    }
    let mut g = qp.h_times(x);
    g.iter_mut().zip(qp.c()).for_each(|(gi, ci)| *gi += ci);
    let mut gram = vec![0.0; w * w];
    let mut rhs = vec![0.0; w];
    for (i, &ji) in working.iter().enumerate() {
        rhs[i] = dot(qp.row(ji), &g);
        for (k, &jk) in working.iter().enumerate() {
            gram[i * w + k] = dot(qp.row(ji), qp.row(jk));
        }
    }
    crate::linalg::solve(&gram, &rhs, &1e-300).unwrap_or_else(|| vec![0.0; w])
}

fn run(qp: &InequalityQp, mut x: Vec<f64>, settings: &ActiveSetSettings) -> ActiveSetSolution {
    let (n, m) = (qp.n(), qp.m());
    let cscale = qp.constraint_scale();
    let feas = settings.feasibility_tolerance * cscale;
    let max_iter = settings.max_iterations.unwrap_or(10 * (n + m) + 50);
    // Initial working set: active constraints with independent normals, index order.
    let mut working: Vec<usize> = Vec::new();
    for j in 0..m {
        if working.len() < n && qp.slack(j, &x).abs() <= feas * (1.0 + norm_inf(&x)) {
            let mut rows: Vec<&[f64]> = working.iter().map(|&k| qp.row(k)).collect();
            rows.push(qp.row(j));
            if *orthonormalize(&rows, INDEPENDENCE).1.last().unwrap_or(&false) {
                working.push(j);
            }
        }
    }
    let mut iterations = 0;
    loop {
        if iterations >= max_iter {
            return finish(qp, ActiveSetStatus::MaxIterations, x, vec![0.0; m], working, iterations);
        }
        iterations += 1;
        if x.iter().any(|v| !v.is_finite()) {
            return finish(qp, ActiveSetStatus::NumericalFailure, x, vec![0.0; m], working, iterations);
        }
        let (dir, is_ray) = match delta_step(qp, &x, &working, settings) {
            Delta::NonConvex => {
                return finish(qp, ActiveSetStatus::NonConvex, x, vec![0.0; m], working, iterations);
            }
            Delta::Ray(d) => (d, true),
            Delta::Step(d) => (d, false),
        };
        if !is_ray && norm_inf(&dir) <= settings.step_tolerance * (1.0 + norm_inf(&x)) {
            // Lambda step.
            let lam = multipliers(qp, &x, &working);
            let mscale = qp.scale() * (1.0 + norm_inf(&x));
            let (imin, lmin) = lam
                .iter()
                .enumerate()
                .fold((usize::MAX, f64::INFINITY), |b, (i, &l)| if l < b.1 { (i, l) } else { b });
            if lmin >= -settings.multiplier_tolerance * mscale {
                let mut full = vec![0.0; m];
                for (&j, &l) in working.iter().zip(&lam) {
                    full[j] = l.max(0.0);
                }
                return finish(qp, ActiveSetStatus::Solved, x, full, working, iterations);
            }
            working.remove(imin);
            continue;
        }
        // Alpha step (ratio test; smallest index wins ties).
        let dnorm = dot(&dir, &dir).sqrt();
        let mut alpha = if is_ray { f64::INFINITY } else { 1.0 };
        let mut blocking = None;
        for j in 0..m {
            if working.contains(&j) {
                continue;
            }
            let row = qp.row(j);
            let ad = dot(row, &dir);
            if ad < -INDEPENDENCE * 1e-3 * dnorm * dot(row, row).sqrt() {
                let r = (qp.slack(j, &x) / -ad).max(0.0);
                if r < alpha {
                    alpha = r;
                    blocking = Some(j);
                }
            }
        }
        if alpha.is_infinite() {
            return finish(qp, ActiveSetStatus::Unbounded, x, vec![0.0; m], working, iterations);
        }
        x.iter_mut().zip(&dir).for_each(|(xi, di)| *xi += alpha * di);
        if let Some(j) = blocking {
            let mut rows: Vec<&[f64]> = working.iter().map(|&k| qp.row(k)).collect();
            rows.push(qp.row(j));
            if *orthonormalize(&rows, INDEPENDENCE).1.last().unwrap_or(&false) {
                working.push(j);
            }
        }
    }
}

fn finish(
    qp: &InequalityQp,
    status: ActiveSetStatus,
    x: Vec<f64>,
    multipliers: Vec<f64>,
    working_set: Vec<usize>,
    iterations: usize,
) -> ActiveSetSolution {
    let (n, m) = (qp.n(), qp.m());
    let mut r = qp.h_times(&x);
    r.iter_mut().zip(qp.c()).for_each(|(ri, ci)| *ri += ci);
    for (j, &l) in multipliers.iter().enumerate() {
        if l != 0.0 {
            r.iter_mut().zip(qp.row(j)).for_each(|(ri, aj)| *ri -= l * aj);
        }
    }
    let mut residual = ActiveSetResidual {
        stationarity: if status == ActiveSetStatus::Solved { norm_inf(&r) } else { f64::NAN },
        primal_infeasibility: 0.0,
        complementarity: 0.0,
        dual_infeasibility: multipliers.iter().fold(0.0f64, |s, &l| s.max(-l)),
    };
    if n == x.len() {
        for j in 0..m {
            let s = qp.slack(j, &x);
            residual.primal_infeasibility = residual.primal_infeasibility.max(-s);
            residual.complementarity = residual.complementarity.max((multipliers[j] * s).abs());
        }
    }
    let objective = qp.objective(&x);
    ActiveSetSolution { status, x, multipliers, objective, working_set, iterations, residual }
}
