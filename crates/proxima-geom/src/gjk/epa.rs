//! Penetration depth by polytope expansion (EPA), with a bracket.
//!
//! # Maths
//!
//! For overlapping A and B the origin lies in M = A − B, and the penetration depth is
//! δ = dist(0, ∂M) = min_{|n|=1} h_M(n): the shortest translation of B that brings the shapes
//! into touching contact is δ·n* (B moves along n*, which points from A towards B). EPA keeps
//! a polytope P ⊆ M (its vertices are support points) with the origin in P:
//!
//! * lower bound: δ ≥ dist(0, ∂P) = min over faces f of the face plane's distance n_f·x_f
//!   (P ⊆ M), clamped at 0;
//! * upper bound: δ ≤ h_M(n) for every unit n (the half-space {n·x ≤ h_M(n)} contains M and
//!   its boundary plane is h_M(n) from the origin).
//!
//! Each iteration takes the face closest to the origin, asks for the support point p of M
//! along its normal (upper = min(upper, n·p)), and stops when upper − lower ≤ tolerance ×
//! scale; otherwise p is added: the faces that see p are removed and the horizon is
//! re-triangulated with p. The witnesses are the barycentric combinations of the closest
//! face's support points: p_a ∈ A, p_b ∈ B with p_a − p_b = δ n.
//!
//! # Robustness (the peers' failure cases)
//!
//! * Face orientation uses a point strictly inside the initial polytope, never the origin, so
//!   an origin on ∂P (kissing contact) does not flip normals.
//! * A GJK simplex of dimension < 3 (origin on a vertex, edge or face of the simplex) is
//!   blown up with support points along directions orthogonal to it. A triangle T (origin in
//!   T) becomes the tetrahedron T + p with p = the support point on the side where M reaches
//!   further: always convex, the origin on its face T, which the first expansion step pushes
//!   out to the other side. (A bipyramid over T with both support points is not convex when
//!   the segment between them misses T — boxes with coplanar faces do that, the set-up of FCL
//!   #578 — and a non-convex P breaks the horizon of the first step.)
//! * If M has no extent beyond round-off on one side of the simplex (flat shapes in contact,
//!   or a depth below 64 ulps of the scale), the expansion stops with [`EpaStatus::Flat`] and
//!   the bracket [0, extent measured on that side]: still proven, never a bare 0.
//! * Visibility uses a tolerance relative to the problem scale, and a support point that no
//!   face sees (rounding) ends the loop with [`EpaStatus::Stagnated`], the bracket valid.
//! * Every quantity is relative to the scale of M, so large scale differences between the
//!   shapes only enter through that scale.
//!
//! # Bookkeeping
//!
//! Each step passes over every face (visibility of p, closest face): O(faces) per step. Kept
//! on purpose: a face adjacency kept through the insertions, the visible set by a flood fill
//! from the closest face and the closest face from a heap (or a pass over a contiguous array
//! of distances) were measured slower at the 20–120 faces of a curved pair's expansion
//! (callgrind, plain EPA on 273 overlapping cylinder pairs: 15.4M instructions with the pass,
//! 18.0M–21.2M with the fill; ellipsoid–cylinder 24.9M against 27.4M): placing a fan with its
//! adjacency costs more per new face than the pass costs per old one. The faces as a
//! structure of arrays (normals' x, y, z and the distances in separate vectors, one
//! branch-free pass for the heights and the least unseen distance, then the visible faces and
//! the closest index) were measured slower too: start_contact CCD workload (400 queries,
//! callgrind, one pass) 19.5M → 26.7M instructions in the expansion, identical answers. The
//! pass is a small part of a step there (about 200k face visits against 16k support points
//! in 567 expansions, ~12 faces per step), the pass stayed scalar under the baseline
//! instruction set (the least-distance reduction does not vectorise), and the per-field
//! stores of a new face and the extra passes cost more than the records' single pass.
//!
//! # Finishing
//!
//! A caller may pass a hook ([`expand_finishing`]) that is tried once the gap is below
//! [`FINISH_FROM`] × scale with the closest face: a proven bracket from another method (the
//! curved cores' Newton depth with its enclosed-ball certificate, or a depth floor already
//! proven). Its bounds join EPA's; when they meet the tolerance the expansion stops.

