//! Pivoting and Newton benchmarks (divan): `cargo bench -p proxima-lcp --bench newton`.
//!
//! * `baraff_vs_lemke`: Baraff incremental pivoting and Lemke's method on the same dense SPD
//!   problems (A = R Rᵀ + 0.1 I, b Gaussian × 3 — the spec's B6 family), n = 20, 50, 100.
//! * `newton_step`: one Newton iteration (merit, Jacobian, sub-solve, line search) of
//!   min-map Newton and of Fischer–Newton (each strategy) on a Dense PD(100) problem of spec
//!   §7.2 (A = O diag(1/N, …, 1) Oᵀ, right-hand side with F = 0.25), with a dense direct and
//!   a GMRES sub-solver.

use divan::{Bencher, black_box};
use proxima_lcp::baraff::{BaraffSettings, solve_baraff};
use proxima_lcp::iterative::{
    FischerSettings, JacobianStrategy, NewtonSettings, StoppingCriteria, SubSolver, solve_fischer_newton,
    solve_minmap_newton,
};
use proxima_lcp::operator::{DenseMatrix, LinearOperator};
use proxima_lcp::{Lcp, LemkeSettings, solve_lemke};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn main() {
    divan::main();
}

fn gauss(rng: &mut SmallRng) -> f64 {
    let u: f64 = rng.random::<f64>().max(1e-300);
    let v: f64 = rng.random();
    (-2.0 * u.ln()).sqrt() * (2.0 * core::f64::consts::PI * v).cos()
}

fn spd(n: usize) -> (DenseMatrix, Vec<f64>) {
    let mut rng = SmallRng::seed_from_u64(n as u64);
    let r: Vec<f64> = (0..n * n).map(|_| gauss(&mut rng)).collect();
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            a[i * n + j] = (0..n).map(|k| r[i * n + k] * r[j * n + k]).sum::<f64>();
        }
        a[i * n + i] += 0.1;
    }
    let b = (0..n).map(|_| 3.0 * gauss(&mut rng)).collect();
    (DenseMatrix::from_row_major(n, a).unwrap(), b)
}

/// Dense PD(N) of spec §7.2 with its right-hand side (F = 0.25).
fn dense_pd(n: usize) -> (DenseMatrix, Vec<f64>) {
    let mut rng = SmallRng::seed_from_u64(100 + n as u64);
    // Orthonormal basis by modified Gram–Schmidt of a uniform random matrix (columns).
    let mut q: Vec<Vec<f64>> = (0..n).map(|_| (0..n).map(|_| rng.random::<f64>()).collect()).collect();
    for k in 0..n {
        for j in 0..k {
            let d: f64 = (0..n).map(|i| q[k][i] * q[j][i]).sum();
            for i in 0..n {
                q[k][i] -= d * q[j][i];
            }
        }
        let norm = q[k].iter().map(|v| v * v).sum::<f64>().sqrt();
        q[k].iter_mut().for_each(|v| *v /= norm);
    }
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let v: f64 = (0..n).map(|k| q[k][i] * q[k][j] * (k + 1) as f64 / n as f64).sum();
            a[i * n + j] = v;
            a[j * n + i] = v;
        }
    }
    let a = DenseMatrix::from_row_major(n, a).unwrap();
    let xs: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).map(|v| if v < 0.25 { 0.0 } else { v }).collect();
    let mut ax = vec![0.0; n];
    a.apply(&xs, &mut ax);
    let b = (0..n).map(|i| if xs[i] > 0.0 { -ax[i] } else { 0.0 }).collect();
    (a, b)
}

mod baraff_vs_lemke {
    use super::*;

    #[divan::bench(args = [20, 50, 100])]
    fn baraff(bencher: Bencher, n: usize) {
        let (a, b) = spd(n);
        let s = BaraffSettings::default();
        bencher.bench(|| solve_baraff(black_box(&a), black_box(&b), &s).unwrap().status);
    }

