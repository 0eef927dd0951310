//! ci-run: cyl_box contact
//!
//! Harness: the depth bench's tracking-through-contact tracks (`benches/depth.rs`,
//! `track_contact` / `track_apart`), each warm step run once, for instruction counts under
//! callgrind and for field-by-field answer comparison before/after a change.
//!
//! ```text
//! cargo build --release -p proxima-geom --example harness_contact_tracks
//! valgrind --tool=callgrind --toggle-collect='*warm_steps*' \
//!     target/release/examples/harness_contact_tracks cyl_box contact
//! target/release/examples/harness_contact_tracks all dump > answers.txt
//! ```
//!
//! Arguments: a pair (`cyl_ell`, `box_box`, `hull_hull`, `cap_box`, `cyl_box`, `ell_hull`) or
//! `all`, then `contact`, `apart` or `dump` (both sides, every warm answer printed with its
//! Debug text, every float in round-trip form), then optionally a number of timed rounds: each
//! round runs every warm step again from fresh caches (their cold steps untimed) and the
//! median nanoseconds per warm step over the rounds is printed. The warm steps of one (pair, side) run inside `warm_steps`, so callgrind's inclusive
//! count of that function divided by the printed step count is the cost per warm step.

use std::hint::black_box;

use nalgebra::{Matrix3, Rotation3, Vector3};
use proxima_geom::{GjkCache, Pose, QuerySettings, Shape, distance_tracked};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[path = "../tests/support/tracked_shapes.rs"]
mod tracked_shapes;
use tracked_shapes::tracked_shape;

/// The pairs of the depth bench's tracks, in its order (its seeds depend on the index).
const TRACKED: &[&str] = &["cyl_ell", "box_box", "hull_hull", "cap_box", "cyl_box", "ell_hull"];

/// Two shapes and their poses per step.
type Track = (Shape, Shape, Vec<(Pose, Pose)>);

fn rotation(rng: &mut SmallRng) -> Matrix3<f64> {
    let v =
        Vector3::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0));
    *Rotation3::new(v).matrix()
}

/// The bench's 64 tracks of 32 steps of pair `index` (same seeds, same stream).
fn tracks(index: usize, contact: bool) -> Vec<Track> {
    let (ka, kb) = TRACKED[index].split_once('_').unwrap();
    let seed = if contact { 5 } else { 6 } + 2 * index as u64;
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..64)
        .map(|_| {
            let a = tracked_shape(ka, &mut rng);
            let b = tracked_shape(kb, &mut rng);
            let (ra, rb) = (rotation(&mut rng), rotation(&mut rng));
            let (wa, wb) = (Vector3::new(0.01, 0.004, -0.006), Vector3::new(-0.003, 0.008, 0.005));
            let d = Vector3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), 0.5).normalize();
            let core = if let Shape::Capsule(c) = &a { c.radius() } else { 0.0 };
            let gap = if contact { -core - rng.random_range(0.1..0.3) } else { rng.random_range(0.05..0.2) };
            let steps = (0..32)
                .map(|k| {
                    let k = k as f64;
                    let pa =
                        Pose::from_matrix(Rotation3::new(wa * k).matrix() * ra, Vector3::zeros()).unwrap();
                    let rbk = Rotation3::new(wb * k).matrix() * rb;
                    let pb0 = Pose::from_matrix(rbk, Vector3::zeros()).unwrap();
                    let reach = a.support_value(&pa, &d) + b.support_value(&pb0, &-d);
                    (pa, Pose::from_matrix(rbk, d * (reach + gap)).unwrap())
                })
                .collect();
            (a, b, steps)
        })
        .collect()
}

/// Every track's warm steps (its first, cold step already in its cache); the answers' values
/// and brackets when `keep` is set.
#[inline(never)]
fn warm_steps(ts: &[Track], caches: &mut [GjkCache], keep: bool) -> Vec<String> {
    let s = QuerySettings::default();
    let mut out = Vec::new();
    for ((a, b, poses), cache) in ts.iter().zip(caches.iter_mut()) {
        for (pa, pb) in &poses[1..] {
            let d = black_box(distance_tracked(a, pa, b, pb, &s, cache).unwrap());
            if keep {
                // Debug prints every f64 in its shortest round-trip form: equal text, equal bits.
                out.push(format!("{d:?}"));
            }
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map(String::as_str).unwrap_or("all");
    let mode = args.get(2).map(String::as_str).unwrap_or("dump");
    let sides: &[bool] = match mode {
        "contact" => &[true],
        "apart" => &[false],
        _ => &[true, false],
    };
    let rounds: usize = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(0);
    let s = QuerySettings::default();
    for (index, name) in TRACKED.iter().enumerate() {
        if which != "all" && which != *name {
            continue;
        }
        for &contact in sides {
            let ts = tracks(index, contact);
            let cold = || -> Vec<GjkCache> {
                ts.iter()
                    .map(|(a, b, poses)| {
                        let mut cache = GjkCache::new();
                        distance_tracked(a, &poses[0].0, b, &poses[0].1, &s, &mut cache).unwrap();
                        cache
                    })
                    .collect()
            };
            let mut caches = cold();
            let out = warm_steps(&ts, &mut caches, mode == "dump");
            let side = if contact { "contact" } else { "apart" };
            let steps: usize = ts.iter().map(|t| t.2.len() - 1).sum();
            println!("{name} {side}: {steps} warm steps");
            if rounds > 0 {
                let mut ns: Vec<f64> = (0..rounds)
                    .map(|_| {
                        let mut caches = cold();
                        let t = std::time::Instant::now();
                        black_box(warm_steps(&ts, &mut caches, false));
                        t.elapsed().as_nanos() as f64 / steps as f64
                    })
                    .collect();
                ns.sort_by(f64::total_cmp);
                println!("{name} {side}: median {:.0} ns per warm step over {rounds} rounds", ns[rounds / 2]);
            }
            for (k, answer) in out.iter().enumerate() {
                println!("{name} {side} {k} {answer}");
            }
        }
    }
}
