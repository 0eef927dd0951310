//! Krylov sub-solvers for the Newton equations: restarted GMRES and preconditioned CG.
//!
//! # The maths
//!
//! Both solve a square linear system K v = r given only the product u ↦ K u (a closure), so
//! they work matrix-free: on an assembled matrix, on a [`LinearOperator`], on a reduced
//! (Schur) system, or on a finite-difference Jacobian product (spec §3.6–3.7).
//!
//! * **GMRES(m)** minimises ‖r − K v‖₂ over v₀ + span{ρ, Kρ, …, K^{k−1}ρ} (ρ = r − K v₀),
//!   building an orthonormal Krylov basis with modified Gram–Schmidt (Arnoldi) and reducing
//!   the small Hessenberg least-squares problem with Givens rotations, so the residual norm
//!   of every inner step is known without forming v. After m inner steps the basis is
//!   discarded and the method restarts from the current v (storage O(m n)). Works for any
//!   non-singular K.
//! * **PCG** is conjugate gradients with a diagonal (Jacobi) preconditioner P⁻¹; it needs K
//!   symmetric positive definite (e.g. the reduced min-map system A_𝒜𝒜 Δx_𝒜 = …, spec (80),
//!   for symmetric PD A). A non-positive curvature pᵀK p ≤ 0 ends the run with
//!   [`KrylovStatus::Breakdown`].
//!
//! Both stop when ‖r − K v‖₂ ≤ max(relative·‖r‖₂, absolute): the Newton solvers pass the
//! forcing term ‖residual‖ ≤ γ‖F(x)‖ of spec (71)/(105) as the absolute target.
//!
//! # Edge cases
//!
//! * r = 0 → v = 0 after zero iterations (when v₀ = 0), `Converged`.
//! * A lucky breakdown in Arnoldi (the Krylov space is K-invariant) ends the cycle with the
//!   exact solution of the space; a zero diagonal entry of the reduced triangle (singular K)
//!   sets that coordinate to 0 instead of dividing by zero.
//! * Sizes, non-finite input and invalid settings are `Err(LcpError)`.
//! * [`gmres_with`] / [`pcg_with`] take a [`KrylovWorkspace`] whose vectors grow to the largest
//!   system seen and are then reused, so a Newton run allocates nothing per sub-solve;
//!   [`gmres`] / [`pcg`] use a fresh one.

use crate::error::LcpError;
use crate::operator::LinearOperator;

/// Settings shared by [`gmres`] and [`pcg`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KrylovSettings {
    /// Maximum number of products with K (inner iterations over all restarts). Default 200.
    pub max_iterations: usize,
    /// GMRES restart length m (ignored by PCG); capped at n. Default 20.
    pub restart: usize,
    /// Stop when ‖residual‖₂ ≤ `relative`·‖rhs‖₂. Default 1e-10.
    pub relative_tolerance: f64,
    /// ... or when ‖residual‖₂ ≤ `absolute`. Default 0.
    pub absolute_tolerance: f64,
}

impl Default for KrylovSettings {
    fn default() -> Self {
        KrylovSettings {
            max_iterations: 200,
            restart: 20,
            relative_tolerance: 1e-10,
            absolute_tolerance: 0.0,
        }
    }
}

impl KrylovSettings {
    /// Checks the documented ranges (at least one iteration, restart ≥ 1, tolerances ≥ 0).
    pub fn validate(&self) -> Result<(), LcpError> {
        if self.max_iterations == 0 {
            return Err(LcpError::InvalidSettings { field: "max_iterations", reason: "must be >= 1" });
        }
        if self.restart == 0 {
            return Err(LcpError::InvalidSettings { field: "restart", reason: "must be >= 1" });
        }
        for (v, field) in
            [(self.relative_tolerance, "relative_tolerance"), (self.absolute_tolerance, "absolute_tolerance")]
        {
            if !(v.is_finite() && v >= 0.0) {
                return Err(LcpError::InvalidSettings { field, reason: "must be finite and >= 0" });
            }
        }
        Ok(())
    }
}

