//! `proxima bench-lcp`: the LCP benchmark harness's runner contract
//! (`../shared/bench/lcp/README.md`, "Runner command-line contract"; records per FORMAT.md).
//!
//! For every manifest (in order) and every problem in it (first `--limit`, skipping n >
//! `--max-n`): read M and q, let the solver prepare its input, then time `--repeat` solves in a
//! worker thread (median `time_ns`). A solve that exceeds `--timeout` is recorded `failed` and
//! its thread is left running detached. Residual measures are computed here, in f64, from the
//! returned z against M and q as read.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use proxima_cli_support::exit;
use proxima_cli_support::files;
use proxima_lcp::io::{
    CooMatrix, Manifest, ReadLimits, read_manifest, read_mtx_matrix, read_mtx_vector, write_mtx_array,
};
use proxima_lcp::registry::{self, NamedSolver, PreparedSolve, SolveOutcome, SolverSettings, SolverStatus};
use serde::Serialize;

/// Arguments of `proxima bench-lcp` (names and defaults as the harness's Python runners).
#[derive(Debug, Args)]
pub struct BenchLcpArgs {
    /// manifest.json of a problem family (repeatable).
    #[arg(long = "manifest", required = true)]
    pub manifests: Vec<PathBuf>,
    /// Solver name (e.g. `lemke`); records say `ours.<NAME>`.
    #[arg(long)]
    pub solver: String,
    /// Results file (JSON Lines).
    #[arg(long)]
    pub out: PathBuf,
    /// Convergence tolerance for iterative solvers (recorded; Lemke certifies its own answers).
    #[arg(long, default_value_t = 1e-6)]
    pub tol: f64,
    /// Iteration (pivot) limit; default: the solver's own.
    #[arg(long)]
    pub max_iter: Option<usize>,
    /// Skip problems with more variables (nothing is written for them).
    #[arg(long, default_value_t = 5000)]
    pub max_n: usize,
    /// Seconds per solve before it is recorded as failed.
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
    /// Solve each problem R times and report the median time.
    #[arg(long, default_value_t = 1)]
    pub repeat: usize,
    /// Only the first N problems of each manifest.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Append to --out instead of truncating it.
    #[arg(long)]
    pub append: bool,
    /// Write each returned z as `DIR/<problem>.z.mtx` (MatrixMarket array, bit-exact values) so
    /// the answers can be verified independently.
    #[arg(long, value_name = "DIR")]
    pub write_solutions: Option<PathBuf>,
}

/// One JSON Lines record (required fields first, then extras).
#[derive(Debug, Serialize)]
struct Record<'a> {
    problem: &'a str,
    family: &'a str,
    n: usize,
    solver: String,
    status: &'static str,
    iterations: Option<u64>,
    time_ns: Option<u64>,
    res_minmap_inf: Option<f64>,
    compl_abs: Option<f64>,
    min_z: Option<f64>,
    min_w: Option<f64>,
    library: &'static str,
    tol: f64,
    max_iter: Option<usize>,
    repeat: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    info: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// The four residual measures of the contract, `None` for NaN/inf (written as `null`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Measures {
    /// ‖min(z, Mz + q)‖∞.
    pub res_minmap_inf: Option<f64>,
    /// |zᵀ(Mz + q)|.
    pub compl_abs: Option<f64>,
    /// minᵢ zᵢ.
    pub min_z: Option<f64>,
    /// minᵢ (Mz + q)ᵢ.
    pub min_w: Option<f64>,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// The measures of z against M and q in f64; all `None` when z has the wrong length or a
/// non-finite entry (as the Python runners do).
pub fn measures(m: &CooMatrix<f64>, q: &[f64], z: &[f64]) -> Measures {
    if z.len() != q.len() || z.iter().any(|v| !v.is_finite()) {
        return Measures::default();
    }
    let Some(mut w) = m.mul_vec(z) else { return Measures::default() };
    for (wi, qi) in w.iter_mut().zip(q) {
        *wi += qi;
    }
    if z.is_empty() {
        return Measures {
            res_minmap_inf: Some(0.0),
            compl_abs: Some(0.0),
            min_z: Some(0.0),
            min_w: Some(0.0),
        };
    }
    let minmap = z.iter().zip(&w).map(|(a, b)| a.min(*b).abs()).fold(0.0f64, f64::max);
    let dot: f64 = z.iter().zip(&w).map(|(a, b)| a * b).sum();
    let min_z = z.iter().copied().fold(f64::INFINITY, f64::min);
    let min_w = w.iter().copied().fold(f64::INFINITY, f64::min);
    Measures {
        res_minmap_inf: finite(minmap),
        compl_abs: finite(dot.abs()),
        min_z: finite(min_z),
        min_w: finite(min_w),
    }
}

