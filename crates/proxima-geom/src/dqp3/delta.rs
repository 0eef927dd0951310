//! The geometric delta step (spec §4.3, C reference rules with the §4.8 stable denominators)
//! and the lambda analogues (§4.5).
//!
//! Active normals are world-frame inward unit normals in insertion order. The cases with more
//! active constraints on object 1 than on object 2 are evaluated as the mirrored case with
//! d → −d and the two outputs swapped: the spec's mirror rules are exactly that.

use nalgebra::Vector3;

type V = Vector3<f64>;

/// |u|² below which two facet planes are parallel (θ < 1e-10, spec §4.8 fix 2).
pub(super) const PLANE_PLANE_PARALLEL: f64 = 1e-20;
/// |m·l| / |l| below which a line is parallel to a plane.
pub(super) const LINE_PLANE_PARALLEL: f64 = 1e-10;
/// |l2p|² / |l2|² below which two lines are parallel.
pub(super) const LINE_LINE_PARALLEL: f64 = 1e-20;

/// (δ1, δ2) for active normals `n1` (object 1) and `n2` (object 2) and d = x2 − x1.
pub(super) fn delta(n1: &[V], n2: &[V], d: V) -> (V, V) {
    if n1.len() <= n2.len() {
        canonical(n1, n2, d)
    } else {
        let (b, a) = canonical(n2, n1, -d);
        (a, b)
    }
}

fn unit(v: V) -> V {
    let l = v.norm();
    if l > 0.0 { v / l } else { V::zeros() }
}

/// Cases with n1.len() ≤ n2.len().
fn canonical(n1: &[V], n2: &[V], d: V) -> (V, V) {
    let z = V::zeros();
    match (n1.len(), n2.len()) {
        (0, 0) => (d * 0.5, -d * 0.5),
        (0, 1) => {
            let m = n2[0];
            let d2 = m * m.dot(&d) - d;
            (d2 + d, d2)
        }
        (0, 2) => {
            let l = unit(n2[0].cross(&n2[1]));
            let d2 = -l * l.dot(&d);
            (d2 + d, d2)
        }
        (0, _) => (d, z),
        (1, 1) => facet_facet(n1[0], n2[0], d),
        (1, 2) => facet_edge(n1[0], n2[0], n2[1], d),
        (1, _) => {
            let n = n1[0];
            (d - n * n.dot(&d), z)
        }
        (2, 2) => edge_edge(n1[0], n1[1], n2[0], n2[1], d),
        (2, _) => {
            let l = unit(n1[0].cross(&n1[1]));
            (l * l.dot(&d), z)
        }
        _ => (z, z),
    }
}

fn facet_facet(n: V, m: V, d: V) -> (V, V) {
    let c12 = m.dot(&n);
    let u = n - m * c12;
    let uu = u.norm_squared();
    if uu < PLANE_PLANE_PARALLEL {
        let d1 = (d - n * n.dot(&d)) * 0.5;
        let dp = d - d1;
        return (d1, m * m.dot(&dp) - dp);
    }
    let w = m - n * c12;
    let ww = w.norm_squared();
    // x1p = x1 + w (d·m)/(w·w); x2p = x2 − u (d·n)/(u·u); P = ½(x1p + x2p).
    let s1 = w * (d.dot(&m) / ww);
    let s2 = d - u * (d.dot(&n) / uu); // x2p − x1
    let p = (s1 + s2) * 0.5; // P − x1
    (p, p - d)
}

fn facet_edge(n: V, c: V, e: V, d: V) -> (V, V) {
    let l2 = c.cross(&e);
    let s = n.dot(&l2);
    if s.abs() < LINE_PLANE_PARALLEL * l2.norm() {
        let lh = unit(l2);
        let d2 = -lh * (lh.dot(&d) * 0.5);
        let dp = d + d2;
        return (dp - n * n.dot(&dp), d2);
    }
    let d2 = -l2 * (n.dot(&d) / s);
    (d2 + d, d2)
}

fn edge_edge(a: V, b: V, c: V, e: V, d: V) -> (V, V) {
    let ah = unit(a - b * b.dot(&a));
    let l2 = c.cross(&e);
    let l2p = [ah.dot(&l2), b.dot(&l2)];
    let lp2 = l2p[0] * l2p[0] + l2p[1] * l2p[1];
    let l2n = l2.norm_squared();
    if lp2 < LINE_LINE_PARALLEL * l2n {
        let t = d.dot(&l2) / (2.0 * l2n);
        let d2 = -l2 * t;
        let dp = d + d2;
        let l1 = a.cross(&b);
        return (l1 * (dp.dot(&l1) / l1.norm_squared()), d2);
    }
    let dp = [ah.dot(&d), b.dot(&d)];
    let t = -(dp[0] * l2p[0] + dp[1] * l2p[1]) / lp2;
    let d2 = l2 * t;
    let dd = d + d2;
    (dd - ah * ah.dot(&dd) - b * b.dot(&dd), d2)
}

/// Multipliers of the active normals `n` for v (v1 = x1 − x2, v2 = x2 − x1): the least-squares
/// solution of Σ λ_k n_k = v (spec §4.5 closed forms, C scaling and determinant guard).
pub(super) fn lambdas(n: &[V], v: V) -> [f64; 3] {
    match n.len() {
        1 => [n[0].dot(&v), 0.0, 0.0],
        2 => {
            let c = n[0].dot(&n[1]);
            let den = (1.0 - c * c).max(1e-300);
            let (p, q) = (n[0].dot(&v), n[1].dot(&v));
            [(p - c * q) / den, (q - c * p) / den, 0.0]
        }
        3 => {
            let mut det = n[0].dot(&n[1].cross(&n[2]));
            if det.abs() <= 1e-8 {
                det = if det < 0.0 { -1e-8 } else { 1e-8 };
            }
            [
                v.dot(&n[1].cross(&n[2])) / det,
                v.dot(&n[2].cross(&n[0])) / det,
                v.dot(&n[0].cross(&n[1])) / det,
            ]
        }
        _ => [0.0; 3],
    }
}
