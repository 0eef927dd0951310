//! Meshes: OBJ objects and errors, binary and ASCII STL, COLLADA, scale, package:// and
//! relative resolution, degenerate meshes, hulls shared through the cache.

use std::path::{Path, PathBuf};

use proxima_geom::Shape;
use proxima_robot::mesh::obj::read_obj;
use proxima_robot::mesh::{MeshFormat, MeshParts, parse_mesh};
use proxima_robot::{DegenerateMeshes, GeometrySource, LoadOptions, MeshCache, Robot, RobotError};

use crate::support::{binary_stl, box_triangles, scratch, two_link};

const TWO_CUBES: &str = "# two closed cubes as objects\n\
v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n\
v 3 0 0\nv 4 0 0\nv 4 1 0\nv 3 1 0\nv 3 0 1\nv 4 0 1\nv 4 1 1\nv 3 1 1\n\
o first\nf 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n\
o second\nf -8/1 -5/1/1 -6//2 -7\nf -4 -3 -2 -1\nf -8 -7 -3 -4\nf -7 -6 -2 -3\nf -6 -5 -1 -2\nf -5 -8 -4 -1\n";

fn load_urdf(dir: &Path, text: &str, options: &LoadOptions) -> Result<Robot, RobotError> {
    let path = dir.join("r.urdf");
    std::fs::write(&path, text).unwrap();
    Robot::from_urdf_file(&path, options)
}

