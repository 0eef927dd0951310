//! The readers fed arbitrary bytes (the cargo-fuzz target in `fuzz/` and the seeded mutation
//! corpus the tests run).

use std::path::Path;

use crate::hull::{DegenerateMeshes, MeshCache, hull_piece};
use crate::mesh::{MeshFormat, MeshParts, parse_mesh};
use crate::model::{LoadOptions, Robot};
use crate::srdf::Srdf;
use crate::urdf::{UrdfGeometry, parse_urdf};

/// Feeds `data` to every reader: URDF (then the model build, with every mesh replaced by a
/// small box so that no file is opened), SRDF, OBJ, STL and COLLADA (then the hulls of the
/// mesh parts), ignoring the results. It must never panic.
pub fn fuzz_readers(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(mut desc) = parse_urdf(&text, "fuzz.urdf") {
        for l in &mut desc.links {
            for c in &mut l.collisions {
                if matches!(c.geometry, UrdfGeometry::Mesh { .. }) {
                    c.geometry = UrdfGeometry::Box { size: [0.1, 0.1, 0.1] };
                }
            }
        }
        if let Ok(robot) =
            Robot::from_description(&desc, None, &LoadOptions::default(), &mut MeshCache::new())
        {
            let q = vec![0.0; robot.dof()];
            let (mut s, mut p) = (Vec::new(), Vec::new());
            let _ = robot.link_poses(
                &proxima_geom::Pose::identity(),
                &q,
                crate::LimitPolicy::Clamp,
                &mut s,
                &mut p,
            );
        }
    }
    if let Ok(srdf) = Srdf::parse(&text, "fuzz.srdf") {
        let _ = srdf.check_links(|l| l.len() < 8);
    }
    for (format, name) in
        [(MeshFormat::Obj, "fuzz.obj"), (MeshFormat::Stl, "fuzz.stl"), (MeshFormat::Collada, "fuzz.dae")]
    {
        if let Ok(parts) = parse_mesh(data, format, Path::new(name), MeshParts::Objects) {
            for p in parts.iter().take(4) {
                if p.points.len() <= 4096 {
                    let _ = hull_piece(&p.name, &p.points, DegenerateMeshes::Flag);
                }
            }
        }
    }
}
