//! Why a page could not be built.

use std::fmt;

use proxima_geom::GeomError;

/// What was wrong with the data handed to the viewer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ViewerError {
    /// A number that must be finite was NaN or infinite; `at` names it.
    NonFinite {
        /// Where: `objects[3].pose`, `cycle 17 distance`...
        at: String,
    },
    /// Two pieces of data disagree (a pose count that is not the object count, a pair index
    /// out of range...).
    Mismatch {
        /// Where.
        at: String,
        /// What disagrees.
        reason: String,
    },
    /// The geometry crate rejected a shape built for drawing (for example a hull of
    /// non-finite points).
    Geometry {
        /// The object.
        at: String,
        /// The geometry crate's reason.
        source: GeomError,
    },
}

impl ViewerError {
    pub(crate) fn mismatch(at: impl Into<String>, reason: impl Into<String>) -> Self {
        ViewerError::Mismatch { at: at.into(), reason: reason.into() }
    }
}

impl fmt::Display for ViewerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewerError::NonFinite { at } => write!(f, "{at}: not a finite number"),
            ViewerError::Mismatch { at, reason } => write!(f, "{at}: {reason}"),
            ViewerError::Geometry { at, source } => write!(f, "{at}: {source}"),
        }
    }
}

impl std::error::Error for ViewerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ViewerError::Geometry { source, .. } => Some(source),
            _ => None,
        }
    }
}