use nalgebra::{Point3, Vector3};

use super::simplex::{Simplex, Vertex};
use super::support::{Difference, SupportMap};

/// How the expansion ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EpaStatus {
    /// upper − lower ≤ tolerance × scale.
    Converged,
    /// M has no extent beyond round-off on one side of the origin (flat or touching shapes):
    /// the depth is at most the (tiny) extent measured there, which is the upper bound.
    Flat,
    /// A new support point is not beyond any face (rounding); the bracket is valid.
    Stagnated,
    /// The iteration cap was reached; the bracket is valid.
    MaxIterations,
}

impl EpaStatus {
    /// Lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            EpaStatus::Converged => "converged",
            EpaStatus::Flat => "flat",
            EpaStatus::Stagnated => "stagnated",
            EpaStatus::MaxIterations => "max_iterations",
        }
    }
}

/// Penetration of two overlapping shapes (world frame).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpaOutput {
    /// How the expansion ended.
    pub status: EpaStatus,
    /// The depth estimate (the upper bound: a translation this long along `normal`
    /// separates the shapes up to touching).
    pub depth: f64,
    /// Proven lower bound of the depth.
    pub lower: f64,
    /// Proven upper bound of the depth (= `depth`).
    pub upper: f64,
    /// Unit direction from A towards B along which B moves by `depth` to touch A.
    pub normal: Vector3<f64>,
    /// Deepest point of A (world).
    pub point_a: Point3<f64>,
    /// Deepest point of B (world).
    pub point_b: Point3<f64>,
    /// Expansion iterations.
    pub iterations: u32,
}

/// Penetration depth of A and B placed by poses (both bounded support maps), with bracket.
/// `None` when the shapes are disjoint (GJK proves a positive distance).
pub fn penetration<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &crate::Pose,
    b: &B,
    pose_b: &crate::Pose,
    settings: &super::GjkSettings,
) -> Result<Option<EpaOutput>, crate::GeomError> {
    penetration_above(a, pose_a, b, pose_b, settings, 0.0)
}

/// [`penetration`] when a lower bound `floor` of the depth is already proven: the expansion
/// stops as soon as its upper bound is within the tolerance of it (the lower end of the
/// result is at least `floor`). EPA's upper bound converges much faster than its lower one
/// on curved or rounded shapes, so a known floor saves most of the expansion.
pub(crate) fn penetration_above<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &crate::Pose,
    b: &B,
    pose_b: &crate::Pose,
    settings: &super::GjkSettings,
    floor: f64,
) -> Result<Option<EpaOutput>, crate::GeomError> {
    settings.validate()?;
    let frame = super::RelativeFrame::new(pose_a, pose_b);
    let mut diff = Difference { a, b, frame, hint_a: super::COLD_HINT, hint_b: super::COLD_HINT };
    let run = super::run(&mut diff, &super::Start::cold(-frame.t), settings, super::Mode::Distance);
    if run.status != super::GjkStatus::Contact {
        return Ok(None);
    }
    let mut known = |_: &mut Difference<'_, A, B>, _: &Simplex, n: &Vector3<f64>, _: f64| {
        (floor > 0.0).then_some(Finish {
            lower: floor,
            upper: f64::INFINITY,
            normal: *n,
            a: Point3::origin(),
            b: Point3::origin(),
            seed: FaceSeed::none(),
        })
    };
    let e = expand_finishing(&mut diff, &run.simplex, run.scale, settings, &mut known);
    Ok(Some(EpaOutput {
        normal: pose_a.transform_vector(&e.normal),
        point_a: pose_a.transform_point(&e.point_a),
        point_b: pose_a.transform_point(&e.point_b),
        ..e
    }))
}

#[derive(Debug, Clone, Copy)]
struct Face {
    idx: [u32; 3],
    n: Vector3<f64>,
    dist: f64,
    alive: bool,
}

/// Vertex budget of the expanding polytope.
const MAX_VERTICES: usize = 512;

