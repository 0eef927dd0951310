//! Cases with a closed-form time of impact (derivations in the comments).

use std::f64::consts::FRAC_PI_2;

use proxima_geom::shape::{Capsule, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Sphere};
use proxima_geom::{
    Pose, QuerySettings, RigidMotion, Shape, ToiOutcome, ToiSettings, ToiStatus, signed_distance,
    time_of_impact,
};

use super::common::{check_against_samples, pose};

fn sphere(r: f64) -> Shape {
    Shape::Sphere(Sphere::new(r).unwrap())
}

fn shift(t: [f64; 3]) -> Pose {
    Pose::from_translation(t).unwrap()
}

/// The hit's bracket contains `expected` (t_safe ≤ it, t_hit within `tol` after it).
fn assert_hit(r: &proxima_geom::ToiResult, expected: f64, tol: f64) {
    let ToiOutcome::Hit(h) = r.outcome else { panic!("expected a hit at {expected}: {r:?}") };
    assert!(h.t_safe <= expected + 1e-12, "t_safe {} after {expected}", h.t_safe);
    assert!((h.t_safe - expected).abs() <= tol && (h.t_hit - expected).abs() <= tol, "{h:?} vs {expected}");
    assert_eq!(r.status, ToiStatus::Converged);
}

#[test]
fn spheres_head_on_with_and_without_margin() {
    // |5 − 10t| − 1.5 = margin: t = (3.5 − margin)/10.
    let still = RigidMotion::stationary(Pose::identity());
    let shot = RigidMotion::from_poses(&shift([5.0, 0.0, 0.0]), &shift([-5.0, 0.0, 0.0])).unwrap();
    for margin in [0.0, 0.25, 1.0] {
        let s = ToiSettings::default().with_margin(margin);
        let r = time_of_impact(&sphere(1.0), &still, &sphere(0.5), &shot, &s).unwrap();
        assert_hit(&r, (3.5 - margin) / 10.0, 1e-9);
        check_against_samples(&sphere(1.0), &still, &sphere(0.5), &shot, &s, &r, 200, 1e-8);
    }
}

#[test]
fn spinning_sphere_onto_a_box_face() {
    // The sphere's centre reaches z = 1 + 0.5 when 5 − 10t = 1.5: t = 0.35, whatever its spin.
    let cube = Shape::Cuboid(Cuboid::new([1.0, 1.0, 1.0]).unwrap());
    let still = RigidMotion::stationary(Pose::identity());
    let shot =
        RigidMotion::from_poses(&pose([0.0; 3], [0.1, -0.2, 5.0]), &pose([2.0, 1.0, 0.5], [0.1, -0.2, -5.0]))
            .unwrap();
    let s = ToiSettings::default();
    let r = time_of_impact(&cube, &still, &sphere(0.5), &shot, &s).unwrap();
    assert_hit(&r, 0.35, 1e-9);
    let ToiOutcome::Hit(h) = r.outcome else { unreachable!() };
    assert!((h.normal.z - 1.0).abs() < 1e-6, "normal from the box to the sphere: {h:?}");
    assert!((h.point_a.z - 1.0).abs() < 1e-6 && (h.point_b.z - 1.0).abs() < 1e-6);
}

#[test]
fn rotating_capsule_sweeps_into_a_sphere() {
    // Capsule (r 0.1, half height 1) at the origin turning about x at π/2 per unit time: its
    // axis is u(θ) = (0, −sin θ, cos θ), θ = πt/2. A ball of radius 0.2 at (0, −0.9, 0) is
    // 0.9·cos θ from the axis line (its projection 0.9·sin θ stays inside the segment), so
    // contact at 0.9 cos θ = 0.3: θ = acos(1/3).
    let capsule = Shape::Capsule(Capsule::new(0.1, 1.0).unwrap());
    let turn = RigidMotion::new(Pose::identity(), [0.0; 3], [0.0; 3], [FRAC_PI_2, 0.0, 0.0]).unwrap();
    let ball = RigidMotion::stationary(shift([0.0, -0.9, 0.0]));
    let s = ToiSettings::default();
    let r = time_of_impact(&capsule, &turn, &sphere(0.2), &ball, &s).unwrap();
    assert_hit(&r, (1.0f64 / 3.0).acos() / FRAC_PI_2, 1e-8);
    check_against_samples(&capsule, &turn, &sphere(0.2), &ball, &s, &r, 300, 1e-8);
}