/// Writes z as `DIR/<problem>.z.mtx` (the problem name is sanitized to a file name).
fn write_solution(dir: &Path, problem: &str, z: &[f64], comment: &str) -> Result<()> {
    let safe: String = problem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' })
        .collect();
    let path = dir.join(format!("{safe}.z.mtx"));
    let mut text = Vec::new();
    write_mtx_array(&mut text, z.len(), 1, z, Some(comment))?;
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Median of durations in ns (mean of the two middle values for an even count).
fn median_ns(times: &mut [u128]) -> Option<u64> {
    if times.is_empty() {
        return None;
    }
    times.sort_unstable();
    let k = times.len() / 2;
    let m = if times.len() % 2 == 1 { times[k] } else { (times[k - 1] + times[k]) / 2 };
    Some(u64::try_from(m).unwrap_or(u64::MAX))
}

struct Job<'a> {
    manifest: &'a Manifest,
    dir: PathBuf,
    index: usize,
}

/// How a run of R timed solves ended.
struct RunResult {
    outcome: Option<SolveOutcome>,
    time_ns: Option<u64>,
    error: Option<String>,
}

fn run_solves(mut prepared: Box<dyn PreparedSolve>, repeat: usize, timeout: Duration) -> RunResult {
    let (tx, rx) = mpsc::channel::<(Result<SolveOutcome, String>, u128)>();
    let spawned = std::thread::Builder::new().name("bench-solve".into()).spawn(move || {
        for _ in 0..repeat {
            let start = Instant::now();
            let out = exit::catch(|| prepared.solve());
            let ns = start.elapsed().as_nanos();
            let failed = out.is_err();
            if tx.send((out, ns)).is_err() || failed {
                break;
            }
        }
    });
    if let Err(e) = spawned {
        return RunResult {
            outcome: None,
            time_ns: None,
            error: Some(format!("cannot start a solver thread: {e}")),
        };
    }
    let mut times = Vec::with_capacity(repeat);
    let mut last = None;
    for _ in 0..repeat {
        match rx.recv_timeout(timeout) {
            Ok((Ok(outcome), ns)) => {
                times.push(ns);
                last = Some(outcome);
            }
            Ok((Err(panic), _)) => {
                return RunResult {
                    outcome: None,
                    time_ns: None,
                    error: Some(format!("solver panicked: {panic}")),
                };
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                // The worker keeps running detached; its result is dropped.
                return RunResult {
                    outcome: None,
                    time_ns: None,
                    error: Some(format!("timeout after {} s", timeout.as_secs_f64())),
                };
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return RunResult { outcome: None, time_ns: None, error: Some("solver thread died".into()) };
            }
        }
    }
    RunResult { outcome: last, time_ns: median_ns(&mut times), error: None }
}

/// The solver and its settings (validated by the library), after the harness's own checks.
fn validate(args: &BenchLcpArgs) -> Result<(&'static dyn NamedSolver, SolverSettings)> {
    let solver = registry::find(&args.solver).ok_or_else(|| {
        anyhow!("unknown solver {:?}; known solvers: {}", args.solver, registry::known_described())
    })?;
    let settings = SolverSettings::default().with_tol(args.tol).with_max_iter(args.max_iter);
    settings.validate()?;
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        bail!("--timeout must be a positive number of seconds, got {}", args.timeout);
    }
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    Ok((solver, settings))
}

fn load_manifest(path: &Path) -> Result<(Manifest, PathBuf)> {
    let text = files::read_text(path)?;
    let manifest = read_manifest(&text).map_err(|e| anyhow!("{e} ({})", path.display()))?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    Ok((manifest, dir))
}

/// Reads M and q of a problem (f64, limits from --max-n).
fn load_problem(
    dir: &Path,
    m_name: &str,
    q_name: &str,
    n: usize,
    max_n: usize,
) -> Result<(CooMatrix<f64>, Vec<f64>)> {
    let (mp, qp) = (dir.join(m_name), dir.join(q_name));
    let m: CooMatrix<f64> =
        read_mtx_matrix(&files::read_text(&mp)?).map_err(|e| anyhow!("{e} ({})", mp.display()))?;
    let q: Vec<f64> = read_mtx_vector(&files::read_text(&qp)?, &ReadLimits::new(max_n.max(n)))
        .map_err(|e| anyhow!("{e} ({})", qp.display()))?;
    if m.nrows() != n || m.ncols() != n || q.len() != n {
        bail!(
            "problem sizes disagree: manifest n = {n}, M is {} x {}, q has {} entries ({})",
            m.nrows(),
            m.ncols(),
            q.len(),
            mp.display()
        );
    }
    Ok((m, q))
}

/// The index of a status in [`SolverStatus::ALL`] (the summary's counters).
fn slot(status: SolverStatus) -> usize {
    SolverStatus::ALL.iter().position(|&s| s == status).unwrap_or(2)
}

