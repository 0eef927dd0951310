//! Sparse storage: the matrix-free contact operator J M⁻¹ Jᵀ against a dense product computed
//! here, its Gauss–Seidel row access, and MatrixMarket reading/writing of CSR matrices
//! (including the harness's public files).

use proxima_lcp::LcpError;
use proxima_lcp::io::{ReadLimits, read_mtx_csr, read_mtx_vector, write_mtx_csr};
use proxima_lcp::iterative::splitting::{inverse_diagonal, projected_sweep};
use proxima_lcp::iterative::{IterativeStatus, SplittingSettings, StoppingCriteria, solve_splitting};
use proxima_lcp::operator::{BlockDiagonal, ContactOperator, CsrMatrix, LinearOperator, RowAccess, SprsCsr};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[path = "support/testdata.rs"]
mod testdata;

fn public() -> String {
    testdata::testdata("bench-lcp")
}

struct Scene {
    j_dense: Vec<f64>,
    minv_dense: Vec<f64>,
    m: usize,
    d: usize,
    op: ContactOperator,
}

/// `bodies` rigid bodies (6 DOF, a random SPD 6×6 inverse mass each) and `m` constraint rows,
/// each touching one or two bodies (like a contact between two bodies or with the ground).
fn scene(bodies: usize, m: usize, seed: u64) -> Scene {
    let mut rng = SmallRng::seed_from_u64(seed);
    let d = 6 * bodies;
    let mut blocks = Vec::new();
    let mut minv_dense = vec![0.0; d * d];
    for k in 0..bodies {
        let r: Vec<f64> = (0..36).map(|_| rng.random::<f64>() - 0.5).collect();
        for i in 0..6 {
            for j in 0..6 {
                let v =
                    (0..6).map(|l| r[i * 6 + l] * r[j * 6 + l]).sum::<f64>() + if i == j { 0.5 } else { 0.0 };
                blocks.push(v);
                minv_dense[(6 * k + i) * d + 6 * k + j] = v;
            }
        }
    }
    let minv = BlockDiagonal::new(&vec![6; bodies], blocks).unwrap();
    let mut j_dense = vec![0.0; m * d];
    let mut rows = Vec::new();
    for i in 0..m {
        let a = rng.random_range(0..bodies);
        let b = rng.random_range(0..bodies + 1); // == bodies: the ground
        let mut row = Vec::new();
        for body in [a, b] {
            if body < bodies && !(body == b && a == b && !row.is_empty()) {
                let sign = if body == a { 1.0 } else { -1.0 };
                for c in 0..6 {
                    let v = sign * (rng.random::<f64>() - 0.5);
                    row.push((6 * body + c, v));
                    j_dense[i * d + 6 * body + c] = v;
                }
            }
        }
        rows.push(row);
    }
    let j = to_sprs(m, d, &rows);
    Scene { j_dense, minv_dense, m, d, op: ContactOperator::new(j, &minv).unwrap() }
}

fn to_sprs(m: usize, d: usize, rows: &[Vec<(usize, f64)>]) -> SprsCsr {
    let mut indptr = vec![0];
    let (mut idx, mut val) = (Vec::new(), Vec::new());
    for r in rows {
        let mut r = r.clone();
        r.sort_by_key(|e| e.0);
        for (c, v) in r {
            idx.push(c as u32);
            val.push(v);
        }
        indptr.push(idx.len());
    }
    SprsCsr::new((m, d), indptr, idx, val)
}

fn dense_a(s: &Scene) -> Vec<f64> {
    let (m, d) = (s.m, s.d);
    let mut w = vec![0.0; d * m]; // M⁻¹ Jᵀ
    for r in 0..d {
        for i in 0..m {
            w[r * m + i] = (0..d).map(|c| s.minv_dense[r * d + c] * s.j_dense[i * d + c]).sum();
        }
    }
    let mut a = vec![0.0; m * m];
    for i in 0..m {
        for k in 0..m {
            a[i * m + k] = (0..d).map(|c| s.j_dense[i * d + c] * w[c * m + k]).sum();
        }
    }
    a
}

