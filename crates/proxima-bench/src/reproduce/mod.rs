//! `proxima reproduce <experiment>`: a spec's experiments regenerated end to end, as SVG
//! figures and a Markdown report that puts our numbers beside the spec's.
//!
//! | experiment | spec | module |
//! |---|---|---|
//! | `lcp-methods` | lcp-methods.md §7: convergence, strategies, PSOR sweep, timing, robustness, iteration statistics, warm start, zero eigenvalues | [`lcp_methods`] |
//! | `ellipsoids` | ellipsoid-distance.md Table 5.2: every method at separations 5 … 0.001, plus the harness workload against an independent oracle | [`ellipsoids`] |
//! | `dqp3` | dqp3-polyhedra-distance.md: time vs facet count, cold vs tracking, the tracking-steps crossover | [`dqp3`] |

pub mod dqp3;
pub mod ellipsoids;
pub mod lcp_methods;

use anyhow::Result;
use clap::{Args, Subcommand};

/// Arguments of `proxima reproduce`: which experiment, and its own arguments.
#[derive(Debug, Args)]
pub struct ReproduceArgs {
    /// The experiment.
    #[command(subcommand)]
    pub experiment: Experiment,
}

/// The experiments `proxima reproduce` regenerates.
#[derive(Debug, Subcommand)]
pub enum Experiment {
    /// LCP methods for physics (spec lcp-methods.md §7): convergence, strategies, PSOR sweep,
    /// timing, robustness, iteration statistics, warm start, zero eigenvalues.
    LcpMethods(lcp_methods::LcpMethodsArgs),
    /// Ellipsoid distance (spec ellipsoid-distance.md Table 5.2): every method at separations
    /// 5 … 0.001, plus the harness workload against an independent oracle.
    Ellipsoids(ellipsoids::EllipsoidsArgs),
    /// DQP3 (spec dqp3-polyhedra-distance.md): time vs facet count, cold vs tracking, the
    /// tracking-steps crossover, the flat tracking curve with adjacency.
    Dqp3(dqp3::Dqp3Args),
}

/// Runs `proxima reproduce`.
pub fn run(args: &ReproduceArgs) -> Result<()> {
    match &args.experiment {
        Experiment::LcpMethods(a) => lcp_methods::run(a),
        Experiment::Ellipsoids(a) => ellipsoids::run(a),
        Experiment::Dqp3(a) => dqp3::run(a),
    }
}
