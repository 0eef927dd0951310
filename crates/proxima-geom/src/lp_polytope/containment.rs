//! Containment conv(A) ⊆ conv(B) (spec §8) and point-in-polytope, on the collision LP.
//!
//! conv(A) ⊆ conv(B) iff every vertex of A lies in conv(B) (B is convex). Each vertex a is
//! tested as the one-point set {a} against B. ∅ ⊆ anything is `true` (the article returned
//! `false` for ∅ ⊆ non-empty, defect 7); a non-empty set is never a subset of ∅.

use proxima_lcp::Rational;
use proxima_num::Field;

use super::{
    CollisionOutcome, LpCollision, LpCollisionSettings, LpPath, Separation, UndecidedReason, collide,
    collide_f64,
};
use crate::error::GeomError;

/// The verdict of a containment test conv(A) ⊆ conv(B).
#[derive(Debug, Clone, PartialEq)]
pub enum Containment<T> {
    /// Every vertex of A lies in conv(B); `weights[i]` are convex weights of B's vertices
    /// reproducing vertex i of A (empty when A is empty).
    Contained {
        /// One weight vector (length |B|) per vertex of A.
        weights: Vec<Vec<T>>,
    },
    /// Vertex `vertex` of A lies outside conv(B).
    NotContained {
        /// Index of the first vertex of A found outside.
        vertex: usize,
        /// A hyperplane strictly separating that vertex (as set A) from B; `None` when B is
        /// empty.
        separation: Option<Separation<T>>,
    },
    /// No vertex was found outside, but the test of vertex `vertex` was undecided.
    Undecided {
        /// Index of the first undecided vertex.
        vertex: usize,
        /// Why.
        reason: UndecidedReason,
    },
}

/// The answer of a containment test.
#[derive(Debug, Clone, PartialEq)]
pub struct ContainmentResult<T> {
    /// The verdict.
    pub outcome: Containment<T>,
    /// Some vertex test was `near_boundary` (floats only).
    pub near_boundary: bool,
    /// Total pivots over the vertex tests.
    pub pivots: usize,
    /// `ExactFallback` if any vertex test fell back to exact arithmetic.
    pub path: LpPath,
}

impl<T: Field> ContainmentResult<T> {
    /// `Some(true)` when contained, `Some(false)` when not, `None` when undecided.
    pub fn is_contained(&self) -> Option<bool> {
        match self.outcome {
            Containment::Contained { .. } => Some(true),
            Containment::NotContained { .. } => Some(false),
            Containment::Undecided { .. } => None,
        }
    }
}

fn subset_with<T: Field, P: AsRef<[T]>, Q: AsRef<[T]>>(
    a: &[P],
    b: &[Q],
    settings: &LpCollisionSettings,
    mut test: impl FnMut(&[T]) -> Result<LpCollision<T>, GeomError>,
) -> Result<ContainmentResult<T>, GeomError> {
    settings.validate()?;
    super::collide::validate_sets(a, b)?;
    let default_path = if T::EXACT { LpPath::Exact } else { LpPath::Float };
    let mut result = ContainmentResult {
        outcome: Containment::Contained { weights: Vec::new() },
        near_boundary: false,
        pivots: 0,
        path: default_path,
    };
    if a.is_empty() {
        return Ok(result);
    }
    if b.is_empty() {
        result.outcome = Containment::NotContained { vertex: 0, separation: None };
        return Ok(result);
    }
    let mut weights = Vec::with_capacity(a.len());
    let mut undecided: Option<(usize, UndecidedReason)> = None;
    for (i, p) in a.iter().enumerate() {
        let r = test(p.as_ref())?;
        result.pivots += r.info.pivots;
        result.near_boundary |= r.info.near_boundary;
        if r.info.path == LpPath::ExactFallback {
            result.path = LpPath::ExactFallback;
        }
        match r.outcome {
            CollisionOutcome::Colliding { weights_b, .. } => weights.push(weights_b),
            CollisionOutcome::Separated(s) => {
                result.outcome = Containment::NotContained { vertex: i, separation: Some(s) };
                return Ok(result);
            }
            CollisionOutcome::EmptySet => unreachable!("both sets are non-empty"),
            CollisionOutcome::Undecided { reason } => {
                undecided.get_or_insert((i, reason));
            }
        }
    }
    result.outcome = match undecided {
        Some((vertex, reason)) => Containment::Undecided { vertex, reason },
        None => Containment::Contained { weights },
    };
    Ok(result)
}

/// conv(a) ⊆ conv(b), generic over the scalar (exact for `Rational`), with weights or a
/// separating hyperplane for the first vertex outside.
pub fn is_subset_of<T: Field, P: AsRef<[T]>, Q: AsRef<[T]>>(
    a: &[P],
    b: &[Q],
    settings: &LpCollisionSettings,
) -> Result<ContainmentResult<T>, GeomError> {
    subset_with(a, b, settings, |p| collide(&[p], b, settings))
}

/// `f64` containment; each vertex test uses [`collide_f64`] (exact fallback per settings).
pub fn is_subset_of_f64<P: AsRef<[f64]>, Q: AsRef<[f64]>>(
    a: &[P],
    b: &[Q],
    settings: &LpCollisionSettings,
) -> Result<ContainmentResult<f64>, GeomError> {
    subset_with(a, b, settings, |p| collide_f64(&[p], b, settings))
}

/// Exact containment of `f64` vertex sets (converted exactly to [`Rational`]).
pub fn is_subset_of_exact<P: AsRef<[f64]>, Q: AsRef<[f64]>>(
    a: &[P],
    b: &[Q],
    settings: &LpCollisionSettings,
) -> Result<ContainmentResult<Rational>, GeomError> {
    settings.validate()?;
    let ra = super::collide::to_rational(a)?;
    let rb = super::collide::to_rational(b)?;
    is_subset_of(&ra, &rb, settings)
}

/// Point-in-polytope: `point` ∈ conv(`polytope`) (boundary included), as the collision of
/// A = {point} with B = `polytope`; when inside, `weights_b` are barycentric (convex)
/// weights of the polytope's vertices reproducing the point.
pub fn contains_point<T: Field, P: AsRef<[T]>>(
    polytope: &[P],
    point: &[T],
    settings: &LpCollisionSettings,
) -> Result<LpCollision<T>, GeomError> {
    collide(&[point], polytope, settings)
}
