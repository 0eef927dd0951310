//! Point–box, triangle–box (aligned and oriented), segment/line–triangle, point–polytope and
//! triangle–cylinder kernels: f64 vs exact Rational agreement, brute force, bad inputs.
// Literals are copied verbatim from the reference listings (more digits than f64 holds).
#![allow(clippy::excessive_precision)]

use proxima_geom::GeomError;
use proxima_geom::lcp_queries::{
    AlignedBox3, BoxN, CertifySettings, CylinderData, KernelPath, line_triangle_distance,
    line_triangle_distance_f64, point_box_distance, point_box_distance_f64, point_polytope_distance,
    point_polytope_distance_f64, segment_triangle_distance, segment_triangle_distance_f64,
    triangle_aligned_box_distance, triangle_aligned_box_distance_f64, triangle_box_distance,
    triangle_box_distance_f64, triangle_cylinder_intersection, triangle_cylinder_intersection_f64,
};
use proxima_lcp::{Field, QuadraticField, Rational};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn q3(v: &[f64; 3]) -> [Rational; 3] {
    v.map(|x| Rational::from_f64_exact(x).unwrap())
}

fn qtri(t: &[[f64; 3]; 3]) -> [[Rational; 3]; 3] {
    [q3(&t[0]), q3(&t[1]), q3(&t[2])]
}

fn int3(rng: &mut SmallRng, r: i32) -> [f64; 3] {
    core::array::from_fn(|_| rng.random_range(-r..=r) as f64)
}

fn int_triangle(rng: &mut SmallRng) -> [[f64; 3]; 3] {
    loop {
        let t = [int3(rng, 5), int3(rng, 5), int3(rng, 5)];
        let e0: [f64; 3] = core::array::from_fn(|k| t[1][k] - t[0][k]);
        let e1: [f64; 3] = core::array::from_fn(|k| t[2][k] - t[0][k]);
        let c = [e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2], e0[0] * e1[1] - e0[1] * e1[0]];
        if c.iter().any(|v| *v != 0.0) {
            return t;
        }
    }
}

fn close(x: f64, exact: &Rational) -> bool {
    let e = exact.to_f64();
    (x - e).abs() <= 1e-12 * e.abs().max(1.0)
}

fn sq(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    (0..3).map(|k| (a[k] - b[k]).powi(2)).sum()
}

/// Sampled points of a triangle (vertices, edges, interior).
fn tri_samples(t: &[[f64; 3]; 3], n: usize) -> Vec<[f64; 3]> {
    let mut out = Vec::new();
    for i in 0..=n {
        for j in 0..=n - i {
            let (s, u) = (i as f64 / n as f64, j as f64 / n as f64);
            out.push(core::array::from_fn(|k| t[0][k] + s * (t[1][k] - t[0][k]) + u * (t[2][k] - t[0][k])));
        }
    }
    out
}

#[test]
fn point_box_matches_clamping_and_exact() {
    let mut rng = SmallRng::seed_from_u64(10);
    let axes = [[0.6, 0.8, 0.0], [-0.8, 0.6, 0.0], [0.0, 0.0, 1.0]];
    for case in 0..30 {
        let b = BoxN {
            center: int3(&mut rng, 3),
            axes,
            half_extents: core::array::from_fn(|_| rng.random_range(1..=3) as f64),
        };
        let p = int3(&mut rng, 6);
        let out = point_box_distance_f64(&p, &b, &CertifySettings::default()).unwrap();
        // Closed form: clamp the local coordinates.
        let mut cp = b.center;
        for j in 0..3 {
            let local: f64 = (0..3).map(|k| (p[k] - b.center[k]) * axes[j][k]).sum();
            let c = local.clamp(-b.half_extents[j], b.half_extents[j]);
            for k in 0..3 {
                cp[k] += c * axes[j][k];
            }
        }
        assert!((out.squared_distance - sq(&p, &cp)).abs() <= 1e-12 * (1.0 + sq(&p, &cp)), "case {case}");
        let rb = BoxN::<Rational, 3>::convert_from_f64(&b).unwrap();
        let ex = point_box_distance(&q3(&p), &rb).unwrap();
        assert!(close(out.squared_distance, &ex.squared_distance), "case {case}");
    }
}

