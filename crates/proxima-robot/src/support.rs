//! A fast support function for mesh hulls: a direction table to start from, then steepest
//! ascent over the hull's vertex graph.
//!
//! # Maths
//!
//! For a convex polytope P and a direction m, a vertex v whose hull neighbours all satisfy
//! m·u ≤ m·v maximizes m·x over P: the edge directions at a vertex generate P's tangent cone
//! there, so m·(x − v) ≤ 0 for every x ∈ P. The neighbour lists come from the exact hull's
//! triangulation (they contain every edge of P, and diagonals of coplanar faces, which do not
//! matter), so steepest ascent from any vertex stops at a maximizer — up to the rounding of
//! the dot products, as for a linear scan.
//!
//! The start: [`DirectionTable`] (proxima-geom's cube map of the directions, about one cell
//! per vertex, each cell storing the maximizer along its centre direction). A query starts
//! from the caller's hint when it has one and it scores at least as well (the previous support
//! point of the same GJK run, a few steps away), else from its direction's cell, usually one
//! or two steps from the answer. On hulls of 100–600 vertices this costs a few dozen dot
//! products instead of a scan of every vertex.

use std::sync::Arc;

use nalgebra::{Point3, Vector3};
use proxima_geom::gjk::SupportMap;
use proxima_geom::shape::{ConvexPolytope, DirectionTable};

/// The support function of a convex polytope with hull adjacency (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct HullSupport {
    vertices: Vec<Point3<f64>>,
    /// neighbours of vertex i: `neighbors[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<u32>,
    neighbors: Vec<u32>,
    /// Shared with the polytope when it carries one already (large hulls).
    table: Arc<DirectionTable>,
}

impl HullSupport {
    /// The support function of `p`; `None` when it has no hull adjacency
    /// ([`ConvexPolytope::with_faces`] or an exact hull's `to_polytope`).
    pub fn new(p: &ConvexPolytope) -> Option<Self> {
        let adj = p.adjacency()?;
        let vertices = p.vertices().to_vec();
        let mut offsets = Vec::with_capacity(vertices.len() + 1);
        let mut neighbors = Vec::new();
        offsets.push(0);
        for i in 0..vertices.len() {
            neighbors.extend_from_slice(adj.neighbors(i));
            offsets.push(u32::try_from(neighbors.len()).ok()?);
        }
        let table =
            p.direction_table().cloned().unwrap_or_else(|| Arc::new(DirectionTable::new(&vertices, adj)));
        Some(Self { vertices, offsets, neighbors, table })
    }

    /// The vertices.
    pub fn vertices(&self) -> &[Point3<f64>] {
        &self.vertices
    }

    /// The table's start vertex for direction `m`.
    #[inline(always)]
    fn start(&self, m: &Vector3<f64>) -> usize {
        // a zero or non-finite direction has no cell: any vertex is as good a start
        self.table.start(m).map_or(0, |v| v as usize)
    }

    /// Index of a vertex maximizing m·x, climbing from `start`.
    #[inline(always)]
    pub fn climb(&self, m: &Vector3<f64>, start: usize) -> usize {
        let mut cur = start;
        let mut best = m.dot(&self.vertices[cur].coords);
        loop {
            let mut next = cur;
            let (lo, hi) = (self.offsets[cur] as usize, self.offsets[cur + 1] as usize);
            for &k in &self.neighbors[lo..hi] {
                let v = m.dot(&self.vertices[k as usize].coords);
                if v > best {
                    best = v;
                    next = k as usize;
                }
            }
            if next == cur {
                return cur;
            }
            cur = next;
        }
    }

    /// Index of a vertex maximizing m·x (from the table's start).
    pub fn support_index(&self, m: &Vector3<f64>) -> usize {
        self.climb(m, self.start(m))
    }
}

impl SupportMap for HullSupport {
    #[inline(always)]
    fn local_support(&self, m: &Vector3<f64>, hint: &mut u32) -> Point3<f64> {
        let t = self.start(m);
        let start = if (*hint as usize) < self.vertices.len() {
            let h = *hint as usize;
            if m.dot(&self.vertices[h].coords) >= m.dot(&self.vertices[t].coords) { h } else { t }
        } else {
            t
        };
        let i = self.climb(m, start);
        *hint = i as u32;
        self.vertices[i]
    }

    fn hinted_vertex(&self, hint: u32) -> Option<Point3<f64>> {
        self.vertices.get(hint as usize).copied()
    }
}
