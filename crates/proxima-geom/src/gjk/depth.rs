//! Penetration depth of curved cores by Newton on the support function, certified by a ball
//! enclosed in the Minkowski difference.
//!
//! # Maths
//!
//! For overlapping cores the depth is δ = min_{|n|=1} h_M(n), M = A − B, h_M(n) = h_A(n) +
//! h_B(−n) = −g(n) with g the dual function of the distance polish ([`super::polish`]): the
//! same maximization of g over the unit sphere, now at negative values. So
//!
//! * **upper bound**: δ ≤ −g(n) for every unit n (the half-space {n·x ≤ h_M(n)} contains M);
//!   Newton on the sphere makes it quadratically convergent from a direction near the optimum
//!   (EPA's closest face at a loose gap, or the last step's direction when tracking);
//! * **lower bound** (the certificate): if ball(c_A, ρ_A) ⊆ A and ball(c_B, ρ_B) ⊆ B then
//!   ball(c_A − c_B, ρ_A + ρ_B) ⊆ M, hence δ ≥ ρ_A + ρ_B − |c_A − c_B|. Taking the balls
//!   tangent at the witnesses a ∈ A, b ∈ B on the support planes along n (c_A = a − ρ_A n,
//!   c_B = b + ρ_B n) gives c_A − c_B = (a − b) − ρ n with ρ = ρ_A + ρ_B. At the optimum
//!   a − b = δ n, so the bound is ρ − |δ − ρ| = δ exactly when ρ ≥ δ: the bound is tight to
//!   second order in the distance to the optimum (|c|² = (ρ − h)² + |t|² for the tangential
//!   part t of a − b). ρ ≥ δ is also the condition for the optimum to be a strict local
//!   maximum of g (the tangential Hessian of g is −(H_A + H_B) − g·I), i.e. for Newton to
//!   apply at all; when it fails, EPA goes on.
//!
//! The bound holds for *any* enclosed balls; nothing about the optimality of n is assumed:
//! a Newton run that stopped at a local, non-global optimum leaves a gap between the
//! bounds (the ball bound never exceeds the true depth), and EPA continues.
//!
//! # Enclosed balls per core
//!
//! * **ellipsoid** with radii r₁ ≥ r₂ ≥ r₃: the ball of radius r₃²/r₁ (the smallest radius of
//!   curvature) tangent inside at any boundary point is in the ellipsoid (Blaschke's rolling
//!   theorem, Rauch's form for surfaces: principal curvatures ≤ 1/ρ everywhere); tangent at
//!   the support point along the local normal, recomputed in the ellipsoid's own frame.
//!   That is the worst case over the surface; the **medial ball** is the largest ball tangent
//!   at the support point s: centred where the inward normal meets the plane of the two longest
//!   axes, c_i = s_i(1 − r₃²/r_i²), c₃ = 0, radius r₃²·|D⁻²s| (D = diag r). Proof: for any c
//!   with c₃ = 0 the quadratic Σ y_i²/r_i² − 1 − (|y − c|² − ρ²)/r₃² has no y₃ term, is concave
//!   in y₁, y₂, and its maximum is Σ_{i≤2} c_i²/(r_i² − r₃²) + ρ²/r₃² − 1; so for
//!   ρ² = r₃²(1 − Σ_{i≤2} c_i²/(r_i² − r₃²)) every y with |y − c| ≤ ρ satisfies the ellipsoid's
//!   inequality. The radius is computed from c by that formula (valid whatever the rounding
//!   of s). A point deep inside whose nearest boundary point is s lies in this ball, so a
//!   vertex or a flat face against an ellipsoid is certified at any depth, where the rolling
//!   ball stops at r₃²/r₁ (polytope–ellipsoid pairs fell back to the full EPA);
//! * **polytope** (a convex polytope or polyhedron; not a box, which has its own, nor a
//!   triangle, which encloses none) when the polish fixed n as a face normal of three of its
//!   vertices: the tetrahedron of that face and the vertex furthest behind it (the support
//!   point along −n) is inside the polytope, and the ball tangent to the face at the witness
//!   is inside the tetrahedron for ρ ≤ m·(x₀ − p)/(1 − m·u) over its three side planes
//!   (unit outward m through x₀, u the face normal); the radius is re-measured from the
//!   centre to the four planes and lowered by 64 ulps of the coordinates. Built in A's frame
//!   from the vertices as placed there (B's are images of its own by the relative frame, so
//!   the tetrahedron is inside B's image: no distortion allowance);
//! * **cylinder** (radius r, half height h) and **box** (half extents e): for ρ ≤ min(r, h)
//!   (min e) the body contains the shrunk body ⊕ ball(ρ), so any centre clamped into the
//!   shrunk body (radius r − ρ, half height h − ρ; half extents e − ρ) is a valid centre;
//!   the centres are a − ρ n clamped, for ρ at 1, ½, ¼ and ⅛ of the largest (clamping
//!   moves the ball off the witness near an edge, where a smaller ball stays tangent);
//! * **cone** (base radius r at z = −h, apex at z = h): the centres of the balls of radius ρ
//!   inside are, in the meridian half-plane (q = |x_xy|, z), the points with z ≥ −h + ρ and
//!   (2h·q + r·z − r·h)/√(4h² + r²) ≤ −ρ (distance ρ from the base plane and from the lateral
//!   line, whose nearest point to a centre lies in its meridian plane by symmetry), a triangle
//!   that is not empty for ρ up to the meridian triangle's inradius 2rh/(r + √(4h² + r²)); the
//!   same four radii as the cylinder's, each centre a − ρ n moved into that triangle (a ball
//!   tangent along the lateral normal or the base normal is already inside it and stays
//!   tangent). Without it a cone had only the radius-0 ball and was certified only against
//!   a polytope face or an ellipsoid's ball;
//! * every core: the witness itself with radius 0 (the witness is a point of the core).
//!
//! The best pair of candidates is kept. Rounding: the bound is lowered by 16 ulps of the
//! magnitudes involved, and B's radius is scaled by 1 − 3e for the relative rotation's
//! distortion e = max |RᵀR − I| (R·ball(ρ) contains the ball of radius (1 − 3e)ρ).

use nalgebra::{Point3, Vector3};

use super::epa::{FaceSeed, Finish};
use super::polish::{Bracket, Eval, polish};
use super::simplex::{Simplex, Vertex};
use super::support::{CoreShape, Difference, SupportMap};
use crate::shape::Shape;

