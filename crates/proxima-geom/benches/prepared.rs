//! Batch rows: one pair of shapes at many pose pairs, as `proxima.distance_batch` answers them
//! — the pose pair checked from its 16 + 16 raw numbers and the signed distance — through
//! one-off `signed_distance` calls and through one `PreparedPair`, on the four pairs of
//! python/bench/bench_python.py (a 64-point hull, a box, a capsule and an ellipsoid, each
//! against itself; A about the origin, B about (1.6, 0, 0), spread 0.3, random rotations).
//! Callgrind-friendly: `valgrind --tool=callgrind target/release/deps/prepared-* --bench
//! rows_prepared` counts the instructions of a row by function.

use divan::{Bencher, black_box};
use nalgebra::{Matrix3, Rotation3, Unit, Vector3};
use proxima_geom::shape::{Capsule, ConvexPolytope, Cuboid, Ellipsoid};
use proxima_geom::{Pose, PreparedPair, QuerySettings, Shape, signed_distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn main() {
    divan::main();
}

const ROWS: usize = 2000;
const PAIRS: [&str; 4] = ["polytope", "box", "capsule", "ellipsoid"];

fn unit(rng: &mut SmallRng) -> Vector3<f64> {
    loop {
        let v = Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        if (0.1..=1.0).contains(&v.norm()) {
            return v.normalize();
        }
    }
}

fn shape(name: &str, rng: &mut SmallRng) -> Shape {
    match name {
        "box" => Shape::Cuboid(Cuboid::new([0.5, 0.4, 0.3]).unwrap()),
        "capsule" => Shape::Capsule(Capsule::new(0.3, 0.5).unwrap()),
        "ellipsoid" => Shape::Ellipsoid(Ellipsoid::new([0.5, 0.4, 0.3]).unwrap()),
        _ => {
            let points: Vec<[f64; 3]> = (0..64)
                .map(|_| {
                    let u = unit(rng);
                    [0.5 * u.x, 0.4 * u.y, 0.3 * u.z]
                })
                .collect();
            Shape::ConvexPolytope(ConvexPolytope::hull_of(&points).unwrap())
        }
    }
}

/// A row-major 4 × 4 pose about `centre`, as a batch reads it.
fn raw_pose(rng: &mut SmallRng, centre: [f64; 3]) -> [f64; 16] {
    let angle = rng.random_range(0.0..std::f64::consts::TAU);
    let r: Matrix3<f64> = *Rotation3::from_axis_angle(&Unit::new_normalize(unit(rng)), angle).matrix();
    let t: [f64; 3] = std::array::from_fn(|i| centre[i] + rng.random_range(-0.5..0.5));
    let mut m = [0.0; 16];
    for i in 0..3 {
        for j in 0..3 {
            m[4 * i + j] = r[(i, j)];
        }
        m[4 * i + 3] = t[i];
    }
    m[15] = 1.0;
    m
}

/// The checked pose of a raw row (the batch's per-row check).
fn pose(m: &[f64; 16]) -> Pose {
    let r = Matrix3::new(m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]);
    Pose::from_matrix(r, Vector3::new(m[3], m[7], m[11])).unwrap()
}

/// The raw poses (A, B) of one row.
type Row = ([f64; 16], [f64; 16]);

fn workload(name: &str) -> (Shape, Vec<Row>) {
    let mut rng = SmallRng::seed_from_u64(19);
    let s = shape(name, &mut rng);
    let rows =
        (0..ROWS).map(|_| (raw_pose(&mut rng, [0.0; 3]), raw_pose(&mut rng, [1.6, 0.0, 0.0]))).collect();
    (s, rows)
}

/// One-off `signed_distance` per row (ns per batch of `ROWS` rows).
#[divan::bench(args = PAIRS)]
fn rows_one_off(bencher: Bencher, name: &str) {
    let (s, rows) = workload(name);
    let settings = QuerySettings::default();
    bencher.bench(|| {
        let mut sum = 0.0;
        for (ta, tb) in black_box(&rows) {
            sum += signed_distance(&s, &pose(ta), &s, &pose(tb), &settings).unwrap().value;
        }
        sum
    });
}

/// One `PreparedPair` for every row (ns per batch of `ROWS` rows).
#[divan::bench(args = PAIRS)]
fn rows_prepared(bencher: Bencher, name: &str) {
    let (s, rows) = workload(name);
    let settings = QuerySettings::default();
    bencher.bench(|| {
        let pair = PreparedPair::new(&s, &s, &settings).unwrap();
        let mut sum = 0.0;
        for (ta, tb) in black_box(&rows) {
            sum += pair.signed_distance(&pose(ta), &pose(tb)).unwrap().value;
        }
        sum
    });
}
