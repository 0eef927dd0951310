//! Real meshes: exact hulls of the Franka Panda collision meshes (`testdata/robots/panda`,
//! Apache-2.0), queried along continuous trajectories and at random poses by every algorithm that
//! accepts a pair of convex polytopes — `Auto`, forced GJK, GJK tracked (warm), forced DQP3,
//! DQP3 on prepared `FacetShape`s cold and tracked, and the signed distance. (The LCP kernels
//! have no polytope–polytope formulation; the ellipsoid solvers need an ellipsoid.)
//!
//! What is checked, step by step:
//! * every bracket is proven: 0 ≤ lower ≤ upper, witnesses inside their hulls (against the exact
//!   hull's triangle planes, computed here independently), upper = the witness distance;
//! * no variant's lower bound exceeds any variant's upper bound (each bracket contains the true
//!   distance, so they must overlap: the property that catches a tight bracket around a wrong
//!   value, as DQP3 once certified on facet forms with a facet missing);
//! * agreement with coal 3.0.3 (the distances stored with the trajectories) to 1e-6, and with a
//!   brute-force reference (min over vertex–triangle and edge–edge pairs) on separated steps;
//! * the facet forms themselves: every point inside every facet, every facet touching the hull.

use std::collections::HashMap;

use nalgebra::{Point3, Vector3};
use proptest::prelude::*;
use proxima_geom::dqp3::FACET_MERGE_TOLERANCE;
use proxima_geom::shape::{ConvexHull, ConvexPolytope, convex_hull};
use proxima_geom::{
    Algorithm, Dqp3ShapeTracker, FacetShape, GjkCache, Pose, Proximity, QuerySettings, Shape, distance,
    distance_facet_shapes, distance_tracked, signed_distance,
};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda");

struct Link {
    name: String,
    hull: ConvexHull,
    facet_shape: FacetShape,
}

impl Link {
    fn shape(&self) -> &Shape {
        self.facet_shape.shape()
    }
}

/// The links, built once per test binary (hulls and verified facet forms).
fn links() -> &'static [Link] {
    static LINKS: std::sync::OnceLock<Vec<Link>> = std::sync::OnceLock::new();
    LINKS.get_or_init(load_links)
}

