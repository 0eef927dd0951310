//! A shape as something to draw: a triangle mesh, a segment or a point, in the shape's local
//! frame.
//!
//! # What is drawn
//!
//! * **Polytopes** (box, aligned box, convex polytope, half-space polyhedron, triangle): the
//!   exact surface. The mesh is [`convex_hull`] of the shape's vertices — Shewchuk's exact
//!   orientation tests, every mesh vertex an input vertex bit for bit — so a robot link built
//!   from a mesh hull is drawn as exactly the hull the queries use. [`Fidelity::Exact`].
//! * **Curved and composite shapes** (sphere, ellipsoid, capsule, cylinder, cone, rounded
//!   shapes, Minkowski sums): the hull of support points s(m) for the directions m of a
//!   latitude–longitude grid (`LONGITUDES` × `LATITUDES` rings, no ring on the equator so a
//!   capsule's and cylinder's two rims are both sampled). Every vertex is a point of the shape,
//!   so the drawn solid lies inside it (an inscribed polytope; for a sphere of radius r the
//!   gap is at most r·(1 − cos(π/LONGITUDES)) ≈ 0.5 % of r). [`Fidelity::Inscribed`].
//! * **Flat polytopes** (all vertices coplanar, e.g. a flat half-space polyhedron) become their
//!   convex polygon, fanned into triangles; collinear ones a segment; a single point a point.
//! * **Lines** (unbounded) are drawn as a segment of ±[`LINE_HALF_LENGTH`] about their origin.
//!
//! Positions are `f64` here; the page stores them as `f32` (relative rounding 6e-8, far below a
//! pixel), see [`crate::page`].

use nalgebra::{Point3, Vector3};
use proxima_geom::shape::convex_hull;
use proxima_geom::{GeomError, Pose, Shape};

use crate::error::ViewerError;

/// Longitudes of the support-direction grid for curved shapes.
pub const LONGITUDES: usize = 32;
/// Latitude rings of the support-direction grid (even: no ring on the equator), plus the poles.
pub const LATITUDES: usize = 16;
/// Half length of the segment drawn for an (unbounded) line.
pub const LINE_HALF_LENGTH: f64 = 100.0;

/// How faithfully a [`Drawable`] shows its shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fidelity {
    /// The drawn surface is the shape's surface (up to the `f32` storage of the page).
    Exact,
    /// The drawn polytope is inscribed in the shape: its vertices are points of the shape.
    Inscribed,
}

impl Fidelity {
    /// `"exact"` or `"inscribed"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Fidelity::Exact => "exact",
            Fidelity::Inscribed => "inscribed",
        }
    }
}

/// A triangle mesh: positions and counter-clockwise (seen from outside) index triples.
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh {
    /// Vertex positions (local frame).
    pub positions: Vec<[f64; 3]>,
    /// Triangles as indices into `positions`.
    pub triangles: Vec<[u32; 3]>,
    /// Whether the mesh is the shape's surface or inscribed in it.
    pub fidelity: Fidelity,
}

/// What the page draws for one shape (local frame).
#[derive(Debug, Clone, PartialEq)]
pub enum Drawable {
    /// A closed surface or a flat polygon.
    Mesh(Mesh),
    /// A segment (a segment shape, a degenerate collinear polytope, a clipped line).
    Segment([[f64; 3]; 2]),
    /// A single point.
    Point([f64; 3]),
}

