//! Newton polish of a GJK answer on curved cores: quadratic convergence where GJK's is linear.
//!
//! # Maths
//!
//! For a unit n (from A towards B) the support points a(n) = s_A(n), b(n) = s_B(−n) give
//!
//! ```text
//! g(n) = n·(b − a) = −h_A(n) − h_B(−n) ≤ dist(A, B) ≤ |b − a|,
//! ```
//!
//! the lower bound by weak duality (the same bound GJK keeps), the upper one because a ∈ A and
//! b ∈ B. For disjoint shapes dist = max_{|n|=1} g(n), and at the maximiser b − a = dist·n, so
//! both bounds meet. g is concave; its gradient is ∇g = b − a and its Hessian
//! ∇²g = −H_A(n) − H_B(−n), H = ∇²h the (positive semidefinite) Hessian of a support function:
//! 0 for vertices, segments and flat faces, r/|m_xy|·(I_xy − ûûᵀ) on a cylinder's rim
//! (h = r|m_xy| + h_z|m_z|, û = m_xy/|m_xy|), D²/|Dm| − (D²m)(D²m)ᵀ/|Dm|³ for an ellipsoid
//! (h = |Dm|). On the sphere, with P = I − nnᵀ and n·∇g = g(n), the Riemannian gradient is
//! P(b − a) and the Riemannian Hessian −P(H_A + H_B)P − g(n)·P, negative definite on the
//! tangent plane while g > 0. A Newton step t solves (P(H_A + H_B)P + g·P) t = P(b − a) in a
//! tangent basis (e₁, e₂) (a 2 × 2 system), then n ← (n + t)/|n + t|, halving t while g
//! decreases (g is concave along the great circle, so a small enough step ascends).
//!
//! GJK converges only linearly on curved cores (the gap shrinks by a constant factor per
//! iteration); started from GJK's direction at a loose gap, Newton reaches the round-off
//! floor in two or three steps when both supports are smooth at the optimum (rim, ellipsoid,
//! or a vertex against either). Where a support function has a kink at the optimum (a
//! cylinder's side or cap facing the other shape) the steps may not settle: the polish then
//! reports failure and the caller resumes GJK. Every iterate's bounds are valid, so the
//! best lower and best upper bound seen are kept, whatever the convergence.
//!
//! # Kinks handled explicitly
//!
//! Where h is not differentiable at the optimum the support set is a segment or a face, the
//! optimal n lies on a known manifold, and the witness is the point of the support set
//! closest to the other witness (any point of the support set gives the same g):
//!
//! | feature at n | constraint on n | witness |
//! |---|---|---|
//! | cylinder side, or a capsule's axis segment (a side of radius 0) | n ⟂ axis (great circle, Newton in 1 unknown) | side segment, z clamped |
//! | cylinder cap | n = ± axis | cap disk, radially clamped |
//! | two such sides | n = ± axis_A × axis_B | closest points of the two axis-parallel lines |
//! | polytope edge (2 distinct points of GJK's simplex on that shape) | n ⟂ edge (1 unknown) | edge, clamped |
//! | polytope face (3 distinct points) | n = ± face normal | closest point of the triangle |
//!
//! The other shape's support must be unique there (a smooth feature; along a cap normal the
//! other's side or cap is tried too, its witness the point of that feature closest to the
//! cap's); other combinations are left to GJK.
//!
//! # When the features at the start are not those at the optimum
//!
//! The features are read at the start direction, within [`KINK`] of a kink. A start a little
//! further off misses them: Newton on a rim that should have been a side crosses the kink and
//! finds no ascent, Newton on a side's great circle whose optimum lies on a rim settles
//! without closing the bracket, and a rim converging onto a cap normal (where its curvature
//! grows without bound) never settles. Before the caller falls back to GJK, a distance polish
//! tries once more from where it stopped ([`retry_direction`]: tilted off the side towards the
//! rim its witness ended on, or with kinks taken within [`RETRY_KINK`]), then each cylinder's
//! cap normal as a fixed direction ([`polish_caps`]). Each attempt's bounds are proven like
//! the first's; on the cylinders workload this takes the pairs that reach GJK after the polish
//! from 834 to 302 of 2000 (callgrind, instructions per query −6 %).

use nalgebra::{Matrix2, Matrix3, Point3, Vector2, Vector3};

use super::gt;
use super::simplex::{Simplex, Vertex, closest_to_origin};
use super::support::{CoreShape, Difference};
use crate::shape::Shape;

/// The support queries of the pair the polish runs on: the pair's own (`CoreShape`'s,
/// [`CoreSupport`]) or a version of them monomorphized for the pair's shape types (the same
/// points and hints: `query/distance/gjk.rs`), which the features, Hessians and witnesses
/// never see (they read the cores of the [`Difference`]).
pub(crate) trait PairSupport {
    /// `diff.support(d)`: the point of A − B minimizing d·x, with its support points; the
    /// hints left in `diff`.
    fn support(
        &mut self,
        diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
        d: &Vector3<f64>,
    ) -> Vertex;
}

/// The cores' own support queries.
pub(crate) struct CoreSupport;

impl PairSupport for CoreSupport {
    #[inline(always)]
    fn support(
        &mut self,
        diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
        d: &Vector3<f64>,
    ) -> Vertex {
        diff.support(d)
    }
}

/// Newton steps tried before giving up.
const MAX_STEPS: u32 = 6;

/// Step halvings tried when a Newton step does not increase g.
const MAX_HALVINGS: u32 = 4;

/// A cylinder direction within this (relative) of its side or cap normals counts as at a kink
/// of the support function.
const KINK: f64 = 1e-3;

/// Whether a core's support function has curvature (GJK converges linearly on it): the pair
/// is worth polishing when either core has.
pub(crate) fn is_curved(core: &CoreShape<'_>) -> bool {
    matches!(core, CoreShape::Whole(Shape::Cylinder(_) | Shape::Ellipsoid(_) | Shape::Cone(_)))
}

/// A cone's lateral normals (apex at +h, base radius r at −h): unit n with n_z = `s` and
/// |n_xy| = `rho`, (s, rho) = (r, 2h)/√(4h² + r²).
fn cone_lateral(c: &crate::shape::Cone) -> (f64, f64) {
    let (r, h2) = (c.radius(), 2.0 * c.half_height());
    let len = (h2 * h2 + r * r).sqrt();
    (r / len, h2 / len)
}

/// √(x² + y²) without `hypot`'s overflow guard (a libm call): the arguments are coordinates
/// of unit directions or of points of the shapes.
#[inline]
fn planar_norm(x: f64, y: f64) -> f64 {
    (x * x + y * y).sqrt()
}

/// The part of a core's support function active at a direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Feature {
    /// h is twice differentiable here (or flat: vertices, segments, faces of polytopes).
    Smooth,
    /// A cylinder's side faces the direction: the support is the side segment, h has a kink
    /// across the great circle m_z = 0 and is smooth along it.
    Side,
    /// A cylinder's cap, or a cone's base, faces the direction: the support is the disk.
    Cap,
    /// A cone's lateral surface faces the direction: apex and rim point tie, the support is
    /// the generator between them, and h has a kink across the circle of lateral normals
    /// (n_z = r/√(4h² + r²) for unit n) while it is constant along it.
    ConeSide,
}

