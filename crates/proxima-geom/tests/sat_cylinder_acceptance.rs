//! Cylinder–cylinder separating-axis test: the spec's §10 acceptance checks
//! (`shared/spec/cylinder-separation.md`), degenerate configurations, input validation and the
//! certificates of every answer.

use nalgebra::{Point3, Vector3};
use proxima_geom::sat_cylinder::internals::{
    OctantParams, any_perpendicular, octant_g, octant_g_grad, perp_f, perp_f_der,
    separated_by_other_directions, separated_by_perpendiculars, separation_f,
};
use proxima_geom::sat_cylinder::{
    CylinderGeom, CylinderSat, CylinderSatSettings, SatStage, intersects_cylinder_cylinder,
    intersects_cylinder_cylinder_raw,
};
use proxima_geom::shape::Cylinder;
use proxima_geom::{GeomError, Intersection, Pose};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const S2: f64 = std::f64::consts::SQRT_2;

/// Spec notation: (C, W, r, h) with h the FULL height.
fn cyl(c: [f64; 3], w: [f64; 3], r: f64, h: f64) -> CylinderGeom {
    CylinderGeom::new(c, w, r, h / 2.0).unwrap()
}

fn strict() -> CylinderSatSettings {
    CylinderSatSettings::default()
}

fn touching_sep() -> CylinderSatSettings {
    CylinderSatSettings { touching_is_separated: true, ..Default::default() }
}

/// Runs the test and verifies its certificate: a separating direction really separates the
/// closed-form projections; a common point lies in both (within `point_tol`).
fn check(a: &CylinderGeom, b: &CylinderGeom, s: &CylinderSatSettings, point_tol: f64) -> CylinderSat {
    let r = intersects_cylinder_cylinder_raw(a, b, s).unwrap();
    verify(a, b, s, &r, point_tol);
    r
}

fn verify(a: &CylinderGeom, b: &CylinderGeom, s: &CylinderSatSettings, r: &CylinderSat, point_tol: f64) {
    let scale = 1.0 + a.radius + b.radius + a.half_height + b.half_height + (b.center - a.center).norm();
    match *r {
        CylinderSat::Separated { direction, margin, .. } => {
            assert!((direction.norm() - 1.0).abs() < 1e-12);
            let (_, amax) = a.projection(&direction);
            let (bmin, _) = b.projection(&direction);
            assert!((bmin - amax - margin).abs() <= 1e-12 * scale, "margin {margin} vs gap {}", bmin - amax);
            if s.touching_is_separated {
                assert!(bmin - amax >= -1e-12 * scale);
            } else {
                assert!(bmin - amax > s.tolerance, "gap {} must exceed the tolerance", bmin - amax);
            }
        }
        CylinderSat::Intersecting { point, residual } => {
            let ra = a.distance_to_point(&point);
            let rb = b.distance_to_point(&point);
            assert!((ra.max(rb) - residual).abs() <= 1e-15 * scale);
            assert!(residual <= point_tol * scale, "common point residual {residual}");
        }
    }
}

fn verdict(a: &CylinderGeom, b: &CylinderGeom, s: &CylinderSatSettings) -> bool {
    check(a, b, s, 1e-3).is_separated()
}

/// Distance of the cylinders, bracketed by bisection on the tolerance: the smallest tolerance
/// at which no separating direction is found.
fn distance_by_tolerance(a: &CylinderGeom, b: &CylinderGeom) -> f64 {
    let (mut lo, mut hi) = (0.0, 20.0);
    for _ in 0..40 {
        let m = 0.5 * (lo + hi);
        let s = CylinderSatSettings { tolerance: m, ..Default::default() };
        if intersects_cylinder_cylinder_raw(a, b, &s).unwrap().is_separated() {
            lo = m;
        } else {
            hi = m;
        }
    }
    0.5 * (lo + hi)
}

const Z: [f64; 3] = [0.0, 0.0, 1.0];
const X: [f64; 3] = [1.0, 0.0, 0.0];
const Y: [f64; 3] = [0.0, 1.0, 0.0];
const O: [f64; 3] = [0.0, 0.0, 0.0];

fn parallel_pair(c1: [f64; 3]) -> (CylinderGeom, CylinderGeom) {
    (cyl(O, Z, 1.0, 2.0), cyl(c1, Z, 1.0, 2.0))
}

