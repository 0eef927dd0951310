//! `proxima demo`: the reference's worked examples and the Siconos LCP test problems, solved
//! with Lemke's method, as a compact table (or JSON Lines).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use proxima_lcp::io::read_siconos_lcp;
use proxima_lcp::{Lcp, LcpSolution, LcpStatus, LemkeSettings, Rational, solve_lemke};
use serde_json::{Value, json};

use crate::common::{self, Scalar};
use crate::solve::Format;

/// Arguments of `proxima demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Output format: a table, or one JSON object per problem plus a summary line.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Directory of the Siconos `lcp_*.dat` files (default: looked up near the current
    /// directory and the executable, e.g. `../shared/testdata/siconos-lcp`).
    #[arg(long)]
    pub siconos_dir: Option<PathBuf>,
}

/// What a correct solver must report.
#[derive(Debug, Clone, PartialEq)]
enum Expect {
    /// Some solution exists: a certified solution is expected.
    Solvable,
    /// This exact z is the unique solution.
    Exactly(Vec<&'static str>),
    /// No solution exists: `no_solution` is expected.
    NoSolution,
}

struct Row {
    group: &'static str,
    name: String,
    n: usize,
    scalar: &'static str,
    status: String,
    path: String,
    path_detail: String,
    pivots: Option<usize>,
    residual: Option<f64>,
    residual_json: Value,
    time: Option<Duration>,
    ok: bool,
    note: Option<String>,
}

/// The worked examples of the reference (Eberly, "Convex quadratic programming"): M rows, q.
/// A worked example: name, rows of M, q, what a correct solver reports.
type Example = (&'static str, Vec<Vec<i64>>, Vec<i64>, Expect);

fn examples() -> Vec<Example> {
    vec![
        (
            "ex1 (LP, unique)",
            vec![vec![0, 0, 1, -1], vec![0, 0, 1, -2], vec![-1, -1, 0, 0], vec![1, 2, 0, 0]],
            vec![2, -1, 3, -2],
            Expect::Solvable,
        ),
        (
            "ex2 (LP, many)",
            vec![
                vec![0, 0, -1, -1, 1, 0],
                vec![0, 0, -1, -1, 0, 1],
                vec![1, 1, 0, 0, 0, 0],
                vec![1, 1, 0, 0, 0, 0],
                vec![-1, 0, 0, 0, 0, 0],
                vec![0, -1, 0, 0, 0, 0],
            ],
            vec![1, 1, -1, -2, 2, 2],
            Expect::Solvable,
        ),
        (
            "ex3 (LP, none)",
            vec![vec![0, 0, -1], vec![0, 0, -1], vec![1, 1, 0]],
            vec![2, -1, 1],
            Expect::NoSolution,
        ),
        (
            "ex5 (QP)",
            vec![vec![1, 0, -2], vec![0, 2, -1], vec![2, 1, 0]],
            vec![-1, -1, -1],
            Expect::Exactly(vec!["1", "1/2", "0"]),
        ),
    ]
}

fn build<T: Scalar>(m: &[Vec<i64>], q: &[i64]) -> Option<Lcp<T>> {
    let rows = m.iter().map(|r| r.iter().map(|&v| T::from_i64(v)).collect()).collect();
    Lcp::from_rows(rows, q.iter().map(|&v| T::from_i64(v)).collect()).ok()
}

fn check<T: Scalar>(lcp: &Lcp<T>, sol: &LcpSolution<T>, expect: &Expect) -> bool {
    let certified = sol.status.is_solved()
        && common::residual_ok(&sol.residual.min_map_inf, lcp.view().scale(), lcp.n())
        && sol.residual.min_z.to_f64() >= 0.0;
    match expect {
        Expect::Solvable => certified,
        Expect::NoSolution => sol.status == LcpStatus::NoSolution,
        Expect::Exactly(z) => {
            certified
                && z.len() == sol.z.len()
                && z.iter().zip(&sol.z).all(|(e, got)| match T::parse_scalar(e) {
                    Ok(e) if T::EXACT => e == *got,
                    Ok(e) => (e.to_f64() - got.to_f64()).abs() <= 1e-9,
                    Err(_) => false,
                })
        }
    }
}

fn solve_row<T: Scalar>(group: &'static str, name: String, lcp: &Lcp<T>, expect: &Expect) -> Row {
    let settings = LemkeSettings::default();
    let start = Instant::now();
    let result = common::catch(|| solve_lemke(lcp, &settings));
    let time = start.elapsed();
    let base = Row {
        group,
        name,
        n: lcp.n(),
        scalar: T::LABEL,
        status: String::new(),
        path: "-".into(),
        path_detail: "-".into(),
        pivots: None,
        residual: None,
        residual_json: Value::Null,
        time: None,
        ok: false,
        note: None,
    };
    match result {
        Ok(Ok(sol)) => Row {
            status: sol.status.as_str().to_string(),
            path: sol.path.as_str().to_string(),
            path_detail: sol.path.to_string(),
            pivots: Some(sol.pivots),
            residual: Some(sol.residual.min_map_inf.to_f64()),
            residual_json: sol.residual.min_map_inf.to_json(),
            time: Some(time),
            ok: check(lcp, &sol, expect),
            ..base
        },
        Ok(Err(e)) => Row { status: "error".into(), note: Some(e.to_string()), ..base },
        Err(panic) => Row { status: "panic".into(), note: Some(panic), ..base },
    }
}

/// Where the Siconos files are: `--siconos-dir`, else `../shared/testdata/siconos-lcp` (or
/// `shared/...`) from the current directory or any ancestor of the executable, else the
/// source tree's location at compile time.
fn find_siconos_dir(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(dir) = explicit {
        return dir.is_dir().then(|| dir.to_path_buf());
    }
    const REL: &str = "shared/testdata/siconos-lcp";
    let mut candidates = vec![PathBuf::from("..").join(REL), PathBuf::from(REL)];
    if let Ok(exe) = std::env::current_exe() {
        for dir in exe.ancestors().skip(1) {
            candidates.push(dir.join("..").join(REL));
        }
    }
    candidates
        .push(PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/testdata/siconos-lcp")));
    candidates.into_iter().find(|c| c.is_dir())
}

fn siconos_expect(name: &str) -> Expect {
    match name {
        // The README: no solution (a correct solver reports "no solution").
        "lcp_Pang_isolated_sol_perturbed" => Expect::NoSolution,
        "lcp_exp_murty" => Expect::Exactly(vec!["0", "0", "0", "0", "0", "1"]),
        "lcp_exp_murty2" => Expect::Exactly(vec!["0", "0", "0", "0", "0", "64"]),
        _ => Expect::Solvable,
    }
}

fn siconos_rows(dir: &Path) -> Vec<Row> {
    let mut paths: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "dat"))
            .collect(),
        Err(_) => Vec::new(),
    };
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let expect = siconos_expect(&name);
            let read = std::fs::read_to_string(path).map_err(|e| e.to_string());
            match read.and_then(|text| read_siconos_lcp(&text).map_err(|e| e.to_string())) {
                Ok(lcp) => solve_row("siconos", name, &lcp, &expect),
                Err(e) => Row {
                    group: "siconos",
                    name,
                    n: 0,
                    scalar: f64::LABEL,
                    status: "read_error".into(),
                    path: "-".into(),
                    path_detail: "-".into(),
                    pivots: None,
                    residual: None,
                    residual_json: Value::Null,
                    time: None,
                    ok: false,
                    note: Some(e),
                },
            }
        })
        .collect()
}

