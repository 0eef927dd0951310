//! The rows of a batch: encoded for the checkpoint (fixed width, exact bits) and written as
//! `.npy`, `.npz` or `.csv`.
//!
//! | file | distance | all-pairs | collision |
//! |---|---|---|---|
//! | `.npy` | `min_distance` (N,) | every pair's distance (N, P) | `in_collision` (N,) |
//! | `.npz` | `min_distance`, `lower`, `upper` (N,), `pair` (N,) (−1: none), `in_collision` (N,), `points` (N, 2, 3) | the same + `distances` (N, P) | `in_collision`, `undecided`, `pair` (N,) |
//! | `.csv` | `min_distance,lower,upper,link_a,link_b,in_collision,ax,ay,az,bx,by,bz` | the same + one column per pair `A|B` | `in_collision,undecided,link_a,link_b` |
//!
//! Every `.npz` also holds `pair_names` (P, 2). CSV numbers are written in Rust's shortest
//! round-trip form (reading them back gives the same bits); booleans as 1 / 0.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Result, bail};
use proxima_scene::RobotWorld;
use proxima_scene::batch::{BatchMode, BatchResult, NO_PAIR};

use crate::npy::{Array, to_npz};

/// Output file kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    /// One `.npy` array.
    Npy,
    /// An `.npz` archive of every array.
    Npz,
    /// A CSV table with a header.
    Csv,
}

impl OutputKind {
    /// The kind of `path` by its extension.
    pub fn of(path: &Path) -> Result<Self> {
        let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        Ok(match ext.as_deref() {
            Some("npy") => OutputKind::Npy,
            Some("npz") => OutputKind::Npz,
            Some("csv") => OutputKind::Csv,
            _ => bail!("--out {}: the file name must end in .npy, .npz or .csv", path.display()),
        })
    }
}

/// Fixed-width encoding of rows: min, lower, upper (f64 bits), pair (u32), flags (u8: bit 0
/// in collision, bit 1 undecided), 6 witness coordinates, then P pair distances (all pairs).
#[derive(Debug, Clone, Copy)]
pub struct RowCodec {
    mode: BatchMode,
    pair_count: usize,
}

impl RowCodec {
    /// The codec of `mode` with `pair_count` pairs.
    pub fn new(mode: BatchMode, pair_count: usize) -> Self {
        Self { mode, pair_count }
    }

    fn extra(&self) -> usize {
        if self.mode == BatchMode::AllPairs { self.pair_count } else { 0 }
    }

    /// Bytes per row.
    pub fn row_bytes(&self) -> usize {
        3 * 8 + 4 + 1 + 6 * 8 + 8 * self.extra()
    }