#[test]
fn spec_1_to_7_parallel_axes() {
    // 1. separated by height, f(W0) = -1, distance 1.
    let (a, b) = parallel_pair([0.0, 0.0, 3.0]);
    assert!((separation_f(&a, &b, &Vector3::z()) + 1.0).abs() < 1e-15);
    let r = check(&a, &b, &strict(), 0.0);
    assert!(
        matches!(r, CylinderSat::Separated { stage: SatStage::AxisA, margin, .. } if (margin - 1.0).abs() < 1e-15)
    );
    assert!((distance_by_tolerance(&a, &b) - 1.0).abs() < 1e-9);
    // 2. touching: f(W0) = 0 exactly.
    let (a, b) = parallel_pair([0.0, 0.0, 2.0]);
    assert_eq!(separation_f(&a, &b, &Vector3::z()), 0.0);
    assert!(verdict(&a, &b, &touching_sep()));
    let r = check(&a, &b, &strict(), 0.0);
    assert!(matches!(r, CylinderSat::Intersecting { residual, .. } if residual == 0.0));
    // 3. overlapping.
    let (a, b) = parallel_pair([0.0, 0.0, 1.5]);
    assert!(!verdict(&a, &b, &touching_sep()) && !verdict(&a, &b, &strict()));
    // 4. separated radially, distance 0.5.
    let (a, b) = parallel_pair([2.5, 0.0, 0.0]);
    let r = check(&a, &b, &strict(), 0.0);
    assert!(
        matches!(r, CylinderSat::Separated { stage: SatStage::ParallelRadial, margin, .. } if (margin - 0.5).abs() < 1e-15)
    );
    // 5. touching radially, also anti-parallel.
    for w1 in [Z, [0.0, 0.0, -1.0]] {
        let a = cyl(O, Z, 1.0, 2.0);
        let b = cyl([2.0, 0.0, 0.0], w1, 1.0, 2.0);
        assert!(verdict(&a, &b, &touching_sep()));
        let r = check(&a, &b, &strict(), 1e-9);
        assert!(!r.is_separated());
    }
    // 6. overlap.
    let (a, b) = parallel_pair([1.5, 0.0, 0.5]);
    assert!(!verdict(&a, &b, &touching_sep()));
    assert!(
        matches!(check(&a, &b, &strict(), 0.0), CylinderSat::Intersecting { residual, .. } if residual == 0.0)
    );
    // 7. separated by height (f(W0) = -0.5); true distance sqrt(0.5).
    let (a, b) = parallel_pair([2.5, 0.0, 2.5]);
    let r = check(&a, &b, &strict(), 0.0);
    assert!(matches!(r, CylinderSat::Separated { margin, .. } if margin <= 0.5f64.sqrt()));
    // The parallel branch only has W0 and the radial direction: the margin is 0.5.
    assert!((distance_by_tolerance(&a, &b) - 0.5).abs() < 1e-9);
}

#[test]
fn spec_8_concentric() {
    let a = cyl(O, Z, 1.0, 2.0);
    let b = cyl(O, X, 1.0, 2.0);
    for d in [Vector3::z(), Vector3::x(), Vector3::z().cross(&Vector3::x())] {
        assert!((separation_f(&a, &b, &d) - 2.0).abs() < 1e-15);
    }
    assert!(separated_by_other_directions(&a, &b, &touching_sep()).is_none());
    for s in [strict(), touching_sep()] {
        let r = check(&a, &b, &s, 0.0);
        assert!(matches!(r, CylinderSat::Intersecting { point, .. } if point.coords.norm() < 1e-15));
    }
}

fn crossed(c1: [f64; 3]) -> (CylinderGeom, CylinderGeom) {
    (cyl(O, X, 1.0, 4.0), cyl(c1, Y, 1.0, 4.0))
}

