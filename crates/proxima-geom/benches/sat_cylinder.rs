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

use std::cell::Cell;

use divan::Bencher;
use proxima_geom::sat_cylinder::{CylinderGeom, CylinderSatSettings, intersects_cylinder_cylinder_raw};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn main() {
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

fn workload() -> Vec<(CylinderGeom, CylinderGeom)> {
    let path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/bench/geometry/workloads/cylinders.json");
    let Ok(text) = std::fs::read_to_string(path) else { return Vec::new() };
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let shapes: std::collections::HashMap<String, (f64, f64)> = v["shapes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_string(),
                (s["radius"].as_f64().unwrap(), s["half_height"].as_f64().unwrap()),
            )
        })
        .collect();
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
