//! DQP3 on the harness workload `polytope_64` (hulls of 64 points converted to facets): every
//! cold query ends `Optimal` (regression: three queries cycled on nearly parallel edges before
//! the stall stop) with a certificate gap ≤ 1e-8. Reads the vendored extract (every 8th query) in testdata/geometry/workloads.

use proxima_geom::Pose;
use proxima_geom::dqp3::{Dqp3Settings, Dqp3Status, FacetPolyhedron, distance_dqp3};
#[test]
fn polytope_64_all_optimal() {
    let path = format!("{}/../../testdata/geometry/workloads/polytope_64.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let w: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut shapes = std::collections::HashMap::new();
    for s in w["shapes"].as_array().unwrap() {
        let v: Vec<[f64; 3]> = s["vertices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                let v = v.as_array().unwrap();
                [v[0].as_f64().unwrap(), v[1].as_f64().unwrap(), v[2].as_f64().unwrap()]
            })
            .collect();
        let p = FacetPolyhedron::from_vertices(&v).unwrap();
        shapes.insert(s["id"].as_str().unwrap().to_string(), p);
    }
    let pose = |v: &serde_json::Value| {
        let r: Vec<[f64; 3]> = v["rotation"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let r = r.as_array().unwrap();
                [r[0].as_f64().unwrap(), r[1].as_f64().unwrap(), r[2].as_f64().unwrap()]
            })
            .collect();
        let t = v["translation"].as_array().unwrap();
        Pose::new(
            [r[0], r[1], r[2]],
            [t[0].as_f64().unwrap(), t[1].as_f64().unwrap(), t[2].as_f64().unwrap()],
        )
        .unwrap()
    };
    let (mut p, mut n, mut mx, mut z) = (0, 0, 0, 0);
    for q in w["queries"].as_array().unwrap() {
        let c = distance_dqp3(
            &shapes[q["a"].as_str().unwrap()],
            &pose(&q["pose_a"]),
            &shapes[q["b"].as_str().unwrap()],
            &pose(&q["pose_b"]),
            &Dqp3Settings::default(),
        )
        .unwrap();
        p += c.passes;
        n += 1;
        assert_eq!(c.status, Dqp3Status::Optimal);
        assert!(c.lower <= c.upper && c.upper - c.lower <= 1e-8 * (1.0 + c.upper));
        mx = mx.max(c.passes);
        if c.distance() == 0.0 {
            z += 1
        }
    }
    eprintln!("cold mean passes {} max {mx} intersecting {z}/{n}", p as f64 / n as f64);
}
