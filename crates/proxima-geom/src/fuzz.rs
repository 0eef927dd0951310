//! A fuzzing entry point for the query API: [`fuzz_queries`] decodes two shapes, two poses and
//! settings from arbitrary bytes and checks the answers' invariants, panicking when one fails
//! (the `queries` target of the `fuzz/` crate, and the seeded stand-in test
//! `tests/fuzz_queries.rs`).
//!
//! Checked, for every answer that is not an error (bad input is an error, never a panic), up to
//! 1e-8 × the problem's scale (the shapes' extents plus their distances from the origin: a
//! certificate is proven up to the round-off of f64 at that size):
//! * distance: finite, in its bracket, 0 ≤ lower ≤ upper, finite witnesses;
//! * every pair of algorithms' brackets overlap (each contains the true distance: a lower
//!   bound above another algorithm's upper bound is a certificate that lies);
//! * signed distance: finite, inside its own bracket, and the bracket consistent with the
//!   distance's (a proven separation is not an overlap and vice versa);
//! * `intersects`: a separated verdict only when the distance's upper bound is positive, an
//!   intersecting one only when its lower bound is 0.

use nalgebra::{Quaternion, UnitQuaternion, Vector3};

use crate::pose::Pose;
use crate::query::{Algorithm, Intersection, QuerySettings, distance, intersects, signed_distance};
use crate::shape::{
    AlignedBox, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Point, Rounded, Segment, Shape,
    Sphere, Triangle,
};

/// Bytes → numbers: mostly well-scaled values, sometimes raw doubles (NaN, ∞, huge, tiny).
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }
    /// A value in [−scale, scale] for one of a few scales, or (1 in 16) raw bits.
    fn value(&mut self) -> f64 {
        let mode = self.byte();
        if mode & 0x0f == 0 {
            let bits: [u8; 8] = core::array::from_fn(|_| self.byte());
            return f64::from_le_bytes(bits);
        }
        let scale = [1e-3, 0.1, 1.0, 1.0, 1.0, 10.0, 1e3, 1e-9][(mode >> 5) as usize];
        (self.u16() as f64 / 32767.5 - 1.0) * scale
    }
    fn positive(&mut self) -> f64 {
        self.value().abs()
    }
    fn point(&mut self) -> [f64; 3] {
        [self.value(), self.value(), self.value()]
    }
}

fn shape(b: &mut Bytes<'_>, depth: u32) -> Option<Shape> {
    let kind = b.byte() % if depth == 0 { 13 } else { 12 };
    Some(match kind {
        0 => Shape::Point(Point::new(b.point()).ok()?),
        1 => Shape::Segment(Segment::new(b.point(), b.point()).ok()?),
        2 => Shape::Triangle(Triangle::new(b.point(), b.point(), b.point()).ok()?),
        3 => Shape::Cuboid(Cuboid::new([b.positive(), b.positive(), b.positive()]).ok()?),
        4 => Shape::AlignedBox(AlignedBox::new(b.point(), b.point()).ok()?),
        5 => Shape::Sphere(Sphere::new(b.positive()).ok()?),
        6 => Shape::Capsule(Capsule::new(b.positive(), b.positive()).ok()?),
        7 => Shape::Cylinder(Cylinder::new(b.positive(), b.positive()).ok()?),
        8 => Shape::Ellipsoid(Ellipsoid::new([b.positive(), b.positive(), b.positive()]).ok()?),
        9 => Shape::Cone(Cone::new(b.positive(), b.positive()).ok()?),
        10 => {
            let n = 1 + (b.byte() % 24) as usize;
            let points: Vec<[f64; 3]> = (0..n).map(|_| b.point()).collect();
            if b.byte().is_multiple_of(2) {
                Shape::ConvexPolytope(ConvexPolytope::new(points).ok()?)
            } else {
                Shape::ConvexPolytope(ConvexPolytope::hull_of(&points).ok()?)
            }
        }
        11 => {
            let n = 4 + (b.byte() % 8) as usize;
            let hs: Vec<([f64; 3], f64)> = (0..n).map(|_| (b.point(), b.value())).collect();
            Shape::Polyhedron(crate::shape::Polyhedron::new(hs).ok()?)
        }
        _ => Shape::Rounded(Rounded::new(shape(b, depth + 1)?, b.positive()).ok()?),
    })
}