#[test]
fn spec_9_to_13_crossed_axes() {
    // 9. separated by the cross product, distance 0.5.
    let (a, b) = crossed([0.0, 0.0, 2.5]);
    let r = check(&a, &b, &strict(), 0.0);
    assert!(
        matches!(r, CylinderSat::Separated { stage: SatStage::AxisCross, margin, direction } if (margin - 0.5).abs() < 1e-15 && direction.z == 1.0)
    );
    assert!((distance_by_tolerance(&a, &b) - 0.5).abs() < 1e-8);
    // 10. touching through the cross product.
    let (a, b) = crossed([0.0, 0.0, 2.0]);
    assert_eq!(separation_f(&a, &b, &Vector3::z()), 0.0);
    assert!(verdict(&a, &b, &touching_sep()));
    assert!(!check(&a, &b, &strict(), 1e-9).is_separated());
    // 11. overlap; (0, 0, 0.75) is common.
    let (a, b) = crossed([0.0, 0.0, 1.5]);
    assert!(a.distance_to_point(&Point3::new(0.0, 0.0, 0.75)) == 0.0);
    assert!(b.distance_to_point(&Point3::new(0.0, 0.0, 0.75)) == 0.0);
    assert!(!verdict(&a, &b, &touching_sep()));
    assert!(
        matches!(check(&a, &b, &strict(), 0.0), CylinderSat::Intersecting { residual, .. } if residual == 0.0)
    );
    // 12. separated by W0: f = -0.5.
    let (a, b) = crossed([3.5, 0.0, 0.0]);
    let r = check(&a, &b, &strict(), 0.0);
    assert!(
        matches!(r, CylinderSat::Separated { stage: SatStage::AxisA, margin, .. } if (margin - 0.5).abs() < 1e-15)
    );
    // 13. touching, f(W0) = 0.
    let (a, b) = crossed([3.0, 0.0, 0.0]);
    assert_eq!(separation_f(&a, &b, &Vector3::x()), 0.0);
    assert!(verdict(&a, &b, &touching_sep()));
    assert!(!check(&a, &b, &strict(), 1e-9).is_separated());
}

#[test]
fn spec_14_15_perpendicular_directions() {
    let a = cyl(O, Z, 1.0, 2.0);
    let b = cyl([1.9, 1.9, 0.0], X, 1.0, 2.0);
    assert!((separation_f(&a, &b, &Vector3::z()) - 2.0).abs() < 1e-12);
    assert!((separation_f(&a, &b, &Vector3::x()) - 0.1).abs() < 1e-12);
    let d = Vector3::new(1.0, 1.0, 0.0) / S2;
    assert!((separation_f(&a, &b, &d) - (1.0 - 0.9 * S2)).abs() < 1e-12);
    assert!(separated_by_perpendiculars(&a, &b, &touching_sep()).is_some());
    assert!(separated_by_perpendiculars(&b, &a, &touching_sep()).is_none());
    for s in [strict(), touching_sep()] {
        let r = check(&a, &b, &s, 0.0);
        assert!(matches!(r, CylinderSat::Separated { stage: SatStage::PerpendicularA, .. }));
        let r = check(&b, &a, &s, 0.0);
        assert!(matches!(r, CylinderSat::Separated { stage: SatStage::PerpendicularB, .. }));
    }
    assert!((distance_by_tolerance(&a, &b) - (0.9 * S2 - 1.0)).abs() < 1e-8);
    // 15. not separated.
    let b = cyl([1.6, 1.6, 0.0], X, 1.0, 2.0);
    assert!(!verdict(&a, &b, &touching_sep()));
    assert!(
        matches!(check(&a, &b, &strict(), 0.0), CylinderSat::Intersecting { residual, .. } if residual == 0.0)
    );
}

fn case16() -> (CylinderGeom, CylinderGeom) {
    (cyl(O, Z, 2.0, 1.0), cyl([1.0, 3.0, 2.0], [1.0 / S2, 0.0, 1.0 / S2], 2.0, 1.0))
}

fn case17() -> (CylinderGeom, CylinderGeom) {
    let k = 1.0 / 3f64.sqrt();
    (cyl(O, Z, 2.0, 0.5), cyl([-2.0, 3.0, 2.0], [k, k, k], 2.0, 0.5))
}

