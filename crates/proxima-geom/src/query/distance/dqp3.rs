//! Adapter from shapes and poses to DQP3 ([`crate::dqp3`]): both shapes are converted to facet
//! form ([`FacetPolyhedron`]: boxes by their six planes, polyhedra by their half-spaces,
//! vertex polytopes through the polar dual), then the witnesses and DQP3's certified lower
//! bound go through the shared case analysis. Only [`Algorithm::Dqp3`] routes here: the
//! conversion costs O(m²) per call, which a stateless query cannot amortise.

use nalgebra::Point3;

use super::super::certificate::{Core, Radii, finish};
use crate::dqp3::{Dqp3Settings, Dqp3Status, distance_dqp3, facet_form};
use crate::error::GeomError;
use crate::pose::Pose;
use crate::query::{Algorithm, DistanceResult, QueryPath, QuerySettings};
use crate::shape::Shape;

/// Whether both shapes have a facet form.
pub(crate) fn available(a: &Shape, b: &Shape) -> bool {
    let facets = |s: &Shape| matches!(s, Shape::Cuboid(_) | Shape::ConvexPolytope(_) | Shape::Polyhedron(_));
    facets(a) && facets(b)
}

/// DQP3 answer for the (canonically ordered) pair.
pub(crate) fn distance(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<DistanceResult, GeomError> {
    let (fa, fb) = (facet_form(a)?, facet_form(b)?);
    let r = distance_dqp3(&fa, pa, &fb, pb, &Dqp3Settings::default())?;
    if r.status != Dqp3Status::Optimal {
        return Err(GeomError::Degenerate {
            what: "DQP3 ended without an optimal answer (pass limit or retreat)",
        });
    }
    let (qa, qb): (Point3<f64>, Point3<f64>) = r.witnesses();
    let core = Core { qa, qb, core_depth: None, lower_hint: Some(r.lower) };
    let path = QueryPath::Dqp3 { passes: u32::try_from(r.passes).unwrap_or(u32::MAX) };
    Ok(finish(core, Radii { a: 0.0, b: 0.0 }, (a, pa, b, pb), settings, Algorithm::Dqp3, path))
}
