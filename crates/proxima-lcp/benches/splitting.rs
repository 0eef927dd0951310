//! Splitting-method benchmarks (divan): `cargo bench -p proxima-lcp --bench splitting`.
//!
//! * `sweep_pgs` / `sweep_psor`: one projected Gauss–Seidel / SOR(1.4) sweep on grid fluid
//!   problems (spec §2.2 generator): 2D 256² = 65 536 and 1024² = 1 048 576 unknowns
//!   (5-point), 3D 40³ = 64 000 and 100³ = 1 000 000 unknowns (7-point).
//! * `stream_bound`: the memory-bandwidth bound measured in the same run — a streaming kernel
//!   that reads exactly the bytes a sweep must read (CSR values 8 B + column indices 4 B per
//!   entry, row pointers 8 B per row, b, and x read and written, 8 B each per row) with
//!   independent accumulators, so it runs at memory speed. sweep time / stream time is the
//!   ratio to report (acceptance: ≤ 2). The sweep also reads 1/A_ii (8 B per row), which the
//!   bound does not count.
//! * `dia_pgs` / `dia_psor`: the same sweeps on the same grids in DIA storage
//!   ([`DiaMatrix`], blocked unit-diagonal kernel).
//! * `stream_bound_dia`: the bandwidth bound of the DIA sweep, measured the same way: it
//!   streams exactly the bytes that kernel reads — each scaled off-diagonal over its valid
//!   rows (8 B per entry; the −1 diagonal over all n rows), b, 1/A_ii (8 B each per row) — and
//!   reads and writes x (16 B per row). DIA sweep time / this time is the DIA ratio.
//! * `dense_pgs_100`: one PGS sweep and a full PGS solve (ε_abs = 1e-8) on Dense PD(100) with a
//!   planted solution.
//!
//! Byte counts are attached to every grid benchmark (divan prints GB/s).
//!
//! On a shared machine the bound and the sweeps drift with the other load (divan runs one
//! benchmark over all grids, then the next), so for the ratios run each (benchmark, grid)
//! pair alone and alternate them, several rounds, and take medians of the per-round ratios,
//! e.g. for r in 1..5, for b in stream_bound_dia dia_pgs dia_psor stream_bound sweep_pgs
//! sweep_psor: `cargo bench -p proxima-lcp --bench splitting -- "$b::2d_65k"`.

use std::sync::OnceLock;

use divan::counter::BytesCount;
use divan::{Bencher, black_box};
use proxima_lcp::generate::{FluidGridSettings, RhsKind, dense_pd, fluid_grid, make_rhs};
use proxima_lcp::iterative::splitting::{inverse_diagonal, projected_sweep};
use proxima_lcp::iterative::{SplittingSettings, StoppingCriteria, solve_splitting};
use proxima_lcp::operator::{CsrMatrix, DenseMatrix, DiaMatrix, RowAccess};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn main() {
    divan::main();
}

struct Grid {
    a: CsrMatrix,
    dia: DiaMatrix,
    b: Vec<f64>,
    inv_diag: Vec<f64>,
}

const GRIDS: [&str; 4] = ["2d_65k", "3d_64k", "2d_1m", "3d_1m"];

fn grid(name: &str) -> &'static Grid {
    static CELLS: [OnceLock<Grid>; 4] = [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let k = GRIDS.iter().position(|g| *g == name).expect("known grid");
    CELLS[k].get_or_init(|| {
        let settings = match name {
            "2d_65k" => FluidGridSettings::grid_2d(256, 256),
            "3d_64k" => FluidGridSettings::grid_3d(40, 40, 40),
            "2d_1m" => FluidGridSettings::grid_2d(1024, 1024),
            _ => FluidGridSettings::grid_3d(100, 100, 100),
        };
        let g = fluid_grid(&settings, &mut SmallRng::seed_from_u64(1)).expect("valid grid");
        let inv_diag = inverse_diagonal(&g.matrix).expect("positive diagonal");
        let dia = DiaMatrix::from_csr(&g.matrix, 9).expect("a grid stencil has at most 7 diagonals");
        Grid { a: g.matrix, dia, b: g.b, inv_diag }
    })
}

/// Bytes a sweep must read (x is also written back).
fn sweep_bytes(g: &Grid) -> u64 {
    let n = g.a.n() as u64;
    let nnz = g.a.nnz() as u64;
    12 * nnz + 8 * (n + 1) + 8 * n /* b */ + 16 * n /* x read + write */
}

/// Times one projected sweep of `a` (the grid's matrix in some storage) from a mid-solve
/// iterate, counting `bytes` per sweep.
fn time_sweep<A: RowAccess<Aux = ()> + ?Sized>(bencher: Bencher, g: &Grid, a: &A, bytes: u64, omega: f64) {
    let mut x = vec![0.0; g.a.n()];
    // A few sweeps first so that x is a typical mid-solve iterate, not all zeros.
    for _ in 0..3 {
        projected_sweep(a, &g.b, &mut x, &mut (), &g.inv_diag, omega);
    }
    bencher
        .counter(BytesCount::new(bytes))
        .bench_local(|| black_box(projected_sweep(a, &g.b, black_box(&mut x), &mut (), &g.inv_diag, omega)));
}

fn run_sweep(bencher: Bencher, name: &str, omega: f64) {
    let g = grid(name);
    time_sweep(bencher, g, &g.a, sweep_bytes(g), omega);
}

#[divan::bench(args = GRIDS, sample_count = 30)]
fn sweep_pgs(bencher: Bencher, name: &str) {
    run_sweep(bencher, name, 1.0);
}