fn print_header() {
    println!(
        "{:<34} {:>3}  {:<8}  {:<17} {:<13} {:>6}  {:>8}  {:>9}  check",
        "problem", "n", "scalar", "status", "path", "pivots", "residual", "time"
    );
}

fn print_row(row: &Row) {
    println!(
        "{:<34} {:>3}  {:<8}  {:<17} {:<13} {:>6}  {:>8}  {:>9}  {}{}",
        row.name,
        row.n,
        row.scalar,
        row.status,
        row.path,
        row.pivots.map_or("-".into(), |p| p.to_string()),
        row.residual.map_or("-".into(), common::fmt_residual),
        row.time.map_or("-".into(), common::fmt_duration),
        if row.ok { "ok" } else { "UNEXPECTED" },
        row.note.as_ref().map_or(String::new(), |n| format!("  ({})", common::one_line(n))),
    );
}

fn row_json(row: &Row) -> Value {
    json!({
        "group": row.group,
        "name": row.name,
        "n": row.n,
        "scalar": row.scalar,
        "status": row.status,
        "path": row.path_detail,
        "pivots": row.pivots,
        "residual": row.residual_json,
        "time_ns": row.time.map(|t| u64::try_from(t.as_nanos()).unwrap_or(u64::MAX)),
        "check": if row.ok { "ok" } else { "unexpected" },
        "note": row.note,
    })
}

/// Runs `proxima demo`.
pub fn run(args: &DemoArgs) -> Result<()> {
    let text = args.format == Format::Text;
    let mut rows = Vec::new();
    if text {
        println!("Proxima demo: Lemke's method (lexicographic anti-cycling, certified fallbacks)");
        println!();
        println!("Worked examples (Eberly, \"Convex quadratic programming\"), as LCPs:");
        print_header();
    }
    for (name, m, q, expect) in examples() {
        let mut group_rows = Vec::new();
        if let Some(lcp) = build::<f64>(&m, &q) {
            group_rows.push(solve_row("examples", name.to_string(), &lcp, &expect));
        }
        if name.starts_with("ex5")
            && let Some(lcp) = build::<Rational>(&m, &q)
        {
            group_rows.push(solve_row("examples", format!("{name} exact"), &lcp, &expect));
        }
        for row in group_rows {
            if text {
                print_row(&row);
            } else {
                println!("{}", row_json(&row));
            }
            rows.push(row);
        }
    }
    let dir = find_siconos_dir(args.siconos_dir.as_deref());
    if text {
        println!();
    }
    match &dir {
        Some(dir) => {
            if text {
                println!("Siconos LCP test problems ({}):", dir.display());
                print_header();
            }
            for row in siconos_rows(dir) {
                if text {
                    print_row(&row);
                } else {
                    println!("{}", row_json(&row));
                }
                rows.push(row);
            }
        }
        None => {
            let msg = "Siconos test problems not found (looked for ../shared/testdata/siconos-lcp); skipped";
            if text {
                println!("{msg}");
            } else {
                eprintln!("{msg}");
            }
        }
    }
    let ok = rows.iter().filter(|r| r.ok).count();
    let unexpected = rows.len() - ok;
    if text {
        println!();
        println!("summary: {} problems, {ok} as expected, {unexpected} unexpected", rows.len());
    } else {
        let summary = json!({"summary": {
            "problems": rows.len(),
            "as_expected": ok,
            "unexpected": unexpected,
            "siconos_dir": dir.map(|d| d.display().to_string()),
        }});
        println!("{summary}");
    }
    Ok(())
}