/// The feature of a core at the local direction `m` (a direction within `kink` (relative) of
/// a kink counts as at it, see [`KINK`]); `None` for cores without a known Hessian
/// (composites).
#[inline]
fn feature(core: &CoreShape<'_>, m: &Vector3<f64>, kink: f64) -> Option<Feature> {
    match core {
        CoreShape::Origin | CoreShape::Scanned(_) => Some(Feature::Smooth),
        // A capsule's axis: a cylinder of radius 0, whose side is the segment itself (its
        // endpoints tie across m_z = 0); no cap.
        CoreShape::ZSegment(_) => {
            Some(if !gt(m.z.abs(), kink * m.norm()) { Feature::Side } else { Feature::Smooth })
        }
        CoreShape::Whole(s) => match s {
            Shape::Point(_)
            | Shape::Segment(_)
            | Shape::Triangle(_)
            | Shape::Cuboid(_)
            | Shape::AlignedBox(_)
            | Shape::ConvexPolytope(_)
            | Shape::Polyhedron(_)
            | Shape::Ellipsoid(_) => Some(Feature::Smooth),
            Shape::Cone(c) => {
                let len = m.norm();
                let (s, _) = cone_lateral(c);
                Some(if !gt(planar_norm(m.x, m.y), kink * len) && m.z < 0.0 {
                    Feature::Cap
                } else if !gt((m.z - s * len).abs(), kink * len) {
                    Feature::ConeSide
                } else {
                    // The apex (a vertex) or a rim point (curved like a cylinder's rim).
                    Feature::Smooth
                })
            }
            Shape::Cylinder(_) => {
                let len = m.norm();
                Some(if !gt(planar_norm(m.x, m.y), kink * len) {
                    Feature::Cap
                } else if !gt(m.z.abs(), kink * len) {
                    Feature::Side
                } else {
                    Feature::Smooth
                })
            }
            _ => None,
        },
    }
}

/// The Hessian of a horizontal circle's support function r|m_xy| (a cylinder's or a cone's
/// rim) at `m`: r/|m_xy| (I_xy − ûûᵀ), û = m_xy/|m_xy|.
fn rim_hessian(r: f64, m: &Vector3<f64>) -> Matrix3<f64> {
    let rho = planar_norm(m.x, m.y);
    let (ux, uy) = (m.x / rho, m.y / rho);
    let k = r / rho;
    Matrix3::new(
        k * (1.0 - ux * ux),
        -k * ux * uy,
        0.0,
        -k * ux * uy,
        k * (1.0 - uy * uy),
        0.0,
        0.0,
        0.0,
        0.0,
    )
}

/// ∇²h at the local direction `m` (|m| = 1) of a core whose feature there is `Smooth` or
/// `Side` (for the side, the Hessian of h restricted to the great circle m_z = 0: the rim
/// term's); see the module docs.
fn support_hessian(core: &CoreShape<'_>, m: &Vector3<f64>) -> Matrix3<f64> {
    match core {
        CoreShape::Whole(Shape::Cylinder(c)) => rim_hessian(c.radius(), m),
        // Below the lateral normals a cone's rim supports: the same circle's Hessian.
        CoreShape::Whole(Shape::Cone(c)) if m.z < cone_lateral(c).0 * m.norm() => rim_hessian(c.radius(), m),
        CoreShape::Whole(Shape::Ellipsoid(e)) => {
            let d2 = e.radii().component_mul(&e.radii());
            let len = m.component_mul(&e.radii()).norm();
            let s = m.component_mul(&d2);
            Matrix3::from_diagonal(&(d2 / len)) - s * s.transpose() / (len * len * len)
        }
        _ => Matrix3::zeros(),
    }
}

/// The point of a cylinder's side or cap support set closest to `p` (both local), given a
/// support point `s` of that feature: the side segment through s along z, or the cap disk.
fn feature_witness(core: &CoreShape<'_>, feature: Feature, s: &Point3<f64>, p: &Point3<f64>) -> Point3<f64> {
    if let (CoreShape::ZSegment(h), Feature::Side) = (core, feature) {
        return Point3::new(0.0, 0.0, p.z.clamp(-h, *h));
    }
    if let (CoreShape::Whole(Shape::Cone(c)), Feature::Cap) = (core, feature) {
        let rho = planar_norm(p.x, p.y);
        let k = if rho > c.radius() { c.radius() / rho } else { 1.0 };
        return Point3::new(p.x * k, p.y * k, -c.half_height());
    }
    let CoreShape::Whole(Shape::Cylinder(c)) = core else { return *s };
    match feature {
        // (A cone's side is never a cylinder's feature; `cone_side` places its witness.)
        Feature::Smooth | Feature::ConeSide => *s,
        Feature::Side => Point3::new(s.x, s.y, p.z.clamp(-c.half_height(), c.half_height())),
        Feature::Cap => {
            let rho = planar_norm(p.x, p.y);
            let k = if rho > c.radius() { c.radius() / rho } else { 1.0 };
            Point3::new(p.x * k, p.y * k, s.z)
        }
    }
}

/// A core's ∇²h at one direction, kept in the factored form of [`support_hessian`] so that
/// the Newton system needs only its quadratic forms uᵀHv (a few products each, instead of the
/// 3 × 3 matrices and B's turn into A's frame, R H_B Rᵀ).
#[derive(Debug, Clone, Copy)]
enum Curvature {
    /// Vertices, segments, flat faces, a cylinder's side along its circle's normal… : 0.
    Zero,
    /// A horizontal circle's support function (a cylinder's or a cone's rim):
    /// k (I_xy − ûûᵀ), k = r/|m_xy|, û = m_xy/|m_xy|.
    Rim { k: f64, ux: f64, uy: f64 },
    /// An ellipsoid's: D²/L − s sᵀ/L³, s = D²m, L = |Dm|.
    Ellipsoid { d2: Vector3<f64>, s: Vector3<f64>, len: f64 },
}

impl Curvature {
    /// As [`support_hessian`], factored.
    #[inline]
    fn of(core: &CoreShape<'_>, m: &Vector3<f64>) -> Self {
        let rim = |r: f64| {
            let rho = planar_norm(m.x, m.y);
            Curvature::Rim { k: r / rho, ux: m.x / rho, uy: m.y / rho }
        };
        match core {
            CoreShape::Whole(Shape::Cylinder(c)) => rim(c.radius()),
            CoreShape::Whole(Shape::Cone(c)) if m.z < cone_lateral(c).0 * m.norm() => rim(c.radius()),
            CoreShape::Whole(Shape::Ellipsoid(e)) => {
                let d2 = e.radii().component_mul(&e.radii());
                Curvature::Ellipsoid { d2, s: m.component_mul(&d2), len: m.component_mul(&e.radii()).norm() }
            }
            _ => Curvature::Zero,
        }
    }

