//! The facets of a vertex set for DQP3: the exact hull's triangles grouped into near-coplanar
//! facets, then checked against the vertex set.
//!
//! # Maths
//!
//! [`convex_hull`] gives H = conv(V) exactly: its vertices are input points bit for bit, its
//! triangles are oriented outwards, and every input point is on or below every triangle's plane
//! (exact predicates). Real meshes have many nearly coplanar triangles (a flat side exported in
//! floating point, sliver triangles); DQP3 works best on one half-space per face, so adjacent
//! triangles are grown into groups:
//!
//! * a group starts from its largest unassigned triangle (the best-conditioned normal n) and
//!   takes an edge neighbour when it is exactly coplanar with the triangle it is reached from
//!   (exact orientation test) or when the neighbour's far corner lies within τ of the group's
//!   plane, and its normal points the same way;
//! * the group's plane is n·x = h with h = max over **all** hull vertices of n·v plus a pad of
//!   16 ulps of (1 + max |v|), so H lies in the half-space n·x ≤ h rigorously (the pad covers
//!   the rounding of every n·v, and the verification below re-checks every input point);
//! * τ = [`FACET_MERGE_TOLERANCE`] × (1 + max |v|): every corner of a group's triangles lies
//!   within τ below the group's plane (checked, see below).
//!
//! The facet form F = ∩ {n_g·x ≤ h_g} therefore contains H, and each facet touches H within τ
//! (plus the pad). Any lower bound of the distance between two facet forms is therefore one of
//! the distance between the hulls.
//! Where two facets meet at a tiny dihedral angle α, F's ridge may move sideways by up to τ/α,
//! but it stays within about τ of H's surface there (H is nearly flat); at a sharp vertex F can
//! extend beyond H by τ / sin(half-angle). The query layer never trusts F for a certificate: it
//! snaps DQP3's witnesses onto the triangles of H (convex combinations of input points) and
//! takes the lower bound from the support function of the vertex set.
//!
//! # Verification (after construction; [`GeomError::Degenerate`] when it fails)
//!
//! 1. every triangle belongs to exactly one facet (no facet missing);
//! 2. every corner of a facet's triangles lies within τ + 2 pad below the facet's plane;
//! 3. every input point v satisfies n_g·v ≤ h_g for every facet g (H ⊆ F; the float
//!    evaluation errs by at most 3 ulps of |v|, well inside the pad).
//!
//! # Adjacency (what can block a DQP3 step)
//!
//! A point moving in the plane of one active facet g leaves F through an edge of g's polygon:
//! the facets across g's boundary edges block it ([`HullFacets::edge_neighbours`]). A point
//! moving along the line of two active facets g, k leaves at an end point of their common
//! edge: the facets incident to the hull vertices g and k share block it
//! ([`HullFacets::incident`]). Otherwise (no common vertex) every facet sharing a vertex with g
//! (`neighbours`, also [`FacetPolyhedron::neighbours`](super::FacetPolyhedron::neighbours)). These hold whenever F's combinatorics match H's; where
//! a merged plane tilts by ~τ the ratio test may miss a constraint by about that much, which
//! the snapped certificate of the query layer absorbs.

use std::collections::HashMap;

use nalgebra::{Point3, Vector3};
use robust::{Coord3D, orient3d};

use crate::error::GeomError;
use crate::shape::{ConvexHull, convex_hull};

/// τ relative to 1 + max |v|: corners of a facet's triangles lie within τ of its plane.
/// Float noise of exported meshes is ~1e-16…1e-13 relative; 1e-10 merges it and keeps the
/// snapped certificate's gap (≈ 4τ) below the default `gap_tolerance` of 1e-9.
pub const FACET_MERGE_TOLERANCE: f64 = 1e-10;

/// A vertex set's exact hull grouped into facets.
#[derive(Debug, Clone)]
pub(crate) struct HullFacets {
    /// Hull vertices (exact copies of input points).
    pub vertices: Vec<Point3<f64>>,
    /// Hull triangles (outward, indices into `vertices`), grouped by facet: the triangles of
    /// facet g are `triangles[start[g]..start[g + 1]]`.
    pub triangles: Vec<[u32; 3]>,
    pub start: Vec<u32>,
    /// Outward unit normal and offset of each facet.
    pub normals: Vec<Vector3<f64>>,
    pub offsets: Vec<f64>,
    /// Facets sharing a hull vertex with facet g: `neighbours[nb_start[g]..nb_start[g + 1]]`.
    pub neighbours: Vec<u32>,
    pub nb_start: Vec<u32>,
    /// Facets across a boundary edge of facet g: `edge_nb[edge_start[g]..edge_start[g + 1]]`.
    pub edge_nb: Vec<u32>,
    pub edge_start: Vec<u32>,
    /// Facets incident to hull vertex i: `incident[inc_start[i]..inc_start[i + 1]]`.
    pub incident: Vec<u32>,
    pub inc_start: Vec<u32>,
    /// The boundary loop of each facet (hull vertex indices; the longest loop if a facet
    /// came out with a hole).
    pub loops: Vec<Vec<u32>>,
    /// τ used for the grouping.
    pub tolerance: f64,
}

