//! From core witness points to a [`DistanceResult`]: the case analysis (separated, touching,
//! intersecting) and the certificate.
//!
//! # Certificate
//!
//! * **Upper bound**: |p_b − p_a| for the reported witnesses p_a ∈ A, p_b ∈ B.
//! * **Lower bound**: for the unit direction n = (p_b − p_a)/|p_b − p_a|, the separation of the
//!   two shapes along n, −h_B(−n) − h_A(n) = min_{b∈B} n·b − max_{a∈A} n·a, computed from the
//!   support functions of the *whole* shapes (independently of the algorithm that found the
//!   witnesses), clamped at 0, and to `upper` when above it by no more than the accuracy asked
//!   for (`gap_tolerance`; more than that is a contradiction, left for `verify.rs` to refuse).
//!   When a shape is a line, n is first projected orthogonally to the line direction(s) (any
//!   unit direction gives a valid bound; one not perpendicular to a line gives −∞).
//! * Contact (distance 0): lower = upper = 0, with a common point.
//! * Round-off floor: for float LCP paths, core witnesses closer than 64 ulps of their largest
//!   coordinate are treated as contact — a separation that small is below what f64 resolves
//!   (overlapping boxes otherwise come back "separated by 7e-16"). `Arithmetic::Exact`
//!   decides contact exactly.

use nalgebra::{Point3, Vector3};

use super::verify::max_abs;
use super::{Algorithm, Certificate, DistanceResult, Proximity, QueryPath, QuerySettings};
use crate::pose::Pose;
use crate::shape::Shape;

/// What an algorithm found between the *cores* of two shapes (a sphere's centre, a capsule's
/// segment, or the shape itself when it has no radius).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Core {
    /// Closest point on the core of A (world frame).
    pub qa: Point3<f64>,
    /// Closest point on the core of B (world frame).
    pub qb: Point3<f64>,
    /// When the cores meet (qa = qb): the exact penetration depth of the cores, when known
    /// (0 for boundary contact or flat cores), `None` when the algorithm cannot tell.
    pub core_depth: Option<f64>,
    /// A valid lower bound of the core distance already computed by the algorithm (e.g. an
    /// LCP kernel's certificate or GJK's duality gap): used instead of recomputing one when
    /// no radii are added, and as hint − radii otherwise.
    pub lower_hint: Option<f64>,
}

/// Radii added around the cores of A and B (sphere/capsule radius, else 0).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Radii {
    pub a: f64,
    pub b: f64,
}

/// The separation of A and B along the unit `n` (from A towards B):
/// min_{b∈B} n·b − max_{a∈A} n·a = −h_B(−n) − h_A(n), a lower bound of the distance when
/// positive (−∞ along a direction where a line's support is infinite).
pub(crate) fn separation(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, n: &Vector3<f64>) -> f64 {
    -b.support_value(pb, &-n) - a.support_value(pa, n)
}

/// Lower bound of dist(A, B) along `n` (unit), clamped at 0.
pub(crate) fn lower_bound(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, n: &Vector3<f64>) -> f64 {
    let Some(n) = bound_direction(a, pa, b, pb, n) else { return 0.0 };
    let sep = separation(a, pa, b, pb, &n);
    if sep.is_finite() && sep > 0.0 { sep } else { 0.0 }
}

