//! Bad input to the QP builders is an `Err(LcpError)`, never a panic: one test per rule.

use proxima_lcp::qp::{ConvexQp, QpSettings, solve_qp};
use proxima_lcp::{LcpError, Rational};

fn r(v: i64) -> Rational {
    Rational::from_integer(v)
}
fn rv(v: &[i64]) -> Vec<Rational> {
    v.iter().map(|&x| r(x)).collect()
}
fn id2() -> ConvexQp<f64> {
    ConvexQp::new(vec![1.0, 0.0, 0.0, 1.0], vec![0.0, 0.0], 0.0).unwrap()
}
fn is_invalid_problem<T: std::fmt::Debug>(res: Result<T, LcpError>) -> bool {
    matches!(res, Err(LcpError::InvalidProblem { .. }))
}

#[test]
fn empty_problems() {
    assert_eq!(ConvexQp::<f64>::new(vec![], vec![], 0.0).unwrap_err(), LcpError::Empty);
    assert_eq!(ConvexQp::<f64>::new(vec![1.0], vec![], 0.0).unwrap_err(), LcpError::Empty);
    assert_eq!(ConvexQp::<Rational>::linear(vec![], r(0)).unwrap_err(), LcpError::Empty);
}

#[test]
fn dimension_mismatches() {
    let err = ConvexQp::new(vec![1.0, 0.0, 0.0], vec![0.0, 0.0], 0.0).unwrap_err();
    assert!(matches!(err, LcpError::DimensionMismatch { expected: 4, found: 3, .. }), "{err:?}");
    let err = id2().with_inequalities(vec![1.0, 1.0, 1.0], vec![0.0, 0.0]).unwrap_err();
    assert!(matches!(err, LcpError::DimensionMismatch { expected: 4, found: 3, .. }), "{err:?}");
    let err = id2().with_inequalities(vec![1.0, 1.0], vec![]).unwrap_err();
    assert!(matches!(err, LcpError::DimensionMismatch { expected: 0, found: 2, .. }), "{err:?}");
    let err = id2().with_equalities(vec![1.0], vec![0.0]).unwrap_err();
    assert!(matches!(err, LcpError::DimensionMismatch { expected: 2, found: 1, .. }), "{err:?}");
    let err = id2().with_equalities(vec![1.0, 1.0, 1.0, 1.0], vec![0.0]).unwrap_err();
    assert!(matches!(err, LcpError::DimensionMismatch { expected: 2, found: 4, .. }), "{err:?}");
    // Zero rows are fine and add nothing.
    let qp = id2().with_inequalities(vec![], vec![]).unwrap().with_equalities(vec![], vec![]).unwrap();
    assert_eq!((qp.num_inequalities(), qp.num_equalities()), (0, 0));
}

#[test]
fn non_finite_entries() {
    let nan = f64::NAN;
    let inf = f64::INFINITY;
    let cases: Vec<(LcpError, &str, usize)> = vec![
        (ConvexQp::new(vec![1.0, nan, nan, 1.0], vec![0.0, 0.0], 0.0).unwrap_err(), "A", 1),
        (ConvexQp::new(vec![1.0, 0.0, 0.0, 1.0], vec![0.0, -inf], 0.0).unwrap_err(), "b", 1),
        (ConvexQp::new(vec![1.0, 0.0, 0.0, 1.0], vec![0.0, 0.0], nan).unwrap_err(), "c", 0),
        (ConvexQp::linear(vec![inf], 0.0).unwrap_err(), "b", 0),
        (id2().with_inequalities(vec![1.0, nan], vec![0.0]).unwrap_err(), "D", 1),
        (id2().with_inequalities(vec![1.0, 1.0], vec![inf]).unwrap_err(), "e", 0),
        (id2().with_equalities(vec![nan, 1.0], vec![0.0]).unwrap_err(), "A_eq", 0),
        (id2().with_equalities(vec![1.0, 1.0], vec![nan]).unwrap_err(), "b_eq", 0),
    ];
    for (err, what, index) in cases {
        assert_eq!(err, LcpError::NonFinite { what, index });
    }
    let err = ConvexQp::<f32>::new(vec![f32::NAN], vec![0.0], 0.0).unwrap_err();
    assert_eq!(err, LcpError::NonFinite { what: "A", index: 0 });
}

