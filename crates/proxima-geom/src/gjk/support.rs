//! Support maps: the only access GJK and EPA have to a shape.
//!
//! A support map returns, for a direction m in the shape's local frame, a point s(m) of the
//! shape with m·s(m) = max_{x∈S} m·x — an *exact witness*: the point itself belongs to the
//! shape, so witness points built from convex combinations of support points lie in the
//! shape. `hint` carries a vertex index between calls for shapes that hill-climb (convex
//! polytopes with an adjacency); other shapes ignore it.
//!
//! [`Shape`] implements [`SupportMap`] for every bounded variant. [`core_of`] splits a shape
//! into a *core* and a radius (sphere = point ⊕ ball, capsule = segment ⊕ ball,
//! `Rounded(S, ρ)` = S ⊕ ball): GJK runs on the cores, which converges in finitely many
//! steps for polytopal cores, and the radii are added afterwards.

use nalgebra::{Matrix3, Point3, Vector3};

use super::support_cells::SupportCells;
use crate::pose::Pose;
use crate::shape::{
    ConvexPolytope, HILL_CLIMB_MIN_VERTICES, LANES_MIN_VERTICES, Shape, VertexLanes, lanes_available,
    linear_support,
};

/// The hint of a cold start: no previous vertex (hill climbing picks a seed vertex).
pub(crate) const COLD_HINT: u32 = u32::MAX;

/// A hint carried over from a previous query (warm start): a scanned vertex index becomes a
/// climbing start (see [`SCANNED`]); no hint stays none.
pub(crate) fn warm_hint(h: u32) -> u32 {
    if h == COLD_HINT { h } else { h & !SCANNED }
}

/// Hint bit: the vertex index in the low bits was found by a linear scan, not a climb; the
/// next query scans again (a cold run keeps its measured strategy). A warm start clears it
/// ([`warm_hint`]) so that tracking climbs from the previous support vertex. [`COLD_HINT`]
/// has it set.
pub(crate) const SCANNED: u32 = 1 << 31;

/// A convex shape known through its support function (local frame).
pub trait SupportMap {
    /// A point of the shape maximizing m·x (local frame). `hint`: see the module docs.
    fn local_support(&self, m: &Vector3<f64>, hint: &mut u32) -> Point3<f64>;

    /// The point a support query left in `hint` (a vertex index, for shapes that hill-climb),
    /// or `None` when the shape keeps no such points or `hint` is out of range. Used by warm
    /// starts to re-read a previous support point without a query; the default keeps none.
    fn hinted_vertex(&self, hint: u32) -> Option<Point3<f64>> {
        let _ = hint;
        None
    }

    /// Whether this map, used as B, answers in A's frame already (its points placed by the
    /// relative pose beforehand), so that the difference neither turns the direction into
    /// B's frame nor places the answer. Internal: the default (B's own frame) is the only
    /// meaning for maps outside this crate.
    #[doc(hidden)]
    #[inline(always)]
    fn placed(&self) -> bool {
        false
    }
}

impl SupportMap for Shape {
    /// Lines (unbounded) are not support maps: their support is the origin here, and every
    /// GJK entry point rejects them before calling this.
    fn local_support(&self, m: &Vector3<f64>, hint: &mut u32) -> Point3<f64> {
        self.local_support_hinted(m, hint).unwrap_or_else(Point3::origin)
    }

    fn hinted_vertex(&self, hint: u32) -> Option<Point3<f64>> {
        match self {
            Shape::ConvexPolytope(p) => p.vertices().get(usize::try_from(hint & !SCANNED).ok()?).copied(),
            _ => None,
        }
    }
}

/// The core of a shape: what GJK runs on before the radius is added back.
#[derive(Debug, Clone, Copy)]
pub(crate) enum CoreShape<'a> {
    /// The local origin (a sphere's centre).
    Origin,
    /// The segment (0, 0, ±h) (a capsule's axis).
    ZSegment(f64),
    /// A convex polytope whose support queries scan its vertices (below the hill-climbing
    /// threshold, on a cold query): the scan is inlined here instead of going through the
    /// shape's variant dispatch and hint logic, with the same answer and the same hint.
    Scanned(&'a ConvexPolytope),
    /// The shape itself.
    Whole(&'a Shape),
}

impl SupportMap for CoreShape<'_> {
    #[inline]
    fn local_support(&self, m: &Vector3<f64>, hint: &mut u32) -> Point3<f64> {
        match self {
            CoreShape::Origin => Point3::origin(),
            CoreShape::ZSegment(h) => Point3::new(0.0, 0.0, if m.z >= 0.0 { *h } else { -*h }),
            CoreShape::Scanned(p) => {
                let i = scan_support(p, m);
                *hint = scanned_hint(i);
                p.vertices()[i]
            }
            CoreShape::Whole(s) => s.local_support_hinted(m, hint).unwrap_or_else(Point3::origin),
        }
    }

    fn hinted_vertex(&self, hint: u32) -> Option<Point3<f64>> {
        match self {
            CoreShape::Scanned(p) => p.vertices().get(usize::try_from(hint & !SCANNED).ok()?).copied(),
            CoreShape::Whole(s) => s.hinted_vertex(hint),
            _ => None,
        }
    }
}

