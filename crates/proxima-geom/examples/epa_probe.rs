//! Probe: EPA iteration histogram and signed / unsigned timings on one workload (local tool).
use proxima_geom::shape::ConvexPolytope;
use proxima_geom::{Pose, QuerySettings, Shape, distance};
use serde_json::Value;
use std::collections::HashMap;
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).unwrap();
    let w: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v3 = |v: &Value| [0, 1, 2].map(|k| v[k].as_f64().unwrap());
    let mut ids = HashMap::new();
    let mut shapes = Vec::new();
    for s in w["shapes"].as_array().unwrap() {
        let v: Vec<[f64; 3]> = s["vertices"].as_array().unwrap().iter().map(v3).collect();
        let faces: Vec<[usize; 3]> = s["faces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| [0, 1, 2].map(|k| t[k].as_u64().unwrap() as usize))
            .collect();
        ids.insert(s["id"].as_str().unwrap().to_string(), shapes.len());
        shapes.push(Shape::ConvexPolytope(ConvexPolytope::with_faces(v, &faces).unwrap()));
    }
    let pose = |p: &Value| {
        let r = p["rotation"].as_array().unwrap();
        Pose::new([v3(&r[0]), v3(&r[1]), v3(&r[2])], v3(&p["translation"])).unwrap()
    };
    let qs: Vec<_> = w["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                ids[q["a"].as_str().unwrap()],
                pose(&q["pose_a"]),
                ids[q["b"].as_str().unwrap()],
                pose(&q["pose_b"]),
            )
        })
        .collect();
    let gs = proxima_geom::GjkSettings::default();
    let mut hist = [0usize; 40];
    let mut n = 0;
    for (a, pa, b, pb) in &qs {
        if let Some(e) = proxima_geom::gjk::penetration(&shapes[*a], pa, &shapes[*b], pb, &gs).unwrap() {
            hist[(e.iterations as usize).min(39)] += 1;
            n += 1;
        }
    }
    println!("overlapping {n}/{}; iterations histogram {:?}", qs.len(), &hist[..20]);
    let mean: f64 = hist.iter().enumerate().map(|(i, c)| (i * c) as f64).sum::<f64>() / n as f64;
    println!("mean iterations {mean:.2}");
    let only = std::env::var("ONLY").ok();
    let reps = if only.is_some() { 300 } else { 15 };
    for (name, depth) in [("signed", true), ("unsigned", false), ("penetration", true)] {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let st = QuerySettings { penetration_depth: depth, ..Default::default() };
        let mut best = f64::INFINITY;
        for _ in 0..reps {
            let t = Instant::now();
            for (a, pa, b, pb) in &qs {
                if name == "penetration" {
                    std::hint::black_box(
                        proxima_geom::gjk::penetration(&shapes[*a], pa, &shapes[*b], pb, &gs).unwrap(),
                    );
                } else {
                    std::hint::black_box(distance(&shapes[*a], pa, &shapes[*b], pb, &st).unwrap());
                }
            }
            best = best.min(t.elapsed().as_nanos() as f64 / qs.len() as f64);
        }
        println!("{name}: {best:.0} ns/query (best of 15)");
    }
}
