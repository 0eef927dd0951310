//! Adapter from shapes and poses to the ellipsoid solvers ([`crate::ellipsoid`]).
//!
//! | pair (canonical order) | solver |
//! |---|---|
//! | point / sphere – ellipsoid | closest point of the solid ellipsoid to the centre (secular equation), radius added back |
//! | ellipsoid – ellipsoid | Newton on the support-function dual (cost flat near contact), duality-gap stop |
//! | ellipsoid – convex polytope / polyhedron | vertex / edge / facet active set against the ellipsoid |
//!
//! | segment / capsule / triangle / box – ellipsoid, cores apart (`Auto`) | Newton on the segment–ellipsoid optimality conditions per edge, a face by the support point ([`distance_apart`]); GJK/EPA otherwise |
//!
//! The solvers' witnesses (a common point when the shapes meet) and their proven lower bound
//! go through the shared case analysis (`certificate::finish`), so touching tolerance,
//! round-off floor and certificate rules are the ones of every other pair. A polytope answer
//! comes back with the polytope first and is flipped to the canonical order here.

use nalgebra::Point3;

use super::super::certificate::{Along, Core, Radii, finish, finish_along_witness, witness_direction};
use crate::ellipsoid::segment_ellipsoid::closest_segment_ellipsoid;
use crate::ellipsoid::{
    EllipsoidDistance, EllipsoidSettings, Placed, distance_point_ellipsoid, distance_polyhedron_ellipsoid,
    distance_polytope_ellipsoid, dual_newton,
};
use crate::error::GeomError;
use crate::pose::Pose;
use crate::query::dispatch::{as_ball, as_box, as_rounded_linear};
use crate::query::{Algorithm, DistanceResult, Proximity, QueryPath, QuerySettings};
use crate::shape::Shape;

/// Whether the pair (in canonical order, either order accepted) has an ellipsoid solver.
pub(crate) fn available(a: &Shape, b: &Shape) -> bool {
    use Shape as S;
    let other = |s: &Shape| {
        matches!(s, S::Point(_) | S::Sphere(_) | S::Ellipsoid(_) | S::ConvexPolytope(_) | S::Polyhedron(_))
    };
    (matches!(a, S::Ellipsoid(_)) && other(b)) || (matches!(b, S::Ellipsoid(_)) && other(a))
}

/// Whether `Auto` takes the ellipsoid solvers for the pair: an ellipsoid against a point, a
/// sphere or an ellipsoid. A polytope or polyhedron against an ellipsoid goes to GJK with
/// the Newton polish instead (the solvers stay available with `Algorithm::Ellipsoid`):
/// measured on separated pairs (`examples`-style probe, a 40-vertex hull), GJK takes 1565 ns
/// against 3480 for the active set, 4445 against 38600 at 1000 vertices, with answers 7e-11
/// apart and GJK's gap within its 1e-10 × scale tolerance; overlapping pairs also get their
/// depth from EPA, which the ellipsoid solvers do not give.
pub(crate) fn preferred(a: &Shape, b: &Shape) -> bool {
    use Shape as S;
    let other = |s: &Shape| matches!(s, S::Point(_) | S::Sphere(_) | S::Ellipsoid(_));
    (matches!(a, S::Ellipsoid(_)) && other(b)) || (matches!(b, S::Ellipsoid(_)) && other(a))
}