#[test]
fn spec_16_17_other_directions() {
    for ((a, b), fw0, dist) in [(case16(), 0.267767, 0.274708), (case17(), 0.027331, 0.6589)] {
        assert!((separation_f(&a, &b, &a.axis) - fw0).abs() < 1e-6);
        assert!(separated_by_perpendiculars(&a, &b, &touching_sep()).is_none());
        assert!(separated_by_perpendiculars(&b, &a, &touching_sep()).is_none());
        for s in [strict(), touching_sep()] {
            let r = check(&a, &b, &s, 0.0);
            assert!(
                matches!(r, CylinderSat::Separated { stage: SatStage::OtherDirections, margin, .. } if margin <= dist + 1e-3)
            );
        }
        // Disabling the search loses these pairs.
        let off = CylinderSatSettings { search_other_directions: false, ..Default::default() };
        assert!(!intersects_cylinder_cylinder_raw(&a, &b, &off).unwrap().is_separated());
        // The distance, as the largest tolerance that still separates (accept ±1e-3).
        let d = distance_by_tolerance(&a, &b);
        assert!((d - dist).abs() < 1e-3, "distance {d} vs {dist}");
    }
}

#[test]
fn spec_18_derivatives_and_hessian_identities() {
    let mut rng = SmallRng::seed_from_u64(18);
    for _ in 0..200 {
        let (r0, r1, hb) =
            (rng.random_range(0.1..2.0), rng.random_range(0.1..2.0), rng.random_range(0.0..2.0));
        let c1sqr: f64 = rng.random_range(0.0..1.0);
        let (a2, b2) = (rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0));
        let t: f64 = rng.random_range(0.01..0.99);
        let l = |t: f64| (1.0 - t) * a2 + t * b2;
        if l(t - 1e-4) * l(t + 1e-4) <= 0.0 {
            continue;
        }
        let f = |t: f64| perp_f(t, r0, r1, hb, c1sqr, a2, b2);
        let h = 1e-5;
        let fd = (f(t + h) - f(t - h)) / (2.0 * h);
        assert!((fd - perp_f_der(t, r0, r1, hb, c1sqr, a2, b2)).abs() < 1e-6);
        let fdd = (f(t + h) - 2.0 * f(t) + f(t - h)) / (h * h);
        let omt = 1.0 - t;
        let exact = r0 / (omt * omt + t * t).powf(1.5) + r1 * c1sqr / (omt * omt + c1sqr * t * t).powf(1.5);
        assert!((fdd - exact).abs() < 1e-3, "F'' {fdd} vs {exact}");
    }
    let unit = |rng: &mut SmallRng| -> Vector3<f64> {
        loop {
            let v = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            if v.norm() > 0.2 && v.norm() < 1.0 {
                break v / v.norm();
            }
        }
    };
    for _ in 0..200 {
        let (w0, w1): (Vector3<f64>, Vector3<f64>) = (unit(&mut rng), unit(&mut rng));
        let p = OctantParams {
            r0: rng.random_range(0.1..2.0),
            h0: rng.random_range(0.1..2.0),
            r1: rng.random_range(0.1..2.0),
            h1: rng.random_range(0.1..2.0),
            w0: w0.into(),
            w1: w1.into(),
            len_delta: rng.random_range(0.1..5.0),
            tolerance: if rng.random_bool(0.5) { 0.0 } else { rng.random_range(0.0..0.5) },
        };
        let s: f64 = rng.random_range(0.05..0.45);
        let t: f64 = rng.random_range(0.05..0.45);
        let u = 1.0 - s - t;
        let l0 = w0.x * s + w0.y * t + w0.z * u;
        let l1 = w1.x * s + w1.y * t + w1.z * u;
        if l0.abs() < 1e-3 || l1.abs() < 1e-3 {
            continue;
        }
        let h = 1e-6;
        let gs = (octant_g(s + h, t, &p) - octant_g(s - h, t, &p)) / (2.0 * h);
        let gt = (octant_g(s, t + h, &p) - octant_g(s, t - h, &p)) / (2.0 * h);
        let (es, et) = octant_g_grad(s, t, &p);
        assert!((gs - es).abs() < 1e-8 && (gt - et).abs() < 1e-8, "{gs} {es} {gt} {et}");
        // Hessian identities of eta_i = sqrt(Q_i) (spec §7.2).
        for w in [w0, w1] {
            let (a, b, c) = (w.x, w.y, w.z);
            let l = a * s + b * t + c * u;
            let q = s * s + t * t + u * u - l * l;
            let qs = 2.0 * s - 2.0 * u - 2.0 * (a - c) * l;
            let qt = 2.0 * t - 2.0 * u - 2.0 * (b - c) * l;
            let qss = 4.0 - 2.0 * (a - c) * (a - c);
            let qst = 2.0 - 2.0 * (a - c) * (b - c);
            let qtt = 4.0 - 2.0 * (b - c) * (b - c);
            let k = a + b + c;
            let ess = (2.0 * q * qss - qs * qs) / 4.0;
            let est = (2.0 * q * qst - qs * qt) / 4.0;
            let ett = (2.0 * q * qtt - qt * qt) / 4.0;
            assert!((ess - (k * t - b).powi(2)).abs() < 1e-12);
            assert!((ett - (k * s - a).powi(2)).abs() < 1e-12);
            assert!((est + (k * t - b) * (k * s - a)).abs() < 1e-12);
            assert!((ess * ett - est * est).abs() < 1e-12);
        }
    }
}

