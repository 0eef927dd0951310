//! Degenerate and cycling-prone LCPs: zeros in q, repeated rows and columns, all-equal q,
//! Murty's matrix. Without the lexicographic rule ties in the ratio test can make Lemke cycle;
//! with it every run must terminate, and on these solvable problems (M copositive-plus and the
//! LCP feasible, where Lemke's theorem promises a solution) with a verified solution — exactly
//! zero residual in Rational, and no fallback needed.

use proxima_lcp::{
    Field, Lcp, LcpStatus, LemkeSettings, Rational, SolvePath, solve_lemke, solve_lemke_fixed,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn ri(v: i64) -> Rational {
    Rational::from_integer(v)
}

/// Murty's upper-triangular matrix: 1 on the diagonal, 2 above.
fn murty<T: Field>(n: usize) -> Lcp<T> {
    let m = (0..n * n)
        .map(|k| match (k / n, k % n) {
            (i, j) if i == j => T::one(),
            (i, j) if i < j => T::from_i64(2),
            _ => T::zero(),
        })
        .collect();
    Lcp::new(m, vec![T::from_i64(-1); n]).unwrap()
}

#[test]
fn murty_matrix_6_to_10() {
    for n in 6..=10 {
        let mut expected = vec![ri(0); n];
        expected[n - 1] = ri(1);
        let exact = solve_lemke(&murty::<Rational>(n), &LemkeSettings::textbook()).unwrap();
        assert_eq!((exact.status, exact.path), (LcpStatus::Solved, SolvePath::Lemke), "n={n}");
        assert_eq!(exact.z, expected);
        assert!(exact.residual.min_map_inf.is_zero());
        let float = solve_lemke(&murty::<f64>(n), &LemkeSettings::textbook()).unwrap();
        assert_eq!(float.status, LcpStatus::Solved);
        assert_eq!(float.z, expected.iter().map(|v| v.to_f64()).collect::<Vec<_>>());
        assert_eq!(float.pivots, exact.pivots);
    }
    let m: [[f64; 8]; 8] = core::array::from_fn(|i| core::array::from_fn(|j| murty::<f64>(8).m()[i * 8 + j]));
    let fx = solve_lemke_fixed(&m, &[-1.0; 8], &LemkeSettings::textbook()).unwrap();
    assert_eq!(fx.z, [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn pivot_limit_reports_max_iterations() {
    let settings = LemkeSettings { max_pivots: Some(1), ..LemkeSettings::textbook() };
    let sol = solve_lemke(&murty::<Rational>(6), &settings).unwrap();
    assert_eq!((sol.status, sol.pivots), (LcpStatus::MaxIterations, 1));
    assert!(!sol.status.is_solved());
}

/// Degenerate copositive-plus problems: M = BᵀB + S (S skew-symmetric, entries in {-1, 0, 1}),
/// so xᵀMx ≥ 0; planted z, w with many double zeros (zᵢ = wᵢ = 0), so q has zeros and ties.
fn degenerate_case(rng: &mut SmallRng, n: usize) -> Lcp<Rational> {
    let b: Vec<i64> = (0..n * n).map(|_| rng.random_range(-1..=1)).collect();
    let mut m = vec![0i64; n * n];
    for i in 0..n {
        for j in 0..n {
            m[i * n + j] = (0..n).map(|k| b[k * n + i] * b[k * n + j]).sum();
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            let s = rng.random_range(-1..=1);
            m[i * n + j] += s;
            m[j * n + i] -= s;
        }
    }
    // Repeat a row and its column now and then (M stays copositive-plus: x ↦ duplicate).
    if n >= 3 && rng.random_bool(0.3) {
        let (src, dst) = (0, n - 1);
        for k in 0..n {
            m[dst * n + k] = m[src * n + k];
        }
        for k in 0..n {
            m[k * n + dst] = m[k * n + src];
        }
    }
    let z: Vec<i64> =
        (0..n).map(|_| if rng.random_bool(0.5) { rng.random_range(0..=2) } else { 0 }).collect();
    let w: Vec<i64> = z.iter().map(|&zi| if zi == 0 { rng.random_range(0..=1) } else { 0 }).collect();
    let q: Vec<Rational> =
        (0..n).map(|i| ri(w[i] - (0..n).map(|j| m[i * n + j] * z[j]).sum::<i64>())).collect();
    Lcp::new(m.into_iter().map(ri).collect(), q).unwrap()
}

#[test]
fn degenerate_copositive_plus_always_solved_exactly() {
    let mut rng = SmallRng::seed_from_u64(2024);
    let textbook = LemkeSettings::textbook();
    let mut nontrivial = 0;
    for case in 0..400 {
        let n = 2 + case % 5;
        let lcp = degenerate_case(&mut rng, n);
        let sol = solve_lemke(&lcp, &textbook).unwrap();
        assert!(sol.status.is_solved(), "case {case}: {:?} on {lcp:?}", sol.status);
        assert!(sol.residual.min_map_inf.is_zero() && sol.residual.complementarity.is_zero());
        assert!(!sol.residual.min_z.is_negative() && !sol.residual.min_w.is_negative());
        nontrivial += usize::from(sol.status == LcpStatus::Solved);
        // f64 on the same (integer, exactly representable) data: solved and certified.
        let float = solve_lemke(&lcp.convert::<f64>(), &LemkeSettings::default()).unwrap();
        assert!(float.status.is_solved(), "case {case}: f64 {:?}", float.status);
        assert!(float.residual.min_map_inf <= 1e-9 * n as f64 * lcp.convert::<f64>().view().scale());
    }
    assert!(nontrivial > 200, "only {nontrivial} non-trivial cases");
}

#[test]
fn all_equal_q_and_zero_q_entries() {
    // All-equal q on a P-matrix with repeated structure: every first ratio ties.
    let n = 7;
    let m: Vec<Rational> = (0..n * n).map(|k| if k / n == k % n { ri(3) } else { ri(1) }).collect();
    let lcp = Lcp::new(m, vec![ri(-5); n]).unwrap();
    let sol = solve_lemke(&lcp, &LemkeSettings::textbook()).unwrap();
    assert_eq!(sol.status, LcpStatus::Solved);
    // Symmetric problem with unique solution: zᵢ = 5 / (3 + 6) for all i.
    assert_eq!(sol.z, vec![Rational::new(5, 9); n]);
    // Zeros in q next to negative entries (degenerate from the first pivot).
    let lcp = Lcp::from_rows(
        vec![vec![ri(2), ri(1), ri(0)], vec![ri(1), ri(2), ri(1)], vec![ri(0), ri(1), ri(2)]],
        vec![ri(0), ri(-2), ri(0)],
    )
    .unwrap();
    let sol = solve_lemke(&lcp, &LemkeSettings::textbook()).unwrap();
    assert_eq!(sol.status, LcpStatus::Solved);
    assert_eq!(sol.z, vec![ri(0), ri(1), ri(0)]);
    assert_eq!(sol.w, vec![ri(1), ri(0), ri(1)]);
    // Duplicated rows and columns, duplicated q: a singular PSD matrix.
    let lcp = Lcp::from_rows(vec![vec![ri(1), ri(1)], vec![ri(1), ri(1)]], vec![ri(-1), ri(-1)]).unwrap();
    let sol = solve_lemke(&lcp, &LemkeSettings::textbook()).unwrap();
    assert_eq!(sol.status, LcpStatus::Solved);
    assert_eq!(sol.z[0].add(&sol.z[1]), ri(1));
    assert!(sol.residual.min_map_inf.is_zero());
}

/// Problems on which Lemke *cycles* when ratio ties are broken by row index instead of
/// lexicographically: found by a seeded random search over M ∈ {-2..2}ⁿˣⁿ, q ∈ {-1, 0}ⁿ, where
/// the largest-index rule (first two) or both the smallest- and the largest-index rules (third)
/// repeat a basis until any pivot limit. The lexicographic rule solves each in a few pivots.
#[test]
fn index_rule_cycling_instances_are_solved() {
    let cases: [(&[i64], &[i64], usize); 3] = [
        (&[2, 1, -2, 0, 1, 0, 2, 2, -1], &[0, -1, -1], 6),
        (&[1, 1, -1, -1, 2, 2, 1, 2, 1], &[-1, -1, -1], 5),
        (
            &[
                -1, 1, -1, 0, -1, 2, 0, 2, 0, -2, -2, -2, 0, 1, -2, -2, -2, -1, 0, 0, -2, -1, -1, 1, 1, -1,
                1, 1, -1, 2, 0, 1, -2, -2, 2, -1,
            ],
            &[-1, -1, 0, -1, -1, 0],
            10,
        ),
    ];
    for (k, (m, q, pivots)) in cases.iter().enumerate() {
        let lcp = Lcp::new(m.iter().map(|&v| ri(v)).collect(), q.iter().map(|&v| ri(v)).collect()).unwrap();
        let exact = solve_lemke(&lcp, &LemkeSettings::textbook()).unwrap();
        assert_eq!((exact.status, exact.pivots), (LcpStatus::Solved, *pivots), "case {k}");
        assert!(exact.residual.min_map_inf.is_zero() && exact.residual.complementarity.is_zero());
        let float = solve_lemke(&lcp.convert::<f64>(), &LemkeSettings::textbook()).unwrap();
        assert_eq!((float.status, float.pivots), (exact.status, exact.pivots), "case {k}");
        assert_eq!(float.z, exact.z.iter().map(Rational::to_f64).collect::<Vec<_>>());
    }
    // One that ray-terminates under the lexicographic rule: enumeration (no singular principal
    // submatrix) certifies that there is indeed no solution.
    let m: [i64; 16] = [-2, -1, 0, 2, -1, 1, 0, 2, 2, 0, -2, 0, 2, 1, 1, 1];
    let lcp = Lcp::new(m.iter().map(|&v| ri(v)).collect(), [0, -1, -1, -1].map(ri).to_vec()).unwrap();
    let textbook = solve_lemke(&lcp, &LemkeSettings::textbook()).unwrap();
    assert_eq!(textbook.status, LcpStatus::NoSolution);
    let full = solve_lemke(&lcp, &LemkeSettings::default()).unwrap();
    assert_eq!(
        (full.status, full.path),
        (LcpStatus::NoSolution, SolvePath::Enumeration { singular_skipped: 0 })
    );
}
