//! Seedable generators for the spec's problem families (spec §7.2, §2.2), and a writer to the
//! benchmark harness's file format (`../shared/bench/lcp/FORMAT.md`).
//!
//! | family | matrix | storage | function |
//! |---|---|---|---|
//! | Fluid(G) | N = G³, symmetric PD, 7 bands at offsets 0, ±1, ±2, ±3, λ_min = 0.5 after the shift | [`CsrMatrix`] | [`fluid_banded`] |
//! | grid fluid | 2D 5-point / 3D 7-point Poisson with separating solid walls, SPD M-matrix; b = ∇·u* | [`CsrMatrix`] | [`fluid_grid`] |
//! | Contact(K_c) | N = 6 K_c, non-symmetric, zero (β, β) diagonal, µ / −eᵀ / e couplings | [`CsrMatrix`] | [`contact_blocks`] |
//! | Dense PD(N) | O diag(1/N … 1) Oᵀ | [`DenseMatrix`] | [`dense_pd`] |
//! | Dense PSD(N, r) | first ⌊N r⌋ eigenvalues 0 | [`DenseMatrix`] | [`dense_psd`] |
//!
//! Right-hand sides: [`make_rhs`] with [`RhsKind::MakeLcp`] (num4lcp's rule, F = 0.25: no known
//! solution) or [`RhsKind::Planted`] (a strictly complementary planted solution); the grid
//! fluid also has its physical b ([`RhsKind::Native`]).
//!
//! # Seeds
//!
//! Every generator takes any [`rand::Rng`]. [`generate`] draws problem `index` of a family from
//! its own stream [`problem_rng`]`(seed, family, index)` (a [`SmallRng`] seeded from a
//! SplitMix64 mix of the three numbers), so one problem can be regenerated without the others,
//! as in the harness. `SmallRng`'s algorithm is only stable within one `rand` release and one
//! pointer width: the same seed gives the same problems on the same build, not across `rand`
//! upgrades. The harness's own generator (`gen_lcp.py`, numpy) draws different numbers from
//! the same construction.

mod contact;
mod dense;
mod eig;
mod fluid;
mod rhs;
mod write;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde_json::json;

pub use contact::{CONTACT_MU, ContactBlocks, contact_blocks};
pub use dense::{dense_pd, dense_psd};
pub use fluid::{BandedFluid, FluidGrid, FluidGridSettings, fluid_banded, fluid_grid};
pub use rhs::{Rhs, RhsKind, make_rhs};
pub use write::{write_family, write_problem};

use crate::error::LcpError;
use crate::operator::{CsrMatrix, DenseMatrix, LinearOperator, RowAccess};

/// A problem family with its size parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum Family {
    /// Fluid(G) of spec §7.2 (N = G³).
    FluidBanded {
        /// G (10 → N = 1000).
        g: usize,
    },
    /// The geometric grid fluid (2D or 3D).
    FluidGrid(FluidGridSettings),
    /// Contact(K_c) of spec §7.2 (N = 6 K_c).
    Contact {
        /// K_c, the number of contacts (30 → N = 180).
        contacts: usize,
    },
    /// Dense PD(N).
    DensePd {
        /// N.
        n: usize,
    },
    /// Dense PSD(N, ratio).
    DensePsd {
        /// N.
        n: usize,
        /// Fraction of zero eigenvalues, in [0, 1].
        ratio: f64,
    },
}

impl Family {
    /// A file-name-safe family name: `fluid_g10`, `fluid_grid_64x64`, `contact_30`,
    /// `dense_pd_100`, `dense_psd_100_r30` (ratio in percent).
    pub fn name(&self) -> String {
        match self {
            Family::FluidBanded { g } => format!("fluid_g{g}"),
            Family::FluidGrid(s) => {
                let dims: Vec<String> = s.dims.iter().map(|d| d.to_string()).collect();
                format!("fluid_grid_{}", dims.join("x"))
            }
            Family::Contact { contacts } => format!("contact_{contacts}"),
            Family::DensePd { n } => format!("dense_pd_{n}"),
            Family::DensePsd { n, ratio } => format!("dense_psd_{n}_r{:02}", (ratio * 100.0).round() as i64),
        }
    }

    fn stream_id(&self) -> u64 {
        match self {
            Family::FluidBanded { .. } => 1,
            Family::FluidGrid(_) => 2,
            Family::Contact { .. } => 3,
            Family::DensePd { .. } => 4,
            Family::DensePsd { .. } => 5,
        }
    }

    /// Whether the family's matrices are symmetric.
    pub fn symmetric(&self) -> bool {
        !matches!(self, Family::Contact { .. })
    }
}

