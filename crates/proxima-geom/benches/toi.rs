//! Time of impact per CCD family: ours (`proxima_geom::time_of_impact`, certified) against
//! parry3d-f64's `cast_shapes_nonlinear` (the same motion: constant linear and angular velocity
//! about the shape origin) on the same queries, in the same process.
//!
//! ```text
//! cargo bench -p proxima-geom --bench toi
//! ```
//!
//! Queries: the repository's slice of the public CCD benchmark (`testdata/ccd/public-slice.json`,
//! 24 per family, with the queries parry tunnels through); pairs with an ellipsoid are left out of
//! both sides (parry has no ellipsoid). Each benchmark runs one pass over a family's queries;
//! divan's item throughput is the time per query. Before the timings, `main` prints each
//! side's disagreements with the oracle (`public-slice.expected.json`, tolerance 1e-6).
//! `TOI_BENCH_WORKLOAD=../shared/bench/ccd/workloads/start_contact.json` runs a whole harness
//! workload instead (its oracle beside it).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::OnceLock;

use divan::Bencher;
use divan::counter::ItemsCount;
use parry3d_f64::math::{Matrix as PMatrix, Pose as PPose, Rotation as PRotation, Vector as PVector};
use parry3d_f64::query::{NonlinearRigidMotion, cast_shapes_nonlinear};
use parry3d_f64::shape::{
    Ball, Capsule as PCapsule, Cone as PCone, ConvexPolyhedron, Cuboid as PCuboid, Cylinder as PCylinder,
    SharedShape,
};
use proxima_geom::shape::{Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Sphere};
use proxima_geom::{Pose, RigidMotion, Shape, ToiSettings, time_of_impact};
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/ccd/");

const FAMILIES: [&str; 6] = ["linear_hit", "rotating", "grazing", "thin_fast", "start_contact", "mixed"];

/// One query in both libraries' terms.
struct Query {
    family: String,
    a: Shape,
    b: Shape,
    poses: [Pose; 4],
    /// Parry: shapes (z-axis shapes turned from parry's y axis), start poses, velocities.
    pa: SharedShape,
    pb: SharedShape,
    ma: NonlinearRigidMotion,
    mb: NonlinearRigidMotion,
    oracle: Option<(f64, f64)>,
}

fn v3(v: &Value) -> [f64; 3] {
    [0, 1, 2].map(|k| v[k].as_f64().expect("number"))
}

/// Ours and parry's shape, and the fixed rotation from parry's shape frame to ours.
fn shapes(s: &Value) -> Option<(Shape, SharedShape, PRotation)> {
    let f = |k: &str| s[k].as_f64().expect("number");
    let y_to_z = PRotation::from_rotation_x(std::f64::consts::FRAC_PI_2);
    Some(match s["type"].as_str()? {
        "sphere" => (
            Shape::Sphere(Sphere::new(f("radius")).ok()?),
            SharedShape::new(Ball::new(f("radius"))),
            PRotation::IDENTITY,
        ),
        "box" => {
            let h = v3(&s["half_extents"]);
            (
                Shape::Cuboid(Cuboid::new(h).ok()?),
                SharedShape::new(PCuboid::new(PVector::new(h[0], h[1], h[2]))),
                PRotation::IDENTITY,
            )
        }
        "capsule" => (
            Shape::Capsule(Capsule::new(f("radius"), f("half_height")).ok()?),
            SharedShape::new(PCapsule::new_z(f("half_height"), f("radius"))),
            PRotation::IDENTITY,
        ),
        "cylinder" => (
            Shape::Cylinder(Cylinder::new(f("radius"), f("half_height")).ok()?),
            SharedShape::new(PCylinder::new(f("half_height"), f("radius"))),
            y_to_z,
        ),
        "cone" => (
            Shape::Cone(Cone::new(f("radius"), f("half_height")).ok()?),
            SharedShape::new(PCone::new(f("half_height"), f("radius"))),
            y_to_z,
        ),
        "convex" => {
            let v: Vec<[f64; 3]> = s["vertices"].as_array()?.iter().map(v3).collect();
            let faces: Vec<[usize; 3]> =
                s["faces"].as_array()?.iter().map(|t| v3(t).map(|x| x as usize)).collect();
            let pts: Vec<PVector> = v.iter().map(|p| PVector::new(p[0], p[1], p[2])).collect();
            let idx: Vec<[u32; 3]> = faces.iter().map(|t| t.map(|x| x as u32)).collect();
            let poly = ConvexPolyhedron::from_convex_mesh(pts, &idx)?;
            (
                Shape::ConvexPolytope(ConvexPolytope::with_faces(v, &faces).ok()?),
                SharedShape::new(poly),
                PRotation::IDENTITY,
            )
        }
        _ => return None, // ellipsoid: no parry shape
    })
}

fn rows(p: &Value) -> [[f64; 3]; 3] {
    let r = &p["rotation"];
    [v3(&r[0]), v3(&r[1]), v3(&r[2])]
}

