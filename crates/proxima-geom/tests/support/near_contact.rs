//! Random directions, rotations and a cut-box polyhedron for the near-contact sweeps
//! (`no_false_separation*.rs`, `lcp_float_decides_contact.rs`). Shared by `#[path]`.
#![allow(dead_code)]

use nalgebra::{Rotation3, Unit, Vector3};
use proxima_geom::Shape;
use proxima_geom::shape::Polyhedron;
use rand::Rng;
use rand::rngs::SmallRng;

/// A random unit vector (rejection sampling in the unit ball, away from 0).
pub fn unit(rng: &mut SmallRng) -> Vector3<f64> {
    loop {
        let v = Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            return v / n;
        }
    }
}

/// A random rotation: a random axis, an angle uniform in [0, 2π).
pub fn rotation(rng: &mut SmallRng) -> Rotation3<f64> {
    Rotation3::from_axis_angle(&Unit::new_normalize(unit(rng)), rng.random_range(0.0..std::f64::consts::TAU))
}

/// A half-space polyhedron of size `s`: a box of half extents (0.4, 0.3, 0.25)·s with two
/// corners cut.
pub fn cut_box(s: f64) -> Shape {
    let k = 1.0 / 3f64.sqrt();
    Shape::Polyhedron(
        Polyhedron::new(vec![
            ([1.0, 0.0, 0.0], 0.4 * s),
            ([-1.0, 0.0, 0.0], 0.4 * s),
            ([0.0, 1.0, 0.0], 0.3 * s),
            ([0.0, -1.0, 0.0], 0.3 * s),
            ([0.0, 0.0, 1.0], 0.25 * s),
            ([0.0, 0.0, -1.0], 0.25 * s),
            ([k, k, k], 0.5 * s),
            ([-k, -k, k], 0.45 * s),
        ])
        .unwrap(),
    )
}