/// The ellipsoid answer for a pair in canonical order (the ellipsoid after a point or sphere,
/// before a polytope or polyhedron).
pub(crate) fn distance(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<DistanceResult, GeomError> {
    use Shape as S;
    let es = EllipsoidSettings::default();
    let shapes = (a, pa, b, pb);
    let done = |qa: Point3<f64>, qb: Point3<f64>, lower: Option<f64>, iterations: usize, radii: Radii| {
        let core = Core { qa, qb, core_depth: None, lower_hint: lower };
        let path = QueryPath::Ellipsoid { iterations: u32::try_from(iterations).unwrap_or(u32::MAX) };
        Ok(finish(core, radii, shapes, settings, Algorithm::Ellipsoid, path))
    };
    let from = |r: EllipsoidDistance, flip: bool| {
        let (wa, wb) = r.witnesses().ok_or(GeomError::Degenerate {
            what: "ellipsoid solver: shapes meet but no common point was returned",
        })?;
        let (qa, qb) = if flip { (wb, wa) } else { (wa, wb) };
        done(qa, qb, Some(r.certificate.lower), r.iterations, Radii { a: 0.0, b: 0.0 })
    };
    match (a, b) {
        (S::Point(_) | S::Sphere(_), S::Ellipsoid(e)) => {
            let internal = GeomError::Degenerate { what: "internal: ball route without a ball" };
            let (c, r) = as_ball(a, pa).ok_or(internal)?;
            let d = distance_point_ellipsoid(&c, e, pb)?;
            // Inside or on the solid: the centre itself is the common point of the cores.
            let qb = if d.info.distance > 0.0 { d.closest } else { c };
            done(c, qb, None, d.info.iterations, Radii { a: r, b: 0.0 })
        }
        (S::Ellipsoid(x), S::Ellipsoid(y)) => {
            // `distance_ellipsoid_ellipsoid` with the default settings (valid by construction,
            // the dual Newton method) without re-checking them on every query.
            let (ea, eb) = (Placed::new(x, pa), Placed::new(y, pb));
            let r = dual_newton::run(&ea, &eb, es.tolerance, es.max_iterations, None);
            let (Proximity::Separated { point_a, point_b, .. }, upper) = (r.proximity, r.certificate.upper)
            else {
                return from(r, false);
            };
            // Apart: the witness distance is the certificate's upper end, |x_b − x_a| by the
            // operations `finish` would repeat, and the direction the same quotient it would
            // take (`finish_along_witness` without the root again); the solver's lower bound
            // stands for the separation (as the hint it would be, same value).
            let along =
                Some(Along { n: (point_b - point_a) / upper, len: upper, core_sep: r.certificate.lower });
            let core = Core { qa: point_a, qb: point_b, core_depth: None, lower_hint: None };
            let path = QueryPath::Ellipsoid { iterations: u32::try_from(r.iterations).unwrap_or(u32::MAX) };
            let radii = Radii { a: 0.0, b: 0.0 };
            Ok(finish_along_witness(core, radii, shapes, settings, Algorithm::Ellipsoid, path, along))
        }
        (S::Ellipsoid(e), S::ConvexPolytope(p)) => {
            from(distance_polytope_ellipsoid(p, pb, e, pa, &es)?, true)
        }
        (S::Ellipsoid(e), S::Polyhedron(p)) => from(distance_polyhedron_ellipsoid(p, pb, e, pa, &es)?, true),
        _ => Err(GeomError::Degenerate { what: "internal: pair does not match the ellipsoid route" }),
    }
}

/// Whether the pair (canonical order) is a segment, capsule, triangle or box against an
/// ellipsoid: answered by [`distance_apart`] when the cores are apart (`Auto`, cold).
pub(crate) fn apart_pair(a: &Shape, b: &Shape) -> bool {
    matches!(
        a,
        Shape::Segment(_) | Shape::Capsule(_) | Shape::Triangle(_) | Shape::Cuboid(_) | Shape::AlignedBox(_)
    ) && matches!(b, Shape::Ellipsoid(_))
}

/// A polytope core as world corners with its edges and faces (corner indices, faces in cyclic
/// order): a triangle or a box.
struct Corners {
    points: [Point3<f64>; 8],
    len: usize,
    edges: &'static [(usize, usize)],
    faces: &'static [[usize; 4]],
    face_len: usize,
    /// A point inside (a box's centre): faces count only from outside; `None` for a flat
    /// triangle (either side).
    inside: Option<Point3<f64>>,
    /// Per face, whether its candidate may exist: `false` only when the ellipsoid's centre is
    /// provably too near the face's plane (or behind it) for the ellipsoid to lie strictly
    /// outside ([`box_face_may_hold`]); always `true` for a triangle.
    face_open: [bool; 6],
}

const TRIANGLE_EDGES: [(usize, usize); 3] = [(0, 1), (1, 2), (2, 0)];
const TRIANGLE_FACES: [[usize; 4]; 1] = [[0, 1, 2, 0]];
/// Corner k of a box has the upper bound on axis i when bit i of k is set.
const BOX_EDGES: [(usize, usize); 12] =
    [(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7)];
const BOX_FACES: [[usize; 4]; 6] =
    [[0, 2, 6, 4], [1, 3, 7, 5], [0, 1, 5, 4], [2, 3, 7, 6], [0, 1, 3, 2], [4, 5, 7, 6]];

/// A segment, capsule, triangle or box (`a`) against an ellipsoid (`b`) when the cores are
/// apart, by Newton on the segment–ellipsoid optimality conditions
/// (`ellipsoid/segment_ellipsoid.rs`): the capsule's axis; for a triangle or a box, a face
/// facing the ellipsoid whose plane the ellipsoid's support point towards it projects into
/// (then closest, proven by the separation along the normal), else the edges, nearest to the
/// centre first, until one's pair is proven closest by the separation along its direction
/// (the minimum over all otherwise). The lower bound is the cores' separation along the
/// witness direction from their support functions (the ellipsoid's n·c − |D Rᵀn|, the piece's
/// endpoints or the polytope's corners); `None` when the cores meet, a candidate is missing,
/// or that bound does not meet the witnesses' distance to GJK's tolerance (GJK/EPA answer
/// then).
pub(crate) fn distance_apart(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Option<DistanceResult> {
    let Shape::Ellipsoid(e) = b else { return None };
    let (rot, c) = (pb.rotation(), pb.translation());
    let radii = e.radii();
    // The cores' separation along the unit n (weak duality): the ellipsoid's support
    // function n·c − |D Rᵀn| on its side, the corners' (segment ends, polytope corners).
    let separation = |n: &nalgebra::Vector3<f64>, corners: &[Point3<f64>]| {
        let h_core = corners.iter().map(|p| n.dot(&p.coords)).fold(f64::NEG_INFINITY, f64::max);
        n.dot(c) - rot.tr_mul(n).component_mul(&radii).norm() - h_core
    };
    let tolerance = settings.gjk.tolerance;
    // Whether the pair (x on the polytope, y on the ellipsoid) is proven closest.
    let closes = |x: &Point3<f64>, y: &Point3<f64>, corners: &[Point3<f64>]| {
        witness_direction(x, y)
            .is_some_and(|(n, len)| len - separation(&n, corners) <= tolerance * len.max(1.0))
    };
    // Closest points of the world segment [p, q] and the ellipsoid (world), Newton steps.
    let segment = |p: &Point3<f64>, q: &Point3<f64>| {
        let (t, x, steps) =
            closest_segment_ellipsoid(&radii, &rot.tr_mul(&(p.coords - c)), &rot.tr_mul(&(q - p)))?;
        Some((p + (q - p) * t, Point3::from(rot * x + c), steps))
    };
    let polytope = match a {
        Shape::Segment(_) | Shape::Capsule(_) => None,
        Shape::Triangle(t) => {
            let v = t.vertices().map(|v| pa.transform_point(&v));
            let mut points = [v[0]; 8];
            points[..3].copy_from_slice(&v);
            Some(Corners {
                points,
                len: 3,
                edges: &TRIANGLE_EDGES,
                faces: &TRIANGLE_FACES,
                face_len: 3,
                inside: None,
                face_open: [true; 6],
            })
        }
        _ => {
            let bx = as_box(a, pa)?;
            let points = core::array::from_fn(|k| {
                let pick = |i: usize| if k & (1 << i) != 0 { bx.hi[i] } else { bx.lo[i] };
                bx.pose.transform_point(&Point3::new(pick(0), pick(1), pick(2)))
            });
            let inside = Some(bx.pose.transform_point(&Point3::from((bx.lo + bx.hi) * 0.5)));
            let face_open = box_face_may_hold(&bx, radii, pb);
            Some(Corners {
                points,
                len: 8,
                edges: &BOX_EDGES,
                faces: &BOX_FACES,
                face_len: 4,
                inside,
                face_open,
            })
        }
    };
    let (qa, qb, steps, radius, corners) = match polytope {
        None => {
            let (piece, r) = as_rounded_linear(a, pa)?;
            let (p, q) = (piece.origin + piece.dir * piece.lo, piece.origin + piece.dir * piece.hi);
            let (x, y, steps) = segment(&p, &q)?;
            let mut points = [q; 8];
            points[0] = p;
            let face_open = [false; 6];
            (
                x,
                y,
                steps,
                r,
                Corners { points, len: 2, edges: &[], faces: &[], face_len: 0, inside: None, face_open },
            )
        }
        Some(poly) => {
            let v = &poly.points[..poly.len];
            // A face candidate, when one exists, is proven closest by the separation along
            // the face normal (checked below with the others).
            let face = poly.faces.iter().zip(poly.face_open).find_map(|(f, open)| {
                if !open {
                    return None;
                }
                let mut corners = [v[0]; 4];
                for (k, &i) in f[..poly.face_len].iter().enumerate() {
                    corners[k] = v[i];
                }
                face_candidate(&corners[..poly.face_len], poly.inside.as_ref(), &radii, rot, c)
            });
            if let Some((x, y)) = face {
                (x, y, 0, 0.0, poly)
            } else {
                // The edges by their distance to the centre (the nearest is usually closest):
                // each new best pair is checked for its separation certificate, which ends
                // the search early. Usually the first edge closes, so the edges are taken
                // by repeated selection of the nearest untried one (the order of a stable
                // sort, ties by edge index) instead of sorting all twelve up front.
                let centre = Point3::from(*c);
                let mut keys = [f64::INFINITY; 12];
                for (key, &(i, j)) in keys.iter_mut().zip(poly.edges) {
                    let e = v[j] - v[i];
                    let s = ((centre - v[i]).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
                    *key = (v[i] + e * s - centre).norm_squared();
                }
                let keys = &keys[..poly.edges.len()];
                let mut best: Option<(Point3<f64>, Point3<f64>)> = None;
                let mut steps = 0;
                for (i, j) in NearestFirst::new(keys).map(|e| poly.edges[e]) {
                    let (x, y, k) = segment(&v[i], &v[j])?;
                    steps += k;
                    if best.is_none_or(|(bx, by)| (y - x).norm_squared() < (by - bx).norm_squared()) {
                        best = Some((x, y));
                        if closes(&x, &y, v) {
                            break;
                        }
                    }
                }
                let (x, y) = best?;
                (x, y, steps, 0.0, poly)
            }
        }
    };
    let (n, len) = witness_direction(&qa, &qb)?;
    let core_sep = separation(&n, &corners.points[..corners.len]);
    let gap = len - core_sep;
    if gap.is_nan() || gap > tolerance * len.max(1.0) {
        return None;
    }
    let along = Some(Along { n, len, core_sep });
    let core = Core { qa, qb, core_depth: None, lower_hint: None };
    let path = QueryPath::Ellipsoid { iterations: u32::try_from(steps).unwrap_or(u32::MAX) };
    Some(finish_along_witness(
        core,
        Radii { a: radius, b: 0.0 },
        (a, pa, b, pb),
        settings,
        Algorithm::Ellipsoid,
        path,
        along,
    ))
}

/// The indices of `keys` in increasing key order ([`f64::total_cmp`]; equal keys by index,
/// as a stable sort gives them), each found by a scan of the untried ones when asked for: a
/// caller that stops after the first one or two pays one or two scans instead of a sort.
struct NearestFirst<'k> {
    keys: &'k [f64],
    /// Bit e set when index e was given out already (at most 12 keys here).
    taken: u32,
}

impl<'k> NearestFirst<'k> {
    fn new(keys: &'k [f64]) -> Self {
        debug_assert!(keys.len() <= 32);
        Self { keys, taken: 0 }
    }
}

impl Iterator for NearestFirst<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let mut pick: Option<usize> = None;
        for (e, key) in self.keys.iter().enumerate() {
            let better = pick.is_none_or(|p| key.total_cmp(&self.keys[p]).is_lt());
            if self.taken & (1 << e) == 0 && better {
                pick = Some(e);
            }
        }
        let e = pick?;
        self.taken |= 1 << e;
        Some(e)
    }
}

