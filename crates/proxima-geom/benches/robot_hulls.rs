//! Robot-scale hulls: the exact convex hulls of the Franka Panda collision meshes (18–260
//! vertices, `testdata/robots/panda`, vendored with their license) along the vendored
//! trajectories (12 tracks × 40 steps of smooth relative motion, gaps −0.01…0.15 m), through
//! every way the library measures them, beside parry3d-f64 in the same process:
//!
//! * `cold_query`: [`distance`] per step (certified, the route `Auto` picks);
//! * `cold_scanned`: [`gjk_distance_scanned`] per step (GJK with vectorized vertex scans, the
//!   robot crate's cold path for hulls of a few hundred vertices);
//! * `cold_climbing`: [`gjk_distance`] through the polytope's own support map (hill climbing
//!   over the hull adjacency where it has one);
//! * `warm_query`: [`distance_tracked`] with one [`GjkCache`] per track, reset at its start;
//! * `parry_cold`: parry's `query::distance` on `ConvexPolyhedron::from_convex_hull` of the
//!   same vertices (parry has no warm start for distance queries).
//!
//! ```text
//! cargo bench -p proxima-geom --bench robot_hulls
//! ```
//!
//! One iteration is one pass over the 480 steps; divan's item counter gives the time per step.
//! The coal side (native runner, cold and warm) is measured by the geometry harness on the same
//! kind of tracks (`scripts/robot-hull-tracks.py --bench`, `scripts/geometry-vs-coal.py`).

use std::hint::black_box;
use std::sync::OnceLock;

use divan::Bencher;
use divan::counter::ItemsCount;
use nalgebra::UnitQuaternion;
use parry3d_f64::math::{Pose as PPose, Rotation as PRotation, Vector as PVector};
use parry3d_f64::shape::ConvexPolyhedron;
use proxima_geom::gjk::{GjkSettings, gjk_distance, gjk_distance_scanned};
use proxima_geom::shape::ConvexPolytope;
use proxima_geom::{GjkCache, Pose, QuerySettings, Shape, distance, distance_tracked};
use serde_json::Value;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda");

struct Step {
    a: usize,
    b: usize,
    pa: Pose,
    pb: Pose,
    qa: PPose,
    qb: PPose,
}

struct Data {
    polytopes: Vec<ConvexPolytope>,
    shapes: Vec<Shape>,
    parry: Vec<ConvexPolyhedron>,
    /// The tracks, each a list of steps.
    tracks: Vec<Vec<Step>>,
}

fn data() -> &'static Data {
    static D: OnceLock<Data> = OnceLock::new();
    D.get_or_init(load)
}

fn load() -> Data {
    let text = std::fs::read_to_string(format!("{DATA}/meshes.json")).expect("meshes.json");
    let v: Value = serde_json::from_str(&text).expect("meshes.json is JSON");
    let mut names = Vec::new();
    let (mut polytopes, mut shapes, mut parry) = (Vec::new(), Vec::new(), Vec::new());
    for (name, pts) in v["links"].as_object().expect("links") {
        let points: Vec<[f64; 3]> = pts
            .as_array()
            .expect("points")
            .iter()
            .map(|p| [0, 1, 2].map(|k| p[k].as_f64().expect("number")))
            .collect();
        let p = ConvexPolytope::hull_of(&points).expect("hull");
        let verts: Vec<PVector> = p.vertices().iter().map(|q| PVector::new(q.x, q.y, q.z)).collect();
        parry.push(ConvexPolyhedron::from_convex_hull(&verts).expect("parry hull"));
        shapes.push(Shape::ConvexPolytope(p.clone()));
        polytopes.push(p);
        names.push(name.clone());
    }
    let index = |n: &Value| names.iter().position(|x| x == n.as_str().expect("name")).expect("known link");
    let text = std::fs::read_to_string(format!("{DATA}/tracks.json")).expect("tracks.json");
    let w: Value = serde_json::from_str(&text).expect("tracks.json is JSON");
    let pose = |p: &Value| {
        let v3 = |v: &Value| [0, 1, 2].map(|k| v[k].as_f64().expect("number"));
        let r = p["rotation"].as_array().expect("rotation");
        Pose::new([v3(&r[0]), v3(&r[1]), v3(&r[2])], v3(&p["translation"])).expect("pose")
    };
    let parry_pose = |p: &Pose| {
        let q = UnitQuaternion::from_matrix(p.rotation());
        let t = p.translation();
        PPose::from_parts(PVector::new(t.x, t.y, t.z), PRotation::from_xyzw(q.i, q.j, q.k, q.w))
    };
    let tracks = w["tracks"]
        .as_array()
        .expect("tracks")
        .iter()
        .map(|t| {
            let (a, b) = (index(&t["a"]), index(&t["b"]));
            let pas = t["poses_a"].as_array().expect("poses_a");
            let pbs = t["poses_b"].as_array().expect("poses_b");
            pas.iter()
                .zip(pbs)
                .map(|(x, y)| {
                    let (pa, pb) = (pose(x), pose(y));
                    Step { a, b, qa: parry_pose(&pa), qb: parry_pose(&pb), pa, pb }
                })
                .collect()
        })
        .collect();
    Data { polytopes, shapes, parry, tracks }
}

