//! Box–box distance (Example 6): 2D/3D/4D against brute force, f64 fast path vs LCP vs exact
//! Rational, near-parallel pairs, bad inputs.

use proxima_geom::GeomError;
use proxima_geom::lcp_queries::{
    BoxDyn, BoxN, CertifySettings, KernelPath, box_box_distance, box_box_distance_dyn, box_box_distance_f64,
    box_box_distance_f64_lcp,
};
use proxima_lcp::Rational;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn random_rotation<const D: usize>(rng: &mut SmallRng) -> [[f64; D]; D] {
    let mut axes = [[0.0f64; D]; D];
    for i in 0..D {
        loop {
            let mut v: [f64; D] = core::array::from_fn(|_| rng.random_range(-1.0..1.0));
            for j in 0..i {
                let p: f64 = (0..D).map(|k| v[k] * axes[j][k]).sum();
                for k in 0..D {
                    v[k] -= p * axes[j][k];
                }
            }
            let n: f64 = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            if n > 0.1 {
                axes[i] = v.map(|x| x / n);
                break;
            }
        }
    }
    axes
}

fn random_box<const D: usize>(rng: &mut SmallRng, spread: f64) -> BoxN<f64, D> {
    BoxN {
        center: core::array::from_fn(|_| rng.random_range(-spread..spread)),
        axes: random_rotation::<D>(rng),
        half_extents: core::array::from_fn(|_| rng.random_range(0.1..2.0)),
    }
}

/// Points of the box: all corners plus random interior/face points.
fn samples<const D: usize>(b: &BoxN<f64, D>, rng: &mut SmallRng, extra: usize) -> Vec<[f64; D]> {
    let mut out = Vec::new();
    let mut local: Vec<[f64; D]> = (0..1usize << D)
        .map(|m| {
            core::array::from_fn(|j| if (m >> j) & 1 == 0 { -b.half_extents[j] } else { b.half_extents[j] })
        })
        .collect();
    for _ in 0..extra {
        // Points on faces (one coordinate at a bound) and inside.
        let face = rng.random_range(0..D + 1);
        local.push(core::array::from_fn(|j| {
            if j == face {
                if rng.random_bool(0.5) { b.half_extents[j] } else { -b.half_extents[j] }
            } else {
                rng.random_range(-b.half_extents[j]..=b.half_extents[j])
            }
        }));
    }
    for p in local {
        out.push(b.point(&p));
    }
    out
}

fn dist2<const D: usize>(a: &[f64; D], b: &[f64; D]) -> f64 {
    (0..D).map(|k| (a[k] - b[k]).powi(2)).sum()
}

fn check_against_brute_force<const D: usize>(seed: u64, cases: usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for case in 0..cases {
        let a = random_box::<D>(&mut rng, 3.0);
        let b = random_box::<D>(&mut rng, 3.0);
        let out = box_box_distance(&a, &b).unwrap();
        let d = out.squared_distance.max(0.0).sqrt();
        // Witnesses in their boxes, squared distance consistent.
        for (bx, p, param) in [(&a, &out.point_a, &out.param_a), (&b, &out.point_b, &out.param_b)] {
            for j in 0..D {
                assert!(param[j].abs() <= bx.half_extents[j] + 1e-9, "case {case}: param out of box");
                let local: f64 = (0..D).map(|k| (p[k] - bx.center[k]) * bx.axes[j][k]).sum();
                assert!(local.abs() <= bx.half_extents[j] + 1e-9, "case {case}: witness out of box");
            }
        }
        assert!(
            (dist2(&out.point_a, &out.point_b) - out.squared_distance).abs()
                <= 1e-12 * (1.0 + out.squared_distance)
        );
        let sa = samples(&a, &mut rng, 60);
        let sb = samples(&b, &mut rng, 60);
        let mut best = f64::INFINITY;
        for p in &sa {
            for q in &sb {
                best = best.min(dist2(p, q));
            }
        }
        assert!(
            best.sqrt() >= d - 1e-9,
            "case {case}: sampled pair closer ({}) than result {d}",
            best.sqrt()
        );
    }
}

