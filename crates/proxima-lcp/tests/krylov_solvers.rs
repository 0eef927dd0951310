//! GMRES and PCG against dense direct solves, restarts, breakdowns and bad input.

use proxima_lcp::LcpError;
use proxima_lcp::iterative::krylov::{gmres_operator, pcg_operator};
use proxima_lcp::iterative::{KrylovSettings, KrylovStatus, gmres, pcg};
use proxima_lcp::linalg::solve as dense_solve;
use proxima_lcp::operator::{DenseMatrix, LinearOperator};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn random_matrix(n: usize, shift: f64, rng: &mut SmallRng) -> DenseMatrix {
    let mut d: Vec<f64> = (0..n * n).map(|_| rng.random::<f64>() - 0.5).collect();
    for i in 0..n {
        d[i * n + i] += shift;
    }
    DenseMatrix::from_row_major(n, d).unwrap()
}

fn spd(n: usize, rng: &mut SmallRng) -> DenseMatrix {
    let r = random_matrix(n, 0.0, rng);
    let mut d = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            d[i * n + j] = (0..n).map(|k| r.get(i, k) * r.get(j, k)).sum::<f64>();
        }
        d[i * n + i] += 0.1 + i as f64; // varied diagonal: Jacobi preconditioning matters
    }
    DenseMatrix::from_row_major(n, d).unwrap()
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
}

fn residual(a: &DenseMatrix, v: &[f64], rhs: &[f64]) -> f64 {
    let mut av = vec![0.0; rhs.len()];
    a.apply(v, &mut av);
    av.iter().zip(rhs).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
}

#[test]
fn gmres_matches_dense_solve_with_and_without_restarts() {
    let mut rng = SmallRng::seed_from_u64(1);
    for case in 0..20 {
        let n = 2 + case * 3;
        // Non-symmetric; the eigenvalues lie in a disc of radius ≈ 0.29·√n around the shift,
        // away from 0, so restarted GMRES(2) converges too.
        let a = random_matrix(n, 1.0 + (n as f64).sqrt(), &mut rng);
        let rhs: Vec<f64> = (0..n).map(|_| rng.random::<f64>() - 0.5).collect();
        let exact = dense_solve(a.data(), &rhs, &1e-14).unwrap();
        for restart in [n, 5, 2] {
            let s = KrylovSettings {
                restart,
                max_iterations: 5000,
                relative_tolerance: 1e-13,
                absolute_tolerance: 0.0,
            };
            let mut v = vec![0.0; n];
            let info = gmres_operator(&a, &rhs, &mut v, &s).unwrap();
            assert_eq!(info.status, KrylovStatus::Converged, "n {n} restart {restart}: {info:?}");
            // Reported residual is the true one, and it meets the target.
            assert!((info.residual_norm - residual(&a, &v, &rhs)).abs() <= 1e-12);
            assert!(info.residual_norm <= 1e-13 * info.rhs_norm);
            // cond(A) is small (see the shift above): 1e-9 is generous.
            assert!(max_diff(&v, &exact) <= 1e-9, "n {n} restart {restart}");
            if restart == n {
                assert!(info.iterations <= n + 1, "full GMRES finishes in ≤ n steps");
            }
        }
    }
}

#[test]
fn pcg_matches_dense_solve_on_spd() {
    let mut rng = SmallRng::seed_from_u64(2);
    for case in 0..20 {
        let n = 2 + case * 2;
        let a = spd(n, &mut rng);
        let rhs: Vec<f64> = (0..n).map(|_| rng.random::<f64>() - 0.5).collect();
        let exact = dense_solve(a.data(), &rhs, &1e-14).unwrap();
        let s =
            KrylovSettings { max_iterations: 10 * n, relative_tolerance: 1e-12, ..KrylovSettings::default() };
        let mut v = vec![0.0; n];
        let info = pcg_operator(&a, &rhs, &mut v, &s).unwrap();
        assert_eq!(info.status, KrylovStatus::Converged, "{info:?}");
        assert!(max_diff(&v, &exact) <= 1e-8 * (1.0 + exact.iter().fold(0.0f64, |m, x| m.max(x.abs()))));
        let mut w = vec![0.0; n];
        let plain = pcg(|u, o| a.apply(u, o), None, &rhs, &mut w, &s).unwrap();
        assert_eq!(plain.status, KrylovStatus::Converged);
        assert!(max_diff(&w, &exact) <= 1e-7 * (1.0 + exact.iter().fold(0.0f64, |m, x| m.max(x.abs()))));
    }
}

