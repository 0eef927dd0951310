//! Benchmarks of the cylinder–cylinder separating-axis test (divan).
//!
//! `cargo bench -p proxima-geom --bench sat_cylinder`
//!
//! Every benchmark except `*_single` times whole passes over its pairs: ns/query = the
//! reported time / the number of pairs (also shown as items/s).
//!
//! * `random_pairs_mixed`: 1024 random cylinder pairs (radius 0.1–1, half height 0.1–2, random
//!   rotations, centres uniform in a cube of half-side 3 — mostly separated, like the shared
//!   `cylinders` workload), one pair per iteration.
//! * `workload_cylinders`: the 2000 queries of `shared/bench/geometry/workloads/cylinders.json`
//!   in file order (compare with coal's boolean collide, ~1.2 µs/query native);
//!   `workload_cylinders_single` times them one per iteration (median = typical query).
//! * `intersecting_pairs`: random pairs with centres within 0.5 (mostly overlapping).
//! * `workload_cylinders_distance` / `workload_cylinders_distance_parry`: the same workload's
//!   certified distance (`proxima_geom::distance`, default settings) beside parry3d-f64's
//!   `query::distance` (its cylinder's axis is y: placed by the pose times a quarter turn about
//!   x), one pass over the 2000 queries per iteration; `main` first checks that the two agree
//!   on every query.

use std::cell::Cell;

use divan::Bencher;
use parry3d_f64::math::{Matrix as PMatrix, Pose as PPose, Rotation as PRotation, Vector as PVector};
use parry3d_f64::shape::Cylinder as PCylinder;
use proxima_geom::sat_cylinder::{CylinderGeom, CylinderSatSettings, intersects_cylinder_cylinder_raw};
use proxima_geom::shape::Cylinder;
use proxima_geom::{Pose, QuerySettings, Shape, distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn main() {
    check_distance_agreement();
    divan::main();
}

fn unit(rng: &mut SmallRng) -> [f64; 3] {
    loop {
        let v: [f64; 3] = core::array::from_fn(|_| rng.random_range(-1.0..1.0));
        let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if n > 0.1 && n <= 1.0 {
            return v.map(|x| x / n);
        }
    }
}

fn random_pairs(spread: f64, n: usize, seed: u64) -> Vec<(CylinderGeom, CylinderGeom)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let cyl = |rng: &mut SmallRng| {
        let c: [f64; 3] = core::array::from_fn(|_| rng.random_range(-spread..spread));
        let w = unit(rng);
        CylinderGeom::new(c, w, rng.random_range(0.1..1.0), rng.random_range(0.1..2.0)).unwrap()
    };
    (0..n).map(|_| (cyl(&mut rng), cyl(&mut rng))).collect()
}

/// (radius, half height) of each cylinder of a workload, by shape id.
type CylinderDims = std::collections::HashMap<String, (f64, f64)>;

/// The shared harness's cylinders workload: its cylinders' dimensions and the workload JSON
/// (`None` without the shared folder).
fn read_cylinders_workload() -> Option<(CylinderDims, serde_json::Value)> {
    let path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/bench/geometry/workloads/cylinders.json");
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let shapes = v["shapes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let id = s["id"].as_str().unwrap().to_string();
            (id, (s["radius"].as_f64().unwrap(), s["half_height"].as_f64().unwrap()))
        })
        .collect();
    Some((shapes, v))
}

