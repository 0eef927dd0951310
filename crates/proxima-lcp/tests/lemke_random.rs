//! Random LCPs with a planted solution and a P-matrix M (so the plant is the unique solution):
//! Lemke must return exactly the plant in Rational and the plant to round-off in f64, through
//! the allocating entry point, a reused workspace and the fixed path.

use proxima_lcp::lemke::LemkeWorkspace;
use proxima_lcp::{
    Field, Lcp, LcpStatus, LemkeSettings, Rational, SolvePath, solve_lemke, solve_lemke_fixed,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// M = B Bᵀ + I (symmetric positive definite) or a strictly row-diagonally dominant matrix
/// with positive diagonal; both are P-matrices.
fn p_matrix_f64(rng: &mut SmallRng, n: usize, symmetric: bool) -> Vec<f64> {
    let b: Vec<f64> = (0..n * n).map(|_| rng.random_range(-1.0..1.0)).collect();
    let mut m = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            m[i * n + j] = if symmetric {
                (0..n).map(|k| b[i * n + k] * b[j * n + k]).sum::<f64>() + if i == j { 1.0 } else { 0.0 }
            } else {
                b[i * n + j]
            };
        }
        if !symmetric {
            let off: f64 = (0..n).filter(|&j| j != i).map(|j| m[i * n + j].abs()).sum();
            m[i * n + i] = off + rng.random_range(0.5..2.0);
        }
    }
    m
}

/// A planted complementary pair: about 40% of z zero (w positive there), the rest positive.
fn plant_f64(rng: &mut SmallRng, n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut z = vec![0.0; n];
    let mut w = vec![0.0; n];
    for i in 0..n {
        if rng.random_bool(0.4) {
            w[i] = rng.random_range(0.1..2.0);
        } else {
            z[i] = rng.random_range(0.1..2.0);
        }
    }
    (z, w)
}

fn q_from_plant<T: Field>(m: &[T], z: &[T], w: &[T]) -> Vec<T> {
    let n = z.len();
    (0..n)
        .map(|i| {
            let mut acc = w[i].clone();
            for j in 0..n {
                acc.sub_mul_assign(&m[i * n + j], &z[j]);
            }
            acc
        })
        .collect()
}

#[test]
fn planted_p_matrix_f64_up_to_60() {
    let mut rng = SmallRng::seed_from_u64(0x5eed_1e3e);
    let mut ws = LemkeWorkspace::<f64>::new();
    let settings = LemkeSettings::default();
    for &n in &[1usize, 2, 3, 5, 8, 12, 20, 33, 60] {
        for case in 0..6 {
            let m = p_matrix_f64(&mut rng, n, case % 2 == 0);
            let (z_true, w_true) = plant_f64(&mut rng, n);
            let q = q_from_plant(&m, &z_true, &w_true);
            let lcp = Lcp::new(m, q).unwrap();
            let scale = lcp.view().scale();
            let sol = solve_lemke(&lcp, &settings).unwrap();
            assert!(sol.status.is_solved(), "n={n} case={case}: {:?}", sol.status);
            assert!(sol.residual.min_map_inf <= 1e-10 * scale * n as f64, "n={n}: {:?}", sol.residual);
            for (a, b) in sol.z.iter().zip(&z_true) {
                assert!((a - b).abs() <= 1e-8 * (1.0 + b.abs()), "n={n} case={case}: {a} vs {b}");
            }
            // The reused workspace gives the very same answer.
            let report = ws.solve(lcp.view(), &settings).unwrap();
            assert_eq!((report.status, report.pivots), (sol.status, sol.pivots));
            assert_eq!(ws.z(), &sol.z[..]);
        }
    }
}

fn small_fraction(rng: &mut SmallRng) -> Rational {
    Rational::new(rng.random_range(1..=6), rng.random_range(1..=3))
}

/// Integer M = B Bᵀ + I (B in [-2, 2]) or integer diagonally dominant, fractional plant.
fn planted_rational(rng: &mut SmallRng, n: usize, symmetric: bool) -> (Lcp<Rational>, Vec<Rational>) {
    let b: Vec<i64> = (0..n * n).map(|_| rng.random_range(-2..=2)).collect();
    let mut m = vec![0i64; n * n];
    for i in 0..n {
        for j in 0..n {
            m[i * n + j] = if symmetric {
                (0..n).map(|k| b[i * n + k] * b[j * n + k]).sum::<i64>() + i64::from(i == j)
            } else {
                b[i * n + j]
            };
        }
        if !symmetric {
            let off: i64 = (0..n).filter(|&j| j != i).map(|j| m[i * n + j].abs()).sum();
            m[i * n + i] = off + rng.random_range(1..=3);
        }
    }
    let m: Vec<Rational> = m.into_iter().map(Rational::from_integer).collect();
    let mut z = vec![Rational::from_integer(0); n];
    let mut w = vec![Rational::from_integer(0); n];
    for i in 0..n {
        if rng.random_bool(0.4) {
            w[i] = small_fraction(rng);
        } else {
            z[i] = small_fraction(rng);
        }
    }
    let q = q_from_plant(&m, &z, &w);
    (Lcp::new(m, q).unwrap(), z)
}

