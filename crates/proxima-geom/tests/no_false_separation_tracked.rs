//! The near-contact audit of `no_false_separation*.rs` along tracked paths: `distance_tracked`
//! with one cache along small-step tracks that pass through contact (in and out again), the
//! DQP3 shape tracker (facet tracking certified against the shapes) on the same kind of
//! tracks, and `time_of_impact` on grazing motions.
//!
//! Each tracked answer is checked like a cold one — `Separated` only with a closed bracket and
//! lower > 0, every proven overlap (signed upper < 0, from a cold `signed_distance`) reported
//! as contact — and against the cold answer at the same poses: two proven brackets of the
//! same distance must intersect. Time of impact: the free interval [t₀, t_safe) must contain no
//! proven overlap at sampled times, the hit's bracket must contain the cold distance at t_hit,
//! and a miss must have no proven overlap at any sampled time.

use nalgebra::{Rotation3, Unit, Vector3};
use proxima_geom::shape::{Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Rounded, Sphere};
use proxima_geom::{
    Dqp3ShapeTracker, FacetShape, GjkCache, Pose, Proximity, QuerySettings, RigidMotion, Shape, ToiOutcome,
    ToiSettings, distance, distance_tracked, signed_distance, time_of_impact,
};

#[path = "support/near_contact.rs"]
mod near_contact;
use near_contact::{cut_box, rotation, unit};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn hull(rng: &mut SmallRng, n: usize) -> Shape {
    let points: Vec<[f64; 3]> = (0..n)
        .map(|_| {
            let u = unit(rng);
            [0.5 * u.x, 0.4 * u.y, 0.3 * u.z]
        })
        .collect();
    Shape::ConvexPolytope(ConvexPolytope::hull_of(&points).unwrap())
}

/// A track of `steps` poses of B: from `reach·(1 + 2·amp)·u` to `reach·(1 − amp)·u` and back
/// out (through contact twice), turning slowly. `reach` = h_A(u) + h_B(−u) at A's pose.
fn track(a: &Shape, pa: &Pose, b: &Shape, rng: &mut SmallRng, steps: usize, amp: f64) -> Vec<Pose> {
    let u = unit(rng);
    let r0 = rotation(rng);
    let spin = Rotation3::from_axis_angle(&Unit::new_normalize(unit(rng)), 0.3 / steps as f64);
    let probe = Pose::from_matrix(*r0.matrix(), Vector3::zeros()).unwrap();
    let reach = a.support_value(pa, &u) - u.dot(pa.translation()) + b.support_value(&probe, &-u);
    let mut r = r0;
    (0..steps)
        .map(|k| {
            // A triangle wave in [1 − amp, 1 + 2·amp].
            let x = k as f64 / (steps - 1) as f64;
            let f = 1.0 + 2.0 * amp - 3.0 * amp * (1.0 - (2.0 * x - 1.0).abs());
            r = spin * r;
            Pose::from_matrix(*r.matrix(), pa.translation() + u * reach * f).unwrap()
        })
        .collect()
}

#[derive(Default, Debug)]
struct Tally {
    steps: usize,
    overlaps: usize,
    separated: usize,
}

/// The checks of one tracked answer `r` against the cold answers at the same poses.
fn check_step(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    r: &proxima_geom::DistanceResult,
    t: &mut Tally,
    label: &str,
) {
    let s = QuerySettings::default();
    let cold = distance(a, pa, b, pb, &s).unwrap();
    let sd = signed_distance(a, pa, b, pb, &s).unwrap();
    let c = r.certificate;
    t.steps += 1;
    assert!(c.lower <= c.upper, "{label}: {r:?}");
    // Two proven brackets of one distance intersect (up to the rounding of the bounds,
    // 1e-12 at these sizes ≲ 2).
    assert!(
        c.lower <= cold.certificate.upper + 1e-12 && cold.certificate.lower <= c.upper + 1e-12,
        "{label}: tracked {r:?} and cold {cold:?} disagree"
    );
    if let Proximity::Separated { .. } = r.proximity {
        t.separated += 1;
        // GJK's tolerance 1e-10 × scale (≲ 2), the LCP/DQP3 gap 1e-9 × max(1, scale ≲ 2).
        assert!(c.upper - c.lower <= 1e-8, "{label}: separated without a closed bracket: {r:?}");
        assert!(c.lower > 0.0, "{label}: separated with lower ≤ 0: {r:?}");
    }
    if sd.certificate.upper < 0.0 {
        t.overlaps += 1;
        assert!(
            matches!(r.proximity, Proximity::Intersecting { .. } | Proximity::Touching { .. }),
            "{label}: proven overlap {:e} reported as {r:?}",
            sd.value
        );
    }
}

