//! Bad input to every Lemke entry point — settings out of range, malformed data — is an `Err`
//! naming the problem, never a panic; valid non-default settings behave as documented.

use proxima_lcp::lemke::{Covering, LemkeFallback, LemkeWorkspace};
use proxima_lcp::{
    Lcp, LcpError, LcpStatus, LcpView, LemkeSettings, Rational, solve_lemke, solve_lemke_fixed,
};

fn problem() -> ([[f64; 3]; 3], [f64; 3]) {
    ([[1.0, 0.0, -2.0], [0.0, 2.0, -1.0], [2.0, 1.0, 0.0]], [-1.0, -1.0, -1.0])
}

/// Runs all three entry points with `settings` and returns their three results' errors.
fn errors(settings: &LemkeSettings) -> [Option<LcpError>; 3] {
    let (m, q) = problem();
    let lcp = Lcp::new(m.as_flattened().to_vec(), q.to_vec()).unwrap();
    [
        solve_lemke(&lcp, settings).err(),
        LemkeWorkspace::new().solve(lcp.view(), settings).err(),
        solve_lemke_fixed(&m, &q, settings).err(),
    ]
}

fn assert_invalid(settings: LemkeSettings, field: &str) {
    for err in errors(&settings) {
        match err {
            Some(LcpError::InvalidSettings { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{field}: expected InvalidSettings, got {other:?}"),
        }
    }
}

#[test]
fn tolerances_out_of_range() {
    for bad in [f64::NAN, f64::INFINITY, -1e-12] {
        assert_invalid(LemkeSettings { pivot_tolerance: bad, ..Default::default() }, "pivot_tolerance");
    }
    for bad in [f64::NAN, f64::NEG_INFINITY, 0.0, -1.0] {
        assert_invalid(LemkeSettings { residual_tolerance: bad, ..Default::default() }, "residual_tolerance");
    }
}

#[test]
fn zero_pivot_limit() {
    assert_invalid(LemkeSettings { max_pivots: Some(0), ..Default::default() }, "max_pivots");
}

#[test]
fn covering_vector_length_and_sign() {
    for err in errors(&LemkeSettings { covering: Covering::Custom(vec![1.0, 1.0]), ..Default::default() }) {
        assert_eq!(err, Some(LcpError::DimensionMismatch { what: "covering vector", expected: 3, found: 2 }));
    }
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert_invalid(
            LemkeSettings { covering: Covering::Custom(vec![1.0, bad, 1.0]), ..Default::default() },
            "covering",
        );
    }
    // Positive in f64 but zero once rounded to f32.
    let settings = LemkeSettings { covering: Covering::Custom(vec![1.0, 1e-50, 1.0]), ..Default::default() };
    let lcp32: Lcp<f32> = Lcp::new(vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], vec![-1.0; 3]).unwrap();
    assert!(matches!(
        solve_lemke(&lcp32, &settings),
        Err(LcpError::InvalidSettings { field: "covering", .. })
    ));
    // ... while f64 and Rational accept it.
    assert!(solve_lemke(&lcp32.convert::<f64>(), &settings).is_ok());
    assert!(solve_lemke(&lcp32.convert::<Rational>(), &settings).is_ok());
}

#[test]
fn malformed_data_is_rejected_by_every_entry_point() {
    let settings = LemkeSettings::default();
    let (mut m, q) = problem();
    m[1][2] = f64::NAN;
    assert_eq!(solve_lemke_fixed(&m, &q, &settings).err(), Some(LcpError::NonFinite { what: "M", index: 5 }));
    let (m, mut q) = problem();
    q[2] = f64::INFINITY;
    assert_eq!(solve_lemke_fixed(&m, &q, &settings).err(), Some(LcpError::NonFinite { what: "q", index: 2 }));
    let empty: [[f64; 0]; 0] = [];
    assert_eq!(solve_lemke_fixed(&empty, &[], &settings).err(), Some(LcpError::Empty));
    assert!(LcpView::new(&[1.0, 2.0], &[1.0]).is_err());
    assert!(Lcp::new(vec![f64::NAN], vec![1.0]).is_err());
}

#[test]
fn valid_non_default_settings() {
    let (m, q) = problem();
    let lcp = Lcp::new(m.as_flattened().to_vec(), q.to_vec()).unwrap();
    // A custom covering vector reaches the same (unique) solution.
    let custom =
        LemkeSettings { covering: Covering::Custom(vec![3.0, 0.5, 2.0]), ..LemkeSettings::textbook() };
    let sol = solve_lemke(&lcp, &custom).unwrap();
    assert_eq!(sol.status, LcpStatus::Solved);
    for (a, b) in sol.z.iter().zip([1.0, 0.5, 0.0]) {
        assert!((a - b).abs() < 1e-15);
    }
    // Zero tolerances are valid (floored at a multiple of the machine epsilon).
    let zero_tol = LemkeSettings { pivot_tolerance: 0.0, ..Default::default() };
    assert_eq!(solve_lemke(&lcp, &zero_tol).unwrap().status, LcpStatus::Solved);
    // `LemkeFallback::none()` is the textbook configuration.
    assert_eq!(LemkeSettings::textbook().fallback, LemkeFallback::none());
    assert_eq!(LemkeSettings::default().max_pivots_for(6), 128);
    assert_eq!(LemkeSettings::default().max_pivots_for(20), 65_536);
    assert_eq!(LemkeSettings::default().max_pivots_for(300), 90_000);
    assert_eq!(LemkeSettings { max_pivots: Some(7), ..Default::default() }.max_pivots_for(100), 7);
}
