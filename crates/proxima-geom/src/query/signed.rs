//! Signed distance with a proven bracket: sd = dist(A, B) when the shapes are apart, −depth
//! when they overlap (depth = the shortest translation that separates them), 0 at contact.
//!
//! # Maths
//!
//! For every unit direction m, the separation s(m) = −h_B(−m) − h_A(m) of the support
//! functions bounds the signed distance from below, and sd = max_m s(m) (for disjoint shapes
//! by duality, for overlapping ones because −depth is the best such separation). So:
//!
//! * **lower end** of the bracket: the best s(m) over the directions at hand — GJK's lower
//!   bound, EPA's upper bound of the depth (h_M along its best face normal), and the shapes'
//!   candidate axes (face normals, edge directions and their cross products: for boxes the 15
//!   separating axes, which give the exact depth), tried both ways;
//! * **upper end**: the witness distance when apart; −(EPA's lower bound of the depth) when a
//!   polytope of support points encloses the origin of the Minkowski difference (its inner
//!   distance is a lower bound of the depth).
//!
//! # Two ellipsoids
//!
//! When the ellipsoid solver finds a common point (`Auto`), the depth is min over unit n of
//! h_M(n), a smooth problem: Newton on the sphere from the centre direction
//! (`gjk::depth_newton`), with h_M at the final direction as the upper end and the balls
//! enclosed in both ellipsoids tangent at the witnesses (`gjk/depth.rs`: rolling and medial
//! balls) as the lower end. It answers when that bracket meets the tolerance (94 % of random
//! overlaps of two (0.5, 0.4, 0.3) ellipsoids); otherwise GJK and EPA below.
//!
//! # Near contact
//!
//! When the unsigned answer is 0 or within the touching tolerance and separation is not
//! proven, the depth is computed, never skipped. Near exact contact the origin lies on the
//! boundary of M = A − B, where GJK may stagnate and EPA has nothing to expand. The
//! bracket's sign is then decided by dilation: with B_μ = B ⊕ ball(μ), h_{B_μ}(m) = h_B(m) + μ
//! for every unit m, so sd(A, B_μ) = sd(A, B) − μ exactly. For μ = 1e-3 × the pair's size plus
//! twice the positive part of the upper end, the origin is at least μ/2 deep inside
//! M_μ = A − B_μ and EPA runs far from any degeneracy; its depth bracket [δ⁻, δ⁺] gives
//! sd ∈ [μ − δ⁺, μ − δ⁻]. What remains unresolved is an overlap or gap below EPA's
//! tolerance × size (1e-10 × size by default): the bracket then contains 0 and the value is 0
//! (touching), never a separation claimed for an overlap of 1e-9 × size or more. A bracket
//! that is already that narrow (tolerance × max(1, |ends|)) is that case without the dilated
//! run: neither it nor the candidate axes are tried then (they only narrow a bracket).
//!
//! # Value
//!
//! Overlap proven (upper end < 0): the lower end (−the best depth estimate, a translation that
//! separates). Separation proven (lower end > 0): the witness distance. Otherwise 0.

use nalgebra::{Point3, Vector3};

use super::certificate::best_axis_separation;
use super::dispatch::{self, must_swap};
use super::distance::{box_box_depth, gjk};
use super::{Algorithm, Certificate, DistanceResult, Proximity, QuerySettings, SignedDistance};
use crate::error::GeomError;
use crate::gjk::{
    COLD_HINT, CoreShape, Difference, GjkCache, RelativeFrame, SupportMap, depth_newton, penetration_above,
};
use crate::pose::Pose;
use crate::shape::Shape;

/// A shape dilated by a ball of radius `radius`, as a support map (its support point moves
/// `radius` along the unit direction: h(m) = h_shape(m) + radius·|m|).
struct Dilated<'s> {
    shape: &'s Shape,
    radius: f64,
}

impl SupportMap for Dilated<'_> {
    fn local_support(&self, m: &Vector3<f64>, hint: &mut u32) -> Point3<f64> {
        let p = SupportMap::local_support(self.shape, m, hint);
        let len = m.norm();
        if len > 0.0 { p + m * (self.radius / len) } else { p }
    }
}

