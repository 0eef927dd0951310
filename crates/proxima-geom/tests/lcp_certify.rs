//! Certificates of the `f64` kernels: the bracket [lower, upper] contains the exact (Rational)
//! distance on random and near-parallel pairs, near-parallel pairs are certified in `f64`
//! (no exact re-solve), `exact_fallback: false` never runs exact arithmetic, and the fast
//! box–box path reports [`LcpInfo::ACTIVE_SET`].

use proxima_geom::lcp_queries::{
    AlignedBox3, BoxN, CertifySettings, DistanceOutput, KernelPath, LcpInfo, box_box_distance,
    box_box_distance_f64, box_box_distance_f64_lcp, line_triangle_distance_f64, point_box_distance_f64,
    point_polytope_distance_f64, segment_triangle_distance_f64, triangle_aligned_box_distance,
    triangle_aligned_box_distance_f64, triangle_box_distance, triangle_box_distance_f64,
    triangle_cylinder_intersection_f64,
};
use proxima_lcp::{Rational, SolvePath};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

type Axes = [[f64; 3]; 3];

fn random_rotation(rng: &mut SmallRng) -> Axes {
    // Random unit quaternion → rotation (rows are the axes).
    let (w, x, y, z) = loop {
        let q: [f64; 4] = core::array::from_fn(|_| rng.random_range(-1.0..1.0));
        let n2: f64 = q.iter().map(|v| v * v).sum();
        if n2 > 1e-3 && n2 <= 1.0 {
            let n = n2.sqrt();
            break (q[0] / n, q[1] / n, q[2] / n, q[3] / n);
        }
    };
    [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
    ]
}

/// A rotation by an angle within 1e-9 rad about a random axis, composed with a random signed
/// axis permutation (rows are the axes).
fn near_axis_rotation(rng: &mut SmallRng) -> Axes {
    let angle: f64 = rng.random_range(-1e-9..1e-9);
    let k = {
        let v: [f64; 3] = core::array::from_fn(|_| rng.random_range(-1.0..1.0));
        let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        v.map(|x| x / n)
    };
    let (s, c) = angle.sin_cos();
    let kk = [[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]];
    let r: Axes = core::array::from_fn(|i| {
        core::array::from_fn(|j| {
            let k2: f64 = (0..3).map(|m| kk[i][m] * kk[m][j]).sum();
            f64::from(u8::from(i == j)) + s * kk[i][j] + (1.0 - c) * k2
        })
    });
    let perm = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]][rng.random_range(0..6)];
    core::array::from_fn(|i| {
        let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        r[perm[i]].map(|v| sign * v)
    })
}

/// `rel` applied to the frame `base` (rows are axes): the axes Σ_m rel[j][m] base[m].
fn compose(rel: &Axes, base: &Axes) -> Axes {
    core::array::from_fn(|j| core::array::from_fn(|k| (0..3).map(|m| rel[j][m] * base[m][k]).sum()))
}

/// Which offset a near-parallel pair gets along a face normal of a.
#[derive(Clone, Copy, Debug)]
enum Contact {
    /// Gap 1e-7…1e-2.
    Touching,
    /// Gap 0.01…1.
    Separated,
    /// Overlap.
    Intersecting,
}

/// A near-parallel pair: b's frame is a's rotated by `near_axis_rotation`, b offset along a
/// face normal of a with the given contact, and slid randomly along the face.
fn near_parallel_pair(rng: &mut SmallRng, contact: Contact) -> (BoxN<f64, 3>, BoxN<f64, 3>) {
    let base = random_rotation(rng);
    let axes_b = compose(&near_axis_rotation(rng), &base);
    let ha: [f64; 3] = core::array::from_fn(|_| rng.random_range(0.1..2.0));
    let hb: [f64; 3] = core::array::from_fn(|_| rng.random_range(0.1..2.0));
    let a =
        BoxN { center: core::array::from_fn(|_| rng.random_range(-3.0..3.0)), axes: base, half_extents: ha };
    let axis = rng.random_range(0..3);
    let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
    let extent_b: f64 =
        (0..3).map(|j| hb[j] * (0..3).map(|k| axes_b[j][k] * base[axis][k]).sum::<f64>().abs()).sum();
    let gap = match contact {
        Contact::Touching => 10f64.powf(rng.random_range(-7.0..-2.0)),
        Contact::Separated => rng.random_range(0.01..1.0),
        Contact::Intersecting => -rng.random_range(0.0..0.5) * ha[axis].min(extent_b),
    };
    let along = sign * (ha[axis] + extent_b + gap);
    // Slides: within the face (face–face), or beyond it (edge–edge / vertex contacts).
    let slide: [f64; 3] =
        core::array::from_fn(
            |j| {
                if j == axis { along } else { rng.random_range(-1.5..1.5) * (ha[j] + hb[j]) }
            },
        );
    let center = core::array::from_fn(|k| a.center[k] + (0..3).map(|j| slide[j] * base[j][k]).sum::<f64>());
    (a, BoxN { center, axes: axes_b, half_extents: hb })
}