#[test]
fn planted_p_matrix_rational_exact() {
    let mut rng = SmallRng::seed_from_u64(42);
    let settings = LemkeSettings::textbook();
    for &n in &[1usize, 2, 4, 7, 10, 12] {
        for case in 0..3 {
            let (lcp, z_true) = planted_rational(&mut rng, n, case % 2 == 0);
            let sol = solve_lemke(&lcp, &settings).unwrap();
            assert!(sol.status.is_solved(), "n={n}: {:?}", sol.status);
            assert_eq!(sol.z, z_true, "n={n} case={case}");
            assert!(sol.residual.min_map_inf.is_zero() && sol.residual.complementarity.is_zero());
        }
    }
}

#[test]
fn fixed_path_matches_plant_n12() {
    let mut rng = SmallRng::seed_from_u64(7);
    for case in 0..4 {
        let m = p_matrix_f64(&mut rng, 12, case % 2 == 0);
        let (z_true, w_true) = plant_f64(&mut rng, 12);
        let q = q_from_plant(&m, &z_true, &w_true);
        let ma: [[f64; 12]; 12] = core::array::from_fn(|i| core::array::from_fn(|j| m[i * 12 + j]));
        let qa: [f64; 12] = core::array::from_fn(|i| q[i]);
        let fx = solve_lemke_fixed(&ma, &qa, &LemkeSettings::default()).unwrap();
        assert!(fx.status.is_solved());
        let dynamic = solve_lemke(&Lcp::new(m, q).unwrap(), &LemkeSettings::default()).unwrap();
        assert_eq!((fx.status, fx.pivots, fx.path), (dynamic.status, dynamic.pivots, dynamic.path));
        assert_eq!(&fx.z[..], &dynamic.z[..]);
        for (a, b) in fx.z.iter().zip(&z_true) {
            assert!((a - b).abs() <= 1e-9 * (1.0 + b.abs()));
        }
    }
    let (lcp, z_true) = planted_rational(&mut rng, 12, false);
    let ma: [[Rational; 12]; 12] =
        core::array::from_fn(|i| core::array::from_fn(|j| lcp.m()[i * 12 + j].clone()));
    let qa: [Rational; 12] = core::array::from_fn(|i| lcp.q()[i].clone());
    let fx = solve_lemke_fixed(&ma, &qa, &LemkeSettings::default()).unwrap();
    assert_eq!((fx.status, fx.path), (LcpStatus::Solved, SolvePath::Lemke));
    assert_eq!(&fx.z[..], &z_true[..]);
}

/// Test-side brute force over supports (independent of the solver's own enumeration): does
/// the LCP have a solution with a non-singular complementary basis? `None` if some principal
/// submatrix is singular (then the brute force proves nothing when it finds no solution).
fn brute_force_solvable(lcp: &Lcp<Rational>) -> Option<bool> {
    let n = lcp.n();
    let zero = Rational::from_integer(0);
    let mut singular = false;
    for mask in 0u32..(1 << n) {
        let support: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
        let a: Vec<Rational> = support
            .iter()
            .flat_map(|&i| support.iter().map(move |&j| (i, j)))
            .map(|(i, j)| lcp.m()[i * n + j].clone())
            .collect();
        let b: Vec<Rational> = support.iter().map(|&i| lcp.q()[i].neg()).collect();
        let Some(x) =
            (if support.is_empty() { Some(vec![]) } else { proxima_lcp::linalg::solve(&a, &b, &zero) })
        else {
            singular = true;
            continue;
        };
        let mut z = vec![zero.clone(); n];
        for (&i, v) in support.iter().zip(x) {
            z[i] = v;
        }
        let r = lcp.residual(&z);
        if !r.min_z.is_negative() && !r.min_w.is_negative() && r.complementarity.is_zero() {
            return Some(true);
        }
    }
    if singular { None } else { Some(false) }
}

#[test]
fn lemke_agrees_with_brute_force_enumeration() {
    let mut rng = SmallRng::seed_from_u64(31337);
    let (mut solvable, mut unsolvable) = (0, 0);
    for case in 0..300 {
        let n = 1 + case % 4;
        let m = (0..n * n).map(|_| Rational::from_integer(rng.random_range(-3..=3))).collect();
        let q = (0..n).map(|_| Rational::from_integer(rng.random_range(-3..=3))).collect();
        let lcp = Lcp::new(m, q).unwrap();
        let sol = solve_lemke(&lcp, &LemkeSettings::default()).unwrap();
        if sol.status.is_solved() {
            assert!(sol.residual.min_map_inf.is_zero() && sol.residual.complementarity.is_zero());
            assert!(!sol.residual.min_z.is_negative() && !sol.residual.min_w.is_negative());
        }
        match brute_force_solvable(&lcp) {
            Some(true) => {
                assert!(
                    sol.status.is_solved(),
                    "case {case}: {:?} via {:?} on {lcp:?}",
                    sol.status,
                    sol.path
                );
                solvable += 1;
            }
            Some(false) => {
                assert_eq!(sol.status, LcpStatus::NoSolution, "case {case}");
                assert!(matches!(sol.path, SolvePath::Enumeration { singular_skipped: 0 }), "case {case}");
                unsolvable += 1;
            }
            None => {
                assert!(matches!(sol.status, LcpStatus::Solved | LcpStatus::Trivial | LcpStatus::NoSolution))
            }
        }
        // f64 on the same small-integer data reaches the same verdict.
        let float = solve_lemke(&lcp.convert::<f64>(), &LemkeSettings::default()).unwrap();
        assert_eq!(
            float.status.is_solved(),
            sol.status.is_solved(),
            "case {case}: f64 {:?} vs {:?}",
            float.status,
            sol.status
        );
    }
    assert!(solvable > 100 && unsolvable > 10, "{solvable} solvable, {unsolvable} unsolvable");
}
