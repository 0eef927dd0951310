//! Warm-started tracking against an independent truth, on tracks built like the benchmark
//! harness's `track_polytope_N` (hulls of points on the unit sphere, small rotations per step,
//! the gap between the support planes oscillating through contact):
//!
//! * every warm answer (`distance_tracked`, cache carried along the track) has the same
//!   separated / intersecting status as parry3d's distance (another library's GJK on the
//!   world-frame hulls), its distance within 1e-7 of parry's, and a certified bracket that
//!   contains parry's distance;
//! * warm and cold answers agree (distance, or penetration depth within the EPA brackets),
//!   and overlapping steps' depths match parry's contact depth;
//! * a cache carried over from *another* pair of shapes (stale indices and directions) never
//!   changes an answer, only the work.

use nalgebra::{Rotation3, Vector3};
use parry3d_f64::math::{Pose as PPose, Vector as PVector};
use parry3d_f64::shape::ConvexPolyhedron;
use proxima_geom::shape::ConvexPolytope;
use proxima_geom::{
    Algorithm, DistanceResult, GjkCache, Pose, Proximity, QuerySettings, Shape, distance, distance_tracked,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Hull of `n` random points on the unit sphere, with its triangulated surface (from parry's
/// hull, re-oriented counter-clockwise outward when needed).
fn sphere_hull(rng: &mut SmallRng, n: usize) -> (Shape, Vec<Vector3<f64>>) {
    let pts: Vec<PVector> = (0..n)
        .map(|_| {
            loop {
                let p = PVector::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                );
                let r = p.length();
                if r > 0.1 && r <= 1.0 {
                    break p / r;
                }
            }
        })
        .collect();
    let (v, f) = parry3d_f64::transformation::convex_hull(&pts);
    let verts: Vec<[f64; 3]> = v.iter().map(|p| [p.x, p.y, p.z]).collect();
    let faces: Vec<[usize; 3]> = f.iter().map(|t| [t[0] as usize, t[1] as usize, t[2] as usize]).collect();
    let shape = ConvexPolytope::with_faces(verts.clone(), &faces).or_else(|_| {
        let flipped: Vec<[usize; 3]> = faces.iter().map(|t| [t[0], t[2], t[1]]).collect();
        ConvexPolytope::with_faces(verts.clone(), &flipped)
    });
    (Shape::ConvexPolytope(shape.expect("hull faces")), verts.iter().map(|p| Vector3::from(*p)).collect())
}

/// A track step: poses of A and B with the support planes orthogonal to `u` `gap` apart.
fn place(
    va: &[Vector3<f64>],
    vb: &[Vector3<f64>],
    ra: &Rotation3<f64>,
    rb: &Rotation3<f64>,
    u: &Vector3<f64>,
    gap: f64,
) -> (Pose, Pose) {
    let ha = va.iter().map(|p| u.dot(&(ra * p))).fold(f64::NEG_INFINITY, f64::max);
    let hb = vb.iter().map(|p| -u.dot(&(rb * p))).fold(f64::NEG_INFINITY, f64::max);
    let tb = u * (ha + hb + gap);
    (Pose::from_matrix(*ra.matrix(), Vector3::zeros()).unwrap(), Pose::from_matrix(*rb.matrix(), tb).unwrap())
}

/// parry3d's (distance, penetration depth) on the world-frame hulls.
fn parry_truth(va: &[Vector3<f64>], pa: &Pose, vb: &[Vector3<f64>], pb: &Pose) -> (f64, f64) {
    let world = |v: &[Vector3<f64>], p: &Pose| -> ConvexPolyhedron {
        let pts: Vec<PVector> = v
            .iter()
            .map(|x| {
                let y = p.transform_point(&(*x).into());
                PVector::new(y.x, y.y, y.z)
            })
            .collect();
        ConvexPolyhedron::from_convex_hull(&pts).expect("hull")
    };
    let (ga, gb) = (world(va, pa), world(vb, pb));
    let id = PPose::IDENTITY;
    let d = parry3d_f64::query::distance(&id, &ga, &id, &gb).unwrap().distance;
    let depth = if d <= 0.0 {
        parry3d_f64::query::contact(&id, &ga, &id, &gb, 0.0).unwrap().map_or(0.0, |c| -c.dist)
    } else {
        0.0
    };
    (d, depth)
}

fn depth_of(r: &DistanceResult) -> Option<f64> {
    match r.proximity {
        Proximity::Intersecting { depth, .. } => depth,
        Proximity::Touching { .. } => Some(0.0),
        _ => None,
    }
}

fn gjk() -> QuerySettings {
    QuerySettings::default().with_algorithm(Algorithm::Gjk)
}

#[test]
fn warm_track_matches_parry_and_cold() {
    let mut rng = SmallRng::seed_from_u64(8);
    let s = gjk();
    let (mut separated, mut overlapping) = (0, 0);
    for &(na, nb) in &[(64usize, 64usize), (64, 160), (160, 160)] {
        let (a, va) = sphere_hull(&mut rng, na);
        let (b, vb) = sphere_hull(&mut rng, nb);
        for _track in 0..3 {
            let axis_a = Vector3::from(core::array::from_fn(|_| rng.random_range(-1.0..1.0))).normalize();
            let axis_b = Vector3::from(core::array::from_fn(|_| rng.random_range(-1.0..1.0))).normalize();
            let (wa, wb) = (rng.random_range(0.002..0.02), rng.random_range(0.002..0.02));
            let u = Vector3::from(core::array::from_fn(|_| rng.random_range(-1.0..1.0))).normalize();
            let phase = rng.random_range(0.0..6.0);
            let mut cache = GjkCache::new();
            for k in 0..60 {
                let t = f64::from(k);
                let (ra, rb) = (Rotation3::new(axis_a * wa * t), Rotation3::new(axis_b * wb * t));
                // Gap −0.05 … 1 (about a quarter of the steps overlap).
                let gap = -0.05 + 0.525 * (1.0 + (0.12 * t + phase).sin());
                let (pa, pb) = place(&va, &vb, &ra, &rb, &u, gap);
                let warm = distance_tracked(&a, &pa, &b, &pb, &s, &mut cache).unwrap();
                let cold = distance(&a, &pa, &b, &pb, &s).unwrap();
                let (truth, truth_depth) = parry_truth(&va, &pa, &vb, &pb);
                let ctx =
                    format!("hulls {na}/{nb} step {k} gap {gap}: warm {warm:?} cold {cold:?} parry {truth}");
                let (lo, hi) = (warm.certificate.lower, warm.certificate.upper);
                assert!(lo <= hi, "{ctx}");
                if truth > 1e-4 {
                    separated += 1;
                    assert!(matches!(warm.proximity, Proximity::Separated { .. }), "{ctx}");
                    assert!((warm.distance() - truth).abs() <= 1e-7, "{ctx}");
                    assert!(lo <= truth + 1e-9 && truth <= hi + 1e-9, "bracket misses the truth: {ctx}");
                    assert!((warm.distance() - cold.distance()).abs() <= 1e-9, "{ctx}");
                } else if truth <= 1e-6 && truth_depth > 1e-4 {
                    overlapping += 1;
                    assert!(matches!(warm.proximity, Proximity::Intersecting { .. }), "{ctx}");
                    let (dw, dc) = (depth_of(&warm).unwrap(), depth_of(&cold).unwrap());
                    assert!((dw - dc).abs() <= 1e-7, "warm and cold depths differ: {ctx}");
                    assert!((dw - truth_depth).abs() <= 1e-5, "depth {dw} vs parry {truth_depth}: {ctx}");
                } else {
                    // Within 1e-4 of contact: both answers near zero, the statuses may differ.
                    assert!(warm.distance() <= 1e-4 + 1e-9 && cold.distance() <= 1e-4 + 1e-9, "{ctx}");
                }
            }
        }
    }
    assert!(
        separated > 300 && overlapping > 40,
        "track mix: {separated} separated, {overlapping} overlapping"
    );
}

#[test]
fn cache_from_another_pair_never_changes_answers() {
    let mut rng = SmallRng::seed_from_u64(9);
    let s = gjk();
    let hulls: Vec<(Shape, Vec<Vector3<f64>>)> =
        [16, 64, 100, 200].iter().map(|&n| sphere_hull(&mut rng, n)).collect();
    // Caches warmed on every ordered pair, then used on every other pair and pose.
    let mut caches = Vec::new();
    for (i, (a, _)) in hulls.iter().enumerate() {
        for (j, (b, _)) in hulls.iter().enumerate() {
            let mut c = GjkCache::new();
            let pb = Pose::from_matrix(
                *Rotation3::new(Vector3::new(0.3, f64::from(i as u32), 0.1)).matrix(),
                Vector3::new(0.5 * j as f64, 1.2, -0.4),
            )
            .unwrap();
            distance_tracked(a, &Pose::identity(), b, &pb, &s, &mut c).unwrap();
            caches.push(c);
        }
    }
    for trial in 0..120 {
        let (a, va) = &hulls[rng.random_range(0..hulls.len())];
        let (b, vb) = &hulls[rng.random_range(0..hulls.len())];
        let ra = Rotation3::new(Vector3::from(core::array::from_fn(|_| rng.random_range(-3.0..3.0))));
        let rb = Rotation3::new(Vector3::from(core::array::from_fn(|_| rng.random_range(-3.0..3.0))));
        let u = Vector3::from(core::array::from_fn(|_| rng.random_range(-1.0..1.0))).normalize();
        let gap = rng.random_range(-0.3..1.5);
        let (pa, pb) = place(va, vb, &ra, &rb, &u, gap);
        let cold = distance(a, &pa, b, &pb, &s).unwrap();
        let mut stale = caches[trial % caches.len()].clone();
        let warm = distance_tracked(a, &pa, b, &pb, &s, &mut stale).unwrap();
        let ctx = format!("trial {trial}: warm {warm:?} cold {cold:?}");
        assert!(warm.certificate.lower <= warm.certificate.upper, "{ctx}");
        match (depth_of(&cold), depth_of(&warm)) {
            (None, None) => assert!((warm.distance() - cold.distance()).abs() <= 1e-9, "{ctx}"),
            (Some(dc), Some(dw)) => assert!((dw - dc).abs() <= 1e-7, "{ctx}"),
            _ => assert!(warm.distance().max(cold.distance()) <= 1e-9, "status differs: {ctx}"),
        }
    }
}
