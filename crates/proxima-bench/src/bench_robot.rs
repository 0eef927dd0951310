//! `proxima bench-robot`: the robot benchmark harness's runner contract
//! (`../shared/bench/robot/README.md`, records per its FORMAT.md).
//!
//! The workload's robots are loaded from their URDFs (paths relative to the workload file,
//! meshes relative to each URDF; every collision mesh becomes the exact convex hull of all its
//! vertices, `MeshParts::Whole`, as FORMAT.md specifies), placed at their `base_pose` with
//! their `prefix`, and monitored over the workload's `pair_list` exactly. The workload's
//! `joint_names` and `mimic_joints` are checked against the models.
//!
//! One untimed pass writes a `config` record per configuration: `min_distance` (signed: minus
//! the penetration depth for overlapping hulls) and `pair` from the all-pairs distance query,
//! `bracket` its proven [lower, upper],
//! `in_collision` from the collision query, `distances` per pair with `--all-pairs`. Then two
//! timed sections, `--repeat` passes each over every configuration, single thread, each call
//! timed alone (forward kinematics + placements + every pair; loading and hulls are not
//! timed): `distances` = every pair's certified signed distance, `collisions` = every pair's
//! boolean verdict without early exit. Per pass ns = Σ call times / N; the record carries the
//! min and median over passes.

use std::fs::File;
use std::hint::black_box;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use proxima_robot::urdf::pose_xyz_rpy;
use proxima_robot::{JointDrive, LoadOptions, MeshCache, MeshParts, Robot};
use proxima_scene::{DistanceMode, RobotQuerySettings, RobotWorld, RobotWorldBuilder};
use serde_json::{Value, json};

use proxima_cli_support::files::read_text;

/// Arguments of `proxima bench-robot`.
#[derive(Debug, Args)]
pub struct BenchRobotArgs {
    /// Workload file (JSON, shared/bench/robot/FORMAT.md).
    #[arg(long)]
    pub workload: PathBuf,
    /// Timed passes per section.
    #[arg(long, default_value_t = 5)]
    pub repeat: usize,
    /// Results file (JSON Lines).
    #[arg(long)]
    pub out: PathBuf,
    /// Write every pair's distance into the config records.
    #[arg(long)]
    pub all_pairs: bool,
    /// Warm-start each pair from its query at the previous configuration.
    #[arg(long)]
    pub warm_start: bool,
    /// Only the first N configurations (0 = all).
    #[arg(long, default_value_t = 0)]
    pub limit: usize,
}

/// A loaded robot workload.
pub struct RobotWorkload {
    /// Its `name`.
    pub name: String,
    /// The robots and pairs.
    pub world: RobotWorld,
    /// The configurations.
    pub configurations: Vec<Vec<f64>>,
}

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value> {
    v.get(key).with_context(|| format!("workload: missing field {key:?}"))
}

fn numbers(v: &Value, at: &str) -> Result<Vec<f64>> {
    let list = v.as_array().with_context(|| format!("{at}: must be an array of numbers"))?;
    list.iter()
        .enumerate()
        .map(|(i, x)| x.as_f64().with_context(|| format!("{at}[{i}]: must be a number")))
        .collect()
}

fn pose(v: Option<&Value>, at: &str) -> Result<proxima_geom::Pose> {
    let Some(v) = v.filter(|v| !v.is_null()) else { return Ok(proxima_geom::Pose::identity()) };
    let vec3 = |key: &str| -> Result<[f64; 3]> {
        match v.get(key) {
            None => Ok([0.0; 3]),
            Some(x) => {
                let n = numbers(x, &format!("{at}.{key}"))?;
                n.try_into()
                    .map_err(|n: Vec<f64>| anyhow::anyhow!("{at}.{key}: needs 3 numbers, got {}", n.len()))
            }
        }
    };
    pose_xyz_rpy(vec3("xyz")?, vec3("rpy")?).with_context(|| at.to_string())
}

