//! scratch
use proxima_geom::shape::{ConvexPolytope, convex_hull};
use proxima_geom::{GjkCache, Pose, QuerySettings, Shape, distance, distance_tracked};
use std::time::Instant;
fn main() {
    let tet = Shape::ConvexPolytope(
        convex_hull(&[[0., 0., 0.], [1., 0., 0.], [0., 1., 0.], [0., 0., 1.]]).unwrap().to_polytope(),
    );
    let pts: Vec<[f64; 3]> = (0..400)
        .map(|i| {
            let t = i as f64 * 0.7;
            let z = (i as f64 / 200.0) - 1.0;
            let r = (1.0 - z * z).sqrt();
            [r * t.cos() * 0.1, r * t.sin() * 0.1, z * 0.1]
        })
        .collect();
    let ball = Shape::ConvexPolytope(convex_hull(&pts).unwrap().to_polytope());
    if let Shape::ConvexPolytope(p) = &ball {
        println!("ball hull {} vertices", p.vertices().len());
    }
    let s = QuerySettings { penetration_depth: false, ..Default::default() };
    {
        let n = 200000;
        let t = Instant::now();
        let mut acc = 0.0;
        for i in 0..n {
            let pb = Pose::from_translation([2.0 + (i % 7) as f64 * 0.01, 0.3, 0.1]).unwrap();
            acc += std::hint::black_box(pb).translation().x;
        }
        println!("pose alone {:.0} ns", t.elapsed().as_nanos() as f64 / n as f64);
        std::hint::black_box(acc);
    }
    let only = std::env::args().nth(1).unwrap_or_default();
    for (name, a, b) in [("tet", &tet, &tet), ("ball", &ball, &ball)] {
        if !only.is_empty() && only != name {
            continue;
        }
        let pa = Pose::identity();
        let n = 200000;
        let mut best = f64::INFINITY;
        for _ in 0..5 {
            let t = Instant::now();
            let mut acc = 0.0;
            for i in 0..n {
                let pb = Pose::from_translation([2.0 + (i % 7) as f64 * 0.01, 0.3, 0.1]).unwrap();
                acc += distance(a, &pa, b, &pb, &s).unwrap().distance();
            }
            best = best.min(t.elapsed().as_nanos() as f64 / n as f64);
            std::hint::black_box(acc);
        }
        let mut best2 = f64::INFINITY;
        let gs = proxima_geom::GjkSettings::default();
        for _ in 0..5 {
            let t = Instant::now();
            let mut acc = 0.0;
            for i in 0..n {
                let pb = Pose::from_translation([2.0 + (i % 7) as f64 * 0.01, 0.3, 0.1]).unwrap();
                acc += proxima_geom::gjk::gjk_distance(a, &pa, b, &pb, &gs, None).unwrap().upper;
            }
            best2 = best2.min(t.elapsed().as_nanos() as f64 / n as f64);
            std::hint::black_box(acc);
        }
        println!("{name}: gjk_distance direct {best2:.0} ns/query");
        let mut c = GjkCache::default();
        let pb = Pose::from_translation([2.0, 0.3, 0.1]).unwrap();
        let r = distance_tracked(a, &pa, b, &pb, &s, &mut c).unwrap();
        println!("{name}: {best:.0} ns/query, path {:?}", r.path);
    }
}
