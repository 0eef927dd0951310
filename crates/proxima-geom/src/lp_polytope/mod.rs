//! Collision and containment of convex polytopes given only by their vertices, by linear
//! programming (simplex method, Bland's rule) — in any dimension n ≥ 1, in `f64` or exactly.
//!
//! # The mathematics (spec `polytope-lp-collision.md`)
//!
//! K = conv(S) and L = conv(T) for finite S, T ⊂ ℝⁿ. They collide (share a point) iff
//! 0 ∈ K − L = conv(S) + conv(−T), i.e. iff the feasibility system
//!
//! ```text
//! (P1)   Σᵢ λᵢ sᵢ − Σⱼ μⱼ tⱼ = 0,   Σᵢ λᵢ = 1,   Σⱼ μⱼ = 1,   λ, μ ≥ 0
//! ```
//!
//! has a solution; A x = b with k = n + 2 rows, b = (0, …, 0, 1, 1) ≥ 0. Phase I of the simplex
//! method on (P1) — the article's (P2): minimize f = eᵀ(b − A x) subject to A x ≤ b, x ≥ 0,
//! whose slacks are the artificial variables — starts from x = 0 (f = 2) and reaches f = 0 iff
//! the polytopes collide. The tableau is the spec's §4 layout ([`initial_tableau`]); pivots
//! follow Bland's rule with a pivot tolerance, clamped right-hand sides and proper ties
//! ([`proxima_lcp::simplex::Tableau`]).
//!
//! * **Colliding** → the basic solution gives convex weights λ (of A) and μ (of B) with
//!   Σλᵢaᵢ = Σμⱼbⱼ, the common point ([`CollisionOutcome::Colliding`]).
//! * **Separated** → the optimal dual y = (w, α, β) satisfies w·s + α ≤ 0 on S,
//!   −w·t + β ≤ 0 on T and α + β = f* > 0 (Farkas), so max_S w·s ≤ −α < β ≤ min_T w·t: the
//!   hyperplane w·x = offset strictly separates the vertex sets. The bounds `max_a`, `min_b`
//!   are recomputed on the original vertices; gap/‖w‖₂ is a lower bound on the Euclidean
//!   distance ([`Separation`]).
//!
//! **Touching counts as colliding** (boundary contact is a shared point): the face-touching
//! unit cubes collide, and a separation is always *strict* (max_a < offset < min_b).
//!
//! # Normalisation and tolerances
//!
//! The article's objective depends on the origin and the units (defect 6 of the spec). With
//! [`LpCollisionSettings::normalize`] (default) every point v is replaced by (v − c)/σ,
//! c = centroid of all points of S and T (with multiplicity), σ = largest coordinate deviation —
//! a similarity, so the verdict does not change. For floats a `Colliding` verdict then means
//! dist₁(K, L) ≤ n·σ·`eps_decision`; a `Separated` verdict is backed by the recomputed
//! certificate (a non-positive recomputed gap gives `Undecided`, never a guess). With exact
//! scalars ([`Rational`]) every tolerance is zero, Bland's rule guarantees termination, and the
//! verdict is exact (normalisation is optional there: it never changes the verdict, and
//! `normalize: false` keeps the rationals smaller). `near_boundary` (floats only) flags a
//! colliding verdict whose objective is above round-off level (64·ε·k, so the decision rested
//! on `eps_decision`) or a separated one with f* < `boundary_band`: the sets are within the
//! tolerance band of touching. [`collide_f64`] re-solves such cases exactly by default.
//! The default tolerances are tuned for `f64`; `f32` works through the generic [`collide`] with
//! tolerances above its unit roundoff (e.g. `eps_decision = eps_pivot = 1e-5`).
//!
//! # Defects of the article's code that are avoided (spec §6)
//!
//! 1. no single-point shortcut (one-point sets go through the LP: (0,0,0) vs (5,5,5) is
//!    separated; no absolute per-axis tolerance); 2. pivots must exceed `eps_pivot` and
//!    negative right-hand sides are clamped in the ratio test; 3. every tied row is considered
//!    in Bland's tie-break; 4. the exact minimum ratio is found first, then ties within a
//!    relative band; 5. the pivot counter starts at zero; 6. separate tolerances on a
//!    normalised problem; 7. ∅ ⊆ anything is `true`; 8. the LP optimum is *not* used as a
//!    distance lower bound (only the dual certificate is).
//!
//! # Edge cases
//!
//! * An empty set: [`CollisionOutcome::EmptySet`] (nothing to collide with; not an error).
//! * All points identical (σ = 0): colliding at that point, no LP.
//! * Single points, duplicates, interior points and flat (lower-dimensional) sets are fine.
//! * Rows of different lengths, dimension 0 → [`GeomError::DimensionMismatch`]; NaN/∞ →
//!   [`GeomError::NonFinite`]; invalid settings → [`GeomError::InvalidSettings`].
//!
//! Cost: one (n + 3) × (m + n + 3) tableau, m = |S| + |T|; pivot limit rows × columns.
//!
//! # Example
//!
//! ```
//! use proxima_geom::lp_polytope::{CollisionOutcome, LpCollisionSettings, collide_exact};
//!
//! let tetra = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
//! let settings = LpCollisionSettings::default();
//! let on_face = collide_exact(&tetra, &[[0.25, 0.25, 0.5]], &settings)?;
//! assert_eq!(on_face.is_colliding(), Some(true)); // touching counts as colliding, exactly
//! let outside = collide_exact(&tetra, &[[0.5, 0.5, 0.5]], &settings)?;
//! assert!(matches!(outside.outcome, CollisionOutcome::Separated(_)));
//! # Ok::<(), proxima_geom::GeomError>(())
//! ```

