//! [`FacetPolyhedron`]: the half-space form DQP3 works on, with facet adjacency.
//!
//! # Maths
//!
//! Constraints are stored as in the spec: `a_j·x ≥ b_j` with **inward** unit normals a_j
//! (an outward half-space u·x ≤ h becomes a = −u, b = −h).
//!
//! Each facet's polygon is computed by clipping a large square in its plane (half-size
//! [`CLIP_EXTENT`] × (1 + max |b|)) against every other half-space (Sutherland–Hodgman, each
//! polygon edge labelled with the constraint that produced it). This gives, in O(m²):
//! * the **adjacency** of facet k (plus its near-twins: same-side planes with normals within
//!   ~1e-9, which are not clipped against, only listed): the constraints labelling edges of its polygon (edges of
//!   zero length included, so facets meeting only at a degenerate vertex are neighbours too —
//!   a superset, harmless for the alpha step);
//! * **boundedness**: a polygon that keeps an edge of the initial square is unbounded;
//! * the **vertices** (polygon corners), their average (a strictly interior point when the
//!   polyhedron has volume: the centroid start of DQP3) and the circumradius about it.
//!
//! Why adjacency is exact for the alpha step: a point moving inside facet k's plane leaves the
//! polyhedron only through an edge of facet k's polygon, and a 2D convex polygon is the
//! intersection of its edge half-planes, so only k's neighbours can block it.
//!
//! [`FacetPolyhedron::from_vertices`] does not clip: it takes the exact convex hull of the
//! points ([`crate::shape::convex_hull`]), groups its triangles into near-coplanar facets and
//! verifies the result against the points (`hull_facets.rs`); its polygons are the facets'
//! boundary loops (input points), its adjacency the facets sharing a hull vertex, and it keeps
//! the hull so that the query layer can check DQP3's answers against the points themselves.
//!
//! # Edge cases → errors
//! Empty input, NaN/∞, zero normals, an unbounded set ("not closed"), an empty set, a flat set
//! (no interior point), vertex sets with fewer than 4 affinely independent points, a facet
//! form that fails its check against the vertex set.

use std::sync::Arc;

use nalgebra::{Point3, Vector3};

use super::hull_facets::{HullFacets, hull_facets};
use crate::error::GeomError;
use crate::shape::Polyhedron;

/// Half-size of the initial clipping square, relative to 1 + max |b|. A polyhedron that
/// extends beyond it is reported as unbounded.
pub const CLIP_EXTENT: f64 = 1e7;

/// A convex polyhedron { x : a_j·x ≥ b_j } with inward unit normals, its facet adjacency and
/// an interior start point (structure-of-arrays normals for a branch-light ratio test).
#[derive(Debug, Clone)]
pub struct FacetPolyhedron {
    pub(super) ax: Vec<f64>,
    pub(super) ay: Vec<f64>,
    pub(super) az: Vec<f64>,
    pub(super) b: Vec<f64>,
    /// The same planes packed per facet (a, b), for ratio tests over adjacency lists.
    pub(super) planes: Vec<[f64; 4]>,
    /// CSR adjacency: neighbours of j are `adj[adj_start[j]..adj_start[j + 1]]`.
    pub(super) adj_start: Vec<u32>,
    pub(super) adj: Vec<u32>,
    pub(super) centroid: Vector3<f64>,
    pub(super) radius: f64,
    /// radius + |centroid|: a bound on |u| over the object's points (per-step tolerances and
    /// the certificate's distortion term use it; stored, not re-rooted every step).
    pub(super) reach: f64,
    polygons: Vec<Vec<Point3<f64>>>,
    /// The exact hull behind a facet form built from vertices ([`Self::from_vertices`]).
    hull: Option<Arc<HullFacets>>,
}

type Polygon = Vec<(Vector3<f64>, u32)>;
const BOX: u32 = u32::MAX;

