//! Edge cases of `QuadraticField`: radicand validation, exact square roots and normalization,
//! the radicand-mixing rule, division by zero, Pell-equation near-cancellations, printing and
//! conversion to `f64`.

use core::cmp::Ordering;

use proxima_num::{Field, QuadraticField, QuadraticFieldError, Radicand, Rational};

fn r(n: i64, d: i64) -> Rational {
    Rational::new(n, d)
}

fn int(n: i64) -> Rational {
    Rational::from_integer(n)
}

fn qf(x: i64, y: i64, d: i64) -> QuadraticField {
    QuadraticField::new(int(x), int(y), int(d)).unwrap()
}

#[test]
fn new_rejects_perfect_squares_zero_and_negative_radicands() {
    assert_eq!(
        QuadraticField::new(int(1), int(1), int(4)).unwrap_err(),
        QuadraticFieldError::PerfectSquareRadicand { d: Box::new(int(4)), root: Box::new(int(2)) }
    );
    assert_eq!(
        QuadraticField::new(int(1), int(1), r(9, 4)).unwrap_err(),
        QuadraticFieldError::PerfectSquareRadicand { d: Box::new(r(9, 4)), root: Box::new(r(3, 2)) }
    );
    // Validation applies even when y = 0.
    assert!(QuadraticField::new(int(1), int(0), int(1)).is_err());
    assert_eq!(QuadraticField::new(int(1), int(1), int(0)).unwrap_err(), QuadraticFieldError::ZeroRadicand);
    assert_eq!(
        QuadraticField::new(int(1), int(1), int(-2)).unwrap_err(),
        QuadraticFieldError::NegativeRadicand(int(-2))
    );
    assert_eq!(Radicand::new(int(-3)).unwrap_err(), QuadraticFieldError::NegativeRadicand(int(-3)));
    // Non-squares are accepted, including non-integer ones and squares times a non-square.
    for d in [int(2), int(3), r(7, 5), r(1, 2), int(8), r(4, 3), int(1_000_001)] {
        assert!(QuadraticField::new(int(0), int(1), d.clone()).is_ok(), "{d} is not a square");
    }
    let message = QuadraticField::new(int(1), int(1), int(4)).unwrap_err().to_string();
    assert!(message.contains("perfect square"), "{message}");
}

#[test]
fn sqrt_of_is_exact_and_rational_for_squares() {
    assert_eq!(QuadraticField::sqrt_of(r(9, 4)).unwrap(), QuadraticField::from(r(3, 2)));
    assert!(QuadraticField::sqrt_of(r(9, 4)).unwrap().is_rational());
    assert_eq!(QuadraticField::sqrt_of(int(0)).unwrap(), QuadraticField::zero());
    assert_eq!(QuadraticField::sqrt_of(int(-1)).unwrap_err(), QuadraticFieldError::NegativeRadicand(int(-1)));

    let root2 = QuadraticField::sqrt_of(int(2)).unwrap();
    assert_eq!((root2.x(), root2.y(), root2.d()), (&int(0), &int(1), Some(&int(2))));
    assert_eq!(root2.mul(&root2), QuadraticField::from_i64(2));
    assert_eq!(root2.to_f64(), 2f64.sqrt());

    let inv = QuadraticField::inv_sqrt_of(int(2)).unwrap();
    assert_eq!(inv.to_string(), "1/2*sqrt(2)");
    assert_eq!(inv.mul(&root2), QuadraticField::one());
    assert_eq!(QuadraticField::inv_sqrt_of(r(4, 9)).unwrap(), QuadraticField::from(r(3, 2)));
    assert_eq!(QuadraticField::inv_sqrt_of(int(0)).unwrap_err(), QuadraticFieldError::ZeroRadicand);
}

#[test]
fn normalized_vectors_have_exact_unit_length() {
    // (1, 2, 3)/√14 = (i/14)·√14: the cylinder axis of the reference's Listing 8.
    let u = QuadraticField::normalized(&[int(1), int(2), int(3)]).unwrap();
    for (i, ui) in u.iter().enumerate() {
        assert_eq!(ui.x(), &int(0));
        assert_eq!(ui.y(), &r(i as i64 + 1, 14));
        assert_eq!(ui.d(), Some(&int(14)));
    }
    let length2 = u.iter().fold(QuadraticField::zero(), |acc, ui| acc.add(&ui.mul(ui)));
    assert_eq!(length2, QuadraticField::one());
    assert!((u[0].to_f64() - 1.0 / 14f64.sqrt()).abs() < 1e-16);

    // A perfect-square length gives rationals.
    let u = QuadraticField::normalized(&[int(3), int(-4)]).unwrap();
    assert_eq!(u, vec![QuadraticField::from(r(3, 5)), QuadraticField::from(r(-4, 5))]);
    assert!(u.iter().all(QuadraticField::is_rational));

    assert_eq!(QuadraticField::normalized(&[int(0), int(0)]).unwrap_err(), QuadraticFieldError::ZeroVector);
    assert_eq!(QuadraticField::normalized(&[]).unwrap_err(), QuadraticFieldError::ZeroVector);
}

