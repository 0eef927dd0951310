//! DQP3 benchmarks (divan): cold query vs warm tracking step vs facet count (facet-balls on
//! the spec §7.2 protocol), and the harness workloads `polytope_N` (cold) and
//! `track_polytope_64/512` (warm tracking, per step), hulls converted to facets once; and the
//! certified warm step on robot-link hulls (`robot_hull_warm`: [`Dqp3ShapeTracker`] on
//! [`FacetShape`]s, the library path `proxima bench-geometry --variants dqp3` times in its
//! `track_warm` section).
//!
//! `cargo bench -p proxima-geom --bench dqp3`
//!
//! `robot_hull_warm` runs on the vendored Panda tracks (`testdata/robots/panda`, always there)
//! and on the harness workload `scripts/dqp3-vs-coal.sh` writes (Panda and iiwa hulls,
//! `target/dqp3-vs-coal/track_robot_hulls.json`, or the file named by `DQP3_ROBOT_WORKLOAD`),
//! skipped when that file is absent. For stable A/B numbers on a shared machine count
//! instructions instead of timing:
//! `valgrind --tool=callgrind target/release/deps/dqp3-* robot_hull_warm --sample-count 1 --sample-size 1`.
//!
//! Compare with coal on the same workloads:
//! `../shared/bench/geometry/native/build/bench_coal --workload ../shared/bench/geometry/workloads/track_polytope_64.json`.

use divan::Bencher;
use divan::counter::ItemsCount;
use nalgebra::{Matrix3, Rotation3, Unit, Vector3};
use proxima_geom::dqp3::{Dqp3Settings, Dqp3Tracker, FacetPolyhedron, distance_dqp3, genball};
use proxima_geom::shape::ConvexPolytope;
use proxima_geom::{Dqp3ShapeTracker, FacetShape, Pose, QuerySettings, Shape};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn main() {
    divan::main();
}

const ORDERS: [usize; 6] = [2, 4, 6, 10, 20, 40];

fn rot(rng: &mut SmallRng, max: f64) -> Matrix3<f64> {
    let axis =
        Vector3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
    *Rotation3::from_axis_angle(
        &Unit::new_normalize(axis + Vector3::new(0.0, 0.0, 1e-3)),
        rng.random_range(0.0..max),
    )
    .matrix()
}

/// Spec §7.2: object 2 at (5,5,5) + noise, 0.02 translation and 1° rotations per step.
fn protocol_tracks(seed: u64, tracks: usize) -> Vec<Vec<(Pose, Pose)>> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..tracks)
        .map(|_| {
            let (mut ra, mut rb) =
                (rot(&mut rng, std::f64::consts::TAU), rot(&mut rng, std::f64::consts::TAU));
            let (wa, wb) = (rot(&mut rng, 1f64.to_radians()), rot(&mut rng, 1f64.to_radians()));
            let mut t = Vector3::new(5.0, 5.0, 5.0)
                + Vector3::new(
                    rng.random_range(-0.5..0.5),
                    rng.random_range(-0.5..0.5),
                    rng.random_range(-0.5..0.5),
                );
            let dir = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            )
            .normalize()
                * 0.02;
            (0..100)
                .map(|_| {
                    let p =
                        (Pose::from_matrix(ra, Vector3::zeros()).unwrap(), Pose::from_matrix(rb, t).unwrap());
                    ra = wa * ra;
                    rb = wb * rb;
                    t += dir;
                    p
                })
                .collect()
        })
        .collect()
}

#[divan::bench(args = ORDERS)]
fn cold_genball(bencher: Bencher, order: usize) {
    let ball = genball(order).unwrap();
    let poses: Vec<(Pose, Pose)> = protocol_tracks(1, 64).into_iter().map(|t| t[0]).collect();
    let s = Dqp3Settings::default();
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % poses.len();
        distance_dqp3(&ball, &poses[i].0, &ball, &poses[i].1, &s).unwrap()
    });
}

fn track_bench(bencher: Bencher, order: usize, adjacency: bool) {
    let ball = genball(order).unwrap();
    let tracks = protocol_tracks(2, 8);
    let settings = Dqp3Settings { use_adjacency: adjacency, ..Default::default() };
    let steps: usize = tracks.iter().map(|t| t.len() - 1).sum();
    bencher.counter(ItemsCount::new(steps)).bench_local(|| {
        let mut acc = 0.0;
        for t in &tracks {
            let mut tr = Dqp3Tracker::with_settings(&ball, &ball, settings.clone()).unwrap();
            tr.step(&t[0].0, &t[0].1); // the cold first step is part of the setup cost
            for (pa, pb) in &t[1..] {
                acc += tr.step(pa, pb).upper;
            }
        }
        acc
    });
}