/// The unit direction near `n` (unit) along which the support functions of A and B are
/// finite, used for [`lower_bound`]: `n` itself, or for lines ±(u × v) (two non-parallel
/// lines: the only directions with a finite bound) or `n` with the line directions removed.
/// `None` when nothing of `n` is left.
pub(crate) fn bound_direction(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    n: &Vector3<f64>,
) -> Option<Vector3<f64>> {
    // Without lines (every pair but a handful): `n` itself, before the cross product and its
    // root below (which would give `n` back for these pairs).
    if !matches!(a, Shape::Line(_)) && !matches!(b, Shape::Line(_)) {
        return Some(*n);
    }
    let mut n = *n;
    let line_dir = |s: &Shape, p: &Pose| match s {
        Shape::Line(l) => Some(p.transform_vector(&l.direction())),
        _ => None,
    };
    let lines = [line_dir(a, pa), line_dir(b, pb)];
    let cross = match lines {
        [Some(u), Some(v)] => u.cross(&v),
        _ => Vector3::zeros(),
    };
    if cross.norm() > 1e-12 {
        let m = cross.normalize();
        n = if m.dot(&n) >= 0.0 { m } else { -m };
    } else if lines.iter().any(Option::is_some) {
        for d in lines.iter().flatten() {
            n -= d * d.dot(&n);
        }
        let len = n.norm();
        if len == 0.0 {
            return None;
        }
        n /= len;
    }
    Some(n)
}

/// Face normals and edge directions of a shape in the world frame: the candidate axes that
/// tighten a loose witness-direction bound. `toward`: the direction from this shape towards
/// the other, which picks the curved features' normal: a cone's lateral surface has a circle
/// of normals (2h cos φ, 2h sin φ, r)/√(4h² + r²) (apex at +h, base radius r at −h), and the
/// one at the azimuth φ of `toward` is exact when the closest point is inside a generator.
/// There the cone's support function has a kink (apex and rim point tie), so the witness
/// direction, off by a small angle ε, bounds the distance only to O(ε); the lateral normal at
/// φ is off along the smooth direction of the kink only, and bounds it to O(ε²). A rounded
/// shape has its core's features (the dilation keeps the normals); a Minkowski sum has both
/// summands' features and, as face normals, the cross products of their edges (an edge of
/// one swept along an edge of the other is a face of the sum).
///
/// Each direction is kept once: a box's face normals are its edge directions, and a capsule's
/// or cylinder's axis is both its caps' normal and its generators' direction, so those are in
/// `edges` only (where a Minkowski sum crosses them) and `normals` holds the face normals that
/// are no edge direction. [`FeatureAxes::all`] is then the set of candidate axes without
/// repeats: box–box tries its 3 + 3 + 9 axes instead of 6 + 6 + 36 (the same best separation,
/// a repeated axis giving the same value).
#[derive(Default)]
struct FeatureAxes {
    normals: Vec<Vector3<f64>>,
    edges: Vec<Vector3<f64>>,
}

impl FeatureAxes {
    fn of(shape: &Shape, pose: &Pose, toward: &Vector3<f64>) -> Self {
        let mut f = Self::default();
        f.add(shape, pose, toward);
        f
    }

    fn add(&mut self, shape: &Shape, pose: &Pose, toward: &Vector3<f64>) {
        let r = pose.rotation();
        let axis = |k: usize| -> Vector3<f64> { r.column(k).into() };
        match shape {
            Shape::Cuboid(_) | Shape::AlignedBox(_) => {
                // Face normals and edge directions alike.
                self.edges.extend([axis(0), axis(1), axis(2)]);
            }
            Shape::Triangle(t) => {
                let [v0, v1, v2] = t.vertices();
                let (e0, e1, e2) = (v1 - v0, v2 - v1, v0 - v2);
                self.normals.push(r * e0.cross(&e1));
                self.edges.extend([r * e0, r * e1, r * e2]);
            }
            Shape::Segment(sg) => {
                let [p, q] = sg.endpoints();
                self.edges.push(r * (q - p));
            }
            Shape::Capsule(_) | Shape::Cylinder(_) => {
                // The caps' normal and the generators' direction.
                self.edges.push(axis(2));
            }
            Shape::Cone(c) => {
                let m = r.tr_mul(toward);
                let rho = crate::shape::planar_len(m.x, m.y);
                self.normals.push(axis(2));
                if rho > 0.0 {
                    let (h, rad) = (c.half_height(), c.radius());
                    let (ux, uy) = (m.x / rho, m.y / rho);
                    self.normals.push(r * Vector3::new(2.0 * h * ux, 2.0 * h * uy, rad));
                    // The generator at that azimuth, from the apex to the rim.
                    self.edges.push(r * Vector3::new(rad * ux, rad * uy, -2.0 * h));
                }
            }
            Shape::Rounded(x) => self.add(x.inner(), pose, toward),
            Shape::MinkowskiSum(s) => {
                let ((p, pp), (q, pq)) = (s.first(), s.second());
                let first = Self::of(p, &pose.compose(pp), toward);
                let second = Self::of(q, &pose.compose(pq), toward);
                for u in &first.edges {
                    for v in &second.edges {
                        self.normals.push(u.cross(v));
                    }
                }
                for part in [first, second] {
                    self.normals.extend(part.normals);
                    self.edges.extend(part.edges);
                }
            }
            _ => {}
        }
    }

