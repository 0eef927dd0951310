//! Reference values of spec ellipsoid-distance.md (§2.5 table, §3.3 crossed test and its
//! separation variants) against every method that claims convergence.

use nalgebra::Vector3;
use proxima_geom::Pose;
use proxima_geom::ellipsoid::{
    AlternatingForm, AlternatingSettings, EllipsoidMethod, EllipsoidSettings, EllipsoidStatus, FacetRule,
    PptesSettings, Projector, RefinementSettings, distance_ellipsoid_ellipsoid, distance_point_ellipsoid_nd,
    pptes,
};
use proxima_geom::shape::Ellipsoid;

/// Spec §3.3: x* = [x1*; x2*] and D* (exact to the digits shown).
const X_STAR: [f64; 6] = [
    0.1370577777964644,
    1.430516416099962,
    3.42644444491161,
    0.5735555550883902,
    2.569483583900038,
    3.862942222203536,
];
const D_STAR: f64 = 1.295494819938741;

fn crossed(centre: [f64; 3]) -> (Ellipsoid, Pose, Ellipsoid, Pose) {
    (
        Ellipsoid::new([1.0, 2.0, 5.0]).unwrap(),
        Pose::identity(),
        Ellipsoid::new([5.0, 2.0, 1.0]).unwrap(),
        Pose::from_translation(centre).unwrap(),
    )
}

