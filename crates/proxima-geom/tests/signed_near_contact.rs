//! Signed distance at near contact: overlaps of 1e-9…1e-4 (relative to sizes of order 1) between
//! boxes, convex hulls, capsules and cylinders get a negative signed distance whose proven
//! bracket contains the reference depth, through every route (`Auto` and forced GJK), and small
//! gaps a positive one.
//!
//! References (independent of GJK/EPA):
//! * box–box: the separating-axis depth over the 15 axes (face normals and edge cross products);
//! * a hull, a capsule or a cylinder pushed δ into the top face of a large box, away from its
//!   edges: the depth is δ (any other translation that separates is longer);
//! * two parallel capsules or cylinders side by side overlapping by δ: the depth is δ.

use nalgebra::{Matrix3, Rotation3, Unit, Vector3};
use proptest::prelude::*;
use proxima_geom::shape::{Capsule, ConvexPolytope, Cuboid, Cylinder};
use proxima_geom::{Algorithm, Pose, QuerySettings, Shape, signed_distance};

#[path = "support/box_sat.rs"]
mod box_sat;
use box_sat::box_box_sat_depth;

fn gjk() -> QuerySettings {
    QuerySettings::default().with_algorithm(Algorithm::Gjk)
}

fn settings() -> [QuerySettings; 2] {
    [QuerySettings::default(), gjk()]
}

/// Rounding allowance of a set-up at coordinates ≲ 10: the pose arithmetic and the support
/// functions are exact to a few ulps of 10.
const SETUP: f64 = 64.0 * f64::EPSILON * 10.0;

fn check_overlap(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, depth: f64, label: &str) {
    for s in settings() {
        let sd = signed_distance(a, pa, b, pb, &s).unwrap();
        let c = sd.certificate;
        assert!(
            c.lower <= -depth + SETUP && -depth <= c.upper + SETUP,
            "{label} ({:?}): bracket [{:e}, {:e}] misses −{depth:e}",
            s.algorithm,
            c.lower,
            c.upper
        );
        assert!(c.lower <= sd.value && sd.value <= c.upper, "{label}: value outside its bracket");
        if depth >= 1e-9 {
            // An overlap of 1e-9 is far above EPA's resolution (1e-10 × size): proven.
            assert!(
                c.upper < 0.0 && sd.value < 0.0,
                "{label} ({:?}): overlap {depth:e} not proven: {sd:?}",
                s.algorithm
            );
            // The estimate is within EPA's tolerance of the depth.
            assert!((sd.value + depth).abs() <= 1e-9, "{label}: {} vs −{depth:e}", sd.value);
        }
    }
}

fn check_gap(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, gap: f64, label: &str) {
    for s in settings() {
        let sd = signed_distance(a, pa, b, pb, &s).unwrap();
        let c = sd.certificate;
        assert!(
            c.lower <= gap + SETUP && gap <= c.upper + SETUP,
            "{label}: [{:e}, {:e}] misses {gap:e}",
            c.lower,
            c.upper
        );
        if gap >= 1e-9 {
            assert!(c.lower > 0.0 && sd.value > 0.0, "{label}: gap {gap:e} not proven: {sd:?}");
        }
    }
}

fn rotation(axis: [f64; 3], angle: f64) -> Matrix3<f64> {
    let axis = Vector3::from(axis);
    if axis.norm() < 1e-9 {
        return Matrix3::identity();
    }
    *Rotation3::from_axis_angle(&Unit::new_normalize(axis), angle).matrix()
}

fn table() -> (Shape, Pose) {
    // A 10 × 10 × 1 slab whose top face is z = 0.
    (Shape::Cuboid(Cuboid::new([5.0, 5.0, 0.5]).unwrap()), Pose::from_translation([0.0, 0.0, -0.5]).unwrap())
}

/// Places `shape` (rotation `r`) so that its lowest point is at z = −δ above the table's centre.
fn pushed_into_table(shape: &Shape, r: Matrix3<f64>, delta: f64) -> Pose {
    let probe = Pose::from_matrix(r, Vector3::zeros()).unwrap();
    let low = -shape.support_value(&probe, &-Vector3::z());
    Pose::from_matrix(r, Vector3::new(0.3, -0.2, -delta - low)).unwrap()
}

fn log_overlap() -> impl Strategy<Value = f64> {
    (-9.0f64..-4.0).prop_map(|e| 10f64.powf(e))
}

