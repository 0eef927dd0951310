//! Errors of geometric queries: what was wrong with a shape, a pose or a settings field, or an
//! answer that could not be certified.

use core::fmt;

use crate::shape::ShapeKind;

/// Why a shape, pose, settings value or shape pair was rejected.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum GeomError {
    /// A NaN or infinite number.
    NonFinite {
        /// Which input (e.g. `"sphere radius"`, `"pose translation"`).
        what: &'static str,
    },
    /// An extent, radius or height that must be > 0 is not.
    NonPositive {
        /// Which input.
        what: &'static str,
        /// The offending value.
        value: f64,
    },
    /// A direction/axis vector of zero length.
    ZeroAxis {
        /// Which input.
        what: &'static str,
    },
    /// A degenerate primitive: collinear triangle, zero-length segment, empty or flat
    /// polytope, unbounded polyhedron...
    Degenerate {
        /// Which shape and why.
        what: &'static str,
    },
    /// A rotation matrix that is not orthonormal with determinant +1 (to 1e-6).
    NotRotation {
        /// max |RᵀR − I| found.
        error: f64,
    },
    /// A quaternion that is not of unit norm (to 1e-6).
    NotUnitQuaternion {
        /// Its norm.
        norm: f64,
    },
    /// Sizes that must agree do not (n-dimensional kernels).
    DimensionMismatch {
        /// Which input.
        what: &'static str,
        /// Required size.
        expected: usize,
        /// Given size.
        found: usize,
    },
    /// This (operation, shape pair, algorithm) is not implemented (yet).
    Unsupported {
        /// The operation (`"distance"`, `"intersects"`).
        op: &'static str,
        /// Shape a.
        a: ShapeKind,
        /// Shape b.
        b: ShapeKind,
        /// The requested algorithm, if one was forced.
        algorithm: Option<&'static str>,
    },
    /// A field of a shape description ([`ShapeSpec`](crate::shape::ShapeSpec)) is missing,
    /// malformed, or describes an invalid shape.
    InvalidField {
        /// The field's path inside the description: `half_extents`, `vertices[2]`, `faces`.
        field: String,
        /// What is wrong with it (for a rejected shape, the constructor's reason).
        reason: String,
    },
    /// An answer failed its check against the shapes the user gave (a witness outside its
    /// shape, a lower bound above the upper one...) and the GJK recomputation failed it too:
    /// the library reports no number rather than an unproven one.
    Uncertified {
        /// What the check found.
        what: &'static str,
    },
    /// An invalid settings field.
    InvalidSettings {
        /// The field.
        field: &'static str,
        /// Why.
        reason: &'static str,
    },
}

impl fmt::Display for GeomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GeomError::NonFinite { what } => write!(f, "non-finite value (NaN or infinity) in {what}"),
            GeomError::NonPositive { what, value } => write!(f, "{what} must be > 0, got {value}"),
            GeomError::ZeroAxis { what } => write!(f, "{what} has zero length"),
            GeomError::Degenerate { what } => write!(f, "degenerate shape: {what}"),
            GeomError::NotRotation { error } => {
                write!(f, "rotation is not orthonormal with det +1 (max |R^T R - I| = {error:e})")
            }
            GeomError::NotUnitQuaternion { norm } => {
                write!(f, "quaternion is not of unit norm (|q| = {norm}, tolerance 1e-6)")
            }
            GeomError::DimensionMismatch { what, expected, found } => {
                write!(f, "dimension mismatch in {what}: expected {expected}, found {found}")
            }
            GeomError::Unsupported { op, a, b, algorithm } => match algorithm {
                Some(alg) => write!(f, "{op} between {a} and {b} with algorithm {alg} is not supported"),
                None => write!(f, "{op} between {a} and {b} is not supported"),
            },
            GeomError::InvalidField { field, reason } => write!(f, "{field}: {reason}"),
            GeomError::Uncertified { what } => write!(f, "answer could not be certified: {what}"),
            GeomError::InvalidSettings { field, reason } => write!(f, "invalid setting {field}: {reason}"),
        }
    }
}

impl std::error::Error for GeomError {}