/// EPA from a GJK simplex that contains the origin (in A's frame; output in A's frame).
#[cfg(test)]
pub(crate) fn expand<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    diff: &mut Difference<'_, A, B>,
    simplex: &Simplex,
    scale: f64,
    settings: &super::GjkSettings,
) -> EpaOutput {
    expand_finishing(
        diff,
        simplex,
        scale,
        settings,
        &mut |_: &mut Difference<'_, A, B>, _: &Simplex, _: &Vector3<f64>, _| None,
    )
}

/// A proven depth bracket from another method, with the witnesses and normal of its upper
/// end (A's frame): what a [`expand_finishing`] hook returns.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Finish {
    pub lower: f64,
    pub upper: f64,
    pub normal: Vector3<f64>,
    pub a: Point3<f64>,
    pub b: Point3<f64>,
    /// Points of M (support points of A minus points of B, A's frame) for the expansion to
    /// take in when the bracket is not closed: a face of M at the depth normal.
    pub seed: FaceSeed,
}

/// Up to four points of M spanning a face of M (see [`Finish::seed`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct FaceSeed {
    pub v: [Vertex; 4],
    pub len: usize,
}

impl FaceSeed {
    /// No points.
    pub fn none() -> Self {
        Self { v: [Simplex::new().v[0]; 4], len: 0 }
    }
}

/// EPA's gap (relative to the scale) at which the finishing hook is tried once. (1e-2 was
/// measured: 1 % fewer instructions on overlapping cylinder pairs, where the finish fails on
/// about 40 % of the expansions, which then run to the tolerance either way. Trying again
/// after a failure, once the gap has shrunk by a factor 10, 100 or 1000, was measured on the
/// start_contact CCD workload: +10 %, +5 %, +3 % instructions (whole run); a finish that
/// fails at this gap fails again closer to the optimum — ellipsoid, cylinder or cone against
/// a hull, cylinder–cone, box–cylinder —, so the retries only add polish runs.)
pub(crate) const FINISH_FROM: f64 = 1e-3;

/// No finishing hook for [`expand_finishing`]: EPA runs to the tolerance on its own.
pub(crate) fn no_finish<A: ?Sized, B: ?Sized>(
    _: &mut Difference<'_, A, B>,
    _: &Simplex,
    _: &Vector3<f64>,
    _: f64,
) -> Option<Finish> {
    None
}

/// [`expand`] with a finishing hook: once the expansion's gap is below [`FINISH_FROM`] ×
/// scale, `finish(diff, closest face as a simplex, its normal, target)` may return a proven
/// bracket; when it meets the tolerance the expansion stops there ([`EpaStatus::Converged`]),
/// otherwise its bounds are kept (both are proven) and the expansion goes on.
pub(crate) fn expand_finishing<A, B, F>(
    diff: &mut Difference<'_, A, B>,
    simplex: &Simplex,
    scale: f64,
    settings: &super::GjkSettings,
    finish: &mut F,
) -> EpaOutput
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    F: FnMut(&mut Difference<'_, A, B>, &Simplex, &Vector3<f64>, f64) -> Option<Finish>,
{
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => expand_in(diff, simplex, scale, settings, &mut scratch, finish),
        // Not reachable (EPA does not re-enter itself); fresh buffers keep it correct anyway.
        Err(_) => expand_in(diff, simplex, scale, settings, &mut Scratch::default(), finish),
    })
}

/// The polytope's buffers, kept per thread so that an expansion does not allocate (a few
/// allocations and regrowths were a tenth of a small polytope's EPA).
#[derive(Default)]
struct Scratch {
    verts: Vec<Vertex>,
    faces: Vec<Face>,
    /// Horizon edges (u, v) packed as u·2³² + v: a twin test is one integer comparison.
    edges: Vec<u64>,
    removed: Vec<usize>,
}

thread_local! {
    static SCRATCH: core::cell::RefCell<Scratch> = core::cell::RefCell::new(Scratch::default());
}