impl HullFacets {
    /// The triangles of facet g.
    pub fn facet_triangles(&self, g: usize) -> &[[u32; 3]] {
        &self.triangles[self.start[g] as usize..self.start[g + 1] as usize]
    }
    /// Facets across a boundary edge of facet g.
    pub fn edge_neighbours(&self, g: usize) -> &[u32] {
        &self.edge_nb[self.edge_start[g] as usize..self.edge_start[g + 1] as usize]
    }
    /// Facets incident to hull vertex i.
    pub fn incident(&self, i: usize) -> &[u32] {
        &self.incident[self.inc_start[i] as usize..self.inc_start[i + 1] as usize]
    }
}

/// The outward pad of every facet offset: 16 ulps of `scale` = 1 + max |v|.
fn offset_pad(scale: f64) -> f64 {
    16.0 * f64::EPSILON * scale
}

fn coord(p: &Point3<f64>) -> Coord3D<f64> {
    Coord3D { x: p.x, y: p.y, z: p.z }
}

/// Groups the hull of `points` into facets and verifies them (see the module docs).
pub(crate) fn hull_facets(points: &[[f64; 3]]) -> Result<HullFacets, GeomError> {
    let hull = convex_hull(points)?;
    let facets = group(&hull);
    verify(points, &facets)?;
    Ok(facets)
}

fn group(hull: &ConvexHull) -> HullFacets {
    let v = hull.vertices();
    let tris = hull.triangles();
    let scale = 1.0 + v.iter().fold(0.0f64, |s, p| s.max(p.coords.norm()));
    let tol = FACET_MERGE_TOLERANCE * scale;
    let cross = |t: &[usize; 3]| (v[t[1]] - v[t[0]]).cross(&(v[t[2]] - v[t[0]]));
    // Edge twins: the triangle across each directed edge.
    let mut by_edge: HashMap<(usize, usize), usize> = HashMap::with_capacity(3 * tris.len());
    for (t, tri) in tris.iter().enumerate() {
        for e in 0..3 {
            by_edge.insert((tri[e], tri[(e + 1) % 3]), t);
        }
    }
    let across = |t: usize, e: usize| by_edge.get(&(tris[t][(e + 1) % 3], tris[t][e])).copied();
    let mut order: Vec<usize> = (0..tris.len()).collect();
    order.sort_by(|&x, &y| cross(&tris[y]).norm_squared().total_cmp(&cross(&tris[x]).norm_squared()));
    let mut group_of = vec![u32::MAX; tris.len()];
    let mut members: Vec<Vec<usize>> = Vec::new();
    let mut normals = Vec::new();
    for &seed in &order {
        if group_of[seed] != u32::MAX {
            continue;
        }
        let g = members.len() as u32;
        let n = cross(&tris[seed]).normalize();
        let h = n.dot(&v[tris[seed][0]].coords);
        group_of[seed] = g;
        let mut list = vec![seed];
        let mut stack = vec![seed];
        while let Some(t) = stack.pop() {
            for e in 0..3 {
                let Some(u) = across(t, e) else { continue };
                if group_of[u] != u32::MAX {
                    continue;
                }
                let apex = tris[u].iter().copied().find(|k| !tris[t].contains(k)).unwrap_or(tris[u][0]);
                let p = |i: usize| coord(&v[i]);
                let exact = orient3d(p(tris[t][0]), p(tris[t][1]), p(tris[t][2]), p(apex)) == 0.0;
                let near = (n.dot(&v[apex].coords) - h).abs() <= tol && n.dot(&cross(&tris[u])) > 0.0;
                if exact || near {
                    group_of[u] = g;
                    list.push(u);
                    stack.push(u);
                }
            }
        }
        members.push(list);
        normals.push(n);
    }
    // Planes: the seed normal, offset = max over every hull vertex, padded.
    let pad = offset_pad(scale);
    let offsets: Vec<f64> = normals
        .iter()
        .map(|n| v.iter().map(|p| n.dot(&p.coords)).fold(f64::NEG_INFINITY, f64::max) + pad)
        .collect();
    let mut triangles = Vec::with_capacity(tris.len());
    let mut start = vec![0u32];
    for list in &members {
        triangles.extend(list.iter().map(|&t| tris[t].map(|i| i as u32)));
        start.push(triangles.len() as u32);
    }
    // Neighbours: facets sharing a hull vertex (a point moving along an edge of a facet, with
    // two facets active, leaves through the facets at the edge's end points; edge neighbours
    // alone miss them).
    let mut at_vertex: Vec<Vec<u32>> = vec![Vec::new(); v.len()];
    for (t, tri) in tris.iter().enumerate() {
        for &i in tri {
            if !at_vertex[i].contains(&group_of[t]) {
                at_vertex[i].push(group_of[t]);
            }
        }
    }
    let (mut neighbours, mut nb_start) = (Vec::new(), vec![0u32]);
    for (g, list) in members.iter().enumerate() {
        let mut nb: Vec<u32> =
            list.iter().flat_map(|&t| tris[t].iter().flat_map(|&i| at_vertex[i].iter().copied())).collect();
        nb.sort_unstable();
        nb.dedup();
        nb.retain(|&k| k != g as u32);
        neighbours.extend(nb);
        nb_start.push(neighbours.len() as u32);
    }
    let (mut edge_nb, mut edge_start) = (Vec::new(), vec![0u32]);
    for (g, list) in members.iter().enumerate() {
        let mut nb: Vec<u32> = list
            .iter()
            .flat_map(|&t| (0..3).filter_map(move |e| across(t, e)))
            .map(|u| group_of[u])
            .collect();
        nb.sort_unstable();
        nb.dedup();
        nb.retain(|&k| k != g as u32);
        edge_nb.extend(nb);
        edge_start.push(edge_nb.len() as u32);
    }
    let (mut incident, mut inc_start) = (Vec::new(), vec![0u32]);
    for list in &at_vertex {
        incident.extend(list);
        inc_start.push(incident.len() as u32);
    }
    let loops = members.iter().map(|list| boundary_loop(tris, list, &group_of, &across)).collect();
    HullFacets {
        vertices: v.to_vec(),
        triangles,
        start,
        normals,
        offsets,
        neighbours,
        nb_start,
        edge_nb,
        edge_start,
        incident,
        inc_start,
        loops,
        tolerance: tol,
    }
}