#[test]
fn triangle_boxes_f64_vs_exact_and_brute_force() {
    let mut rng = SmallRng::seed_from_u64(11);
    for case in 0..30 {
        let t = int_triangle(&mut rng);
        let lo = int3(&mut rng, 4);
        let ab =
            AlignedBox3 { min: lo, max: core::array::from_fn(|k| lo[k] + rng.random_range(1..=3) as f64) };
        let out = triangle_aligned_box_distance_f64(&t, &ab, &CertifySettings::default()).unwrap();
        let ex =
            triangle_aligned_box_distance(&qtri(&t), &AlignedBox3 { min: q3(&ab.min), max: q3(&ab.max) })
                .unwrap();
        assert!(close(out.squared_distance, &ex.squared_distance), "aligned case {case}");
        // Brute force: no triangle sample is closer to the box than the result.
        for p in tri_samples(&t, 12) {
            let c: [f64; 3] = core::array::from_fn(|k| p[k].clamp(ab.min[k], ab.max[k]));
            assert!(sq(&p, &c).sqrt() >= out.squared_distance.sqrt() - 1e-9, "aligned case {case}");
        }
        // Oriented box with a Pythagorean rotation.
        let ob = BoxN {
            center: int3(&mut rng, 4),
            axes: [[0.0, 0.6, 0.8], [1.0, 0.0, 0.0], [0.0, 0.8, -0.6]],
            half_extents: core::array::from_fn(|_| rng.random_range(1..=2) as f64),
        };
        let out = triangle_box_distance_f64(&t, &ob, &CertifySettings::default()).unwrap();
        let rb = BoxN::<Rational, 3>::convert_from_f64(&ob).unwrap();
        let ex = triangle_box_distance(&qtri(&t), &rb).unwrap();
        assert!(close(out.squared_distance, &ex.squared_distance), "oriented case {case}");
        assert_eq!(ex.path, KernelPath::Exact);
        let c = out.certificate.unwrap();
        assert!(c.gap() <= 1e-9 * c.scale);
    }
}

#[test]
fn oriented_triangle_box_near_parallel() {
    // Listing 4's triangle against the same box rotated by ~1e-10 rad about z, as an oriented box.
    let tri = [[0.5, 0.5, 1.5], [0.500000000000000178, 25.5, 1.5], [-0.500000000000000355, 0.5, 1.5]];
    let (s, c) = (1e-10f64).sin_cos();
    let min = [-28.666800635711962, 12.285771701019407, -48.666800635711965];
    let max = [-20.476286168365689, 20.476286168365682, -40.476286168365689];
    let b = BoxN {
        center: core::array::from_fn(|k| 0.5 * (min[k] + max[k])),
        axes: [[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]],
        half_extents: core::array::from_fn(|k| 0.5 * (max[k] - min[k])),
    };
    let out = triangle_box_distance_f64(&tri, &b, &CertifySettings::default()).unwrap();
    let ex = triangle_box_distance(&qtri(&tri), &BoxN::<Rational, 3>::convert_from_f64(&b).unwrap()).unwrap();
    assert!(
        close(out.squared_distance, &ex.squared_distance),
        "{} vs {}",
        out.squared_distance,
        ex.squared_distance
    );
    let c = out.certificate.unwrap();
    assert!(c.gap() <= 1e-9 * c.scale);
    assert!((out.distance_f64() - 46.68).abs() < 0.1);
}

