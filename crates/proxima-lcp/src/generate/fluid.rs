//! Fluid families: the companion suite's banded matrix, and a geometric grid Poisson LCP.
//!
//! **Fluid(G)** (spec §7.2, \[H\]): N = G³, A = I, three values R_d ~ U(−1, 0) placed on the
//! bands at offsets ±d, d = 1, 2, 3 (7 non-zero diagonals, one value per band); if
//! λ_min(A) ≤ 0 then A ← A + (0.5 − λ_min) I. Symmetric PD and banded, but not a geometric
//! stencil (offsets 1, 2, 3 instead of 1, G, G²).
//!
//! **Grid Poisson with separating walls** (spec §2.2, \[X\]): a box of cells, `dims = [nx, ny]`
//! (5-point stencil) or `[nx, ny, nz]` (7-point stencil), the last axis vertical, every cell
//! fluid, cells ordered with the first axis fastest. Solid walls on every side except the top,
//! which is open air (Dirichlet p = 0). With h = Δt = ρ = 1, after u = u* − ∇p the divergence
//! of cell i is (A p)_i + b_i with A_ii = number of non-solid neighbours (fluid or air),
//! A_ij = −1 for each fluid neighbour (A is an irreducibly diagonally dominant M-matrix, SPD),
//! and b = ∇·u* on the cells. The LCP p ≥ 0 ⊥ A p + b ≥ 0 lets the fluid leave a wall
//! (p = 0, positive divergence) but never compress. u* on faces = a bulk velocity (random
//! direction, magnitude `bulk_speed`) − `gravity` on vertical faces + the gradient of a few
//! Gaussian potential blobs (expansions and compressions); wall faces carry 0. The bulk motion
//! makes the fluid separate from the wall it moves away from, so both complementarity cases
//! occur. Generation is O(n · blobs).

use rand::Rng;

use super::eig::SymBand;
use crate::error::LcpError;
use crate::operator::CsrMatrix;

/// Fluid(G) (spec §7.2): the matrix and how it was made.
#[derive(Debug, Clone)]
pub struct BandedFluid {
    /// The N × N matrix, N = G³.
    pub matrix: CsrMatrix,
    /// R₁, R₂, R₃: the values on the bands at offsets ±1, ±2, ±3.
    pub band_values: [f64; 3],
    /// λ_min of the unshifted matrix (a lower bound within ~1e-15 relative).
    pub lambda_min_before: f64,
    /// The shift added to the diagonal (0 when λ_min was already positive).
    pub shift: f64,
}

/// Fluid(G) of spec §7.2 (num4lcp's `make_fluid_matrix`). `g ≥ 1`; N = g³ must be ≥ 4.
pub fn fluid_banded<R: Rng + ?Sized>(g: usize, rng: &mut R) -> Result<BandedFluid, LcpError> {
    let n = g.checked_pow(3).ok_or(LcpError::InvalidSettings { field: "g", reason: "g³ overflows" })?;
    if n < 4 {
        return Err(LcpError::InvalidSettings {
            field: "g", reason: "Fluid(G) needs G³ ≥ 4 (three bands)"
        });
    }
    let band_values: [f64; 3] = [-rng.random::<f64>(), -rng.random::<f64>(), -rng.random::<f64>()];
    let mut band = SymBand::zeros(n, 3);
    for i in 0..n {
        band.set(i, i, 1.0);
        for d in 1..=3 {
            if i >= d {
                band.set(i, i - d, band_values[d - 1]);
            }
        }
    }
    let lambda_min_before = band.lambda_min_lower();
    let shift = if lambda_min_before <= 0.0 { 0.5 - lambda_min_before } else { 0.0 };
    let rows = (0..n).map(|i| {
        let lo = i.saturating_sub(3);
        let hi = (i + 3).min(n - 1);
        (lo..=hi).map(move |j| {
            let v = if i == j { 1.0 + shift } else { band_values[i.abs_diff(j) - 1] };
            (j, v)
        })
    });
    let matrix = CsrMatrix::from_rows(n, rows)?;
    Ok(BandedFluid { matrix, band_values, lambda_min_before, shift })
}

