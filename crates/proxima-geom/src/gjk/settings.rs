//! GJK settings, statuses and the warm-start cache.

use nalgebra::Vector3;

use crate::error::GeomError;

/// How the search direction is chosen at each GJK iteration.
///
/// GJK is the Frank–Wolfe method on f(x) = ½|x|² over the Minkowski difference M = A − B
/// (Montaut et al., *Collision Detection Accelerated: An Optimization Perspective*, RSS 2022;
/// *GJK++*, 2024): the gradient at the iterate v is v itself, and the support point
/// w = argmin_{x∈M} d·x along a direction d is the linear-minimization oracle. The
/// accelerated variants replace d = v by a momentum direction; the certificate is unaffected
/// (any direction gives a valid lower bound) and a non-descent step falls back to d = v for
/// the rest of the run, so convergence is the plain method's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Acceleration {
    /// d_k = v_k (classic GJK).
    #[default]
    None,
    /// Nesterov momentum: δ = (k+1)/(k+3), y = δ·v_k + (1 − δ)·w_{k−1},
    /// d_k = δ·d_{k−1} + (1 − δ)·y.
    Nesterov,
    /// Polyak heavy-ball averaging of gradients: β = k/(k+3), d_k = β·d_{k−1} + (1 − β)·v_k.
    Polyak,
}

impl Acceleration {
    /// Lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Acceleration::None => "none",
            Acceleration::Nesterov => "nesterov",
            Acceleration::Polyak => "polyak",
        }
    }
}

/// Settings of the GJK distance / intersection loop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GjkSettings {
    /// Iteration cap of the GJK loop (each iteration = one support query per shape).
    /// Default 128.
    pub max_iterations: u32,
    /// Iteration cap of EPA's expansion when a penetration depth is measured (each step adds
    /// one support point of the Minkowski difference; the polytope also stops at 512
    /// vertices). Default 512: a deep overlap of a polytope corner with a flat ellipsoid can
    /// need ~250 steps to a 1e-10 bracket. Reaching the cap leaves a proven but wider bracket.
    pub epa_max_iterations: u32,
    /// Stop when upper − lower ≤ `tolerance` × scale, scale = the largest |w| of the support
    /// points met (the size of the problem: distance between the shapes plus their extents).
    /// Default 1e-10. Must be > 0 (0 would wait for an exact zero gap, which curved shapes
    /// never reach).
    pub tolerance: f64,
    /// Direction rule. Default [`Acceleration::None`].
    pub acceleration: Acceleration,
}

impl Default for GjkSettings {
    fn default() -> Self {
        Self {
            max_iterations: 128,
            epa_max_iterations: 512,
            tolerance: 1e-10,
            acceleration: Acceleration::None,
        }
    }
}

impl GjkSettings {
    /// Checks every field.
    pub fn validate(&self) -> Result<(), GeomError> {
        if self.max_iterations == 0 {
            return Err(GeomError::InvalidSettings { field: "gjk.max_iterations", reason: "must be >= 1" });
        }
        if self.epa_max_iterations == 0 {
            return Err(GeomError::InvalidSettings {
                field: "gjk.epa_max_iterations",
                reason: "must be >= 1",
            });
        }
        if !(self.tolerance.is_finite() && self.tolerance > 0.0) {
            return Err(GeomError::InvalidSettings {
                field: "gjk.tolerance",
                reason: "must be finite and > 0",
            });
        }
        Ok(())
    }
}

/// How a GJK run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GjkStatus {
    /// upper − lower ≤ tolerance × scale: the distance is known to the requested accuracy.
    Converged,
    /// The origin is in the Minkowski difference (inside the final tetrahedron, or the
    /// iterate is within round-off of it): the shapes touch or overlap.
    Contact,
    /// Early exit of the boolean test: a direction with a positive lower bound was found, so
    /// the shapes are proven disjoint (the distance bracket is not tight).
    SeparationProven,
    /// The iteration cap was reached; the bracket [lower, upper] is valid but wider than
    /// the tolerance.
    MaxIterations,
    /// No further progress is possible in f64 (the new support point repeats a simplex
    /// vertex or does not decrease the distance); the bracket is valid.
    Stagnated,
    /// The arithmetic overflowed: coordinates of the Minkowski difference beyond ~1e154, whose
    /// squared norms exceed f64's range. Nothing is proven (no bracket, no contact).
    Overflow,
}

impl GjkStatus {
    /// Lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            GjkStatus::Converged => "converged",
            GjkStatus::Contact => "contact",
            GjkStatus::SeparationProven => "separation_proven",
            GjkStatus::MaxIterations => "max_iterations",
            GjkStatus::Stagnated => "stagnated",
            GjkStatus::Overflow => "overflow",
        }
    }
}

/// Warm-start state for tracking one pair over time: the last search direction (in the
/// first shape's frame) and the last support vertices (hill-climbing starting points).
///
/// Reuse one cache per tracked pair; [`GjkCache::reset`] (or a fresh cache) at the start of
/// a new trajectory. A cache never changes an answer's correctness, only the iteration count.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GjkCache {
    pub(crate) direction: Option<Vector3<f64>>,
    /// The last final simplex as support pairs (local directions and vertex hints of both
    /// shapes): re-read without support queries at the next poses (gjk/warm.rs). (It holds
    /// everything a re-evaluation along the vertices' search directions would need: A's local
    /// direction is minus that search direction, the hints are the climbing starts.)
    pub(crate) pairs: super::warm::WarmPairs,
    pub(crate) hint_a: u32,
    pub(crate) hint_b: u32,
    /// Whether the stored state was computed with the shapes exchanged (the dispatcher's
    /// canonical order may flip between steps).
    pub(crate) swapped: bool,
    /// Iterations of the last run.
    pub(crate) last_iterations: u32,
    /// The penetration direction of the last step when it ended in contact (first shape's
    /// frame, from it towards the second): the next step in contact starts its depth from
    /// it (`gjk/depth.rs`), before any EPA.
    pub(crate) depth_normal: Option<Vector3<f64>>,
    /// The last contact step's expanded polytope as support pairs (`gjk/contact_warm.rs`):
    /// the next step in contact re-reads it for its depth before any EPA. Allocated only for
    /// pairs that were in contact.
    pub(crate) polytope: Option<Box<super::ContactPolytope>>,
}

impl GjkCache {
    /// An empty cache (cold start).
    pub fn new() -> Self {
        Self::default()
    }
    /// Forgets the stored state.
    pub fn reset(&mut self) {
        *self = Self::default();
    }
    /// Iterations of the last GJK run that used this cache.
    pub fn last_iterations(&self) -> u32 {
        self.last_iterations
    }
    /// Whether the cache holds a direction.
    pub fn is_warm(&self) -> bool {
        self.direction.is_some()
    }
}