#[test]
fn box_box_2d_brute_force() {
    check_against_brute_force::<2>(1, 40);
}

#[test]
fn box_box_3d_brute_force() {
    check_against_brute_force::<3>(2, 40);
}

#[test]
fn box_box_4d_brute_force() {
    check_against_brute_force::<4>(3, 25);
}

fn to_rational(b: &BoxN<f64, 3>) -> BoxN<Rational, 3> {
    BoxN::<Rational, 3>::convert_from_f64(b).unwrap()
}

fn assert_close(x: f64, exact: f64, what: &str) {
    assert!((x - exact).abs() <= 1e-12 * exact.abs().max(1.0), "{what}: {x} vs exact {exact}");
}

#[test]
fn box_box_3d_f64_paths_agree_with_exact() {
    let mut rng = SmallRng::seed_from_u64(4);
    let settings = CertifySettings::default();
    let mut fast = 0;
    for case in 0..60 {
        // Mixture: spread 1 → mostly intersecting, 3 → touching/near, 6 → separated.
        let spread = [1.0, 3.0, 6.0][case % 3];
        let a = random_box::<3>(&mut rng, spread);
        let b = random_box::<3>(&mut rng, spread);
        let exact = box_box_distance(&to_rational(&a), &to_rational(&b)).unwrap();
        let ex = exact.squared_distance.to_f64();
        let f = box_box_distance_f64(&a, &b, &settings).unwrap();
        let l = box_box_distance_f64_lcp(&a, &b, &settings).unwrap();
        if f.path == KernelPath::FastPath {
            fast += 1;
        }
        for out in [&f, &l] {
            let c = out.certificate.unwrap();
            assert!(c.gap() <= 1e-9 * c.scale, "case {case}: {c:?}");
            assert_close(out.squared_distance.sqrt(), ex.sqrt(), "distance");
        }
    }
    assert!(fast >= 50, "fast path certified only {fast}/60 times");
}

#[test]
fn box_box_small_integer_inputs_f64_vs_rational() {
    let mut rng = SmallRng::seed_from_u64(5);
    // Rotations from Pythagorean triples and axis permutations/sign flips.
    let rots: [[[f64; 3]; 3]; 3] = [
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        [[0.6, 0.8, 0.0], [-0.8, 0.6, 0.0], [0.0, 0.0, 1.0]],
        [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
    ];
    for case in 0..40 {
        let mk = |rng: &mut SmallRng| BoxN {
            center: core::array::from_fn(|_| rng.random_range(-6i32..=6) as f64),
            axes: rots[rng.random_range(0..3)],
            half_extents: core::array::from_fn(|_| rng.random_range(1i32..=3) as f64),
        };
        let a = mk(&mut rng);
        let b = mk(&mut rng);
        let exact = box_box_distance(&to_rational(&a), &to_rational(&b)).unwrap();
        assert_eq!(exact.path, KernelPath::Exact);
        let f = box_box_distance_f64(&a, &b, &CertifySettings::default()).unwrap();
        assert_close(f.squared_distance, exact.squared_distance.to_f64(), &format!("case {case}"));
        // Exact witnesses reproduce the exact squared distance.
        let d: Rational = (0..3).fold(Rational::from_integer(0), |s, k| {
            let v = &exact.point_b[k] - &exact.point_a[k];
            s + &v * &v
        });
        assert_eq!(d, exact.squared_distance);
    }
}

fn small_rotation(rng: &mut SmallRng, angle: f64) -> [[f64; 3]; 3] {
    // Rotation by a tiny angle about a random axis (Rodrigues), composed with a random signed
    // axis permutation so the pair is near-parallel but not literally aligned.
    let k = {
        let v: [f64; 3] = core::array::from_fn(|_| rng.random_range(-1.0..1.0));
        let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        v.map(|x| x / n)
    };
    let (s, c) = angle.sin_cos();
    let mut r = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            let kk = [[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]];
            let mut k2 = 0.0;
            for m in 0..3 {
                k2 += kk[i][m] * kk[m][j];
            }
            r[i][j] = if i == j { 1.0 } else { 0.0 } + s * kk[i][j] + (1.0 - c) * k2;
        }
    }
    // Rows of r are the axes.
    r
}