/// For each face of a box (in [`BOX_FACES`] order: axis k's lower then upper face, k = x, y,
/// z), whether [`face_candidate`] can return a pair for it against the ellipsoid (radii, pose).
///
/// A candidate needs the support point of the ellipsoid along the face's inward normal −m to
/// lie strictly outside the plane: height = m·(c − v₀) − |D Rᵀm| > 0, and |D Rᵀm| ≥
/// r_min (1 − ε_e) with ε_e the ellipsoid rotation's orthonormality error. In the box frame
/// the centre's outward distance from face (k, lower) is lo_k − c_k, from (k, upper) c_k − hi_k
/// (c = the box pose's inverse applied to the world centre); the world plane spanned by the
/// transformed corners differs from it by at most a few ε_b (the box rotation's
/// orthonormality error) times the coordinates' magnitude, and every rounding on either side
/// is below 1e-12 of it. So a face whose outward distance is at most
/// r_min − (1e-9 + 8 (ε_b + ε_e)) × scale has a computed height ≤ 0 and no candidate: it is
/// skipped with the same answer (the first face that holds is unchanged).
fn box_face_may_hold(
    bx: &super::distance_point_cuboid::PosedBox,
    radii: nalgebra::Vector3<f64>,
    pe: &Pose,
) -> [bool; 6] {
    let c = bx.pose.inverse_transform_point(&Point3::from(*pe.translation()));
    let r_min = radii.min();
    let scale = pe.translation().norm()
        + bx.pose.translation().norm()
        + bx.lo.abs().max()
        + bx.hi.abs().max()
        + radii.max();
    let margin = (1e-9 + 8.0 * (bx.pose.orthonormality_error() + pe.orthonormality_error())) * scale;
    let threshold = r_min - margin;
    core::array::from_fn(|f| {
        let k = f / 2;
        let outward = if f % 2 == 0 { bx.lo[k] - c[k] } else { c[k] - bx.hi[k] };
        // NaN (bad input) keeps the face: the full test then decides as before.
        outward > threshold || outward.is_nan() || threshold.is_nan()
    })
}

