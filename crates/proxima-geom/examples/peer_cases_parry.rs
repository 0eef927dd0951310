//! The peer regression cases (`testdata/geometry/cases/peers.json`) through parry3d-f64 (a
//! dev-dependency), judged against the references our test checks (`tests/peer_cases.rs`):
//! prints one line per case and the list parry fails.
//!
//! ```text
//! cargo run --release -p proxima-geom --example peer_cases_parry
//! ```
//!
//! parry's conventions: `Cuboid` half extents, `Capsule::new_z`, `Cylinder` along y (our z-axis
//! cylinder is placed with an extra quarter turn about x), `query::contact` for the signed
//! distance (negative `dist` = penetration), `query::intersection_test` for `intersects`.

use nalgebra::{Matrix3, Rotation3, UnitQuaternion, Vector3};
use parry3d_f64::math::{Pose as PPose, Rotation as PRotation, Vector as PVector};
use parry3d_f64::query;
use parry3d_f64::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Cylinder, Shape as PShape, Triangle};
use proxima_geom::shape::{Cuboid as OurCuboid, Shape};
use proxima_geom::{Arithmetic, Pose, QuerySettings, distance};
use serde_json::Value;

#[path = "../tests/support/box_sat.rs"]
mod box_sat;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/geometry/cases/peers.json");

fn v3(v: &Value) -> [f64; 3] {
    [0, 1, 2].map(|k| v[k].as_f64().unwrap())
}

fn rotation(p: &Value) -> Matrix3<f64> {
    let r = p["rotation"].as_array().unwrap();
    Matrix3::from_row_slice(&[v3(&r[0]), v3(&r[1]), v3(&r[2])].concat())
}

fn parry_pose(r: &Matrix3<f64>, t: [f64; 3]) -> PPose {
    let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix(r));
    PPose::from_parts(PVector::new(t[0], t[1], t[2]), PRotation::from_xyzw(q.i, q.j, q.k, q.w))
}

/// parry's shape and the rotation to append to the pose (our frame → parry's).
fn parry_shape(s: &Value) -> (Box<dyn PShape>, Matrix3<f64>) {
    let f = |k: &str| s[k].as_f64().unwrap();
    let id = Matrix3::identity();
    let pv = |p: [f64; 3]| PVector::new(p[0], p[1], p[2]);
    match s["type"].as_str().unwrap() {
        "box" => (Box::new(Cuboid::new(pv(v3(&s["half_extents"])))), id),
        "sphere" => (Box::new(Ball::new(f("radius"))), id),
        "capsule" => (Box::new(Capsule::new_z(f("half_height"), f("radius"))), id),
        "cylinder" => {
            let quarter =
                *Rotation3::from_axis_angle(&Vector3::x_axis(), std::f64::consts::FRAC_PI_2).matrix();
            (Box::new(Cylinder::new(f("half_height"), f("radius"))), quarter)
        }
        "convex" => {
            let pts: Vec<PVector> = s["points"].as_array().unwrap().iter().map(|p| pv(v3(p))).collect();
            (Box::new(ConvexPolyhedron::from_convex_hull(&pts).unwrap()), id)
        }
        "triangle" => {
            let v: Vec<PVector> = s["vertices"].as_array().unwrap().iter().map(|p| pv(v3(p))).collect();
            (Box::new(Triangle::new(v[0], v[1], v[2])), id)
        }
        other => panic!("unknown shape {other}"),
    }
}

fn our_pose(p: &Value) -> Pose {
    let r = p["rotation"].as_array().unwrap();
    Pose::new([v3(&r[0]), v3(&r[1]), v3(&r[2])], v3(&p["translation"])).unwrap()
}

/// The case's reference signed distance (as in `tests/peer_cases.rs`).
fn reference(c: &Value) -> Option<f64> {
    match c["reference"].as_str().unwrap() {
        "stated" | "closed_form" => c["expect"].as_f64(),
        "box_exact" | "box_sat" => {
            let half = |s: &Value| Vector3::from(v3(&s["half_extents"]));
            let (ha, hb) = (half(&c["a"]), half(&c["b"]));
            let (pa, pb) = (our_pose(&c["pose_a"]), our_pose(&c["pose_b"]));
            let exact = QuerySettings::default().with_arithmetic(Arithmetic::Exact);
            let a = Shape::Cuboid(OurCuboid::new(ha.into()).unwrap());
            let b = Shape::Cuboid(OurCuboid::new(hb.into()).unwrap());
            let d = distance(&a, &pa, &b, &pb, &exact).unwrap().distance();
            Some(if d > 0.0 {
                d
            } else {
                -box_sat::box_box_sat_depth(ha.into(), &pa, hb.into(), &pb).max(0.0)
            })
        }
        _ => None,
    }
}

fn main() {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(CASES).unwrap()).unwrap();
    let cases = v["cases"].as_array().unwrap();
    let mut failed = Vec::new();
    for c in cases {
        let name = c["name"].as_str().unwrap();
        let (ga, qa) = parry_shape(&c["a"]);
        let (gb, qb) = parry_shape(&c["b"]);
        let pa = parry_pose(&(rotation(&c["pose_a"]) * qa), v3(&c["pose_a"]["translation"]));
        let pb = parry_pose(&(rotation(&c["pose_b"]) * qb), v3(&c["pose_b"]["translation"]));
        let tol = c["tol"].as_f64().unwrap().max(1e-12);
        let verdict = match c["op"].as_str().unwrap() {
            "intersects" => match query::intersection_test(&pa, ga.as_ref(), &pb, gb.as_ref()) {
                Ok(i) => match c["expect"].as_bool() {
                    Some(want) if want != i.intersecting => format!("FAIL: says {}", i.intersecting),
                    Some(_) => "ok".into(),
                    None => format!("n/a ({})", i.intersecting),
                },
                Err(_) => "unsupported".into(),
            },
            op => {
                let value = match query::contact(&pa, ga.as_ref(), &pb, gb.as_ref(), 0.0) {
                    Ok(Some(contact)) => Some(contact.dist),
                    Ok(None) => query::distance(&pa, ga.as_ref(), &pb, gb.as_ref()).ok().map(|d| d.distance),
                    Err(_) => None,
                };
                match (value, reference(c)) {
                    (None, _) => "unsupported".into(),
                    (Some(x), None) => format!("n/a ({x:.12})"),
                    (Some(x), Some(r)) => {
                        let want = if op == "distance" { r.max(0.0) } else { r };
                        // parry's contact() reports a positive `dist` for separated pairs.
                        let got = if op == "distance" { x.max(0.0) } else { x };
                        if r < 0.0 && got > 0.0 {
                            format!("FAIL: overlap {:.3e} reported as distance {got:.3e}", -r)
                        } else if (got - want).abs() > tol {
                            format!("FAIL: {got:.12} vs {want:.12} (off {:.2e})", (got - want).abs())
                        } else {
                            "ok".into()
                        }
                    }
                }
            }
        };
        if verdict.starts_with("FAIL") {
            failed.push(name);
        }
        println!("{name:<40} {verdict}");
    }
    println!("\nparry3d-f64 fails {} of {}: {}", failed.len(), cases.len(), failed.join(", "));
}
