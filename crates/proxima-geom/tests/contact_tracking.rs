//! Tracking through contact against the cold signed distance: random tracks of the pairs a
//! user tracks through contact (cylinder–ellipsoid, box–box, convex hull–hull, capsule–box,
//! cylinder–box, ellipsoid–hull) sweep B from 0.1 apart to deep overlap and back while both
//! shapes turn, with one cache per track (`distance_tracked`). At every step the tracked answer
//! must agree with a cold `signed_distance` on the same shapes and poses (an independent run:
//! no cache, its own GJK/EPA or separating-axis depth, its own proven bracket):
//!
//! * apart: the same status, the tracked distance inside the cold bracket (widened by the
//!   tolerance below) and its own bracket overlapping the cold one;
//! * overlapping: the tracked depth inside the cold depth bracket, widened by the tolerance.
//!
//! Tolerance: both answers are certified to 1e-10 × the problem's scale (its size: ≤ 6 for
//! these shapes) on polytopal pairs and on curved pairs whose finish certifies; an EPA that
//! stops at its iteration cap on a curved pair keeps a wider (still proven) bracket, which the
//! cold bracket's own width covers. 1e-8 absolute is 20× the polytopal certificates' width:
//! it catches any warm depth off its bracket (a wrong feature is off by the step's motion,
//! ≥ 1e-4 here) without flagging rounding.

use nalgebra::{Rotation3, Vector3};
use proxima_geom::{GjkCache, Pose, Proximity, QuerySettings, distance_tracked, signed_distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[path = "support/tracked_shapes.rs"]
mod tracked_shapes;
use tracked_shapes::tracked_shape as shape;

const TOL: f64 = 1e-8;

fn rotation(rng: &mut SmallRng) -> Rotation3<f64> {
    let v =
        Vector3::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0));
    Rotation3::new(v)
}

/// One pair's tracks; returns how many overlapping steps were checked.
fn check_pair(pair: &str, seed: u64) -> usize {
    let (ka, kb) = pair.split_once('_').unwrap();
    let mut rng = SmallRng::seed_from_u64(seed);
    let s = QuerySettings::default();
    let mut overlapping = 0;
    for track in 0..12 {
        let (a, b) = (shape(ka, &mut rng), shape(kb, &mut rng));
        let (ra, rb) = (rotation(&mut rng), rotation(&mut rng));
        let wa = Vector3::new(rng.random_range(-0.02..0.02), rng.random_range(-0.02..0.02), 0.01);
        let wb = Vector3::new(0.006, rng.random_range(-0.02..0.02), rng.random_range(-0.02..0.02));
        let d = Vector3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), 0.5).normalize();
        let deep = rng.random_range(0.2..0.5);
        let mut cache = GjkCache::new();
        for k in 0..48 {
            let t = k as f64 / 47.0;
            // Apart by 0.1, down to −deep at the middle, back to 0.1.
            let gap = 0.1 - (0.1 + deep) * (1.0 - (2.0 * t - 1.0).abs());
            let pa =
                Pose::from_matrix(*(Rotation3::new(wa * k as f64) * ra).matrix(), Vector3::zeros()).unwrap();
            let rbk = Rotation3::new(wb * k as f64) * rb;
            let pb0 = Pose::from_matrix(*rbk.matrix(), Vector3::zeros()).unwrap();
            let reach = a.support_value(&pa, &d) + b.support_value(&pb0, &-d);
            let pb = Pose::from_matrix(*rbk.matrix(), d * (reach + gap)).unwrap();
            let warm = distance_tracked(&a, &pa, &b, &pb, &s, &mut cache).unwrap();
            let cold = signed_distance(&a, &pa, &b, &pb, &s).unwrap();
            let (lo, hi) = (cold.certificate.lower, cold.certificate.upper);
            let at = format!("{pair} track {track} step {k}: warm {warm:?}\ncold {cold:?}");
            match warm.proximity {
                Proximity::Separated { distance, .. } => {
                    assert!(hi > -TOL, "{at}");
                    assert!(lo - TOL <= distance && distance <= hi + TOL, "{at}");
                    assert!(warm.certificate.lower <= hi + TOL && lo <= warm.certificate.upper + TOL, "{at}");
                }
                Proximity::Touching { .. } => assert!(lo <= TOL && hi >= -TOL, "{at}"),
                Proximity::Intersecting { depth, .. } => {
                    assert!(lo < TOL, "{at}");
                    if let Some(depth) = depth {
                        overlapping += 1;
                        assert!(lo - TOL <= -depth && -depth <= hi + TOL, "{at}");
                    }
                }
            }
        }
    }
    overlapping
}

