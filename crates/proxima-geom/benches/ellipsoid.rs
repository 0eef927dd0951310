//! Ellipsoid distance benches: ours (dual Newton) vs alternating projection at each separation
//! of the crossed test, and ours on the harness's `ellipsoids` workload (per-query time, to
//! compare with coal's native runner on the same file).

use divan::{Bencher, black_box};
use nalgebra::Vector3;
use proxima_geom::Pose;
use proxima_geom::ellipsoid::{
    AlternatingSettings, EllipsoidMethod, EllipsoidSettings, distance_ellipsoid_ellipsoid,
};
use proxima_geom::shape::Ellipsoid;

fn main() {
    divan::main();
}

const X1: [f64; 3] = [0.1370577777964644, 1.430516416099962, 3.42644444491161];
const X2: [f64; 3] = [0.5735555550883902, 2.569483583900038, 3.862942222203536];
const D_STAR: f64 = 1.295494819938741;

fn pair(s: f64) -> (Ellipsoid, Pose, Ellipsoid, Pose) {
    let u = (Vector3::from(X2) - Vector3::from(X1)).normalize();
    let p = Vector3::new(4.0, 4.0, 4.0) - u * (D_STAR - s);
    (
        Ellipsoid::new([1.0, 2.0, 5.0]).unwrap(),
        Pose::identity(),
        Ellipsoid::new([5.0, 2.0, 1.0]).unwrap(),
        Pose::from_translation([p.x, p.y, p.z]).unwrap(),
    )
}

#[divan::bench(args = [5.0, 1.295494819938741, 0.5, 0.1, 0.01, 0.001])]
fn ours(bencher: Bencher, s: f64) {
    let (a, pa, b, pb) = pair(s);
    let settings = EllipsoidSettings::default();
    bencher.bench(|| distance_ellipsoid_ellipsoid(black_box(&a), &pa, &b, &pb, &settings));
}

#[divan::bench(args = [5.0, 1.295494819938741, 0.5, 0.1, 0.01, 0.001])]
fn alternating_projection(bencher: Bencher, s: f64) {
    let (a, pa, b, pb) = pair(s);
    // To the same 1e-12 certificate gap, stopping at a fixed point (step 1e-15).
    let settings = EllipsoidSettings {
        method: EllipsoidMethod::AlternatingProjection(AlternatingSettings::default()),
        ..Default::default()
    };
    bencher.bench(|| distance_ellipsoid_ellipsoid(black_box(&a), &pa, &b, &pb, &settings));
}

/// The `ellipsoids` workload's pairs (radii and row-major poses), parsed once.
fn workload() -> Vec<(Ellipsoid, Pose, Ellipsoid, Pose)> {
    let path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/bench/geometry/workloads/ellipsoids.json");
    let Ok(text) = std::fs::read_to_string(path) else { return Vec::new() };
    let w: serde_json::Value = serde_json::from_str(&text).unwrap();
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    let shape = |id: &str| {
        let s = w["shapes"].as_array().unwrap().iter().find(|s| s["id"] == id).unwrap();
        let r = s["radii"].as_array().unwrap();
        Ellipsoid::new([f(&r[0]), f(&r[1]), f(&r[2])]).unwrap()
    };
    let pose = |p: &serde_json::Value| {
        let t = p["translation"].as_array().unwrap();
        let r = p["rotation"].as_array().unwrap();
        let row = |i: usize| {
            let v = r[i].as_array().unwrap();
            [f(&v[0]), f(&v[1]), f(&v[2])]
        };
        Pose::new([row(0), row(1), row(2)], [f(&t[0]), f(&t[1]), f(&t[2])]).unwrap()
    };
    w["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                shape(q["a"].as_str().unwrap()),
                pose(&q["pose_a"]),
                shape(q["b"].as_str().unwrap()),
                pose(&q["pose_b"]),
            )
        })
        .collect()
}

/// All workload queries per iteration: divide the time by the pair count (2000) for ns/query.
#[divan::bench(sample_count = 20)]
fn ours_workload_all_queries(bencher: Bencher) {
    let pairs = workload();
    let settings = EllipsoidSettings::default();
    bencher.bench(|| {
        for (a, pa, b, pb) in &pairs {
            black_box(distance_ellipsoid_ellipsoid(a, pa, b, pb, &settings).ok());
        }
    });
}
