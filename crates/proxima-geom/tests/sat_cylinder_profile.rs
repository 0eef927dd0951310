//! Where the time goes on the `cylinders` workload (the vendored extract): time per query grouped by the
//! stage that decided it (`cargo test --release -p proxima-geom --test sat_cylinder_profile
//! -- --ignored --nocapture`; ignored by default: timings need a release build).

use std::collections::BTreeMap;
use std::time::Instant;

use proxima_geom::sat_cylinder::{
    CylinderGeom, CylinderSat, CylinderSatSettings, intersects_cylinder_cylinder_raw,
};

fn workload() -> Vec<(CylinderGeom, CylinderGeom)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/geometry/workloads/cylinders.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let shapes: std::collections::HashMap<&str, (f64, f64)> = v["shapes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (s["id"].as_str().unwrap(), (s["radius"].as_f64().unwrap(), s["half_height"].as_f64().unwrap()))
        })
        .collect();
    let geom = |id: &serde_json::Value, pose: &serde_json::Value| {
        let (r, h) = shapes[id.as_str().unwrap()];
        let t: [f64; 3] = core::array::from_fn(|i| pose["translation"][i].as_f64().unwrap());
        let w: [f64; 3] = core::array::from_fn(|i| pose["rotation"][i][2].as_f64().unwrap());
        CylinderGeom::new(t, w, r, h).unwrap()
    };
    v["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| (geom(&q["a"], &q["pose_a"]), geom(&q["b"], &q["pose_b"])))
        .collect()
}

#[test]
#[ignore]
fn profile_workload_by_stage() {
    let pairs = workload();
    let s = CylinderSatSettings::default();
    let mut by: BTreeMap<String, (usize, f64, f64)> = BTreeMap::new();
    let mut total = 0.0;
    for (a, b) in &pairs {
        let mut best = f64::INFINITY;
        let mut r = None;
        for _ in 0..5 {
            let t = Instant::now();
            r = Some(intersects_cylinder_cylinder_raw(a, b, &s).unwrap());
            best = best.min(t.elapsed().as_nanos() as f64);
        }
        let key = match r.unwrap() {
            CylinderSat::Separated { stage, .. } => format!("{stage:?}"),
            CylinderSat::Intersecting { residual, .. } => {
                format!("Intersecting(residual 0: {})", residual == 0.0)
            }
        };
        let e = by.entry(key).or_insert((0, 0.0, 0.0));
        e.0 += 1;
        e.1 += best;
        e.2 = e.2.max(best);
        total += best;
    }
    for (k, (n, sum, max)) in &by {
        eprintln!(
            "{k:40} n {n:5}  mean {:10.0} ns  max {max:10.0} ns  share {:5.1} %",
            sum / *n as f64,
            100.0 * sum / total
        );
    }
    eprintln!("total mean {:.0} ns/query over {}", total / pairs.len() as f64, pairs.len());
}
