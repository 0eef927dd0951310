//! DQP3 against the spec's worked cases (§10), the general active-set QP (an independent
//! solver) on random facet-ball / ellipsoid-model pairs, tracking vs cold, and bad input.

use nalgebra::{Matrix3, Rotation3, Vector3};
use proxima_geom::Pose;
use proxima_geom::dqp3::{
    Dqp3Settings, Dqp3Status, Dqp3Tracker, FacetPolyhedron, distance_dqp3, ellipsoid_model, genball,
    genball_normals,
};
use proxima_lcp::active_set::{ActiveSetSettings, ActiveSetStatus, InequalityQp, solve_active_set};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn cube(h: f64) -> FacetPolyhedron {
    let mut c = Vec::new();
    for k in 0..3 {
        for s in [1.0, -1.0] {
            let mut a = [0.0; 3];
            a[k] = s;
            c.push((a, -h));
        }
    }
    FacetPolyhedron::from_inward(&c).unwrap()
}

fn pose(r: Matrix3<f64>, t: [f64; 3]) -> Pose {
    Pose::from_matrix(r, Vector3::from(t)).unwrap()
}

fn rot(axis: Vector3<f64>, angle: f64) -> Matrix3<f64> {
    *Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle).matrix()
}

fn random_rotation(rng: &mut SmallRng) -> Matrix3<f64> {
    let axis =
        Vector3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
    rot(axis + Vector3::new(1e-3, 0.0, 0.0), rng.random_range(0.0..std::f64::consts::TAU))
}

/// The distance QP min ½|x_a − x_b|² over x_a ∈ A, x_b ∈ B (both placed, then moved by
/// `shift`): the 6×6 Hessian and the inward facet rows n·x ≥ offset + n·(t + shift).
fn distance_qp_data(
    a: &FacetPolyhedron,
    pa: &Pose,
    b: &FacetPolyhedron,
    pb: &Pose,
    shift: Vector3<f64>,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let mut h = vec![0.0; 36];
    for i in 0..3 {
        h[i * 6 + i] = 1.0;
        h[(i + 3) * 6 + i + 3] = 1.0;
        h[i * 6 + i + 3] = -1.0;
        h[(i + 3) * 6 + i] = -1.0;
    }
    let (mut rows, mut rhs) = (Vec::new(), Vec::new());
    for (obj, p, pose) in [(0, a, pa), (1, b, pb)] {
        for j in 0..p.num_facets() {
            let n = pose.rotation() * p.normal(j);
            let mut row = vec![0.0; 6];
            row[obj * 3..obj * 3 + 3].copy_from_slice(n.as_slice());
            rows.extend(row);
            rhs.push(p.offset(j) + n.dot(&(pose.translation() + shift)));
        }
    }
    (h, rows, rhs)
}

/// The same distance QP for the general active-set solver, in world coordinates.
fn reference_distance(a: &FacetPolyhedron, pa: &Pose, b: &FacetPolyhedron, pb: &Pose) -> f64 {
    let (h, rows, rhs) = distance_qp_data(a, pa, b, pb, Vector3::zeros());
    let ca = pa.transform_point(&a.centroid());
    let cb = pb.transform_point(&b.centroid());
    let qp = InequalityQp::new(6, h, vec![0.0; 6], rows, rhs).unwrap();
    let x0 = [ca.x, ca.y, ca.z, cb.x, cb.y, cb.z];
    let sol = solve_active_set(&qp, Some(&x0), &ActiveSetSettings::default()).unwrap();
    assert_eq!(sol.status, ActiveSetStatus::Solved);
    (2.0 * sol.objective).max(0.0).sqrt()
}

#[test]
fn exactly_parallel_cubes_use_the_half_way_rule() {
    // Spec §10 test 4: distance 1, witnesses (0.25, 0.15, 1) and (0.25, 0.15, 2), ≤ 4 passes.
    let c = cube(1.0);
    let r = distance_dqp3(
        &c,
        &Pose::identity(),
        &c,
        &pose(Matrix3::identity(), [0.5, 0.3, 3.0]),
        &Dqp3Settings::default(),
    )
    .unwrap();
    assert_eq!(r.status, Dqp3Status::Optimal);
    let (p, q) = r.witnesses();
    assert!((r.distance() - 1.0).abs() < 1e-14);
    assert!((p - nalgebra::Point3::new(0.25, 0.15, 1.0)).norm() < 1e-14, "{p}");
    assert!((q - nalgebra::Point3::new(0.25, 0.15, 2.0)).norm() < 1e-14, "{q}");
    assert!(r.passes <= 4, "{}", r.passes);
    assert!(r.lower <= r.upper && r.lower > 1.0 - 1e-12);
}

