//! Cheap conservative bounds: world AABBs from support functions, the radius of a shape about
//! its local origin, and the motion bound of a rigid pose change.
//!
//! # Maths
//!
//! * **AABB.** For a convex set S, the tightest axis-aligned box is
//!   `[−h(−eₖ), h(eₖ)]` per axis k, with h the support value. Six support evaluations.
//!   Convex polytopes of at least [`BOXED_MIN_VERTICES`] vertices (mesh hulls) use instead the
//!   world box of their local bounding box B = c ± h: centre R·c + t, half-extents |R|·h
//!   (entrywise absolute value), rounded outward — it contains the polytope, so gaps stay lower
//!   bounds, and costs a few flops instead of six support queries over hundreds of vertices.
//! * **Gap of two AABBs.** `g = |max(0, lo_B − hi_A, lo_A − hi_B)|₂` (per axis, the interval
//!   gap). Since A ⊂ box(A) and B ⊂ box(B), dist(A, B) ≥ dist(box A, box B) = g: a lower bound.
//! * **Radius.** r = max over the shape of |x| in its local frame (vertices for polytopes, the
//!   half-extent corner for boxes, and so on). Lines are unbounded and rejected.
//! * **Motion bound.** A point with local coordinates x (|x| ≤ r) moves from R·x + t to
//!   R'·x + t'. The displacement is (R' − R)·x + (t' − t), so its length is at most
//!   ‖R' − R‖₂·r + |t' − t| ≤ ‖R' − R‖_F·r + |t' − t|. Any point of the shape moves by at
//!   most this much between the two poses, hence the distance of a pair changes by at most the
//!   sum of the two objects' bounds (the distance is 1-Lipschitz in each object's points).

use nalgebra::Vector3;
use proxima_geom::{Pose, Shape};

use crate::error::SceneError;

/// An axis-aligned box in the world frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    /// Lower corner.
    pub min: [f64; 3],
    /// Upper corner.
    pub max: [f64; 3],
}

/// Polytopes with at least this many vertices get the AABB of their local bounding box.
pub const BOXED_MIN_VERTICES: usize = 32;

/// A box in a shape's local frame: centre and half-extents.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocalBox {
    /// Centre.
    pub center: Vector3<f64>,
    /// Half-extents.
    pub half: Vector3<f64>,
}

impl LocalBox {
    /// The local bounding box of a convex polytope with at least [`BOXED_MIN_VERTICES`]
    /// vertices; `None` for other shapes.
    pub fn of(shape: &Shape) -> Option<LocalBox> {
        let Shape::ConvexPolytope(p) = shape else { return None };
        let v = p.vertices();
        if v.len() < BOXED_MIN_VERTICES {
            return None;
        }
        let (mut lo, mut hi) = (v[0].coords, v[0].coords);
        for x in v {
            lo = lo.inf(&x.coords);
            hi = hi.sup(&x.coords);
        }
        let center = (lo + hi) / 2.0;
        // rounded outward: every vertex within center ± half
        let half = (hi - lo) / 2.0 + (hi.abs() + lo.abs()) * 1e-15;
        Some(LocalBox { center, half })
    }
}

impl Aabb {
    /// The world AABB of a local box placed at `pose` (see the module docs), rounded outward.
    pub fn of_box(b: &LocalBox, pose: &Pose) -> Aabb {
        let r = pose.rotation();
        let c = r * b.center + pose.translation();
        let h = r.abs() * b.half;
        let mut min = [0.0; 3];
        let mut max = [0.0; 3];
        for k in 0..3 {
            let pad = (h[k] + c[k].abs()) * 1e-14;
            min[k] = c[k] - h[k] - pad;
            max[k] = c[k] + h[k] + pad;
        }
        Aabb { min, max }
    }

    /// The tightest AABB of `shape` placed at `pose` (six support evaluations). Lines (unbounded)
    /// give infinite extents; the scene rejects them before this is called.
    pub fn of(shape: &Shape, pose: &Pose) -> Aabb {
        let mut min = [0.0; 3];
        let mut max = [0.0; 3];
        for k in 0..3 {
            let mut e = Vector3::zeros();
            e[k] = 1.0;
            max[k] = shape.support_value(pose, &e);
            min[k] = -shape.support_value(pose, &(-e));
        }
        Aabb { min, max }
    }

    /// Euclidean distance between the two boxes (0 when they overlap): a lower bound of the
    /// distance between any shapes they contain.
    #[inline]
    pub fn gap(&self, other: &Aabb) -> f64 {
        let mut s = 0.0;
        for k in 0..3 {
            let g = (other.min[k] - self.max[k]).max(self.min[k] - other.max[k]).max(0.0);
            s += g * g;
        }
        s.sqrt()
    }

    /// Whether the boxes, each grown by `inflate` on every side, overlap.
    #[inline]
    pub fn overlaps(&self, other: &Aabb, inflate: f64) -> bool {
        (0..3).all(|k| {
            self.min[k] - inflate <= other.max[k] + inflate && other.min[k] - inflate <= self.max[k] + inflate
        })
    }
}

/// max |x| over the shape in its local frame. Errors for an unbounded [`Shape::Line`].
pub fn local_radius(shape: &Shape) -> Result<f64, SceneError> {
    let norm_max = |pts: &mut dyn Iterator<Item = f64>| pts.fold(0.0_f64, f64::max);
    Ok(match shape {
        Shape::Point(p) => p.position().coords.norm(),
        Shape::Segment(s) => norm_max(&mut s.endpoints().iter().map(|p| p.coords.norm())),
        Shape::Line(_) => {
            return Err(SceneError::invalid("shape", "a line is unbounded and cannot be a scene object"));
        }
        Shape::Triangle(t) => norm_max(&mut t.vertices().iter().map(|p| p.coords.norm())),
        Shape::Cuboid(c) => c.half_extents().norm(),
        Shape::AlignedBox(b) => {
            let (lo, hi) = (b.min(), b.max());
            let mut r: f64 = 0.0;
            for k in 0..3 {
                r += lo[k].abs().max(hi[k].abs()).powi(2);
            }
            r.sqrt()
        }
        Shape::Sphere(s) => s.radius(),
        Shape::Capsule(c) => c.half_height() + c.radius(),
        Shape::Cylinder(c) => c.radius().hypot(c.half_height()),
        Shape::Ellipsoid(e) => e.radii().max(),
        Shape::ConvexPolytope(p) => norm_max(&mut p.vertices().iter().map(|p| p.coords.norm())),
        Shape::Polyhedron(p) => norm_max(&mut p.vertices().iter().map(|p| p.coords.norm())),
        _ => {
            return Err(SceneError::invalid(
                "shape",
                format!("unsupported shape kind {}", shape.kind().as_str()),
            ));
        }
    })
}

/// Upper bound of the displacement of any point of a shape of local radius `radius` when its
/// pose changes from `from` to `to`: ‖R' − R‖_F·r + |t' − t| (see the module docs). Rounded up
/// by a relative 1e-12 so that float round-off cannot make it an underestimate.
pub fn motion_bound(from: &Pose, to: &Pose, radius: f64) -> f64 {
    let dr = (to.rotation() - from.rotation()).norm();
    let dt = (to.translation() - from.translation()).norm();
    let b = dr * radius + dt;
    b + b * 1e-12
}
