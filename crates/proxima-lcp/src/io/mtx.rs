//! MatrixMarket reading and writing (the benchmark's problem files).

use std::io::Write;

use proxima_num::{Field, Rational};

use super::ReadLimits;
use super::error::{IoError, IoErrorKind};
use super::scalar::{ParseScalar, parse_count, show};
use crate::operator::CsrMatrix;
use crate::problem::Lcp;

/// A sparse matrix in coordinate (triplet) form: 0-based `(row, col, value)` entries sorted by
/// `(row, col)`, without duplicates, every index inside the shape.
#[derive(Debug, Clone, PartialEq)]
pub struct CooMatrix<T> {
    nrows: usize,
    ncols: usize,
    entries: Vec<(usize, usize, T)>,
}

impl<T> CooMatrix<T> {
    /// Builds a matrix from 0-based entries in any order; sorts them and rejects an index out
    /// of range ([`IoErrorKind::Index`]) or a repeated `(row, col)` ([`IoErrorKind::Duplicate`]).
    pub fn new(nrows: usize, ncols: usize, mut entries: Vec<(usize, usize, T)>) -> Result<Self, IoError> {
        if let Some((i, j, _)) = entries.iter().find(|(i, j, _)| *i >= nrows || *j >= ncols) {
            return Err(IoError::plain(
                IoErrorKind::Index,
                format!("entry ({i}, {j}) outside a {nrows} x {ncols} matrix (0-based)"),
            ));
        }
        entries.sort_by_key(|e| (e.0, e.1));
        if let Some(w) = entries.windows(2).find(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1)) {
            return Err(IoError::plain(
                IoErrorKind::Duplicate,
                format!("duplicate entry ({}, {}) (0-based)", w[0].0, w[0].1),
            ));
        }
        Ok(Self { nrows, ncols, entries })
    }
    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.nrows
    }
    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.ncols
    }
    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.entries.len()
    }
    /// The entries, 0-based, sorted by `(row, col)`.
    pub fn entries(&self) -> &[(usize, usize, T)] {
        &self.entries
    }
    /// Consumes the matrix, returning its entries.
    pub fn into_entries(self) -> Vec<(usize, usize, T)> {
        self.entries
    }
}

impl<T: Field> CooMatrix<T> {
    /// The non-zero entries of a dense row-major matrix (`nrows * ncols` values; `None` when
    /// the length is wrong). Zeros (including `-0.0`) are dropped.
    pub fn from_dense(nrows: usize, ncols: usize, row_major: &[T]) -> Option<Self> {
        if nrows.checked_mul(ncols)? != row_major.len() {
            return None;
        }
        let entries = row_major
            .iter()
            .enumerate()
            .filter(|(_, v)| !v.is_zero())
            .map(|(k, v)| (k / ncols, k % ncols, v.clone()))
            .collect();
        Some(Self { nrows, ncols, entries })
    }
    /// The dense row-major matrix. Allocates `nrows * ncols` values: check the size first
    /// (the readers do, against [`ReadLimits`]); `None` if that product overflows.
    pub fn to_dense(&self) -> Option<Vec<T>> {
        let mut out = vec![T::zero(); self.nrows.checked_mul(self.ncols)?];
        for (i, j, v) in &self.entries {
            out[i * self.ncols + j] = v.clone();
        }
        Some(out)
    }
    /// `A x`; `None` when `x.len() != ncols`.
    pub fn mul_vec(&self, x: &[T]) -> Option<Vec<T>> {
        if x.len() != self.ncols {
            return None;
        }
        let mut y = vec![T::zero(); self.nrows];
        for (i, j, v) in &self.entries {
            y[*i].add_mul_assign(v, &x[*j]);
        }
        Some(y)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Coordinate,
    Array,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Symmetry {
    General,
    Symmetric,
    SkewSymmetric,
}

/// Lines of the text with 1-based numbers, skipping blank lines and `%` comments.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(k, l)| (k + 1, l)).filter(|(_, l)| {
        let t = l.trim_start();
        !t.is_empty() && !t.starts_with('%')
    })
}

