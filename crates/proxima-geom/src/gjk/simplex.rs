//! The GJK simplex: up to four points wᵢ = aᵢ − bᵢ of the Minkowski difference, with the
//! support points aᵢ ∈ A, bᵢ ∈ B that produced them, and the sub-algorithm that projects the
//! origin onto their convex hull.
//!
//! # Maths
//!
//! The closest point of conv{w₀..w_k} to the origin is found by Voronoi-region tests
//! (Ericson, *Real-Time Collision Detection*, §5.1): for a segment, the clamped parameter; for
//! a triangle, the sign tests on the dot products d₁..d₆ and the barycentric "areas"
//! v_a, v_b, v_c; for a tetrahedron, the triangles whose plane separates the origin from the
//! opposite vertex, keeping the closest. The simplex is then reduced to the vertices with a
//! positive weight, and the same weights λᵢ give the witnesses Σλᵢaᵢ ∈ A, Σλᵢbᵢ ∈ B with
//! Σλᵢaᵢ − Σλᵢbᵢ = v.
//!
//! # Edge cases
//!
//! * A flat tetrahedron (|6·volume| ≤ 1e-12 × its size³) cannot enclose the origin: every face
//!   is tried and the closest kept, so degenerate simplices never report containment.
//! * A thin but not flat tetrahedron around the origin: its volume-ratio weights carry errors
//!   of order ε·size/height, so Σ λ w can miss the origin by more than 64 ulps; one step of
//!   iterative refinement (linear in the residual) brings it back before the weights are
//!   accepted, and the closest face decides only if that fails.
//! * A zero-length edge or zero-area triangle falls back to its vertices / edges (the region
//!   tests degrade gracefully because every denominator is checked before use).

use nalgebra::{Point3, Vector3};

/// One vertex: w = a − b with its support points (all in the computation frame) and the
/// search direction d that produced it (w minimizes d·x over A − B; kept for warm starts).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Vertex {
    pub w: Vector3<f64>,
    pub a: Point3<f64>,
    pub b: Point3<f64>,
    pub d: Vector3<f64>,
    /// The hill-climbing hints (vertex indices) at which the supports of A and B were found.
    pub ha: u32,
    pub hb: u32,
}

/// Up to four vertices and the barycentric weights of the current closest point.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Simplex {
    pub v: [Vertex; 4],
    pub lambda: [f64; 4],
    pub len: usize,
}

/// An unused slot. All bits zero (hints 0 too: a slot's hints are read only once a support
/// pair was pushed there), so that a new simplex is cleared with a few vector stores instead
/// of a copy from a constant (a `memcpy` call on every GJK run).
const ZERO: Vertex = Vertex {
    w: Vector3::new(0.0, 0.0, 0.0),
    a: Point3::new(0.0, 0.0, 0.0),
    b: Point3::new(0.0, 0.0, 0.0),
    d: Vector3::new(0.0, 0.0, 0.0),
    ha: 0,
    hb: 0,
};

/// Relative flatness threshold of a tetrahedron.
const FLAT_TETRAHEDRON: f64 = 1e-12;

impl Simplex {
    pub fn new() -> Self {
        Self { v: [ZERO; 4], lambda: [0.0; 4], len: 0 }
    }

    pub fn push(&mut self, x: Vertex) {
        debug_assert!(self.len < 4);
        self.v[self.len] = x;
        self.len += 1;
    }

    /// The triangle of an expanding polytope's face (vertex indices into `verts`), as a
    /// simplex for the Newton finish of EPA and of the warm contact polytope.
    pub fn of_face(verts: &[Vertex], idx: &[u32; 3]) -> Self {
        let mut s = Self::new();
        for &k in idx {
            s.push(verts[k as usize]);
        }
        s
    }

    /// Whether `w` is (bitwise) one of the current vertices.
    #[inline(always)]
    pub fn contains(&self, w: &Vector3<f64>) -> bool {
        self.v[..self.len].iter().any(|x| x.w == *w)
    }

    /// Witness points Σλᵢaᵢ, Σλᵢbᵢ. Always inlined: as a call its two points came back
    /// through memory, written as (x, y) and z and read back across those stores by the
    /// caller's copy (a store-forwarding stall per query).
    #[inline(always)]
    pub fn witnesses(&self) -> (Point3<f64>, Point3<f64>) {
        let mut pa = Vector3::zeros();
        let mut pb = Vector3::zeros();
        for i in 0..self.len {
            pa += self.v[i].a.coords * self.lambda[i];
            pb += self.v[i].b.coords * self.lambda[i];
        }
        (Point3::from(pa), Point3::from(pb))
    }

