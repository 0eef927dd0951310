//! Box–box and triangle–box distance: ours (`proxima_geom::distance` and the direct `f64`
//! kernels of `lcp_queries`) against parry3d-f64 (`parry3d_f64::query::distance`), on the same
//! random pairs.
//!
//! ```text
//! cargo bench -p proxima-geom --bench vs_parry
//! ```
//!
//! Each benchmark runs one pass over all `PAIRS` pairs; divan's time divided by `PAIRS` (the
//! item throughput it prints) is the time per query. Before the timings, `main` checks that
//! the three implementations agree on every pair and prints the largest difference.

use std::hint::black_box;
use std::sync::OnceLock;

use divan::Bencher;
use divan::counter::ItemsCount;
use parry3d_f64::math::{Pose as PPose, Rotation as PRotation, Vector as PVector};
use parry3d_f64::shape::{Cuboid as PCuboid, Triangle as PTriangle};
use proxima_geom::lcp_queries::{BoxN, CertifySettings, box_box_distance_f64, triangle_box_distance_f64};
use proxima_geom::shape::{Cuboid, Triangle};
use proxima_geom::{Pose, QuerySettings, Shape, distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Pairs per benchmark pass.
const PAIRS: usize = 512;

/// A rigid placement in both libraries' types, plus the raw numbers.
struct Placement {
    rows: [[f64; 3]; 3],
    t: [f64; 3],
    ours: Pose,
    parry: PPose,
}

struct BoxPair {
    a: Shape,
    b: Shape,
    pa: Placement,
    pb: Placement,
    ka: BoxN<f64, 3>,
    kb: BoxN<f64, 3>,
    qa: PCuboid,
    qb: PCuboid,
}

struct TriBoxPair {
    tri: Shape,
    b: Shape,
    pt: Placement,
    pb: Placement,
    /// Triangle vertices in the world frame (the kernel's input).
    world_tri: [[f64; 3]; 3],
    kb: BoxN<f64, 3>,
    qt: PTriangle,
    qb: PCuboid,
}

fn placement(rng: &mut SmallRng, spread: f64) -> Placement {
    // A uniformly random unit quaternion (normalized Gaussian-free: rejection in the 4-ball).
    let (x, y, z, w) = loop {
        let q: [f64; 4] = core::array::from_fn(|_| rng.random_range(-1.0..1.0));
        let n2: f64 = q.iter().map(|v| v * v).sum();
        if n2 > 1e-3 && n2 <= 1.0 {
            let n = n2.sqrt();
            break (q[0] / n, q[1] / n, q[2] / n, q[3] / n);
        }
    };
    let rows = [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w)],
        [2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w)],
        [2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y)],
    ];
    let t: [f64; 3] = core::array::from_fn(|_| rng.random_range(-spread..spread));
    let ours = Pose::new(rows, t).expect("a rotation");
    let parry = PPose::from_parts(PVector::new(t[0], t[1], t[2]), PRotation::from_xyzw(x, y, z, w));
    Placement { rows, t, ours, parry }
}

/// The kernel's box: world center and the columns of R as axes.
fn kernel_box(p: &Placement, h: [f64; 3]) -> BoxN<f64, 3> {
    BoxN {
        center: p.t,
        axes: core::array::from_fn(|j| core::array::from_fn(|i| p.rows[i][j])),
        half_extents: h,
    }
}

fn half_extents(rng: &mut SmallRng) -> [f64; 3] {
    core::array::from_fn(|_| rng.random_range(0.1..2.0))
}

