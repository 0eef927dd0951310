//! The support functions' fast paths (closed-form support values of spheres, cuboids, aligned
//! boxes, capsules and cylinders; the root-and-multiply normalizations of cylinders, cones, ellipsoids and unit
//! directions, with `hypot`/rescaling only when squares would overflow or underflow) against
//! independent truth: the support value equals n·(support point) and is at least n·x for
//! points x sampled on the shape's surface, at direction magnitudes from 1e-300 to 1e300 (the
//! ranges where the fast paths hand over to the guarded ones).

use nalgebra::{Point3, Rotation3, Vector3};
use proxima_geom::shape::{AlignedBox, Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Sphere};
use proxima_geom::{Pose, Shape};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn shapes() -> Vec<Shape> {
    vec![
        Shape::Sphere(Sphere::new(0.7).unwrap()),
        Shape::Cuboid(Cuboid::new([0.3, 1.2, 2.0]).unwrap()),
        Shape::Capsule(Capsule::new(0.4, 1.5).unwrap()),
        Shape::Cylinder(Cylinder::new(0.9, 0.6).unwrap()),
        // Thin and flat: the radial and axial terms of very different sizes.
        Shape::Cylinder(Cylinder::new(40.0, 1e-3).unwrap()),
        Shape::Cylinder(Cylinder::new(1e-3, 30.0).unwrap()),
        // Off-centre, all corners in one octant on two axes.
        Shape::AlignedBox(AlignedBox::new([0.5, -3.0, -0.2], [1.5, -1.0, 2.5]).unwrap()),
        Shape::Ellipsoid(Ellipsoid::new([1.0, 2.0, 5.0]).unwrap()),
        Shape::Cone(Cone::new(0.8, 1.1).unwrap()),
    ]
}

/// Points on the surface of `s` (local frame), by its parametrisation.
fn surface_samples(s: &Shape, rng: &mut SmallRng) -> Vec<Point3<f64>> {
    let mut out = Vec::new();
    for _ in 0..400 {
        let u: f64 = rng.random_range(0.0..std::f64::consts::TAU);
        let t: f64 = rng.random_range(-1.0..=1.0);
        let p = match s {
            Shape::Sphere(x) => {
                let r = (1.0 - t * t).sqrt();
                Point3::new(r * u.cos(), r * u.sin(), t) * x.radius()
            }
            Shape::Cuboid(x) => {
                let h = x.half_extents();
                let k = rng.random_range(0..3);
                let mut p = Vector3::new(
                    rng.random_range(-h.x..=h.x),
                    rng.random_range(-h.y..=h.y),
                    rng.random_range(-h.z..=h.z),
                );
                p[k] = if rng.random_bool(0.5) { h[k] } else { -h[k] };
                Point3::from(p)
            }
            Shape::Capsule(x) => {
                let r = (1.0 - t * t).sqrt();
                let z = if rng.random_bool(0.5) { x.half_height() } else { -x.half_height() };
                Point3::new(r * u.cos(), r * u.sin(), t) * x.radius() + Vector3::new(0.0, 0.0, z)
            }
            Shape::Cylinder(x) => {
                // The side, and the caps (the rim with them).
                let rho = if rng.random_bool(0.5) { 1.0 } else { rng.random_range(0.0..=1.0) };
                let z = if rho == 1.0 { t } else { t.signum() };
                Point3::new(x.radius() * rho * u.cos(), x.radius() * rho * u.sin(), z * x.half_height())
            }
            Shape::AlignedBox(x) => {
                let (lo, hi) = (x.min(), x.max());
                let k = rng.random_range(0..3);
                let mut p = Vector3::new(
                    rng.random_range(lo.x..=hi.x),
                    rng.random_range(lo.y..=hi.y),
                    rng.random_range(lo.z..=hi.z),
                );
                p[k] = if rng.random_bool(0.5) { hi[k] } else { lo[k] };
                Point3::from(p)
            }
            Shape::Ellipsoid(x) => {
                let r = (1.0 - t * t).sqrt();
                let e = x.radii();
                Point3::new(e.x * r * u.cos(), e.y * r * u.sin(), e.z * t)
            }
            Shape::Cone(x) => {
                // The rim, the apex and points on the generators.
                let f = (t + 1.0) / 2.0;
                let (r, h) = (x.radius() * (1.0 - f), x.half_height());
                Point3::new(r * u.cos(), r * u.sin(), -h + 2.0 * h * f)
            }
            _ => unreachable!(),
        };
        out.push(p);
    }
    out
}

#[test]
fn support_values_match_points_and_bound_the_surface() {
    let mut rng = SmallRng::seed_from_u64(23);
    for s in shapes() {
        let samples = surface_samples(&s, &mut rng);
        for _ in 0..200 {
            let axis = Vector3::new(rng.random(), rng.random(), rng.random()) - Vector3::repeat(0.5);
            let rot = Rotation3::from_scaled_axis(axis * 4.0);
            let t = Vector3::new(rng.random(), rng.random(), rng.random()) * 10.0;
            let pose = Pose::from_matrix(*rot.matrix(), t).unwrap();
            let dir = Vector3::new(rng.random(), rng.random(), rng.random()) - Vector3::repeat(0.5);
            for scale in [1e-300, 1e-160, 1e-140, 1e-3, 1.0, 1e3, 1e140, 1e160, 1e300] {
                let n = dir * scale;
                let h = s.support_value(&pose, &n);
                let p = s.support_point(&pose, &n).unwrap();
                // Work with the unit direction: the values scale with |n|.
                let len = scale * dir.norm();
                let (h1, p1) = (h / len, dir.normalize().dot(&p.coords));
                // Round-off of a dot product of a point of size ~12 (a few ulps), and the
                // normalizations of the direction (relative 1e-15).
                let tol = 1e-12 * (1.0 + t.norm());
                assert!(h.is_finite(), "{s:?} at scale {scale}: h = {h}");
                assert!((h1 - p1).abs() <= tol, "{s:?} at {scale}: h {h1} vs n·s(n) {p1}");
                let u = dir.normalize();
                for x in &samples {
                    let y = pose.transform_point(x);
                    assert!(u.dot(&y.coords) <= h1 + tol, "{s:?} at {scale}: sample above the support value");
                }
                // The support point lies on the shape, within the round-off of the pose's
                // round trip (translations up to ~17: a few ulps of that).
                let local = pose.inverse_transform_point(&p);
                let slack = 1e-13;
                let inside = match &s {
                    Shape::Cylinder(c) => {
                        local.x.hypot(local.y) <= c.radius() + slack
                            && local.z.abs() <= c.half_height() + slack
                    }
                    Shape::Ellipsoid(e) => local.coords.component_div(&e.radii()).norm() <= 1.0 + slack,
                    Shape::Sphere(x) => local.coords.norm() <= x.radius() + slack,
                    Shape::AlignedBox(b) => {
                        (0..3).all(|k| local[k] >= b.min()[k] - slack && local[k] <= b.max()[k] + slack)
                    }
                    _ => true,
                };
                assert!(inside, "{s:?} at {scale}: support point {local} outside the shape");
            }
        }
    }
}