/// Parry's motion for the benchmark model: start pose, origin as centre, v = t₁ − t₀, ω the
/// rotation vector of R₁R₀ᵀ (shortest arc).
fn parry_motion(p0: &Value, p1: &Value, offset: PRotation) -> NonlinearRigidMotion {
    let quat = |p: &Value| {
        let m = rows(p);
        let cols = (0..3).map(|j| PVector::new(m[0][j], m[1][j], m[2][j])).collect::<Vec<_>>();
        PRotation::from_mat3(&PMatrix::from_cols(cols[0], cols[1], cols[2])).normalize()
    };
    let (q0, q1) = (quat(p0), quat(p1));
    let mut d = q1 * q0.conjugate();
    if d.w < 0.0 {
        d = -d;
    }
    let s = (d.x * d.x + d.y * d.y + d.z * d.z).sqrt();
    let angvel = if s > 0.0 { PVector::new(d.x, d.y, d.z) * (2.0 * s.atan2(d.w) / s) } else { PVector::ZERO };
    let t = |p: &Value| {
        let t = v3(&p["translation"]);
        PVector::new(t[0], t[1], t[2])
    };
    NonlinearRigidMotion::new(PPose::from_parts(t(p0), q0 * offset), PVector::ZERO, t(p1) - t(p0), angvel)
}

fn queries() -> &'static [Query] {
    static CELL: OnceLock<Vec<Query>> = OnceLock::new();
    CELL.get_or_init(|| {
        // `TOI_BENCH_WORKLOAD=path/<family>.json`: a whole harness workload (its oracle beside
        // it as `<family>.expected.json`) instead of the slice, every query of its family.
        let file = std::env::var("TOI_BENCH_WORKLOAD").unwrap_or_else(|_| format!("{DIR}public-slice.json"));
        let w: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let oracle_file = file.strip_suffix(".json").unwrap_or(&file).to_string() + ".expected.json";
        let expected: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(oracle_file).unwrap()).unwrap();
        let by_id: BTreeMap<&str, &Value> =
            w["shapes"].as_array().unwrap().iter().map(|s| (s["id"].as_str().unwrap(), s)).collect();
        let mut out = Vec::new();
        for (q, e) in w["queries"].as_array().unwrap().iter().zip(&expected) {
            let (Some((a, pa, oa)), Some((b, pb, ob))) =
                (shapes(by_id[q["a"].as_str().unwrap()]), shapes(by_id[q["b"].as_str().unwrap()]))
            else {
                continue;
            };
            let pose = |k: &str| Pose::new(rows(&q[k]), v3(&q[k]["translation"])).unwrap();
            let oracle = e["toi"].as_f64().map(|lo| (lo, e["toi_hi"].as_f64().unwrap_or(lo)));
            out.push(Query {
                family: e["source"]
                    .as_str()
                    .or_else(|| w["name"].as_str())
                    .unwrap()
                    .split('#')
                    .next()
                    .unwrap()
                    .to_string(),
                a,
                b,
                poses: [pose("a0"), pose("a1"), pose("b0"), pose("b1")],
                ma: parry_motion(&q["a0"], &q["a1"], oa),
                mb: parry_motion(&q["b0"], &q["b1"], ob),
                pa,
                pb,
                oracle,
            });
        }
        out
    })
}

fn ours(q: &Query, s: &ToiSettings) -> Option<f64> {
    let ma = RigidMotion::from_poses(&q.poses[0], &q.poses[1]).unwrap();
    let mb = RigidMotion::from_poses(&q.poses[2], &q.poses[3]).unwrap();
    time_of_impact(&q.a, &ma, &q.b, &mb, s).unwrap().toi()
}

fn parry(q: &Query) -> Option<f64> {
    cast_shapes_nonlinear(&q.ma, q.pa.as_ref(), &q.mb, q.pb.as_ref(), 0.0, 1.0, true)
        .unwrap()
        .map(|h| h.time_of_impact)
}

/// Disagreements with the oracle: (missed, false hits, outside its bracket ± 1e-6).
fn disagreements(family: &str, f: impl Fn(&Query) -> Option<f64>) -> (usize, usize, usize) {
    let mut n = (0, 0, 0);
    for q in queries().iter().filter(|q| q.family == family) {
        match (q.oracle, f(q)) {
            (Some(_), None) => n.0 += 1,
            (None, Some(_)) => n.1 += 1,
            (Some((lo, hi)), Some(t)) if t < lo - 1e-6 || t > hi + 1e-6 => n.2 += 1,
            _ => {}
        }
    }
    n
}

fn main() {
    let s = ToiSettings::default();
    for family in FAMILIES {
        let n = queries().iter().filter(|q| q.family == family).count();
        let (o, p) = (disagreements(family, |q| ours(q, &s)), disagreements(family, parry));
        println!("{family:>13}: {n} queries; (missed, false hits, off) ours {o:?}, parry {p:?}");
    }
    divan::main();
}

fn run(bencher: Bencher, family: &str, f: impl Fn(&Query) -> Option<f64> + Sync) {
    let qs: Vec<&Query> = queries().iter().filter(|q| q.family == family).collect();
    bencher.counter(ItemsCount::new(qs.len())).bench(|| {
        for q in &qs {
            black_box(f(black_box(q)));
        }
    });
}

/// `time_of_impact` with the default settings (initial contacts with their depth).
#[divan::bench(args = FAMILIES)]
fn proxima(bencher: Bencher, family: &str) {
    let s = ToiSettings::default();
    run(bencher, family, |q| ours(q, &s));
}

/// `time_of_impact` without the depth of initial contacts.
#[divan::bench(args = FAMILIES)]
fn proxima_no_depth(bencher: Bencher, family: &str) {
    let s = ToiSettings::default().with_initial_depth(false);
    run(bencher, family, |q| ours(q, &s));
}

/// parry3d-f64 `cast_shapes_nonlinear` (stop at penetration).
#[divan::bench(args = FAMILIES)]
fn parry_nonlinear(bencher: Bencher, family: &str) {
    run(bencher, family, parry);
}