    /// uᵀ H v.
    #[inline]
    fn form(&self, u: &Vector3<f64>, v: &Vector3<f64>) -> f64 {
        match *self {
            Curvature::Zero => 0.0,
            Curvature::Rim { k, ux, uy } => {
                k * (u.x * v.x + u.y * v.y - (ux * u.x + uy * u.y) * (ux * v.x + uy * v.y))
            }
            Curvature::Ellipsoid { d2, s, len } => {
                u.dot(&d2.component_mul(v)) / len - s.dot(u) * s.dot(v) / (len * len * len)
            }
        }
    }
}

/// H_A(n) + H_B(−n) in the computation frame (A's), as its quadratic forms: B's at −Rᵀn,
/// read on vectors turned into B's frame (uᵀ R H_B Rᵀ v = (Rᵀu)ᵀ H_B (Rᵀv)).
struct Hessians<'f> {
    a: Curvature,
    b: Curvature,
    r: &'f Matrix3<f64>,
}

impl<'f> Hessians<'f> {
    #[inline(always)]
    fn at(diff: &'f Difference<'_, CoreShape<'_>, CoreShape<'_>>, n: &Vector3<f64>) -> Self {
        let r = &diff.frame.r;
        Self { a: Curvature::of(diff.a, n), b: Curvature::of(diff.b, &r.tr_mul(&-n)), r }
    }

    /// uᵀ(H_A + R H_B Rᵀ)u, and the same form on (u, v) and (v, v) when `v` is given.
    #[inline(always)]
    fn forms(&self, u: &Vector3<f64>, v: Option<&Vector3<f64>>) -> [f64; 3] {
        let bu = self.r.tr_mul(u);
        let uu = self.a.form(u, u) + self.b.form(&bu, &bu);
        let Some(v) = v else { return [uu, 0.0, 0.0] };
        let bv = self.r.tr_mul(v);
        [uu, self.a.form(u, v) + self.b.form(&bu, &bv), self.a.form(v, v) + self.b.form(&bv, &bv)]
    }
}

/// The best bounds and witnesses found (computation frame of the [`Difference`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Polished {
    /// Best lower bound max g(n) over the iterates.
    pub lower: f64,
    /// Best upper bound min |b − a| over the iterates.
    pub upper: f64,
    /// The witnesses of `upper`.
    pub a: Point3<f64>,
    pub b: Point3<f64>,
    /// Newton steps taken.
    pub steps: u32,
}

/// What the Newton iterates tighten: the distance bracket of separated cores
/// ([`Polished`]) or the depth bracket of overlapping ones ([`DepthPolished`]). Both
/// maximize the same g(n) over the unit sphere; they differ in the bounds an iterate proves.
pub(crate) trait Bracket: Copy {
    /// Whether Newton may continue from an iterate with this g (the distance bracket needs
    /// g > 0: separation proven along n).
    fn admissible(&self, g: f64) -> bool;
    /// Folds one evaluation into the bracket; `true` once the gap meets `target`.
    fn tighten(
        &mut self,
        diff: &Difference<'_, CoreShape<'_>, CoreShape<'_>>,
        e: &Eval<'_>,
        target: f64,
    ) -> bool;
    /// Records the Newton steps taken.
    fn set_steps(&mut self, steps: u32);
    /// How near (relative) a kink of a support function the start may be to be taken as at
    /// it (the optimum then assumed on the kink's manifold).
    fn kink(&self) -> f64 {
        KINK
    }
    /// Whether a failed polish tries the cylinders' cap normals next ([`polish`]): only the
    /// distance bracket, whose g > 0 along a cap normal is a plain separation.
    fn caps_after_failure(&self) -> bool {
        false
    }
}

impl Bracket for Polished {
    fn admissible(&self, g: f64) -> bool {
        gt(g, 0.0)
    }

    /// Its dual value raises the lower bound, its witness distance may lower the upper bound
    /// (with its witnesses).
    fn tighten(
        &mut self,
        _: &Difference<'_, CoreShape<'_>, CoreShape<'_>>,
        e: &Eval<'_>,
        target: f64,
    ) -> bool {
        self.lower = self.lower.max(e.g);
        let up = e.grad.norm();
        if up < self.upper {
            (self.upper, self.a, self.b) = (up, e.a, e.b);
        }
        self.upper - self.lower <= target
    }

    fn set_steps(&mut self, steps: u32) {
        self.steps = steps;
    }

    fn caps_after_failure(&self) -> bool {
        true
    }
}

/// The distance bracket of cores that GJK left near contact (its loose lower bound ≤ 0 <
/// upper): Newton goes on whatever the sign of g. The bounds stay those of [`Polished`]
/// (max g ≤ sd ≤ dist ≤ min |b − a|); where the cores overlap by more than the target the gap
/// cannot close and the polish fails as usual.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NearContact(pub Polished);

impl Bracket for NearContact {
    fn admissible(&self, _g: f64) -> bool {
        // (A step whose curvature term m ≤ 0 is refused by the Newton system itself.)
        true
    }

    fn tighten(
        &mut self,
        diff: &Difference<'_, CoreShape<'_>, CoreShape<'_>>,
        e: &Eval<'_>,
        target: f64,
    ) -> bool {
        self.0.tighten(diff, e, target)
    }

    fn set_steps(&mut self, steps: u32) {
        self.0.steps = steps;
    }
}

/// One evaluation of g at a unit direction. Small enough to move in registers (112 bytes):
/// the polish's faces are the run's, fixed for all its evaluations, and held by reference
/// (inline, they made every move of an evaluation a `memcpy` call).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Eval<'f> {
    /// The unit direction (from A towards B).
    pub n: Vector3<f64>,
    /// g(n) = −h_A(n) − h_B(−n).
    pub g: f64,
    /// b − a for the feature witnesses (= ∇g along the constraint manifold).
    pub grad: Vector3<f64>,
    /// The witnesses: points of A's and B's cores (computation frame) on their support
    /// planes along n.
    pub a: Point3<f64>,
    pub b: Point3<f64>,
    /// The triangle of a polyhedral core's face that fixes n (computation frame), when the
    /// simplex met one: A's, B's. The depth certificate builds a ball inside a tetrahedron on
    /// it (`depth.rs`).
    pub faces: &'f [Option<[Point3<f64>; 3]>; 2],
}

/// No face fixes n (an evaluation from outside a run over polytope features).
pub(crate) const NO_FACES: [Option<[Point3<f64>; 3]>; 2] = [None, None];

/// The pair's features and the constraint they put on n.
struct Features {
    a: Feature,
    b: Feature,
    /// A polyhedral core's edge or face met by GJK's final simplex (computation frame):
    /// its witness is the feature's point closest to the other witness.
    flat_a: Option<FlatFeature>,
    flat_b: Option<FlatFeature>,
    /// The triangles of `flat_a`, `flat_b` when they are faces ([`Eval::faces`]).
    faces: [Option<[Point3<f64>; 3]>; 2],
}