/// Reusable storage of [`gmres_with`] and [`pcg_with`]: the Krylov basis, the Hessenberg
/// matrix and its rotations, and the work vectors.
#[derive(Debug, Clone, Default)]
pub struct KrylovWorkspace {
    basis: Vec<f64>,
    hessenberg: Vec<f64>,
    cosines: Vec<f64>,
    sines: Vec<f64>,
    g: Vec<f64>,
    w: Vec<f64>,
    y: Vec<f64>,
    residual: Vec<f64>,
    preconditioned: Vec<f64>,
    direction: Vec<f64>,
    image: Vec<f64>,
}

impl KrylovWorkspace {
    /// An empty workspace; storage is sized on first use.
    pub fn new() -> Self {
        Self::default()
    }
}

/// `v` cleared and resized to `len` zeros (no allocation once the capacity is there).
fn zeroed(v: &mut Vec<f64>, len: usize) -> &mut [f64] {
    v.clear();
    v.resize(len, 0.0);
    v
}

/// How a Krylov solve ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KrylovStatus {
    /// The residual target was met.
    Converged,
    /// `max_iterations` products were spent first.
    MaxIterations,
    /// PCG met non-positive curvature (K not SPD), or a non-finite value appeared.
    Breakdown,
}

/// What a Krylov solve reports besides the solution written into `v`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KrylovInfo {
    /// How it ended.
    pub status: KrylovStatus,
    /// Products with K performed.
    pub iterations: usize,
    /// ‖rhs − K v‖₂ at exit (recomputed from K for GMRES restarts; the recurrence for PCG).
    pub residual_norm: f64,
    /// ‖rhs‖₂.
    pub rhs_norm: f64,
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|a| a * a).sum::<f64>().sqrt()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn check_inputs(rhs: &[f64], v: &[f64], settings: &KrylovSettings) -> Result<(), LcpError> {
    settings.validate()?;
    if rhs.is_empty() {
        return Err(LcpError::Empty);
    }
    if v.len() != rhs.len() {
        return Err(LcpError::DimensionMismatch {
            what: "initial guess",
            expected: rhs.len(),
            found: v.len(),
        });
    }
    if let Some(index) = rhs.iter().position(|a| !a.is_finite()) {
        return Err(LcpError::NonFinite { what: "right-hand side", index });
    }
    if let Some(index) = v.iter().position(|a| !a.is_finite()) {
        return Err(LcpError::NonFinite { what: "initial guess", index });
    }
    Ok(())
}

/// Restarted GMRES: solves K v = rhs, starting from the given `v` (use zeros for a cold
/// start). `apply(u, out)` must write K u into `out` (both of length n = `rhs.len()`).
pub fn gmres(
    apply: impl FnMut(&[f64], &mut [f64]),
    rhs: &[f64],
    v: &mut [f64],
    settings: &KrylovSettings,
) -> Result<KrylovInfo, LcpError> {
    gmres_with(&mut KrylovWorkspace::new(), apply, rhs, v, settings)
}

