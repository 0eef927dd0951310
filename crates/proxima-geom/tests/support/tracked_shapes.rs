//! The shapes of the tracking-through-contact pairs (cylinder, ellipsoid, box, capsule, and a
//! hull of 24 points on an ellipsoid: all hull vertices, past the LCP route's 16, so GJK/EPA).
//! Shared by `#[path]` between the `contact_tracking` test and the `depth` bench's tracks.

use nalgebra::Vector3;
use proxima_geom::Shape;
use proxima_geom::shape::{Capsule, ConvexPolytope, Cuboid, Cylinder, Ellipsoid};
use rand::Rng;
use rand::rngs::SmallRng;

/// A shape of `kind` (`cyl`, `ell`, `box`, `cap`, anything else a hull) from the stream.
pub fn tracked_shape(kind: &str, rng: &mut SmallRng) -> Shape {
    let mut r = |lo: f64, hi: f64| rng.random_range(lo..hi);
    match kind {
        "cyl" => Shape::Cylinder(Cylinder::new(r(0.4, 0.8), r(0.4, 1.0)).unwrap()),
        "ell" => Shape::Ellipsoid(Ellipsoid::new([r(0.5, 1.0), r(0.5, 1.0), r(0.5, 1.0)]).unwrap()),
        "box" => Shape::Cuboid(Cuboid::new([r(0.3, 0.9), r(0.3, 0.9), r(0.3, 0.9)]).unwrap()),
        "cap" => Shape::Capsule(Capsule::new(r(0.2, 0.5), r(0.3, 0.9)).unwrap()),
        _ => {
            let axes = [r(0.5, 1.0), r(0.5, 1.0), r(0.5, 1.0)];
            let pts: Vec<[f64; 3]> = (0..24)
                .map(|_| {
                    let v = Vector3::new(r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0)).normalize();
                    [v.x * axes[0], v.y * axes[1], v.z * axes[2]]
                })
                .collect();
            Shape::ConvexPolytope(ConvexPolytope::hull_of(&pts).unwrap())
        }
    }
}