#[test]
fn segment_and_line_triangle_f64_vs_exact() {
    let mut rng = SmallRng::seed_from_u64(12);
    for case in 0..40 {
        let t = int_triangle(&mut rng);
        let p0 = int3(&mut rng, 6);
        let mut p1 = int3(&mut rng, 6);
        if p1 == p0 {
            p1[0] += 1.0;
        }
        let seg = [p0, p1];
        let out = segment_triangle_distance_f64(&seg, &t, &CertifySettings::default()).unwrap();
        let ex = segment_triangle_distance(&[q3(&p0), q3(&p1)], &qtri(&t)).unwrap();
        assert!(close(out.squared_distance, &ex.squared_distance), "segment case {case}");
        assert!(ex.param_a[0] >= Rational::from_integer(0) && ex.param_a[0] <= Rational::from_integer(1));
        let dir: [f64; 3] = core::array::from_fn(|k| p1[k] - p0[k]);
        let out_l = line_triangle_distance_f64(&p0, &dir, &t, &CertifySettings::default()).unwrap();
        let ex_l = line_triangle_distance(&q3(&p0), &q3(&dir), &qtri(&t)).unwrap();
        assert!(close(out_l.squared_distance, &ex_l.squared_distance), "line case {case}");
        assert!(ex_l.squared_distance <= ex.squared_distance);
        // The exact witnesses are consistent.
        let d = (0..3).fold(Rational::from_integer(0), |s, k| {
            let v = &ex_l.point_b[k] - &ex_l.point_a[k];
            s + &v * &v
        });
        assert_eq!(d, ex_l.squared_distance);
        // Brute force against triangle samples and segment samples.
        for p in tri_samples(&t, 8) {
            for i in 0..=8 {
                let s = i as f64 / 8.0;
                let x: [f64; 3] = core::array::from_fn(|k| p0[k] + s * dir[k]);
                assert!(sq(&p, &x).sqrt() >= out.squared_distance.sqrt() - 1e-9, "segment case {case}");
            }
        }
    }
}

#[test]
fn point_polytope_cases() {
    let cube: Vec<[f64; 3]> =
        (0..8).map(|i| core::array::from_fn(|k| if (i >> k) & 1 == 0 { -1.0 } else { 1.0 })).collect();
    let s = CertifySettings::default();
    let inside = point_polytope_distance_f64(&[0.25, -0.5, 0.0], &cube, &s).unwrap();
    assert!(inside.squared_distance <= 1e-24);
    let out = point_polytope_distance_f64(&[3.0, 2.0, 0.5], &cube, &s).unwrap();
    assert!((out.squared_distance - 5.0).abs() <= 1e-12);
    let ex =
        point_polytope_distance(&q3(&[3.0, 2.0, 0.5]), &cube.iter().map(q3).collect::<Vec<_>>()).unwrap();
    assert_eq!(ex.squared_distance, Rational::from_integer(5));
    assert_eq!(ex.closest, q3(&[1.0, 1.0, 0.5]));
    let sum = ex.weights.iter().fold(Rational::from_integer(0), |a, w| a + w);
    assert_eq!(sum, Rational::from_integer(1));
    assert!(ex.weights.iter().all(|w| *w >= Rational::from_integer(0)));
    // Random small-integer point clouds: f64 agrees with exact.
    let mut rng = SmallRng::seed_from_u64(13);
    for case in 0..20 {
        let pts: Vec<[f64; 3]> = (0..rng.random_range(1..8)).map(|_| int3(&mut rng, 4)).collect();
        let p = int3(&mut rng, 6);
        let f = point_polytope_distance_f64(&p, &pts, &s).unwrap();
        let e = point_polytope_distance(&q3(&p), &pts.iter().map(q3).collect::<Vec<_>>()).unwrap();
        assert!(close(f.squared_distance, &e.squared_distance), "case {case}");
        for v in &pts {
            assert!(sq(&p, v) >= f.squared_distance - 1e-9);
        }
    }
}