/// Runs `proxima bench-lcp`.
pub fn run(args: &BenchLcpArgs) -> Result<()> {
    let (solver, settings) = validate(args)?;
    let manifests: Vec<(Manifest, PathBuf)> =
        args.manifests.iter().map(|p| load_manifest(p)).collect::<Result<_>>()?;
    let jobs: Vec<Job<'_>> = manifests
        .iter()
        .flat_map(|(man, dir)| {
            let take = args.limit.unwrap_or(usize::MAX);
            man.problems
                .iter()
                .enumerate()
                .take(take)
                .filter(|(_, p)| p.n <= args.max_n)
                .map(move |(index, _)| Job { manifest: man, dir: dir.clone(), index })
        })
        .collect();

    let mut out = BufWriter::new(files::create_output(&args.out, args.append)?);

    if let Some(dir) = &args.write_solutions {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }

    let bar = ProgressBar::with_draw_target(Some(jobs.len() as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {wide_msg}") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(format!("bench-lcp ours.{}", solver.name()));

    let timeout = Duration::from_secs_f64(args.timeout);
    let mut counts = [0usize; 4];
    for job in &jobs {
        let p = &job.manifest.problems[job.index];
        bar.set_message(p.name.clone());
        let (m, q) = load_problem(&job.dir, &p.m, &p.q, p.n, args.max_n)?;
        let run = match exit::catch(|| solver.prepare(&m, &q, &settings)) {
            Ok(Ok(prepared)) => run_solves(prepared, args.repeat, timeout),
            Ok(Err(e)) => RunResult { outcome: None, time_ns: None, error: Some(format!("prepare: {e}")) },
            Err(panic) => {
                RunResult { outcome: None, time_ns: None, error: Some(format!("prepare panicked: {panic}")) }
            }
        };
        if let (Some(dir), Some(o)) = (&args.write_solutions, &run.outcome)
            && !o.z.is_empty()
        {
            write_solution(dir, &p.name, &o.z, &format!("ours.{} {}", solver.name(), o.status.as_str()))?;
        }
        let (status, iterations, meas, info, path, error, time_ns) = match run.outcome {
            Some(o) => {
                let meas = if o.z.is_empty() && o.error.is_some() {
                    Measures::default()
                } else {
                    measures(&m, &q, &o.z)
                };
                let time =
                    if o.status == SolverStatus::Failed && o.error.is_some() { None } else { run.time_ns };
                (o.status, o.iterations, meas, o.info, o.path, o.error, time)
            }
            None => (SolverStatus::Failed, None, Measures::default(), None, None, run.error, None),
        };
        counts[slot(status)] += 1;
        let record = Record {
            problem: &p.name,
            family: &job.manifest.family,
            n: p.n,
            solver: format!("ours.{}", solver.name()),
            status: status.as_str(),
            iterations,
            time_ns,
            res_minmap_inf: meas.res_minmap_inf,
            compl_abs: meas.compl_abs,
            min_z: meas.min_z,
            min_w: meas.min_w,
            library: "proxima",
            tol: args.tol,
            max_iter: args.max_iter,
            repeat: args.repeat,
            info,
            path,
            error: error.map(|e| exit::one_line(&e)),
        };
        serde_json::to_writer(&mut out, &record)?;
        out.write_all(b"\n")?;
        out.flush().with_context(|| format!("cannot write {}", args.out.display()))?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    eprintln!(
        "bench-lcp: {} problems with ours.{}: {} converged, {} max_iter, {} failed, {} no_solution -> {}",
        jobs.len(),
        solver.name(),
        counts[slot(SolverStatus::Converged)],
        counts[slot(SolverStatus::MaxIterations)],
        counts[slot(SolverStatus::Failed)],
        counts[slot(SolverStatus::NoSolution)],
        args.out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_follow_the_contract() {
        let m = CooMatrix::new(2, 2, vec![(0, 0, 2.0), (1, 1, 1.0)]).unwrap();
        let q = [-2.0, 1.0];
        let meas = measures(&m, &q, &[1.0, 0.0]);
        assert_eq!(
            meas,
            Measures { res_minmap_inf: Some(0.0), compl_abs: Some(0.0), min_z: Some(0.0), min_w: Some(0.0) }
        );
        let meas = measures(&m, &q, &[0.0, 0.0]);
        assert_eq!(meas.res_minmap_inf, Some(2.0));
        assert_eq!(meas.min_w, Some(-2.0));
        assert_eq!(measures(&m, &q, &[f64::NAN, 0.0]), Measures::default());
        assert_eq!(measures(&m, &q, &[1.0]), Measures::default());
    }

    #[test]
    fn median() {
        assert_eq!(median_ns(&mut []), None);
        assert_eq!(median_ns(&mut [5]), Some(5));
        assert_eq!(median_ns(&mut [9, 1, 5]), Some(5));
        assert_eq!(median_ns(&mut [4, 1, 2, 10]), Some(3));
    }
}
