//! Every GJK-relevant workload of the geometry harness (`../shared/bench/geometry/workloads`:
//! `polytope_N`, `ellipsoid_hull_N`, `boxes`, `capsules`, `cylinders`, and `mixed` split by
//! pair type, `mixed:box-cylinder` …, for the pair types parry has), cold distance queries
//! through `proxima_geom::distance` and through parry3d-f64's `query::distance`, in one run
//! on the same shapes and poses.
//!
//! ```text
//! cargo bench -p proxima-geom --bench gjk
//! PROXIMA_WORKLOADS=/path/to/workloads cargo bench -p proxima-geom --bench gjk
//! ```
//!
//! Three benchmarks per workload: `ours` (default settings: a signed answer, so overlapping
//! pairs also run EPA for their penetration depth), `ours_unsigned`
//! (`QuerySettings::penetration_depth = false`: overlapping pairs stop at GJK's contact proof,
//! no EPA) and `parry`. parry's `query::distance` returns 0 for overlapping shapes without a
//! depth, so `ours_unsigned` is the apples-to-apples comparison with it; `ours` shows what the
//! depth costs on top.
//!
//! One benchmark iteration is one pass over the workload's 2000 queries; divan's item
//! throughput gives the time per query. With `GJK_COUNT=1` in the environment, `main` also
//! prints our mean GJK iteration count per workload (GJK-routed queries; Newton polish steps
//! included) and the share of queries that reached contact. Workloads that are not found are skipped (the bench
//! still compiles and runs). Before timing, `main` prints the largest |ours − parry| per
//! workload. Convex shapes use the file's faces (hill-climbing support) on our side and
//! `ConvexPolyhedron::from_convex_hull` on parry's; parry's cylinder axis is y, so its poses
//! get a fixed local rotation y → z.

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::OnceLock;

use divan::Bencher;
use divan::counter::ItemsCount;
use nalgebra::{Matrix3, Rotation3, UnitQuaternion, Vector3};
use parry3d_f64::math::{Pose as PPose, Rotation as PRotation, Vector as PVector};
use parry3d_f64::shape::{
    Ball, Capsule as PCapsule, ConvexPolyhedron, Cuboid as PCuboid, Cylinder as PCylinder,
    Triangle as PTriangle,
};
use proxima_geom::shape::{Capsule, ConvexPolytope, Cuboid, Cylinder, Sphere, Triangle};
use proxima_geom::{GjkStatus, Pose, QueryPath, QuerySettings, Shape, distance};
use serde_json::Value;

const WORKLOADS: &[&str] = &[
    "polytope_8",
    "polytope_16",
    "polytope_32",
    "polytope_64",
    "polytope_128",
    "polytope_256",
    "polytope_512",
    "polytope_1024",
    "ellipsoid_hull_8",
    "ellipsoid_hull_16",
    "ellipsoid_hull_32",
    "ellipsoid_hull_64",
    "ellipsoid_hull_128",
    "ellipsoid_hull_256",
    "ellipsoid_hull_512",
    "ellipsoid_hull_1024",
    "boxes",
    "capsules",
    "cylinders",
    "mixed:box-box",
    "mixed:box-capsule",
    "mixed:box-convex",
    "mixed:box-cylinder",
    "mixed:box-sphere",
    "mixed:box-triangle",
    "mixed:capsule-capsule",
    "mixed:capsule-convex",
    "mixed:capsule-cylinder",
    "mixed:capsule-sphere",
    "mixed:capsule-triangle",
    "mixed:convex-convex",
    "mixed:convex-cylinder",
    "mixed:convex-sphere",
    "mixed:convex-triangle",
    "mixed:cylinder-cylinder",
    "mixed:cylinder-sphere",
    "mixed:cylinder-triangle",
    "mixed:sphere-sphere",
    "mixed:sphere-triangle",
    "mixed:triangle-triangle",
];

struct Query {
    a: usize,
    b: usize,
    pa: Pose,
    pb: Pose,
    qa: PPose,
    qb: PPose,
}

struct Loaded {
    ours: Vec<Shape>,
    parry: Vec<Box<dyn parry3d_f64::shape::Shape>>,
    /// Whether parry's shape needs the y → z local rotation (cylinders).
    y_axis: Vec<bool>,
    queries: Vec<Query>,
}

fn dir() -> PathBuf {
    std::env::var_os("PROXIMA_WORKLOADS").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench/geometry/workloads")
    })
}