    /// Every candidate axis (face normals and edge directions, each once).
    fn all(&self) -> impl Iterator<Item = &Vector3<f64>> {
        self.normals.iter().chain(&self.edges)
    }
}

/// The best separation over the SAT-style candidate axes of A and B: their face normals /
/// edge directions and all pairwise cross products, each oriented along `n`. Any unit
/// direction gives a valid lower bound; when the closest features are face–X or edge–edge one
/// of these axes is the exact separating direction, which the witness direction (carrying
/// round-off of order ulp·scale/distance) is not when the distance is tiny.
fn feature_lower_bound(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, n: &Vector3<f64>) -> f64 {
    best_axis_separation(a, pa, b, pb, n, false).max(0.0)
}

/// The largest separation −h_B(−m) − h_A(m) over the candidate axes m of A and B (their face
/// normals / edge directions and all pairwise cross products; see [`FeatureAxes`]), each oriented
/// along `n` — or, with `both_ways`, tried in both orientations (for overlapping shapes, where
/// the separation is negative and the best axis may point either way). −∞ without axes (lines,
/// polytopes known only by vertices). A lower bound of the *signed* distance: for every unit m,
/// sd ≥ −h_B(−m) − h_A(m).
pub(crate) fn best_axis_separation(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    n: &Vector3<f64>,
    both_ways: bool,
) -> f64 {
    if matches!(a, Shape::Line(_)) || matches!(b, Shape::Line(_)) {
        return f64::NEG_INFINITY;
    }
    let fa = FeatureAxes::of(a, pa, n);
    let fb = FeatureAxes::of(b, pb, &-n);
    let mut best = f64::NEG_INFINITY;
    let mut try_axis = |axis: Vector3<f64>| {
        let len = axis.norm();
        if len.is_nan() || len <= 1e-12 {
            return;
        }
        let mut m = axis / len;
        if m.dot(n) < 0.0 {
            m = -m;
        }
        for m in [m, -m].into_iter().take(if both_ways { 2 } else { 1 }) {
            let sep = separation(a, pa, b, pb, &m);
            if sep.is_finite() && sep > best {
                best = sep;
            }
        }
    };
    for u in fa.all().chain(fb.all()) {
        try_axis(*u);
    }
    for u in fa.all() {
        for v in fb.all() {
            try_axis(u.cross(v));
        }
    }
    best
}

/// The lower bound `hint − r` of rounded shapes from a lower bound `hint` of their cores'
/// distance (GJK's duality bound, DQP3's, an ellipsoid solver's: each from the user's support
/// functions), when it already meets the accuracy asked for: upper − (hint − r) ≤
/// `gap_tolerance` × max(1, upper), the test [`finish_along_witness`] applies before it looks
/// for a better bound. The support-function separation along the witness direction could only
/// raise it within that gap, so it is not evaluated (a sphere or capsule against a hull: a scan
/// of the hull's vertices saved per query). `None`: the caller takes the larger of the two.
#[inline(always)]
fn hint_with_radii(hint: f64, r: f64, upper: f64, settings: &QuerySettings) -> Option<f64> {
    let lower = (hint - r).max(0.0);
    (upper - lower <= settings.gap_tolerance * upper.max(1.0)).then_some(lower)
}

