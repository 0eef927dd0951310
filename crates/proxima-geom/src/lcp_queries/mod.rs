//! Geometric queries formulated as convex QPs and solved by Lemke's method (reference §3–4),
//! generic over the scalar where the formulation allows (f64, Rational, QuadraticField).
//!
//! # The common formulation
//!
//! Every distance kernel here parameterizes its two convex polytopes affinely,
//! `P_a(x_a) = o_a + E_a x_a` and `P_b(x_b) = o_b + E_b x_b`, with linear constraints on the
//! parameters (x ≥ 0, D x ≥ e, A_eq x = b_eq, possibly free variables), and minimizes half the
//! squared distance
//!
//! ```text
//! f(x) = ½ |G x + d|²,   G = [E_a, −E_b],  d = o_a − o_b,   x = [x_a; x_b]
//!      = ½ xᵀ (GᵀG) x + (Gᵀd)ᵀ x + ½|d|².
//! ```
//!
//! The quadratic block is the *exact Gram matrix* GᵀG (never "I" because an input rotation is
//! only orthonormal to ~1e-12), so the QP is exact in exact arithmetic for any input.
//! The QP goes through [`proxima_lcp::solve_qp`] (KKT conditions as an LCP, §1–2; free
//! variables eliminated as in §1.4).
//!
//! # Generic and `f64` entry points
//!
//! * `*_distance::<T>` — any [`Field`](proxima_num::Field): exact for `Rational` and
//!   `QuadraticField` (the squared distance is then exact), plain floating point for `f64`.
//! * `*_distance_f64` — `f64` with a **certificate** ([`FloatCertificate`]): `upper` = |p_b − p_a|
//!   from the witness points, `lower` = the separation of the two shapes along the normalized
//!   witness difference n, `min_{b∈B} n·b − max_{a∈A} n·a` (support functions; weak duality),
//!   clamped at 0. Any direction gives a valid lower bound: the box and triangle kernels also
//!   try the face normals, the edge × edge crosses (SAT axes) and the witness difference with
//!   each edge component removed, which bound face–X and edge–edge contacts along exactly
//!   aligned directions (the witness direction alone carries round-off ~1e-16·scale/distance
//!   and fails for touching near-parallel pairs). When the gap exceeds
//!   `gap_tolerance × scale` (or the LCP failed) the inputs are converted *exactly* to
//!   `Rational` and the problem is re-solved ([`KernelPath::ExactResolve`]), reference §4.4 —
//!   only when [`CertifySettings::exact_fallback`] is set: without it no exact arithmetic runs
//!   at all (the LCP solver's own exact re-solve is disabled on the `f64` paths) and the answer
//!   is [`KernelPath::Uncertified`].
//!
//! # Files
//!
//! | file | query | reference |
//! |---|---|---|
//! | [`box_box`] | oriented box – oriented box, n dimensions; 3D f64 fast path | Example 6, §4.2 |
//! | [`point_box`] | point – oriented box | Example 6 with one box a point |
//! | [`triangle_aligned_box`] | triangle – aligned box | §4.4, Listing 4 |
//! | [`triangle_box`] | triangle – oriented box | §4.4 |
//! | [`segment_triangle`] | segment – triangle and line – triangle | §1.4 |
//! | [`point_polytope`] | point – convex hull of points | — |
//! | [`triangle_cylinder`] | triangle – cylinder test-intersection | Example 7, §4.3, §4.5 |
//! | [`vec`](mod@vec) | small vector helpers over `Field` | — |

pub mod box_box;
mod engine;
pub mod point_box;
pub mod point_polytope;
pub mod segment_triangle;
pub mod triangle_aligned_box;
pub mod triangle_box;
pub mod triangle_cylinder;
pub mod vec;

use proxima_lcp::{LcpStatus, SolvePath};

pub use box_box::{
    BoxDyn, BoxN, DynDistanceOutput, box_box_distance, box_box_distance_dyn, box_box_distance_f64,
    box_box_distance_f64_lcp,
};
pub use point_box::{point_box_distance, point_box_distance_f64};
pub use point_polytope::{PolytopeDistance, point_polytope_distance, point_polytope_distance_f64};
pub use segment_triangle::{
    line_triangle_distance, line_triangle_distance_f64, segment_triangle_distance,
    segment_triangle_distance_f64,
};
pub use triangle_aligned_box::{
    AlignedBox3, triangle_aligned_box_distance, triangle_aligned_box_distance_f64,
};
pub use triangle_box::{triangle_box_distance, triangle_box_distance_f64};
pub use triangle_cylinder::{
    CylinderData, TriangleCylinderResult, triangle_cylinder_intersection, triangle_cylinder_intersection_f64,
};

/// What the LCP solver reported (for the final solve that produced the answer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LcpInfo {
    /// The LCP status (`Trivial`/`Solved` for an answer).
    pub status: LcpStatus,
    /// Pivots performed.
    pub pivots: usize,
    /// Which path of the LCP solver produced z.
    pub path: SolvePath,
}

impl LcpInfo {
    /// The info of a kernel that needed no LCP (a specialized solver answered).
    ///
    /// Kept for compatibility; the kernels no longer report it (it reads as a trivial LCP,
    /// q ≥ 0, which is not what happened). See [`LcpInfo::ACTIVE_SET`].
    pub const NONE: LcpInfo = LcpInfo { status: LcpStatus::Trivial, pivots: 0, path: SolvePath::Trivial };