#[test]
fn triangle_cylinder_f64_agrees_with_quadratic_field() {
    let mut rng = SmallRng::seed_from_u64(14);
    let mut hits = 0;
    for case in 0..25 {
        let t = int_triangle(&mut rng);
        let mut axis = int3(&mut rng, 3);
        if axis == [0.0; 3] {
            axis[2] = 1.0;
        }
        let center = int3(&mut rng, 2);
        let (radius, height) = (rng.random_range(1..=3) as f64, rng.random_range(1..=4) as f64);
        let f = triangle_cylinder_intersection_f64(
            &t,
            &center,
            &axis,
            radius,
            height,
            &CertifySettings::default(),
        )
        .unwrap();
        let ra = q3(&axis);
        let d = ra.iter().fold(Rational::from_integer(0), |s, v| s + v * v);
        let qf = |v: [Rational; 3]| v.map(QuadraticField::from_rational);
        let cyl = CylinderData {
            center: qf(q3(&center)),
            axis: qf(ra),
            axis_length: QuadraticField::sqrt_of(d).unwrap(),
            radius: QuadraticField::from_f64(radius).unwrap(),
            height: QuadraticField::from_f64(height).unwrap(),
        };
        let e = triangle_cylinder_intersection(&[qf(q3(&t[0])), qf(q3(&t[1])), qf(q3(&t[2]))], &cyl).unwrap();
        assert_eq!(f.intersects, e.intersects, "case {case}");
        assert_eq!(f.feasible, e.feasible, "case {case}");
        if e.feasible {
            let x = e.squared_axis_distance.to_f64();
            assert!((f.squared_axis_distance - x).abs() <= 1e-12 * x.max(1.0), "case {case}");
        }
        hits += usize::from(e.intersects);
    }
    assert!(hits > 0);
}