/// Settings of the geometric grid fluid generator (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct FluidGridSettings {
    /// Cells per axis, 2 or 3 axes, the last one vertical. Each ≥ 2. No default: required.
    pub dims: Vec<usize>,
    /// Range of the bulk speed |u_bulk| (random direction). Default (0.1, 0.4).
    pub bulk_speed: (f64, f64),
    /// Range of the downward gravity impulse on vertical faces. Default (0.02, 0.1).
    pub gravity: (f64, f64),
    /// Number of Gaussian potential blobs. Default 4.
    pub blobs: usize,
    /// Blob radius as a fraction of the smallest extent, range. Default (0.08, 0.2).
    pub blob_radius: (f64, f64),
}

impl FluidGridSettings {
    /// Default settings for a 2D `nx × ny` grid (5-point stencil).
    pub fn grid_2d(nx: usize, ny: usize) -> Self {
        Self::with_dims(vec![nx, ny])
    }

    /// Default settings for a 3D `nx × ny × nz` grid (7-point stencil).
    pub fn grid_3d(nx: usize, ny: usize, nz: usize) -> Self {
        Self::with_dims(vec![nx, ny, nz])
    }

    fn with_dims(dims: Vec<usize>) -> Self {
        FluidGridSettings {
            dims,
            bulk_speed: (0.1, 0.4),
            gravity: (0.02, 0.1),
            blobs: 4,
            blob_radius: (0.08, 0.2),
        }
    }

    /// Checks the dimensions (2 or 3 axes, each ≥ 2, n ≤ u32::MAX) and the ranges.
    pub fn validate(&self) -> Result<usize, LcpError> {
        if !(2..=3).contains(&self.dims.len()) {
            return Err(LcpError::InvalidSettings { field: "dims", reason: "need 2 or 3 axes" });
        }
        if self.dims.iter().any(|&d| d < 2) {
            return Err(LcpError::InvalidSettings { field: "dims", reason: "every axis needs >= 2 cells" });
        }
        let n = self
            .dims
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d))
            .filter(|&n| u32::try_from(n).is_ok())
            .ok_or(LcpError::InvalidSettings { field: "dims", reason: "too many cells (> u32::MAX)" })?;
        let range_ok = |r: (f64, f64)| r.0.is_finite() && r.1.is_finite() && 0.0 <= r.0 && r.0 <= r.1;
        for (r, field) in
            [(self.bulk_speed, "bulk_speed"), (self.gravity, "gravity"), (self.blob_radius, "blob_radius")]
        {
            if !range_ok(r) {
                return Err(LcpError::InvalidSettings { field, reason: "need finite 0 <= lo <= hi" });
            }
        }
        if self.blob_radius.0 <= 0.0 && self.blobs > 0 {
            return Err(LcpError::InvalidSettings { field: "blob_radius", reason: "radius must be > 0" });
        }
        Ok(n)
    }
}

/// A grid fluid LCP: p ≥ 0 ⊥ A p + b ≥ 0.
#[derive(Debug, Clone)]
pub struct FluidGrid {
    /// Cells per axis (last axis vertical).
    pub dims: Vec<usize>,
    /// The 5-/7-point matrix (SPD).
    pub matrix: CsrMatrix,
    /// b = ∇·u* per cell.
    pub b: Vec<f64>,
}

struct Blob {
    centre: [f64; 3],
    inv_two_r2: f64,
    strength: f64,
}

fn uniform<R: Rng + ?Sized>(rng: &mut R, r: (f64, f64)) -> f64 {
    r.0 + (r.1 - r.0) * rng.random::<f64>()
}

