//! Thresholds of one solve, turned from the relative settings into the scalar type.
//!
//! For exact scalars every threshold is zero, so the generic code decides exactly. For floats:
//!
//! * `pivot`: a column entry is a pivot candidate only if `< -pivot`, with
//!   `pivot = max(pivot_tolerance, 64 ε) · scale` (ε the scalar's machine epsilon, so `f32`
//!   gets a threshold it can resolve);
//! * `tie = max(10 · pivot_tolerance, 64 ε)`: two ratios a, b tie when
//!   `|a − b| ≤ tie · max(1, |a|, |b|)` (measured from the best ratio so far in the leaving-row
//!   test); ties go to the lexicographic tie-break;
//! * `small_pivot = 1000 · pivot`: a chosen pivot below it marks the run numerically dubious,
//!   and so does a ray declared while an entry lies in [-pivot, -pivot/1024) — too large to be
//!   round-off of a zero (≈ ε·scale), too small to be a candidate (`near_candidate`);
//! * `certificate = max(residual_tolerance, 1000 ε) · scale · n`: the bound on ‖min(z, w)‖∞
//!   a float answer must meet to be reported solved.

use proxima_num::Field;

use super::settings::LemkeSettings;
use crate::problem::LcpView;

/// Thresholds of one solve (all zero for exact scalars).
#[derive(Debug, Clone)]
pub(crate) struct Numerics<T> {
    /// Candidate threshold: entries must be `< -pivot`.
    pub(crate) pivot: T,
    /// Relative tie tolerance for ratio comparisons.
    pub(crate) tie: T,
    /// Chosen pivots smaller in magnitude mark the run dubious.
    pub(crate) small_pivot: T,
    /// `-pivot / 1024`: excluded entries below it make a ray dubious.
    pub(crate) near_candidate: T,
    /// Bound on ‖min(z, w)‖∞ for a certified answer.
    pub(crate) certificate: T,
    /// Pivot limit per attempt.
    pub(crate) max_pivots: usize,
}

/// The machine epsilon of a float scalar as f64 (0 for exact scalars). Allocation-free.
pub(crate) fn machine_epsilon<T: Field>() -> f64 {
    if T::EXACT {
        return 0.0;
    }
    let one = T::one();
    let mut eps = f64::EPSILON;
    // f64 (and anything at least as precise) answers on the first test.
    while eps < 1.0 && T::from_f64(1.0 + eps).is_none_or(|v| v == one) {
        eps *= 2.0;
    }
    eps
}

/// `max(1, max |Mᵢⱼ|, max |qᵢ|)` — the value of [`LcpView::scale`], computed with four
/// independent running maxima so the reduction is not one long dependency chain.
fn scale<T: Field>(view: &LcpView<'_, T>) -> f64 {
    let mut acc = [1.0f64; 4];
    let mut fold = |values: &[T]| {
        let mut chunks = values.chunks_exact(4);
        for chunk in &mut chunks {
            for (a, v) in acc.iter_mut().zip(chunk) {
                let x = v.to_f64().abs();
                if x > *a {
                    *a = x;
                }
            }
        }
        for v in chunks.remainder() {
            let x = v.to_f64().abs();
            if x > acc[0] {
                acc[0] = x;
            }
        }
    };
    fold(view.m());
    fold(view.q());
    acc.iter().fold(1.0f64, |m, &a| m.max(a))
}

impl<T: Field> Numerics<T> {
    /// Thresholds for `view` under `settings` (settings already validated).
    pub(crate) fn new(view: &LcpView<'_, T>, settings: &LemkeSettings) -> Self {
        let n = view.n();
        let max_pivots = settings.max_pivots_for(n);
        if T::EXACT {
            return Self {
                pivot: T::zero(),
                tie: T::zero(),
                small_pivot: T::zero(),
                near_candidate: T::zero(),
                certificate: T::zero(),
                max_pivots,
            };
        }
        let scale = scale(view);
        let eps = machine_epsilon::<T>();
        let pivot_rel = settings.pivot_tolerance.max(64.0 * eps);
        let tie_rel = (10.0 * settings.pivot_tolerance).max(64.0 * eps);
        let cert_rel = settings.residual_tolerance.max(1000.0 * eps);
        Self {
            pivot: T::tolerance(pivot_rel, scale),
            tie: T::tolerance(tie_rel, 1.0),
            small_pivot: T::tolerance(1000.0 * pivot_rel, scale),
            near_candidate: T::tolerance(pivot_rel / 1024.0, scale).neg(),
            certificate: T::tolerance(cert_rel, scale * n as f64),
            max_pivots,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proxima_num::Rational;

    #[test]
    fn scale_matches_the_view() {
        let m = [1.0, -7.5, 3.0, 2.0, 0.5, 9.0, -1.0, 4.0, 2.5];
        let q = [-11.0, 0.0, 1.0];
        let view = LcpView::new(&m, &q).unwrap();
        assert_eq!(scale(&view), view.scale());
        let small = [0.1, 0.2, 0.3, 0.4];
        let view = LcpView::new(&small, &small[..2]).unwrap();
        assert_eq!(scale(&view), 1.0);
    }

    #[test]
    fn epsilons() {
        assert_eq!(machine_epsilon::<f64>(), f64::EPSILON);
        assert_eq!(machine_epsilon::<f32>(), f32::EPSILON as f64);
        assert_eq!(machine_epsilon::<Rational>(), 0.0);
    }
}
