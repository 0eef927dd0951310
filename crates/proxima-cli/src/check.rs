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

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Args;
use proxima_geom::Pose;
use proxima_robot::{LimitPolicy, LoadOptions, Robot, Srdf};
use proxima_scene::{DistanceMode, RobotQuerySettings, RobotWorldBuilder};
use serde_json::{Value, json};

use proxima_cli_support::exit::Finding;
use proxima_cli_support::files::read_text;

use crate::solve::Format;

/// Arguments of `proxima check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The robot's URDF file.
    #[arg(long)]
    pub urdf: PathBuf,
    /// An SRDF file whose disable_collisions pairs are not checked.
    #[arg(long)]
    pub srdf: Option<PathBuf>,
    /// A directory searched for package:// mesh URIs (repeatable).
    #[arg(long = "package-dir")]
    pub package_dirs: Vec<PathBuf>,
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
    let options = LoadOptions { package_dirs: args.package_dirs.clone(), ..LoadOptions::default() };
    let robot = Robot::from_urdf_file(&args.urdf, &options)?;
    let srdf = match &args.srdf {
        None => None,
        Some(p) => Some(Srdf::parse(&read_text(p)?, &p.display().to_string())?),
    };
    let configs = match (&args.q, &args.configs) {
        (Some(q), _) => vec![parse_list(q).context("--q")?],
        (None, Some(path)) => read_configs(path, &robot)?,
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
            args.urdf.display(),
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

fn parse_list(text: &str) -> Result<Vec<f64>> {
    text.split([',', ' ', '\t'])
        .filter(|w| !w.is_empty())
        .enumerate()
        .map(|(i, w)| w.parse::<f64>().with_context(|| format!("value {i} ({w:?}) is not a number")))
        .collect()
}

fn read_configs(path: &Path, robot: &Robot) -> Result<Vec<Vec<f64>>> {
    let is_npy = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("npy"));
    let configs = if is_npy {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        read_npy(&bytes).with_context(|| format!("{}", path.display()))?
    } else {
        read_csv(&read_text(path)?, robot).with_context(|| format!("{}", path.display()))?
    };
    if configs.is_empty() {
        bail!("{}: no configurations", path.display());
    }
    Ok(configs)
}

fn read_csv(text: &str, robot: &Robot) -> Result<Vec<Vec<f64>>> {
    let mut header: Option<Vec<String>> = None;
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        if out.is_empty() && header.is_none() && cells.iter().any(|c| c.parse::<f64>().is_err()) {
            header = Some(cells.iter().map(|c| c.to_string()).collect());
            continue;
        }
        let values = parse_list(line).with_context(|| format!("line {}", k + 1))?;
        let q = match &header {
            None => values,
            Some(names) => {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                robot.configuration_from_names(&names, &values).with_context(|| format!("line {}", k + 1))?
            }
        };
        out.push(q);
    }
    Ok(out)
}

/// A NumPy `.npy` array of float64 or float32, shape (dof,) or (n, dof), C order.
fn read_npy(bytes: &[u8]) -> Result<Vec<Vec<f64>>> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        bail!("not a NumPy .npy file");
    }
    let (header_len, start) = match bytes[6] {
        1 => (usize::from(u16::from_le_bytes([bytes[8], bytes[9]])), 10),
        2 | 3 if bytes.len() >= 12 => {
            (u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, 12)
        }
        v => bail!("unsupported .npy version {v}"),
    };
    let header = bytes.get(start..start + header_len).context("truncated .npy header")?;
    let header = std::str::from_utf8(header).context(".npy header is not text")?;
    let field = |key: &str| -> Result<&str> {
        let at = header.find(&format!("'{key}'")).with_context(|| format!(".npy header has no {key:?}"))?;
        Ok(header[at + key.len() + 2..].trim_start().trim_start_matches(':').trim_start())
    };
    let descr = field("descr")?;
    let width = if descr.starts_with("'<f8'") || descr.starts_with("'float64'") {
        8
    } else if descr.starts_with("'<f4'") {
        4
    } else {
        bail!(
            "unsupported .npy dtype {} (little-endian float64 or float32)",
            descr.split(',').next().unwrap_or("")
        );
    };
    if field("fortran_order")?.starts_with("True") {
        bail!("Fortran-ordered .npy arrays are not supported (save with C order)");
    }
    let shape = field("shape")?;
    let inside =
        shape.strip_prefix('(').and_then(|s| s.split(')').next()).context(".npy shape is not a tuple")?;
    let dims: Vec<usize> = inside
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<usize>().with_context(|| format!(".npy shape entry {s:?}")))
        .collect::<Result<_>>()?;
    let (rows, cols) = match dims[..] {
        [n] => (1, n),
        [r, c] => (r, c),
        _ => bail!(".npy array of shape {dims:?}: expected (dof,) or (n, dof)"),
    };
    let data = &bytes[start + header_len..];
    let count = rows.checked_mul(cols).context(".npy shape too large")?;
    if data.len() != count * width {
        bail!(".npy data has {} bytes, the shape needs {}", data.len(), count * width);
    }
    let value = |k: usize| -> f64 {
        let b = &data[k * width..(k + 1) * width];
        if width == 8 {
            f64::from_le_bytes(b.try_into().expect("8 bytes"))
        } else {
            f64::from(f32::from_le_bytes(b.try_into().expect("4 bytes")))
        }
    };
    Ok((0..rows).map(|r| (0..cols).map(|c| value(r * cols + c)).collect()).collect())
}
