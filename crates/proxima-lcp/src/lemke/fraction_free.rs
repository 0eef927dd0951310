//! Fraction-free (integer) pivoting for [`Rational`]: exact Lemke without a gcd per operation.
//!
//! # Why
//!
//! `Rational` keeps every value in lowest terms, so each product and sum costs a big-integer
//! gcd — and the gcd of `num-bigint` is binary (quadratic in the bit length). A pivot touches
//! n(n + 2) entries, so exact Lemke spent nearly all its time in gcds.
//!
//! # The mathematics
//!
//! Scale row i of the initial dictionary by a positive integer Lᵢ (the lcm of its
//! denominators) so that every entry is an integer; this only rescales the basic variable wᵢ,
//! which changes neither the ratio tests nor the lexicographic order (column j of B⁻¹ is
//! scaled by 1/Lⱼ for every row alike), so the pivot sequence is the one of the unscaled run.
//! Then keep the dictionary as integers over denominators. With G = |det B| of the scaled
//! system (initially 1), G times every true entry is an integer (Cramer: G·B⁻¹ = ±adj B), the
//! classic fraction-free tableau. Pivoting on p = A_rs (row r in that G-representation) with
//! σ = sign(p) gives the new G' = |p| and
//!
//! ```text
//! A'_ik = σ (A_ik · p − A_is · A_rk) / G     (i ≠ r, k ≠ s; the division is exact)
//! A'_is = σ A_is,   A'_rk = −σ A_rk,   A'_rs = σ G
//! ```
//!
//! The division is exact because the result is G'·(true entry), an integer (Sylvester's
//! identity); no gcd is ever taken and entries stay bounded by minors of the data.
//!
//! A row with A_is = 0 does not change its true values, only its representative (×σp/G). We
//! skip it instead: row i keeps its own denominator Dᵢ (true row = Aᵢ/Dᵢ, and Aᵢ·G/Dᵢ is the
//! integer G-representative). The pivot row is first brought to G (Aᵣ·G/Dᵣ); an updated row
//! becomes σ(A_ik·p − A_is·A_rk)/Dᵢ, which is again exact since it equals the G-formula
//! applied to Aᵢ·G/Dᵢ, and A'_is = σ·A_is·G/Dᵢ. Every ratio the tests compare divides two
//! entries of one row, so rows over different positive denominators compare correctly. A
//! basic z is read as A_i0/Dᵢ at the end (one gcd per entry).
//!
//! # Mechanics
//!
//! The generic core stores `T`; when `T` is `Rational` these helpers view the entries as
//! `Rational` (a `TypeId` check, no `unsafe`) holding integers, and compute on their big-integer
//! numerators with plain operators, rewrapping results without normalization.

use core::any::{Any, TypeId};
use core::cmp::Ordering;

use proxima_num::{Field, Rational};

/// `true` when the core runs fraction-free, i.e. `T` is [`Rational`].
#[inline]
pub(crate) fn applies<T: 'static>() -> bool {
    TypeId::of::<T>() == TypeId::of::<Rational>()
}

#[inline]
fn view<T: 'static>(x: &T) -> &Rational {
    (x as &dyn Any).downcast_ref::<Rational>().expect("fraction-free pivoting is only used for Rational")
}

#[inline]
fn view_mut<T: 'static>(x: &mut T) -> &mut Rational {
    (x as &mut dyn Any).downcast_mut::<Rational>().expect("fraction-free pivoting is only used for Rational")
}

/// Scales one dictionary row (constant, block row, covering entry) to integers by the lcm of
/// its denominators; returns that factor.
pub(crate) fn integerize_row<T: Field>(rhs: &mut T, block_row: &mut [T], extra: &mut T) -> T {
    let zero = Rational::zero();
    let zero = zero.numer();
    let mut lcm = Rational::one().numer().clone();
    for v in core::iter::once(&*rhs).chain(block_row.iter()).chain(core::iter::once(&*extra)) {
        let d = view(v).denom();
        if &(&lcm % d) == zero {
            continue;
        }
        if &(d % &lcm) == zero {
            lcm = d.clone();
        } else {
            // lcm(a, d) = a · d / gcd(a, d) = a · denominator(a / d) (one gcd, rare).
            let ratio = Rational::from_bigints(lcm.clone(), d.clone()).expect("denominators are non-zero");
            lcm *= ratio.denom();
        }
    }
    let mut factor = T::one();
    if lcm == *Rational::one().numer() {
        return factor;
    }
    for v in core::iter::once(rhs).chain(block_row.iter_mut()).chain(core::iter::once(extra)) {
        let r = view_mut(v);
        if r.is_zero() {
            continue;
        }
        let scaled = r.numer() * (&lcm / r.denom());
        *r = Rational::from_big_rational(scaled.into());
    }
    *view_mut(&mut factor) = Rational::from_big_rational(lcm.into());
    factor
}

