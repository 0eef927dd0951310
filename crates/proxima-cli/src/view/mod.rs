//! `proxima view`: a self-contained 3D page (see `proxima_viewer`) of one geometry query
//! (`--workload FILE --i K`), of a track of a workload (`--workload FILE --track T`), of one
//! query of a CCD workload (the same options on a file whose queries have `a0, a1, b0, b1`:
//! the swept motion and the impact), or of a robot with joint sliders
//! (`--urdf FILE [--srdf FILE] [--package-dir DIR]...`).

mod robot;
mod sweep;
mod workload;

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use proxima_cli_support::{ccd_workload, files, workload as workload_file};
use serde_json::Value;

/// Arguments of `proxima view`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("input").required(true).args(["workload", "urdf"]))]
pub struct ViewArgs {
    /// A geometry workload (JSON, `../shared/bench/geometry/FORMAT.md`) or a CCD workload
    /// (`../shared/bench/ccd/FORMAT.md`: queries with `a0, a1, b0, b1`).
    #[arg(long)]
    pub workload: Option<PathBuf>,
    /// Which query of the workload to show (0-based).
    #[arg(long = "i", value_name = "K", default_value_t = 0, conflicts_with_all = ["track", "urdf"])]
    pub index: usize,
    /// Replay this track of the workload (0-based) instead of a query.
    #[arg(long, value_name = "T", conflicts_with = "urdf")]
    pub track: Option<usize>,
    /// A robot description (URDF): the robot with a slider per joint.
    #[arg(long, conflicts_with = "workload")]
    pub urdf: Option<PathBuf>,
    /// With --urdf: an SRDF whose disable_collisions pairs are not monitored.
    #[arg(long, conflicts_with = "workload")]
    pub srdf: Option<PathBuf>,
    /// With --urdf: a directory searched for package:// mesh URIs (repeatable).
    #[arg(long = "package-dir", conflicts_with = "workload")]
    pub package_dirs: Vec<PathBuf>,
    /// With --urdf: the safety margin (m) under which pairs are highlighted.
    #[arg(long, default_value_t = 0.02, conflicts_with = "workload", allow_negative_numbers = true)]
    pub margin: f64,
    /// The page to write (HTML).
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs `proxima view`.
pub fn run(args: &ViewArgs) -> Result<()> {
    let page = match (&args.workload, &args.urdf) {
        (Some(path), _) => match files::parse_file(path, read_workload)? {
            Workload::Ccd(w) => {
                if args.track.is_some() {
                    bail!("--track: a CCD workload has no tracks ({})", path.display());
                }
                sweep::sweep_page(&w, args.index)?
            }
            Workload::Geometry(w) => match args.track {
                Some(t) => workload::track_page(&w, t)?,
                None => workload::query_page(&w, args.index)?,
            },
        },
        (None, Some(urdf)) => {
            if !(args.margin.is_finite() && args.margin >= 0.0) {
                bail!("--margin {}: must be a finite number >= 0", args.margin);
            }
            robot::robot_page(urdf, args.srdf.as_deref(), &args.package_dirs, args.margin)?
        }
        (None, None) => bail!("give --workload FILE or --urdf FILE"),
    };
    let html = proxima_viewer::render(&page)?;
    std::fs::write(&args.out, html).with_context(|| format!("writing {}", args.out.display()))?;
    println!("{}", args.out.display());
    Ok(())
}

/// A workload of either format.
enum Workload {
    Geometry(workload_file::Workload),
    Ccd(ccd_workload::CcdWorkload),
}

/// A CCD workload's queries carry `a0`; anything else is read as a geometry workload (whose
/// errors then say what is wrong).
fn read_workload(text: &str, stem: &str) -> Result<Workload> {
    let is_ccd = serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| v.get("queries")?.as_array()?.first()?.get("a0").map(|_| ()))
        .is_some();
    Ok(if is_ccd {
        Workload::Ccd(ccd_workload::parse(text, stem)?)
    } else {
        Workload::Geometry(workload_file::parse(text, stem)?)
    })
}
