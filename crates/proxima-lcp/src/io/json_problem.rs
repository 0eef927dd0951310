//! JSON problem files: an LCP or a convex QP, numbers exact or rounded.

use super::ReadLimits;
use super::error::{IoError, IoErrorKind};
use super::json::{self, Node, Value};
use super::scalar::{ParseScalar, parse_count, show};
use crate::problem::Lcp;
use crate::qp::ConvexQp;

/// A problem read from a JSON file.
#[derive(Debug, Clone, PartialEq)]
pub enum ProblemFile<T> {
    /// `{"kind": "lcp", ...}`.
    Lcp(Lcp<T>),
    /// `{"kind": "qp", ...}`.
    Qp(ConvexQp<T>),
}

/// Informational keys accepted (and ignored) in every problem file, besides keys starting with
/// `_`.
pub const INFO_KEYS: [&str; 6] = ["name", "comment", "description", "source", "reference", "expected"];

const LCP_KEYS: [&str; 3] = ["kind", "M", "q"];
const QP_KEYS: [&str; 9] = ["kind", "A", "b", "c", "D", "e", "free", "Aeq", "beq"];

/// Reads a JSON problem file with the default [`ReadLimits`].
///
/// See the [module docs](super) for the format. Every number may be a JSON number or a string
/// (`"11/30"`, `"0.1"`, `"-2.5e-3"`); with `T = Rational` both are read exactly from their
/// text, with `T = f64` they are rounded once to the nearest double.
pub fn read_json_problem<T: ParseScalar>(text: &str) -> Result<ProblemFile<T>, IoError> {
    read_json_problem_with(text, &ReadLimits::default())
}

/// [`read_json_problem`] with explicit limits: n (for a QP: n + m + p, the size of the LCP it
/// becomes) must not exceed `limits.max_n`.
pub fn read_json_problem_with<T: ParseScalar>(
    text: &str,
    limits: &ReadLimits,
) -> Result<ProblemFile<T>, IoError> {
    let root = json::parse(text)?;
    let Value::Object(fields) = root.value else {
        return Err(IoError::at(
            IoErrorKind::Schema,
            root.line,
            format!("expected a JSON object at the top level, found {}", root.value.type_name()),
        ));
    };
    let obj = Obj { line: root.line, fields };
    let kind_node = obj.get("kind").ok_or_else(|| {
        IoError::at(IoErrorKind::Schema, obj.line, "missing field \"kind\" (\"lcp\" or \"qp\")")
    })?;
    let kind = match &kind_node.value {
        Value::Str(s) => s.as_str(),
        other => {
            return Err(IoError::at(
                IoErrorKind::Schema,
                kind_node.line,
                format!("\"kind\" must be the string \"lcp\" or \"qp\", found {}", other.type_name()),
            ));
        }
    };
    match kind {
        "lcp" => {
            obj.check_keys(&LCP_KEYS)?;
            read_lcp(&obj, limits).map(ProblemFile::Lcp)
        }
        "qp" => {
            obj.check_keys(&QP_KEYS)?;
            read_qp(&obj, limits).map(ProblemFile::Qp)
        }
        other => Err(IoError::at(
            IoErrorKind::Schema,
            kind_node.line,
            format!("unknown kind {}: expected \"lcp\" or \"qp\"", show(other)),
        )),
    }
}

struct Obj<'a> {
    line: usize,
    fields: Vec<(String, Node<'a>)>,
}

impl<'a> Obj<'a> {
    fn get(&self, key: &str) -> Option<&Node<'a>> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    fn require(&self, key: &str) -> Result<&Node<'a>, IoError> {
        self.get(key)
            .ok_or_else(|| IoError::at(IoErrorKind::Schema, self.line, format!("missing field \"{key}\"")))
    }
    fn check_keys(&self, known: &[&str]) -> Result<(), IoError> {
        for (key, node) in &self.fields {
            if !(known.contains(&key.as_str()) || INFO_KEYS.contains(&key.as_str()) || key.starts_with('_')) {
                return Err(IoError::at(
                    IoErrorKind::Schema,
                    node.line,
                    format!("unknown field {} (known fields: {})", show(key), known.join(", ")),
                ));
            }
        }
        Ok(())
    }
}

