//! The exact convex hull (`proxima_geom::shape::convex_hull`) against independent truth:
//! the support function of the input (max over all points of d·p) must equal the support
//! function of the hull's vertices *exactly* for every direction (hull vertices are input
//! points, and every extreme point must be one of them); the surface must be closed and
//! satisfy Euler's formula; degenerate inputs must be errors.

use std::collections::HashSet;

use proptest::prelude::*;
use proxima_geom::shape::{ConvexPolytope, convex_hull};
use proxima_geom::{GeomError, Pose, QuerySettings, Shape, distance};

fn support(points: &[[f64; 3]], d: [f64; 3]) -> f64 {
    points.iter().map(|p| p[0] * d[0] + p[1] * d[1] + p[2] * d[2]).fold(f64::NEG_INFINITY, f64::max)
}

/// Closed oriented surface (each directed edge once, reverse once) and V − E + F = 2.
fn check_surface(n_vertices: usize, triangles: &[[usize; 3]]) {
    let mut edges = HashSet::new();
    for t in triangles {
        for e in 0..3 {
            assert!(edges.insert((t[e], t[(e + 1) % 3])), "directed edge used twice");
        }
    }
    for &(u, v) in &edges {
        assert!(edges.contains(&(v, u)), "open edge {u}->{v}");
    }
    let (v, e, f) = (n_vertices as i64, edges.len() as i64 / 2, triangles.len() as i64);
    assert_eq!(v - e + f, 2, "Euler characteristic");
}

fn check_hull(points: &[[f64; 3]], directions: &[[f64; 3]]) {
    let hull = convex_hull(points).unwrap();
    check_surface(hull.vertices().len(), hull.triangles());
    let hv: Vec<[f64; 3]> = hull.vertices().iter().map(|p| [p.x, p.y, p.z]).collect();
    for (k, &i) in hull.input_indices().iter().enumerate() {
        assert_eq!(points[i], hv[k], "hull vertex is not a bitwise copy of its input point");
    }
    for &d in directions {
        assert_eq!(support(points, d), support(&hv, d), "support differs along {d:?}");
    }
}

fn sphere_directions(n: usize) -> Vec<[f64; 3]> {
    // Fibonacci sphere: deterministic, well spread.
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - z * z).sqrt();
            let t = golden * i as f64;
            [r * t.cos(), r * t.sin(), z]
        })
        .collect()
}

#[test]
fn cube_with_interior_points_and_duplicates() {
    let mut pts = Vec::new();
    for x in [-1.0, 1.0] {
        for y in [-1.0, 1.0] {
            for z in [-1.0, 1.0] {
                pts.push([x, y, z]);
                pts.push([x, y, z]); // duplicate
            }
        }
    }
    pts.extend([[0.0, 0.0, 0.0], [0.5, -0.2, 0.9], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]); // inside / on faces
    let hull = convex_hull(&pts).unwrap();
    assert_eq!(hull.vertices().len(), 8);
    assert_eq!(hull.triangles().len(), 12);
    let facets = hull.facets();
    assert_eq!(facets.len(), 6, "coplanar triangle pairs merge into the 6 squares");
    for f in &facets {
        assert_eq!(f.vertices.len(), 4);
        assert!((f.normal.norm() - 1.0).abs() < 1e-15);
        assert_eq!(f.offset, 1.0);
        // Counter-clockwise seen from outside: the loop's area vector points along the normal.
        let p: Vec<_> = f.vertices.iter().map(|&i| hull.vertices()[i].coords).collect();
        let area = (p[1] - p[0]).cross(&(p[2] - p[0]));
        assert!(area.dot(&f.normal) > 0.0);
    }
    check_hull(&pts, &sphere_directions(200));
}

#[test]
fn integer_grid_is_maximally_degenerate() {
    // 5×5×5 lattice: every face has 25 coplanar points, every edge 5 collinear ones.
    let mut pts = Vec::new();
    for x in 0..5 {
        for y in 0..5 {
            for z in 0..5 {
                pts.push([x as f64, y as f64, z as f64]);
            }
        }
    }
    let hull = convex_hull(&pts).unwrap();
    let facets = hull.facets();
    assert_eq!(facets.len(), 6);
    for f in &facets {
        assert_eq!(f.offset.abs().max(4.0), 4.0);
    }
    check_hull(&pts, &sphere_directions(300));
    // The polytope's adjacency works for hill climbing and agrees with a scan.
    let poly = hull.to_polytope();
    assert!(poly.adjacency().is_some());
}

