//! The f64 3D box–box and triangle–box paths allocate nothing when the first computation is
//! certified (the specialized solvers, and `solve_lemke_fixed::<f64, 12>`).
//!
//! `unsafe` is needed only for the counting global allocator of this test binary.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use proxima_geom::lcp_queries::{
    AlignedBox3, BoxN, CertifySettings, KernelPath, box_box_distance_f64, box_box_distance_f64_lcp,
    triangle_aligned_box_distance_f64, triangle_box_distance_f64,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

struct Counting;

thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

// Forwards to the system allocator and counts calls on armed threads.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ARMED.with(Cell::get) {
            COUNT.with(|c| c.set(c.get() + 1));
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn count<R>(f: impl FnOnce() -> R) -> (R, usize) {
    COUNT.with(|c| c.set(0));
    ARMED.with(|a| a.set(true));
    let r = f();
    ARMED.with(|a| a.set(false));
    (r, COUNT.with(Cell::get))
}

#[test]
fn box_box_f64_paths_do_not_allocate() {
    let mut rng = SmallRng::seed_from_u64(77);
    let settings = CertifySettings::default();
    let (mut fast, mut lcp) = (0, 0);
    for i in 0..200 {
        let spread = [1.0, 3.0, 6.0][i % 3];
        let angle: f64 = rng.random_range(0.0..std::f64::consts::TAU);
        let (s, c) = angle.sin_cos();
        let mut mk = |axes| BoxN {
            center: core::array::from_fn(|_| rng.random_range(-spread..spread)),
            axes,
            half_extents: core::array::from_fn(|_| rng.random_range(0.1..2.0)),
        };
        let a = mk([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]]);
        let b = mk([[1.0, 0.0, 0.0], [0.0, c, s], [0.0, -s, c]]);
        let (out, n) = count(|| box_box_distance_f64(&a, &b, &settings).unwrap());
        if out.path == KernelPath::FastPath {
            assert_eq!(n, 0, "fast path allocated");
            fast += 1;
        }
        let (out, n) = count(|| box_box_distance_f64_lcp(&a, &b, &settings).unwrap());
        if out.path == KernelPath::FloatCertified {
            assert_eq!(n, 0, "fixed-size LCP path allocated");
            lcp += 1;
        }
    }
    assert!(fast > 150 && lcp > 150, "fast {fast}, lcp {lcp}");
}

#[test]
fn triangle_box_f64_paths_do_not_allocate() {
    let mut rng = SmallRng::seed_from_u64(78);
    let settings = CertifySettings::default();
    let (mut oriented, mut aligned) = (0, 0);
    for i in 0..200 {
        let spread = [1.0, 3.0, 6.0][i % 3];
        let c: [f64; 3] = core::array::from_fn(|_| rng.random_range(-spread..spread));
        let tri: [[f64; 3]; 3] =
            core::array::from_fn(|_| core::array::from_fn(|k| c[k] + rng.random_range(-1.5..1.5)));
        let angle: f64 = rng.random_range(0.0..std::f64::consts::TAU);
        let (s, co) = angle.sin_cos();
        let b = BoxN {
            center: core::array::from_fn(|_| rng.random_range(-spread..spread)),
            axes: [[co, s, 0.0], [-s, co, 0.0], [0.0, 0.0, 1.0]],
            half_extents: core::array::from_fn(|_| rng.random_range(0.1..2.0)),
        };
        let (out, n) = count(|| triangle_box_distance_f64(&tri, &b, &settings));
        let Ok(out) = out else { continue };
        if out.path == KernelPath::FastPath || out.path == KernelPath::FloatCertified {
            assert_eq!(n, 0, "triangle-box f64 path {:?} allocated", out.path);
            oriented += 1;
        }
        let ab = AlignedBox3 {
            min: core::array::from_fn(|k| b.center[k] - b.half_extents[k]),
            max: core::array::from_fn(|k| b.center[k] + b.half_extents[k]),
        };
        let (out, n) = count(|| triangle_aligned_box_distance_f64(&tri, &ab, &settings));
        let Ok(out) = out else { continue };
        if out.path == KernelPath::FastPath || out.path == KernelPath::FloatCertified {
            assert_eq!(n, 0, "triangle-aligned box f64 path {:?} allocated", out.path);
            aligned += 1;
        }
    }
    assert!(oriented > 150 && aligned > 150, "oriented {oriented}, aligned {aligned}");
}
