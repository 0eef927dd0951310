//! Our method against the independent double-double oracle on the harness's `ellipsoids`
//! workload, degenerate inputs, and proptest properties (bracket, symmetry).

use nalgebra::Vector3;
use proptest::prelude::*;
use proxima_geom::ellipsoid::{
    EllipsoidSettings, EllipsoidStatus, distance_ellipsoid_ellipsoid, distance_point_ellipsoid_nd,
    distance_polytope_ellipsoid, oracle_distance,
};
use proxima_geom::shape::{ConvexPolytope, Ellipsoid};
use proxima_geom::{GeomError, Pose, Proximity};

fn pose(v: &serde_json::Value) -> Pose {
    let t: Vec<f64> = v["translation"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    let r: Vec<Vec<f64>> = v["rotation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect())
        .collect();
    Pose::new(
        [[r[0][0], r[0][1], r[0][2]], [r[1][0], r[1][1], r[1][2]], [r[2][0], r[2][1], r[2][2]]],
        [t[0], t[1], t[2]],
    )
    .unwrap()
}

#[test]
fn workload_pairs_agree_with_the_double_double_oracle() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/geometry/workloads/ellipsoids.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let w: serde_json::Value = serde_json::from_str(&text).unwrap();
    let shapes: std::collections::HashMap<String, Ellipsoid> = w["shapes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let r: Vec<f64> = s["radii"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
            (s["id"].as_str().unwrap().to_string(), Ellipsoid::new([r[0], r[1], r[2]]).unwrap())
        })
        .collect();
    // The vendored extract holds every 7th query of the harness workload (286 pairs, fast in
    // the debug profile; all 2000 are checked by `proxima reproduce ellipsoids`).
    let mut checked = 0;
    for q in w["queries"].as_array().unwrap().iter() {
        let (a, b) = (&shapes[q["a"].as_str().unwrap()], &shapes[q["b"].as_str().unwrap()]);
        let (pa, pb) = (pose(&q["pose_a"]), pose(&q["pose_b"]));
        let ours = distance_ellipsoid_ellipsoid(a, &pa, b, &pb, &EllipsoidSettings::default()).unwrap();
        let oracle = oracle_distance(a, &pa, b, &pb).unwrap();
        assert_eq!(ours.status, EllipsoidStatus::Converged);
        assert_eq!(ours.is_intersecting(), oracle.intersecting, "query {q}");
        if !oracle.intersecting {
            assert!(oracle.gap <= 1e-24, "oracle gap {}", oracle.gap);
            assert!(
                (ours.distance() - oracle.distance).abs() <= 1e-10,
                "{} vs {}",
                ours.distance(),
                oracle.distance
            );
        }
        // The certificate brackets the oracle's distance; 1e-13 covers the f64 evaluation of
        // the bounds themselves (a few ulps of the coordinates, which are ≤ ~10 here).
        let (lo, up) = (ours.certificate.lower, ours.certificate.upper);
        assert!(lo <= oracle.distance + 1e-13 && oracle.distance <= up + 1e-13, "{ours:?} {oracle:?}");
        checked += 1;
    }
    assert!(checked > 200);
}

#[test]
fn crossed_test_oracle_value() {
    let a = Ellipsoid::new([1.0, 2.0, 5.0]).unwrap();
    let b = Ellipsoid::new([5.0, 2.0, 1.0]).unwrap();
    let pb = Pose::from_translation([4.0, 4.0, 4.0]).unwrap();
    let o = oracle_distance(&a, &Pose::identity(), &b, &pb).unwrap();
    assert!((o.distance - 1.295494819938741).abs() <= 1e-15, "{}", o.distance);
}

