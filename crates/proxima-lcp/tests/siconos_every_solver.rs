//! Every Siconos LCP test file (testdata/siconos-lcp) through every f64 solver:
//! Lemke, Baraff pivoting, min-map Newton, Fischer–Newton (each Jacobian strategy) and the
//! splitting methods. The test records which solver solves which file (the table is printed
//! with `--nocapture`, and the per-solver counts are pinned below so a change is noticed) and
//! enforces the rule that matters: **no solver claims a wrong solution** — every claimed
//! success meets its residual tolerance, and nothing is claimed on the file without solution.

use std::path::PathBuf;

use proxima_lcp::baraff::{BaraffSettings, solve_baraff};
use proxima_lcp::io::read_siconos_lcp;
use proxima_lcp::iterative::{
    FischerSettings, IterativeSolution, JacobianStrategy, NewtonSettings, SplittingMethod, SplittingSettings,
    StoppingCriteria, SubSolver, solve_fischer_newton, solve_minmap_newton, solve_splitting,
};
use proxima_lcp::operator::DenseMatrix;
use proxima_lcp::{Lcp, LcpStatus, LemkeSettings, solve_lemke};

#[path = "support/testdata.rs"]
mod testdata;

/// Files the README lists as having no solution.
const NO_SOLUTION: &[&str] = &["Pang_isolated_sol_perturbed"];

fn files() -> Vec<(String, Lcp<f64>)> {
    let dir = PathBuf::from(testdata::testdata("siconos-lcp"));
    let mut out: Vec<(String, Lcp<f64>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| {
            let path = e.ok()?.path();
            let name = path.file_name()?.to_str()?.strip_prefix("lcp_")?.strip_suffix(".dat")?.to_string();
            let text = std::fs::read_to_string(&path).ok()?;
            Some((name, read_siconos_lcp(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Residual tolerance of a claimed success: ‖min(z, w)‖∞ ≤ 1e-8·max(1, ‖q‖∞, max|M|).
/// The iterative methods are run to θ < 1e-24 (‖G‖ ≲ 1.4e-12), pivoting methods certify
/// their own residuals at about 1e-9·scale; 1e-8 leaves room for both on these n ≤ 40 files.
fn tolerance(lcp: &Lcp<f64>) -> f64 {
    let scale = lcp.m().iter().chain(lcp.q()).fold(1.0f64, |s, v| s.max(v.abs()));
    1e-8 * scale
}

type Run = fn(&DenseMatrix, &[f64], &Lcp<f64>) -> (bool, Vec<f64>, String);

fn iterative(sol: Result<IterativeSolution, proxima_lcp::LcpError>) -> (bool, Vec<f64>, String) {
    match sol {
        Ok(s) => (s.status.is_solved(), s.z, s.status.as_str().to_string()),
        Err(e) => (false, Vec::new(), format!("refused: {e}")),
    }
}

fn newton_settings() -> NewtonSettings {
    let mut s = NewtonSettings { sub_solver: SubSolver::Direct, ..NewtonSettings::default() };
    s.stopping.absolute = 1e-24;
    s.stopping.max_iterations = 200;
    s
}

fn fischer(a: &DenseMatrix, b: &[f64], strategy: JacobianStrategy) -> (bool, Vec<f64>, String) {
    let mut fs = FischerSettings { newton: newton_settings(), strategy, ..FischerSettings::default() };
    if matches!(strategy, JacobianStrategy::Approximation { .. }) {
        fs.newton.sub_solver = SubSolver::Gmres { restart: None, max_iterations: None };
    }
    iterative(solve_fischer_newton(a, b, None, &fs))
}

const SOLVERS: &[(&str, Run)] = &[
    ("lemke", |_, _, lcp| match solve_lemke(lcp, &LemkeSettings::default()) {
        Ok(s) => (s.status.is_solved(), s.z, s.status.as_str().to_string()),
        Err(e) => (false, Vec::new(), format!("refused: {e}")),
    }),
    ("baraff", |a, b, _| match solve_baraff(a, b, &BaraffSettings::default()) {
        Ok(s) => (s.status == LcpStatus::Solved, s.z, s.status.as_str().to_string()),
        Err(e) => (false, Vec::new(), format!("refused: {e}")),
    }),
    ("minmap-newton", |a, b, _| iterative(solve_minmap_newton(a, b, None, &newton_settings()))),
    ("fischer-zero", |a, b, _| fischer(a, b, JacobianStrategy::Zero)),
    ("fischer-random", |a, b, _| fischer(a, b, JacobianStrategy::Random { seed: 7 })),
    ("fischer-perturbation", |a, b, _| fischer(a, b, JacobianStrategy::default_perturbation())),
    ("fischer-approximation", |a, b, _| fischer(a, b, JacobianStrategy::default_approximation())),
    ("jacobi", |a, b, _| splitting(a, b, SplittingMethod::Jacobi)),
    ("pgs", |a, b, _| splitting(a, b, SplittingMethod::Pgs)),
    ("psor-1.4", |a, b, _| splitting(a, b, SplittingMethod::Psor { omega: 1.4 })),
];

fn splitting(a: &DenseMatrix, b: &[f64], method: SplittingMethod) -> (bool, Vec<f64>, String) {
    let stopping = StoppingCriteria { max_iterations: 5000, absolute: 1e-20, ..StoppingCriteria::default() };
    iterative(solve_splitting(a, b, None, &SplittingSettings { method, stopping, ..Default::default() }))
}

/// How many of the 20 files each solver solves (pinned; update deliberately).
const EXPECTED_SOLVED: &[(&str, usize)] = &[
    ("lemke", 19),
    ("baraff", 12),
    ("minmap-newton", 13),
    ("fischer-zero", 17),
    ("fischer-random", 17),
    ("fischer-perturbation", 17),
    ("fischer-approximation", 14),
    ("jacobi", 9),
    ("pgs", 10),
    ("psor-1.4", 8),
];

#[test]
fn no_solver_claims_a_wrong_solution_and_the_table_is_recorded() {
    let files = files();
    assert_eq!(files.len(), 20, "the Siconos folder holds 20 files");
    let mut table = String::from("file                      ");
    for (name, _) in SOLVERS {
        table.push_str(&format!(" {name:>21}"));
    }
    table.push('\n');
    let mut solved = vec![0usize; SOLVERS.len()];
    for (name, lcp) in &files {
        let a = DenseMatrix::from_lcp(lcp);
        let tol = tolerance(lcp);
        table.push_str(&format!("{name:<26}"));
        let mut any = false;
        for (k, (solver, run)) in SOLVERS.iter().enumerate() {
            let (claimed, z, status) = run(&a, lcp.q(), lcp);
            if claimed {
                let r = lcp.residual(&z);
                assert!(
                    r.min_map_inf <= tol && r.min_z >= -tol && r.min_w >= -tol,
                    "{solver} claims {status} on {name} with residual {r:?} (tolerance {tol:e})"
                );
                assert!(!NO_SOLUTION.contains(&name.as_str()), "{solver} claims a solution on {name}");
                solved[k] += 1;
                any = true;
            }
            let cell = if claimed { "solved".to_string() } else { status };
            table.push_str(&format!(" {:>21}", &cell[..cell.len().min(21)]));
        }
        table.push('\n');
        assert!(any || NO_SOLUTION.contains(&name.as_str()), "no solver solves {name}");
    }
    println!("{table}");
    let got: Vec<(&str, usize)> = SOLVERS.iter().map(|s| s.0).zip(solved).collect();
    assert_eq!(got, EXPECTED_SOLVED, "solved counts changed; table:\n{table}");
}
