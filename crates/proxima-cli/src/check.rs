//! `proxima check`: certified self-distances of a robot from its URDF, for one configuration
//! (`--q`) or many (`--configs` CSV or NumPy `.npy`).
//!
//! Pairs: every pair of links with collision geometry except links of one rigid group and
//! parent–child bodies, minus the pairs the SRDF disables. Meshes become their exact convex
//! hulls. Per configuration: the minimum signed distance (negative: penetration depth), its
//! pair, witness points and proven bracket, whether any pair touches or overlaps, and with
//! `--all-pairs` every pair's distance.
//!
//! Configuration files: CSV with one configuration per line, optionally a header of joint
//! names (any order; every actuated joint once); NumPy `.npy` arrays of shape (dof,) or
//! (n, dof), little-endian float64 or float32, C order. Values are radians (revolute) and metres
//! (prismatic), in the URDF's actuated-joint order unless a CSV header says otherwise.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Args;
use proxima_geom::Pose;
use proxima_robot::LimitPolicy;
use proxima_scene::{DistanceMode, RobotQuerySettings, RobotWorldBuilder};
use serde_json::{Value, json};

use proxima_cli_support::exit::Finding;

use crate::configs::{RobotArgs, parse_list, read_configs};
use crate::solve::Format;

/// Arguments of `proxima check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The robot.
    #[command(flatten)]
    pub robot: RobotArgs,
    /// One configuration: comma-separated joint values in the URDF's actuated-joint order.
    #[arg(long, allow_hyphen_values = true, conflicts_with = "configs", required_unless_present = "configs")]
    pub q: Option<String>,
    /// Many configurations: a CSV file (optional header of joint names) or a NumPy .npy array.
    #[arg(long)]
    pub configs: Option<PathBuf>,
    /// Report every pair's distance, not only the minimum.
    #[arg(long)]
    pub all_pairs: bool,
    /// Clamp joint values into their limits instead of rejecting them.
    #[arg(long)]
    pub clamp: bool,
    /// Exit with status 1 when some configuration is in collision.
    #[arg(long)]
    pub fail_on_collision: bool,
    /// Output: a table, or one JSON object per configuration (JSON Lines).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Runs `proxima check`.
pub fn run(args: &CheckArgs) -> Result<()> {
    let (robot, srdf) = args.robot.load()?;
    let srdf = srdf.map(|(srdf, _)| srdf);
    let configs = match (&args.q, &args.configs) {
        (Some(q), _) => vec![parse_list(q).context("--q")?],
        (None, Some(path)) => read_configs(path, &robot)?.iter().map(<[f64]>::to_vec).collect(),
        (None, None) => bail!("give --q or --configs"),
    };
    let world =
        RobotWorldBuilder::new().robot(Arc::new(robot), Pose::identity(), "", "robot", srdf).build()?;
    let settings = RobotQuerySettings::default().with_limits(if args.clamp {
        LimitPolicy::Clamp
    } else {
        LimitPolicy::Reject
    });
    let mode = if args.all_pairs { DistanceMode::AllPairs } else { DistanceMode::Minimum };
    let text = args.format == Format::Text;
    if text {
        println!(
            "{} ({} joints, {} links with geometry, {} pairs checked)",
            args.robot.urdf.display(),
            world.dof(),
            world.bodies().len(),
            world.pairs().len()
        );
    }
    let mut ws = world.workspace();
    let mut colliding = 0;
    for (i, q) in configs.iter().enumerate() {
        let report =
            world.distances(q, &mut ws, &settings, mode).with_context(|| format!("configuration {i}"))?;
        let closest = report.closest.context("no pair to check")?;
        if report.in_collision {
            colliding += 1;
        }
        let (a, b) = world.pair_names(closest.pair);
        if text {
            println!(
                "config {i}: min distance {:.9} m ({a} - {b}), certified in [{:.12}, {:.12}]{}",
                closest.distance,
                closest.lower,
                closest.upper,
                if report.in_collision { "  IN COLLISION" } else { "" }
            );
            if let Some((pa, pb)) = closest.points {
                println!(
                    "  witnesses: {a} ({:.6}, {:.6}, {:.6}), {b} ({:.6}, {:.6}, {:.6})",
                    pa.x, pa.y, pa.z, pb.x, pb.y, pb.z
                );
            }
            for p in &report.pairs {
                let (a, b) = world.pair_names(p.pair);
                println!("  {a:>24} - {b:<24} {:>13.9}", p.distance);
            }
        } else {
            let mut rec = json!({
                "i": i, "min_distance": closest.distance, "pair": [a, b],
                "bracket": [closest.lower, closest.upper], "in_collision": report.in_collision,
                "witnesses": closest.points.map(|(p, q)| [[p.x, p.y, p.z], [q.x, q.y, q.z]]),
            });
            if args.all_pairs {
                rec["distances"] = Value::Object(
                    report
                        .pairs
                        .iter()
                        .map(|p| {
                            let (a, b) = world.pair_names(p.pair);
                            (format!("{a}|{b}"), json!(p.distance))
                        })
                        .collect(),
                );
            }
            println!("{rec}");
        }
    }
    if text && configs.len() > 1 {
        println!("{} of {} configurations in collision", colliding, configs.len());
    }
    if args.fail_on_collision && colliding > 0 {
        return Err(Finding(format!("{colliding} configuration(s) in collision")).into());
    }
    Ok(())
}