/// The polytope the last expansion on this thread ended with: its vertices and the index
/// triples of its faces (outward orientation) into `verts` and `faces`. Whether it is a closed
/// surface is for the caller to check (an expansion stopped mid-step leaves it open); a
/// tracked pair keeps it for its next step in contact (`contact_warm.rs`).
pub(crate) fn last_polytope(verts: &mut Vec<Vertex>, faces: &mut Vec<[u32; 3]>) {
    SCRATCH.with(|cell| {
        if let Ok(s) = cell.try_borrow() {
            verts.extend_from_slice(&s.verts);
            faces.extend(s.faces.iter().filter(|f| f.alive).map(|f| f.idx));
        }
    });
}

fn expand_in<A, B, F>(
    diff: &mut Difference<'_, A, B>,
    simplex: &Simplex,
    scale: f64,
    settings: &super::GjkSettings,
    scratch: &mut Scratch,
    finish: &mut F,
) -> EpaOutput
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    F: FnMut(&mut Difference<'_, A, B>, &Simplex, &Vector3<f64>, f64) -> Option<Finish>,
{
    let Scratch { verts, faces, edges, removed } = scratch;
    verts.clear();
    verts.extend_from_slice(&simplex.v[..simplex.len]);
    if verts.is_empty() || verts.iter().any(|v| !v.w.iter().all(|x| x.is_finite())) {
        // A run whose arithmetic overflowed (coordinates near f64::MAX) has nothing to
        // expand: no depth is claimed (the callers report such pairs as errors).
        return flat_output(verts, Vector3::x(), f64::INFINITY, 0);
    }
    let mut scale = scale.max(f64::MIN_POSITIVE);
    // Extents below 64 ulps of the scale are round-off: no polytope is built on them.
    let flat_tol = 64.0 * f64::EPSILON * scale;
    // Blow the simplex up to a full-dimensional polytope containing the origin.
    let seed = verts[0];
    if let Some(out) = blow_up(diff, verts, flat_tol, &seed) {
        return out;
    }
    for v in verts.iter() {
        scale = scale.max(v.w.norm());
    }
    let interior = verts.iter().fold(Vector3::zeros(), |acc, v| acc + v.w) / verts.len() as f64;
    faces.clear();
    // Initial hull: a tetrahedron.
    let initial: &[[u32; 3]] = &[[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]];
    for f in initial {
        if let Some(face) = make_face(verts, *f, &interior) {
            faces.push(face);
        } else {
            return flat_output(verts, Vector3::x(), flat_tol, 0);
        }
    }
    let mut upper = f64::INFINITY;
    let mut best_upper_n = faces[0].n;
    let mut status = EpaStatus::MaxIterations;
    let mut it = 0u32;
    let mut finished: Option<Finish> = None;
    let mut tried = false;
    let mut seeded = false;
    // The closest face, kept up to date by the visibility pass and the new faces (see
    // `Closest`); every face in `faces` is alive at the top of an iteration (new faces take
    // the removed ones' slots).
    let mut closest = Closest::of(faces);
    while it < settings.epa_max_iterations {
        it += 1;
        let f = faces[closest.index()];
        // Support of M along n: maximize n·x, i.e. minimize (−n)·x; climb from where the
        // face's first vertex was found (its support direction is close to n).
        let (ha, hb) = (verts[f.idx[0] as usize].ha, verts[f.idx[0] as usize].hb);
        if ha != super::COLD_HINT && hb != super::COLD_HINT {
            diff.hint_a = ha;
            diff.hint_b = hb;
        }
        let p = diff.support(&-f.n);
        scale = scale.max(p.w.norm());
        let h = f.n.dot(&p.w);
        if h < upper {
            upper = h;
            best_upper_n = f.n;
        }
        let mut lower = f.dist.max(0.0);
        if upper - lower <= settings.tolerance * scale {
            status = EpaStatus::Converged;
            break;
        }
        if !tried && upper - lower <= FINISH_FROM * scale {
            tried = true;
            let s = Simplex::of_face(verts, &f.idx);
            if let Some(fin) = finish(diff, &s, &f.n, settings.tolerance * scale) {
                finished = Some(fin);
            }
        }
        if let Some(fin) = finished {
            lower = lower.max(fin.lower);
            if fin.upper.min(upper) - lower <= settings.tolerance * scale {
                status = EpaStatus::Converged;
                break;
            }
        }
        if !seeded && let Some(fin) = finished.filter(|f| f.seed.len > 0) {
            // The finish did not close the bracket but knows exact points of M spanning its
            // face at the depth normal (`depth.rs`): they join the polytope, whose lower bound
            // then reaches the depth in a few more steps.
            seeded = true;
            let mut broken = false;
            for x in &fin.seed.v[..fin.seed.len] {
                if verts.len() >= MAX_VERTICES {
                    break;
                }
                scale = scale.max(x.w.norm());
                if insert(verts, faces, edges, removed, &mut closest, *x, scale, &interior) == Insert::Broken
                {
                    broken = true;
                    break;
                }
            }
            if broken {
                status = EpaStatus::Stagnated;
                break;
            }
            continue;
        }
        if verts.len() >= MAX_VERTICES {
            break;
        }
        match insert(verts, faces, edges, removed, &mut closest, p, scale, &interior) {
            Insert::Added => {}
            Insert::Inside | Insert::Broken => {
                status = EpaStatus::Stagnated;
                break;
            }
        }
    }
    let mut lower = faces.iter().filter(|x| x.alive).map(|x| x.dist).fold(f64::INFINITY, f64::min).max(0.0);
    if let Some(fin) = finished {
        lower = lower.max(fin.lower);
        if fin.upper < upper {
            // The hook's upper end is the better estimate: its witnesses and normal.
            let lower = lower.min(fin.upper);
            return EpaOutput {
                status,
                depth: fin.upper,
                lower,
                upper: fin.upper,
                normal: fin.normal,
                point_a: fin.a,
                point_b: fin.b,
                iterations: it,
            };
        }
    }
    let lower = lower.min(upper);
    // Witnesses from the closest face's projection of the origin.
    let f = faces.iter().filter(|x| x.alive).min_by(|x, y| x.dist.total_cmp(&y.dist)).copied();
    let (pa, pb, n) = match f {
        Some(f) => {
            let mut s = Simplex::of_face(verts, &f.idx);
            s.project_origin();
            let (pa, pb) = s.witnesses();
            (pa, pb, f.n)
        }
        None => (verts[0].a, verts[0].b, best_upper_n),
    };
    EpaOutput { status, depth: upper, lower, upper, normal: n, point_a: pa, point_b: pb, iterations: it }
}

/// What [`insert`] did with a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Insert {
    /// The point was outside the polytope and is now one of its vertices.
    Added,
    /// No face sees the point (inside the polytope, to the visibility threshold): unchanged.
    Inside,
    /// Rounding broke the horizon or a new face: the expansion stops (the polytope's faces
    /// still lie inside M, so the bracket stays valid).
    Broken,
}

