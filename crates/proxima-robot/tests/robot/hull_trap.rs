//! The trap the robot benchmark found in the anchor: coal's `buildConvexRepresentation(False)`
//! wraps a mesh *as if* it were convex. Panda link6 is not convex (966 mesh vertices, a
//! 260-vertex hull). Our pieces are real hulls: every mesh vertex is inside (checked by the
//! vertex LP, an algorithm independent of the hull construction), distances equal those to the
//! raw vertex cloud (whose support function is the hull's), and wrapping the mesh's own
//! triangles as a convex polytope is rejected by the convexity check.

use proxima_geom::lp_polytope::{LpCollisionSettings, contains_point};
use proxima_geom::shape::{ConvexPolytope, Sphere};
use proxima_geom::{Pose, QuerySettings, Shape, distance};
use proxima_robot::mesh::obj::read_obj;
use proxima_robot::{LoadOptions, Robot};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::support::panda_urdf;

fn link6() -> (Vec<[f64; 3]>, Vec<Vec<usize>>, ConvexPolytope) {
    let path = panda_urdf().parent().unwrap().join("meshes/collision/link6.obj");
    let mesh = read_obj(&std::fs::read(path).unwrap()).unwrap();
    let faces = mesh.objects.iter().flat_map(|o| o.faces.clone()).collect();
    let r = Robot::from_urdf_file(panda_urdf(), &LoadOptions::default()).unwrap();
    let l6 = r.link_index("panda_link6").unwrap();
    let g = &r.geometries()[r.links()[l6].geometry.start];
    let Shape::ConvexPolytope(hull) = &g.shape else { panic!("a hull") };
    (mesh.vertices, faces, hull.clone())
}

#[test]
fn every_mesh_vertex_is_inside_the_hull() {
    let (vertices, _, hull) = link6();
    assert_eq!(vertices.len(), 966);
    assert!(hull.vertices().len() < vertices.len() / 2, "link6 is not convex: the hull drops vertices");
    let hv: Vec<[f64; 3]> = hull.vertices().iter().map(|p| [p.x, p.y, p.z]).collect();
    // hull vertices are mesh vertices, bit for bit
    assert!(hv.iter().all(|h| vertices.contains(h)));
    let settings = LpCollisionSettings::default();
    for v in &vertices {
        let r = contains_point(&hv, v, &settings).unwrap();
        assert_eq!(r.is_colliding(), Some(true), "mesh vertex {v:?} outside the hull");
    }
}

#[test]
fn hull_distances_are_the_vertex_cloud_distances() {
    let (vertices, faces, hull) = link6();
    let cloud = Shape::ConvexPolytope(ConvexPolytope::new(vertices.clone()).unwrap());
    let ours = Shape::ConvexPolytope(hull);
    let ball = Shape::Sphere(Sphere::new(0.01).unwrap());
    let mut rng = SmallRng::seed_from_u64(6);
    let s = QuerySettings::default();
    for _ in 0..300 {
        let dir: [f64; 3] =
            [rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)];
        let r = rng.random_range(0.08..0.4);
        let n = (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]).sqrt();
        let p = Pose::from_translation([dir[0] / n * r, dir[1] / n * r, dir[2] / n * r]).unwrap();
        let d1 = distance(&ours, &Pose::identity(), &ball, &p, &s).unwrap();
        let d2 = distance(&cloud, &Pose::identity(), &ball, &p, &s).unwrap();
        // both certified to 1e-9 relative gap; the same convex set
        assert!((d1.distance() - d2.distance()).abs() <= 1e-9, "{} vs {}", d1.distance(), d2.distance());
    }
    // the mesh's own triangles are not the surface of a convex polytope
    let tris: Vec<[usize; 3]> =
        faces.iter().flat_map(|f| (1..f.len() - 1).map(move |k| [f[0], f[k], f[k + 1]])).collect();
    assert!(
        ConvexPolytope::with_faces(vertices, &tris).is_err(),
        "wrapping a non-convex mesh as convex must be refused"
    );
}