fn workload() -> Vec<(CylinderGeom, CylinderGeom)> {
    let Some((shapes, v)) = read_cylinders_workload() else { return Vec::new() };
    let geom = |id: &serde_json::Value, pose: &serde_json::Value| {
        let (r, h) = shapes[id.as_str().unwrap()];
        let t: Vec<f64> =
            pose["translation"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        let rot = &pose["rotation"];
        let w: [f64; 3] = core::array::from_fn(|i| rot[i][2].as_f64().unwrap());
        CylinderGeom::new([t[0], t[1], t[2]], w, r, h).unwrap()
    };
    v["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| (geom(&q["a"], &q["pose_a"]), geom(&q["b"], &q["pose_b"])))
        .collect()
}

/// One workload query as both libraries see it: our shapes and poses, parry's.
struct DistancePair {
    a: Shape,
    pa: Pose,
    b: Shape,
    pb: Pose,
    qa: PCylinder,
    qpa: PPose,
    qb: PCylinder,
    qpb: PPose,
}

/// The cylinders workload's queries for the distance benchmarks (empty without the shared
/// folder).
fn distance_workload() -> Vec<DistancePair> {
    let Some((shapes, v)) = read_cylinders_workload() else { return Vec::new() };
    // Parry's cylinder axis is y: a quarter turn about x takes it onto our z.
    let y_to_z = PRotation::from_rotation_x(std::f64::consts::FRAC_PI_2);
    let side = |id: &serde_json::Value, pose: &serde_json::Value| {
        let (r, h) = shapes[id.as_str().unwrap()];
        let t: [f64; 3] = core::array::from_fn(|i| pose["translation"][i].as_f64().unwrap());
        let rows: [[f64; 3]; 3] =
            core::array::from_fn(|i| core::array::from_fn(|j| pose["rotation"][i][j].as_f64().unwrap()));
        let col = |j: usize| PVector::new(rows[0][j], rows[1][j], rows[2][j]);
        let rot = PRotation::from_mat3(&PMatrix::from_cols(col(0), col(1), col(2))) * y_to_z;
        let parry = PPose::from_parts(PVector::new(t[0], t[1], t[2]), rot);
        (
            Shape::Cylinder(Cylinder::new(r, h).unwrap()),
            Pose::new(rows, t).unwrap(),
            PCylinder::new(h, r),
            parry,
        )
    };
    v["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            let (a, pa, qa, qpa) = side(&q["a"], &q["pose_a"]);
            let (b, pb, qb, qpb) = side(&q["b"], &q["pose_b"]);
            DistancePair { a, pa, b, pb, qa, qpa, qb, qpb }
        })
        .collect()
}

/// Ours and parry's distances agree on every workload query (to 1e-5: parry's GJK on curved
/// shapes stops at its own tolerance, 5.1e-6 at worst here; ours is certified to 1e-10 of the
/// scale).
fn check_distance_agreement() {
    let settings = QuerySettings::default();
    let mut worst = 0.0f64;
    for p in &distance_workload() {
        let ours = distance(&p.a, &p.pa, &p.b, &p.pb, &settings).unwrap().distance();
        let theirs = parry3d_f64::query::distance(&p.qpa, &p.qa, &p.qpb, &p.qb).unwrap().distance;
        worst = worst.max((ours - theirs).abs());
    }
    assert!(worst <= 1e-5, "ours and parry's cylinder distances differ by {worst}");
    println!("cylinders workload: ours and parry's distances agree to {worst:.1e}");
}

#[divan::bench(sample_count = 20)]
fn workload_cylinders_distance(bencher: Bencher) {
    let pairs = distance_workload();
    let settings = QuerySettings::default();
    bencher.counter(divan::counter::ItemsCount::new(pairs.len())).bench_local(|| {
        for p in &pairs {
            divan::black_box(distance(&p.a, &p.pa, &p.b, &p.pb, divan::black_box(&settings)).ok());
        }
    });
}

#[divan::bench(sample_count = 20)]
fn workload_cylinders_distance_parry(bencher: Bencher) {
    let pairs = distance_workload();
    bencher.counter(divan::counter::ItemsCount::new(pairs.len())).bench_local(|| {
        for p in &pairs {
            divan::black_box(
                parry3d_f64::query::distance(&p.qpa, &p.qa, &p.qpb, divan::black_box(&p.qb)).ok(),
            );
        }
    });
}

/// One iteration = one pass over all pairs (divan reports the pass time; ns/query = pass / n,
/// and the items/s counter).
fn run(bencher: Bencher, pairs: Vec<(CylinderGeom, CylinderGeom)>) {
    if pairs.is_empty() {
        return;
    }
    let settings = CylinderSatSettings::default();
    bencher.counter(divan::counter::ItemsCount::new(pairs.len())).bench_local(|| {
        let mut separated = 0usize;
        for (a, b) in &pairs {
            let r = intersects_cylinder_cylinder_raw(divan::black_box(a), divan::black_box(b), &settings)
                .unwrap();
            separated += r.is_separated() as usize;
        }
        divan::black_box(separated)
    });
}

/// One pair per iteration (the distribution of single-query times; the median is the
/// typical, separated-by-an-axis query).
fn run_single(bencher: Bencher, pairs: Vec<(CylinderGeom, CylinderGeom)>) {
    if pairs.is_empty() {
        return;
    }
    let settings = CylinderSatSettings::default();
    let i = Cell::new(0usize);
    bencher.bench_local(|| {
        let k = i.get();
        i.set((k + 1) % pairs.len());
        let (a, b) = &pairs[k];
        divan::black_box(
            intersects_cylinder_cylinder_raw(divan::black_box(a), divan::black_box(b), &settings).unwrap(),
        )
    });
}

#[divan::bench(sample_count = 20)]
fn random_pairs_mixed(bencher: Bencher) {
    run(bencher, random_pairs(3.0, 1024, 7));
}

#[divan::bench(sample_count = 20)]
fn intersecting_pairs(bencher: Bencher) {
    run(bencher, random_pairs(0.5, 1024, 8));
}

#[divan::bench(sample_count = 20)]
fn workload_cylinders(bencher: Bencher) {
    run(bencher, workload());
}

#[divan::bench(sample_count = 2000)]
fn workload_cylinders_single(bencher: Bencher) {
    run_single(bencher, workload());
}
