//! Shared helpers: the vendored Panda and scratch directories.

use std::path::PathBuf;

/// The repository's `testdata/robots/panda/panda.urdf`.
pub fn panda_urdf() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda/panda.urdf"))
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("proxima-robot").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A binary STL of `triangles`.
pub fn binary_stl(triangles: &[[[f32; 3]; 3]]) -> Vec<u8> {
    let mut out = vec![0u8; 80];
    out.extend_from_slice(&(triangles.len() as u32).to_le_bytes());
    for t in triangles {
        out.extend_from_slice(&[0u8; 12]);
        for v in t {
            for x in v {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out.extend_from_slice(&[0u8; 2]);
    }
    out
}

/// The 12 triangles of the box [0, a] × [0, b] × [0, c] (outward).
pub fn box_triangles(a: f32, b: f32, c: f32) -> Vec<[[f32; 3]; 3]> {
    let p = |i: usize| {
        [if i & 1 > 0 { a } else { 0.0 }, if i & 2 > 0 { b } else { 0.0 }, if i & 4 > 0 { c } else { 0.0 }]
    };
    let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    let mut out = Vec::new();
    for q in quads {
        out.push([p(q[0]), p(q[1]), p(q[2])]);
        out.push([p(q[0]), p(q[2]), p(q[3])]);
    }
    out
}

/// A two-link robot: `base` (collision given) and `arm` on a revolute joint about z.
pub fn two_link(base_collision: &str, arm_collision: &str) -> String {
    format!(
        r#"<robot name="two">
  <link name="base">{base_collision}</link>
  <link name="arm">{arm_collision}</link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" velocity="2"/></joint>
</robot>"#
    )
}
