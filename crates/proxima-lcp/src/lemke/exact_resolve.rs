//! Exact re-solve of a float problem in rational arithmetic.
//!
//! Every finite float is a dyadic rational, so converting M and q with
//! [`Rational::from_f64_exact`] gives *exactly* the problem the caller stated. The same Lemke
//! code (with the same settings: restarts, enumeration) then decides exactly, and the exact z is
//! rounded to the nearest float. Used when a float run is not certified by its residual or when
//! its ray termination rests on numerically close decisions. Cost grows with the bit size of
//! the data, hence the `exact_resolve_max_n` limit.

use proxima_num::{Field, Rational};

use super::{LemkeSettings, LemkeWorkspace};
use crate::problem::{Lcp, LcpView};
use crate::solution::LcpStatus;

/// Re-solves `view` exactly; writes the rounded z and w = M z + q (in `T`) and returns the
/// exact status and its pivot count. `None` only if the data cannot be converted.
pub(crate) fn exact_resolve<T: Field>(
    view: &LcpView<'_, T>,
    settings: &LemkeSettings,
    z: &mut [T],
    w: &mut [T],
) -> Option<(LcpStatus, usize)> {
    let convert = |v: &T| Rational::from_f64_exact(v.to_f64());
    let m: Vec<Rational> = view.m().iter().map(convert).collect::<Option<_>>()?;
    let q: Vec<Rational> = view.q().iter().map(convert).collect::<Option<_>>()?;
    let lcp = Lcp::new(m, q).ok()?;
    let mut workspace = LemkeWorkspace::<Rational>::new();
    let report = workspace.solve(lcp.view(), settings).ok()?;
    for (zi, exact) in z.iter_mut().zip(workspace.z()) {
        *zi = T::from_f64(exact.to_f64()).unwrap_or_else(T::zero);
    }
    view.compute_w(z, w);
    Some((report.status, report.pivots))
}