/// A convex polytope known by its vertices, whose support scans them: the support map of
/// [`CoreShape::Scanned`] as a type of its own, so that a GJK run between two of them is
/// monomorphized with the scan inlined into the loop (the direction stays in registers
/// instead of going through memory to an out-of-line call).
///
/// `simd` is the instruction set the run was dispatched to (`pulp`). With four f64 lanes
/// (x86-64 AVX2) the scan of a polytope of at least [`LANES_MIN_VERTICES`] vertices runs over
/// its [`VertexLanes`], four vertices per instruction; otherwise (smaller polytopes, the
/// scalar fallback, other lane counts) it goes vertex by vertex. Both return the first vertex
/// of largest m·v, computed with the same operations: the same vertex, the same hint.
///
/// Within a run, a polytope of at least [`NEAR_CLIMB_MIN_VERTICES`] vertices with a hull
/// adjacency first climbs from its previous support vertex (the hint): late GJK iterations
/// turn the direction only a little, so the answer is usually that vertex or a neighbour. The
/// climb answers only when it stops within [`NEAR_CLIMB_MOVES`] moves at a vertex whose
/// neighbours are all *strictly* below it — a maximizer by the adjacency's convexity argument
/// (`shape/adjacency.rs`) — and the scan answers otherwise (more moves, or an exact tie, where
/// the scan's first-maximizer rule decides). Supports are then maximizers either way, but on a
/// tie in rounded values a climb may return another maximizer than the scan would.
#[derive(Debug, Clone, Copy)]
pub(crate) struct VertexCloud<'a, S> {
    pub polytope: &'a ConvexPolytope,
    pub simd: S,
}

/// Index of the first vertex of `p` with the largest m·v: from the polytope's support lists
/// when it has them and they answer (`shape/cells_slot.rs`), else the vector scan when the
/// processor runs it and the polytope has at least [`LANES_MIN_VERTICES`] vertices
/// (dispatched per call), else vertex by vertex. Same answer every way.
#[inline]
pub(crate) fn scan_support(p: &ConvexPolytope, m: &Vector3<f64>) -> usize {
    let v = p.vertices();
    if let Some(cells) = p.support_cells()
        && let Some(i) = cells.support(v, m)
    {
        return i;
    }
    let lanes = if v.len() < LANES_MIN_VERTICES {
        None
    } else {
        pulp::Arch::new().dispatch(LaneScan { lanes: p.lanes(), m })
    };
    lanes.unwrap_or_else(|| linear_support(v, m))
}

/// One blocked scan as a `pulp` operation, compiled with the dispatched instruction set.
struct LaneScan<'a> {
    lanes: &'a VertexLanes,
    m: &'a Vector3<f64>,
}

impl pulp::WithSimd for LaneScan<'_> {
    type Output = Option<usize>;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) -> Option<usize> {
        self.lanes.support(simd, self.m)
    }
}

impl<S: pulp::Simd> SupportMap for VertexCloud<'_, S> {
    #[inline(always)]
    fn local_support(&self, m: &Vector3<f64>, hint: &mut u32) -> Point3<f64> {
        let v = self.polytope.vertices();
        // Near the previous support of the run (late GJK iterations turn the direction only
        // a little): a short climb over the hull graph, proven by its neighbours.
        if *hint != COLD_HINT
            && v.len() >= NEAR_CLIMB_MIN_VERTICES
            && let Some(adj) = self.polytope.adjacency()
            && let Some(i) = adj.climb_near(v, m, (*hint & !SCANNED) as usize, NEAR_CLIMB_MOVES)
        {
            *hint = scanned_hint(i);
            return v[i];
        }
        let lanes = if S::IS_SCALAR || v.len() < LANES_MIN_VERTICES {
            None
        } else {
            pulp::Simd::vectorize(self.simd, LaneScan { lanes: self.polytope.lanes(), m })
        };
        let i = lanes.unwrap_or_else(|| linear_support(v, m));
        *hint = scanned_hint(i);
        v[i]
    }

    fn hinted_vertex(&self, hint: u32) -> Option<Point3<f64>> {
        self.polytope.vertices().get(usize::try_from(hint & !SCANNED).ok()?).copied()
    }
}