/// Reads a workload (FORMAT.md) and builds its robot world.
pub fn load_workload(path: &Path) -> Result<RobotWorkload> {
    let text = read_text(path)?;
    let root: Value = serde_json::from_str(&text)
        .with_context(|| format!("workload {} is not valid JSON", path.display()))?;
    let format = root.get("format").and_then(Value::as_str).unwrap_or("");
    if format != "proxima-robot-workload/1" {
        bail!("workload {}: format {format:?} is not \"proxima-robot-workload/1\"", path.display());
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = field(&root, "name")?.as_str().context("workload: name must be a string")?.to_string();
    let robots: Vec<Value> = match root.get("robots") {
        Some(list) => list.as_array().context("workload: robots must be an array")?.clone(),
        None => {
            vec![json!({"urdf": field(&root, "robot")?, "base_pose": root.get("base_pose"), "prefix": ""})]
        }
    };
    let options = LoadOptions { mesh_parts: MeshParts::Whole, ..LoadOptions::default() };
    let mut cache = MeshCache::new();
    let mut builder = RobotWorldBuilder::new();
    for (i, r) in robots.iter().enumerate() {
        let at = format!("robots[{i}]");
        let urdf = field(r, "urdf")?.as_str().with_context(|| format!("{at}.urdf must be a string"))?;
        let robot = Robot::from_urdf_file_cached(dir.join(urdf), &options, &mut cache)
            .with_context(|| format!("{at}: loading {urdf}"))?;
        let prefix = r.get("prefix").and_then(Value::as_str).unwrap_or("");
        let base = pose(r.get("base_pose"), &format!("{at}.base_pose"))?;
        builder = builder.robot(Arc::new(robot), base, prefix, &format!("robot{i}"), None);
    }
    let pair_list = field(&root, "pair_list")?.as_array().context("workload: pair_list must be an array")?;
    let mut pairs = Vec::with_capacity(pair_list.len());
    for (k, p) in pair_list.iter().enumerate() {
        let names: Vec<&str> =
            p.as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        if names.len() != 2 {
            bail!("workload: pair_list[{k}] must be two link names");
        }
        pairs.push((names[0].to_string(), names[1].to_string()));
    }
    let world = builder.pair_list(pairs).build()?;
    // the workload's joint order and mimic relations must be the models'
    let ours = world.joint_names();
    if let Some(names) = root.get("joint_names") {
        let theirs: Vec<&str> =
            names.as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        if theirs != ours.iter().map(String::as_str).collect::<Vec<_>>() {
            bail!("workload joint_names {theirs:?} differ from the URDF order {ours:?}");
        }
    }
    if let Some(mimics) = root.get("mimic_joints").and_then(Value::as_array) {
        for (k, m) in mimics.iter().enumerate() {
            let (joint, source) =
                (m.get("joint").and_then(Value::as_str), m.get("mimics").and_then(Value::as_str));
            let (Some(joint), Some(source)) = (joint, source) else {
                bail!("workload: mimic_joints[{k}] needs joint and mimics")
            };
            let found = world.robots().iter().any(|r| {
                let Some(j) = joint.strip_prefix(r.prefix.as_str()).and_then(|n| r.robot.joint_index(n)) else {
                    return false;
                };
                let src = source.strip_prefix(r.prefix.as_str()).and_then(|n| r.robot.coordinate(n));
                let (mul, off) = (m.get("multiplier").and_then(Value::as_f64), m.get("offset").and_then(Value::as_f64));
                matches!(r.robot.joints()[j].drive, JointDrive::Mimic { coordinate, multiplier, offset }
                    if Some(coordinate) == src && mul.is_none_or(|x| x == multiplier) && off.is_none_or(|x| x == offset))
            });
            if !found {
                bail!("workload: mimic_joints[{k}] ({joint} mimics {source}) does not match the URDF");
            }
        }
    }
    let configs =
        field(&root, "configurations")?.as_array().context("workload: configurations must be an array")?;
    let mut configurations = Vec::with_capacity(configs.len());
    for (i, c) in configs.iter().enumerate() {
        configurations.push(numbers(c, &format!("configurations[{i}]"))?);
    }
    Ok(RobotWorkload { name, world, configurations })
}

/// Runs `proxima bench-robot`.
pub fn run(args: &BenchRobotArgs) -> Result<()> {
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    let wl = load_workload(&args.workload)?;
    let world = &wl.world;
    let configs = if args.limit > 0 {
        &wl.configurations[..args.limit.min(wl.configurations.len())]
    } else {
        &wl.configurations[..]
    };
    let n = configs.len();
    if n == 0 {
        bail!("the workload has no configurations");
    }
    // The configurations are independent samples: a warm start from an unrelated
    // configuration costs more than a cold start (measured), so each query starts cold
    // unless asked.
    let settings = RobotQuerySettings::default().with_warm_start(args.warm_start);
    let mut ws = world.workspace();

    let file = File::create(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let mut out = BufWriter::new(file);
    let geometry: serde_json::Map<String, Value> = world
        .bodies()
        .iter()
        .map(|b| {
            let verts: usize = world.pieces()[b.pieces.clone()]
                .iter()
                .map(|p| match &p.shape {
                    proxima_geom::Shape::ConvexPolytope(c) => c.vertices().len(),
                    _ => 0,
                })
                .sum();
            (b.name.clone(), json!({"pieces": b.pieces.len(), "hull_vertices": verts}))
        })
        .collect();
    let meta = json!({
        "kind": "meta", "format": "proxima-robot-results/1",
        "runner": format!("proxima {}", env!("CARGO_PKG_VERSION")),
        "workload": wl.name, "workload_file": args.workload.file_name().map(|f| f.to_string_lossy().into_owned()),
        "mode": "hull", "repeat": args.repeat, "n_configs": n, "pairs_per_config": world.pairs().len(),
        "links_with_geometry": world.bodies().len(), "piece_pairs_per_config": world.piece_pair_count(),
        "geometry": geometry,
        "timing_note": "per-configuration call includes FK + placements + all pairs; single thread",
    });
    writeln!(out, "{meta}")?;

    // untimed pass: the values
    let mut mismatches = 0;
    for (i, q) in configs.iter().enumerate() {
        let in_collision = world
            .collisions(q, &mut ws, &settings)
            .with_context(|| format!("configuration {i}"))?
            .in_collision;
        let report = world
            .distances(q, &mut ws, &settings, DistanceMode::AllPairs)
            .with_context(|| format!("configuration {i}"))?;
        let closest = report.closest.context("no pairs")?;
        if in_collision != (closest.distance <= 0.0) {
            mismatches += 1;
        }
        let (a, b) = world.pair_names(closest.pair);
        let mut rec = json!({"kind": "config", "i": i, "min_distance": closest.distance, "pair": [a, b],
            "in_collision": in_collision, "bracket": [closest.lower, closest.upper]});
        if args.all_pairs {
            let d: serde_json::Map<String, Value> = report
                .pairs
                .iter()
                .map(|p| {
                    let (a, b) = world.pair_names(p.pair);
                    (format!("{a}|{b}"), json!(p.distance))
                })
                .collect();
            rec["distances"] = Value::Object(d);
        }
        writeln!(out, "{rec}")?;
    }

    // timed sections
    let mut summary = Vec::new();
    for section in ["distances", "collisions"] {
        let mut per_pass = Vec::with_capacity(args.repeat);
        let mut best = vec![u128::MAX; n];
        for _ in 0..args.repeat {
            let mut total = 0u128;
            for (i, q) in configs.iter().enumerate() {
                let t = Instant::now();
                if section == "distances" {
                    black_box(
                        world.distances(black_box(q), &mut ws, &settings, DistanceMode::AllPairs)?.closest,
                    );
                } else {
                    black_box(world.collisions(black_box(q), &mut ws, &settings)?.in_collision);
                }
                let el = t.elapsed().as_nanos();
                best[i] = best[i].min(el);
                total += el;
            }
            per_pass.push(total as f64 / n as f64);
        }
        let min = per_pass.iter().copied().fold(f64::INFINITY, f64::min);
        let mut sorted = per_pass.clone();
        sorted.sort_by(f64::total_cmp);
        let median = if sorted.len() % 2 == 1 {
            sorted[sorted.len() / 2]
        } else {
            (sorted[sorted.len() / 2 - 1] + sorted[sorted.len() / 2]) / 2.0
        };
        // diagnostic on a shared machine: each configuration's fastest call, averaged
        let best = best.iter().sum::<u128>() as f64 / n as f64;
        writeln!(
            out,
            "{}",
            json!({"kind": "timing", "section": section, "ns_per_config_min": min, "ns_per_config_median": median,
                "n": n, "repeat": args.repeat, "ns_per_config_best_of_each": best})
        )?;
        summary
            .push(format!("{section}: min {min:.0} ns/config (median {median:.0}, best-of-each {best:.0})"));
    }
    out.flush()?;
    println!(
        "{} n={} pairs={}  {}  | in_collision vs min_distance <= 0 disagreements: {mismatches}",
        wl.name,
        n,
        world.pairs().len(),
        summary.join("  ")
    );
    Ok(())
}