/// See [`super::signed_distance()`].
pub(crate) fn signed_distance(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<SignedDistance, GeomError> {
    // The unsigned answer decides separation and gives the closed forms' exact depths; an
    // overlap routed to GJK gets its depth once, in `depth_bracket` (asking the unsigned query
    // for it as well ran EPA twice).
    // A GJK run that ends in contact goes on into EPA and leaves its depth answer for
    // `depth_bracket` (`gjk::DepthOnContact`): one GJK run, not two.
    let unsigned = settings.clone().with_penetration_depth(false);
    let depth = gjk::DepthOnContact::new(None);
    let (r, swap) = dispatch::distance_keeping_depth(a, pa, b, pb, &unsigned, Some(&depth))?;
    signed_from_unsigned(a, pa, b, pb, settings, &r, None, Some((swap, &depth)))
}

/// [`signed_distance`] from the pair's unsigned answer `r` (already computed, with
/// `penetration_depth = false`): proven separation and closed-form depths are taken as they
/// are, every other pair gets its depth bracket (`depth_bracket`). `cache`: the GJK state that
/// `r` left (a tracked query at the same poses), from which the depth's GJK run restarts
/// instead of running again from nothing (the answer is the same: a warm start only saves
/// work). `r` is read where it lies and copied once, into the signed answer (the batch rows'
/// 128-byte answer was copied twice when it was passed by value). `stashed`: the canonical
/// order `r` was computed in and the [`gjk::DepthOnContact`] its cold GJK kernel was given:
/// `depth_bracket` takes the answer left there instead of running GJK again, when the order
/// is its own (the same answer, see there). (By reference: the ≈ 170-byte slot is read only
/// by the rows that need a depth; moved into the call it was copied on every row.)
pub(crate) fn signed_from_unsigned(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
    r: &DistanceResult,
    cache: Option<&mut GjkCache>,
    stashed: Option<(bool, &gjk::DepthOnContact)>,
) -> Result<SignedDistance, GeomError> {
    let bounded = a.is_bounded() && b.is_bounded();
    let exact = |value: f64, r: &DistanceResult| SignedDistance {
        value,
        certificate: Certificate { lower: value, upper: value },
        result: *r,
    };
    match r.proximity {
        // Separation proven.
        Proximity::Separated { .. } | Proximity::Touching { .. } if r.certificate.lower > 0.0 => {
            // (Touching within the tolerance but proven apart: the witness distance.)
            let value = r.certificate.upper;
            return Ok(SignedDistance { value, certificate: r.certificate, result: *r });
        }
        // Closed forms know the exact depth (0 at proven boundary contact).
        Proximity::Intersecting { depth: Some(depth), .. } if r.algorithm == Algorithm::ClosedForm => {
            return Ok(exact(-depth, r));
        }
        Proximity::Touching { .. } if r.algorithm == Algorithm::ClosedForm && r.certificate.upper == 0.0 => {
            return Ok(exact(0.0, r));
        }
        _ => {}
    }
    // Two overlapping boxes: the depth by separating axes, proven (`distance/box_box_depth.rs`).
    if let Some(sd) = box_box_depth::signed_box_box(a, pa, b, pb, settings, r) {
        return Ok(sd);
    }
    // Two overlapping ellipsoids: Newton on the depth from the centre direction, certified
    // by enclosed balls (no GJK, no EPA); the general route when it does not close.
    if cache.is_none()
        && let Some(sd) = ellipsoid_depth(a, pa, b, pb, settings, r)
    {
        return Ok(sd);
    }
    if !bounded {
        // A line: no depth. Unproven separation and contact keep the unsigned bracket.
        return match r.proximity {
            Proximity::Intersecting { .. } => Err(GeomError::Unsupported {
                op: "signed_distance",
                a: a.kind(),
                b: b.kind(),
                algorithm: (r.algorithm != Algorithm::Auto).then(|| r.algorithm.as_str()),
            }),
            _ => Ok(SignedDistance { value: r.distance(), certificate: r.certificate, result: *r }),
        };
    }
    depth_bracket(a, pa, b, pb, settings, cache, stashed)
}

/// Two overlapping ellipsoids (the ellipsoid solver's unsigned answer `r` found a common point): the depth by
/// Newton on h_M from the centre direction, in the pair's canonical order and A's frame
/// (`gjk::depth_newton`: the upper end is h_M along the final direction, the lower end the
/// enclosed-ball bound, both proven for the shapes whatever the iterates). The bracket is
/// widened by A's rotation defect as GJK's is (3e·(extent + depth), 0 for exact rotations).
/// `None` when the bracket does not meet the tolerance (relative to the centre distance plus
/// both extents, at least 1; EPA's scale is that of M's support points, the same size) or
/// the proven depth is not positive: GJK and EPA answer then.
fn ellipsoid_depth(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
    r: &DistanceResult,
) -> Option<SignedDistance> {
    let (Shape::Ellipsoid(_), Shape::Ellipsoid(_)) = (a, b) else { return None };
    let Proximity::Intersecting { point, .. } = r.proximity else { return None };
    if r.algorithm != Algorithm::Ellipsoid {
        // A forced algorithm keeps its own route.
        return None;
    }
    let swap = must_swap(a, pa, b, pb);
    let (x, px, y, py) = if swap { (b, pb, a, pa) } else { (a, pa, b, pb) };
    let frame = RelativeFrame::new(px, py);
    let n0 = frame.t.try_normalize(0.0)?;
    let (cx, cy) = (CoreShape::Whole(x), CoreShape::Whole(y));
    let mut diff = Difference { a: &cx, b: &cy, frame, hint_a: COLD_HINT, hint_b: COLD_HINT };
    let scale = (frame.t.norm() + x.local_extent() + y.local_extent()).max(1.0);
    let p = depth_newton(&mut diff, &n0, settings.gjk.tolerance * scale)?;
    let e = px.orthonormality_error();
    let m = 3.0 * e * (x.local_extent() + p.upper.abs());
    let (lower, upper) = ((p.lower - m).max(0.0), p.upper + m);
    if !(lower > 0.0 && upper.is_finite()) {
        return None;
    }
    let result = DistanceResult { proximity: Proximity::Intersecting { point, depth: Some(upper) }, ..*r };
    Some(SignedDistance { value: -upper, certificate: Certificate { lower: -upper, upper: -lower }, result })
}

/// GJK/EPA on the pair (warm from `cache` when given), the candidate axes unless EPA's
/// bracket already meets the tolerance, and the dilated EPA when the sign is open.
/// `stashed`: see [`signed_from_unsigned`]; the unsigned query's depth answer is taken when it
/// was computed in this order and cold (no `cache`), where `distance_with_depth` would run
/// the same cold GJK run on the same ordered arguments and conclude it the same way
/// (`gjk::DepthOnContact`).
fn depth_bracket(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
    cache: Option<&mut GjkCache>,
    stashed: Option<(bool, &gjk::DepthOnContact)>,
) -> Result<SignedDistance, GeomError> {
    let swap = must_swap(a, pa, b, pb);
    let (x, px, y, py) = if swap { (b, pb, a, pa) } else { (a, pa, b, pb) };
    let kept = stashed.filter(|(order, _)| *order == swap && cache.is_none()).and_then(|(_, d)| d.take());
    let (g, bracket) = match kept {
        Some(answer) => answer,
        None => gjk::distance_with_depth(x, px, y, py, settings, cache.map(|c| (c, swap)))?,
    };
    let g = if swap { g.mirrored() } else { g };
    // The signed distance's bracket so far.
    let (mut lo, mut hi) = match (g.proximity, bracket) {
        (_, Some((dlo, dhi))) => (-dhi, -dlo),
        (Proximity::Separated { distance, .. }, None) => (g.certificate.lower, distance),
        // GJK proved contact without a depth: sd ≤ 0.
        _ => (f64::NEG_INFINITY, 0.0),
    };
    if let Proximity::Separated { distance, .. } = g.proximity {
        hi = hi.min(distance);
    }
    // The candidate axes, both ways, oriented by the witness direction or the centres.
    let toward = match g.proximity {
        Proximity::Separated { normal, .. } => normal,
        _ => (pb.translation() - pa.translation()).try_normalize(0.0).unwrap_or_else(Vector3::z),
    };
    // The axes and the dilation only narrow the bracket: skipped once it meets the tolerance
    // (relative to the depth, or to 1 like the dilation's pair size). A bracket around 0 that
    // narrow is the unresolved touching of the module docs, with value 0 either way.
    let met = |lo: f64, hi: f64| {
        let width = hi - lo;
        width.is_finite() && width <= settings.gjk.tolerance * lo.abs().max(hi.abs()).max(1.0)
    };
    if !met(lo, hi) {
        lo = lo.max(best_axis_separation(a, pa, b, pb, &toward, true));
    }
    if lo > hi {
        // Rounding of the two ends: they agree to it.
        lo = hi;
    }
    if lo < 0.0
        && hi >= 0.0
        && !met(lo, hi)
        && let Some((dlo, dhi)) = dilated(a, pa, b, pb, settings, hi)?
    {
        lo = lo.max(dlo);
        hi = hi.min(dhi);
        if lo > hi {
            lo = hi;
        }
    }
    if !(lo.is_finite() && hi.is_finite()) {
        // Contact proven but no depth bound (EPA failed on coordinates beyond f64's
        // resolution): no signed answer rather than an unbounded one.
        return Err(GeomError::NonFinite { what: "signed distance bracket (coordinates too large for f64)" });
    }
    let value = if hi < 0.0 {
        lo
    } else if lo > 0.0 {
        g.distance().clamp(lo, hi)
    } else {
        0.0
    };
    Ok(SignedDistance { value, certificate: Certificate { lower: lo, upper: hi }, result: g })
}

/// The bracket of sd(A, B) from EPA on A against B dilated by μ (see the module docs);
/// `None` when GJK does not find the dilated pair in contact (it then is apart by more than
/// μ − |upper|, which cannot happen for the μ chosen unless the shapes are degenerate).
fn dilated(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
    upper: f64,
) -> Result<Option<(f64, f64)>, GeomError> {
    let size = pair_size(a, pa, b, pb);
    let mu = 1e-3 * size + 2.0 * upper.max(0.0);
    let wide = Dilated { shape: b, radius: mu };
    // sd(A, B) ≤ upper is proven, so the dilated depth μ − sd is at least μ − upper: EPA only
    // has to bring its upper bound (the lower end of sd) down to there.
    Ok(penetration_above(a, pa, &wide, pb, &settings.gjk, mu - upper)?.map(|e| (mu - e.upper, mu - e.lower)))
}

/// max(1, the extents of both shapes along the axes + the distance between their origins).
fn pair_size(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> f64 {
    let extent = |s: &Shape, p: &Pose| {
        (0..3)
            .map(|k| {
                let e = Vector3::ith(k, 1.0);
                s.support_value(p, &e) + s.support_value(p, &-e)
            })
            .fold(0.0f64, f64::max)
    };
    (extent(a, pa) + extent(b, pb) + (pb.translation() - pa.translation()).norm()).max(1.0)
}

#[cfg(test)]
mod tests {
    //! The depth answer left by the unsigned query's GJK run (`gjk::DepthOnContact`) against
    //! the cold GJK re-run it replaces: the same signed answer, bit for bit.

    use nalgebra::{Rotation3, Vector3};

    use super::{dispatch, gjk, must_swap, signed_distance, signed_from_unsigned};
    use crate::gjk::GjkStatus;
    use crate::pose::Pose;
    use crate::query::{QueryPath, QuerySettings};
    use crate::shape::{ConvexPolytope, Shape};

    #[test]
    fn stashed_depth_is_the_cold_rerun() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        // The hull of 40 points on the benchmark's ellipsoid (0.5, 0.4, 0.3).
        let points: Vec<[f64; 3]> = (0..40)
            .map(|_| {
                let v = Vector3::new(next(), next(), next()).normalize();
                [0.5 * v.x, 0.4 * v.y, 0.3 * v.z]
            })
            .collect();
        let hull = Shape::ConvexPolytope(ConvexPolytope::hull_of(&points).unwrap());
        let settings = QuerySettings::default();
        let unsigned = settings.clone().with_penetration_depth(false);
        let mut stashed_rows = 0;
        for _ in 0..400 {
            let mut pose = |c: f64| {
                let r = Rotation3::from_scaled_axis(Vector3::new(next(), next(), next()) * 3.0);
                let t = Vector3::new(c + 0.3 * next(), 0.3 * next(), 0.3 * next());
                Pose::from_matrix(*r.matrix(), t).unwrap()
            };
            let (pa, pb) = (pose(0.0), pose(0.6));
            // The unsigned run with a slot: filled exactly when GJK ended in contact.
            let swap = must_swap(&hull, &pa, &hull, &pb);
            let depth = gjk::DepthOnContact::new(None);
            let r = dispatch::distance_routed(
                &hull,
                &pa,
                &hull,
                &pb,
                &unsigned,
                swap,
                dispatch::route(&hull, &hull, &unsigned),
                Some(&depth),
            )
            .unwrap();
            let contact = matches!(r.path, QueryPath::Gjk { status: GjkStatus::Contact, .. });
            assert_eq!(depth.take().is_some(), contact);
            stashed_rows += usize::from(contact);
            // The unsigned answer is the one without a slot, and the signed answer (from the
            // slot) the one of the cold re-run.
            assert_eq!(
                format!("{r:?}"),
                format!("{:?}", dispatch::distance(&hull, &pa, &hull, &pb, &unsigned).unwrap())
            );
            let with_slot = signed_distance(&hull, &pa, &hull, &pb, &settings).unwrap();
            let rerun = signed_from_unsigned(&hull, &pa, &hull, &pb, &settings, &r, None, None).unwrap();
            assert_eq!(format!("{with_slot:?}"), format!("{rerun:?}"));
        }
        assert!(stashed_rows >= 40, "{stashed_rows} contact rows");
    }
}