/// The depth bracket and the witnesses of its upper end, from the Newton iterates
/// (computation frame: A's).
#[derive(Debug, Clone, Copy)]
pub(crate) struct DepthPolished {
    /// Best enclosed-ball lower bound of the depth.
    pub lower: f64,
    /// Best upper bound min −g(n) over the iterates.
    pub upper: f64,
    /// The unit direction of `upper` (from A towards B: B moves by `upper` along it).
    pub normal: Vector3<f64>,
    /// The witnesses of `upper`: a ∈ A, b ∈ B on their support planes along `normal`.
    pub a: Point3<f64>,
    pub b: Point3<f64>,
    /// Newton steps taken.
    pub steps: u32,
}

impl DepthPolished {
    /// No bound yet: [0, ∞).
    pub fn empty() -> Self {
        Self {
            lower: 0.0,
            upper: f64::INFINITY,
            normal: Vector3::z(),
            a: Point3::origin(),
            b: Point3::origin(),
            steps: 0,
        }
    }
}

impl Bracket for DepthPolished {
    fn admissible(&self, _g: f64) -> bool {
        // Any sign: the Newton system's definiteness decides (see the module docs).
        true
    }

    fn tighten(
        &mut self,
        diff: &Difference<'_, CoreShape<'_>, CoreShape<'_>>,
        e: &Eval,
        target: f64,
    ) -> bool {
        let up = -e.g;
        if up < self.upper {
            (self.upper, self.normal, self.a, self.b) = (up, e.n, e.a, e.b);
        }
        self.lower = self.lower.max(enclosed_ball_bound(diff, &e.n, &e.a, &e.b, e.faces));
        self.upper - self.lower <= target
    }

    fn set_steps(&mut self, steps: u32) {
        self.steps = steps;
    }

    fn kink(&self) -> f64 {
        DEPTH_KINK
    }
}

/// The depth polish starts from EPA's closest face at a loose gap, whose normal can be some
/// 1e-2 off the optimum: a cylinder direction this near (relative) its side or cap normals is
/// taken as at the side or cap (a wrong guess only costs the attempt: the bracket is proven
/// either way, and EPA goes on).
const DEPTH_KINK: f64 = 0.05;

/// The finishing hook of EPA on curved cores ([`super::epa::expand_finishing`]): Newton on
/// the depth from EPA's closest face (`face`, normal `n`) until the enclosed-ball bound
/// meets the upper bound to `target`; `None` when it does not.
///
/// (Measured without effect: when the first polish fails, a second one from a simplex whose
/// polytope points are the polytope's support set probed around n — the closest face can
/// show three hull vertices across an edge contact — closed no bracket on the start_contact
/// CCD workload, where the finish fails on 48 of 90 hull–ellipsoid, 33 of 51 hull–cylinder
/// and 48 of 63 hull–cone expansions: identical answers, +2.6 % instructions in the depth.
/// The failures there are not a misread polytope feature.)
///
/// (Why they fail, measured on that workload by logging the best ball pair of each failed
/// finish, `proxima query --op toi`, one pass: 84 of 120 finishes failed; on 15 of the 16 ellipsoid–hull and 12 of the 16 hull–cone failures the best pair
/// has ρ_A + ρ_B < δ, the hull's side adding a radius of 0 (its witness a vertex or an edge,
/// no face fixed) or a tetrahedron ball of a few percent of δ, so the bound 2ρ − δ stays
/// short whatever Newton does; on the cylinder, box and cone pairs the radii reach δ in about
/// half the failures, but the centres are clamped off the witnesses (rims and edges), so
/// |c_A − c_B| stays well above |δ − ρ|. A bound from a ball of one core against the other
/// core's whole tetrahedron, ρ + depth(c, T) (M ⊇ ball(c, ρ) − T, exact when c lies under
/// the face of T by δ − ρ), was tried: it changed 1 of the 400 depths by 3e-15 and nothing
/// else, closing no failed finish: the tetrahedron exists only at iterates where the polish
/// fixed a hull face (6 of the 16 ellipsoid–hull failures), and did not reach δ there
/// either. What is missing is an inner set at a hull's edge or vertex: the other core's
/// ball minus the hull's faces around that feature, which needs the hull's face planes at
/// the witness.)
pub(crate) fn finish_curved(
    diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    face: &Simplex,
    n: &Vector3<f64>,
    target: f64,
) -> Option<Finish> {
    match polish(diff, *n, face, DepthPolished::empty(), target) {
        Some(p) => Some(Finish {
            lower: p.lower,
            upper: p.upper,
            normal: p.normal,
            a: p.a,
            b: p.b,
            seed: FaceSeed::none(),
        }),
        None => {
            // No bracket from Newton: an edge against a cylinder's rim or side has a bound
            // and a face of its own (`edge_cylinder`); the other bounds stay EPA's.
            edge_cylinder(diff, n, target)
        }
    }
}

/// Tilt of the directions probing for a polytope's edge around the depth normal (radians,
/// about): more than EPA's closest face normal is off the optimum at [`super::epa::FINISH_FROM`],
/// less than the angle between neighbouring face normals of the shapes it should find.
const EDGE_PROBE_TILT: f64 = 0.05;