/// A [`VertexCloud`] with the candidate lists of its vertices ([`SupportCells`]): a support
/// query is answered from the few vertices listed for the direction's cell — the scan's
/// first maximizer, bit for bit (see `support_cells.rs`) — and falls back to the cloud's
/// own query where the table does not answer (zero, NaN or extreme directions) or is absent.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CelledCloud<'a, S> {
    pub cloud: VertexCloud<'a, S>,
    pub cells: Option<&'a SupportCells>,
}

impl<S: pulp::Simd> SupportMap for CelledCloud<'_, S> {
    #[inline(always)]
    fn local_support(&self, m: &Vector3<f64>, hint: &mut u32) -> Point3<f64> {
        let v = self.cloud.polytope.vertices();
        if let Some(cells) = self.cells
            && let Some(i) = cells.support(v, m)
        {
            *hint = scanned_hint(i);
            return v[i];
        }
        self.cloud.local_support(m, hint)
    }

    fn hinted_vertex(&self, hint: u32) -> Option<Point3<f64>> {
        self.cloud.hinted_vertex(hint)
    }
}

/// Moves a climb from the previous support of a run may take before the scan answers instead
/// (see [`VertexCloud`]). Measured on the Panda/iiwa hull tracks' cold steps (each step
/// repeated, best of 3, one pinned core, shared machine; ns per step, all hull sizes): scan
/// only 1476, 0 moves (the hint verified) 1470, 1 move 1387, 2 moves 1374, 4 moves 1350,
/// 8 moves 1338, unbounded 1350.
const NEAR_CLIMB_MOVES: u32 = 4;

/// Polytopes with fewer vertices always scan (see [`VertexCloud`]): a four-lane scan of
/// 100–150 vertices costs about what a climb's few dozen scattered dot products and
/// data-dependent exits do. Climbing from 102-vertex Panda hulls up was even on the hot
/// per-query measure but 8% slower on the robot pairs under 5 cm apart in a full pass
/// (`bench-geometry` on `scripts/robot-pair-queries.py`'s `robot_pairs_near`, 1246 → 1351 and
/// 1265 → 1369 ns per query); the hull tracks, whose iiwa hulls have 189–576 vertices, gain
/// (track_cold 1650 → 1547 ns per step). Re-measured on the Panda's 102–152-vertex hulls
/// (2026-11-27, `proxima bench-robot` on `panda_self_1000`, pinned, shared machine, 3
/// interleaved rounds, bound 192 → 100): answers identical, 2.1% fewer instructions
/// (callgrind), but the `distances` section 6% slower (38.8–39.1 → 41.1–42.7 µs per
/// configuration, best of each over 5 passes): the climb's data-dependent exits cost more
/// than the vector work it saves. With the cheaper scan ending (2026-11-27, after the step
/// counter and bit-read index of `vertex_lanes.rs`), bound 192 → 320 (the Panda's 260-vertex
/// link scanned): answers identical, `distances` 35.8–35.9 → 35.3–35.6 µs per configuration
/// (best of each, 3 interleaved rounds), and no gain on the robot hull tracks' cold steps
/// (median step over 5 rounds 1332 → 1342 ns; iiwa hulls of 253–315 vertices scanned too):
/// 1.3% on one workload is within what layout moves, kept at 192.
pub(crate) const NEAR_CLIMB_MIN_VERTICES: usize = 192;

/// Below this many vertices a cold query scans a polytope with the vector scan rather than
/// hill-climbing, when the processor has it ([`lanes_available`]). Measured with
/// `cargo bench --bench gjk` (unsigned, ns per query, climbing → vector scan): polytope_128
/// (hulls of 112–120 vertices) 1592 → 1082, polytope_256 (189–204) 1821 → 1314,
/// polytope_512 (283–292) 1966 → 1564, polytope_1024 (393–415) 2074 → 1828, and the same on
/// the ellipsoid hulls. The scan still wins by 12% at 415 vertices, the largest hulls
/// measured; the bound stays close to them.
pub(crate) const LANE_SCAN_MAX_VERTICES: usize = 512;