impl FacetPolyhedron {
    /// From inward unit-normal constraints a·x ≥ b (normals are normalized, b scaled alike).
    pub fn from_inward(constraints: &[([f64; 3], f64)]) -> Result<Self, GeomError> {
        if constraints.is_empty() {
            return Err(GeomError::Degenerate { what: "polyhedron has no facets" });
        }
        let mut normals = Vec::with_capacity(constraints.len());
        let mut offsets = Vec::with_capacity(constraints.len());
        for (a, b) in constraints {
            if a.iter().any(|v| !v.is_finite()) {
                return Err(GeomError::NonFinite { what: "facet normal" });
            }
            if !b.is_finite() {
                return Err(GeomError::NonFinite { what: "facet offset" });
            }
            let v = Vector3::from(*a);
            let len = v.norm();
            if len == 0.0 {
                return Err(GeomError::ZeroAxis { what: "facet normal" });
            }
            normals.push(v / len);
            offsets.push(b / len);
        }
        Self::build(normals, offsets)
    }

    /// From outward half-spaces u·x ≤ h (the convention of [`Polyhedron`]).
    pub fn from_outward(halfspaces: &[([f64; 3], f64)]) -> Result<Self, GeomError> {
        let inward: Vec<([f64; 3], f64)> =
            halfspaces.iter().map(|(u, h)| ([-u[0], -u[1], -u[2]], -h)).collect();
        Self::from_inward(&inward)
    }

    /// From a validated [`Polyhedron`].
    pub fn from_polyhedron(p: &Polyhedron) -> Result<Self, GeomError> {
        let hs: Vec<([f64; 3], f64)> =
            p.normals().iter().zip(p.offsets()).map(|(n, d)| ([n.x, n.y, n.z], *d)).collect();
        Self::from_outward(&hs)
    }

    /// The convex hull of a vertex set, as facets: the exact hull of the points
    /// ([`crate::shape::convex_hull`]), its triangles grouped into facets when coplanar to
    /// [`FACET_MERGE_TOLERANCE`](super::FACET_MERGE_TOLERANCE) × (1 + max |v|), then verified:
    /// every hull triangle in exactly one facet, every facet's corners on its plane to that
    /// tolerance, every input point inside every facet (to 8 ulps). Interior points and
    /// duplicates are allowed.
    ///
    /// Errors: [`GeomError::NonFinite`] for NaN/∞, [`GeomError::Degenerate`] for fewer than 4
    /// points, a flat or collinear set, or a facet form that fails its verification.
    pub fn from_vertices(points: &[[f64; 3]]) -> Result<Self, GeomError> {
        if points.len() < 4 {
            return Err(GeomError::Degenerate {
                what: "vertex set needs at least 4 points for a solid hull",
            });
        }
        let h = hull_facets(points)?;
        let m = h.normals.len();
        let count = h.vertices.len() as f64;
        let centroid = h.vertices.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / count;
        // The hull's circumradius, enlarged for the facet form's excess over the hull (its
        // planes lie within the merge tolerance of the hull's corners): DQP3's certificate
        // needs a bound on |y − centroid| over the facet form.
        let radius = h.vertices.iter().fold(0.0f64, |s, p| s.max((p.coords - centroid).norm()))
            * (1.0 + 1e-6)
            + h.tolerance;
        let inward: Vec<Vector3<f64>> = h.normals.iter().map(|n| -n).collect();
        let b: Vec<f64> = h.offsets.iter().map(|o| -o).collect();
        let min_slack = (0..m).map(|j| inward[j].dot(&centroid) - b[j]).fold(f64::INFINITY, f64::min);
        if min_slack <= 1e-9 * (1.0 + radius) {
            return Err(GeomError::Degenerate { what: "vertex set is flat (no interior point)" });
        }
        let polygons =
            h.loops.iter().map(|l| l.iter().map(|&i| h.vertices[i as usize]).collect::<Vec<_>>()).collect();
        Ok(Self {
            ax: inward.iter().map(|n| n.x).collect(),
            ay: inward.iter().map(|n| n.y).collect(),
            az: inward.iter().map(|n| n.z).collect(),
            planes: packed(&inward, &b),
            b,
            adj_start: h.nb_start.clone(),
            adj: h.neighbours.clone(),
            centroid,
            radius,
            reach: radius + centroid.norm(),
            polygons,
            hull: Some(Arc::new(h)),
        })
    }

    /// The exact hull behind a facet form built by [`Self::from_vertices`].
    pub(crate) fn hull(&self) -> Option<&HullFacets> {
        self.hull.as_deref()
    }

