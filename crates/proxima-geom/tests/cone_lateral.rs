//! A point (or a small sphere) against the lateral surface of a cone, bare and rounded, at
//! rigid placements, against the distance worked in the cone's axial half-plane.
//!
//! The closest point is inside a generator (apex to rim), where the cone's support function
//! has a kink: apex and rim point tie along the exact normal. GJK alone approaches that normal
//! to a small angle ε only (its simplex keeps one rim point, whose azimuth converges linearly
//! and then stagnates at round-off): witnesses ~2e-9 off and, along its own direction, a bound
//! off by O(ε) (gaps of 1e-8 against a tolerance of 1e-10 × scale). Now the Newton polish
//! works on the cone's circle of lateral normals (`gjk/polish.rs`, `cone_side`) and every
//! placement converges to the worked distance; the certificate also tries the lateral normal
//! at the witness azimuth.

use nalgebra::{Rotation3, Vector2, Vector3};
use proxima_geom::shape::{Cone, Point, Rounded, Sphere};
use proxima_geom::{GjkStatus, Pose, QueryPath, QuerySettings, Shape, distance};

fn lcg(seed: &mut u64) -> f64 {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (*seed >> 11) as f64 / (1u64 << 53) as f64
}

/// Distance from (ρ, z) to the generator from the apex (0, h) to the rim (r, −h), when the
/// projection falls strictly inside it (else `None`: another feature is closest).
fn lateral_distance(rho: f64, z: f64, r: f64, h: f64) -> Option<f64> {
    let (apex, rim, p) = (Vector2::new(0.0, h), Vector2::new(r, -h), Vector2::new(rho, z));
    let e = rim - apex;
    let t = (p - apex).dot(&e) / e.norm_squared();
    // Outside the cone, on the lateral side: the outward normal (2h, r) points at p.
    let outside = (p - apex).dot(&Vector2::new(2.0 * h, r)) > 0.0;
    (outside && (0.05..0.95).contains(&t)).then(|| (p - apex - e * t).norm())
}

#[test]
fn point_and_sphere_against_the_lateral_surface() {
    let s = QuerySettings::default();
    let mut seed = 11u64;
    let mut checked = 0;
    while checked < 400 {
        let (r, h) = (0.2 + lcg(&mut seed), 0.2 + lcg(&mut seed));
        let (rho, z, phi) = (2.0 * lcg(&mut seed), 2.0 * h * (lcg(&mut seed) - 0.5), 6.3 * lcg(&mut seed));
        let Some(truth) = lateral_distance(rho, z, r, h) else { continue };
        if truth < 1e-3 {
            continue;
        }
        // The point in the cone's frame, then both placed by the same random rigid motion.
        let local = Vector3::new(rho * phi.cos(), rho * phi.sin(), z);
        let axis = Vector3::new(lcg(&mut seed), lcg(&mut seed), lcg(&mut seed)) * 6.0 - Vector3::repeat(3.0);
        let rot = Rotation3::new(axis);
        let shift = Vector3::new(lcg(&mut seed), lcg(&mut seed), lcg(&mut seed)) * 4.0 - Vector3::repeat(2.0);
        let pose_cone = Pose::from_matrix(*rot.matrix(), shift).unwrap();
        let at = rot * local + shift;
        let point = Shape::Point(Point::new([at.x, at.y, at.z]).unwrap());
        let cone = Shape::Cone(Cone::new(r, h).unwrap());
        let rounding = 0.3 * truth;
        let rounded = Shape::Rounded(Rounded::new(cone.clone(), rounding).unwrap());
        let ball = Shape::Sphere(Sphere::new(0.2 * truth).unwrap());
        let ball_pose = Pose::from_translation([at.x, at.y, at.z]).unwrap();
        let cases = [
            (&point, Pose::identity(), &cone, truth),
            (&point, Pose::identity(), &rounded, truth - rounding),
            (&ball, ball_pose, &cone, 0.8 * truth),
        ];
        for (a, pa, b, expected) in cases {
            for (x, px, y, py) in [(a, &pa, b, &pose_cone), (b, &pose_cone, a, &pa)] {
                let d = distance(x, px, y, py, &s).unwrap();
                let c = d.certificate;
                // The truth in the bracket (to the rounding of the half-plane formula), and the
                // bracket tight: 1e-8 for coordinates up to ~4 (GJK's tolerance is 1e-10 ×
                // scale; where it stagnates on a generator its witnesses are within ~2e-9, and
                // the bracket must say so, not 1e-8 wider as the witness direction's bound was).
                assert!(c.lower <= expected + 1e-12 && expected <= c.upper + 1e-12, "{c:?} vs {expected}");
                assert!(c.upper - c.lower <= 1e-9, "gap {:e}: {d:?}", c.upper - c.lower);
                assert!((d.distance() - expected).abs() <= 1e-9, "{d:?} vs {expected}");
                assert!(matches!(d.path, QueryPath::Gjk { status: GjkStatus::Converged, .. }), "{d:?}");
            }
        }
        checked += 1;
    }
}

