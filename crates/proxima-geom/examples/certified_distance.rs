//! Two shapes' certified distance, and what the bracket means.
//!
//! `cargo run -p proxima-geom --example certified_distance`
//!
//! Every answer of [`proxima_geom::distance`] carries a *certificate* `[lower, upper]`:
//!
//! * `upper` = |p_b − p_a| for witness points p_a on A and p_b on B — any pair of points of the
//!   two shapes is at least as far apart as the shapes, so this is an upper bound;
//! * `lower` = the gap between the two shapes' support planes along a unit direction n
//!   (min over B of n·b − max over A of n·a), recomputed from the shapes you passed in,
//!   independently of the algorithm that found the witnesses — every direction gives a lower
//!   bound, so this is proven too.
//!
//! The true distance lies in `[lower, upper]`; `upper − lower` (`Certificate::gap`) is the
//! proven error of the reported number. The example checks each answer against the distance
//! worked out by hand.

use proxima_geom::shape::{Cuboid, Cylinder, Sphere};
use proxima_geom::{
    Algorithm, Arithmetic, DistanceResult, GeomError, Pose, Proximity, QuerySettings, Shape, distance,
    signed_distance,
};

fn main() -> Result<(), GeomError> {
    let settings = QuerySettings::default();

    // 1. A unit cube (half extents 0.5) at the origin and an upright cylinder (radius 0.25,
    //    height 1) centred 1.5 along x: the gap is 1.5 − 0.5 − 0.25 = 0.75.
    let cube = Shape::Cuboid(Cuboid::new([0.5, 0.5, 0.5])?);
    let cylinder = Shape::Cylinder(Cylinder::new(0.25, 0.5)?);
    let at_origin = Pose::identity();
    let beside = Pose::from_translation([1.5, 0.0, 0.0])?;
    let r = distance(&cube, &at_origin, &cylinder, &beside, &settings)?;
    report("cube – cylinder", &r);
    check_contains(&r, 0.75);
    let Proximity::Separated { point_a, point_b, normal, .. } = r.proximity else {
        panic!("the shapes are 0.75 apart, not in contact")
    };
    // The witnesses lie on the facing sides: x = 0.5 on the cube, x = 1.25 on the cylinder;
    // the normal points from A to B.
    assert!((point_a.x - 0.5).abs() < 1e-9 && (point_b.x - 1.25).abs() < 1e-9);
    assert!((normal.x - 1.0).abs() < 1e-9);

    // 2. The same cube against a copy turned 45° about z, 2 along x: the copy's nearest edge
    //    is at x = 2 − 0.5·√2, so the distance is 1.5 − 0.5·√2. Box pairs are an LCP; in
    //    exact arithmetic the LCP is solved in rationals on the f64 inputs and rounded once.
    let c = std::f64::consts::FRAC_1_SQRT_2;
    let turned = Pose::new([[c, -c, 0.0], [c, c, 0.0], [0.0, 0.0, 1.0]], [2.0, 0.0, 0.0])?;
    let exact = settings.clone().with_arithmetic(Arithmetic::Exact);
    let r = distance(&cube, &at_origin, &cube, &turned, &exact)?;
    report("cube – turned cube (exact)", &r);
    assert_eq!(r.algorithm, Algorithm::Lcp);
    assert_eq!(r.path.as_str(), "exact");
    // The pose's rotation is c = 1/√2 rounded to f64, so "by hand" is only good to ~1e-16.
    check_contains(&r, 1.5 - 0.5 * std::f64::consts::SQRT_2);

    // 3. Touching versus intersecting. Two balls of radius 0.5 with centres exactly 1 apart
    //    touch: the closed form proves contact on the boundary only. Closer, they overlap and
    //    the answer says by how much (`depth`); `signed_distance` reports it as −depth.
    let ball = Shape::Sphere(Sphere::new(0.5)?);
    let touching = distance(&ball, &at_origin, &ball, &Pose::from_translation([1.0, 0.0, 0.0])?, &settings)?;
    println!("balls 1 apart:   {:?}", touching.proximity);
    assert!(matches!(touching.proximity, Proximity::Touching { .. }));
    let overlap = Pose::from_translation([0.8, 0.0, 0.0])?;
    let deep = distance(&ball, &at_origin, &ball, &overlap, &settings)?;
    println!("balls 0.8 apart: {:?}", deep.proximity);
    let Proximity::Intersecting { depth: Some(depth), .. } = deep.proximity else {
        panic!("the balls overlap by 0.2")
    };
    assert!((depth - 0.2).abs() < 1e-12);
    let signed = signed_distance(&ball, &at_origin, &ball, &overlap, &settings)?;
    println!(
        "signed distance {:.6} in [{:.6}, {:.6}]",
        signed.value, signed.certificate.lower, signed.certificate.upper
    );
    assert!(signed.certificate.lower <= -0.2 + 1e-12 && -0.2 - 1e-12 <= signed.certificate.upper);

    // 4. Bad input is an error, never a NaN: a box with a negative half extent.
    assert!(Cuboid::new([0.5, -1.0, 0.5]).is_err());
    println!("ok: every bracket contains the distance worked out by hand");
    Ok(())
}

fn report(what: &str, r: &DistanceResult) {
    let c = r.certificate;
    println!(
        "{what}: distance {:.12}, proven in [{:.12}, {:.12}] (gap {:.1e}), by {} via {}",
        r.distance(),
        c.lower,
        c.upper,
        c.gap(),
        r.algorithm.as_str(),
        r.path
    );
}

/// The hand-computed distance lies in the bracket (to the round-off of the f64 inputs, 1e-12
/// on shapes of size 1), and the bracket is tight (the default certification asks for a gap
/// of at most 1e-9 × scale; scale ≈ 2 here).
fn check_contains(r: &DistanceResult, by_hand: f64) {
    let c = r.certificate;
    assert!(c.lower <= by_hand + 1e-12 && by_hand - 1e-12 <= c.upper, "{by_hand} not in {c:?}");
    assert!(c.gap() <= 2e-9, "gap {}", c.gap());
    assert!((r.distance() - by_hand).abs() <= 2e-9);
}
