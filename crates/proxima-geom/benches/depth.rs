//! Penetration depth of overlapping curved pairs and of box pairs, cold and tracked through
//! contact: ours (`signed_distance`, a 1e-10 × size bracket; box–box by separating axes,
//! `distance/box_box_depth.rs`) beside parry3d-f64's `query::contact` (EPA at parry's own
//! tolerance, its own box–box contact; parry has no ellipsoid, so only the cylinder and box
//! pairs) on the same shapes and poses.
//!
//! ```text
//! cargo bench -p proxima-geom --bench depth
//! ```
//!
//! Pairs: 256 overlapping placements per family (B's support plane pushed into A's along a
//! random direction by 5–50 % of their extents, kept when our signed distance is below −1e-3).
//! One benchmark iteration is one pass over a family; divan's item throughput gives the time per
//! query. `track_contact` / `track_apart`: 64 tracks of 32 small steps (rotations of 0.01 rad
//! per step) of each pair a user tracks through contact (cylinder–ellipsoid, box–box, two
//! 24-vertex hulls, capsule–box with the core segment in the box, cylinder–box,
//! ellipsoid–hull), overlapping by 0.1–0.3 at every step or 0.05–0.2 apart, through
//! `distance_tracked` (one cache per track): the warm step in contact against the warm step
//! apart (the first, cold step of each track is not timed). `ours_forced_gjk`: two ellipsoids
//! through the GJK/EPA route that `Auto` replaces by Newton from the centre direction
//! (`query/signed.rs`). Before timing, `main` prints the largest |ours − parry| depth per
//! family.

use std::hint::black_box;
use std::sync::OnceLock;

use divan::Bencher;
use divan::counter::ItemsCount;
use nalgebra::{Matrix3, Rotation3, UnitQuaternion, Vector3};
use parry3d_f64::math::{Pose as PPose, Rotation as PRotation, Vector as PVector};
use parry3d_f64::shape::{Cuboid as PCuboid, Cylinder as PCylinder, SharedShape};
use proxima_geom::shape::{Cuboid, Cylinder, Ellipsoid};
use proxima_geom::{GjkCache, Pose, QuerySettings, Shape, distance_tracked, signed_distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[path = "../tests/support/tracked_shapes.rs"]
mod tracked_shapes;
use tracked_shapes::tracked_shape;

const PAIRS: usize = 256;
const FAMILIES: &[&str] = &["cyl_cyl", "box_cyl", "cyl_ell", "box_ell", "box_box", "ell_ell"];

struct Pair {
    a: Shape,
    b: Shape,
    pa: Pose,
    pb: Pose,
    /// parry's shapes and poses (cylinder axis y: a fixed local rotation y → z).
    parry: Option<(SharedShape, PPose, SharedShape, PPose)>,
}

fn rotation(rng: &mut SmallRng) -> Matrix3<f64> {
    let v =
        Vector3::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0));
    *Rotation3::new(v).matrix()
}

fn parry_pose(p: &Pose, y_to_z: bool) -> PPose {
    let mut r: Matrix3<f64> = *p.rotation();
    if y_to_z {
        r *= Rotation3::from_axis_angle(&Vector3::x_axis(), std::f64::consts::FRAC_PI_2).matrix();
    }
    let q = UnitQuaternion::from_matrix(&r);
    let t = p.translation();
    PPose::from_parts(PVector::new(t.x, t.y, t.z), PRotation::from_xyzw(q.i, q.j, q.k, q.w))
}

/// A family's shape (ours and, when parry has it, parry's) from the random stream.
fn shape(kind: &str, rng: &mut SmallRng) -> (Shape, Option<(SharedShape, bool)>) {
    match kind {
        "cyl" => {
            let (r, h) = (rng.random_range(0.2..1.0), rng.random_range(0.2..1.5));
            (
                Shape::Cylinder(Cylinder::new(r, h).unwrap()),
                Some((SharedShape::new(PCylinder::new(h, r)), true)),
            )
        }
        "box" => {
            let e = [rng.random_range(0.2..1.2), rng.random_range(0.2..1.2), rng.random_range(0.2..1.2)];
            let p = PCuboid::new(PVector::new(e[0], e[1], e[2]));
            (Shape::Cuboid(Cuboid::new(e).unwrap()), Some((SharedShape::new(p), false)))
        }
        _ => {
            let r = [rng.random_range(0.3..1.5), rng.random_range(0.3..1.5), rng.random_range(0.3..1.5)];
            (Shape::Ellipsoid(Ellipsoid::new(r).unwrap()), None)
        }
    }
}