    /// Projects the origin onto the hull of the vertices, reduces the simplex to the support
    /// of the projection, sets the weights and returns the closest point v. A returned length
    /// of 4 means the origin is inside the (non-flat) tetrahedron: v = 0.
    pub fn project_origin(&mut self) -> Vector3<f64> {
        let p = self.plan(false);
        self.apply(&p)
    }

    /// The projection of the origin without changing the simplex (see
    /// [`Simplex::project_origin`]); [`Simplex::apply`] then reduces the simplex. `robust`:
    /// the triangle sub-problem is solved by explicit candidates (the plane projection when
    /// its barycentric weights are non-negative, else the closest edge point) instead of
    /// Voronoi-region sign tests: slower, but immune to the cancellation of the region tests
    /// on nearly degenerate triangles. Planning first lets the GJK loop try the robust variant
    /// on the same vertices without copying the simplex.
    pub fn plan(&self, robust: bool) -> Projection {
        self.plan_inlined(robust)
    }

    /// [`Simplex::plan`] inlined into its caller. The GJK loop's projection uses it so that,
    /// in a run dispatched to an instruction set (`pulp`, e.g. the vertex-scanned polytope
    /// runs), the projection is compiled with that set too — three-operand AVX forms instead
    /// of SSE2 register copies and spills — instead of calling the baseline `plan`. The same
    /// IEEE operations in the same order (no contraction into fused multiply-adds): the
    /// same bits.
    #[inline(always)]
    pub(crate) fn plan_inlined(&self, robust: bool) -> Projection {
        match self.len {
            1 => Projection { idx: [0; 4], lambda: [1.0, 0.0, 0.0, 0.0], len: 1, v: self.v[0].w },
            2 => self.plan_segment(),
            3 => self.plan_triangle(robust),
            _ => self.plan_tetrahedron(robust),
        }
    }

    /// Reduces the simplex to a planned projection's vertices and weights; returns its v.
    /// Always inlined: as a call it took the projection through memory and moved each kept
    /// vertex with a `memcpy` call.
    #[inline(always)]
    pub fn apply(&mut self, p: &Projection) -> Vector3<f64> {
        let idx = &p.idx[..p.len];
        // Increasing indices (every plan produces them: the region tests, the explicit
        // candidates and the tetrahedron's faces list their vertices in increasing order):
        // slot k is written from slot idx[k] ≥ k, which later steps (reading idx[k'] >
        // idx[k]) never read, so the compaction runs in place without copying the simplex.
        debug_assert!(idx.windows(2).all(|q| q[0] < q[1]), "{idx:?}");
        for (k, &i) in idx.iter().enumerate() {
            if i != k {
                self.v[k] = self.v[i];
            }
        }
        // All four weights, past `p.len` too (nothing reads a weight past the length: the
        // witnesses sum over the kept vertices): a fixed 32-byte move, where the copy of
        // `p.len` weights was a `memcpy` call on every projection in the wheel build (fat
        // LTO, one codegen unit; polytope rows, 1.8 calls per row).
        self.lambda = p.lambda;
        self.len = p.len;
        p.v
    }

    /// The projection keeping vertices `idx` with weights `lambda` (v = Σ λₖ w_idx[k]).
    /// Always inlined: each region's constant indices then select the vertices directly.
    #[inline(always)]
    fn keep(&self, idx: &[usize], lambda: &[f64]) -> Projection {
        let mut p = Projection { idx: [0; 4], lambda: [0.0; 4], len: idx.len(), v: Vector3::zeros() };
        for (k, (&i, &l)) in idx.iter().zip(lambda).enumerate() {
            p.idx[k] = i;
            p.lambda[k] = l;
            p.v += self.v[i].w * l;
        }
        p
    }

    #[inline(always)]
    fn plan_segment(&self) -> Projection {
        let (a, b) = (self.v[0].w, self.v[1].w);
        let (i, l) = segment_region(&a, &b);
        match i {
            SegmentRegion::A => self.keep(&[0], &[1.0]),
            SegmentRegion::B => self.keep(&[1], &[1.0]),
            SegmentRegion::Inside => self.keep(&[0, 1], &[1.0 - l, l]),
        }
    }