#[test]
fn degenerate_inputs() {
    let s = EllipsoidSettings::default();
    // Radius 0: rejected by the constructor; NaN likewise.
    assert!(matches!(Ellipsoid::new([0.0, 1.0, 1.0]), Err(GeomError::NonPositive { .. })));
    assert!(matches!(Ellipsoid::new([f64::NAN, 1.0, 1.0]), Err(GeomError::NonFinite { .. })));
    // Point–ellipsoid: centre, axis, surface, extreme aspects, bad sizes.
    assert!(distance_point_ellipsoid_nd(&[1.0, 2.0], &[1.0]).is_err());
    assert!(distance_point_ellipsoid_nd(&[], &[]).is_err());
    assert!(distance_point_ellipsoid_nd(&[1.0, -2.0], &[1.0, 0.0]).is_err());
    assert!(distance_point_ellipsoid_nd(&[1.0, 2.0], &[f64::INFINITY, 0.0]).is_err());
    let c = distance_point_ellipsoid_nd(&[1.0, 2.0, 3.0], &[0.0, 0.0, 0.0]).unwrap();
    assert_eq!(c.info.distance, 0.0);
    assert!((c.info.surface_distance - 1.0).abs() < 1e-15);
    // The world-frame 3-D entry point agrees with the n-dimensional one in the local frame.
    let e3 = Ellipsoid::new([1.0, 2.0, 5.0]).unwrap();
    let moved = Pose::new([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]], [1.0, 2.0, 3.0]).unwrap();
    let w = proxima_geom::ellipsoid::distance_point_ellipsoid(&[-3.0, 6.0, 7.0].into(), &e3, &moved).unwrap();
    assert!((w.info.distance - 4.55719056599395).abs() < 1e-12, "{}", w.info.distance);
    assert!(
        proxima_geom::ellipsoid::distance_point_ellipsoid(&[f64::NAN, 0.0, 0.0].into(), &e3, &moved).is_err()
    );
    let on = distance_point_ellipsoid_nd(&[1.0, 2.0, 3.0], &[0.0, 2.0, 0.0]).unwrap();
    assert_eq!(on.info.surface_distance, 0.0);
    for aspect in [1e-6f64, 1e-3, 1.0, 1e3, 1e6] {
        for p in [[3.0, 0.0, 0.0], [0.0, 0.0, 2.0], [0.3, 0.2, 0.1], [1e-7, 5.0, -4.0], [0.0, 1e-9, 0.0]] {
            let a = [1.0, aspect, aspect.sqrt()];
            let r = distance_point_ellipsoid_nd(&a, &p).unwrap();
            assert!(r.info.surface_distance.is_finite());
            let level: f64 = (0..3).map(|i| (r.closest[i] / a[i]).powi(2)).sum();
            assert!((level - 1.0).abs() <= 1e-12, "aspect {aspect} p {p:?}: level {level}");
            // Brute-force check: no sampled surface point is closer (to round-off).
            for k in 0..400 {
                let (t, f) = (k as f64 * 0.0157, k as f64 * 0.61);
                let q = [a[0] * t.sin() * f.cos(), a[1] * t.sin() * f.sin(), a[2] * t.cos()];
                let d: f64 = (0..3).map(|i| (q[i] - p[i]).powi(2)).sum::<f64>().sqrt();
                assert!(d >= r.info.surface_distance - 1e-9 * (1.0 + d), "aspect {aspect} p {p:?}");
            }
        }
    }
    // Coincident centres.
    let e = Ellipsoid::new([1.0, 2.0, 3.0]).unwrap();
    let r = distance_ellipsoid_ellipsoid(&e, &Pose::identity(), &e, &Pose::identity(), &s).unwrap();
    assert!(r.is_intersecting());
    assert_eq!(r.distance(), 0.0);
    // Radius 1e-12 (a disc), separated and intersecting.
    let disc = Ellipsoid::new([1.0, 1.0, 1e-12]).unwrap();
    let above = Pose::from_translation([0.3, 0.2, 2.5]).unwrap();
    let r = distance_ellipsoid_ellipsoid(&disc, &Pose::identity(), &e, &above, &s).unwrap();
    let o = oracle_distance(&disc, &Pose::identity(), &e, &above).unwrap();
    assert!(
        r.distance().is_finite() && (r.distance() - o.distance).abs() < 1e-10,
        "{} {}",
        r.distance(),
        o.distance
    );
    let through = Pose::from_translation([0.3, 0.2, 0.5]).unwrap();
    let r = distance_ellipsoid_ellipsoid(&disc, &Pose::identity(), &e, &through, &s).unwrap();
    assert!(r.is_intersecting());
    // Touching spheres-as-ellipsoids: distance ≤ 1e-12, never NaN.
    let ball = Ellipsoid::new([1.0, 1.0, 1.0]).unwrap();
    let touch = Pose::from_translation([2.0, 0.0, 0.0]).unwrap();
    let r = distance_ellipsoid_ellipsoid(&ball, &Pose::identity(), &ball, &touch, &s).unwrap();
    assert!(r.distance() <= 1e-12 && r.certificate.upper <= 1e-12 && !r.certificate.lower.is_nan());
    // Parallel discs (non-unique witnesses, singular dual Hessian in one direction), crossed
    // needles and extreme aspect ratios, against the oracle.
    let flat = Ellipsoid::new([1.0, 1.0, 1e-12]).unwrap();
    let needle_x = Ellipsoid::new([3.0, 1e-6, 1e-6]).unwrap();
    let needle_y = Ellipsoid::new([1e-6, 3.0, 1e-6]).unwrap();
    let long = Ellipsoid::new([1e6, 1.0, 1e-6]).unwrap();
    let cases = [
        (flat, Pose::identity(), flat, Pose::from_translation([0.2, 0.1, 1.0]).unwrap()),
        (needle_x, Pose::identity(), needle_y, Pose::from_translation([0.5, -0.3, 0.7]).unwrap()),
        (long, Pose::identity(), ball, Pose::from_translation([3.0, 0.0, 2.5]).unwrap()),
        (e, Pose::identity(), long, Pose::from_translation([0.0, 7.0, 0.0]).unwrap()),
    ];
    for (a, pa, b, pb) in cases {
        let r = distance_ellipsoid_ellipsoid(&a, &pa, &b, &pb, &s).unwrap();
        let o = oracle_distance(&a, &pa, &b, &pb).unwrap();
        assert!(r.distance().is_finite() && !r.certificate.lower.is_nan());
        assert_eq!(r.is_intersecting(), o.intersecting, "{a:?} {b:?}");
        assert!((r.distance() - o.distance).abs() <= 1e-9, "{a:?} {b:?}: {} vs {}", r.distance(), o.distance);
        assert!(r.certificate.lower <= o.distance + 1e-12 && o.distance <= r.certificate.upper + 1e-12);
    }
    // Bad settings.
    let bad = EllipsoidSettings { tolerance: f64::NAN, ..s };
    assert!(distance_ellipsoid_ellipsoid(&ball, &Pose::identity(), &ball, &touch, &bad).is_err());
}