#[test]
fn distance_tracked_through_contact() {
    let mut rng = SmallRng::seed_from_u64(2026112711);
    let shapes = vec![
        ("box", Shape::Cuboid(Cuboid::new([0.5, 0.3, 0.2]).unwrap())),
        ("sphere", Shape::Sphere(Sphere::new(0.4).unwrap())),
        ("capsule", Shape::Capsule(Capsule::new(0.2, 0.5).unwrap())),
        ("cylinder", Shape::Cylinder(Cylinder::new(0.3, 0.4).unwrap())),
        ("cone", Shape::Cone(Cone::new(0.4, 0.5).unwrap())),
        ("ellipsoid", Shape::Ellipsoid(Ellipsoid::new([0.5, 0.3, 0.2]).unwrap())),
        ("hull40", hull(&mut rng, 40)),
        ("hull240", hull(&mut rng, 240)),
        ("polyhedron", cut_box(1.0)),
        (
            "rounded_box",
            Shape::Rounded(Rounded::new(Shape::Cuboid(Cuboid::new([0.3, 0.2, 0.1]).unwrap()), 0.1).unwrap()),
        ),
    ];
    let mut t = Tally::default();
    let s = QuerySettings::default();
    for (na, a) in &shapes {
        for (nb, b) in &shapes {
            for k in 0..2 {
                let pa = Pose::from_matrix(*rotation(&mut rng).matrix(), unit(&mut rng) * 0.3).unwrap();
                let poses = track(a, &pa, b, &mut rng, 40, 0.02);
                let mut cache = GjkCache::new();
                for (i, pb) in poses.iter().enumerate() {
                    let r = distance_tracked(a, &pa, b, pb, &s, &mut cache)
                        .unwrap_or_else(|e| panic!("{na}-{nb} track {k} step {i}: {e:?}"));
                    check_step(a, &pa, b, pb, &r, &mut t, &format!("{na}-{nb} track {k} step {i}"));
                }
            }
        }
    }
    eprintln!("{t:?}");
    assert!(t.overlaps > t.steps / 25 && t.separated > t.steps / 3, "{t:?}");
}

#[test]
fn dqp3_tracker_through_contact() {
    let mut rng = SmallRng::seed_from_u64(2026112712);
    let shapes = [
        ("box", Shape::Cuboid(Cuboid::new([0.5, 0.3, 0.2]).unwrap())),
        ("hull40", hull(&mut rng, 40)),
        ("hull240", hull(&mut rng, 240)),
        ("polyhedron", cut_box(1.0)),
    ];
    let facets: Vec<(&str, FacetShape)> =
        shapes.iter().map(|(n, s)| (*n, FacetShape::new(s.clone()).unwrap())).collect();
    let s = QuerySettings::default();
    let mut t = Tally::default();
    for (na, fa) in &facets {
        for (nb, fb) in &facets {
            let mut tracker = Dqp3ShapeTracker::new(fa, fb, &s).unwrap();
            for k in 0..3 {
                tracker.reset();
                let pa = Pose::from_matrix(*rotation(&mut rng).matrix(), unit(&mut rng) * 0.3).unwrap();
                let poses = track(fa.shape(), &pa, fb.shape(), &mut rng, 60, 0.02);
                for (i, pb) in poses.iter().enumerate() {
                    let r = tracker
                        .step(&pa, pb)
                        .unwrap_or_else(|e| panic!("{na}-{nb} track {k} step {i}: {e:?}"));
                    check_step(
                        fa.shape(),
                        &pa,
                        fb.shape(),
                        pb,
                        &r,
                        &mut t,
                        &format!("dqp3 {na}-{nb} track {k} step {i}"),
                    );
                }
            }
        }
    }
    eprintln!("{t:?}");
    assert!(t.overlaps > t.steps / 25 && t.separated > t.steps / 3, "{t:?}");
}

