//! The Newton methods on the spec's experiment families (lcp-methods.md §7.2, §8 C1–C3, C6,
//! C7), with local copies of the §7.2 generators (the crate's own generators live in
//! `generate.rs`; these copies keep this file independent of it).
//!
//! The quick tests run a few problems; the full statistics are `#[ignore]`d:
//! `cargo test --release -p proxima-lcp --test newton_experiments -- --ignored --nocapture`.

use proxima_lcp::iterative::{
    FischerSettings, IterativeSolution, IterativeStatus, JacobianStrategy, NewtonSettings, StoppingCriteria,
    solve_fischer_newton, solve_minmap_newton,
};
use proxima_lcp::operator::{DenseMatrix, LinearOperator};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Fluid(G): symmetric banded, I plus one value per band at offsets 1, 2, 3 (spec §7.2).
struct Banded {
    n: usize,
    diag: f64,
    bands: [f64; 3],
}

impl LinearOperator for Banded {
    fn dim(&self) -> usize {
        self.n
    }
    fn apply(&self, x: &[f64], y: &mut [f64]) {
        for i in 0..self.n {
            let mut s = self.diag * x[i];
            for (d, v) in self.bands.iter().enumerate() {
                let d = d + 1;
                if i >= d {
                    s += v * x[i - d];
                }
                if i + d < self.n {
                    s += v * x[i + d];
                }
            }
            y[i] = s;
        }
    }
    fn diagonal(&self, out: &mut [f64]) {
        out.iter_mut().for_each(|o| *o = self.diag);
    }
    fn nnz_hint(&self) -> usize {
        7 * self.n
    }
}

/// The symmetric Toeplitz matrix's eigenvalues lie in the range of its symbol
/// f(θ) = 1 + 2 Σ_d R_d cos(dθ); the minimum of the symbol (dense grid) stands in for λ_min
/// (a lower bound, tight to O(1/n²)).
fn fluid(g: usize, rng: &mut SmallRng) -> Banded {
    let bands = [0; 3].map(|_| -rng.random::<f64>());
    let symbol_min = (0..20_000)
        .map(|k| {
            let t = core::f64::consts::PI * k as f64 / 20_000.0;
            1.0 + 2.0 * (0..3).map(|d| bands[d] * ((d + 1) as f64 * t).cos()).sum::<f64>()
        })
        .fold(f64::INFINITY, f64::min);
    let diag = if symbol_min <= 0.0 { 1.0 + 0.5 - symbol_min } else { 1.0 };
    Banded { n: g * g * g, diag, bands }
}

/// λ_min of a dense symmetric matrix by bisection on "A − tI is positive definite".
fn lambda_min(a: &[f64], n: usize) -> f64 {
    let pd = |t: f64| {
        let mut l = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..=i {
                let mut s = a[i * n + j] - if i == j { t } else { 0.0 };
                for k in 0..j {
                    s -= l[i * n + k] * l[j * n + k];
                }
                if i == j {
                    if s <= 0.0 {
                        return false;
                    }
                    l[i * n + i] = s.sqrt();
                } else {
                    l[i * n + j] = s / l[j * n + j];
                }
            }
        }
        true
    };
    let bound = (0..n).map(|i| (0..n).map(|j| a[i * n + j].abs()).sum::<f64>()).fold(0.0, f64::max);
    let (mut lo, mut hi) = (-bound - 1.0, bound + 1.0);
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        if pd(mid) { lo = mid } else { hi = mid }
    }
    lo
}

fn shift_to_half(a: &mut [f64], n: usize) {
    let lmin = lambda_min(a, n);
    if lmin <= 0.0 {
        for i in 0..n {
            a[i * n + i] += 0.5 - lmin;
        }
    }
}

/// Contact(K_c): blocks of 6 (normal, 4 friction, β), spec §7.2.
fn contact(kc: usize, rng: &mut SmallRng) -> DenseMatrix {
    let n = 6 * kc;
    let r: Vec<f64> = (0..n * n).map(|_| rng.random::<f64>()).collect();
    let mut a: Vec<f64> = (0..n * n).map(|k| 0.5 * (r[k] + r[(k % n) * n + k / n])).collect();
    for bi in 0..kc {
        for bj in 0..kc {
            if a[(6 * bi + 3) * n + 6 * bj + 3] > 0.5 {
                for i in 0..6 {
                    for j in 0..6 {
                        a[(6 * bi + i) * n + 6 * bj + j] = 0.0;
                    }
                }
            }
        }
    }
    shift_to_half(&mut a, n);
    for bi in 0..kc {
        for bj in 0..kc {
            if a[(6 * bi) * n + 6 * bj] != 0.0 {
                a[(6 * bi + 5) * n + 6 * bj] = 0.5;
                a[(6 * bi + 5) * n + 6 * bj + 5] = 0.0;
                a[(6 * bi) * n + 6 * bj + 5] = 0.0;
                for t in 1..5 {
                    a[(6 * bi + 5) * n + 6 * bj + t] = -1.0;
                    a[(6 * bi + t) * n + 6 * bj + 5] = 1.0;
                }
            }
        }
    }
    DenseMatrix::from_row_major(n, a).unwrap()
}