fn exact_box_distance(a: &BoxN<f64, 3>, b: &BoxN<f64, 3>) -> f64 {
    let ra = BoxN::<Rational, 3>::convert_from_f64(a).unwrap();
    let rb = BoxN::<Rational, 3>::convert_from_f64(b).unwrap();
    box_box_distance(&ra, &rb).unwrap().squared_distance.to_f64().sqrt()
}

/// lower ≤ exact ≤ upper (up to the documented f64 round-off) and the gap within tolerance.
fn assert_bracket<const PA: usize, const PB: usize>(
    out: &DistanceOutput<f64, PA, PB>,
    exact: f64,
    what: &str,
) {
    let c = out.certificate.expect("f64 entry points return a certificate");
    let slack = 1e-13 * c.scale;
    assert!(c.lower <= exact + slack, "{what}: lower {} > exact {exact} ({c:?})", c.lower);
    assert!(exact <= c.upper + slack, "{what}: exact {exact} > upper {} ({c:?})", c.upper);
    assert!(c.gap() <= 1e-9 * c.scale, "{what}: gap {c:?} path {:?}", out.path);
}

#[test]
fn box_box_near_parallel_certified_in_f64() {
    let mut rng = SmallRng::seed_from_u64(101);
    let settings = CertifySettings::default();
    let contacts = [Contact::Touching, Contact::Separated, Contact::Intersecting];
    let n = 240;
    let mut exact_resolves = 0;
    let mut intersecting = 0;
    for case in 0..n {
        let contact = contacts[case % 3];
        let (a, b) = near_parallel_pair(&mut rng, contact);
        let exact = exact_box_distance(&a, &b);
        let out = box_box_distance_f64(&a, &b, &settings).unwrap();
        exact_resolves += usize::from(out.path == KernelPath::ExactResolve);
        assert_bracket(&out, exact, &format!("case {case} {contact:?}"));
        if exact == 0.0 {
            // Intersecting pairs: certified by upper ≈ 0.
            let c = out.certificate.unwrap();
            assert!(c.upper <= 1e-12 * c.scale, "case {case}: {c:?}");
            intersecting += 1;
        }
        // The LCP entry point brackets the same distance.
        let lcp = box_box_distance_f64_lcp(&a, &b, &settings).unwrap();
        assert_bracket(&lcp, exact, &format!("lcp case {case} {contact:?}"));
    }
    assert!(intersecting >= n / 10, "only {intersecting} intersecting pairs");
    // ≥ 99 % without the exact re-solve.
    assert!(100 * exact_resolves <= n, "{exact_resolves}/{n} near-parallel pairs needed the exact re-solve");
}

#[test]
fn box_box_random_pairs_bracket_exact() {
    let mut rng = SmallRng::seed_from_u64(102);
    let settings = CertifySettings::default();
    for case in 0..90 {
        let spread = [1.0, 3.0, 6.0][case % 3];
        let mut mk = || BoxN {
            center: core::array::from_fn(|_| rng.random_range(-spread..spread)),
            axes: random_rotation(&mut rng),
            half_extents: core::array::from_fn(|_| rng.random_range(0.1..2.0)),
        };
        let (a, b) = (mk(), mk());
        let exact = exact_box_distance(&a, &b);
        let out = box_box_distance_f64(&a, &b, &settings).unwrap();
        assert_eq!(out.path, KernelPath::FastPath, "case {case}");
        assert_eq!(out.lcp, LcpInfo::ACTIVE_SET, "case {case}");
        assert_bracket(&out, exact, &format!("case {case}"));
    }
}