/// A small vertex cloud placed in A's frame beforehand (x_A = R·x_B + t for each vertex,
/// computed as [`Difference::support`] places a support point): its supports skip the two
/// frame changes per query, which a GJK iteration otherwise waits on. Worth it for clouds
/// whose placement (one per vertex) costs less than those changes over a run. Hints are the
/// vertex indices, as for the cloud in its own frame. The scan compares d·(R v + t) instead
/// of (Rᵀd)·v: equal up to rounding, so a vertex can win a near-tie (values within a few
/// ulps) that another would win in B's frame; the support value, hence every bound, is the
/// same to that rounding.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlacedCloud<'a>(pub &'a [Point3<f64>]);

impl SupportMap for PlacedCloud<'_> {
    #[inline(always)]
    fn local_support(&self, m: &Vector3<f64>, hint: &mut u32) -> Point3<f64> {
        let i = linear_support(self.0, m);
        *hint = scanned_hint(i);
        self.0[i]
    }

    #[inline(always)]
    fn placed(&self) -> bool {
        true
    }
}

/// The hint left by a linear scan that found vertex `i`: the index flagged [`SCANNED`]
/// (u32 indices: no polytope reaches 2³¹ vertices; a larger index is no hint).
pub(crate) fn scanned_hint(i: usize) -> u32 {
    u32::try_from(i).map_or(COLD_HINT, |i| i | SCANNED)
}

/// The core for a *cold* query (no warm-start hints): as [`core_of`], with convex polytopes
/// that every support query of the run would scan (fewer than [`HILL_CLIMB_MIN_VERTICES`]
/// vertices, or no adjacency) as [`CoreShape::Scanned`], and so are those below
/// [`LANE_SCAN_MAX_VERTICES`] when the vector scan runs here — unless the polytope has a
/// direction table (at least
/// [`DIRECTION_TABLE_MIN_VERTICES`](crate::shape::DIRECTION_TABLE_MIN_VERTICES) vertices), whose cold queries
/// climb from the table's start for their direction. A polytope with support lists
/// (`shape/cells_slot.rs`) is scanned through them, whatever its size. A cold run's hints always carry
/// [`SCANNED`] for those, so [`Shape::local_support_hinted`] scans them too: same points,
/// same hints.
pub(crate) fn cold_core_of(s: &Shape) -> (CoreShape<'_>, f64) {
    match s {
        Shape::ConvexPolytope(p) if cold_scans(p) => (CoreShape::Scanned(p), 0.0),
        _ => core_of(s),
    }
}

/// Whether a cold run scans `p` (see [`cold_core_of`]).
pub(crate) fn cold_scans(p: &ConvexPolytope) -> bool {
    // A hull with support lists reads them (`shape/cells_slot.rs`); one with a direction
    // table climbs from it (measured faster than the scans there).
    p.support_cells().is_some()
        || (p.direction_table().is_none()
            && (p.adjacency().is_none()
                || p.vertices().len() < HILL_CLIMB_MIN_VERTICES
                || (p.vertices().len() < LANE_SCAN_MAX_VERTICES && lanes_available())))
}

/// (core, radius) with shape = core ⊕ ball(radius).
pub(crate) fn core_of(s: &Shape) -> (CoreShape<'_>, f64) {
    match s {
        Shape::Sphere(x) => (CoreShape::Origin, x.radius()),
        Shape::Capsule(x) => (CoreShape::ZSegment(x.half_height()), x.radius()),
        Shape::Rounded(x) => {
            let (c, r) = core_of(x.inner());
            (c, r + x.radius())
        }
        _ => (CoreShape::Whole(s), 0.0),
    }
}

/// B's placement in A's frame: x_A = R·x_B + t with R = R_Aᵀ R_B, t = R_Aᵀ (t_B − t_A).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RelativeFrame {
    pub r: Matrix3<f64>,
    pub t: Vector3<f64>,
}

