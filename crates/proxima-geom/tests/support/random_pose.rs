//! A random rigid placement for the randomized pair tests: a rotation about a uniformly drawn
//! axis by an angle in [0, π), a translation uniform in the cube [−spread, spread]³. Shared by
//! `#[path]` with the tests that compare a route against forced GJK on random placements.

use nalgebra::{Matrix3, Rotation3, Vector3};
use proxima_geom::Pose;
use rand::Rng;
use rand::rngs::SmallRng;

/// A random pose (see the module docs).
pub fn pose(rng: &mut SmallRng, spread: f64) -> Pose {
    let axis =
        Vector3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
    let angle = rng.random_range(0.0..std::f64::consts::PI);
    let r: Matrix3<f64> = *Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle).matrix();
    let t = Vector3::new(
        rng.random_range(-spread..spread),
        rng.random_range(-spread..spread),
        rng.random_range(-spread..spread),
    );
    Pose::from_matrix(r, t).unwrap()
}