#[test]
fn polytope_ellipsoid_cases() {
    let s = EllipsoidSettings::default();
    let e = Ellipsoid::new([1.0, 2.0, 5.0]).unwrap();
    // A cube facing the ellipsoid's x = 1 tip: closest feature is a face.
    let cube = ConvexPolytope::new(
        (0..8)
            .map(|i| [3.0 + (i & 1) as f64, -0.5 + ((i >> 1) & 1) as f64, -0.5 + ((i >> 2) & 1) as f64])
            .collect(),
    )
    .unwrap();
    let r = distance_polytope_ellipsoid(&cube, &Pose::identity(), &e, &Pose::identity(), &s).unwrap();
    assert!((r.distance() - 2.0).abs() < 1e-12, "{}", r.distance());
    assert_eq!(r.status, EllipsoidStatus::Converged);
    // A single vertex equals point-to-ellipsoid.
    let point = ConvexPolytope::new(vec![[4.0, 4.0, 4.0]]).unwrap();
    let r = distance_polytope_ellipsoid(&point, &Pose::identity(), &e, &Pose::identity(), &s).unwrap();
    assert!((r.distance() - 4.55719056599395).abs() < 1e-12);
    // An edge across the ellipsoid's tip: closest feature is the edge interior.
    let seg = ConvexPolytope::new(vec![[2.0, -3.0, 0.0], [2.0, 3.0, 0.0]]).unwrap();
    let r = distance_polytope_ellipsoid(&seg, &Pose::identity(), &e, &Pose::identity(), &s).unwrap();
    assert!((r.distance() - 1.0).abs() < 1e-12, "{}", r.distance());
    // Intersecting.
    let inside = ConvexPolytope::new(vec![[0.5, 0.0, 0.0], [3.0, 0.0, 0.0], [0.0, 3.0, 0.0]]).unwrap();
    let r = distance_polytope_ellipsoid(&inside, &Pose::identity(), &e, &Pose::identity(), &s).unwrap();
    assert!(matches!(r.proximity, Proximity::Intersecting { point: Some(_), .. }));
}

fn arb_ellipsoid() -> impl Strategy<Value = Ellipsoid> {
    (0.05f64..3.0, 0.05f64..3.0, 0.05f64..3.0).prop_map(|(a, b, c)| Ellipsoid::new([a, b, c]).unwrap())
}

