//! Lemke's complementary pivoting method with lexicographic (symbolic ε) anti-cycling.
//!
//! CONTRACT FILE — the public API below is fixed; the implementation is being written.
//! (Module docs, maths and edge cases will replace this paragraph.)

mod settings;

pub use settings::{Covering, LemkeFallback, LemkeSettings};

use proxima_num::Field;

use crate::error::LcpError;
use crate::problem::{Lcp, LcpView};
use crate::solution::{LcpResidual, LcpSolution, LcpStatus, SolvePath};

/// Summary of one workspace solve; z and w stay in the workspace ([`LemkeWorkspace::z`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LemkeReport<T> {
    /// What happened.
    pub status: LcpStatus,
    /// Pivots performed over all attempts.
    pub pivots: usize,
    /// Residuals of z against the input.
    pub residual: LcpResidual<T>,
    /// Which path produced z.
    pub path: SolvePath,
}

/// The answer of the fixed-size (const-generic, allocation-free) path.
#[derive(Debug, Clone, PartialEq)]
pub struct FixedLcpSolution<T, const N: usize> {
    /// What happened.
    pub status: LcpStatus,
    /// The iterate.
    pub z: [T; N],
    /// w = M z + q.
    pub w: [T; N],
    /// Pivots performed.
    pub pivots: usize,
    /// Residuals of z against the input.
    pub residual: LcpResidual<T>,
    /// Which path produced z.
    pub path: SolvePath,
}

/// Reusable scratch memory for Lemke: after the first solve of a given size, further solves of
/// that size or smaller allocate nothing (for `f64`/`f32`).
#[derive(Debug, Clone, Default)]
pub struct LemkeWorkspace<T> {
    _marker: core::marker::PhantomData<T>,
}

impl<T: Field> LemkeWorkspace<T> {
    /// An empty workspace; grows on first use.
    pub fn new() -> Self {
        todo!()
    }
    /// A workspace pre-sized for problems up to `n` variables.
    pub fn with_capacity(n: usize) -> Self {
        let _ = n;
        todo!()
    }
    /// Solves LCP(M, q); z and w are then available from [`Self::z`] and [`Self::w`].
    pub fn solve(&mut self, lcp: LcpView<'_, T>, settings: &LemkeSettings) -> Result<LemkeReport<T>, LcpError> {
        let _ = (lcp, settings);
        todo!()
    }
    /// z of the last solve.
    pub fn z(&self) -> &[T] {
        todo!()
    }
    /// w = M z + q of the last solve.
    pub fn w(&self) -> &[T] {
        todo!()
    }
}

/// Solves LCP(M, q) with Lemke's method (allocating convenience entry point).
pub fn solve_lemke<T: Field>(lcp: &Lcp<T>, settings: &LemkeSettings) -> Result<LcpSolution<T>, LcpError> {
    let _ = (lcp, settings);
    todo!()
}

/// Solves a small LCP whose size is known at compile time, without touching the heap
/// (the path geometry queries use, e.g. N = 12 for box–box distance).
pub fn solve_lemke_fixed<T: Field, const N: usize>(
    m: &[[T; N]; N],
    q: &[T; N],
    settings: &LemkeSettings,
) -> Result<FixedLcpSolution<T, N>, LcpError> {
    let _ = (m, q, settings);
    todo!()
}
