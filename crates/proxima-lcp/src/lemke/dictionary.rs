//! The condensed tableau ("dictionary") of Lemke's method and its pivot, on borrowed slices.
//!
//! # Layout
//!
//! The dictionary expresses the n basic variables through the n + 1 nonbasic ones:
//!
//! ```text
//! x_B(i) = rhs_i + Σ_{k<n} block[i][k] · x_N(k) + extra_i · x_N(n)        (i = 0..n)
//! ```
//!
//! `block` is n × n row-major (nonbasic slots 0..n), `extra` is the coefficient column of the
//! (n+1)-th slot and `rhs` the constant column. Keeping the extra column apart lets the fixed
//! path store `[[T; N]; N]`, `[T; N]`, `[T; N]` without const-generic arithmetic.
//!
//! Variables are coded as `usize`: wⱼ = j, zⱼ = n + j, the auxiliary z₀ = 2n. Locations are
//! coded as a basic row r (`r < n`) or a nonbasic slot k (`n + k`, k ≤ n).
//!
//! # The pivot
//!
//! Exchanging the variable of slot s with the basic variable of row r (pivot p = a_rs ≠ 0):
//! row r becomes `x_s = -rhs_r/p + (1/p)·x_B(r) - Σ_{k≠s} (a_rk/p)·x_k` and every other row i
//! with c = a_is ≠ 0 gets `c ×` (new row r) added after its slot-s coefficient is cleared.
//! Setting a_rs := -1 before scaling row r by -1/p, and a_is := 0 before the row update, makes
//! both loops branch-free: the slot-s entries come out as 1/p and c/p.
//!
//! For `Rational` the same dictionary is kept fraction-free instead: integer entries, row i
//! over its own positive denominator Dᵢ (see [`super::fraction_free`]). The accessors return
//! the stored (scaled) entries: every ratio the tests form divides two entries of the same
//! row, so a positive row scale cancels.
//!
//! Floats update the other rows two at a time, so each pivot-row entry is loaded once per
//! pair (the arithmetic, and so the result, is unchanged).

use proxima_num::Field;

use super::covering::{self, CoveringChoice};
use super::fraction_free;

/// The dictionary of one Lemke run, borrowing its storage from a workspace or stack arrays.
pub(crate) struct Dictionary<'a, T> {
    n: usize,
    /// n × n coefficients of nonbasic slots 0..n, row-major.
    block: &'a mut [T],
    /// Coefficients of nonbasic slot n.
    extra: &'a mut [T],
    /// Constant column: the values of the basic variables.
    rhs: &'a mut [T],
    /// Variable code of the basic variable of each row.
    basic: &'a mut [usize],
    /// Variable code of the nonbasic variable of slots 0..n.
    nonbasic: &'a mut [usize],
    /// Variable code of the nonbasic variable of slot n.
    extra_var: usize,
    /// Location code of each wⱼ.
    w_loc: &'a mut [usize],
    /// Location code of each zⱼ.
    z_loc: &'a mut [usize],
    /// Location code of z₀.
    z0_loc: usize,
    /// Fraction-free only: the denominator Dᵢ of each row (true row = stored row / Dᵢ).
    row_denom: &'a mut [T],
    /// Fraction-free only: the factor Lᵢ > 0 that made initial row i integral, i.e. the basic
    /// variable of a w-row i is Lᵢ·wᵢ.
    row_scale: &'a mut [T],
    /// Fraction-free only: |det B| of the scaled system; every stored row times G / Dᵢ is
    /// integral, and G is the denominator rows take when a pivot updates them.
    global_denom: T,
    /// Integer (fraction-free) pivoting, used for `Rational`.
    fraction_free: bool,
}

/// The slices a [`Dictionary`] borrows (all of length n, `block` of length n²).
pub(crate) struct DictionaryStorage<'a, T> {
    pub(crate) row_denom: &'a mut [T],
    pub(crate) row_scale: &'a mut [T],
    pub(crate) block: &'a mut [T],
    pub(crate) extra: &'a mut [T],
    pub(crate) rhs: &'a mut [T],
    pub(crate) basic: &'a mut [usize],
    pub(crate) nonbasic: &'a mut [usize],
    pub(crate) w_loc: &'a mut [usize],
    pub(crate) z_loc: &'a mut [usize],
}

