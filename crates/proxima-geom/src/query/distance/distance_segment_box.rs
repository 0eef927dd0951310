//! Closest points between a segment (a capsule's axis) and a box, when they are apart.
//!
//! # Maths
//!
//! In the box frame, with the segment x(s) = o + s·d, s ∈ [0, 1], and the box [lo, hi], the
//! squared distance f(s) = Σ_k φ_k(x_k(s)), φ_k(x) = (x − clamp(x, lo_k, hi_k))², is convex and
//! continuously differentiable, quadratic between the (at most six) parameters where a
//! coordinate crosses a face plane. Its derivative f'(s) = 2 Σ_k d_k·(x_k − clamp(x_k)) is
//! continuous, piecewise linear and non-decreasing, so the minimizer is s = 0 when f'(0) ≥ 0,
//! s = 1 when f'(1) ≤ 0, and otherwise the zero of f' on the piece where it changes sign: with
//! the coordinates outside the box there (set A, each against its bound b_k),
//! s = Σ_A d_k (b_k − o_k) / Σ_A d_k².
//!
//! # Edge cases
//!
//! * A segment meeting the box (distance at the round-off floor, 64 ulps of the coordinates)
//!   is not answered here: its penetration depth is GJK/EPA's (the caller falls back on `None`).
//! * A degenerate segment (d = 0) is its point: f' ≡ 0, s = 0.
//! * Non-finite intermediate values (coordinates near `f64::MAX`) give `None`.

use nalgebra::{Point3, Vector3};

use super::distance_point_cuboid::PosedBox;
use super::distance_segment_segment::LinearPiece;