    #[inline(always)]
    fn plan_triangle(&self, robust: bool) -> Projection {
        let t = [self.v[0].w, self.v[1].w, self.v[2].w];
        let (idx, lam, n) = if robust { triangle_candidates(t) } else { triangle_region(t) };
        self.keep(&idx.0[..n], &lam[..n])
    }

    #[inline(always)]
    fn plan_tetrahedron(&self, robust: bool) -> Projection {
        let p = [self.v[0].w, self.v[1].w, self.v[2].w, self.v[3].w];
        let faces: [[usize; 4]; 4] = [[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 3, 1], [1, 2, 3, 0]];
        // 6·volume and a size for the flatness test.
        let vol = (p[1] - p[0]).dot(&(p[2] - p[0]).cross(&(p[3] - p[0])));
        // max of the edge lengths from p₀, with one square root (√ is monotone and correctly
        // rounded: the same value as the max of the three norms).
        let size = (p[1] - p[0])
            .norm_squared()
            .max((p[2] - p[0]).norm_squared())
            .max((p[3] - p[0]).norm_squared())
            .sqrt();
        let flat = !super::gt(vol.abs(), FLAT_TETRAHEDRON * size * size * size);
        let mut best: Option<FaceProjection> = None;
        let closest_face =
            |best: &mut Option<FaceProjection>, tri: [usize; 3]| closest_face(&p, robust, best, tri);
        let mut inside = !flat;
        for f in faces {
            let (i, j, k, o) = (f[0], f[1], f[2], f[3]);
            if !flat {
                let n = (p[j] - p[i]).cross(&(p[k] - p[i]));
                let side_origin = -p[i].dot(&n);
                let side_opposite = (p[o] - p[i]).dot(&n);
                // The origin is strictly on the opposite vertex's side of this face: not the
                // face's region.
                if side_origin * side_opposite > 0.0 {
                    continue;
                }
            }
            inside = false;
            closest_face(&mut best, [i, j, k]);
        }
        if inside {
            // Barycentric coordinates of the origin: ratios of signed volumes.
            let vol_of = |a: Vector3<f64>, b: Vector3<f64>, c: Vector3<f64>, d: Vector3<f64>| {
                (b - a).dot(&(c - a).cross(&(d - a)))
            };
            let z = Vector3::zeros();
            let sub = [
                vol_of(z, p[1], p[2], p[3]),
                vol_of(p[0], z, p[2], p[3]),
                vol_of(p[0], p[1], z, p[3]),
                vol_of(p[0], p[1], p[2], z),
            ];
            // Normalised by their own sum (= vol in exact arithmetic): the witnesses Σ λ a and
            // Σ λ b are then affine combinations of support points with Σ λ = 1 to rounding.
            // Divided by `vol` instead, a nearly flat tetrahedron (contact at a depth of
            // ~1e-12) gave Σ λ = 1 + 3e-11: a witness 6e-12 outside a curved shape.
            let total: f64 = sub.iter().sum();
            let mut l =
                if total != 0.0 && total.is_finite() { sub.map(|x| x / total) } else { sub.map(|x| x / vol) };
            // The weights must reproduce the origin: on a tetrahedron too flat for its volumes
            // (a contact of depth ~1e-13) they need not, and Σ λ w then misses the origin by
            // up to 1e-7 — witnesses that are no common point. The closest face decides then.
            let size = p.iter().fold(0.0_f64, |m, w| m.max(w.amax()));
            let tolerance = 64.0 * f64::EPSILON * size;
            let mut residual = (0..4).fold(Vector3::zeros(), |acc, k| acc + p[k] * l[k]);
            if residual.amax() > tolerance {
                // A thin but not flat tetrahedron (height h ≪ size): the weights carry errors
                // of order ε·size/h, so Σ λ w misses the origin by ε·size²/h. One step of
                // iterative refinement removes that: δλ = −(∇λ)·r is linear in the small
                // residual r (∇λₖ = nₖ / nₖ·(wₖ − w_face), nₖ the normal of the face opposite
                // k), so its own error is of order ε·|δλ|.
                for (o, f) in [(3usize, [0usize, 1, 2]), (2, [0, 1, 3]), (1, [0, 2, 3]), (0, [1, 2, 3])] {
                    let n = (p[f[1]] - p[f[0]]).cross(&(p[f[2]] - p[f[0]]));
                    let height = (p[o] - p[f[0]]).dot(&n);
                    if height != 0.0 {
                        l[o] -= n.dot(&residual) / height;
                    }
                }
                residual = (0..4).fold(Vector3::zeros(), |acc, k| acc + p[k] * l[k]);
            }
            if residual.amax() <= tolerance && l.iter().all(|&x| x >= 0.0) {
                return Projection { idx: [0, 1, 2, 3], lambda: l, len: 4, v: Vector3::zeros() };
            }
            for f in faces {
                closest_face(&mut best, [f[0], f[1], f[2]]);
            }
        }
        match best {
            Some((_, sel, lam, n)) => self.keep(&sel[..n], &lam[..n]),
            None => self.keep(&[0], &[1.0]),
        }
    }
}