#[test]
fn near_coplanar_perturbations_stay_exact() {
    // A cube whose face points are pushed out by one ulp-sized amount: the hull must take
    // exactly the points that are extreme in exact arithmetic.
    let mut pts = Vec::new();
    for i in 0..11 {
        for j in 0..11 {
            let (u, v) = (i as f64 / 10.0 * 2.0 - 1.0, j as f64 / 10.0 * 2.0 - 1.0);
            let bump = if (i + j) % 3 == 0 { 1e-15 } else { 0.0 };
            pts.push([u, v, 1.0 + bump]);
            pts.push([u, v, -1.0 - bump]);
            pts.push([1.0 + bump, u, v]);
            pts.push([-1.0, u, v]);
        }
    }
    check_hull(&pts, &sphere_directions(500));
}

#[test]
fn sliver_triangles_of_a_thin_fan() {
    // Points on a circle of radius 1 with tiny angular steps plus two apexes: long sliver
    // triangles like those of real CAD meshes.
    let mut pts = vec![[0.0, 0.0, 1e-3], [0.0, 0.0, -1e-3]];
    for k in 0..2000 {
        let t = k as f64 * 1e-4;
        pts.push([t.cos(), t.sin(), 0.0]);
    }
    pts.push([-1.0, 0.0, 0.0]);
    let hull = convex_hull(&pts).unwrap();
    check_hull(&pts, &sphere_directions(400));
    let poly = ConvexPolytope::hull_of(&pts).unwrap();
    assert_eq!(poly.vertices().len(), hull.vertices().len());
}

#[test]
fn non_convex_mesh_points_are_contained() {
    // An L-shaped (non-convex) block: its hull must contain the notch corner's points and
    // have the outer corners only.
    let mut pts = Vec::new();
    for &(x, y) in &[(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)] {
        for z in [0.0, 1.0] {
            pts.push([x, y, z]);
        }
    }
    let hull = convex_hull(&pts).unwrap();
    assert_eq!(hull.vertices().len(), 10, "the two notch points are inside the hull");
    check_hull(&pts, &sphere_directions(200));
}

#[test]
fn distances_on_a_hull_agree_with_the_input_cloud() {
    let pts: Vec<[f64; 3]> =
        sphere_directions(300).into_iter().map(|d| [d[0], 2.0 * d[1], 0.5 * d[2]]).collect();
    let hulled = Shape::ConvexPolytope(ConvexPolytope::hull_of(&pts).unwrap());
    let cloud = Shape::ConvexPolytope(ConvexPolytope::new(pts.clone()).unwrap());
    let ball = Shape::Sphere(proxima_geom::shape::Sphere::new(0.25).unwrap());
    let settings = QuerySettings::default();
    for k in 0..20 {
        let t = [3.0 * (k as f64).cos(), 3.0 * (k as f64 * 0.7).sin(), 0.3 * k as f64 - 3.0];
        let pose = Pose::from_translation(t).unwrap();
        let a = distance(&hulled, &Pose::identity(), &ball, &pose, &settings).unwrap();
        let b = distance(&cloud, &Pose::identity(), &ball, &pose, &settings).unwrap();
        assert!((a.distance() - b.distance()).abs() < 1e-9, "{} vs {}", a.distance(), b.distance());
    }
}

#[test]
fn degenerate_inputs_are_errors() {
    let flat: Vec<[f64; 3]> = (0..20).map(|i| [i as f64, (i * i % 7) as f64, 0.0]).collect();
    assert!(matches!(convex_hull(&flat), Err(GeomError::Degenerate { .. })));
    let line: Vec<[f64; 3]> = (0..20).map(|i| [i as f64, 2.0 * i as f64, -(i as f64)]).collect();
    assert!(matches!(convex_hull(&line), Err(GeomError::Degenerate { .. })));
    assert!(matches!(convex_hull(&[[0.0; 3]; 10]), Err(GeomError::Degenerate { .. })));
    assert!(matches!(convex_hull(&[]), Err(GeomError::Degenerate { .. })));
    let tri = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]];
    assert!(matches!(convex_hull(&tri), Err(GeomError::Degenerate { .. })));
    let nan = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, f64::NAN]];
    assert!(matches!(convex_hull(&nan), Err(GeomError::NonFinite { .. })));
    let inf = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, f64::INFINITY, 0.0], [0.0, 0.0, 1.0]];
    assert!(matches!(convex_hull(&inf), Err(GeomError::NonFinite { .. })));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random clouds, some snapped to a coarse grid (exact coplanarities and collinearities).
    #[test]
    fn random_clouds(pts in prop::collection::vec(prop::array::uniform3(-1.0f64..1.0), 4..120),
                     snap in prop::bool::ANY) {
        let pts: Vec<[f64; 3]> = if snap {
            pts.iter().map(|p| p.map(|x| (x * 3.0).round() / 3.0)).collect()
        } else {
            pts
        };
        match convex_hull(&pts) {
            Ok(_) => check_hull(&pts, &sphere_directions(64)),
            // A snapped cloud may collapse onto a plane or line; the error must be Degenerate.
            Err(e) => prop_assert!(matches!(e, GeomError::Degenerate { .. }), "unexpected error {:?}", e),
        }
    }
}
