//! Closest points of two triangles, when they are apart.
//!
//! # Maths
//!
//! For disjoint triangles S and T, a closest pair (x, y) has x or y on an edge: if both were
//! interior to their faces, the gradient of |x − y|² along each face would vanish, so both
//! faces are parallel with x − y along their common normal, and sliding x and y together in
//! the faces keeps the distance until one reaches an edge. An edge of S against T has, in
//! turn, a closest pair with an edge endpoint or an edge of T in it (the segment–triangle
//! argument of `distance_segment_triangle`). The distance is therefore the minimum over
//!
//! * the 9 edge–edge pairs (clamped least squares on two segments), and
//! * the 6 vertex–triangle pairs (each vertex projected onto the other triangle),
//!
//! 15 candidates, each a pair of points of the two triangles, so the minimum is also an upper
//! bound whatever the configuration.
//!
//! # Edge cases
//!
//! * Meeting triangles: every candidate can be positive (an edge of S pierces T's interior,
//!   no vertex or edge of T is involved). If the triangles meet, some edge of one of them meets
//!   the other triangle (the intersection is a segment or polygon whose end points lie on
//!   edges), so each edge crossing the other triangle's plane is tested: a crossing point
//!   closer to that triangle than every candidate means contact. Contact, or a distance at the
//!   round-off floor (64 ulps of the coordinates), is not answered here: overlapping triangles
//!   have a penetration depth, which GJK/EPA computes (the caller falls back to it on `None`).
//! * Coplanar triangles: the crossings are the edges' first points, tested like any other;
//!   overlapping coplanar triangles have an edge–edge or vertex–triangle candidate at 0.
//! * Nearly degenerate world triangles go through the same Voronoi tests as the segment
//!   closed form, which have a best-edge fallback; the answer is checked against the user's
//!   shapes by the certificate in any case.

use nalgebra::Point3;

use super::distance_segment_segment::{LinearPiece, closest_linear_linear};
use crate::gjk::closest_to_origin;

/// The point of the world triangle `tri` closest to `x`.
#[inline(always)]
fn on_triangle(tri: &[Point3<f64>; 3], x: &Point3<f64>) -> Point3<f64> {
    x + closest_to_origin(tri.map(|v| v - x))
}

/// Whether an edge of `s` crosses the plane of `t` at a point closer to `t` than `best_d2`
/// (squared): the triangles meet, or nearly (see the module docs).
fn crossing_closer(s: &[Point3<f64>; 3], t: &[Point3<f64>; 3], best_d2: f64) -> bool {
    let normal = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let side = s.map(|p| normal.dot(&(p - t[0])));
    [(0, 1), (1, 2), (2, 0)].into_iter().any(|(i, j)| {
        let (s0, s1) = (side[i], side[j]);
        if !((s0 <= 0.0 && s1 >= 0.0) || (s0 >= 0.0 && s1 <= 0.0)) {
            return false;
        }
        let x = if s0 == s1 { s[i] } else { s[i] + (s[j] - s[i]) * (s0 / (s0 - s1)) };
        (on_triangle(t, &x) - x).norm_squared() < best_d2
    })
}

/// Whether the candidate pair (x on `s`, y on `t`, `d2` = |y − x|² > 0) is proven closest: the
/// separation of the triangles along n = (y − x)/|y − x| (their vertices' support values)
/// reaches |y − x| to within round-off, so no pair is closer by more than that (weak duality)
/// and the triangles are disjoint.
#[inline(always)]
fn proven_closest(
    s: &[Point3<f64>; 3],
    t: &[Point3<f64>; 3],
    x: &Point3<f64>,
    y: &Point3<f64>,
    d2: f64,
) -> bool {
    let v = y - x;
    let (hs, ht) = (
        s.iter().map(|p| v.dot(&p.coords)).fold(f64::NEG_INFINITY, f64::max),
        t.iter().map(|q| v.dot(&q.coords)).fold(f64::INFINITY, f64::min),
    );
    // (ht − hs) / |v| ≥ |v| (1 − 8ε) up to the rounding of the dot products (a few ulps of
    // |v| times the coordinates' size, `slack`).
    let size = x.coords.amax().max(y.coords.amax()).max(1.0);
    let slack = 16.0 * f64::EPSILON * size * d2.sqrt();
    ht - hs >= d2 - slack
}

