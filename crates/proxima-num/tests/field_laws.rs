//! Property tests for the scalar fields: field axioms and ordered-field laws for the exact types
//! (`Rational`, `QuadraticField`), agreement of the `Field` methods with the native operators
//! for `f64`/`f32`, and exact conversion/rounding/parsing properties of `Rational`.

use core::cmp::Ordering;

use num_bigint::BigInt;
use proptest::prelude::*;
use proxima_num::{Field, QuadraticField, Radicand, Rational};

// ---------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------

/// Rationals with small numerators and denominators (zero included with a fair probability).
fn small_rational() -> impl Strategy<Value = Rational> {
    prop_oneof![
        6 => (-60i64..=60, 1i64..=24).prop_map(|(n, d)| Rational::new(n, d)),
        1 => Just(Rational::from_integer(0)),
    ]
}

/// The fixed radicands the quadratic-field laws are tested with.
fn radicand() -> impl Strategy<Value = Radicand> {
    prop_oneof![Just((2, 1)), Just((3, 1)), Just((7, 5))]
        .prop_map(|(n, d)| Radicand::new(Rational::new(n, d)).expect("non-square radicand"))
}

/// The y coefficient: often zero, so plain rationals mix with irrational elements.
fn coefficient() -> impl Strategy<Value = Rational> {
    prop_oneof![3 => small_rational(), 1 => Just(Rational::from_integer(0))]
}

/// Three elements of one ℚ(√d).
fn qf_triple() -> impl Strategy<Value = (QuadraticField, QuadraticField, QuadraticField)> {
    (
        radicand(),
        small_rational(),
        coefficient(),
        small_rational(),
        coefficient(),
        small_rational(),
        coefficient(),
    )
        .prop_map(|(r, x1, y1, x2, y2, x3, y3)| (r.element(x1, y1), r.element(x2, y2), r.element(x3, y3)))
}

fn rational_triple() -> impl Strategy<Value = (Rational, Rational, Rational)> {
    (small_rational(), small_rational(), small_rational())
}

/// A rational n/d·2^e with wide numerators and denominators.
fn wide_rational(exponents: core::ops::Range<i64>) -> impl Strategy<Value = Rational> {
    (any::<i128>(), 1u128.., exponents).prop_map(|(n, d, e)| {
        let base = Rational::from_bigints(BigInt::from(n), BigInt::from(d)).unwrap();
        base.mul(&pow2(e))
    })
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// 2^e exactly.
fn pow2(e: i64) -> Rational {
    let one = BigInt::from(1);
    if e >= 0 {
        Rational::from_bigints(one << e as usize, BigInt::from(1)).unwrap()
    } else {
        Rational::from_bigints(BigInt::from(1), one << (-e) as usize).unwrap()
    }
}

/// The exact value of a finite f64, decoded from its bits (independently of `from_f64_exact`).
fn decode_f64(v: f64) -> Rational {
    let bits = v.to_bits();
    let negative = bits >> 63 == 1;
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1u64 << 52) - 1);
    let (mantissa, exponent) =
        if biased == 0 { (fraction, -1074) } else { (fraction | (1u64 << 52), biased - 1075) };
    let magnitude =
        Rational::from_bigints(BigInt::from(mantissa), BigInt::from(1)).unwrap().mul(&pow2(exponent));
    if negative { magnitude.neg() } else { magnitude }
}

