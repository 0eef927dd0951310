//! scratch
use proxima_scene::{ColdQuery, brute_force_minimum};
fn main() {
    let mut cell =
        proxima_scene::workcell::panda_cell(std::path::Path::new("testdata/robots/panda/panda.urdf"))
            .unwrap();
    println!("objects {} pairs {}", cell.world.len(), cell.pairs.len());
    let q = ColdQuery::default();
    let mut hist = std::collections::BTreeMap::new();
    let mut gmin = (f64::INFINITY, 0, String::new());
    let mut cat_min = std::collections::BTreeMap::new();
    for c in (0..4000).step_by(20) {
        cell.set_cycle(c).unwrap();
        let (p, d) = brute_force_minimum(&q, &cell.world, &cell.pairs).unwrap().unwrap();
        let pair = cell.pairs[p];
        let name = format!("{}-{}", cell.world.object(pair.a).name, cell.world.object(pair.b).name);
        *hist.entry(name.clone()).or_insert(0) += 1;
        if d < gmin.0 {
            gmin = (d, c, name.clone());
        }
        if c % 400 == 0 {
            println!("{c} {d:.4} {name}");
        }
        for (k, pp) in cell.pairs.iter().enumerate() {
            let (ga, gb) = (&cell.world.object(pp.a).group, &cell.world.object(pp.b).group);
            let cat = if ga == gb {
                "self"
            } else if ga == "fixtures" || gb == "fixtures" {
                "fixture"
            } else {
                "cross"
            };
            let d = proxima_geom::distance(
                cell.world.object(pp.a).shape(),
                cell.world.object(pp.a).pose(),
                cell.world.object(pp.b).shape(),
                cell.world.object(pp.b).pose(),
                &Default::default(),
            )
            .unwrap()
            .distance();
            let e = cat_min.entry(cat).or_insert((f64::INFINITY, 0, 0));
            if d < e.0 {
                *e = (d, c, k);
            }
        }
    }
    println!("min {:?}", gmin);
    println!("{:?}", hist);
    for (cat, (d, c, k)) in cat_min {
        let pp = cell.pairs[k];
        println!("{cat}: {d:.4} at {c} {}-{}", cell.world.object(pp.a).name, cell.world.object(pp.b).name);
    }
}