#[test]
fn conjugate_pair_multiplies_to_one() {
    // (1 + √2)(−1 + √2) = 2 − 1 = 1, a plain rational afterwards.
    let a = qf(1, 1, 2);
    let b = qf(-1, 1, 2);
    let product = a.mul(&b);
    assert_eq!(product, QuadraticField::one());
    assert!(product.is_rational() && product.d().is_none());
    assert_eq!(a.recip(), b);
    assert_eq!(a.norm(), int(-1));
    assert_eq!(a.conjugate(), qf(1, -1, 2));
    assert_eq!(&a * &b, QuadraticField::one());
    assert_eq!(QuadraticField::one() / a.clone(), b);
}

#[test]
fn pell_near_cancellations_have_exact_signs() {
    // 1393² − 2·985² = 1940449 − 1940450 = −1: 1393 − 985√2 = −1/(1393 + 985√2) ≈ −3.59e-4,
    // negative (1393/985 is a convergent of √2 from below).
    let v = qf(1393, -985, 2);
    assert_eq!(v.norm(), int(-1));
    assert_eq!(v.signum_ordering(), Ordering::Less);
    assert!(v.is_negative());
    let w = qf(-1393, 985, 2);
    assert_eq!(w.signum_ordering(), Ordering::Greater);
    assert!(w.is_positive());
    assert!(v < w && v < QuadraticField::zero());
    // 577² − 2·408² = +1: 577 − 408√2 = 1/(577 + 408√2) ≈ 8.67e-4 is positive.
    let p = qf(577, -408, 2);
    assert_eq!(p.norm(), int(1));
    assert!(p.is_positive());
    assert!(qf(-577, 408, 2).is_negative());
    // A much harder one: 665857² − 2·470832² = 1, the value is ≈ 7.5e-7.
    let h = qf(665_857, -470_832, 2);
    assert_eq!(h.norm(), int(1));
    assert!(h.is_positive());

    // to_f64 does not suffer the cancellation: compare with 1/(x + y√2), which has none.
    let expect_v = -1.0 / (1393.0 + 985.0 * 2f64.sqrt());
    let expect_h = 1.0 / (665_857.0 + 470_832.0 * 2f64.sqrt());
    assert!((v.to_f64() - expect_v).abs() <= 4e-16 * expect_v.abs(), "{}", v.to_f64());
    assert!((h.to_f64() - expect_h).abs() <= 4e-16 * expect_h, "{}", h.to_f64());
}

#[test]
#[should_panic(expected = "QuadraticField division by zero")]
fn division_by_zero_panics() {
    let _ = qf(1, 1, 2).div(&QuadraticField::zero());
}

#[test]
#[should_panic(expected = "QuadraticField division by zero")]
fn reciprocal_of_zero_panics() {
    let zero_from_cancellation = qf(1, 1, 2).sub(&qf(1, 1, 2));
    let _ = zero_from_cancellation.recip();
}

#[test]
#[should_panic(expected = "mixing elements of Q(sqrt(2)) and Q(sqrt(3))")]
fn mismatched_radicands_panic_in_arithmetic() {
    let _ = qf(0, 1, 2).add(&qf(0, 1, 3));
}

#[test]
#[should_panic(expected = "must share the same radicand")]
fn mismatched_radicands_panic_in_comparison() {
    let _ = qf(0, 1, 2) < qf(0, 1, 3);
}

#[test]
#[should_panic(expected = "must share the same radicand")]
fn mismatched_radicands_panic_in_pivot_kernel() {
    let mut acc = qf(1, 1, 2);
    acc.sub_mul_assign(&qf(0, 1, 3), &QuadraticField::one());
}

#[test]
#[should_panic(expected = "must share the same radicand")]
fn equivalent_but_different_radicands_still_panic() {
    // √8 = 2√2, but 8 and 2 are different radicands.
    let _ = qf(0, 1, 8) == qf(0, 2, 2);
}

