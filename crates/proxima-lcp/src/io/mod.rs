//! Reading and writing problem files: JSON problems, MatrixMarket pairs, Siconos `.dat` files
//! and benchmark manifests.
//!
//! Every reader takes text and returns `Result<_, `[`IoError`]`>`: bad input is an error with a
//! kind, a 1-based line number where one makes sense, and a one-line message. No input makes a
//! reader panic, and no allocation is sized by a header number without a check: dense sizes are
//! bounded by [`ReadLimits::max_n`], everything else grows with the text.
//!
//! Readers are generic over the scalar ([`ParseScalar`]): with `f64` every number is rounded
//! once to the nearest double; with [`Rational`] decimal text is read exactly
//! (`0.1` is 1/10) — see [`scalar`] for the number grammar (`-2.5e-3`, `11/30`; NaN and ±∞
//! rejected).
//!
//! # JSON problems ([`read_json_problem`])
//!
//! ```json
//! {"kind": "lcp", "M": [[1, 0, -2], [0, 2, -1], [2, 1, 0]], "q": [-1, -1, -1]}
//! {"kind": "qp", "A": [[1, 0], [0, 2]], "b": [-1, -1], "c": 0,
//!  "D": [[2, 1]], "e": [1], "free": [], "Aeq": [[1, 1]], "beq": ["3/2"]}
//! ```
//!
//! * LCP: find z ≥ 0 with w = M z + q ≥ 0, zᵀw = 0. `M` is an array of n rows of n entries,
//!   `q` has n ≥ 1 entries.
//! * QP: minimize ½xᵀAx + bᵀx + c subject to x ≥ 0 (except the 0-based indices in `free`),
//!   D x ≥ e and Aeq x = beq. `b` (length n ≥ 1) is required; `A` (n × n) defaults to zero (an
//!   LP), `c` to 0; `D`/`e` and `Aeq`/`beq` come in pairs (either may have zero rows).
//! * Each number is a JSON number or a string holding a number (`"11/30"`, `"0.1"`). JSON
//!   numbers are read from their text, so they are exact in rational mode as well.
//! * Unknown fields are errors (typos like `"Beq"` must not pass silently); `name`, `comment`,
//!   `description`, `source`, `reference`, `expected` and keys starting with `_` are accepted
//!   and ignored. Duplicate keys, ragged or missing rows, NaN/Infinity are errors.
//!
//! # MatrixMarket ([`read_mtx_matrix`], [`read_mtx_vector`], [`read_mtx_lcp`])
//!
//! The benchmark format (`../shared/bench/lcp/FORMAT.md`): M as
//! `%%MatrixMarket matrix coordinate real general`, q as `... array real general` with shape
//! n × 1. Also read: `symmetric` / `skew-symmetric` coordinate files (off-diagonal entries
//! mirrored), `integer` fields, `array` matrices (column-major), coordinate vectors. Indices are
//! 1-based in files. Edge cases: the entry count must equal the size line's `nnz` exactly;
//! duplicate entries are **rejected** (not summed), including a pair (i, j), (j, i) in a
//! symmetric file; an index 0 or beyond the shape is an error; comment lines (`%`) and blank
//! lines may appear anywhere after the banner. `pattern`, `complex` and `hermitian` files are
//! [`IoErrorKind::Unsupported`].
//!
//! Sparse storage: [`read_mtx_csr`] reads a square matrix into a
//! [`CsrMatrix`](crate::operator::CsrMatrix) without a dense copy; [`write_mtx_csr`] writes
//! one in the benchmark's `coordinate real general` layout.
//!
//! Writers ([`write_mtx_coordinate`], [`write_mtx_array`], [`write_mtx_csr`]) print every value as the shortest
//! text that reads back bit-identically ([`format_f64`], like Python's `repr`).
//!
//! # Siconos `.dat` ([`read_siconos_lcp`])
//!
//! Whitespace-separated tokens (`../shared/testdata/siconos-lcp/README.md`):
//!
//! ```text
//! n
//! storage            0 = dense, 1 = sparse block (2 = sparse: unsupported)
//! n n                rows and columns of M (must equal n)
//! dense:   [n n]     repeated size line (recognised when the next two tokens are exactly n n)
//!          n·n values of M in COLUMN-major order
//! block:   nbblocks [blocknumber0 blocknumber1, cumulative row / column block sizes,
//!          filled1 (= blocknumber0 + 1) filled2 (= nbblocks), index1_data (row pointers),
//!          index2_data (block columns), then per block: its number and its values
//!          column-major]
//! q                  n values
//! anything else      a free-text comment, ignored
//! ```
//!
//! Block numbers must count 0, 1, 2, … in row-block order; a block listed twice in a block
//! row, sizes that do not add up to n and out-of-range indices are errors.
//!
//! # Manifests ([`read_manifest`])
//!
//! Serde structs for the benchmark's `manifest.json` (format_version 1).
//!
//! # Fuzzing
//!
//! [`fuzz_readers`] feeds arbitrary bytes to every reader; the cargo-fuzz target in `fuzz/`
//! calls it, and a test runs it over a deterministic mutation corpus.