/// The order in which [`closest_triangle_triangle`] tries its 15 candidates (ids: 0–2 the
/// vertices of `s` against `t`, 3–5 those of `t` against `s`, 6 + 3a + b edge a of `s` with
/// edge b of `t`, edge k running from vertex k to vertex k + 1): along d = (sum of t's
/// vertices) − (sum of s's vertices), three times the centroids' difference, the vertex i of
/// `s` farthest forward and the vertex j of `t` farthest back are the likeliest features of
/// the closest pair, so their two vertex candidates come first, then the four edge pairs
/// through both, then the other vertices and edge pairs in index order. Only the order, hence
/// the work before the first proven pair, depends on it: every candidate is still a pair of
/// points of the triangles and the proof is the same. (Mixed workload, triangle–triangle:
/// 2.1 candidates per separated query instead of 4.4.)
fn candidate_order(s: &[Point3<f64>; 3], t: &[Point3<f64>; 3]) -> &'static [u8; 15] {
    let d = (t[0].coords + t[1].coords + t[2].coords) - (s[0].coords + s[1].coords + s[2].coords);
    let (s0, s1, s2) = (d.dot(&s[0].coords), d.dot(&s[1].coords), d.dot(&s[2].coords));
    let (t0, t1, t2) = (d.dot(&t[0].coords), d.dot(&t[1].coords), d.dot(&t[2].coords));
    let i = if s0 >= s1 && s0 >= s2 {
        0
    } else if s1 >= s2 {
        1
    } else {
        2
    };
    let j = if t0 <= t1 && t0 <= t2 {
        0
    } else if t1 <= t2 {
        1
    } else {
        2
    };
    &CANDIDATE_ORDERS[3 * i + j]
}

/// [`candidate_order`]'s nine orders, for the leading vertices (i of `s`, j of `t`) at 3i + j.
const CANDIDATE_ORDERS: [[u8; 15]; 9] = {
    // Edge k holds vertices k and k + 1: the edges through vertex v are v and v − 1 (mod 3).
    const fn through(e: u8, v: u8) -> bool {
        e == v || e == (v + 2) % 3
    }
    let mut orders = [[0u8; 15]; 9];
    let mut lead = 0;
    while lead < 9 {
        let (i, j) = ((lead / 3) as u8, (lead % 3) as u8);
        let order = &mut orders[lead];
        order[0] = i;
        order[1] = 3 + j;
        let mut n = 2;
        let mut pass = 0;
        while pass < 2 {
            // Pass 0: the four edge pairs through both leading vertices; pass 1 puts the other
            // vertices (before the other edge pairs).
            if pass == 1 {
                let mut k = 0;
                while k < 3 {
                    if k != i {
                        order[n] = k;
                        n += 1;
                    }
                    k += 1;
                }
                k = 0;
                while k < 3 {
                    if k != j {
                        order[n] = 3 + k;
                        n += 1;
                    }
                    k += 1;
                }
            }
            let mut pair = 0;
            while pair < 9 {
                let (a, b) = (pair / 3, pair % 3);
                if (through(a, i) && through(b, j)) == (pass == 0) {
                    order[n] = 6 + pair;
                    n += 1;
                }
                pair += 1;
            }
            pass += 1;
        }
        lead += 1;
    }
    orders
};