/// The projection of the origin onto a tetrahedron's face: (|v|², kept vertices, weights, count).
type FaceProjection = (f64, [usize; 3], [f64; 3], usize);

/// The projection of the origin onto face `tri` of the tetrahedron `p` when it is closer
/// than `best`. Inlined with [`triangle_region`] at each of its call sites in
/// [`Simplex::plan`]'s tetrahedron case: as calls they were a third of that case's
/// instructions (the face's points copied to the callee, the weights and indices back).
#[inline(always)]
fn closest_face(p: &[Vector3<f64>; 4], robust: bool, best: &mut Option<FaceProjection>, tri: [usize; 3]) {
    let tri_pts = [p[tri[0]], p[tri[1]], p[tri[2]]];
    let (idx, lam, n) = if robust { triangle_candidates(tri_pts) } else { triangle_region(tri_pts) };
    let mut v = Vector3::zeros();
    for m in 0..n {
        v += p[tri[idx.0[m]]] * lam[m];
    }
    let d = v.norm_squared();
    if best.is_none_or(|b| d < b.0) {
        let sel = [tri[idx.0[0]], tri[idx.0[1]], tri[idx.0[2]]];
        *best = Some((d, sel, lam, n));
    }
}

/// A planned projection of the origin onto the simplex (see [`Simplex::plan`]).
///
/// Laid out with `v` first, on a 16-byte boundary: the plan is built in memory (its regions
/// are branches), and `v` is written as (x, y) and z; at an offset of 8 mod 16 the loop's
/// read of (y, z) for |v| and the next direction spanned those two stores, which the
/// processor cannot forward (the read waits for both to retire).
#[derive(Debug, Clone, Copy)]
#[repr(C, align(16))]
pub(crate) struct Projection {
    /// The closest point Σ λₖ w_idx[k].
    pub v: Vector3<f64>,
    /// Number of kept vertices (4: the origin is inside the tetrahedron, v = 0).
    pub len: usize,
    /// Kept vertex indices, increasing; the first `len` are used.
    idx: [usize; 4],
    /// Their weights.
    lambda: [f64; 4],
}

enum SegmentRegion {
    A,
    B,
    Inside,
}

/// Closest point of [a, b] to the origin: region and parameter t (point a + t(b − a)).
/// Always inlined: the GJK loop's segment step called it out of line on nearly every query.
#[inline(always)]
fn segment_region(a: &Vector3<f64>, b: &Vector3<f64>) -> (SegmentRegion, f64) {
    let ab = b - a;
    let t = -a.dot(&ab);
    if t <= 0.0 {
        return (SegmentRegion::A, 0.0);
    }
    let len2 = ab.norm_squared();
    if t >= len2 {
        return (SegmentRegion::B, 1.0);
    }
    (SegmentRegion::Inside, t / len2)
}

