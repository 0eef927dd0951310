//! The exact convex hull of a 3D point set: [`convex_hull`].
//!
//! # Maths
//!
//! The hull is grown incrementally (Quickhull order: each face keeps the points outside its
//! plane, and the farthest of them is inserted next). Inserting a point p removes the faces
//! whose plane p lies strictly above (the *visible* faces, a connected cap of the surface) and
//! joins p to each edge of the cap's boundary (the *horizon*). Every decision is the sign of
//!
//! ```text
//! orient3d(a, b, c, p) = det [a − p; b − p; c − p],
//! ```
//!
//! evaluated **exactly** on the input doubles by Shewchuk's adaptive predicates (the `robust`
//! crate): a fast floating-point filter, exact expansion arithmetic when the filter cannot
//! decide. With exact signs, the surface after each insertion *is* the hull of the points
//! inserted so far — no tolerance, no facet merging needed to stay consistent — so:
//!
//! * every hull vertex is an input point, copied bit for bit;
//! * every input point lies on or below every face plane, exactly; the constructor checks this
//!   for every (point, face) pair before returning and inserts any point found outside;
//! * every triangle has non-zero area (its corners are exactly not collinear) and the faces
//!   form a closed, consistently oriented surface.
//!
//! A face coplanar with p is not visible. A triangle then built on the horizon edge it shares
//! with a visible face is still non-degenerate: p is above the visible neighbour's plane, so it
//! lies strictly beyond the shared edge inside the coplanar face's plane. Faces of a flat
//! polygon therefore come out as several exactly coplanar triangles; [`ConvexHull::facets`]
//! merges them into polygons. Points inside a face or on an edge may remain as surface
//! vertices (harmless for support functions and hill climbing).
//!
//! # Edge cases → errors
//!
//! Non-finite coordinates → [`GeomError::NonFinite`]. Fewer than 4 distinct points, all points
//! collinear, or all points coplanar (no volume: a flat mesh) → [`GeomError::Degenerate`]
//! naming which. Duplicate points are ignored (the first copy is kept).
//!
//! Cost: expected O(n log n) orientation tests for the construction plus the n × faces final
//! containment check (exact filter first; a hull is built once per mesh and cached).

use std::collections::HashMap;

use nalgebra::{Point3, Vector3};
use robust::{Coord3D, orient2d, orient3d};

use super::adjacency::VertexAdjacency;
use super::{ConvexPolytope, VertexLanes};
use crate::error::GeomError;

/// The convex hull of a point set: its vertices (exact copies of input points) and an
/// outward-oriented triangulation of its surface. Built by [`convex_hull`].
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexHull {
    vertices: Vec<Point3<f64>>,
    input_indices: Vec<usize>,
    triangles: Vec<[usize; 3]>,
}

/// A face of the hull: a maximal set of exactly coplanar adjacent triangles, as a polygon.
#[derive(Debug, Clone, PartialEq)]
pub struct HullFacet {
    /// Outward unit normal (from the best-conditioned triangle of the facet).
    pub normal: Vector3<f64>,
    /// max over the facet's vertices of `normal · v`: the plane `normal · x = offset` touches
    /// the facet and (up to the rounding of `normal`) has the hull below it.
    pub offset: f64,
    /// The boundary loop, counter-clockwise seen from outside (indices into
    /// [`ConvexHull::vertices`]); collinear boundary points are kept.
    pub vertices: Vec<usize>,
}

impl ConvexHull {
    /// The hull's vertices: exact copies of input points.
    pub fn vertices(&self) -> &[Point3<f64>] {
        &self.vertices
    }

    /// For each hull vertex, its index in the input slice.
    pub fn input_indices(&self) -> &[usize] {
        &self.input_indices
    }

    /// The surface triangles, counter-clockwise seen from outside (indices into
    /// [`ConvexHull::vertices`]).
    pub fn triangles(&self) -> &[[usize; 3]] {
        &self.triangles
    }