/// Separations at or below this are below what an f64 solve can resolve for witnesses of this
/// magnitude: 64 ulps of the largest witness coordinate (at least of 1).
pub(crate) fn round_off_floor(core: &Core) -> f64 {
    let scale = max_abs(&core.qa.coords).max(max_abs(&core.qb.coords)).max(1.0);
    64.0 * f64::EPSILON * scale
}

/// Builds the result from core witnesses and radii.
pub(crate) fn finish(
    core: Core,
    radii: Radii,
    shapes: (&Shape, &Pose, &Shape, &Pose),
    settings: &QuerySettings,
    algorithm: Algorithm,
    path: QueryPath,
) -> DistanceResult {
    finish_along_witness(core, radii, shapes, settings, algorithm, path, None)
}

/// The witness direction of two cores already computed by a closed form, with the separation
/// of the cores along it: n = (qb − qa)/|qb − qa| (one root, one division), `len` = |qb − qa|,
/// `core_sep` = min_{y∈core B} n·y − max_{x∈core A} n·x from the cores' support functions.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Along {
    /// Unit direction from core A's witness to core B's.
    pub n: Vector3<f64>,
    /// |qb − qa|.
    pub len: f64,
    /// The cores' separation along `n` (a lower bound of the core distance).
    pub core_sep: f64,
}

/// (n, |qb − qa|) for the witnesses of `core`: the unit direction by one root and one
/// reciprocal (three multiplications instead of three divisions; |n| = 1 to 2 ulps, which the
/// certificate's round-off note covers), `None` when the witnesses coincide or the reciprocal
/// is not finite (a subnormal distance: then [`finish_along_witness`] divides as before).
#[inline(always)]
pub(crate) fn witness_direction(qa: &Point3<f64>, qb: &Point3<f64>) -> Option<(Vector3<f64>, f64)> {
    let diff = qb - qa;
    let len = diff.norm();
    let inv = 1.0 / len;
    (len > 0.0 && inv.is_finite()).then(|| (diff * inv, len))
}

/// As [`finish`], with the witness direction and the separation of the two *cores* along it
/// (`along`, see [`Along`]) already computed by the caller from the cores' support functions.
/// Since h_{core ⊕ ball(r)}(n) = h_core(n) + r for unit n, `core_sep − r` is exactly the whole
/// shapes' support-function bound along n, so it is used instead of re-evaluating the shapes'
/// support functions; the direction and the core distance are not recomputed either.
pub(crate) fn finish_along_witness(
    core: Core,
    radii: Radii,
    shapes: (&Shape, &Pose, &Shape, &Pose),
    settings: &QuerySettings,
    algorithm: Algorithm,
    path: QueryPath,
    along: Option<Along>,
) -> DistanceResult {
    let raw = match along {
        Some(w) if w.core_sep.is_finite() => w.len,
        _ => (core.qb - core.qa).norm(),
    };
    finish_at_length(core, radii, shapes, settings, algorithm, path, along, raw)
}

/// As [`finish`], with |qb − qa| of the core witnesses (`raw`) already computed by the caller
/// as `(core.qb − core.qa).norm()`, the same expression [`finish`] evaluates, hence the same
/// bits (GJK's conclusion has it from its round-off test): the root is not taken twice.
pub(crate) fn finish_with_length(
    core: Core,
    radii: Radii,
    shapes: (&Shape, &Pose, &Shape, &Pose),
    settings: &QuerySettings,
    algorithm: Algorithm,
    path: QueryPath,
    raw: f64,
) -> DistanceResult {
    finish_at_length(core, radii, shapes, settings, algorithm, path, None, raw)
}

