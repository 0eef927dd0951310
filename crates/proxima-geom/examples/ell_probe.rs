//! Probe: polytope–ellipsoid, ellipsoid route vs GJK (local tool).
use proxima_geom::shape::{ConvexPolytope, Ellipsoid};
use proxima_geom::{Algorithm, Pose, QuerySettings, Shape, distance, signed_distance};
use std::time::Instant;

fn main() {
    for n in [8usize, 40, 200, 1000] {
        let cloud: Vec<[f64; 3]> = (0..n)
            .map(|k| {
                let t = k as f64 * 2.399963;
                let z = 1.0 - 2.0 * (k as f64 + 0.5) / n as f64;
                let r = (1.0 - z * z).sqrt();
                [r * t.cos(), r * t.sin(), z]
            })
            .collect();
        let p = Shape::ConvexPolytope(ConvexPolytope::new(cloud).unwrap());
        let e = Shape::Ellipsoid(Ellipsoid::new([1.0, 0.5, 2.0]).unwrap());
        let poses: Vec<Pose> = (0..64)
            .map(|k| {
                let d = 0.5 + 0.1 * k as f64;
                let dir =
                    nalgebra::Vector3::new((k as f64).cos(), (1.7 * k as f64).sin(), 0.4).normalize() * d;
                Pose::from_matrix(
                    *nalgebra::Rotation3::new(nalgebra::Vector3::new(0.1 * k as f64, 0.2, -0.3)).matrix(),
                    dir,
                )
                .unwrap()
            })
            .collect();
        for alg in [Algorithm::Ellipsoid, Algorithm::Gjk] {
            let s = QuerySettings { algorithm: alg, ..QuerySettings::default() };
            let mut worst_gap: f64 = 0.0;
            let mut sds = Vec::new();
            let (mut t_sep, mut t_over, mut n_sep, mut n_over) = (0u128, 0u128, 0, 0);
            for _ in 0..50 {
                sds.clear();
                for po in &poses {
                    let t = Instant::now();
                    let r = distance(&p, po, &e, &Pose::identity(), &s).unwrap();
                    let el = t.elapsed().as_nanos();
                    if r.distance() > 0.0 {
                        t_sep += el;
                        n_sep += 1
                    } else {
                        t_over += el;
                        n_over += 1
                    }
                    worst_gap = worst_gap.max(r.certificate.upper - r.certificate.lower);
                    sds.push(
                        signed_distance(&p, po, &e, &Pose::identity(), &s)
                            .map(|x| (x.value, x.certificate.upper - x.certificate.lower)),
                    );
                }
            }
            let ns = format!(
                "separated {:.0} ns, overlapping {:.0} ns",
                t_sep as f64 / n_sep.max(1) as f64,
                t_over as f64 / n_over.max(1) as f64
            );
            let over: Vec<_> = sds.iter().filter_map(|x| x.as_ref().ok()).filter(|x| x.0 < 0.0).collect();
            let wg = over.iter().map(|x| x.1).fold(0.0, f64::max);
            let po = &poses[0];
            let r = distance(&p, po, &e, &Pose::identity(), &s).unwrap();
            println!("  pose0: {:?} {:?} {:?}", r.proximity, r.certificate, r.path);
            println!(
                "n={n:5} {alg:?}: {ns} worst dist gap {worst_gap:.1e}; overlapping {} worst depth gap {wg:.1e} first {:?}",
                over.len(),
                over.first().map(|x| x.0)
            );
        }
    }
}
#[allow(dead_code)]
fn unused() {}