/// The drawable of `shape` (see the module docs for what is exact). Errors: a vertex set the
/// hull rejects as non-finite (not possible for a validated shape, reported rather than
/// assumed).
pub fn drawable(shape: &Shape) -> Result<Drawable, ViewerError> {
    let p3 = |p: Point3<f64>| [p.x, p.y, p.z];
    match shape {
        Shape::Point(p) => Ok(Drawable::Point(p3(p.position()))),
        Shape::Segment(s) => {
            let [a, b] = s.endpoints();
            Ok(Drawable::Segment([p3(a), p3(b)]))
        }
        Shape::Line(l) => {
            let (o, d) = (l.origin(), l.direction() * LINE_HALF_LENGTH);
            Ok(Drawable::Segment([p3(o - d), p3(o + d)]))
        }
        Shape::Triangle(t) => {
            let positions = t.vertices().map(p3).to_vec();
            Ok(Drawable::Mesh(Mesh { positions, triangles: vec![[0, 1, 2]], fidelity: Fidelity::Exact }))
        }
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            polytope(&corners([-h.x, -h.y, -h.z], [h.x, h.y, h.z]), Fidelity::Exact)
        }
        Shape::AlignedBox(b) => polytope(&corners(p3(b.min()), p3(b.max())), Fidelity::Exact),
        Shape::ConvexPolytope(p) => {
            polytope(&p.vertices().iter().map(|&v| p3(v)).collect::<Vec<_>>(), Fidelity::Exact)
        }
        Shape::Polyhedron(p) => {
            polytope(&p.vertices().iter().map(|&v| p3(v)).collect::<Vec<_>>(), Fidelity::Exact)
        }
        _ => polytope(&support_samples(shape), Fidelity::Inscribed),
    }
}

/// The 8 corners of the box [lo, hi].
fn corners(lo: [f64; 3], hi: [f64; 3]) -> Vec<[f64; 3]> {
    (0..8)
        .map(|k| {
            let pick = |bit: usize, i: usize| if k >> bit & 1 == 1 { hi[i] } else { lo[i] };
            [pick(0, 0), pick(1, 1), pick(2, 2)]
        })
        .collect()
}

/// Unit directions of the latitude–longitude grid: the two poles and `LATITUDES` rings at
/// polar angles (i + ½)·π / LATITUDES.
pub fn grid_directions() -> Vec<Vector3<f64>> {
    let mut dirs = vec![Vector3::z(), -Vector3::z()];
    for i in 0..LATITUDES {
        let polar = (i as f64 + 0.5) * std::f64::consts::PI / LATITUDES as f64;
        let (sp, cp) = polar.sin_cos();
        for j in 0..LONGITUDES {
            let az = j as f64 * std::f64::consts::TAU / LONGITUDES as f64;
            let (sa, ca) = az.sin_cos();
            dirs.push(Vector3::new(sp * ca, sp * sa, cp));
        }
    }
    dirs
}

/// Support points of `shape` (local frame) for every grid direction.
fn support_samples(shape: &Shape) -> Vec<[f64; 3]> {
    let id = Pose::identity();
    grid_directions().iter().filter_map(|m| shape.support_point(&id, m)).map(|p| [p.x, p.y, p.z]).collect()
}

/// The exact hull of `points` as a mesh, or the flat / collinear / single-point drawable when
/// the points span no volume.
fn polytope(points: &[[f64; 3]], fidelity: Fidelity) -> Result<Drawable, ViewerError> {
    match convex_hull(points) {
        Ok(hull) => Ok(Drawable::Mesh(Mesh {
            positions: hull.vertices().iter().map(|v| [v.x, v.y, v.z]).collect(),
            triangles: hull.triangles().iter().map(|t| t.map(|i| i as u32)).collect(),
            fidelity,
        })),
        Err(GeomError::Degenerate { .. }) => Ok(flat(points, fidelity)),
        Err(source) => Err(ViewerError::Geometry { at: "shape".into(), source }),
    }
}