/// The laws of a field, checked with exact equality (for exact types).
fn check_field_laws<F: Field>(a: &F, b: &F, c: &F) -> Result<(), TestCaseError> {
    let zero = F::zero();
    let one = F::one();
    prop_assert_eq!(a.add(b), b.add(a), "commutative +");
    prop_assert_eq!(a.mul(b), b.mul(a), "commutative *");
    prop_assert_eq!(a.add(b).add(c), a.add(&b.add(c)), "associative +");
    prop_assert_eq!(a.mul(b).mul(c), a.mul(&b.mul(c)), "associative *");
    prop_assert_eq!(a.mul(&b.add(c)), a.mul(b).add(&a.mul(c)), "distributive");
    prop_assert_eq!(a.add(&zero), a.clone(), "additive identity");
    prop_assert_eq!(a.mul(&one), a.clone(), "multiplicative identity");
    prop_assert!(a.mul(&zero).is_zero(), "absorbing zero");
    prop_assert!(a.add(&a.neg()).is_zero(), "additive inverse");
    prop_assert_eq!(a.neg().neg(), a.clone(), "double negation");
    prop_assert_eq!(a.sub(b), a.add(&b.neg()), "subtraction is adding the negation");
    prop_assert_eq!(a.neg().mul(b), a.mul(b).neg(), "(-a)b = -(ab)");
    if !a.is_zero() {
        prop_assert_eq!(a.mul(&a.recip()), one.clone(), "multiplicative inverse");
        prop_assert_eq!(b.div(a).mul(a), b.clone(), "(b/a)a = b");
        prop_assert_eq!(a.recip().recip(), a.clone(), "double reciprocal");
    }
    // The in-place kernels agree with the pure operations.
    let mut t = c.clone();
    t.add_assign(a);
    prop_assert_eq!(&t, &c.add(a));
    let mut t = c.clone();
    t.sub_assign(a);
    prop_assert_eq!(&t, &c.sub(a));
    let mut t = c.clone();
    t.mul_assign(a);
    prop_assert_eq!(&t, &c.mul(a));
    let mut t = c.clone();
    t.sub_mul_assign(a, b);
    prop_assert_eq!(&t, &c.sub(&a.mul(b)));
    let mut t = c.clone();
    t.add_mul_assign(a, b);
    prop_assert_eq!(&t, &c.add(&a.mul(b)));
    Ok(())
}

/// The laws of an ordered field, plus agreement with `f64` when the values are well separated.
fn check_order_laws<F: Field>(a: &F, b: &F, c: &F) -> Result<(), TestCaseError> {
    let zero = F::zero();
    let ab = a.cmp_total(b);
    // Trichotomy and consistency of ==, <, >, partial_cmp and cmp_total.
    let relations = [a < b, a == b, a > b];
    prop_assert_eq!(relations.iter().filter(|&&r| r).count(), 1, "trichotomy");
    prop_assert_eq!(a.partial_cmp(b), Some(ab));
    prop_assert_eq!(b.cmp_total(a), ab.reverse(), "antisymmetry");
    prop_assert_eq!(a.cmp_total(a), Ordering::Equal, "reflexivity");
    prop_assert_eq!(a.signum_ordering(), a.cmp_total(&zero), "sign is comparison with zero");
    prop_assert_eq!(a.sub(b).signum_ordering(), ab, "order is the sign of the difference");
    prop_assert!(a.abs() >= zero, "|a| >= 0");
    // Transitivity.
    if a <= b && b <= c {
        prop_assert!(a <= c, "transitivity");
    }
    // Compatibility with + and *.
    if a < b {
        prop_assert!(a.add(c) < b.add(c), "a < b => a + c < b + c");
        match c.signum_ordering() {
            Ordering::Greater => prop_assert!(a.mul(c) < b.mul(c), "a < b, c > 0 => ac < bc"),
            Ordering::Less => prop_assert!(a.mul(c) > b.mul(c), "a < b, c < 0 => ac > bc"),
            Ordering::Equal => prop_assert!(a.mul(c) == b.mul(c)),
        }
    }
    // Agreement with f64 approximations when well separated.
    let (fa, fb) = (a.to_f64(), b.to_f64());
    let scale = fa.abs().max(fb.abs()).max(1.0);
    if (fa - fb).abs() > 1e-9 * scale {
        prop_assert_eq!(Some(ab), fa.partial_cmp(&fb), "order agrees with f64: {:?} vs {:?}", a, b);
    }
    Ok(())
}

/// `to_f64` of an exact value `v` is the nearest double: no neighbour is strictly closer, and
/// a tie goes to the even mantissa. Distances are compared exactly in `F`.
fn check_correctly_rounded<F: Field + Ord>(v: &F) -> Result<(), TestCaseError> {
    let f = v.to_f64();
    prop_assert!(f.is_finite(), "{:?} out of range", v);
    let dist = |g: f64| v.sub(&F::from_f64(g).unwrap()).abs();
    let own = dist(f);
    for g in [f.next_up(), f.next_down()] {
        if g.is_finite() {
            let other = dist(g);
            prop_assert!(own <= other, "{:?}: {} is farther than its neighbour {}", v, f, g);
            if own == other {
                prop_assert_eq!(f.to_bits() & 1, 0, "tie must round to even");
            }
        }
    }
    Ok(())
}