#[test]
fn tracked_contact_matches_cold_signed_distance() {
    for (i, pair) in ["cyl_ell", "box_box", "hull_hull", "cap_box", "cyl_box", "ell_hull"].iter().enumerate()
    {
        let n = check_pair(pair, 91 + i as u64);
        // Every pair but box–box (the LCP route answers overlap without a depth) is checked on
        // overlapping steps with a depth.
        assert!(*pair == "box_box" || n >= 100, "{pair}: only {n} overlapping steps with a depth");
    }
}

/// The depth of the hull of the Minkowski difference's points `m` (the origin inside): the
/// least distance from the origin to the planes of its triangles, by parry3d's quickhull (an
/// independent hull code, no GJK or EPA); `None` when the hull fails or the origin is not
/// strictly inside.
fn hull_depth(m: &[Vector3<f64>]) -> Option<f64> {
    use parry3d_f64::math::Vector as PVector;
    let pts: Vec<PVector> = m.iter().map(|p| PVector::new(p.x, p.y, p.z)).collect();
    let (v, f) = parry3d_f64::transformation::try_convex_hull(&pts).ok()?;
    let v: Vec<Vector3<f64>> = v.iter().map(|p| Vector3::new(p.x, p.y, p.z)).collect();
    let centre = v.iter().sum::<Vector3<f64>>() / v.len() as f64;
    let mut depth = f64::INFINITY;
    for t in &f {
        let [p, q, r] = t.map(|i| v[i as usize]);
        let Some(n) = (q - p).cross(&(r - p)).try_normalize(1e-12) else { continue };
        let n = if n.dot(&(p - centre)) < 0.0 { -n } else { n };
        depth = depth.min(n.dot(&p));
    }
    (depth > 0.0 && depth.is_finite()).then_some(depth)
}

/// Points of `shape` as placed by `pose` whose hull is inside it: a polytope's or box's
/// vertices (the hull is the shape), else support points along a Fibonacci sphere of `n`
/// directions (an inner approximation).
fn inner_points(shape: &proxima_geom::Shape, pose: &Pose, n: usize) -> Vec<Vector3<f64>> {
    use proxima_geom::Shape;
    let local: Vec<Vector3<f64>> = match shape {
        Shape::ConvexPolytope(p) => p.vertices().iter().map(|v| v.coords).collect(),
        Shape::Cuboid(b) => {
            let e = b.half_extents();
            (0..8).map(|k| Vector3::new(e.x, e.y, e.z).component_mul(&corner(k))).collect()
        }
        _ => {
            return fibonacci(n).iter().map(|d| shape.support_point(pose, d).unwrap().coords).collect();
        }
    };
    local.iter().map(|p| pose.transform_point(&(*p).into()).coords).collect()
}

/// The signs of corner `k` of a box.
fn corner(k: usize) -> Vector3<f64> {
    let s = |bit: usize| if k >> bit & 1 == 1 { 1.0 } else { -1.0 };
    Vector3::new(s(0), s(1), s(2))
}

/// `n` unit directions spread over the sphere (golden-angle spiral).
fn fibonacci(n: usize) -> Vec<Vector3<f64>> {
    (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - z * z).sqrt();
            let phi = i as f64 * 2.399_963_229_728_653;
            Vector3::new(r * phi.cos(), r * phi.sin(), z)
        })
        .collect()
}

