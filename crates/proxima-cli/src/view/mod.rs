//! `proxima view`: a self-contained 3D page (see `proxima_viewer`) of one geometry query
//! (`--workload FILE --i K`), of a track of a workload (`--workload FILE --track T`), or of a
//! robot with joint sliders (`--urdf FILE`).

mod workload;

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use proxima_cli_support::workload as workload_file;

/// Arguments of `proxima view`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("input").required(true).args(["workload"]))]
pub struct ViewArgs {
    /// A geometry workload (JSON, `../shared/bench/geometry/FORMAT.md`).
    #[arg(long)]
    pub workload: Option<PathBuf>,
    /// Which query of the workload to show (0-based).
    #[arg(long = "i", value_name = "K", default_value_t = 0, conflicts_with = "track")]
    pub index: usize,
    /// Replay this track of the workload (0-based) instead of a query.
    #[arg(long, value_name = "T")]
    pub track: Option<usize>,
    /// The page to write (HTML).
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs `proxima view`.
pub fn run(args: &ViewArgs) -> Result<()> {
    let Some(path) = &args.workload else { bail!("give --workload FILE") };
    let w = workload_file::load(path)?;
    let page = match args.track {
        Some(t) => workload::track_page(&w, t)?,
        None => workload::query_page(&w, args.index)?,
    };
    let html = proxima_viewer::render(&page)?;
    std::fs::write(&args.out, html).with_context(|| format!("writing {}", args.out.display()))?;
    println!("{}", args.out.display());
    Ok(())
}