/// A lower bound of the depth ([`edge_rim_bound`]) and the face of M where a polytope's edge
/// meets a cylinder's side, as four points of M, when
/// the closest face's normal `n` (A's frame) is near one: the depth normal is then
/// n* = ±(e × z)/|e × z| (e the edge, z the cylinder's axis), where both support functions
/// have kinks (an edge and a side segment tie across it), which the Newton finish leaves to
/// EPA; and M's face there is the parallelogram E − S (E the edge, S the side segment facing
/// −n*, or the reverse when A is the cylinder), exact points of M: support points of the
/// polytope (its edge's ends, found by supports along n tilted by [`EDGE_PROBE_TILT`] in four
/// directions: exactly two distinct points) minus the cylinder's support points along the
/// side direction tilted up and down its axis (the side's two ends at one azimuth). EPA's
/// polytope with that face has its lower bound at the depth when the origin projects inside
/// the face: a face of the polytope through an edge of it, tilted by θ, is δ·cos θ + e·sin θ
/// from the origin (e: how far inside the projection lies), at least δ for tan(θ/2) ≤ e/δ.
/// Every point is a point of A minus a point of B, so the bracket is EPA's proof as before;
/// this only shortens the expansion. Empty when the cores are not a cylinder and another core
/// showing an edge, or n* is not near n.
fn edge_cylinder(
    diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    n: &Vector3<f64>,
    target: f64,
) -> Option<Finish> {
    let mut seed = FaceSeed::none();
    let open = |lower: f64, seed: FaceSeed| {
        (lower > 0.0 || seed.len > 0).then_some(Finish {
            lower: lower.max(0.0),
            upper: f64::INFINITY,
            normal: *n,
            a: Point3::origin(),
            b: Point3::origin(),
            seed,
        })
    };
    let cyl = |c: &CoreShape<'_>| match c {
        CoreShape::Whole(Shape::Cylinder(c)) => Some((c.radius(), c.half_height())),
        _ => None,
    };
    let (b_is_cyl, (radius, half)) = match (cyl(diff.a), cyl(diff.b)) {
        (None, Some(c)) => (true, c),
        (Some(c), None) => (false, c),
        _ => return None,
    };
    let n = n.try_normalize(0.0)?;
    // The other core's support points along n tilted four ways: an edge shows two.
    let u = if n.x.abs() < 0.6 { Vector3::x() } else { Vector3::y() };
    let u = (u - n * n.dot(&u)).normalize();
    let w = n.cross(&u);
    let mut ends = [Point3::origin(); 4];
    let mut k = 0;
    for t in [u, w, -u, -w] {
        let v = diff.support(&-(n + t * EDGE_PROBE_TILT));
        let p = if b_is_cyl { v.a } else { v.b };
        if !ends[..k].contains(&p) {
            ends[k] = p;
            k += 1;
        }
    }
    if k != 2 {
        return None;
    }
    let (lower, normal) = edge_rim_bound(&diff.frame, b_is_cyl, radius, half, &ends[0], &ends[1]);
    if lower > 0.0 {
        // The upper end along ±the lateral normal (K or −K is inside M: either may be the
        // depth normal; both give upper bounds h_M).
        let mut fin: Option<Finish> = None;
        for m in [normal, -normal] {
            let v = diff.support(&-m);
            let up = m.dot(&v.w);
            if fin.is_none_or(|f| up < f.upper) {
                fin = Some(Finish { lower, upper: up, normal: m, a: v.a, b: v.b, seed: FaceSeed::none() });
            }
        }
        if let Some(f) = fin
            && f.upper - lower <= target
        {
            return Some(f);
        }
    }
    // The cylinder's axis in A's frame.
    let axis = if b_is_cyl { diff.frame.r.column(2).into_owned() } else { Vector3::z() };
    let Some(star) = (ends[1] - ends[0]).cross(&axis).try_normalize(0.0) else { return open(lower, seed) };
    let star = if star.dot(&n) < 0.0 { -star } else { star };
    if star.dot(&n) < 1.0 - 8.0 * EDGE_PROBE_TILT * EDGE_PROBE_TILT {
        return open(lower, seed);
    }
    // The cylinder's side facing the other core: local direction m (−n* for B, n* for A),
    // its axial part replaced by ±1e-3 of its length, so both ends are at m's azimuth.
    let (core, m) = if b_is_cyl { (diff.b, diff.frame.r.tr_mul(&-star)) } else { (diff.a, star) };
    let tilt = 1e-3 * m.norm();
    let mut hint = super::COLD_HINT;
    let side = [tilt, -tilt].map(|z| core.local_support(&Vector3::new(m.x, m.y, z), &mut hint));
    for s in side {
        for e in ends[..2].iter() {
            let (a, b) =
                if b_is_cyl { (*e, Point3::from(diff.frame.r * s.coords + diff.frame.t)) } else { (s, *e) };
            seed.v[seed.len] =
                Vertex { w: a - b, a, b, d: -star, ha: super::COLD_HINT, hb: super::COLD_HINT };
            seed.len += 1;
        }
    }
    open(lower, seed)
}

/// A lower bound of the depth from a segment E = [`e0`, `e1`] of the polytope core and the cap
/// disks D of the cylinder core (radius `radius`, half height `half`; B when `b_is_cyl`, else
/// A), all in A's frame: E ⊆ one core and D ⊆ the other, so M ⊇ ±(E − D) and the depth is at
/// least the distance from the origin to the boundary of K = E − D (the same for −K), which is
/// exact where an edge presses on a rim (M is E − rim arc there, a ruled surface no ball fits
/// along). K is the disk swept along the segment: its boundary lies on the two planes of D
/// through e0 − c and e1 − c (c the cap's centre) and on the infinite oblique cylinder
/// L − D (L the segment's line), whose cross-section across ê = E's direction is the ellipse
/// P(D) (P the projection along ê): semi-axes r (along w₁ = z × ê, in D's plane) and r·|ê·z|
/// (along w₂ = ê × w₁). So dist(0, ∂K) ≥ min(|z·(e0 − c)|, |z·(e1 − c)|, d) with d the depth of
/// the origin's projection in that ellipse when it is inside, bounded below by the medial
/// disks: for semi-axes α ≥ β and any centre (x, 0) with x² ≤ α² − β², the disk of radius
/// ρ(x) = β·√(1 − x²/(α² − β²)) is inside the ellipse (the quadratic
/// y₁²/α² + y₂²/β² − 1 − (|y − (x, 0)|² − ρ²)/β² has no y₂ term and its maximum over y₁ is 0),
/// so d ≥ ρ(x) − |q − (x, 0)| for every x; this is concave in x and equals d at the centre of
/// curvature's foot on the major axis of the nearest boundary point, found by bisection on
/// its derivative. The cylinder's image under a relative rotation R off orthonormal by
/// e = max|RᵀR − I| contains the disk of radius (1 − 3e)·r in its plane; rounding is taken off
/// as 64 ulps of the magnitudes involved. −∞ when the origin is not inside K. With it, the
/// normal of K's lateral surface at the nearest point found (±n*, for the upper end).
fn edge_rim_bound(
    frame: &super::RelativeFrame,
    b_is_cyl: bool,
    radius: f64,
    half: f64,
    e0: &Point3<f64>,
    e1: &Point3<f64>,
) -> (f64, Vector3<f64>) {
    let none = (f64::NEG_INFINITY, Vector3::zeros());
    let (r, t) = (&frame.r, &frame.t);
    let (u1, u2, centre, shrink) = if b_is_cyl {
        (
            r.column(0).into_owned(),
            r.column(1).into_owned(),
            Some(r.column(2).into_owned()),
            distortion_shrink(r),
        )
    } else {
        (Vector3::x(), Vector3::y(), None, 1.0)
    };
    let Some(z) = u1.cross(&u2).try_normalize(0.0) else { return none };
    let rad = radius * shrink;
    let Some(eh) = (e1 - e0).try_normalize(0.0) else { return none };
    let Some(w1) = z.cross(&eh).try_normalize(0.0) else { return none };
    let w2 = eh.cross(&w1);
    let (alpha, beta) = (rad, rad * eh.dot(&z).abs());
    let mut best = none;
    for sign in [1.0, -1.0] {
        // The cap's centre in A's frame.
        let c = match centre {
            Some(zc) => t + zc * (sign * half),
            None => Vector3::z() * (sign * half),
        };
        let (h0, h1) = (z.dot(&(e0.coords - c)), z.dot(&(e1.coords - c)));
        // (NaN: no bound.)
        if !super::gt(0.0, h0 * h1) {
            continue;
        }
        // The origin relative to the ellipse's centre P(e0 − c), in (w1, w2).
        let m = e0.coords - c;
        let q = (-w1.dot(&m), -w2.dot(&m));
        let (d, (v1, v2)) = ellipse_depth(alpha, beta, q);
        let size = e0.coords.norm() + e1.coords.norm() + c.norm() + rad;
        let slack = 64.0 * f64::EPSILON * size;
        let bound = h0.abs().min(h1.abs()).min(d) - slack;
        if bound > best.0 {
            best = (bound, w1 * v1 + w2 * v2);
        }
    }
    best
}