mod error;
mod json;
mod json_problem;
mod manifest;
mod mtx;
pub mod scalar;
mod siconos;

pub use error::{IoError, IoErrorKind};
pub use json_problem::{INFO_KEYS, ProblemFile, read_json_problem, read_json_problem_with};
pub use manifest::{MANIFEST_FORMAT_VERSION, Manifest, ManifestProblem, read_manifest};
pub use mtx::{
    CooMatrix, format_f64, lcp_from_coo, read_mtx_csr, read_mtx_lcp, read_mtx_lcp_exact, read_mtx_lcp_with,
    read_mtx_matrix, read_mtx_vector, write_mtx_array, write_mtx_coordinate, write_mtx_csr,
};
pub use scalar::ParseScalar;
pub use siconos::{read_siconos_lcp, read_siconos_lcp_exact, read_siconos_lcp_with};

use proxima_num::Rational;

/// Size limits the readers check before allocating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// Largest problem size n accepted where a dense n × n matrix (or an n-vector sized by a
    /// header) is allocated. Default [`ReadLimits::DEFAULT_MAX_N`].
    pub max_n: usize,
}

impl ReadLimits {
    /// The default `max_n`: 5000 (a dense 5000 × 5000 `f64` M takes 200 MB).
    pub const DEFAULT_MAX_N: usize = 5000;

    /// Limits with the given `max_n`.
    pub fn new(max_n: usize) -> Self {
        Self { max_n }
    }

    /// `Err(TooLarge)` when `n > max_n` (or when n × n overflows `usize`).
    pub fn check_n(&self, n: usize) -> Result<(), IoError> {
        if n > self.max_n || n.checked_mul(n).is_none() {
            return Err(IoError::plain(
                IoErrorKind::TooLarge,
                format!("problem size n = {n} is above the reader limit {}", self.max_n),
            ));
        }
        Ok(())
    }
}

impl Default for ReadLimits {
    fn default() -> Self {
        Self { max_n: Self::DEFAULT_MAX_N }
    }
}

/// Feeds `data` to every reader (JSON problem, MatrixMarket pair, Siconos, manifest) in `f64`
/// and exact mode, ignoring the results. Used by the fuzz target; it must never panic.
///
/// The bytes are decoded as UTF-8 (lossily). The MatrixMarket pair is split at the first NUL
/// byte (M before, q after; without one the whole text is used for both). Limits are small
/// (`max_n` = 64) so that a mutated header cannot make a run slow.
pub fn fuzz_readers(data: &[u8]) {
    let limits = ReadLimits::new(64);
    let text = String::from_utf8_lossy(data);
    let _ = read_json_problem_with::<f64>(&text, &limits);
    let _ = read_json_problem_with::<Rational>(&text, &limits);
    let (m_text, q_text) = text.split_once('\0').unwrap_or((&text, &text));
    let _ = read_mtx_lcp_with::<f64>(m_text, q_text, &limits);
    let _ = read_mtx_lcp_with::<Rational>(m_text, q_text, &limits);
    let _ = read_mtx_vector::<f64>(&text, &limits);
    let _ = read_siconos_lcp_with::<f64>(&text, &limits);
    let _ = read_siconos_lcp_with::<Rational>(&text, &limits);
    let _ = read_manifest(&text);
}
