//! Profiling aid: the rows of the Python `distance_batch` benchmark (`python/bench/bench_python.py`,
//! batch section) through `PreparedPair::signed_distance`, the same path minus the numpy glue.
//! Usage: `harness_batch_rows <box|flatbox|needlebox|ellipsoid|capsule|polytope> <rows> [dump]`; with `dump` it prints every
//! row's value, bracket (shortest round-trip decimal, so equal text = equal bits) and path
//! for old/new comparisons. Per-row instruction counts:
//! `valgrind --tool=callgrind target/release/examples/harness_batch_rows box 4000`, then the
//! inclusive count of `PreparedPair::signed_distance` / rows (the pose generation is apart).
//! Same shapes and pose distribution as the Python benchmark (its own random stream).
//! ci-run: box 200

use nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector3};
use proxima_geom::query::{PreparedPair, QuerySettings};
use proxima_geom::shape::{Capsule, ConvexPolytope, Cuboid, Ellipsoid};
use proxima_geom::{Pose, Shape};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A standard normal sample (Box–Muller).
fn normal(rng: &mut SmallRng) -> f64 {
    let (u, v): (f64, f64) = (rng.random_range(1e-300..1.0), rng.random_range(0.0..1.0));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A uniformly random rotation (normalised Gaussian quaternion) at `c` + N(0, 0.3²) noise.
fn pose(rng: &mut SmallRng, c: Vector3<f64>) -> Pose {
    let q =
        UnitQuaternion::from_quaternion(Quaternion::new(normal(rng), normal(rng), normal(rng), normal(rng)));
    let r: Matrix3<f64> = *q.to_rotation_matrix().matrix();
    let t = c + Vector3::from_fn(|_, _| 0.3 * normal(rng));
    Pose::from_matrix(r, t).unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = args[1].as_str();
    let n: usize = args[2].parse().unwrap();
    let dump = args.get(3).is_some_and(|s| s == "dump");
    let mut rng = SmallRng::seed_from_u64(1);
    let half = [0.5, 0.4, 0.3];
    let shape = match kind {
        "box" => Shape::Cuboid(Cuboid::new(half).unwrap()),
        // Flat and needle boxes, for old/new comparisons on thin shapes.
        "flatbox" => Shape::Cuboid(Cuboid::new([0.5, 0.4, 1e-4]).unwrap()),
        "needlebox" => Shape::Cuboid(Cuboid::new([1e-4, 1e-4, 0.5]).unwrap()),
        "ellipsoid" => Shape::Ellipsoid(Ellipsoid::new(half).unwrap()),
        "capsule" => Shape::Capsule(Capsule::new(0.3, 0.5).unwrap()),
        // The hull of 64 points on the ellipsoid of semi-axes `half`, as the benchmark's.
        "polytope" => {
            let points: Vec<[f64; 3]> = (0..64)
                .map(|_| {
                    let p = Vector3::from_fn(|_, _| normal(&mut rng));
                    let p = p / p.norm();
                    [p.x * half[0], p.y * half[1], p.z * half[2]]
                })
                .collect();
            Shape::ConvexPolytope(ConvexPolytope::hull_of(&points).unwrap())
        }
        _ => panic!("kind"),
    };
    let poses: Vec<(Pose, Pose)> = (0..n)
        .map(|_| (pose(&mut rng, Vector3::zeros()), pose(&mut rng, Vector3::new(1.6, 0.0, 0.0))))
        .collect();
    let settings = QuerySettings::default().with_penetration_depth(true);
    let pair = PreparedPair::new(&shape, &shape, &settings).unwrap();
    // As `distance_batch` does (polytopes' support lists when the rows pay for them).
    pair.prepare_for_rows(n);
    let mut acc = 0.0;
    for (i, (pa, pb)) in poses.iter().enumerate() {
        let sd = pair.signed_distance(pa, pb).unwrap();
        acc += sd.value;
        if dump {
            println!(
                "{i} {:e} {:e} {:e} {:?}",
                sd.value, sd.certificate.lower, sd.certificate.upper, sd.result.path
            );
        }
    }
    eprintln!("sum {acc}");
}
