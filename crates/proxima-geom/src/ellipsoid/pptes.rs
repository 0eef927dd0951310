//! The thesis's point–ellipsoid iteration (`pptes`, spec §2.2–2.3): a dominant-term fixed point
//! on the secular equation S(λ) = Σ aᵢ²pᵢ²/(aᵢ² + λ)² = 1 with a ratio accelerator and its
//! stability switches, in any dimension.
//!
//! # The iteration
//!
//! With tᵢ(λ) = aᵢ²pᵢ²/(aᵢ² + λ)² and a dominant index i*, the next λ makes term i* equal to
//! its share tᵢ*/S of the target sum 1: λ ← √(aᵢ²pᵢ²·S/tᵢ*) − aᵢ² (5.1.8). Every second pass
//! the ratio r of successive λ changes is used to add the geometric tail Δ·r/(1 − r) (the
//! "ratio accelerator"); when a pass gets worse the update is repaired by a secant step (S
//! crossed 1), by undoing the acceleration, or by a midpoint ("runaway"). When λ drops below
//! the branch bound −a_min² the dominant index is re-picked. The result is rescaled radially
//! onto the surface.
//!
//! Kept for the reproduction of the thesis (Table 5.2, §3.3); the production projection is
//! the safeguarded Newton of [`super::point_ellipsoid`]. The thesis default K = 6 is too small
//! (spec §2.5); our default is 20. Non-convergence is reported in
//! [`PptesResult::converged`], never hidden.
//!
//! Edge cases: the inputs are validated as in [`super::distance_point_ellipsoid_nd`]; a point
//! within Σpᵢ²/aᵢ² < 1e-4 of the centre returns the end of the shortest semi-axis (step 1 of
//! the listing).

use super::point_ellipsoid::validate_nd;
use crate::error::GeomError;

/// Settings of [`pptes`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PptesSettings {
    /// Iteration cap K. Default 20 (the thesis's 6 is too small, spec §2.5).
    pub max_iterations: usize,
    /// Tolerance on |S − 1|. Default 1e-6; values below 1e-10 are raised to 1e-10 (thesis).
    pub tolerance: f64,
    /// Optional starting λ.
    pub lambda0: Option<f64>,
}

impl Default for PptesSettings {
    fn default() -> Self {
        Self { max_iterations: 20, tolerance: 1e-6, lambda0: None }
    }
}

/// The result of [`pptes`].
#[derive(Debug, Clone, PartialEq)]
pub struct PptesResult {
    /// The surface point (radially rescaled onto the surface).
    pub closest: Vec<f64>,
    /// The final λ.
    pub lambda: f64,
    /// λ in use at each pass.
    pub history: Vec<f64>,
    /// |S − 1| at the final λ (before the radial rescale).
    pub quality: f64,
    /// Passes made.
    pub iterations: usize,
    /// `quality ≤ tolerance` was reached.
    pub converged: bool,
}

