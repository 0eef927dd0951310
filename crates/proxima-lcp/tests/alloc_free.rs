//! Lemke's happy path allocates nothing for f64: a reused workspace (after a first solve of
//! size ≥ n) and the fixed-size path. Proven with a counting global allocator that counts, per
//! thread, only while a solve call is running.

use proxima_lcp::lemke::LemkeWorkspace;
use proxima_lcp::{Lcp, LcpStatus, LemkeSettings, SolvePath, solve_lemke_fixed};

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::count;

/// A 12 × 12 box–box-distance-like LCP: M = [[A, I], [-I, 0]] with A = [[I, -C], [-Cᵀ, I]]
/// for a rotation-like C, q = [b; ℓ] — separated boxes, solved by plain Lemke.
fn box_like() -> ([[f64; 12]; 12], [f64; 12]) {
    let (s, c) = 0.6f64.sin_cos();
    let rot = [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]];
    let mut m = [[0.0; 12]; 12];
    for i in 0..3 {
        m[i][i] = 1.0;
        m[3 + i][3 + i] = 1.0;
        for j in 0..3 {
            m[i][3 + j] = -rot[i][j];
            m[3 + j][i] = -rot[i][j];
        }
    }
    for i in 0..6 {
        m[i][6 + i] = 1.0;
        m[6 + i][i] = -1.0;
    }
    let q = [-3.0, 1.0, -0.5, 2.0, -1.5, 0.25, 1.0, 2.0, 0.5, 1.5, 0.75, 1.25];
    (m, q)
}

/// A diagonally dominant 12 × 12 problem with q < 0 in places.
fn dominant() -> ([[f64; 12]; 12], [f64; 12]) {
    let m = core::array::from_fn(|i| {
        core::array::from_fn(|j| if i == j { 20.0 } else { ((i * 7 + j * 3) % 5) as f64 - 2.0 })
    });
    let q = core::array::from_fn(|i| if i % 3 == 0 { 1.0 } else { -1.0 - i as f64 });
    (m, q)
}

#[test]
fn happy_paths_do_not_allocate() {
    let settings = LemkeSettings::default();
    for (name, (m, q)) in [("box", box_like()), ("dominant", dominant())] {
        // Fixed path.
        let (fixed, allocations) = count(|| solve_lemke_fixed(&m, &q, &settings).unwrap());
        assert_eq!((fixed.status, fixed.path), (LcpStatus::Solved, SolvePath::Lemke), "{name}");
        assert!(fixed.residual.min_map_inf <= 1e-12, "{name}");
        assert_eq!(allocations, 0, "{name}: fixed path allocated");

        // Workspace path: the first solve sizes the buffers, the second allocates nothing.
        let lcp = Lcp::new(m.as_flattened().to_vec(), q.to_vec()).unwrap();
        let mut ws = LemkeWorkspace::new();
        let first = ws.solve(lcp.view(), &settings).unwrap();
        assert_eq!((first.status, first.path), (LcpStatus::Solved, SolvePath::Lemke));
        let (second, allocations) = count(|| ws.solve(lcp.view(), &settings).unwrap());
        assert_eq!(second, first);
        assert_eq!(ws.z(), &fixed.z[..]);
        assert_eq!(allocations, 0, "{name}: workspace re-solve allocated");

        // A pre-sized workspace allocates nothing from the first solve on.
        let mut sized = LemkeWorkspace::with_capacity(12);
        let (_, allocations) = count(|| sized.solve(lcp.view(), &settings).unwrap());
        assert_eq!(allocations, 0, "{name}: with_capacity(12) solve allocated");
    }

    // Smaller problems (and the trivial case) reuse the larger buffers.
    let (m, q) = box_like();
    let mut ws = LemkeWorkspace::new();
    ws.solve(Lcp::new(m.as_flattened().to_vec(), q.to_vec()).unwrap().view(), &settings).unwrap();
    let small_m = [4.0, 1.0, 1.0, 1.0, 3.0, 0.0, 1.0, 0.0, 2.0];
    let small_q = [-1.0, 2.0, -3.0];
    let small = Lcp::new(small_m.to_vec(), small_q.to_vec()).unwrap();
    let (report, allocations) = count(|| ws.solve(small.view(), &settings).unwrap());
    assert_eq!(report.status, LcpStatus::Solved);
    assert_eq!(allocations, 0, "smaller re-solve allocated");
    let trivial = Lcp::new(small_m.to_vec(), vec![1.0, 0.0, 2.0]).unwrap();
    let (report, allocations) = count(|| ws.solve(trivial.view(), &settings).unwrap());
    assert_eq!((report.status, allocations), (LcpStatus::Trivial, 0));
    let (fixed, allocations) =
        count(|| solve_lemke_fixed(&[[2.0, 1.0], [1.0, 2.0]], &[-1.0, -1.0], &settings).unwrap());
    assert_eq!((fixed.status, allocations), (LcpStatus::Solved, 0));
    assert_eq!(fixed.z, [1.0 / 3.0, 1.0 / 3.0]);
}

#[test]
fn the_counter_sees_allocations() {
    let (v, allocations) = count(|| vec![1u8; 10]);
    assert_eq!(v.len(), 10);
    assert!(allocations >= 1);
}