fn random_triangle(rng: &mut SmallRng, center: [f64; 3], size: f64) -> [[f64; 3]; 3] {
    loop {
        let t: [[f64; 3]; 3] =
            core::array::from_fn(|_| core::array::from_fn(|k| center[k] + rng.random_range(-size..size)));
        let e0: [f64; 3] = core::array::from_fn(|k| t[1][k] - t[0][k]);
        let e1: [f64; 3] = core::array::from_fn(|k| t[2][k] - t[0][k]);
        let n = [e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2], e0[0] * e1[1] - e0[1] * e1[0]];
        if n.iter().map(|v| v * v).sum::<f64>() > 1e-3 * size.powi(4) {
            return t;
        }
    }
}

fn qtri(t: &[[f64; 3]; 3]) -> [[Rational; 3]; 3] {
    t.map(|v| v.map(|x| Rational::from_f64_exact(x).unwrap()))
}

#[test]
fn triangle_box_random_and_near_parallel_bracket_exact() {
    let mut rng = SmallRng::seed_from_u64(103);
    let settings = CertifySettings::default();
    let mut exact_resolves = 0;
    let n = 120;
    for case in 0..n {
        let spread = [1.0, 3.0, 6.0][case % 3];
        let b = BoxN {
            center: core::array::from_fn(|_| rng.random_range(-spread..spread)),
            axes: random_rotation(&mut rng),
            half_extents: core::array::from_fn(|_| rng.random_range(0.1..2.0)),
        };
        let tri = if case % 2 == 0 {
            let c: [f64; 3] = core::array::from_fn(|_| rng.random_range(-spread..spread));
            random_triangle(&mut rng, c, 1.5)
        } else {
            // Near-parallel: a triangle in a plane (almost) parallel to a face of b, at a small
            // gap (or crossing it), in b's frame rotated by ≤ 1e-9 rad.
            let frame = compose(&near_axis_rotation(&mut rng), &b.axes);
            let axis = rng.random_range(0..3);
            let gap = [1e-6, 1e-3, 0.3, -0.05][rng.random_range(0..4)];
            let offset = b.half_extents[axis] + gap;
            let local: [[f64; 3]; 3] = core::array::from_fn(|_| {
                core::array::from_fn(|j| if j == axis { offset } else { rng.random_range(-2.5..2.5) })
            });
            local.map(|p| {
                core::array::from_fn(|k| b.center[k] + (0..3).map(|j| p[j] * frame[j][k]).sum::<f64>())
            })
        };
        let out = triangle_box_distance_f64(&tri, &b, &settings).unwrap();
        exact_resolves += usize::from(out.path == KernelPath::ExactResolve);
        let rb = BoxN::<Rational, 3>::convert_from_f64(&b).unwrap();
        let exact = triangle_box_distance(&qtri(&tri), &rb).unwrap().squared_distance.to_f64().sqrt();
        assert_bracket(&out, exact, &format!("oriented case {case}"));
        // The axis-aligned variant on the box's bounds.
        let ext: [f64; 3] =
            core::array::from_fn(|k| (0..3).map(|j| b.half_extents[j] * b.axes[j][k].abs()).sum());
        let ab = AlignedBox3 {
            min: core::array::from_fn(|k| b.center[k] - ext[k]),
            max: core::array::from_fn(|k| b.center[k] + ext[k]),
        };
        let out = triangle_aligned_box_distance_f64(&tri, &ab, &settings).unwrap();
        exact_resolves += usize::from(out.path == KernelPath::ExactResolve);
        let rab = AlignedBox3 {
            min: ab.min.map(|x| Rational::from_f64_exact(x).unwrap()),
            max: ab.max.map(|x| Rational::from_f64_exact(x).unwrap()),
        };
        let exact =
            triangle_aligned_box_distance(&qtri(&tri), &rab).unwrap().squared_distance.to_f64().sqrt();
        assert_bracket(&out, exact, &format!("aligned case {case}"));
    }
    assert!(100 * exact_resolves <= 2 * n, "{exact_resolves} exact re-solves");
}