impl RelativeFrame {
    /// R = R_Aᵀ R_B and t = R_Aᵀ (t_B − t_A), written out: entry (i, j) of R is
    /// Σ_k R_A[k, i] R_B[k, j] and t_i = Σ_k R_A[k, i] d_k (d = t_B − t_A), each summed in the
    /// order k = 0, 1, 2 — the order of nalgebra's product `R_A.transpose() * R_B` it replaces
    /// (its gemv starts from the k = 0 product, then adds the k = 1 and k = 2 products, each
    /// times α = β = 1, exact), so the bits are the same, signed zeros included (x + y = y + x
    /// in IEEE arithmetic), without the transposed copy and the generic loops.
    #[inline]
    pub fn new(pa: &Pose, pb: &Pose) -> Self {
        let (ra, rb) = (pa.rotation(), pb.rotation());
        let d = pb.translation() - pa.translation();
        // Column i of R_A is row i of R_Aᵀ.
        let dot = |i: usize, v: [f64; 3]| ra[(0, i)] * v[0] + ra[(1, i)] * v[1] + ra[(2, i)] * v[2];
        let col_b = |j: usize| [rb[(0, j)], rb[(1, j)], rb[(2, j)]];
        let (b0, b1, b2) = (col_b(0), col_b(1), col_b(2));
        let r = Matrix3::new(
            dot(0, b0),
            dot(0, b1),
            dot(0, b2),
            dot(1, b0),
            dot(1, b1),
            dot(1, b2),
            dot(2, b0),
            dot(2, b1),
            dot(2, b2),
        );
        let dv = [d.x, d.y, d.z];
        Self { r, t: Vector3::new(dot(0, dv), dot(1, dv), dot(2, dv)) }
    }
}

/// The Minkowski difference A − B in A's frame, with the hill-climbing hints of both shapes.
pub(crate) struct Difference<'s, A: ?Sized, B: ?Sized> {
    pub a: &'s A,
    pub b: &'s B,
    pub frame: RelativeFrame,
    pub hint_a: u32,
    pub hint_b: u32,
}

impl<A: SupportMap + ?Sized, B: SupportMap + ?Sized> Difference<'_, A, B> {
    /// The point w = s_A(−d) − s_B(d) minimizing d·x over A − B, with its two support points
    /// (A's frame). Always inlined: the direction is consumed in registers where it was just
    /// computed (a call would store it and reload it, waiting on the store).
    #[inline(always)]
    pub fn support(&mut self, d: &Vector3<f64>) -> super::simplex::Vertex {
        let a = self.a.local_support(&-d, &mut self.hint_a);
        let b = if self.b.placed() {
            self.b.local_support(d, &mut self.hint_b)
        } else {
            let db = self.frame.r.tr_mul(d);
            let bl = self.b.local_support(&db, &mut self.hint_b);
            Point3::from(self.frame.r * bl.coords + self.frame.t)
        };
        super::simplex::Vertex { w: a - b, a, b, d: *d, ha: self.hint_a, hb: self.hint_b }
    }
}

#[cfg(test)]
mod tests {
    //! The written-out relative frame against nalgebra's products it replaces, bit for bit
    //! (signed zeros included): exact rotations, rotations with zero entries (axis swaps, whose
    //! products are ±0) and rotations rounded to 12 digits, as data files hold them.

    use nalgebra::{Matrix3, Rotation3, Vector3};

    use super::RelativeFrame;
    use crate::pose::Pose;

    fn reference(pa: &Pose, pb: &Pose) -> (Matrix3<f64>, Vector3<f64>) {
        let rat = pa.rotation().transpose();
        (rat * pb.rotation(), rat * (pb.translation() - pa.translation()))
    }

    #[test]
    fn written_out_frame_is_nalgebras_product_bit_for_bit() {
        let mut poses = vec![Pose::identity()];
        let swap = Matrix3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0);
        poses.push(Pose::from_matrix(swap, Vector3::new(-0.0, 2.0, 0.0)).unwrap());
        let flip = Matrix3::new(-1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0);
        poses.push(Pose::from_matrix(flip, Vector3::new(0.0, -0.0, -3.5)).unwrap());
        for k in 0..40 {
            let f = k as f64;
            let r = *Rotation3::from_euler_angles(0.37 * f, 1.3 - 0.11 * f, 0.29 * f * f).matrix();
            let rounded = r.map(|x| (x * 1e12).round() / 1e12);
            let t = Vector3::new(f.sin() * 10.0, 1e3 * f.cos(), -0.5 * f);
            poses.push(Pose::from_matrix(r, t).unwrap());
            poses.push(Pose::from_matrix(rounded, -t).unwrap());
        }
        let bits = |m: &[f64]| m.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for pa in &poses {
            for pb in &poses {
                let f = RelativeFrame::new(pa, pb);
                let (r, t) = reference(pa, pb);
                assert_eq!(bits(f.r.as_slice()), bits(r.as_slice()), "{pa:?} {pb:?}");
                assert_eq!(bits(f.t.as_slice()), bits(t.as_slice()), "{pa:?} {pb:?}");
            }
        }
    }
}