#[test]
fn contact_operator_matches_the_dense_product() {
    let s = scene(5, 20, 1);
    let a = dense_a(&s);
    let scale = a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let tol = 1e-13 * scale; // a few dozen flops per entry, each within ε
    let mut rng = SmallRng::seed_from_u64(2);
    let x: Vec<f64> = (0..s.m).map(|_| rng.random::<f64>()).collect();
    let mut y = vec![0.0; s.m];
    s.op.apply(&x, &mut y);
    for i in 0..s.m {
        let want: f64 = (0..s.m).map(|k| a[i * s.m + k] * x[k]).sum();
        assert!((y[i] - want).abs() <= tol * 10.0, "row {i}");
    }
    let mut diag = vec![0.0; s.m];
    s.op.diagonal(&mut diag);
    let assembled = s.op.assemble();
    for i in 0..s.m {
        assert!((diag[i] - a[i * s.m + i]).abs() <= tol);
        for k in 0..s.m {
            assert!((assembled.get(i, k) - a[i * s.m + k]).abs() <= tol);
        }
    }
    assert!(s.op.is_symmetric());
    let dense = s.op.to_dense();
    assert!((dense.get(3, 7) - a[3 * s.m + 7]).abs() <= tol);
}

#[test]
fn gauss_seidel_row_access_keeps_v_consistent() {
    let s = scene(6, 24, 3);
    let assembled = s.op.assemble();
    let mut rng = SmallRng::seed_from_u64(4);
    let b: Vec<f64> = (0..s.m).map(|_| rng.random::<f64>() * 2.0 - 1.5).collect();
    let inv = inverse_diagonal(&s.op).unwrap();
    let mut x = vec![0.0; s.m];
    let mut x_ref = vec![0.0; s.m];
    let mut v = s.op.new_aux();
    s.op.sync_aux(&x, &mut v);
    for _ in 0..10 {
        projected_sweep(&s.op, &b, &mut x, &mut v, &inv, 1.3);
        projected_sweep(&assembled, &b, &mut x_ref, &mut (), &inv, 1.3);
    }
    // Same sweeps up to round-off (J_i·v versus A_{i*}·x).
    for (p, q) in x.iter().zip(&x_ref) {
        assert!((p - q).abs() <= 1e-9 * (1.0 + q.abs()));
    }
    let mut fresh = s.op.new_aux();
    s.op.sync_aux(&x, &mut fresh);
    for (p, q) in v.iter().zip(&fresh) {
        assert!((p - q).abs() <= 1e-12 * (1.0 + q.abs()));
    }
}

#[test]
fn matrix_free_pgs_solves_a_contact_normal_problem() {
    // 24 constraint rows on 6 bodies (36 DOF): A = J M⁻¹ Jᵀ is symmetric PD, PGS converges.
    let s = scene(6, 24, 5);
    let mut rng = SmallRng::seed_from_u64(6);
    let b: Vec<f64> = (0..s.m).map(|_| rng.random::<f64>() * 2.0 - 1.5).collect();
    let stop = StoppingCriteria { max_iterations: 20_000, absolute: 1e-12, relative: 0.0, stagnation: 0.0 };
    let free = solve_splitting(&s.op, &b, None, &SplittingSettings::pgs().with_stopping(stop)).unwrap();
    assert_eq!(free.status, IterativeStatus::ConvergedAbsolute);
    assert!(free.residual.min_map_inf < 1e-6, "{:?}", free.residual);
    let assembled =
        solve_splitting(&s.op.assemble(), &b, None, &SplittingSettings::pgs().with_stopping(stop)).unwrap();
    for (p, q) in free.z.iter().zip(&assembled.z) {
        assert!((p - q).abs() < 1e-5);
    }
}