fn header(line: &str) -> Result<(Format, Symmetry), IoError> {
    let bad = |msg: String| IoError::at(IoErrorKind::Header, 1, msg);
    let tokens: Vec<String> = line.split_ascii_whitespace().map(str::to_ascii_lowercase).collect();
    if tokens.first().map(String::as_str) != Some("%%matrixmarket") {
        return Err(bad("not a MatrixMarket file: the first line must start with %%MatrixMarket".into()));
    }
    if tokens.len() != 5 {
        return Err(bad(format!(
            "banner has {} words, expected 5: %%MatrixMarket matrix coordinate|array real general|symmetric",
            tokens.len()
        )));
    }
    let unsupported = |what: &str, v: &str| {
        IoError::at(IoErrorKind::Unsupported, 1, format!("unsupported MatrixMarket {what} {}", show(v)))
    };
    if tokens[1] != "matrix" {
        return Err(unsupported("object", &tokens[1]));
    }
    let format = match tokens[2].as_str() {
        "coordinate" => Format::Coordinate,
        "array" => Format::Array,
        other => return Err(unsupported("format", other)),
    };
    if !matches!(tokens[3].as_str(), "real" | "integer" | "double") {
        return Err(unsupported("field (only real and integer are read)", &tokens[3]));
    }
    let symmetry = match tokens[4].as_str() {
        "general" => Symmetry::General,
        "symmetric" => Symmetry::Symmetric,
        "skew-symmetric" => Symmetry::SkewSymmetric,
        other => return Err(unsupported("symmetry", other)),
    };
    if format == Format::Array && symmetry != Symmetry::General {
        return Err(unsupported("array symmetry (only general arrays are read)", &tokens[4]));
    }
    Ok((format, symmetry))
}

fn size_line(line_no: usize, line: &str, expected: usize) -> Result<Vec<usize>, IoError> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let what = if expected == 3 { "rows cols nnz" } else { "rows cols" };
    if words.len() != expected {
        return Err(IoError::at(
            IoErrorKind::Header,
            line_no,
            format!("size line must hold {expected} integers ({what}), found {}", show(line.trim())),
        ));
    }
    words
        .iter()
        .map(|w| {
            parse_count(w).and_then(|v| usize::try_from(v).ok()).ok_or_else(|| {
                IoError::at(
                    IoErrorKind::Header,
                    line_no,
                    format!("size line: {} is not a non-negative integer", show(w)),
                )
            })
        })
        .collect()
}

/// Reads a MatrixMarket matrix: `coordinate` (`general`, `symmetric` — off-diagonal entries are
/// mirrored — or `skew-symmetric`) or `array general` (column-major values, explicit zeros
/// kept). Field `real` or `integer`. Indices are 1-based in the file, 0-based in the result.
///
/// Duplicate entries are rejected ([`IoErrorKind::Duplicate`], also when mirroring a
/// symmetric file creates one). Allocation is bounded by the size of the text, never by the
/// header's numbers.
pub fn read_mtx_matrix<T: ParseScalar>(text: &str) -> Result<CooMatrix<T>, IoError> {
    if text.trim().is_empty() {
        return Err(IoError::plain(IoErrorKind::Empty, "empty input: expected a MatrixMarket file"));
    }
    let (format, symmetry) = header(text.lines().next().unwrap_or(""))?;
    // The banner starts with '%', so `data_lines` already skips it.
    let mut rest = data_lines(text);
    let (size_no, size) = rest
        .next()
        .ok_or_else(|| IoError::plain(IoErrorKind::Header, "missing size line after the banner"))?;
    match format {
        Format::Coordinate => {
            let dims = size_line(size_no, size, 3)?;
            let (nrows, ncols, nnz) = (dims[0], dims[1], dims[2]);
            if symmetry != Symmetry::General && nrows != ncols {
                return Err(IoError::at(
                    IoErrorKind::Dimension,
                    size_no,
                    format!("a symmetric matrix must be square, found {nrows} x {ncols}"),
                ));
            }
            if (nnz as u128) > (nrows as u128) * (ncols as u128) {
                return Err(IoError::at(
                    IoErrorKind::Header,
                    size_no,
                    format!("nnz = {nnz} exceeds rows x cols = {nrows} x {ncols}"),
                ));
            }
            read_coordinate(rest, nrows, ncols, nnz, symmetry, text.len())
        }
        Format::Array => {
            let dims = size_line(size_no, size, 2)?;
            read_array(rest, dims[0], dims[1], size_no)
        }
    }
}

