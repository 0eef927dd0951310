//! The complementarity functions h (minimum map) and φ (Fischer–Burmeister) and the
//! Jacobian pieces of their reformulations (spec §1.1, §3.5, §3.6).

use super::settings::JacobianStrategy;
use crate::operator::DenseMatrix;

/// h(x, y) = min(x, y) (spec (13)): zero exactly when 0 ≤ y ⊥ x ≥ 0.
pub fn min_map(x: f64, y: f64) -> f64 {
    x.min(y)
}

/// φ(x, y) = √(x² + y²) − x − y (spec (17)): zero exactly when 0 ≤ y ⊥ x ≥ 0.
///
/// Evaluated as −2xy / (√(x² + y²) + x + y) when x, y > 0 (no cancellation), with
/// `hypot` otherwise (no overflow).
pub fn fischer_burmeister(x: f64, y: f64) -> f64 {
    let r = x.hypot(y);
    if x > 0.0 && y > 0.0 { -2.0 * x * y / (r + x + y) } else { r - x - y }
}

/// SplitMix64: the small deterministic generator of the random strategy.
#[derive(Debug, Clone)]
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }
    /// Uniform in [0, 1).
    pub(crate) fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// (p_i, q_i) of the FB Jacobian row p_i e_iᵀ + q_i A_{i*} (spec (96)–(98)) at one index.
/// `degenerate` says whether x_i = y_i = 0 to the caller's tolerance. The approximation
/// strategy uses the zero choice here (it only needs (p, q) for gradients, where F_i = 0 at a
/// degenerate index makes the choice irrelevant).
pub(crate) fn fb_partials(
    x: f64,
    y: f64,
    degenerate: bool,
    strategy: &JacobianStrategy,
    rng: &mut SplitMix64,
) -> (f64, f64) {
    if degenerate {
        match *strategy {
            JacobianStrategy::Random { .. } => {
                let u = rng.next_f64() * core::f64::consts::FRAC_1_SQRT_2;
                let v = rng.next_f64() * core::f64::consts::FRAC_1_SQRT_2;
                (u - 1.0, v - 1.0)
            }
            JacobianStrategy::Perturbation { epsilon } => {
                let r = epsilon.hypot(y);
                (epsilon / r - 1.0, y / r - 1.0)
            }
            JacobianStrategy::Zero | JacobianStrategy::Approximation { .. } => (-1.0, -1.0),
        }
    } else {
        let r = x.hypot(y);
        (x / r - 1.0, y / r - 1.0)
    }
}

/// The FB Jacobian coefficients (p, q) at (x, y = A x + b) for a strategy: J = D_p + D_q A.
/// An index is degenerate when |x_i| ≤ `degeneracy_tolerance` and |y_i| ≤ it. The random
/// strategy draws from a generator seeded with its seed at this call.
pub fn fb_jacobian_coefficients(
    x: &[f64],
    y: &[f64],
    strategy: &JacobianStrategy,
    degeneracy_tolerance: f64,
) -> (Vec<f64>, Vec<f64>) {
    let seed = if let JacobianStrategy::Random { seed } = strategy { *seed } else { 0 };
    let mut rng = SplitMix64::new(seed);
    x.iter()
        .zip(y)
        .map(|(&xi, &yi)| {
            let degenerate = xi.abs() <= degeneracy_tolerance && yi.abs() <= degeneracy_tolerance;
            fb_partials(xi, yi, degenerate, strategy, &mut rng)
        })
        .unzip()
}

/// The min-map B-derivative as a matrix at (x, y = A x + b): row i is A_{i*} when
/// y_i < x_i (i ∈ 𝒜) and e_iᵀ otherwise (i ∈ ℱ; ties go to ℱ) — spec (77)–(78).
pub fn minmap_jacobian_dense(a: &DenseMatrix, x: &[f64], y: &[f64]) -> DenseMatrix {
    let n = a.n();
    let mut data = vec![0.0; n * n];
    for i in 0..n {
        if y[i] < x[i] {
            data[i * n..(i + 1) * n].copy_from_slice(a.row(i));
        } else {
            data[i * n + i] = 1.0;
        }
    }
    DenseMatrix::from_row_major_unchecked(n, data)
}