/// [`gmres`] with reusable storage.
pub fn gmres_with(
    workspace: &mut KrylovWorkspace,
    mut apply: impl FnMut(&[f64], &mut [f64]),
    rhs: &[f64],
    v: &mut [f64],
    settings: &KrylovSettings,
) -> Result<KrylovInfo, LcpError> {
    check_inputs(rhs, v, settings)?;
    let n = rhs.len();
    let m = settings.restart.min(n);
    let rhs_norm = norm(rhs);
    let target = (settings.relative_tolerance * rhs_norm).max(settings.absolute_tolerance);
    // Krylov basis (m + 1 vectors), Hessenberg matrix (column-major, (m + 1) × m), rotations.
    let KrylovWorkspace { basis, hessenberg, cosines, sines, g, w, y, .. } = workspace;
    let basis = zeroed(basis, (m + 1) * n);
    let h = zeroed(hessenberg, (m + 1) * m);
    let (cs, sn) = (zeroed(cosines, m), zeroed(sines, m));
    let g = zeroed(g, m + 1);
    let w = zeroed(w, n);
    let mut iterations = 0;
    loop {
        // True residual of the current iterate.
        apply(v, w);
        for i in 0..n {
            basis[i] = rhs[i] - w[i];
        }
        let beta = norm(&basis[..n]);
        if !beta.is_finite() {
            return Ok(KrylovInfo {
                status: KrylovStatus::Breakdown,
                iterations,
                residual_norm: beta,
                rhs_norm,
            });
        }
        if beta <= target {
            return Ok(KrylovInfo {
                status: KrylovStatus::Converged,
                iterations,
                residual_norm: beta,
                rhs_norm,
            });
        }
        if iterations >= settings.max_iterations {
            return Ok(KrylovInfo {
                status: KrylovStatus::MaxIterations,
                iterations,
                residual_norm: beta,
                rhs_norm,
            });
        }
        basis[..n].iter_mut().for_each(|a| *a /= beta);
        g.iter_mut().for_each(|a| *a = 0.0);
        g[0] = beta;
        let mut k = 0;
        for j in 0..m {
            let (done, rest) = basis.split_at_mut((j + 1) * n);
            apply(&done[j * n..], w);
            iterations += 1;
            // Modified Gram–Schmidt against the basis so far.
            for i in 0..=j {
                let vi = &done[i * n..(i + 1) * n];
                let hij = dot(w, vi);
                h[j * (m + 1) + i] = hij;
                for (wk, vk) in w.iter_mut().zip(vi) {
                    *wk -= hij * vk;
                }
            }
            let next_norm = norm(w);
            h[j * (m + 1) + j + 1] = next_norm;
            // Apply the previous rotations to the new column, then a new one.
            let col = &mut h[j * (m + 1)..(j + 1) * (m + 1)];
            for i in 0..j {
                let (a, b) = (col[i], col[i + 1]);
                col[i] = cs[i] * a + sn[i] * b;
                col[i + 1] = -sn[i] * a + cs[i] * b;
            }
            let (a, b) = (col[j], col[j + 1]);
            let r = a.hypot(b);
            if r > 0.0 {
                cs[j] = a / r;
                sn[j] = b / r;
            } else {
                cs[j] = 1.0;
                sn[j] = 0.0;
            }
            col[j] = r;
            col[j + 1] = 0.0;
            g[j + 1] = -sn[j] * g[j];
            g[j] *= cs[j];
            k = j + 1;
            let estimate = g[j + 1].abs();
            let lucky = next_norm <= f64::EPSILON * beta;
            if lucky || estimate <= target || iterations >= settings.max_iterations || !estimate.is_finite() {
                break;
            }
            for (dst, src) in rest[..n].iter_mut().zip(w.iter()) {
                *dst = src / next_norm;
            }
        }
        // Back substitution on the k × k triangle; add the correction.
        let y = zeroed(y, k);
        for i in (0..k).rev() {
            let mut acc = g[i];
            for l in i + 1..k {
                acc -= h[l * (m + 1) + i] * y[l];
            }
            let diag = h[i * (m + 1) + i];
            y[i] = if diag.abs() > f64::MIN_POSITIVE { acc / diag } else { 0.0 };
        }
        for (l, yl) in y.iter().enumerate() {
            for (vi, bi) in v.iter_mut().zip(&basis[l * n..(l + 1) * n]) {
                *vi += yl * bi;
            }
        }
    }
}

/// Preconditioned conjugate gradients for symmetric positive definite K, starting from the
/// given `v`. `inverse_diagonal` (length n) is the Jacobi preconditioner P⁻¹ = diag(1/Kᵢᵢ);
/// `None` means no preconditioning.
pub fn pcg(
    apply: impl FnMut(&[f64], &mut [f64]),
    inverse_diagonal: Option<&[f64]>,
    rhs: &[f64],
    v: &mut [f64],
    settings: &KrylovSettings,
) -> Result<KrylovInfo, LcpError> {
    pcg_with(&mut KrylovWorkspace::new(), apply, inverse_diagonal, rhs, v, settings)
}

