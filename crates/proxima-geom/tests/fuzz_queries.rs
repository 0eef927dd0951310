//! Deterministic stand-in for the cargo-fuzz target `queries` (`fuzz/`): `fuzz_queries` (the
//! query API on shapes and poses decoded from bytes: no panic, no NaN, brackets that hold and
//! agree across algorithms) over seeded random byte strings. `PROXIMA_FUZZ_SCALE=N` multiplies
//! their number, `PROXIMA_FUZZ_SEED` changes the seed.

use proxima_geom::fuzz::fuzz_queries;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[test]
fn query_api_invariants_on_random_bytes() {
    let scale: usize = std::env::var("PROXIMA_FUZZ_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let seed: u64 = std::env::var("PROXIMA_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0xf022);
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..scale * 1500 {
        let len = rng.random_range(0..400);
        let data: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        fuzz_queries(&data);
    }
}

#[test]
fn degenerate_byte_patterns() {
    for data in [vec![], vec![0u8; 400], vec![0xffu8; 400], (0..=255u8).cycle().take(600).collect::<Vec<_>>()]
    {
        fuzz_queries(&data);
    }
}

/// Inputs that once broke an invariant (testdata/fuzz/queries-regressions.txt), replayed.
#[test]
fn inputs_found_earlier() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/fuzz/queries-regressions.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut count = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (name, hex) = line.split_once(' ').unwrap();
        let data: Vec<u8> =
            (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
        let replay = std::panic::catch_unwind(|| fuzz_queries(&data));
        assert!(replay.is_ok(), "regression input {name} fails again");
        count += 1;
    }
    assert!(count >= 20, "{count} regression inputs");
}

/// Shapes of unit size far apart (1e150 … 1e300, where squared distances overflow f64) and
/// overlapping far from the origin: every algorithm either answers correctly — the distance to
/// within 1e-9 relative (the shapes' sizes vanish in the rounding of the offset), inside its
/// bracket, a signed distance of the same value, separated for `intersects` — or returns an
/// error; never a panic, NaN or a wrong number. (A box 1e160 from an ellipsoid once panicked
/// in EPA on an emptied simplex.)
#[test]
fn far_apart_and_far_out_pairs() {
    use proxima_geom::shape::{Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Sphere, Triangle};
    use proxima_geom::{
        Algorithm, Intersection, Pose, QuerySettings, Shape, distance, intersects, signed_distance,
    };
    let shapes = [
        Shape::Cuboid(Cuboid::new([0.5, 0.5, 0.5]).unwrap()),
        Shape::Ellipsoid(Ellipsoid::new([1.0, 2.0, 3.0]).unwrap()),
        Shape::Sphere(Sphere::new(0.7).unwrap()),
        Shape::Capsule(Capsule::new(0.3, 0.8).unwrap()),
        Shape::Cylinder(Cylinder::new(0.4, 0.6).unwrap()),
        Shape::Cone(Cone::new(0.5, 0.9).unwrap()),
        Shape::Triangle(Triangle::new([0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.2]).unwrap()),
        Shape::ConvexPolytope(
            ConvexPolytope::hull_of(&[
                [0.0, 0.0, 0.0],
                [1.0, 0.1, 0.0],
                [0.2, 1.0, 0.1],
                [0.1, 0.2, 1.0],
                [0.6, 0.6, 0.6],
            ])
            .unwrap(),
        ),
    ];
    let algorithms = [Algorithm::Auto, Algorithm::Gjk, Algorithm::Lcp, Algorithm::Dqp3, Algorithm::Ellipsoid];
    for far in [1e150, 1e154, 1e155, 1e160, 1e200, 1e300, f64::MAX / 4.0] {
        let direction = nalgebra::Vector3::new(0.36, 0.48, 0.8); // unit, exact in f64 to an ulp
        let (mut answered, mut refused) = (0usize, 0usize);
        for a in &shapes {
            for b in &shapes {
                let pb = Pose::from_translation((direction * far).into()).unwrap();
                for alg in algorithms {
                    let settings = QuerySettings::default().with_algorithm(alg);
                    let r = distance(a, &Pose::identity(), b, &pb, &settings);
                    if alg == Algorithm::Auto {
                        if r.is_ok() { answered += 1 } else { refused += 1 }
                    }
                    let Ok(r) = r else { continue };
                    let (d, c) = (r.distance(), r.certificate);
                    assert!(
                        (d - far).abs() <= 1e-9 * far && c.lower <= d && d <= c.upper,
                        "{alg:?} {:?}–{:?} at {far:e}: {r:?}",
                        a.kind(),
                        b.kind()
                    );
                }
                let settings = QuerySettings::default();
                if let Ok(sd) = signed_distance(a, &Pose::identity(), b, &pb, &settings) {
                    assert!((sd.value - far).abs() <= 1e-9 * far, "signed at {far:e}: {sd:?}");
                }
                if let Ok(i) = intersects(a, &Pose::identity(), b, &pb, &settings) {
                    assert!(
                        !matches!(i, Intersection::Intersecting { .. }),
                        "{:?}–{:?} intersecting at {far:e}: {i:?}",
                        a.kind(),
                        b.kind()
                    );
                }
                // Overlapping, both far out: the shapes' sizes are below the coordinates'
                // resolution from 1e16 on; whatever comes back is no panic and no NaN.
                let pa = Pose::from_translation((direction * far).into()).unwrap();
                if let Ok(r) = distance(a, &pa, b, &pb, &settings) {
                    assert!(r.distance().is_finite() && r.certificate.lower <= r.certificate.upper, "{r:?}");
                }
                if let Ok(sd) = signed_distance(a, &pa, b, &pb, &settings) {
                    assert!(sd.value.is_finite() && sd.certificate.lower <= sd.value, "{sd:?}");
                }
            }
        }
        // Every pair is answered by the default route while squared distances fit in f64; beyond
        // (~1.3e154) they are errors (GeomError::NonFinite), never a wrong distance.
        println!("far {far:e}: {answered} pairs answered, {refused} errors");
        if far <= 1e150 {
            assert_eq!(refused, 0, "at {far:e}");
        }
    }
}