#[test]
fn box_box_near_parallel_pairs() {
    let mut rng = SmallRng::seed_from_u64(6);
    let settings = CertifySettings::default();
    for case in 0..40 {
        let angle = rng.random_range(-1e-9..1e-9);
        let a = BoxN {
            center: core::array::from_fn(|_| rng.random_range(-3.0..3.0)),
            axes: small_rotation(&mut rng, angle),
            half_extents: core::array::from_fn(|_| rng.random_range(0.5..2.0)),
        };
        let b = BoxN {
            center: core::array::from_fn(|_| rng.random_range(-6.0..6.0)),
            axes: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            half_extents: core::array::from_fn(|_| rng.random_range(0.5..2.0)),
        };
        let exact = box_box_distance(&to_rational(&a), &to_rational(&b)).unwrap();
        let ex = exact.squared_distance.to_f64().sqrt();
        for out in [
            box_box_distance_f64(&a, &b, &settings).unwrap(),
            box_box_distance_f64_lcp(&a, &b, &settings).unwrap(),
        ] {
            let c = out.certificate.unwrap();
            assert!(c.gap() <= 1e-9 * c.scale, "case {case}: {c:?} path {:?}", out.path);
            assert_close(out.squared_distance.sqrt(), ex, &format!("near-parallel case {case}"));
        }
    }
}

#[test]
fn box_box_bad_inputs() {
    let good = BoxN {
        center: [0.0; 3],
        axes: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        half_extents: [1.0; 3],
    };
    let s = CertifySettings::default();
    let mut nan = good.clone();
    nan.center[1] = f64::NAN;
    assert!(matches!(box_box_distance_f64(&nan, &good, &s), Err(GeomError::NonFinite { .. })));
    let mut inf = good.clone();
    inf.axes[0][0] = f64::INFINITY;
    assert!(matches!(box_box_distance(&good, &inf), Err(GeomError::NonFinite { .. })));
    let mut flat = good.clone();
    flat.half_extents[2] = 0.0;
    assert!(matches!(box_box_distance_f64_lcp(&good, &flat, &s), Err(GeomError::NonPositive { .. })));
    let mut skew = good.clone();
    skew.axes[1] = [0.5, 1.0, 0.0];
    assert!(matches!(box_box_distance_f64(&good, &skew, &s), Err(GeomError::NotRotation { .. })));
    let bad = CertifySettings { gap_tolerance: f64::NAN, ..Default::default() };
    assert!(matches!(box_box_distance_f64(&good, &good, &bad), Err(GeomError::InvalidSettings { .. })));
}

#[test]
fn box_box_dyn_exact_4d_and_dimension_mismatch() {
    let r = |x: i64| Rational::from_integer(x);
    let eye = |n: usize| -> Vec<Vec<Rational>> {
        (0..n).map(|i| (0..n).map(|j| r(i64::from(i == j))).collect()).collect()
    };
    // Two axis-aligned 4D boxes: a = [-1,1]^4, b centred at (4, 0, 5, 0) with half extents 1:
    // gap 2 along x0 and 3 along x2 → squared distance 13 exactly.
    let a = BoxDyn { center: vec![r(0); 4], axes: eye(4), half_extents: vec![r(1); 4] };
    let b = BoxDyn { center: vec![r(4), r(0), r(5), r(0)], axes: eye(4), half_extents: vec![r(1); 4] };
    let out = box_box_distance_dyn(&a, &b).unwrap();
    assert_eq!(out.squared_distance, r(13));
    assert_eq!(out.path, KernelPath::Exact);
    assert_eq!(out.param_a[0], r(1));
    assert_eq!(out.param_b[2], r(-1));
    // A rotated 2D box (Pythagorean axes, exact in Rational) against an axis-aligned one.
    let q = |n: i64, d: i64| Rational::new(n, d);
    let a2 = BoxDyn {
        center: vec![r(0), r(0)],
        axes: vec![vec![q(3, 5), q(4, 5)], vec![q(-4, 5), q(3, 5)]],
        half_extents: vec![r(1), r(1)],
    };
    let b2 = BoxDyn { center: vec![r(10), r(0)], axes: eye(2), half_extents: vec![r(1), r(1)] };
    let out = box_box_distance_dyn(&a2, &b2).unwrap();
    // Rightmost point of a2: corner with x = 3/5 + 4/5 = 7/5; b2's left face x = 9 → 9 − 7/5.
    assert_eq!(out.squared_distance, q(38, 5) * q(38, 5));
    // Mismatches.
    let mut bad = b.clone();
    bad.center.pop();
    assert!(matches!(box_box_distance_dyn(&a, &bad), Err(GeomError::DimensionMismatch { .. })));
    let mut bad = b.clone();
    bad.axes[1].push(r(0));
    assert!(matches!(box_box_distance_dyn(&a, &bad), Err(GeomError::DimensionMismatch { .. })));
    let empty = BoxDyn::<Rational> { center: vec![], axes: vec![], half_extents: vec![] };
    assert!(matches!(box_box_distance_dyn(&empty, &empty), Err(GeomError::DimensionMismatch { .. })));
}