#[test]
fn rationals_mix_with_every_radicand() {
    let half = QuadraticField::from(r(1, 2));
    let a = qf(0, 1, 2).add(&half);
    let b = qf(0, 1, 3).add(&half);
    assert_eq!(a.to_string(), "1/2 + sqrt(2)");
    assert_eq!(b.to_string(), "1/2 + sqrt(3)");
    // A rational produced inside a d = 2 computation is a plain rational again.
    let one = qf(1, 1, 2).mul(&qf(-1, 1, 2));
    assert_eq!(one.add(&qf(0, 1, 3)).to_string(), "1 + sqrt(3)");
    // Separately validated copies of the same radicand mix.
    let c = QuadraticField::new(int(0), int(1), int(2)).unwrap();
    assert_eq!(c.add(&qf(0, 1, 2)), qf(0, 2, 2));
    assert!(qf(1, 0, 5) < qf(0, 1, 2));
}

#[test]
fn display_and_accessors() {
    let d = Radicand::new(int(2)).unwrap();
    assert_eq!(d.element(r(1, 2), r(3, 4)).to_string(), "1/2 + 3/4*sqrt(2)");
    assert_eq!(d.element(r(1, 2), r(-3, 4)).to_string(), "1/2 - 3/4*sqrt(2)");
    assert_eq!(d.element(int(-1), int(1)).to_string(), "-1 + sqrt(2)");
    assert_eq!(d.element(int(0), int(-1)).to_string(), "-sqrt(2)");
    assert_eq!(d.element(r(11, 30), int(0)).to_string(), "11/30");
    assert_eq!(format!("{:?}", d.element(int(0), r(-1, 7))), "-1/7*sqrt(2)");
    assert_eq!(d.sqrt(), QuadraticField::sqrt_of(int(2)).unwrap());
    assert_eq!(d.value(), &int(2));
    let v = d.element(r(1, 2), r(3, 4));
    assert_eq!(v.radicand(), Some(d.clone()));
    assert_eq!(v.with_same_radicand(int(1), int(1)), d.element(int(1), int(1)));
    assert_eq!(v.to_rational(), None);
    assert_eq!(QuadraticField::from_i64(7).to_rational(), Some(int(7)));
    assert_eq!(<QuadraticField as Field>::NAME, "quadratic_field");
    const { assert!(<QuadraticField as Field>::EXACT) };
    assert!(<QuadraticField as Field>::tolerance(1e-9, 1e6).is_zero());
}

#[test]
fn to_f64_extremes_and_exact_inputs() {
    assert_eq!(QuadraticField::from_f64(0.1).unwrap().to_f64(), 0.1);
    assert_eq!(QuadraticField::from_f64(0.1).unwrap().x(), &Rational::from_f64_exact(0.1).unwrap());
    let huge = Rational::parse("1e400").unwrap();
    let tiny = Rational::parse("1e-400").unwrap();
    let d = Radicand::new(int(3)).unwrap();
    assert_eq!(d.element(int(0), huge.clone()).to_f64(), f64::INFINITY);
    assert_eq!(d.element(int(0), huge.neg()).to_f64(), f64::NEG_INFINITY);
    assert_eq!(d.element(int(0), tiny.clone()).to_f64(), 0.0);
    assert!(d.element(int(0), tiny.neg()).to_f64().is_sign_negative());
    // Large numbers and huge radicands still convert accurately.
    let big = Radicand::new(Rational::parse("123456789012345678901234567890123/7").unwrap()).unwrap();
    let v = big.element(int(1), int(1));
    let expected = 1.0 + (123456789012345678901234567890123.0f64 / 7.0).sqrt();
    assert!((v.to_f64() - expected).abs() <= 4e-16 * expected);
}

#[test]
fn sorting_agrees_with_real_values() {
    let d = Radicand::new(r(7, 5)).unwrap();
    let mut values: Vec<QuadraticField> = (-6..=6)
        .flat_map(|x| (-3..=3).map(move |y| (x, y)))
        .map(|(x, y)| d.element(r(x, 3), r(y, 2)))
        .collect();
    values.sort();
    for pair in values.windows(2) {
        assert!(pair[0] <= pair[1]);
        assert!(pair[0].to_f64() <= pair[1].to_f64());
    }
    let max = values.iter().max().unwrap();
    assert_eq!(max, &d.element(int(2), r(3, 2)));
}