/// The random stream of problem `index` of `family` under `seed`.
pub fn problem_rng(seed: u64, family: &Family, index: usize) -> SmallRng {
    let mut h = splitmix(seed);
    h = splitmix(h ^ family.stream_id());
    h = splitmix(h ^ index as u64);
    SmallRng::seed_from_u64(h)
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A generated matrix: sparse for the fluid and contact families, dense for Dense PD/PSD.
#[derive(Debug, Clone)]
pub enum ProblemMatrix {
    /// CSR storage.
    Sparse(CsrMatrix),
    /// Dense row-major storage.
    Dense(DenseMatrix),
}

impl ProblemMatrix {
    /// The matrix in CSR form (a copy for dense matrices, exact zeros dropped).
    pub fn to_csr(&self) -> CsrMatrix {
        match self {
            ProblemMatrix::Sparse(m) => m.clone(),
            ProblemMatrix::Dense(m) => CsrMatrix::from_dense(m),
        }
    }
}

impl LinearOperator for ProblemMatrix {
    fn dim(&self) -> usize {
        match self {
            ProblemMatrix::Sparse(m) => m.dim(),
            ProblemMatrix::Dense(m) => m.dim(),
        }
    }
    fn apply(&self, x: &[f64], y: &mut [f64]) {
        match self {
            ProblemMatrix::Sparse(m) => m.apply(x, y),
            ProblemMatrix::Dense(m) => m.apply(x, y),
        }
    }
    fn diagonal(&self, out: &mut [f64]) {
        match self {
            ProblemMatrix::Sparse(m) => m.diagonal(out),
            ProblemMatrix::Dense(m) => m.diagonal(out),
        }
    }
    fn to_dense(&self) -> DenseMatrix {
        match self {
            ProblemMatrix::Sparse(m) => m.to_dense(),
            ProblemMatrix::Dense(m) => m.clone(),
        }
    }
    fn nnz_hint(&self) -> usize {
        match self {
            ProblemMatrix::Sparse(m) => m.nnz_hint(),
            ProblemMatrix::Dense(m) => m.nnz_hint(),
        }
    }
}

impl RowAccess for ProblemMatrix {
    type Aux = ();
    fn new_aux(&self) {}
    fn sync_aux(&self, _x: &[f64], _aux: &mut ()) {}
    #[inline]
    fn row_dot(&self, i: usize, x: &[f64], aux: &()) -> f64 {
        match self {
            ProblemMatrix::Sparse(m) => m.row_dot(i, x, aux),
            ProblemMatrix::Dense(m) => m.row_dot(i, x, aux),
        }
    }
    #[inline]
    fn update_aux(&self, _i: usize, _delta: f64, _aux: &mut ()) {}
    fn is_symmetric(&self) -> bool {
        match self {
            ProblemMatrix::Sparse(m) => m.is_symmetric(),
            ProblemMatrix::Dense(m) => m.is_symmetric(),
        }
    }
    fn sweep(&self, b: &[f64], x: &mut [f64], aux: &mut (), inv_diag: &[f64], omega: f64) -> f64 {
        match self {
            ProblemMatrix::Sparse(m) => m.sweep(b, x, aux, inv_diag, omega),
            ProblemMatrix::Dense(m) => m.sweep(b, x, aux, inv_diag, omega),
        }
    }
}

/// One generated LCP(A, b).
#[derive(Debug, Clone)]
pub struct GeneratedProblem {
    /// `<family name>_<index:03>`.
    pub name: String,
    /// A.
    pub matrix: ProblemMatrix,
    /// b.
    pub b: Vec<f64>,
    /// A known solution, when the right-hand side guarantees one ([`RhsKind::Planted`]).
    pub solution: Option<Vec<f64>>,
    /// Whether A is symmetric.
    pub symmetric: bool,
    /// The generator's parameters for this instance (manifest `params`).
    pub params: serde_json::Value,
}

/// Generates problem `index` of `family` with right-hand side `rhs` from
/// [`problem_rng`]`(seed, family, index)`.
///
/// [`RhsKind::Native`] is the grid fluid's physical b = ∇·u*; other families have none and
/// return `Err(InvalidSettings)` for it.
pub fn generate(
    family: &Family,
    rhs: RhsKind,
    seed: u64,
    index: usize,
) -> Result<GeneratedProblem, LcpError> {
    let mut rng = problem_rng(seed, family, index);
    let mut params = json!({"seed": seed, "index": index});
    let (matrix, native_b) = match family {
        Family::FluidBanded { g } => {
            let f = fluid_banded(*g, &mut rng)?;
            params["G"] = json!(g);
            params["band_values"] = json!(f.band_values);
            params["lambda_min_before"] = json!(f.lambda_min_before);
            params["shift"] = json!(f.shift);
            (ProblemMatrix::Sparse(f.matrix), None)
        }
        Family::FluidGrid(s) => {
            let f = fluid_grid(s, &mut rng)?;
            params["dims"] = json!(f.dims);
            (ProblemMatrix::Sparse(f.matrix), Some(f.b))
        }
        Family::Contact { contacts } => {
            let c = contact_blocks(*contacts, &mut rng)?;
            params["contacts"] = json!(contacts);
            params["K"] = json!(4);
            params["mu"] = json!(CONTACT_MU);
            params["lambda_min_before"] = json!(c.lambda_min_before);
            params["shift"] = json!(c.shift);
            (ProblemMatrix::Sparse(c.matrix), None)
        }
        Family::DensePd { n } => {
            params["n"] = json!(n);
            (ProblemMatrix::Dense(dense_pd(*n, &mut rng)?), None)
        }
        Family::DensePsd { n, ratio } => {
            params["n"] = json!(n);
            params["zero_eig_ratio"] = json!(ratio);
            (ProblemMatrix::Dense(dense_psd(*n, *ratio, &mut rng)?), None)
        }
    };
    let (b, solution) = match (rhs, native_b) {
        (RhsKind::Native, Some(b)) => {
            params["rhs"] = json!("native");
            (b, None)
        }
        (RhsKind::Native, None) => {
            return Err(LcpError::InvalidSettings {
                field: "rhs",
                reason: "only the grid fluid family has a native right-hand side",
            });
        }
        (kind, _) => {
            let r = make_rhs(&matrix, kind, &mut rng)?;
            params["rhs"] = json!(kind.label());
            params["zero_fraction"] = json!(kind.zero_fraction());
            (r.b, r.is_solution.then_some(r.x_star))
        }
    };
    Ok(GeneratedProblem {
        name: format!("{}_{index:03}", family.name()),
        matrix,
        b,
        solution,
        symmetric: family.symmetric(),
        params,
    })
}
