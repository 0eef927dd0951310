//! Penetration depth of two overlapping boxes by separating axes, with a proven bracket.
//!
//! # Maths
//!
//! A box is {R x + t : lo ≤ x ≤ hi} with the user's R (as given, `Pose`), so its edges run
//! along the columns u₁, u₂, u₃ of R exactly, and its facet normals are the cross products
//! of two of them (R e_k only when R is orthonormal). M = A ⊕ (−B) is a zonotope: every
//! facet of it is spanned by two non-parallel edge directions, two of A (a face of A), two of
//! B (a face of B) or one of each. So the exact facet normals of M are among the 15 directions
//! u × v / |u × v| over pairs of the six edge directions: 3 + 3 face normals and 9 edge × edge
//! products (a pair parallel in exact arithmetic spans no facet).
//!
//! With h_M(m) = h_A(m) + h_B(−m) the overlap along a unit m (B moved by h_M(m)·m touches
//! A), depth = min over unit m of h_M(m) when the origin is inside M. Two bounds:
//!
//! * **upper**: depth ≤ h_M(m) for every unit m (that translation separates), in particular
//!   for the best candidate; its value is re-read from the user's shapes' support functions
//!   (`Shape::support_value`) and must agree with ours to rounding, else no answer.
//! * **lower**: for the origin inside a polytope, dist(0, ∂M) = min over facets F of
//!   dist(0, F) ≥ min over facets of h_M(n_F). Our candidate n̂ is the cross product rounded
//!   and normalised: |n̂ − n_F| ≤ δ = 16ε/|u × v| + 4ε, and h_M is Lipschitz with constant
//!   R_M = max_{p ∈ M} |p| ≤ |t_B − t_A| + ρ_A + ρ_B (ρ = the box's corner radius times ‖R‖ ≤
//!   1 + 2e, e = max |RᵀR − I|), so h_M(n_F) ≥ h_M(n̂) − R_M δ. Each evaluation of h_M is
//!   exact to E = 64ε (Σ max(|lo|, |hi|) of both boxes + |t_B − t_A|₁) (a dozen roundings
//!   of terms bounded by those magnitudes).
//!
//! # Near-parallel edges
//!
//! When an edge u of A and an edge v of B make a tiny angle θ, their cross product has no
//! reliable direction (δ grows as 1/|u × v|). Such a pair is skipped when the cost of skipping
//! it is smaller than δ's: the facet it spans (if any, and if its normal is no other
//! candidate) is a parallelogram edge_A ⊕ edge_B of height ≤ w = min(|edge_A|, |edge_B|)·sin θ,
//! each of whose sides it shares with a facet spanned by u or v and an edge direction at ≈ 90°
//! to it (box frames are orthonormal to 1e-6), i.e. a facet with a candidate normal. Then
//! every point of the thin facet is within w of a candidate facet G, so dist(0, F) ≥
//! dist(0, G) − w ≥ min over candidates − w: the lower bound loses w (with exactly parallel
//! edges, as for two boxes with the same rotation, w is a few ulps of the edge). That the
//! origin is inside M at all is proven the same way: the segment from the centre c of M
//! (a zonotope is symmetric about it) to the origin would leave M through a thin facet F at a
//! point x within w of a candidate facet G with origin and c both inside G's half-space, which
//! needs w ≥ the lower bound m of the candidates or w ≥ M's half-width along n_G (≥ 0.28 ×
//! the smallest edge of either box); both are excluded before an answer is given.
//!
//! So depth ∈ [m − w, ĥ + E] with m = min over candidates of (ĥ(n̂) − E − R_M δ), ĥ the best
//! computed overlap; the answer is given only when m − w > 0 (the boxes provably overlap) and
//! the bracket is within 1e-9 of the pair's scale (as tight as EPA's); otherwise `None` and
//! the caller runs GJK/EPA.
//!
//! # Pruning the candidates
//!
//! Most of the 15 candidates are far from the smallest overlap. A first pass estimates every
//! overlap cheaply, in A's frame with the frames taken as orthonormal (the classic separating
//! axis test: C = R_AᵀR_B, and u_k × u_i = ±u_l, v_j × v_m = ±v_l), and only the candidates
//! within a margin μ of the smallest estimate, and those with |u × v| < 0.1 (their slack and
//! their thin-facet test), go through the exact evaluation above, in the same order and with
//! the same arithmetic: the bracket and the normal are those of the full scan, bit for bit.
//! Why: with rotation defects e ≤ 1e-6, each estimate is within μ/4 of the exact value (the
//! identities hold to a few e, every term is bounded by S = Σ reach + |t_B − t_A|₁, and
//! 1/|u × v| ≤ 10 on the estimated candidates: error ≤ 10·(10e + 50ε)·S), for μ =
//! (10⁴e + 10⁻¹⁰)·S. A skipped candidate p then has overlap > the smallest exact overlap q +
//! μ/2, more than p's slack (≤ 164ε·R_M ≤ 400ε·S for |u × v| ≥ 0.1, including the 4ε of the
//! normalisation); so it is neither the best (strictly larger) nor the minimum of ĥ − E − R_Mδ.
//! Its other checks cannot fire: a face pair of a frame with e ≤ 1e-6 has |u × v| ≈ 1, and its
//! thin-facet test needs |u × v| < 10⁻³. Frames with e > 1e-6 (or not finite), or a negative
//! orientation (where the identities change sign), and any estimate that is NaN keep the full
//! scan.
//!
//! # Witnesses
//!
//! The deepest points: p_A on A's support feature along n (from A towards B), p_B = p_A −
//! depth·n on B's along −n. They exist at the optimum (the closest boundary point of M to the
//! origin is depth·n, on the facet S_A(n) − S_B(−n)). Start from the support vertices (the
//! signs of Rᵀn; for an edge × edge axis the closest points of the two support
//! edges), then alternate projections onto A and onto B + depth·n (clamping in each box's
//! frame). They are checked: each inside its box to the verification tolerance, and p_B −
//! p_A = −depth·n to it; else `None`. The start itself is tried first (on a face axis the
//! support vertex and that vertex moved by depth·n): it passes the same check for most
//! overlaps, and the projections run only when it does not. The witnesses only gate the
//! answer (the bracket is proven without them), so which of the two passes does not move it.

