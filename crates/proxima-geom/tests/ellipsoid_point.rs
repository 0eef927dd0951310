//! Point–ellipsoid checks of spec §8 check 1 (random draws of the thesis distribution (5.1.9))
//! and check 7 (segment/line-to-ellipsoid against a brute-force 1-D minimisation).

use proxima_geom::Pose;
use proxima_geom::ellipsoid::{
    EllipsoidSettings, PointLocation, PptesSettings, distance_point_ellipsoid_nd,
    distance_polytope_ellipsoid, pptes,
};
use proxima_geom::shape::{ConvexPolytope, Ellipsoid};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Independent reference: plain bisection on S(λ) = Σ aᵢ²pᵢ²/(aᵢ² + λ)² − 1 for an outside
/// point (λ ∈ [0, a_max·|p|]), run until the bracket stops shrinking.
fn bisection_reference(a: &[f64], p: &[f64]) -> Vec<f64> {
    let s = |l: f64| {
        a.iter().zip(p).map(|(a, p)| (a * a * p * p) / ((a * a + l) * (a * a + l))).sum::<f64>() - 1.0
    };
    let (mut lo, mut hi) =
        (0.0, a.iter().copied().fold(0.0, f64::max) * p.iter().map(|x| x * x).sum::<f64>().sqrt());
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if s(mid) > 0.0 { lo = mid } else { hi = mid }
    }
    let l = 0.5 * (lo + hi);
    a.iter().zip(p).map(|(a, p)| a * a * p / (a * a + l)).collect()
}

#[test]
fn thesis_distribution_draws() {
    // (5.1.9): a1 ~ U[1,100], a2 = 1, a3 ~ U[0.1,1], p ~ U[−100,100]³; 10⁴ draws.
    let mut rng = SmallRng::seed_from_u64(51);
    let mut pptes_converged = 0;
    let draws = 10_000;
    for _ in 0..draws {
        let a = [rng.random_range(1.0..100.0), 1.0, rng.random_range(0.1..1.0)];
        let p: [f64; 3] = std::array::from_fn(|_| rng.random_range(-100.0..100.0));
        let r = distance_point_ellipsoid_nd(&a, &p).unwrap();
        let x = &r.closest;
        let level: f64 = (0..3).map(|i| (x[i] / a[i]).powi(2)).sum();
        assert!((level - 1.0).abs() <= 1e-12, "surface residual {level}");
        // The residual p − x is normal to the surface: |unit(p − x) × unit(A_e x)| ≤ 1e-9.
        if r.info.location == PointLocation::Outside {
            let d = nalgebra::Vector3::new(p[0] - x[0], p[1] - x[1], p[2] - x[2]).normalize();
            let n = nalgebra::Vector3::new(x[0] / (a[0] * a[0]), x[1] / (a[1] * a[1]), x[2] / (a[2] * a[2]))
                .normalize();
            assert!(d.cross(&n).norm() <= 1e-9);
            let reference = bisection_reference(&a, &p);
            let scale = x.iter().map(|v| v.abs()).fold(0.0, f64::max);
            for i in 0..3 {
                assert!((x[i] - reference[i]).abs() <= 1e-9 * scale, "{a:?} {p:?}");
            }
        }
        // The thesis iteration with K = 20 (spec §2.5: converges on 1000/1000 draws).
        let t =
            pptes(&a, &p, &PptesSettings { max_iterations: 20, tolerance: 1e-10, lambda0: None }).unwrap();
        if t.converged {
            pptes_converged += 1;
            let scale = x.iter().map(|v| v.abs()).fold(1.0, f64::max);
            for i in 0..3 {
                assert!((t.closest[i] - x[i]).abs() <= 1e-6 * scale, "pptes {a:?} {p:?}");
            }
        }
    }
    assert!(pptes_converged as f64 >= 0.99 * draws as f64, "pptes converged on {pptes_converged}/{draws}");
}

#[test]
fn segments_match_brute_force_line_search() {
    // Golden-section search of the convex function t ↦ dist(x₀ + t(x₁ − x₀), E) on [0, 1].
    let mut rng = SmallRng::seed_from_u64(7);
    let e = Ellipsoid::new([1.0, 2.0, 5.0]).unwrap();
    let dist = |p: [f64; 3]| distance_point_ellipsoid_nd(&[1.0, 2.0, 5.0], &p).unwrap().info.distance;
    for _ in 0..1000 {
        let x0: [f64; 3] = std::array::from_fn(|_| rng.random_range(-6.0..6.0));
        let x1: [f64; 3] = std::array::from_fn(|_| rng.random_range(-6.0..6.0));
        let at = |t: f64| dist(std::array::from_fn(|i| x0[i] + t * (x1[i] - x0[i])));
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        let g = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..200 {
            let (m1, m2) = (hi - g * (hi - lo), lo + g * (hi - lo));
            if at(m1) <= at(m2) { hi = m2 } else { lo = m1 }
        }
        let brute = at(0.5 * (lo + hi)).min(at(0.0)).min(at(1.0));
        let seg = ConvexPolytope::new(vec![x0, x1]).unwrap();
        let r = distance_polytope_ellipsoid(
            &seg,
            &Pose::identity(),
            &e,
            &Pose::identity(),
            &EllipsoidSettings::default(),
        )
        .unwrap();
        // Golden section locates t to ~1e-16 relative; the distance is flat there, so 1e-9.
        assert!((r.distance() - brute).abs() <= 1e-9, "{x0:?} {x1:?}: {} vs {brute}", r.distance());
        if brute == 0.0 {
            assert!(r.is_intersecting());
        }
    }
}
