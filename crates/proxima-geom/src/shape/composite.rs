//! Shapes defined by their support maps: the cone, the dilation of a shape by a ball
//! ("rounded" shapes) and the Minkowski sum of two placed shapes.
//!
//! # Maths
//!
//! * Cone: apex (0, 0, h), base disk x² + y² ≤ r² at z = −h. Its support in direction m is the
//!   apex or a point of the base rim, whichever has the larger m·x:
//!   m·apex = m_z·h, max over the rim = r·|(m_x, m_y)| − m_z·h.
//! * Rounded(S, ρ) = S ⊕ B(0, ρ): h(m) = h_S(m) + ρ|m|, support s_S(m) + ρ m/|m|.
//! * MinkowskiSum(A placed by P_A, B placed by P_B) = {P_A(a) + P_B(b)}: h(m) = h_A(R_Aᵀm) + m·t_A
//!   + h_B(R_Bᵀm) + m·t_B, support the sum of the placed supports.
//!
//! # Edge cases
//!
//! Lines (unbounded) are rejected inside a composite, so every composite shape is compact.
//! Composites nest (a rounded Minkowski sum is fine); they are stored boxed.

use nalgebra::Point3;

use super::{Shape, ShapeKind, positive};
use crate::error::GeomError;
use crate::pose::Pose;

/// A solid cone: apex (0, 0, half_height), base disk of `radius` at z = −half_height.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cone {
    radius: f64,
    half_height: f64,
}

impl Cone {
    /// A cone with base radius > 0 and half height > 0.
    pub fn new(radius: f64, half_height: f64) -> Result<Self, GeomError> {
        Ok(Self {
            radius: positive(radius, "cone radius")?,
            half_height: positive(half_height, "cone half height")?,
        })
    }
    /// The base radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }
    /// Half the height (apex at +half_height, base at −half_height).
    pub fn half_height(&self) -> f64 {
        self.half_height
    }
    /// The apex (local frame).
    pub fn apex(&self) -> Point3<f64> {
        Point3::new(0.0, 0.0, self.half_height)
    }
}

/// A compact shape dilated by a ball of `radius`: every point within `radius` of `inner`.
#[derive(Debug, Clone, PartialEq)]
pub struct Rounded {
    inner: Box<Shape>,
    radius: f64,
}

impl Rounded {
    /// `inner` ⊕ ball(`radius`), radius > 0; `inner` must be bounded (not a line).
    pub fn new(inner: Shape, radius: f64) -> Result<Self, GeomError> {
        let radius = positive(radius, "rounding radius")?;
        if !inner.is_bounded() {
            return Err(GeomError::Degenerate { what: "a rounded shape needs a bounded inner shape" });
        }
        Ok(Self { inner: Box::new(inner), radius })
    }
    /// The inner (core) shape.
    pub fn inner(&self) -> &Shape {
        &self.inner
    }
    /// The rounding radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }
}

/// The Minkowski sum { P_A(a) + P_B(b) : a ∈ A, b ∈ B } of two placed compact shapes.
#[derive(Debug, Clone, PartialEq)]
pub struct MinkowskiSum {
    a: Box<Shape>,
    pose_a: Pose,
    b: Box<Shape>,
    pose_b: Pose,
}

impl MinkowskiSum {
    /// The sum of `a` placed by `pose_a` and `b` placed by `pose_b` (both bounded).
    pub fn new(a: Shape, pose_a: Pose, b: Shape, pose_b: Pose) -> Result<Self, GeomError> {
        if !a.is_bounded() || !b.is_bounded() {
            return Err(GeomError::Degenerate { what: "a Minkowski sum needs bounded shapes" });
        }
        Ok(Self { a: Box::new(a), pose_a, b: Box::new(b), pose_b })
    }
    /// The first summand and its placement.
    pub fn first(&self) -> (&Shape, &Pose) {
        (&self.a, &self.pose_a)
    }
    /// The second summand and its placement.
    pub fn second(&self) -> (&Shape, &Pose) {
        (&self.b, &self.pose_b)
    }
}

impl Shape {
    /// `false` only for shapes that extend to infinity (a [`Line`](super::Line)).
    pub fn is_bounded(&self) -> bool {
        self.kind() != ShapeKind::Line
    }
}