/// The drawable of a point set without volume: a convex polygon, a segment or a point.
fn flat(points: &[[f64; 3]], fidelity: Fidelity) -> Drawable {
    let v = |p: &[f64; 3]| Vector3::from(*p);
    let Some(first) = points.first() else { return Drawable::Point([0.0; 3]) };
    let p0 = v(first);
    let far = |from: &Vector3<f64>, key: &dyn Fn(&Vector3<f64>) -> f64| {
        points.iter().map(v).fold((*from, 0.0), |best, p| if key(&p) > best.1 { (p, key(&p)) } else { best })
    };
    let (p1, d1) = far(&p0, &|p| (p - p0).norm());
    if d1 == 0.0 {
        return Drawable::Point(*first);
    }
    let u = (p1 - p0) / d1;
    let (p2, area) = far(&p0, &|p| u.cross(&(p - p0)).norm());
    // Collinear to rounding: the extreme points along u.
    if area <= 1e-12 * d1 {
        let along = |p: &[f64; 3]| u.dot(&(v(p) - p0));
        let lo = points.iter().min_by(|a, b| along(a).total_cmp(&along(b))).unwrap_or(first);
        let hi = points.iter().max_by(|a, b| along(a).total_cmp(&along(b))).unwrap_or(first);
        return Drawable::Segment([*lo, *hi]);
    }
    let w = u.cross(&(p2 - p0)).normalize().cross(&u);
    let planar: Vec<[f64; 2]> = points.iter().map(|p| [u.dot(&(v(p) - p0)), w.dot(&(v(p) - p0))]).collect();
    let ring = hull_2d(&planar);
    let positions: Vec<[f64; 3]> = ring.iter().map(|&i| points[i]).collect();
    let triangles = (1..positions.len().saturating_sub(1) as u32).map(|k| [0, k, k + 1]).collect();
    Drawable::Mesh(Mesh { positions, triangles, fidelity })
}

/// Indices of the 2D convex hull, counter-clockwise (Andrew's monotone chain; float
/// orientation is enough for drawing).
fn hull_2d(p: &[[f64; 2]]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a][0].total_cmp(&p[b][0]).then(p[a][1].total_cmp(&p[b][1])));
    order.dedup_by(|a, b| p[*a] == p[*b]);
    if order.len() < 3 {
        return order;
    }
    let cross = |o: usize, a: usize, b: usize| {
        (p[a][0] - p[o][0]) * (p[b][1] - p[o][1]) - (p[a][1] - p[o][1]) * (p[b][0] - p[o][0])
    };
    let mut ring: Vec<usize> = Vec::with_capacity(2 * order.len());
    for pass in [order.clone(), order.iter().rev().copied().collect()] {
        let start = ring.len();
        for &i in &pass {
            while ring.len() >= start + 2 && cross(ring[ring.len() - 2], ring[ring.len() - 1], i) <= 0.0 {
                ring.pop();
            }
            ring.push(i);
        }
        ring.pop();
    }
    ring
}

#[cfg(test)]
mod tests {
    use proxima_geom::shape::{Capsule, ConvexPolytope, Cuboid, Cylinder, Polyhedron, Sphere};

    use super::*;

    fn mesh(d: Drawable) -> Mesh {
        match d {
            Drawable::Mesh(m) => m,
            other => panic!("expected a mesh, got {other:?}"),
        }
    }