/// Adds the point `p` of M to the polytope: the faces that see it are removed and the
/// horizon is joined to it; `closest` is kept up to date.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn insert(
    verts: &mut Vec<Vertex>,
    faces: &mut Vec<Face>,
    edges: &mut Vec<u64>,
    removed: &mut Vec<usize>,
    closest: &mut Closest,
    p: Vertex,
    scale: f64,
    interior: &Vector3<f64>,
) -> Insert {
    // Remove the faces that see p and collect the horizon. The visible faces of a convex
    // polytope form a disk, whose boundary (the horizon) is one simple cycle of edges;
    // when rounding breaks that (p nearly coplanar with some faces), retry with a coarser
    // visibility threshold, and if none works keep P as it is (still inside M: the
    // bracket stays valid) and stop. (Not "faces + 2 edges": that holds only when no
    // vertex is inside the disk, and a far p sees whole vertex stars, which it removes.)
    let mut disk = false;
    for rel in [1e-12, 1e-9, 1e-7] {
        let eps = rel * scale;
        edges.clear();
        removed.clear();
        *closest = Closest::default();
        for (fi, face) in faces.iter_mut().enumerate() {
            // n·p − n·a (the face's plane offset), without loading vertex a: the rounding
            // of the difference (~1e-16 of the scale) is far below every threshold.
            if !super::gt(face.n.dot(&p.w) - face.dist, eps) {
                closest.offer(fi, face.dist);
            } else {
                face.alive = false;
                removed.push(fi);
                toggle_horizon_edges(edges, face.idx);
            }
        }
        let any = !removed.is_empty();
        // Faces + 2 edges is the disk without inner vertices (the usual case, tested
        // first because it is free); otherwise the walk decides.
        if any && (edges.len() == removed.len() + 2 || is_simple_cycle(edges)) {
            disk = true;
            break;
        }
        for &fi in removed.iter() {
            faces[fi].alive = true;
        }
        if !any {
            break;
        }
    }
    if !disk {
        return if removed.is_empty() { Insert::Inside } else { Insert::Broken };
    }
    verts.push(p);
    // (At most MAX_VERTICES vertices: the index fits in u32.)
    let pi = (verts.len() - 1) as u32;
    let mut ok = true;
    // The new faces take the removed faces' slots (in increasing order), then go at the
    // end; slots left over (a disk with inner vertices) are filled from the end.
    let mut slots = removed.iter();
    for &e in edges.iter() {
        match make_face(verts, [(e >> 32) as u32, e as u32, pi], interior) {
            Some(face) => {
                let at = match slots.next() {
                    Some(&fi) => {
                        faces[fi] = face;
                        fi
                    }
                    None => {
                        faces.push(face);
                        faces.len() - 1
                    }
                };
                closest.offer(at, face.dist);
            }
            None => ok = false,
        }
    }
    if !ok {
        return Insert::Broken;
    }
    let left = slots.as_slice();
    if !left.is_empty() {
        // Largest first: a face moved into a slot comes from beyond every slot still to
        // fill, so it is alive; the closest face is looked up again (rare).
        for &fi in left.iter().rev() {
            faces.swap_remove(fi);
        }
        *closest = Closest::of(faces);
    }
    Insert::Added
}