    fn build(normals: Vec<Vector3<f64>>, offsets: Vec<f64>) -> Result<Self, GeomError> {
        let m = normals.len();
        let bmax = offsets.iter().fold(0.0f64, |s, v| s.max(v.abs()));
        let extent = CLIP_EXTENT * (1.0 + bmax);
        let tol = 1e-12 * (1.0 + bmax);
        let mut adj_start = Vec::with_capacity(m + 1);
        let mut adj = Vec::new();
        let mut polygons = Vec::with_capacity(m);
        adj_start.push(0u32);
        let (mut sum, mut count) = (Vector3::zeros(), 0usize);
        for k in 0..m {
            let a = normals[k];
            let o = a * offsets[k];
            let u = a.cross(&if a.x.abs() < 0.6 { Vector3::x() } else { Vector3::y() }).normalize();
            let v = a.cross(&u);
            let mut poly: Polygon = vec![
                (o + (u + v) * extent, BOX),
                (o + (-u + v) * extent, BOX),
                (o + (-u - v) * extent, BOX),
                (o + (u - v) * extent, BOX),
            ];
            let mut twins = Vec::new();
            for j in 0..m {
                if j == k || poly.is_empty() {
                    continue;
                }
                // A (nearly) parallel, same-side plane would cut the huge square along a
                // meaningless line: it is a twin of facet k (or redundant), not a polygon edge.
                if normals[j].dot(&a) > 0.0 && normals[j].cross(&a).norm_squared() < 1e-18 {
                    twins.push(j as u32);
                    continue;
                }
                poly = clip(&poly, &normals[j], offsets[j], j as u32, tol);
            }
            if poly.iter().any(|(_, l)| *l == BOX) {
                return Err(GeomError::Degenerate { what: "polyhedron is unbounded (facets do not close)" });
            }
            // Re-derive each corner from its three planes (the clipped coordinates carry the
            // round-off of the huge initial square).
            let np = poly.len();
            let refined: Vec<(Vector3<f64>, u32)> = (0..np)
                .map(|i| {
                    let (pt, l) = poly[i];
                    let lp = poly[(i + np - 1) % np].1 as usize;
                    let m3 = nalgebra::Matrix3::from_rows(&[
                        a.transpose(),
                        normals[lp].transpose(),
                        normals[l as usize].transpose(),
                    ]);
                    let rhs = Vector3::new(offsets[k], offsets[lp], offsets[l as usize]);
                    let refined = if lp != l as usize && m3.determinant().abs() > 1e-9 {
                        m3.lu().solve(&rhs).filter(|q| (q - pt).norm() <= 1e-6 * (1.0 + pt.norm()))
                    } else {
                        None
                    };
                    (refined.unwrap_or(pt), l)
                })
                .collect();
            let poly = refined;
            let mut nb: Vec<u32> = poly.iter().map(|(_, l)| *l).collect();
            if !poly.is_empty() {
                nb.extend(&twins);
            }
            nb.sort_unstable();
            nb.dedup();
            adj.extend(nb);
            adj_start.push(adj.len() as u32);
            for (p, _) in &poly {
                sum += p;
                count += 1;
            }
            polygons.push(poly.iter().map(|(p, _)| Point3::from(*p)).collect());
        }
        if count == 0 {
            return Err(GeomError::Degenerate {
                what: "polyhedron is empty (half-spaces have no common point)",
            });
        }
        // Symmetric closure (a zero-length edge at a degenerate vertex may survive the clipping
        // tolerance in one polygon only).
        let mut lists: Vec<Vec<u32>> =
            (0..m).map(|k| adj[adj_start[k] as usize..adj_start[k + 1] as usize].to_vec()).collect();
        for k in 0..m {
            for idx in 0..lists[k].len() {
                let j = lists[k][idx] as usize;
                if !lists[j].contains(&(k as u32)) {
                    lists[j].push(k as u32);
                }
            }
        }
        let (mut adj_start, mut adj) = (vec![0u32], Vec::with_capacity(adj.len()));
        for mut l in lists {
            l.sort_unstable();
            adj.extend(l);
            adj_start.push(adj.len() as u32);
        }
        let centroid = sum / count as f64;
        let min_slack = (0..m).map(|j| normals[j].dot(&centroid) - offsets[j]).fold(f64::INFINITY, f64::min);
        let radius =
            polygons.iter().flatten().fold(0.0f64, |s, p: &Point3<f64>| s.max((p.coords - centroid).norm()));
        if min_slack <= 1e-9 * (1.0 + radius) {
            return Err(GeomError::Degenerate { what: "polyhedron is empty or flat (no interior point)" });
        }
        Ok(Self {
            ax: normals.iter().map(|n| n.x).collect(),
            ay: normals.iter().map(|n| n.y).collect(),
            az: normals.iter().map(|n| n.z).collect(),
            planes: packed(&normals, &offsets),
            b: offsets,
            adj_start,
            adj,
            centroid,
            radius,
            reach: radius + centroid.norm(),
            polygons,
            hull: None,
        })
    }