/// Closest points (on `s`, on `t`) of two world triangles; `None` when they meet or are closer
/// than the round-off floor (see the module docs) or a coordinate is not finite.
///
/// The candidates are tried in [`candidate_order`] (the likeliest closest features first);
/// each new best pair is checked for a separation certificate along its direction
/// ([`proven_closest`]), which ends the search early (usually after one or two candidates)
/// and proves the triangles apart.
pub(crate) fn closest_triangle_triangle(
    s: &[Point3<f64>; 3],
    t: &[Point3<f64>; 3],
) -> Option<(Point3<f64>, Point3<f64>)> {
    let floor = |x: &Point3<f64>, y: &Point3<f64>| {
        64.0 * f64::EPSILON * x.coords.amax().max(y.coords.amax()).max(1.0)
    };
    // Edge k of a triangle: vertex k to vertex k + 1.
    let edge = |x: &[Point3<f64>; 3], k: usize| LinearPiece {
        origin: x[k],
        dir: x[(k + 1) % 3] - x[k],
        lo: 0.0,
        hi: 1.0,
    };
    let candidate = |id: u8| -> (Point3<f64>, Point3<f64>) {
        let id = usize::from(id);
        match id {
            0..=2 => (s[id], on_triangle(t, &s[id])),
            3..=5 => (on_triangle(s, &t[id - 3]), t[id - 3]),
            _ => closest_linear_linear(&edge(s, (id - 6) / 3), &edge(t, (id - 6) % 3)),
        }
    };
    // The best pair so far (any pair until the first candidate is in).
    let mut best = (s[0], t[0]);
    let mut best_d2 = f64::INFINITY;
    for &id in candidate_order(s, t) {
        let (x, y) = candidate(id);
        let d2 = (y - x).norm_squared();
        if d2 < best_d2 {
            (best, best_d2) = ((x, y), d2);
            if d2.sqrt() > floor(&x, &y) && proven_closest(s, t, &x, &y, d2) {
                return Some((x, y));
            }
        }
    }
    if crossing_closer(s, t, best_d2) || crossing_closer(t, s, best_d2) {
        return None;
    }
    (best_d2.is_finite() && best_d2.sqrt() > floor(&best.0, &best.1)).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri(p: [[f64; 3]; 3]) -> [Point3<f64>; 3] {
        p.map(Point3::from)
    }

    /// Every candidate is tried exactly once, whichever vertices lead, and the leading ones
    /// are the vertex candidates of the vertices nearest each other along the centroids' line.
    #[test]
    fn candidate_order_is_a_permutation_led_by_the_facing_vertices() {
        let base = tri([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
        for i in 0..3 {
            for j in 0..3 {
                // s's vertex i pushed forward along +z, t (above) with vertex j pulled down.
                let mut s = base;
                s[i].z += 0.5;
                let mut t = base.map(|p| p + nalgebra::Vector3::new(0.1, 0.1, 3.0));
                t[j].z -= 0.5;
                let order = candidate_order(&s, &t);
                let mut seen = [false; 15];
                for &id in order {
                    assert!(!seen[usize::from(id)], "{order:?}");
                    seen[usize::from(id)] = true;
                }
                assert!(seen.iter().all(|&x| x), "{order:?}");
                assert_eq!((usize::from(order[0]), usize::from(order[1])), (i, 3 + j), "{order:?}");
            }
        }
    }

    /// Brute force: the minimum over a barycentric grid of both triangles (an upper bound that
    /// converges to the distance).
    fn brute(s: &[Point3<f64>; 3], t: &[Point3<f64>; 3]) -> f64 {
        let n = 16;
        let grid = |x: &[Point3<f64>; 3]| {
            let mut pts = Vec::new();
            for j in 0..=n {
                for k in 0..=(n - j) {
                    let (u, v) = (f64::from(j) / f64::from(n), f64::from(k) / f64::from(n));
                    pts.push(x[0] + (x[1] - x[0]) * u + (x[2] - x[0]) * v);
                }
            }
            pts
        };
        let (gs, gt) = (grid(s), grid(t));
        let mut best = f64::INFINITY;
        for p in &gs {
            for q in &gt {
                best = best.min((q - p).norm());
            }
        }
        best
    }

    #[test]
    fn parallel_faces_stacked_are_apart_by_their_gap() {
        let s = tri([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]]);
        let t = tri([[0.2, 0.2, 1.5], [1.0, 0.2, 1.5], [0.2, 1.0, 1.5]]);
        let (x, y) = closest_triangle_triangle(&s, &t).unwrap();
        assert!(((y - x).norm() - 1.5).abs() < 1e-15, "{x} {y}");
        assert!((y.z - 1.5).abs() < 1e-15 && x.z.abs() < 1e-15);
    }

    #[test]
    fn crossed_edges_meet_at_their_common_perpendicular() {
        // S's edge along x at z = 0, T's edge along y at z = 1, each triangle fanning away.
        let s = tri([[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -2.0]]);
        let t = tri([[0.0, -1.0, 1.0], [0.0, 1.0, 1.0], [0.0, 0.0, 3.0]]);
        let (x, y) = closest_triangle_triangle(&s, &t).unwrap();
        assert!((x - Point3::new(0.0, 0.0, 0.0)).norm() < 1e-15, "{x}");
        assert!((y - Point3::new(0.0, 0.0, 1.0)).norm() < 1e-15, "{y}");
    }

    #[test]
    fn a_piercing_edge_or_touching_or_coplanar_overlap_is_left_to_gjk() {
        let s = tri([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]]);
        // An edge of T through S's interior: every vertex and edge candidate is positive.
        let t = tri([[0.5, 0.5, -1.0], [0.5, 0.5, 1.0], [5.0, 5.0, 0.3]]);
        assert!(closest_triangle_triangle(&s, &t).is_none());
        assert!(closest_triangle_triangle(&t, &s).is_none());
        // A vertex of T on S's face.
        let t = tri([[0.5, 0.5, 0.0], [0.5, 0.5, 1.0], [1.0, 0.0, 1.0]]);
        assert!(closest_triangle_triangle(&s, &t).is_none());
        // Coplanar overlap.
        let t = tri([[0.5, 0.5, 0.0], [3.0, 0.5, 0.0], [0.5, 3.0, 0.0]]);
        assert!(closest_triangle_triangle(&s, &t).is_none());
        // Coplanar, apart: answered, by a vertex–edge pair.
        let t = tri([[3.0, 0.0, 0.0], [4.0, 0.0, 0.0], [3.0, 1.0, 0.0]]);
        let (x, y) = closest_triangle_triangle(&s, &t).unwrap();
        assert!(((y - x).norm() - 1.0).abs() < 1e-15, "{x} {y}");
    }

    #[test]
    fn matches_brute_force_on_random_triangles() {
        let mut next = crate::test_sequence::uniform(0x9e37_79b9_7f4a_7c15u64, -2.0, 2.0);
        let (mut answered, mut refused) = (0, 0);
        for _ in 0..150 {
            let s = [0; 3].map(|_| Point3::new(next(), next(), next()));
            let t = [0; 3].map(|_| Point3::new(next() + 1.0, next(), next()));
            let b = brute(&s, &t);
            match closest_triangle_triangle(&s, &t) {
                // Points of the triangles, never farther apart than the best grid pair; each
                // grid point is within half a cell (edges up to 4√3 ≈ 7, 16 steps: < 0.45 from
                // any point of its triangle), so the distance is at most 0.9 below the grid's.
                Some((x, y)) => {
                    let d = (y - x).norm();
                    assert!(d <= b + 1e-12 && d >= b - 0.9, "closed form {d} vs brute force {b}");
                    // Each witness lies on its triangle.
                    assert!((on_triangle(&s, &x) - x).norm() < 1e-12);
                    assert!((on_triangle(&t, &y) - y).norm() < 1e-12);
                    answered += 1;
                }
                None => {
                    assert!(b < 0.9, "refused at brute-force distance {b}");
                    refused += 1;
                }
            }
        }
        // Both branches exercised (the sequence is fixed: these are not tuned to pass).
        assert!(answered > 20 && refused > 5, "answered {answered}, refused {refused}");
    }
}