/// Generates the grid fluid LCP of the module docs.
pub fn fluid_grid<R: Rng + ?Sized>(settings: &FluidGridSettings, rng: &mut R) -> Result<FluidGrid, LcpError> {
    let n = settings.validate()?;
    let dim = settings.dims.len();
    let vertical = dim - 1;
    let mut dims = [1usize; 3];
    dims[..dim].copy_from_slice(&settings.dims);
    let strides = [1, dims[0], dims[0] * dims[1]];

    // Bulk velocity: random direction on the unit circle/sphere.
    let mut dir = [0.0f64; 3];
    loop {
        let mut norm2 = 0.0;
        for d in dir.iter_mut().take(dim) {
            *d = 2.0 * rng.random::<f64>() - 1.0;
            norm2 += *d * *d;
        }
        if norm2 > 1e-4 && norm2 <= 1.0 {
            let s = uniform(rng, settings.bulk_speed) / norm2.sqrt();
            dir.iter_mut().for_each(|d| *d *= s);
            break;
        }
    }
    let bulk = dir;
    let gravity = uniform(rng, settings.gravity);
    let min_extent = settings.dims.iter().copied().min().unwrap_or(2) as f64;
    let blobs: Vec<Blob> = (0..settings.blobs)
        .map(|_| {
            let mut centre = [0.0; 3];
            for a in 0..dim {
                centre[a] = dims[a] as f64 * rng.random::<f64>();
            }
            let r = uniform(rng, settings.blob_radius) * min_extent;
            // Biased to expansion (negative potential peak → outward flow), like the harness.
            let strength = (1.3 * rng.random::<f64>() - 1.0) * r;
            Blob { centre, inv_two_r2: 1.0 / (2.0 * r * r), strength }
        })
        .collect();
    let potential = |c: [f64; 3]| -> f64 {
        blobs
            .iter()
            .map(|bl| {
                let d2: f64 = (0..3).map(|a| (c[a] - bl.centre[a]).powi(2)).sum();
                bl.strength * (-d2 * bl.inv_two_r2).exp()
            })
            .sum()
    };
    let centre_of = |coord: [usize; 3]| -> [f64; 3] {
        [coord[0] as f64 + 0.5, coord[1] as f64 + 0.5, coord[2] as f64 + 0.5]
    };
    let phi: Vec<f64> = (0..n).map(|i| potential(centre_of(coords(i, &dims)))).collect();

    // Velocity on the face between cell `c` and its upper neighbour along `axis`.
    // Upper neighbour outside the box: a wall, except above the top row (air).
    let face_up = |i: usize, coord: [usize; 3], axis: usize| -> f64 {
        let base = bulk[axis] - if axis == vertical { gravity } else { 0.0 };
        if coord[axis] + 1 < dims[axis] {
            base + phi[i + strides[axis]] - phi[i]
        } else if axis == vertical {
            let mut outside = centre_of(coord);
            outside[axis] += 1.0;
            base + potential(outside) - phi[i]
        } else {
            0.0
        }
    };

    let mut b = vec![0.0; n];
    let mut rows: Vec<Vec<(usize, f64)>> = Vec::with_capacity(n);
    for (i, bi) in b.iter_mut().enumerate() {
        let coord = coords(i, &dims);
        let mut div = 0.0;
        let mut diag = 0.0;
        let mut row = Vec::with_capacity(2 * dim + 1);
        for axis in 0..dim {
            div += face_up(i, coord, axis);
            if coord[axis] > 0 {
                let mut below = coord;
                below[axis] -= 1;
                div -= face_up(i - strides[axis], below, axis);
                row.push((i - strides[axis], -1.0));
                diag += 1.0;
            }
            if coord[axis] + 1 < dims[axis] {
                row.push((i + strides[axis], -1.0));
                diag += 1.0;
            } else if axis == vertical {
                diag += 1.0; // air above: Dirichlet neighbour
            }
        }
        row.push((i, diag));
        rows.push(row);
        *bi = div;
    }
    let matrix = CsrMatrix::from_rows(n, rows)?;
    Ok(FluidGrid { dims: settings.dims.clone(), matrix, b })
}

fn coords(i: usize, dims: &[usize; 3]) -> [usize; 3] {
    [i % dims[0], (i / dims[0]) % dims[1], i / (dims[0] * dims[1])]
}