#[divan::bench(args = GRIDS, sample_count = 30)]
fn sweep_psor(bencher: Bencher, name: &str) {
    run_sweep(bencher, name, 1.4);
}

/// Reads the sweep's bytes at streaming speed: 4 independent accumulators per array.
fn stream(values: &[f64], indices: &[u32], indptr: &[usize], b: &[f64], x: &mut [f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    for c in values.chunks_exact(4) {
        for k in 0..4 {
            acc[k] += c[k];
        }
    }
    let mut iacc = [0u64; 4];
    for c in indices.chunks_exact(4) {
        for k in 0..4 {
            iacc[k] = iacc[k].wrapping_add(u64::from(c[k]));
        }
    }
    for c in indptr.chunks_exact(4) {
        for k in 0..4 {
            iacc[k] = iacc[k].wrapping_add(c[k] as u64);
        }
    }
    for (xi, bi) in x.iter_mut().zip(b) {
        *xi = 0.5 * (*xi + bi);
    }
    acc.iter().sum::<f64>() + iacc.iter().fold(0u64, |s, v| s.wrapping_add(*v)) as f64
}

#[divan::bench(args = GRIDS, sample_count = 30)]
fn stream_bound(bencher: Bencher, name: &str) {
    let g = grid(name);
    let mut x = vec![0.5; g.a.n()];
    bencher.counter(BytesCount::new(sweep_bytes(g))).bench_local(|| {
        black_box(stream(g.a.values(), g.a.indices(), g.a.indptr(), &g.b, black_box(&mut x)))
    });
}

/// The slices the DIA kernel reads from the matrix: each off-diagonal over its valid rows,
/// the −1 diagonal over all rows (see the module docs).
fn dia_streams(d: &DiaMatrix) -> Vec<&[f64]> {
    let n = d.n() as isize;
    d.offsets()
        .iter()
        .enumerate()
        .filter(|(_, o)| **o != 0)
        .map(|(k, &o)| {
            let values = d.diagonal_values(k);
            if o == -1 { values } else { &values[(-o).max(0) as usize..(n - o.max(0)) as usize] }
        })
        .collect()
}

fn dia_sweep_bytes(g: &Grid) -> u64 {
    let matrix: usize = dia_streams(&g.dia).iter().map(|s| s.len()).sum();
    8 * matrix as u64 + 32 * g.a.n() as u64 /* b, 1/A_ii, x read + write */
}

fn run_dia_sweep(bencher: Bencher, name: &str, omega: f64) {
    let g = grid(name);
    time_sweep(bencher, g, &g.dia, dia_sweep_bytes(g), omega);
}

#[divan::bench(args = GRIDS, sample_count = 30)]
fn dia_pgs(bencher: Bencher, name: &str) {
    run_dia_sweep(bencher, name, 1.0);
}

#[divan::bench(args = GRIDS, sample_count = 30)]
fn dia_psor(bencher: Bencher, name: &str) {
    run_dia_sweep(bencher, name, 1.4);
}

/// Reads the DIA sweep's bytes at streaming speed (4 independent accumulators per slice),
/// then x ← ½(x + b·(1/A_ii)) reads b, 1/A_ii and x and writes x.
fn stream_dia(matrix: &[&[f64]], b: &[f64], inv_diag: &[f64], x: &mut [f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    for values in matrix {
        for c in values.chunks_exact(4) {
            for k in 0..4 {
                acc[k] += c[k];
            }
        }
    }
    for ((xi, bi), inv) in x.iter_mut().zip(b).zip(inv_diag) {
        *xi = 0.5 * (*xi + bi * inv);
    }
    acc.iter().sum::<f64>()
}

#[divan::bench(args = GRIDS, sample_count = 30)]
fn stream_bound_dia(bencher: Bencher, name: &str) {
    let g = grid(name);
    let matrix = dia_streams(&g.dia);
    let mut x = vec![0.5; g.a.n()];
    bencher
        .counter(BytesCount::new(dia_sweep_bytes(g)))
        .bench_local(|| black_box(stream_dia(&matrix, &g.b, &g.inv_diag, black_box(&mut x))));
}

fn dense_problem() -> &'static (DenseMatrix, Vec<f64>, Vec<f64>) {
    static P: OnceLock<(DenseMatrix, Vec<f64>, Vec<f64>)> = OnceLock::new();
    P.get_or_init(|| {
        let mut rng = SmallRng::seed_from_u64(100);
        let a = dense_pd(100, &mut rng).expect("n > 0");
        let b = make_rhs(&a, RhsKind::PLANTED_QUARTER, &mut rng).expect("valid").b;
        let inv = inverse_diagonal(&a).expect("PD");
        (a, b, inv)
    })
}

#[divan::bench]
fn dense_pgs_100_sweep(bencher: Bencher) {
    let (a, b, inv) = dense_problem();
    let mut x = vec![0.0; 100];
    bencher.bench_local(|| black_box(projected_sweep(a, b, black_box(&mut x), &mut (), inv, 1.0)));
}

#[divan::bench]
fn dense_pgs_100_solve(bencher: Bencher) {
    let (a, b, _) = dense_problem();
    let s = SplittingSettings::pgs().with_stopping(StoppingCriteria {
        max_iterations: 100_000,
        absolute: 1e-8,
        relative: 0.0,
        stagnation: 0.0,
    });
    bencher.bench_local(|| black_box(solve_splitting(a, b, None, &s).expect("valid").iterations));
}