/// The sign of x + y√d from a 256-bit enclosure of √d, independent of the library's sign test.
fn sign_by_enclosure(x: &Rational, y: &Rational, d: &Rational) -> Ordering {
    // √d = √(p·q)/q; ⌊√(p·q·4^256)⌋ / (q·2^256) ≤ √d < (that + 1) / (q·2^256).
    let (p, q) = (d.numer(), d.denom());
    let s = ((p * q) << 512usize).sqrt();
    let den: BigInt = q << 256usize;
    let lo = Rational::from_bigints(s.clone(), den.clone()).unwrap();
    let hi = Rational::from_bigints(s + 1, den).unwrap();
    let (a, b) = (x.add(&y.mul(&lo)), x.add(&y.mul(&hi)));
    let (min, max) = if a <= b { (a, b) } else { (b, a) };
    let zero = Rational::from_integer(0);
    if min > zero {
        Ordering::Greater
    } else if max < zero {
        Ordering::Less
    } else if y.is_zero() && x.is_zero() {
        Ordering::Equal
    } else {
        panic!("256 bits cannot separate {x} + {y}*sqrt({d}) from zero")
    }
}

fn same_f64(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn same_f32(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

// ---------------------------------------------------------------------------------------------
// Exact fields: Rational and QuadraticField
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn rational_field_laws((a, b, c) in rational_triple()) {
        check_field_laws(&a, &b, &c)?;
    }

    #[test]
    fn rational_order_laws((a, b, c) in rational_triple()) {
        check_order_laws(&a, &b, &c)?;
    }

    #[test]
    fn quadratic_field_laws((a, b, c) in qf_triple()) {
        check_field_laws(&a, &b, &c)?;
        // The norm is multiplicative and the conjugate is a field automorphism.
        prop_assert_eq!(a.mul(&b).norm(), a.norm().mul(&b.norm()));
        prop_assert_eq!(a.mul(&b).conjugate(), a.conjugate().mul(&b.conjugate()));
        prop_assert_eq!(a.is_zero(), a.norm().is_zero());
    }

    #[test]
    fn quadratic_field_order_laws((a, b, c) in qf_triple()) {
        check_order_laws(&a, &b, &c)?;
    }

    #[test]
    fn quadratic_field_sign_matches_high_precision(r in radicand(), x in small_rational(), y in coefficient()) {
        let v = r.element(x.clone(), y.clone());
        prop_assert_eq!(v.signum_ordering(), sign_by_enclosure(&x, &y, r.value()), "sign of {:?}", v);
    }

    #[test]
    fn quadratic_field_sign_near_cancellation(k in 1i64..40, which in 0usize..3) {
        // x ≈ y√d: x = round(k·a·√d) makes |x − k·a√d| < 1, the hardest case for floats.
        let (dn, dd) = [(2i64, 1i64), (3, 1), (7, 5)][which];
        let d = Rational::new(dn, dd);
        let y = Rational::from_integer(k * 1_000_003);
        let x = Rational::from_f64_exact((y.to_f64() * (dn as f64 / dd as f64).sqrt()).round()).unwrap();
        let v = QuadraticField::new(x.clone(), y.neg(), d.clone()).unwrap();
        prop_assert_eq!(v.signum_ordering(), sign_by_enclosure(&x, &y.neg(), &d));
        check_correctly_rounded(&v)?;
    }

    #[test]
    fn quadratic_field_to_f64_correctly_rounded(r in radicand(), x in small_rational(), y in coefficient()) {
        check_correctly_rounded(&r.element(x, y))?;
    }

    #[test]
    fn quadratic_field_display_shows_parts(r in radicand(), x in small_rational(), y in coefficient()) {
        let v = r.element(x.clone(), y.clone());
        let text = v.to_string();
        prop_assert_eq!(text.contains("sqrt("), !y.is_zero());
        prop_assert_eq!(v.d().is_some(), !y.is_zero());
        if y.is_zero() {
            prop_assert_eq!(text, x.to_string());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Floats: the Field methods are the native operators
// ---------------------------------------------------------------------------------------------

proptest! {
    #[test]
    fn f64_field_methods_agree_with_operators(a in any::<f64>(), b in any::<f64>(), c in any::<f64>()) {
        prop_assert!(same_f64(Field::add(&a, &b), a + b));
        prop_assert!(same_f64(Field::sub(&a, &b), a - b));
        prop_assert!(same_f64(Field::mul(&a, &b), a * b));
        prop_assert!(same_f64(Field::div(&a, &b), a / b));
        prop_assert!(same_f64(Field::neg(&a), -a));
        prop_assert!(same_f64(Field::recip(&a), 1.0 / a));
        prop_assert!(same_f64(Field::abs(&a), a.abs()));
        let mut t = c;
        t.sub_mul_assign(&a, &b);
        prop_assert!(same_f64(t, c - a * b));
        let mut t = c;
        t.add_mul_assign(&a, &b);
        prop_assert!(same_f64(t, c + a * b));
        prop_assert_eq!(Field::is_finite(&a), a.is_finite());
        prop_assert_eq!(a.to_f64().to_bits(), a.to_bits());
        if !a.is_nan() {
            prop_assert_eq!(Some(a.signum_ordering()), a.partial_cmp(&0.0));
        }
    }

    #[test]
    fn f32_field_methods_agree_with_operators(a in any::<f32>(), b in any::<f32>(), c in any::<f32>()) {
        prop_assert!(same_f32(Field::add(&a, &b), a + b));
        prop_assert!(same_f32(Field::sub(&a, &b), a - b));
        prop_assert!(same_f32(Field::mul(&a, &b), a * b));
        prop_assert!(same_f32(Field::div(&a, &b), a / b));
        prop_assert!(same_f32(Field::neg(&a), -a));
        let mut t = c;
        t.sub_mul_assign(&a, &b);
        prop_assert!(same_f32(t, c - a * b));
        prop_assert!(same_f64(a.to_f64(), a as f64));
        if !a.is_nan() {
            prop_assert_eq!(Some(a.signum_ordering()), a.partial_cmp(&0.0));
        }
    }

    #[test]
    fn from_f64_rejects_exactly_non_finite(v in any::<f64>(), i in any::<i64>()) {
        prop_assert_eq!(<f64 as Field>::from_f64(v).is_some(), v.is_finite());
        prop_assert_eq!(<f32 as Field>::from_f64(v).is_some(), v.is_finite());
        prop_assert_eq!(<Rational as Field>::from_f64(v).is_some(), v.is_finite());
        prop_assert_eq!(<QuadraticField as Field>::from_f64(v).is_some(), v.is_finite());
        if v.is_finite() {
            prop_assert!(same_f64(<f64 as Field>::from_f64(v).unwrap(), v));
            prop_assert!(same_f32(<f32 as Field>::from_f64(v).unwrap(), v as f32));
        }
        prop_assert_eq!(<f64 as Field>::from_i64(i), i as f64);
        prop_assert_eq!(<f32 as Field>::from_i64(i), i as f32);
        prop_assert_eq!(<Rational as Field>::from_i64(i), Rational::from_integer(i));
    }
}

#[test]
fn non_finite_floats_are_rejected() {
    for v in [f64::NAN, -f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(<f64 as Field>::from_f64(v), None);
        assert_eq!(<f32 as Field>::from_f64(v), None);
        assert_eq!(<Rational as Field>::from_f64(v), None);
        assert!(<QuadraticField as Field>::from_f64(v).is_none());
    }
    // Finite f64 beyond the f32 range is accepted and rounds to ±∞ (documented as rounding).
    assert_eq!(<f32 as Field>::from_f64(1e300), Some(f32::INFINITY));
}

// ---------------------------------------------------------------------------------------------
// Rational: exact conversion, correct rounding, parsing and printing
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn from_f64_exact_round_trips(v in any::<f64>().prop_filter("finite", |v| v.is_finite())) {
        let r = Rational::from_f64_exact(v).unwrap();
        prop_assert_eq!(&r, &decode_f64(v), "exact value of {:e}", v);
        prop_assert_eq!(r.to_f64(), v);
        prop_assert_eq!(<QuadraticField as Field>::from_f64(v).unwrap().to_f64(), v);
    }

    #[test]
    fn rational_to_f64_correctly_rounded_in_range(r in wide_rational(-200..200)) {
        check_correctly_rounded(&r)?;
    }

    #[test]
    fn rational_to_f64_correctly_rounded_at_extremes(r in wide_rational(-1250..1100)) {
        // Beyond the range: ±∞ exactly from |r| ≥ MAX + ulp(MAX)/2 = 2^1024 − 2^970 (the tie
        // rounds to even, i.e. away from MAX whose mantissa is odd).
        let threshold = pow2(1024).sub(&pow2(970));
        let f = r.to_f64();
        prop_assert_eq!(f.is_infinite(), r.abs() >= threshold, "{:?} -> {}", r, f);
        if f.is_finite() {
            check_correctly_rounded(&r)?;
        } else {
            prop_assert_eq!(f > 0.0, r.is_positive());
        }
    }

    #[test]
    fn rational_to_f64_ties_round_to_even(v in any::<f64>().prop_filter("finite", |v| v.is_finite() && v.next_up().is_finite())) {
        // The midpoint between v and its upper neighbour.
        let mid = decode_f64(v).add(&decode_f64(v.next_up())).div(&Rational::from_integer(2));
        let f = mid.to_f64();
        prop_assert!(f == v || f == v.next_up(), "{:?} -> {} not in {{{}, {}}}", mid, f, v, v.next_up());
        check_correctly_rounded(&mid)?;
    }

    #[test]
    fn parse_fraction_equals_new(a in any::<i64>(), b in any::<i64>().prop_filter("non-zero", |b| *b != 0)) {
        prop_assert_eq!(Rational::parse(&format!("{a}/{b}")).unwrap(), Rational::new(a, b));
        prop_assert_eq!(Rational::parse(&format!(" {a} / {b} ")).unwrap(), Rational::new(a, b));
        prop_assert_eq!(Rational::parse(&a.to_string()).unwrap(), Rational::from_integer(a));
    }

    #[test]
    fn parse_decimal_is_exact(
        negative in any::<bool>(),
        int_part in proptest::option::of(0u64..1_000_000_000_000),
        frac in proptest::collection::vec(0u8..10, 0..15),
        exponent in proptest::option::of((-40i64..40, any::<bool>())),
    ) {
        prop_assume!(int_part.is_some() || !frac.is_empty());
        let mut text = String::from(if negative { "-" } else { "" });
        if let Some(i) = int_part {
            text.push_str(&i.to_string());
        }
        if !frac.is_empty() {
            text.push('.');
            text.extend(frac.iter().map(|d| char::from(b'0' + d)));
        }
        // Independent expected value: digit by digit.
        let ten = Rational::from_integer(10);
        let mut expected = Rational::from_integer(int_part.unwrap_or(0) as i64);
        let mut place = Rational::from_integer(1);
        for &digit in &frac {
            place = place.div(&ten);
            expected = expected.add(&Rational::from_integer(digit.into()).mul(&place));
        }
        if let Some((e, upper)) = exponent {
            text.push(if upper { 'E' } else { 'e' });
            text.push_str(&e.to_string());
            for _ in 0..e.unsigned_abs() {
                expected = if e > 0 { expected.mul(&ten) } else { expected.div(&ten) };
            }
        }
        if negative {
            expected = expected.neg();
        }
        prop_assert_eq!(Rational::parse(&text).unwrap(), expected, "{}", text);
    }

    #[test]
    fn display_parse_round_trip(n in any::<i128>(), d in 1u128..) {
        let r = Rational::from_bigints(BigInt::from(n), BigInt::from(d)).unwrap();
        let text = r.to_string();
        prop_assert_eq!(Rational::parse(&text).unwrap(), r.clone());
        prop_assert_eq!(text.parse::<Rational>().unwrap(), r);
    }

    #[test]
    fn exact_square_roots(n in -1000i64..1000, d in 1i64..1000) {
        let r = Rational::new(n, d);
        let square = r.mul(&r);
        prop_assert_eq!(square.sqrt_exact(), Some(r.abs()));
        // r² + tiny is never a square unless it happens to be one; check the definition.
        let other = square.add(&Rational::new(1, d));
        match other.sqrt_exact() {
            Some(root) => prop_assert_eq!(root.mul(&root), other),
            None => prop_assert!(!other.is_perfect_square()),
        }
    }
}