#[test]
fn spec_19_fder_guard_perpendicular_axes() {
    let v = perp_f_der(1.0, 1.0, 0.7, 0.3, 0.0, 0.5, 1.5);
    assert!(v.is_finite());
    // r0·1/1 − r1 + h1b1 − (b2 − a2)·1
    assert!((v - (1.0 - 0.7 + 0.3 - 1.0)).abs() < 1e-15);
}

#[test]
fn spec_20_lemma_kink_property() {
    let mut rng = SmallRng::seed_from_u64(20);
    let mut checked = 0;
    while checked < 500 {
        let (r0, r1, hb) =
            (rng.random_range(0.1..2.0), rng.random_range(0.1..2.0), rng.random_range(0.0..2.0));
        let c1sqr: f64 = rng.random_range(0.0..1.0);
        let a2: f64 = rng.random_range(0.0..5.0);
        let b2: f64 = -rng.random_range(0.0..5.0);
        let (a2, b2) = if rng.random_bool(0.5) { (a2, b2) } else { (-a2, -b2) };
        let f = |t: f64| perp_f(t, r0, r1, hb, c1sqr, a2, b2);
        if f(0.0) <= 0.0 || f(1.0) <= 0.0 {
            continue;
        }
        checked += 1;
        for i in 0..=1000 {
            assert!(f(i as f64 / 1000.0) > 0.0);
        }
    }
}

#[test]
fn spec_21_early_return_regression() {
    let k = 1.0 / 3f64.sqrt();
    let a = cyl(O, Z, 1.0, 2.0);
    let b = cyl([1.0, 3.0, 0.0], [k, k, k], 0.5, 4.0);
    let x = a.axis.cross(&b.axis);
    assert!((separation_f(&a, &b, &x) - 0.070044).abs() < 1e-5);
    let d = separated_by_perpendiculars(&a, &b, &touching_sep()).expect("second quarter");
    assert!(d.dot(&a.axis).abs() < 1e-12);
    let r = check(&a, &b, &strict(), 0.0);
    assert!(matches!(r, CylinderSat::Separated { stage: SatStage::PerpendicularA, .. }));
    assert!((distance_by_tolerance(&a, &b) - 0.43775).abs() < 1e-4);
}

fn rotate(rot: &nalgebra::Rotation3<f64>, shift: Vector3<f64>, flip: f64, c: &CylinderGeom) -> CylinderGeom {
    CylinderGeom {
        center: rot * c.center + shift,
        axis: rot * c.axis * flip,
        radius: c.radius,
        half_height: c.half_height,
    }
}

#[test]
fn spec_22_invariance() {
    let k = 1.0 / 3f64.sqrt();
    let cases = [
        (cyl(O, Z, 1.0, 2.0), cyl([1.9, 1.9, 0.0], X, 1.0, 2.0), true),
        (cyl(O, Z, 1.0, 2.0), cyl([1.6, 1.6, 0.0], X, 1.0, 2.0), false),
        (case16().0, case16().1, true),
        (case17().0, case17().1, true),
        (cyl(O, Z, 1.0, 2.0), cyl([1.0, 3.0, 0.0], [k, k, k], 0.5, 4.0), true),
    ];
    let rot = nalgebra::Rotation3::from_euler_angles(0.3, -1.1, 2.0);
    for (a, b, sep) in cases {
        for s in [strict(), touching_sep()] {
            assert_eq!(verdict(&a, &b, &s), sep);
            assert_eq!(verdict(&b, &a, &s), sep);
            for fa in [1.0, -1.0] {
                for fb in [1.0, -1.0] {
                    let id = nalgebra::Rotation3::identity();
                    let shift = Vector3::new(10.0, -7.0, 3.0);
                    let (a2, b2) = (rotate(&id, shift, fa, &a), rotate(&id, shift, fb, &b));
                    assert_eq!(verdict(&a2, &b2, &s), sep);
                    let (a3, b3) = (rotate(&rot, shift, fa, &a), rotate(&rot, shift, fb, &b));
                    assert_eq!(verdict(&a3, &b3, &s), sep);
                    assert_eq!(verdict(&b3, &a3, &s), sep);
                }
            }
        }
    }
}