mod collide;
mod containment;
mod settings;
mod shapes;

use proxima_lcp::Rational;
use proxima_lcp::simplex::Tableau;
use proxima_num::Field;

use crate::error::GeomError;

pub use containment::{
    Containment, ContainmentResult, contains_point, is_subset_of, is_subset_of_exact, is_subset_of_f64,
};
pub use settings::LpCollisionSettings;
pub use shapes::{
    collide_polytopes, collide_polytopes_exact, polytope_is_subset_of, polytope_is_subset_of_exact,
    world_vertices,
};

/// A strictly separating hyperplane of two vertex sets: w·a ≤ `max_a` < `offset` < `min_b` ≤ w·b.
#[derive(Debug, Clone, PartialEq)]
pub struct Separation<T> {
    /// The normal w (not normalised), pointing from A to B.
    pub normal: Vec<T>,
    /// (max_a + min_b) / 2.
    pub offset: T,
    /// max over the vertices a of A of w·a (recomputed from the input).
    pub max_a: T,
    /// min over the vertices b of B of w·b (recomputed from the input); `min_b > max_a`.
    pub min_b: T,
    /// (min_b − max_a)/‖w‖₂ in `f64`: a lower bound on the Euclidean distance (rounded for
    /// exact scalars).
    pub distance_lower_bound: f64,
}

impl<T: Field> Separation<T> {
    /// min_b − max_a > 0.
    pub fn gap(&self) -> T {
        self.min_b.sub(&self.max_a)
    }
}

/// Why no verdict was reached (never to be read as "not colliding").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UndecidedReason {
    /// The pivot limit was reached.
    MaxIterations,
    /// Float breakdown: no leaving row, weights that do not sum to a positive value, or a
    /// dual certificate whose recomputed gap is not positive.
    NumericalFailure,
}

/// The verdict of a vertex-LP collision test.
#[derive(Debug, Clone, PartialEq)]
pub enum CollisionOutcome<T> {
    /// The polytopes share a point (touching included).
    Colliding {
        /// The common point Σλᵢaᵢ (computed from A's vertices).
        point: Vec<T>,
        /// Convex weights λ of A's vertices (≥ 0, sum 1).
        weights_a: Vec<T>,
        /// Convex weights μ of B's vertices (≥ 0, sum 1): Σμⱼbⱼ = Σλᵢaᵢ (exactly for exact
        /// scalars, up to the decision tolerance for floats).
        weights_b: Vec<T>,
    },
    /// The polytopes are disjoint, with a strictly separating hyperplane.
    Separated(Separation<T>),
    /// A vertex set is empty: there is nothing to collide with.
    EmptySet,
    /// No verdict.
    Undecided {
        /// Why.
        reason: UndecidedReason,
    },
}