/// An edge (2 points) or triangle (3 points) of a polyhedral core.
#[derive(Debug, Clone, Copy)]
struct FlatFeature {
    points: [Point3<f64>; 3],
    len: usize,
}

impl FlatFeature {
    /// The distinct points among `pts` (bitwise: a polytope's support returns its stored
    /// vertices, so equal vertices compare equal), when there are 2 or 3.
    fn of(pts: &[Point3<f64>]) -> Option<Self> {
        let mut f = FlatFeature { points: [Point3::origin(); 3], len: 0 };
        for p in pts {
            if !f.points[..f.len].contains(p) {
                f.points[f.len] = *p;
                f.len += 1;
            }
        }
        (f.len >= 2).then_some(f)
    }

    /// The point of the feature closest to `x`.
    fn closest(&self, x: &Point3<f64>) -> Point3<f64> {
        let [p, q, r] = self.points;
        if self.len == 2 {
            let e = q - p;
            let t = ((x - p).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
            return if t.is_finite() { p + e * t } else { p };
        }
        x + closest_to_origin([p - x, q - x, r - x])
    }
}

/// Whether a core is a polytope (its support function is piecewise linear).
fn is_polyhedral(core: &CoreShape<'_>) -> bool {
    matches!(
        core,
        CoreShape::Scanned(_)
            | CoreShape::Whole(
                Shape::Triangle(_)
                    | Shape::Cuboid(_)
                    | Shape::AlignedBox(_)
                    | Shape::ConvexPolytope(_)
                    | Shape::Polyhedron(_)
            )
    )
}

/// g(n) from the support points, and the witnesses moved within their support sets (side
/// segment, cap disk) towards the other shape's witness.
#[inline]
fn evaluate<'f, P: PairSupport>(
    diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    sup: &mut P,
    n: &Vector3<f64>,
    f: &'f Features,
) -> Eval<'f> {
    let x = sup.support(diff, &-n);
    let g = -n.dot(&x.w);
    let (mut a, mut b) = (x.a, x.b);
    if f.a != Feature::Smooth {
        a = feature_witness(diff.a, f.a, &a, &b);
    }
    if let Some(fa) = &f.flat_a {
        a = fa.closest(&b);
    }
    if let Some(fb) = &f.flat_b {
        b = fb.closest(&a);
    }
    if f.b != Feature::Smooth {
        let (r, t) = (&diff.frame.r, &diff.frame.t);
        let (bl, al) = (Point3::from(r.tr_mul(&(b.coords - t))), Point3::from(r.tr_mul(&(a.coords - t))));
        b = Point3::from(r * feature_witness(diff.b, f.b, &bl, &al).coords + t);
    }
    Eval { n: *n, g, grad: b - a, a, b, faces: &f.faces }
}

/// Closest points of two cylinder sides facing each other: the lines through the support
/// points `a`, `b` along the axes (A's z, B's R·z), solved as two lines; `None` unless both
/// parameters fall within the sides (otherwise the closest features are not side–side).
fn side_side(
    diff: &Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    a: &Point3<f64>,
    b: &Point3<f64>,
) -> Option<(Point3<f64>, Point3<f64>)> {
    let half = |c: &CoreShape<'_>| match c {
        CoreShape::Whole(Shape::Cylinder(c)) => Some(c.half_height()),
        CoreShape::ZSegment(h) => Some(*h),
        _ => None,
    };
    let (ha, hb) = (half(diff.a)?, half(diff.b)?);
    // a(s) = a₀ + s·z, b(t) = b₀ + t·v with a₀, b₀ the support points moved to the mid-height.
    let v: Vector3<f64> = diff.frame.r.column(2).into();
    let bl_z = diff.frame.r.tr_mul(&(b.coords - diff.frame.t)).z;
    let a0 = Point3::new(a.x, a.y, 0.0);
    let b0 = b - v * bl_z;
    let w = a0 - b0;
    let (bb, d, e) = (v.z, w.z, v.dot(&w));
    let det = 1.0 - bb * bb;
    if !gt(det, KINK) {
        return None;
    }
    let s = (bb * e - d) / det;
    let t = (e - bb * d) / det;
    (s.abs() <= ha && t.abs() <= hb).then(|| (a0 + Vector3::z() * s, b0 + v * t))
}

/// Closest points of a polytope's edge and a cylinder's side line facing each other (the
/// cylinder is A when `side_is_a`): the side's line through its support point (`a` or `b`)
/// along its axis; `None` unless both parameters fall within the edge and the side.
fn edge_side(
    diff: &Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    edge: &FlatFeature,
    side_is_a: bool,
    a: &Point3<f64>,
    b: &Point3<f64>,
) -> Option<(Point3<f64>, Point3<f64>)> {
    let (core, s0) = if side_is_a { (diff.a, a) } else { (diff.b, b) };
    let half = match core {
        CoreShape::Whole(Shape::Cylinder(c)) => c.half_height(),
        CoreShape::ZSegment(h) => *h,
        _ => return None,
    };
    let (v, z0): (Vector3<f64>, f64) = if side_is_a {
        (Vector3::z(), s0.z)
    } else {
        (diff.frame.r.column(2).normalize(), diff.frame.r.tr_mul(&(s0.coords - diff.frame.t)).z)
    };
    // p(s) = p₀ + s·u on the edge (s ∈ [0, 1]), q(t) = s₀ + t·v on the side (z₀ + t ∈ [−h, h]).
    let (p0, u) = (edge.points[0], edge.points[1] - edge.points[0]);
    let w = p0 - s0;
    let (uu, uv, vv, uw, vw) = (u.norm_squared(), u.dot(&v), v.norm_squared(), u.dot(&w), v.dot(&w));
    let det = uu * vv - uv * uv;
    if !gt(det, KINK * uu * vv) {
        return None;
    }
    let sp = (uv * vw - vv * uw) / det;
    let tq = (uu * vw - uv * uw) / det;
    if !((0.0..=1.0).contains(&sp) && (z0 + tq).abs() <= half) {
        return None;
    }
    let (pe, qs) = (p0 + u * sp, s0 + v * tq);
    Some(if side_is_a { (qs, pe) } else { (pe, qs) })
}

/// Projects n onto the great circle orthogonal to `c` (unit), normalized.
#[inline]
fn onto_circle(n: &Vector3<f64>, c: &Option<Vector3<f64>>) -> Vector3<f64> {
    match c {
        Some(c) => (n - c * c.dot(n)).normalize(),
        None => *n,
    }
}

