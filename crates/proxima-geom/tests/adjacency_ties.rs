//! Hill climbing with exact ties: on a cube whose square faces are fanned around a face-centre
//! vertex (coplanar, non-corner vertices) and whose coordinates are small integers, every
//! axis and diagonal direction produces exact ties between neighbours. From every start
//! vertex, the climb must reach the maximum value of the linear scan (the plateau walk must
//! neither stop on a tied non-optimal level nor miss a better corner).

use nalgebra::{Point3, Vector3};
use proxima_geom::shape::VertexAdjacency;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Cube [−1, 1]³ (corners 0..8) with a centre vertex on each face (8..14); each face is four
/// triangles around its centre, counter-clockwise seen from outside.
fn fanned_cube() -> (Vec<Point3<f64>>, Vec<[usize; 3]>) {
    let mut v: Vec<Point3<f64>> = Vec::new();
    for i in 0..8 {
        let c = |b: usize| if i & b != 0 { 1.0 } else { -1.0 };
        v.push(Point3::new(c(1), c(2), c(4)));
    }
    let corner = |x: f64, y: f64, z: f64| v.iter().position(|p| *p == Point3::new(x, y, z)).unwrap();
    let mut faces = Vec::new();
    let mut verts = v.clone();
    for axis in 0..3 {
        for sign in [-1.0, 1.0] {
            let mut centre = [0.0; 3];
            centre[axis] = sign;
            verts.push(Point3::from(centre));
            let ci = verts.len() - 1;
            // The face's corners in cyclic order around its normal.
            let (u, w) = ((axis + 1) % 3, (axis + 2) % 3);
            let ring: Vec<usize> = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .iter()
                .map(|&(a, b)| {
                    let mut p = [0.0; 3];
                    p[axis] = sign;
                    p[u] = a;
                    p[w] = b;
                    corner(p[0], p[1], p[2])
                })
                .collect();
            for k in 0..4 {
                let (i, j) = (ring[k], ring[(k + 1) % 4]);
                // (u, w, axis) is right-handed, so the ring is counter-clockwise seen from +axis.
                faces.push(if sign > 0.0 { [ci, i, j] } else { [ci, j, i] });
            }
        }
    }
    (verts, faces)
}

#[test]
fn climb_with_exact_ties_reaches_the_maximum() {
    let (v, f) = fanned_cube();
    let adj = VertexAdjacency::from_faces(&v, &f).expect("fanned cube is a convex surface");
    let mut dirs: Vec<Vector3<f64>> = Vec::new();
    for x in [-1.0, 0.0, 1.0] {
        for y in [-1.0, 0.0, 1.0] {
            for z in [-1.0, 0.0, 1.0] {
                if (x, y, z) != (0.0, 0.0, 0.0) {
                    dirs.push(Vector3::new(x, y, z));
                }
            }
        }
    }
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..50 {
        dirs.push(Vector3::from(core::array::from_fn(|_| rng.random_range(-1.0..1.0))));
    }
    for m in &dirs {
        let best = v.iter().map(|p| m.dot(&p.coords)).fold(f64::NEG_INFINITY, f64::max);
        for start in 0..v.len() as u32 {
            let mut hint = start;
            let i = adj.hill_climb(&v, m, &mut hint);
            assert_eq!(m.dot(&v[i].coords), best, "direction {m:?} from vertex {start}: stopped at {i}");
            assert_eq!(hint as usize, i);
        }
    }
}