/// A lower bound of the distance from `q` to the boundary of the ellipse with semi-axes
/// `alpha` ≥ `beta` along the coordinate axes (centred at 0), by the medial disks (see
/// [`edge_rim_bound`]): max over x of ρ(x) − |q − (x, 0)|, a concave function of x, whose
/// derivative is bisected; ≤ 0 when q is not inside. Any x gives a valid bound, so the
/// bisection's accuracy only decides how tight it is. With it, the unit direction from the
/// medial centre through q (the nearest boundary point's normal at the optimum).
fn ellipse_depth(alpha: f64, beta: f64, q: (f64, f64)) -> (f64, (f64, f64)) {
    let k = alpha * alpha - beta * beta;
    if !super::gt(beta, 0.0) || k.is_nan() || k < 0.0 {
        return (f64::NEG_INFINITY, (0.0, 0.0));
    }
    let f = |x: f64| {
        let arg = (1.0 - x * x / k).max(0.0);
        beta * arg.sqrt() - ((q.0 - x) * (q.0 - x) + q.1 * q.1).sqrt()
    };
    // The outward direction from the medial centre (x, 0) through q: the nearest boundary
    // point's normal when x is the optimum.
    let out = |x: f64| {
        let (dx, dy) = (q.0 - x, q.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len > 0.0 { (dx / len, dy / len) } else { (0.0, 0.0) }
    };
    if k <= 1e-24 * alpha * alpha {
        // A circle: its centre is the only medial point.
        return (f(0.0), out(0.0));
    }
    let xmax = k.sqrt();
    let slope = |x: f64| {
        let arg = (1.0 - x * x / k).max(f64::MIN_POSITIVE);
        let dist = ((q.0 - x) * (q.0 - x) + q.1 * q.1).sqrt().max(f64::MIN_POSITIVE);
        -beta * x / (k * arg.sqrt()) + (q.0 - x) / dist
    };
    let (mut lo, mut hi) = (-xmax, xmax);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if slope(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-13 * xmax {
            break;
        }
    }
    let x = 0.5 * (lo + hi);
    (f(x), out(x))
}

/// The depth of two overlapping smooth cores (ellipsoids) by Newton alone, from the unit
/// direction `n0` (A's frame, from A towards B; the centre direction for a cold pair), with
/// no GJK run and no EPA polytope: the same polish and enclosed-ball certificate as
/// [`finish_curved`], seeded without a simplex (both supports are unique). `None` when the
/// bracket does not meet `target` (a start too far from the optimum, or no enclosed ball
/// reaching the depth): the caller then runs GJK and EPA.
pub(crate) fn depth_newton(
    diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    n0: &Vector3<f64>,
    target: f64,
) -> Option<DepthPolished> {
    polish(diff, *n0, &Simplex::new(), DepthPolished::empty(), target)
        .filter(|p| p.upper - p.lower <= target && super::gt(p.lower, 0.0))
}

/// Up to this many candidate balls per core.
const BALLS: usize = 6;

/// Candidate balls (centre, radius) inside `core` near its point `p` with outward unit
/// normal `m` (both in the core's frame), see the module docs: `p` itself (radius 0); for
/// an ellipsoid its rolling ball at the support point along m; for boxes and cylinders the
/// ball of the largest inscribed radius ρ₀ centred at q − ρ₀m (q: the other witness
/// projected onto the support plane, the tangent point when `p` is a corner of the touching
/// face) and the balls of radii ρ₀·2⁻ᵏ (k < 4) centred at p − ρm, all clamped into the body
/// shrunk by ρ (valid for every point: the shrunk body dilated by ρ is inside the body;
/// clamping along the support plane keeps a ball tangent to it, and a smaller ball stays
/// tangent near an edge); for a cone the same radii up to its inradius, each centre moved
/// into the cone's region of valid centres ([`cone_centre`]). Returns how many were written.
fn enclosed_balls(
    core: &CoreShape<'_>,
    p: &Point3<f64>,
    q: &Point3<f64>,
    m: &Vector3<f64>,
    out: &mut [(Point3<f64>, f64)],
) -> usize {
    out[0] = (*p, 0.0);
    let CoreShape::Whole(shape) = core else { return 1 };
    let mut k = 1;
    match shape {
        Shape::Ellipsoid(e) => {
            let r = e.radii();
            let rho = r.min() * r.min() / r.max();
            // The support point along m in the ellipsoid's frame (on the surface to rounding),
            // rather than `p` carried through the frames.
            let mut hint = super::COLD_HINT;
            let s = SupportMap::local_support(*shape, m, &mut hint);
            out[1] = (s - m * rho, rho);
            k = 2;
            if let Some(ball) = medial_ball(&r, &s) {
                out[2] = ball;
                k = 3;
            }
        }
        Shape::Cylinder(c) => {
            let (r, h) = (c.radius(), c.half_height());
            let clamp = |x: Point3<f64>, rho: f64| {
                let (rr, hh) = (r - rho, h - rho);
                let xy = (x.x * x.x + x.y * x.y).sqrt();
                let s = if xy > rr { rr / xy } else { 1.0 };
                Point3::new(x.x * s, x.y * s, x.z.clamp(-hh, hh))
            };
            k = clamped_balls(p, q, m, r.min(h), clamp, out);
        }
        Shape::Cone(c) => {
            let (r, h) = (c.radius(), c.half_height());
            let slant = (4.0 * h * h + r * r).sqrt();
            // The inradius of the cone's meridian triangle (base 2r, height 2h), the largest
            // ball inside, less the allowance `cone_centre` adds to the radius.
            let top = 2.0 * r * h / (r + slant) - 64.0 * f64::EPSILON * (r + h);
            k = clamped_balls(p, q, m, top, |x, rho| cone_centre(r, h, slant, x, rho), out);
        }
        Shape::Cuboid(b) => {
            let e = b.half_extents();
            let clamp = |x: Point3<f64>, rho: f64| {
                let lim = e.add_scalar(-rho);
                Point3::new(x.x.clamp(-lim.x, lim.x), x.y.clamp(-lim.y, lim.y), x.z.clamp(-lim.z, lim.z))
            };
            let top = e.min();
            let last = out.len() - 1;
            k = clamped_balls(p, q, m, top, clamp, &mut out[..last]);
            // The largest ball tangent at q to the face m points out of (its centre q − ρm
            // stays as far from the face's edges as from the face): near an edge of the face
            // the ball of radius `top` is clamped sideways and no longer touches at q, which
            // leaves the bound short of the depth of a rim or corner pressed in there.
            let tangent = box_tangent_radius(&e, q, m);
            if super::gt(tangent, 0.0) && tangent < top {
                out[k] = (clamp(q - m * tangent, tangent), tangent);
                k += 1;
            }
        }
        _ => {}
    }
    k
}

/// The largest ball inside the ellipsoid with radii `r` tangent at its boundary point `s`
/// (its frame): centred on the ellipsoid's medial plane (the plane of its two longest axes),
/// where the inward normal at s meets it. With k the shortest axis and c_k = 0, the ball
/// B(c, ρ) is inside for ρ² = r_k²(1 − Σ_{i≠k} c_i²/(r_i² − r_k²)) (see the module docs: the
/// quadratic Σ y_i²/r_i² − 1 − (|y − c|² − ρ²)/r_k² has no y_k term and its maximum over
/// the other coordinates is 0 for that ρ, so every y of the ball satisfies the ellipsoid's
/// inequality). The centre c_i = s_i(1 − r_k²/r_i²) makes the ball tangent at s, of radius
/// r_k²·|D⁻²s| (D = diag r) — at least the depth of any point whose nearest boundary point is
/// s, where the rolling ball r_k²/r_max is only the worst case over the surface. The radius is
/// computed from c alone (valid for any c inside the focal ellipse, whatever the rounding of
/// s), with 8 ulps taken off the square root's argument and 4 off the result. `None` when the
/// centre is outside the focal ellipse (s at a tip of a longest axis: the rolling ball is this
/// ball there) or an axis is as short as the shortest (its term needs c_i = 0: set so).
fn medial_ball(r: &Vector3<f64>, s: &Point3<f64>) -> Option<(Point3<f64>, f64)> {
    let k = r.imin();
    let rk2 = r[k] * r[k];
    let mut c = Point3::origin();
    let mut sum = 0.0;
    for i in 0..3 {
        if i == k {
            continue;
        }
        let gap = r[i] * r[i] - rk2;
        // (Equal axes: the ball's centre stays on the axis of symmetry, c_i = 0.)
        if gap > 1e-12 * rk2 {
            c[i] = s[i] * (gap / (r[i] * r[i]));
            sum += c[i] * c[i] / gap;
        }
    }
    let arg = 1.0 - sum - 8.0 * f64::EPSILON;
    if !super::gt(arg, 0.0) {
        return None;
    }
    let rho = r[k] * arg.sqrt() * (1.0 - 4.0 * f64::EPSILON);
    Some((c, rho))
}

/// A centre for a ball of radius `rho` inside the cone (base radius `r` at z = −h, apex at
/// z = h, `slant` = √(4h² + r²)) near the point `x` (the cone's frame): in the meridian
/// half-plane (q = |x_xy|, z) the ball is inside iff z ≥ −h + ρ (the base) and
/// (2h·q + r·z − r·h)/slant ≤ −ρ (the lateral line through (r, −h) and (0, h), whose outward
/// unit normal is (2h, r)/slant); by symmetry the nearest lateral point of a centre lies in its
/// meridian plane. `x` is moved up onto the base constraint, then radially in onto the lateral
/// one, and down the axis when even the axis is too wide there (a valid point of that region,
/// not the nearest). The region is taken for a radius raised by 16 ulps of the cone's size so
/// that the rounding of these few operations cannot put the ball of radius `rho` outside. A
/// point moved along the lateral normal by ρ from the lateral surface is left as it is (the
/// tangent ball), as is one moved up from the base.
fn cone_centre(r: f64, h: f64, slant: f64, x: Point3<f64>, rho: f64) -> Point3<f64> {
    let rho = rho * (1.0 + 16.0 * f64::EPSILON) + 16.0 * f64::EPSILON * (r + h);
    let z = x.z.max(-h + rho);
    // 2h·q + r·z ≤ k on the lateral side.
    let k = r * h - rho * slant;
    let q = (x.x * x.x + x.y * x.y).sqrt();
    if 2.0 * h * q + r * z <= k {
        return Point3::new(x.x, x.y, z);
    }
    let q_in = (k - r * z) / (2.0 * h);
    if q_in >= 0.0 && q > 0.0 {
        let s = q_in / q;
        return Point3::new(x.x * s, x.y * s, z);
    }
    // On the axis, below the inner apex (the region is not empty for ρ up to the inradius).
    Point3::new(0.0, 0.0, (k / r).min(z))
}

/// The radius of the largest ball tangent at `q` to the face of the box (half-extents `e`)
/// whose outward normal is nearest `m`: the face's own half-depth e_j (j the axis of the
/// largest |m_j|) and the room e_i − |q_i| left to q along the face's two other axes. Only a
/// choice of candidate: the centre is clamped into the shrunk box afterwards, which is what
/// makes the ball inside whatever the rounding of q and m. 0 when q is on the face's edge.
fn box_tangent_radius(e: &Vector3<f64>, q: &Point3<f64>, m: &Vector3<f64>) -> f64 {
    let j = m.iamax();
    let mut rho = e[j];
    for i in (0..3).filter(|&i| i != j) {
        rho = rho.min(e[i] - q[i].abs());
    }
    rho.max(0.0)
}

/// The balls of a body that contains its shrunk copy dilated by ρ (for ρ ≤ `top`), after the
/// radius-0 candidate in `out[0]`: radius `top` at q − top·m, then radii top·2⁻ᵏ at p − ρm,
/// each centre moved into the body shrunk by ρ by `clamp`. Returns the count in `out`.
fn clamped_balls(
    p: &Point3<f64>,
    q: &Point3<f64>,
    m: &Vector3<f64>,
    top: f64,
    clamp: impl Fn(Point3<f64>, f64) -> Point3<f64>,
    out: &mut [(Point3<f64>, f64)],
) -> usize {
    let mut k = 1;
    if !super::gt(top, 0.0) {
        return k;
    }
    out[k] = (clamp(q - m * top, top), top);
    k += 1;
    let mut rho = top;
    while k < out.len() && super::gt(rho, 0.0) {
        out[k] = (clamp(p - m * rho, rho), rho);
        k += 1;
        rho *= 0.5;
    }
    k
}

/// The enclosed-ball lower bound of the depth at the unit direction `n` with witnesses `a`,
/// `b` (A's frame); ≤ 0 when no candidate pair encloses the origin.
pub(crate) fn enclosed_ball_bound(
    diff: &Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    n: &Vector3<f64>,
    a: &Point3<f64>,
    b: &Point3<f64>,
    faces: &[Option<[Point3<f64>; 3]>; 2],
) -> f64 {
    let (r, t) = (&diff.frame.r, &diff.frame.t);
    let mut ba = [(Point3::origin(), 0.0); BALLS + 1];
    let mut bb = [(Point3::origin(), 0.0); BALLS + 1];
    // Each witness projected onto the other's support plane (the tangent point when a
    // witness is a corner of a face or side that touches: a polytope's support point).
    let gap = n.dot(&(a - b));
    let (qa, qb) = (b + n * gap, a - n * gap);
    let na = enclosed_balls(diff.a, a, &qa, n, &mut ba[..BALLS]);
    // B's point and outward normal (−n) in B's frame.
    let m_b = -r.tr_mul(n);
    let len = m_b.norm();
    if !(len > 0.0 && len.is_finite()) {
        return f64::NEG_INFINITY;
    }
    let local = |x: &Point3<f64>| Point3::from(r.tr_mul(&(x.coords - t)));
    let nb = enclosed_balls(diff.b, &local(b), &local(&qb), &(m_b / len), &mut bb[..BALLS]);
    // R's distortion: R·ball(ρ) ⊇ ball((1 − 3e)ρ).
    let shrink = distortion_shrink(r);
    // B's balls in A's frame (R·ball(ρ) ⊇ ball((1 − 3e)ρ) around the image of the centre).
    for (c, rho) in &mut bb[..nb] {
        *c = Point3::from(r * c.coords + t);
        *rho *= shrink;
    }
    // A polytope face that fixed n: a ball inside the tetrahedron on it (A's frame, where
    // B's vertices are the images of its own, so no distortion to allow for).
    let mut hint = super::COLD_HINT;
    let (mut ka, mut kb) = (na, nb);
    if let Some(face) = &faces[0]
        && let Some(apex) = polytope_apex(diff.a, &-n, &mut hint)
        && let Some(ball) = tetrahedron_ball(face, &apex, a)
    {
        ba[ka] = ball;
        ka += 1;
    }
    if let Some(face) = &faces[1]
        && let Some(apex) = polytope_apex(diff.b, &r.tr_mul(n), &mut hint)
        && let Some(ball) = tetrahedron_ball(face, &Point3::from(r * apex.coords + t), b)
    {
        bb[kb] = ball;
        kb += 1;
    }
    let mut best = f64::NEG_INFINITY;
    for (ca, ra) in &ba[..ka] {
        for (cb, rb) in &bb[..kb] {
            let rho = ra + rb;
            let d = (ca.coords - cb.coords).norm();
            let slack = 16.0 * f64::EPSILON * (ca.coords.norm() + cb.coords.norm() + t.norm() + rho + d);
            best = best.max(rho - d - slack);
        }
    }
    best
}

/// 1 − 3e (at least 0) for the distortion e = max |RᵀR − I| of the relative rotation `r`:
/// R·ball(ρ) contains the ball of radius (1 − 3e)ρ around the image of its centre.
fn distortion_shrink(r: &nalgebra::Matrix3<f64>) -> f64 {
    let rtr = r.tr_mul(r);
    let mut e = 0.0f64;
    for i in 0..3 {
        for j in 0..3 {
            let id = if i == j { 1.0 } else { 0.0 };
            e = e.max((rtr[(i, j)] - id).abs());
        }
    }
    (1.0 - 3.0 * e).max(0.0)
}

/// The support point along `m` (the core's frame) of a polytope core other than a box or a
/// triangle (a box has its own balls, a triangle encloses none); `None` for other cores.
fn polytope_apex(core: &CoreShape<'_>, m: &Vector3<f64>, hint: &mut u32) -> Option<Point3<f64>> {
    match core {
        CoreShape::Scanned(_) | CoreShape::Whole(Shape::ConvexPolytope(_) | Shape::Polyhedron(_)) => {
            Some(core.local_support(m, hint))
        }
        _ => None,
    }
}

/// A ball inside the tetrahedron T = conv(`face`, `apex`) (four points of one convex shape,
/// so T is inside it) tangent to the face's plane at its point `p`: centre c = p − ρu (u the
/// face's unit normal away from the apex) with, for each side plane m·x ≤ m·x₀ through an
/// edge of the face and the apex (unit m, outward), m·c + ρ ≤ m·x₀, i.e.
/// ρ ≤ m·(x₀ − p)/(1 − m·u). The radius returned is re-measured from c to all four planes
/// and lowered by a round-off allowance, so the ball is inside T whatever the rounding of ρ.
/// `None` when T is flat or `p` is on the face's boundary (no ball).
fn tetrahedron_ball(
    face: &[Point3<f64>; 3],
    apex: &Point3<f64>,
    p: &Point3<f64>,
) -> Option<(Point3<f64>, f64)> {
    let [x, y, z] = face;
    let u = (y - x).cross(&(z - x)).try_normalize(0.0)?;
    let u = if u.dot(&(apex - x)) > 0.0 { -u } else { u };
    let sides = [(x, y, z), (y, z, x), (z, x, y)].map(|(s, e, other)| {
        let m = (e - s).cross(&(apex - s)).try_normalize(0.0)?;
        Some((if m.dot(&(other - s)) > 0.0 { -m } else { m }, *s))
    });
    let mut rho = u.dot(&(x - apex));
    for side in &sides {
        let (m, s) = (*side)?;
        rho = rho.min(m.dot(&(s - p)) / (1.0 - m.dot(&u)));
    }
    if !super::gt(rho, 0.0) || !rho.is_finite() {
        return None;
    }
    let c = p - u * rho;
    let mut radius = u.dot(&(x - c));
    let mut size = x.coords.norm().max(apex.coords.norm());
    for (m, s) in sides.iter().flatten() {
        radius = radius.min(m.dot(&(s - c)));
        size = size.max(s.coords.norm());
    }
    // Rounding of the normals (unit to a few ulps) and of the dot products, relative to the
    // coordinates' size.
    let radius = radius - 64.0 * f64::EPSILON * (size + c.coords.norm());
    super::gt(radius, 0.0).then_some((c, radius))
}

#[cfg(test)]
mod tests {
    use nalgebra::{Point3, Vector3};
    use proptest::prelude::*;

    use super::{BALLS, enclosed_balls};
    use crate::gjk::CoreShape;
    use crate::shape::{Cone, Cuboid, Cylinder, Ellipsoid};
    use crate::{Pose, Shape};

    fn unit(v: [f64; 3]) -> Option<Vector3<f64>> {
        Vector3::from(v).try_normalize(1e-3)
    }

    /// Points of the candidate balls with a positive radius (centre + radius along 200
    /// directions) lie in the shape: below its support value along that direction.
    fn check_balls(shape: &Shape, p: Point3<f64>, m: Vector3<f64>) -> Result<(), TestCaseError> {
        let mut out = [(Point3::origin(), 0.0); BALLS];
        let k =
            enclosed_balls(&CoreShape::Whole(shape), &p, &(p + Vector3::new(0.3, -0.2, 0.1)), &m, &mut out);
        for (c, rho) in &out[1..k] {
            for i in 0..200 {
                // Golden-spiral directions.
                let z = 1.0 - 2.0 * (i as f64 + 0.5) / 200.0;
                let s = (1.0 - z * z).sqrt();
                let phi = i as f64 * 2.399_963_229_728_653;
                let u = Vector3::new(s * phi.cos(), s * phi.sin(), z);
                let q = c + u * *rho;
                // The ball's support value along u is u·c + ρ; it must not exceed the
                // shape's (to rounding).
                let h = shape.support_value(&Pose::identity(), &u);
                prop_assert!(u.dot(&q.coords) <= h + 1e-12, "ball ({c}, {rho}) leaves {shape:?} along {u}");
            }
        }
        Ok(())
    }

    /// Golden-spiral unit directions.
    fn spiral(i: usize, count: usize) -> Vector3<f64> {
        let z = 1.0 - 2.0 * (i as f64 + 0.5) / count as f64;
        let s = (1.0 - z * z).sqrt();
        let phi = i as f64 * 2.399_963_229_728_653;
        Vector3::new(s * phi.cos(), s * phi.sin(), z)
    }

    /// A cone's balls at a point of its lateral surface (lateral normal) and of its base
    /// (normal −z) include one of the full inradius tangent there: its support value along
    /// the normal equals the cone's (to rounding), so the depth certificate can be tight.
    #[test]
    fn cone_balls_are_tangent_on_the_side_and_the_base() {
        let (r, h) = (0.6f64, 0.7f64);
        let shape = Shape::Cone(Cone::new(r, h).unwrap());
        let slant = (4.0 * h * h + r * r).sqrt();
        let inradius = 2.0 * r * h / (r + slant);
        // Lateral: the point halfway down the generator in the x–z plane, normal (2h, 0, r)/slant.
        let side = (Point3::new(0.5 * r, 0.0, 0.0), Vector3::new(2.0 * h, 0.0, r) / slant);
        let base = (Point3::new(0.1, -0.05, -h), -Vector3::z());
        for (p, m) in [side, base] {
            check_balls(&shape, p, m).unwrap();
            let mut out = [(Point3::origin(), 0.0); BALLS];
            let k = enclosed_balls(&CoreShape::Whole(&shape), &p, &p, &m, &mut out);
            let h_m = shape.support_value(&Pose::identity(), &m);
            let tangent = out[1..k].iter().any(|(c, rho)| {
                (m.dot(&c.coords) + rho - h_m).abs() <= 1e-12 && *rho >= inradius * (1.0 - 1e-12)
            });
            assert!(tangent, "no tangent inradius ball at {p} along {m}: {:?}", &out[..k]);
        }
    }

    /// Near an edge of a box face, one candidate ball is tangent at q itself, with the room
    /// left to the edge as its radius (the full-size ball would be clamped sideways, off q).
    #[test]
    fn box_ball_is_tangent_near_a_face_edge() {
        let e = [0.5, 0.8, 0.3];
        let shape = Shape::Cuboid(Cuboid::new(e).unwrap());
        let m = Vector3::z();
        for (qx, room) in [(0.45, 0.05), (-0.38, 0.12), (0.3, 0.2)] {
            let q = Point3::new(qx, 0.1, 0.3);
            let mut out = [(Point3::origin(), 0.0); BALLS];
            let k = enclosed_balls(&CoreShape::Whole(&shape), &q, &q, &m, &mut out);
            let tangent = out[1..k]
                .iter()
                .any(|(c, rho)| (*rho - room).abs() <= 1e-12 && (c - (q - m * room)).norm() <= 1e-12);
            assert!(tangent, "no ball of radius {room} tangent at {q}: {:?}", &out[..k]);
            check_balls(&shape, q, m).unwrap();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// The medial-disk bound of a point's depth in an ellipse never exceeds the distance
        /// to 24 000 points of its boundary (20 000 around it, 4 000 more near the best) (a brute-force upper estimate of the depth), and
        /// meets it to 1e-9 of the size (the bisection's optimum is the nearest point's medial
        /// centre): the bound is a proof and tight.
        #[test]
        fn ellipse_depth_against_brute_force(
            a in 0.05..2.0f64, ratio in 0.02..1.0f64,
            s in prop::array::uniform2(-1.0..1.0f64),
        ) {
            let b = a * ratio;
            let q = (s[0] * a, s[1] * b);
            if (q.0 / a).powi(2) + (q.1 / b).powi(2) >= 0.999 {
                return Ok(());
            }
            let (d, dir) = super::ellipse_depth(a, b, q);
            let dist = |t: f64| ((a * t.cos() - q.0).powi(2) + (b * t.sin() - q.1).powi(2)).sqrt();
            let step = core::f64::consts::TAU / 20_000.0;
            let (mut brute, mut at) = (f64::INFINITY, 0.0);
            for i in 0..20_000 {
                let t = step * i as f64;
                if dist(t) < brute {
                    (brute, at) = (dist(t), t);
                }
            }
            // Refined around the best sample (a coarse sample misses the nearest point by up
            // to (a·step)²/(8d), far above the tolerance for shallow points).
            for i in 0..=4_000 {
                brute = brute.min(dist(at - step + step * i as f64 / 2_000.0));
            }
            prop_assert!(d <= brute + 1e-12 * a, "bound {d} above the brute-force depth {brute}");
            prop_assert!(d >= brute - 1e-9 * a, "bound {d} loose against {brute}");
            // The direction (for the upper end; any unit direction gives one) is a unit vector.
            prop_assert!(((dir.0 * dir.0 + dir.1 * dir.1).sqrt() - 1.0).abs() <= 1e-12);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// The medial ball tangent at a support point is inside the ellipsoid (its points on
        /// 400 directions satisfy the implicit inequality), touches it at the support point
        /// (radius = r_k²·|D⁻²s|, centre at s minus that along the normal), and is never
        /// smaller than the rolling ball r_min²/r_max.
        #[test]
        fn ellipsoid_medial_ball_is_inside_and_tangent(
            r in prop::array::uniform3(0.05..3.0f64),
            m in prop::array::uniform3(-1.0..1.0f64),
        ) {
            let Some(m) = unit(m) else { return Ok(()) };
            let shape = Shape::Ellipsoid(Ellipsoid::new(r).unwrap());
            let mut hint = crate::gjk::COLD_HINT;
            let s = crate::gjk::SupportMap::local_support(&shape, &m, &mut hint);
            let radii = Vector3::from(r);
            let Some((c, rho)) = super::medial_ball(&radii, &s) else {
                // Only at (or rounding-near) a tip of a longest axis.
                return Ok(());
            };
            for i in 0..400 {
                let q = c + spiral(i, 400) * rho;
                let f = (q.x / r[0]).powi(2) + (q.y / r[1]).powi(2) + (q.z / r[2]).powi(2);
                prop_assert!(f <= 1.0 + 1e-12, "ball point {q} outside (f = {f})");
            }
            let d2s = Vector3::new(s.x / (r[0] * r[0]), s.y / (r[1] * r[1]), s.z / (r[2] * r[2]));
            let rk = radii.min();
            let tangent = rk * rk * d2s.norm();
            prop_assert!((rho - tangent).abs() <= 1e-9 * (1.0 + tangent), "radius {rho} vs {tangent}");
            prop_assert!((c + m * rho - s).norm() <= 1e-8 * (1.0 + radii.max()), "not tangent at {s}");
            prop_assert!(rho >= rk * rk / radii.max() * (1.0 - 1e-9), "below the rolling ball");
        }

        /// The tetrahedron ball is inside the tetrahedron (its points on 200 directions are
        /// below all four face planes) and tangent to the face at the given point.
        #[test]
        fn tetrahedron_ball_is_inside(
            pts in prop::array::uniform4(prop::array::uniform3(-2.0..2.0f64)),
            w in prop::array::uniform3(0.01..1.0f64),
        ) {
            let [x, y, z, apex] = pts.map(Point3::from);
            let sum = w[0] + w[1] + w[2];
            let p = Point3::from((x.coords * w[0] + y.coords * w[1] + z.coords * w[2]) / sum);
            let Some((c, rho)) = super::tetrahedron_ball(&[x, y, z], &apex, &p) else { return Ok(()) };
            let centroid = Point3::from((x.coords + y.coords + z.coords + apex.coords) / 4.0);
            for (u, v, w) in [(x, y, z), (x, y, apex), (y, z, apex), (z, x, apex)] {
                let mut nrm = (v - u).cross(&(w - u)).normalize();
                if nrm.dot(&(centroid - u)) > 0.0 {
                    nrm = -nrm;
                }
                for i in 0..200 {
                    let q = c + spiral(i, 200) * rho;
                    prop_assert!(nrm.dot(&(q - u)) <= 1e-12, "ball point {q} outside a face");
                }
            }
            let face_n = (y - x).cross(&(z - x)).normalize();
            prop_assert!((face_n.dot(&(p - c)).abs() - rho).abs() <= 1e-9, "not tangent at p");
        }

        /// The ellipsoid's rolling ball (radius r_min²/r_max, tangent at the support point) and
        /// its medial ball are inside it: every point of each ball on 400 directions lies
        /// inside by the implicit equation.
        #[test]
        fn ellipsoid_rolling_ball_is_inside(r in prop::array::uniform3(0.1..3.0f64), m in prop::array::uniform3(-1.0..1.0f64)) {
            let Some(m) = unit(m) else { return Ok(()) };
            let e = Ellipsoid::new(r).unwrap();
            let shape = Shape::Ellipsoid(e);
            let mut hint = crate::gjk::COLD_HINT;
            let p = crate::gjk::SupportMap::local_support(&shape, &m, &mut hint);
            let mut out = [(Point3::origin(), 0.0); BALLS];
            let k = enclosed_balls(&CoreShape::Whole(&shape), &p, &p, &m, &mut out);
            // The rolling ball, and the medial ball unless p is at a tip of a longest axis.
            prop_assert!(k == 2 || k == 3);
            for &(c, rho) in &out[1..k] {
                for i in 0..400 {
                    let q = c + spiral(i, 400) * rho;
                    let f = (q.x / r[0]).powi(2) + (q.y / r[1]).powi(2) + (q.z / r[2]).powi(2);
                    prop_assert!(f <= 1.0 + 1e-12, "ball point {q} outside (f = {f})");
                }
            }
        }

        #[test]
        fn clamped_balls_are_inside(
            e in prop::array::uniform3(0.1..2.0f64),
            p in prop::array::uniform3(-2.5..2.5f64),
            m in prop::array::uniform3(-1.0..1.0f64),
        ) {
            let Some(m) = unit(m) else { return Ok(()) };
            let shapes = [
                Shape::Cuboid(Cuboid::new(e).unwrap()),
                Shape::Cylinder(Cylinder::new(e[0], e[1]).unwrap()),
                Shape::Cone(Cone::new(e[0], e[1]).unwrap()),
            ];
            for s in &shapes {
                // Any point p, inside or not (the clamped centres are valid whatever p is),
                // and the support point along m (the use: a witness on the support plane).
                check_balls(s, Point3::from(p), m)?;
                let mut hint = crate::gjk::COLD_HINT;
                let sp = crate::gjk::SupportMap::local_support(s, &m, &mut hint);
                check_balls(s, sp, m)?;
            }
        }
    }
}
