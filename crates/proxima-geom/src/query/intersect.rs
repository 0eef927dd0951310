//! Test-intersection algorithms that have no distance counterpart: the vertex LP for shapes
//! with finitely many vertices ([`Algorithm::Lp`], [`crate::lp_polytope`]) and separating axes
//! for cylinder pairs ([`Algorithm::Sat`], [`crate::sat_cylinder`]).
//!
//! # Routing
//!
//! | pair | `Auto` | forced `Lp` | forced `Sat` |
//! |---|---|---|---|
//! | convex polytope – convex polytope | (GJK early exit) | vertex LP | Unsupported |
//! | any two of point / segment / triangle / box / polytope | (distance path) | vertex LP | Unsupported |
//! | cylinder – cylinder | SAT | Unsupported | SAT |
//!
//! Touching counts as intersecting in both algorithms (the library-wide convention). An LP
//! run without a verdict (pivot limit, or float breakdown with the exact fallback disabled)
//! is reported as [`Intersection::Undecided`], never as separated. Arithmetic: `Certified`
//! lets the LP re-solve exactly when the float decision is within its boundary band, `Float`
//! forbids that, `Exact` decides in rationals from the start; the SAT test is float-only.

use nalgebra::{Point3, Vector3};

use super::{Algorithm, Arithmetic, Intersection, QuerySettings};
use crate::error::GeomError;
use crate::lp_polytope::{self, CollisionOutcome, LpCollision, LpCollisionSettings};
use crate::pose::Pose;
use crate::sat_cylinder::{CylinderSatSettings, intersects_cylinder_cylinder};
use crate::shape::Shape;

/// The world-frame vertices of a shape with finitely many, `None` for curved or unbounded
/// shapes.
fn vertex_set(shape: &Shape, pose: &Pose) -> Option<Vec<[f64; 3]>> {
    let world = |p: Point3<f64>| {
        let q = pose.transform_point(&p);
        [q.x, q.y, q.z]
    };
    let corners = |lo: Vector3<f64>, hi: Vector3<f64>| {
        (0..8)
            .map(|k| {
                let pick = |bit: usize, i: usize| if k >> bit & 1 == 1 { hi[i] } else { lo[i] };
                world(Point3::new(pick(0, 0), pick(1, 1), pick(2, 2)))
            })
            .collect()
    };
    match shape {
        Shape::Point(p) => Some(vec![world(p.position())]),
        Shape::Segment(s) => Some(s.endpoints().into_iter().map(world).collect()),
        Shape::Triangle(t) => Some(t.vertices().into_iter().map(world).collect()),
        Shape::Cuboid(c) => Some(corners(-c.half_extents(), c.half_extents())),
        Shape::AlignedBox(b) => Some(corners(b.min().coords, b.max().coords)),
        Shape::ConvexPolytope(p) => Some(p.vertices().iter().map(|v| world(*v)).collect()),
        Shape::Polyhedron(p) => Some(p.vertices().iter().map(|v| world(*v)).collect()),
        _ => None,
    }
}

fn from_lp(result: LpCollision<f64>) -> Intersection {
    match result.outcome {
        CollisionOutcome::Colliding { point, .. } => Intersection::Intersecting {
            point: (point.len() == 3).then(|| Point3::new(point[0], point[1], point[2])),
        },
        CollisionOutcome::Separated(sep) => {
            let n = Vector3::new(sep.normal[0], sep.normal[1], sep.normal[2]);
            let len = n.norm();
            Intersection::Separated { direction: (len > 0.0 && len.is_finite()).then(|| n / len) }
        }
        // Shapes always have at least one vertex; kept total for safety.
        CollisionOutcome::EmptySet => Intersection::Separated { direction: None },
        CollisionOutcome::Undecided { .. } => Intersection::Undecided {
            reason: "vertex LP reached no verdict (pivot limit or numerical failure)",
        },
    }
}

/// `Ok(Some(..))` when an intersection-only algorithm applies to the pair under the settings,
/// `Ok(None)` to continue with the distance-based path, `Err(Unsupported)` when `Lp`/`Sat`
/// was forced on a pair it cannot handle.
pub(crate) fn intersects_special(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<Option<Intersection>, GeomError> {
    let alg = settings.algorithm;
    let unsupported = || GeomError::Unsupported {
        op: "intersects",
        a: a.kind(),
        b: b.kind(),
        algorithm: (alg != Algorithm::Auto).then(|| alg.as_str()),
    };
    let cylinders = match (a, b) {
        (Shape::Cylinder(x), Shape::Cylinder(y)) => Some((x, y)),
        _ => None,
    };
    if alg == Algorithm::Sat || (alg == Algorithm::Auto && cylinders.is_some()) {
        let (x, y) = cylinders.ok_or_else(unsupported)?;
        let sat = intersects_cylinder_cylinder(x, pa, y, pb, &CylinderSatSettings::default())?;
        return Ok(Some(sat.to_intersection()));
    }
    // Polytope pairs under `Auto` go to GJK's early-exit test (an O(support) step per
    // iteration against the LP's O(vertices) pivots); the LP stays available when forced.
    if alg == Algorithm::Lp {
        let (va, vb) = match (vertex_set(a, pa), vertex_set(b, pb)) {
            (Some(va), Some(vb)) => (va, vb),
            _ => return Err(unsupported()),
        };
        let mut lp = LpCollisionSettings::default();
        let result = match settings.arithmetic {
            Arithmetic::Exact => lp_polytope::collide_exact(&va, &vb, &lp)?.to_f64_fallback(),
            Arithmetic::Float => {
                lp.exact_fallback = false;
                lp_polytope::collide_f64(&va, &vb, &lp)?
            }
            _ => lp_polytope::collide_f64(&va, &vb, &lp)?,
        };
        return Ok(Some(from_lp(result)));
    }
    Ok(None)
}