/// Boxes placed through `distance()` skip the per-query Gram test of `BoxN::validate` (the
/// poses' stored orthonormality error stands in for it): same answers as the public kernel on
/// the same world boxes, and a composed pose off by more than `ROTATION_TOLERANCE` is still
/// refused with `NotRotation`, as the kernel's own check refused it.
#[test]
fn placed_boxes_match_the_public_kernel_and_keep_the_rotation_check() {
    use proxima_geom::shape::Cuboid;
    use proxima_geom::{Pose, QuerySettings, Shape, distance};
    let mut rng = SmallRng::seed_from_u64(23);
    let s = QuerySettings::default();
    let mut tested = 0;
    for _ in 0..300 {
        let (ra, rb) = (random_rotation::<3>(&mut rng), random_rotation::<3>(&mut rng));
        let ha: [f64; 3] = core::array::from_fn(|_| rng.random_range(0.1..2.0));
        let hb: [f64; 3] = core::array::from_fn(|_| rng.random_range(0.1..2.0));
        let ta: [f64; 3] = core::array::from_fn(|_| rng.random_range(-3.0..3.0));
        let tb: [f64; 3] = core::array::from_fn(|_| rng.random_range(-3.0..3.0));
        // Pose rows from the axes (columns of R).
        let rows = |axes: &[[f64; 3]; 3]| core::array::from_fn(|i| core::array::from_fn(|j| axes[j][i]));
        // (random_rotation may return a reflection: not a pose.)
        let (Ok(pa), Ok(pb)) = (Pose::new(rows(&ra), ta), Pose::new(rows(&rb), tb)) else { continue };
        let (a, b) = (Shape::Cuboid(Cuboid::new(ha).unwrap()), Shape::Cuboid(Cuboid::new(hb).unwrap()));
        let api = distance(&a, &pa, &b, &pb, &s).unwrap();
        let kernel = box_box_distance_f64(
            &BoxN { center: ta, axes: ra, half_extents: ha },
            &BoxN { center: tb, axes: rb, half_extents: hb },
            &CertifySettings::default(),
        )
        .unwrap();
        let d = kernel.distance_f64();
        // Same kernel on the same world boxes (the order may be swapped: 1e-12 covers the
        // canonical order's different rounding).
        assert!((api.distance() - d).abs() <= 1e-12 * d.max(1.0), "{} vs {d}", api.distance());
        tested += 1;
    }
    assert!(tested >= 30, "pairs of proper rotations: {tested}");
    // (1 + δ)·I has max |RᵀR − I| ≈ 2δ: 0.9e-6 each (accepted), ≈ 1.8e-6 composed.
    let k = 1.0 + 0.45e-6;
    let scaled = Pose::new([[k, 0.0, 0.0], [0.0, k, 0.0], [0.0, 0.0, k]], [0.0; 3]).unwrap();
    let composed = scaled.compose(&scaled);
    assert!(composed.orthonormality_error() > proxima_geom::ROTATION_TOLERANCE);
    let unit = Shape::Cuboid(Cuboid::new([0.5; 3]).unwrap());
    let far = Pose::from_translation([3.0, 0.0, 0.0]).unwrap();
    let r = distance(&unit, &composed, &unit, &far, &QuerySettings::default());
    assert!(matches!(r, Err(GeomError::NotRotation { .. })), "{r:?}");
}

