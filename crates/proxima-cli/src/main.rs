//! `proxima`: the command-line tool of the Proxima workspace.
//!
//! ```text
//! proxima solve FILE [--method lemke] [--exact] [--format text|json]
//! proxima solve --matrix M.mtx --vector q.mtx [--exact] [--format text|json]
//! proxima bench-lcp --manifest FILE [--manifest FILE ...] --solver lemke --out RESULTS [...]
//! proxima demo [--out DIR] [--format text|json] [--scene FILE] [--cycles N] [--scale-cycles N]
//!              [--suite all|workcell|reference] [--siconos-dir DIR]
//! proxima check --urdf FILE [--srdf FILE] [--package-dir DIR]... (--q "q1,q2,..." | --configs FILE.csv|FILE.npy)
//!               [--all-pairs] [--clamp] [--fail-on-collision] [--format text|json]
//! proxima query FILE [--op distance|intersects] [--algorithm auto|closed_form|lcp]
//!               [--arithmetic certified|float|exact] [--format jsonl|text]
//! proxima bench-geometry --workload FILE --repeat R --out RESULTS.jsonl [--variants default,float]
//! proxima bench-robot --workload FILE --repeat R --out RESULTS.jsonl [--all-pairs]
//! proxima reproduce lcp-methods --out DIR [--count 100] [--seed 1] [--quick]
//! proxima reproduce ellipsoids --out DIR
//! proxima reproduce dqp3 --out DIR [--trajectories N]
//! ```
//!
//! Exit codes: 0 when the command ran (a problem without a solution is a result, not an error;
//! `check --fail-on-collision` exits 1 when a configuration is in collision);
//! 2 for bad arguments or bad input (missing file, malformed data, NaN, mismatched sizes), with
//! one line `error: ...` on stderr; 3 for an internal error (a panic, reported on one line).

mod bench_dqp3;
mod bench_geometry;
mod bench_lcp;
mod bench_robot;
mod check;
mod common;
mod demo;
mod plot;
mod query;
mod reproduce_dqp3;
mod reproduce_ellipsoids;
mod reproduce_lcp;
mod solve;
mod solvers;
mod workcell_demo;
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
    /// The main job: a robot workcell monitored every 1 kHz cycle (triage scheduling, brute-force
    /// cross-check, cycle-time statistics, SVG plots), then the reference's worked examples, the
    /// Siconos LCP test problems and the geometric listings.
    Demo(demo::DemoArgs),
    /// Certified self-distances of a robot (URDF + meshes, optional SRDF) for one configuration
    /// or a CSV / .npy file of them.
    Check(check::CheckArgs),
    /// Distance or intersection for every query of a geometry workload file (JSON Lines).
    Query(query::QueryArgs),
    /// Time the geometry queries of a workload file and write JSON Lines results (harness contract).
    BenchGeometry(bench_geometry::BenchGeometryArgs),
    /// Time robot distance and collision queries over a robot workload and write JSON Lines
    /// results (harness contract, shared/bench/robot).
    BenchRobot(bench_robot::BenchRobotArgs),
    /// Regenerate a spec's experiments end to end: SVG figures and a Markdown report beside the
    /// spec's numbers.
    #[command(subcommand)]
    Reproduce(Reproduce),
}

/// The experiments `proxima reproduce` regenerates.
#[derive(Debug, Subcommand)]
enum Reproduce {
    /// LCP methods for physics (spec lcp-methods.md §7): convergence, strategies, PSOR sweep,
    /// timing, robustness, iteration statistics, warm start, zero eigenvalues.
    LcpMethods(reproduce_lcp::LcpMethodsArgs),
    /// Ellipsoid distance (spec ellipsoid-distance.md Table 5.2): every method at separations
    /// 5 … 0.001, plus the harness workload against an independent oracle.
    Ellipsoids(OutArgs),
    /// DQP3 (spec dqp3-polyhedra-distance.md): time vs facet count, cold vs tracking, the
    /// tracking-steps crossover, the flat tracking curve with adjacency.
    Dqp3(Dqp3Args),
}

/// Arguments of `proxima reproduce dqp3`.
#[derive(Debug, clap::Args)]
struct Dqp3Args {
    /// Output directory (created if missing).
    #[arg(long)]
    out: std::path::PathBuf,
    /// Trajectories per size (spec §7.2 protocol, 100 steps each).
    #[arg(long, default_value_t = 100)]
    trajectories: usize,
}

/// A target that only needs an output directory.
#[derive(Debug, clap::Args)]
struct OutArgs {
    /// Output directory (created if missing).
    #[arg(long)]
    out: std::path::PathBuf,
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
        Command::Check(args) => check::run(&args),
        Command::Query(args) => query::run(&args),
        Command::BenchGeometry(args) => bench_geometry::run(&args),
        Command::BenchRobot(args) => bench_robot::run(&args),
        Command::Reproduce(Reproduce::LcpMethods(args)) => reproduce_lcp::run_lcp_methods(&args),
        Command::Reproduce(Reproduce::Ellipsoids(args)) => reproduce_ellipsoids::run(&args.out),
        Command::Reproduce(Reproduce::Dqp3(args)) => reproduce_dqp3::run(&args.out, args.trajectories),
    });
    match result {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            if let Some(found) = e.downcast_ref::<check::CollisionFound>() {
                eprintln!("{found}");
                return ExitCode::from(1);
            }
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
