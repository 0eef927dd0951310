//! `proxima bench-geometry`: the geometry benchmark harness's runner contract
//! (`../shared/bench/geometry/README.md`, "Contract for a third runner"; records per FORMAT.md).
//!
//! Per variant: one untimed pass computes the values written (and finds the pairs the library
//! cannot handle: `"distance":null,"skipped":true`, left out of timing); then each section
//! (`queries`: cold distance; `collide`: `intersects`; `track_cold`: every track step, no warm
//! start; `track_warm`: every track step through `distance_tracked` with one GJK cache per track,
//! reset at the track's start) runs one untimed warm-up pass and `--repeat` timed passes over
//! its supported items, single thread, wall clock, library call only (shapes, poses and caches
//! built before timing; no allocation per query). The track sections then run a second set
//! of passes (warm-up + `--repeat`) timing every step on its own: `step_ns_mean` and
//! `step_ns_median` over all those step times, net of `timer_overhead_ns` (the median cost of
//! an empty timer pair, subtracted), so a per-step criterion ("warm median per step ≤ ½ cold")
//! is read directly.
//!
//! Records: `signed_distance` is the distance, or minus the penetration depth when the shapes
//! overlap (from the distance answer when it carries the depth, else from `signed_distance`
//! in the untimed pass). Track records come from the warm-started pass.
//!
//! | file | job |
//! |---|---|
//! | `variants.rs` | the variant table: name → settings and runner |
//! | `run_dispatch.rs` | variants answered through the library's query API |
//! | `run_dqp3.rs` | the `dqp3` variant (facet forms built once, trackers) |
//! | `records.rs` | timing and result records, output order |

mod records;
mod run_dispatch;
mod run_dqp3;
mod variants;

use std::io::{BufWriter, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use proxima_cli_support::files;
use proxima_cli_support::workload;
use serde::Serialize;

pub use variants::{Runner, VARIANTS, Variant, variant};

use crate::timing::utc_date;

/// Arguments of `proxima bench-geometry` (names as the harness's other runners).
#[derive(Debug, Args)]
pub struct BenchGeometryArgs {
    /// Workload file (JSON, shared/bench/geometry/FORMAT.md).
    #[arg(long)]
    pub workload: PathBuf,
    /// Timed passes per section (after one untimed warm-up pass).
    #[arg(long, default_value_t = 10)]
    pub repeat: usize,
    /// Results file (JSON Lines).
    #[arg(long)]
    pub out: PathBuf,
    /// Comma-separated configurations: default (auto, certified), float (auto, f64 only),
    /// exact (auto, exact arithmetic), lcp (LCP, certified), lcp_float (LCP, f64 only),
    /// gjk (GJK forced), nesterov / polyak (GJK forced with that acceleration), ellipsoid
    /// (the ellipsoid solvers), dqp3 (DQP3 on facet forms built once).
    #[arg(long, default_value = "default", value_delimiter = ',')]
    pub variants: Vec<String>,
}

/// The meta record (first line).
#[derive(Debug, Serialize)]
struct Meta<'a> {
    kind: &'static str,
    runner: &'static str,
    library_version: &'static str,
    workload: &'a str,
    num_queries: usize,
    num_tracks: usize,
    steps: usize,
    repeat: usize,
    variants: Vec<&'a str>,
    date: String,
    signed: bool,
    witness_frame: &'static str,
    /// Timed sections written per variant.
    sections: Vec<&'static str>,
}

/// Runs `proxima bench-geometry`.
pub fn run(args: &BenchGeometryArgs) -> Result<()> {
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    let known: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
    let variants: Vec<&Variant> =
        crate::variants::select(&args.variants, &known, variant)?.into_iter().map(|(_, v)| v).collect();
    let w = workload::load(&args.workload)?;
    let mut out = BufWriter::new(files::create_output(&args.out, false)?);
    let meta = Meta {
        kind: "meta",
        runner: "proxima",
        library_version: env!("CARGO_PKG_VERSION"),
        workload: &w.name,
        num_queries: w.queries.len(),
        num_tracks: w.tracks.len(),
        steps: w.steps(),
        repeat: args.repeat,
        variants: variants.iter().map(|v| v.name).collect(),
        date: utc_date(),
        signed: true,
        witness_frame: "world",
        sections: ["queries", "collide", "track_cold", "track_warm"]
            .into_iter()
            .filter(|s| match *s {
                "collide" => !w.queries.is_empty(),
                "track_cold" | "track_warm" => !w.tracks.is_empty(),
                _ => true,
            })
            .collect(),
    };
    serde_json::to_writer(&mut out, &meta)?;
    writeln!(out)?;
    for v in &variants {
        let lines = match v.runner {
            Runner::Dispatch => run_dispatch::run_variant(&w, v.name, &v.settings(), args.repeat)?,
            Runner::Dqp3 => run_dqp3::run_variant(&w, args.repeat)?,
        };
        for rec in lines {
            writeln!(out, "{rec}")?;
        }
    }
    out.flush().with_context(|| format!("cannot write {}", args.out.display()))?;
    Ok(())
}
