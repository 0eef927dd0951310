//! Why a scene, a model or a scene file was rejected.

use std::fmt;

use proxima_geom::GeomError;
use proxima_robot::RobotError;

/// What was wrong with the input of a scene operation.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SceneError {
    /// A shape or pose was rejected by the geometry crate; `at` names the object.
    Geometry {
        /// The object (or scene-file field) the shape or pose belongs to.
        at: String,
        /// The geometry crate's reason.
        source: GeomError,
    },
    /// A field of a scene, model or setting has an invalid value.
    Invalid {
        /// Where: a path such as `bodies[3].half_extents[1]`.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The scene file is not valid JSON.
    Syntax {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// A robot description, mesh or configuration was rejected; `at` names the robot or
    /// scene-file field.
    Robot {
        /// The robot (or scene-file field) it belongs to.
        at: String,
        /// The robot crate's reason.
        source: RobotError,
    },
    /// A pair query failed during a cycle (for example an unsupported shape pair).
    Query {
        /// Names of the two objects.
        pair: (String, String),
        /// The geometry crate's reason.
        source: GeomError,
    },
    /// A configuration of a batch was rejected or its query failed.
    Configuration {
        /// Its index in the batch (0-based).
        index: usize,
        /// Why.
        source: Box<SceneError>,
    },
}

impl SceneError {
    /// A robot crate error at `at`: invalid fields become [`SceneError::Invalid`] (field
    /// prefixed by `at`), geometry errors [`SceneError::Geometry`], the rest
    /// [`SceneError::Robot`].
    pub fn robot(at: &str, e: RobotError) -> Self {
        let join = |inner: &str| if at.is_empty() { inner.to_string() } else { format!("{at}.{inner}") };
        match e {
            RobotError::Invalid { field, reason } => SceneError::Invalid { field: join(&field), reason },
            RobotError::Geometry { at: inner, source } => SceneError::Geometry { at: join(&inner), source },
            other => SceneError::Robot { at: at.to_string(), source: other },
        }
    }

    /// Shorthand for [`SceneError::Invalid`].
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        SceneError::Invalid { field: field.into(), reason: reason.into() }
    }
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneError::Geometry { at, source } => write!(f, "{at}: {source}"),
            SceneError::Invalid { field, reason } => write!(f, "{field}: {reason}"),
            SceneError::Syntax { line, column, message } => {
                write!(f, "scene file is not valid JSON at line {line}, column {column}: {message}")
            }
            SceneError::Robot { at, source } if at.is_empty() => write!(f, "{source}"),
            SceneError::Robot { at, source } => write!(f, "{at}: {source}"),
            SceneError::Query { pair, source } => {
                write!(f, "distance query {} - {} failed: {source}", pair.0, pair.1)
            }
            SceneError::Configuration { index, source } => write!(f, "configuration {index}: {source}"),
        }
    }
}

impl std::error::Error for SceneError {}