#[test]
fn warm_start_zero_rhs_and_limits() {
    let mut rng = SmallRng::seed_from_u64(3);
    let a = random_matrix(10, 3.0, &mut rng);
    let rhs: Vec<f64> = (0..10).map(|i| i as f64).collect();
    let exact = dense_solve(a.data(), &rhs, &1e-14).unwrap();
    let s = KrylovSettings::default();
    // Starting at the solution: converged after zero products.
    let mut v = exact.clone();
    let info = gmres(|u, o| a.apply(u, o), &rhs, &mut v, &s).unwrap();
    assert_eq!((info.status, info.iterations), (KrylovStatus::Converged, 0));
    // Zero right-hand side from zero.
    let mut v = vec![0.0; 10];
    let info = gmres(|u, o| a.apply(u, o), &[0.0; 10], &mut v, &s).unwrap();
    assert_eq!((info.status, info.iterations), (KrylovStatus::Converged, 0));
    // Iteration limit.
    let tight = KrylovSettings { max_iterations: 2, relative_tolerance: 1e-14, ..s };
    let mut v = vec![0.0; 10];
    let info = gmres(|u, o| a.apply(u, o), &rhs, &mut v, &tight).unwrap();
    assert_eq!((info.status, info.iterations), (KrylovStatus::MaxIterations, 2));
    // PCG on an indefinite matrix breaks down instead of returning garbage as converged.
    let indefinite = DenseMatrix::from_row_major(2, vec![1.0, 0.0, 0.0, -1.0]).unwrap();
    let mut v = vec![0.0; 2];
    let info = pcg(|u, o| indefinite.apply(u, o), None, &[1.0, 1.0], &mut v, &s).unwrap();
    assert_eq!(info.status, KrylovStatus::Breakdown);
    // GMRES handles the indefinite one.
    let mut v = vec![0.0; 2];
    let info = gmres(|u, o| indefinite.apply(u, o), &[1.0, 1.0], &mut v, &s).unwrap();
    assert_eq!(info.status, KrylovStatus::Converged);
    assert!(max_diff(&v, &[1.0, -1.0]) <= 1e-12);
}

#[test]
fn bad_input_is_an_error() {
    let a = DenseMatrix::from_row_major(2, vec![1.0, 0.0, 0.0, 1.0]).unwrap();
    let s = KrylovSettings::default();
    let op = |u: &[f64], o: &mut [f64]| a.apply(u, o);
    let mut v = vec![0.0; 2];
    assert!(matches!(gmres(op, &[1.0, f64::NAN], &mut v, &s), Err(LcpError::NonFinite { .. })));
    assert!(matches!(gmres(op, &[1.0], &mut v, &s), Err(LcpError::DimensionMismatch { .. })));
    assert!(matches!(gmres(op, &[], &mut [], &s), Err(LcpError::Empty)));
    let mut bad_v = vec![f64::INFINITY, 0.0];
    assert!(matches!(pcg(op, None, &[1.0, 1.0], &mut bad_v, &s), Err(LcpError::NonFinite { .. })));
    assert!(matches!(
        pcg(op, Some(&[1.0]), &[1.0, 1.0], &mut v, &s),
        Err(LcpError::DimensionMismatch { .. })
    ));
    for bad in [
        KrylovSettings { restart: 0, ..s },
        KrylovSettings { max_iterations: 0, ..s },
        KrylovSettings { relative_tolerance: -1.0, ..s },
        KrylovSettings { absolute_tolerance: f64::NAN, ..s },
    ] {
        assert!(matches!(gmres(op, &[1.0, 1.0], &mut v, &bad), Err(LcpError::InvalidSettings { .. })));
    }
    assert!(matches!(
        gmres_operator(&a, &[1.0; 3], &mut [0.0; 3], &s),
        Err(LcpError::DimensionMismatch { .. })
    ));
}