#[test]
fn contact_operator_bad_input() {
    let minv = BlockDiagonal::diagonal(vec![1.0, 2.0, 3.0]).unwrap();
    let j = to_sprs(2, 3, &[vec![(0, 1.0)], vec![]]);
    // A zero row of J gives a zero diagonal entry: splitting methods refuse it.
    let op = ContactOperator::new(j, &minv).unwrap();
    assert_eq!(
        solve_splitting(&op, &[1.0, 1.0], None, &SplittingSettings::pgs()).unwrap_err(),
        LcpError::ZeroDiagonal { index: 1, value: 0.0 }
    );
    let wrong_cols = to_sprs(1, 4, &[vec![(0, 1.0)]]);
    assert!(matches!(ContactOperator::new(wrong_cols, &minv), Err(LcpError::DimensionMismatch { .. })));
    let nan = to_sprs(1, 3, &[vec![(0, f64::NAN)]]);
    assert!(matches!(ContactOperator::new(nan, &minv), Err(LcpError::NonFinite { .. })));
    assert!(matches!(ContactOperator::new(to_sprs(0, 3, &[]), &minv), Err(LcpError::Empty)));
    assert!(matches!(
        BlockDiagonal::new(&[2], vec![1.0, 2.0, 0.0, 1.0]),
        Err(LcpError::InvalidProblem { .. })
    ));
    assert!(matches!(BlockDiagonal::new(&[2], vec![1.0]), Err(LcpError::DimensionMismatch { .. })));
    assert!(matches!(BlockDiagonal::diagonal(vec![f64::INFINITY]), Err(LcpError::NonFinite { .. })));
    assert!(matches!(BlockDiagonal::new(&[], vec![]), Err(LcpError::InvalidProblem { .. })));
}

#[test]
fn csr_matrix_market_round_trip_is_bit_identical() {
    let mut rng = SmallRng::seed_from_u64(8);
    let rows: Vec<Vec<(usize, f64)>> = (0..30)
        .map(|i| {
            let mut r = vec![(i, 4.0 + rng.random::<f64>())];
            for _ in 0..3 {
                r.push((rng.random_range(0..30), rng.random::<f64>() * 1e-7 - 3.3e12));
            }
            r
        })
        .collect();
    let a = CsrMatrix::from_rows(30, rows).unwrap();
    let mut text = Vec::new();
    write_mtx_csr(&mut text, &a, Some("test")).unwrap();
    let back = read_mtx_csr(std::str::from_utf8(&text).unwrap()).unwrap();
    assert_eq!(back, a);
}

#[test]
fn csr_reader_edge_cases() {
    let sym = "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 2\n2 1 -1\n3 3 5\n";
    let a = read_mtx_csr(sym).unwrap();
    assert_eq!((a.get(0, 1), a.get(1, 0), a.get(2, 2), a.nnz()), (-1.0, -1.0, 5.0, 4));
    assert!(a.is_symmetric());
    let rect = "%%MatrixMarket matrix coordinate real general\n2 3 1\n1 1 1\n";
    assert!(read_mtx_csr(rect).is_err());
    assert!(read_mtx_csr("").is_err());
    let empty = "%%MatrixMarket matrix coordinate real general\n0 0 0\n";
    assert!(read_mtx_csr(empty).is_err());
    let dup = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n1 1 2\n";
    assert!(read_mtx_csr(dup).is_err());
}

#[test]
fn harness_public_files_read_as_csr_and_solve() {
    // The harness's literal port of num4lcp's Fluid(10): 7 diagonals, SPD; PGS reaches the
    // spec's ε_abs = 1e-3 within 100 sweeps.
    let m = std::fs::read_to_string(format!("{}/n4l_fluid/n4l_fluid_000.M.mtx", public())).unwrap();
    let q = std::fs::read_to_string(format!("{}/n4l_fluid/n4l_fluid_000.q.mtx", public())).unwrap();
    let a = read_mtx_csr(&m).unwrap();
    let b: Vec<f64> = read_mtx_vector(&q, &ReadLimits::default()).unwrap();
    assert_eq!((a.n(), b.len()), (1000, 1000));
    assert!(a.is_symmetric());
    let stop =
        StoppingCriteria { max_iterations: 100, absolute: 1e-3, relative: 1e-6, stagnation: f64::EPSILON };
    let sol = solve_splitting(&a, &b, None, &SplittingSettings::psor(1.4).with_stopping(stop)).unwrap();
    assert_eq!(sol.status, IterativeStatus::ConvergedAbsolute);
    // The physical 2D fluid (64² grid) reads without a dense copy.
    let m = std::fs::read_to_string(format!("{}/fluid_scaling/fluid_g64.M.mtx", public())).unwrap();
    let a = read_mtx_csr(&m).unwrap();
    assert_eq!(a.n(), 3486);
    assert!(a.is_symmetric());
}