/// The body of [`finish_along_witness`] once |qb − qa| (or `along`'s length) is known.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn finish_at_length(
    core: Core,
    radii: Radii,
    (a, pa, b, pb): (&Shape, &Pose, &Shape, &Pose),
    settings: &QuerySettings,
    algorithm: Algorithm,
    path: QueryPath,
    along: Option<Along>,
    raw: f64,
) -> DistanceResult {
    let r = radii.a + radii.b;
    let diff = core.qb - core.qa;
    // A float LCP solve of overlapping shapes leaves witnesses a few ulps apart instead of
    // equal; f64 cannot resolve a separation that small, so it is contact. (Exact arithmetic
    // decides exactly: `Arithmetic::Exact`.)
    let float_path = matches!(path, QueryPath::Float { .. } | QueryPath::ActiveSet | QueryPath::Gjk { .. });
    let d = if float_path && raw <= round_off_floor(&core) { 0.0 } else { raw };
    let contact = |proximity: Proximity| DistanceResult {
        proximity,
        certificate: Certificate { lower: 0.0, upper: 0.0 },
        algorithm,
        path,
    };
    if d > r {
        // (d > r ≥ 0 means d = raw: the round-off floor only ever sets d to 0.)
        let (n, core_sep) = match along {
            Some(w) if w.core_sep.is_finite() => (w.n, Some(w.core_sep)),
            _ => (diff / d, None),
        };
        let point_a = core.qa + n * radii.a;
        let point_b = core.qb - n * radii.b;
        // Without radii the witnesses are the core points (q + n·0 = q exactly for finite n):
        // their distance is `raw`, already computed. With radii it is |p_b − p_a| of the
        // reported points (not raw − r, equal up to rounding: at touching contact the rounded
        // witnesses coincide and the answer must say so, which callers such as the swept
        // checks rely on).
        let upper = if r == 0.0 { raw } else { (point_b - point_a).norm() };
        // A lower bound h of the core distance gives h − r for the rounded shapes; with radii,
        // the separation along the witness direction may be better, so take the larger.
        let mut lower = match (core_sep, core.lower_hint) {
            (Some(sep), _) => (sep - r).max(0.0),
            (_, hint) => match hint {
                Some(hint) if r == 0.0 && hint.is_finite() => hint.max(0.0),
                Some(hint) if hint.is_finite() => hint_with_radii(hint, r, upper, settings)
                    .unwrap_or_else(|| (hint - r).max(lower_bound(a, pa, b, pb, &n)).max(0.0)),
                _ => lower_bound(a, pa, b, pb, &n),
            },
        };
        if upper - lower > settings.gap_tolerance * upper.max(1.0) {
            lower = lower.max(feature_lower_bound(a, pa, b, pb, &n));
        }
        // A lower bound above the witness distance by more than the containment tolerance τ
        // of the check against the shapes (`verify.rs`, ~1e-12 × the witnesses' size) means a
        // witness or the bound is wrong: it is kept as it is, for that check to refuse; within
        // τ (round-off between two differently computed bounds) it is clamped.
        let size = max_abs(&point_a.coords).max(max_abs(&point_b.coords));
        if lower > upper && lower - upper <= super::verify::tolerance(size) {
            lower = upper;
        }
        let certificate = Certificate { lower, upper };
        // Separated even within the touching tolerance: the witnesses are checked against the
        // shapes first, and the answer is reported as touching afterwards (`verify::settle`).
        let proximity = Proximity::Separated { distance: upper, point_a, point_b, normal: n };
        return DistanceResult { proximity, certificate, algorithm, path };
    }
    if d == r {
        // r > 0 here (d = r = 0 is handled below with the core depth).
        if r > 0.0 {
            let p = core.qa + diff * (radii.a / d);
            return contact(Proximity::Touching { point: p });
        }
        return match core.core_depth {
            Some(0.0) => contact(Proximity::Touching { point: core.qa }),
            depth => contact(Proximity::Intersecting { point: Some(core.qa), depth }),
        };
    }
    // d < r: the rounded shapes overlap. A common point: along qa→qb at a distance s from qa
    // with d − r_b ≤ s ≤ r_a and 0 ≤ s ≤ d; take the middle of that interval.
    let point = if d > 0.0 {
        let lo = (d - radii.b).max(0.0);
        let hi = radii.a.min(d);
        core.qa + diff * (0.5 * (lo + hi) / d)
    } else {
        core.qa
    };
    let depth = if d > 0.0 { Some(r - d) } else { core.core_depth.map(|x| x + r) };
    contact(Proximity::Intersecting { point: Some(point), depth })
}