/// The longest boundary loop of the triangles `list` (edges whose twin is in another group).
fn boundary_loop(
    tris: &[[usize; 3]],
    list: &[usize],
    group_of: &[u32],
    across: &dyn Fn(usize, usize) -> Option<usize>,
) -> Vec<u32> {
    let g = group_of[list[0]];
    let mut next: HashMap<usize, usize> = HashMap::new();
    for &t in list {
        for e in 0..3 {
            if across(t, e).is_none_or(|u| group_of[u] != g) {
                next.insert(tris[t][e], tris[t][(e + 1) % 3]);
            }
        }
    }
    let mut best: Vec<u32> = Vec::new();
    let mut used: HashMap<usize, ()> = HashMap::new();
    let mut starts: Vec<usize> = next.keys().copied().collect();
    starts.sort_unstable();
    for s in starts {
        if used.contains_key(&s) {
            continue;
        }
        let mut cycle = vec![s as u32];
        used.insert(s, ());
        let mut x = next[&s];
        while x != s && cycle.len() <= next.len() {
            used.insert(x, ());
            cycle.push(x as u32);
            x = match next.get(&x) {
                Some(&y) => y,
                None => break,
            };
        }
        if cycle.len() > best.len() {
            best = cycle;
        }
    }
    best
}

fn verify(points: &[[f64; 3]], f: &HullFacets) -> Result<(), GeomError> {
    let scale = 1.0 + points.iter().fold(0.0f64, |s, p| s.max(Vector3::from(*p).norm()));
    let pad = offset_pad(scale);
    let bad = |what| Err(GeomError::Degenerate { what });
    // 1. Every triangle in exactly one facet: the groups partition the triangles.
    let mut seen: HashMap<[u32; 3], u32> = HashMap::with_capacity(f.triangles.len());
    for t in &f.triangles {
        *seen.entry(*t).or_default() += 1;
    }
    if seen.values().any(|&c| c != 1) || f.start.last().copied() != Some(f.triangles.len() as u32) {
        return bad("facet form: a hull triangle is missing or in two facets");
    }
    for g in 0..f.normals.len() {
        let (n, h) = (f.normals[g], f.offsets[g]);
        // 2. The facet's corners within τ + 2 pad below its plane.
        for t in f.facet_triangles(g) {
            for &i in t {
                let s = n.dot(&f.vertices[i as usize].coords) - h;
                if !(s >= -f.tolerance - 2.0 * pad && s <= 0.0) {
                    return bad(
                        "facet form: a facet's corner is not on its plane (merge tolerance exceeded)",
                    );
                }
            }
        }
        // 3. Every input point inside the facet's half-space.
        if points.iter().any(|p| n.dot(&Vector3::from(*p)) > h) {
            return bad("facet form: an input point is outside a facet");
        }
    }
    Ok(())
}
