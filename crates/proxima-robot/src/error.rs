//! Why a robot description, a mesh, a configuration or a setting was rejected.

use std::fmt;
use std::path::PathBuf;

use proxima_geom::GeomError;

/// What was wrong with the input of a robot operation.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RobotError {
    /// A file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        message: String,
    },
    /// The text is not well-formed XML.
    Xml {
        /// The file (or `<string>`).
        file: String,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        column: u32,
        /// The parser's message.
        message: String,
    },
    /// A URDF or SRDF element is invalid (missing attribute, bad number, unknown link...).
    Description {
        /// The file (or `<string>`).
        file: String,
        /// 1-based line of the element.
        line: u32,
        /// The element, e.g. `<joint name="elbow"> <limit>`.
        element: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A mesh file named by a description was not found.
    MeshNotFound {
        /// The URI as written (`package://...`, a relative or absolute path).
        uri: String,
        /// Every path that was tried, in order.
        tried: Vec<PathBuf>,
    },
    /// A mesh file exists but could not be read or parsed.
    Mesh {
        /// The file.
        path: PathBuf,
        /// 1-based line for text formats, when known.
        line: Option<u32>,
        /// What is wrong.
        reason: String,
    },
    /// A shape or pose was rejected by the geometry crate; `at` names the link and element.
    Geometry {
        /// Where: e.g. `link "panda_link6" collision 0 (meshes/link6.obj)`.
        at: String,
        /// The geometry crate's reason.
        source: GeomError,
    },
    /// A configuration, name or setting has an invalid value (wrong length, NaN, unknown
    /// joint name...).
    Invalid {
        /// Where: e.g. `q[3]`, `joint_names[2]`.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A joint value lies outside its limits (and clamping was not requested).
    OutOfLimits {
        /// The joint.
        joint: String,
        /// The value given.
        value: f64,
        /// Lower limit.
        lower: f64,
        /// Upper limit.
        upper: f64,
    },
}

impl RobotError {
    /// Shorthand for [`RobotError::Invalid`].
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        RobotError::Invalid { field: field.into(), reason: reason.into() }
    }

    /// Shorthand for [`RobotError::Geometry`].
    pub fn geometry(at: impl Into<String>, source: GeomError) -> Self {
        RobotError::Geometry { at: at.into(), source }
    }
}

impl fmt::Display for RobotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RobotError::Io { path, message } => write!(f, "cannot read {}: {message}", path.display()),
            RobotError::Xml { file, line, column, message } => {
                write!(f, "{file}:{line}:{column}: malformed XML: {message}")
            }
            RobotError::Description { file, line, element, reason } => {
                write!(f, "{file}:{line}: {element}: {reason}")
            }
            RobotError::MeshNotFound { uri, tried } => {
                write!(f, "mesh {uri:?} not found; tried ")?;
                if tried.is_empty() {
                    write!(f, "nothing (no package directory given)")?;
                }
                for (i, p) in tried.iter().enumerate() {
                    write!(f, "{}{}", if i > 0 { ", " } else { "" }, p.display())?;
                }
                Ok(())
            }
            RobotError::Mesh { path, line, reason } => match line {
                Some(l) => write!(f, "mesh {}:{l}: {reason}", path.display()),
                None => write!(f, "mesh {}: {reason}", path.display()),
            },
            RobotError::Geometry { at, source } => write!(f, "{at}: {source}"),
            RobotError::Invalid { field, reason } => write!(f, "{field}: {reason}"),
            RobotError::OutOfLimits { joint, value, lower, upper } => {
                write!(f, "joint {joint:?}: value {value} is outside its limits [{lower}, {upper}]")
            }
        }
    }
}

impl std::error::Error for RobotError {}