    /// The facets: adjacent triangles merged when exactly coplanar (exact orientation test).
    pub fn facets(&self) -> Vec<HullFacet> {
        let n_tri = self.triangles.len();
        let twin = self.edge_twins();
        // Union–find over triangles joined across exactly coplanar edges.
        let mut parent: Vec<usize> = (0..n_tri).collect();
        fn find(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        for (t, tri) in self.triangles.iter().enumerate() {
            for e in 0..3 {
                let u = twin[3 * t + e] / 3;
                if u <= t {
                    continue;
                }
                let other = self.triangles[u];
                let apex = other.iter().copied().find(|k| !tri.contains(k)).unwrap_or(other[0]);
                let p = |i: usize| coord(&self.vertices[i]);
                if orient3d(p(tri[0]), p(tri[1]), p(tri[2]), p(apex)) == 0.0 {
                    let (a, b) = (find(&mut parent, t), find(&mut parent, u));
                    parent[a] = b;
                }
            }
        }
        let group: Vec<usize> = (0..n_tri).map(|t| find(&mut parent, t)).collect();
        let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
        for (t, &g) in group.iter().enumerate() {
            members.entry(g).or_default().push(t);
        }
        let mut roots: Vec<usize> = members.keys().copied().collect();
        roots.sort_unstable();
        roots.into_iter().map(|root| self.facet_of(&members[&root], &twin, &group)).collect()
    }

    /// `twin[3t + e]` = 3u + f when edge e of triangle t is edge f of triangle u (reversed).
    fn edge_twins(&self) -> Vec<usize> {
        let mut by_edge: HashMap<(usize, usize), usize> = HashMap::with_capacity(3 * self.triangles.len());
        for (t, tri) in self.triangles.iter().enumerate() {
            for e in 0..3 {
                by_edge.insert((tri[e], tri[(e + 1) % 3]), 3 * t + e);
            }
        }
        let mut twin = vec![0; 3 * self.triangles.len()];
        for (t, tri) in self.triangles.iter().enumerate() {
            for e in 0..3 {
                // The surface is closed (checked at construction): every reverse edge exists.
                twin[3 * t + e] = by_edge[&(tri[(e + 1) % 3], tri[e])];
            }
        }
        twin
    }

    /// The polygon of the facet made of triangles `tris` (`group[t]` names each triangle's
    /// facet).
    fn facet_of(&self, tris: &[usize], twin: &[usize], group: &[usize]) -> HullFacet {
        // Normal from the triangle with the largest cross product (best conditioned).
        let mut best = Vector3::zeros();
        for &t in tris {
            let [a, b, c] = self.triangles[t].map(|i| self.vertices[i]);
            let n = (b - a).cross(&(c - a));
            if n.norm_squared() > best.norm_squared() {
                best = n;
            }
        }
        let normal = best.normalize();
        // Boundary edges: those whose twin lies in another facet; chain them into a loop.
        let mut next: HashMap<usize, usize> = HashMap::new();
        for &t in tris {
            let tri = self.triangles[t];
            for e in 0..3 {
                if group[twin[3 * t + e] / 3] != group[t] {
                    next.insert(tri[e], tri[(e + 1) % 3]);
                }
            }
        }
        let start = next.keys().copied().min().unwrap_or(0);
        let mut vertices = vec![start];
        let mut v = next.get(&start).copied().unwrap_or(start);
        while v != start && vertices.len() <= next.len() {
            vertices.push(v);
            v = next.get(&v).copied().unwrap_or(start);
        }
        let offset =
            vertices.iter().map(|&i| normal.dot(&self.vertices[i].coords)).fold(f64::NEG_INFINITY, f64::max);
        HullFacet { normal, offset, vertices }
    }

    /// The hull as a [`ConvexPolytope`] with its surface adjacency (hill-climbing supports).
    pub fn to_polytope(&self) -> ConvexPolytope {
        // The surface is an exact hull, so the adjacency needs only its topology (the float
        // convexity check of `with_faces` can reject an exact sliver triangle).
        let adjacency = VertexAdjacency::from_exact_hull(&self.vertices, &self.triangles);
        ConvexPolytope {
            lanes: VertexLanes::new(&self.vertices),
            extent: super::max_norm(&self.vertices),
            center: super::box_center(&self.vertices),
            vertices: self.vertices.clone(),
            adjacency: None,
            table: None,
            cells: Default::default(),
        }
        .with_adjacency(adjacency)
    }
}

impl ConvexPolytope {
    /// The convex hull of `points` (any number ≥ 4 of finite points spanning a volume;
    /// interior points and duplicates allowed) with its surface adjacency. See [`convex_hull`].
    pub fn hull_of(points: &[[f64; 3]]) -> Result<Self, GeomError> {
        Ok(convex_hull(points)?.to_polytope())
    }
}

/// The exact convex hull of `points`: grown incrementally with Shewchuk's exact orientation
/// predicates, so the hull vertices are bitwise copies of input points, every input point lies
/// on or below every face plane exactly (checked before returning), every triangle has
/// non-zero area and the surface is closed and consistently oriented.
///
/// Errors: [`GeomError::NonFinite`] for NaN/∞, [`GeomError::Degenerate`] when the points do
/// not span a volume (fewer than 4 distinct points, collinear or coplanar sets).
pub fn convex_hull(points: &[[f64; 3]]) -> Result<ConvexHull, GeomError> {
    if points.iter().flatten().any(|v| !v.is_finite()) {
        return Err(GeomError::NonFinite { what: "hull point" });
    }
    // Distinct points, first copy kept (bitwise identity; -0.0 and 0.0 are the same point).
    let mut seen: HashMap<[u64; 3], ()> = HashMap::with_capacity(points.len());
    let mut ids: Vec<usize> = Vec::with_capacity(points.len());
    for (i, p) in points.iter().enumerate() {
        let key = p.map(|x| (x + 0.0).to_bits());
        if seen.insert(key, ()).is_none() {
            ids.push(i);
        }
    }
    if ids.len() < 4 {
        return Err(GeomError::Degenerate { what: "hull needs at least 4 distinct points" });
    }
    let pts: Vec<Point3<f64>> = ids.iter().map(|&i| Point3::from(points[i])).collect();
    let mut builder = Builder::new(&pts)?;
    builder.run();
    if builder.inconsistent {
        return Err(GeomError::Degenerate {
            what: "hull: orientation tests contradict each other (coordinates too far apart in magnitude for exact arithmetic)",
        });
    }
    let hull = builder.finish(&ids);
    // A closed surface around a volume has at least 4 vertices and 4 triangles, and Euler's
    // formula for triangulated spheres (2V − 4 = F); contradictory signs can leave less.
    if hull.vertices.len() < 4 || hull.triangles.len() != 2 * hull.vertices.len() - 4 {
        return Err(GeomError::Degenerate {
            what: "hull: orientation tests contradict each other (coordinates too far apart in magnitude for exact arithmetic)",
        });
    }
    Ok(hull)
}

fn coord(p: &Point3<f64>) -> Coord3D<f64> {
    Coord3D { x: p.x, y: p.y, z: p.z }
}

/// Exactly collinear: all three coordinate-plane projections have zero orientation.
fn collinear(a: &Point3<f64>, b: &Point3<f64>, c: &Point3<f64>) -> bool {
    use robust::Coord;
    let proj = |p: &Point3<f64>, i: usize, j: usize| Coord { x: p[i], y: p[j] };
    [(0, 1), (1, 2), (0, 2)]
        .iter()
        .all(|&(i, j)| orient2d(proj(a, i, j), proj(b, i, j), proj(c, i, j)) == 0.0)
}

const NONE: u32 = u32::MAX;

/// A triangle of the growing surface: corners counter-clockwise seen from outside,
/// `nbr[e]` the face across edge (v[e], v[e+1]), and the points strictly above its plane.
struct Face {
    v: [u32; 3],
    nbr: [u32; 3],
    alive: bool,
    outside: Vec<u32>,
    /// Float plane for choosing the farthest outside point (a heuristic only).
    normal: Vector3<f64>,
}

struct Builder<'a> {
    pts: &'a [Point3<f64>],
    faces: Vec<Face>,
    /// Faces that may have outside points.
    pending: Vec<u32>,
    /// Scratch: visit stamps per face, horizon start per vertex.
    stamp: Vec<u32>,
    epoch: u32,
    start_of: Vec<u32>,
    start_epoch: Vec<u32>,
    /// Set when the orientation tests contradicted each other (possible only when their
    /// arithmetic overflows or underflows): the construction stops with an error.
    inconsistent: bool,
}