impl DistanceResult {
    /// The answer with A and B exchanged, in place (no copy of the answer): witnesses
    /// swapped, normal negated.
    #[inline(always)]
    pub(crate) fn mirror_in_place(&mut self) {
        if let Proximity::Separated { point_a, point_b, normal, .. } = &mut self.proximity {
            core::mem::swap(point_a, point_b);
            *normal = -*normal;
        }
    }

    /// The same answer with A and B exchanged (witnesses swapped, normal negated).
    pub(crate) fn mirrored(mut self) -> Self {
        self.mirror_in_place();
        self
    }
}

#[cfg(test)]
mod tests {
    //! The SAT-style bound against a brute-force enumeration of its axes: for box–box the 3 + 3
    //! face normals and the 9 edge crosses, for box–cylinder the 3 box axes, the cylinder's axis
    //! and their 3 crosses, each tried along n (and both ways for the signed variant).

    use nalgebra::{Rotation3, Vector3};

    use super::{best_axis_separation, separation};
    use crate::pose::Pose;
    use crate::shape::{Cuboid, Cylinder, Shape};

    fn pose(k: usize) -> Pose {
        let f = k as f64;
        let r = Rotation3::from_euler_angles(0.7 * f + 0.1, 1.3 - 0.4 * f, 0.3 * f * f);
        let t = Vector3::new(f.sin() * 2.0, 1.5 - 0.3 * f, (0.9 * f).cos());
        Pose::from_matrix(*r.matrix(), t).unwrap()
    }

    fn brute(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, n: &Vector3<f64>, both: bool) -> f64 {
        let axes = |s: &Shape, p: &Pose| -> Vec<Vector3<f64>> {
            let col = |k: usize| -> Vector3<f64> { p.rotation().column(k).into() };
            match s {
                Shape::Cylinder(_) => vec![col(2)],
                _ => vec![col(0), col(1), col(2)],
            }
        };
        let (fa, fb) = (axes(a, pa), axes(b, pb));
        let mut candidates: Vec<Vector3<f64>> = fa.iter().chain(&fb).copied().collect();
        for u in &fa {
            for v in &fb {
                candidates.push(u.cross(v));
            }
        }
        let mut best = f64::NEG_INFINITY;
        for m in candidates {
            if m.norm() <= 1e-12 {
                continue;
            }
            let m = m.normalize();
            let m = if m.dot(n) < 0.0 { -m } else { m };
            for m in if both { vec![m, -m] } else { vec![m] } {
                best = best.max(separation(a, pa, b, pb, &m));
            }
        }
        best
    }

    #[test]
    fn each_axis_once_gives_the_brute_force_best() {
        let cuboid = Shape::Cuboid(Cuboid::new([0.4, 0.9, 0.25]).unwrap());
        let other = Shape::Cuboid(Cuboid::new([1.1, 0.2, 0.6]).unwrap());
        let cylinder = Shape::Cylinder(Cylinder::new(0.5, 0.8).unwrap());
        let mut checked = 0;
        for (a, b) in [(&cuboid, &other), (&cuboid, &cylinder)] {
            for k in 0..12 {
                let (pa, pb) = (pose(k), pose(k + 17));
                let n = (pb.translation() - pa.translation()).normalize();
                for both in [false, true] {
                    let got = best_axis_separation(a, &pa, b, &pb, &n, both);
                    let want = brute(a, &pa, b, &pb, &n, both);
                    // The same axes from the same operations: equal up to the order of the
                    // maxima (exactly equal values), so a relative 1e-12 is only a guard.
                    assert!((got - want).abs() <= 1e-12 * want.abs().max(1.0), "{got} vs {want}, pose {k}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 48);
    }
}
