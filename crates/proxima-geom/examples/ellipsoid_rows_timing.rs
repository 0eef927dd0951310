//! Profiling aid: wall-clock nanoseconds per row of the ellipsoid batch rows of
//! `harness_batch_rows` (same shapes, pose distribution and random stream), the poses drawn
//! before the clock starts. Usage: `ellipsoid_rows_timing <rows> <rounds> [solver]`; prints
//! the minimum and median over the rounds of the mean time per row of
//! `PreparedPair::signed_distance` (with `solver`: of the ellipsoid solver alone,
//! `distance_ellipsoid_ellipsoid`). Pin it (`taskset -c 1`) and alternate binaries for A/B.
//! ci-run: 200 2

use std::time::Instant;

use nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector3};
use proxima_geom::ellipsoid::{EllipsoidSettings, distance_ellipsoid_ellipsoid};
use proxima_geom::query::{PreparedPair, QuerySettings};
use proxima_geom::shape::Ellipsoid;
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
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20000);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(7);
    let solver_only = args.get(3).is_some_and(|s| s == "solver");
    // A fourth argument caps the solver's Newton iterations (per-iteration costs by difference).
    let cap: Option<usize> = args.get(4).and_then(|s| s.parse().ok());
    let mut rng = SmallRng::seed_from_u64(1);
    let ellipsoid = Ellipsoid::new([0.5, 0.4, 0.3]).unwrap();
    let shape = Shape::Ellipsoid(ellipsoid);
    let mut es = EllipsoidSettings::default();
    if let Some(cap) = cap {
        es.max_iterations = cap;
    }
    let poses: Vec<(Pose, Pose)> = (0..n)
        .map(|_| (pose(&mut rng, Vector3::zeros()), pose(&mut rng, Vector3::new(1.6, 0.0, 0.0))))
        .collect();
    let settings = QuerySettings::default().with_penetration_depth(true);
    let pair = PreparedPair::new(&shape, &shape, &settings).unwrap();
    pair.prepare_for_rows(n);
    let mut per_row = Vec::with_capacity(rounds);
    let mut acc = 0.0;
    for _ in 0..rounds {
        let t0 = Instant::now();
        if solver_only {
            for (pa, pb) in &poses {
                acc += distance_ellipsoid_ellipsoid(&ellipsoid, pa, &ellipsoid, pb, &es).unwrap().distance();
            }
        } else {
            for (pa, pb) in &poses {
                acc += pair.signed_distance(pa, pb).unwrap().value;
            }
        }
        per_row.push(t0.elapsed().as_nanos() as f64 / n as f64);
    }
    per_row.sort_by(f64::total_cmp);
    println!("ns/row min {:.1} median {:.1} (sum {acc})", per_row[0], per_row[rounds / 2]);
}