impl<'a> Builder<'a> {
    fn new(pts: &'a [Point3<f64>]) -> Result<Self, GeomError> {
        let simplex = initial_simplex(pts)?;
        let mut b = Builder {
            pts,
            faces: Vec::new(),
            pending: Vec::new(),
            stamp: Vec::new(),
            epoch: 0,
            start_of: vec![NONE; pts.len()],
            start_epoch: vec![0; pts.len()],
            inconsistent: false,
        };
        let [i0, i1, i2, i3] = simplex;
        // Orient so that each face has the opposite corner strictly below it.
        let tris = if b.above_plane([i0, i1, i2], i3) {
            [[i0, i2, i1], [i0, i1, i3], [i1, i2, i3], [i2, i0, i3]]
        } else {
            [[i0, i1, i2], [i0, i3, i1], [i1, i3, i2], [i2, i3, i0]]
        };
        for t in tris {
            b.push_face(t);
        }
        b.link_all();
        let others: Vec<u32> = (0..pts.len() as u32).filter(|i| !simplex.contains(i)).collect();
        b.assign(&others, &[0, 1, 2, 3]);
        Ok(b)
    }

    /// True when point p is strictly above the plane of the counter-clockwise triangle t.
    fn above_plane(&self, t: [u32; 3], p: u32) -> bool {
        let c = |i: u32| coord(&self.pts[i as usize]);
        // robust's orient3d is positive when the fourth point is below the plane in which the
        // first three appear counter-clockwise, negative above.
        orient3d(c(t[0]), c(t[1]), c(t[2]), c(p)) < 0.0
    }