fn family(name: &str) -> &'static [Pair] {
    static CELLS: OnceLock<Vec<Vec<Pair>>> = OnceLock::new();
    let all = CELLS.get_or_init(|| {
        FAMILIES
            .iter()
            .enumerate()
            .map(|(k, fam)| {
                let (ka, kb) = fam.split_once('_').unwrap();
                let mut rng = SmallRng::seed_from_u64(17 + k as u64);
                let mut pairs = Vec::new();
                while pairs.len() < PAIRS {
                    let (a, qa) = shape(ka, &mut rng);
                    let (b, qb) = shape(kb, &mut rng);
                    let pa = Pose::from_matrix(rotation(&mut rng), Vector3::new(0.1, -0.2, 0.3)).unwrap();
                    let rb = rotation(&mut rng);
                    let d = Vector3::new(
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                    );
                    let Some(d) = d.try_normalize(1e-3) else { continue };
                    let pb0 = Pose::from_matrix(rb, Vector3::zeros()).unwrap();
                    let ha = a.support_value(&pa, &d) - d.dot(pa.translation());
                    let hb = b.support_value(&pb0, &-d);
                    let along = (ha + hb) * (1.0 - rng.random_range(0.05..0.5));
                    let pb = Pose::from_matrix(rb, pa.translation() + d * along).unwrap();
                    let s = QuerySettings::default();
                    if signed_distance(&a, &pa, &b, &pb, &s).map(|sd| sd.value).unwrap_or(0.0) > -1e-3 {
                        continue;
                    }
                    let parry = match (qa, qb) {
                        (Some((ga, ya)), Some((gb, yb))) => {
                            Some((ga, parry_pose(&pa, ya), gb, parry_pose(&pb, yb)))
                        }
                        _ => None,
                    };
                    pairs.push(Pair { a, b, pa, pb, parry });
                }
                pairs
            })
            .collect()
    });
    &all[FAMILIES.iter().position(|f| *f == name).unwrap()]
}

fn main() {
    for fam in FAMILIES {
        let pairs = family(fam);
        let mut worst: Option<f64> = None;
        for p in pairs {
            let ours = signed_distance(&p.a, &p.pa, &p.b, &p.pb, &QuerySettings::default()).unwrap();
            if let Some((ga, pa, gb, pb)) = &p.parry
                && let Ok(Some(c)) = parry3d_f64::query::contact(pa, ga.as_ref(), pb, gb.as_ref(), 0.0)
            {
                worst = Some(worst.unwrap_or(0.0).max((c.dist - ours.value).abs()));
            }
        }
        match worst {
            Some(w) => println!("{fam}: largest |ours − parry| depth {w:.2e}"),
            None => println!("{fam}: no parry shape (ellipsoid)"),
        }
    }
    divan::main();
}

#[divan::bench(args = FAMILIES)]
fn ours(bencher: Bencher, name: &str) {
    let pairs = family(name);
    let s = QuerySettings::default();
    bencher.counter(ItemsCount::new(pairs.len())).bench(|| {
        for p in pairs {
            black_box(signed_distance(&p.a, &p.pa, &p.b, &p.pb, &s).unwrap());
        }
    });
}

/// Ours with the algorithm forced to GJK: for two ellipsoids, the GJK/EPA route (EPA with the
/// Newton finish) that `Auto` replaces by Newton from the centre direction.
#[divan::bench(args = ["ell_ell"])]
fn ours_forced_gjk(bencher: Bencher, name: &str) {
    let pairs = family(name);
    let s = QuerySettings::default().with_algorithm(proxima_geom::Algorithm::Gjk);
    bencher.counter(ItemsCount::new(pairs.len())).bench(|| {
        for p in pairs {
            black_box(signed_distance(&p.a, &p.pa, &p.b, &p.pb, &s).unwrap());
        }
    });
}

#[divan::bench(args = ["cyl_cyl", "box_cyl", "box_box"])]
fn parry(bencher: Bencher, name: &str) {
    let pairs = family(name);
    bencher.counter(ItemsCount::new(pairs.len())).bench(|| {
        for p in pairs {
            let (ga, pa, gb, pb) = p.parry.as_ref().unwrap();
            black_box(parry3d_f64::query::contact(pa, ga.as_ref(), pb, gb.as_ref(), 0.0).unwrap());
        }
    });
}

