//! Sweeps allocate nothing: PGS/PSOR/Jacobi steps on CSR, DIA, dense and the matrix-free contact
//! operator, the boxed sweep, and `ContactOperator::apply` (its scratch vector is reused).
//! Proven with a counting global allocator that counts, per thread, only inside `count`.

use proxima_lcp::generate::{FluidGridSettings, dense_pd, fluid_grid};
use proxima_lcp::iterative::BoxBounds;
use proxima_lcp::iterative::boxed::boxed_sweep;
use proxima_lcp::iterative::splitting::{inverse_diagonal, jacobi_step, projected_sweep};
use proxima_lcp::operator::{BlockDiagonal, ContactOperator, DiaMatrix, LinearOperator, RowAccess, SprsCsr};
use rand::SeedableRng;
use rand::rngs::SmallRng;

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::count;

#[test]
fn sweeps_allocate_nothing() {
    let g = fluid_grid(&FluidGridSettings::grid_3d(8, 7, 6), &mut SmallRng::seed_from_u64(1)).unwrap();
    let inv = inverse_diagonal(&g.matrix).unwrap();
    let n = g.matrix.n();
    let mut x = vec![0.0; n];
    let mut y = vec![0.0; n];
    let (_, allocs) = count(|| {
        for omega in [1.0, 1.4] {
            projected_sweep(&g.matrix, &g.b, &mut x, &mut (), &inv, omega);
        }
        g.matrix.apply(&x, &mut y);
        jacobi_step(&mut x, &y, &inv);
    });
    assert_eq!(allocs, 0, "CSR");

    // DIA: the fused pair loop (interior rows) and the blocks (first and last 56 rows).
    let d = DiaMatrix::from_csr(&g.matrix, 7).unwrap();
    let (_, allocs) = count(|| {
        for omega in [1.0, 1.4] {
            projected_sweep(&d, &g.b, &mut x, &mut (), &inv, omega);
        }
        d.apply(&x, &mut y);
    });
    assert_eq!(allocs, 0, "DIA");

    let a = dense_pd(20, &mut SmallRng::seed_from_u64(2)).unwrap();
    let inv = inverse_diagonal(&a).unwrap();
    let b = vec![-1.0; 20];
    let mut x = vec![0.0; 20];
    let bounds = BoxBounds::new(vec![-1.0; 20], vec![1.0; 20]).unwrap();
    let (_, allocs) = count(|| {
        projected_sweep(&a, &b, &mut x, &mut (), &inv, 1.2);
        boxed_sweep(&a, &b, &bounds, &mut x, &mut (), &inv, 1.0);
    });
    assert_eq!(allocs, 0, "dense");

    // Matrix-free contact operator: 3 bodies with diagonal inverse mass, 4 rows.
    let j = SprsCsr::new(
        (4, 18),
        vec![0, 2, 4, 6, 8],
        vec![2, 8, 0, 6, 9, 14, 1, 17],
        vec![1.0, -1.0, 0.5, -0.5, 1.0, -1.0, 0.3, 0.7],
    );
    let op = ContactOperator::new(j, &BlockDiagonal::diagonal(vec![1.0; 18]).unwrap()).unwrap();
    let inv = inverse_diagonal(&op).unwrap();
    let b = vec![-1.0, 0.5, -0.3, -2.0];
    let mut x = vec![0.0; 4];
    let mut y = vec![0.0; 4];
    let mut v = op.new_aux();
    op.sync_aux(&x, &mut v);
    let (_, allocs) = count(|| {
        projected_sweep(&op, &b, &mut x, &mut v, &inv, 1.0);
        op.apply(&x, &mut y);
    });
    assert_eq!(allocs, 0, "contact operator");
}
