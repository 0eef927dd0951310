//! Shared checks: a time-of-impact answer against independent distance queries.

use proxima_geom::{
    Pose, Proximity, QuerySettings, RigidMotion, Shape, ToiOutcome, ToiResult, ToiSettings, distance,
};

/// Contact proven at time t by a plain distance query: overlapping, touching, or witnesses
/// within `margin`.
pub fn contact_at(a: &Shape, ma: &RigidMotion, b: &Shape, mb: &RigidMotion, t: f64, margin: f64) -> bool {
    let r = distance(a, &ma.pose_at(t), b, &mb.pose_at(t), &QuerySettings::default()).unwrap();
    match r.proximity {
        Proximity::Separated { distance, .. } => distance <= margin,
        _ => true,
    }
}

/// The upper bound of the distance at time t (0 in contact).
pub fn distance_at(a: &Shape, ma: &RigidMotion, b: &Shape, mb: &RigidMotion, t: f64) -> f64 {
    distance(a, &ma.pose_at(t), b, &mb.pose_at(t), &QuerySettings::default()).unwrap().distance()
}

/// The certified lower bound of the distance at time t: contact within `margin` is excluded
/// when it is above it.
pub fn lower_at(a: &Shape, ma: &RigidMotion, b: &Shape, mb: &RigidMotion, t: f64) -> f64 {
    distance(a, &ma.pose_at(t), b, &mb.pose_at(t), &QuerySettings::default()).unwrap().certificate.lower
}

/// Checks an answer against `samples` equally spaced distance queries on the interval:
/// no sampled contact where the answer proves none (before t_safe, anywhere for a miss), and
/// at t_hit no proof of a distance above the margin plus `tolerance` (an independent cold
/// query's certified lower bound; its upper bound may stay above where the certificate is
/// loose, and the search may prove the contact otherwise, e.g. by a warm simplex enclosing
/// the origin). Returns the first sampled
/// contact time, if any.
pub fn check_against_samples(
    a: &Shape,
    ma: &RigidMotion,
    b: &Shape,
    mb: &RigidMotion,
    settings: &ToiSettings,
    r: &ToiResult,
    samples: usize,
    tolerance: f64,
) -> Option<f64> {
    let (t0, t1) = (settings.start_time, settings.end_time);
    let first = (0..=samples)
        .map(|k| t0 + (t1 - t0) * k as f64 / samples as f64)
        .find(|&t| contact_at(a, ma, b, mb, t, settings.margin));
    match r.outcome {
        ToiOutcome::Miss(_) => {
            assert!(first.is_none(), "proven miss, but contact sampled at {first:?}: {r:?}")
        }
        ToiOutcome::Hit(h) => {
            assert!(t0 <= h.t_safe && h.t_safe <= h.t_hit && h.t_hit <= t1, "{r:?}");
            if let Some(ts) = first {
                assert!(h.t_safe <= ts, "contact sampled at {ts} before t_safe {}: {r:?}", h.t_safe);
            }
            let d = lower_at(a, ma, b, mb, h.t_hit);
            assert!(d <= settings.margin + tolerance, "distance ≥ {d} at t_hit: {r:?}");
            assert!((h.normal.norm() - 1.0).abs() < 1e-9, "{r:?}");
        }
        ToiOutcome::InitialContact(c) => {
            assert_eq!(c.time, t0);
            let d = lower_at(a, ma, b, mb, t0);
            assert!(d <= settings.margin + tolerance, "distance ≥ {d} at the start: {r:?}");
            assert!(
                c.bracket.lower <= c.signed_distance && c.signed_distance <= c.bracket.upper + 1e-15,
                "{r:?}"
            );
        }
        ToiOutcome::Undecided(u) => {
            if let Some(ts) = first {
                assert!(u.t_safe <= ts, "contact sampled at {ts} before t_safe {}: {r:?}", u.t_safe);
            }
        }
    }
    first
}

/// A pose from a rotation vector and a translation.
pub fn pose(rotation: [f64; 3], translation: [f64; 3]) -> Pose {
    let r = nalgebra::Rotation3::new(nalgebra::Vector3::from(rotation));
    Pose::from_matrix(*r.matrix(), nalgebra::Vector3::from(translation)).unwrap()
}