/// Dense PSD(N, ratio): O diag(0…0, (k+1)/N …) Oᵀ (ratio 0 = Dense PD).
fn dense_psd(n: usize, ratio: f64, rng: &mut SmallRng) -> DenseMatrix {
    let mut q: Vec<Vec<f64>> = (0..n).map(|_| (0..n).map(|_| rng.random::<f64>()).collect()).collect();
    for k in 0..n {
        for _ in 0..2 {
            for j in 0..k {
                let d: f64 = (0..n).map(|i| q[k][i] * q[j][i]).sum();
                for i in 0..n {
                    q[k][i] -= d * q[j][i];
                }
            }
        }
        let norm = q[k].iter().map(|v| v * v).sum::<f64>().sqrt();
        q[k].iter_mut().for_each(|v| *v /= norm);
    }
    let zeros = (n as f64 * ratio).floor() as usize;
    let eig: Vec<f64> = (0..n).map(|k| if k < zeros { 0.0 } else { (k + 1) as f64 / n as f64 }).collect();
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let v: f64 = (0..n).map(|k| q[k][i] * q[k][j] * eig[k]).sum();
            a[i * n + j] = v;
            a[j * n + i] = v;
        }
    }
    DenseMatrix::from_row_major(n, a).unwrap()
}

/// Right-hand side with F = 0.25 (spec §7.2).
fn rhs<A: LinearOperator>(a: &A, rng: &mut SmallRng) -> Vec<f64> {
    let n = a.dim();
    let xs: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).map(|v| if v < 0.25 { 0.0 } else { v }).collect();
    let mut ax = vec![0.0; n];
    a.apply(&xs, &mut ax);
    (0..n).map(|i| if xs[i] > 0.0 { -ax[i] } else { 0.0 }).collect()
}

fn stopping(relative: f64, absolute: f64, max_iterations: usize) -> StoppingCriteria {
    StoppingCriteria { max_iterations, absolute, relative, ..StoppingCriteria::default() }
}

fn minmap_settings(stop: StoppingCriteria, symmetric: bool) -> NewtonSettings {
    NewtonSettings { stopping: stop, assume_symmetric: symmetric, ..NewtonSettings::default() }
}

fn fischer_settings(stop: StoppingCriteria, symmetric: bool, strategy: JacobianStrategy) -> FischerSettings {
    FischerSettings { newton: minmap_settings(stop, symmetric), strategy, ..FischerSettings::default() }
}

fn stats(label: &str, runs: &[IterativeSolution]) -> (f64, f64) {
    let ok: Vec<f64> = runs
        .iter()
        .filter(|r| r.status == IterativeStatus::ConvergedAbsolute)
        .map(|r| r.iterations as f64)
        .collect();
    let mean = ok.iter().sum::<f64>() / ok.len().max(1) as f64;
    let std = (ok.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / ok.len().max(1) as f64).sqrt();
    let mut counts = std::collections::BTreeMap::new();
    for r in runs {
        *counts.entry(r.status.as_str()).or_insert(0) += 1;
    }
    let (min, max) = ok.iter().fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(*v), b.max(*v)));
    eprintln!("{label}: {counts:?}; iterations mean {mean:.2} min {min} max {max} std {std:.2}");
    (mean, std)
}

fn fluid_runs(count: usize, seed: u64) -> (Vec<IterativeSolution>, Vec<IterativeSolution>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let stop = stopping(1e-6, 1e-3, 100);
    let (mut mm, mut fb) = (Vec::new(), Vec::new());
    for _ in 0..count {
        let a = fluid(10, &mut rng);
        let b = rhs(&a, &mut rng);
        mm.push(solve_minmap_newton(&a, &b, None, &minmap_settings(stop, true)).unwrap());
        let fs = fischer_settings(stop, true, JacobianStrategy::default_perturbation());
        fb.push(solve_fischer_newton(&a, &b, None, &fs).unwrap());
    }
    (mm, fb)
}

