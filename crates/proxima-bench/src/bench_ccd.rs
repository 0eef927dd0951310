//! `proxima bench-ccd`: the CCD harness's runner contract (`../shared/bench/ccd/README.md`,
//! records per its FORMAT.md).
//!
//! For every query of a CCD workload: the certified time of impact under the format's motion
//! model (both shapes on `RigidMotion::from_poses`, the workload's margin), cold. Output: the
//! meta record, one query record per query and variant (`toi` = the conservative end t_safe of
//! the proven bracket, `null` for a proven miss; witnesses and normal at the hit; extras:
//! `t_hit`, `outcome`, `status`, `iterations`, `distance_queries`, and `ns`, the query's own
//! time in the untimed first pass, indicative only), and one timing record per variant (one
//! untimed warm-up pass, then `--repeat` timed passes over all queries in file order; what is
//! timed is everything from the four poses to the answer, motion set-up included; parsing and
//! shape construction are not).
//!
//! Every pair of bounded shapes is supported, so no query is `skipped`. A search that ends
//! undecided (step cap) is written with its conservative time (contact right after t_safe is
//! not excluded) and its `status`; a query the library rejects is an error of the run (exit 2),
//! never a silent null.
//!
//! Variants: `default` (library defaults: an initial contact's penetration depth measured by
//! EPA) and `no_depth` (initial contacts reported without their depth, the time only).

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use proxima_cli_support::ccd_workload::{self, CcdWorkload};
use proxima_cli_support::files;
use proxima_cli_support::outcome::xyz;
use proxima_geom::{ToiOutcome, ToiResult, ToiSettings};
use serde::Serialize;

use crate::timing::{median, time_passes, utc_date};

/// Arguments of `proxima bench-ccd` (names as the harness's other runners).
#[derive(Debug, Args)]
pub struct BenchCcdArgs {
    /// CCD workload file (JSON, shared/bench/ccd/FORMAT.md).
    #[arg(long)]
    pub workload: PathBuf,
    /// Timed passes over all queries (after one untimed warm-up pass).
    #[arg(long, default_value_t = 5)]
    pub repeat: usize,
    /// Result file (JSON Lines).
    #[arg(long)]
    pub out: PathBuf,
    /// Comma-separated configurations: `default` (library defaults: an initial contact's
    /// penetration depth measured), `no_depth` (initial contacts without their depth).
    #[arg(long, value_delimiter = ',', default_value = "default")]
    pub variants: Vec<String>,
}

/// The variants `--variants` knows.
pub const VARIANTS: [&str; 2] = ["default", "no_depth"];

/// The settings of every query of `w` under a variant (`None`: unknown variant).
pub fn variant_settings(w: &CcdWorkload, variant: &str) -> Option<ToiSettings> {
    match variant {
        "default" => Some(w.settings()),
        "no_depth" => Some(w.settings().with_initial_depth(false)),
        _ => None,
    }
}

/// The meta record (first line).
#[derive(Debug, Serialize)]
struct Meta<'a> {
    kind: &'static str,
    runner: &'static str,
    library_version: &'static str,
    workload: &'a str,
    num_queries: usize,
    repeat: usize,
    variants: Vec<&'a str>,
    margin: f64,
    date: String,
}

/// One query record.
#[derive(Debug, Serialize)]
struct QueryRecord<'a> {
    kind: &'static str,
    variant: &'a str,
    i: usize,
    toi: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    t_hit: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    p_a: Option<[f64; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    p_b: Option<[f64; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    normal: Option<[f64; 3]>,
    outcome: &'static str,
    status: &'static str,
    iterations: u32,
    distance_queries: u32,
    ns: u64,
}

/// The timing record of a variant (FORMAT.md).
#[derive(Debug, Serialize)]
struct TimingRecord<'a> {
    kind: &'static str,
    section: &'static str,
    variant: &'a str,
    n: usize,
    repeat: usize,
    total_ns: Vec<u64>,
    ns_per_query_min: Option<f64>,
    ns_per_query_median: Option<f64>,
}