fn read_coordinate<'a, T: ParseScalar>(
    lines: impl Iterator<Item = (usize, &'a str)>,
    nrows: usize,
    ncols: usize,
    nnz: usize,
    symmetry: Symmetry,
    text_len: usize,
) -> Result<CooMatrix<T>, IoError> {
    // Each entry line needs at least 6 bytes ("1 1 1\n"): bounds the allocation by the text.
    let cap = nnz.min(text_len / 6 + 1);
    let mut entries: Vec<(usize, usize, T, usize)> = Vec::with_capacity(cap);
    let mut count = 0usize;
    for (line_no, line) in lines {
        if count == nnz {
            return Err(IoError::at(
                IoErrorKind::Count,
                line_no,
                format!("more entry lines than nnz = {nnz} on the size line"),
            ));
        }
        count += 1;
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        if words.len() != 3 {
            return Err(IoError::at(
                IoErrorKind::Syntax,
                line_no,
                format!("expected 3 fields \"row col value\", found {}", words.len()),
            ));
        }
        let index = |w: &str, what: &str, max: usize| -> Result<usize, IoError> {
            let v = parse_count(w).ok_or_else(|| {
                IoError::at(
                    IoErrorKind::Syntax,
                    line_no,
                    format!("{what} index {} is not an integer", show(w)),
                )
            })?;
            if v == 0 || v > max as u64 {
                return Err(IoError::at(
                    IoErrorKind::Index,
                    line_no,
                    format!("{what} index {v} out of range 1..={max}"),
                ));
            }
            Ok(v as usize - 1)
        };
        let i = index(words[0], "row", nrows)?;
        let j = index(words[1], "column", ncols)?;
        let v = T::parse_scalar(words[2]).map_err(|e| e.with_line_if_none(line_no))?;
        match symmetry {
            Symmetry::General => entries.push((i, j, v, line_no)),
            Symmetry::Symmetric => {
                if i != j {
                    entries.push((j, i, v.clone(), line_no));
                }
                entries.push((i, j, v, line_no));
            }
            Symmetry::SkewSymmetric => {
                if i == j {
                    if !v.is_zero() {
                        return Err(IoError::at(
                            IoErrorKind::Syntax,
                            line_no,
                            "a skew-symmetric matrix has a non-zero diagonal entry",
                        ));
                    }
                } else {
                    entries.push((j, i, v.neg(), line_no));
                    entries.push((i, j, v, line_no));
                }
            }
        }
    }
    if count != nnz {
        return Err(IoError::plain(
            IoErrorKind::Count,
            format!("expected {nnz} entries, found {count} (truncated?)"),
        ));
    }
    entries.sort_by_key(|e| (e.0, e.1, e.3));
    if let Some(w) = entries.windows(2).find(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1)) {
        let (first, second) = (w[0].3, w[1].3);
        let msg = if first == second {
            format!("entry ({}, {}) given twice", w[0].0 + 1, w[0].1 + 1)
        } else {
            format!("duplicate entry ({}, {}), first given on line {first}", w[0].0 + 1, w[0].1 + 1)
        };
        return Err(IoError::at(IoErrorKind::Duplicate, second, msg));
    }
    let entries = entries.into_iter().map(|(i, j, v, _)| (i, j, v)).collect();
    Ok(CooMatrix { nrows, ncols, entries })
}

fn read_array<'a, T: ParseScalar>(
    lines: impl Iterator<Item = (usize, &'a str)>,
    nrows: usize,
    ncols: usize,
    size_no: usize,
) -> Result<CooMatrix<T>, IoError> {
    let total = nrows.checked_mul(ncols).ok_or_else(|| {
        IoError::at(IoErrorKind::TooLarge, size_no, format!("{nrows} x {ncols} is too large"))
    })?;
    let mut entries = Vec::new();
    for (line_no, line) in lines {
        for word in line.split_ascii_whitespace() {
            let k = entries.len();
            if k == total {
                return Err(IoError::at(
                    IoErrorKind::Count,
                    line_no,
                    format!("more values than the {nrows} x {ncols} = {total} of the size line"),
                ));
            }
            let v = T::parse_scalar(word).map_err(|e| e.with_line_if_none(line_no))?;
            // Column-major: value k is (k % nrows, k / nrows).
            entries.push((k % nrows, k / nrows, v));
        }
    }
    if entries.len() != total {
        return Err(IoError::plain(
            IoErrorKind::Count,
            format!("expected {total} values ({nrows} x {ncols}), found {} (truncated?)", entries.len()),
        ));
    }
    entries.sort_by_key(|e| (e.0, e.1));
    Ok(CooMatrix { nrows, ncols, entries })
}