#[test]
fn twist_about_an_end_point() {
    // The same capsule turning about its bottom end (local (0, 0, −1), at the world origin):
    // the axis line passes through the origin along u(θ), the ball of radius 0.2 at
    // (0, −1.5, 0) is 1.5 cos θ from it: contact at 1.5 cos θ = 0.3.
    let capsule = Shape::Capsule(Capsule::new(0.1, 1.0).unwrap());
    let start = shift([0.0, 0.0, 1.0]);
    let turn = RigidMotion::new(start, [0.0, 0.0, -1.0], [0.0; 3], [FRAC_PI_2, 0.0, 0.0]).unwrap();
    let ball = RigidMotion::stationary(shift([0.0, -1.5, 0.0]));
    let s = ToiSettings::default();
    let r = time_of_impact(&capsule, &turn, &sphere(0.2), &ball, &s).unwrap();
    assert_hit(&r, 0.2f64.acos() / FRAC_PI_2, 1e-8);
    // The same motion from two poses interpolated about that end point.
    let end = turn.pose_at(1.0);
    let about = RigidMotion::from_poses_about(&start, &end, [0.0, 0.0, -1.0]).unwrap();
    let r2 = time_of_impact(&capsule, &about, &sphere(0.2), &ball, &s).unwrap();
    assert_hit(&r2, 0.2f64.acos() / FRAC_PI_2, 1e-8);
}

#[test]
fn initial_contact_reports_the_depth() {
    let still = RigidMotion::stationary(Pose::identity());
    let near = RigidMotion::from_poses(&shift([1.3, 0.0, 0.0]), &shift([5.0, 0.0, 0.0])).unwrap();
    let r = time_of_impact(&sphere(1.0), &still, &sphere(0.5), &near, &ToiSettings::default()).unwrap();
    let ToiOutcome::InitialContact(c) = r.outcome else { panic!("{r:?}") };
    assert_eq!((c.time, r.toi()), (0.0, Some(0.0)));
    assert!((c.depth() - 0.2).abs() < 1e-12 && c.bracket.lower <= -0.2 + 1e-12, "{c:?}");
    // Without the depth: the same time, the bracket only says "overlapping".
    let s = ToiSettings::default().with_initial_depth(false);
    let r = time_of_impact(&sphere(1.0), &still, &sphere(0.5), &near, &s).unwrap();
    let ToiOutcome::InitialContact(c) = r.outcome else { panic!("{r:?}") };
    assert!(c.bracket.lower == f64::NEG_INFINITY && c.bracket.upper <= 0.0);
    // Within the margin but apart: an initial contact with the positive distance.
    let s = ToiSettings::default().with_margin(0.5);
    let apart = RigidMotion::from_poses(&shift([1.8, 0.0, 0.0]), &shift([5.0, 0.0, 0.0])).unwrap();
    let r = time_of_impact(&sphere(1.0), &still, &sphere(0.5), &apart, &s).unwrap();
    let ToiOutcome::InitialContact(c) = r.outcome else { panic!("{r:?}") };
    assert!((c.signed_distance - 0.3).abs() < 1e-12 && c.normal.is_some());
}

