//! A convex polytope's vertices laid out for the support scan: blocks of four, coordinate by
//! coordinate, so that one direction is dotted with four vertices by the same instructions.
//!
//! # Maths
//!
//! The support of a vertex set V along m is the index of the *first* vertex maximizing m·v
//! (the first on ties, so the answer does not depend on how the scan is carried out). Vertex
//! 4k + l lives in block k, lane l. The scan keeps two vectors of four running maxima, one
//! for the even blocks and one for the odd ones (two independent dependency chains), each
//! lane with the loop step (block pair) where its maximum was reached (strict `>`: the
//! earliest block on ties; one step counter serves both chains). The lanes are merged by (largest value, then smallest vertex index), which is the
//! first maximizer: every maximizer's lane holds the maximum, and each lane holds its own
//! earliest block reaching it.
//!
//! Each m·v is evaluated as (m_x·x + m_y·y) + m_z·z, the order of nalgebra's `dot` used by the
//! vertex-by-vertex scan, and neither Rust nor `pulp` contracts it into fused multiply–adds:
//! the values, hence the chosen vertex, are the same bit for bit as the plain scan's.
//!
//! The scan is written with `pulp`'s safe vector operations for four f64 lanes (x86-64 AVX2)
//! and runs only where the caller was dispatched to such a set; elsewhere the caller scans
//! vertex by vertex. On the benchmark hulls it costs about 0.2 ns a vertex plus about 15 ns
//! of set-up and merge, against about 0.9 ns a vertex for the plain scan, whose
//! compare-and-select chain takes a few cycles per vertex.
//!
//! Tried and measured slower or even (2026-11-27, `proxima bench-geometry`, pinned, shared
//! machine, base and variant interleaved, 3 rounds): an f32 pre-filter (eight lanes, fused
//! multiply–adds, max only, then an f64 re-check of every vertex within a proven error band of
//! the f32 maximum: the same answer bit for bit, about 1.1 candidates per scan) made cold
//! queries 1.3–1.5× slower (polytope_64 1107 → 1605 ns, polytope_128 1410 → 1866 ns, Panda
//! link pairs under 5 cm 1218 → 1594 ns): a GJK run waits on each support, and the
//! pre-filter's serial threshold and data-dependent candidate branches cost more latency
//! than the halved vector work saves. A two-round lane tournament instead of the two
//! reductions of the merge below changed nothing measurable (polytope_64 1206–1249 against
//! 1212–1252 ns). Fused multiply–adds in `dot` gained 1–3% on polytope_64/128 and the near
//! Panda pairs and nothing on the far ones, within the noise: not worth giving up the plain
//! scan's bit-for-bit answers.
//!
//! Also tried and measured slower (2026-11-27, `proxima bench-robot` on `panda_self_1000`,
//! pinned, shared machine, base and variant interleaved, 3 rounds): a *culled* scan for clouds
//! of 48–512 vertices. The vertices were regrouped into blocks of four nearby vertices
//! (greedy: the vertex farthest from the centroid and its three nearest), each block with a
//! bounding ball (c, r) widened by 64ε·max|v| for rounding; a first pass took
//! b₀ = max_k (m·c_k − |m| r_k), which no vertex maximum is below, and only blocks with
//! m·c_k + |m| r_k ≥ b₀ were scanned, ties merged by the smallest vertex index — the plain
//! scan's answer bit for bit (identical `config` records), about a quarter of the blocks
//! scanned on the Panda hulls (measured offline: 9.4 of 38 blocks at 152 vertices, 10.6 of 65
//! at 260). It still executed more instructions (callgrind, 200 configurations × 2 passes:
//! 139.4 M → 184.5 M): the bound pass, the candidate mask (no movemask in `pulp`'s portable
//! API: a select and a horizontal sum per four blocks) and the `u128` bit loop cost more than
//! the skipped blocks, and the `distances` section went from 37.9–38.9 to 55.7–56.2 µs per
//! configuration (best of each configuration over 5 passes). Storing each slot's vertex index
//! as a fourth row of its block, selected from memory instead of counting blocks with a
//! vector addition, gave identical answers and 5.4% fewer instructions (139.4 M → 131.9 M)
//! but no faster pass (37.9–38.4 → 38.6–39.9 µs, 4 interleaved rounds): the loop is not
//! bound by its vector arithmetic, and the extra row is a third more data to load.
//!
//! # Edge cases
//!
//! * The last block is padded with copies of vertex 0. A copy ties with vertex 0 and has a
//!   larger index, so it never wins.
//! * NaN values (a NaN direction, or ∞ − ∞ after an overflow) never beat a running maximum:
//!   they are skipped, as by the plain scan. When every value is NaN or −∞ the answer is
//!   vertex 0.
//! * The running maxima start at −∞ with block 0; a lane whose values are all −∞ ties at −∞
//!   with its own block-0 vertex, which is what the plain scan reports in that case.