fn box_pairs() -> &'static [BoxPair] {
    static PAIRS_CELL: OnceLock<Vec<BoxPair>> = OnceLock::new();
    PAIRS_CELL.get_or_init(|| {
        let mut rng = SmallRng::seed_from_u64(7);
        (0..PAIRS)
            .map(|_| {
                let (ha, hb) = (half_extents(&mut rng), half_extents(&mut rng));
                let (pa, pb) = (placement(&mut rng, 3.0), placement(&mut rng, 3.0));
                BoxPair {
                    a: Shape::Cuboid(Cuboid::new(ha).unwrap()),
                    b: Shape::Cuboid(Cuboid::new(hb).unwrap()),
                    ka: kernel_box(&pa, ha),
                    kb: kernel_box(&pb, hb),
                    qa: PCuboid::new(PVector::new(ha[0], ha[1], ha[2])),
                    qb: PCuboid::new(PVector::new(hb[0], hb[1], hb[2])),
                    pa,
                    pb,
                }
            })
            .collect()
    })
}

fn tri_box_pairs() -> &'static [TriBoxPair] {
    static PAIRS_CELL: OnceLock<Vec<TriBoxPair>> = OnceLock::new();
    PAIRS_CELL.get_or_init(|| {
        let mut rng = SmallRng::seed_from_u64(11);
        (0..PAIRS)
            .map(|_| {
                let v: [[f64; 3]; 3] = loop {
                    let v: [[f64; 3]; 3] =
                        core::array::from_fn(|_| core::array::from_fn(|_| rng.random_range(-1.5..1.5)));
                    if Triangle::new(v[0], v[1], v[2]).is_ok() {
                        break v;
                    }
                };
                let hb = half_extents(&mut rng);
                let (pt, pb) = (placement(&mut rng, 3.0), placement(&mut rng, 3.0));
                let world_tri = v.map(|p| {
                    core::array::from_fn(|i| {
                        pt.rows[i][0] * p[0] + pt.rows[i][1] * p[1] + pt.rows[i][2] * p[2] + pt.t[i]
                    })
                });
                let pv = |p: [f64; 3]| PVector::new(p[0], p[1], p[2]);
                TriBoxPair {
                    tri: Shape::Triangle(Triangle::new(v[0], v[1], v[2]).unwrap()),
                    b: Shape::Cuboid(Cuboid::new(hb).unwrap()),
                    world_tri,
                    kb: kernel_box(&pb, hb),
                    qt: PTriangle::new(pv(v[0]), pv(v[1]), pv(v[2])),
                    qb: PCuboid::new(pv(hb)),
                    pt,
                    pb,
                }
            })
            .collect()
    })
}

/// Whether `proxima_geom::distance` answers these pairs (it is filled in pair by pair).
fn api_available(which: &str) -> bool {
    static BOX: OnceLock<bool> = OnceLock::new();
    static TRI: OnceLock<bool> = OnceLock::new();
    let s = QuerySettings::default();
    let probe = || -> bool {
        std::panic::catch_unwind(|| match which {
            "box" => box_pairs().iter().all(|p| distance(&p.a, &p.pa.ours, &p.b, &p.pb.ours, &s).is_ok()),
            _ => tri_box_pairs().iter().all(|p| distance(&p.tri, &p.pt.ours, &p.b, &p.pb.ours, &s).is_ok()),
        })
        .unwrap_or(false)
    };
    *if which == "box" { &BOX } else { &TRI }.get_or_init(probe)
}

