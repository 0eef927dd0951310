//! Distance between a point and an oriented box (Example 6 with one box shrunk to a point).
//!
//! # Formulation
//!
//! The box is `K + R ξ`, 0 ≤ ξ ≤ 2h (corner K, see [`box_box`](super::box_box)); the point P
//! has no parameters. f(ξ) = ½|P − K − Rξ|²: A = RᵀR (exact Gram), b = Rᵀ(K − P),
//! D = −I, e = −2h. The LCP has 6 variables in 3D.
//!
//! `param_b` holds the center-based local coordinates of the closest box point (ξ − h);
//! `param_a` is empty. A point inside the box gives squared distance 0 and point_b = P.

use proxima_lcp::Rational;
use proxima_num::Field;

use proxima_lcp::QpSettings;

use super::box_box::{BoxN, box_extent};
use super::engine::{self, PairProblem};
use super::vec::dot;
use super::{CertifySettings, DistanceOutput, KernelPath};
use crate::error::GeomError;

/// Distance between point `p` and box `b`, generic over the field.
pub fn point_box_distance<T: Field>(
    p: &[T; 3],
    b: &BoxN<T, 3>,
) -> Result<DistanceOutput<T, 0, 3>, GeomError> {
    point_box_with(p, b, &QpSettings::default())
}

fn point_box_with<T: Field>(
    p: &[T; 3],
    b: &BoxN<T, 3>,
    qs: &QpSettings,
) -> Result<DistanceOutput<T, 0, 3>, GeomError> {
    engine::check_finite(p, "point")?;
    b.validate()?;
    let two = T::from_i64(2);
    let problem = PairProblem {
        origin_a: p.to_vec(),
        gens_a: Vec::new(),
        origin_b: b.corner().to_vec(),
        gens_b: b.axes.iter().map(|u| u.to_vec()).collect(),
        ineq: engine::upper_rows(0, 3, &b.half_extents.clone().map(|h| h.mul(&two))),
        eq: Vec::new(),
        free: Vec::new(),
    };
    let sol = engine::solve_pair_with(&problem, qs)?;
    Ok(DistanceOutput {
        param_a: [],
        param_b: core::array::from_fn(|i| sol.x[i].sub(&b.half_extents[i])),
        point_a: engine::arr(&sol.point_a),
        point_b: engine::arr(&sol.point_b),
        squared_distance: sol.squared,
        lcp: sol.lcp,
        path: if T::EXACT { KernelPath::Exact } else { KernelPath::Float },
        certificate: None,
    })
}

/// Certified `f64` point–box distance with exact re-solve (see the module docs of
/// [`lcp_queries`](super)).
pub fn point_box_distance_f64(
    p: &[f64; 3],
    b: &BoxN<f64, 3>,
    settings: &CertifySettings,
) -> Result<DistanceOutput<f64, 0, 3>, GeomError> {
    engine::check_finite(p, "point")?;
    b.validate()?;
    let scale = engine::scale_of(&[p[0], p[1], p[2]]).max(engine::scale_of(&b.center));
    let scale = scale.max(engine::scale_of(&b.half_extents));
    let target = settings.gap_tolerance * scale;
    let fb = engine::Features { faces: &b.axes, edges: &b.axes };
    let ea = |n: &[f64; 3]| {
        let v = dot(n, p);
        (v, v)
    };
    let eb = |n: &[f64; 3]| box_extent(b, n);
    engine::certified(
        settings,
        || point_box_with(p, b, &engine::float_qp_settings()),
        || {
            let rp = engine::exact3(p, "point")?;
            let rb = BoxN::<Rational, 3>::convert_from_f64(b).ok_or(GeomError::NonFinite { what: "box" })?;
            point_box_distance(&rp, &rb)
        },
        |pa, pb| {
            let none = engine::Features { faces: &[], edges: &[] };
            engine::certificate_multi(pa, pb, &ea, none, &eb, fb, scale, target)
        },
    )
}