use nalgebra::{Point3, Vector3};

use super::distance_point_cuboid::PosedBox;
use crate::pose::Pose;
use crate::query::certificate::separation;
use crate::query::dispatch::{as_box, must_swap};
use crate::query::verify::{frame_slack, outside_by, tolerance};
use crate::query::{
    Algorithm, Certificate, DistanceResult, Proximity, QueryPath, QuerySettings, SignedDistance,
};
use crate::shape::Shape;

/// A proven penetration of two boxes (world frame).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct BoxPenetration {
    /// Proven lower bound of the depth (> 0).
    pub lower: f64,
    /// Proven upper bound of the depth: moving B by `upper · normal` separates the boxes.
    pub upper: f64,
    /// Unit direction from A towards B along which the overlap is smallest.
    pub normal: Vector3<f64>,
    /// Deepest point of A along `normal` (in A).
    pub point_a: Point3<f64>,
    /// Deepest point of B along −`normal` (in B); `point_b − point_a ≈ −depth · normal`.
    pub point_b: Point3<f64>,
}

/// Pairs spanning a thin facet are skipped only below this |u × v| (far below the ≈ 1 of the
/// facets bordering a thin one, see the module docs).
const THIN_MAX: f64 = 1e-3;

/// Widest accepted bracket, relative to the pair's scale (EPA's default tolerance is 1e-10).
const WIDTH_MAX: f64 = 1e-9;

/// The 15 candidate pairs of edge directions (0..3 A's, 3..6 B's): A's face normals, B's,
/// then the nine edge × edge crosses.
const PAIRS: [(usize, usize); 15] = [
    (0, 1),
    (1, 2),
    (2, 0),
    (3, 4),
    (4, 5),
    (5, 3),
    (0, 3),
    (0, 4),
    (0, 5),
    (1, 3),
    (1, 4),
    (1, 5),
    (2, 3),
    (2, 4),
    (2, 5),
];