#[test]
fn near_parallel_facets_do_not_creep() {
    // Spec §10 test 5: cube 2 tilted by θ about x, centred at (0.5, 0.3, 2 + g).
    let c = cube(1.0);
    for g in [1.0, 100.0] {
        for e in [1, 2, 3, 4, 6, 8, 10, 12, 14, 99] {
            let th = if e == 99 { 0.0 } else { 10f64.powi(-e) };
            let pb = pose(rot(Vector3::x(), th), [0.5, 0.3, 2.0 + g]);
            let r = distance_dqp3(&c, &Pose::identity(), &c, &pb, &Dqp3Settings::default()).unwrap();
            let exact = g + 1.0 - th.sin() - th.cos();
            assert_eq!(r.status, Dqp3Status::Optimal);
            assert!(r.passes <= 10, "θ={th} g={g}: {} passes", r.passes);
            assert!((r.distance() - exact).abs() <= 1e-12f64.max(10.0 * th), "θ={th} g={g}");
        }
    }
}

#[test]
fn crossing_edges() {
    // Spec §10 test 6: distance 0.5, witnesses (0.2, 0, √2) and (0.2, 0, √2 + 0.5).
    let c = cube(1.0);
    let s2 = 2f64.sqrt();
    let pa = pose(rot(Vector3::x(), std::f64::consts::FRAC_PI_4), [0.0; 3]);
    let pb = pose(rot(Vector3::y(), std::f64::consts::FRAC_PI_4), [0.2, -0.1, 2.0 * s2 + 0.5]);
    let r = distance_dqp3(&c, &pa, &c, &pb, &Dqp3Settings::default()).unwrap();
    assert_eq!(r.status, Dqp3Status::Optimal);
    let (p, q) = r.witnesses();
    assert!((r.distance() - 0.5).abs() < 1e-12);
    assert!((p - nalgebra::Point3::new(0.2, 0.0, s2)).norm() < 1e-12, "{p}");
    assert!((q - nalgebra::Point3::new(0.2, 0.0, s2 + 0.5)).norm() < 1e-12, "{q}");
}

#[test]
fn overlap_gives_a_common_point() {
    let c = cube(1.0);
    let pb = pose(Matrix3::identity(), [1.5, 0.3, 0.2]);
    let r = distance_dqp3(&c, &Pose::identity(), &c, &pb, &Dqp3Settings::default()).unwrap();
    assert_eq!(r.status, Dqp3Status::Optimal);
    assert_eq!(r.distance(), 0.0);
    let (p, _) = r.witnesses();
    assert!(c.min_slack(&p) >= -1e-12 && c.min_slack(&pb.inverse_transform_point(&p)) >= -1e-12);
}

#[test]
fn genball_counts_and_offsets() {
    // Spec §6.1 / §10 test 12.
    for (n, m) in [
        (2, 6),
        (3, 12),
        (4, 22),
        (5, 34),
        (6, 46),
        (8, 82),
        (10, 128),
        (15, 288),
        (20, 510),
        (30, 1148),
        (40, 2042),
    ] {
        let normals = genball_normals(n).unwrap();
        assert_eq!(normals.len(), m, "order {n}");
        assert!(normals.iter().all(|a| (a.norm() - 1.0).abs() < 1e-15));
    }
    let e = ellipsoid_model(2, [1.0, 2.0, 5.0]).unwrap();
    assert!((e.offset(0) + 1.0).abs() < 1e-15); // normal (1, 0, 0)
    let z = (0..6).find(|&j| (e.normal(j).z - 1.0).abs() < 1e-12).unwrap();
    assert!((e.offset(z) + 5.0).abs() < 1e-12);
}

#[test]
fn adjacency_of_cube_and_facet_balls() {
    let c = cube(1.0);
    for j in 0..6 {
        assert_eq!(c.neighbours(j).len(), 4);
    }
    assert_eq!(c.vertices().len(), 8);
    for order in [3, 4, 6, 8] {
        let b = genball(order).unwrap();
        for j in 0..b.num_facets() {
            for &k in b.neighbours(j) {
                assert!(
                    b.neighbours(k as usize).contains(&(j as u32)),
                    "order {order}: {j}–{k} not symmetric"
                );
            }
            for v in b.facet_polygon(j) {
                assert!(b.min_slack(v) >= -1e-9);
            }
        }
    }
}