fn f(v: &Value) -> f64 {
    v.as_f64().expect("number")
}
fn v3(v: &Value) -> [f64; 3] {
    [f(&v[0]), f(&v[1]), f(&v[2])]
}

fn parry_pose(p: &Pose, y_to_z: bool) -> PPose {
    let mut r: Matrix3<f64> = *p.rotation();
    if y_to_z {
        r *= Rotation3::from_axis_angle(&Vector3::x_axis(), std::f64::consts::FRAC_PI_2).matrix();
    }
    let q = UnitQuaternion::from_matrix(&r);
    let t = p.translation();
    PPose::from_parts(PVector::new(t.x, t.y, t.z), PRotation::from_xyzw(q.i, q.j, q.k, q.w))
}

/// A workload by name: `NAME` is `NAME.json`; `mixed:T1-T2` is the queries of `mixed.json`
/// between a shape of type T1 and one of type T2 (types sorted, as `scripts/geometry-vs-coal.py
/// --split-mixed` names them), for the types parry has (ellipsoids are left out).
fn load(name: &str) -> Option<Loaded> {
    let (file, pair) = match name.strip_prefix("mixed:") {
        Some(pair) => ("mixed", Some(pair)),
        None => (name, None),
    };
    let text = std::fs::read_to_string(dir().join(format!("{file}.json"))).ok()?;
    let w: Value = serde_json::from_str(&text).ok()?;
    let mut ids = std::collections::HashMap::new();
    let mut types = std::collections::HashMap::new();
    let (mut ours, mut parry, mut y_axis) = (Vec::new(), Vec::new(), Vec::new());
    for s in w["shapes"].as_array()? {
        types.insert(s["id"].as_str()?.to_string(), s["type"].as_str()?.to_string());
        let (o, p, y): (Shape, Box<dyn parry3d_f64::shape::Shape>, bool) = match s["type"].as_str()? {
            "box" => {
                let h = v3(&s["half_extents"]);
                (
                    Shape::Cuboid(Cuboid::new(h).ok()?),
                    Box::new(PCuboid::new(PVector::new(h[0], h[1], h[2]))),
                    false,
                )
            }
            "sphere" => {
                let r = f(&s["radius"]);
                (Shape::Sphere(Sphere::new(r).ok()?), Box::new(Ball::new(r)), false)
            }
            "capsule" => {
                let (r, h) = (f(&s["radius"]), f(&s["half_height"]));
                (Shape::Capsule(Capsule::new(r, h).ok()?), Box::new(PCapsule::new_z(h, r)), false)
            }
            "cylinder" => {
                let (r, h) = (f(&s["radius"]), f(&s["half_height"]));
                (Shape::Cylinder(Cylinder::new(r, h).ok()?), Box::new(PCylinder::new(h, r)), true)
            }
            "convex" => {
                let v: Vec<[f64; 3]> = s["vertices"].as_array()?.iter().map(v3).collect();
                let faces: Vec<[usize; 3]> = s["faces"]
                    .as_array()?
                    .iter()
                    .map(|t| [0, 1, 2].map(|k| t[k].as_u64().unwrap() as usize))
                    .collect();
                let pts: Vec<PVector> = v.iter().map(|p| PVector::new(p[0], p[1], p[2])).collect();
                (
                    Shape::ConvexPolytope(ConvexPolytope::with_faces(v, &faces).ok()?),
                    Box::new(ConvexPolyhedron::from_convex_hull(&pts)?),
                    false,
                )
            }
            "triangle" => {
                let v = s["vertices"].as_array()?;
                let [a, b, c] = [v3(&v[0]), v3(&v[1]), v3(&v[2])];
                let p = |x: [f64; 3]| PVector::new(x[0], x[1], x[2]);
                (
                    Shape::Triangle(Triangle::new(a, b, c).ok()?),
                    Box::new(PTriangle::new(p(a), p(b), p(c))),
                    false,
                )
            }
            _ if pair.is_some() => continue,
            _ => return None,
        };
        ids.insert(s["id"].as_str()?.to_string(), ours.len());
        ours.push(o);
        parry.push(p);
        y_axis.push(y);
    }
    let pose = |p: &Value| -> Option<Pose> {
        let r = p["rotation"].as_array()?;
        Pose::new([v3(&r[0]), v3(&r[1]), v3(&r[2])], v3(&p["translation"])).ok()
    };
    let mut queries = Vec::new();
    for q in w["queries"].as_array()? {
        if let Some(pair) = pair {
            let mut t = [&types[q["a"].as_str()?], &types[q["b"].as_str()?]];
            t.sort();
            if format!("{}-{}", t[0], t[1]) != pair {
                continue;
            }
        }
        let (a, b) = (*ids.get(q["a"].as_str()?)?, *ids.get(q["b"].as_str()?)?);
        let (pa, pb) = (pose(&q["pose_a"])?, pose(&q["pose_b"])?);
        let (qa, qb) = (parry_pose(&pa, y_axis[a]), parry_pose(&pb, y_axis[b]));
        queries.push(Query { a, b, pa, pb, qa, qb });
    }
    Some(Loaded { ours, parry, y_axis, queries })
}

