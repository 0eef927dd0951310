//! The separating direction of the directional steps: a unit n whose separation
//! sep(n) = −h_B(−n) − h_A(n) is (nearly) the distance.
//!
//! # Why not simply the witness normal
//!
//! The query's normal (p_b − p_a)/|p_b − p_a| comes from two witness points, each exact only
//! up to its *tangential* error: round-off ε·|x| for polytopes, and for curved shapes the
//! error of the dual optimum (the gap is quadratic in it, so a gap of 1e-10 leaves it at
//! ~1e-5). Divided by a distance that goes to 0 near contact, the normal's error grows
//! without bound, and along a tilted n a face or an edge loses a first-order amount of
//! separation: the directional certificates then prove nothing. The distance's own lower
//! bound is proven along an accurate direction (a face normal of the Minkowski difference,
//! a Newton-polished dual direction), but the answer does not carry it.
//!
//! # Candidates
//!
//! Every candidate is checked by its separation (two support evaluations); the best is kept.
//!
//! 1. The witness normal (accurate while the distance is large).
//! 2. The previous sample's direction, unchanged, turned with A and turned with B: a face
//!    normal of A (B) moves exactly with A's (B's) rotation.
//! 3. Box and axial feature axes (face normals, axes and their cross products), the exact
//!    directions of face and edge–edge contacts between boxes, cylinders, cones and capsules.
//! 4. A Newton step on the dual g(n) = sep(n) over the sphere from the best of these, its
//!    Hessian −P(H_A + H_B)P − g·P by finite differences of the support points (smooth
//!    curved contacts: ellipsoids, rims), accepted only if it increases g.
//!
//! The search stops as soon as a candidate is within a small fraction of the certified lower
//! bound L; failure costs nothing but step length (the isotropic step needs no direction).

use nalgebra::{Matrix2, Point3, Vector2, Vector3};

use crate::pose::Pose;
use crate::shape::Shape;

/// Support points of A along n and of B along −n at one sample, and their support values.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Along {
    /// s_A(n) (world).
    pub sa: Point3<f64>,
    /// s_B(−n) (world).
    pub sb: Point3<f64>,
    /// h_A(n).
    pub fa: f64,
    /// h_B(−n).
    pub fb: f64,
}

impl Along {
    /// −h_B(−n) − h_A(n) ≤ d.
    pub fn separation(&self) -> f64 {
        -self.fb - self.fa
    }
}

/// A shape placed at a pose.
#[derive(Clone, Copy)]
pub(crate) struct Placed<'s> {
    pub shape: &'s Shape,
    pub pose: &'s Pose,
}

impl Placed<'_> {
    fn support(&self, n: &Vector3<f64>, hint: &mut u32) -> Point3<f64> {
        let m = self.pose.rotation().tr_mul(n);
        // Climb from the previous support vertex (a scan's hint included).
        *hint = crate::gjk::warm_hint(*hint);
        let p = self.shape.local_support_hinted(&m, hint).unwrap_or_else(Point3::origin);
        self.pose.transform_point(&p)
    }
}

/// Both shapes at one sample and their support hints.
pub(crate) struct Pair<'p> {
    pub a: Placed<'p>,
    pub b: Placed<'p>,
    pub hints: &'p mut (u32, u32),
}

impl Pair<'_> {
    /// The support points along n (A) and −n (B).
    pub fn along(&mut self, n: &Vector3<f64>) -> Along {
        let sa = self.a.support(n, &mut self.hints.0);
        let sb = self.b.support(&-n, &mut self.hints.1);
        Along { sa, sb, fa: n.dot(&sa.coords), fb: -n.dot(&sb.coords) }
    }

    /// The best of `candidates` and of the refinements of this module's docs, stopping at
    /// the first direction whose separation reaches `good`. Returns the direction and its
    /// support points.
    pub fn best(
        &mut self,
        candidates: &[Vector3<f64>],
        good: f64,
        features: bool,
    ) -> Option<(Vector3<f64>, Along)> {
        let mut best: Option<(Vector3<f64>, Along)> = None;
        let better =
            |best: &Option<(Vector3<f64>, Along)>, g: f64| best.as_ref().is_none_or(|b| g > b.1.separation());
        for n in candidates {
            let Some(n) = unit(n) else { continue };
            let al = self.along(&n);
            if better(&best, al.separation()) {
                best = Some((n, al));
            }
            if al.separation() >= good {
                return best;
            }
        }
        if features {
            let (a, b) = (feature_axes(&self.a), feature_axes(&self.b));
            let reference = best.map_or(Vector3::zeros(), |b| b.0);
            for u in a.iter().chain(&b) {
                for axis in std::iter::once(*u).chain(b.iter().map(|v| u.cross(v))) {
                    let Some(mut m) = unit(&axis) else { continue };
                    if m.dot(&reference) < 0.0 {
                        m = -m;
                    }
                    let al = self.along(&m);
                    if better(&best, al.separation()) {
                        best = Some((m, al));
                        if al.separation() >= good {
                            return best;
                        }
                    }
                }
            }
        }
        let (n, al) = best?;
        match self.newton(&n, &al) {
            Some((m, bl)) if bl.separation() > al.separation() => Some((m, bl)),
            _ => Some((n, al)),
        }
    }

    /// One Newton step on g(n) = sep(n) over the unit sphere, the Hessian by finite
    /// differences of the support points (see the module docs).
    fn newton(&mut self, n: &Vector3<f64>, al: &Along) -> Option<(Vector3<f64>, Along)> {
        let g = al.separation();
        let e1 = n.cross(&if n.x.abs() < 0.9 { Vector3::x() } else { Vector3::y() }).normalize();
        let e2 = n.cross(&e1);
        let diff = al.sb - al.sa;
        let grad = Vector2::new(e1.dot(&diff), e2.dot(&diff));
        const H: f64 = 1e-6;
        let mut k = Matrix2::zeros();
        for (j, e) in [e1, e2].iter().enumerate() {
            let m = (n + e * H).normalize();
            let bl = self.along(&m);
            let dj = ((bl.sa - al.sa) - (bl.sb - al.sb)) / H;
            k[(0, j)] = e1.dot(&dj);
            k[(1, j)] = e2.dot(&dj);
        }
        let k = (k + k.transpose()) * 0.5 + Matrix2::identity() * g;
        if !(k[(0, 0)] > 0.0 && k.determinant() > 0.0) {
            return None;
        }
        let t = k.try_inverse()? * grad;
        let m = unit(&(n + e1 * t.x + e2 * t.y))?;
        Some((m, self.along(&m)))
    }
}

fn unit(v: &Vector3<f64>) -> Option<Vector3<f64>> {
    let len = v.norm();
    (len > 1e-300 && len.is_finite()).then(|| v / len)
}

/// World face normals / axes of boxes and axial shapes (cylinders, cones, capsules); none for
/// other shapes.
fn feature_axes(p: &Placed<'_>) -> Vec<Vector3<f64>> {
    let col = |k: usize| -> Vector3<f64> { p.pose.rotation().column(k).into() };
    match p.shape {
        Shape::Cuboid(_) | Shape::AlignedBox(_) => vec![col(0), col(1), col(2)],
        Shape::Cylinder(_) | Shape::Cone(_) | Shape::Capsule(_) => vec![col(2)],
        _ => Vec::new(),
    }
}