/// Warm tracking (x + active sets, built-in transforms, adjacency): whole tracks, items =
/// warm steps (the cold first step of each track is included in the time).
#[divan::bench(args = ORDERS)]
fn track_genball_adjacency(bencher: Bencher, order: usize) {
    track_bench(bencher, order, true);
}

/// As above without adjacency (full O(N) ratio tests).
#[divan::bench(args = ORDERS)]
fn track_genball_full_scan(bencher: Bencher, order: usize) {
    track_bench(bencher, order, false);
}

type Track = (String, String, Vec<(Pose, Pose)>);

struct Workload {
    shapes: std::collections::HashMap<String, FacetPolyhedron>,
    queries: Vec<(String, Pose, String, Pose)>,
    tracks: Vec<Track>,
}

fn pose(v: &serde_json::Value) -> Pose {
    let r: Vec<[f64; 3]> = v["rotation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let r = row.as_array().unwrap();
            [r[0].as_f64().unwrap(), r[1].as_f64().unwrap(), r[2].as_f64().unwrap()]
        })
        .collect();
    let t = v["translation"].as_array().unwrap();
    Pose::new([r[0], r[1], r[2]], [t[0].as_f64().unwrap(), t[1].as_f64().unwrap(), t[2].as_f64().unwrap()])
        .unwrap()
}

fn load(name: &str) -> Option<Workload> {
    let path = format!("{}/../../../shared/bench/geometry/workloads/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).ok()?;
    let w: serde_json::Value = serde_json::from_str(&text).ok()?;
    let mut shapes = std::collections::HashMap::new();
    for s in w["shapes"].as_array()? {
        let verts: Vec<[f64; 3]> = s["vertices"]
            .as_array()?
            .iter()
            .map(|v| {
                let v = v.as_array().unwrap();
                [v[0].as_f64().unwrap(), v[1].as_f64().unwrap(), v[2].as_f64().unwrap()]
            })
            .collect();
        shapes.insert(s["id"].as_str()?.to_string(), FacetPolyhedron::from_vertices(&verts).ok()?);
    }
    let queries = w["queries"]
        .as_array()?
        .iter()
        .map(|q| {
            (
                q["a"].as_str().unwrap().into(),
                pose(&q["pose_a"]),
                q["b"].as_str().unwrap().into(),
                pose(&q["pose_b"]),
            )
        })
        .collect();
    let tracks = w["tracks"]
        .as_array()?
        .iter()
        .map(|t| {
            let pa = t["poses_a"].as_array().unwrap();
            let pb = t["poses_b"].as_array().unwrap();
            (
                t["a"].as_str().unwrap().to_string(),
                t["b"].as_str().unwrap().to_string(),
                pa.iter().zip(pb).map(|(x, y)| (pose(x), pose(y))).collect(),
            )
        })
        .collect();
    Some(Workload { shapes, queries, tracks })
}

/// Harness `polytope_N`: all cold queries; items = queries.
#[divan::bench(args = ["polytope_64", "polytope_512"])]
fn harness_cold(bencher: Bencher, name: &str) {
    let Some(w) = load(name) else {
        eprintln!("workload {name} not found (../shared/bench/geometry/workloads): skipped");
        return;
    };
    let s = Dqp3Settings::default();
    bencher.counter(ItemsCount::new(w.queries.len())).bench_local(|| {
        let mut acc = 0.0;
        for (a, pa, b, pb) in &w.queries {
            acc += distance_dqp3(&w.shapes[a], pa, &w.shapes[b], pb, &s).unwrap().upper;
        }
        acc
    });
}

/// Harness `track_polytope_N`: all tracks warm-started; items = all steps (coal's
/// `track_warm` timing convention: per step, including each track's first step).
#[divan::bench(args = ["track_polytope_64", "track_polytope_512"])]
fn harness_track(bencher: Bencher, name: &str) {
    let Some(w) = load(name) else {
        eprintln!("workload {name} not found: skipped");
        return;
    };
    let steps: usize = w.tracks.iter().map(|t| t.2.len()).sum();
    bencher.counter(ItemsCount::new(steps)).bench_local(|| {
        let mut acc = 0.0;
        for (a, b, poses) in &w.tracks {
            let mut tr = Dqp3Tracker::new(&w.shapes[a], &w.shapes[b]);
            for (pa, pb) in poses {
                acc += tr.step(pa, pb).upper;
            }
        }
        acc
    });
}

/// One robot track: the indices of its two shapes and their poses per step.
type RobotTrack = (usize, usize, Vec<(Pose, Pose)>);

/// Robot-link hulls as [`FacetShape`]s and tracks between them.
struct RobotTracks {
    shapes: Vec<FacetShape>,
    tracks: Vec<RobotTrack>,
}

fn robot_tracks(shapes: Vec<(String, Shape)>, tracks: &serde_json::Value) -> Option<RobotTracks> {
    let index = |n: &serde_json::Value| shapes.iter().position(|(id, _)| Some(id.as_str()) == n.as_str());
    let tracks = tracks
        .as_array()?
        .iter()
        .map(|t| {
            let (pa, pb) = (t["poses_a"].as_array()?, t["poses_b"].as_array()?);
            Some((
                index(&t["a"])?,
                index(&t["b"])?,
                pa.iter().zip(pb).map(|(x, y)| (pose(x), pose(y))).collect(),
            ))
        })
        .collect::<Option<Vec<_>>>()?;
    let shapes = shapes.into_iter().map(|(_, s)| FacetShape::new(s).ok()).collect::<Option<Vec<_>>>()?;
    Some(RobotTracks { shapes, tracks })
}

/// The vendored Panda link hulls and tracks (12 × 40 steps).
fn vendored_panda() -> Option<RobotTracks> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda");
    let meshes: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/meshes.json")).ok()?).ok()?;
    let shapes = meshes["links"]
        .as_object()?
        .iter()
        .map(|(name, pts)| {
            let points: Vec<[f64; 3]> = pts
                .as_array()?
                .iter()
                .map(|p| Some([p[0].as_f64()?, p[1].as_f64()?, p[2].as_f64()?]))
                .collect::<Option<_>>()?;
            Some((name.clone(), Shape::ConvexPolytope(ConvexPolytope::hull_of(&points).ok()?)))
        })
        .collect::<Option<Vec<_>>>()?;
    let tracks: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/tracks.json")).ok()?).ok()?;
    robot_tracks(shapes, &tracks["tracks"])
}

