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
    /// Per triangle (same order): its corner a, edges b − a and c − a, and the inverse Gram
    /// matrix of the edges, for the barycentric coordinates of witness snapping.
    pub frames: Vec<TriangleFrame>,
    /// Outward unit normal and offset of each facet.
    pub normals: Vec<Vector3<f64>>,
    pub offsets: Vec<f64>,
    /// Facets sharing a hull vertex with facet g: `neighbours[nb_start[g]..nb_start[g + 1]]`
    /// (increasing).
    pub neighbours: Vec<u32>,
    pub nb_start: Vec<u32>,
    /// For each entry k of `neighbours` (facet g's list): the two hull vertices g's and k's
    /// boundary loops share, in the order of g's loop, or [`NO_EDGE`] when they share one
    /// vertex or more than two (see [`HullFacets::common_edge`]).
    pub nb_edge: Vec<[u32; 2]>,
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

/// A hull triangle (a, b, c) as a + λ1 e1 + λ2 e2 with e1 = b − a, e2 = c − a, and
/// `inv` = (e2·e2, e1·e2, e1·e1) / det of the Gram matrix, so that the projection of x onto
/// its plane has λ1 = w1 inv0 − w2 inv1, λ2 = w2 inv2 − w1 inv1 for wᵢ = (x − a)·eᵢ
/// (non-finite for a degenerate triangle).
#[derive(Debug, Clone, Copy)]
pub(crate) struct TriangleFrame {
    pub a: Point3<f64>,
    pub e1: Vector3<f64>,
    pub e2: Vector3<f64>,
    pub inv: [f64; 3],
}

impl TriangleFrame {
    fn new(a: Point3<f64>, b: Point3<f64>, c: Point3<f64>) -> Self {
        let (e1, e2) = (b - a, c - a);
        let (d11, d22, d12) = (e1.norm_squared(), e2.norm_squared(), e1.dot(&e2));
        let det = d11 * d22 - d12 * d12;
        Self { a, e1, e2, inv: [d22 / det, d12 / det, d11 / det] }
    }
}

impl HullFacets {
    /// The indices (into `triangles` and `frames`) of facet g's triangles.
    pub fn facet_range(&self, g: usize) -> std::ops::Range<usize> {
        self.start[g] as usize..self.start[g + 1] as usize
    }
    /// The triangles of facet g.
    pub fn facet_triangles(&self, g: usize) -> &[[u32; 3]] {
        &self.triangles[self.start[g] as usize..self.start[g + 1] as usize]
    }
    /// Facets across a boundary edge of facet g.
    #[inline]
    pub fn edge_neighbours(&self, g: usize) -> &[u32] {
        &self.edge_nb[self.edge_start[g] as usize..self.edge_start[g + 1] as usize]
    }
    /// Facets incident to hull vertex i.
    #[inline]
    pub fn incident(&self, i: usize) -> &[u32] {
        &self.incident[self.inc_start[i] as usize..self.inc_start[i + 1] as usize]
    }
    /// The two hull vertices shared by the boundary loops of facets g and k (in g's loop
    /// order), when they share exactly two; `None` otherwise (also when k is not a neighbour).
    #[inline]
    pub fn common_edge(&self, g: usize, k: u32) -> Option<[u32; 2]> {
        let (s, e) = (self.nb_start[g] as usize, self.nb_start[g + 1] as usize);
        let at = self.neighbours[s..e].binary_search(&k).ok()?;
        let edge = self.nb_edge[s + at];
        (edge != NO_EDGE).then_some(edge)
    }
}

/// "No common edge" in [`HullFacets::nb_edge`].
pub(crate) const NO_EDGE: [u32; 2] = [u32::MAX; 2];