impl<'a, T: Field> Dictionary<'a, T> {
    /// Loads the initial dictionary `w = q + M z + z₀ d`: basic w, nonbasic z in slots 0..n,
    /// z₀ in slot n with the chosen covering vector d. `data` is (M row-major, q), or `None`
    /// when `block` and `rhs` already hold them.
    pub(crate) fn load(
        storage: DictionaryStorage<'a, T>,
        data: Option<(&[T], &[T])>,
        covering: CoveringChoice<'_>,
    ) -> Self {
        let DictionaryStorage { row_denom, row_scale, block, extra, rhs, basic, nonbasic, w_loc, z_loc } =
            storage;
        let n = rhs.len();
        debug_assert_eq!(block.len(), n * n);
        debug_assert!(extra.len() == n && basic.len() == n && nonbasic.len() == n);
        if let Some((m_row_major, q)) = data {
            block.clone_from_slice(m_row_major);
            rhs.clone_from_slice(q);
        }
        covering::fill(extra, covering);
        for j in 0..n {
            basic[j] = j;
            w_loc[j] = j;
            nonbasic[j] = n + j;
            z_loc[j] = n + j;
        }
        let fraction_free = fraction_free::applies::<T>();
        if fraction_free {
            let rows = rhs.iter_mut().zip(block.chunks_exact_mut(n)).zip(extra.iter_mut());
            for ((((r, row), e), scale), denom) in rows.zip(row_scale.iter_mut()).zip(row_denom.iter_mut()) {
                *scale = fraction_free::integerize_row(r, row, e);
                *denom = T::one();
            }
        }
        Self {
            n,
            block,
            extra,
            rhs,
            basic,
            nonbasic,
            extra_var: 2 * n,
            w_loc,
            z_loc,
            z0_loc: 2 * n,
            row_denom,
            row_scale,
            global_denom: T::one(),
            fraction_free,
        }
    }

    /// Problem size n.
    #[inline]
    pub(crate) fn n(&self) -> usize {
        self.n
    }

    /// The true value of a stored entry of row `i` (stored / Dᵢ when fraction-free).
    #[cfg(test)]
    pub(crate) fn true_value(&self, i: usize, stored: &T) -> T {
        if self.fraction_free { stored.div(&self.row_denom[i]) } else { stored.clone() }
    }

    /// Coefficient of nonbasic slot `s` (0..=n) in row `i`.
    #[inline]
    pub(crate) fn coef(&self, i: usize, s: usize) -> &T {
        if s < self.n { &self.block[i * self.n + s] } else { &self.extra[i] }
    }

    /// Value of the basic variable of row `i`.
    #[inline]
    pub(crate) fn rhs(&self, i: usize) -> &T {
        &self.rhs[i]
    }

    /// Variable code of the basic variable of row `i`.
    #[inline]
    pub(crate) fn basic_var(&self, i: usize) -> usize {
        self.basic[i]
    }

    /// Variable code of the nonbasic variable of slot `s` (0..=n).
    #[inline]
    pub(crate) fn nonbasic_var(&self, s: usize) -> usize {
        if s < self.n { self.nonbasic[s] } else { self.extra_var }
    }

    /// The code of z₀.
    #[inline]
    pub(crate) fn z0(&self) -> usize {
        2 * self.n
    }

    /// The complement of a variable: wⱼ ↔ zⱼ (z₀ has none; never asked).
    #[inline]
    pub(crate) fn complement(&self, var: usize) -> usize {
        debug_assert!(var < 2 * self.n);
        if var < self.n { var + self.n } else { var - self.n }
    }

    /// Location code of a variable: a row r (< n) or n + slot.
    #[inline]
    pub(crate) fn location(&self, var: usize) -> usize {
        if var < self.n {
            self.w_loc[var]
        } else if var < 2 * self.n {
            self.z_loc[var - self.n]
        } else {
            self.z0_loc
        }
    }

