//! Direct Newton steps (dense LU on the reduced system) against independent references:
//!
//! * the min-map reduced direction solves the full Newton equation (D_p + D_q A) Δx = −H,
//!   assembled in full (n × n, not reduced) and solved by elimination;
//! * Fischer–Newton with direct steps takes the same first step as unrestarted GMRES to a
//!   tight forcing term and both reach the same certified solution (contact family, planted);
//! * the Krylov workspace gives the same answers as fresh solves and, once sized, allocates
//!   nothing.

use proxima_lcp::generate::{Family, GeneratedProblem, RhsKind, generate};
use proxima_lcp::iterative::newton::{NewtonReport, minmap_reduced_direction, solve_fischer_newton_report};
use proxima_lcp::iterative::{
    FischerSettings, IterativeStatus, KrylovSettings, KrylovWorkspace, NewtonSettings, SubSolver, gmres,
    gmres_with, pcg, pcg_with,
};
use proxima_lcp::operator::{DenseMatrix, LinearOperator};

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

fn problem(family: Family, index: usize) -> GeneratedProblem {
    generate(&family, RhsKind::PLANTED_QUARTER, 77, index).unwrap()
}

/// A point with both active (y < x) and free indices.
fn mixed_point(n: usize) -> Vec<f64> {
    (0..n).map(|i| if i % 3 == 0 { 0.0 } else { ((i * 37) % 11) as f64 / 11.0 }).collect()
}

#[test]
fn minmap_reduced_direction_solves_the_full_newton_equation() {
    for n in [12, 80] {
        let p = problem(Family::DensePd { n }, 0);
        let a = DenseMatrix::from_row_major(n, p.matrix.to_dense().data().to_vec()).unwrap();
        let x = mixed_point(n);
        let mut y = vec![0.0; n];
        a.apply(&x, &mut y);
        y.iter_mut().zip(&p.b).for_each(|(yi, bi)| *yi += bi);
        let active: Vec<bool> = x.iter().zip(&y).map(|(xi, yi)| yi < xi).collect();
        assert!(active.iter().filter(|&&v| v).count() >= n / 4, "n = {n}: too few active indices");
        // Full system: row i is A_i* when active, e_iᵀ otherwise; right-hand side −min(x, y).
        let mut j = vec![0.0; n * n];
        for i in 0..n {
            if active[i] {
                j[i * n..(i + 1) * n].copy_from_slice(a.row(i));
            } else {
                j[i * n + i] = 1.0;
            }
        }
        let rhs: Vec<f64> = x.iter().zip(&y).map(|(xi, yi)| -xi.min(*yi)).collect();
        let reference = proxima_lcp::linalg::solve(&j, &rhs, &1e-12).unwrap();
        let dx = minmap_reduced_direction(&a, &p.b, &x).unwrap();
        let scale = reference.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let gap = dx.iter().zip(&reference).map(|(d, r)| (d - r).abs()).fold(0.0, f64::max);
        assert!(gap <= 1e-10 * scale, "n = {n}: gap {gap}");
    }
}

fn fischer(p: &GeneratedProblem, sub_solver: SubSolver, max_iterations: usize) -> NewtonReport {
    let mut s = FischerSettings {
        newton: NewtonSettings { sub_solver, forcing: 1e-12, ..NewtonSettings::default() },
        ..FischerSettings::default()
    };
    s.newton.stopping.max_iterations = max_iterations;
    solve_fischer_newton_report(&p.matrix, &p.b, None, &s).unwrap()
}

#[test]
fn fischer_direct_steps_match_unrestarted_gmres_on_contact() {
    for index in 0..3 {
        let p = problem(Family::Contact { contacts: 12 }, index);
        let n = p.b.len();
        let gmres_solver = SubSolver::Gmres { restart: Some(n), max_iterations: Some(2 * n) };
        // The first step: same merit after one update.
        let (direct, krylov) = (fischer(&p, SubSolver::Direct, 1), fischer(&p, gmres_solver, 1));
        let (d1, k1) = (direct.solution.merit_history[1], krylov.solution.merit_history[1]);
        assert!((d1 - k1).abs() <= 1e-6 * d1.max(k1), "problem {index}: merit {d1} vs {k1}");
        assert_eq!(direct.stats.direct_solves, 1, "problem {index}");
        // Whole runs: both certified, at the same solution.
        let (direct, krylov) = (fischer(&p, SubSolver::Direct, 100), fischer(&p, gmres_solver, 100));
        for (name, r) in [("direct", &direct), ("gmres", &krylov)] {
            assert_eq!(r.solution.status, IterativeStatus::ConvergedAbsolute, "problem {index}, {name}");
            assert!(r.solution.residual.min_map_inf < 1e-5, "problem {index}, {name}");
        }
        assert_eq!(direct.stats.krylov_solves, 0, "problem {index}: direct run used GMRES");
        let gap =
            direct.solution.z.iter().zip(&krylov.solution.z).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        let scale = krylov.solution.z.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        assert!(gap <= 1e-4 * scale, "problem {index}: solutions differ by {gap}");
    }
}

