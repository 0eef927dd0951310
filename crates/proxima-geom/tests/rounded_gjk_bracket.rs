//! Spheres and capsules against hulls of more than 16 vertices (GJK on the cores, the radii
//! added back): the lower bound is GJK's duality bound on the cores minus the radii when that
//! already closes the bracket to `gap_tolerance` (`query/certificate.rs`, `hint_with_radii`),
//! the support-function separation otherwise. Checked against an independent answer: the same
//! pair through the point/segment–polytope LCP kernel (forced), whose bracket comes from its
//! own witnesses and the user's support functions. Both brackets must overlap (each contains
//! the true distance), and Auto's must be as tight as asked for.

use proxima_geom::shape::{Capsule, ConvexPolytope, Sphere};
use proxima_geom::{Algorithm, Proximity, QuerySettings, Shape, distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[path = "support/random_pose.rs"]
mod random_pose;
use random_pose::pose;

/// The hull of 40 random points on an ellipsoid with radii 1 : 0.6 : 0.4 (more than the 16
/// vertices up to which point/sphere–polytope pairs take the LCP kernel under Auto).
fn hull(rng: &mut SmallRng) -> Shape {
    let points: Vec<[f64; 3]> = (0..40)
        .map(|_| {
            let (z, phi): (f64, f64) =
                (rng.random_range(-1.0..1.0), rng.random_range(0.0..std::f64::consts::TAU));
            let rho = (1.0 - z * z).sqrt();
            [rho * phi.cos(), 0.6 * rho * phi.sin(), 0.4 * z]
        })
        .collect();
    Shape::ConvexPolytope(ConvexPolytope::hull_of(&points).unwrap())
}

#[test]
fn rounded_cores_against_hulls_keep_a_proven_tight_bracket() {
    let mut rng = SmallRng::seed_from_u64(23);
    let auto = QuerySettings::default();
    let lcp = QuerySettings::default().with_algorithm(Algorithm::Lcp);
    let (mut separated, mut compared) = (0, 0);
    for case in 0..400 {
        let polytope = hull(&mut rng);
        let rounded = if case % 2 == 0 {
            Shape::Sphere(Sphere::new(rng.random_range(0.05..0.8)).unwrap())
        } else {
            Shape::Capsule(Capsule::new(rng.random_range(0.05..0.5), rng.random_range(0.1..1.0)).unwrap())
        };
        let (pa, pb) = (pose(&mut rng, 2.0), pose(&mut rng, 2.0));
        for (x, px, y, py) in [(&rounded, &pa, &polytope, &pb), (&polytope, &pb, &rounded, &pa)] {
            let r = distance(x, px, y, py, &auto).unwrap();
            let c = r.certificate;
            assert!(0.0 <= c.lower && c.lower <= c.upper, "case {case}: {c:?}");
            if !matches!(r.proximity, Proximity::Separated { .. }) {
                continue;
            }
            separated += 1;
            // Tight to the accuracy asked for (the test the shortcut applies).
            assert!(c.upper - c.lower <= auto.gap_tolerance * c.upper.max(1.0), "case {case}: {c:?}");
            // Against the LCP kernel where the pair has one (sphere: point–polytope with the
            // radius; capsule: segment–polytope): both brackets contain the distance, so they
            // overlap up to the containment tolerance of the witnesses (~1e-12 at this size).
            if let Ok(other) = distance(x, px, y, py, &lcp) {
                let o = other.certificate;
                assert!(c.lower <= o.upper + 1e-12, "case {case}: auto {c:?} above LCP {o:?}");
                assert!(o.lower <= c.upper + 1e-12, "case {case}: LCP {o:?} above auto {c:?}");
                compared += 1;
            }
        }
    }
    assert!(separated > 500, "separated answers checked: {separated}");
    assert!(compared > 200, "answers compared with the LCP kernel: {compared}");
}
