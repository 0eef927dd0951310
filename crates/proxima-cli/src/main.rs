//! `proxima`: the command-line tool of the Proxima workspace.
//!
//! ```text
//! proxima solve FILE [--method lemke] [--exact] [--format text|json]
//! proxima solve --matrix M.mtx --vector q.mtx [--exact] [--format text|json]
//! proxima bench-lcp --manifest FILE [--manifest FILE ...] --solver lemke --out RESULTS [...]
//! proxima demo [--format text|json] [--siconos-dir DIR]
//! proxima query FILE [--op distance|intersects] [--algorithm auto|closed_form|lcp]
//!               [--arithmetic certified|float|exact] [--format jsonl|text]
//! proxima bench-geometry --workload FILE --repeat R --out RESULTS.jsonl [--variants default,float]
//! proxima reproduce dqp3 --out DIR [--trajectories N]
//! ```
//!
//! Exit codes: 0 when the command ran (a problem without a solution is a result, not an error);
//! 2 for bad arguments or bad input (missing file, malformed data, NaN, mismatched sizes), with
//! one line `error: ...` on stderr; 3 for an internal error (a panic, reported on one line).

mod bench_geometry;
mod bench_lcp;
mod common;
mod demo;
mod query;
mod reproduce_dqp3;
mod solve;
mod solvers;
mod workload;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exact and floating-point LCP / convex QP solving from the command line.
#[derive(Debug, Parser)]
#[command(name = "proxima", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve one LCP or QP: a JSON problem file, a Siconos .dat file, or a MatrixMarket pair.
    Solve(solve::SolveArgs),
    /// Run a solver over benchmark manifests and write JSON Lines results (harness contract).
    BenchLcp(bench_lcp::BenchArgs),
    /// Run the reference's worked examples, the Siconos LCP test problems and the geometric
    /// listings (box-box certificate, listings 4, 8, 9); print tables.
    Demo(demo::DemoArgs),
    /// Distance or intersection for every query of a geometry workload file (JSON Lines).
    Query(query::QueryArgs),
    /// Time the geometry queries of a workload file and write JSON Lines results (harness contract).
    BenchGeometry(bench_geometry::BenchGeometryArgs),
    /// Reproduce a spec's published results as SVG plots and a Markdown report.
    Reproduce(ReproduceArgs),
}

/// `proxima reproduce TARGET --out DIR`.
#[derive(Debug, clap::Args)]
struct ReproduceArgs {
    /// What to reproduce.
    target: ReproduceTarget,
    /// Output directory (created if missing).
    #[arg(long)]
    out: std::path::PathBuf,
    /// Trajectories per size (DQP3: spec §7.2 protocol, 100 steps each).
    #[arg(long, default_value_t = 100)]
    trajectories: usize,
}

/// Reproduction targets.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ReproduceTarget {
    /// DQP3 (spec dqp3-polyhedra-distance.md): time vs facets, cold vs tracking, crossover.
    Dqp3,
}

fn main() -> ExitCode {
    common::install_panic_hook();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with exit 0; usage errors exit 2.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = std::panic::catch_unwind(|| match cli.command {
        Command::Solve(args) => solve::run(&args),
        Command::BenchLcp(args) => bench_lcp::run(&args),
        Command::Demo(args) => demo::run(&args),
        Command::Query(args) => query::run(&args),
        Command::BenchGeometry(args) => bench_geometry::run(&args),
        Command::Reproduce(args) => match args.target {
            ReproduceTarget::Dqp3 => reproduce_dqp3::run(&args.out, args.trajectories),
        },
    });
    match result {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            if let Some(internal) = e.downcast_ref::<common::Internal>() {
                eprintln!("error: internal error: {}", common::one_line(&internal.0));
                return ExitCode::from(3);
            }
            eprintln!("error: {}", common::one_line(&format!("{e:#}")));
            ExitCode::from(2)
        }
        Err(_) => {
            let msg = common::take_panic_message().unwrap_or_else(|| "panic".to_string());
            eprintln!("error: internal error: {}", common::one_line(&msg));
            ExitCode::from(3)
        }
    }
}