/// Reads a vector: an `array` of shape n × 1 (or 1 × n), or a `coordinate` matrix of that
/// shape (missing entries are zero). n must be at least 1 and at most `limits.max_n`.
pub fn read_mtx_vector<T: ParseScalar>(text: &str, limits: &ReadLimits) -> Result<Vec<T>, IoError> {
    let m: CooMatrix<T> = read_mtx_matrix(text)?;
    let (nrows, ncols) = (m.nrows(), m.ncols());
    let n = match (nrows, ncols) {
        (n, 1) | (1, n) => n,
        _ => {
            return Err(IoError::plain(
                IoErrorKind::Dimension,
                format!("expected an n x 1 vector, found a {nrows} x {ncols} matrix"),
            ));
        }
    };
    if n == 0 {
        return Err(IoError::plain(IoErrorKind::Empty, "the vector has no entries"));
    }
    limits.check_n(n)?;
    let mut v = vec![T::zero(); n];
    for (i, j, x) in m.into_entries() {
        v[i.max(j)] = x;
    }
    Ok(v)
}

/// Reads an LCP from a MatrixMarket pair (M: n × n, q: n × 1), in `f64`.
pub fn read_mtx_lcp(m_text: &str, q_text: &str) -> Result<Lcp<f64>, IoError> {
    read_mtx_lcp_with(m_text, q_text, &ReadLimits::default())
}

/// Reads an LCP from a MatrixMarket pair exactly: every decimal is read as the rational it
/// denotes (`0.1` → 1/10).
pub fn read_mtx_lcp_exact(m_text: &str, q_text: &str) -> Result<Lcp<Rational>, IoError> {
    read_mtx_lcp_with(m_text, q_text, &ReadLimits::default())
}

/// Reads an LCP from a MatrixMarket pair in any [`ParseScalar`] type. n must not exceed
/// `limits.max_n` (checked before the dense M is allocated). Errors carry the context `"M"`
/// or `"q"`.
pub fn read_mtx_lcp_with<T: ParseScalar>(
    m_text: &str,
    q_text: &str,
    limits: &ReadLimits,
) -> Result<Lcp<T>, IoError> {
    let m: CooMatrix<T> = read_mtx_matrix(m_text).map_err(|e| e.with_context("M"))?;
    let q: Vec<T> = read_mtx_vector(q_text, limits).map_err(|e| e.with_context("q"))?;
    lcp_from_coo(&m, q, limits)
}

/// Assembles a dense LCP from a sparse M and q, checking shapes and `limits` first.
pub fn lcp_from_coo<T: Field>(m: &CooMatrix<T>, q: Vec<T>, limits: &ReadLimits) -> Result<Lcp<T>, IoError> {
    let (nrows, ncols) = (m.nrows(), m.ncols());
    if nrows != ncols {
        return Err(IoError::plain(
            IoErrorKind::Dimension,
            format!("matrix is {nrows} x {ncols}, expected a square matrix"),
        )
        .with_context("M"));
    }
    if q.len() != nrows {
        return Err(IoError::plain(
            IoErrorKind::Dimension,
            format!("M is {nrows} x {nrows} but q has {} entries", q.len()),
        ));
    }
    limits.check_n(nrows).map_err(|e| e.with_context("M"))?;
    let dense = m.to_dense().ok_or_else(|| IoError::plain(IoErrorKind::TooLarge, "M is too large"))?;
    Lcp::new(dense, q).map_err(IoError::from)
}

/// The shortest decimal text that reads back as exactly `x`, in the style of Python's `repr`:
/// positional for 1e-4 ≤ |x| < 1e16 (`0.1`, `3`, `-2.5`), scientific otherwise (`1e-5`,
/// `1.5e16`); `"1"` rather than `"1.0"`. NaN and infinities give `NaN`, `inf`, `-inf` (which
/// the readers reject).
pub fn format_f64(x: f64) -> String {
    if !x.is_finite() || x == 0.0 {
        return format!("{x}");
    }
    let sci = format!("{x:e}");
    let exponent = sci.rsplit_once('e').and_then(|(_, e)| e.parse::<i32>().ok()).unwrap_or(0);
    if (-4..16).contains(&exponent) { format!("{x}") } else { sci }
}