    /// Number of facets (constraints).
    pub fn num_facets(&self) -> usize {
        self.b.len()
    }
    /// Inward unit normal of facet j (object frame).
    pub fn normal(&self, j: usize) -> Vector3<f64> {
        // From the packed plane (one bounds check and one cache line; the same numbers).
        let [ax, ay, az, _] = self.planes[j];
        Vector3::new(ax, ay, az)
    }
    /// Offset b_j of facet j (a_j·x ≥ b_j).
    pub fn offset(&self, j: usize) -> f64 {
        self.b[j]
    }
    /// The neighbours of facet j (facets sharing an edge or a vertex with it).
    pub fn neighbours(&self, j: usize) -> &[u32] {
        &self.adj[self.adj_start[j] as usize..self.adj_start[j + 1] as usize]
    }
    /// The interior start point (average of the facet polygons' corners).
    pub fn centroid(&self) -> Point3<f64> {
        Point3::from(self.centroid)
    }
    /// max |v − centroid| over the vertices.
    pub fn circumradius(&self) -> f64 {
        self.radius
    }
    /// The polygon of facet j (corners in order; empty for a redundant facet).
    pub fn facet_polygon(&self, j: usize) -> &[Point3<f64>] {
        &self.polygons[j]
    }
    /// The distinct vertices: the hull vertices (input points) for a facet form built from
    /// vertices, else the polygon corners merged within 1e-9 × (1 + circumradius).
    pub fn vertices(&self) -> Vec<Point3<f64>> {
        if let Some(h) = &self.hull {
            return h.vertices.clone();
        }
        let tol = 1e-9 * (1.0 + self.radius);
        let mut out: Vec<Point3<f64>> = Vec::new();
        for p in self.polygons.iter().flatten() {
            if !out.iter().any(|q| (q - p).norm() <= tol) {
                out.push(*p);
            }
        }
        out
    }
    /// min_j (a_j·x − b_j): ≥ 0 inside (object frame).
    pub fn min_slack(&self, x: &Point3<f64>) -> f64 {
        (0..self.num_facets())
            .map(|j| self.normal(j).dot(&x.coords) - self.b[j])
            .fold(f64::INFINITY, f64::min)
    }
}

/// (a, b) per facet, packed.
fn packed(normals: &[Vector3<f64>], offsets: &[f64]) -> Vec<[f64; 4]> {
    normals.iter().zip(offsets).map(|(n, b)| [n.x, n.y, n.z, *b]).collect()
}

/// Sutherland–Hodgman clip of a labelled polygon by a·x ≥ b (label `j` on the new edge).
fn clip(poly: &Polygon, a: &Vector3<f64>, b: f64, j: u32, tol: f64) -> Polygon {
    let vals: Vec<f64> = poly.iter().map(|(p, _)| a.dot(p) - b).collect();
    if vals.iter().all(|&v| v >= -tol) {
        return poly.clone();
    }
    let n = poly.len();
    let mut out = Vec::with_capacity(n + 1);
    for i in 0..n {
        let (p, l) = poly[i];
        let q = poly[(i + 1) % n].0;
        let (vp, vq) = (vals[i], vals[(i + 1) % n]);
        let (pin, qin) = (vp >= -tol, vq >= -tol);
        if pin {
            out.push((p, l));
        }
        if pin != qin {
            let t = vp / (vp - vq);
            let x = p + (q - p) * t;
            out.push((x, if pin { j } else { l }));
        }
    }
    // Drop consecutive duplicates created when a vertex lies on the clip line.
    out.dedup_by(|x, y| (x.0 - y.0).norm() == 0.0);
    out
}