/// Two shapes and their poses per step.
type Track = (Shape, Shape, Vec<(Pose, Pose)>);

/// The pairs a user tracks through contact (`track_contact` / `track_apart` arguments):
/// cylinder–ellipsoid, box–box, two 24-vertex hulls (past the LCP's 16-vertex limit, so GJK/EPA),
/// capsule–box, cylinder–box, ellipsoid–hull.
const TRACKED: &[&str] = &["cyl_ell", "box_box", "hull_hull", "cap_box", "cyl_box", "ell_hull"];

/// 64 tracks of 32 steps of a pair: both shapes turn by about 0.01 rad per step, B placed
/// along a fixed direction overlapping A by 0.1–0.3 (`contact`) or 0.05–0.2 apart.
fn tracks(name: &str, contact: bool) -> &'static [Track] {
    static CELLS: OnceLock<Vec<[Vec<Track>; 2]>> = OnceLock::new();
    let all = CELLS.get_or_init(|| {
        TRACKED
            .iter()
            .enumerate()
            .map(|(i, pair)| {
                let (ka, kb) = pair.split_once('_').unwrap();
                [true, false].map(|contact| {
                    // (cylinder–ellipsoid keeps the seeds of its first version.)
                    let seed = if contact { 5 } else { 6 } + 2 * i as u64;
                    let mut rng = SmallRng::seed_from_u64(seed);
                    (0..64)
                        .map(|_| {
                            let a = tracked_shape(ka, &mut rng);
                            let b = tracked_shape(kb, &mut rng);
                            let (ra, rb) = (rotation(&mut rng), rotation(&mut rng));
                            let (wa, wb) =
                                (Vector3::new(0.01, 0.004, -0.006), Vector3::new(-0.003, 0.008, 0.005));
                            let d =
                                Vector3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), 0.5)
                                    .normalize();
                            // A capsule overlaps by its radius more: its core segment is in
                            // the box (EPA on the cores), not only its rounding.
                            let core = if let Shape::Capsule(c) = &a { c.radius() } else { 0.0 };
                            let gap = if contact {
                                -core - rng.random_range(0.1..0.3)
                            } else {
                                rng.random_range(0.05..0.2)
                            };
                            let steps = (0..32)
                                .map(|k| {
                                    let k = k as f64;
                                    let pa = Pose::from_matrix(
                                        Rotation3::new(wa * k).matrix() * ra,
                                        Vector3::zeros(),
                                    )
                                    .unwrap();
                                    let rbk = Rotation3::new(wb * k).matrix() * rb;
                                    let pb0 = Pose::from_matrix(rbk, Vector3::zeros()).unwrap();
                                    let reach = a.support_value(&pa, &d) + b.support_value(&pb0, &-d);
                                    (pa, Pose::from_matrix(rbk, d * (reach + gap)).unwrap())
                                })
                                .collect();
                            (a, b, steps)
                        })
                        .collect()
                })
            })
            .collect()
    });
    &all[TRACKED.iter().position(|t| *t == name).unwrap()][usize::from(!contact)]
}

/// The warm steps of every track (each track's first, cold step runs untimed, in the inputs).
fn track(bencher: Bencher, name: &str, contact: bool) {
    let ts = tracks(name, contact);
    let s = QuerySettings::default();
    let steps: usize = ts.iter().map(|t| t.2.len() - 1).sum();
    bencher
        .counter(ItemsCount::new(steps))
        .with_inputs(|| {
            ts.iter()
                .map(|(a, b, poses)| {
                    let mut cache = GjkCache::new();
                    distance_tracked(a, &poses[0].0, b, &poses[0].1, &s, &mut cache).unwrap();
                    cache
                })
                .collect::<Vec<_>>()
        })
        .bench_local_values(|mut caches: Vec<GjkCache>| {
            for ((a, b, poses), cache) in ts.iter().zip(caches.iter_mut()) {
                for (pa, pb) in &poses[1..] {
                    black_box(distance_tracked(a, pa, b, pb, &s, cache).unwrap());
                }
            }
            caches
        });
}

#[divan::bench(args = TRACKED)]
fn track_contact(bencher: Bencher, name: &str) {
    track(bencher, name, true);
}

#[divan::bench(args = TRACKED)]
fn track_apart(bencher: Bencher, name: &str) {
    track(bencher, name, false);
}