#[test]
fn bad_inputs_are_errors() {
    let s = CertifySettings::default();
    let tri = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    let flat = [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]];
    let ab = AlignedBox3 { min: [0.0; 3], max: [1.0; 3] };
    assert!(matches!(triangle_aligned_box_distance_f64(&flat, &ab, &s), Err(GeomError::Degenerate { .. })));
    let bad_box = AlignedBox3 { min: [0.0; 3], max: [1.0, 0.0, 1.0] };
    assert!(matches!(
        triangle_aligned_box_distance_f64(&tri, &bad_box, &s),
        Err(GeomError::NonPositive { .. })
    ));
    let nan_tri = [[f64::NAN, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    assert!(matches!(triangle_aligned_box_distance_f64(&nan_tri, &ab, &s), Err(GeomError::NonFinite { .. })));
    assert!(matches!(
        segment_triangle_distance_f64(&[[1.0; 3], [1.0; 3]], &tri, &s),
        Err(GeomError::Degenerate { .. })
    ));
    assert!(matches!(
        line_triangle_distance_f64(&[1.0; 3], &[0.0; 3], &tri, &s),
        Err(GeomError::ZeroAxis { .. })
    ));
    assert!(matches!(point_polytope_distance_f64(&[0.0; 3], &[], &s), Err(GeomError::Degenerate { .. })));
    assert!(matches!(
        point_polytope_distance_f64(&[0.0; 3], &[[f64::INFINITY, 0.0, 0.0]], &s),
        Err(GeomError::NonFinite { .. })
    ));
    assert!(matches!(
        triangle_cylinder_intersection_f64(&tri, &[0.0; 3], &[0.0; 3], 1.0, 1.0, &s),
        Err(GeomError::ZeroAxis { .. })
    ));
    assert!(matches!(
        triangle_cylinder_intersection_f64(&tri, &[0.0; 3], &[0.0, 0.0, 1.0], -1.0, 1.0, &s),
        Err(GeomError::NonPositive { .. })
    ));
    let bx = BoxN {
        center: [0.0; 3],
        axes: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        half_extents: [1.0, -1.0, 1.0],
    };
    assert!(matches!(point_box_distance_f64(&[0.0; 3], &bx, &s), Err(GeomError::NonPositive { .. })));
    assert!(matches!(triangle_box_distance_f64(&tri, &bx, &s), Err(GeomError::NonPositive { .. })));
    let r = |x: i64| Rational::from_integer(x);
    let cyl = CylinderData {
        center: [r(0), r(0), r(0)],
        axis: [r(0), r(0), r(2)],
        axis_length: r(3),
        radius: r(1),
        height: r(1),
    };
    let rt = qtri(&tri);
    assert!(matches!(triangle_cylinder_intersection(&rt, &cyl), Err(GeomError::Degenerate { .. })));
}

#[test]
fn near_parallel_triangle_aligned_box_f64_matches_exact() {
    // Listing 4-like configurations: the triangle's plane parallel to a box face, vertices
    // perturbed by a few ulps; the f64 entry point must agree with the exact solve.
    let mut rng = SmallRng::seed_from_u64(15);
    for case in 0..30 {
        let z = rng.random_range(0.5..3.0);
        let ulp = |v: f64, k: i64| f64::from_bits((v.to_bits() as i64 + k) as u64);
        let tri = [
            [0.5, 0.5, z],
            [ulp(0.5, rng.random_range(-3..=3)), rng.random_range(5.0..30.0), z],
            [ulp(-0.5, rng.random_range(-3..=3)), 0.5, z],
        ];
        let lo =
            [rng.random_range(-30.0..-10.0), rng.random_range(0.0..15.0), rng.random_range(-50.0..-40.0)];
        let b = AlignedBox3 { min: lo, max: core::array::from_fn(|k| lo[k] + rng.random_range(2.0..9.0)) };
        let f = triangle_aligned_box_distance_f64(&tri, &b, &CertifySettings::default()).unwrap();
        let e = triangle_aligned_box_distance(&qtri(&tri), &AlignedBox3 { min: q3(&b.min), max: q3(&b.max) })
            .unwrap();
        assert!(
            close(f.squared_distance, &e.squared_distance),
            "case {case}: {} vs {}",
            f.squared_distance,
            e.squared_distance
        );
        let c = f.certificate.unwrap();
        assert!(c.gap() <= 1e-9 * c.scale, "case {case}");
    }
}

#[test]
fn triangle_cylinder_rational_axis_with_rational_length() {
    // V = (1, 2, 2), |V| = 3: Rational is exact, and agrees with QuadraticField (sqrt_of(9) = 3).
    let r = |x: i64| Rational::from_integer(x);
    let tri = [[r(2), r(-1), r(0)], [r(3), r(1), r(4)], [r(-1), r(2), r(1)]];
    let cyl = CylinderData {
        center: [r(0), r(0), r(0)],
        axis: [r(1), r(2), r(2)],
        axis_length: r(3),
        radius: r(1),
        height: r(2),
    };
    let out = triangle_cylinder_intersection(&tri, &cyl).unwrap();
    let qf = |v: &[Rational; 3]| v.clone().map(QuadraticField::from_rational);
    let qcyl = CylinderData {
        center: qf(&cyl.center),
        axis: qf(&cyl.axis),
        axis_length: QuadraticField::sqrt_of(r(9)).unwrap(),
        radius: QuadraticField::from(1),
        height: QuadraticField::from(2),
    };
    let q = triangle_cylinder_intersection(&[qf(&tri[0]), qf(&tri[1]), qf(&tri[2])], &qcyl).unwrap();
    assert_eq!(out.intersects, q.intersects);
    assert_eq!(out.feasible, q.feasible);
    for k in 0..2 {
        assert_eq!(QuadraticField::from_rational(out.param[k].clone()), q.param[k]);
    }
    assert_eq!(QuadraticField::from_rational(out.squared_axis_distance.clone()), q.squared_axis_distance);
}
