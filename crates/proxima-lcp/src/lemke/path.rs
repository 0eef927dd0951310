//! One run of Lemke's complementary pivoting path on a loaded dictionary.
//!
//! 1. z₀ enters through the covering column; the leaving row is chosen by
//!    [`super::lexico::initial_row`]. The dictionary is now feasible and
//!    *balanced*: of every pair (wⱼ, zⱼ) at least one is nonbasic.
//! 2. The complement of the variable that just left enters; the lexicographic ratio test
//!    ([`super::lexico::leaving_row`]) picks the leaving row.
//! 3. Stop when z₀ leaves (a complementary feasible basis: solved), when no row limits the
//!    entering variable (a secondary ray), or at the pivot limit.
//!
//! Pivots are counted including the initial one. The caller handles q ≥ 0 (no pivot at all).

use proxima_num::Field;

use super::dictionary::Dictionary;
use super::lexico::{initial_row, leaving_row};
use super::numerics::Numerics;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RunOutcome {
    /// z₀ left the basis: the dictionary is terminal and z solves the LCP.
    Solved,
    /// The entering variable is unbounded: secondary ray.
    Ray,
    /// The pivot limit was reached.
    MaxPivots,
}

/// The result of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Run {
    /// How it ended.
    pub(crate) outcome: RunOutcome,
    /// Pivots performed, the initial one included.
    pub(crate) pivots: usize,
    /// Some float decision was close (see [`Leaving`](super::lexico::Leaving)).
    pub(crate) dubious: bool,
}

/// Follows the path from the loaded dictionary (covering column filled; q has a negative
/// entry). Allocation-free for `Copy`-like scalars.
pub(crate) fn run<T: Field>(dict: &mut Dictionary<'_, T>, num: &Numerics<T>) -> Run {
    let n = dict.n();
    let Some(r) = initial_row(dict, num) else {
        // q ≥ 0: nothing to do (callers normally catch this first).
        return Run { outcome: RunOutcome::Solved, pivots: 0, dubious: false };
    };
    let mut leaving = dict.pivot(r, n);
    let mut pivots = 1;
    let mut dubious = false;
    let z0 = dict.z0();
    loop {
        if leaving == z0 {
            return Run { outcome: RunOutcome::Solved, pivots, dubious };
        }
        if pivots >= num.max_pivots {
            return Run { outcome: RunOutcome::MaxPivots, pivots, dubious };
        }
        let entering = dict.complement(leaving);
        let slot = dict.location(entering) - n;
        let choice = leaving_row(dict, slot, num);
        dubious |= choice.dubious;
        let Some(row) = choice.row else {
            return Run { outcome: RunOutcome::Ray, pivots, dubious };
        };
        leaving = dict.pivot(row, slot);
        pivots += 1;
    }
}
