//! Orchestration of one solve: trivial check, first attempt, certification and fallbacks.
//!
//! ```text
//! q ≥ 0                               → Trivial (no pivot)
//! attempt with the settings' d
//!   z₀ left, residual certified       → Solved (Lemke)
//!   z₀ left, residual NOT certified   → exact re-solve (floats, n small) or NumericalFailure
//!   pivot limit                       → MaxIterations (exact re-solve first if the float
//!                                       run was numerically dubious)
//!   secondary ray                     → restarts with other d (LemkeRestart{attempt}),
//!                                       then enumeration (Enumeration{singular_skipped}),
//!                                       then, for floats whose "no solution" rests on close
//!                                       decisions, exact re-solve; else NoSolution
//! ```
//!
//! Every reported status comes with residuals computed from M and q by
//! [`LcpView::residual`]; pivots accumulate over all attempts.

use proxima_num::Field;

use super::covering::{self, CoveringChoice};
use super::enumeration::{ENUMERATION_HARD_LIMIT, Enumerated, enumerate};
use super::exact_resolve::exact_resolve;
use super::numerics::Numerics;
use super::path::{Run, RunOutcome};
use super::{LemkeReport, LemkeSettings, LemkeWorkspace};
use crate::error::LcpError;
use crate::problem::LcpView;
use crate::solution::{LcpStatus, SolvePath};

/// Validates the settings for a problem of size n in scalar type `T`.
pub(super) fn validate<T: Field>(settings: &LemkeSettings, n: usize) -> Result<(), LcpError> {
    settings.validate(n)?;
    covering::validate_in::<T>(&settings.covering)
}

/// `true` when q ≥ 0, i.e. z = 0 solves the problem.
pub(super) fn is_trivial<T: Field>(view: &LcpView<'_, T>) -> bool {
    !view.q().iter().any(Field::is_negative)
}

/// The whole solve in a workspace (the dynamic path).
pub(super) fn solve_in_workspace<T: Field>(
    ws: &mut LemkeWorkspace<T>,
    view: LcpView<'_, T>,
    settings: &LemkeSettings,
) -> Result<LemkeReport<T>, LcpError> {
    let n = view.n();
    validate::<T>(settings, n)?;
    ws.resize(n);
    if is_trivial(&view) {
        ws.z.iter_mut().for_each(|v| *v = T::zero());
        ws.w.clone_from_slice(view.q());
        let residual = view.residual(&ws.z);
        return Ok(LemkeReport { status: LcpStatus::Trivial, pivots: 0, residual, path: SolvePath::Trivial });
    }
    let num = Numerics::new(&view, settings);
    let first = ws.attempt(&view, CoveringChoice::Given(&settings.covering), &num);
    Ok(finish(ws, &view, settings, &num, first))
}

/// Certifies the first attempt (whose iterate is in `ws.z`/`ws.w`) and runs the fallbacks.
pub(super) fn finish<T: Field>(
    ws: &mut LemkeWorkspace<T>,
    view: &LcpView<'_, T>,
    settings: &LemkeSettings,
    num: &Numerics<T>,
    first: Run,
) -> LemkeReport<T> {
    let n = view.n();
    let fallback = settings.fallback;
    let mut pivots = first.pivots;
    let mut dubious = first.dubious;
    let mut path = SolvePath::Lemke;
    let report = |ws: &LemkeWorkspace<T>, status, pivots, path| LemkeReport {
        status,
        pivots,
        residual: view.residual(&ws.z),
        path,
    };

    match first.outcome {
        RunOutcome::Solved => return certify_or_repair(ws, view, settings, num, pivots, path),
        RunOutcome::MaxPivots => {
            if dubious && let Some(report) = try_exact(ws, view, settings, pivots) {
                return report;
            }
            return report(ws, LcpStatus::MaxIterations, pivots, path);
        }
        RunOutcome::Ray => {}
    }

    for attempt in 1..=fallback.covering_restarts {
        let run = ws.attempt(view, CoveringChoice::Restart(attempt), num);
        pivots += run.pivots;
        dubious |= run.dubious;
        path = SolvePath::LemkeRestart { attempt };
        if run.outcome == RunOutcome::Solved {
            return certify_or_repair(ws, view, settings, num, pivots, path);
        }
    }

    let mut doubtful_proof = false;
    if n <= fallback.enumeration_max_n.min(ENUMERATION_HARD_LIMIT) {
        let LemkeWorkspace { enumeration, z, w, .. } = ws;
        match enumerate(view, num, enumeration, z, w) {
            Enumerated::Found { singular_skipped } => {
                return report(ws, LcpStatus::Solved, pivots, SolvePath::Enumeration { singular_skipped });
            }
            Enumerated::NotFound { singular_skipped } => {
                path = SolvePath::Enumeration { singular_skipped };
                doubtful_proof = singular_skipped > 0;
            }
        }
    }
    if (dubious || doubtful_proof)
        && let Some(report) = try_exact(ws, view, settings, pivots)
    {
        return report;
    }
    report(ws, LcpStatus::NoSolution, pivots, path)
}

/// Reports a claimed solution (iterate in `ws.z`) if its residual is certified; otherwise
/// re-solves exactly when allowed, or reports [`LcpStatus::NumericalFailure`].
fn certify_or_repair<T: Field>(
    ws: &mut LemkeWorkspace<T>,
    view: &LcpView<'_, T>,
    settings: &LemkeSettings,
    num: &Numerics<T>,
    pivots: usize,
    path: SolvePath,
) -> LemkeReport<T> {
    let residual = view.residual(&ws.z);
    if residual.min_map_inf <= num.certificate {
        return LemkeReport { status: LcpStatus::Solved, pivots, residual, path };
    }
    if let Some(report) = try_exact(ws, view, settings, pivots) {
        return report;
    }
    LemkeReport { status: LcpStatus::NumericalFailure, pivots, residual, path }
}

/// The exact re-solve, for float scalars with n ≤ `exact_resolve_max_n` only.
fn try_exact<T: Field>(
    ws: &mut LemkeWorkspace<T>,
    view: &LcpView<'_, T>,
    settings: &LemkeSettings,
    pivots: usize,
) -> Option<LemkeReport<T>> {
    if T::EXACT || view.n() > settings.fallback.exact_resolve_max_n {
        return None;
    }
    let (status, exact_pivots) = exact_resolve(view, settings, &mut ws.z, &mut ws.w)?;
    let status = if status == LcpStatus::Trivial { LcpStatus::Solved } else { status };
    Some(LemkeReport {
        status,
        pivots: pivots + exact_pivots,
        residual: view.residual(&ws.z),
        path: SolvePath::ExactResolve,
    })
}
