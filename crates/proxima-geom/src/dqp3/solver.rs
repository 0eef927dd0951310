//! The DQP3 iteration with built-in transforms (the C `fnDistQPT` base variant, spec §4.6,
//! with the §4.8 fixes): delta and lambda in the world frame, alpha and the warm state in the
//! object frames.

use nalgebra::{Matrix3, Vector3};

use super::delta::{delta, lambdas};
use super::{Dqp3Outcome, Dqp3Result, Dqp3Settings, Dqp3Status, FacetPolyhedron, HullFacets};
use crate::pose::Pose;

type V = Vector3<f64>;

/// Passes after which releases follow the smallest-index rule (anti-cycling at degenerate
/// vertices where more than three facets meet).
const BLAND_AFTER: usize = 25;
/// Consecutive non-improving alpha steps without a new constraint treated as a zero step.
const STALL_PASSES: usize = 3;

/// Warm-start state: object-frame points and active sets (insertion order).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Warm {
    pub x: [V; 2],
    pub act: [[u32; 3]; 2],
    pub count: [usize; 2],
    /// A lower bound on min_j slack_j at x (object frame) while no facet is active, or 0
    /// (unknown): a space step shorter than it cannot hit any facet, so no scan is needed.
    pub margin: [f64; 2],
    /// The last common-edge lookup per object: along a trajectory the same two facets stay
    /// active for many steps, and the lookup reads three tables far from the rest of the
    /// step's data.
    pub edge: [EdgeMemo; 2],
}

/// [`HullFacets::common_edge`] of one ordered facet pair, remembered (see [`Warm::edge`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct EdgeMemo {
    pair: [u32; 2],
    shared: Option<[u32; 2]>,
}

impl Default for EdgeMemo {
    fn default() -> Self {
        // No facet has index u32::MAX: the first lookup always misses.
        Self { pair: [u32::MAX; 2], shared: None }
    }
}

impl EdgeMemo {
    /// `h.common_edge(g, k)`, from the memo when it holds that pair.
    #[inline]
    fn common_edge(&mut self, h: &HullFacets, g: u32, k: u32) -> Option<[u32; 2]> {
        if self.pair != [g, k] {
            *self = Self { pair: [g, k], shared: h.common_edge(g as usize, k) };
        }
        self.shared
    }
}

/// Object-frame slack tolerance for the active-set consistency check.
fn slack_tol(p: &FacetPolyhedron) -> f64 {
    1e-9 * (1.0 + p.reach)
}

fn slack(p: &FacetPolyhedron, j: usize, x: &V) -> f64 {
    // The packed plane: one bounds check and one cache line (the same numbers and operations
    // as the split arrays the full scans use, so the same value).
    let [ax, ay, az, b] = p.planes[j];
    ax * x.x + ay * x.y + az * x.z - b
}

/// Active constraints at x (index order, independent, at most 3).
pub(super) fn detect(p: &FacetPolyhedron, x: &V) -> ([u32; 3], usize) {
    let tol = slack_tol(p);
    let mut act = [0u32; 3];
    let mut n = 0;
    let m = p.num_facets();
    let mut j = 0;
    while j < m && n < 3 {
        // Blocks of eight facets are first tested branch-free (the same slack arithmetic as
        // below); most have no slack within the tolerance and are passed over.
        let end = (j + 8).min(m);
        let (ax, ay, az, b) = (&p.ax[j..end], &p.ay[j..end], &p.az[j..end], &p.b[j..end]);
        let mut near = false;
        for k in 0..end - j {
            near |= (ax[k] * x.x + ay[k] * x.y + az[k] * x.z - b[k]).abs() <= tol;
        }
        if near {
            for q in j..end {
                if n == 3 || slack(p, q, x).abs() > tol {
                    continue;
                }
                let a = p.normal(q);
                let independent = match n {
                    0 => true,
                    1 => a.cross(&p.normal(act[0] as usize)).norm_squared() > 1e-20,
                    _ => a.dot(&p.normal(act[0] as usize).cross(&p.normal(act[1] as usize))).abs() > 1e-10,
                };
                if independent {
                    act[n] = q as u32;
                    n += 1;
                }
            }
        }
        j = end;
    }
    (act, n)
}

