//! Siconos numerics `.dat` LCP files: dense (storage 0) and sparse-block (storage 1).

use proxima_num::Rational;

use super::ReadLimits;
use super::error::{IoError, IoErrorKind};
use super::scalar::{ParseScalar, parse_count, show};
use crate::problem::Lcp;

/// Whitespace-separated tokens with their 1-based line numbers.
struct Tokens<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    current: std::str::SplitAsciiWhitespace<'a>,
    line: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Self {
        Self { lines: text.lines().enumerate(), current: "".split_ascii_whitespace(), line: 0 }
    }
    fn next(&mut self) -> Option<(usize, &'a str)> {
        loop {
            if let Some(tok) = self.current.next() {
                return Some((self.line, tok));
            }
            let (k, line) = self.lines.next()?;
            self.line = k + 1;
            self.current = line.split_ascii_whitespace();
        }
    }
    /// The next token, or a `Count` error naming what was expected.
    fn expect(&mut self, what: &str) -> Result<(usize, &'a str), IoError> {
        self.expect_with(|| what.to_string())
    }
    /// Like [`Self::expect`], building the description only on error.
    fn expect_with(&mut self, what: impl FnOnce() -> String) -> Result<(usize, &'a str), IoError> {
        let last = self.line;
        self.next().ok_or_else(|| {
            IoError::plain(
                IoErrorKind::Count,
                format!("input ends (after line {last}) where {} was expected", what()),
            )
        })
    }
    fn count(&mut self, what: &str) -> Result<usize, IoError> {
        let (line, tok) = self.expect(what)?;
        parse_count(tok).and_then(|v| usize::try_from(v).ok()).ok_or_else(|| {
            IoError::at(
                IoErrorKind::Header,
                line,
                format!("{what}: expected a non-negative integer, found {}", show(tok)),
            )
        })
    }
    fn scalar<T: ParseScalar>(&mut self, what: impl Fn() -> String) -> Result<T, IoError> {
        let (line, tok) = self.expect_with(&what)?;
        T::parse_scalar(tok).map_err(|e| e.with_context(&what()).with_line_if_none(line))
    }
}

/// Reads a Siconos LCP file in `f64` with the default limits.
pub fn read_siconos_lcp(text: &str) -> Result<Lcp<f64>, IoError> {
    read_siconos_lcp_with(text, &ReadLimits::default())
}

/// Reads a Siconos LCP file exactly: decimals become the rationals they denote.
pub fn read_siconos_lcp_exact(text: &str) -> Result<Lcp<Rational>, IoError> {
    read_siconos_lcp_with(text, &ReadLimits::default())
}

/// Reads a Siconos LCP file in any [`ParseScalar`] type; n must not exceed `limits.max_n`.
/// See the [module docs](super) for the format.
pub fn read_siconos_lcp_with<T: ParseScalar>(text: &str, limits: &ReadLimits) -> Result<Lcp<T>, IoError> {
    if text.trim().is_empty() {
        return Err(IoError::plain(IoErrorKind::Empty, "empty input: expected a Siconos LCP file"));
    }
    let mut tok = Tokens::new(text);
    let n = tok.count("n (the problem size)")?;
    if n == 0 {
        return Err(IoError::at(IoErrorKind::Empty, tok.line, "n = 0: the problem has no variables"));
    }
    limits.check_n(n).map_err(|e| e.with_line_if_none(tok.line))?;
    let storage = tok.count("storage type")?;
    let storage_line = tok.line;
    let s0 = tok.count("number of rows of M")?;
    let s1 = tok.count("number of columns of M")?;
    if (s0, s1) != (n, n) {
        return Err(IoError::at(
            IoErrorKind::Dimension,
            tok.line,
            format!("M is {s0} x {s1} but n = {n}: M must be n x n"),
        ));
    }
    let m = match storage {
        0 => read_dense(&mut tok, n)?,
        1 => read_sparse_block(&mut tok, n)?,
        2 => {
            return Err(IoError::at(
                IoErrorKind::Unsupported,
                storage_line,
                "storage type 2 (sparse) is not supported: only 0 (dense) and 1 (sparse block)",
            ));
        }
        other => {
            return Err(IoError::at(
                IoErrorKind::Header,
                storage_line,
                format!("unknown storage type {other}: expected 0 (dense) or 1 (sparse block)"),
            ));
        }
    };
    let mut q = Vec::with_capacity(n);
    for i in 0..n {
        q.push(tok.scalar(|| format!("q entry {}", i + 1))?);
    }
    // Anything after q is a free-text comment.
    Lcp::new(m, q).map_err(IoError::from)
}

/// Dense storage: an optional repeated `n n` line, then n·n values in column-major order.
fn read_dense<T: ParseScalar>(tok: &mut Tokens<'_>, n: usize) -> Result<Vec<T>, IoError> {
    // Siconos writes "size0 size1" a second time before the values. It is recognised when the
    // next two tokens are exactly the integers n and n (a leading "n n" of values would be
    // ambiguous; Siconos itself always writes the repeated line).
    let mut probe = Tokens { lines: tok.lines.clone(), current: tok.current.clone(), line: tok.line };
    let repeated = matches!(
        (probe.next(), probe.next()),
        (Some((_, a)), Some((_, b))) if parse_count(a) == Some(n as u64) && parse_count(b) == Some(n as u64)
            && !a.contains('.') && !b.contains('.')
    );
    if repeated {
        *tok = probe;
    }
    // Values are pushed as read, so memory grows with the text, not with the header.
    let mut col_major: Vec<T> = Vec::with_capacity(n.min(1024));
    for j in 0..n {
        for i in 0..n {
            col_major.push(tok.scalar(|| format!("M row {}, column {}", i + 1, j + 1))?);
        }
    }
    let mut m = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            m.push(col_major[j * n + i].clone());
        }
    }
    Ok(m)
}

