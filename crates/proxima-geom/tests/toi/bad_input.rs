//! Bad input: a clear error for every malformed motion, pose, setting or shape, never a panic.

use proxima_geom::shape::{Line, Sphere};
use proxima_geom::{
    GeomError, Pose, QUATERNION_TOLERANCE, QuerySettings, RigidMotion, Shape, ToiSettings, time_of_impact,
};

fn ball() -> Shape {
    Shape::Sphere(Sphere::new(1.0).unwrap())
}

fn run(settings: &ToiSettings) -> Result<proxima_geom::ToiResult, GeomError> {
    let m = RigidMotion::stationary(Pose::identity());
    let far = RigidMotion::stationary(Pose::from_translation([5.0, 0.0, 0.0]).unwrap());
    time_of_impact(&ball(), &m, &ball(), &far, settings)
}

fn field_of(e: GeomError) -> &'static str {
    match e {
        GeomError::InvalidSettings { field, .. } => field,
        other => panic!("expected InvalidSettings, got {other:?}"),
    }
}

#[test]
fn settings_are_validated() {
    let d = ToiSettings::default();
    assert!(d.validate().is_ok() && run(&d).is_ok());
    for (bad, field) in [
        (d.clone().with_margin(-0.1), "margin"),
        (d.clone().with_margin(f64::NAN), "margin"),
        (d.clone().with_margin(f64::INFINITY), "margin"),
        (d.clone().with_interval(f64::NAN, 1.0), "start_time/end_time"),
        (d.clone().with_interval(0.0, f64::INFINITY), "start_time/end_time"),
        (d.clone().with_interval(0.5, 0.25), "end_time"),
        (d.clone().with_distance_tolerance(0.0), "distance_tolerance"),
        (d.clone().with_time_tolerance(f64::NAN), "time_tolerance"),
        (d.clone().with_max_iterations(0), "max_iterations"),
        (d.clone().with_query(QuerySettings::default().with_gap_tolerance(-1.0)), "gap_tolerance"),
    ] {
        assert_eq!(field_of(bad.validate().unwrap_err()), field);
        assert_eq!(field_of(run(&bad).unwrap_err()), field);
    }
}

#[test]
fn motions_reject_non_finite_input() {
    let p = Pose::identity();
    for (c, v, w) in [
        ([f64::NAN, 0.0, 0.0], [0.0; 3], [0.0; 3]),
        ([0.0; 3], [0.0, f64::INFINITY, 0.0], [0.0; 3]),
        ([0.0; 3], [0.0; 3], [0.0, 0.0, f64::NAN]),
    ] {
        assert!(matches!(RigidMotion::new(p, c, v, w), Err(GeomError::NonFinite { .. })));
    }
    // Velocities whose bound overflows: an error at the query, not an infinite step.
    let huge = RigidMotion::new(p, [0.0; 3], [1e308, 1e308, 0.0], [0.0; 3]).unwrap();
    let still = RigidMotion::stationary(Pose::from_translation([5.0, 0.0, 0.0]).unwrap());
    let e = time_of_impact(&ball(), &huge, &ball(), &still, &ToiSettings::default()).unwrap_err();
    assert!(matches!(e, GeomError::NonFinite { .. }), "{e:?}");
}

#[test]
fn poses_reject_nan_and_non_rotations() {
    assert!(matches!(Pose::from_translation([f64::NAN, 0.0, 0.0]), Err(GeomError::NonFinite { .. })));
    let skew = [[1.0, 0.1, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    assert!(matches!(Pose::new(skew, [0.0; 3]), Err(GeomError::NotRotation { .. })));
    // Quaternions: unit ones give the rotation, others are rejected with their norm.
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let quarter = Pose::from_quaternion([h, 0.0, 0.0, h], [1.0, 2.0, 3.0]).unwrap();
    let x = quarter.transform_vector(&nalgebra::Vector3::x());
    assert!((x - nalgebra::Vector3::y()).norm() < 1e-15, "a quarter turn about z maps x to y: {x:?}");
    for q in [[1.0, 0.0, 0.0, 0.1], [0.5, 0.0, 0.0, 0.0], [0.0; 4]] {
        assert!(
            matches!(Pose::from_quaternion(q, [0.0; 3]), Err(GeomError::NotUnitQuaternion { .. })),
            "{q:?}"
        );
    }
    let nearly = 1.0 + 0.5 * QUATERNION_TOLERANCE;
    assert!(Pose::from_quaternion([nearly, 0.0, 0.0, 0.0], [0.0; 3]).is_ok());
    assert!(matches!(
        Pose::from_quaternion([f64::NAN, 0.0, 0.0, 1.0], [0.0; 3]),
        Err(GeomError::NonFinite { .. })
    ));
    let msg = Pose::from_quaternion([2.0, 0.0, 0.0, 0.0], [0.0; 3]).unwrap_err().to_string();
    assert!(msg.contains("unit norm") && msg.contains('2'), "{msg}");
}

#[test]
fn lines_are_unsupported() {
    let line = Shape::Line(Line::new([0.0; 3], [1.0, 0.0, 0.0]).unwrap());
    let m = RigidMotion::stationary(Pose::identity());
    let e = time_of_impact(&line, &m, &ball(), &m, &ToiSettings::default()).unwrap_err();
    assert!(matches!(e, GeomError::Unsupported { op: "time_of_impact", .. }), "{e:?}");
}
