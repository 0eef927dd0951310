//! The lexicographic ratio tests (symbolic ε-perturbation) that choose the leaving row.
//!
//! # The mathematics
//!
//! Replace q by q(ε) = q + (ε, ε², …, εⁿ) for an infinitesimal ε > 0. In any basis B the
//! constant column becomes B⁻¹q(ε) = rhs + Σⱼ εʲ⁺¹ · (column j of B⁻¹), so the value of the basic
//! variable of row i is the vector (rhsᵢ, (B⁻¹)ᵢ₀, …, (B⁻¹)ᵢ,ₙ₋₁) read lexicographically. Since
//! B⁻¹ is non-singular no two rows are proportional: the minimum ratio is unique, no basis
//! repeats, and the method terminates in exact arithmetic (no cycling).
//!
//! * **Initial pivot** (z₀ enters, B = I): among rows with qᵢ < 0 take the lexicographic
//!   minimum of (qᵢ, eᵢ)/dᵢ. On a tie in qᵢ/dᵢ the row with the *larger* index wins (its εⁱ⁺¹
//!   is the smaller perturbation) — Eberly's example 5.
//! * **Later pivots** (the entering variable sits in slot s): candidates are the rows whose
//!   coefficient a_is is negative (below `-pivot` for floats); take the lexicographic minimum of
//!   (rhsᵢ, (B⁻¹)ᵢ·) / (-a_is). When z₀'s row ties on the first component it is preferred: it
//!   ends the run at once with a valid (ε = 0) solution.
//!
//! Column j of B⁻¹ is read off the dictionary: e_r when wⱼ is basic in row r, otherwise minus
//! the dictionary column of wⱼ's slot. Nothing is stored or allocated for the perturbation.
//!
//! # Floats
//!
//! A ratio rhsᵢ/pᵢ is compared with a band [r − t, r + t] around the best ratio r so far,
//! t = tie · max(1, r), multiplied through by pᵢ > 0 (no division per candidate); inside the
//! band is a tie. Slightly negative basic values (round-off) count as zero. Exact scalars
//! compare by cross-multiplication (for `Rational` on big-integer numerators, without
//! normalizing).

use core::cmp::Ordering;

use proxima_num::Field;

use super::dictionary::Dictionary;
use super::fraction_free;
use super::numerics::Numerics;

/// Compares a/p with b/q for p, q > 0: exactly for exact scalars, with relative tie
/// tolerance `tie` for floats.
#[inline]
fn cmp_quotients<T: Field>(a: &T, p: &T, b: &T, q: &T, tie: &T) -> Ordering {
    if fraction_free::applies::<T>() {
        fraction_free::cmp_quotients(a, p, b, q)
    } else if T::EXACT {
        let (sa, sb) = (a.signum_ordering(), b.signum_ordering());
        if sa != sb || sa == Ordering::Equal {
            return sa.cmp(&sb);
        }
        if p == q {
            return a.cmp_total(b);
        }
        a.mul(q).cmp_total(&b.mul(p))
    } else {
        cmp_with_tie(&a.div(p), &b.div(q), tie)
    }
}

/// Float comparison with relative tie tolerance: equal when |a − b| ≤ tie · max(1, |a|, |b|).
#[inline]
fn cmp_with_tie<T: Field>(a: &T, b: &T, tie: &T) -> Ordering {
    let (aa, ab) = (a.abs(), b.abs());
    let mut mag = if aa > ab { aa } else { ab };
    if mag < T::one() {
        mag = T::one();
    }
    if a.sub(b).abs() <= tie.mul(&mag) { Ordering::Equal } else { a.cmp_total(b) }
}

/// The leaving row of the initial pivot (z₀ enters through the covering column `extra`):
/// lexicographic minimum of (qᵢ, eᵢ)/dᵢ over rows with qᵢ < 0. `None` when q ≥ 0.
pub(crate) fn initial_row<T: Field>(dict: &Dictionary<'_, T>, num: &Numerics<T>) -> Option<usize> {
    let n = dict.n();
    let mut best: Option<usize> = None;
    for i in 0..n {
        if !dict.rhs(i).is_negative() {
            continue;
        }
        best = match best {
            None => Some(i),
            Some(b) => {
                let ord = cmp_quotients(dict.rhs(i), dict.coef(i, n), dict.rhs(b), dict.coef(b, n), &num.tie);
                // Ties (first component equal) go to the larger index: i > b.
                if ord == Ordering::Greater { Some(b) } else { Some(i) }
            }
        };
    }
    best
}

/// Result of the ratio test of one entering column.
pub(crate) struct Leaving {
    /// The leaving row, `None` on ray termination (no candidate).
    pub(crate) row: Option<usize>,
    /// A float decision was close: a small pivot was taken, or a ray was declared while some
    /// entry was negative beyond round-off level but within the candidate tolerance.
    pub(crate) dubious: bool,
}

