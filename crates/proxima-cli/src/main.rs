//! `proxima`: the command-line tool of the Proxima workspace.
//!
//! ```text
//! user commands (this crate)
//! proxima solve FILE [--method lemke] [--exact] [--format text|json]
//! proxima solve --matrix M.mtx --vector q.mtx [--exact] [--format text|json]
//! proxima query FILE [--op distance|intersects|toi] [--algorithm auto|closed_form|lcp|...]
//!               [--arithmetic certified|float|exact] [--format jsonl|text]
//! proxima demo [--out DIR] [--format text|json] [--scene FILE] [--cycles N] [--scale-cycles N]
//!              [--suite all|workcell|reference] [--siconos-dir DIR]
//! proxima check --urdf FILE [--srdf FILE] [--package-dir DIR]... (--q "q1,q2,..." | --configs FILE.csv|FILE.npy)
//!               [--all-pairs] [--clamp] [--fail-on-collision] [--format text|json]
//! proxima batch --urdf FILE [--srdf FILE] [--package-dir DIR]... --configs FILE.npy|FILE.csv
//!               --out FILE.npy|FILE.npz|FILE.csv [--threads N] [--mode distance|all-pairs|collision]
//!               [--margin M] [--chunk-size N] [--clamp] [--fresh]
//! proxima view --workload FILE (--i K | --track T) --out PAGE.html   (geometry or CCD workload)
//! proxima view --urdf FILE [--srdf FILE] [--package-dir DIR]... [--margin M] --out PAGE.html
//! proxima completions bash|zsh|fish|elvish|powershell
//!
//! the lab (proxima-bench): harness runners and experiment reproductions
//! proxima bench-geometry --workload FILE --repeat R --out RESULTS.jsonl [--variants default,float]
//! proxima bench-ccd --workload FILE --repeat R --out RESULTS.jsonl [--variants default,no_depth]
//! proxima bench-lcp --manifest FILE [--manifest FILE ...] --solver lemke --out RESULTS [...]
//! proxima bench-robot --workload FILE --repeat R --out RESULTS.jsonl [--all-pairs] [--warm-start]
//! proxima reproduce lcp-methods --out DIR [--count 100] [--seed 1] [--quick]
//! proxima reproduce ellipsoids --out DIR
//! proxima reproduce dqp3 --out DIR [--trajectories N]
//! ```
//!
//! Each command is a module (`solve.rs`, ...; the lab's in `proxima-bench`) exposing
//! `<Cmd>Args` (clap) and `run(&args) -> anyhow::Result<()>`; this file only lists them.
//! Exit codes ([`proxima_cli_support::exit`]): 0 when the command ran (a problem without a
//! solution is a result, not an error); 1 when a run completed with a finding its options make
//! a failure (`check --fail-on-collision`); 2 for bad arguments or bad input, with one line
//! `error: ...` on stderr; 3 for an internal error (a panic, reported on one line).

mod batch;
mod check;
mod completions;
mod configs;
mod demo;
mod demo_page;
mod npy;
mod query;
mod query_toi;
mod scalar;
mod siconos_data;
mod solve;
mod view;
mod workcell_demo;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use proxima_bench::{bench_ccd, bench_geometry, bench_lcp, bench_robot, reproduce};
use proxima_cli_support::exit;

/// Certified convex proximity queries (distance with a proven [lower, upper] bracket,
/// intersection, tracking), LCP / convex QP solving (exact or f64), robot workcell monitoring,
/// and the benchmark harness runners.
#[derive(Debug, Parser)]
#[command(name = "proxima", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve one LCP or QP (JSON, Siconos .dat, MatrixMarket pair): certified residuals, exact on request.
    Solve(solve::SolveArgs),
    /// Certified distance or intersection for every query of a geometry workload, or the time of
    /// impact for every query of a CCD workload (`--op toi`), as JSON Lines.
    Query(query::QueryArgs),
    /// The main job: a robot workcell monitored at 1 kHz, then the reference listings.
    ///
    /// Suite `workcell`: every cycle's minimum distance by triage scheduling, a brute-force
    /// cross-check, cycle-time statistics against the 1 ms budget, SVG plots. Suite
    /// `reference`: the reference's worked examples, the Siconos LCP test problems and the
    /// geometric listings.
    Demo(demo::DemoArgs),
    /// Certified self-distances of a robot (URDF + meshes, optional SRDF) for one configuration
    /// or a CSV / .npy file of them.
    Check(check::CheckArgs),
    /// Certified self-distances or collision verdicts for a file of configurations on every core:
    /// progress bar, .npy / .npz / .csv output, resumable after a kill.
    Batch(batch::BatchArgs),
    /// Write a self-contained 3D page (no network): a geometry or CCD query, a workload track, or
    /// a robot with joint sliders.
    View(view::ViewArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    Completions(completions::CompletionsArgs),
    /// Benchmark harness: time the geometry queries of a workload and write JSON Lines results.
    BenchGeometry(bench_geometry::BenchGeometryArgs),
    /// Benchmark harness: the certified time of impact of every query of a CCD workload, timed,
    /// as JSON Lines results.
    BenchCcd(bench_ccd::BenchCcdArgs),
    /// Benchmark harness: run an LCP solver over problem manifests and write JSON Lines results.
    BenchLcp(bench_lcp::BenchLcpArgs),
    /// Benchmark harness: time a robot's certified distances and collision verdicts over a robot
    /// workload and write JSON Lines results (compared with Pinocchio + coal).
    BenchRobot(bench_robot::BenchRobotArgs),
    /// Regenerate a spec's experiments end to end: SVG figures and a Markdown report beside the
    /// spec's numbers.
    Reproduce(reproduce::ReproduceArgs),
}

fn main() -> ExitCode {
    exit::install_panic_hook();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with exit 0; usage errors exit 2.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    exit::run_command(|| match &cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Query(args) => query::run(args),
        Command::Demo(args) => demo::run(args),
        Command::View(args) => view::run(args),
        Command::Check(args) => check::run(args),
        Command::Batch(args) => batch::run(args),
        Command::Completions(args) => completions::run::<Cli>(args),
        Command::BenchGeometry(args) => bench_geometry::run(args),
        Command::BenchCcd(args) => bench_ccd::run(args),
        Command::BenchLcp(args) => bench_lcp::run(args),
        Command::BenchRobot(args) => bench_robot::run(args),
        Command::Reproduce(args) => reproduce::run(args),
    })
}