/// The face candidate of a convex world polygon `v` (cyclic order) against the ellipsoid
/// (radii, rotation, centre): the ellipsoid's point deepest towards the polygon's plane and
/// its projection onto the plane, when the ellipsoid lies strictly on one side (the outer
/// one, away from `inside`, when given) and the projection falls inside the polygon (else the
/// closest points involve an edge, or the shapes meet).
fn face_candidate(
    v: &[Point3<f64>],
    inside: Option<&Point3<f64>>,
    radii: &nalgebra::Vector3<f64>,
    rot: &nalgebra::Matrix3<f64>,
    c: &nalgebra::Vector3<f64>,
) -> Option<(Point3<f64>, Point3<f64>)> {
    let normal = (v[1] - v[0]).cross(&(v[2] - v[0]));
    // Oriented from the plane towards the centre; a solid's face only from outside.
    let m = if normal.dot(&(c - v[0].coords)) >= 0.0 { normal } else { -normal };
    if inside.is_some_and(|p| m.dot(&(p - v[0])) >= 0.0) {
        return None;
    }
    let m = m.try_normalize(0.0)?;
    // The support point of the ellipsoid along −m: c − R D² Rᵀm / |D Rᵀm|.
    let ml = rot.tr_mul(&m).component_mul(radii);
    let len = ml.norm();
    let s = Point3::from(c - rot * (ml.component_mul(radii) / len));
    let height = m.dot(&(s - v[0]));
    if height.is_nan() || height <= 0.0 {
        return None;
    }
    let y = s - m * height;
    let inside = (0..v.len()).all(|i| {
        let j = (i + 1) % v.len();
        (v[j] - v[i]).cross(&(y - v[i])).dot(&normal) >= 0.0
    });
    inside.then_some((y, s))
}