/// Newton on the dual from the unit direction `n0` (from A towards B), until
/// upper − lower ≤ `target`; `seed` = the bounds and witnesses already known (GJK's). `None`
/// when the target is not reached (or the features at n0 are not handled, or g ≤ 0 along the
/// way).
///
/// Features: both smooth → Newton on the sphere (2 unknowns); one cylinder side → Newton on
/// the great circle orthogonal to its axis (1 unknown); a cone's lateral side → Newton on its
/// circle of lateral normals ([`cone_side`], 1 unknown); a cap against a smooth support → the
/// cap normal itself (no unknown). Other combinations are left to GJK.
///
/// When that fails for the distance bracket ([`Bracket::caps_after_failure`]), the caps of the
/// cylinder cores are tried ([`polish_caps`]) before the caller resumes GJK.
pub(crate) fn polish<T: Bracket>(
    diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    n0: Vector3<f64>,
    simplex: &Simplex,
    seed: T,
    target: f64,
) -> Option<T> {
    polish_probed(diff, &mut CoreSupport, n0, simplex, seed, target, None)
}

/// As [`polish`], with `at_n0` the evaluation at `n0` when the caller has it already (GJK's
/// first support pair along n0, g(n0) its lower bound: see `run_polished` in
/// `query/distance/gjk.rs`). It stands for the first run's opening evaluation where that
/// would be the plain support pair at n0 (both features smooth, no polytope edge or face:
/// then the run starts at n0 itself), which saves one support evaluation of the pair
/// (cylinder–ellipsoid, capsule–cylinder: the Newton-first pairs). It steers the first
/// Newton step only; every bound after it is evaluated afresh, and its own bounds are the
/// caller's (the seed's) already.
pub(crate) fn polish_probed<T: Bracket, P: PairSupport>(
    diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    sup: &mut P,
    n0: Vector3<f64>,
    simplex: &Simplex,
    seed: T,
    target: f64,
    at_n0: Option<Eval<'_>>,
) -> Option<T> {
    let mut failed = match polish_at(diff, sup, n0, simplex, seed, target, seed.kink(), at_n0, None) {
        Ok(done) => return Some(done),
        Err(failed) => failed,
    };
    if !seed.caps_after_failure() {
        return None;
    }
    if let Some(Failure { narrower: Some(flat), .. }) = failed {
        failed = match polish_at(diff, sup, n0, simplex, seed, target, seed.kink(), None, Some(flat)) {
            Ok(done) => return Some(done),
            Err(failed) => failed,
        };
    }
    if let Some(Failure { n, kinked, a, b, .. }) = failed
        && let Some((n1, kink)) = retry_direction(diff, &n, kinked, &a, &b)
        && let Ok(done) = polish_at(diff, sup, n1, simplex, seed, target, kink, None, None)
    {
        return Some(done);
    }
    polish_caps(diff, sup, &n0, simplex, seed, target)
}

/// Where a failed Newton run stopped: its last direction, whether it ran on a cylinder side's
/// great circle (`kinked`), and the last witnesses (computation frame); `narrower`: the
/// polytope feature to try instead of the simplex's when that one was not the closest
/// (see [`narrower_feature`]).
#[derive(Debug, Clone, Copy)]
struct Failure {
    n: Vector3<f64>,
    kinked: bool,
    a: Point3<f64>,
    b: Point3<f64>,
    narrower: Option<Option<FlatFeature>>,
}

/// The start and kink tolerance of one second Newton run after `failed` (see [`polish`]):
///
/// * a run on a cylinder side's great circle whose g settled without closing the bracket,
///   with that side's witness at an end of the side: the optimum is off the circle, on the
///   rim at that end, so the second run starts from n tilted towards that rim by
///   [`RETRY_TILT`] (a smooth start there);
/// * a smooth run that stalled (no ascent within the halvings, or out of steps): the
///   optimum is likely at a kink the start was too far from to be taken as at it; the second
///   run starts from the last direction, with kinks taken within [`RETRY_KINK`].
///
/// Either way every bound is proven as in the first run; this only picks the start.
fn retry_direction(
    diff: &Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    n: &Vector3<f64>,
    kinked: bool,
    a: &Point3<f64>,
    b: &Point3<f64>,
) -> Option<(Vector3<f64>, f64)> {
    if !kinked {
        return Some((*n, RETRY_KINK));
    }
    let half = |c: &CoreShape<'_>| match c {
        CoreShape::Whole(Shape::Cylinder(c)) => Some(c.half_height()),
        _ => None,
    };
    // (B's witness is read back through the relative frame: an end to rounding counts.)
    let at_end = |z: f64, h: f64| {
        let end = h * (1.0 - END_SLACK);
        if z >= end {
            1.0
        } else if z <= -end {
            -1.0
        } else {
            0.0
        }
    };
    let (r, t) = (&diff.frame.r, &diff.frame.t);
    // A's side: n ⟂ z; its rim at ±h is supported for n_z of that sign.
    if let Some(h) = half(diff.a)
        && !gt(n.z.abs(), KINK)
        && at_end(a.z, h) != 0.0
    {
        let tilted = n + Vector3::z() * (at_end(a.z, h) * RETRY_TILT);
        return Some((tilted.normalize(), KINK));
    }
    // B's side: B's direction is −Rᵀn; its rim at ±h_B is supported for (−Rᵀn)_z of that sign.
    if let Some(h) = half(diff.b) {
        let axis: Vector3<f64> = r.column(2).normalize();
        let zb = r.tr_mul(&(b.coords - t)).z;
        if !gt(n.dot(&axis).abs(), KINK) && at_end(zb, h) != 0.0 {
            let tilted = n - axis * (at_end(zb, h) * RETRY_TILT);
            return Some((tilted.normalize(), KINK));
        }
    }
    None
}

/// A side's witness within this (relative to the half height) of an end is at that end (see
/// [`retry_direction`]; a wrong guess only costs the second attempt).
const END_SLACK: f64 = 1e-9;

/// The tilt off a side's great circle of a second Newton run (see [`retry_direction`]):
/// beyond [`KINK`], so the start is smooth, and small against the angles between features.
const RETRY_TILT: f64 = 1e-2;

/// The kink tolerance of a second Newton run from a stalled smooth one (see
/// [`retry_direction`]).
const RETRY_KINK: f64 = 5e-2;

/// A cylinder's cap facing the other core is a flat face: where it holds the closest point,
/// the optimal n is its normal ±axis exactly, which Newton on the smooth rim only approaches
/// (the rim's curvature r/|m_xy| grows without bound towards the cap normal) and GJK reaches
/// only linearly. So after a failed polish each cylinder core's cap normal oriented along `n0`
/// (the one more aligned with `n0` first) is evaluated as a fixed direction: g(±axis) is a
/// lower bound like any other, the witnesses (the other core's support point clamped into the
/// cap disk, and the other core's support, or its side or cap point closest to that) are
/// points of the cores, and the answer is kept only when they close the bracket to `target`.
/// One support evaluation per cap, against a GJK run to the loose gap and more.
fn polish_caps<T: Bracket, P: PairSupport>(
    diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    sup: &mut P,
    n0: &Vector3<f64>,
    simplex: &Simplex,
    seed: T,
    target: f64,
) -> Option<T> {
    let is_cylinder = |c: &CoreShape<'_>| matches!(c, CoreShape::Whole(Shape::Cylinder(_)));
    let mut caps = [None, None];
    if is_cylinder(diff.a) {
        caps[0] = Some(Vector3::z());
    }
    if is_cylinder(diff.b) {
        caps[1] = diff.frame.r.column(2).try_normalize(0.0);
    }
    if let [Some(a), Some(b)] = caps
        && b.dot(n0).abs() > a.dot(n0).abs()
    {
        caps = [Some(b), Some(a)];
    }
    for axis in caps.into_iter().flatten() {
        let along = axis.dot(n0);
        if !gt(along.abs(), 0.0) {
            continue;
        }
        let n = if along > 0.0 { axis } else { -axis };
        if let Ok(done) = polish_at(diff, sup, n, simplex, seed, target, KINK, None, None) {
            return Some(done);
        }
    }
    None
}

