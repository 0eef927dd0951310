//! A slice of the CCD benchmark (testdata/ccd, 24 queries per family, with the cases parry
//! tunnels through) against the oracle's times: no missed hit, no false hit, every time within
//! 1e-6 of the oracle's bracket — the harness's acceptance, in a test.

use proxima_geom::shape::{Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Sphere};
use proxima_geom::{Pose, RigidMotion, Shape, ToiOutcome, ToiSettings, ToiStatus, time_of_impact};
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/ccd/");

fn v3(v: &Value) -> [f64; 3] {
    [0, 1, 2].map(|k| v[k].as_f64().expect("number"))
}

fn shape(s: &Value) -> Shape {
    let f = |k: &str| s[k].as_f64().expect("number");
    match s["type"].as_str().expect("type") {
        "sphere" => Shape::Sphere(Sphere::new(f("radius")).unwrap()),
        "box" => Shape::Cuboid(Cuboid::new(v3(&s["half_extents"])).unwrap()),
        "capsule" => Shape::Capsule(Capsule::new(f("radius"), f("half_height")).unwrap()),
        "cylinder" => Shape::Cylinder(Cylinder::new(f("radius"), f("half_height")).unwrap()),
        "cone" => Shape::Cone(Cone::new(f("radius"), f("half_height")).unwrap()),
        "ellipsoid" => Shape::Ellipsoid(Ellipsoid::new(v3(&s["radii"])).unwrap()),
        "convex" => {
            let v = s["vertices"].as_array().unwrap().iter().map(v3).collect();
            let faces: Vec<[usize; 3]> =
                s["faces"].as_array().unwrap().iter().map(|t| v3(t).map(|x| x as usize)).collect();
            Shape::ConvexPolytope(ConvexPolytope::with_faces(v, &faces).unwrap())
        }
        other => panic!("shape type {other}"),
    }
}

fn pose(p: &Value) -> Pose {
    let r = &p["rotation"];
    Pose::new([v3(&r[0]), v3(&r[1]), v3(&r[2])], v3(&p["translation"])).unwrap()
}

#[test]
fn public_slice_agrees_with_the_oracle() {
    let text = std::fs::read_to_string(format!("{DIR}public-slice.json")).unwrap();
    let w: Value = serde_json::from_str(&text).unwrap();
    let expected: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(format!("{DIR}public-slice.expected.json")).unwrap())
            .unwrap();
    let shapes: std::collections::HashMap<&str, Shape> =
        w["shapes"].as_array().unwrap().iter().map(|s| (s["id"].as_str().unwrap(), shape(s))).collect();
    let settings = ToiSettings::default().with_margin(w["margin"].as_f64().unwrap_or(0.0));
    let (mut hits, mut misses) = (0, 0);
    for (q, e) in w["queries"].as_array().unwrap().iter().zip(&expected) {
        let (a, b) = (&shapes[q["a"].as_str().unwrap()], &shapes[q["b"].as_str().unwrap()]);
        let ma = RigidMotion::from_poses(&pose(&q["a0"]), &pose(&q["a1"])).unwrap();
        let mb = RigidMotion::from_poses(&pose(&q["b0"]), &pose(&q["b1"])).unwrap();
        let r = time_of_impact(a, &ma, b, &mb, &settings).unwrap();
        let source = e["source"].as_str().unwrap();
        assert!(r.status != ToiStatus::MaxIterations, "{source}: {r:?}");
        match (e["toi"].as_f64(), r.toi()) {
            (None, None) => misses += 1,
            (None, Some(t)) => panic!("{source}: false hit at {t}: {r:?}"),
            (Some(t), None) => panic!("{source}: missed the contact at {t}: {r:?}"),
            (Some(lo), Some(t)) => {
                // The oracle's bracket [toi, toi_hi], ±1e-6 as in compare.py.
                let hi = e["toi_hi"].as_f64().unwrap_or(lo);
                assert!(lo - 1e-6 <= t && t <= hi + 1e-6, "{source}: {t} outside [{lo}, {hi}]: {r:?}");
                assert!(!matches!(r.outcome, ToiOutcome::Undecided(_)), "{source}: {r:?}");
                hits += 1;
            }
        }
    }
    assert!(hits > 60 && misses > 20, "{hits} hits, {misses} misses");
}
