//! Segment–segment closed form on (near-)parallel configurations, against
//! a dense brute force over both parameters.

use proptest::prelude::*;
use proxima_geom::shape::Segment;
use proxima_geom::{Pose, QuerySettings, Shape, distance};

fn brute(a0: [f64; 3], a1: [f64; 3], b0: [f64; 3], b1: [f64; 3]) -> f64 {
    let n = 200;
    let mut best = f64::INFINITY;
    for i in 0..=n {
        let s = i as f64 / n as f64;
        let p: [f64; 3] = core::array::from_fn(|k| a0[k] + (a1[k] - a0[k]) * s);
        // For a fixed point, the closest point of the other segment is a clamped projection.
        let d: [f64; 3] = core::array::from_fn(|k| b1[k] - b0[k]);
        let w: [f64; 3] = core::array::from_fn(|k| p[k] - b0[k]);
        let dd: f64 = d.iter().map(|x| x * x).sum();
        let t = (w.iter().zip(&d).map(|(x, y)| x * y).sum::<f64>() / dd).clamp(0.0, 1.0);
        let q: [f64; 3] = core::array::from_fn(|k| b0[k] + d[k] * t);
        best = best.min(p.iter().zip(&q).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt());
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn near_parallel_segments(
        a0 in [-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64],
        dir in [-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64],
        offset in [-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64],
        len_b in -2.0..2.0f64,
        tilt in prop_oneof![Just(0.0), -1e-9..1e-9f64, -1e-3..1e-3f64],
    ) {
        let a1 = [a0[0] + dir[0], a0[1] + dir[1], a0[2] + dir[2]];
        let b0 = [a0[0] + offset[0], a0[1] + offset[1], a0[2] + offset[2]];
        let b1 = [b0[0] + dir[0] * len_b + tilt, b0[1] + dir[1] * len_b, b0[2] + dir[2] * len_b - tilt];
        let (Ok(sa), Ok(sb)) = (Segment::new(a0, a1), Segment::new(b0, b1)) else { return Ok(()) };
        let id = Pose::identity();
        let s = QuerySettings::default();
        let got = distance(&Shape::Segment(sa), &id, &Shape::Segment(sb), &id, &s).unwrap();
        let bf = brute(a0, a1, b0, b1);
        // The brute force samples one segment: it is an upper bound, within the sampling step.
        let step = (dir.iter().map(|x| x * x).sum::<f64>()).sqrt() / 200.0;
        prop_assert!(got.distance() <= bf + 1e-12, "closed form {} > brute {}", got.distance(), bf);
        prop_assert!(got.distance() >= bf - step - 1e-12, "closed form {} << brute {}", got.distance(), bf);
        prop_assert!(got.certificate.lower <= got.certificate.upper);
    }
}