/// One Newton run of [`polish`] from `n0`, its features taken within `kink` of the kinks;
/// on failure where it stopped, when it took Newton steps (see [`retry_direction`]), or the
/// narrower polytope feature to try next. `at_n0`: see [`polish_probed`]; `given_flat`: the
/// polytope's feature to use instead of the one read off the simplex (`Some(None)`: none,
/// its support is taken as a vertex).
// (The failure, a few points, is returned once per failed run, by a function that is not
// inlined into a loop: boxing it would allocate for no gain.)
#[allow(clippy::too_many_arguments, clippy::result_large_err)]
fn polish_at<T: Bracket, P: PairSupport>(
    diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    sup: &mut P,
    n0: Vector3<f64>,
    simplex: &Simplex,
    seed: T,
    target: f64,
    kink: f64,
    at_n0: Option<Eval<'_>>,
    given_flat: Option<Option<FlatFeature>>,
) -> Result<T, Option<Failure>> {
    let mut f = Features {
        a: feature(diff.a, &n0, kink).ok_or(None)?,
        b: feature(diff.b, &diff.frame.r.tr_mul(&-n0), kink).ok_or(None)?,
        flat_a: None,
        flat_b: None,
        faces: NO_FACES,
    };
    // A polyhedral core whose simplex points form an edge or a face: the optimal n is
    // orthogonal to that edge (1 unknown) or is that face's normal (fixed), the other core's
    // support being unique there (a smooth feature).
    let vertices = &simplex.v[..simplex.len];
    let mut pa = [Point3::origin(); 4];
    let mut pb = [Point3::origin(); 4];
    for (k, v) in vertices.iter().enumerate() {
        (pa[k], pb[k]) = (v.a, v.b);
    }
    // (Against a cylinder's side too: an edge and a side line fix n as their common normal.)
    let smooth_or_side = |x: Feature| matches!(x, Feature::Smooth | Feature::Side);
    if is_polyhedral(diff.a) && smooth_or_side(f.b) {
        f.flat_a = given_flat.unwrap_or_else(|| FlatFeature::of(&pa[..simplex.len]));
    } else if is_polyhedral(diff.b) && smooth_or_side(f.a) {
        f.flat_b = given_flat.unwrap_or_else(|| FlatFeature::of(&pb[..simplex.len]));
    }
    let face = |ff: &Option<FlatFeature>| ff.filter(|ff| ff.len == 3).map(|ff| ff.points);
    f.faces = [face(&f.flat_a), face(&f.flat_b)];
    if f.a == Feature::ConeSide || f.b == Feature::ConeSide {
        return match (f.a, f.b) {
            (Feature::ConeSide, Feature::Smooth) => cone_side(diff, sup, n0, true, seed, target).ok_or(None),
            (Feature::Smooth, Feature::ConeSide) => cone_side(diff, sup, n0, false, seed, target).ok_or(None),
            _ => Err(None),
        };
    }
    let flat = f.flat_a.or(f.flat_b);
    let axis_a = Vector3::z();
    // B's axis in A's frame, normalized (a pose's rotation is orthonormal only to its input
    // precision, and g(n) is a bound only for unit n).
    let axis_b: Vector3<f64> = diff.frame.r.column(2).normalize();
    let oriented = |u: Vector3<f64>| if u.dot(&n0) >= 0.0 { u } else { -u };
    let (mut n, constraint, fixed) = match (f.a, f.b) {
        (Feature::Smooth, Feature::Smooth) => match flat {
            None => (n0, None, false),
            Some(ff) if ff.len == 2 => {
                let c = (ff.points[1] - ff.points[0]).try_normalize(0.0).ok_or(None)?;
                (onto_circle(&n0, &Some(c)), Some(c), false)
            }
            Some(ff) => {
                let normal = (ff.points[1] - ff.points[0]).cross(&(ff.points[2] - ff.points[0]));
                (oriented(normal.try_normalize(0.0).ok_or(None)?), None, true)
            }
        },
        // A polytope's edge or face against a cylinder's side: n is the edge × axis or the
        // face normal (fixed).
        (Feature::Side, Feature::Smooth) | (Feature::Smooth, Feature::Side) if flat.is_some() => {
            let ff = flat.ok_or(None)?;
            let axis = if f.a == Feature::Side { axis_a } else { axis_b };
            let normal = if ff.len == 2 {
                (ff.points[1] - ff.points[0]).cross(&axis)
            } else {
                (ff.points[1] - ff.points[0]).cross(&(ff.points[2] - ff.points[0]))
            };
            if !gt(normal.norm(), KINK * (ff.points[1] - ff.points[0]).norm()) {
                return Err(None);
            }
            (oriented(normal.normalize()), None, true)
        }
        (Feature::Side, Feature::Smooth) => (onto_circle(&n0, &Some(axis_a)), Some(axis_a), false),
        (Feature::Smooth, Feature::Side) => (onto_circle(&n0, &Some(axis_b)), Some(axis_b), false),
        (Feature::Cap, Feature::Smooth | Feature::Side | Feature::Cap) => (oriented(axis_a), None, true),
        (Feature::Smooth | Feature::Side, Feature::Cap) => (oriented(axis_b), None, true),
        (Feature::Side, Feature::Side) => {
            let c = axis_a.cross(&axis_b);
            if !gt(c.norm(), KINK) {
                return Err(None);
            }
            (oriented(c.normalize()), None, true)
        }
        _ => return Err(None),
    };
    // (Both smooth without a flat feature: n is n0 and the evaluation the plain support
    // pair there, which the caller may have.)
    let plain = (f.a, f.b) == (Feature::Smooth, Feature::Smooth) && flat.is_none();
    let mut e = match at_n0 {
        Some(x) if plain => x,
        _ => evaluate(diff, sup, &n, &f),
    };
    if (f.a, f.b) == (Feature::Side, Feature::Side) {
        (e.a, e.b) = side_side(diff, &e.a, &e.b).ok_or(None)?;
        e.grad = e.b - e.a;
    }
    if let Some(ff) = flat.filter(|ff| ff.len == 2 && (f.a == Feature::Side || f.b == Feature::Side)) {
        // The edge and the side line's closest points outside either: not edge against side;
        // the side alone (the polytope's support a vertex) is tried next.
        let Some(pair) = edge_side(diff, &ff, f.a == Feature::Side, &e.a, &e.b) else {
            return Err(narrowing(given_flat, &n, &e, None));
        };
        (e.a, e.b) = pair;
        e.grad = e.b - e.a;
    }
    let kinked = constraint.is_some() && flat.is_none();
    let failure =
        |n: &Vector3<f64>, e: &Eval<'_>| Some(Failure { n: *n, kinked, a: e.a, b: e.b, narrower: None });
    let mut best = seed;
    if best.tighten(diff, &e, target) {
        return Ok(best);
    }
    if fixed {
        // A face whose normal does not close the bracket: the other witness is closest to an
        // edge or a vertex of it, tried next.
        return match flat.filter(|ff| ff.len == 3) {
            Some(face) => {
                let other = if f.flat_a.is_some() { e.b } else { e.a };
                Err(narrowing(given_flat, &n, &e, narrower_feature(&face, &other)))
            }
            None => Err(None),
        };
    }
    for step in 1..=MAX_STEPS {
        if !best.admissible(e.g) {
            return Err(None);
        }
        let h = Hessians::at(diff, &n);
        let tangent = match constraint {
            Some(c) => {
                // One unknown along e = c × n (unit: n ⟂ c).
                let t1 = c.cross(&n).normalize();
                let m = h.forms(&t1, None)[0] + e.g;
                let step = t1.dot(&e.grad) / m;
                // (m ≤ 0: g is not concave here, no ascent step; with g < 0, overlapping
                // cores whose curvature radii sum below the depth.)
                if !(step.is_finite() && gt(m, 0.0)) {
                    return Err(None);
                }
                t1 * step
            }
            None => {
                // Tangent basis: e₁ ⟂ n from the coordinate axis least aligned with n.
                let mut t = Vector3::zeros();
                t[n.iamin()] = 1.0;
                let e1 = n.cross(&t).normalize();
                let e2 = n.cross(&e1);
                let [h11, h12, h22] = h.forms(&e1, Some(&e2));
                let m = Matrix2::new(h11 + e.g, h12, h12, h22 + e.g);
                if !(gt(m[(0, 0)], 0.0) && gt(m.determinant(), 0.0)) {
                    return Err(None);
                }
                let sol = solve_2x2(&m, e1.dot(&e.grad), e2.dot(&e.grad)).ok_or(None)?;
                if !(sol.x.is_finite() && sol.y.is_finite()) {
                    return Err(None);
                }
                e1 * sol.x + e2 * sol.y
            }
        };
        let mut tangent = tangent;
        // The accepted trial replaces (n, e) in place (no staging copy of the evaluation);
        // without one they stay the last iterate's, where the failure is reported.
        let mut moved = None;
        for _ in 0..=MAX_HALVINGS {
            let trial = onto_circle(&(n + tangent).normalize(), &constraint);
            let te = evaluate(diff, sup, &trial, &f);
            if te.g >= e.g {
                moved = Some(te.g - e.g);
                (n, e) = (trial, te);
                break;
            }
            tangent *= 0.5;
        }
        let Some(moved) = moved else { return Err(failure(&n, &e)) };
        best.set_steps(step);
        if best.tighten(diff, &e, target) {
            return Ok(best);
        }
        if moved <= target {
            // g has settled (Newton converged) but the bracket has not closed: the other
            // bound is what is missing, and more steps will not bring it.
            return Err(failure(&n, &e));
        }
    }
    Err(failure(&n, &e))
}