    /// Where `w_j` sits: `Ok(row)` when basic, `Err(slot)` when nonbasic. Column j of B⁻¹ is
    /// e_row in the first case and minus the dictionary column of the slot in the second.
    #[inline]
    pub(crate) fn w_position(&self, j: usize) -> Result<usize, usize> {
        let loc = self.w_loc[j];
        if loc < self.n { Ok(loc) } else { Err(loc - self.n) }
    }

    fn set_location(&mut self, var: usize, loc: usize) {
        if var < self.n {
            self.w_loc[var] = loc;
        } else if var < 2 * self.n {
            self.z_loc[var - self.n] = loc;
        } else {
            self.z0_loc = loc;
        }
    }

    /// Exchanges the nonbasic variable of slot `s` with the basic variable of row `r`
    /// (`coef(r, s)` must be non-zero). Returns the code of the variable that left the basis.
    pub(crate) fn pivot(&mut self, r: usize, s: usize) -> usize {
        if self.fraction_free {
            self.pivot_fraction_free(r, s);
        } else {
            self.pivot_field(r, s);
        }
        self.relabel(r, s)
    }

    /// The field pivot (floats and other exact fields).
    fn pivot_field(&mut self, r: usize, s: usize) {
        let n = self.n;
        // Row r: x_s = -rhs_r/p + (1/p) x_B(r) - Σ_{k≠s} (a_rk/p) x_k.
        let neg_inv = {
            let slot = if s < n { &mut self.block[r * n + s] } else { &mut self.extra[r] };
            let p = core::mem::replace(slot, T::one().neg());
            p.recip().neg()
        };
        let (block_above, rest) = self.block.split_at_mut(r * n);
        let (pivot_row, block_below) = rest.split_at_mut(n);
        let (extra_above, rest) = self.extra.split_at_mut(r);
        let (pivot_extra, extra_below) = rest.split_first_mut().expect("row r exists");
        let (rhs_above, rest) = self.rhs.split_at_mut(r);
        let (pivot_rhs, rhs_below) = rest.split_first_mut().expect("row r exists");
        for a in pivot_row.iter_mut().chain([&mut *pivot_extra, &mut *pivot_rhs]) {
            // Exact types skip the (allocation-free but not free) product with zero.
            if !(T::EXACT && a.is_zero()) {
                a.mul_assign(&neg_inv);
            }
        }
        let (pivot_extra, pivot_rhs) = (&*pivot_extra, &*pivot_rhs);
        // Other rows: substitute x_s.
        let above = block_above.chunks_exact_mut(n).zip(extra_above.iter_mut()).zip(rhs_above.iter_mut());
        let below = block_below.chunks_exact_mut(n).zip(extra_below.iter_mut()).zip(rhs_below.iter_mut());
        // Rows are updated two at a time so each pivot-row entry is loaded once per pair.
        let mut pending: Option<(&mut [T], &mut T, &mut T, T)> = None;
        for ((row, extra), rhs) in above.chain(below) {
            let c = core::mem::replace(if s < n { &mut row[s] } else { &mut *extra }, T::zero());
            if c.is_zero() {
                continue;
            }
            let Some((row0, extra0, rhs0, c0)) = pending.take() else {
                pending = Some((row, extra, rhs, c));
                continue;
            };
            for ((a0, a1), pa) in row0.iter_mut().zip(row.iter_mut()).zip(pivot_row.iter()) {
                a0.add_mul_assign(&c0, pa);
                a1.add_mul_assign(&c, pa);
            }
            extra0.add_mul_assign(&c0, pivot_extra);
            rhs0.add_mul_assign(&c0, pivot_rhs);
            extra.add_mul_assign(&c, pivot_extra);
            rhs.add_mul_assign(&c, pivot_rhs);
        }
        if let Some((row, extra, rhs, c)) = pending {
            for (a, pa) in row.iter_mut().zip(pivot_row.iter()) {
                a.add_mul_assign(&c, pa);
            }
            extra.add_mul_assign(&c, pivot_extra);
            rhs.add_mul_assign(&c, pivot_rhs);
        }
    }

