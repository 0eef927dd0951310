//! The reference listings: §4.4 Listing 4 (triangle–aligned box, f64 failure + exact
//! re-solve) and §4.5 Listings 8–9 (triangle–cylinder in f64, Rational, QuadraticField).
// Literals are copied verbatim from the reference listings (more digits than f64 holds).
#![allow(clippy::excessive_precision)]

use proxima_geom::lcp_queries::{
    AlignedBox3, CertifySettings, CylinderData, KernelPath, triangle_aligned_box_distance,
    triangle_aligned_box_distance_f64, triangle_cylinder_intersection, triangle_cylinder_intersection_f64,
};
use proxima_lcp::{Field, QuadraticField, Rational};

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs().max(1e-300)
}

fn listing4() -> ([[f64; 3]; 3], AlignedBox3<f64>) {
    let tri = [[0.5, 0.5, 1.5], [0.500000000000000178, 25.5, 1.5], [-0.500000000000000355, 0.5, 1.5]];
    let b = AlignedBox3 {
        min: [-28.666800635711962, 12.285771701019407, -48.666800635711965],
        max: [-20.476286168365689, 20.476286168365682, -40.476286168365689],
    };
    (tri, b)
}

#[test]
fn listing4_f64_entry_point_recovers_exact_answer() {
    let (tri, b) = listing4();
    let out = triangle_aligned_box_distance_f64(&tri, &b, &CertifySettings::default()).unwrap();
    let cert = out.certificate.unwrap();
    assert!(cert.gap() <= 1e-9 * cert.scale, "{cert:?}");
    assert!(rel(out.distance_f64(), 46.6845780373756085) <= 1e-12, "{}", out.distance_f64());
    assert!(rel(out.squared_distance, 2179.4498265278130020) <= 1e-12, "{}", out.squared_distance);
    let pa = [-0.0612332166819192, 11.4691695829520519, 1.5];
    let pb = [-20.4762861683656894, 12.2857717010194065, -40.4762861683656894];
    // Vector relative error of the witnesses.
    let verr = |p: &[f64; 3], e: &[f64; 3]| {
        let d: f64 = (0..3).map(|k| (p[k] - e[k]).powi(2)).sum::<f64>().sqrt();
        d / e.iter().map(|v| v * v).sum::<f64>().sqrt()
    };
    assert!(verr(&out.point_a, &pa) <= 1e-12, "{:?}", out.point_a);
    assert!(verr(&out.point_b, &pb) <= 1e-12, "{:?}", out.point_b);
    assert!(out.param_a[0].abs() <= 1e-12, "{out:?}");
    assert!((out.param_a[1] - 0.4387667833180821).abs() <= 1e-12);
    // Forcing the exact re-solve (zero gap tolerance) gives the correctly rounded answer.
    let ex = triangle_aligned_box_distance_f64(
        &tri,
        &b,
        &CertifySettings { gap_tolerance: 0.0, ..Default::default() },
    )
    .unwrap();
    // (Unless the f64 bracket is already exact, gap 0: the face-normal direction of the box
    // bounds this face–edge configuration exactly.)
    match ex.path {
        KernelPath::ExactResolve => {
            assert!(rel(ex.squared_distance, 2179.4498265278130020) <= 1e-15, "{}", ex.squared_distance);
            assert_eq!(ex.param_a[0], 0.0);
        }
        KernelPath::FastPath | KernelPath::FloatCertified => {
            assert_eq!(ex.certificate.unwrap().gap(), 0.0);
            assert!(rel(ex.squared_distance, 2179.4498265278130020) <= 1e-14, "{}", ex.squared_distance);
        }
        p => panic!("unexpected path {p:?}"),
    }
    assert_eq!(ex.point_b, [b.max[0], b.min[1], b.max[2]]);
    // With the exact fallback disabled the float answer must be reported uncertified or be right.
    let raw = triangle_aligned_box_distance_f64(
        &tri,
        &b,
        &CertifySettings { exact_fallback: false, ..Default::default() },
    )
    .unwrap();
    match raw.path {
        KernelPath::Uncertified => assert!(raw.certificate.unwrap().gap() > 1e-9),
        KernelPath::FastPath | KernelPath::FloatCertified => {
            assert!(rel(raw.distance_f64(), 46.6845780373756085) <= 1e-9)
        }
        p => panic!("unexpected path {p:?}"),
    }
}

#[test]
fn listing4_rational_is_exact() {
    let (tri, b) = listing4();
    let q = |v: &[f64; 3]| v.map(|x| Rational::from_f64_exact(x).unwrap());
    let rtri = [q(&tri[0]), q(&tri[1]), q(&tri[2])];
    let rb = AlignedBox3 { min: q(&b.min), max: q(&b.max) };
    let out = triangle_aligned_box_distance(&rtri, &rb).unwrap();
    assert_eq!(out.path, KernelPath::Exact);
    // Exact: the squared distance equals |p_b − p_a|² exactly and the point is in the box.
    let d: Vec<Rational> = (0..3).map(|k| &out.point_b[k] - &out.point_a[k]).collect();
    let sq = d.iter().fold(Rational::from_integer(0), |s, v| s + v * v);
    assert_eq!(sq, out.squared_distance);
    assert!(rel(out.squared_distance.to_f64(), 2179.4498265278130020) <= 1e-15);
    assert!(rel(out.squared_distance.to_f64().sqrt(), 46.6845780373756085) <= 1e-15);
    assert_eq!(out.param_a[0], Rational::from_integer(0));
    assert_eq!(out.point_b[0], rb.max[0]);
    assert_eq!(out.point_b[1], rb.min[1]);
    assert_eq!(out.point_b[2], rb.max[2]);
    // The f64 entry point's answer is the rounding of the exact one.
    let f = triangle_aligned_box_distance_f64(&tri, &b, &CertifySettings::default()).unwrap();
    assert!(rel(f.squared_distance, out.squared_distance.to_f64()) <= 1e-12);
}