/// An exact divisor d > 0 split as 2ᵗ · odd: with dyadic (f64-converted) data the
/// denominators are mostly powers of two, so dividing becomes a shift plus, at most, a
/// division by a small odd number.
pub(crate) struct Divisor<T> {
    shift: u64,
    odd: T,
    odd_is_one: bool,
}

impl<T: Field> Divisor<T> {
    /// Splits d (a positive integer-valued `Rational`).
    pub(crate) fn new(d: &T) -> Self {
        let numer = view(d).numer();
        let shift = numer.trailing_zeros().unwrap_or(0);
        let mut odd = T::one();
        *view_mut(&mut odd) = Rational::from_big_rational((numer >> shift).into());
        let odd_is_one = odd == T::one();
        Self { shift, odd, odd_is_one }
    }
}

/// Exact `v / d` for a big integer v divisible by d.
macro_rules! divide_exact {
    ($v:expr, $d:expr) => {{
        let d = $d;
        if d.shift > 0 {
            $v >>= d.shift;
        }
        if !d.odd_is_one {
            debug_assert!(&$v % view(&d.odd).numer() == *Rational::zero().numer(), "inexact division");
            $v /= view(&d.odd).numer();
        }
    }};
}

/// `slot := slot · g / d` on integers (exact: changes a row's representative from denominator
/// d to the global one g).
pub(crate) fn rescale<T: Field>(slot: &mut T, g: &T, d: &Divisor<T>) {
    let slot = view_mut(slot);
    if slot.is_zero() {
        return;
    }
    let mut v = slot.numer() * view(g).numer();
    divide_exact!(v, d);
    *slot = Rational::from_big_rational(v.into());
}

/// `slot := σ (slot · p − c · b) / d` on integers (the division is exact).
#[inline]
pub(crate) fn update<T: Field>(slot: &mut T, p: &T, c: &T, b: &T, d: &Divisor<T>, negate: bool) {
    let slot = view_mut(slot);
    let (p, c, b) = (view(p), view(c), view(b));
    let cross = !(c.is_zero() || b.is_zero());
    if slot.is_zero() && !cross {
        return;
    }
    let mut v = slot.numer() * p.numer();
    if cross {
        v -= c.numer() * b.numer();
    }
    divide_exact!(v, d);
    if negate {
        v = -v;
    }
    *slot = Rational::from_big_rational(v.into());
}

/// `slot := −slot` when `negate`, without renormalizing.
#[inline]
pub(crate) fn negate_if<T: Field>(slot: &mut T, negate: bool) {
    if negate && !slot.is_zero() {
        // By value: flips the sign in place instead of cloning the big integers.
        let r = view_mut(slot);
        *r = -core::mem::take(r);
    }
}

/// Compares a/p with b/q (p, q > 0) exactly by cross-multiplying numerators and denominators
/// (no gcd).
pub(crate) fn cmp_quotients<T: Field>(a: &T, p: &T, b: &T, q: &T) -> Ordering {
    let (a, p, b, q) = (view(a), view(p), view(b), view(q));
    let (sa, sb) = (a.signum_ordering(), b.signum_ordering());
    if sa != sb || sa == Ordering::Equal {
        return sa.cmp(&sb);
    }
    // a/p vs b/q  ⇔  a·q vs b·p  ⇔  (aₙ qₙ)·(b_d p_d) vs (bₙ pₙ)·(a_d q_d)   (denominators > 0).
    let lhs = a.numer() * q.numer();
    let rhs = b.numer() * p.numer();
    if a.is_integer() && b.is_integer() && p.is_integer() && q.is_integer() {
        return lhs.cmp(&rhs);
    }
    (lhs * b.denom() * p.denom()).cmp(&(rhs * a.denom() * q.denom()))
}