    /// Every row of `part`, in order.
    pub fn encode(&self, part: &BatchResult) -> Vec<u8> {
        let mut out = Vec::with_capacity(part.len() * self.row_bytes());
        let p = self.extra();
        for r in 0..part.len() {
            for v in [part.min_distance[r], part.lower[r], part.upper[r]] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(&part.pair[r].to_le_bytes());
            out.push(u8::from(part.in_collision[r]) | (u8::from(part.undecided[r]) << 1));
            for v in part.points[r] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            for v in &part.pair_distances[r * p..(r + 1) * p] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out
    }

    /// Decodes `bytes` (whole rows) into rows `offset..` of `into`.
    pub fn decode_into(&self, bytes: &[u8], into: &mut BatchResult, offset: usize) {
        let p = self.extra();
        for (k, row) in bytes.chunks_exact(self.row_bytes()).enumerate() {
            let r = offset + k;
            let f = |i: usize| f64::from_le_bytes(row[8 * i..8 * i + 8].try_into().expect("8 bytes"));
            into.min_distance[r] = f(0);
            into.lower[r] = f(1);
            into.upper[r] = f(2);
            into.pair[r] = u32::from_le_bytes(row[24..28].try_into().expect("4 bytes"));
            into.in_collision[r] = row[28] & 1 != 0;
            into.undecided[r] = row[28] & 2 != 0;
            let g = |i: usize| f64::from_le_bytes(row[29 + 8 * i..37 + 8 * i].try_into().expect("8 bytes"));
            into.points[r] = std::array::from_fn(g);
            for j in 0..p {
                into.pair_distances[r * p + j] = g(6 + j);
            }
        }
    }
}

fn pair_index(p: u32) -> i64 {
    if p == NO_PAIR { -1 } else { i64::from(p) }
}

/// The file's bytes.
pub fn render(kind: OutputKind, result: &BatchResult, world: &RobotWorld) -> Result<Vec<u8>> {
    let n = result.len();
    let p = world.pairs().len();
    let collision = result.mode == BatchMode::Collision;
    Ok(match kind {
        OutputKind::Npy => match result.mode {
            BatchMode::Distance => Array::f64(&[n], result.min_distance.iter().copied()),
            BatchMode::AllPairs => Array::f64(&[n, p], result.pair_distances.iter().copied()),
            BatchMode::Collision => Array::bool(&[n], result.in_collision.iter().copied()),
        }
        .to_npy(),
        OutputKind::Npz => {
            let names: Vec<&str> = (0..p).flat_map(|k| <[&str; 2]>::from(world.pair_names(k))).collect();
            let mut arrays = vec![
                ("in_collision", Array::bool(&[n], result.in_collision.iter().copied())),
                ("pair", Array::i64(&[n], result.pair.iter().map(|&x| pair_index(x)))),
            ];
            if collision {
                arrays.push(("undecided", Array::bool(&[n], result.undecided.iter().copied())));
            } else {
                arrays.push(("min_distance", Array::f64(&[n], result.min_distance.iter().copied())));
                arrays.push(("lower", Array::f64(&[n], result.lower.iter().copied())));
                arrays.push(("upper", Array::f64(&[n], result.upper.iter().copied())));
                arrays.push(("points", Array::f64(&[n, 2, 3], result.points.as_flattened().iter().copied())));
            }
            if result.mode == BatchMode::AllPairs {
                arrays.push(("distances", Array::f64(&[n, p], result.pair_distances.iter().copied())));
            }
            arrays.push(("pair_names", Array::strings(&[p, 2], &names)));
            to_npz(&arrays)?
        }
        OutputKind::Csv => {
            let mut s = String::new();
            let names = |r: usize| -> (&str, &str) {
                match result.pair[r] {
                    NO_PAIR => ("", ""),
                    k => world.pair_names(k as usize),
                }
            };
            if collision {
                s.push_str("in_collision,undecided,link_a,link_b\n");
                for r in 0..n {
                    let (a, b) = names(r);
                    let _ = writeln!(
                        s,
                        "{},{},{a},{b}",
                        u8::from(result.in_collision[r]),
                        u8::from(result.undecided[r])
                    );
                }
            } else {
                s.push_str("min_distance,lower,upper,link_a,link_b,in_collision,ax,ay,az,bx,by,bz");
                if result.mode == BatchMode::AllPairs {
                    for k in 0..p {
                        let (a, b) = world.pair_names(k);
                        let _ = write!(s, ",{a}|{b}");
                    }
                }
                s.push('\n');
                for r in 0..n {
                    let (a, b) = names(r);
                    let _ = write!(
                        s,
                        "{},{},{},{a},{b},{}",
                        result.min_distance[r],
                        result.lower[r],
                        result.upper[r],
                        u8::from(result.in_collision[r])
                    );
                    for v in result.points[r] {
                        let _ = write!(s, ",{v}");
                    }
                    if result.mode == BatchMode::AllPairs {
                        for v in &result.pair_distances[r * p..(r + 1) * p] {
                            let _ = write!(s, ",{v}");
                        }
                    }
                    s.push('\n');
                }
            }
            s.into_bytes()
        }
    })
}
