//! scratch: distances passes over a workload (for perf stat instruction counts)
use proxima_robot::urdf::pose_xyz_rpy;
use proxima_robot::*;
use proxima_scene::*;
use std::sync::Arc;
fn main() {
    let wl = std::env::args().nth(1).unwrap();
    let passes: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let path = std::path::Path::new(&wl);
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let opts = LoadOptions { mesh_parts: MeshParts::Whole, ..Default::default() };
    let mut b = RobotWorldBuilder::new();
    for (i, r) in v["robots"].as_array().unwrap().iter().enumerate() {
        let robot =
            Robot::from_urdf_file(path.parent().unwrap().join(r["urdf"].as_str().unwrap()), &opts).unwrap();
        let bp = &r["base_pose"];
        let g = |k: &str| -> [f64; 3] {
            bp.get(k)
                .map(|x| {
                    let a: Vec<f64> = x.as_array().unwrap().iter().map(|y| y.as_f64().unwrap()).collect();
                    [a[0], a[1], a[2]]
                })
                .unwrap_or([0.0; 3])
        };
        b = b.robot(
            Arc::new(robot),
            pose_xyz_rpy(g("xyz"), g("rpy")).unwrap(),
            r["prefix"].as_str().unwrap_or(""),
            &format!("r{i}"),
            None,
        );
    }
    let pairs = v["pair_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_str().unwrap().to_string()))
        .collect();
    let w = b.pair_list(pairs).build().unwrap();
    let qs: Vec<Vec<f64>> = v["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect())
        .collect();
    let mut ws = w.workspace();
    let s = RobotQuerySettings { warm_start: false, ..Default::default() };
    let mut acc = 0.0;
    let t = std::time::Instant::now();
    for _ in 0..passes {
        for q in &qs {
            acc += w.distances(q, &mut ws, &s, DistanceMode::AllPairs).unwrap().closest.unwrap().distance;
        }
    }
    eprintln!("{:.0} ns/config {acc}", t.elapsed().as_nanos() as f64 / (passes * qs.len()).max(1) as f64);
    let n = (passes * qs.len()) as f64;
}
