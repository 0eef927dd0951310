//! Min-map Newton on a contact problem whose reduced Newton systems are singular (the friction
//! rows' zero diagonal blocks): every step falls back to GMRES, which cannot meet the forcing
//! target, so the direction is no Newton direction. The run must end `NumericalFailure` after
//! `max_unsolved_steps` such steps instead of spending its whole iteration budget, and neither
//! variant may claim a solution. The problem is the harness's `contact_k4_000` (n = 312).

use proxima_lcp::LcpError;
use proxima_lcp::io::{ReadLimits, read_mtx_csr, read_mtx_vector};
use proxima_lcp::iterative::newton::{NewtonSettings, SubSolver, solve_minmap_newton_report};
use proxima_lcp::iterative::{AbsoluteTest, IterativeStatus};

#[path = "support/testdata.rs"]
mod testdata;

fn contact_problem() -> (proxima_lcp::operator::CsrMatrix, Vec<f64>) {
    let dir = testdata::testdata("bench-lcp/contact");
    let m = std::fs::read_to_string(format!("{dir}/contact_k4_000.M.mtx")).unwrap();
    let q = std::fs::read_to_string(format!("{dir}/contact_k4_000.q.mtx")).unwrap();
    let a = read_mtx_csr(&m).unwrap();
    let b: Vec<f64> = read_mtx_vector(&q, &ReadLimits::default()).unwrap();
    (a, b)
}

fn settings(max_unsolved_steps: usize) -> NewtonSettings {
    NewtonSettings {
        sub_solver: SubSolver::Direct,
        absolute_test: AbsoluteTest::NaturalResidual,
        max_unsolved_steps,
        ..NewtonSettings::default()
    }
}

#[test]
fn singular_newton_systems_end_the_run_with_numerical_failure() {
    let (a, b) = contact_problem();
    let report = solve_minmap_newton_report(&a, &b, None, &settings(3)).unwrap();
    let sol = &report.solution;
    assert_eq!(sol.status, IterativeStatus::NumericalFailure);
    // Three unsolved steps (none accepts the full step on this problem): the first two are
    // taken, the third ends the run.
    assert!(sol.iterations <= 3, "iterations {}", sol.iterations);
    assert!(report.stats.fallbacks >= 3 && report.stats.krylov_unconverged >= 3, "{:?}", report.stats);
    assert_eq!(report.stats.direct_solves, 0);
}

#[test]
fn without_the_limit_the_run_goes_on_and_still_claims_nothing() {
    let (a, b) = contact_problem();
    let report = solve_minmap_newton_report(&a, &b, None, &settings(usize::MAX)).unwrap();
    let sol = &report.solution;
    assert!(sol.iterations > 3, "iterations {}", sol.iterations);
    assert!(!sol.status.is_solved(), "{:?}", sol.status);
    assert_ne!(sol.status, IterativeStatus::NumericalFailure);
}

#[test]
fn a_zero_limit_is_rejected() {
    let (a, b) = contact_problem();
    let err = solve_minmap_newton_report(&a, &b, None, &settings(0)).unwrap_err();
    assert!(matches!(err, LcpError::InvalidSettings { field: "max_unsolved_steps", .. }), "{err}");
}
