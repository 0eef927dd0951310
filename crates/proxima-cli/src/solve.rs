//! `proxima solve`: one LCP or QP from a file, solved with Lemke's method.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use clap::{ArgGroup, Args, ValueEnum};
use proxima_lcp::io::{
    CooMatrix, IoError, ProblemFile, ReadLimits, lcp_from_coo, read_json_problem_with, read_mtx_matrix,
    read_mtx_vector, read_siconos_lcp_with,
};
use proxima_lcp::{
    Lcp, LcpResidual, LcpSolution, LemkeSettings, QpSettings, Rational, solve_lemke, solve_qp,
};
use serde::Serialize;
use serde_json::Value;

use proxima_cli_support::exit::{self, Internal};
use proxima_cli_support::files;
use proxima_lcp::registry::{self, NamedSolver, SolverSettings};

use crate::scalar::{self, Scalar, json_vec, text_vec};

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A readable summary.
    Text,
    /// One JSON object.
    Json,
}

/// Arguments of `proxima solve`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("input").required(true).args(["file", "matrix"])))]
pub struct SolveArgs {
    /// Problem file: JSON (`.json`, {"kind": "lcp"|"qp", ...}) or Siconos (`.dat`); other
    /// extensions are recognised by content.
    pub file: Option<PathBuf>,
    /// MatrixMarket file of M (with --vector).
    #[arg(long, requires = "vector", conflicts_with = "file")]
    pub matrix: Option<PathBuf>,
    /// MatrixMarket file of q (with --matrix).
    #[arg(long, requires = "matrix", conflicts_with = "file")]
    pub vector: Option<PathBuf>,
    /// Solver: lemke (exact-capable, LCPs and QPs), or for f64 LCPs baraff, minmap-newton,
    /// fischer-newton, jacobi, pgs, psor (proxima_lcp::registry, as `bench-lcp`).
    #[arg(long, default_value = "lemke")]
    pub method: String,
    /// Tolerance of the iterative methods: success means ‖min(z, w)‖∞ ≤ tol·max(1, ‖q‖₂).
    #[arg(long, default_value_t = 1e-9)]
    pub tol: f64,
    /// Iteration / pivot limit of the chosen method (default: the method's own).
    #[arg(long)]
    pub max_iter: Option<usize>,
    /// Read the numbers exactly and solve in rational arithmetic; print exact fractions.
    #[arg(long)]
    pub exact: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Largest problem size n accepted (dense M is n × n).
    #[arg(long, default_value_t = ReadLimits::DEFAULT_MAX_N)]
    pub max_n: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Json,
    Siconos,
}

/// Which reader a file needs: by extension, else by its first characters.
fn detect(path: &Path, text: &str) -> Result<Source> {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let mtx_hint = || {
        anyhow!(
            "{} is a MatrixMarket file, which holds only M or q: use --matrix M.mtx --vector q.mtx",
            path.display()
        )
    };
    match ext.as_deref() {
        Some("json") => return Ok(Source::Json),
        Some("dat") => return Ok(Source::Siconos),
        Some("mtx") => return Err(mtx_hint()),
        _ => {}
    }
    let start = text.trim_start();
    if start.starts_with('{') || start.starts_with('[') {
        Ok(Source::Json)
    } else if start.starts_with("%%MatrixMarket") {
        Err(mtx_hint())
    } else {
        Ok(Source::Siconos)
    }
}

fn in_file(e: IoError, path: &Path) -> anyhow::Error {
    anyhow!("{e} ({})", path.display())
}

/// What was read: a problem in the chosen scalar type.
enum Loaded<T> {
    Lcp(Lcp<T>),
    Qp(proxima_lcp::ConvexQp<T>),
}