fn terms(f: &[f64], a2: &[f64], lambda: f64, t: &mut [f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..f.len() {
        let d = a2[i] + lambda;
        t[i] = f[i] / (d * d);
        s += t[i];
    }
    s
}

fn sum_at(f: &[f64], a2: &[f64], lambda: f64) -> f64 {
    (0..f.len()).map(|i| f[i] / ((a2[i] + lambda) * (a2[i] + lambda))).sum()
}

/// The thesis's point–ellipsoid iteration (spec §2.3) for semi-axes `radii` and `point`.
pub fn pptes(radii: &[f64], point: &[f64], settings: &PptesSettings) -> Result<PptesResult, GeomError> {
    validate_nd(radii, point, radii.len())?;
    if !settings.tolerance.is_finite() || settings.tolerance <= 0.0 {
        return Err(GeomError::InvalidSettings { field: "tolerance", reason: "must be finite and > 0" });
    }
    if settings.max_iterations == 0 {
        return Err(GeomError::InvalidSettings { field: "max_iterations", reason: "must be ≥ 1" });
    }
    if settings.lambda0.is_some_and(|l| !l.is_finite()) {
        return Err(GeomError::NonFinite { what: "lambda0" });
    }
    let n = radii.len();
    let tol = settings.tolerance.max(1e-10);
    let a2: Vec<f64> = radii.iter().map(|a| a * a).collect();
    let p2: Vec<f64> = point.iter().map(|p| p * p).collect();
    let f: Vec<f64> = (0..n).map(|i| a2[i] * p2[i]).collect();
    let (imin, amin) = radii
        .iter()
        .copied()
        .enumerate()
        .fold((0, f64::INFINITY), |b, (i, a)| if a < b.1 { (i, a) } else { b });
    let amin2 = amin * amin;
    let s0: f64 = (0..n).map(|i| p2[i] / a2[i]).sum();
    if s0 < 1e-4 {
        let mut closest = vec![0.0; n];
        closest[imin] = if point[imin] < 0.0 { -amin } else { amin };
        return Ok(PptesResult {
            closest,
            lambda: -amin2,
            history: Vec::new(),
            quality: 0.0,
            iterations: 0,
            converged: true,
        });
    }
    let mut lambda_min = -amin2;
    if lambda_min <= -1.0 {
        lambda_min += 0.001;
    } else {
        lambda_min *= 0.999;
    }
    let mut lambda = settings.lambda0.unwrap_or((s0 - 1.0) * amin2);
    if settings.lambda0.is_none() && lambda < lambda_min / 2.0 {
        lambda = lambda_min / 2.0;
    }
    let mut t = vec![0.0; n];
    let mut history: Vec<f64> = Vec::with_capacity(settings.max_iterations);
    let mut k_min = 1usize;
    let mut dominant = 0usize;
    let mut s_prev = f64::NAN;
    let mut lambda_prev = f64::NAN;
    let mut unaccelerated_prev: Option<f64> = None;
    let mut s = terms(&f, &a2, lambda, &mut t);
    let mut converged = false;
    let mut k = 0;
    while k < settings.max_iterations {
        s = terms(&f, &a2, lambda, &mut t);
        if (s - 1.0).abs() <= tol {
            converged = true;
            break;
        }
        if k == 0 {
            let mut best = f64::INFINITY;
            for i in 0..n {
                let ti = if t[i] < 1e-12 { t[i] + 1e-12 } else { t[i] };
                let li = (f[i] * s / ti).sqrt() - a2[i];
                if li > lambda_min {
                    let e = (sum_at(&f, &a2, li) - 1.0).abs();
                    if e < best {
                        best = e;
                        dominant = i;
                    }
                }
            }
        }
        if k >= k_min && (s - 1.0).abs() > (s_prev - 1.0).abs() {
            if (s - 1.0) * (s_prev - 1.0) < 0.0 {
                lambda = lambda_prev + (lambda - lambda_prev) * (1.0 - s_prev) / (s - s_prev);
                k_min = k + 1;
            } else if let Some(u) = unaccelerated_prev {
                lambda = u;
                k_min = k + 2;
            } else if let Some(&before) = history.last() {
                lambda = 0.5 * (lambda + before);
            }
            s = terms(&f, &a2, lambda, &mut t);
        }
        lambda_prev = lambda;
        history.push(lambda);
        let td = if t[dominant] == 0.0 { 0.001 } else { t[dominant] };
        let mut lambda_new = (a2[dominant] * p2[dominant] * s / td).sqrt() - a2[dominant];
        unaccelerated_prev = None;
        if k % 2 == 0 && k >= k_min && k >= 1 {
            let denom = history[k] - history[k - 1];
            if denom != 0.0 {
                let r = (lambda_new - history[k]) / denom;
                if r.abs() < 1.0 {
                    unaccelerated_prev = Some(lambda_new);
                    lambda_new += (lambda_new - history[k]) * r / (1.0 - r);
                }
            }
        }
        if lambda_new < lambda_min {
            let old = dominant;
            let mut best = f64::NEG_INFINITY;
            for i in 0..n {
                if i == old {
                    continue;
                }
                let ti = if t[i] == 0.0 { t[i] + 0.001 } else { t[i] };
                let li = (a2[i] * p2[i] * s / ti).sqrt() - a2[i];
                if li > best {
                    best = li;
                    dominant = i;
                }
            }
            k_min = k + 2;
            lambda_new = best;
            let d = a2[dominant] + lambda_new;
            if f[dominant] / (d * d) < 0.01 {
                let alt = 10.0 * radii[dominant] * point[dominant].abs() - a2[dominant];
                if alt > lambda_min {
                    lambda_new = alt;
                }
            }
            if lambda_new.is_nan() || lambda_new < lambda_min {
                lambda_new = lambda_min;
            }
        }
        s_prev = s;
        lambda = lambda_new;
        k += 1;
    }
    let quality = (s - 1.0).abs();
    let mut closest: Vec<f64> = (0..n).map(|i| a2[i] * point[i] / (a2[i] + lambda)).collect();
    let q: f64 = (0..n).map(|i| closest[i] * closest[i] / a2[i]).sum::<f64>().sqrt();
    if q > 0.0 && q.is_finite() {
        closest.iter_mut().for_each(|x| *x /= q);
    }
    Ok(PptesResult { closest, lambda, history, quality, iterations: k, converged })
}