    fn push_face(&mut self, v: [u32; 3]) -> u32 {
        let [a, b, c] = v.map(|i| self.pts[i as usize]);
        let normal = (b - a).cross(&(c - a));
        self.faces.push(Face { v, nbr: [NONE; 3], alive: true, outside: Vec::new(), normal });
        self.stamp.push(0);
        (self.faces.len() - 1) as u32
    }

    /// Link the neighbours of the initial simplex through a directed-edge map.
    fn link_all(&mut self) {
        let mut edge: HashMap<(u32, u32), (u32, usize)> = HashMap::new();
        for (f, face) in self.faces.iter().enumerate() {
            for e in 0..3 {
                edge.insert((face.v[e], face.v[(e + 1) % 3]), (f as u32, e));
            }
        }
        for f in 0..self.faces.len() {
            for e in 0..3 {
                let v = self.faces[f].v;
                if let Some(&(g, _)) = edge.get(&(v[(e + 1) % 3], v[e])) {
                    self.faces[f].nbr[e] = g;
                }
            }
        }
    }

    /// Give each point to the first face of `faces` it is strictly above; the rest are inside.
    fn assign(&mut self, points: &[u32], faces: &[u32]) {
        for &p in points {
            if let Some(&f) = faces.iter().find(|&&f| self.above_plane(self.faces[f as usize].v, p)) {
                let face = &mut self.faces[f as usize];
                if face.outside.is_empty() {
                    self.pending.push(f);
                }
                face.outside.push(p);
            }
        }
    }

    fn run(&mut self) {
        // With exact signs each pass of the final check inserts a point for good; contradictory
        // signs could re-insert forever.
        let mut passes = 0usize;
        loop {
            passes += 1;
            if passes > self.pts.len() + 8 {
                self.inconsistent = true;
                return;
            }
            while let Some(f) = self.pending.pop() {
                let face = &self.faces[f as usize];
                if !face.alive || face.outside.is_empty() {
                    continue;
                }
                let a = self.pts[face.v[0] as usize];
                let far = *face
                    .outside
                    .iter()
                    .max_by(|&&p, &&q| {
                        let dp = face.normal.dot(&(self.pts[p as usize] - a));
                        let dq = face.normal.dot(&(self.pts[q as usize] - a));
                        dp.total_cmp(&dq)
                    })
                    .unwrap_or(&face.outside[0]);
                self.insert(f, far);
                if self.inconsistent {
                    return;
                }
            }
            // Final containment check, exact for every (point, face) pair; a point found
            // outside (possible only through the partition of outside sets) is inserted.
            let mut clean = true;
            for p in 0..self.pts.len() as u32 {
                let outside_of = (0..self.faces.len() as u32)
                    .find(|&f| self.faces[f as usize].alive && self.above_plane(self.faces[f as usize].v, p));
                if let Some(f) = outside_of {
                    clean = false;
                    let face = &mut self.faces[f as usize];
                    if face.outside.is_empty() {
                        self.pending.push(f);
                    }
                    face.outside.push(p);
                    break;
                }
            }
            if clean {
                return;
            }
        }
    }

