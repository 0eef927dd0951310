//! Deterministic stand-in for the cargo-fuzz targets (`fuzz/`, nightly only): every reader over
//! the vendored descriptions and meshes, small synthetic files, and thousands of seeded
//! byte-level mutations of them. It must never panic.

use proxima_robot::fuzz_readers;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::support::{binary_stl, box_triangles, panda_urdf};

fn corpus() -> Vec<Vec<u8>> {
    let dir = panda_urdf().parent().unwrap().to_path_buf();
    let mut c = vec![std::fs::read(panda_urdf()).unwrap()];
    for m in ["finger.obj", "hand.obj"] {
        c.push(std::fs::read(dir.join("meshes/collision").join(m)).unwrap());
    }
    c.push(binary_stl(&box_triangles(1.0, 2.0, 3.0)));
    c.push(b"solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid s\n".to_vec());
    c.push(br#"<robot name="p"><disable_collisions link1="a" link2="b" reason="x"/><disable_default_collisions link="c"/></robot>"#.to_vec());
    c.push(br#"<robot name="r"><link name="a"/><link name="b"><collision><origin rpy="1 2 3"/><geometry><mesh filename="package://p/m.stl" scale="1 2 3"/></geometry></collision></link><joint name="j" type="prismatic"><parent link="a"/><child link="b"/><limit lower="-1" upper="1"/><mimic joint="j"/></joint></robot>"#.to_vec());
    c.push(br##"<COLLADA><library_geometries><geometry id="g"><mesh><source id="s"><float_array id="f" count="9">0 0 0 1 0 0 0 1 0</float_array></source><vertices id="v"><input semantic="POSITION" source="#s"/></vertices><triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles></mesh></geometry></library_geometries></COLLADA>"##.to_vec());
    c
}

const INSERTS: &[&[u8]] = &[
    b"NaN",
    b"inf",
    b"-1e999",
    b"1e308",
    b"0",
    b"-0",
    b"4294967297",
    b"-2147483649",
    b"\"",
    b"<",
    b">",
    b"/>",
    b"</link>",
    b"<joint",
    b"<mimic joint=\"",
    b"type=\"fixed\"",
    b"&amp;",
    b"&#0;",
    b"f ",
    b"o ",
    b"v ",
    b"\n",
    b"/",
    b"//",
    b"\xff\xfe",
    b"\0",
    b"solid",
    b"package://",
    b"scale=\"0 0 0\"",
];

fn mutate(rng: &mut SmallRng, base: &[u8]) -> Vec<u8> {
    let mut v = base.to_vec();
    for _ in 0..rng.random_range(1..6) {
        let at = if v.is_empty() { 0 } else { rng.random_range(0..v.len()) };
        match rng.random_range(0..5) {
            0 if !v.is_empty() => v[at] = rng.random(),
            1 => {
                let ins = INSERTS[rng.random_range(0..INSERTS.len())];
                v.splice(at..at, ins.iter().copied());
            }
            2 if !v.is_empty() => {
                let end = (at + rng.random_range(1..64)).min(v.len());
                v.drain(at..end);
            }
            3 => v.truncate(at),
            _ if !v.is_empty() => {
                let end = (at + rng.random_range(1..32)).min(v.len());
                let chunk: Vec<u8> = v[at..end].to_vec();
                let to = rng.random_range(0..v.len());
                v.splice(to..to, chunk);
            }
            _ => {}
        }
    }
    v
}

#[test]
fn readers_never_panic_on_mutations() {
    let corpus = corpus();
    for c in &corpus {
        fuzz_readers(c);
    }
    let mut rng = SmallRng::seed_from_u64(1818);
    // ~0.3 s in release, a few seconds in debug
    for i in 0..1500 {
        let base = &corpus[i % corpus.len()];
        fuzz_readers(&mutate(&mut rng, base));
    }
}
