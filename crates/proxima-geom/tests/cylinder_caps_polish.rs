//! Cylinder pairs whose closest feature is a cap or a rim next to a side: the Newton polish's
//! second start and cap normals (`gjk/polish.rs`, `polish_caps`, `retry_direction`) against
//! independent answers on random placements (`support/random_pose.rs`):
//!
//! * brute force: the cylinder's surface sampled on a grid, each sample's exact distance to
//!   the other shape (a cylinder, capsule or cube: closed-form point distances written out
//!   here, not the library's), the minimum an upper bound of the true distance d within the
//!   grid's spacing. A certified answer has lower ≤ d ≤ min and upper ≤ d + tolerance, so
//!   lower ≤ min and upper ≤ min + tolerance must hold, and min − upper is at most the
//!   sampling error;
//! * the same pair with GJK forced (its own certified bracket): the distances agree to the
//!   tolerance;
//! * hand-made cap placements (a cap under a tilted cylinder's rim, a cap under a polytope's
//!   vertex) with worked distances, at random rigid motions of the scene.

use nalgebra::{Matrix3, Point3, Rotation3, Unit, Vector3};
use proxima_geom::shape::{Capsule, ConvexPolytope, Cylinder};
use proxima_geom::{Algorithm, Pose, QuerySettings, Shape, distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[path = "support/random_pose.rs"]
mod random_pose;

/// The other shape of a pair, with its exact point distance (local frame).
#[derive(Clone, Copy)]
enum Other {
    Cylinder {
        r: f64,
        h: f64,
    },
    Capsule {
        r: f64,
        h: f64,
    },
    /// The cube [−s, s]³ as a vertex polytope.
    Cube {
        s: f64,
    },
}

impl Other {
    fn shape(self) -> Shape {
        match self {
            Other::Cylinder { r, h } => Shape::Cylinder(Cylinder::new(r, h).unwrap()),
            Other::Capsule { r, h } => Shape::Capsule(Capsule::new(r, h).unwrap()),
            Other::Cube { s } => {
                let v: Vec<[f64; 3]> =
                    (0..8).map(|k| [0, 1, 2].map(|bit| if k >> bit & 1 == 0 { -s } else { s })).collect();
                Shape::ConvexPolytope(ConvexPolytope::new(v).unwrap())
            }
        }
    }

    /// Distance from the local point `p` to the shape (0 inside).
    fn point_distance(self, p: &Point3<f64>) -> f64 {
        match self {
            Other::Cylinder { r, h } => {
                let radial = ((p.x * p.x + p.y * p.y).sqrt() - r).max(0.0);
                let axial = (p.z.abs() - h).max(0.0);
                (radial * radial + axial * axial).sqrt()
            }
            Other::Capsule { r, h } => {
                let z = p.z.clamp(-h, h);
                ((p.x * p.x + p.y * p.y + (p.z - z) * (p.z - z)).sqrt() - r).max(0.0)
            }
            Other::Cube { s } => {
                let e = p.coords.map(|x| (x.abs() - s).max(0.0));
                e.norm()
            }
        }
    }
}

/// Points on the surface of the cylinder (radius r, half height h) placed by `pose`: the side
/// on a (θ, z) grid and both caps on polar grids; spacing ≤ max(2πr/96, 2h/48, r/24).
fn cylinder_surface(r: f64, h: f64, pose: &Pose) -> Vec<Point3<f64>> {
    let mut out = Vec::new();
    let turns = 96;
    for i in 0..turns {
        let t = std::f64::consts::TAU * i as f64 / turns as f64;
        let (c, s) = (t.cos(), t.sin());
        for k in 0..=48 {
            let z = -h + 2.0 * h * k as f64 / 48.0;
            out.push(Point3::new(r * c, r * s, z));
        }
        for k in 0..24 {
            let rho = r * k as f64 / 24.0;
            out.push(Point3::new(rho * c, rho * s, h));
            out.push(Point3::new(rho * c, rho * s, -h));
        }
    }
    out.iter().map(|p| pose.transform_point(p)).collect()
}

/// The smallest sampled distance from cylinder A to `other` (placed by `pb`).
fn sampled_distance(r: f64, h: f64, pa: &Pose, other: Other, pb: &Pose) -> f64 {
    cylinder_surface(r, h, pa)
        .iter()
        .map(|p| other.point_distance(&pb.inverse_transform_point(p)))
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn random_cylinder_pairs_agree_with_brute_force_and_forced_gjk() {
    let mut rng = SmallRng::seed_from_u64(23);
    let auto = QuerySettings::default();
    let gjk = QuerySettings::default().with_algorithm(Algorithm::Gjk);
    let mut checked = 0;
    for k in 0..360 {
        let (r, h) = (rng.random_range(0.1..1.0), rng.random_range(0.1..2.0));
        let other = match k % 3 {
            0 => Other::Cylinder { r: rng.random_range(0.1..1.0), h: rng.random_range(0.1..2.0) },
            1 => Other::Capsule { r: rng.random_range(0.1..1.0), h: rng.random_range(0.1..2.0) },
            _ => Other::Cube { s: rng.random_range(0.2..1.0) },
        };
        let (pa, pb) = (random_pose::pose(&mut rng, 3.0), random_pose::pose(&mut rng, 3.0));
        let a = Shape::Cylinder(Cylinder::new(r, h).unwrap());
        let b = other.shape();
        let sampled = sampled_distance(r, h, &pa, other, &pb);
        if sampled < 0.05 {
            // Overlapping or nearly so: the depth is EPA's, not the polish's.
            continue;
        }
        let got = distance(&a, &pa, &b, &pb, &auto).unwrap();
        let forced = distance(&a, &pa, &b, &pb, &gjk).unwrap();
        let c = got.certificate;
        // The scale of the problem is a few units: GJK's relative tolerance 1e-10 of it, and
        // the rounding of the poses (a few ulps of coordinates ≤ ~10).
        let tol = 1e-9;
        assert!(c.upper - c.lower <= tol, "pair {k}: bracket [{}, {}]", c.lower, c.upper);
        assert!(c.lower <= sampled + 1e-12, "pair {k}: lower {} above the sampled {sampled}", c.lower);
        assert!(c.upper <= sampled + tol, "pair {k}: upper {} above the sampled {sampled}", c.upper);
        // The grid's spacing (≤ 2π/96 on the side, 2·2/48 axially, 1/24 radially on the caps)
        // bounds how far its minimum lies above the true distance.
        assert!(sampled - c.upper <= 0.1, "pair {k}: sampled {sampled} far above {}", c.upper);
        assert!(
            (got.distance() - forced.distance()).abs() <= tol,
            "pair {k}: auto {} vs forced GJK {}",
            got.distance(),
            forced.distance()
        );
        checked += 1;
    }
    assert!(checked > 250, "pairs checked: {checked}");
}

fn about(axis: Vector3<f64>, angle: f64) -> Matrix3<f64> {
    *Rotation3::from_axis_angle(&Unit::new_normalize(axis), angle).matrix()
}

fn at(r: Matrix3<f64>, t: [f64; 3]) -> Pose {
    Pose::from_matrix(r, Vector3::from(t)).unwrap()
}

#[test]
fn cap_placements_match_their_worked_distances() {
    let id = Matrix3::identity();
    let cylinder = |r: f64, h: f64| Shape::Cylinder(Cylinder::new(r, h).unwrap());
    // B tilted by 0.6 rad about x, its axis (0, −sin 0.6, cos 0.6): its lowest point is on its
    // bottom rim.
    let tilt = 0.6f64;
    let (rb, hb) = (0.5f64, 0.4f64);
    // The lowest point of B (centre at height c) is at c − hb cos(tilt) − rb sin(tilt), over
    // A's top cap (radius 1, height 1) near its axis: distance c − hb cos − rb sin − 1.
    let c = 2.5;
    let cap_rim = c - hb * tilt.cos() - rb * tilt.sin() - 1.0;
    let cube = Other::Cube { s: 0.5 }.shape();
    let cases: Vec<(&str, Shape, Pose, Shape, Pose, f64)> = vec![
        (
            "cap-rim",
            cylinder(1.0, 1.0),
            at(id, [0.0; 3]),
            cylinder(rb, hb),
            at(about(Vector3::x(), tilt), [0.1, 0.0, c]),
            cap_rim,
        ),
        // The cube stood on a vertex ((1, 1, 1)/√3 · √3·0.5 = 0.5·√3 below its centre) over
        // a cylinder's top cap (height 0.3): the vertex at height 2 − 0.5√3.
        (
            "cap-vertex",
            cylinder(0.8, 0.3),
            at(id, [0.0; 3]),
            cube,
            at(
                *Rotation3::rotation_between(&Vector3::new(-1.0, -1.0, -1.0), &Vector3::new(0.0, 0.0, -1.0))
                    .unwrap()
                    .matrix(),
                [0.2, -0.1, 2.0],
            ),
            2.0 - 0.5 * 3f64.sqrt() - 0.3,
        ),
    ];
    let mut rng = SmallRng::seed_from_u64(5);
    let auto = QuerySettings::default();
    for (name, a, pa, b, pb, truth) in cases {
        for k in 0..24 {
            let m = if k == 0 { Pose::identity() } else { random_pose::pose(&mut rng, 4.0) };
            // The whole scene moved rigidly by m (the distance is invariant).
            let r = distance(&a, &m.compose(&pa), &b, &m.compose(&pb), &auto).unwrap();
            let slack = 1e-12;
            assert!(
                r.certificate.lower <= truth + slack && truth <= r.certificate.upper + slack,
                "{name}/{k}: [{}, {}] misses {truth}",
                r.certificate.lower,
                r.certificate.upper
            );
            assert!((r.distance() - truth).abs() <= 1e-9, "{name}/{k}: {} vs {truth}", r.distance());
        }
    }
}