#[test]
fn degenerate_configurations() {
    // Coincident cylinders, coaxial overlapping / separated / touching.
    let a = cyl(O, Z, 1.0, 2.0);
    assert!(
        matches!(check(&a, &a, &touching_sep(), 0.0), CylinderSat::Intersecting { residual, .. } if residual == 0.0)
    );
    assert!(!verdict(&a, &cyl([0.0, 0.0, 1.0], [0.0, 0.0, -1.0], 0.5, 2.0), &strict()));
    assert!(verdict(&a, &cyl([0.0, 0.0, 5.0], Z, 0.5, 2.0), &strict()));
    // Cap to cap (coaxial, touching): z = 1 for both.
    let b = cyl([0.0, 0.0, 2.0], Z, 0.5, 2.0);
    assert!(verdict(&a, &b, &touching_sep()));
    assert!(
        matches!(check(&a, &b, &strict(), 0.0), CylinderSat::Intersecting { point, residual } if residual == 0.0 && point.z == 1.0)
    );
    // Cap to cap, offset and tilted by a tiny angle (not parallel within eps): still decided.
    let b = cyl([0.5, 0.25, 2.5], [0.0, 1e-9, 1.0], 1.0, 2.0);
    assert!(verdict(&a, &b, &strict()));
    // Side to side, parallel, touching (radial offset 2 = r0 + r1) — see also spec 5.
    let b = cyl([0.0, 2.0, 0.5], Z, 1.0, 2.0);
    assert!(verdict(&a, &b, &touching_sep()));
    assert!(!check(&a, &b, &strict(), 1e-9).is_separated());
    // Side to side, crossed, touching: the two walls touch at (0, 0, 1) ... here b's axis is
    // along x at height 2 (radius 1): contact along a segment of a's cap rim/ b's wall.
    let b = cyl([0.0, 0.0, 2.0], X, 1.0, 6.0);
    assert!(verdict(&a, &b, &touching_sep()));
    assert!(!check(&a, &b, &strict(), 1e-9).is_separated());
    // Rim to rim: two perpendicular cylinders whose rims meet at one point. Cylinder a's top
    // rim passes through (1, 0, 1); b (axis y, r = 1, h = 2) centred at (2, 1, 2) has its rim
    // circle y = 0 through (1, 0, 2)? Use exactly representable data: b centred at (1, 1, 2)
    // with axis y touches a at (1, 0, 1): b's bottom-cap rim point (1, 0, 1).
    let b = cyl([1.0, 1.0, 2.0], Y, 1.0, 2.0);
    assert_eq!(a.distance_to_point(&Point3::new(1.0, 0.0, 1.0)), 0.0);
    assert_eq!(b.distance_to_point(&Point3::new(1.0, 0.0, 1.0)), 0.0);
    assert!(verdict(&a, &b, &touching_sep()));
    assert!(!check(&a, &b, &strict(), 1e-9).is_separated());
    // Perpendicular axes, overlapping and separated.
    assert!(!verdict(&a, &cyl([0.5, 0.0, 0.0], Y, 0.3, 8.0), &strict()));
    assert!(verdict(&a, &cyl([1.5, 0.0, 0.0], Y, 0.3, 8.0), &strict()));
    // Nearly parallel axes (within eps_parallel) and a disk (half height 0).
    let b = cyl([0.0, 2.5, 0.0], [1e-14, 0.0, 1.0], 1.0, 2.0);
    assert!(verdict(&a, &b, &strict()));
    let disk = CylinderGeom::new([0.0, 0.0, 1.0], X, 0.5, 0.0).unwrap();
    assert!(!verdict(&a, &disk, &strict()));
    let disk = CylinderGeom::new([0.0, 0.0, 1.6], X, 0.5, 0.0).unwrap();
    assert!(verdict(&a, &disk, &strict()));
}