fn record<'a>(variant: &'a str, i: usize, r: &ToiResult, ns: u64) -> QueryRecord<'a> {
    let (t_hit, p_a, p_b, normal) = match r.outcome {
        ToiOutcome::Hit(h) => {
            (Some(h.t_hit), Some(xyz(&h.point_a)), Some(xyz(&h.point_b)), Some(h.normal.into()))
        }
        ToiOutcome::InitialContact(c) => {
            let (pa, pb) = c.points.map_or((None, None), |(a, b)| (Some(xyz(&a)), Some(xyz(&b))));
            (Some(c.time), pa, pb, c.normal.map(Into::into))
        }
        ToiOutcome::Miss(_) | ToiOutcome::Undecided(_) => (None, None, None, None),
    };
    QueryRecord {
        kind: "query",
        variant,
        i,
        toi: r.toi(),
        t_hit,
        p_a,
        p_b,
        normal,
        outcome: r.outcome.as_str(),
        status: r.status.as_str(),
        iterations: r.iterations,
        distance_queries: r.distance_queries,
        ns,
    }
}

/// Runs `proxima bench-ccd`.
pub fn run(args: &BenchCcdArgs) -> Result<()> {
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    let w = ccd_workload::load(&args.workload)?;
    let variants = crate::variants::select(&args.variants, &VARIANTS, |v| variant_settings(&w, v))?;
    let mut out = BufWriter::new(files::create_output(&args.out, false)?);
    let meta = Meta {
        kind: "meta",
        runner: "proxima",
        library_version: env!("CARGO_PKG_VERSION"),
        workload: &w.name,
        num_queries: w.queries.len(),
        repeat: args.repeat,
        variants: variants.iter().map(|(n, _)| n.as_str()).collect(),
        margin: w.margin,
        date: utc_date(),
    };
    serde_json::to_writer(&mut out, &meta)?;
    writeln!(out)?;
    for (variant, settings) in &variants {
        run_variant(&w, variant, settings, args.repeat, &mut out)?;
    }
    out.flush().with_context(|| format!("cannot write {}", args.out.display()))?;
    Ok(())
}

/// One variant: the answers (first pass, each query timed alone), then the timed passes.
fn run_variant(
    w: &CcdWorkload,
    variant: &str,
    settings: &ToiSettings,
    repeat: usize,
    out: &mut impl Write,
) -> Result<()> {
    let mut results = Vec::with_capacity(w.queries.len());
    for (i, q) in w.queries.iter().enumerate() {
        let start = Instant::now();
        let r = w.time_of_impact(q, settings).with_context(|| format!("queries[{i}]"))?;
        results.push((r, u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX)));
    }
    let mut sink = 0.0;
    let total_ns = time_passes(repeat, || {
        for q in &w.queries {
            if let Ok(r) = w.time_of_impact(q, settings) {
                sink += r.toi().unwrap_or(0.0);
            }
        }
    });
    std::hint::black_box(sink);
    for (i, (r, ns)) in results.iter().enumerate() {
        serde_json::to_writer(&mut *out, &record(variant, i, r, *ns))?;
        writeln!(out)?;
    }
    let n = w.queries.len();
    let per: Vec<f64> =
        if n == 0 { Vec::new() } else { total_ns.iter().map(|&t| t as f64 / n as f64).collect() };
    let timing = TimingRecord {
        kind: "timing",
        section: "toi",
        variant,
        n,
        repeat,
        ns_per_query_min: per.iter().copied().reduce(f64::min),
        ns_per_query_median: median(per),
        total_ns,
    };
    serde_json::to_writer(&mut *out, &timing)?;
    writeln!(out)?;
    let undecided = results.iter().filter(|(r, _)| matches!(r.outcome, ToiOutcome::Undecided(_))).count();
    let f = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.1}"));
    eprintln!(
        "proxima {:<16} toi {variant:<9} n {n:5} undecided {undecided}  min {:>10} ns  med {:>10} ns",
        w.name,
        f(timing.ns_per_query_min),
        f(timing.ns_per_query_median),
    );
    Ok(())
}
