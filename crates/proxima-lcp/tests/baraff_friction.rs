//! Boxed pivoting with an ODE-style friction index: a sliding/sticking particle with the
//! answers worked out by hand, coupled random problems checked against their own boxes, and
//! bad input.

use proxima_lcp::LcpError;
use proxima_lcp::LcpStatus;
use proxima_lcp::baraff::{BaraffSettings, FrictionIndex, boxed_residual, solve_baraff_friction};
use proxima_lcp::operator::{DenseMatrix, LinearOperator};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const INF: f64 = f64::INFINITY;

fn friction_of(normal: usize, mu: f64) -> Option<FrictionIndex> {
    Some(FrictionIndex { normal, mu })
}

/// Unit mass, rows n = z, t₁ = x, t₂ = y: A = J Jᵀ = I, b = J u_free; box friction with µ = 0.5.
/// Sliding along +x at speed 1 (u = (1, 0, −1)): λ_n = 1, λ_t₁ = −µλ_n = −0.5 (the box limit),
/// λ_t₂ = 0. Sticking (u = (0.2, 0, −1)): λ_t₁ = −0.2, inside the box.
#[test]
fn particle_sliding_and_sticking() {
    let a = DenseMatrix::from_row_major(3, vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]).unwrap();
    let f = [None, friction_of(0, 0.5), friction_of(0, 0.5)];
    let (lo, hi) = ([0.0, 0.0, 0.0], [INF, 0.0, 0.0]);
    let s = BaraffSettings::default();
    let slide = solve_baraff_friction(&a, &[-1.0, 1.0, 0.0], &lo, &hi, &f, &s, 20).unwrap();
    assert_eq!(slide.solution.status, LcpStatus::Solved);
    assert_eq!(slide.solution.x, vec![1.0, -0.5, 0.0]);
    assert_eq!(slide.bound_mismatch, 0.0);
    assert!(slide.rounds <= 3);
    let stick = solve_baraff_friction(&a, &[-1.0, 0.2, 0.0], &lo, &hi, &f, &s, 20).unwrap();
    assert_eq!(stick.solution.status, LcpStatus::Solved);
    assert!((stick.solution.x[1] + 0.2).abs() <= 1e-15 && stick.solution.x[0] == 1.0);
    // Separating contact (u_z > 0): no impulse at all.
    let apart = solve_baraff_friction(&a, &[1.0, 1.0, 0.0], &lo, &hi, &f, &s, 20).unwrap();
    assert_eq!(apart.solution.x, vec![0.0, 0.0, 0.0]);
}

#[test]
fn coupled_random_contacts_are_consistent_with_their_own_boxes() {
    let mut rng = SmallRng::seed_from_u64(31);
    let mut solved = 0;
    for case in 0..40 {
        let contacts = 1 + case % 6;
        let n = 3 * contacts;
        let r: Vec<f64> = (0..n * n).map(|_| rng.random::<f64>() - 0.5).collect();
        let mut data = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                data[i * n + j] = (0..n).map(|k| r[i * n + k] * r[j * n + k]).sum::<f64>() * 0.3;
            }
            data[i * n + i] += 1.0; // diagonally dominant-ish: the alternation settles
        }
        let a = DenseMatrix::from_row_major(n, data).unwrap();
        let b: Vec<f64> = (0..n)
            .map(|i| if i % 3 == 0 { -rng.random::<f64>() } else { rng.random::<f64>() - 0.5 })
            .collect();
        let f: Vec<Option<FrictionIndex>> =
            (0..n).map(|i| if i % 3 == 0 { None } else { friction_of(i - i % 3, 0.6) }).collect();
        let lo = vec![0.0; n];
        let hi: Vec<f64> = (0..n).map(|i| if i % 3 == 0 { INF } else { 0.0 }).collect();
        let sol = solve_baraff_friction(&a, &b, &lo, &hi, &f, &BaraffSettings::default(), 50).unwrap();
        if sol.solution.status != LcpStatus::Solved {
            assert_eq!(sol.solution.status, LcpStatus::MaxIterations, "case {case}");
            continue;
        }
        solved += 1;
        let x = &sol.solution.x;
        assert!(sol.bound_mismatch <= 1e-9, "case {case}");
        // The boxed conditions with the boxes of x's own normal impulses.
        let own_hi: Vec<f64> = (0..n).map(|i| f[i].map_or(INF, |fi| fi.mu * x[fi.normal])).collect();
        let own_lo: Vec<f64> = (0..n).map(|i| f[i].map_or(0.0, |fi| -fi.mu * x[fi.normal])).collect();
        let mut y = vec![0.0; n];
        a.apply(x, &mut y);
        y.iter_mut().zip(&b).for_each(|(yi, bi)| *yi += bi);
        let res = boxed_residual(&own_lo, &own_hi, x, &y);
        assert!(res.natural_inf <= 1e-8 && res.bound_violation <= 1e-9, "case {case}: {res:?}");
    }
    assert!(solved >= 30, "only {solved} of 40 settled");
}

#[test]
fn bad_friction_input_is_an_error() {
    let a = DenseMatrix::from_row_major(2, vec![1.0, 0.0, 0.0, 1.0]).unwrap();
    let s = BaraffSettings::default();
    let run = |f: &[Option<FrictionIndex>], lo: &[f64]| {
        solve_baraff_friction(&a, &[-1.0, 0.0], lo, &[INF, 0.0], f, &s, 5)
    };
    assert!(matches!(run(&[None, friction_of(1, 0.5)], &[0.0, 0.0]), Err(LcpError::InvalidProblem { .. })));
    assert!(matches!(run(&[None, friction_of(7, 0.5)], &[0.0, 0.0]), Err(LcpError::InvalidProblem { .. })));
    assert!(matches!(run(&[None, friction_of(0, -0.5)], &[0.0, 0.0]), Err(LcpError::InvalidProblem { .. })));
    assert!(matches!(
        run(&[None, friction_of(0, f64::NAN)], &[0.0, 0.0]),
        Err(LcpError::InvalidProblem { .. })
    ));
    assert!(matches!(
        run(&[friction_of(1, 0.5), friction_of(0, 0.5)], &[0.0, 0.0]),
        Err(LcpError::InvalidProblem { .. })
    ));
    assert!(matches!(
        run(&[None, friction_of(0, 0.5)], &[-1.0, 0.0]),
        Err(LcpError::InvalidBounds { index: 0, .. })
    ));
    assert!(matches!(run(&[None], &[0.0, 0.0]), Err(LcpError::DimensionMismatch { .. })));
    assert!(matches!(
        solve_baraff_friction(&a, &[-1.0, 0.0], &[0.0, 0.0], &[INF, 0.0], &[None, None], &s, 0),
        Err(LcpError::InvalidSettings { .. })
    ));
}