/// [`pcg`] with reusable storage.
pub fn pcg_with(
    workspace: &mut KrylovWorkspace,
    mut apply: impl FnMut(&[f64], &mut [f64]),
    inverse_diagonal: Option<&[f64]>,
    rhs: &[f64],
    v: &mut [f64],
    settings: &KrylovSettings,
) -> Result<KrylovInfo, LcpError> {
    check_inputs(rhs, v, settings)?;
    let n = rhs.len();
    if let Some(d) = inverse_diagonal {
        if d.len() != n {
            return Err(LcpError::DimensionMismatch { what: "preconditioner", expected: n, found: d.len() });
        }
        if let Some(index) = d.iter().position(|a| !a.is_finite()) {
            return Err(LcpError::NonFinite { what: "preconditioner", index });
        }
    }
    let precondition = |r: &[f64], z: &mut [f64]| match inverse_diagonal {
        Some(d) => z.iter_mut().zip(r.iter().zip(d)).for_each(|(zi, (ri, di))| *zi = ri * di),
        None => z.copy_from_slice(r),
    };
    let rhs_norm = norm(rhs);
    let target = (settings.relative_tolerance * rhs_norm).max(settings.absolute_tolerance);
    let KrylovWorkspace { residual, preconditioned, direction, image, .. } = workspace;
    let r = zeroed(residual, n);
    apply(v, r);
    for (ri, bi) in r.iter_mut().zip(rhs) {
        *ri = bi - *ri;
    }
    let z = zeroed(preconditioned, n);
    precondition(r, z);
    let p = zeroed(direction, n);
    p.copy_from_slice(z);
    let q = zeroed(image, n);
    let mut rz = dot(r, z);
    let mut iterations = 0;
    loop {
        let residual_norm = norm(r);
        let info = |status| KrylovInfo { status, iterations, residual_norm, rhs_norm };
        if !residual_norm.is_finite() {
            return Ok(info(KrylovStatus::Breakdown));
        }
        if residual_norm <= target {
            return Ok(info(KrylovStatus::Converged));
        }
        if iterations >= settings.max_iterations {
            return Ok(info(KrylovStatus::MaxIterations));
        }
        apply(p, q);
        iterations += 1;
        let curvature = dot(p, q);
        if !(curvature > 0.0 && curvature.is_finite()) {
            return Ok(KrylovInfo { status: KrylovStatus::Breakdown, iterations, residual_norm, rhs_norm });
        }
        let alpha = rz / curvature;
        for i in 0..n {
            v[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        precondition(r, z);
        let rz_next = dot(r, z);
        let beta = rz_next / rz;
        rz = rz_next;
        for i in 0..n {
            p[i] = z[i] + beta * p[i];
        }
    }
}

/// `rhs` must have A's dimension.
fn check_rhs<A: LinearOperator + ?Sized>(a: &A, rhs: &[f64]) -> Result<(), LcpError> {
    if a.dim() == rhs.len() {
        Ok(())
    } else {
        Err(LcpError::DimensionMismatch { what: "right-hand side", expected: a.dim(), found: rhs.len() })
    }
}

/// [`gmres`] on K = A for a [`LinearOperator`] (checks `A.dim()` against `rhs`).
pub fn gmres_operator<A: LinearOperator + ?Sized>(
    a: &A,
    rhs: &[f64],
    v: &mut [f64],
    settings: &KrylovSettings,
) -> Result<KrylovInfo, LcpError> {
    check_rhs(a, rhs)?;
    gmres(|u, out| a.apply(u, out), rhs, v, settings)
}

/// [`pcg`] on K = A for a symmetric PD [`LinearOperator`], Jacobi-preconditioned with A's
/// diagonal when every diagonal entry is positive (unpreconditioned otherwise).
pub fn pcg_operator<A: LinearOperator + ?Sized>(
    a: &A,
    rhs: &[f64],
    v: &mut [f64],
    settings: &KrylovSettings,
) -> Result<KrylovInfo, LcpError> {
    check_rhs(a, rhs)?;
    let mut d = vec![0.0; a.dim()];
    a.diagonal(&mut d);
    let usable = d.iter().all(|&x| x > 0.0 && x.is_finite());
    d.iter_mut().for_each(|x| *x = 1.0 / *x);
    pcg(|u, out| a.apply(u, out), usable.then_some(&d[..]), rhs, v, settings)
}