/// A point against a cone swept along a segment (a Minkowski sum; found by
/// `props_all_pairs`). The sum's closest face is a generator swept along the segment, whose
/// normal is neither summand's: GJK stagnates at a small angle from it (no Newton polish for
/// composites), and the bound along its direction was 1.6e-8 loose. The certificate now
/// also tries the cross products of the summands' edges (the generator at the witness
/// azimuth × the segment), the faces of a sum: 3.5e-9, within `props_all_pairs`' 1e-8 (what
/// is left is GJK's stagnated witnesses; a polish for composites would close it).
#[test]
fn point_against_a_cone_swept_along_a_segment() {
    let cols = |c: [f64; 9]| nalgebra::Matrix3::from_column_slice(&c);
    let pose = |c: [f64; 9], t: [f64; 3]| Pose::from_matrix(cols(c), Vector3::from(t)).unwrap();
    let point =
        Shape::Point(Point::new([0.9611668802197562, 0.9568354590961367, -0.8985296719396048]).unwrap());
    let pa = pose(
        [
            -0.4522673196087822,
            -0.018479841342486314,
            -0.8916909594012066,
            0.8908092501617668,
            -0.05839106836150576,
            -0.4506099898602256,
            -0.04373958664777605,
            -0.99812272722324,
            0.04287038558636003,
        ],
        [-1.657993520180048, 0.2914279464868101, 0.4044584702284405],
    );
    let segment = Shape::Segment(
        proxima_geom::shape::Segment::new(
            [0.647297493936427, 0.7039421529378636, 0.5202671085440443],
            [0.507948899235035, 0.7351804518982452, -0.3046015563371168],
        )
        .unwrap(),
    );
    let cone = Shape::Cone(Cone::new(0.709532036749867, 1.129287714598504).unwrap());
    let cone_pose = pose(
        [
            -0.5606619616583858,
            -0.8122969999805258,
            -0.16072258264478112,
            -0.8184553505134904,
            0.5730839914529782,
            -0.04129864351479743,
            0.1256543034090375,
            0.10838967922713105,
            -0.9861352206831623,
        ],
        [0.26102652890519784, 1.1998297976801364, -0.4162527052858648],
    );
    let sum = Shape::MinkowskiSum(
        proxima_geom::shape::MinkowskiSum::new(segment, Pose::identity(), cone, cone_pose).unwrap(),
    );
    let pb = pose(
        [
            -0.8398165520741487,
            0.5420759989090611,
            0.0293559239171976,
            0.4133491313239761,
            0.6735678343027398,
            -0.6127388254602697,
            -0.35192421697860343,
            -0.5024539620696209,
            -0.7897400594528156,
        ],
        [-0.5550827487750739, -1.0222305908724156, -0.12269228202418117],
    );
    let s = QuerySettings::default();
    for (x, px, y, py) in [(&point, &pa, &sum, &pb), (&sum, &pb, &point, &pa)] {
        let d = distance(x, px, y, py, &s).unwrap();
        let c = d.certificate;
        assert!(c.lower <= c.upper && c.upper - c.lower <= 5e-9, "gap {:e}: {d:?}", c.upper - c.lower);
    }
}