fn workload(name: &str) -> Option<&'static Loaded> {
    static ALL: OnceLock<Vec<(String, Option<Loaded>)>> = OnceLock::new();
    let all = ALL.get_or_init(|| WORKLOADS.iter().map(|n| (n.to_string(), load(n))).collect());
    all.iter().find(|(n, _)| n == name).and_then(|(_, l)| l.as_ref())
}

fn main() {
    for name in WORKLOADS {
        match workload(name) {
            None => eprintln!("{name}: workload not found under {} (skipped)", dir().display()),
            Some(w) => {
                let s = QuerySettings::default();
                let mut worst = 0.0f64;
                let mut errors = 0;
                for q in &w.queries {
                    // An error (an answer the library could not certify) is counted, not compared.
                    let Ok(ours) = distance(&w.ours[q.a], &q.pa, &w.ours[q.b], &q.pb, &s) else {
                        errors += 1;
                        continue;
                    };
                    let ours = ours.distance();
                    let theirs =
                        parry3d_f64::query::distance(&q.qa, &*w.parry[q.a], &q.qb, &*w.parry[q.b]).unwrap();
                    worst = worst.max((ours - theirs.distance).abs());
                }
                let cyl = w.y_axis.iter().any(|&y| y);
                eprintln!(
                    "{name}: {} queries, max |ours - parry| = {worst:.2e}{}, {errors} errors",
                    w.queries.len(),
                    if cyl { " (cylinders)" } else { "" }
                );
                if std::env::var_os("GJK_COUNT").is_some() {
                    print_gjk_counts(name, w, &s);
                }
            }
        }
    }
    divan::main();
}

/// Mean GJK iterations over the GJK-routed queries of a workload, and how many ended in
/// contact (those also run EPA).
fn print_gjk_counts(name: &str, w: &Loaded, s: &QuerySettings) {
    let (mut n, mut total, mut contact) = (0u32, 0u64, 0u32);
    for q in &w.queries {
        let r = distance(&w.ours[q.a], &q.pa, &w.ours[q.b], &q.pb, s).unwrap();
        if let QueryPath::Gjk { status, iterations } = r.path {
            n += 1;
            total += u64::from(iterations);
            contact += u32::from(status == GjkStatus::Contact);
        }
    }
    if n > 0 {
        eprintln!(
            "{name}: GJK on {n} queries, mean iterations {:.2}, contact {contact}",
            total as f64 / f64::from(n)
        );
    }
}

#[divan::bench(args = WORKLOADS)]
fn ours(bencher: Bencher, name: &str) {
    let Some(w) = workload(name) else { return };
    let s = QuerySettings::default();
    bencher.counter(ItemsCount::new(w.queries.len())).bench(|| {
        for q in &w.queries {
            black_box(distance(&w.ours[q.a], &q.pa, &w.ours[q.b], &q.pb, black_box(&s)).ok());
        }
    });
}

#[divan::bench(args = WORKLOADS)]
fn ours_unsigned(bencher: Bencher, name: &str) {
    let Some(w) = workload(name) else { return };
    let s = QuerySettings::default().with_penetration_depth(false);
    bencher.counter(ItemsCount::new(w.queries.len())).bench(|| {
        for q in &w.queries {
            black_box(distance(&w.ours[q.a], &q.pa, &w.ours[q.b], &q.pb, black_box(&s)).ok());
        }
    });
}

#[divan::bench(args = WORKLOADS)]
fn parry(bencher: Bencher, name: &str) {
    let Some(w) = workload(name) else { return };
    bencher.counter(ItemsCount::new(w.queries.len())).bench(|| {
        for q in &w.queries {
            black_box(parry3d_f64::query::distance(&q.qa, &*w.parry[q.a], &q.qb, &*w.parry[q.b]).ok());
        }
    });
}