fn mesh_link(uri: &str, scale: &str) -> String {
    format!(r#"<collision><geometry><mesh filename="{uri}" scale="{scale}"/></geometry></collision>"#)
}

#[test]
fn obj_objects_become_parts_when_closed() {
    let m = read_obj(TWO_CUBES.as_bytes()).unwrap();
    assert_eq!(m.vertices.len(), 16);
    assert_eq!(m.objects.len(), 2);
    assert!(m.objects.iter().all(|o| o.is_closed()));
    assert_eq!(m.objects[1].vertex_indices(), (8..16).collect::<Vec<_>>());
    let parts =
        parse_mesh(TWO_CUBES.as_bytes(), MeshFormat::Obj, Path::new("c.obj"), MeshParts::Objects).unwrap();
    assert_eq!(parts.len(), 2);
    assert_eq!((parts[0].name.as_str(), parts[1].name.as_str()), ("first", "second"));
    let whole =
        parse_mesh(TWO_CUBES.as_bytes(), MeshFormat::Obj, Path::new("c.obj"), MeshParts::Whole).unwrap();
    assert_eq!((whole.len(), whole[0].points.len()), (1, 16));
    // an open object (a surface patch) keeps the file whole: the hull of a patch would not
    // enclose the solid it bounds
    let open = TWO_CUBES.replace("f -5 -8 -4 -1\n", "");
    let parts = parse_mesh(open.as_bytes(), MeshFormat::Obj, Path::new("c.obj"), MeshParts::Objects).unwrap();
    assert_eq!(parts.len(), 1);
}

#[test]
fn obj_errors_name_the_line() {
    let cases: &[(&str, u32, &str)] = &[
        ("v 1 2\n", 1, "3 coordinates"),
        ("v 0 0 0\nv 1 x 0\n", 2, "not a number"),
        ("v 0 0 0\nv 1 nan 0\n", 2, "not finite"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", 4, "outside the 3 vertices"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", 4, "at least 3"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", 4, "index 0"),
        ("v 0 0 0\n\nf a b c\n", 3, "not an integer"),
    ];
    for (text, line, what) in cases {
        let e = read_obj(text.as_bytes()).unwrap_err();
        assert_eq!(e.line, *line, "{text:?}: {e:?}");
        assert!(e.reason.contains(what), "{text:?}: {}", e.reason);
    }
}

#[test]
fn stl_binary_ascii_and_collada_with_scale() {
    let dir = scratch("formats");
    std::fs::write(dir.join("box.stl"), binary_stl(&box_triangles(1.0, 2.0, 3.0))).unwrap();
    let mut ascii = String::from("solid b\n");
    for t in box_triangles(1.0, 2.0, 3.0) {
        ascii.push_str("facet normal 0 0 0\nouter loop\n");
        for v in t {
            ascii.push_str(&format!("vertex {} {} {}\n", v[0], v[1], v[2]));
        }
        ascii.push_str("endloop\nendfacet\n");
    }
    ascii.push_str("endsolid b\n");
    std::fs::write(dir.join("box_ascii.STL"), ascii).unwrap();
    std::fs::write(dir.join("box.dae"), collada_box()).unwrap();
    let urdf = format!(
        r#"<robot name="m"><link name="a">{}{}{}</link></robot>"#,
        mesh_link("box.stl", "1 1 1"),
        mesh_link("box_ascii.STL", "2 0.5 -1"),
        mesh_link("box.dae", "1 1 1"),
    );
    let r = load_urdf(&dir, &urdf, &LoadOptions::default()).unwrap();
    let g = r.geometries();
    assert_eq!(g.len(), 3);
    let extent = |i: usize| {
        let Shape::ConvexPolytope(p) = &g[i].shape else { panic!() };
        assert_eq!(p.vertices().len(), 8, "a box hull has 8 vertices");
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for v in p.vertices() {
            for k in 0..3 {
                lo[k] = lo[k].min(v[k]);
                hi[k] = hi[k].max(v[k]);
            }
        }
        (lo, hi)
    };
    assert_eq!(extent(0), ([0.0; 3], [1.0, 2.0, 3.0]));
    // scale (2, 0.5, −1): mirrored in z
    assert_eq!(extent(1), ([0.0, 0.0, -3.0], [2.0, 1.0, 0.0]));
    // the COLLADA cube: unit 0.5 m scales its ±1 coordinates to ±0.5
    assert_eq!(extent(2), ([-0.5; 3], [0.5; 3]));
    match &g[1].source {
        GeometrySource::Mesh { scale, mesh_vertices, flat, .. } => {
            assert_eq!((*scale, *mesh_vertices, *flat), ([2.0, 0.5, -1.0], 36, false));
        }
        other => panic!("{other:?}"),
    }
}

fn collada_box() -> String {
    let p: Vec<String> = (0..8)
        .map(|i| {
            format!(
                "{} {} {}",
                if i & 1 > 0 { 1 } else { -1 },
                if i & 2 > 0 { 1 } else { -1 },
                if i & 4 > 0 { 1 } else { -1 }
            )
        })
        .collect();
    let tris = "0 2 3 0 3 1 4 5 7 4 7 6 0 1 5 0 5 4 2 6 7 2 7 3 0 4 6 0 6 2 1 3 7 1 7 5";
    format!(
        r##"<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="half" meter="0.5"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries><geometry id="cube" name="cube"><mesh>
    <source id="cube-pos"><float_array id="cube-pos-array" count="24">{}</float_array>
      <technique_common><accessor source="#cube-pos-array" count="8" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
      </accessor></technique_common></source>
    <vertices id="cube-vtx"><input semantic="POSITION" source="#cube-pos"/></vertices>
    <triangles count="12"><input semantic="VERTEX" source="#cube-vtx" offset="0"/><p>{tris}</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="scene"><node id="n"><instance_geometry url="#cube"/></node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>"##,
        p.join(" ")
    )
}

#[test]
fn package_uris_resolve_through_package_dirs() {
    let dir = scratch("packages");
    let pkg = dir.join("share").join("my_robot");
    std::fs::create_dir_all(pkg.join("meshes")).unwrap();
    std::fs::create_dir_all(pkg.join("urdf")).unwrap();
    std::fs::write(pkg.join("meshes/box.stl"), binary_stl(&box_triangles(1.0, 1.0, 1.0))).unwrap();
    let text = two_link(&mesh_link("package://my_robot/meshes/box.stl", "1 1 1"), "");
    // 1. a directory holding packages
    let options =
        LoadOptions { package_dirs: vec![dir.join("nowhere"), dir.join("share")], ..Default::default() };
    let r = load_urdf(&dir, &text, &options).unwrap();
    match &r.geometries()[0].source {
        GeometrySource::Mesh { path, .. } => assert_eq!(path, &dir.join("share/my_robot/meshes/box.stl")),
        other => panic!("{other:?}"),
    }
    // 2. the package directory itself
    let options = LoadOptions { package_dirs: vec![pkg.clone()], ..Default::default() };
    assert!(load_urdf(&dir, &text, &options).is_ok());
    // 3. a description inside its own package, no package directory given
    std::fs::write(pkg.join("urdf/r.urdf"), &text).unwrap();
    assert!(Robot::from_urdf_file(pkg.join("urdf/r.urdf"), &LoadOptions::default()).is_ok());
    // missing: the error names the URI and every directory tried
    let options = LoadOptions { package_dirs: vec![dir.join("a"), dir.join("b")], ..Default::default() };
    let missing = two_link(&mesh_link("package://other_pkg/meshes/box.stl", "1 1 1"), "");
    let e = load_urdf(&dir, &missing, &options).unwrap_err();
    match &e {
        RobotError::MeshNotFound { uri, tried } => {
            assert_eq!(uri, "package://other_pkg/meshes/box.stl");
            assert!(tried.contains(&dir.join("a/other_pkg/meshes/box.stl")), "{tried:?}");
            assert!(tried.contains(&dir.join("b/other_pkg/meshes/box.stl")), "{tried:?}");
        }
        other => panic!("{other}"),
    }
    let msg = e.to_string();
    assert!(
        msg.contains("package://other_pkg/meshes/box.stl") && msg.contains("/a/other_pkg/meshes/box.stl"),
        "{msg}"
    );
    // a relative path is tried against the description's directory, then the package dirs
    let rel = two_link(&mesh_link("meshes/none.stl", "1 1 1"), "");
    let e = load_urdf(&dir, &rel, &options).unwrap_err();
    let RobotError::MeshNotFound { tried, .. } = e else { panic!() };
    assert_eq!(
        tried,
        vec![dir.join("meshes/none.stl"), dir.join("a/meshes/none.stl"), dir.join("b/meshes/none.stl")]
    );
}

#[test]
fn degenerate_meshes_are_flagged_or_rejected() {
    let dir = scratch("degenerate");
    // a flat square (two triangles in z = 0)
    let flat = [
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]],
        [[0.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
    ];
    std::fs::write(dir.join("flat.stl"), binary_stl(&flat)).unwrap();
    let text = two_link(&mesh_link("flat.stl", "1 1 1"), "");
    let r = load_urdf(&dir, &text, &LoadOptions::default()).unwrap();
    match &r.geometries()[0].source {
        GeometrySource::Mesh { flat, .. } => assert!(*flat),
        other => panic!("{other:?}"),
    }
    let Shape::ConvexPolytope(p) = &r.geometries()[0].shape else { panic!() };
    assert_eq!(p.vertices().len(), 4, "the distinct points of the square");
    let strict = LoadOptions { degenerate_meshes: DegenerateMeshes::Reject, ..Default::default() };
    let e = load_urdf(&dir, &text, &strict).unwrap_err();
    assert!(matches!(e, RobotError::Geometry { .. }), "{e}");
    assert!(e.to_string().contains("flat.stl"), "{e}");
    // an empty mesh is an error either way
    std::fs::write(dir.join("empty.obj"), "# nothing\n").unwrap();
    let e = load_urdf(&dir, &two_link(&mesh_link("empty.obj", "1 1 1"), ""), &LoadOptions::default())
        .unwrap_err();
    assert!(e.to_string().contains("no vertices") && e.to_string().contains("empty.obj"), "{e}");
    // an unknown format
    std::fs::write(dir.join("m.ply"), "ply\n").unwrap();
    let e =
        load_urdf(&dir, &two_link(&mesh_link("m.ply", "1 1 1"), ""), &LoadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("unsupported mesh format"), "{e}");
    // a truncated binary STL
    let mut bad = binary_stl(&box_triangles(1.0, 1.0, 1.0));
    bad.truncate(200);
    std::fs::write(dir.join("cut.stl"), bad).unwrap();
    let e =
        load_urdf(&dir, &two_link(&mesh_link("cut.stl", "1 1 1"), ""), &LoadOptions::default()).unwrap_err();
    assert!(matches!(&e, RobotError::Mesh { path, .. } if path.ends_with("cut.stl")), "{e}");
    // a NaN vertex
    std::fs::write(
        dir.join("nan.stl"),
        binary_stl(&[[[f32::NAN, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]),
    )
    .unwrap();
    let e =
        load_urdf(&dir, &two_link(&mesh_link("nan.stl", "1 1 1"), ""), &LoadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("nan.stl"), "{e}");
}

#[test]
fn hulls_are_cached_per_file_and_scale() {
    let dir = scratch("cache");
    std::fs::write(dir.join("box.stl"), binary_stl(&box_triangles(1.0, 1.0, 1.0))).unwrap();
    let text = two_link(
        &mesh_link("box.stl", "1 1 1"),
        &format!("{}{}", mesh_link("box.stl", "1 1 1"), mesh_link("box.stl", "2 2 2")),
    );
    let path: PathBuf = dir.join("r.urdf");
    std::fs::write(&path, text).unwrap();
    let mut cache = MeshCache::new();
    let r = Robot::from_urdf_file_cached(&path, &LoadOptions::default(), &mut cache).unwrap();
    assert_eq!(r.geometries().len(), 3);
    assert_eq!(cache.computed, 2, "two scales, one file");
    Robot::from_urdf_file_cached(&path, &LoadOptions::default(), &mut cache).unwrap();
    assert_eq!(cache.computed, 2, "a second robot reuses the hulls");
}