fn write_comment<W: Write>(out: &mut W, comment: Option<&str>) -> std::io::Result<()> {
    for line in comment.unwrap_or("").lines() {
        writeln!(out, "% {line}")?;
    }
    Ok(())
}

/// Writes `m` as `%%MatrixMarket matrix coordinate real general`, 1-based, entries in their
/// (sorted) order, values via [`format_f64`] so that reading back is bit-identical. Each line of
/// `comment` becomes a `% ` line after the banner.
pub fn write_mtx_coordinate<W: Write>(
    out: &mut W,
    m: &CooMatrix<f64>,
    comment: Option<&str>,
) -> std::io::Result<()> {
    writeln!(out, "%%MatrixMarket matrix coordinate real general")?;
    write_comment(out, comment)?;
    writeln!(out, "{} {} {}", m.nrows(), m.ncols(), m.nnz())?;
    for (i, j, v) in m.entries() {
        writeln!(out, "{} {} {}", i + 1, j + 1, format_f64(*v))?;
    }
    Ok(())
}

/// Writes a sparse matrix as `%%MatrixMarket matrix coordinate real general` (the benchmark's
/// M files): 1-based, sorted by (row, column), explicit zeros dropped, values via
/// [`format_f64`]. Streams the rows (no triplet copy), so 1M-unknown grids are cheap to write.
pub fn write_mtx_csr<W: Write>(out: &mut W, m: &CsrMatrix, comment: Option<&str>) -> std::io::Result<()> {
    let nnz = m.values().iter().filter(|v| **v != 0.0).count();
    writeln!(out, "%%MatrixMarket matrix coordinate real general")?;
    write_comment(out, comment)?;
    writeln!(out, "{} {} {}", m.n(), m.n(), nnz)?;
    for i in 0..m.n() {
        let (cols, vals) = m.row(i);
        for (&j, &v) in cols.iter().zip(vals) {
            if v != 0.0 {
                writeln!(out, "{} {} {}", i + 1, j + 1, format_f64(v))?;
            }
        }
    }
    Ok(())
}

/// Reads a square MatrixMarket coordinate (or array) matrix into CSR storage, with the
/// reader rules of [`read_mtx_matrix`] (symmetric files mirrored, duplicates rejected). No
/// dense allocation, so sparse problems of any size read; a non-square matrix or n = 0 is an
/// error.
pub fn read_mtx_csr(text: &str) -> Result<CsrMatrix, IoError> {
    let m: CooMatrix<f64> = read_mtx_matrix(text)?;
    if m.nrows() != m.ncols() {
        return Err(IoError::plain(
            IoErrorKind::Dimension,
            format!("matrix is {} x {}, expected a square matrix", m.nrows(), m.ncols()),
        ));
    }
    CsrMatrix::from_coo(&m).map_err(IoError::from)
}

/// Writes a dense matrix given row-major as `%%MatrixMarket matrix array real general`
/// (values in column-major order, as the format requires). A vector is `nrows = n, ncols = 1`.
/// Fails with `InvalidInput` when `row_major.len() != nrows * ncols`.
pub fn write_mtx_array<W: Write>(
    out: &mut W,
    nrows: usize,
    ncols: usize,
    row_major: &[f64],
    comment: Option<&str>,
) -> std::io::Result<()> {
    if nrows.checked_mul(ncols) != Some(row_major.len()) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "data length is not nrows * ncols",
        ));
    }
    writeln!(out, "%%MatrixMarket matrix array real general")?;
    write_comment(out, comment)?;
    writeln!(out, "{nrows} {ncols}")?;
    for j in 0..ncols {
        for i in 0..nrows {
            writeln!(out, "{}", format_f64(row_major[i * ncols + j]))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_repr_style() {
        assert_eq!(format_f64(1.0), "1");
        assert_eq!(format_f64(0.1), "0.1");
        assert_eq!(format_f64(-2.5), "-2.5");
        assert_eq!(format_f64(1e-5), "1e-5");
        assert_eq!(format_f64(1e16), "1e16");
        assert_eq!(format_f64(123456789012345.6), "123456789012345.6");
        assert_eq!(format_f64(0.0001), "0.0001");
        assert_eq!(format_f64(-0.0), "-0");
    }
}