/// Closest points (on the segment, on the box) of the world segment `p` (bounded: `lo`, `hi`
/// finite) and the posed box `bx`; `None` when they meet or nearly (see the module docs). The
/// segment point is computed on the world segment itself, the box point as R·q + t for the
/// clamped local point q.
#[inline]
pub(crate) fn closest_segment_box(p: &LinearPiece, bx: &PosedBox) -> Option<(Point3<f64>, Point3<f64>)> {
    let r = bx.pose.rotation();
    let t = bx.pose.translation();
    let start = p.origin + p.dir * p.lo;
    let span = p.dir * (p.hi - p.lo);
    let o = r.tr_mul(&(start.coords - t));
    let d = r.tr_mul(&span);
    let (lo, hi) = (bx.lo, bx.hi);
    let excess = |x: f64, k: usize| x - x.clamp(lo[k], hi[k]);
    let slope = |s: f64| (0..3).map(|k| d[k] * excess(o[k] + s * d[k], k)).sum::<f64>();
    let s = if slope(0.0) >= 0.0 {
        0.0
    } else if slope(1.0) <= 0.0 {
        1.0
    } else {
        // The face crossings inside (0, 1), sorted, between the ends.
        let mut cuts = [1.0f64; 8];
        let mut n = 1;
        cuts[0] = 0.0;
        for k in 0..3 {
            if d[k] != 0.0 {
                for bound in [lo[k], hi[k]] {
                    let c = (bound - o[k]) / d[k];
                    if c > 0.0 && c < 1.0 {
                        cuts[n] = c;
                        n += 1;
                    }
                }
            }
        }
        cuts[n] = 1.0;
        n += 1;
        cuts[..n].sort_unstable_by(f64::total_cmp);
        // The first piece whose right end has f' ≥ 0 holds the zero.
        let mut s = 1.0;
        for w in cuts[..n].windows(2) {
            let (a, b) = (w[0], w[1]);
            if b > a && slope(b) >= 0.0 {
                let mid = 0.5 * (a + b);
                let (mut num, mut den) = (0.0, 0.0);
                for k in 0..3 {
                    let x = o[k] + mid * d[k];
                    let bound = if x < lo[k] {
                        lo[k]
                    } else if x > hi[k] {
                        hi[k]
                    } else {
                        continue;
                    };
                    num += d[k] * (bound - o[k]);
                    den += d[k] * d[k];
                }
                s = if den > 0.0 { (num / den).clamp(a, b) } else { a };
                break;
            }
        }
        s
    };
    let x = o + d * s;
    let q = Vector3::from_fn(|k, _| x[k].clamp(lo[k], hi[k]));
    let dist = (x - q).norm();
    let on_segment = start + span * s;
    let on_box = Point3::from(r * q + t);
    let scale = on_segment.coords.amax().max(on_box.coords.amax()).max(1.0);
    (dist.is_finite() && dist > 64.0 * f64::EPSILON * scale).then_some((on_segment, on_box))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::Pose;

    fn unit_box(pose: Pose) -> PosedBox {
        PosedBox { pose, lo: Vector3::new(-1.0, -2.0, -0.5), hi: Vector3::new(1.0, 2.0, 0.5) }
    }

    fn segment(a: [f64; 3], b: [f64; 3]) -> LinearPiece {
        let (a, b) = (Point3::from(a), Point3::from(b));
        LinearPiece { origin: a, dir: b - a, lo: 0.0, hi: 1.0 }
    }

    /// Brute force: the smallest point–box distance over a fine sampling of the segment (an
    /// upper bound within |d|/2000 · 1 of the distance: the point–box distance is 1-Lipschitz).
    fn brute(p: &LinearPiece, bx: &PosedBox) -> f64 {
        (0..=2000)
            .map(|i| {
                let x = p.origin + p.dir * (f64::from(i) / 2000.0);
                let l = bx.pose.inverse_transform_point(&x).coords;
                (l - Vector3::from_fn(|k, _| l[k].clamp(bx.lo[k], bx.hi[k]))).norm()
            })
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn segment_over_a_face_an_edge_and_a_corner() {
        let bx = unit_box(Pose::identity());
        // Parallel to the top face, 1 above it.
        let (x, y) = closest_segment_box(&segment([-3.0, 0.0, 1.5], [3.0, 0.5, 1.5]), &bx).unwrap();
        assert!(((y - x).norm() - 1.0).abs() < 1e-15);
        // Along the edge x = 1, z = 0.5, 1 out in x and in z: distance √2.
        let (x, y) = closest_segment_box(&segment([2.0, -5.0, 1.5], [2.0, 5.0, 1.5]), &bx).unwrap();
        assert!(((y - x).norm() - 2.0f64.sqrt()).abs() < 1e-15, "{x} {y}");
        // Beyond the corner (1, 2, 0.5) along the diagonal: the endpoint is closest.
        let (x, y) = closest_segment_box(&segment([2.0, 3.0, 1.5], [5.0, 6.0, 4.5]), &bx).unwrap();
        assert_eq!(y, Point3::new(1.0, 2.0, 0.5));
        assert!(((y - x).norm() - 3.0f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn a_segment_through_or_touching_the_box_is_left_to_gjk() {
        let bx = unit_box(Pose::identity());
        assert!(closest_segment_box(&segment([-3.0, 0.0, 0.0], [3.0, 0.0, 0.0]), &bx).is_none());
        assert!(closest_segment_box(&segment([1.0, 0.0, 0.0], [3.0, 0.0, 0.0]), &bx).is_none());
    }

    #[test]
    fn matches_brute_force_on_random_segments_and_poses() {
        let mut next = crate::test_sequence::uniform(0x9e37_79b9_7f4a_7c15u64, -1.0, 1.0);
        for _ in 0..300 {
            let q = [next(), next(), next(), next()];
            let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
            if n < 0.1 {
                continue;
            }
            let pose = Pose::from_quaternion(q.map(|v| v / n), [next(), next(), next()]).unwrap();
            let bx = unit_box(pose);
            let s = segment([0; 3].map(|_| 4.0 * next()), [0; 3].map(|_| 4.0 * next()));
            let b = brute(&s, &bx);
            match closest_segment_box(&s, &bx) {
                // Points of the shapes: never farther apart than the best sample; the samples
                // (|d| ≤ 14 over 2000 steps) are within 0.004 of the distance.
                Some((x, y)) => {
                    let d = (y - x).norm();
                    assert!(d <= b + 1e-12 && d >= b - 0.004, "closed form {d} vs brute force {b}");
                }
                None => assert!(b < 0.004, "refused at brute-force distance {b}"),
            }
        }
    }
}