/// The lexicographic minimum-ratio test for the variable entering through slot `s`.
pub(crate) fn leaving_row<T: Field>(dict: &Dictionary<'_, T>, s: usize, num: &Numerics<T>) -> Leaving {
    let n = dict.n();
    let neg_tol = num.pivot.neg();
    let z0 = dict.z0();
    let mut near_candidate = false;
    let mut best: Option<Best<T>> = None;
    for i in 0..n {
        let c = dict.coef(i, s);
        let candidate = if T::EXACT { c.is_negative() } else { *c < neg_tol };
        if !candidate {
            near_candidate |= !T::EXACT && *c < num.near_candidate;
            continue;
        }
        let p = c.neg();
        let zero = T::zero();
        // Float round-off below zero counts as zero.
        let rhs = if !T::EXACT && dict.rhs(i).is_negative() { &zero } else { dict.rhs(i) };
        let Some(b) = &best else {
            best = Some(Best::new(i, rhs, p, num));
            continue;
        };
        // Floats: rhs/p against the band of the best, multiplied through by p > 0 (no division).
        let primary = if T::EXACT {
            cmp_quotients(rhs, &p, dict.rhs(b.row), &b.p, &num.tie)
        } else if *rhs < b.low.mul(&p) {
            Ordering::Less
        } else if *rhs > b.high.mul(&p) {
            Ordering::Greater
        } else {
            Ordering::Equal
        };
        let better = match primary {
            Ordering::Less => true,
            Ordering::Greater => false,
            Ordering::Equal => {
                if dict.basic_var(b.row) == z0 {
                    false
                } else if dict.basic_var(i) == z0 {
                    true
                } else {
                    lexicographic_tail(dict, i, &p, b.row, &b.p, num) == Ordering::Less
                }
            }
        };
        if better {
            best = Some(Best::new(i, rhs, p, num));
        }
    }
    match best {
        None => Leaving { row: None, dubious: !T::EXACT && near_candidate },
        Some(b) => Leaving { row: Some(b.row), dubious: !T::EXACT && b.p < num.small_pivot },
    }
}

/// The best candidate row so far. Floats keep its ratio r and the tie band
/// [r − t, r + t], t = tie · max(1, r): a later ratio below the band is smaller, above it
/// larger, inside it tied (ratios are ≥ 0).
struct Best<T> {
    row: usize,
    /// Pivot magnitude p = −a_is > 0.
    p: T,
    low: T,
    high: T,
}

impl<T: Field> Best<T> {
    fn new(row: usize, rhs: &T, p: T, num: &Numerics<T>) -> Self {
        if T::EXACT {
            return Self { row, p, low: T::zero(), high: T::zero() };
        }
        let ratio = rhs.div(&p);
        let band = if ratio > T::one() { num.tie.mul(&ratio) } else { num.tie.clone() };
        Self { row, p, low: ratio.sub(&band), high: ratio.add(&band) }
    }
}

/// Compares rows i and b on the ε-part: ((B⁻¹)ᵢⱼ / pᵢ)ⱼ against ((B⁻¹)_bⱼ / p_b)ⱼ.
fn lexicographic_tail<T: Field>(
    dict: &Dictionary<'_, T>,
    i: usize,
    p_i: &T,
    b: usize,
    p_b: &T,
    num: &Numerics<T>,
) -> Ordering {
    for j in 0..dict.n() {
        let ord = match dict.w_position(j) {
            // Column j of B⁻¹ is e_r: only row r has a (positive) entry.
            Ok(r) if r == i => Ordering::Greater,
            Ok(r) if r == b => Ordering::Less,
            Ok(_) => Ordering::Equal,
            // Column j of B⁻¹ is minus the dictionary column of slot k.
            Err(k) => cmp_quotients(dict.coef(i, k), p_i, dict.coef(b, k), p_b, &num.tie).reverse(),
        };
        if ord != Ordering::Equal {
            return ord;
        }
    }
    Ordering::Equal
}

#[cfg(test)]
mod tests {
    use super::*;
    use proxima_num::Rational;

    #[test]
    fn exact_quotients() {
        let r = |a: i64, b: i64| Rational::new(a, b);
        let z = Rational::from_integer(0);
        assert_eq!(cmp_quotients(&r(1, 1), &r(2, 1), &r(1, 1), &r(3, 1), &z), Ordering::Greater);
        assert_eq!(cmp_quotients(&r(2, 1), &r(4, 1), &r(1, 1), &r(2, 1), &z), Ordering::Equal);
        assert_eq!(cmp_quotients(&r(-1, 1), &r(4, 1), &r(0, 1), &r(2, 1), &z), Ordering::Less);
        assert_eq!(cmp_quotients(&r(0, 1), &r(4, 1), &r(0, 1), &r(2, 1), &z), Ordering::Equal);
    }

    #[test]
    fn float_quotients_tie_within_tolerance() {
        assert_eq!(cmp_quotients(&1.0, &3.0, &(1.0 + 1e-15), &3.0, &1e-11), Ordering::Equal);
        assert_eq!(cmp_quotients(&1.0, &3.0, &1.1, &3.0, &1e-11), Ordering::Less);
        assert_eq!(cmp_quotients(&1e-17, &1.0, &0.0, &1.0, &1e-11), Ordering::Equal);
    }
}