/// The closest face of a pass over faces (the first offered of the least distance; NaN
/// distances of degenerate faces never win).
#[derive(Debug, Clone, Copy)]
struct Closest {
    best: usize,
    dist: f64,
}

impl Default for Closest {
    fn default() -> Self {
        Self { best: usize::MAX, dist: f64::INFINITY }
    }
}

impl Closest {
    /// The closest of the live faces of `faces`.
    fn of(faces: &[Face]) -> Self {
        let mut c = Self::default();
        for (i, face) in faces.iter().enumerate() {
            if face.alive {
                c.offer(i, face.dist);
            }
        }
        c
    }

    #[inline(always)]
    fn offer(&mut self, i: usize, dist: f64) {
        if dist < self.dist {
            (self.best, self.dist) = (i, dist);
        }
    }

    /// The face's index; the first face when none has a distance below +∞ (every face is
    /// alive at the top of an iteration, and there are four at least).
    fn index(&self) -> usize {
        if self.best == usize::MAX { 0 } else { self.best }
    }
}

/// Adds the three directed edges of a removed face (vertex indices `idx`, counter-clockwise)
/// to the horizon `edges` (packed u·2³² + v), cancelling each against its twin (v, u) when
/// the neighbouring face was removed already: what remains is the boundary of the removed
/// region.
#[inline]
pub(crate) fn toggle_horizon_edges(edges: &mut Vec<u64>, idx: [u32; 3]) {
    let [i, j, k] = idx.map(u64::from);
    for (u, v) in [(i, j), (j, k), (k, i)] {
        if let Some(at) = edges.iter().position(|&e| e == (v << 32 | u)) {
            edges.swap_remove(at);
        } else {
            edges.push(u << 32 | v);
        }
    }
}

/// Whether the directed edges (u, v) (packed u·2³² + v) form one simple cycle: following
/// them from the first edge (each step takes the first edge that starts where the last one
/// ended) comes back to its start after exactly as many steps as there are edges. A second
/// loop, a pinch (a vertex starting two edges) or an open path never does: the walk is
/// deterministic, so it either returns early, stops, or circles without the start. The
/// horizon is short (tens of edges): a linear search per step is the cheap way.
pub(crate) fn is_simple_cycle(edges: &[u64]) -> bool {
    let start = |e: u64| e >> 32;
    let end = |e: u64| e & 0xffff_ffff;
    let Some(&first) = edges.first() else { return false };
    if edges.len() < 3 {
        return false;
    }
    let mut at = first;
    for steps in 1..=edges.len() {
        if end(at) == start(first) {
            return steps == edges.len();
        }
        match edges.iter().find(|&&f| start(f) == end(at)) {
            Some(&next) => at = next,
            None => return false,
        }
    }
    false
}