/// Which computation produced a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LpPath {
    /// Floating point only.
    Float,
    /// A float run was near the boundary or undecided and was re-solved exactly.
    ExactFallback,
    /// Exact scalar from the start.
    Exact,
}

/// Diagnostics of a collision test.
#[derive(Debug, Clone, PartialEq)]
pub struct LpCollisionInfo<T> {
    /// The final LP objective f = ‖b − A x‖₁ of the (normalised, if enabled) problem: 0 (or
    /// ≤ `eps_decision`) when colliding, the optimum f* > 0 when separated.
    pub objective: T,
    /// Simplex pivots.
    pub pivots: usize,
    /// Float runs: the verdict lies within the tolerance band of touching (see module docs).
    /// Always `false` for exact runs.
    pub near_boundary: bool,
    /// How the answer was obtained.
    pub path: LpPath,
    /// The normalisation scale σ (1 without normalisation, 0 when all points coincide).
    pub scale: f64,
}

/// The answer of [`collide`]: the verdict and its diagnostics.
#[derive(Debug, Clone, PartialEq)]
pub struct LpCollision<T> {
    /// The verdict with its certificate.
    pub outcome: CollisionOutcome<T>,
    /// Diagnostics.
    pub info: LpCollisionInfo<T>,
}

impl<T: Field> LpCollision<T> {
    /// `Some(true)` when colliding, `Some(false)` when separated or a set is empty, `None`
    /// when undecided.
    pub fn is_colliding(&self) -> Option<bool> {
        match self.outcome {
            CollisionOutcome::Colliding { .. } => Some(true),
            CollisionOutcome::Separated(_) | CollisionOutcome::EmptySet => Some(false),
            CollisionOutcome::Undecided { .. } => None,
        }
    }

    fn empty() -> Self {
        LpCollision {
            outcome: CollisionOutcome::EmptySet,
            info: LpCollisionInfo {
                objective: T::zero(),
                pivots: 0,
                near_boundary: false,
                path: if T::EXACT { LpPath::Exact } else { LpPath::Float },
                scale: 1.0,
            },
        }
    }
}

fn v_to_f64(v: Vec<Rational>) -> Vec<f64> {
    v.iter().map(Rational::to_f64).collect()
}

impl LpCollision<Rational> {
    /// Rounds every number to `f64` (the verdict is kept; `path` becomes `ExactFallback`).
    pub fn to_f64_fallback(self) -> LpCollision<f64> {
        let outcome = match self.outcome {
            CollisionOutcome::Colliding { point, weights_a, weights_b } => CollisionOutcome::Colliding {
                point: v_to_f64(point),
                weights_a: v_to_f64(weights_a),
                weights_b: v_to_f64(weights_b),
            },
            CollisionOutcome::Separated(s) => CollisionOutcome::Separated(Separation {
                normal: v_to_f64(s.normal),
                offset: s.offset.to_f64(),
                max_a: s.max_a.to_f64(),
                min_b: s.min_b.to_f64(),
                distance_lower_bound: s.distance_lower_bound,
            }),
            CollisionOutcome::EmptySet => CollisionOutcome::EmptySet,
            CollisionOutcome::Undecided { reason } => CollisionOutcome::Undecided { reason },
        };
        LpCollision {
            outcome,
            info: LpCollisionInfo {
                objective: self.info.objective.to_f64(),
                pivots: self.info.pivots,
                near_boundary: false,
                path: LpPath::ExactFallback,
                scale: self.info.scale,
            },
        }
    }
}

/// Collision test of conv(a) and conv(b), generic over the scalar (exact for `Rational`).
///
/// `a` and `b` are vertex lists (rows of n ≥ 1 coordinates: `&[Vec<T>]`, `&[[T; N]]`,
/// `&[&[T]]`...). See the module docs for the maths, the certificates and the edge cases.
pub fn collide<T: Field, P: AsRef<[T]>, Q: AsRef<[T]>>(
    a: &[P],
    b: &[Q],
    settings: &LpCollisionSettings,
) -> Result<LpCollision<T>, GeomError> {
    settings.validate()?;
    let pts = collide::validate_sets(a, b)?;
    if pts.a.is_empty() || pts.b.is_empty() {
        return Ok(LpCollision::empty());
    }
    Ok(collide::run(&pts, settings))
}