/// A brute-force bracket of the penetration depth of A and B as placed, independent of GJK and
/// EPA: for two polytopes (hulls, boxes) the exact depth of the hull of the Minkowski
/// difference's vertices (both ends equal); otherwise [depth of the inner approximations'
/// difference (A' ⊆ A and B' ⊆ B give h_{A'−B'} ≤ h_{A−B}, so its depth is a lower bound),
/// the least support value h_A(n) + h_B(−n) over a sphere of directions (each an upper
/// bound)]. `None` when the hull fails.
fn brute_depth(a: &proxima_geom::Shape, pa: &Pose, b: &proxima_geom::Shape, pb: &Pose) -> Option<(f64, f64)> {
    let (ia, ib) = (inner_points(a, pa, 96), inner_points(b, pb, 96));
    let m: Vec<Vector3<f64>> = ia.iter().flat_map(|p| ib.iter().map(move |q| p - q)).collect();
    let lower = hull_depth(&m)?;
    let polytopal = |s: &proxima_geom::Shape| {
        matches!(s, proxima_geom::Shape::ConvexPolytope(_) | proxima_geom::Shape::Cuboid(_))
    };
    if polytopal(a) && polytopal(b) {
        return Some((lower, lower));
    }
    let upper = fibonacci(4000)
        .iter()
        .map(|n| a.support_value(pa, n) + b.support_value(pb, &-n))
        .fold(f64::INFINITY, f64::min);
    Some((lower, upper))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]

    /// Tracked steps in contact on random trajectories (both shapes turning, B kept
    /// overlapping A by 0.05–0.3 along a fixed direction) against the cold signed distance and
    /// a brute-force reference (`brute_depth`) on the same shapes and poses: the tracked depth
    /// lies in the cold bracket, and both the tracked depth and the cold bracket meet the
    /// reference bracket (the exact depth for two polytopes). Tolerance 1e-8 absolute as in `check_pair` (20× the certificates' width
    /// at these sizes, below any wrong feature's error); the hull of the polytopes' difference
    /// is exact to a few ulps of its coordinates (≤ 4).
    #[test]
    fn tracked_depth_contains_brute_force_reference(
        pair in 0usize..6,
        seed in 0u64..1_000_000,
        overlap in 0.05f64..0.3,
        wa in proptest::array::uniform3(-0.03f64..0.03),
        wb in proptest::array::uniform3(-0.03f64..0.03),
    ) {
        let pair = ["cyl_ell", "box_box", "hull_hull", "cap_box", "cyl_box", "ell_hull"][pair];
        let (ka, kb) = pair.split_once('_').unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        let (a, b) = (shape(ka, &mut rng), shape(kb, &mut rng));
        let (ra, rb) = (rotation(&mut rng), rotation(&mut rng));
        let d = Vector3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), 0.5).normalize();
        let core = if let proxima_geom::Shape::Capsule(c) = &a { c.radius() } else { 0.0 };
        let (wa, wb) = (Vector3::from(wa), Vector3::from(wb));
        let s = QuerySettings::default();
        let mut cache = GjkCache::new();
        for k in 0..12 {
            let kf = k as f64;
            let pa = Pose::from_matrix(*(Rotation3::new(wa * kf) * ra).matrix(), Vector3::zeros()).unwrap();
            let rbk = Rotation3::new(wb * kf) * rb;
            let pb0 = Pose::from_matrix(*rbk.matrix(), Vector3::zeros()).unwrap();
            let reach = a.support_value(&pa, &d) + b.support_value(&pb0, &-d);
            let pb = Pose::from_matrix(*rbk.matrix(), d * (reach - core - overlap)).unwrap();
            let warm = distance_tracked(&a, &pa, &b, &pb, &s, &mut cache).unwrap();
            let cold = signed_distance(&a, &pa, &b, &pb, &s).unwrap();
            let at = format!("{pair} step {k}: warm {warm:?}\ncold {cold:?}");
            // The common point of a tracked overlap is in both shapes (distance 0 from each, to
            // the certificates' rounding).
            if let Proximity::Intersecting { point: Some(p), .. } = warm.proximity {
                let dot = proxima_geom::Shape::Point(proxima_geom::shape::Point::new(p.coords.into()).unwrap());
                let origin = Pose::identity();
                for (shape, pose) in [(&a, &pa), (&b, &pb)] {
                    let d = proxima_geom::distance(&dot, &origin, shape, pose, &s).unwrap().distance();
                    proptest::prop_assert!(d <= TOL, "common point {:?} off a shape by {}: {}", p, d, at);
                }
            }
            // (Overlapping projections onto d need not overlap in space: a thin pair can be
            // apart at some steps; the LCP route (box–box) answers overlap without a depth.)
            let depth = match warm.proximity {
                Proximity::Intersecting { depth: Some(depth), .. } => depth,
                Proximity::Intersecting { depth: None, .. } | Proximity::Touching { .. } => {
                    proptest::prop_assert!(cold.certificate.lower < TOL, "{}", at);
                    continue;
                }
                Proximity::Separated { .. } => {
                    proptest::prop_assert!(cold.certificate.upper > -TOL, "{}", at);
                    continue;
                }
            };
            // The tracked answer carries its depth (the upper end of its proven bracket, which
            // closes to the tolerance); the cold one its bracket of the signed distance.
            let (cl, cu) = (-cold.certificate.upper, -cold.certificate.lower);
            proptest::prop_assert!(cl - TOL <= depth && depth <= cu + TOL, "off the cold bracket: {}", at);
            // The reference on the cores' shapes: the capsule's depth is its core segment's
            // plus its radius (a segment's hull is its two ends: no approximation).
            if k % 3 == 0 {
                let reference = match &a {
                    proxima_geom::Shape::Capsule(c) => {
                        let h = c.half_height();
                        let seg = proxima_geom::Shape::Segment(
                            proxima_geom::shape::Segment::new([0.0, 0.0, -h], [0.0, 0.0, h]).unwrap(),
                        );
                        brute_depth(&seg, &pa, &b, &pb).map(|(l, u)| (l + core, u + core))
                    }
                    _ => brute_depth(&a, &pa, &b, &pb),
                };
                if let Some((rl, ru)) = reference {
                    let tol = TOL + 4.0 * f64::EPSILON * 8.0;
                    for (lo, hi, who) in [(depth, depth, "tracked"), (cl, cu, "cold")] {
                        proptest::prop_assert!(
                            lo <= ru + tol && rl <= hi + tol,
                            "{} bracket [{}, {}] misses the reference [{}, {}]: {}", who, lo, hi, rl, ru, at
                        );
                    }
                }
            }
        }
    }
}