    /// The fraction-free pivot (see `fraction_free`): row r is first brought to the global
    /// denominator G; rows with a zero in column s are left untouched; every other row i
    /// becomes σ(A_ik·p − A_is·A_rk)/Dᵢ over the new denominator |p|.
    fn pivot_fraction_free(&mut self, r: usize, s: usize) {
        let n = self.n;
        let g = &self.global_denom;
        let (above, rest) = self.block.split_at_mut(r * n);
        let (pivot_row, below) = rest.split_at_mut(n);
        if self.row_denom[r] != *g {
            let d_r = fraction_free::Divisor::new(&self.row_denom[r]);
            for a in pivot_row.iter_mut().chain([&mut self.extra[r], &mut self.rhs[r]]) {
                fraction_free::rescale(a, g, &d_r);
            }
        }
        let p = if s < n { pivot_row[s].clone() } else { self.extra[r].clone() };
        let negate = p.is_negative();
        let new_denom = p.abs();
        let pivot_extra = self.extra[r].clone();
        let pivot_rhs = self.rhs[r].clone();
        let rows = above
            .chunks_exact_mut(n)
            .enumerate()
            .chain(below.chunks_exact_mut(n).enumerate().map(|(k, row)| (r + 1 + k, row)));
        for (i, row) in rows {
            let c_slot = if s < n { &mut row[s] } else { &mut self.extra[i] };
            if c_slot.is_zero() {
                continue;
            }
            let c = core::mem::replace(c_slot, T::zero());
            let d_i = fraction_free::Divisor::new(&self.row_denom[i]);
            for (k, (a, pa)) in row.iter_mut().zip(pivot_row.iter()).enumerate() {
                if k != s {
                    fraction_free::update(a, &p, &c, pa, &d_i, negate);
                }
            }
            if s < n {
                fraction_free::update(&mut self.extra[i], &p, &c, &pivot_extra, &d_i, negate);
            }
            fraction_free::update(&mut self.rhs[i], &p, &c, &pivot_rhs, &d_i, negate);
            // A'_is = σ · A_is · G / Dᵢ (the global representative of A_is).
            let slot = if s < n { &mut row[s] } else { &mut self.extra[i] };
            *slot = c;
            if self.row_denom[i] != *g {
                fraction_free::rescale(slot, g, &d_i);
            }
            fraction_free::negate_if(slot, negate);
            self.row_denom[i] = new_denom.clone();
        }
        // Row r: A'_rk = -σ A_rk, A'_rs = σ G.
        for a in pivot_row.iter_mut().chain([&mut self.extra[r], &mut self.rhs[r]]) {
            fraction_free::negate_if(a, !negate);
        }
        let slot = if s < n { &mut pivot_row[s] } else { &mut self.extra[r] };
        *slot = if negate { g.neg() } else { g.clone() };
        self.row_denom[r] = new_denom.clone();
        self.global_denom = new_denom;
    }

    /// Swaps the labels of row r and slot s after a pivot; returns the leaving variable.
    fn relabel(&mut self, r: usize, s: usize) -> usize {
        let n = self.n;
        let entering = self.nonbasic_var(s);
        let leaving = self.basic[r];
        self.basic[r] = entering;
        if s < n {
            self.nonbasic[s] = leaving;
        } else {
            self.extra_var = leaving;
        }
        self.set_location(entering, r);
        self.set_location(leaving, n + s);
        leaving
    }

    /// Writes z (zⱼ = its row's value when basic, else 0) into `z`. Float round-off below zero
    /// is clamped to zero (basic values are ≥ 0 by construction).
    pub(crate) fn extract_z(&self, z: &mut [T]) {
        for (j, zj) in z.iter_mut().enumerate() {
            let loc = self.z_loc[j];
            if loc < self.n && self.rhs[loc].is_positive() {
                if self.fraction_free {
                    *zj = self.rhs[loc].div(&self.row_denom[loc]);
                } else {
                    zj.clone_from(&self.rhs[loc]);
                }
            } else {
                *zj = T::zero();
            }
        }
    }
}