/// The vertices loop `lg` shares with loop `lk`, in `lg`'s order, when exactly two.
fn shared_pair(lg: &[u32], lk: &[u32]) -> Option<[u32; 2]> {
    let mut shared = [0u32; 2];
    let mut n = 0;
    for v in lg {
        if lk.contains(v) {
            if n == 2 {
                return None;
            }
            shared[n] = *v;
            n += 1;
        }
    }
    (n == 2).then_some(shared)
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
    let frames = triangles
        .iter()
        .map(|t: &[u32; 3]| {
            let [a, b, c] = t.map(|i| v[i as usize]);
            TriangleFrame::new(a, b, c)
        })
        .collect();
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
    let loops: Vec<Vec<u32>> =
        members.iter().map(|list| boundary_loop(tris, list, &group_of, &across)).collect();
    let mut nb_edge = Vec::with_capacity(neighbours.len());
    for g in 0..members.len() {
        for &k in &neighbours[nb_start[g] as usize..nb_start[g + 1] as usize] {
            nb_edge.push(shared_pair(&loops[g], &loops[k as usize]).unwrap_or(NO_EDGE));
        }
    }
    HullFacets {
        vertices: v.to_vec(),
        triangles,
        start,
        frames,
        normals,
        offsets,
        neighbours,
        nb_start,
        nb_edge,
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

#[cfg(test)]
mod tests {
    //! The per-pair common edges and per-triangle frames stored at construction against
    //! direct computations from the loops and corners.

    use super::{NO_EDGE, hull_facets};

    /// Points on a sphere (golden spiral) plus a cube's corners and face centres (exactly
    /// coplanar facets of several triangles).
    fn point_sets() -> Vec<Vec<[f64; 3]>> {
        let sphere: Vec<[f64; 3]> = (0..120)
            .map(|i| {
                let z = 1.0 - 2.0 * (i as f64 + 0.5) / 120.0;
                let r = (1.0 - z * z).sqrt();
                let phi = i as f64 * 2.399_963_229_728_653;
                [r * phi.cos(), 0.7 * r * phi.sin(), 1.3 * z]
            })
            .collect();
        let mut cube = Vec::new();
        for x in [-1.0, 1.0] {
            for y in [-1.0, 1.0] {
                for z in [-1.0, 1.0] {
                    cube.push([x, y, z]);
                }
            }
        }
        for k in 0..3 {
            for s in [-1.0, 1.0] {
                let mut p = [0.0; 3];
                p[k] = s;
                cube.push(p);
            }
        }
        vec![sphere, cube]
    }

    #[test]
    fn common_edges_match_the_loops() {
        for points in point_sets() {
            let h = hull_facets(&points).expect("hull facets");
            let m = h.normals.len();
            for g in 0..m {
                for k in 0..m as u32 {
                    let (lg, lk) = (&h.loops[g], &h.loops[k as usize]);
                    let shared: Vec<u32> = lg.iter().copied().filter(|v| lk.contains(v)).collect();
                    let expected = (k as usize != g && shared.len() == 2).then(|| [shared[0], shared[1]]);
                    assert_eq!(h.common_edge(g, k), expected, "facets {g}, {k}");
                }
            }
            assert!(h.nb_edge.iter().any(|e| *e != NO_EDGE));
        }
    }

    #[test]
    fn triangle_frames_give_barycentric_coordinates() {
        for points in point_sets() {
            let h = hull_facets(&points).expect("hull facets");
            for (t, f) in h.triangles.iter().zip(&h.frames) {
                let [a, b, c] = t.map(|i| h.vertices[i as usize]);
                assert_eq!((f.a, f.e1, f.e2), (a, b - a, c - a));
                // A point of the plane with coordinates (0.3, 0.2), lifted off it along the
                // normal: its projection has the same coordinates (tolerance: a few ulps of
                // these unit-sized triangles, times the Gram matrix's condition).
                let n = (b - a).cross(&(c - a)).normalize();
                let x = a + (b - a) * 0.3 + (c - a) * 0.2 + n * 0.5;
                let w = x - a;
                let (w1, w2) = (w.dot(&f.e1), w.dot(&f.e2));
                let [i22, i12, i11] = f.inv;
                let (l1, l2) = (w1 * i22 - w2 * i12, w2 * i11 - w1 * i12);
                assert!((l1 - 0.3).abs() < 1e-9 && (l2 - 0.2).abs() < 1e-9, "{l1} {l2}");
            }
        }
    }
}