#[test]
fn agrees_with_the_active_set_qp_on_random_pairs() {
    let mut rng = SmallRng::seed_from_u64(66);
    let objects = [
        genball(2).unwrap(),
        genball(4).unwrap(),
        genball(6).unwrap(),
        ellipsoid_model(4, [1.0, 2.0, 5.0]).unwrap(),
        ellipsoid_model(5, [0.5, 1.5, 1.0]).unwrap(),
    ];
    let (mut separated, mut touching) = (0, 0);
    for trial in 0..200 {
        let a = &objects[rng.random_range(0..objects.len())];
        let b = &objects[rng.random_range(0..objects.len())];
        let dist = rng.random_range(0.0..8.0);
        let dir = Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let pa = pose(random_rotation(&mut rng), [0.0; 3]);
        let pb = pose(random_rotation(&mut rng), (dir.normalize() * dist).into());
        let r = distance_dqp3(a, &pa, b, &pb, &Dqp3Settings::default()).unwrap();
        assert_eq!(r.status, Dqp3Status::Optimal, "trial {trial}");
        let qp = reference_distance(a, &pa, b, &pb);
        let d = r.distance();
        // 1e-9 relative (spec §10 test 1); the QP's sqrt of a tiny objective limits touching.
        assert!(
            (d - qp).abs() <= 1e-9 * d.max(1.0) + if qp < 1e-6 { 1e-7 } else { 0.0 },
            "trial {trial}: {d} vs {qp}"
        );
        assert!(r.lower <= r.upper + 1e-15 && r.upper - r.lower <= 1e-8 * (1.0 + d), "{r:?}");
        let (p, q) = r.witnesses();
        assert!(a.min_slack(&pa.inverse_transform_point(&p)) >= -1e-9);
        assert!(b.min_slack(&pb.inverse_transform_point(&q)) >= -1e-9);
        if d > 0.0 { separated += 1 } else { touching += 1 }
    }
    assert!(separated > 50 && touching > 20, "{separated} {touching}");
}

#[test]
fn tracking_matches_cold_and_takes_fewer_passes() {
    let mut rng = SmallRng::seed_from_u64(7);
    let a = genball(6).unwrap();
    let b = genball(6).unwrap();
    let (mut cold_passes, mut warm_passes, mut steps) = (0usize, 0usize, 0usize);
    for _ in 0..20 {
        let mut tracker = Dqp3Tracker::new(&a, &b);
        let (mut ra, mut rb) = (random_rotation(&mut rng), random_rotation(&mut rng));
        let mut tb = Vector3::new(5.0, 5.0, 5.0) + Vector3::new(rng.random_range(-1.0..1.0), 0.3, -0.2);
        let dir = Vector3::new(-1.0, -1.0, -1.0).normalize();
        let (wa, wb) = (
            rot(Vector3::new(1.0, 2.0, 3.0), 1f64.to_radians()),
            rot(Vector3::new(-2.0, 1.0, 0.5), 1f64.to_radians()),
        );
        for step in 0..100 {
            let (pa, pb) = (pose(ra, [0.0; 3]), pose(rb, tb.into()));
            let w = tracker.step(&pa, &pb);
            let c = distance_dqp3(&a, &pa, &b, &pb, &Dqp3Settings::default()).unwrap();
            assert_eq!(w.status, Dqp3Status::Optimal);
            assert!((w.distance() - c.distance()).abs() <= 1e-9 * (1.0 + c.distance()));
            if step > 0 {
                cold_passes += c.passes;
                warm_passes += w.passes;
                steps += 1;
            }
            ra = wa * ra;
            rb = wb * rb;
            tb += dir * 0.08;
        }
    }
    assert!(steps > 0 && 2 * warm_passes <= cold_passes, "warm {warm_passes} cold {cold_passes}");
}