fn load<T: Scalar>(args: &SolveArgs, limits: &ReadLimits) -> Result<(Loaded<T>, String)> {
    if let (Some(mp), Some(qp)) = (&args.matrix, &args.vector) {
        let m = read_mtx_matrix::<T>(&files::read_text(mp)?).map_err(|e| in_file(e, mp))?;
        let q = read_mtx_vector::<T>(&files::read_text(qp)?, limits).map_err(|e| in_file(e, qp))?;
        let lcp = lcp_from_coo(&m, q, limits)
            .map_err(|e| anyhow!("{e} ({} and {})", mp.display(), qp.display()))?;
        return Ok((Loaded::Lcp(lcp), format!("{} + {}", mp.display(), qp.display())));
    }
    let path = args.file.as_ref().ok_or_else(|| anyhow!("no input: give FILE or --matrix and --vector"))?;
    let text = files::read_text(path)?;
    let loaded = match detect(path, &text)? {
        Source::Json => match read_json_problem_with::<T>(&text, limits) {
            Ok(ProblemFile::Lcp(lcp)) => Loaded::Lcp(lcp),
            Ok(ProblemFile::Qp(qp)) => Loaded::Qp(qp),
            Err(e) => return Err(in_file(e, path)),
        },
        Source::Siconos => {
            Loaded::Lcp(read_siconos_lcp_with::<T>(&text, limits).map_err(|e| in_file(e, path))?)
        }
    };
    Ok((loaded, path.display().to_string()))
}

/// The answer in a form both output formats use.
struct Answer<T> {
    kind: &'static str,
    n: usize,
    status: String,
    /// The LCP status name when a QP was solved through its LCP.
    lcp_status: Option<&'static str>,
    z: Vec<T>,
    w: Vec<T>,
    residual: LcpResidual<T>,
    pivots: usize,
    path: String,
    x: Option<Vec<T>>,
    objective: Option<T>,
    time: Duration,
}

impl<T: Scalar> Answer<T> {
    fn from_lcp(kind: &'static str, n: usize, status: String, sol: LcpSolution<T>, time: Duration) -> Self {
        Answer {
            kind,
            n,
            status,
            lcp_status: (kind == "qp").then(|| sol.status.as_str()),
            residual: sol.residual,
            pivots: sol.pivots,
            path: sol.path.to_string(),
            z: sol.z,
            w: sol.w,
            x: None,
            objective: None,
            time,
        }
    }
}

fn solve_loaded<T: Scalar>(loaded: Loaded<T>) -> Result<Answer<T>> {
    match loaded {
        Loaded::Lcp(lcp) => {
            let settings = LemkeSettings::default();
            let start = Instant::now();
            let sol = exit::catch(|| solve_lemke(&lcp, &settings)).map_err(|m| anyhow!(Internal(m)))?;
            let time = start.elapsed();
            let sol = sol.map_err(|e| anyhow!("the solver rejected the problem: {e}"))?;
            Ok(Answer::from_lcp("lcp", lcp.n(), sol.status.as_str().to_string(), sol, time))
        }
        Loaded::Qp(qp) => {
            let settings = QpSettings::default();
            let start = Instant::now();
            let sol = exit::catch(|| solve_qp(&qp, &settings)).map_err(|m| anyhow!(Internal(m)))?;
            let time = start.elapsed();
            let sol = sol.map_err(|e| anyhow!("the solver rejected the problem: {e}"))?;
            let mut answer = Answer::from_lcp("qp", qp.n(), sol.status.as_str().to_string(), sol.lcp, time);
            answer.x = Some(sol.x);
            answer.objective = Some(sol.objective);
            Ok(answer)
        }
    }
}

#[derive(Serialize)]
struct ResidualOut {
    min_map_inf: Value,
    complementarity: Value,
    min_z: Value,
    min_w: Value,
}

#[derive(Serialize)]
struct SolveOut<'a> {
    problem: &'a str,
    kind: &'a str,
    n: usize,
    scalar: &'a str,
    method: &'a str,
    status: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    lcp_status: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    x: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    objective: Option<Value>,
    z: Value,
    w: Value,
    pivots: usize,
    path: String,
    residual: ResidualOut,
    time_ns: u64,
}