/// Ratio test of object `p` from x along dx (object frame), skipping the active set.
/// Constraints with |a·d̂| ≤ 1e-10 are not blocking (the violation this allows is at most
/// 1e-10·|dx|; it also keeps dependent normals out of the active set). `len` = |dx| (the caller has it).
#[inline]
fn ratio_test(
    p: &FacetPolyhedron,
    x: &V,
    dx: &V,
    len: f64,
    act: &[u32],
    adjacency: bool,
    edge: &mut EdgeMemo,
) -> (f64, u32, f64) {
    let thr = -1e-10 * len;
    if adjacency && !act.is_empty() {
        let (mut best, mut arg) = (f64::INFINITY, u32::MAX);
        let mut visit = |j: u32| {
            let r = ratio_packed(p, j as usize, x, dx, thr);
            if r < best && !act.contains(&j) {
                best = r;
                arg = j;
            }
        };
        match (p.hull(), act) {
            // One active facet of a hull: the facets across its boundary edges.
            (Some(h), [g]) => h.edge_neighbours(*g as usize).iter().for_each(|&j| visit(j)),
            // Two: the facets at the end point of their common edge that the motion heads for.
            (Some(h), [g, k]) if let Some(end) = edge_end(h, edge.common_edge(h, *g, *k), dx) => {
                h.incident(end as usize).iter().for_each(|&j| visit(j));
            }
            _ => p.neighbours(act[0] as usize).iter().for_each(|&j| visit(j)),
        }
        return (best, arg, 0.0);
    }
    // Full scan in two passes: a branch-free minimum (vectorizable), then the first index
    // attaining it (the same arithmetic, so the value compares equal).
    let m = p.num_facets();
    let mut acc = [f64::INFINITY; 4];
    let mut sacc = [f64::INFINITY; 4];
    let chunks = m / 4;
    for c in 0..chunks {
        for l in 0..4 {
            let j = 4 * c + l;
            acc[l] = acc[l].min(ratio(p, j, x, dx, thr));
            sacc[l] = sacc[l].min(p.ax[j] * x.x + p.ay[j] * x.y + p.az[j] * x.z - p.b[j]);
        }
    }
    let mut best = acc.iter().fold(f64::INFINITY, |s, v| s.min(*v));
    let mut smin = sacc.iter().fold(f64::INFINITY, |s, v| s.min(*v));
    for j in 4 * chunks..m {
        best = best.min(ratio(p, j, x, dx, thr));
        smin = smin.min(p.ax[j] * x.x + p.ay[j] * x.y + p.az[j] * x.z - p.b[j]);
    }
    if best == f64::INFINITY {
        return (best, u32::MAX, smin);
    }
    let first = (0..m).find(|&j| ratio(p, j, x, dx, thr) == best).map_or(u32::MAX, |j| j as u32);
    if !act.contains(&first) {
        return (best, first, smin);
    }
    // An active constraint attained the minimum (round-off): exact scan that skips it.
    let (mut best, mut arg) = (f64::INFINITY, u32::MAX);
    for j in 0..m {
        let r = ratio(p, j, x, dx, thr);
        if r < best && !act.contains(&(j as u32)) {
            best = r;
            arg = j as u32;
        }
    }
    (best, arg, smin)
}

/// The end point of the common edge of two facets (`shared`: the two hull vertices their
/// boundary loops share, [`HullFacets::common_edge`]) that a motion along `dx` (on the line of
/// the two planes) heads for: the shared hull vertex w with dx·(w − w') ≥ 0 for the other
/// shared vertex w'. `None` unless the loops share exactly two vertices (the caller then scans
/// the first facet's vertex neighbours).
fn edge_end(h: &HullFacets, shared: Option<[u32; 2]>, dx: &V) -> Option<u32> {
    let shared = shared?;
    let (u, w) = (h.vertices[shared[0] as usize], h.vertices[shared[1] as usize]);
    Some(if dx.dot(&(w - u)) >= 0.0 { shared[1] } else { shared[0] })
}

/// Step length to constraint j along dx (∞ when not approached), clamped at 0.
#[inline(always)]
fn ratio(p: &FacetPolyhedron, j: usize, x: &V, dx: &V, thr: f64) -> f64 {
    let (ax, ay, az) = (p.ax[j], p.ay[j], p.az[j]);
    let ad = ax * dx.x + ay * dx.y + az * dx.z;
    let s = ax * x.x + ay * x.y + az * x.z - p.b[j];
    if ad < thr { s.max(0.0) / -ad } else { f64::INFINITY }
}