#[cfg(test)]
mod tests {
    use super::super::distance_point_cuboid::PosedBox;
    use super::*;
    use nalgebra::Vector3;

    /// The edges come out in the order of a stable sort of their keys (ties by index), the
    /// order the search used before: on key sets with repeats, zeros of both signs and
    /// infinities.
    #[test]
    fn nearest_first_is_the_stable_sort_order() {
        let pool = [3.0, 1.0, 1.0, -0.0, 0.0, 2.5, f64::INFINITY, 7.0, 1.0, 0.5, 2.5, 9.0];
        for len in 0..=12 {
            for rot in 0..pool.len() {
                let keys: Vec<f64> = (0..len).map(|k| pool[(k * 5 + rot) % pool.len()]).collect();
                let mut sorted: Vec<usize> = (0..len).collect();
                sorted.sort_by(|&x, &y| keys[x].total_cmp(&keys[y]));
                let got: Vec<usize> = NearestFirst::new(&keys).collect();
                assert_eq!(got, sorted, "keys {keys:?}");
            }
        }
    }

    /// A face the pre-test closes never has a candidate: over many box and ellipsoid poses
    /// (centres near and far from the faces' planes), `face_candidate` returns nothing for
    /// every closed face, and some faces are closed and some candidates found.
    #[test]
    fn closed_box_faces_have_no_candidate() {
        let (mut closed, mut found) = (0, 0);
        for k in 0..4000u32 {
            let f = |m: u32| {
                ((k.wrapping_mul(2_654_435_761).wrapping_add(m * 40_503) % 1000) as f64) / 500.0 - 1.0
            };
            let q = [f(1), f(2), f(3), f(4)];
            let norm = q.iter().map(|x| x * x).sum::<f64>().sqrt();
            let q = q.map(|x| x / norm);
            let pb = Pose::from_quaternion(q, [0.3 * f(5), 0.2 * f(6), -0.1 * f(7)]).unwrap();
            let qe = [f(8), f(9), f(10), f(11)];
            let ne = qe.iter().map(|x| x * x).sum::<f64>().sqrt();
            let pe =
                Pose::from_quaternion(qe.map(|x| x / ne), [3.0 * f(12), 3.0 * f(13), 3.0 * f(14)]).unwrap();
            let radii =
                Vector3::new(0.2 + 0.5 * f(15).abs(), 0.1 + 0.3 * f(16).abs(), 0.3 + 0.2 * f(17).abs());
            let bx =
                PosedBox { pose: pb, lo: Vector3::new(-0.5, -0.3, -0.7), hi: Vector3::new(0.6, 0.3, 0.2) };
            let v: [Point3<f64>; 8] = core::array::from_fn(|i| {
                let pick = |a: usize| if i & (1 << a) != 0 { bx.hi[a] } else { bx.lo[a] };
                bx.pose.transform_point(&Point3::new(pick(0), pick(1), pick(2)))
            });
            let inside = bx.pose.transform_point(&Point3::from((bx.lo + bx.hi) * 0.5));
            let open = box_face_may_hold(&bx, radii, &pe);
            for (face, is_open) in BOX_FACES.iter().zip(open) {
                let corners = face.map(|i| v[i]);
                let hit = face_candidate(&corners, Some(&inside), &radii, pe.rotation(), pe.translation());
                found += usize::from(hit.is_some());
                if !is_open {
                    closed += 1;
                    assert!(hit.is_none(), "closed face has a candidate (case {k})");
                }
            }
        }
        assert!(closed > 1000 && found > 50, "closed {closed}, found {found}");
    }
}
