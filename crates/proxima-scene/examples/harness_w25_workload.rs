//! Writes the W25 workcell's 25 pairs at every `step`-th cycle of one period as a geometry bench
//! workload (`../shared/bench/geometry/FORMAT.md`), so the same queries can be timed through
//! coal / FCL with the shared harness and through `proxima bench-geometry`.
//!
//! `cargo run --release -p proxima-scene --example harness_w25_workload -- OUT.json [STEP]`
//!
//! ci-run: target/ci-examples/w25-workload.json 500

use proxima_geom::{Pose, Shape};
use proxima_scene::workcell::{self, PrismModel};
use serde_json::{Value, json};

fn pose(p: &Pose) -> Value {
    let r = p.rotation();
    let t = p.translation();
    json!({"translation": [t.x, t.y, t.z],
           "rotation": [[r[(0, 0)], r[(0, 1)], r[(0, 2)]], [r[(1, 0)], r[(1, 1)], r[(1, 2)]], [r[(2, 0)], r[(2, 1)], r[(2, 2)]]]})
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let out = args.get(1).ok_or("usage: harness_w25_workload OUT.json [STEP]")?;
    let step: usize = args.get(2).map_or(Ok(1), |s| s.parse())?;
    let mut cell = workcell::w25(PrismModel::BoundingBox, false)?;
    let shapes: Vec<Value> = cell
        .world
        .objects()
        .iter()
        .map(|o| match o.shape() {
            Shape::Cuboid(c) => {
                let h = c.half_extents();
                Ok(json!({"id": o.name, "type": "box", "half_extents": [h.x, h.y, h.z]}))
            }
            _ => Err("the W25 bounding-box model has only boxes"),
        })
        .collect::<Result<_, _>>()?;
    let mut queries = Vec::new();
    for c in (0..cell.cycles).step_by(step.max(1)) {
        cell.set_cycle(c)?;
        for p in &cell.pairs {
            let (a, b) = (cell.world.object(p.a), cell.world.object(p.b));
            queries
                .push(json!({"a": a.name, "pose_a": pose(a.pose()), "b": b.name, "pose_b": pose(b.pose())}));
        }
    }
    let doc = json!({"name": "w25_cycles", "description": format!("W25 workcell: 25 pairs at every {step}th 1 kHz cycle of one period (prisms as bounding boxes)"),
        "seed": 0, "shapes": shapes, "queries": queries, "tracks": []});
    std::fs::write(out, serde_json::to_string(&doc)?)?;
    eprintln!("wrote {} queries to {out}", queries.len());
    Ok(())
}