#[test]
fn bad_input_is_rejected() {
    assert!(FacetPolyhedron::from_inward(&[]).is_err());
    assert!(FacetPolyhedron::from_inward(&[([0.0, 0.0, 0.0], 1.0)]).is_err());
    assert!(FacetPolyhedron::from_inward(&[([f64::NAN, 0.0, 1.0], 1.0)]).is_err());
    // Not closed: a cube missing one face.
    let open: Vec<([f64; 3], f64)> = vec![
        ([1.0, 0.0, 0.0], -1.0),
        ([-1.0, 0.0, 0.0], -1.0),
        ([0.0, 1.0, 0.0], -1.0),
        ([0.0, -1.0, 0.0], -1.0),
        ([0.0, 0.0, 1.0], -1.0),
    ];
    assert!(FacetPolyhedron::from_inward(&open).is_err());
    // Empty: x ≥ 1 and −x ≥ 1 inside a cube.
    let mut empty = open.clone();
    empty.push(([0.0, 0.0, -1.0], -1.0));
    empty.push(([1.0, 0.0, 0.0], 1.0));
    empty.push(([-1.0, 0.0, 0.0], 1.0));
    assert!(FacetPolyhedron::from_inward(&empty).is_err());
    // Flat vertex sets.
    assert!(
        FacetPolyhedron::from_vertices(&[[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]])
            .is_err()
    );
    assert!(
        FacetPolyhedron::from_vertices(&[
            [0.0; 3],
            [f64::INFINITY, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0]
        ])
        .is_err()
    );
    assert!(genball(1).is_err());
    assert!(ellipsoid_model(3, [1.0, 0.0, 1.0]).is_err());
    let bad = Dqp3Settings { zero_step: 0.0, ..Default::default() };
    let c = cube(1.0);
    assert!(distance_dqp3(&c, &Pose::identity(), &c, &Pose::identity(), &bad).is_err());
}

#[test]
fn hull_of_vertices_matches_the_facet_form() {
    let mut rng = SmallRng::seed_from_u64(3);
    let pts: Vec<[f64; 3]> = (0..40)
        .map(|_| {
            let v = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            (v.normalize() * rng.random_range(0.5..1.0)).into()
        })
        .collect();
    let hull = FacetPolyhedron::from_vertices(&pts).unwrap();
    // Every input point is inside, and some lie on the boundary.
    for p in &pts {
        assert!(hull.min_slack(&nalgebra::Point3::from(*p)) >= -1e-9);
    }
    // Cube corners → 6 facets.
    let corners: Vec<[f64; 3]> = (0..8)
        .map(|i| {
            [
                if i & 1 == 0 { -1.0 } else { 1.0 },
                if i & 2 == 0 { -1.0 } else { 1.0 },
                if i & 4 == 0 { -1.0 } else { 1.0 },
            ]
        })
        .collect();
    let c = FacetPolyhedron::from_vertices(&corners).unwrap();
    assert_eq!(c.num_facets(), 6);
}

/// The same distance QP through Lemke (`solve_qp`), with the scene shifted by +50 so that the
/// QP's implicit bounds x ≥ 0 are inactive. `None` when the float run is not certified.
fn lemke_distance(a: &FacetPolyhedron, pa: &Pose, b: &FacetPolyhedron, pb: &Pose) -> Option<f64> {
    use proxima_lcp::{ConvexQp, QpSettings, QpStatus, solve_qp};
    let (h, rows, rhs) = distance_qp_data(a, pa, b, pb, Vector3::new(50.0, 50.0, 50.0));
    let qp = ConvexQp::new(h, vec![0.0; 6], 0.0).unwrap().with_inequalities(rows, rhs).unwrap();
    let mut s = QpSettings::default();
    s.lemke.fallback.exact_resolve_max_n = 0;
    let sol = solve_qp(&qp, &s).ok()?;
    (sol.status == QpStatus::Solved).then(|| (2.0 * sol.objective).max(0.0).sqrt())
}

#[test]
fn agrees_with_lemke_on_small_pairs() {
    let mut rng = SmallRng::seed_from_u64(5);
    let objects = [genball(2).unwrap(), genball(3).unwrap(), ellipsoid_model(3, [1.0, 2.0, 0.5]).unwrap()];
    let mut compared = 0;
    for trial in 0..60 {
        let a = &objects[rng.random_range(0..objects.len())];
        let b = &objects[rng.random_range(0..objects.len())];
        let dir = Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let pa = pose(random_rotation(&mut rng), [0.0; 3]);
        let pb = pose(random_rotation(&mut rng), (dir.normalize() * rng.random_range(0.0..6.0)).into());
        let r = distance_dqp3(a, &pa, b, &pb, &Dqp3Settings::default()).unwrap();
        if let Some(l) = lemke_distance(a, &pa, b, &pb) {
            // sqrt of a float objective: 1e-9 relative, looser (1e-7) only near contact.
            assert!(
                (r.distance() - l).abs() <= 1e-9 * l.max(1.0) + if l < 1e-6 { 1e-7 } else { 0.0 },
                "trial {trial}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 40, "{compared}");
}