/// The origin is on ∂M to round-off: depth in [0, `extent`] (the extent of M measured on the
/// flat side, an upper bound of the depth), witnesses the common point.
fn flat_output(verts: &[Vertex], n: Vector3<f64>, extent: f64, it: u32) -> EpaOutput {
    let v = verts.iter().min_by(|x, y| x.w.norm_squared().total_cmp(&y.w.norm_squared())).copied();
    let (pa, pb) = v.map_or((Point3::origin(), Point3::origin()), |v| (v.a, v.b));
    let extent = extent.max(0.0);
    EpaOutput {
        status: EpaStatus::Flat,
        depth: extent,
        lower: 0.0,
        upper: extent,
        normal: n,
        point_a: pa,
        point_b: pb,
        iterations: it,
    }
}

/// A face with its outward unit normal (oriented away from `interior`) and plane distance
/// from the origin; `None` for a zero-area face. Always inlined: returned through memory, the
/// face was stored in pieces and reloaded whole, a store-forwarding stall that was a sixth of
/// the expansion's time.
#[inline(always)]
fn make_face(verts: &[Vertex], idx: [u32; 3], interior: &Vector3<f64>) -> Option<Face> {
    let [i, j, k] = idx.map(|x| x as usize);
    let (a, b, c) = (verts[i].w, verts[j].w, verts[k].w);
    let n = (b - a).cross(&(c - a));
    let len = n.norm();
    if !super::gt(len, 0.0) || !len.is_finite() {
        return None;
    }
    let mut n = n / len;
    let mut idx = idx;
    if n.dot(&(a - interior)) < 0.0 {
        n = -n;
        idx.swap(1, 2);
    }
    Some(Face { idx, n, dist: n.dot(&a), alive: true })
}