#[test]
fn triangle_aligned_box_near_parallel_planes_certified_in_f64() {
    // Triangles in planes z = const parallel to a box face (the §4.4 configuration), at gaps
    // from 1e-7 to 1: certified in f64.
    let mut rng = SmallRng::seed_from_u64(104);
    let settings = CertifySettings::default();
    for case in 0..60 {
        let lo: [f64; 3] = core::array::from_fn(|_| rng.random_range(-5.0..5.0));
        let b = AlignedBox3 { min: lo, max: core::array::from_fn(|k| lo[k] + rng.random_range(0.5..4.0)) };
        let z = b.max[2] + 10f64.powf(rng.random_range(-7.0..0.0));
        let tri: [[f64; 3]; 3] = core::array::from_fn(|_| {
            [rng.random_range(lo[0] - 3.0..lo[0] + 6.0), rng.random_range(lo[1] - 3.0..lo[1] + 6.0), z]
        });
        if engine_degenerate(&tri) {
            continue;
        }
        let out = triangle_aligned_box_distance_f64(&tri, &b, &settings).unwrap();
        assert_ne!(out.path, KernelPath::ExactResolve, "case {case}");
        let rab = AlignedBox3 {
            min: b.min.map(|x| Rational::from_f64_exact(x).unwrap()),
            max: b.max.map(|x| Rational::from_f64_exact(x).unwrap()),
        };
        let exact =
            triangle_aligned_box_distance(&qtri(&tri), &rab).unwrap().squared_distance.to_f64().sqrt();
        assert_bracket(&out, exact, &format!("case {case}"));
    }
}

fn engine_degenerate(t: &[[f64; 3]; 3]) -> bool {
    let e0: [f64; 3] = core::array::from_fn(|k| t[1][k] - t[0][k]);
    let e1: [f64; 3] = core::array::from_fn(|k| t[2][k] - t[0][k]);
    (e0[0] * e1[1] - e0[1] * e1[0]).abs() < 1e-3
}

/// With `exact_fallback: false` no kernel runs exact arithmetic: the path is never
/// `ExactResolve` (kernel level) and the LCP path never `SolvePath::ExactResolve` (solver
/// level), even with a zero gap tolerance (nothing certifies: every answer is `Uncertified`
/// or certified in f64).
#[test]
fn no_exact_fallback_never_runs_exact_arithmetic() {
    let mut rng = SmallRng::seed_from_u64(105);
    for tol in [0.0, 1e-9] {
        let s = CertifySettings { gap_tolerance: tol, exact_fallback: false };
        let check = |path: KernelPath, lcp: SolvePath, what: &str| {
            assert!(
                matches!(path, KernelPath::FastPath | KernelPath::FloatCertified | KernelPath::Uncertified),
                "{what}: path {path:?}"
            );
            assert_ne!(lcp, SolvePath::ExactResolve, "{what}");
        };
        for case in 0..60 {
            let contact = [Contact::Touching, Contact::Separated, Contact::Intersecting][case % 3];
            let (a, b) = near_parallel_pair(&mut rng, contact);
            // An error is allowed (the f64 LCP failed and no fallback), exact work is not.
            for o in
                [box_box_distance_f64(&a, &b, &s), box_box_distance_f64_lcp(&a, &b, &s)].into_iter().flatten()
            {
                check(o.path, o.lcp.path, &format!("box case {case}"));
            }
            let p: [f64; 3] = core::array::from_fn(|_| rng.random_range(-4.0..4.0));
            if let Ok(o) = point_box_distance_f64(&p, &b, &s) {
                check(o.path, o.lcp.path, "point-box");
            }
            let tri = random_triangle(&mut rng, a.center, 2.0);
            if let Ok(o) = triangle_box_distance_f64(&tri, &b, &s) {
                check(o.path, o.lcp.path, "triangle-box");
            }
            let ab = AlignedBox3 {
                min: core::array::from_fn(|k| b.center[k] - b.half_extents[k]),
                max: core::array::from_fn(|k| b.center[k] + b.half_extents[k]),
            };
            if let Ok(o) = triangle_aligned_box_distance_f64(&tri, &ab, &s) {
                check(o.path, o.lcp.path, "triangle-aligned box");
            }
            if let Ok(o) = segment_triangle_distance_f64(&[p, a.center], &tri, &s) {
                check(o.path, o.lcp.path, "segment-triangle");
            }
            if let Ok(o) = line_triangle_distance_f64(&p, &[1.0, 0.5, -0.25], &tri, &s) {
                check(o.path, o.lcp.path, "line-triangle");
            }
            if let Ok(o) = point_polytope_distance_f64(&p, &tri, &s) {
                check(o.path, o.lcp.path, "point-polytope");
            }
            if let Ok(o) = triangle_cylinder_intersection_f64(&tri, &b.center, &b.axes[0], 1.0, 2.0, &s) {
                check(o.path, o.lcp.path, "triangle-cylinder");
            }
        }
    }
}