fn arb_pose() -> impl Strategy<Value = Pose> {
    (prop::array::uniform3(-4.0f64..4.0), prop::array::uniform3(-1.0f64..1.0), 0.0f64..6.0).prop_map(
        |(t, axis, angle)| {
            let axis = Vector3::from(axis);
            let rot = match nalgebra::Unit::try_new(axis, 1e-6) {
                Some(u) => nalgebra::Rotation3::from_axis_angle(&u, angle),
                None => nalgebra::Rotation3::identity(),
            };
            Pose::from_matrix(*rot.matrix(), Vector3::from(t)).unwrap()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn bracket_and_symmetry(a in arb_ellipsoid(), pa in arb_pose(), b in arb_ellipsoid(), pb in arb_pose()) {
        let s = EllipsoidSettings::default();
        let ab = distance_ellipsoid_ellipsoid(&a, &pa, &b, &pb, &s).unwrap();
        let ba = distance_ellipsoid_ellipsoid(&b, &pb, &a, &pa, &s).unwrap();
        let o = oracle_distance(&a, &pa, &b, &pb).unwrap();
        prop_assert!(!ab.certificate.lower.is_nan() && !ab.certificate.upper.is_nan());
        prop_assert!(ab.certificate.lower <= o.distance + 1e-13 && o.distance <= ab.certificate.upper + 1e-13);
        prop_assert_eq!(ab.is_intersecting(), ba.is_intersecting());
        prop_assert!((ab.distance() - ba.distance()).abs() <= 1e-10);
        prop_assert!((ab.distance() - o.distance).abs() <= 1e-10);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Polytope–ellipsoid: the certificate closes (gap ≤ 1e-9 × scale), its lower bound
    /// recomputed independently from the shapes' support functions agrees, and no vertex is
    /// closer to the ellipsoid than the answer.
    #[test]
    fn polytope_ellipsoid_certificate(
        pts in prop::collection::vec(prop::array::uniform3(-1.0f64..1.0), 1..9),
        shift in prop::array::uniform3(-5.0f64..5.0),
        e in arb_ellipsoid(),
        pe in arb_pose(),
    ) {
        let verts: Vec<[f64; 3]> = pts.iter().map(|p| [p[0] + shift[0], p[1] + shift[1], p[2] + shift[2]]).collect();
        let poly = ConvexPolytope::new(verts.clone()).unwrap();
        let r = distance_polytope_ellipsoid(&poly, &Pose::identity(), &e, &pe, &EllipsoidSettings::default()).unwrap();
        prop_assert!(!r.certificate.lower.is_nan() && r.certificate.lower <= r.certificate.upper);
        let scale = 1.0 + (Vector3::from(shift) - pe.translation()).norm() + e.radii().max();
        if let Proximity::Separated { distance, normal, .. } = r.proximity {
            prop_assert!(r.certificate.gap() <= 1e-9 * scale, "gap {}", r.certificate.gap());
            let sa = proxima_geom::Shape::ConvexPolytope(poly.clone()).support_value(&Pose::identity(), &normal);
            let sb = proxima_geom::Shape::Ellipsoid(e).support_value(&pe, &-normal);
            prop_assert!((-sb - sa - distance).abs() <= 1e-9 * scale);
            for v in &verts {
                let local = pe.inverse_transform_point(&(*v).into());
                let p = distance_point_ellipsoid_nd(e.radii().as_slice(), local.coords.as_slice()).unwrap();
                prop_assert!(p.info.distance >= distance - 1e-12 * scale);
            }
        }
    }
}

#[test]
fn warm_start_tracks_with_fewer_iterations() {
    // 100 steps of a small relative motion: warm-starting from the previous normal gives the
    // same answer (to 1e-12) with fewer Newton steps in total.
    let a = Ellipsoid::new([1.0, 2.0, 5.0]).unwrap();
    let b = Ellipsoid::new([5.0, 2.0, 1.0]).unwrap();
    let s = EllipsoidSettings::default();
    let (mut cold_total, mut warm_total) = (0, 0);
    let mut normal = None;
    for k in 0..100 {
        let t = k as f64 * 0.01;
        let axis = nalgebra::Unit::new_normalize(Vector3::new(1.0, 2.0, 3.0));
        let rot = nalgebra::Rotation3::from_axis_angle(&axis, 0.5 * t);
        let pb = Pose::from_matrix(*rot.matrix(), Vector3::new(4.0 + t, 4.0 - 0.5 * t, 4.0)).unwrap();
        let cold = distance_ellipsoid_ellipsoid(&a, &Pose::identity(), &b, &pb, &s).unwrap();
        let warm = proxima_geom::ellipsoid::dual_newton(&a, &Pose::identity(), &b, &pb, &s, normal).unwrap();
        assert_eq!(warm.status, EllipsoidStatus::Converged);
        assert!((cold.distance() - warm.distance()).abs() <= 1e-12);
        cold_total += cold.iterations;
        warm_total += warm.iterations;
        if let Proximity::Separated { normal: n, .. } = warm.proximity {
            normal = Some(n);
        }
    }
    assert!(warm_total < cold_total, "warm {warm_total} vs cold {cold_total}");
}