#[test]
fn time_of_impact_grazing() {
    let mut rng = SmallRng::seed_from_u64(2026112713);
    let shapes = vec![
        ("box", Shape::Cuboid(Cuboid::new([0.5, 0.3, 0.2]).unwrap())),
        ("sphere", Shape::Sphere(Sphere::new(0.4).unwrap())),
        ("cylinder", Shape::Cylinder(Cylinder::new(0.3, 0.4).unwrap())),
        ("cone", Shape::Cone(Cone::new(0.4, 0.5).unwrap())),
        ("ellipsoid", Shape::Ellipsoid(Ellipsoid::new([0.5, 0.3, 0.2]).unwrap())),
        ("hull40", hull(&mut rng, 40)),
    ];
    let s = QuerySettings::default();
    let (mut hits, mut misses) = (0, 0);
    for (na, a) in &shapes {
        for (nb, b) in &shapes {
            for k in 0..4 {
                let pa = Pose::from_matrix(*rotation(&mut rng).matrix(), Vector3::zeros()).unwrap();
                // B passes A sideways at a closest approach within ±1 % of touching along u.
                let u = unit(&mut rng);
                let side = u.cross(&unit(&mut rng)).normalize();
                let rb = rotation(&mut rng);
                let probe = Pose::from_matrix(*rb.matrix(), Vector3::zeros()).unwrap();
                let reach = a.support_value(&pa, &u) + b.support_value(&probe, &-u);
                let f = rng.random_range(0.99..1.01);
                let from = Pose::from_matrix(*rb.matrix(), u * reach * f - side * 3.0).unwrap();
                let to = Pose::from_matrix(*rb.matrix(), u * reach * f + side * 3.0).unwrap();
                let motion = RigidMotion::from_poses(&from, &to).unwrap();
                let still = RigidMotion::stationary(pa);
                let label = format!("{na}-{nb} pass {k} f {f}");
                let r = time_of_impact(a, &still, b, &motion, &ToiSettings::default())
                    .unwrap_or_else(|e| panic!("{label}: {e:?}"));
                let sd_at = |t: f64| {
                    let pb = motion.pose_at(t);
                    signed_distance(a, &pa, b, &pb, &s)
                        .unwrap_or_else(|e| panic!("{label} t {t}: {e:?} pa {pa:?} pb {pb:?}"))
                };
                // The free interval: no proven overlap at 64 sampled times before `free`.
                let free = match r.outcome {
                    ToiOutcome::Hit(h) => {
                        hits += 1;
                        let cold = distance(a, &pa, b, &motion.pose_at(h.t_hit), &s).unwrap_or_else(|e| {
                            panic!(
                                "{label}: {e:?} at t_hit {} pa {pa:?} pb {:?}",
                                h.t_hit,
                                motion.pose_at(h.t_hit)
                            )
                        });
                        assert!(
                            h.distance.lower <= cold.certificate.upper + 1e-12
                                && cold.certificate.lower <= h.distance.upper + 1e-12,
                            "{label}: hit bracket {:?} vs cold {cold:?}",
                            h.distance
                        );
                        h.t_safe
                    }
                    ToiOutcome::Miss(_) => {
                        misses += 1;
                        1.0
                    }
                    ToiOutcome::Undecided(u) => u.t_safe,
                    ToiOutcome::InitialContact(_) => panic!("{label}: starts 3 apart"),
                };
                for i in 0..64 {
                    let t = free * i as f64 / 64.0;
                    let sd = sd_at(t);
                    assert!(
                        sd.certificate.upper >= 0.0,
                        "{label}: proven overlap at t = {t} < {free}: {sd:?} ({r:?})"
                    );
                }
            }
        }
    }
    eprintln!("hits {hits}, misses {misses}");
    assert!(hits > 0 && misses > 0);
}