/// Closest point of a triangle to the origin by explicit candidates: the projection onto
/// the plane when it falls inside (weights from sub-triangle areas), else the best of the
/// three clamped edge projections. Kept out of line: only the rare robust re-plan calls it.
#[inline(never)]
fn triangle_candidates(t: [Vector3<f64>; 3]) -> (Vec3Idx, [f64; 3], usize) {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let nn = n.norm_squared();
    if nn > 0.0 && nn.is_finite() {
        let p = n * (n.dot(&t[0]) / nn);
        let l0 = (t[1] - p).cross(&(t[2] - p)).dot(&n) / nn;
        let l1 = (t[2] - p).cross(&(t[0] - p)).dot(&n) / nn;
        let l2 = 1.0 - l0 - l1;
        if l0 > 0.0 && l1 > 0.0 && l2 > 0.0 {
            return (Vec3Idx([0, 1, 2]), [l0, l1, l2], 3);
        }
    }
    let mut best = (f64::INFINITY, Vec3Idx([0, 0, 0]), [1.0, 0.0, 0.0], 1);
    for (i, j) in [(0usize, 1usize), (0, 2), (1, 2)] {
        let (region, s) = segment_region(&t[i], &t[j]);
        let (idx, lam, m) = match region {
            SegmentRegion::A => (Vec3Idx([i, 0, 0]), [1.0, 0.0, 0.0], 1),
            SegmentRegion::B => (Vec3Idx([j, 0, 0]), [1.0, 0.0, 0.0], 1),
            SegmentRegion::Inside => (Vec3Idx([i, j, 0]), [1.0 - s, s, 0.0], 2),
        };
        let mut v = Vector3::zeros();
        for k in 0..m {
            v += t[idx.0[k]] * lam[k];
        }
        if v.norm_squared() < best.0 {
            best = (v.norm_squared(), idx, lam, m);
        }
    }
    (best.1, best.2, best.3)
}

/// The point of the triangle `t` closest to the origin (Voronoi-region tests).
pub(crate) fn closest_to_origin(t: [Vector3<f64>; 3]) -> Vector3<f64> {
    let (idx, lam, n) = triangle_region(t);
    let mut v = Vector3::zeros();
    for k in 0..n {
        v += t[idx.0[k]] * lam[k];
    }
    v
}

/// Indices (into the triangle's 3 vertices) of the support, padded.
#[derive(Debug, Clone, Copy)]
struct Vec3Idx([usize; 3]);

