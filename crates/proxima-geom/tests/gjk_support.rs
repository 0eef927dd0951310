//! Support maps: hill climbing over a validated face adjacency equals the linear scan; the
//! cone, rounded and Minkowski-sum support functions match brute force over sampled points;
//! bad face lists are rejected; GJK works on the new shapes.

use nalgebra::{Point3, Vector3};
use proxima_geom::shape::{Cone, ConvexPolytope, Cuboid, MinkowskiSum, Rounded, Sphere, Triangle};
use proxima_geom::{Algorithm, GeomError, Pose, QuerySettings, Shape, distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A geodesic sphere (icosahedron subdivided `levels` times, projected to the unit sphere),
/// then scaled by `radii`: vertices and outward counter-clockwise faces.
fn geodesic(levels: usize, radii: [f64; 3]) -> (Vec<[f64; 3]>, Vec<[usize; 3]>) {
    let t = (1.0 + 5f64.sqrt()) / 2.0;
    let mut v: Vec<Vector3<f64>> = [
        [-1.0, t, 0.0],
        [1.0, t, 0.0],
        [-1.0, -t, 0.0],
        [1.0, -t, 0.0],
        [0.0, -1.0, t],
        [0.0, 1.0, t],
        [0.0, -1.0, -t],
        [0.0, 1.0, -t],
        [t, 0.0, -1.0],
        [t, 0.0, 1.0],
        [-t, 0.0, -1.0],
        [-t, 0.0, 1.0],
    ]
    .iter()
    .map(|p| Vector3::from(*p).normalize())
    .collect();
    let mut f: Vec<[usize; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..levels {
        let mut mid = std::collections::HashMap::new();
        let mut nf = Vec::new();
        for [a, b, c] in f {
            let mut m = |i: usize, j: usize| {
                *mid.entry((i.min(j), i.max(j))).or_insert_with(|| {
                    v.push(((v[i] + v[j]) * 0.5).normalize());
                    v.len() - 1
                })
            };
            let (ab, bc, ca) = (m(a, b), m(b, c), m(c, a));
            nf.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        f = nf;
    }
    (v.iter().map(|p| [p.x * radii[0], p.y * radii[1], p.z * radii[2]]).collect(), f)
}

fn rand_dir(rng: &mut SmallRng) -> Vector3<f64> {
    Vector3::from(core::array::from_fn::<f64, 3, _>(|_| rng.random_range(-1.0..1.0)))
}

#[test]
fn hill_climbing_equals_linear_scan() {
    let mut rng = SmallRng::seed_from_u64(1);
    for (levels, radii) in [(2, [1.0, 2.0, 5.0]), (3, [1.0, 1.0, 1.0]), (1, [0.3, 4.0, 1.0])] {
        let (v, f) = geodesic(levels, radii);
        let fast = Shape::ConvexPolytope(ConvexPolytope::with_faces(v.clone(), &f).unwrap());
        let slow = Shape::ConvexPolytope(ConvexPolytope::new(v).unwrap());
        for _ in 0..2000 {
            let d = rand_dir(&mut rng);
            let (hf, hs) =
                (fast.support_value(&Pose::identity(), &d), slow.support_value(&Pose::identity(), &d));
            assert_eq!(hf, hs, "direction {d:?}");
        }
    }
}

#[test]
fn bad_faces_are_rejected() {
    let (v, mut f) = geodesic(1, [1.0, 1.0, 1.0]);
    let bad = |r: Result<ConvexPolytope, GeomError>| matches!(r, Err(GeomError::Degenerate { .. }));
    // Flipped orientation of one face: not a consistently oriented closed surface.
    let mut g = f.clone();
    g[0].swap(1, 2);
    assert!(bad(ConvexPolytope::with_faces(v.clone(), &g)));
    // A missing face: not closed.
    assert!(bad(ConvexPolytope::with_faces(v.clone(), &f[1..])));
    // Out of range.
    f[3][1] = 10_000;
    assert!(bad(ConvexPolytope::with_faces(v.clone(), &f)));
    // Non-convex: push one vertex inwards.
    let (mut w, f2) = geodesic(1, [1.0, 1.0, 1.0]);
    w[0] = [w[0][0] * 0.5, w[0][1] * 0.5, w[0][2] * 0.5];
    assert!(bad(ConvexPolytope::with_faces(w, &f2)));
    // NaN.
    let (mut w, f3) = geodesic(0, [1.0, 1.0, 1.0]);
    w[2][0] = f64::NAN;
    assert!(matches!(ConvexPolytope::with_faces(w, &f3), Err(GeomError::NonFinite { .. })));
}

/// Brute-force max of d·x over points sampled in the shape, versus the support value.
fn check_support(shape: &Shape, samples: &[Point3<f64>], rng: &mut SmallRng) {
    for _ in 0..100 {
        let d = rand_dir(rng);
        let h = shape.support_value(&Pose::identity(), &d);
        let p = shape.support_point(&Pose::identity(), &d).unwrap();
        assert!((d.dot(&p.coords) - h).abs() <= 1e-12 * (1.0 + h.abs()));
        let best = samples.iter().map(|q| d.dot(&q.coords)).fold(f64::NEG_INFINITY, f64::max);
        assert!(best <= h + 1e-12, "sampled point beyond the support: {best} > {h}");
        // Sampling is dense: the support is attained to within the sampling resolution.
        assert!(h - best <= 0.05 * d.norm() * 3.0, "support {h} far above samples {best}");
    }
}

#[test]
fn cone_rounded_and_minkowski_supports() {
    let mut rng = SmallRng::seed_from_u64(2);
    let (r, h) = (0.7, 1.1);
    let cone = Shape::Cone(Cone::new(r, h).unwrap());
    // Points of the cone: z ∈ [−h, h], radius ≤ r (h − z) / 2h.
    let mut pts = Vec::new();
    for i in 0..=40 {
        let z = -h + 2.0 * h * f64::from(i) / 40.0;
        let rad = r * (h - z) / (2.0 * h);
        for k in 0..72 {
            let a = f64::from(k) * std::f64::consts::TAU / 72.0;
            pts.push(Point3::new(rad * a.cos(), rad * a.sin(), z));
        }
    }
    check_support(&cone, &pts, &mut rng);

    let bx = Shape::Cuboid(Cuboid::new([0.5, 0.2, 0.3]).unwrap());
    let rounded = Shape::Rounded(Rounded::new(bx.clone(), 0.25).unwrap());
    let mut rpts = Vec::new();
    for i in 0..=8 {
        for j in 0..=8 {
            for k in 0..=8 {
                let c = Vector3::new(
                    -0.5 + f64::from(i) / 8.0,
                    -0.2 + 0.4 * f64::from(j) / 8.0,
                    -0.3 + 0.6 * f64::from(k) / 8.0,
                );
                for _ in 0..4 {
                    rpts.push(Point3::from(c + rand_dir(&mut rng).normalize() * 0.25));
                }
            }
        }
    }
    // Corners ⊕ sphere directions: add exact extreme samples for the density check.
    for s in 0..4000 {
        let u = rand_dir(&mut rng).normalize();
        let corner = Vector3::new(0.5f64.copysign(u.x), 0.2f64.copysign(u.y), 0.3f64.copysign(u.z));
        let _ = s;
        rpts.push(Point3::from(corner + u * 0.25));
    }
    check_support(&rounded, &rpts, &mut rng);

    let tri = Shape::Triangle(Triangle::new([0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]).unwrap());
    let pose_t = Pose::from_translation([0.5, 0.5, 0.5]).unwrap();
    let ball = Shape::Sphere(Sphere::new(0.4).unwrap());
    let sum = Shape::MinkowskiSum(MinkowskiSum::new(tri, pose_t, ball, Pose::identity()).unwrap());
    let mut spts = Vec::new();
    for _ in 0..20000 {
        let (a, b) = (rng.random_range(0.0..1.0f64), rng.random_range(0.0..1.0f64));
        let (a, b) = if a + b > 1.0 { (1.0 - a, 1.0 - b) } else { (a, b) };
        let u = rand_dir(&mut rng).normalize();
        spts.push(Point3::new(0.5 + a, 0.5 + b, 0.5) + u * 0.4);
    }
    check_support(&sum, &spts, &mut rng);
    // Unbounded inner shapes are rejected.
    let line = Shape::Line(proxima_geom::shape::Line::new([0.0; 3], [1.0, 0.0, 0.0]).unwrap());
    assert!(Rounded::new(line.clone(), 1.0).is_err());
    assert!(MinkowskiSum::new(line, Pose::identity(), cone, Pose::identity()).is_err());
    assert!(matches!(Cone::new(-1.0, 1.0), Err(GeomError::NonPositive { .. })));
    assert!(matches!(Rounded::new(bx, f64::NAN), Err(GeomError::NonFinite { .. })));
}

#[test]
fn rounded_box_distance_is_box_distance_minus_radius() {
    // Independent check: dist(Rounded(A, ρ), B) = max(dist(A, B) − ρ, 0) (box–box by LCP).
    let mut rng = SmallRng::seed_from_u64(3);
    let a = Shape::Cuboid(Cuboid::new([0.4, 0.7, 0.2]).unwrap());
    let b = Shape::Cuboid(Cuboid::new([0.3, 0.3, 0.9]).unwrap());
    let ra = Shape::Rounded(Rounded::new(a.clone(), 0.15).unwrap());
    for _ in 0..300 {
        let axis = rand_dir(&mut rng) * 3.0;
        let t: [f64; 3] = core::array::from_fn(|_| rng.random_range(-2.0..2.0));
        let pb = Pose::from_matrix(*nalgebra::Rotation3::new(axis).matrix(), Vector3::from(t)).unwrap();
        let pa = Pose::identity();
        let d = distance(&a, &pa, &b, &pb, &QuerySettings::default()).unwrap().distance();
        let r = distance(&ra, &pa, &b, &pb, &QuerySettings::default()).unwrap();
        assert_eq!(r.algorithm, Algorithm::Gjk);
        assert!((r.distance() - (d - 0.15).max(0.0)).abs() <= 1e-9, "{} vs {}", r.distance(), d);
    }
}
