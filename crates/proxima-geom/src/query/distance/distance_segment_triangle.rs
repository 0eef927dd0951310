//! Closest points between a point or segment (a sphere's centre, a capsule's axis) and a
//! triangle, when they are apart.
//!
//! # Maths
//!
//! For a point x, the closest point of the triangle is x + c(T − x), c(·) the point of a
//! triangle closest to the origin (Voronoi regions of the vertices and edges, else the face).
//! For a segment S and a triangle T that do not meet, a closest pair has a segment endpoint or
//! a triangle edge in it: if the closest point of S is interior to S and the closest point of
//! T is interior to T's face, S is parallel to T's plane (the gradient of the distance along S
//! vanishes) with its whole length at the same distance, so an endpoint does as well; if the
//! closest point of T is on T's boundary, that edge against S gives it. The minimum over the
//! two endpoint–triangle and three segment–edge candidates is therefore the distance.
//!
//! # Edge cases
//!
//! * A segment crossing the triangle's plane inside the triangle meets it: the candidates miss
//!   that (each is positive), so the crossing point is tested, and a crossing closer to the
//!   triangle than every candidate means contact.
//! * Contact (or a distance at the round-off floor, 64 ulps of the coordinates) is not answered
//!   here: a segment through a triangle has a positive penetration depth, which GJK/EPA
//!   computes (the caller falls back to it on `None`).
//! * Nearly degenerate world triangles (validated non-collinear, but a huge translation can
//!   round them flat) go through the same Voronoi tests, which have a best-edge fallback.

use nalgebra::Point3;

use super::distance_segment_segment::{LinearPiece, closest_linear_linear};
use crate::gjk::closest_to_origin;

/// Closest points (on the piece, on the triangle) of a bounded linear piece (a point, `dir =
/// 0`, or a segment) and the world triangle `tri`; `None` when they meet or are closer than the
/// round-off floor (see the module docs) or a coordinate is not finite.
#[inline]
pub(crate) fn closest_piece_triangle(
    p: &LinearPiece,
    tri: &[Point3<f64>; 3],
) -> Option<(Point3<f64>, Point3<f64>)> {
    let on_triangle = |x: &Point3<f64>| x + closest_to_origin(tri.map(|v| v - x));
    let p0 = p.origin + p.dir * p.lo;
    let mut best = (p0, on_triangle(&p0));
    let mut best_d2 = (best.1 - best.0).norm_squared();
    if p.dir != nalgebra::Vector3::zeros() {
        let p1 = p.origin + p.dir * p.hi;
        let mut consider = |x: Point3<f64>, y: Point3<f64>| {
            let d2 = (y - x).norm_squared();
            if d2 < best_d2 {
                (best, best_d2) = ((x, y), d2);
            }
        };
        consider(p1, on_triangle(&p1));
        for (i, j) in [(0, 1), (1, 2), (2, 0)] {
            let edge = LinearPiece { origin: tri[i], dir: tri[j] - tri[i], lo: 0.0, hi: 1.0 };
            let (x, y) = closest_linear_linear(p, &edge);
            consider(x, y);
        }
        // A crossing of the triangle's plane closer to the triangle than every candidate:
        // the segment goes through the triangle (or nearly).
        let normal = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
        let (s0, s1) = (normal.dot(&(p0 - tri[0])), normal.dot(&(p1 - tri[0])));
        if (s0 <= 0.0 && s1 >= 0.0) || (s0 >= 0.0 && s1 <= 0.0) {
            let x = if s0 == s1 { p0 } else { p0 + (p1 - p0) * (s0 / (s0 - s1)) };
            if (on_triangle(&x) - x).norm_squared() < best_d2 {
                return None;
            }
        }
    }
    let scale = best.0.coords.amax().max(best.1.coords.amax()).max(1.0);
    let floor = 64.0 * f64::EPSILON * scale;
    (best_d2.is_finite() && best_d2.sqrt() > floor).then_some(best)
}

#[cfg(test)]
mod tests {
    use nalgebra::Vector3;

    use super::*;