fn scalar<T: ParseScalar>(node: &Node<'_>, what: &str) -> Result<T, IoError> {
    let parsed = match &node.value {
        Value::Number(text) => T::parse_scalar(text),
        Value::Str(text) => T::parse_scalar(text),
        other => {
            return Err(IoError::at(
                IoErrorKind::Schema,
                node.line,
                format!("{what} must be a number or a numeric string, found {}", other.type_name()),
            ));
        }
    };
    parsed.map_err(|e| e.with_context(what).with_line_if_none(node.line))
}

fn array<'n, 'a>(node: &'n Node<'a>, what: &str) -> Result<&'n [Node<'a>], IoError> {
    match &node.value {
        Value::Array(items) => Ok(items),
        other => Err(IoError::at(
            IoErrorKind::Schema,
            node.line,
            format!("{what} must be an array, found {}", other.type_name()),
        )),
    }
}

fn vector<T: ParseScalar>(node: &Node<'_>, what: &str) -> Result<Vec<T>, IoError> {
    array(node, what)?
        .iter()
        .enumerate()
        .map(|(i, item)| scalar(item, &format!("{what} entry {}", i + 1)))
        .collect()
}

/// A matrix as an array of rows, each of `ncols` entries; returns (rows, row-major data).
fn matrix<T: ParseScalar>(node: &Node<'_>, what: &str, ncols: usize) -> Result<(usize, Vec<T>), IoError> {
    let rows = array(node, what)?;
    let mut data = Vec::with_capacity(rows.len().saturating_mul(ncols).min(1 << 20));
    for (i, row) in rows.iter().enumerate() {
        let entries = array(row, &format!("{what} row {}", i + 1))?;
        if entries.len() != ncols {
            return Err(IoError::at(
                IoErrorKind::Dimension,
                row.line,
                format!("{what} row {} has {} entries, expected {ncols}", i + 1, entries.len()),
            ));
        }
        for (j, item) in entries.iter().enumerate() {
            data.push(scalar(item, &format!("{what} row {}, column {}", i + 1, j + 1))?);
        }
    }
    Ok((rows.len(), data))
}

fn check_size(n: usize, what: &str, line: usize, limits: &ReadLimits) -> Result<(), IoError> {
    if n > limits.max_n {
        return Err(IoError::at(
            IoErrorKind::TooLarge,
            line,
            format!("{what} is {n}, above the limit of {}", limits.max_n),
        ));
    }
    Ok(())
}

fn read_lcp<T: ParseScalar>(obj: &Obj<'_>, limits: &ReadLimits) -> Result<Lcp<T>, IoError> {
    let q_node = obj.require("q")?;
    let m_node = obj.require("M")?;
    let q: Vec<T> = vector(q_node, "q")?;
    let n = q.len();
    if n == 0 {
        return Err(IoError::at(IoErrorKind::Empty, q_node.line, "q is empty: the problem has no variables"));
    }
    check_size(n, "n", q_node.line, limits)?;
    let (rows, m) = matrix(m_node, "M", n)?;
    if rows != n {
        return Err(IoError::at(
            IoErrorKind::Dimension,
            m_node.line,
            format!("M has {rows} rows but q has {n} entries"),
        ));
    }
    Lcp::new(m, q).map_err(IoError::from)
}

