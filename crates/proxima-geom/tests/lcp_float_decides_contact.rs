//! An `f64` LCP answer is certified only when its bracket decides contact versus separation
//! (`FloatCertificate::certifies`): the gap within `gap_tolerance × scale` is not enough when
//! the bracket is [0, upper] with upper above the round-off floor.
//!
//! Found by the near-contact sweep (`no_false_separation_shapes.rs`): a point 3.1e-6 inside a
//! half-space polyhedron of size 1e-3 came back from the f64 point–polytope LCP with witnesses
//! 2.6e-13 apart and the bracket [0, 2.6e-13]; the gap is far below the absolute 1e-9
//! (scale = max(1, size) = 1), so it was accepted and reported `Separated`.

use nalgebra::{Matrix3, Vector3};
use proxima_geom::lcp_queries::FloatCertificate;
use proxima_geom::shape::Point;

#[path = "support/near_contact.rs"]
mod near_contact;
use near_contact::cut_box;
use proxima_geom::{Pose, Proximity, QuerySettings, Shape, distance, signed_distance};

#[test]
fn point_inside_small_polyhedron_is_not_separated() {
    // Placement #11 of the sweep's point–polyhedron pairs at size 1e-3 (columns of R).
    let r = Matrix3::from_column_slice(&[
        0.999221423785505,
        -0.009858171388222614,
        0.03820160605195337,
        0.009171513575967969,
        0.9997939645827121,
        0.018108332963262135,
        -0.03837225021801623,
        -0.017743867697403513,
        0.9991059631352137,
    ]);
    let pb = Pose::from_matrix(
        r,
        Vector3::new(0.0007799869548833022, 0.001073715961704406, 0.00031108688733646746),
    )
    .unwrap();
    let pa = Pose::from_translation([0.0003773068210411213, 0.0008383833199590645, 0.00039338654223328536])
        .unwrap();
    let point = Shape::Point(Point::new([0.0; 3]).unwrap());
    let poly = cut_box(1e-3);
    let s = QuerySettings::default();
    // Independent truth: the point's depth below each face in the polyhedron's frame.
    let Shape::Polyhedron(p) = &poly else { unreachable!() };
    let local = pb.inverse_transform_point(&pa.transform_point(&nalgebra::Point3::origin()));
    let depth = p
        .normals()
        .iter()
        .zip(p.offsets())
        .map(|(n, o)| o - n.dot(&local.coords))
        .fold(f64::INFINITY, f64::min);
    assert!(depth > 3e-6, "the point is inside by {depth:e}");
    for (a, pa_, b, pb_) in [(&point, &pa, &poly, &pb), (&poly, &pb, &point, &pa)] {
        let r = distance(a, pa_, b, pb_, &s).unwrap();
        assert!(
            matches!(r.proximity, Proximity::Intersecting { .. } | Proximity::Touching { .. }),
            "a point {depth:e} inside reported as {r:?}"
        );
        assert_eq!(r.certificate.lower, 0.0);
        let sd = signed_distance(a, pa_, b, pb_, &s).unwrap();
        // The depth of a point in a polyhedron is its smallest face depth (closed form above).
        assert!(sd.certificate.lower <= -depth + 1e-15 && -depth - 1e-15 <= sd.certificate.upper, "{sd:?}");
    }
}

#[test]
fn a_bracket_that_does_not_decide_contact_does_not_certify() {
    let tol = 1e-9;
    // Closed, positive lower bound: separation proven.
    assert!(FloatCertificate { lower: 1e-3, upper: 1e-3 + 1e-12, scale: 1.0 }.certifies(tol));
    // Closed but [0, 2.6e-13]: the distance may be 0 (contact) or positive.
    assert!(!FloatCertificate { lower: 0.0, upper: 2.6e-13, scale: 1.0 }.certifies(tol));
    // Witnesses within the round-off floor 64 ε × scale: contact, as `query/certificate.rs`
    // reports it.
    assert!(FloatCertificate { lower: 0.0, upper: 1e-14, scale: 1.0 }.certifies(tol));
    assert!(FloatCertificate { lower: 0.0, upper: 0.0, scale: 1.0 }.certifies(tol));
    // The floor scales with the coordinates.
    assert!(FloatCertificate { lower: 0.0, upper: 1e-11, scale: 1e3 }.certifies(tol));
    assert!(!FloatCertificate { lower: 0.0, upper: 1e-10, scale: 1e3 }.certifies(tol));
    // Open gap: not certified whatever the lower bound.
    assert!(!FloatCertificate { lower: 1e-3, upper: 1e-3 + 1e-8, scale: 1.0 }.certifies(tol));
}