use nalgebra::{Point3, Vector3};

/// Below this many vertices the scan stays vertex by vertex: the vector scan's fixed cost
/// (broadcasting the direction, merging the lanes) is not repaid. Measured one scan after
/// another, each direction depending on the previous answer: 8 vertices 13 ns plain against
/// 18 ns vector, 16 vertices 19–20 ns both, 32 vertices 33 against 21 ns.
pub(crate) const LANES_MIN_VERTICES: usize = 17;

/// Whether the vector scan of [`VertexLanes::support`] runs on this processor (x86-64 with AVX2).
pub(crate) fn lanes_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        pulp::x86::V3::is_available()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// 2⁵²: integers i < 2⁵² are exact as 2⁵² + i, and the bits of 2⁵² + i are those of 2⁵² plus i.
const INDEX_BASE: f64 = 4_503_599_627_370_496.0;

/// The vertex-index offsets of the even chain's lanes (4·0 + lane) and of the odd chain's
/// (4·1 + lane), on [`INDEX_BASE`].
const INDEX_OFFSETS: [f64; 8] = [
    INDEX_BASE,
    INDEX_BASE + 1.0,
    INDEX_BASE + 2.0,
    INDEX_BASE + 3.0,
    INDEX_BASE + 4.0,
    INDEX_BASE + 5.0,
    INDEX_BASE + 6.0,
    INDEX_BASE + 7.0,
];

/// Vertices in blocks of four, `[x0..x3, y0..y3, z0..z3]`, stored flat.
#[derive(Clone, PartialEq)]
pub(crate) struct VertexLanes {
    flat: Box<[f64]>,
}

impl core::fmt::Debug for VertexLanes {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("VertexLanes").field("blocks", &(self.flat.len() / 12)).finish()
    }
}

impl VertexLanes {
    /// The blocks of `vertices` (non-empty), the last one padded with vertex 0.
    pub(crate) fn new(vertices: &[Point3<f64>]) -> Self {
        let mut flat = Vec::with_capacity(vertices.len().div_ceil(4) * 12);
        for quad in vertices.chunks(4) {
            for axis in 0..3 {
                for lane in 0..4 {
                    flat.push(quad.get(lane).unwrap_or(&vertices[0])[axis]);
                }
            }
        }
        Self { flat: flat.into_boxed_slice() }
    }

