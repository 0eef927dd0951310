//! scratch
use nalgebra::{Point3, Vector3};
use proxima_geom::gjk::{SupportMap, gjk_distance};
use proxima_geom::{GjkSettings, Pose, Shape};
use proxima_robot::*;
use std::time::Instant;

const N: usize = 8;
struct HullMap {
    v: Vec<Point3<f64>>,
    off: Vec<u32>,
    nb: Vec<u32>,
    table: Vec<u16>,
    use_hint: bool,
}
impl HullMap {
    fn new(p: &proxima_geom::shape::ConvexPolytope, use_hint: bool) -> Self {
        let adj = p.adjacency().unwrap();
        let v = p.vertices().to_vec();
        let mut off = vec![0u32];
        let mut nb = Vec::new();
        for i in 0..v.len() {
            nb.extend_from_slice(adj.neighbors(i));
            off.push(nb.len() as u32);
        }
        let mut table = vec![0u16; 6 * N * N];
        for f in 0..6 {
            for a in 0..N {
                for b in 0..N {
                    let u = -1.0 + (a as f64 + 0.5) * 2.0 / N as f64;
                    let w = -1.0 + (b as f64 + 0.5) * 2.0 / N as f64;
                    let ax = f / 2;
                    let s = if f % 2 == 0 { 1.0 } else { -1.0 };
                    let mut m = Vector3::zeros();
                    m[ax] = s;
                    m[(ax + 1) % 3] = u;
                    m[(ax + 2) % 3] = w;
                    let i = (0..v.len())
                        .max_by(|&i, &j| m.dot(&v[i].coords).total_cmp(&m.dot(&v[j].coords)))
                        .unwrap();
                    table[(f * N + a) * N + b] = i as u16;
                }
            }
        }
        Self { v, off, nb, table, use_hint }
    }
    #[inline(always)]
    fn start(&self, m: &Vector3<f64>) -> usize {
        let (x, y, z) = (m.x.abs(), m.y.abs(), m.z.abs());
        let (ax, mm) = if x >= y && x >= z {
            (0, m.x)
        } else if y >= z {
            (1, m.y)
        } else {
            (2, m.z)
        };
        let f = ax * 2 + usize::from(mm < 0.0);
        let inv = 1.0 / mm.abs();
        let cell = |c: f64| (((c * inv + 1.0) * 0.5 * N as f64) as usize).min(N - 1);
        let a = cell(m[(ax + 1) % 3]);
        let b = cell(m[(ax + 2) % 3]);
        self.table[(f * N + a) * N + b] as usize
    }
}
impl SupportMap for HullMap {
    #[inline(always)]
    fn local_support(&self, m: &Vector3<f64>, hint: &mut u32) -> Point3<f64> {
        let mut cur =
            if self.use_hint && (*hint as usize) < self.v.len() { *hint as usize } else { self.start(m) };
        let mut best = m.dot(&self.v[cur].coords);
        loop {
            let mut next = cur;
            for &k in &self.nb[self.off[cur] as usize..self.off[cur + 1] as usize] {
                let val = m.dot(&self.v[k as usize].coords);
                if val > best {
                    best = val;
                    next = k as usize;
                }
            }
            if next == cur {
                break;
            }
            cur = next;
        }
        *hint = cur as u32;
        self.v[cur]
    }
}

fn main() {
    let opts = LoadOptions { mesh_parts: MeshParts::Whole, ..Default::default() };
    let r = Robot::from_urdf_file(&std::env::args().nth(1).unwrap(), &opts).unwrap();
    let text = std::fs::read_to_string(std::env::args().nth(2).unwrap()).unwrap();
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
    let use_hint = std::env::var_os("HINT").is_some();
    let maps: Vec<Option<(HullMap, Pose)>> = r
        .links()
        .iter()
        .map(|l| {
            if l.geometry.is_empty() {
                return None;
            }
            let g = &r.geometries()[l.geometry.start];
            let Shape::ConvexPolytope(p) = &g.shape else { panic!() };
            Some((HullMap::new(p, use_hint), g.origin))
        })
        .collect();
    let gs = GjkSettings::default();
    let s = proxima_geom::QuerySettings { penetration_depth: false, ..Default::default() };
    let (mut sc, mut poses) = (Vec::new(), Vec::new());
    let mut t_map = 0.0;
    let mut t_geom = 0.0;
    let mut maxdiff: f64 = 0.0;
    let mut its = 0u64;
    for _rep in 0..3 {
        for q in &qs {
            r.link_poses(&Pose::identity(), q, LimitPolicy::Reject, &mut sc, &mut poses).unwrap();
            for &(a, b) in &pairs {
                let (ma, oa) = maps[a].as_ref().unwrap();
                let (mb, ob) = maps[b].as_ref().unwrap();
                let pa = poses[a].compose(oa);
                let pb = poses[b].compose(ob);
                let t = Instant::now();
                let o = gjk_distance(ma, &pa, mb, &pb, &gs, None).unwrap();
                t_map += (t.elapsed().as_nanos() as f64).min(20000.0);
                its += o.iterations as u64;
                let ga = &r.geometries()[r.links()[a].geometry.start];
                let gb = &r.geometries()[r.links()[b].geometry.start];
                let t = Instant::now();
                let res = proxima_geom::distance(&ga.shape, &pa, &gb.shape, &pb, &s).unwrap();
                t_geom += (t.elapsed().as_nanos() as f64).min(20000.0);
                if res.distance() > 0.0 {
                    maxdiff = maxdiff.max((res.distance() - o.upper).abs());
                }
            }
        }
    }
    let n = 3.0 * qs.len() as f64;
    println!(
        "map {:.0} ns/config, geom {:.0} ns/config, max diff {:e}, mean it {:.2}",
        t_map / n,
        t_geom / n,
        maxdiff,
        its as f64 / n / pairs.len() as f64
    );
}
