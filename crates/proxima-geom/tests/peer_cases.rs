//! Peer regression cases as data (`testdata/geometry/cases/peers.json`): configurations from
//! the test suites and bug reports of FCL, libccd, coal and parry, each naming its source, run
//! through every engine of ours that accepts the pair — `Auto`, forced GJK, forced LCP and exact
//! arithmetic where a kernel exists, forced DQP3 for polytope pairs, the signed distance, and
//! `intersects` (with the vertex LP where it applies).
//!
//! Each case's `reference` says where its truth comes from: `stated` (the peer's own expected
//! value), `closed_form` (worked out independently, formula in the note), `box_exact` /
//! `box_sat` (computed here: the exact LCP distance for separated boxes, the separating-axis
//! depth for overlapping ones), or `consistency` (no value known: every engine must certify
//! and agree). The same file is read by `scripts/peer-cases.py` (coal, python-fcl) and the
//! `peer_cases_parry` example, which report which peers fail which cases.

use nalgebra::{Point3, Vector3};
use proxima_geom::shape::{Capsule, ConvexPolytope, Cuboid, Cylinder, Sphere, Triangle};
use proxima_geom::{
    Algorithm, Arithmetic, GeomError, Intersection, Pose, QuerySettings, Shape, distance, intersects,
    signed_distance,
};
use serde_json::Value;

#[path = "support/box_sat.rs"]
mod box_sat;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/geometry/cases/peers.json");

fn v3(v: &Value) -> [f64; 3] {
    [0, 1, 2].map(|k| v[k].as_f64().unwrap())
}

fn shape(s: &Value) -> Shape {
    let f = |k: &str| s[k].as_f64().unwrap();
    match s["type"].as_str().unwrap() {
        "box" => Shape::Cuboid(Cuboid::new(v3(&s["half_extents"])).unwrap()),
        "sphere" => Shape::Sphere(Sphere::new(f("radius")).unwrap()),
        "capsule" => Shape::Capsule(Capsule::new(f("radius"), f("half_height")).unwrap()),
        "cylinder" => Shape::Cylinder(Cylinder::new(f("radius"), f("half_height")).unwrap()),
        "convex" => {
            let pts: Vec<[f64; 3]> = s["points"].as_array().unwrap().iter().map(v3).collect();
            Shape::ConvexPolytope(ConvexPolytope::hull_of(&pts).unwrap())
        }
        "triangle" => {
            let v: Vec<[f64; 3]> = s["vertices"].as_array().unwrap().iter().map(v3).collect();
            Shape::Triangle(Triangle::new(v[0], v[1], v[2]).unwrap())
        }
        other => panic!("unknown shape type {other}"),
    }
}

fn pose(p: &Value) -> Pose {
    let r = p["rotation"].as_array().unwrap();
    Pose::new([v3(&r[0]), v3(&r[1]), v3(&r[2])], v3(&p["translation"])).unwrap()
}

fn with(alg: Algorithm, arithmetic: Arithmetic) -> QuerySettings {
    QuerySettings::default().with_algorithm(alg).with_arithmetic(arithmetic)
}

/// The distance engines that accept the pair: (name, settings).
fn distance_engines() -> Vec<(&'static str, QuerySettings)> {
    vec![
        ("auto", with(Algorithm::Auto, Arithmetic::Certified)),
        ("gjk", with(Algorithm::Gjk, Arithmetic::Certified)),
        ("lcp", with(Algorithm::Lcp, Arithmetic::Certified)),
        ("exact", with(Algorithm::Auto, Arithmetic::Exact)),
        ("dqp3", with(Algorithm::Dqp3, Arithmetic::Certified)),
    ]
}