/// The solution of m x = (r0, r1) by Gaussian elimination with partial pivoting, the very
/// operations of nalgebra's `m.lu().solve(..)` on a 2 × 2 system (so the same bits): the row
/// with the larger |m_i0| pivots (the first on a tie), l = m_10 · (1/m_00) below it, then
/// forward and back substitution; `None` where that solve fails (a zero pivot). Written out,
/// it is the few operations it needs without the decomposition's generic loops, its
/// permutation record and its call (cylinders workload: 2 % of the time in `LU::solve`).
#[inline]
fn solve_2x2(m: &Matrix2<f64>, r0: f64, r1: f64) -> Option<Vector2<f64>> {
    let (p00, p01, p10, p11, c0, c1) = if m[(1, 0)].abs() > m[(0, 0)].abs() {
        (m[(1, 0)], m[(1, 1)], m[(0, 0)], m[(0, 1)], r1, r0)
    } else {
        (m[(0, 0)], m[(0, 1)], m[(1, 0)], m[(1, 1)], r0, r1)
    };
    if p00 == 0.0 {
        // (nalgebra leaves the column as it is and its back substitution then fails.)
        return None;
    }
    let l = p10 * (1.0 / p00);
    let u11 = -p01 * l + p11;
    let c1 = -c0 * l + c1;
    if u11 == 0.0 {
        return None;
    }
    let x1 = c1 / u11;
    let x0 = (-x1 * p01 + c0) / p00;
    Some(Vector2::new(x0, x1))
}

/// The failure that asks for one more run with the polytope feature `flat` (only from a run
/// on the simplex's own feature: a narrowed run that fails stops narrowing).
fn narrowing(
    given_flat: Option<Option<FlatFeature>>,
    n: &Vector3<f64>,
    e: &Eval<'_>,
    flat: Option<FlatFeature>,
) -> Option<Failure> {
    given_flat.is_none().then_some(Failure { n: *n, kinked: false, a: e.a, b: e.b, narrower: Some(flat) })
}