    /// Twice the signed volume enclosed by the mesh, divided by 3 (divergence theorem):
    /// Σ det[a b c] / 6 over the outward triangles.
    fn volume(m: &Mesh) -> f64 {
        m.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| Vector3::from(m.positions[i as usize]));
                a.dot(&b.cross(&c)) / 6.0
            })
            .sum()
    }

    #[test]
    fn a_box_is_drawn_as_its_8_corners_with_its_volume() {
        let m = mesh(drawable(&Shape::Cuboid(Cuboid::new([1.0, 2.0, 3.0]).unwrap())).unwrap());
        assert_eq!(m.fidelity, Fidelity::Exact);
        assert_eq!(m.positions.len(), 8);
        // 6 square faces, two triangles each; volume 2·4·6 exactly (integer corners).
        assert_eq!(m.triangles.len(), 12);
        assert_eq!(volume(&m), 48.0);
        for p in &m.positions {
            assert_eq!(p.map(f64::abs), [1.0, 2.0, 3.0]);
        }
    }

    #[test]
    fn a_polytope_keeps_only_its_hull_vertices_bit_for_bit() {
        // The unit cube's corners plus its centre and a face centre: both are dropped.
        let mut pts: Vec<[f64; 3]> = corners([0.0; 3], [1.0; 3]);
        pts.push([0.5, 0.5, 0.5]);
        pts.push([0.5, 0.5, 1.0 / 3.0]);
        let m = mesh(drawable(&Shape::ConvexPolytope(ConvexPolytope::new(pts.clone()).unwrap())).unwrap());
        assert!((volume(&m) - 1.0).abs() <= 1e-15);
        for p in &m.positions {
            assert!(pts[..8].contains(p), "{p:?} is not a corner");
        }
    }

    #[test]
    fn a_prism_polyhedron_is_drawn_with_its_vertex_count() {
        // The regular hexagonal prism of apothem 1, half height 1: 12 vertices, volume
        // 6 · (1/√3) · 1 · 2 = 12/√3 (six triangles of base 2/√3, height 1, times height 2).
        let mut hs = Vec::new();
        for j in 0..6 {
            let (s, c) = (j as f64 * std::f64::consts::PI / 3.0).sin_cos();
            hs.push(([c, s, 0.0], 1.0));
        }
        hs.push(([0.0, 0.0, 1.0], 1.0));
        hs.push(([0.0, 0.0, -1.0], 1.0));
        let m = mesh(drawable(&Shape::Polyhedron(Polyhedron::new(hs).unwrap())).unwrap());
        assert_eq!(m.positions.len(), 12);
        // tolerance: the vertices come from 3×3 solves, rounding ~1e-16 relative per vertex
        assert!((volume(&m) - 12.0 / 3f64.sqrt()).abs() <= 1e-12);
    }

    #[test]
    fn curved_shapes_are_inscribed_and_close() {
        // Every vertex is a point of the shape (support points), and the mesh volume is below
        // the shape's and within the grid's sagitta bound of it.
        let shapes = [
            (Shape::Sphere(Sphere::new(2.0).unwrap()), 4.0 / 3.0 * std::f64::consts::PI * 8.0),
            (
                Shape::Cylinder(Cylinder::new(1.0, 2.0).unwrap()),
                std::f64::consts::PI * 4.0, // π r² · 2h
            ),
            (
                Shape::Capsule(Capsule::new(1.0, 1.0).unwrap()),
                std::f64::consts::PI * 2.0 + 4.0 / 3.0 * std::f64::consts::PI,
            ),
        ];
        for (shape, exact) in shapes {
            let m = mesh(drawable(&shape).unwrap());
            assert_eq!(m.fidelity, Fidelity::Inscribed);
            let v = volume(&m);
            // A 32-gon inscribed in a circle keeps cos-weighted area ≥ 1 − 2π²/32²/3 ≈ 0.994;
            // latitude rings cost a similar factor: 3 % covers both.
            assert!(v < exact && v > 0.97 * exact, "{shape:?}: {v} vs {exact}");
            for p in &m.positions {
                let n = Vector3::from(*p).normalize();
                // on the surface: no support value is exceeded
                let h = shape.support_value(&Pose::identity(), &n);
                assert!(Vector3::from(*p).dot(&n) <= h + 1e-12);
            }
        }
    }

    #[test]
    fn flat_sets_become_polygons_segments_and_points() {
        let square =
            vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 0.0]];
        let m = mesh(drawable(&Shape::ConvexPolytope(ConvexPolytope::new(square).unwrap())).unwrap());
        assert_eq!(m.positions.len(), 4, "the centre is not on the ring");
        assert_eq!(m.triangles.len(), 2);
        let line = vec![[0.0, 0.0, 0.0], [2.0, 2.0, 2.0], [1.0, 1.0, 1.0]];
        assert_eq!(
            drawable(&Shape::ConvexPolytope(ConvexPolytope::new(line).unwrap())).unwrap(),
            Drawable::Segment([[0.0; 3], [2.0; 3]])
        );
        let point = vec![[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]];
        assert_eq!(
            drawable(&Shape::ConvexPolytope(ConvexPolytope::new(point).unwrap())).unwrap(),
            Drawable::Point([1.0, 2.0, 3.0])
        );
    }
}