    #[divan::bench(args = [20, 50, 100])]
    fn lemke(bencher: Bencher, n: usize) {
        let (a, b) = spd(n);
        let lcp = Lcp::new(a.data().to_vec(), b).unwrap();
        let s = LemkeSettings::default();
        bencher.bench(|| solve_lemke(black_box(&lcp), &s).unwrap().status);
    }
}

mod newton_step {
    use super::*;

    fn one_step(sub_solver: SubSolver) -> NewtonSettings {
        NewtonSettings {
            stopping: StoppingCriteria { max_iterations: 1, absolute: 0.0, relative: 0.0, stagnation: 0.0 },
            sub_solver,
            ..NewtonSettings::default()
        }
    }

    const GMRES: SubSolver = SubSolver::Gmres { restart: None, max_iterations: None };

    #[divan::bench(args = ["direct", "gmres", "pcg"])]
    fn minmap(bencher: Bencher, sub: &str) {
        let (a, b) = dense_pd(100);
        let sub_solver = match sub {
            "direct" => SubSolver::Direct,
            "gmres" => GMRES,
            _ => SubSolver::Pcg { max_iterations: None },
        };
        let s = NewtonSettings { assume_symmetric: true, ..one_step(sub_solver) };
        bencher.bench(|| solve_minmap_newton(black_box(&a), black_box(&b), None, &s).unwrap().iterations);
    }

    #[divan::bench(args = ["random", "zero", "perturbation", "approximation"])]
    fn fischer_gmres(bencher: Bencher, strategy: &str) {
        let (a, b) = dense_pd(100);
        let strategy = match strategy {
            "random" => JacobianStrategy::Random { seed: 1 },
            "zero" => JacobianStrategy::Zero,
            "perturbation" => JacobianStrategy::default_perturbation(),
            _ => JacobianStrategy::default_approximation(),
        };
        let s = FischerSettings {
            newton: NewtonSettings { assume_symmetric: true, ..one_step(GMRES) },
            strategy,
            ..FischerSettings::default()
        };
        bencher.bench(|| solve_fischer_newton(black_box(&a), black_box(&b), None, &s).unwrap().iterations);
    }

    #[divan::bench]
    fn fischer_direct(bencher: Bencher) {
        let (a, b) = dense_pd(100);
        let s = FischerSettings { newton: one_step(SubSolver::Direct), ..FischerSettings::default() };
        bencher.bench(|| solve_fischer_newton(black_box(&a), black_box(&b), None, &s).unwrap().iterations);
    }
}

/// The direct sub-solve alone: LU with partial pivoting on a dense k × k system (a Gaussian
/// matrix plus 2√k I: the reduced Newton systems of the harness's `dense` family are 60–80,
/// of `n4l_contact` 75–160), the generic routine (row-major) against the vectorized `f64`
/// one (column-major: the same matrix read as its transpose, an equally random system).
mod dense_lu {
    use super::*;
    use proxima_lcp::linalg::{lu_solve_f64, solve_in_place};

    fn system(k: usize) -> (Vec<f64>, Vec<f64>) {
        let mut rng = SmallRng::seed_from_u64(7 + k as u64);
        let mut a: Vec<f64> = (0..k * k).map(|_| gauss(&mut rng)).collect();
        for i in 0..k {
            a[i * k + i] += 2.0 * (k as f64).sqrt();
        }
        (a, (0..k).map(|_| gauss(&mut rng)).collect())
    }

    #[divan::bench(args = [24, 72, 128, 190])]
    fn generic(bencher: Bencher, k: usize) {
        let (a, b) = system(k);
        bencher
            .with_inputs(|| (a.clone(), b.clone()))
            .bench_local_refs(|(a, b)| solve_in_place(a, b, &1e-300));
    }

    #[divan::bench(args = [24, 72, 128, 190])]
    fn vectorized(bencher: Bencher, k: usize) {
        let (a, b) = system(k);
        bencher.with_inputs(|| (a.clone(), b.clone())).bench_local_refs(|(a, b)| lu_solve_f64(a, b, 1e-300));
    }
}