/// The edge of the triangle `face` nearest to `x` when its nearest point lies strictly inside
/// that edge, else `None` (a vertex is nearest): the polytope feature to try when the face's
/// normal did not close the bracket ([`polish_at`]), the other shape's witness `x` projecting
/// outside the face.
fn narrower_feature(face: &FlatFeature, x: &Point3<f64>) -> Option<FlatFeature> {
    let [p, q, r] = face.points;
    let mut best: Option<(f64, bool, [Point3<f64>; 2])> = None;
    for [u, v] in [[p, q], [q, r], [r, p]] {
        let e = v - u;
        let t = ((x - u).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
        if !t.is_finite() {
            continue;
        }
        let d = (u + e * t - x).norm_squared();
        if best.is_none_or(|(bd, _, _)| d < bd) {
            best = Some((d, t > 0.0 && t < 1.0, [u, v]));
        }
    }
    let (_, inside, [u, v]) = best?;
    inside.then_some(FlatFeature { points: [u, v, u], len: 2 })
}

/// Newton on a cone's circle of lateral normals against a smooth support (`cone_is_a`: the
/// cone is A). In the cone's frame (apex (0, 0, h), base radius r at −h) the lateral normals
/// are m(θ) = (ρ cos θ, ρ sin θ, s) with (s, ρ) from [`cone_lateral`], and the cone's
/// support value h·s is constant along them, so with the other shape's support point q (at
/// −m, cone frame) and its Hessian H there, along the unit tangent t = ẑ × m / ρ and the arc
/// length σ = ρθ:
///
/// ```text
/// g'(σ) = q·t,   g''(σ) = −tᵀH t − q·(m − s ẑ)/ρ²   (the circle's curvature 1/ρ),
/// ```
///
/// and Newton steps θ ← θ + (q·t)/(ρ (tᵀH t + q·(m − s ẑ)/ρ²)), halved while g decreases.
/// The cone's witness is the point of the generator at θ (apex to rim point) closest to q.
/// Every iterate's g is a lower bound and its witnesses lie in the shapes.
fn cone_side<T: Bracket, P: PairSupport>(
    diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    sup: &mut P,
    n0: Vector3<f64>,
    cone_is_a: bool,
    seed: T,
    target: f64,
) -> Option<T> {
    let (cone, other) = if cone_is_a { (diff.a, diff.b) } else { (diff.b, diff.a) };
    let (CoreShape::Whole(Shape::Cone(c)), other) = (*cone, *other) else { return None };
    let (s, rho) = cone_lateral(c);
    let (r, h) = (c.radius(), c.half_height());
    let (rot, t) = (diff.frame.r, diff.frame.t);
    // The cone's direction in its frame and back: n for A, −Rᵀn for B.
    let to_cone = |n: &Vector3<f64>| if cone_is_a { *n } else { -rot.tr_mul(n) };
    let from_cone = |m: &Vector3<f64>| if cone_is_a { *m } else { -(rot * m) };
    let at = |theta: f64| Vector3::new(rho * theta.cos(), rho * theta.sin(), s);
    let m0 = to_cone(&n0);
    let mut theta = m0.y.atan2(m0.x);
    // g at θ, the witnesses (computation frame), and q (the other's support, cone frame).
    let eval = |diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>, sup: &mut P, theta: f64| {
        let m = at(theta);
        let n = from_cone(&m);
        let x = sup.support(diff, &-n);
        let g = -n.dot(&x.w);
        let q = if cone_is_a { x.b.coords } else { rot.tr_mul(&(x.a.coords - t)) };
        // The generator's point closest to q.
        let apex = Vector3::new(0.0, 0.0, h);
        let rim = Vector3::new(r * theta.cos(), r * theta.sin(), -h);
        let e = rim - apex;
        let u = ((q - apex).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
        let p = apex + e * u;
        let (a, b) = if cone_is_a { (Point3::from(p), x.b) } else { (x.a, Point3::from(rot * p + t)) };
        (Eval { n, g, grad: b - a, a, b, faces: &NO_FACES }, q, m)
    };
    let mut best = seed;
    let (mut e, mut q, mut m) = eval(diff, sup, theta);
    if best.tighten(diff, &e, target) {
        return Some(best);
    }
    for step in 1..=MAX_STEPS {
        // The other shape's Hessian in the cone's frame.
        let h_other = if cone_is_a {
            rot * support_hessian(&other, &rot.tr_mul(&-from_cone(&m))) * rot.transpose()
        } else {
            rot.tr_mul(&(support_hessian(&other, &from_cone(&m)) * rot))
        };
        let tangent = Vector3::new(-m.y, m.x, 0.0) / rho;
        let curvature = tangent.dot(&(h_other * tangent)) + q.dot(&(m - Vector3::z() * s)) / (rho * rho);
        let mut dtheta = q.dot(&tangent) / (rho * curvature);
        if !(dtheta.is_finite() && gt(curvature, 0.0)) {
            return None;
        }
        let mut accepted = None;
        for _ in 0..=MAX_HALVINGS {
            let trial = eval(diff, sup, theta + dtheta);
            if trial.0.g >= e.g {
                accepted = Some((theta + dtheta, trial));
                break;
            }
            dtheta *= 0.5;
        }
        let (next, (ne, nq, nm)) = accepted?;
        (theta, e, q, m) = (next, ne, nq, nm);
        best.set_steps(step);
        if best.tighten(diff, &e, target) {
            return Some(best);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    //! The written-out 2 × 2 solve against nalgebra's LU (bit for bit), and the narrowing of a
    //! face to the feature nearest a point.
    use nalgebra::{Matrix2, Point3};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::{FlatFeature, narrower_feature, solve_2x2};

    #[test]
    fn solve_2x2_matches_nalgebra_bitwise() {
        let mut rng = SmallRng::seed_from_u64(7);
        let mut pivoted = 0;
        for k in 0..20_000 {
            let mut v = || {
                let x: f64 = rng.random_range(-1.0..1.0);
                x * 10f64.powi(rng.random_range(-6..6))
            };
            // Symmetric (the Newton system's shape) and general, ties on the pivot included.
            let (a, b, d) = (v(), v(), v());
            let m = match k % 3 {
                0 => Matrix2::new(a, b, b, d),
                1 => Matrix2::new(a, b, -a, d),
                _ => Matrix2::new(a, b, v(), d),
            };
            let (r0, r1) = (v(), v());
            let ours = solve_2x2(&m, r0, r1);
            let theirs = m.lu().solve(&nalgebra::Vector2::new(r0, r1));
            pivoted += usize::from(m[(1, 0)].abs() > m[(0, 0)].abs());
            match (ours, theirs) {
                (Some(x), Some(y)) => {
                    assert_eq!(
                        (x.x.to_bits(), x.y.to_bits()),
                        (y.x.to_bits(), y.y.to_bits()),
                        "{m} {r0} {r1}"
                    )
                }
                (None, None) => {}
                (x, y) => panic!("{m}: ours {x:?}, nalgebra {y:?}"),
            }
        }
        assert!(pivoted > 1000, "both pivot orders exercised ({pivoted})");
        // Singular: both fail.
        assert!(solve_2x2(&Matrix2::new(1.0, 2.0, 2.0, 4.0), 1.0, 1.0).is_none());
        assert!(Matrix2::new(1.0, 2.0, 2.0, 4.0).lu().solve(&nalgebra::Vector2::new(1.0, 1.0)).is_none());
        assert!(solve_2x2(&Matrix2::zeros(), 1.0, 1.0).is_none());
    }

    #[test]
    fn narrower_feature_is_the_nearest_edge_or_a_vertex() {
        let p = Point3::new(0.0, 0.0, 0.0);
        let q = Point3::new(1.0, 0.0, 0.0);
        let r = Point3::new(0.0, 1.0, 0.0);
        let face = FlatFeature { points: [p, q, r], len: 3 };
        // Beyond the hypotenuse: that edge.
        let e = narrower_feature(&face, &Point3::new(0.8, 0.8, 0.3)).unwrap();
        assert_eq!(e.len, 2);
        assert_eq!([e.points[0], e.points[1]], [q, r]);
        // Below the x axis, between its ends: the edge p q.
        let e = narrower_feature(&face, &Point3::new(0.4, -0.5, -0.2)).unwrap();
        assert_eq!([e.points[0], e.points[1]], [p, q]);
        // Beyond the corner q: a vertex, no edge.
        assert!(narrower_feature(&face, &Point3::new(2.0, -1.0, 0.0)).is_none());
    }
}