fn contact_runs(
    count: usize,
    contacts: usize,
    seed: u64,
) -> (Vec<IterativeSolution>, Vec<IterativeSolution>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let stop = stopping(1e-6, 1e-3, 100);
    let (mut mm, mut fb) = (Vec::new(), Vec::new());
    for _ in 0..count {
        let a = contact(contacts, &mut rng);
        let b = rhs(&a, &mut rng);
        mm.push(solve_minmap_newton(&a, &b, None, &minmap_settings(stop, false)).unwrap());
        let fs = fischer_settings(stop, false, JacobianStrategy::default_perturbation());
        fb.push(solve_fischer_newton(&a, &b, None, &fs).unwrap());
    }
    (mm, fb)
}

/// C1/C3 (quick): both Newton methods converge absolutely on Fluid(10) in a handful of steps,
/// matrix-free (a banded operator, never assembled), with GMRES, PCG and the
/// finite-difference (approximation) strategy.
#[test]
fn fluid_quick() {
    let (mm, fb) = fluid_runs(3, 1);
    for r in mm.iter().chain(&fb) {
        assert_eq!(r.status, IterativeStatus::ConvergedAbsolute);
        assert!(r.iterations <= 10, "{} iterations", r.iterations);
        assert!(r.residual.min_map_inf <= (2e-3f64).sqrt() / (2.0 - 2f64.sqrt()));
    }
    let mut rng = SmallRng::seed_from_u64(4);
    let a = fluid(10, &mut rng);
    let b = rhs(&a, &mut rng);
    let stop = stopping(1e-6, 1e-3, 100);
    let pcg = NewtonSettings {
        sub_solver: proxima_lcp::iterative::SubSolver::Pcg { max_iterations: None },
        ..minmap_settings(stop, true)
    };
    let r = solve_minmap_newton(&a, &b, None, &pcg).unwrap();
    assert_eq!(r.status, IterativeStatus::ConvergedAbsolute);
    assert!(r.iterations <= 10);
    let fs = fischer_settings(stop, true, JacobianStrategy::default_approximation());
    let r = solve_fischer_newton(&a, &b, None, &fs).unwrap();
    assert_eq!(r.status, IterativeStatus::ConvergedAbsolute);
    assert!(r.iterations <= 12);
}

/// C2 (quick, on Contact(10) to stay fast in debug builds): Fischer–Newton converges;
/// min-map Newton does not.
#[test]
fn contact_quick() {
    let (mm, fb) = contact_runs(4, 10, 2);
    for r in &fb {
        assert_eq!(r.status, IterativeStatus::ConvergedAbsolute);
    }
    for r in &mm {
        assert_ne!(r.status, IterativeStatus::ConvergedAbsolute, "{:?}", r.status);
    }
}

#[test]
#[ignore = "statistics over 100 problems per family; run in release (see the module docs)"]
fn c1_c3_robustness_and_iteration_statistics() {
    let (mm, fb) = fluid_runs(100, 10);
    let (m_mean, m_std) = stats("fluid min-map", &mm);
    let (f_mean, f_std) = stats("fluid Fischer", &fb);
    let (cm, cf) = contact_runs(100, 30, 20);
    stats("contact min-map", &cm);
    let (c_mean, _) = stats("contact Fischer", &cf);
    let ok = |v: &[IterativeSolution]| v.iter().filter(|r| r.status.is_solved()).count();
    assert!(ok(&mm) >= 95 && ok(&fb) >= 95 && ok(&cf) >= 95);
    assert!(ok(&cm) <= 5);
    assert!((3.0..=5.0).contains(&m_mean) && m_std <= 1.0);
    assert!((4.0..=7.0).contains(&f_mean) && f_std <= 1.0);
    assert!((8.0..=20.0).contains(&c_mean));
}

/// 10 projected Gauss–Seidel sweeps (the warm start of spec §5; local, not the crate's PGS).
fn pgs_sweeps(a: &DenseMatrix, b: &[f64], sweeps: usize) -> Vec<f64> {
    let n = b.len();
    let mut x = vec![0.0; n];
    for _ in 0..sweeps {
        for i in 0..n {
            let r: f64 = b[i] + a.row(i).iter().zip(&x).map(|(p, q)| p * q).sum::<f64>();
            x[i] = (x[i] - r / a.get(i, i)).max(0.0);
        }
    }
    x
}