impl<T: Field> Dictionary<'_, T> {
    /// Fraction-free only, on a terminal dictionary (z₀ nonbasic): writes w exactly as read
    /// off the dictionary (wᵢ = value of its row / Lᵢ, 0 when nonbasic) and returns `true`.
    /// Returns `false` (writing nothing) for the field pivot, where w must be recomputed from
    /// the data.
    pub(crate) fn extract_w(&self, w: &mut [T]) -> bool {
        if !self.fraction_free {
            return false;
        }
        for (i, wi) in w.iter_mut().enumerate() {
            let loc = self.w_loc[i];
            *wi = if loc < self.n && !self.rhs[loc].is_zero() {
                self.rhs[loc].div(&self.row_denom[loc].mul(&self.row_scale[i]))
            } else {
                T::zero()
            };
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lemke::Covering;
    use proxima_num::Rational;

    fn r(v: i64) -> Rational {
        Rational::from_integer(v)
    }

    /// Eberly example 1, first two pivots (equations (13) and (14)).
    #[test]
    fn pivots_reproduce_eberly_example_1() {
        let m: Vec<Rational> = [[0, 0, 1, -1], [0, 0, 1, -2], [-1, -1, 0, 0], [1, 2, 0, 0]]
            .iter()
            .flatten()
            .map(|&v| r(v))
            .collect();
        let q: Vec<Rational> = [2, -1, 3, -2].iter().map(|&v| r(v)).collect();
        let (mut block, mut extra, mut rhs) = (vec![r(0); 16], vec![r(0); 4], vec![r(0); 4]);
        let (mut row_denom, mut row_scale) = (vec![r(0); 4], vec![r(0); 4]);
        let (mut basic, mut nonbasic, mut w_loc, mut z_loc) =
            (vec![0; 4], vec![0; 4], vec![0; 4], vec![0; 4]);
        let storage = DictionaryStorage {
            row_denom: &mut row_denom,
            row_scale: &mut row_scale,
            block: &mut block,
            extra: &mut extra,
            rhs: &mut rhs,
            basic: &mut basic,
            nonbasic: &mut nonbasic,
            w_loc: &mut w_loc,
            z_loc: &mut z_loc,
        };
        let mut d = Dictionary::load(storage, Some((&m, &q)), CoveringChoice::Given(&Covering::Ones));
        // z4 (slot 4) enters, w3 (row 3) leaves.
        assert_eq!(d.pivot(3, 4), 3);
        // True entries: stored (fraction-free) entries over their row denominators.
        let row = |d: &Dictionary<Rational>, i: usize| -> Vec<Rational> {
            let mut v = vec![d.true_value(i, d.rhs(i))];
            v.extend((0..=4).map(|s| d.true_value(i, d.coef(i, s))));
            v
        };
        // w1 = 1 - z0 - 2 z1 + z2 - 2 z3 + w3 (slot 4 now holds w3).
        assert_eq!(row(&d, 1), vec![r(1), r(-1), r(-2), r(1), r(-2), r(1)]);
        assert_eq!(row(&d, 3), vec![r(2), r(-1), r(-2), r(0), r(0), r(1)]);
        assert_eq!(d.basic_var(3), 8);
        assert_eq!(d.nonbasic_var(4), 3);
        // z3 (slot 3) enters, w1 (row 1) leaves: z3 = 1/2 - 1/2 z0 - z1 + 1/2 z2 - 1/2 w1 + 1/2 w3.
        assert_eq!(d.pivot(1, 3), 1);
        let h = Rational::new(1, 2);
        assert_eq!(row(&d, 1), vec![h.clone(), -h.clone(), r(-1), h.clone(), -h.clone(), h.clone()]);
        assert_eq!(row(&d, 0), vec![Rational::new(7, 2), -h.clone(), r(-1), h.clone(), h.clone(), h.clone()]);
        assert_eq!(d.location(7), 1);
        assert_eq!(d.w_position(1), Err(3));
        assert_eq!(d.w_position(0), Ok(0));
    }
}