/// a·b in the order (a₀b₀ + a₁b₁) + a₂b₂ (nalgebra's for 3-vectors: the same bits).
#[inline(always)]
fn dot3(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// (u × v / |u × v|, |u × v|), each operation as nalgebra's `cross`, `norm` and division by
/// a scalar (the same bits).
#[inline(always)]
fn unit_cross(u: &[f64; 3], v: &[f64; 3]) -> ([f64; 3], f64) {
    let c = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    let len = dot3(&c, &c).sqrt();
    ([c[0] / len, c[1] / len, c[2] / len], len)
}

/// (h(w), h(−w)) of the box lo ≤ x ≤ hi at the origin of its frame along the local w:
/// Σ max(lo·w, hi·w) and Σ max(−lo·w, −hi·w), summed left to right (−(lo·w) is exactly
/// lo·(−w); an iterator sum's leading −0.0 would be absorbed exactly).
#[inline(always)]
fn support_pair(lo: &[f64; 3], hi: &[f64; 3], w: &[f64; 3]) -> (f64, f64) {
    let p = [lo[0] * w[0], lo[1] * w[1], lo[2] * w[2]];
    let q = [hi[0] * w[0], hi[1] * w[1], hi[2] * w[2]];
    let pos = larger(p[0], q[0]) + larger(p[1], q[1]) + larger(p[2], q[2]);
    let neg = larger(-p[0], -q[0]) + larger(-p[1], -q[1]) + larger(-p[2], -q[2]);
    (pos, neg)
}

/// max(x, y) by one comparison (one `maxsd`, against `f64::max`'s NaN handling). It differs
/// from `f64::max` only in the sign of a zero (x = ±0 = y) and when y alone is NaN; neither
/// reaches an answer here: a NaN product needs a NaN w, making both NaN, and a sum whose
/// terms are all zeros gives an overlap of ±0 (nonzero sums are exact whatever the zero
/// signs), whose lower end −err − slack < 0 refuses the pair.
#[inline(always)]
fn larger(x: f64, y: f64) -> f64 {
    if x > y { x } else { y }
}

/// The point of the box's support set along the local direction w (the vertex the signs of w
/// pick: the exact support vertex up to w's rounding; an exact tie at the middle of the range).
fn local_support_point(bx: &PosedBox, w: &Vector3<f64>) -> Vector3<f64> {
    Vector3::from_fn(|k, _| {
        if w[k] == 0.0 {
            0.5 * (bx.lo[k] + bx.hi[k])
        } else if w[k] > 0.0 {
            bx.hi[k]
        } else {
            bx.lo[k]
        }
    })
}

/// The world point of the box closest to p, by clamping in the box's frame.
fn clamp_into(bx: &PosedBox, p: &Point3<f64>) -> Point3<f64> {
    let l = bx.pose.inverse_transform_point(p).coords;
    let c = Vector3::from_fn(|k, _| l[k].clamp(bx.lo[k], bx.hi[k]));
    bx.pose.transform_point(&Point3::from(c))
}

/// The best candidate so far.
#[derive(Clone, Copy)]
struct Best {
    overlap: f64,
    /// Edge indices of the pair (0..3 A's, 3..6 B's).
    pair: (usize, usize),
    /// Whether the overlap is along −(u × v) (B on the negative side).
    negated: bool,
}

impl Best {
    /// The unit normal from A towards B: the pair's unit cross product, negated as recorded
    /// (recomputed: the same bits as during the scan).
    fn normal(&self, cols: &[[f64; 3]; 6]) -> Vector3<f64> {
        let (n, _) = unit_cross(&cols[self.pair.0], &cols[self.pair.1]);
        let n = Vector3::from(n);
        if self.negated { -n } else { n }
    }
}

/// Depth, bracket and witnesses of two overlapping boxes (cuboids or aligned boxes), or
/// `None` when the overlap or the witnesses are not proven (see the module docs).
pub(crate) fn box_box_penetration(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> Option<BoxPenetration> {
    penetration_scanned(a, pa, b, pb, true)
}

/// [`box_box_penetration`], its candidates pruned by their estimates when `prune` (the same
/// answer: module docs, "Pruning the candidates"), else all evaluated.
#[inline(always)]
fn penetration_scanned(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, prune: bool) -> Option<BoxPenetration> {
    let (ba, bb) = (as_box(a, pa)?, as_box(b, pb)?);
    let (ra, rb) = (pa.rotation(), pb.rotation());
    let d = pb.translation() - pa.translation();
    let edges = [ra.column(0), ra.column(1), ra.column(2), rb.column(0), rb.column(1), rb.column(2)]
        .map(|c| c.into_owned());
    let reach = |bx: &PosedBox| Vector3::from_fn(|k, _| bx.lo[k].abs().max(bx.hi[k].abs()));
    let (ka, kb) = (reach(&ba), reach(&bb));
    let ortho = pa.orthonormality_error().max(pb.orthonormality_error());
    let eps = f64::EPSILON;
    // Evaluation error of h_M and the Lipschitz constant of h_M (module docs).
    let scale = ka.sum() + kb.sum() + d.abs().sum();
    let err = 64.0 * eps * scale;
    let r_m = (d.norm() + (ka.norm() + kb.norm()) * (1.0 + 2.0 * ortho)) * (1.0 + 1e-12);
    // The six edge directions as plain arrays, their lengths once each (the same products
    // as `(hi − lo)·|u|` per use: the same bits, six square roots instead of up to 18).
    let cols: [[f64; 3]; 6] = core::array::from_fn(|k| [edges[k].x, edges[k].y, edges[k].z]);
    let length: [f64; 6] = core::array::from_fn(|k| {
        let bx = if k < 3 { &ba } else { &bb };
        (bx.hi[k % 3] - bx.lo[k % 3]) * dot3(&cols[k], &cols[k]).sqrt()
    });
    let (lo_a, hi_a): ([f64; 3], [f64; 3]) = (ba.lo.into(), ba.hi.into());
    let (lo_b, hi_b): ([f64; 3], [f64; 3]) = (bb.lo.into(), bb.hi.into());
    let dv: [f64; 3] = d.into();
    let mut best: Option<Best> = None;
    let mut lower = f64::INFINITY;
    let mut thin = 0.0f64;
    let evaluated = if prune {
        candidates_near_best(&cols, (&lo_a, &hi_a), (&lo_b, &hi_b), &dv, ortho, scale)
    } else {
        ALL_CANDIDATES
    };
    for (p, (i, j)) in PAIRS.into_iter().enumerate() {
        if evaluated & (1 << p) == 0 {
            continue;
        }
        let (n, len) = unit_cross(&cols[i], &cols[j]);
        if !len.is_finite() {
            return None;
        }
        let slack = if len > 0.0 { r_m * (16.0 * eps / len + 4.0 * eps) } else { f64::INFINITY };
        if j >= 3 && i < 3 {
            let w = length[i].min(length[j]) * (len + 4.0 * eps) * (1.0 + 2.0 * ortho);
            if len < THIN_MAX && w <= slack {
                thin = thin.max(w);
                continue;
            }
        } else if len < 0.5 {
            // A face normal of a valid box frame has |u × v| ≈ 1.
            return None;
        }
        let wa = [dot3(&cols[0], &n), dot3(&cols[1], &n), dot3(&cols[2], &n)];
        let wb = [dot3(&cols[3], &n), dot3(&cols[4], &n), dot3(&cols[5], &n)];
        let nd = dot3(&n, &dv);
        let (ha_pos, ha_neg) = support_pair(&lo_a, &hi_a, &wa);
        let (hb_pos, hb_neg) = support_pair(&lo_b, &hi_b, &wb);
        // Overlap along n (B beyond A) and along −n.
        for (negated, ov) in [(false, ha_pos + hb_neg - nd), (true, ha_neg + hb_pos + nd)] {
            // `lower.min(x)` by a comparison: the same value (a NaN x is skipped by both).
            let bound = ov - err - slack;
            if bound < lower {
                lower = bound;
            }
            if best.is_none_or(|b| ov < b.overlap) {
                best = Some(Best { overlap: ov, pair: (i, j), negated });
            }
        }
    }
    let best = best?;
    let lower = lower - thin;
    let upper = best.overlap + err;
    // Overlap proven, the origin inside M (thin facets: module docs), bracket tight enough.
    let smallest = |bx: &PosedBox| (bx.hi - bx.lo).min();
    let half_width = 0.28 * smallest(&ba).max(smallest(&bb)) * (1.0 - 3.0 * ortho);
    if !(lower > 0.0 && thin < half_width && upper - lower <= WIDTH_MAX * scale.max(1.0)) {
        return None;
    }
    // The upper end re-read from the user's shapes' support functions.
    let n = best.normal(&cols);
    let user = -separation(a, pa, b, pb, &n);
    let moved = 64.0 * eps * (pa.translation().abs().sum() + pb.translation().abs().sum());
    // (NaN compares false: refused.)
    let agree = (user - best.overlap).abs() <= err + moved;
    if !agree {
        return None;
    }
    let upper = upper.max(user + err + moved);
    // Checked against the user's shapes: inside each, and p_b − p_a = −depth·n.
    let checked = |point_a: &Point3<f64>, point_b: &Point3<f64>| {
        let coord = point_a.coords.amax().max(point_b.coords.amax());
        let tol = tolerance(coord) + err;
        let inside = |s: &Shape, pose: &Pose, p: &Point3<f64>| {
            outside_by(s, pose, p).is_some_and(|x| x <= tol + frame_slack(pa, pb, p))
        };
        let residual = (point_b - point_a + n * best.overlap).norm();
        inside(a, pa, point_a) && inside(b, pb, point_b) && residual <= tol + frame_slack(pa, pb, point_a)
    };
    // The support features' points first (most overlaps), the alternating projections when
    // those do not pass (module docs, "Witnesses").
    let features = support_features(&ba, &bb, &edges, n, best);
    let start = witness_start(features, n, best);
    let (point_a, point_b) = if checked(&start.0, &start.1) {
        start
    } else {
        let (point_a, point_b) = witnesses(&ba, &bb, features, n, best)?;
        if !checked(&point_a, &point_b) {
            return None;
        }
        (point_a, point_b)
    };
    Some(BoxPenetration { lower, upper, normal: n, point_a, point_b })
}

/// Every candidate (bit p for `PAIRS[p]`).
const ALL_CANDIDATES: u16 = (1 << 15) - 1;

/// Candidates estimated with |u × v| below this always get the exact evaluation.
const ESTIMATE_MIN_LEN: f64 = 0.1;

/// The candidates (bit p for `PAIRS[p]`) whose overlap may be the smallest or whose slack
/// or thin-facet test matters: those whose estimated overlap (both ways) is within the
/// margin μ of the smallest estimate, and those with |u × v| < 0.1; all of them when the
/// estimates are not valid (module docs, "Pruning the candidates").
#[inline]
fn candidates_near_best(
    cols: &[[f64; 3]; 6],
    (lo_a, hi_a): (&[f64; 3], &[f64; 3]),
    (lo_b, hi_b): (&[f64; 3], &[f64; 3]),
    d: &[f64; 3],
    ortho: f64,
    scale: f64,
) -> u16 {
    if ortho.is_nan() || ortho > crate::pose::ROTATION_TOLERANCE {
        return ALL_CANDIDATES;
    }
    let orientation = |u: &[f64; 3], v: &[f64; 3], w: &[f64; 3]| {
        dot3(&[u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]], w)
    };
    if !(orientation(&cols[0], &cols[1], &cols[2]) > 0.5 && orientation(&cols[3], &cols[4], &cols[5]) > 0.5) {
        return ALL_CANDIDATES;
    }
    // C[k][m] = u_k·v_m, and t_B − t_A along A's and B's axes.
    let c: [[f64; 3]; 3] = core::array::from_fn(|k| core::array::from_fn(|m| dot3(&cols[k], &cols[3 + m])));
    let ta = [dot3(&cols[0], d), dot3(&cols[1], d), dot3(&cols[2], d)];
    let tb = [dot3(&cols[3], d), dot3(&cols[4], d), dot3(&cols[5], d)];
    let boxes = (lo_a, hi_a, lo_b, hi_b);
    // In the order of `PAIRS`: A's faces (u_i × u_j = u_k for the cyclic pairs), B's, then the
    // nine edge pairs (each helper call with constant indices, unrolled).
    let estimate = [
        face_estimate(boxes, unit_axis(2), c[2], ta[2]),
        face_estimate(boxes, unit_axis(0), c[0], ta[0]),
        face_estimate(boxes, unit_axis(1), c[1], ta[1]),
        face_estimate(boxes, [c[0][2], c[1][2], c[2][2]], unit_axis(2), tb[2]),
        face_estimate(boxes, [c[0][0], c[1][0], c[2][0]], unit_axis(0), tb[0]),
        face_estimate(boxes, [c[0][1], c[1][1], c[2][1]], unit_axis(1), tb[1]),
        edge_estimate(boxes, &c, &ta, 0, 0),
        edge_estimate(boxes, &c, &ta, 0, 1),
        edge_estimate(boxes, &c, &ta, 0, 2),
        edge_estimate(boxes, &c, &ta, 1, 0),
        edge_estimate(boxes, &c, &ta, 1, 1),
        edge_estimate(boxes, &c, &ta, 1, 2),
        edge_estimate(boxes, &c, &ta, 2, 0),
        edge_estimate(boxes, &c, &ta, 2, 1),
        edge_estimate(boxes, &c, &ta, 2, 2),
    ];
    // (NaN estimates are skipped here and kept below.)
    let mut smallest = f64::INFINITY;
    for e in estimate {
        if e < smallest {
            smallest = e;
        }
    }
    let threshold = smallest + (1e4 * ortho + 1e-10) * scale;
    let mut near = 0u16;
    for (p, e) in estimate.into_iter().enumerate() {
        // A NaN estimate or threshold: evaluated.
        if e <= threshold || e.is_nan() || threshold.is_nan() {
            near |= 1 << p;
        }
    }
    near
}

/// The unit vector e_k.
#[inline(always)]
fn unit_axis(k: usize) -> [f64; 3] {
    let mut e = [0.0; 3];
    e[k] = 1.0;
    e
}

/// The local boxes (lo_A, hi_A, lo_B, hi_B).
type LocalBoxes<'b> = (&'b [f64; 3], &'b [f64; 3], &'b [f64; 3], &'b [f64; 3]);

/// The smaller estimated overlap (both ways) along a unit normal n given as (u_k·n, v_m·n,
/// n·(t_B − t_A)); NaN when either is.
#[inline(always)]
fn face_estimate((lo_a, hi_a, lo_b, hi_b): LocalBoxes<'_>, wa: [f64; 3], wb: [f64; 3], nd: f64) -> f64 {
    let (ha_pos, ha_neg) = support_pair(lo_a, hi_a, &wa);
    let (hb_pos, hb_neg) = support_pair(lo_b, hi_b, &wb);
    smaller_or_nan(ha_pos + hb_neg - nd, ha_neg + hb_pos + nd)
}

/// [`face_estimate`] along u_i × v_m, in A's frame: u_{i+1} × u_i = −u_{i+2}, u_{i+2} × u_i
/// = u_{i+1}, v_m × v_{m+1} = v_{m+2}, v_m × v_{m+2} = −v_{m+1} (indices mod 3), divided by
/// the length; NaN (always evaluated) below [`ESTIMATE_MIN_LEN`].
#[inline(always)]
fn edge_estimate(boxes: LocalBoxes<'_>, c: &[[f64; 3]; 3], ta: &[f64; 3], i: usize, m: usize) -> f64 {
    let (i1, i2, m1, m2) = ((i + 1) % 3, (i + 2) % 3, (m + 1) % 3, (m + 2) % 3);
    let mut wa = [0.0; 3];
    wa[i1] = -c[i2][m];
    wa[i2] = c[i1][m];
    let mut wb = [0.0; 3];
    wb[m1] = c[i][m2];
    wb[m2] = -c[i][m1];
    let nd = ta[i1] * wa[i1] + ta[i2] * wa[i2];
    let len = (wa[i1] * wa[i1] + wa[i2] * wa[i2]).sqrt();
    // h is positively homogeneous: the overlap along the unit normal.
    if len >= ESTIMATE_MIN_LEN { face_estimate(boxes, wa, wb, nd) / len } else { f64::NAN }
}

/// The smaller of x and y by comparisons, NaN when either is.
#[inline(always)]
fn smaller_or_nan(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x < y {
        x
    } else {
        y
    }
}

/// The signed distance of two overlapping boxes from [`box_box_penetration`] (in canonical
/// order, so that exchanging A and B gives the same bits), when `r`, the checked unsigned
/// answer, is a contact and the algorithm is `Auto`; `None` otherwise (GJK/EPA then).
pub(crate) fn signed_box_box(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
    r: &DistanceResult,
) -> Option<SignedDistance> {
    if settings.algorithm != Algorithm::Auto || matches!(r.proximity, Proximity::Separated { .. }) {
        return None;
    }
    let p = if must_swap(a, pa, b, pb) {
        box_box_penetration(b, pb, a, pa)?
    } else {
        box_box_penetration(a, pa, b, pb)?
    };
    let point = match r.proximity {
        Proximity::Touching { point } | Proximity::Intersecting { point: Some(point), .. } => Some(point),
        _ => None,
    };
    let result = DistanceResult {
        proximity: Proximity::Intersecting { point, depth: Some(p.upper) },
        certificate: r.certificate,
        algorithm: Algorithm::Sat,
        path: QueryPath::ClosedForm,
    };
    Some(SignedDistance {
        value: -p.upper,
        certificate: Certificate { lower: -p.upper, upper: -p.lower },
        result,
    })
}

/// The first witness candidates along the best axis: on a face axis, the other box's support
/// vertex and that vertex moved by the depth along the axis; on an edge × edge axis, the
/// closest points of the support edges (the start of [`witnesses`], without its projections).
/// `(pa, pb)`: the support features' points ([`support_features`]).
fn witness_start(
    (pa, pb): (Point3<f64>, Point3<f64>),
    n: Vector3<f64>,
    best: Best,
) -> (Point3<f64>, Point3<f64>) {
    let shift = n * best.overlap;
    match best.pair {
        (i, j) if i < 3 && j >= 3 => (pa, pb),
        // A face of B: A's vertex.
        (i, _) if i >= 3 => (pa, pa - shift),
        // A face of A: B's vertex.
        _ => (pb + shift, pb),
    }
}

/// The support points of A along n and of B along −n (the signs of the local directions),
/// for an edge × edge axis moved to the closest points of the two support edges' lines,
/// clamped to the edges (world frame).
fn support_features(
    ba: &PosedBox,
    bb: &PosedBox,
    edges: &[Vector3<f64>; 6],
    n: Vector3<f64>,
    best: Best,
) -> (Point3<f64>, Point3<f64>) {
    let (wa, wb) = (ba.pose.rotation().tr_mul(&n), bb.pose.rotation().tr_mul(&-n));
    let mut la = local_support_point(ba, &wa);
    let mut lb = local_support_point(bb, &wb);
    let (i, j) = best.pair;
    if i < 3 && j >= 3 {
        // Edge × edge: the closest points of the two support edges' lines, clamped.
        let (k, l) = (i, j - 3);
        let (u, v) = (edges[i], edges[j]);
        let (p, q) = (ba.pose.transform_point(&Point3::from(la)), bb.pose.transform_point(&Point3::from(lb)));
        let r = q - p;
        let (uu, vv, uv) = (u.dot(&u), v.dot(&v), u.dot(&v));
        let den = uu * vv - uv * uv;
        if den > 0.0 {
            let s = (r.dot(&u) * vv - r.dot(&v) * uv) / den;
            let t = (r.dot(&u) * uv - r.dot(&v) * uu) / den;
            la[k] = (la[k] + s).clamp(ba.lo[k], ba.hi[k]);
            lb[l] = (lb[l] + t).clamp(bb.lo[l], bb.hi[l]);
        }
    }
    (ba.pose.transform_point(&Point3::from(la)), bb.pose.transform_point(&Point3::from(lb)))
}

/// The deepest points along the best axis (module docs, "Witnesses"), projected from the
/// support features' points `features` ([`support_features`]).
fn witnesses(
    ba: &PosedBox,
    bb: &PosedBox,
    features: (Point3<f64>, Point3<f64>),
    n: Vector3<f64>,
    best: Best,
) -> Option<(Point3<f64>, Point3<f64>)> {
    let depth = best.overlap;
    let (mut pa, mut pb) = features;
    let (i, _) = best.pair;
    // Alternating projections onto A and onto B + depth·n (they touch), starting from the
    // box whose support feature is a vertex: on a face axis of B that is A's point, moved
    // onto B's face in one step (and the other way round on a face axis of A).
    let shift = n * depth;
    let from_a = i >= 3;
    for _ in 0..8 {
        let (next_a, next_b) = if from_a {
            let next_b = clamp_into(bb, &(pa - shift));
            (clamp_into(ba, &(next_b + shift)), next_b)
        } else {
            let next_a = clamp_into(ba, &(pb + shift));
            (next_a, clamp_into(bb, &(next_a - shift)))
        };
        let done = next_a == pa && next_b == pb;
        (pa, pb) = (next_a, next_b);
        if done {
            break;
        }
    }
    (pa.coords.iter().chain(pb.coords.iter()).all(|x| x.is_finite())).then_some((pa, pb))
}

#[cfg(test)]
mod tests {
    use nalgebra::{Matrix3, Rotation3, Vector3};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::shape::Cuboid;

    /// The witnesses of every answered random overlap: inside their boxes, p_b − p_a =
    /// −depth·n, and B moved by the upper end along n is apart or touching by the user's
    /// support functions.
    #[test]
    fn witnesses_and_translation() {
        let mut rng = SmallRng::seed_from_u64(31);
        let mut answered = 0;
        for _ in 0..2000 {
            let h = |rng: &mut SmallRng| [0; 3].map(|_| rng.random_range(0.05..1.5));
            let (a, b) = (
                Shape::Cuboid(Cuboid::new(h(&mut rng)).unwrap()),
                Shape::Cuboid(Cuboid::new(h(&mut rng)).unwrap()),
            );
            let rot = |rng: &mut SmallRng| {
                *Rotation3::new(Vector3::from_fn(|_, _| rng.random_range(-3.0..3.0))).matrix()
            };
            let pa = Pose::from_matrix(rot(&mut rng), Vector3::from_fn(|_, _| rng.random_range(-2.0..2.0)))
                .unwrap();
            let t = pa.translation() + Vector3::from_fn(|_, _| rng.random_range(-0.3..0.3));
            let pb = Pose::from_matrix(rot(&mut rng), t).unwrap();
            let Some(p) = box_box_penetration(&a, &pa, &b, &pb) else { continue };
            answered += 1;
            assert!(0.0 < p.lower && p.lower <= p.upper && (p.normal.norm() - 1.0).abs() < 1e-15);
            let tol = tolerance(p.point_a.coords.amax().max(p.point_b.coords.amax()));
            assert!(outside_by(&a, &pa, &p.point_a).unwrap() <= tol, "{p:?}");
            assert!(outside_by(&b, &pb, &p.point_b).unwrap() <= tol, "{p:?}");
            assert!((p.point_b - p.point_a + p.normal * p.upper).norm() <= 1e-12, "{p:?}");
            let moved = Pose::from_matrix(*pb.rotation(), pb.translation() + p.normal * p.upper).unwrap();
            assert!(separation(&a, &pa, &b, &moved, &p.normal) >= -1e-14, "{p:?}");
            // Moved by less than the lower end, they still overlap along every candidate.
            let short =
                Pose::from_matrix(*pb.rotation(), pb.translation() + p.normal * (0.999 * p.lower)).unwrap();
            assert!(box_box_penetration(&a, &pa, &b, &short).is_none_or(|q| q.upper > 0.0));
        }
        assert!(answered > 1000, "{answered}");
    }

    /// The pruned scan gives the full scan's answer bit for bit (or both none), on cuboids and
    /// aligned boxes, random and near-parallel frames (some axes shared up to tiny angles),
    /// and frames off orthonormal by up to 1e-6.
    #[test]
    fn pruned_scan_is_the_full_scan() {
        use crate::shape::AlignedBox;
        let mut rng = SmallRng::seed_from_u64(7);
        let (mut answered, mut compared) = (0, 0);
        for round in 0..6000 {
            let h = |rng: &mut SmallRng| [0; 3].map(|_| rng.random_range(0.01..1.5));
            let shape = |rng: &mut SmallRng| {
                if rng.random_bool(0.7) {
                    Shape::Cuboid(Cuboid::new(h(rng)).unwrap())
                } else {
                    let lo = Vector3::from_fn(|_, _| rng.random_range(-1.0..0.5));
                    let hi = lo + Vector3::from(h(rng));
                    Shape::AlignedBox(AlignedBox::new(lo.into(), hi.into()).unwrap())
                }
            };
            let (a, b) = (shape(&mut rng), shape(&mut rng));
            let base = *Rotation3::new(Vector3::from_fn(|_, _| rng.random_range(-3.0..3.0))).matrix();
            let rb = match round % 3 {
                0 => *Rotation3::new(Vector3::from_fn(|_, _| rng.random_range(-3.0..3.0))).matrix(),
                // Near-parallel: a tiny turn about a random axis.
                1 => {
                    let tiny = 10f64.powf(rng.random_range(-12.0..-2.0));
                    base * *Rotation3::new(Vector3::from_fn(|_, _| rng.random_range(-1.0..1.0)) * tiny)
                        .matrix()
                }
                _ => base,
            };
            // Off orthonormal by up to ~1e-6 on some rows.
            let skew = |rng: &mut SmallRng, m: Matrix3<f64>| {
                if rng.random_bool(0.2) { m * (1.0 + rng.random_range(0.0..4e-7)) } else { m }
            };
            let (ra, rb) = (skew(&mut rng, base), skew(&mut rng, rb));
            let ta = Vector3::from_fn(|_, _| rng.random_range(-2.0..2.0));
            let tb = ta + Vector3::from_fn(|_, _| rng.random_range(-0.8..0.8));
            let (Ok(pa), Ok(pb)) = (Pose::from_matrix(ra, ta), Pose::from_matrix(rb, tb)) else { continue };
            compared += 1;
            let full = penetration_scanned(&a, &pa, &b, &pb, false);
            let pruned = penetration_scanned(&a, &pa, &b, &pb, true);
            assert_eq!(full, pruned, "round {round}");
            answered += usize::from(full.is_some());
        }
        assert!(compared > 5000 && answered > 1000, "{compared} {answered}");
    }
}