fn load_links() -> Vec<Link> {
    let text = std::fs::read_to_string(format!("{DATA}/meshes.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut out: Vec<Link> = v["links"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, pts)| {
            let points: Vec<[f64; 3]> =
                pts.as_array().unwrap().iter().map(|p| [0, 1, 2].map(|k| p[k].as_f64().unwrap())).collect();
            let hull = convex_hull(&points).unwrap();
            let shape = Shape::ConvexPolytope(ConvexPolytope::hull_of(&points).unwrap());
            Link { name: name.clone(), hull, facet_shape: FacetShape::new(shape).unwrap() }
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

fn pose(p: &serde_json::Value) -> Pose {
    let v3 = |v: &serde_json::Value| [0, 1, 2].map(|k| v[k].as_f64().unwrap());
    let r = p["rotation"].as_array().unwrap();
    Pose::new([v3(&r[0]), v3(&r[1]), v3(&r[2])], v3(&p["translation"])).unwrap()
}

/// How far the world point `p` is above the planes of the hull's triangles (≤ 0 inside).
fn outside(hull: &ConvexHull, pose: &Pose, p: &Point3<f64>) -> f64 {
    let l = pose.inverse_transform_point(p);
    let v = hull.vertices();
    hull.triangles()
        .iter()
        .map(|t| {
            let n = (v[t[1]] - v[t[0]]).cross(&(v[t[2]] - v[t[0]]));
            n.dot(&(l - v[t[0]])) / n.norm()
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

fn closest_on_segment(p: &Vector3<f64>, a: &Vector3<f64>, b: &Vector3<f64>) -> Vector3<f64> {
    let ab = b - a;
    let t = ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
    a + ab * t
}

/// Distance from p to triangle (a, b, c), by the Voronoi regions of the triangle (Ericson,
/// *Real-Time Collision Detection*, §5.1.5): the closest point is built as a convex combination
/// of the corners, so the value is never below the true distance by more than one rounding of
/// |p − q| (a projection onto a sliver triangle's plane can undershoot).
fn point_triangle(p: &Vector3<f64>, [a, b, c]: [Vector3<f64>; 3]) -> f64 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return ap.norm();
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return bp.norm();
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return (p - (a + ab * (d1 / (d1 - d3)))).norm();
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return cp.norm();
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return (p - (a + ac * (d2 / (d2 - d6)))).norm();
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return (p - (b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))))).norm();
    }
    let denom = 1.0 / (va + vb + vc);
    (p - (a + ab * (vb * denom) + ac * (vc * denom))).norm()
}

/// Distance between segments [p0, p1] and [q0, q1] (clamped two-parameter least squares, with
/// the end-point distances as a safe fallback for parallel segments).
fn segment_segment(p0: &Vector3<f64>, p1: &Vector3<f64>, q0: &Vector3<f64>, q1: &Vector3<f64>) -> f64 {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    let (b, c) = (d1.dot(&d2), d1.dot(&r));
    let denom = a * e - b * b;
    let mut best = f64::INFINITY;
    if denom > 1e-14 * a * e {
        let s = ((b * f - c * e) / denom).clamp(0.0, 1.0);
        let t = ((b * s + f) / e).clamp(0.0, 1.0);
        let s = ((b * t - c) / a).clamp(0.0, 1.0);
        best = ((p0 + d1 * s) - (q0 + d2 * t)).norm();
    }
    for (x, (u, v)) in [(p0, (q0, q1)), (p1, (q0, q1)), (q0, (p0, p1)), (q1, (p0, p1))] {
        best = best.min((x - closest_on_segment(x, u, v)).norm());
    }
    best
}

/// Brute-force distance between two disjoint hulls: min over vertex–triangle (both ways) and
/// edge–edge pairs, in the world frame.
fn brute_force(a: &ConvexHull, pa: &Pose, b: &ConvexHull, pb: &Pose) -> f64 {
    let world = |h: &ConvexHull, p: &Pose| -> Vec<Vector3<f64>> {
        h.vertices().iter().map(|v| p.transform_point(v).coords).collect()
    };
    let (va, vb) = (world(a, pa), world(b, pb));
    let edges = |h: &ConvexHull| -> Vec<(usize, usize)> {
        let mut e: Vec<(usize, usize)> = h
            .triangles()
            .iter()
            .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
            .filter(|(i, j)| i < j)
            .collect();
        e.sort_unstable();
        e.dedup();
        e
    };
    let mut best = f64::INFINITY;
    for (vs, h, ws) in [(&va, b, &vb), (&vb, a, &va)] {
        for p in vs.iter() {
            for t in h.triangles() {
                best = best.min(point_triangle(p, t.map(|i| ws[i])));
            }
        }
    }
    let (ea, eb) = (edges(a), edges(b));
    for (i, j) in &ea {
        for (k, l) in &eb {
            best = best.min(segment_segment(&va[*i], &va[*j], &vb[*k], &vb[*l]));
        }
    }
    best
}

/// The query variants, by name, for one step; `cache`/`tracker` carry the warm state.
struct Answers {
    results: Vec<(&'static str, proxima_geom::DistanceResult)>,
}

fn settings(alg: Algorithm) -> QuerySettings {
    QuerySettings::default().with_algorithm(alg)
}

/// Checks one variant's answer against the hulls: a proven bracket, witnesses inside.
fn check_answer(
    name: &str,
    r: &proxima_geom::DistanceResult,
    a: &Link,
    pa: &Pose,
    b: &Link,
    pb: &Pose,
    at: &str,
) {
    let c = r.certificate;
    assert!(0.0 <= c.lower && c.lower <= c.upper, "{at} {name}: bracket {c:?}");
    // Witnesses inside the hulls: 1e-12 covers the rounding of a point on a face at link
    // coordinates ≤ 0.3 m (and of the independent plane evaluation here).
    let tol = 1e-12;
    match r.proximity {
        Proximity::Separated { distance, point_a, point_b, .. } => {
            assert!(outside(&a.hull, pa, &point_a) <= tol, "{at} {name}: witness outside {}", a.name);
            assert!(outside(&b.hull, pb, &point_b) <= tol, "{at} {name}: witness outside {}", b.name);
            assert!(
                ((point_b - point_a).norm() - c.upper).abs() <= 1e-15 && distance == c.upper,
                "{at} {name}"
            );
            // The default gap tolerance: 1e-9 × max(1, scale).
            assert!(c.upper - c.lower <= 1e-9, "{at} {name}: gap {}", c.upper - c.lower);
        }
        Proximity::Intersecting { point: Some(p), .. } | Proximity::Touching { point: p } => {
            assert!(
                outside(&a.hull, pa, &p) <= tol && outside(&b.hull, pb, &p) <= tol,
                "{at} {name}: common point"
            );
            assert_eq!((c.lower, c.upper), (0.0, 0.0), "{at} {name}");
        }
        Proximity::Intersecting { point: None, .. } => assert_eq!(c.upper, 0.0),
    }
}

/// No lower bound above any upper bound: all brackets contain the true distance.
fn check_brackets_overlap(answers: &Answers, at: &str) {
    for (x, rx) in &answers.results {
        for (y, ry) in &answers.results {
            assert!(
                rx.certificate.lower <= ry.certificate.upper + 1e-12,
                "{at}: {x}'s lower bound {} above {y}'s upper bound {}",
                rx.certificate.lower,
                ry.certificate.upper
            );
        }
    }
}

#[test]
fn facet_forms_of_the_panda_hulls_are_verified() {
    for link in links() {
        let f = link.facet_shape.facets();
        let h = &link.hull;
        let scale = 1.0 + h.vertices().iter().fold(0.0f64, |s, p| s.max(p.coords.norm()));
        let tau = FACET_MERGE_TOLERANCE * scale;
        assert!(f.num_facets() >= 4 && f.num_facets() <= h.triangles().len(), "{}", link.name);
        for j in 0..f.num_facets() {
            // Outward plane u·x ≤ d from the inward constraint a·x ≥ b.
            let (u, d) = (-f.normal(j), -f.offset(j));
            // Every hull vertex inside, and the facet touches the hull within τ.
            let top = h.vertices().iter().map(|v| u.dot(&v.coords) - d).fold(f64::NEG_INFINITY, f64::max);
            assert!(top <= 0.0, "{}: a vertex is outside facet {j} by {top:e}", link.name);
            assert!(top >= -tau - 1e-14, "{}: facet {j} does not touch the hull ({top:e})", link.name);
        }
        // No facet missing: every hull triangle lies within τ of some facet plane with the
        // same orientation.
        let v = h.vertices();
        for t in h.triangles() {
            let n = (v[t[1]] - v[t[0]]).cross(&(v[t[2]] - v[t[0]])).normalize();
            let covered = (0..f.num_facets()).any(|j| {
                let (u, d) = (-f.normal(j), -f.offset(j));
                u.dot(&n) > 0.0 && t.iter().all(|&i| (u.dot(&v[i].coords) - d).abs() <= tau + 1e-14)
            });
            assert!(covered, "{}: triangle {t:?} has no facet", link.name);
        }
    }
}

#[test]
fn trajectories_every_variant_agrees_with_coal_and_brute_force() {
    let by_name: HashMap<&str, &Link> = links().iter().map(|l| (l.name.as_str(), l)).collect();
    let text = std::fs::read_to_string(format!("{DATA}/tracks.json")).unwrap();
    let w: serde_json::Value = serde_json::from_str(&text).unwrap();
    let (mut steps, mut overlapping, mut brute) = (0, 0, 0);
    let mut worst_coal = 0.0f64;
    let (auto, gjk, dqp3) = (settings(Algorithm::Auto), settings(Algorithm::Gjk), settings(Algorithm::Dqp3));
    for (ti, t) in w["tracks"].as_array().unwrap().iter().enumerate() {
        let a = by_name[t["a"].as_str().unwrap()];
        let b = by_name[t["b"].as_str().unwrap()];
        let mut cache = GjkCache::new();
        let mut tracker = Dqp3ShapeTracker::new(&a.facet_shape, &b.facet_shape, &auto).unwrap();
        let poses = t["poses_a"].as_array().unwrap().iter().zip(t["poses_b"].as_array().unwrap());
        for (k, (ja, jb)) in poses.enumerate() {
            let (pa, pb) = (pose(ja), pose(jb));
            let coal = t["coal_distance"][k].as_f64().unwrap();
            let at = format!("track {ti} ({} – {}) step {k}", a.name, b.name);
            let (sa, sb) = (a.shape(), b.shape());
            let answers = Answers {
                results: vec![
                    ("auto", distance(sa, &pa, sb, &pb, &auto).unwrap()),
                    ("gjk", distance(sa, &pa, sb, &pb, &gjk).unwrap()),
                    ("gjk tracked", distance_tracked(sa, &pa, sb, &pb, &gjk, &mut cache).unwrap()),
                    ("dqp3", distance(sa, &pa, sb, &pb, &dqp3).unwrap()),
                    (
                        "dqp3 facet shapes",
                        distance_facet_shapes(&a.facet_shape, &pa, &b.facet_shape, &pb, &auto).unwrap(),
                    ),
                    ("dqp3 tracked", tracker.step(&pa, &pb).unwrap()),
                ],
            };
            for (name, r) in &answers.results {
                check_answer(name, r, a, &pa, b, &pb, &at);
            }
            check_brackets_overlap(&answers, &at);
            let sd = signed_distance(sa, &pa, sb, &pb, &auto).unwrap();
            assert!(sd.certificate.lower <= sd.value && sd.value <= sd.certificate.upper, "{at}: {sd:?}");
            if coal > 0.0 {
                for (name, r) in &answers.results {
                    let d = r.distance();
                    worst_coal = worst_coal.max((d - coal).abs());
                    assert!((d - coal).abs() <= 1e-6, "{at} {name}: {d} vs coal {coal}");
                }
                assert!((sd.value - coal).abs() <= 1e-6, "{at}: signed {} vs coal {coal}", sd.value);
                // (The brute force costs ~1 s per step in the debug profile.)
                if k % 20 == 0 {
                    let reference = brute_force(&a.hull, &pa, &b.hull, &pb);
                    for (name, r) in &answers.results {
                        let c = r.certificate;
                        // The brute force evaluates the same distances in f64: 1e-13 at these
                        // coordinates covers both roundings.
                        assert!(
                            c.lower <= reference + 1e-13 && reference <= c.upper + 1e-13,
                            "{at} {name}: [{}, {}] vs brute force {reference}",
                            c.lower,
                            c.upper
                        );
                    }
                    brute += 1;
                }
            } else {
                overlapping += 1;
                for (name, r) in &answers.results {
                    assert_eq!(r.distance(), 0.0, "{at} {name}: coal says overlapping by {}", -coal);
                }
                // coal's EPA depth against our proven bracket of the signed distance.
                assert!(sd.certificate.upper < 0.0, "{at}: overlap {coal} not proven: {sd:?}");
                assert!((sd.value - coal).abs() <= 1e-6, "{at}: signed {} vs coal {coal}", sd.value);
            }
            steps += 1;
        }
    }
    eprintln!(
        "{steps} steps ({overlapping} overlapping, {brute} brute-force checked); max |d − coal| {worst_coal:e}"
    );
    assert!(steps >= 400 && overlapping >= 20 && brute >= 15);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random link pairs at random poses, from overlapping by 1 cm to 5 cm apart along a random
    /// direction: every variant's bracket contains the brute-force distance.
    #[test]
    fn random_link_pairs_every_bracket_contains_the_reference(
        ia in 0usize..10, ib in 0usize..10,
        ra in prop::array::uniform3(-3.0f64..3.0), rb in prop::array::uniform3(-3.0f64..3.0),
        dir in prop::array::uniform3(-1.0f64..1.0), gap in -0.01f64..0.05,
    ) {
        let links = links();
        let (a, b) = (&links[ia], &links[ib]);
        let rot = |r: [f64; 3]| *nalgebra::Rotation3::new(Vector3::from(r)).matrix();
        let pa = Pose::from_matrix(rot(ra), Vector3::new(0.1, -0.2, 0.3)).unwrap();
        let u = Vector3::from(dir).try_normalize(1e-3).unwrap_or_else(Vector3::x);
        let probe = Pose::from_matrix(rot(rb), Vector3::zeros()).unwrap();
        let reach = a.shape().support_value(&pa, &u) - u.dot(pa.translation()) + b.shape().support_value(&probe, &-u);
        let pb = Pose::from_matrix(rot(rb), pa.translation() + u * (reach + gap)).unwrap();
        let (auto, gjk, dqp3) = (settings(Algorithm::Auto), settings(Algorithm::Gjk), settings(Algorithm::Dqp3));
        let (sa, sb) = (a.shape(), b.shape());
        let answers = Answers {
            results: vec![
                ("auto", distance(sa, &pa, sb, &pb, &auto).unwrap()),
                ("gjk", distance(sa, &pa, sb, &pb, &gjk).unwrap()),
                ("dqp3", distance(sa, &pa, sb, &pb, &dqp3).unwrap()),
                ("dqp3 facet shapes", distance_facet_shapes(&a.facet_shape, &pa, &b.facet_shape, &pb, &auto).unwrap()),
            ],
        };
        let at = format!("{} – {}", a.name, b.name);
        for (name, r) in &answers.results {
            check_answer(name, r, a, &pa, b, &pb, &at);
        }
        check_brackets_overlap(&answers, &at);
        if answers.results[1].1.distance() > 1e-9 {
            let reference = brute_force(&a.hull, &pa, &b.hull, &pb);
            for (name, r) in &answers.results {
                let c = r.certificate;
                prop_assert!(c.lower <= reference + 1e-13 && reference <= c.upper + 1e-13,
                    "{} {}: [{}, {}] vs brute force {}", at, name, c.lower, c.upper, reference);
            }
        }
    }
}