fn steps() -> usize {
    data().tracks.iter().map(Vec::len).sum()
}

fn main() {
    // The largest difference between our certified distance and parry's over all steps (parry
    // reports 0 for overlapping hulls; so does the unsigned distance compared here).
    let d = data();
    let settings = QuerySettings::default().with_penetration_depth(false);
    let mut worst = 0.0f64;
    for s in d.tracks.iter().flatten() {
        let ours =
            distance(&d.shapes[s.a], &s.pa, &d.shapes[s.b], &s.pb, &settings).expect("distance").distance();
        let theirs = parry3d_f64::query::distance(&s.qa, &d.parry[s.a], &s.qb, &d.parry[s.b]).expect("parry");
        worst = worst.max((ours - theirs.distance).abs());
    }
    println!("robot hulls: {} steps, max |ours - parry| = {worst:.2e}", steps());
    divan::main();
}

#[divan::bench]
fn cold_query(bencher: Bencher) {
    let d = data();
    let settings = QuerySettings::default();
    bencher.counter(ItemsCount::new(steps())).bench(|| {
        for s in d.tracks.iter().flatten() {
            black_box(distance(&d.shapes[s.a], &s.pa, &d.shapes[s.b], &s.pb, black_box(&settings)).ok());
        }
    });
}

#[divan::bench]
fn cold_scanned(bencher: Bencher) {
    let d = data();
    let settings = GjkSettings::default();
    bencher.counter(ItemsCount::new(steps())).bench(|| {
        for s in d.tracks.iter().flatten() {
            let (a, b) = (&d.polytopes[s.a], &d.polytopes[s.b]);
            black_box(gjk_distance_scanned(a, &s.pa, b, &s.pb, black_box(&settings)).ok());
        }
    });
}

#[divan::bench]
fn cold_climbing(bencher: Bencher) {
    let d = data();
    let settings = GjkSettings::default();
    bencher.counter(ItemsCount::new(steps())).bench(|| {
        for s in d.tracks.iter().flatten() {
            let (a, b) = (&d.shapes[s.a], &d.shapes[s.b]);
            black_box(gjk_distance(a, &s.pa, b, &s.pb, black_box(&settings), None).ok());
        }
    });
}

#[divan::bench]
fn warm_query(bencher: Bencher) {
    let d = data();
    let settings = QuerySettings::default();
    let mut caches = vec![GjkCache::new(); d.tracks.len()];
    bencher.counter(ItemsCount::new(steps())).bench_local(|| {
        for (t, cache) in d.tracks.iter().zip(caches.iter_mut()) {
            cache.reset();
            for s in t {
                let (a, b) = (&d.shapes[s.a], &d.shapes[s.b]);
                black_box(distance_tracked(a, &s.pa, b, &s.pb, black_box(&settings), cache).ok());
            }
        }
    });
}

#[divan::bench]
fn parry_cold(bencher: Bencher) {
    let d = data();
    bencher.counter(ItemsCount::new(steps())).bench(|| {
        for s in d.tracks.iter().flatten() {
            black_box(parry3d_f64::query::distance(&s.qa, &d.parry[s.a], &s.qb, &d.parry[s.b]).ok());
        }
    });
}
