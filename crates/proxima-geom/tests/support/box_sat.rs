//! The separating-axis depth of two boxes, an independent truth for the box–box tests and the
//! peer cases (no support maps, no polytope expansion): the signed distance of two convex
//! polytopes is −min over the normals n of their Minkowski difference's facets of
//! (r_a(n) + r_b(n) − |n·(c_b − c_a)|), and for two boxes those normals are among the 3 + 3
//! face normals and the 9 edge–edge cross products (parallel edge pairs add no facet of their
//! own). Shared by `#[path]` with the tests and the `peer_cases_parry` example.

use nalgebra::{Matrix3, Vector3};
use proxima_geom::Pose;

/// The depth of boxes with half extents `ha`, `hb` placed by `pa`, `pb` (positive = overlap,
/// negative = the separation along the best axis; equal to −distance only when a face normal
/// or edge pair realises it).
pub fn box_box_sat_depth(ha: [f64; 3], pa: &Pose, hb: [f64; 3], pb: &Pose) -> f64 {
    let (ra, rb) = (pa.rotation(), pb.rotation());
    let d = pb.translation() - pa.translation();
    let radius = |h: [f64; 3], r: &Matrix3<f64>, n: &Vector3<f64>| {
        (0..3).map(|i| h[i] * n.dot(&r.column(i)).abs()).sum::<f64>()
    };
    let mut axes: Vec<Vector3<f64>> = Vec::with_capacity(15);
    for i in 0..3 {
        axes.push(ra.column(i).into_owned());
        axes.push(rb.column(i).into_owned());
        for j in 0..3 {
            let c = ra.column(i).cross(&rb.column(j));
            // Below 1e-9 the two edges are parallel to rounding: their cross product is noise
            // and the facets it would name are already face facets.
            if c.norm() > 1e-9 {
                axes.push(c.normalize());
            }
        }
    }
    axes.iter().map(|n| radius(ha, ra, n) + radius(hb, rb, n) - n.dot(&d).abs()).fold(f64::INFINITY, f64::min)
}