    /// Index of the first vertex with the largest m·v, with the vector instructions of
    /// `simd`, which must have four f64 lanes (x86-64 AVX2: `pulp::x86::V3`); `None` for any
    /// other lane count (the caller scans vertex by vertex).
    #[inline(always)]
    pub(crate) fn support<S: pulp::Simd>(&self, simd: S, m: &Vector3<f64>) -> Option<usize> {
        // (Vertex indices fit in u32 — GJK's hints are u32 — which the final conversion
        // relies on; a larger cloud is left to the plain scan.)
        if S::F64_LANES != 4 || self.flat.len() / 3 > u32::MAX as usize {
            return None;
        }
        let (rows, _) = S::as_simd_f64s(&self.flat);
        let (mx, my, mz) = (simd.splat_f64s(m.x), simd.splat_f64s(m.y), simd.splat_f64s(m.z));
        // (m_x·x + m_y·y) + m_z·z, lane by lane: the order of the vertex-by-vertex scan.
        let dot = |r: &[S::f64s]| {
            simd.add_f64s(
                simd.add_f64s(simd.mul_f64s(mx, r[0]), simd.mul_f64s(my, r[1])),
                simd.mul_f64s(mz, r[2]),
            )
        };
        // Two sets of running maxima (even and odd blocks: two independent dependency
        // chains) with the pair of blocks (the loop's step) where each was reached, as f64
        // (exact below 2⁵³): block 2·at for the even chain, 2·at + 1 for the odd one.
        let low = simd.splat_f64s(f64::NEG_INFINITY);
        let (mut best0, mut best1) = (low, low);
        let zero = simd.splat_f64s(0.0);
        let (mut at0, mut at1) = (zero, zero);
        let mut step = zero;
        let one = simd.splat_f64s(1.0);
        let pairs = rows.chunks_exact(6);
        let tail = pairs.remainder();
        for r in pairs {
            let (d0, d1) = (dot(&r[..3]), dot(&r[3..]));
            let (up0, up1) = (simd.greater_than_f64s(d0, best0), simd.greater_than_f64s(d1, best1));
            best0 = simd.select_f64s(up0, d0, best0);
            at0 = simd.select_f64s(up0, step, at0);
            best1 = simd.select_f64s(up1, d1, best1);
            at1 = simd.select_f64s(up1, step, at1);
            step = simd.add_f64s(step, one);
        }
        if tail.len() == 3 {
            // Block 2·step: the even chain's.
            let d0 = dot(tail);
            let up0 = simd.greater_than_f64s(d0, best0);
            best0 = simd.select_f64s(up0, d0, best0);
            at0 = simd.select_f64s(up0, step, at0);
        }
        // Odd into even (larger value, then earlier block: 2·at1 + 1 < 2·at0 exactly when
        // at1 < at0), then the four lanes: the smallest vertex index among those holding the
        // top value. Indices are kept as 2⁵² + i (vertex i = 4·block + lane = 8·at + 4·chain +
        // lane), exact and ordered as i, whose bits minus those of 2⁵² are i: no saturating
        // float-to-integer conversion on the scan's answer.
        let take = simd.or_m64s(
            simd.greater_than_f64s(best1, best0),
            simd.and_m64s(simd.equal_f64s(best1, best0), simd.less_than_f64s(at1, at0)),
        );
        let best = simd.select_f64s(take, best1, best0);
        let (offsets, _) = S::as_simd_f64s(&INDEX_OFFSETS);
        let eight = simd.splat_f64s(8.0);
        let index0 = simd.add_f64s(simd.mul_f64s(at0, eight), offsets[0]);
        let index1 = simd.add_f64s(simd.mul_f64s(at1, eight), offsets[1]);
        let index = simd.select_f64s(take, index1, index0);
        let top = simd.reduce_max_f64s(best);
        let holds_top = simd.equal_f64s(best, simd.splat_f64s(top));
        let first = simd.reduce_min_f64s(simd.select_f64s(holds_top, index, simd.splat_f64s(f64::INFINITY)));
        // Lane 0 holds top at worst at −∞ with block 0 (every value NaN or −∞), so `first` is
        // one of the offset indices, 2⁵² + i with i below the vertex count (checked above to
        // fit in u32).
        Some((first.to_bits() - INDEX_BASE.to_bits()) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::adjacency::linear_support;

    /// The vector scan through `pulp`'s dispatch (`None` without four-lane vectors).
    fn lane_support(lanes: &VertexLanes, m: &Vector3<f64>) -> Option<usize> {
        struct Scan<'a>(&'a VertexLanes, &'a Vector3<f64>);
        impl pulp::WithSimd for Scan<'_> {
            type Output = Option<usize>;
            #[inline(always)]
            fn with_simd<S: pulp::Simd>(self, simd: S) -> Option<usize> {
                self.0.support(simd, self.1)
            }
        }
        pulp::Arch::new().dispatch(Scan(lanes, m))
    }

    /// The definition: the first index of the largest non-NaN value, 0 when there is none.
    fn first_maximizer(verts: &[Point3<f64>], m: &Vector3<f64>) -> usize {
        let mut best = None;
        for (i, v) in verts.iter().enumerate() {
            let x = m.dot(&v.coords);
            if !x.is_nan() && best.is_none_or(|(_, b)| x > b) {
                best = Some((i, x));
            }
        }
        best.map_or(0, |(i, _)| i)
    }

    /// Asserts the plain scan's and the vector scan's answers (the latter when this processor
    /// runs it) are the first maximizer.
    fn check(verts: &[Point3<f64>], m: &Vector3<f64>) {
        let truth = first_maximizer(verts, m);
        // (Every value −∞: the definition says 0, as both scans.)
        assert_eq!(linear_support(verts, m), truth, "plain scan, n = {}, m = {m:?}", verts.len());
        match lane_support(&VertexLanes::new(verts), m) {
            Some(i) => assert_eq!(i, linear_support(verts, m), "n = {}, m = {m:?}", verts.len()),
            None => assert!(!lanes_available(), "the vector scan must run where lanes are available"),
        }
    }

    #[test]
    fn other_lane_counts_decline() {
        let verts = [Point3::new(1.0, 2.0, 3.0)];
        assert_eq!(VertexLanes::new(&verts).support(pulp::Scalar::new(), &Vector3::x()), None);
    }

    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    /// Same index as the vertex-by-vertex scan, ties included: random clouds of every size
    /// from 1 to 72 (every padding and pairing case, up to 9 loop steps), clouds with repeated vertices, and
    /// directions along the coordinate axes, where whole faces of a lattice cloud tie.
    #[test]
    fn matches_the_plain_scan_including_ties() {
        let mut seed = 7u64;
        for n in 1..=72 {
            let mut verts: Vec<Point3<f64>> =
                (0..n).map(|_| Point3::new(lcg(&mut seed), lcg(&mut seed), lcg(&mut seed))).collect();
            // Duplicates and lattice points: exact ties.
            if n > 3 {
                verts[n - 1] = verts[1];
                verts[n / 2] = Point3::new(1.0, 1.0, 0.0);
                verts[n - 2] = Point3::new(1.0, 1.0, 1.0);
                verts[0] = Point3::new(1.0, 0.0, 1.0);
            }
            let mut dirs: Vec<Vector3<f64>> =
                (0..200).map(|_| Vector3::new(lcg(&mut seed), lcg(&mut seed), lcg(&mut seed))).collect();
            dirs.extend([
                Vector3::x(),
                Vector3::y(),
                Vector3::z(),
                Vector3::new(1.0, 1.0, 0.0),
                -Vector3::x(),
            ]);
            for m in &dirs {
                check(&verts, m);
            }
        }
    }

    #[test]
    fn nan_and_infinite_values_give_the_plain_scans_answer() {
        let verts = vec![Point3::new(1.0, 2.0, 3.0), Point3::new(-1.0, 0.5, 2.0), Point3::new(0.0, 0.0, 9.0)];
        check(&verts, &Vector3::new(f64::NAN, 0.0, 1.0));
        // Every value −∞ (overflow), and a mix of −∞ and NaN (∞ − ∞).
        let big = vec![Point3::new(-1e308, 0.0, 0.0), Point3::new(-1e308, 1.0, 0.0)];
        check(&big, &Vector3::new(10.0, 0.0, 0.0));
        let mixed =
            vec![Point3::new(1e308, -1e308, 0.0), Point3::new(-1e308, 0.0, 0.0), Point3::new(0.0, 0.0, 1.0)];
        check(&mixed, &Vector3::new(10.0, 10.0, 0.0));
    }
}