fn pose(b: &mut Bytes<'_>) -> Option<Pose> {
    let q = Quaternion::new(b.value(), b.value(), b.value(), b.value());
    let t = b.point();
    if b.byte().is_multiple_of(8) {
        // Raw rows: mostly rejected, which must be an error.
        let rows = [b.point(), b.point(), b.point()];
        return Pose::new(rows, t).ok();
    }
    let r = if q.norm() > 1e-6 && q.norm().is_finite() {
        *UnitQuaternion::from_quaternion(q).to_rotation_matrix().matrix()
    } else {
        nalgebra::Matrix3::identity()
    };
    Pose::from_matrix(r, Vector3::from(t)).ok()
}

/// Decodes two shapes, two poses and a gap tolerance from `data` and checks the query API's
/// invariants (see the module docs); panics when one fails. Inputs that do not decode to valid
/// shapes and poses are ignored (their rejection is the constructors' job, fuzzed alike).
pub fn fuzz_queries(data: &[u8]) {
    let mut b = Bytes { data, at: 0 };
    let (Some(a), Some(pa), Some(s), Some(ps)) =
        (shape(&mut b, 0), pose(&mut b), shape(&mut b, 0), pose(&mut b))
    else {
        return;
    };
    let mut settings = QuerySettings::default();
    if b.byte().is_multiple_of(4) {
        settings.touching_tolerance = b.positive().min(1.0);
    }
    // The problem's scale: certificates are proven up to the round-off of f64 at the size of
    // the coordinates involved (a shape reaching 1e150 leaves no digits for a distance of 8).
    let extent = |sh: &Shape, p: &Pose| sh.local_extent() + p.translation().norm();
    let scale = (extent(&a, &pa) + extent(&s, &ps)).max(1.0);
    // gap_tolerance (1e-9) relative to the scale, with a margin for the scale's estimate.
    let slack = 1e-8 * scale;
    let algorithms = [Algorithm::Auto, Algorithm::Gjk, Algorithm::Lcp, Algorithm::Dqp3, Algorithm::Ellipsoid];
    let mut brackets: Vec<(Algorithm, f64, f64)> = Vec::new();
    for alg in algorithms {
        settings.algorithm = alg;
        let Ok(r) = distance(&a, &pa, &s, &ps, &settings) else { continue };
        let (c, d) = (r.certificate, r.distance());
        assert!(d.is_finite() && c.lower.is_finite() && c.upper.is_finite(), "{alg:?}: non-finite {r:?}");
        assert!(0.0 <= c.lower && c.lower <= c.upper + slack, "{alg:?}: bracket {c:?}");
        assert!(d == 0.0 || (c.lower <= d + slack && d <= c.upper), "{alg:?}: {d} outside {c:?}");
        if let Some((wa, wb)) = r.witnesses() {
            assert!(wa.iter().chain(wb.iter()).all(|x| x.is_finite()), "{alg:?}: witnesses {wa} {wb}");
        }
        brackets.push((alg, c.lower, c.upper));
    }
    // Brackets from independent algorithms overlap, to that accuracy.
    for (x, lo, hi) in &brackets {
        for (y, lo2, hi2) in &brackets {
            assert!(*lo <= hi2 + slack && *lo2 <= hi + slack, "{x:?} [{lo}, {hi}] vs {y:?} [{lo2}, {hi2}]");
        }
    }
    settings.algorithm = Algorithm::Auto;
    let reference = brackets.iter().find(|(alg, _, _)| *alg == Algorithm::Auto).map(|&(_, lo, hi)| (lo, hi));
    if let Ok(sd) = signed_distance(&a, &pa, &s, &ps, &settings) {
        let c = sd.certificate;
        assert!(sd.value.is_finite() && c.lower.is_finite() && c.upper.is_finite(), "signed: {sd:?}");
        assert!(c.lower <= sd.value && sd.value <= c.upper, "signed: {sd:?}");
        if let Some((lo, hi)) = reference {
            // A proven distance is the signed distance; a proven overlap has distance 0.
            assert!(!(lo > slack && c.upper < 0.0), "signed overlap {c:?} but distance ≥ {lo}");
            assert!(!(hi == 0.0 && c.lower > slack), "signed gap {c:?} but distance 0");
        }
    }
    if let (Ok(i), Some((lo, hi))) = (intersects(&a, &pa, &s, &ps, &settings), reference) {
        match i {
            Intersection::Separated { .. } => assert!(hi > 0.0, "separated but distance 0"),
            Intersection::Intersecting { .. } => {
                assert!(lo <= slack + settings.touching_tolerance, "intersecting but distance ≥ {lo}")
            }
            Intersection::Undecided { .. } => {}
        }
    }
}