#[test]
fn asymmetric_a() {
    assert!(is_invalid_problem(ConvexQp::new(vec![1.0, 0.5, 0.0, 1.0], vec![0.0, 0.0], 0.0)));
    assert!(is_invalid_problem(ConvexQp::new(rv(&[1, 1, 2, 3]), rv(&[0, 0]), r(0))));
    // Exact scalars: any difference is an asymmetry.
    let tiny = Rational::new(1, 1_000_000_000_000_000_000);
    let a = vec![r(1), r(1), r(1) + &tiny, r(3)];
    assert!(is_invalid_problem(ConvexQp::new(a, rv(&[0, 0]), r(0))));
    // Floats: rounding-level asymmetry (relative 1e-12 of max |A|) is accepted and A kept as is.
    let a = vec![1.0, 0.1 + 0.2, 0.3, 1.0];
    let qp = ConvexQp::new(a.clone(), vec![0.0, 0.0], 0.0).unwrap();
    assert_eq!(qp.a(), a.as_slice());
    assert!(is_invalid_problem(ConvexQp::new(vec![1e6, 1.0, 1.0 + 1e-5, 1e6], vec![0.0, 0.0], 0.0)));
    assert!(ConvexQp::new(vec![1e6, 1.0, 1.0 + 1e-7, 1e6], vec![0.0, 0.0], 0.0).is_ok());
    // f32 uses its own roundoff.
    assert!(ConvexQp::<f32>::new(vec![1.0, 0.1 + 0.2, 0.3, 1.0], vec![0.0, 0.0], 0.0).is_ok());
}

#[test]
fn free_indices() {
    assert!(is_invalid_problem(id2().with_free(vec![2])));
    assert!(is_invalid_problem(id2().with_free(vec![0, 0])));
    assert!(is_invalid_problem(id2().with_free(vec![1]).unwrap().with_free(vec![1])));
    let qp = id2().with_free(vec![1]).unwrap().with_free(vec![0]).unwrap();
    assert_eq!(qp.free(), &[0, 1]);
    assert!(qp.is_free(0) && qp.is_free(1));
    assert!(id2().with_free(vec![]).unwrap().free().is_empty());
}

#[test]
fn free_block_must_be_positive_definite() {
    // An LP cannot have eliminated free variables: A_uu = 0.
    let lp = ConvexQp::linear(vec![1.0, 1.0], 0.0).unwrap();
    assert!(is_invalid_problem(lp.with_free(vec![0])));
    let lp = ConvexQp::linear(rv(&[1, 1]), r(0)).unwrap();
    assert!(is_invalid_problem(lp.with_free(vec![1])));
    // Positive diagonal but indefinite block [[1, 2], [2, 1]] (A itself is indefinite; only the
    // free block is checked).
    let qp = ConvexQp::new(rv(&[1, 2, 0, 2, 1, 0, 0, 0, 1]), rv(&[0, 0, 0]), r(0)).unwrap();
    assert!(qp.clone().with_free(vec![0]).is_ok());
    assert!(is_invalid_problem(qp.clone().with_free(vec![0, 1])));
    // Singular PSD block [[1, 1], [1, 1]]; exact and float.
    let qp = ConvexQp::new(rv(&[1, 1, 1, 1]), rv(&[0, 0]), r(0)).unwrap();
    assert!(is_invalid_problem(qp.with_free(vec![0, 1])));
    let qp = ConvexQp::new(vec![1.0, 1.0, 1.0, 1.0], vec![0.0, 0.0], 0.0).unwrap();
    assert!(is_invalid_problem(qp.with_free(vec![0, 1])));
    // Negative definite.
    let qp = ConvexQp::new(vec![-1.0], vec![0.0], 0.0).unwrap();
    assert!(is_invalid_problem(qp.with_free(vec![0])));
    // Free set checked as a whole across calls.
    let qp = ConvexQp::new(vec![1.0, 1.0, 1.0, 1.0], vec![0.0, 0.0], 0.0).unwrap();
    assert!(is_invalid_problem(qp.with_free(vec![0]).unwrap().with_free(vec![1])));
}

#[test]
fn bad_settings_are_errors() {
    let qp = id2().with_inequalities(vec![1.0, 1.0], vec![1.0]).unwrap();
    let mut settings = QpSettings::default();
    settings.lemke.pivot_tolerance = -1.0;
    assert!(matches!(solve_qp(&qp, &settings), Err(LcpError::InvalidSettings { .. })));
}