#[test]
fn tolerance_option() {
    let (a, b) = parallel_pair([0.0, 0.0, 2.0 + 1e-9]);
    assert!(verdict(&a, &b, &strict()));
    let s = CylinderSatSettings { tolerance: 1e-8, ..Default::default() };
    assert!(!intersects_cylinder_cylinder_raw(&a, &b, &s).unwrap().is_separated());
}

#[test]
fn validation() {
    let bad = [
        CylinderGeom::new([f64::NAN, 0.0, 0.0], Z, 1.0, 1.0),
        CylinderGeom::new(O, [0.0, 0.0, f64::INFINITY], 1.0, 1.0),
        CylinderGeom::new(O, [0.0, 0.0, 0.0], 1.0, 1.0),
        CylinderGeom::new(O, Z, 0.0, 1.0),
        CylinderGeom::new(O, Z, -1.0, 1.0),
        CylinderGeom::new(O, Z, 1.0, -1.0),
        CylinderGeom::new(O, Z, 1.0, f64::NAN),
    ];
    assert!(matches!(bad[2], Err(GeomError::ZeroAxis { .. })));
    assert!(matches!(bad[3], Err(GeomError::NonPositive { .. })));
    assert!(bad.iter().all(|r| r.is_err()));
    let c = CylinderGeom::new(O, [0.0, 0.0, 2.0], 1.0, 0.0).unwrap();
    assert_eq!(c.axis, Vector3::z());
    // Public fields are re-validated by the raw query.
    let mut broken = c;
    broken.radius = f64::NAN;
    assert!(intersects_cylinder_cylinder_raw(&broken, &c, &strict()).is_err());
    broken = c;
    broken.axis = Vector3::new(0.0, 0.0, 2.0);
    assert!(intersects_cylinder_cylinder_raw(&broken, &c, &strict()).is_err());
    // Settings.
    assert!(CylinderSatSettings::default().validate().is_ok());
    for s in [
        CylinderSatSettings { tolerance: -1.0, ..Default::default() },
        CylinderSatSettings { tolerance: f64::NAN, ..Default::default() },
        CylinderSatSettings { tolerance: 1e-3, touching_is_separated: true, ..Default::default() },
        CylinderSatSettings { eps_parallel: 0.5, ..Default::default() },
        CylinderSatSettings { tol_param: 0.0, ..Default::default() },
        CylinderSatSettings { max_golden: 0, ..Default::default() },
        CylinderSatSettings { max_bisections: 0, ..Default::default() },
    ] {
        assert!(matches!(s.validate(), Err(GeomError::InvalidSettings { .. })));
        assert!(intersects_cylinder_cylinder_raw(&c, &c, &s).is_err());
    }
    assert!(Cylinder::new(1.0, 0.0).is_err());
}

#[test]
fn shape_and_pose_api() {
    let c = Cylinder::new(1.0, 1.0).unwrap();
    // b: axis along world x (rotation about y by 90°), 2.5 above a.
    let pa = Pose::identity();
    let pb = Pose::new([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]], [0.0, 0.0, 2.5]).unwrap();
    let gb = CylinderGeom::from_shape(&c, &pb);
    assert!((gb.axis - Vector3::x()).norm() < 1e-15);
    let r = intersects_cylinder_cylinder(&c, &pa, &c, &pb, &strict()).unwrap();
    assert!(
        matches!(r.to_intersection(), Intersection::Separated { direction: Some(d) } if (d - Vector3::z()).norm() < 1e-12)
    );
    let pb = Pose::new([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]], [0.0, 0.0, 1.5]).unwrap();
    let r = intersects_cylinder_cylinder(&c, &pa, &c, &pb, &strict()).unwrap();
    assert!(matches!(r.to_intersection(), Intersection::Intersecting { point: Some(_) }));
    verify(&CylinderGeom::from_shape(&c, &pa), &CylinderGeom::from_shape(&c, &pb), &strict(), &r, 0.0);
    let _ = any_perpendicular(&Vector3::z());
}