/// Extends `verts` (the GJK simplex, origin in its hull) to 4 affinely independent points: a
/// tetrahedron containing the origin (possibly on its boundary). Returns the flat answer when
/// M has no extent beyond `flat_tol` on one side of the simplex.
fn blow_up<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    diff: &mut Difference<'_, A, B>,
    verts: &mut Vec<Vertex>,
    flat_tol: f64,
    seed: &Vertex,
) -> Option<EpaOutput> {
    if verts.len() == 4 {
        return None;
    }
    // Support points of M maximizing ±n.
    let mut both = |n: &Vector3<f64>| (diff.support(&-n), diff.support(n));
    // Up to a segment.
    if verts.len() == 1 {
        let mut best: Option<Vertex> = None;
        let mut best_len = flat_tol;
        for axis in [Vector3::x(), Vector3::y(), Vector3::z()] {
            let (p, q) = both(&axis);
            for c in [p, q] {
                let l = (c.w - verts[0].w).norm();
                if l > best_len {
                    best_len = l;
                    best = Some(c);
                }
            }
        }
        match best {
            Some(c) => verts.push(c),
            // M lies within flat_tol of the origin along every axis: |depth| ≤ √3·flat_tol.
            None => return Some(flat_output(&[*seed], Vector3::x(), 3f64.sqrt() * flat_tol, 0)),
        }
    }
    // Up to a triangle.
    if verts.len() == 2 {
        let e = verts[1].w - verts[0].w;
        let e = e / e.norm();
        let mut best: Option<Vertex> = None;
        let mut best_h = flat_tol;
        for axis in [Vector3::x(), Vector3::y(), Vector3::z()] {
            let n = axis - e * e.dot(&axis);
            if n.norm() < 0.5 {
                continue;
            }
            let n = n.normalize();
            let (p, q) = both(&n);
            for c in [p, q] {
                let d = c.w - verts[0].w;
                let h = (d - e * e.dot(&d)).norm();
                if h > best_h {
                    best_h = h;
                    best = Some(c);
                }
            }
        }
        match best {
            Some(c) => verts.push(c),
            // M lies within flat_tol of the line through the segment (which holds the origin)
            // along two orthogonal directions: the depth is at most √2·flat_tol.
            None => {
                let n = e.cross(&Vector3::x());
                let n = if n.norm() > 0.5 { n.normalize() } else { e.cross(&Vector3::y()).normalize() };
                return Some(flat_output(verts, n, 2f64.sqrt() * flat_tol, 0));
            }
        }
    }
    // A tetrahedron over the triangle, on the side where M reaches further. The origin lies in
    // the triangle's plane (to rounding), so the extent on each side bounds the depth.
    let n = (verts[1].w - verts[0].w).cross(&(verts[2].w - verts[0].w));
    let len = n.norm();
    if !super::gt(len, 0.0) {
        return Some(flat_output(verts, Vector3::z(), flat_tol, 0));
    }
    let n = n / len;
    let (p, q) = both(&n);
    let up = n.dot(&(p.w - verts[0].w));
    let down = n.dot(&(verts[0].w - q.w));
    if !super::gt(up, flat_tol) {
        return Some(flat_output(verts, n, up.max(flat_tol), 0));
    }
    if !super::gt(down, flat_tol) {
        return Some(flat_output(verts, -n, down.max(flat_tol), 0));
    }
    verts.push(if up >= down { p } else { q });
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Cuboid, Point};
    use crate::{Pose, Shape};

    /// A tiny starting tetrahedron around the origin inside a large M (a box against a point):
    /// the first support points are far from the polytope and see whole vertex stars, so the
    /// visible faces form a disk with vertices inside it, whose horizon has fewer than
    /// faces + 2 edges. The expansion removes those vertices and converges to the box's depth
    /// (an edge count taken for the disk test stopped it as "stagnated" there).
    #[test]
    fn far_support_points_remove_whole_vertex_stars() {
        let a = Shape::Cuboid(Cuboid::new([1.0, 1.3, 0.8]).unwrap());
        let b = Shape::Point(Point::new([0.0, 0.0, 0.0]).unwrap());
        let frame = super::super::RelativeFrame::new(&Pose::identity(), &Pose::identity());
        let mut diff = Difference {
            a: &a,
            b: &b,
            frame,
            hint_a: super::super::COLD_HINT,
            hint_b: super::super::COLD_HINT,
        };
        let mut simplex = Simplex::new();
        for w in [[0.01, 0.0, -0.004], [-0.006, 0.009, -0.004], [-0.006, -0.009, -0.004], [0.0, 0.0, 0.012]] {
            let w = Vector3::from(w);
            simplex.push(Vertex { w, a: Point3::from(w), b: Point3::origin(), d: w, ha: 0, hb: 0 });
        }
        let e = expand(&mut diff, &simplex, 0.012, &super::super::GjkSettings::default());
        assert_eq!(e.status, EpaStatus::Converged, "{e:?}");
        // The box's closest face to its centre is z = ±0.8.
        assert!((e.depth - 0.8).abs() <= 1e-12 && e.lower <= 0.8 && 0.8 <= e.upper, "{e:?}");
    }

    #[test]
    fn horizon_cycles() {
        let e = |u: u64, v: u64| u << 32 | v;
        assert!(is_simple_cycle(&[e(1, 2), e(2, 3), e(3, 1)]));
        assert!(is_simple_cycle(&[e(2, 3), e(4, 1), e(1, 2), e(3, 4)]));
        // Two loops (an annulus's boundary), an open path, a repeated start, too short.
        assert!(!is_simple_cycle(&[e(1, 2), e(2, 3), e(3, 1), e(4, 5), e(5, 6), e(6, 4)]));
        assert!(!is_simple_cycle(&[e(1, 2), e(2, 3), e(3, 4)]));
        assert!(!is_simple_cycle(&[e(1, 2), e(1, 3), e(3, 1)]));
        assert!(!is_simple_cycle(&[e(1, 2), e(2, 1)]));
    }
}