/// The harness workload of `scripts/dqp3-vs-coal.sh` (shapes read as the CLI reads them).
fn harness_robot() -> Option<RobotTracks> {
    let path = std::env::var("DQP3_ROBOT_WORKLOAD").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/dqp3-vs-coal/track_robot_hulls.json").into()
    });
    let w: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    let shapes = w["shapes"]
        .as_array()?
        .iter()
        .map(|s| {
            // Every shape of this workload is `convex` with `faces` (read as the CLI does).
            let triples = |v: &serde_json::Value| -> Option<Vec<[f64; 3]>> {
                v.as_array()?.iter().map(|p| Some([p[0].as_f64()?, p[1].as_f64()?, p[2].as_f64()?])).collect()
            };
            let faces: Vec<[usize; 3]> =
                triples(&s["faces"])?.iter().map(|f| f.map(|i| i as usize)).collect();
            let polytope = ConvexPolytope::with_faces(triples(&s["vertices"])?, &faces).ok()?;
            Some((s["id"].as_str()?.to_string(), Shape::ConvexPolytope(polytope)))
        })
        .collect::<Option<Vec<_>>>()?;
    robot_tracks(shapes, &w["tracks"])
}

/// The certified warm DQP3 step on robot-link hulls: one [`Dqp3ShapeTracker`] per track, items =
/// all steps (each track's first step, a GJK seed, included: the harness's `track_warm`
/// convention).
#[divan::bench(args = ["vendored_panda", "harness"])]
fn robot_hull_warm(bencher: Bencher, name: &str) {
    let Some(w) = (if name == "harness" { harness_robot() } else { vendored_panda() }) else {
        eprintln!("robot workload {name} not found (run scripts/dqp3-vs-coal.sh): skipped");
        return;
    };
    let settings = QuerySettings::default();
    let steps: usize = w.tracks.iter().map(|t| t.2.len()).sum();
    bencher.counter(ItemsCount::new(steps)).bench_local(|| {
        let mut acc = 0.0;
        for (a, b, poses) in &w.tracks {
            let mut tr = Dqp3ShapeTracker::new(&w.shapes[*a], &w.shapes[*b], &settings).unwrap();
            for (pa, pb) in poses {
                acc += tr.step(pa, pb).map_or(0.0, |r| r.certificate.upper);
            }
        }
        acc
    });
}