/// [`ratio`] for one facet picked by index (adjacency lists): the packed plane is one load.
#[inline(always)]
fn ratio_packed(p: &FacetPolyhedron, j: usize, x: &V, dx: &V, thr: f64) -> f64 {
    let [ax, ay, az, b] = p.planes[j];
    let ad = ax * dx.x + ay * dx.y + az * dx.z;
    let s = ax * x.x + ay * x.y + az * x.z - b;
    if ad < thr { s.max(0.0) / -ad } else { f64::INFINITY }
}

/// Runs DQP3 from `warm` (consistent or re-detected); updates `warm` with the final state.
pub(super) fn run(
    p: [&FacetPolyhedron; 2],
    pose: [&Pose; 2],
    warm: &mut Warm,
    settings: &Dqp3Settings,
    adjacency: bool,
) -> Dqp3Result {
    let r: [&Matrix3<f64>; 2] = [pose[0].rotation(), pose[1].rotation()];
    let t: [&V; 2] = [pose[0].translation(), pose[1].translation()];
    // Active-set consistency (always true for the object-frame state unless x was moved).
    for i in 0..2 {
        // (The tolerance once per object: its square root would otherwise be waited on per
        // active facet.)
        let ok = warm.count[i] == 0 || {
            let tol = slack_tol(p[i]);
            (0..warm.count[i]).all(|k| slack(p[i], warm.act[i][k] as usize, &warm.x[i]).abs() <= tol)
        };
        if !ok {
            warm.x[i] = p[i].centroid;
            let (a, n) = detect(p[i], &warm.x[i]);
            warm.act[i] = a;
            warm.count[i] = n;
            warm.margin[i] = 0.0;
        }
    }
    let mut na: [[V; 3]; 2] = [[V::zeros(); 3]; 2];
    for i in 0..2 {
        for k in 0..warm.count[i] {
            na[i][k] = r[i] * p[i].normal(warm.act[i][k] as usize);
        }
    }
    let cap = settings.max_passes.unwrap_or_else(|| 100.max((p[0].num_facets() + p[1].num_facets()) / 4));
    let (mut passes, mut alpha_steps) = (0usize, 0usize);
    let mut status = Dqp3Status::IterationLimit;
    let mut stall = 0usize;
    // Set after an alpha step that moved both points all the way (nothing blocked, nothing
    // added): they are then the minimizers over the active flats, so the next delta step is
    // zero up to rounding and the pass goes straight to the multipliers.
    let mut at_flat_minimum = false;
    // The last pass's world points and multipliers when it ended `Optimal` (the certificate
    // in `finish` needs exactly these: same state, same active normals).
    let mut last: Option<Last> = None;
    while passes < cap {
        passes += 1;
        let xa = [r[0] * warm.x[0] + t[0], r[1] * warm.x[1] + t[1]];
        if !(xa[0].iter().chain(xa[1].iter()).all(|v| v.is_finite())) {
            status = Dqp3Status::NumericalFailure;
            break;
        }
        let d = xa[1] - xa[0];
        let dist = d.norm();
        let (mut d1, mut d2) = (V::zeros(), V::zeros());
        if !at_flat_minimum {
            (d1, d2) = delta(&na[0][..warm.count[0]], &na[1][..warm.count[1]], d);
            for k in 0..warm.count[0] {
                d1 -= na[0][k] * na[0][k].dot(&d1);
            }
            for k in 0..warm.count[1] {
                d2 -= na[1][k] * na[1][k].dot(&d2);
            }
            if warm.count[0] == 3 {
                d1 = V::zeros();
            }
            if warm.count[1] == 3 {
                d2 = V::zeros();
            }
        }
        at_flat_minimum = false;
        let zero = settings.zero_step * (1.0 + dist);
        if d1.norm_squared() + d2.norm_squared() < zero * zero || stall >= STALL_PASSES {
            stall = 0;
            // Lambda step: release the single most negative multiplier (ties → object 1).
            let l1 = lambdas(&na[0][..warm.count[0]], -d);
            let l2 = lambdas(&na[1][..warm.count[1]], d);
            let min_of = |l: &[f64; 3], n: usize| {
                (0..n).fold((usize::MAX, f64::INFINITY), |b, k| if l[k] < b.1 { (k, l[k]) } else { b })
            };
            let (k1, m1) = min_of(&l1, warm.count[0]);
            let (k2, m2) = min_of(&l2, warm.count[1]);
            let (mut obj, mut k, m) = if m2 < m1 { (1, k2, m2) } else { (0, k1, m1) };
            let release = -settings.release_tolerance * dist;
            if passes > BLAND_AFTER && m < release {
                // Anti-cycling (Bland-like): after many passes release the negative multiplier
                // of the smallest facet index (object 1 first) instead of the most negative.
                let smallest = |l: &[f64; 3], i: usize| {
                    (0..warm.count[i]).filter(|&q| l[q] < release).min_by_key(|&q| warm.act[i][q])
                };
                if let Some(q) = smallest(&l1, 0) {
                    (obj, k) = (0, q);
                } else if let Some(q) = smallest(&l2, 1) {
                    (obj, k) = (1, q);
                }
            }
            if m < release {
                let n = warm.count[obj];
                for s in k..n - 1 {
                    warm.act[obj][s] = warm.act[obj][s + 1];
                    na[obj][s] = na[obj][s + 1];
                }
                warm.count[obj] -= 1;
                warm.margin[obj] = 0.0;
                continue;
            }
            status = Dqp3Status::Optimal;
            last = Some(Last { xa, d, dist, l: [l1, l2] });
            break;
        }
        // Alpha step, per object, in the object frame.
        alpha_steps += 1;
        let mut dd = [d1, d2];
        let mut dobj = [V::zeros(); 2];
        let mut alpha = [1.0f64; 2];
        let mut added = [false; 2];
        for i in 0..2 {
            if dd[i].norm_squared() == 0.0 {
                continue;
            }
            dobj[i] = r[i].transpose() * dd[i];
            let len = dobj[i].norm();
            if warm.count[i] == 0 && len < warm.margin[i] {
                // Interior point, step shorter than the slack bound: nothing can block.
                warm.margin[i] -= len;
                continue;
            }
            let act = &warm.act[i][..warm.count[i]];
            let (a, j, smin) = ratio_test(p[i], &warm.x[i], &dobj[i], len, act, adjacency, &mut warm.edge[i]);
            warm.margin[i] = if warm.count[i] == 0 { smin - len } else { 0.0 };
            if a < 1.0 && warm.count[i] < 3 {
                warm.margin[i] = 0.0;
                alpha[i] = a;
                dobj[i] *= a;
                dd[i] *= a;
                let c = warm.count[i];
                warm.act[i][c] = j;
                na[i][c] = r[i] * p[i].normal(j as usize);
                warm.count[i] += 1;
                added[i] = true;
            }
        }
        // Monotonicity guard.
        let new_dist = (d + dd[1] - dd[0]).norm();
        // Stall stop (the Matlab listing's rule): alpha steps that add nothing and reduce the
        // distance by less than zero_step·(1 + D) are round-off creep (nearly parallel edges);
        // the certificate's gap reports what is left.
        if !(added[0] || added[1]) && new_dist >= dist - settings.zero_step * (1.0 + dist) {
            stall += 1;
        } else {
            stall = 0;
        }
        if new_dist > dist + 1e-9 * (1.0 + dist) {
            if !(added[0] || added[1]) {
                status = Dqp3Status::Retreat;
                break;
            }
            let small = alpha[0].min(alpha[1]);
            for i in 0..2 {
                if alpha[i] > small {
                    if added[i] {
                        dobj[i] *= small / alpha[i];
                        warm.count[i] -= 1;
                    } else {
                        dobj[i] *= small;
                    }
                }
            }
        }
        warm.x[0] += dobj[0];
        warm.x[1] += dobj[1];
        at_flat_minimum = !(added[0] || added[1]) && alpha == [1.0, 1.0] && new_dist <= dist;
    }
    let e = [pose[0].orthonormality_error(), pose[1].orthonormality_error()];
    finish(p, &r, &t, &e, warm, &na, last, status, passes, alpha_steps)
}

