//! Bad settings and iteration caps on the GJK paths: clear errors, and a capped run never
//! claims more than its bracket proves.

use proxima_geom::gjk::{GjkSettings, gjk_distance, gjk_intersects, penetration};
use proxima_geom::shape::{Cuboid, Ellipsoid};
use proxima_geom::{
    Algorithm, GeomError, GjkCache, GjkStatus, Intersection, Pose, Proximity, QuerySettings, Shape, distance,
    distance_tracked, intersects, signed_distance,
};

fn ell() -> Shape {
    Shape::Ellipsoid(Ellipsoid::new([1.0, 2.0, 5.0]).unwrap())
}

#[test]
fn invalid_gjk_settings_are_errors() {
    let p = Pose::identity();
    let q = Pose::from_translation([10.0, 0.0, 0.0]).unwrap();
    for gjk in [
        GjkSettings { max_iterations: 0, ..GjkSettings::default() },
        GjkSettings { epa_max_iterations: 0, ..GjkSettings::default() },
        GjkSettings { tolerance: f64::NAN, ..GjkSettings::default() },
        GjkSettings { tolerance: 0.0, ..GjkSettings::default() },
        GjkSettings { tolerance: f64::INFINITY, ..GjkSettings::default() },
    ] {
        let s = QuerySettings::default().with_algorithm(Algorithm::Gjk).with_gjk(gjk);
        let bad = |r: Result<(), GeomError>| matches!(r, Err(GeomError::InvalidSettings { .. }));
        assert!(bad(distance(&ell(), &p, &ell(), &q, &s).map(|_| ())));
        assert!(bad(intersects(&ell(), &p, &ell(), &q, &s).map(|_| ())));
        assert!(bad(signed_distance(&ell(), &p, &ell(), &q, &s).map(|_| ())));
        assert!(bad(distance_tracked(&ell(), &p, &ell(), &q, &s, &mut GjkCache::new()).map(|_| ())));
        assert!(bad(gjk_distance(&ell(), &p, &ell(), &q, &gjk, None).map(|_| ())));
        assert!(bad(penetration(&ell(), &p, &ell(), &q, &gjk).map(|_| ())));
    }
}

#[test]
fn capped_runs_never_overclaim() {
    let a = ell();
    let b = Shape::Cuboid(Cuboid::new([0.3, 0.4, 0.5]).unwrap());
    let p = Pose::identity();
    for x in [1.2, 1.3, 1.5, 2.0, 4.0] {
        let q = Pose::from_translation([x, 0.1, 0.2]).unwrap();
        let truth = distance(&a, &p, &b, &q, &QuerySettings::default()).unwrap().distance();
        for cap in 1..6 {
            let gjk = GjkSettings { max_iterations: cap, ..GjkSettings::default() };
            let s = QuerySettings::default().with_algorithm(Algorithm::Gjk).with_gjk(gjk);
            match distance(&a, &p, &b, &q, &s) {
                Ok(r) => {
                    assert!(r.certificate.lower <= truth + 1e-12 && truth <= r.certificate.upper + 1e-12);
                    if let Proximity::Separated { .. } = r.proximity {
                        assert!(truth > 0.0);
                    }
                }
                // No verdict within the cap: an error, never a guess.
                Err(GeomError::Degenerate { .. }) => {}
                Err(e) => panic!("{e}"),
            }
            match intersects(&a, &p, &b, &q, &s).unwrap() {
                Intersection::Separated { .. } => assert!(truth > 0.0),
                Intersection::Intersecting { .. } => assert!(truth <= 1e-12),
                Intersection::Undecided { .. } => {}
            }
            let out = gjk_intersects(&a, &p, &b, &q, &gjk, None).unwrap();
            if out.status == GjkStatus::SeparationProven {
                assert!(out.lower > 0.0 && truth >= out.lower - 1e-12);
            }
        }
    }
}