    fn tri() -> [Point3<f64>; 3] {
        [Point3::new(0.0, 0.0, 0.0), Point3::new(2.0, 0.0, 0.0), Point3::new(0.0, 2.0, 0.0)]
    }

    fn segment(a: [f64; 3], b: [f64; 3]) -> LinearPiece {
        let (a, b) = (Point3::from(a), Point3::from(b));
        LinearPiece { origin: a, dir: b - a, lo: 0.0, hi: 1.0 }
    }

    /// Brute force: the minimum over a fine grid of the segment and the triangle's
    /// barycentric coordinates (an upper bound that converges to the distance).
    fn brute(p: &LinearPiece, t: &[Point3<f64>; 3]) -> f64 {
        let n = 30;
        let mut best = f64::INFINITY;
        for i in 0..=n {
            let x = p.origin + p.dir * (f64::from(i) / f64::from(n));
            for j in 0..=n {
                for k in 0..=(n - j) {
                    let (u, v) = (f64::from(j) / f64::from(n), f64::from(k) / f64::from(n));
                    let y = t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v;
                    best = best.min((y - x).norm());
                }
            }
        }
        best
    }

    #[test]
    fn point_above_the_face_projects_onto_it() {
        let p = LinearPiece { origin: Point3::new(0.5, 0.5, 3.0), dir: Vector3::zeros(), lo: 0.0, hi: 0.0 };
        let (x, y) = closest_piece_triangle(&p, &tri()).unwrap();
        assert_eq!(x, Point3::new(0.5, 0.5, 3.0));
        assert_eq!(y, Point3::new(0.5, 0.5, 0.0));
    }

    #[test]
    fn segment_over_an_edge_and_parallel_to_the_face() {
        // Crossing above the hypotenuse x + y = 2: closest to that edge.
        let (x, y) = closest_piece_triangle(&segment([2.0, 2.0, 1.0], [0.0, 0.0, 1.0]), &tri()).unwrap();
        assert!(((y - x).norm() - 1.0).abs() < 1e-15, "{x} {y}");
        // Parallel to the face, above it: distance 1 (an endpoint attains it).
        let (x, y) = closest_piece_triangle(&segment([0.2, 0.2, 1.0], [0.8, 0.4, 1.0]), &tri()).unwrap();
        assert!(((y - x).norm() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn a_segment_through_the_triangle_or_touching_it_is_left_to_gjk() {
        assert!(closest_piece_triangle(&segment([0.5, 0.5, -1.0], [0.5, 0.5, 1.0]), &tri()).is_none());
        assert!(closest_piece_triangle(&segment([0.5, 0.5, 0.0], [0.5, 0.5, 1.0]), &tri()).is_none());
        // In the plane, across the triangle.
        assert!(closest_piece_triangle(&segment([-1.0, 0.5, 0.0], [3.0, 0.5, 0.0]), &tri()).is_none());
        // Crossing the plane outside the triangle: apart, by an edge.
        let (x, y) = closest_piece_triangle(&segment([3.0, 3.0, -1.0], [3.0, 3.0, 1.0]), &tri()).unwrap();
        assert!(((y - x).norm() - 2.0f64.sqrt() * 2.0).abs() < 1e-14);
    }

    #[test]
    fn matches_brute_force_on_random_segments() {
        let mut next = crate::test_sequence::uniform(0x2545_f491_4f6c_dd1du64, -2.0, 2.0);
        for _ in 0..100 {
            let t = [0; 3].map(|_| Point3::new(next(), next(), next() * 0.3));
            let s = segment([next(), next(), next()], [next(), next(), next()]);
            let b = brute(&s, &t);
            match closest_piece_triangle(&s, &t) {
                // The closed form's points are points of the shapes, never farther apart than
                // the best grid pair; the grid (steps of 1/30 of segments and edges up to
                // 4√3 ≈ 7 long) is within half a step on each of three parameters, < 0.4.
                Some((x, y)) => {
                    let d = (y - x).norm();
                    assert!(d <= b + 1e-12 && d >= b - 0.4, "closed form {d} vs brute force {b}");
                }
                // Contact: the brute force finds points within its grid spacing.
                None => assert!(b < 0.4, "refused at brute-force distance {b}"),
            }
        }
    }
}
