//! The one error type of the readers: a kind, an optional 1-based line number and a message.

use core::fmt;

use crate::error::LcpError;

/// What kind of problem a reader found in its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IoErrorKind {
    /// The input is empty (or holds only whitespace and comments).
    Empty,
    /// Malformed text: broken JSON, a line with the wrong number of fields, stray characters.
    Syntax,
    /// Well-formed JSON with the wrong shape: a missing or unknown field, a value of the wrong
    /// type (a string where an array is expected, ...).
    Schema,
    /// A bad MatrixMarket banner or size line, or a bad Siconos header.
    Header,
    /// A valid file using a feature these readers do not support (complex or pattern
    /// MatrixMarket files, Siconos sparse storage 2, ...).
    Unsupported,
    /// A token that should be a number is not one (or is an out-of-range exponent, an
    /// over-long literal, a zero denominator).
    Number,
    /// NaN or ±∞, written as such or overflowing `f64`.
    NonFinite,
    /// Too few or too many entries (truncated data, `nnz` not matching the entry lines).
    Count,
    /// Sizes that do not agree: ragged rows, non-square M, q of the wrong length.
    Dimension,
    /// An index outside its range (a MatrixMarket row or column, a free-variable index, a
    /// Siconos block index).
    Index,
    /// The same entry (or JSON key) given twice.
    Duplicate,
    /// A size beyond the reader's [`ReadLimits`](super::ReadLimits): rejected before
    /// allocating.
    TooLarge,
    /// The data was read but the problem constructor rejected it (see [`LcpError`]).
    Problem,
}

impl IoErrorKind {
    /// A stable lowercase name (`"syntax"`, `"non_finite"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            IoErrorKind::Empty => "empty",
            IoErrorKind::Syntax => "syntax",
            IoErrorKind::Schema => "schema",
            IoErrorKind::Header => "header",
            IoErrorKind::Unsupported => "unsupported",
            IoErrorKind::Number => "number",
            IoErrorKind::NonFinite => "non_finite",
            IoErrorKind::Count => "count",
            IoErrorKind::Dimension => "dimension",
            IoErrorKind::Index => "index",
            IoErrorKind::Duplicate => "duplicate",
            IoErrorKind::TooLarge => "too_large",
            IoErrorKind::Problem => "problem",
        }
    }
}

impl fmt::Display for IoErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a problem file could not be read.
///
/// `Display` prints one line: `line 7: M row 2, column 1: <message>` (line and context when
/// known). Callers add the file name (the readers work on text, not paths). Rows, columns and
/// entries in messages are counted from 1, like lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IoError {
    kind: IoErrorKind,
    line: Option<usize>,
    context: Option<String>,
    message: String,
}

impl IoError {
    /// A new error; `line` is 1-based. Newlines in `message` are replaced by spaces so the
    /// message stays on one line.
    pub fn new(kind: IoErrorKind, line: Option<usize>, message: impl Into<String>) -> Self {
        let mut message = message.into();
        if message.contains(['\n', '\r']) {
            message = message.replace(['\n', '\r'], " ");
        }
        Self { kind, line, context: None, message }
    }
    /// An error at a known line.
    pub(crate) fn at(kind: IoErrorKind, line: usize, message: impl Into<String>) -> Self {
        Self::new(kind, Some(line), message)
    }
    /// An error without a position.
    pub(crate) fn plain(kind: IoErrorKind, message: impl Into<String>) -> Self {
        Self::new(kind, None, message)
    }
    /// What kind of problem it is.
    pub fn kind(&self) -> IoErrorKind {
        self.kind
    }
    /// The 1-based line of the input where it was found, when known.
    pub fn line(&self) -> Option<usize> {
        self.line
    }
    /// The message without the position.
    pub fn message(&self) -> &str {
        &self.message
    }
    /// Which part of the input it concerns (`"M"`, `"q[3]"`, ...), when known.
    pub fn context(&self) -> Option<&str> {
        self.context.as_deref()
    }
    /// Sets (or prefixes) the context, printed before the message.
    pub fn with_context(mut self, what: &str) -> Self {
        self.context = Some(match self.context.take() {
            Some(inner) => format!("{what}: {inner}"),
            None => what.to_string(),
        });
        self
    }
    pub(crate) fn with_line_if_none(mut self, line: usize) -> Self {
        if self.line.is_none() {
            self.line = Some(line);
        }
        self
    }
}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        if let Some(context) = &self.context {
            write!(f, "{context}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for IoError {}

impl From<LcpError> for IoError {
    fn from(err: LcpError) -> Self {
        let kind = match err {
            LcpError::Empty => IoErrorKind::Empty,
            LcpError::NotSquare { .. } | LcpError::DimensionMismatch { .. } => IoErrorKind::Dimension,
            LcpError::NonFinite { .. } => IoErrorKind::NonFinite,
            _ => IoErrorKind::Problem,
        };
        IoError::plain(kind, err.to_string())
    }
}
