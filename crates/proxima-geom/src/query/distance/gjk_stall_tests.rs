//! The cold retry of a warm-started GJK run that stalled without proving anything (`gjk.rs`,
//! module table):
//! forced here by handing `conclude` the first iterate of a real run on two boxes that
//! overlap by 0.1, rewritten to such a stall (status `Stagnated`, lower bound below 0, upper
//! bound |w| ≫ the tolerance, witnesses whose direction separates nothing). No placement of
//! the near-contact sweeps reaches this path, so it is tested by construction.

use nalgebra::Vector3;

use super::{Ask, Start, conclude, no_finish};
use crate::error::GeomError;
use crate::gjk::{COLD_HINT, Difference, GjkSettings, GjkStatus, Mode, RelativeFrame, core_of, run};
use crate::pose::Pose;
use crate::query::certificate::Radii;
use crate::query::{Proximity, QuerySettings};
use crate::shape::{Cuboid, Shape};

/// Concludes a stalled run between two unit boxes overlapping by 0.1 along x, started from
/// `init`.
type Answer = (crate::query::DistanceResult, Option<(f64, f64)>);

fn conclude_stall(init: &Start) -> Result<Answer, GeomError> {
    let a = Shape::Cuboid(Cuboid::new([0.5, 0.5, 0.5]).unwrap());
    let b = a.clone();
    let pa = Pose::identity();
    let pb = Pose::from_translation([0.9, 0.2, -0.1]).unwrap();
    let (ca, cb) = (core_of(&a).0, core_of(&b).0);
    let settings = QuerySettings::default();
    let mut diff = Difference {
        a: &ca,
        b: &cb,
        frame: RelativeFrame::new(&pa, &pb),
        hint_a: COLD_HINT,
        hint_b: COLD_HINT,
    };
    // One iteration of a real run for a valid simplex and witnesses (a single support point
    // pair, far from the overlap); its ending rewritten to a stall that proved nothing.
    let first = GjkSettings { max_iterations: 1, ..settings.gjk };
    let mut r = run(&mut diff, &Start::cold(Vector3::x()), &first, Mode::Distance);
    assert!(r.upper > 0.1, "{}", r.upper);
    r.status = GjkStatus::Stagnated;
    r.lower = -1e-3;
    let ask = Ask {
        shapes: (&a, &pa, &b, &pb),
        radii: Radii { a: 0.0, b: 0.0 },
        settings: &settings,
        depth: true,
        stash: None,
        depth_normal: None,
        flat_core: true,
    };
    conclude(&mut diff, &mut r, None, init, None, &ask, &mut no_finish)
}

#[test]
fn warm_stall_without_proof_is_retried_cold() {
    // A warm start (one stored search direction): the cold retry proves the contact, and EPA
    // measures the overlap 0.1 (faces x = 0.5 and x = 0.4).
    let mut warm = Start::cold(Vector3::x());
    warm.simplex_len = 1;
    warm.simplex_dirs[0] = Vector3::x();
    let (r, _) = conclude_stall(&warm).unwrap();
    let Proximity::Intersecting { depth: Some(depth), .. } = r.proximity else { panic!("{r:?}") };
    assert!((depth - 0.1).abs() < 1e-9, "{r:?}");
}