fn read_qp<T: ParseScalar>(obj: &Obj<'_>, limits: &ReadLimits) -> Result<ConvexQp<T>, IoError> {
    let b_node = obj.require("b")?;
    let b: Vec<T> = vector(b_node, "b")?;
    let n = b.len();
    if n == 0 {
        return Err(IoError::at(IoErrorKind::Empty, b_node.line, "b is empty: the problem has no variables"));
    }
    check_size(n, "n", b_node.line, limits)?;
    let c = match obj.get("c") {
        Some(node) => scalar(node, "c")?,
        None => T::zero(),
    };
    let a = match obj.get("A") {
        Some(node) => {
            let (rows, a) = matrix(node, "A", n)?;
            if rows != n {
                return Err(IoError::at(
                    IoErrorKind::Dimension,
                    node.line,
                    format!("A has {rows} rows but b has {n} entries"),
                ));
            }
            Some(a)
        }
        None => None,
    };
    let ineq = paired(obj, "D", "e", n)?;
    let eq = paired(obj, "Aeq", "beq", n)?;
    let m = ineq.as_ref().map_or(0, |(_, e)| e.len());
    let p = eq.as_ref().map_or(0, |(_, beq)| beq.len());
    check_size(n.saturating_add(m).saturating_add(p), "n + m + p (the LCP size)", obj.line, limits)?;
    let free = match obj.get("free") {
        Some(node) => Some(indices(node, n)?),
        None => None,
    };
    let mut qp = match a {
        Some(a) => ConvexQp::new(a, b, c)?,
        None => ConvexQp::linear(b, c)?,
    };
    if let Some((d, e)) = ineq.filter(|(_, e)| !e.is_empty()) {
        qp = qp.with_inequalities(d, e)?;
    }
    if let Some((aeq, beq)) = eq.filter(|(_, beq)| !beq.is_empty()) {
        qp = qp.with_equalities(aeq, beq)?;
    }
    if let Some(free) = free.filter(|f| !f.is_empty()) {
        qp = qp.with_free(free)?;
    }
    Ok(qp)
}

type Block<T> = (Vec<T>, Vec<T>);

/// A constraint block `mat x (op) rhs`: both or neither must be present.
fn paired<T: ParseScalar>(
    obj: &Obj<'_>,
    mat: &str,
    rhs: &str,
    n: usize,
) -> Result<Option<Block<T>>, IoError> {
    match (obj.get(mat), obj.get(rhs)) {
        (None, None) => Ok(None),
        (Some(node), None) => Err(IoError::at(
            IoErrorKind::Schema,
            node.line,
            format!("field \"{mat}\" needs \"{rhs}\" as well"),
        )),
        (None, Some(node)) => Err(IoError::at(
            IoErrorKind::Schema,
            node.line,
            format!("field \"{rhs}\" needs \"{mat}\" as well"),
        )),
        (Some(mnode), Some(rnode)) => {
            let (rows, data) = matrix(mnode, mat, n)?;
            let r: Vec<T> = vector(rnode, rhs)?;
            if r.len() != rows {
                return Err(IoError::at(
                    IoErrorKind::Dimension,
                    rnode.line,
                    format!("{rhs} has {} entries but {mat} has {rows} rows", r.len()),
                ));
            }
            Ok(Some((data, r)))
        }
    }
}

fn indices(node: &Node<'_>, n: usize) -> Result<Vec<usize>, IoError> {
    let items = array(node, "free")?;
    let mut out: Vec<usize> = Vec::with_capacity(items.len().min(n));
    let mut seen = vec![false; n];
    for item in items {
        let text = match &item.value {
            Value::Number(t) => *t,
            Value::Str(s) => s.as_str(),
            other => {
                return Err(IoError::at(
                    IoErrorKind::Schema,
                    item.line,
                    format!("free indices must be integers, found {}", other.type_name()),
                ));
            }
        };
        let index = parse_count(text).ok_or_else(|| {
            IoError::at(
                IoErrorKind::Schema,
                item.line,
                format!("free index {} is not a non-negative integer", show(text)),
            )
        })?;
        let index = usize::try_from(index).ok().filter(|&i| i < n).ok_or_else(|| {
            IoError::at(IoErrorKind::Index, item.line, format!("free index {index} out of range 0..{n}"))
        })?;
        if std::mem::replace(&mut seen[index], true) {
            return Err(IoError::at(
                IoErrorKind::Duplicate,
                item.line,
                format!("free index {index} listed twice"),
            ));
        }
        out.push(index);
    }
    Ok(out)
}
