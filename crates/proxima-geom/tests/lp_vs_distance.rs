//! Cross-validation of the vertex-LP collision test against the LCP distance queries
//! (issue 5): shapes written as vertex sets collide exactly when their distance is 0.
//!
//! Geometry is kept exactly representable (integer coordinates, axis-aligned boxes placed by
//! integer translations) so both exact paths see the *same* shapes: the LP works on the world
//! vertices, the distance kernels on centre/axes/extents. Integer data makes touching
//! configurations (distance exactly 0 on the boundary) frequent, which is where a tolerance
//! based test would go wrong.

use proxima_geom::shape::{ConvexPolytope, Cuboid, Triangle};
use proxima_geom::{Algorithm, Arithmetic, Intersection, Pose, QuerySettings, Shape, distance, intersects};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn exact(algorithm: Algorithm) -> QuerySettings {
    QuerySettings::default().with_algorithm(algorithm).with_arithmetic(Arithmetic::Exact)
}

fn lp_collides(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, arithmetic: Arithmetic) -> bool {
    let s = QuerySettings::default().with_algorithm(Algorithm::Lp).with_arithmetic(arithmetic);
    match intersects(a, pa, b, pb, &s).expect("LP applies to vertex shapes") {
        Intersection::Intersecting { .. } => true,
        Intersection::Separated { .. } => false,
        other => panic!("no verdict: {other:?}"),
    }
}

fn random_triangle(rng: &mut SmallRng) -> Triangle {
    loop {
        let mut v = || [0, 1, 2].map(|_| rng.random_range(-3i32..=3) as f64);
        if let Ok(t) = Triangle::new(v(), v(), v()) {
            return t;
        }
    }
}

#[test]
fn triangle_box_lp_collision_iff_exact_distance_zero() {
    let mut rng = SmallRng::seed_from_u64(5);
    let (mut colliding, mut touching) = (0, 0);
    for _ in 0..300 {
        let tri = Shape::Triangle(random_triangle(&mut rng));
        let h = [0, 1, 2].map(|_| rng.random_range(1i32..=2) as f64);
        let bx = Shape::Cuboid(Cuboid::new(h).unwrap());
        let t = [0, 1, 2].map(|_| rng.random_range(-4i32..=4) as f64);
        let (pt, pb) = (Pose::identity(), Pose::from_translation(t).unwrap());
        let d = distance(&tri, &pt, &bx, &pb, &exact(Algorithm::Lcp)).unwrap().distance();
        let hit = lp_collides(&tri, &pt, &bx, &pb, Arithmetic::Exact);
        assert_eq!(hit, d == 0.0, "triangle {tri:?} box {h:?} at {t:?}: LP {hit}, distance {d}");
        // The certified float path must agree too (it re-solves exactly near the boundary).
        assert_eq!(lp_collides(&tri, &pt, &bx, &pb, Arithmetic::Certified), hit);
        colliding += usize::from(hit);
        // Touching: distance 0 but a unit push along some axis separates them.
        if hit {
            let pushed = Pose::from_translation([t[0] + 1e-3, t[1], t[2]]).unwrap();
            let d2 = distance(&tri, &pt, &bx, &pushed, &exact(Algorithm::Lcp)).unwrap().distance();
            touching += usize::from(d2 > 0.0);
        }
    }
    // The sample must exercise both outcomes and boundary contact.
    assert!(colliding > 30 && colliding < 270, "colliding {colliding}");
    assert!(touching > 0, "no touching configuration sampled");
}

#[test]
fn triangle_triangle_as_polytopes_agree_with_lp_on_triangles() {
    // Triangles as 3-vertex polytopes vs as triangles: the LP sees the same vertex sets, so
    // the verdicts must be identical; and a triangle vs a box-as-polytope agrees with the
    // triangle–box distance.
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..200 {
        let (ta, tb) = (random_triangle(&mut rng), random_triangle(&mut rng));
        let as_poly = |t: &Triangle| {
            Shape::ConvexPolytope(
                ConvexPolytope::new(t.vertices().iter().map(|p| [p.x, p.y, p.z]).collect()).unwrap(),
            )
        };
        let id = Pose::identity();
        let shift = Pose::from_translation([rng.random_range(-2i32..=2) as f64, 0.0, 0.0]).unwrap();
        let tri = lp_collides(&Shape::Triangle(ta), &id, &Shape::Triangle(tb), &shift, Arithmetic::Exact);
        let poly = lp_collides(&as_poly(&ta), &id, &as_poly(&tb), &shift, Arithmetic::Exact);
        assert_eq!(tri, poly);
        // Box (as 8 vertices) vs triangle: LP vs exact triangle–box distance.
        let h = [1.0, 1.0, 1.0];
        let corners: Vec<[f64; 3]> =
            (0..8).map(|k| [0, 1, 2].map(|i| if k >> i & 1 == 1 { h[i] } else { -h[i] })).collect();
        let box_poly = Shape::ConvexPolytope(ConvexPolytope::new(corners).unwrap());
        let cube = Shape::Cuboid(Cuboid::new(h).unwrap());
        let d =
            distance(&Shape::Triangle(ta), &shift, &cube, &id, &exact(Algorithm::Lcp)).unwrap().distance();
        assert_eq!(lp_collides(&Shape::Triangle(ta), &shift, &box_poly, &id, Arithmetic::Exact), d == 0.0);
    }
}