#[test]
#[ignore = "30 Dense PD(100) problems; run in release (see the module docs)"]
fn c6_warm_start() {
    let mut rng = SmallRng::seed_from_u64(6);
    let stop = stopping(1e-6, 1e-2, 30);
    let (mut cold_m, mut warm_m, mut cold_f, mut warm_f) = (vec![], vec![], vec![], vec![]);
    for _ in 0..30 {
        let a = dense_psd(100, 0.0, &mut rng);
        let b = rhs(&a, &mut rng);
        let x0 = pgs_sweeps(&a, &b, 10);
        let ms = minmap_settings(stop, true);
        let fs = fischer_settings(stop, true, JacobianStrategy::default_perturbation());
        cold_m.push(solve_minmap_newton(&a, &b, None, &ms).unwrap());
        warm_m.push(solve_minmap_newton(&a, &b, Some(&x0), &ms).unwrap());
        cold_f.push(solve_fischer_newton(&a, &b, None, &fs).unwrap());
        warm_f.push(solve_fischer_newton(&a, &b, Some(&x0), &fs).unwrap());
    }
    let (cm, _) = stats("cold min-map", &cold_m);
    let (wm, _) = stats("warm min-map", &warm_m);
    let (cf, _) = stats("cold Fischer", &cold_f);
    let (wf, _) = stats("warm Fischer", &warm_f);
    eprintln!("warm/cold: min-map {:.2}, Fischer {:.2}", wm / cm, wf / cf);
    assert!(warm_m.iter().chain(&warm_f).all(|r| r.status.is_solved()));
    assert!(wm <= 0.5 * cm && wf <= 0.5 * cf);
}

#[test]
#[ignore = "10 Dense PSD(100) problems per ratio; run in release (see the module docs)"]
fn c7_psd_sweep() {
    let mut rng = SmallRng::seed_from_u64(7);
    let stop = stopping(1e-4, 1e-2, 100);
    for k in 0..10 {
        let ratio = k as f64 / 10.0;
        let (mut mm, mut fb) = (vec![], vec![]);
        for _ in 0..10 {
            let a = dense_psd(100, ratio, &mut rng);
            let b = rhs(&a, &mut rng);
            mm.push(solve_minmap_newton(&a, &b, None, &minmap_settings(stop, true)).unwrap());
            let fs = fischer_settings(stop, true, JacobianStrategy::default_approximation());
            fb.push(solve_fischer_newton(&a, &b, None, &fs).unwrap());
        }
        stats(&format!("ratio {ratio:.1} min-map"), &mm);
        stats(&format!("ratio {ratio:.1} Fischer-approx"), &fb);
    }
}

/// C5: with tolerances 0 and (nearly) exact inner solves, the Newton merits on one Fluid(10)
/// problem drop below 1e-20 within 10 iterations, the last steps roughly doubling the number
/// of correct digits (quadratic convergence).
#[test]
fn c5_quadratic_convergence_on_fluid() {
    let mut rng = SmallRng::seed_from_u64(5);
    let a = fluid(10, &mut rng);
    let b = rhs(&a, &mut rng);
    let stop = StoppingCriteria { max_iterations: 10, absolute: 0.0, relative: 0.0, stagnation: 0.0 };
    let exact = proxima_lcp::iterative::SubSolver::Gmres { restart: Some(50), max_iterations: Some(500) };
    let ms = NewtonSettings { sub_solver: exact, forcing: 1e-13, ..minmap_settings(stop, true) };
    let mut fs = fischer_settings(stop, true, JacobianStrategy::default_perturbation());
    fs.newton = NewtonSettings { sub_solver: exact, forcing: 1e-13, ..fs.newton };
    for (name, r) in [
        ("min-map", solve_minmap_newton(&a, &b, None, &ms).unwrap()),
        ("Fischer", solve_fischer_newton(&a, &b, None, &fs).unwrap()),
    ] {
        let h = &r.merit_history;
        eprintln!("{name}: {:?} {:?}", r.status, h.iter().map(|t| format!("{t:.1e}")).collect::<Vec<_>>());
        // Tolerance 0 can never be met: the run ends by another test, never "converged".
        assert_ne!(r.status, IterativeStatus::ConvergedAbsolute);
        let first_tiny = h.iter().position(|&t| t < 1e-20).expect("merit below 1e-20");
        assert!(first_tiny <= 10, "{name}: {first_tiny}");
        // Quadratic: some step goes from θ < 1e-4 to θ ≤ θ^1.5 (digits at least ×1.5). Min-map
        // Newton is piecewise linear: once the active set is right one step lands on the
        // solution (e.g. 1.2e2 → 1e-24), which passes the same test.
        assert!(
            h.windows(2).any(|w| w[0] < 1e-4 && w[0] > 0.0 && w[1] <= w[0].powf(1.5))
                || first_tiny > 0 && h[first_tiny - 1] >= 1e-4 && name == "min-map",
            "{name}"
        );
    }
}