/// Closest point of triangle (a, b, c) to the origin: (support indices, weights, count).
#[inline(always)]
fn triangle_region(t: [Vector3<f64>; 3]) -> (Vec3Idx, [f64; 3], usize) {
    let [a, b, c] = t;
    let ab = b - a;
    let ac = c - a;
    let d1 = -ab.dot(&a);
    let d2 = -ac.dot(&a);
    if d1 <= 0.0 && d2 <= 0.0 {
        return (Vec3Idx([0, 0, 0]), [1.0, 0.0, 0.0], 1);
    }
    let d3 = -ab.dot(&b);
    let d4 = -ac.dot(&b);
    if d3 >= 0.0 && d4 <= d3 {
        return (Vec3Idx([1, 0, 0]), [1.0, 0.0, 0.0], 1);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let s = d1 / (d1 - d3);
        return (Vec3Idx([0, 1, 0]), [1.0 - s, s, 0.0], 2);
    }
    let d5 = -ab.dot(&c);
    let d6 = -ac.dot(&c);
    if d6 >= 0.0 && d5 <= d6 {
        return (Vec3Idx([2, 0, 0]), [1.0, 0.0, 0.0], 1);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let s = d2 / (d2 - d6);
        return (Vec3Idx([0, 2, 0]), [1.0 - s, s, 0.0], 2);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let s = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return (Vec3Idx([1, 2, 0]), [1.0 - s, s, 0.0], 2);
    }
    let sum = va + vb + vc;
    if !super::gt(sum, 0.0) {
        // Zero-area triangle that passed every region test (rounding): best edge.
        let mut best = (f64::INFINITY, Vec3Idx([0, 0, 0]), [1.0, 0.0, 0.0], 1);
        for (i, j) in [(0usize, 1usize), (0, 2), (1, 2)] {
            let (region, s) = segment_region(&t[i], &t[j]);
            let (idx, lam, n) = match region {
                SegmentRegion::A => (Vec3Idx([i, 0, 0]), [1.0, 0.0, 0.0], 1),
                SegmentRegion::B => (Vec3Idx([j, 0, 0]), [1.0, 0.0, 0.0], 1),
                SegmentRegion::Inside => (Vec3Idx([i, j, 0]), [1.0 - s, s, 0.0], 2),
            };
            let mut v = Vector3::zeros();
            for m in 0..n {
                v += t[idx.0[m]] * lam[m];
            }
            if v.norm_squared() < best.0 {
                best = (v.norm_squared(), idx, lam, n);
            }
        }
        return (best.1, best.2, best.3);
    }
    let v = vb / sum;
    let w = vc / sum;
    (Vec3Idx([0, 1, 2]), [1.0 - v - w, v, w], 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vx(w: [f64; 3]) -> Vertex {
        Vertex {
            w: w.into(),
            a: Point3::from(Vector3::from(w)),
            b: Point3::origin(),
            d: Vector3::zeros(),
            ha: 0,
            hb: 0,
        }
    }

    #[test]
    fn triangle_face_region() {
        let mut s = Simplex::new();
        for w in [[-1.0, -1.0, 1.0], [1.0, -1.0, 1.0], [0.0, 1.0, 1.0]] {
            s.push(vx(w));
        }
        let v = s.project_origin();
        assert!((v - Vector3::new(0.0, 0.0, 1.0)).norm() < 1e-15);
        assert_eq!(s.len, 3);
    }

    #[test]
    fn tetrahedron_contains_origin() {
        let mut s = Simplex::new();
        for w in [[1.0, 0.0, -1.0], [-1.0, 1.0, -1.0], [-1.0, -1.0, -1.0], [0.0, 0.0, 1.0]] {
            s.push(vx(w));
        }
        let v = s.project_origin();
        assert_eq!(v, Vector3::zeros());
        assert_eq!(s.len, 4);
        let sum: f64 = s.lambda.iter().sum();
        assert!((sum - 1.0).abs() < 1e-14 && s.lambda.iter().all(|&l| l >= 0.0));
        let (pa, _) = s.witnesses();
        assert!(pa.coords.norm() < 1e-15);
    }

    #[test]
    fn thin_tetrahedron_around_the_origin_contains_it() {
        // From a hull–cone overlap of depth 2e-4 (GJK's last four support points): the origin
        // is 8e-5 or more from every face plane, but the tetrahedron is thin (6·volume =
        // 2.5e-5, edges ~1), so the volume-ratio weights miss the origin by ~1e-13, above
        // the 64-ulp acceptance. Without refinement GJK kept the nearest face, made no
        // progress and stopped "stagnated" with the overlapping pair reported as separated.
        let mut s = Simplex::new();
        for w in [
            [-0.8414565207628619, 0.45239144654020796, -0.14327886416924163],
            [0.09968464010671096, -0.04828780380777181, 0.01025811374832128],
            [0.08274192017697929, -0.06780736528389758, 0.04447213567138816],
            [0.09123456775459787, -0.05855115014655138, 0.027088375319775315],
        ] {
            s.push(vx(w));
        }
        let v = s.project_origin();
        assert_eq!(v, Vector3::zeros());
        assert_eq!(s.len, 4);
        // Weights of the origin by an independent 4 × 4 solve (numpy, 17 digits):
        // [0.102978, 0.6554629, 0.08555771, 0.15600139].
        let reference = [0.102978, 0.6554629, 0.08555771, 0.15600139];
        for (l, r) in s.lambda.iter().zip(reference) {
            assert!((l - r).abs() < 1e-6, "{:?}", s.lambda);
        }
        // The witness Σ λ a (= Σ λ w here, b = 0) is the origin to 64 ulps of the size.
        let (pa, _) = s.witnesses();
        assert!(pa.coords.amax() <= 64.0 * f64::EPSILON, "{pa:?}");
    }

    #[test]
    fn flat_tetrahedron_never_contains() {
        let mut s = Simplex::new();
        for w in [[1.0, 0.0, 1.0], [-1.0, 1.0, 1.0], [-1.0, -1.0, 1.0], [0.0, 0.0, 1.0]] {
            s.push(vx(w));
        }
        let v = s.project_origin();
        assert!((v - Vector3::new(0.0, 0.0, 1.0)).norm() < 1e-15);
        assert!(s.len < 4);
    }

    #[test]
    fn tetrahedron_outside_face() {
        let mut s = Simplex::new();
        for w in [[1.0, 0.0, 1.0], [-1.0, 1.0, 1.0], [-1.0, -1.0, 1.0], [0.0, 0.0, 3.0]] {
            s.push(vx(w));
        }
        let v = s.project_origin();
        assert!((v - Vector3::new(0.0, 0.0, 1.0)).norm() < 1e-15);
        assert_eq!(s.len, 3);
    }
}