fn listing8_triangle<T: Field>() -> [[T; 3]; 3] {
    let f = |v: [f64; 3]| v.map(|x| T::from_f64(x).unwrap());
    [f([0.5, -1.0, 0.0]), f([3.0, 1.0, 0.0]), f([0.5, 2.0, 0.0])]
}

fn listing9_triangle<T: Field>() -> [[T; 3]; 3] {
    let d = [1.0, 2.0, 3.0];
    let perp = [-3.0, 0.0, 1.0];
    let f = |v: [f64; 3]| v.map(|x| T::from_f64(x).unwrap());
    [f(core::array::from_fn(|i| 0.125 * perp[i] + 0.5 * d[i])), f(perp.map(|p| 0.25 * p)), f(perp)]
}

fn normalized_f64(v: [f64; 3]) -> [f64; 3] {
    let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    v.map(|x| x / l)
}

fn qf_cylinder() -> CylinderData<QuadraticField> {
    let q = |x: i64| QuadraticField::from(x);
    CylinderData {
        center: [q(0), q(0), q(0)],
        axis: [q(1), q(2), q(3)],
        axis_length: QuadraticField::sqrt_of(Rational::from_integer(14)).unwrap(),
        radius: q(1),
        height: q(2),
    }
}

#[test]
fn listing8_triangle_cylinder() {
    // f64 with the normalized axis (Listing 5).
    let out = triangle_cylinder_intersection_f64(
        &listing8_triangle(),
        &[0.0; 3],
        &normalized_f64([1.0, 2.0, 3.0]),
        1.0,
        2.0,
        &CertifySettings::default(),
    )
    .unwrap();
    assert!(out.intersects);
    assert!(out.param[0].abs() <= 1e-15 && (out.param[1] - 11.0 / 30.0).abs() <= 1e-15, "{:?}", out.param);
    // Rational with the exact projection V Vᵀ/|V|² (axis (1,2,3), |V| approximated: the caps are
    // inactive here).
    let r = |x: i64| Rational::from_integer(x);
    let rcyl = CylinderData {
        center: [r(0), r(0), r(0)],
        axis: [r(1), r(2), r(3)],
        axis_length: Rational::from_f64_exact(14f64.sqrt()).unwrap(),
        radius: r(1),
        height: r(2),
    };
    let out = triangle_cylinder_intersection(&listing8_triangle::<Rational>(), &rcyl).unwrap();
    assert!(out.intersects);
    assert_eq!(out.param, [r(0), Rational::new(11, 30)]);
    // QuadraticField (Listing 7).
    let out = triangle_cylinder_intersection(&listing8_triangle::<QuadraticField>(), &qf_cylinder()).unwrap();
    assert!(out.intersects);
    assert_eq!(out.param, [QuadraticField::from(0), QuadraticField::from(Rational::new(11, 30))]);
    assert_eq!(out.param[1].to_string(), "11/30");
}

#[test]
fn listing9_triangle_cylinder() {
    let expected = 1.0 - 14f64.sqrt() / 7.0;
    let out = triangle_cylinder_intersection_f64(
        &listing9_triangle(),
        &[0.0; 3],
        &normalized_f64([1.0, 2.0, 3.0]),
        1.0,
        2.0,
        &CertifySettings::default(),
    )
    .unwrap();
    assert!(out.intersects);
    assert!((out.param[0] - expected).abs() <= 1e-15, "{:?}", out.param);
    assert_eq!(out.param[1], 0.0);
    // Non-unit axis in f64 too.
    let out = triangle_cylinder_intersection_f64(
        &listing9_triangle(),
        &[0.0; 3],
        &[1.0, 2.0, 3.0],
        1.0,
        2.0,
        &CertifySettings::default(),
    )
    .unwrap();
    assert!((out.param[0] - expected).abs() <= 1e-15, "{:?}", out.param);
    // QuadraticField: exactly 1 − √14/7.
    let out = triangle_cylinder_intersection(&listing9_triangle::<QuadraticField>(), &qf_cylinder()).unwrap();
    assert!(out.intersects);
    let d = Rational::from_integer(14);
    let exact = QuadraticField::new(Rational::from_integer(1), Rational::new(-1, 7), d).unwrap();
    assert_eq!(out.param[0], exact);
    assert_eq!(out.param[1], QuadraticField::from(0));
    assert_eq!(out.param[0].to_string(), "1 - 1/7*sqrt(14)");
    assert!((out.param[0].to_f64() - 0.46547751617515123063089303824049).abs() <= 1e-16);
}