/// Two cuboids take the box kernel's support-function bound as the answer's lower bound
/// (`query/distance/lcp.rs`). On random pairs at three scales, some placed a hair apart
/// along the witness direction (near contact, where a loose bound would show): the bracket
/// contains the exact rational distance of the same shapes and poses, and the lower bound is
/// at least the one the query computed before from the user's shapes' support functions
/// along the witness direction, min_B n·y − max_A n·x. Tolerance: 1e-12 × the pair's scale
/// (f64 round-off of support values of that magnitude is ~1e-15 × scale; this is looser by
/// a wide margin and far below the 1e-10 gap tolerance, so a wrong bound still fails).
#[test]
fn cuboid_pairs_lower_bound_from_the_kernel_holds_and_is_not_looser() {
    use nalgebra::Vector3;
    use proxima_geom::shape::Cuboid;
    use proxima_geom::{Arithmetic, Pose, Proximity, QuerySettings, Shape, distance};
    let mut rng = SmallRng::seed_from_u64(31);
    let auto = QuerySettings::default();
    let exact = QuerySettings::default().with_arithmetic(Arithmetic::Exact);
    let rows = |axes: &[[f64; 3]; 3]| core::array::from_fn(|i| core::array::from_fn(|j| axes[j][i]));
    let (mut separated, mut near) = (0, 0);
    for k in 0..600 {
        let scale = [1e-3, 1.0, 1e3][k % 3];
        let (ra, rb) = (random_rotation::<3>(&mut rng), random_rotation::<3>(&mut rng));
        let ha: [f64; 3] = core::array::from_fn(|_| scale * rng.random_range(0.1..2.0));
        let hb: [f64; 3] = core::array::from_fn(|_| scale * rng.random_range(0.1..2.0));
        let ta: [f64; 3] = core::array::from_fn(|_| scale * rng.random_range(-3.0..3.0));
        let mut tb: [f64; 3] = core::array::from_fn(|_| scale * rng.random_range(-3.0..3.0));
        let (Ok(pa), Ok(pb0)) = (Pose::new(rows(&ra), ta), Pose::new(rows(&rb), tb)) else { continue };
        let (a, b) = (Shape::Cuboid(Cuboid::new(ha).unwrap()), Shape::Cuboid(Cuboid::new(hb).unwrap()));
        let mut pb = pb0;
        // Every other separated pair: moved back along the normal to 1e-6 × scale apart.
        if k % 2 == 0
            && let Proximity::Separated { distance: d, normal, .. } =
                distance(&a, &pa, &b, &pb, &auto).unwrap().proximity
        {
            let shift = normal * (d - 1e-6 * scale);
            tb = core::array::from_fn(|i| tb[i] - shift[i]);
            pb = Pose::new(rows(&rb), tb).unwrap();
            near += 1;
        }
        let r = distance(&a, &pa, &b, &pb, &auto).unwrap();
        let truth = distance(&a, &pa, &b, &pb, &exact).unwrap().distance();
        let tol = 1e-12 * scale;
        let (lo, up) = (r.certificate.lower, r.certificate.upper);
        assert!(lo - tol <= truth && truth <= up + tol, "pair {k}: [{lo}, {up}] vs exact {truth}");
        if let Proximity::Separated { point_a, point_b, .. } = r.proximity {
            let n: Vector3<f64> = (point_b - point_a).normalize();
            let along = -b.support_value(&pb, &-n) - a.support_value(&pa, &n);
            assert!(
                lo >= along.max(0.0) - tol,
                "pair {k}: lower {lo} below the witness-direction bound {along}"
            );
            separated += 1;
        }
    }
    assert!(separated >= 100 && near >= 50, "separated {separated}, near contact {near}");
}
