//! GJK against the independent algorithms that already exist: the LCP kernels (box–box,
//! triangle–box, point–polytope) and the closed forms (sphere/capsule/segment pairs, point in
//! box/cylinder), on random pairs. Where both apply the distances agree to 1e-9 (the
//! kernels' certificates are ≤ 1e-9·scale and GJK converges to 1e-10·scale on polytopal
//! cores), and the contact/separation verdicts agree. Point/segment/sphere/capsule–triangle
//! and segment/capsule–box pairs apart are answered by their closed forms, contact by GJK/EPA:
//! both are compared.

use nalgebra::{Rotation3, Vector3};
use proxima_geom::shape::{Capsule, ConvexPolytope, Cuboid, Point, Segment, Sphere, Triangle};
use proxima_geom::{Algorithm, Pose, Proximity, QueryPath, QuerySettings, Shape, distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn pose(rng: &mut SmallRng, spread: f64) -> Pose {
    let axis: [f64; 3] = core::array::from_fn(|_| rng.random_range(-3.2..3.2));
    let t: [f64; 3] = core::array::from_fn(|_| rng.random_range(-spread..spread));
    Pose::from_matrix(*Rotation3::new(Vector3::from(axis)).matrix(), Vector3::from(t)).unwrap()
}

fn random_shape(rng: &mut SmallRng, k: usize) -> Shape {
    let e = |rng: &mut SmallRng| rng.random_range(0.1..1.2);
    let p = |rng: &mut SmallRng| -> [f64; 3] { core::array::from_fn(|_| rng.random_range(-1.0..1.0)) };
    match k % 6 {
        0 => Shape::Cuboid(Cuboid::new([e(rng), e(rng), e(rng)]).unwrap()),
        1 => Shape::Sphere(Sphere::new(e(rng)).unwrap()),
        2 => Shape::Capsule(Capsule::new(e(rng), e(rng)).unwrap()),
        3 => Shape::Triangle(Triangle::new(p(rng), p(rng), p(rng)).unwrap()),
        4 => Shape::Segment(Segment::new(p(rng), p(rng)).unwrap()),
        _ => Shape::Point(Point::new(p(rng)).unwrap()),
    }
}

fn gjk() -> QuerySettings {
    QuerySettings::default().with_algorithm(Algorithm::Gjk)
}

fn contact(p: &Proximity) -> bool {
    !matches!(p, Proximity::Separated { .. })
}

#[test]
fn gjk_agrees_with_lcp_and_closed_forms() {
    let mut rng = SmallRng::seed_from_u64(8);
    let (mut compared, mut piece_triangle, mut segment_box) = (0, 0, 0);
    for i in 0..3000 {
        let a = random_shape(&mut rng, i);
        let b = random_shape(&mut rng, i / 6 + 7 * i);
        let (pa, pb) = (pose(&mut rng, 2.5), pose(&mut rng, 2.5));
        let Ok(reference) = distance(&a, &pa, &b, &pb, &QuerySettings::default()) else { continue };
        let g = distance(&a, &pa, &b, &pb, &gjk()).unwrap();
        assert_eq!(g.algorithm, Algorithm::Gjk);
        assert!(matches!(g.path, QueryPath::Gjk { .. }));
        let (d0, d1) = (reference.distance(), g.distance());
        let scale = 1.0 + d0;
        assert!(
            (d0 - d1).abs() <= 1e-9 * scale,
            "pair {i}: {:?} vs {:?}: reference {d0} gjk {d1} ({:?})",
            a.kind(),
            b.kind(),
            g.path
        );
        if d0 > 1e-9 {
            assert!(!contact(&g.proximity), "pair {i}: gjk contact, reference {d0}");
        }
        assert!(g.certificate.lower <= g.certificate.upper);
        assert!(g.certificate.lower <= d0 + 1e-12 * scale, "pair {i}: lower {} > {d0}", g.certificate.lower);
        if let Some((p, q)) = g.witnesses() {
            assert!(((q - p).norm() - d1).abs() <= 1e-12 * scale);
        }
        // Closed-form depths (sphere/capsule pairs, point in box) agree with EPA.
        if let (
            Proximity::Intersecting { depth: Some(x), .. },
            Proximity::Intersecting { depth: Some(y), .. },
        ) = (reference.proximity, g.proximity)
            && reference.algorithm == Algorithm::ClosedForm
        {
            assert!((x - y).abs() <= 1e-8 * scale, "pair {i}: depth {x} vs epa {y}");
        }
        let triangle = |s: &Shape| matches!(s, Shape::Triangle(_));
        let boxy = |s: &Shape| matches!(s, Shape::Cuboid(_));
        let segment = |s: &Shape| matches!(s, Shape::Segment(_) | Shape::Capsule(_));
        if reference.algorithm == Algorithm::ClosedForm {
            piece_triangle += usize::from(triangle(&a) || triangle(&b));
            segment_box += usize::from((boxy(&a) && segment(&b)) || (segment(&a) && boxy(&b)));
        }
        compared += 1;
    }
    assert!(compared > 2000, "{compared}");
    assert!(piece_triangle > 100, "{piece_triangle} piece–triangle closed forms");
    assert!(segment_box > 50, "{segment_box} segment–box closed forms");
}

#[test]
fn gjk_on_polytopes_matches_boxes() {
    // A box given as its 8 corners (a polytope) against a box: GJK on the polytope vs the
    // box–box LCP.
    let mut rng = SmallRng::seed_from_u64(9);
    for i in 0..400 {
        let h: [f64; 3] = core::array::from_fn(|_| rng.random_range(0.1..1.0));
        let corners: Vec<[f64; 3]> = (0..8)
            .map(|k| {
                let s = |bit: usize| if k >> bit & 1 == 1 { 1.0 } else { -1.0 };
                [s(0) * h[0], s(1) * h[1], s(2) * h[2]]
            })
            .collect();
        let poly = Shape::ConvexPolytope(ConvexPolytope::new(corners).unwrap());
        let bx = Shape::Cuboid(Cuboid::new(h).unwrap());
        let other = Shape::Cuboid(Cuboid::new(core::array::from_fn(|_| rng.random_range(0.1..1.0))).unwrap());
        let (pa, pb) = (pose(&mut rng, 2.0), pose(&mut rng, 2.0));
        let lcp = distance(&bx, &pa, &other, &pb, &QuerySettings::default()).unwrap();
        let g = distance(&poly, &pa, &other, &pb, &QuerySettings::default()).unwrap();
        assert_eq!(g.algorithm, Algorithm::Gjk);
        assert!(
            (lcp.distance() - g.distance()).abs() <= 1e-9,
            "pair {i}: {} vs {}",
            lcp.distance(),
            g.distance()
        );
    }
}