    /// The info reported with [`KernelPath::FastPath`]: a specialized active-set solver (the
    /// box–box and triangle–box bounded least-squares solvers) answered and no Lemke pivot
    /// was performed.
    ///
    /// Convention: `status` = [`LcpStatus::Solved`] (the answer is a complementary solution of
    /// the kernel's LCP: its active set is a complementary basis, and the answer is certified
    /// by the gap), `pivots` = 0 (no Lemke pivots), `path` =
    /// [`SolvePath::Enumeration`]` { singular_skipped: 0 }` — the active-set method searches
    /// complementary bases (free / at-bound variables) directly and checks the one it stops
    /// at, as enumeration does (exhaustively); `SolvePath` has no dedicated variant. The
    /// authoritative signal is [`KernelPath::FastPath`].
    pub const ACTIVE_SET: LcpInfo = LcpInfo {
        status: LcpStatus::Solved,
        pivots: 0,
        path: SolvePath::Enumeration { singular_skipped: 0 },
    };
}

/// Which computation produced a kernel's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KernelPath {
    /// The generic kernel ran in an exact field (`Rational`, `QuadraticField`).
    Exact,
    /// The generic kernel ran in floating point (no certification attempted).
    Float,
    /// `f64` LCP, certified on the first try.
    FloatCertified,
    /// A specialized `f64` solver (e.g. the box–box projected active-set solver), certified.
    FastPath,
    /// The `f64` answer was not certified and the problem was re-solved exactly in `Rational`
    /// (inputs converted exactly; the answer rounded back to `f64`).
    ExactResolve,
    /// `f64` answer not certified and the exact fallback was disabled.
    Uncertified,
}

impl KernelPath {
    /// Lowercase name: `"exact"`, `"float"`, `"float_certified"`, `"fast_path"`,
    /// `"exact_resolve"` or `"uncertified"`.
    pub fn as_str(self) -> &'static str {
        match self {
            KernelPath::Exact => "exact",
            KernelPath::Float => "float",
            KernelPath::FloatCertified => "float_certified",
            KernelPath::FastPath => "fast_path",
            KernelPath::ExactResolve => "exact_resolve",
            KernelPath::Uncertified => "uncertified",
        }
    }
}

/// A proven bracket `[lower, upper]` of the true (unsquared) distance, from an `f64` run.
///
/// `upper` = |p_b − p_a| of the witness points; `lower` = the best separation (support
/// functions) over candidate directions — the normalized witness difference first, then, for
/// the box and triangle kernels and only while the gap exceeds the tolerance, the face normals,
/// the edge × edge crosses and the witness difference without each edge component — clamped
/// at 0. Both are computed in `f64` from the
/// `f64` inputs (round-off of order 1e-16 × scale is not accounted for).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloatCertificate {
    /// Lower bound on the distance.
    pub lower: f64,
    /// Upper bound on the distance.
    pub upper: f64,
    /// The scale the gap is compared to: max(1, largest absolute input coordinate/extent).
    pub scale: f64,
}

impl FloatCertificate {
    /// `upper − lower`.
    pub fn gap(&self) -> f64 {
        self.upper - self.lower
    }
    /// Whether this bracket certifies the `f64` answer at `gap_tolerance`: the gap is within
    /// `gap_tolerance × scale`, *and* the bracket decides contact versus separation — either
    /// `lower > 0` (separation proven) or `upper` below the round-off floor 64 ε × scale
    /// (witnesses that close are contact, see `query/certificate.rs`). A bracket [0, upper]
    /// with upper above the floor only says the distance is small: the answer would be
    /// reported separated without proof (a point 3e-6 inside a 1e-3-sized polyhedron came
    /// back from the f64 LCP "separated by 2.6e-13" under the absolute 1e-9 gap), so it is
    /// re-solved exactly like any uncertified answer.
    pub fn certifies(&self, gap_tolerance: f64) -> bool {
        let decided = self.lower > 0.0 || self.upper <= 64.0 * f64::EPSILON * self.scale;
        self.gap() <= gap_tolerance * self.scale && decided
    }
}

/// Settings of the `f64` entry points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CertifySettings {
    /// Accept the `f64` answer when `upper − lower ≤ gap_tolerance × scale`. Default 1e-9.
    pub gap_tolerance: f64,
    /// Re-solve exactly in `Rational` when not certified. Default `true`.
    pub exact_fallback: bool,
}

impl Default for CertifySettings {
    fn default() -> Self {
        Self { gap_tolerance: 1e-9, exact_fallback: true }
    }
}

/// The answer of a distance kernel between shape a (PA parameters) and shape b (PB parameters)
/// in D dimensions.
///
/// The meaning of the parameters is documented by each kernel (box-local coordinates,
/// barycentric coordinates of a triangle, segment parameter...).
#[derive(Debug, Clone, PartialEq)]
pub struct DistanceOutput<T, const PA: usize, const PB: usize, const D: usize = 3> {
    /// Parameters of the closest point on shape a.
    pub param_a: [T; PA],
    /// Parameters of the closest point on shape b.
    pub param_b: [T; PB],
    /// Closest point on a (input frame).
    pub point_a: [T; D],
    /// Closest point on b (input frame).
    pub point_b: [T; D],
    /// |point_b − point_a|², computed in T from the points (exact for exact fields).
    pub squared_distance: T,
    /// The LCP solve that produced the answer ([`LcpInfo::ACTIVE_SET`] for a specialized
    /// solver, [`KernelPath::FastPath`]).
    pub lcp: LcpInfo,
    /// Which computation ran.
    pub path: KernelPath,
    /// The certificate (`f64` entry points only; `None` for generic kernels).
    pub certificate: Option<FloatCertificate>,
}

impl<T: proxima_num::Field, const PA: usize, const PB: usize, const D: usize> DistanceOutput<T, PA, PB, D> {
    /// The distance √(squared_distance) as `f64`.
    pub fn distance_f64(&self) -> f64 {
        self.squared_distance.to_f64().max(0.0).sqrt()
    }
}