/// What the final (`Optimal`) pass computed: the world points, d = x2 − x1, |d| and the
/// multipliers of both active sets for v = −d and v = d.
struct Last {
    xa: [V; 2],
    d: V,
    dist: f64,
    l: [[f64; 3]; 2],
}

#[allow(clippy::too_many_arguments)]
fn finish(
    p: [&FacetPolyhedron; 2],
    r: &[&Matrix3<f64>; 2],
    t: &[&V; 2],
    e: &[f64; 2],
    warm: &Warm,
    na: &[[V; 3]; 2],
    last: Option<Last>,
    status: Dqp3Status,
    passes: usize,
    alpha_steps: usize,
) -> Dqp3Result {
    // The final pass's values when it ended `Optimal` (the state has not changed since: the
    // same numbers as recomputing them), else from the state.
    let (xa, d, dist, lam) = match last {
        Some(l) => (l.xa, l.d, l.dist, Some(l.l)),
        None => {
            let xa = [r[0] * warm.x[0] + t[0], r[1] * warm.x[1] + t[1]];
            let d = xa[1] - xa[0];
            (xa, d, d.norm(), None)
        }
    };
    let scale = 1.0 + p[0].radius + p[1].radius;
    // Certificate: d·(y − x1) ≤ e1 for y ∈ A and d·(z − x2) ≥ −e2 for z ∈ B (see mod docs).
    let mut err = 0.0;
    for i in 0..2 {
        let v = if i == 0 { -d } else { d };
        let n = warm.count[i];
        let l = match lam {
            Some(l) => l[i],
            None => lambdas(&na[i][..n], v),
        };
        let mut res = v;
        // With R as given (max |RᵀR − I| = e), a_k = R n_k misstates the world facet by
        // n_k·(RᵀR − I)(u − x) for object points u: at most 3e (ρ + |x|), ρ ≥ max |u|.
        let distortion = if n > 0 { 3.0 * e[i] * (p[i].reach + warm.x[i].norm()) } else { 0.0 };
        for k in 0..n {
            let lk = l[k].max(0.0);
            res -= na[i][k] * lk;
            err += lk * (slack(p[i], warm.act[i][k] as usize, &warm.x[i]).abs() + distortion);
        }
        err += res.norm() * (p[i].radius + (warm.x[i] - p[i].centroid).norm()) * (1.0 + 3.0 * e[i]);
    }
    let lower = if dist > 0.0 { ((dist * dist - err) / dist).max(0.0) } else { 0.0 };
    let outcome = if dist <= 1e-12 * scale {
        Dqp3Outcome::Intersecting { point: nalgebra::Point3::from((xa[0] + xa[1]) * 0.5) }
    } else {
        Dqp3Outcome::Separated {
            distance: dist,
            point_a: nalgebra::Point3::from(xa[0]),
            point_b: nalgebra::Point3::from(xa[1]),
            normal: d / dist,
        }
    };
    Dqp3Result { outcome, status, lower, upper: dist, passes, alpha_steps }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memo answers every ordered facet pair as the hull's table does, whatever pair it
    /// held before (a memo keyed without the order, or not replaced on a miss, fails here).
    #[test]
    fn edge_memo_matches_the_hull_table() {
        let points: Vec<[f64; 3]> = (0..60)
            .map(|i| {
                let z = 1.0 - 2.0 * (i as f64 + 0.5) / 60.0;
                let r = (1.0 - z * z).sqrt();
                let phi = i as f64 * 2.399_963_229_728_653;
                [r * phi.cos(), 0.8 * r * phi.sin(), 1.2 * z]
            })
            .collect();
        let p = FacetPolyhedron::from_vertices(&points).expect("facet form");
        let h = p.hull().expect("built from vertices");
        let mut memo = EdgeMemo::default();
        let mut hits = 0;
        for g in 0..p.num_facets() as u32 {
            for &k in p.neighbours(g as usize) {
                // Each pair twice in a row (the second a memo hit), then reversed.
                for (a, b) in [(g, k), (g, k), (k, g)] {
                    let expected = h.common_edge(a as usize, b);
                    assert_eq!(memo.common_edge(h, a, b), expected, "facets {a}, {b}");
                    hits += usize::from(expected.is_some());
                }
            }
        }
        assert!(hits > 0);
    }
}