/// (semi-axes, point, closest point, distance).
type Row = (&'static [f64], &'static [f64], &'static [f64], f64);

#[test]
fn point_table_rows_match_to_1e12() {
    // (a, p, closest x, distance), spec §2.5.
    let rows: [Row; 4] = [
        (
            &[1.0, 2.0, 1.5],
            &[3.0, 3.0, 3.0],
            &[0.476711377298016, 1.29127840315084, 0.894855652786125],
            3.70382878810597,
        ),
        (
            &[1.0, 2.0, 5.0],
            &[4.0, 4.0, 4.0],
            &[0.441171684454262, 1.32595604229752, 3.02418455252595],
            4.55719056599395,
        ),
        (
            &[50.0, 1.0, 0.5],
            &[-30.0, 20.0, 70.0],
            &[-29.4184314445938, 0.396651273683, 0.352310276468608],
            72.3562726174831,
        ),
        (&[3.0, 2.0], &[5.0, -1.0], &[2.9428059036774, -0.388669189975473], 2.14610645337779),
    ];
    for (a, p, x, d) in rows {
        let r = distance_point_ellipsoid_nd(a, p).unwrap();
        // The table prints 15 significant digits: 1e-12 absolute plus one unit of the last
        // printed digit relative to the value.
        assert!((r.info.distance - d).abs() <= 1e-12 + 1e-14 * d, "{a:?} {p:?}: {} vs {d}", r.info.distance);
        for i in 0..a.len() {
            assert!((r.closest[i] - x[i]).abs() <= 1e-12, "{a:?} {p:?} x[{i}] {} vs {}", r.closest[i], x[i]);
        }
        // The thesis iteration (K = 40, tolerance floor 1e-10) reaches the same point to 1e-9.
        let t = pptes(a, p, &PptesSettings { max_iterations: 40, tolerance: 1e-10, lambda0: None }).unwrap();
        assert!(t.converged, "pptes did not converge on {a:?} {p:?}");
        for i in 0..a.len() {
            assert!((t.closest[i] - x[i]).abs() <= 1e-8, "pptes {a:?} {p:?}");
        }
    }
}

fn check_crossed(r: &proxima_geom::ellipsoid::EllipsoidDistance, what: &str) {
    let (pa, pb) = r.witnesses().unwrap();
    let x = [pa.x, pa.y, pa.z, pb.x, pb.y, pb.z];
    for i in 0..6 {
        assert!((x[i] - X_STAR[i]).abs() <= 1e-12, "{what}: x[{i}] = {} vs {}", x[i], X_STAR[i]);
    }
    assert!((r.distance() - D_STAR).abs() <= 1e-12, "{what}: {}", r.distance());
    assert!(r.certificate.lower <= D_STAR && D_STAR <= r.certificate.upper, "{what}: {:?}", r.certificate);
}

#[test]
fn crossed_test_every_converging_method() {
    let (a, pa, b, pb) = crossed([4.0, 4.0, 4.0]);
    let ours = distance_ellipsoid_ellipsoid(&a, &pa, &b, &pb, &EllipsoidSettings::default()).unwrap();
    assert_eq!(ours.status, EllipsoidStatus::Converged);
    check_crossed(&ours, "dual newton");
    for form in [AlternatingForm::Sequential, AlternatingForm::Simultaneous] {
        let s = EllipsoidSettings {
            method: EllipsoidMethod::AlternatingProjection(AlternatingSettings {
                form,
                ..Default::default()
            }),
            ..Default::default()
        };
        let r = distance_ellipsoid_ellipsoid(&a, &pa, &b, &pb, &s).unwrap();
        assert_eq!(r.status, EllipsoidStatus::Converged, "{form:?}");
        check_crossed(&r, "alternating projection");
    }
    // Refinement stalls near 1e-7 (spec §5.4): it must not claim convergence at 1e-12, and
    // its bracket must still hold.
    for rule in [FacetRule::Plus4, FacetRule::Plus7] {
        let s = EllipsoidSettings {
            method: EllipsoidMethod::IterativeRefinement(RefinementSettings {
                rule,
                max_cycles: 25,
                ..Default::default()
            }),
            ..Default::default()
        };
        let r = distance_ellipsoid_ellipsoid(&a, &pa, &b, &pb, &s).unwrap();
        if r.status == EllipsoidStatus::Converged {
            check_crossed(&r, "refinement");
        }
        assert!(
            r.certificate.lower <= D_STAR && D_STAR <= r.certificate.upper,
            "{rule:?} {:?}",
            r.certificate
        );
        assert!(r.certificate.gap() < 1e-3, "{rule:?}: refinement made no progress {:?}", r.certificate);
    }
    // Polyhedral model: a bracket, never a convergence claim.
    let s = EllipsoidSettings {
        method: EllipsoidMethod::PolyhedralApproximation { order: 10 },
        ..Default::default()
    };
    let r = distance_ellipsoid_ellipsoid(&a, &pa, &b, &pb, &s).unwrap();
    assert_eq!(r.status, EllipsoidStatus::ModelOnly);
    assert!(r.certificate.lower <= D_STAR && D_STAR <= r.certificate.upper);
}

#[test]
fn polyhedral_model_d_errors_match_table_5_1() {
    // Spec §8 check 5: d error of the genball models, 3 significant digits.
    let (a, pa, b, pb) = crossed([4.0, 4.0, 4.0]);
    for (order, d_err) in [(4usize, 0.564), (6, 0.301), (8, 0.0961), (10, 0.0338)] {
        let r = proxima_geom::ellipsoid::polyhedral_approximation(&a, &pa, &b, &pb, order).unwrap();
        let err = D_STAR - r.model_distance;
        assert!(err >= 0.0, "circumscribed model must under-estimate");
        assert!((err - d_err).abs() <= 0.0005 * d_err.max(0.1) * 10.0, "order {order}: {err} vs {d_err}");
    }
}

#[test]
fn separation_variants_and_flat_iteration_counts() {
    // Spec §8 check 3 and check 6: p_s = (4,4,4) − u(D* − s).
    let x1 = Vector3::new(X_STAR[0], X_STAR[1], X_STAR[2]);
    let x2 = Vector3::new(X_STAR[3], X_STAR[4], X_STAR[5]);
    let u = (x2 - x1).normalize();
    let mut counts = Vec::new();
    for s in [5.0, 1.2955, 0.5, 0.1, 0.01, 0.001, 1e-5] {
        let p = Vector3::new(4.0, 4.0, 4.0) - u * (D_STAR - s);
        let (a, pa, b, pb) = crossed([p.x, p.y, p.z]);
        let r = distance_ellipsoid_ellipsoid(&a, &pa, &b, &pb, &EllipsoidSettings::default()).unwrap();
        assert_eq!(r.status, EllipsoidStatus::Converged, "s = {s}");
        let expected = if s == 1.2955 { D_STAR - (D_STAR - s) } else { s };
        assert!((r.distance() - expected).abs() <= 1e-10, "s = {s}: {}", r.distance());
        let (wa, wb) = r.witnesses().unwrap();
        assert!((wa.coords - x1).norm() <= 1e-9, "s = {s}: witness a");
        assert!((wb.coords - (x1 + u * expected)).norm() <= 1e-9, "s = {s}: witness b");
        counts.push((s, r.iterations));
    }
    let at = |s: f64| counts.iter().find(|c| c.0 == s).unwrap().1;
    let reference = at(5.0).max(at(1.2955));
    for &(s, it) in &counts {
        assert!(
            it <= 2 * reference.max(1),
            "s = {s}: {it} iterations vs {reference} at s = 5 / 1.2955: {counts:?}"
        );
    }
}

#[test]
fn alternating_projection_counts_match_spec() {
    // Spec §8 check 4: simultaneous form, error on the 6-vector against x*: first < 1e-4
    // after 13 iterations (thesis counting 14), < 1e-8 after 25.
    let (a, pa, b, pb) = crossed([4.0, 4.0, 4.0]);
    let mut trace = Vec::new();
    let s = AlternatingSettings {
        form: AlternatingForm::Simultaneous,
        projector: Projector::Newton,
        max_iterations: 60,
        step_tolerance: 0.0,
    };
    proxima_geom::ellipsoid::alternating_projection(&a, &pa, &b, &pb, &s, 1e-12, Some(&mut trace)).unwrap();
    let err = |x: &[f64; 6]| (0..6).map(|i| (x[i] - X_STAR[i]).powi(2)).sum::<f64>().sqrt();
    let first_below = |tol: f64| trace.iter().position(|x| err(x) < tol).unwrap();
    // trace[0] is the start (the centres), the thesis's iteration 1, so trace[k] is thesis
    // iteration k + 1.
    let thesis_1e4 = first_below(1e-4) + 1;
    let thesis_1e8 = first_below(1e-8) + 1;
    assert_eq!(thesis_1e4, 14, "1e-4");
    assert_eq!(thesis_1e8, 26, "1e-8");
}