/// An initial overlap without a closed form (EPA, or Newton with an enclosed-ball
/// certificate): the depth's bracket is proven — it meets the standalone signed distance's
/// 1e-10 bracket of the same quantity — and is as narrow as the search's distance tolerance
/// asks (default 1e-9, and 1e-10 when a tighter one is asked: the GJK tolerance then rules).
#[test]
fn initial_depth_bracket_follows_the_distance_tolerance() {
    let hull = Shape::ConvexPolytope(
        ConvexPolytope::hull_of(&[
            [0.6, 0.1, 0.0],
            [-0.5, 0.4, 0.1],
            [0.0, -0.6, 0.3],
            [0.1, 0.2, 0.7],
            [0.2, 0.1, -0.6],
            [-0.3, -0.3, -0.4],
            [0.4, 0.5, 0.4],
        ])
        .unwrap(),
    );
    let shapes = [
        Shape::Ellipsoid(Ellipsoid::new([0.5, 0.3, 0.2]).unwrap()),
        Shape::Cylinder(Cylinder::new(0.3, 0.4).unwrap()),
        hull.clone(),
    ];
    let away = shift([5.0, 0.0, 0.0]);
    for (k, b) in shapes.iter().enumerate() {
        for (j, t) in [[0.5, 0.1, 0.0], [0.2, 0.3, -0.2], [0.1, -0.1, 0.4]].into_iter().enumerate() {
            let p0 = pose([0.3 * j as f64, 0.5, -0.2], t);
            let still = RigidMotion::stationary(Pose::identity());
            let moving = RigidMotion::from_poses(&p0, &away).unwrap();
            let reference =
                signed_distance(&hull, &Pose::identity(), b, &p0, &QuerySettings::default()).unwrap();
            let (rlo, rhi) = (reference.certificate.lower, reference.certificate.upper);
            assert!(rhi < 0.0, "case {k}/{j} must overlap: {reference:?}");
            // The problem's scale (the GJK tolerance is relative to it) is below 4 here.
            for (tol, width) in [(1e-9, 4e-9), (1e-12, 4e-10)] {
                let s = ToiSettings::default().with_distance_tolerance(tol);
                let r = time_of_impact(&hull, &still, b, &moving, &s).unwrap();
                let ToiOutcome::InitialContact(c) = r.outcome else { panic!("case {k}/{j}: {r:?}") };
                let (lo, hi) = (c.bracket.lower, c.bracket.upper);
                assert!(
                    lo <= rhi + 1e-15 && rlo <= hi + 1e-15,
                    "case {k}/{j}: [{lo:e}, {hi:e}] vs [{rlo:e}, {rhi:e}]"
                );
                assert!(hi - lo <= width, "case {k}/{j} tol {tol:e}: bracket [{lo:e}, {hi:e}] too wide");
                assert!(lo <= c.signed_distance && c.signed_distance <= hi && hi < 0.0, "{c:?}");
            }
        }
    }
}

/// Pairs exactly touching at the start (the true signed distance is 0): an initial contact
/// whose bracket contains 0 and is as narrow as the search's tolerance, with the value 0 —
/// the bracket, not a dilated re-solve, settles touching once it is that narrow.
#[test]
fn initial_touching_contact_brackets_zero() {
    let cube = Shape::Cuboid(Cuboid::new([1.0, 1.0, 1.0]).unwrap());
    let hull = Shape::ConvexPolytope(
        ConvexPolytope::hull_of(&[[-1.0, -1.0, -1.0], [1.0, -1.0, -1.0], [0.0, 1.0, -1.0], [0.0, 0.0, 1.0]])
            .unwrap(),
    );
    let up = |z: f64| RigidMotion::from_poses(&shift([0.1, -0.2, z]), &shift([0.1, -0.2, z + 3.0])).unwrap();
    let down =
        |z: f64| RigidMotion::from_poses(&shift([0.1, -0.2, z]), &shift([0.1, -0.2, z - 3.0])).unwrap();
    let lying = pose([0.0, FRAC_PI_2, 0.0], [0.0, 0.0, 1.25]);
    let capsule = Shape::Capsule(Capsule::new(0.25, 0.5).unwrap());
    let cylinder = Shape::Cylinder(Cylinder::new(0.3, 0.25).unwrap());
    let still = RigidMotion::stationary(Pose::identity());
    let cases: [(&Shape, RigidMotion, &Shape); 5] = [
        // A capsule lying on the cube's top face (its axis 0.25 above it), moving away and
        // towards it; a cylinder standing on the top face (flat against flat); a sphere on the
        // hull's bottom face.
        (&cube, RigidMotion::from_poses(&lying, &shift([0.0, 0.0, 4.0])).unwrap(), &capsule),
        (&cube, RigidMotion::from_poses(&lying, &shift([0.0, 0.0, -4.0])).unwrap(), &capsule),
        (&cube, up(1.25), &cylinder),
        (&cube, down(1.25), &cylinder),
        (&hull, down(-1.5), &sphere(0.5)),
    ];
    for (k, (a, motion, b)) in cases.into_iter().enumerate() {
        let r = time_of_impact(a, &still, b, &motion, &ToiSettings::default()).unwrap();
        let ToiOutcome::InitialContact(c) = r.outcome else { panic!("case {k}: {r:?}") };
        let (lo, hi) = (c.bracket.lower, c.bracket.upper);
        // Sizes below 4: the default tolerance 1e-9 of that.
        assert!(lo <= 0.0 && 0.0 <= hi && hi - lo <= 4e-9, "case {k}: [{lo:e}, {hi:e}]");
        assert!(lo <= c.signed_distance && c.signed_distance <= hi, "case {k}: {c:?}");
        assert!(c.signed_distance.abs() <= 4e-9, "case {k}: {c:?}");
    }
}