/// Exact collision test of `f64` vertex sets: every coordinate is converted exactly to
/// [`Rational`], so the verdict is exact for the given numbers.
pub fn collide_exact<P: AsRef<[f64]>, Q: AsRef<[f64]>>(
    a: &[P],
    b: &[Q],
    settings: &LpCollisionSettings,
) -> Result<LpCollision<Rational>, GeomError> {
    settings.validate()?;
    collide::validate_sets::<f64, _, _>(a, b)?;
    collide(&collide::to_rational(a)?, &collide::to_rational(b)?, settings)
}

/// `f64` collision test; with [`LpCollisionSettings::exact_fallback`] a `near_boundary` or
/// undecided float run is re-solved exactly ([`LpPath::ExactFallback`]).
pub fn collide_f64<P: AsRef<[f64]>, Q: AsRef<[f64]>>(
    a: &[P],
    b: &[Q],
    settings: &LpCollisionSettings,
) -> Result<LpCollision<f64>, GeomError> {
    let float = collide::<f64, _, _>(a, b, settings)?;
    let trouble = float.info.near_boundary || float.is_colliding().is_none();
    // A near-boundary *separation* can still be proven in f64: evaluate the hyperplane on
    // every vertex with a rigorous bound on the rounding error of each dot product. Only when
    // that fails does the (potentially slow, for large vertex sets) exact re-solve run.
    if let CollisionOutcome::Separated(sep) = &float.outcome
        && trouble
        && separation_is_rigorous(a, b, &sep.normal)
    {
        return Ok(float);
    }
    if settings.exact_fallback && trouble {
        return Ok(collide_exact(a, b, settings)?.to_f64_fallback());
    }
    Ok(float)
}

/// `true` when the hyperplane with normal `w` provably separates the f64 vertex sets strictly:
/// max_a w·a < min_b w·b with each dot product's rounding error bounded by
/// γ_{n+1} Σ|wᵢ||vᵢ| (γ_k = k·u/(1 − k·u), u = 2⁻⁵³; Higham, *Accuracy and Stability*, §3.1).
fn separation_is_rigorous<P: AsRef<[f64]>, Q: AsRef<[f64]>>(a: &[P], b: &[Q], w: &[f64]) -> bool {
    let n = w.len();
    let u = f64::EPSILON / 2.0;
    let k = (n + 1) as f64;
    let gamma = k * u / (1.0 - k * u);
    let bounds = |v: &[f64]| -> Option<(f64, f64)> {
        if v.len() != n {
            return None;
        }
        let dot: f64 = w.iter().zip(v).map(|(wi, vi)| wi * vi).sum();
        let mag: f64 = w.iter().zip(v).map(|(wi, vi)| (wi * vi).abs()).sum();
        // The bound itself is computed in f64: inflate it by a few ulps to stay above it.
        let err = gamma * mag * (1.0 + 4.0 * f64::EPSILON) + f64::MIN_POSITIVE;
        (dot.is_finite() && err.is_finite()).then_some((dot - err, dot + err))
    };
    let mut max_a = f64::NEG_INFINITY;
    for v in a {
        match bounds(v.as_ref()) {
            Some((_, hi)) => max_a = max_a.max(hi),
            None => return false,
        }
    }
    let mut min_b = f64::INFINITY;
    for v in b {
        match bounds(v.as_ref()) {
            Some((lo, _)) => min_b = min_b.min(lo),
            None => return false,
        }
    }
    min_b > max_a
}

/// The initial tableau of spec §4 on the raw coordinates (no normalisation), for inspection:
/// (n + 3) rows × (|a| + |b| + n + 3) columns, slack l basic in row l + 1.
///
/// Errors as [`collide`]; both sets must be non-empty ([`GeomError::Degenerate`] otherwise).
pub fn initial_tableau<T: Field, P: AsRef<[T]>, Q: AsRef<[T]>>(
    a: &[P],
    b: &[Q],
) -> Result<Tableau<T>, GeomError> {
    let pts = collide::validate_sets(a, b)?;
    if pts.a.is_empty() || pts.b.is_empty() {
        return Err(GeomError::Degenerate { what: "vertex set is empty" });
    }
    Ok(collide::build_tableau(pts.n, &pts.a, &pts.b))
}
