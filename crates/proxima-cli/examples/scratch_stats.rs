//! scratch
use proxima_geom::Pose;
use proxima_geom::{GjkCache, QueryPath, QuerySettings, distance_tracked};
use proxima_robot::*;
use std::time::Instant;
fn main() {
    let opts = LoadOptions { mesh_parts: MeshParts::Whole, ..Default::default() };
    let r = Robot::from_urdf_file("/work/shared/bench/robot/robots/panda/panda.urdf", &opts).unwrap();
    let text = std::fs::read_to_string("/work/shared/bench/robot/workloads/panda_self_1000.json").unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let pairs: Vec<(usize, usize)> = v["pair_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (r.link_index(p[0].as_str().unwrap()).unwrap(), r.link_index(p[1].as_str().unwrap()).unwrap())
        })
        .collect();
    let qs: Vec<Vec<f64>> = v["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect())
        .collect();
    let tol: f64 = std::env::var("TOL").ok().and_then(|t| t.parse().ok()).unwrap_or(1e-10);
    let s = QuerySettings {
        penetration_depth: false,
        gjk: proxima_geom::GjkSettings {
            tolerance: tol,
            acceleration: match std::env::var("ACC").as_deref() {
                Ok("n") => proxima_geom::Acceleration::Nesterov,
                Ok("p") => proxima_geom::Acceleration::Polyak,
                _ => proxima_geom::Acceleration::None,
            },
            ..Default::default()
        },
        ..Default::default()
    };
    let (mut sc, mut poses) = (Vec::new(), Vec::new());
    let mut hist = vec![0usize; 130];
    let mut per_pair_time = vec![0f64; pairs.len()];
    let mut per_pair_it = vec![0f64; pairs.len()];
    let warm = std::env::var_os("WARM").is_some();
    let mut caches = vec![GjkCache::default(); pairs.len()];
    let recenter = std::env::var_os("RECENTER").is_some();
    let shapes: Vec<(proxima_geom::Shape, Pose)> = r
        .links()
        .iter()
        .map(|l| {
            if l.geometry.is_empty() {
                return (
                    proxima_geom::Shape::Sphere(proxima_geom::shape::Sphere::new(1.0).unwrap()),
                    Pose::identity(),
                );
            }
            let g = &r.geometries()[l.geometry.start];
            if !recenter {
                return (g.shape.clone(), g.origin);
            }
            let c = g.bounding_sphere.0;
            let proxima_geom::Shape::ConvexPolytope(p) = &g.shape else { panic!() };
            let vs: Vec<[f64; 3]> =
                p.vertices().iter().map(|v| [v.x - c[0], v.y - c[1], v.z - c[2]]).collect();
            let h = proxima_geom::shape::convex_hull(&vs).unwrap().to_polytope();
            (proxima_geom::Shape::ConvexPolytope(h), g.origin.compose(&Pose::from_translation(c).unwrap()))
        })
        .collect();
    for q in &qs {
        r.link_poses(&Pose::identity(), q, LimitPolicy::Reject, &mut sc, &mut poses).unwrap();
        for (k, &(a, b)) in pairs.iter().enumerate() {
            let (sa, oa) = &shapes[a];
            let (sb, ob) = &shapes[b];
            let pa = poses[a].compose(oa);
            let pb = poses[b].compose(ob);
            let mut c = GjkCache::default();
            let cache = if warm { &mut caches[k] } else { &mut c };
            let t = Instant::now();
            let res = distance_tracked(sa, &pa, sb, &pb, &s, cache).unwrap();
            let el = (t.elapsed().as_nanos() as f64).min(20000.0);
            per_pair_time[k] += el;
            if el > 1e9 {
                println!(
                    "slow {} {} {:.0} {:?} {:?}",
                    r.links()[a].name,
                    r.links()[b].name,
                    el,
                    res.path,
                    res.proximity
                );
            }
            if let QueryPath::Gjk { iterations, .. } = res.path {
                hist[iterations as usize] += 1;
                per_pair_it[k] += iterations as f64;
            }
        }
    }
    let n = qs.len() as f64;
    for (k, &(a, b)) in pairs.iter().enumerate() {
        println!(
            "{:>20} {:>20} {:7.0} ns {:5.1} it",
            r.links()[a].name,
            r.links()[b].name,
            per_pair_time[k] / n,
            per_pair_it[k] / n
        );
    }
    println!("total {:.0} ns/config", per_pair_time.iter().sum::<f64>() / n);
    println!("hist {:?}", &hist[..40]);
}