    /// Insert point p, which is strictly above face `seed`.
    fn insert(&mut self, seed: u32, p: u32) {
        self.epoch += 1;
        let epoch = self.epoch;
        // Visible cap by depth-first search from the seed; horizon edges in visit order.
        let mut visible = vec![seed];
        self.stamp[seed as usize] = epoch;
        let mut horizon: Vec<(u32, u32, u32)> = Vec::new(); // (u, v, kept face across u→v)
        let mut stack = vec![seed];
        while let Some(f) = stack.pop() {
            let face = &self.faces[f as usize];
            let (v, nbr) = (face.v, face.nbr);
            for e in 0..3 {
                let g = nbr[e];
                if g == NONE || !self.faces[g as usize].alive {
                    // An unlinked or dead neighbour: an earlier insertion's horizon was not one
                    // cycle (contradictory signs); exact signs never leave one.
                    self.inconsistent = true;
                    return;
                }
                if self.stamp[g as usize] == epoch {
                    continue;
                }
                if self.above_plane(self.faces[g as usize].v, p) {
                    self.stamp[g as usize] = epoch;
                    visible.push(g);
                    stack.push(g);
                } else {
                    horizon.push((v[e], v[(e + 1) % 3], g));
                }
            }
        }
        // A face that was seen as visible from one side and kept from another cannot occur
        // with exact signs (the stamp is set before any horizon test of the same face).
        let first_new = self.faces.len() as u32;
        for &(u, v, kept) in &horizon {
            let f = self.push_face([u, v, p]);
            let face = &mut self.faces[f as usize];
            face.nbr[0] = kept;
            let kept_face = &mut self.faces[kept as usize];
            for e in 0..3 {
                if kept_face.v[e] == v && kept_face.v[(e + 1) % 3] == u {
                    kept_face.nbr[e] = f;
                }
            }
            self.start_of[u as usize] = f;
            self.start_epoch[u as usize] = epoch;
        }
        for f in first_new..self.faces.len() as u32 {
            let v = self.faces[f as usize].v[1];
            // The horizon is one simple cycle, so every horizon vertex starts one edge.
            // The horizon is one simple cycle, so every horizon vertex starts one edge — with
            // exact signs; contradictory ones (overflowed arithmetic) break the cycle.
            if self.start_epoch[v as usize] != epoch || self.start_of[v as usize] == NONE {
                self.inconsistent = true;
                return;
            }
            let g = self.start_of[v as usize];
            self.faces[f as usize].nbr[1] = g;
            self.faces[g as usize].nbr[2] = f;
        }
        let mut orphans: Vec<u32> = Vec::new();
        for &f in &visible {
            let face = &mut self.faces[f as usize];
            face.alive = false;
            orphans.extend(face.outside.drain(..).filter(|&q| q != p));
        }
        let new_faces: Vec<u32> = (first_new..self.faces.len() as u32).collect();
        self.assign(&orphans, &new_faces);
    }

    fn finish(self, ids: &[usize]) -> ConvexHull {
        let mut index = vec![usize::MAX; self.pts.len()];
        let mut vertices = Vec::new();
        let mut input_indices = Vec::new();
        let mut triangles = Vec::new();
        for face in self.faces.iter().filter(|f| f.alive) {
            let tri = face.v.map(|i| {
                let slot = &mut index[i as usize];
                if *slot == usize::MAX {
                    *slot = vertices.len();
                    vertices.push(self.pts[i as usize]);
                    input_indices.push(ids[i as usize]);
                }
                *slot
            });
            triangles.push(tri);
        }
        ConvexHull { vertices, input_indices, triangles }
    }
}

/// Four points spanning a volume, chosen far apart (floating-point choice, exact checks).
fn initial_simplex(pts: &[Point3<f64>]) -> Result<[u32; 4], GeomError> {
    let by = |key: &dyn Fn(&Point3<f64>) -> f64, skip: &dyn Fn(usize) -> bool| -> Option<usize> {
        (0..pts.len()).filter(|&i| !skip(i)).max_by(|&i, &j| key(&pts[i]).total_cmp(&key(&pts[j])))
    };
    let i0 = by(&|p| -p.x, &|_| false).unwrap_or(0);
    let p0 = pts[i0];
    let i1 = by(&|p| (p - p0).norm_squared(), &|i| i == i0).unwrap_or(0);
    let p1 = pts[i1];
    let line = p1 - p0;
    let off_line = |i: usize| !collinear(&p0, &p1, &pts[i]);
    let i2 = by(&|p| line.cross(&(p - p0)).norm_squared(), &|i| i == i0 || i == i1)
        .filter(|&i| off_line(i))
        .or_else(|| (0..pts.len()).find(|&i| off_line(i)))
        .ok_or(GeomError::Degenerate { what: "hull points are collinear (no volume)" })?;
    let p2 = pts[i2];
    let normal = line.cross(&(p2 - p0));
    let off_plane = |i: usize| orient3d(coord(&p0), coord(&p1), coord(&p2), coord(&pts[i])) != 0.0;
    let i3 = by(&|p| normal.dot(&(p - p0)).abs(), &|i| i == i0 || i == i1 || i == i2)
        .filter(|&i| off_plane(i))
        .or_else(|| (0..pts.len()).find(|&i| off_plane(i)))
        .ok_or(GeomError::Degenerate { what: "hull points are coplanar (no volume)" })?;
    Ok([i0, i1, i2, i3].map(|i| i as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orient3d_sign_convention() {
        // Counter-clockwise seen from +z; a point above must count as "above".
        let c = |x: f64, y: f64, z: f64| Coord3D { x, y, z };
        assert!(orient3d(c(0., 0., 0.), c(1., 0., 0.), c(0., 1., 0.), c(0., 0., 1.)) < 0.0);
    }
}