fn print<T: Scalar>(answer: &Answer<T>, name: &str, args: &SolveArgs) -> Result<()> {
    let sol = answer;
    match args.format {
        Format::Json => {
            let out = SolveOut {
                problem: name,
                kind: answer.kind,
                n: answer.n,
                scalar: T::LABEL,
                method: &args.method,
                status: &answer.status,
                lcp_status: answer.lcp_status,
                x: answer.x.as_deref().map(json_vec),
                objective: answer.objective.as_ref().map(Scalar::to_json),
                z: json_vec(&sol.z),
                w: json_vec(&sol.w),
                pivots: sol.pivots,
                path: sol.path.clone(),
                residual: ResidualOut {
                    min_map_inf: sol.residual.min_map_inf.to_json(),
                    complementarity: sol.residual.complementarity.to_json(),
                    min_z: sol.residual.min_z.to_json(),
                    min_w: sol.residual.min_w.to_json(),
                },
                time_ns: u64::try_from(answer.time.as_nanos()).unwrap_or(u64::MAX),
            };
            println!("{}", serde_json::to_string(&out)?);
        }
        Format::Text => {
            let arithmetic = if T::EXACT { "exact rational arithmetic" } else { "f64 arithmetic" };
            let kind = if answer.kind == "qp" {
                format!("QP, n = {} (LCP size {})", answer.n, sol.z.len())
            } else {
                format!("LCP, n = {}", answer.n)
            };
            println!("problem    {name}");
            println!("           {kind}, {arithmetic}, method {}", args.method);
            let steps =
                if matches!(args.method.as_str(), "lemke" | "baraff") { "pivots" } else { "iterations" };
            println!(
                "status     {}  (path {}, {} {steps}, {})",
                answer.status,
                sol.path,
                sol.pivots,
                scalar::fmt_duration(answer.time)
            );
            if let (Some(x), Some(obj)) = (&answer.x, &answer.objective) {
                println!("x          {}", text_vec(x));
                println!("objective  {}", obj.to_text());
                println!("LCP        {}", sol.lcp_status.unwrap_or("-"));
            }
            println!("z          {}", text_vec(&sol.z));
            println!("w          {}", text_vec(&sol.w));
            println!(
                "residual   max|min(z, w)| = {}   |zᵀw| = {}   min z = {}   min w = {}",
                sol.residual.min_map_inf.to_text(),
                sol.residual.complementarity.to_text(),
                sol.residual.min_z.to_text(),
                sol.residual.min_w.to_text()
            );
        }
    }
    Ok(())
}

fn run_typed<T: Scalar>(args: &SolveArgs) -> Result<()> {
    let limits = ReadLimits::new(args.max_n);
    let (loaded, name) = load::<T>(args, &limits)?;
    let answer = solve_loaded(loaded)?;
    print(&answer, &name, args)
}

/// An f64 LCP through a named solver of [`registry`] (iterative or Baraff pivoting).
fn run_method(args: &SolveArgs, solver: &dyn NamedSolver) -> Result<()> {
    if args.exact {
        bail!("--exact needs --method lemke (method {} runs in f64)", args.method);
    }
    let settings = SolverSettings::default().with_tol(args.tol).with_max_iter(args.max_iter);
    settings.validate()?;
    let limits = ReadLimits::new(args.max_n);
    let (loaded, name) = load::<f64>(args, &limits)?;
    let Loaded::Lcp(lcp) = loaded else {
        bail!("method {} solves LCPs; a QP needs --method lemke", args.method);
    };
    let n = lcp.n();
    let coo = CooMatrix::from_dense(n, n, lcp.m()).ok_or_else(|| anyhow!("matrix size mismatch"))?;
    let mut prepared = solver
        .prepare(&coo, lcp.q(), &settings)
        .map_err(|e| anyhow!("the solver rejected the problem: {e}"))?;
    let start = Instant::now();
    let out = exit::catch(|| prepared.solve()).map_err(|m| anyhow!(Internal(m)))?;
    let time = start.elapsed();
    if let Some(e) = out.error {
        bail!("the solver rejected the problem: {e}");
    }
    let mut w = vec![0.0; n];
    lcp.view().compute_w(&out.z, &mut w);
    let answer = Answer {
        kind: "lcp",
        n,
        status: out.info.unwrap_or_else(|| out.status.as_str().to_string()),
        lcp_status: None,
        residual: lcp.residual(&out.z),
        pivots: out.iterations.unwrap_or(0) as usize,
        path: out.path.unwrap_or_else(|| args.method.clone()),
        z: out.z,
        w,
        x: None,
        objective: None,
        time,
    };
    print(&answer, &name, args)
}

/// Runs `proxima solve`.
pub fn run(args: &SolveArgs) -> Result<()> {
    if args.method == "lemke" {
        return if args.exact { run_typed::<Rational>(args) } else { run_typed::<f64>(args) };
    }
    let solver = registry::find(&args.method).ok_or_else(|| {
        anyhow!("unknown method {:?}; known methods: {}", args.method, registry::known_described())
    })?;
    run_method(args, solver)
}