#[test]
fn a_parallel_pass_is_a_proven_miss() {
    // The ball passes at clearance 0.05 above the box: no contact, and the proof says so.
    let cube = Shape::Cuboid(Cuboid::new([1.0, 1.0, 1.0]).unwrap());
    let still = RigidMotion::stationary(Pose::identity());
    let pass = RigidMotion::from_poses(&shift([-4.0, 0.0, 1.55]), &shift([4.0, 0.0, 1.55])).unwrap();
    let s = ToiSettings::default();
    let r = time_of_impact(&cube, &still, &sphere(0.5), &pass, &s).unwrap();
    let ToiOutcome::Miss(m) = r.outcome else { panic!("{r:?}") };
    assert!(m.last_lower > 0.0 && r.toi().is_none() && r.status == ToiStatus::Converged);
    check_against_samples(&cube, &still, &sphere(0.5), &pass, &s, &r, 400, 1e-8);
    // With a margin beyond the clearance it is a hit where the gap reaches the margin.
    let s = ToiSettings::default().with_margin(0.1);
    let r = time_of_impact(&cube, &still, &sphere(0.5), &pass, &s).unwrap();
    assert!(matches!(r.outcome, ToiOutcome::Hit(_)), "{r:?}");
    check_against_samples(&cube, &still, &sphere(0.5), &pass, &s, &r, 400, 1e-8);
}

#[test]
fn time_range_and_static_queries() {
    let still = RigidMotion::stationary(Pose::identity());
    let shot = RigidMotion::from_poses(&shift([5.0, 0.0, 0.0]), &shift([-5.0, 0.0, 0.0])).unwrap();
    // Starting after the first contact (overlap at t = 0.4): an initial contact at 0.4.
    let s = ToiSettings::default().with_interval(0.4, 1.0);
    let r = time_of_impact(&sphere(1.0), &still, &sphere(0.5), &shot, &s).unwrap();
    assert!(matches!(r.outcome, ToiOutcome::InitialContact(c) if c.time == 0.4), "{r:?}");
    // Ending before it: a miss.
    let s = ToiSettings::default().with_interval(0.0, 0.3);
    let r = time_of_impact(&sphere(1.0), &still, &sphere(0.5), &shot, &s).unwrap();
    assert!(matches!(r.outcome, ToiOutcome::Miss(_)), "{r:?}");
    // Beyond [0, 1] the motion extrapolates: over [−1, 0] the ball comes from x = 15 to 5.
    let s = ToiSettings::default().with_interval(-1.0, 0.0);
    let r = time_of_impact(&sphere(1.0), &still, &sphere(0.5), &shot, &s).unwrap();
    assert!(matches!(r.outcome, ToiOutcome::Miss(_)), "{r:?}");
    // A static test: start = end.
    let s = ToiSettings::default().with_interval(0.2, 0.2);
    let r = time_of_impact(&sphere(1.0), &still, &sphere(0.5), &shot, &s).unwrap();
    assert!(matches!(r.outcome, ToiOutcome::Miss(_)), "{r:?}");
}

#[test]
fn answers_do_not_depend_on_the_order() {
    // (b, a) is the mirror of (a, b): same times, witnesses exchanged, normal reversed.
    let cube = Shape::Cuboid(Cuboid::new([0.5, 0.2, 0.3]).unwrap());
    let capsule = Shape::Capsule(Capsule::new(0.1, 0.4).unwrap());
    let ma =
        RigidMotion::from_poses(&pose([0.1, 0.2, 0.3], [0.0; 3]), &pose([1.0, -0.5, 0.2], [0.1, 0.0, 0.0]))
            .unwrap();
    let mb =
        RigidMotion::from_poses(&pose([0.0; 3], [2.0, 0.3, 0.1]), &pose([0.0, 2.0, 0.0], [-1.0, 0.2, 0.0]))
            .unwrap();
    let s = ToiSettings::default();
    let ab = time_of_impact(&cube, &ma, &capsule, &mb, &s).unwrap();
    let ba = time_of_impact(&capsule, &mb, &cube, &ma, &s).unwrap();
    let (ToiOutcome::Hit(x), ToiOutcome::Hit(y)) = (ab.outcome, ba.outcome) else { panic!("{ab:?} {ba:?}") };
    // Each order is its own proof; both bracket the same first contact.
    assert!(x.t_safe <= y.t_hit + 1e-12 && y.t_safe <= x.t_hit + 1e-12, "{x:?} {y:?}");
    assert!((x.t_safe - y.t_safe).abs() < 1e-8 && (x.normal + y.normal).norm() < 1e-4, "{x:?} {y:?}");
}