fn axis() -> impl Strategy<Value = [f64; 3]> {
    prop::array::uniform3(-1.0f64..1.0)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn boxes_overlapping_by_tiny_depths(
        ha in prop::array::uniform3(0.1f64..1.5),
        hb in prop::array::uniform3(0.1f64..1.5),
        ax in axis(), aa in 0.0f64..3.1, bx in axis(), ba in 0.0f64..3.1,
        ea in 0usize..3, eb in 0usize..4, delta in log_overlap(),
    ) {
        let a = Shape::Cuboid(Cuboid::new(ha).unwrap());
        let b = Shape::Cuboid(Cuboid::new(hb).unwrap());
        let pa = Pose::from_matrix(rotation(ax, aa), Vector3::new(0.1, 0.2, -0.3)).unwrap();
        let rb = rotation(bx, ba);
        // B along u with its support plane δ inside A's, u a face normal of A (face contact)
        // or the cross product of an edge of each (edge–edge contact); the SAT depth is the
        // reference (a pair that another axis separates is skipped).
        let (ra, rbm) = (pa.rotation(), rb);
        let u = if eb == 3 {
            ra.column(ea).into_owned()
        } else {
            ra.column(ea).cross(&rbm.column(eb))
        };
        let u = u.try_normalize(1e-3).unwrap_or_else(|| ra.column(ea).into_owned());
        let probe = Pose::from_matrix(rb, Vector3::zeros()).unwrap();
        let reach = a.support_value(&pa, &u) - u.dot(pa.translation()) + b.support_value(&probe, &-u);
        let pb = Pose::from_matrix(rb, pa.translation() + u * (reach - delta)).unwrap();
        let depth = box_box_sat_depth(ha, &pa, hb, &pb);
        prop_assume!(depth > 0.0);
        check_overlap(&a, &pa, &b, &pb, depth, "box–box");
    }

    #[test]
    fn hulls_capsules_cylinders_pushed_into_a_table(kind in 0usize..4, ax in axis(), angle in 0.0f64..3.1, delta in log_overlap()) {
        let (table, pt) = table();
        let hull: Vec<[f64; 3]> = (0..40)
            .map(|k| {
                let t = k as f64 * 2.399963;
                let z = 1.0 - 2.0 * (k as f64 + 0.5) / 40.0;
                let r = (1.0 - z * z).sqrt();
                [0.4 * r * t.cos(), 0.3 * r * t.sin(), 0.5 * z]
            })
            .collect();
        let shape = match kind {
            0 => Shape::ConvexPolytope(ConvexPolytope::hull_of(&hull).unwrap()),
            1 => Shape::Capsule(Capsule::new(0.2, 0.4).unwrap()),
            2 => Shape::Cylinder(Cylinder::new(0.3, 0.4).unwrap()),
            _ => Shape::Cuboid(Cuboid::new([0.3, 0.2, 0.1]).unwrap()),
        };
        let pose = pushed_into_table(&shape, rotation(ax, angle), delta);
        check_overlap(&shape, &pose, &table, &pt, delta, "table");
        // And the same shape lifted clear by δ.
        let up = Pose::from_matrix(*pose.rotation(), pose.translation() + Vector3::z() * (2.0 * delta)).unwrap();
        check_gap(&shape, &up, &table, &pt, delta, "above the table");
    }

    #[test]
    fn parallel_capsules_and_cylinders_side_by_side(cyl in any::<bool>(), ax in axis(), angle in 0.0f64..3.1, delta in log_overlap()) {
        let (r1, r2) = (0.3, 0.45);
        let (a, b) = if cyl {
            (Shape::Cylinder(Cylinder::new(r1, 0.6).unwrap()), Shape::Cylinder(Cylinder::new(r2, 0.8).unwrap()))
        } else {
            (Shape::Capsule(Capsule::new(r1, 0.6).unwrap()), Shape::Capsule(Capsule::new(r2, 0.8).unwrap()))
        };
        // Same axis direction, centres (r1 + r2 − δ) apart perpendicular to it.
        let r = rotation(ax, angle);
        let side = r * Vector3::x();
        let pa = Pose::from_matrix(r, Vector3::new(0.2, 0.1, 0.0)).unwrap();
        let pb = Pose::from_matrix(r, pa.translation() + side * (r1 + r2 - delta)).unwrap();
        check_overlap(&a, &pa, &b, &pb, delta, if cyl { "cylinders" } else { "capsules" });
    }
}