/// Cumulative block sizes: strictly increasing, positive, ending at `n`.
fn block_bounds(tok: &mut Tokens<'_>, count: usize, n: usize, what: &str) -> Result<Vec<usize>, IoError> {
    let mut bounds = Vec::with_capacity(count);
    let mut prev = 0;
    for k in 0..count {
        let b = tok.count(what)?;
        if b <= prev || b > n {
            return Err(IoError::at(
                IoErrorKind::Header,
                tok.line,
                format!(
                    "{what} {}: cumulative size {b} must increase strictly and stay within n = {n}",
                    k + 1
                ),
            ));
        }
        bounds.push(b);
        prev = b;
    }
    if prev != n {
        return Err(IoError::at(
            IoErrorKind::Dimension,
            tok.line,
            format!("{what}: the block sizes add up to {prev}, expected n = {n}"),
        ));
    }
    Ok(bounds)
}

/// Sparse-block storage (Siconos `SparseBlockStructuredMatrix`):
/// `nbblocks`; if non-zero: `blocknumber0 blocknumber1`, the cumulative row and column block
/// sizes, `filled1 filled2`, `index1_data` (filled1 = blocknumber0 + 1 row pointers into the
/// block list), `index2_data` (filled2 = nbblocks block-column indices), then for every block
/// in row-block order its number followed by its values in column-major order.
fn read_sparse_block<T: ParseScalar>(tok: &mut Tokens<'_>, n: usize) -> Result<Vec<T>, IoError> {
    let header = |tok: &Tokens<'_>, msg: String| IoError::at(IoErrorKind::Header, tok.line, msg);
    let nbblocks = tok.count("number of blocks")?;
    let mut m = vec![T::zero(); n * n];
    if nbblocks == 0 {
        return Ok(m);
    }
    if nbblocks as u128 > (n as u128) * (n as u128) {
        return Err(header(tok, format!("{nbblocks} blocks cannot fit in a {n} x {n} matrix")));
    }
    let bn0 = tok.count("number of block rows")?;
    let bn1 = tok.count("number of block columns")?;
    if bn0 == 0 || bn0 > n || bn1 == 0 || bn1 > n {
        return Err(header(tok, format!("{bn0} x {bn1} blocks: each count must be in 1..={n}")));
    }
    let rows = block_bounds(tok, bn0, n, "row block size")?;
    let cols = block_bounds(tok, bn1, n, "column block size")?;
    let filled1 = tok.count("filled1")?;
    let filled2 = tok.count("filled2")?;
    if filled1 != bn0 + 1 {
        return Err(header(
            tok,
            format!("filled1 = {filled1}, expected number of block rows + 1 = {}", bn0 + 1),
        ));
    }
    if filled2 != nbblocks {
        return Err(header(tok, format!("filled2 = {filled2}, expected the number of blocks {nbblocks}")));
    }
    let mut index1 = Vec::with_capacity(filled1);
    for k in 0..filled1 {
        let v = tok.count("index1_data")?;
        let prev = index1.last().copied().unwrap_or(0);
        if (k == 0 && v != 0) || v < prev || v > filled2 {
            return Err(IoError::at(
                IoErrorKind::Index,
                tok.line,
                format!(
                    "index1_data entry {} = {v}: row pointers must start at 0, not decrease, stay <= {filled2}",
                    k + 1
                ),
            ));
        }
        index1.push(v);
    }
    if index1.last() != Some(&filled2) {
        return Err(IoError::at(
            IoErrorKind::Index,
            tok.line,
            format!("index1_data must end at the number of blocks {filled2}"),
        ));
    }
    let mut index2 = Vec::with_capacity(filled2);
    for _ in 0..filled2 {
        let v = tok.count("index2_data")?;
        if v >= bn1 {
            return Err(IoError::at(
                IoErrorKind::Index,
                tok.line,
                format!("block column index {v} out of range 0..{bn1}"),
            ));
        }
        index2.push(v);
    }
    for r in 0..bn0 {
        let (row0, row1) = (if r == 0 { 0 } else { rows[r - 1] }, rows[r]);
        let (start, end) = (index1[r], index1[r + 1]);
        for block in start..end {
            let c = index2[block];
            if index2[start..block].contains(&c) {
                return Err(IoError::at(
                    IoErrorKind::Duplicate,
                    tok.line,
                    format!("block ({r}, {c}) is listed twice in block row {r}"),
                ));
            }
            let (col0, col1) = (if c == 0 { 0 } else { cols[c - 1] }, cols[c]);
            let (line, number) = tok.expect("a block number")?;
            if parse_count(number) != Some(block as u64) {
                return Err(IoError::at(
                    IoErrorKind::Syntax,
                    line,
                    format!("block numbering: expected block {block}, found {}", show(number)),
                ));
            }
            for j in col0..col1 {
                for i in row0..row1 {
                    m[i * n + j] =
                        tok.scalar(|| format!("block {block}, M row {}, column {}", i + 1, j + 1))?;
                }
            }
        }
    }
    Ok(m)
}