/// The separating-axis depth of two boxes (positive = overlap).
fn box_sat(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> f64 {
    let (Shape::Cuboid(x), Shape::Cuboid(y)) = (a, b) else { panic!("box_sat needs boxes") };
    box_sat::box_box_sat_depth(x.half_extents().into(), pa, y.half_extents().into(), pb)
}

/// The signed distance the case's reference gives, if any.
fn reference(c: &Value, a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> Option<f64> {
    match c["reference"].as_str().unwrap() {
        "stated" | "closed_form" => c["expect"].as_f64(),
        "box_exact" | "box_sat" => {
            let exact = distance(a, pa, b, pb, &with(Algorithm::Auto, Arithmetic::Exact)).unwrap().distance();
            Some(if exact > 0.0 { exact } else { -box_sat(a, pa, b, pb).max(0.0) })
        }
        _ => None,
    }
}

fn close(x: &Point3<f64>, want: &Value, tol: f64) -> bool {
    (x.coords - Vector3::from(v3(want))).norm() <= tol
}

/// Runs one case; returns how many engine answers were checked.
fn run(c: &Value) -> usize {
    let name = c["name"].as_str().unwrap();
    let (a, pa, b, pb) = (shape(&c["a"]), pose(&c["pose_a"]), shape(&c["b"]), pose(&c["pose_b"]));
    // The peers' tolerances are 1e-6 … 1e-12; rounding of the set-up (coordinates ≲ 60) is
    // below 1e-12.
    let tol = c["tol"].as_f64().unwrap().max(1e-12);
    let truth = reference(c, &a, &pa, &b, &pb);
    let mut checked = 0;
    match c["op"].as_str().unwrap() {
        "distance" | "signed_distance" => {
            let mut brackets: Vec<(&str, f64, f64)> = Vec::new();
            for (engine, s) in distance_engines() {
                let r = match distance(&a, &pa, &b, &pb, &s) {
                    Ok(r) => r,
                    Err(GeomError::Unsupported { .. }) => continue,
                    Err(e) => panic!("{name} {engine}: {e}"),
                };
                let cert = r.certificate;
                assert!(cert.lower <= cert.upper, "{name} {engine}: {cert:?}");
                if let Some(t) = truth {
                    let d = t.max(0.0);
                    assert!(
                        (r.distance() - d).abs() <= tol && cert.lower <= d + tol && d <= cert.upper + tol,
                        "{name} {engine}: distance {} [{}, {}] vs {d}",
                        r.distance(),
                        cert.lower,
                        cert.upper
                    );
                }
                if let (Some(wa), Some((pa_w, pb_w))) = (c.get("witness_a"), r.witnesses()) {
                    let wtol = tol.max(1e-9);
                    assert!(
                        close(&pa_w, wa, wtol) && close(&pb_w, &c["witness_b"], wtol),
                        "{name} {engine}: {pa_w} {pb_w}"
                    );
                }
                brackets.push((engine, cert.lower, cert.upper));
                checked += 1;
            }
            for s in
                [with(Algorithm::Auto, Arithmetic::Certified), with(Algorithm::Gjk, Arithmetic::Certified)]
            {
                let sd = signed_distance(&a, &pa, &b, &pb, &s).unwrap();
                let cert = sd.certificate;
                assert!(cert.lower <= sd.value && sd.value <= cert.upper, "{name}: {sd:?}");
                if let Some(t) = truth {
                    assert!(
                        (sd.value - t).abs() <= tol && cert.lower <= t + tol && t <= cert.upper + tol,
                        "{name} signed ({:?}): {} [{}, {}] vs {t}",
                        s.algorithm,
                        sd.value,
                        cert.lower,
                        cert.upper
                    );
                }
                if let Some(t) = truth {
                    // The right sign: an overlap is never reported as separation (and a proven
                    // one above EPA's 1e-10 × size resolution is proven), nor a gap as overlap.
                    assert!(t >= 0.0 || sd.value <= 0.0, "{name}: overlap {t:e} reported as {}", sd.value);
                    assert!(t <= 0.0 || sd.value >= 0.0, "{name}: gap {t:e} reported as {}", sd.value);
                    assert!(t > -1e-9 || cert.upper < 0.0, "{name}: overlap {t:e} not proven: {cert:?}");
                    assert!(t < 1e-9 || cert.lower > 0.0, "{name}: gap {t:e} not proven: {cert:?}");
                }
                if truth.is_none() && s.algorithm == Algorithm::Auto {
                    eprintln!(
                        "{name}: signed distance {:e} in [{:e}, {:e}]",
                        sd.value, cert.lower, cert.upper
                    );
                }
                if c.get("expect_overlap").and_then(Value::as_bool) == Some(true) {
                    assert!(cert.upper < 0.0, "{name}: overlap not proven {sd:?}");
                }
                brackets.push(("signed", cert.lower.max(0.0), cert.upper.max(0.0)));
                checked += 1;
            }
            // Every bracket contains the truth, so no lower bound exceeds an upper one.
            for (x, lo, _) in &brackets {
                for (y, _, hi) in &brackets {
                    assert!(
                        lo <= &(hi + 1e-12),
                        "{name}: {x}'s lower bound {lo} above {y}'s upper bound {hi}"
                    );
                }
            }
        }
        "intersects" => {
            let engines = [("auto", Algorithm::Auto), ("gjk", Algorithm::Gjk), ("lp", Algorithm::Lp)];
            let mut verdicts = Vec::new();
            for (engine, alg) in engines {
                let i = match intersects(&a, &pa, &b, &pb, &with(alg, Arithmetic::Certified)) {
                    Ok(i) => i,
                    Err(GeomError::Unsupported { .. }) => continue,
                    Err(e) => panic!("{name} {engine}: {e}"),
                };
                let hit = match i {
                    Intersection::Intersecting { .. } => true,
                    Intersection::Separated { .. } => false,
                    Intersection::Undecided { reason } => panic!("{name} {engine}: undecided ({reason})"),
                };
                if let Some(want) = c["expect"].as_bool() {
                    assert_eq!(hit, want, "{name} {engine}");
                }
                verdicts.push((engine, hit));
                checked += 1;
            }
            // The exact vertex LP decides; every engine agrees with it.
            let exact = intersects(&a, &pa, &b, &pb, &with(Algorithm::Lp, Arithmetic::Exact)).unwrap();
            let exact = matches!(exact, Intersection::Intersecting { .. });
            eprintln!("{name}: exact LP says {}", if exact { "intersecting" } else { "separated" });
            for (engine, hit) in verdicts {
                assert_eq!(hit, exact, "{name} {engine} disagrees with the exact LP");
            }
        }
        op => panic!("unknown op {op}"),
    }
    checked
}

#[test]
fn every_peer_case_passes_on_every_engine() {
    let text = std::fs::read_to_string(CASES).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 40, "{}", cases.len());
    let mut checked = 0;
    for c in cases {
        assert!(c["source"].as_str().is_some_and(|s| !s.is_empty()), "{} cites no source", c["name"]);
        checked += run(c);
    }
    eprintln!("{} peer cases, {checked} engine answers checked", cases.len());
}