/// An SPD tridiagonal operator as a closure.
fn laplacian(u: &[f64], out: &mut [f64]) {
    let n = u.len();
    for i in 0..n {
        let left = if i > 0 { u[i - 1] } else { 0.0 };
        let right = if i + 1 < n { u[i + 1] } else { 0.0 };
        out[i] = 2.5 * u[i] - left - right;
    }
}

#[test]
fn krylov_workspace_matches_fresh_solves_and_stops_allocating() {
    let n = 60;
    let rhs: Vec<f64> = (0..n).map(|i| (i as f64 * 0.3).sin()).collect();
    let settings = KrylovSettings { restart: 15, max_iterations: 300, ..KrylovSettings::default() };
    let mut fresh = vec![0.0; n];
    let fresh_info = gmres(laplacian, &rhs, &mut fresh, &settings).unwrap();
    let mut fresh_cg = vec![0.0; n];
    let fresh_cg_info = pcg(laplacian, None, &rhs, &mut fresh_cg, &settings).unwrap();

    let mut ws = KrylovWorkspace::new();
    let mut v = vec![0.0; n];
    assert_eq!(gmres_with(&mut ws, laplacian, &rhs, &mut v, &settings).unwrap(), fresh_info);
    assert_eq!(v, fresh);
    let mut w = vec![0.0; n];
    assert_eq!(pcg_with(&mut ws, laplacian, None, &rhs, &mut w, &settings).unwrap(), fresh_cg_info);
    assert_eq!(w, fresh_cg);

    // Sized now: repeated solves of this size (or smaller) allocate nothing.
    let ((), allocations) = counting_alloc::count(|| {
        v.iter_mut().for_each(|x| *x = 0.0);
        gmres_with(&mut ws, laplacian, &rhs, &mut v, &settings).unwrap();
        w.iter_mut().for_each(|x| *x = 0.0);
        pcg_with(&mut ws, laplacian, None, &rhs, &mut w, &settings).unwrap();
        let mut small = vec![0.0; 20];
        gmres_with(&mut ws, laplacian, &rhs[..20], &mut small[..], &settings).unwrap();
        drop(small);
    });
    // The `small` vector is the only allocation.
    assert_eq!(allocations, 1);
    assert_eq!(v, fresh);
    assert_eq!(w, fresh_cg);
}

/// Dense symmetric positive definite problems take the Cholesky path of the direct step
/// (A = Aᵀ bit for bit, Fischer's shifts p/q ≥ 0, min-map's 0): both methods certify, and
/// their answers are Lemke's (positive definite A: the solution is unique).
#[test]
fn symmetric_direct_steps_reach_lemkes_solution() {
    use proxima_lcp::iterative::AbsoluteTest;
    use proxima_lcp::iterative::newton::solve_minmap_newton_report;
    use proxima_lcp::{Lcp, LemkeSettings, solve_lemke};
    for (n, index) in [(8, 0), (30, 1), (60, 2), (100, 3)] {
        let p = problem(Family::DensePd { n }, index);
        let dense = p.matrix.to_dense();
        assert!(dense.is_symmetric());
        let lcp = Lcp::new(dense.data().to_vec(), p.b.clone()).unwrap();
        let lemke = solve_lemke(&lcp, &LemkeSettings::default()).unwrap();
        assert!(lemke.status.is_solved(), "n = {n}");
        let mut settings = NewtonSettings {
            sub_solver: SubSolver::Direct,
            absolute_test: AbsoluteTest::NaturalResidual,
            ..NewtonSettings::default()
        };
        settings.stopping.absolute = 1e-10;
        let fischer = FischerSettings { newton: settings, ..FischerSettings::default() };
        let runs = [
            ("fischer", solve_fischer_newton_report(&dense, &p.b, None, &fischer).unwrap()),
            ("min-map", solve_minmap_newton_report(&dense, &p.b, None, &settings).unwrap()),
        ];
        let scale = lemke.z.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for (name, run) in runs {
            assert_eq!(run.solution.status, IterativeStatus::ConvergedAbsolute, "{name}, n = {n}");
            assert_eq!(run.stats.fallbacks, 0, "{name}, n = {n}");
            let gap = run.solution.z.iter().zip(&lemke.z).fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
            assert!(gap <= 1e-7 * scale, "{name}, n = {n}: |z - z_lemke| = {gap:e}");
        }
    }
}