fn check_agreement() {
    let s = QuerySettings::default();
    let cs = CertifySettings::default();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let (mut api_vs_parry, mut kernel_vs_parry) = (0.0f64, 0.0f64);
    for p in box_pairs() {
        let d_parry = parry3d_f64::query::distance(&p.pa.parry, &p.qa, &p.pb.parry, &p.qb).unwrap().distance;
        let d_kernel = box_box_distance_f64(&p.ka, &p.kb, &cs).unwrap().distance_f64();
        kernel_vs_parry = kernel_vs_parry.max((d_kernel - d_parry).abs());
        if api_available("box") {
            let d = distance(&p.a, &p.pa.ours, &p.b, &p.pb.ours, &s).unwrap().distance();
            api_vs_parry = api_vs_parry.max((d - d_parry).abs());
        }
    }
    eprintln!(
        "box-box, {PAIRS} pairs: max |kernel - parry| = {kernel_vs_parry:.2e}, max |distance() - parry| = {}",
        if api_available("box") {
            format!("{api_vs_parry:.2e}")
        } else {
            "n/a (distance() unsupported)".into()
        }
    );
    let (mut api_vs_parry, mut kernel_vs_parry) = (0.0f64, 0.0f64);
    for p in tri_box_pairs() {
        let d_parry = parry3d_f64::query::distance(&p.pt.parry, &p.qt, &p.pb.parry, &p.qb).unwrap().distance;
        let d_kernel = triangle_box_distance_f64(&p.world_tri, &p.kb, &cs).unwrap().distance_f64();
        kernel_vs_parry = kernel_vs_parry.max((d_kernel - d_parry).abs());
        if api_available("tri") {
            let d = distance(&p.tri, &p.pt.ours, &p.b, &p.pb.ours, &s).unwrap().distance();
            api_vs_parry = api_vs_parry.max((d - d_parry).abs());
        }
    }
    eprintln!(
        "triangle-box, {PAIRS} pairs: max |kernel - parry| = {kernel_vs_parry:.2e}, max |distance() - parry| = {}",
        if api_available("tri") {
            format!("{api_vs_parry:.2e}")
        } else {
            "n/a (distance() unsupported)".into()
        }
    );
    std::panic::set_hook(hook);
}

fn main() {
    check_agreement();
    divan::main();
}

mod box_box {
    use super::*;

    #[divan::bench]
    fn ours_distance_api(bencher: Bencher) {
        let pairs = box_pairs();
        let s = QuerySettings::default();
        if !api_available("box") {
            eprintln!("skipped: proxima_geom::distance does not answer box-box yet");
            return;
        }
        bencher.counter(ItemsCount::new(PAIRS)).bench(|| {
            for p in pairs {
                black_box(distance(&p.a, &p.pa.ours, &p.b, &p.pb.ours, black_box(&s)).ok());
            }
        });
    }

    #[divan::bench]
    fn ours_fast_kernel(bencher: Bencher) {
        let pairs = box_pairs();
        let cs = CertifySettings::default();
        bencher.counter(ItemsCount::new(PAIRS)).bench(|| {
            for p in pairs {
                black_box(box_box_distance_f64(&p.ka, &p.kb, black_box(&cs)).ok());
            }
        });
    }

    #[divan::bench]
    fn parry(bencher: Bencher) {
        let pairs = box_pairs();
        bencher.counter(ItemsCount::new(PAIRS)).bench(|| {
            for p in pairs {
                black_box(parry3d_f64::query::distance(&p.pa.parry, &p.qa, &p.pb.parry, &p.qb).ok());
            }
        });
    }
}

mod triangle_box {
    use super::*;

    #[divan::bench]
    fn ours_distance_api(bencher: Bencher) {
        let pairs = tri_box_pairs();
        let s = QuerySettings::default();
        if !api_available("tri") {
            eprintln!("skipped: proxima_geom::distance does not answer triangle-box yet");
            return;
        }
        bencher.counter(ItemsCount::new(PAIRS)).bench(|| {
            for p in pairs {
                black_box(distance(&p.tri, &p.pt.ours, &p.b, &p.pb.ours, black_box(&s)).ok());
            }
        });
    }

    #[divan::bench]
    fn ours_kernel(bencher: Bencher) {
        let pairs = tri_box_pairs();
        let cs = CertifySettings::default();
        bencher.counter(ItemsCount::new(PAIRS)).bench(|| {
            for p in pairs {
                black_box(triangle_box_distance_f64(&p.world_tri, &p.kb, black_box(&cs)).ok());
            }
        });
    }

    #[divan::bench]
    fn parry(bencher: Bencher) {
        let pairs = tri_box_pairs();
        bencher.counter(ItemsCount::new(PAIRS)).bench(|| {
            for p in pairs {
                black_box(parry3d_f64::query::distance(&p.pt.parry, &p.qt, &p.pb.parry, &p.qb).ok());
            }
        });
    }
}
