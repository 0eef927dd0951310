//! Per-direction candidate lists for the support query of a fixed vertex cloud: the support
//! along m is found among the few vertices listed for m's cell instead of by a scan of all.
//!
//! # Maths
//!
//! The unit sphere of directions is cut by the cube map: a direction m belongs to the face of
//! its largest |mₐ| (axis a, sign of mₐ), at the point (u, v) = (m_b, m_c) / |mₐ| ∈ [−1, 1]²
//! (b = a + 1, c = a + 2 mod 3), and each face is split into k × k cells. Each cell is widened
//! by [`WIDEN`] of a cell width on every side, so that the cell computed from rounded u, v
//! (relative error ε, far below the widening) always contains the exact direction.
//!
//! A direction of the widened cell (face +a, say) is m = |mₐ|·f(u, v) with f(u, v) =
//! (1, u, v) in (a, b, c) order and (u, v) in the widened rectangle [u₀, u₁] × [v₀, v₁]. Fix
//! any reference vertex r (the best along the cell's centre). For a vertex p, f(u, v)·(p − r)
//! is affine in (u, v), so its largest value over the rectangle is at one of the four
//! corners. When it is below −μ at every corner (μ = [`MARGIN`] × max|p|), then
//! m·(p − r) < −μ·|mₐ| ≤ −μ·|m|/√3 for every m of the cell; the support scans compute each
//! m·p as (m_x p_x + m_y p_y) + m_z p_z, with an error of at most γ₂·|m|·|p| ≤ 3ε·|m|·max|p|
//! (for directions and points whose size keeps products clear of underflow and overflow,
//! checked on both sides, see below), far below μ·|m|/(2√3). So no such p can be a maximizer
//! of the *rounded* values, not even a tied one. The cell lists every other vertex, in
//! increasing index order; the first largest rounded value among them is therefore the first
//! largest over all vertices: the answer of [`linear_support`] and of the four-lane scan, bit
//! for bit. The construction's own rounding (a few ulps of max|p| in the test) is covered by
//! the margin too: μ is 10⁶ times larger.

//!
//! On the Panda's link hulls (102–260 vertices) with k = 11–16 a cell lists 2–4 vertices on
//! average over the sphere, but dozens in the cells around a large flat face's normal, whose
//! vertices tie there — where GJK's directions end up for face–vertex closest features: a
//! `proxima bench-robot` pass reads about 13 candidates per lookup for the pair's first hull
//! and 7 for the second (callgrind), against 100–260 vertices per scan. Finer cells do not
//! shorten those lists, and reading them four at a time was slower (measured, see
//! `proxima-scene`'s `robot_query.rs`).
//!
//! # Edge cases
//!
//! * Directions with a NaN component, or whose largest |mᵢ| is outside [10⁻¹⁰⁰, 10¹⁰⁰]
//!   (zero included): no answer (`None`); the caller scans. A zero direction ties every
//!   vertex, which only the scan's first-index rule decides.
//! * Vertex clouds with a non-finite coordinate, a largest norm outside [10⁻¹⁰⁰, 10¹⁰⁰]
//!   (a single point at the origin included), fewer than 2 or more than u32::MAX vertices: no
//!   table ([`SupportCells::new`] returns `None`).
//! * Directions on a cell border, a cube edge or corner (|mₐ| ties): the first axis of the
//!   tie and the cell clamped into the face; the widened cell contains the direction.

use nalgebra::{Point3, Vector3};

use crate::shape::ConvexPolytope;

/// Widening of each cell on every side, in cell widths (see the module docs).
const WIDEN: f64 = 0.01;

/// Exclusion margin relative to the cloud's largest vertex norm (see the module docs).
const MARGIN: f64 = 1e-9;

/// Smallest and largest direction component (largest |mᵢ|) and vertex norm with a table
/// answer: products stay far from underflow and overflow.
const RANGE: (f64, f64) = (1e-100, 1e100);

/// The next coordinate axis.
const NEXT: [usize; 3] = [1, 2, 0];

/// Per cube-map cell of directions, the vertices that can be a support there (see the module
/// docs). Built once per vertex cloud (about 5n·6k² dot products for n vertices and k² cells
/// per face); used by [`gjk_distance_scanned_cells`](super::gjk_distance_scanned_cells).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupportCells {
    /// Cells per face side (k).
    side: usize,
    /// Start of each cell's list in `list`, at `(face · k + i) · k + j`, and the end.
    starts: Box<[u32]>,
    /// The candidate vertex indices, cell after cell, increasing within a cell.
    list: Box<[u32]>,
    /// Vertex count of the cloud it was built for (checked by queries).
    vertices: usize,
}

impl SupportCells {
    /// The table of `p`'s vertices, or `None` for clouds it does not serve (see the module
    /// docs' edge cases).
    pub fn new(p: &ConvexPolytope) -> Option<Self> {
        Self::of_vertices(p.vertices())
    }

    /// The table of a vertex cloud (see [`SupportCells::new`]).
    pub(crate) fn of_vertices(vertices: &[Point3<f64>]) -> Option<Self> {
        let n = vertices.len();
        if n < 2 || u32::try_from(n).is_err() || !vertices.iter().all(|p| p.iter().all(|x| x.is_finite())) {
            return None;
        }
        let scale = vertices.iter().fold(0.0_f64, |s, p| s.max(p.coords.norm()));
        if !(RANGE.0..=RANGE.1).contains(&scale) {
            return None;
        }
        let margin = MARGIN * scale;
        let side = ((n as f64).sqrt().ceil() as usize).clamp(4, 16);
        let mut starts = Vec::with_capacity(6 * side * side + 1);
        let mut list = Vec::new();
        let width = 2.0 / side as f64;
        for face in 0..6 {
            for i in 0..side {
                for j in 0..side {
                    starts.push(list.len() as u32);
                    let lo_u = -1.0 + width * (i as f64 - WIDEN);
                    let hi_u = -1.0 + width * (i as f64 + 1.0 + WIDEN);
                    let lo_v = -1.0 + width * (j as f64 - WIDEN);
                    let hi_v = -1.0 + width * (j as f64 + 1.0 + WIDEN);
                    let centre = face_point(face, 0.5 * (lo_u + hi_u), 0.5 * (lo_v + hi_v));
                    let reference = vertices
                        .iter()
                        .map(|p| centre.dot(&p.coords))
                        .enumerate()
                        .fold((0, f64::NEG_INFINITY), |b, (k, x)| if x > b.1 { (k, x) } else { b })
                        .0;
                    let r = vertices[reference].coords;
                    let corners = [(lo_u, lo_v), (lo_u, hi_v), (hi_u, lo_v), (hi_u, hi_v)]
                        .map(|(u, v)| face_point(face, u, v));
                    for (k, p) in vertices.iter().enumerate() {
                        let e = p.coords - r;
                        if corners.iter().any(|c| c.dot(&e) >= -margin) {
                            list.push(k as u32);
                        }
                    }
                }
            }
        }
        starts.push(u32::try_from(list.len()).ok()?);
        Some(Self { side, starts: starts.into_boxed_slice(), list: list.into_boxed_slice(), vertices: n })
    }

    /// Index of the first vertex of `vertices` (the cloud the table was built for) with the
    /// largest m·v, or `None` when the table does not answer (see the module docs).
    #[inline(always)]
    pub(crate) fn support(&self, vertices: &[Point3<f64>], m: &Vector3<f64>) -> Option<usize> {
        let (ax, ay, az) = (m.x.abs(), m.y.abs(), m.z.abs());
        let big = ax.max(ay).max(az);
        // (`max` skips NaN: the sum catches a NaN component.)
        if !(big >= RANGE.0 && big <= RANGE.1)
            || (m.x + m.y + m.z).is_nan()
            || vertices.len() != self.vertices
        {
            return None;
        }
        // The face's axis by index arithmetic rather than branches (a mispredicted branch on
        // the direction's octant costs more than the whole lookup): the first axis of largest
        // |mᵢ|, the coordinates after it taken from memory.
        let not_x = (ax < ay) | (ax < az);
        let not_y = ay < az;
        let axis = usize::from(not_x) * (1 + usize::from(not_y));
        let (major, u, v) = (m[axis], m[NEXT[axis]], m[NEXT[NEXT[axis]]]);
        let face = 2 * axis + usize::from(major < 0.0);
        // k ≤ 16: through u32, whose conversion to f64 is one instruction (usize's is not).
        let (half, last) = (0.5 * f64::from(self.side as u32), self.side - 1);
        let inv = 1.0 / big;
        // u/|mₐ| + 1 ∈ [0, 2] up to a few ulps (so (u/|mₐ| + 1)·k/2 ∈ (−1, k + 1)): the casts
        // truncate towards zero, which floors there, and the clamp keeps the border in the
        // face. Cast through i32 rather than straight to usize: the saturating float to
        // unsigned 64-bit conversion has no x86 instruction and took about 19 instructions
        // per index (callgrind); the i32 one is a single truncation plus its saturation
        // check, the same value on that range, and any other value still ends in 0..k.
        let index = |x: f64| ((((x * inv + 1.0) * half) as i32).max(0) as usize).min(last);
        let (i, j) = (index(u), index(v));
        let cell = (face * self.side + i) * self.side + j;
        let list = &self.list[self.starts[cell] as usize..self.starts[cell + 1] as usize];
        let mut best = f64::NEG_INFINITY;
        let mut at = *list.first()?;
        for &k in list {
            let x = m.dot(&vertices[k as usize].coords);
            // Strictly larger (the first maximizer), as selects: which candidate wins is
            // unpredictable, a branch on it mispredicts.
            let up = x > best;
            at = if up { k } else { at };
            best = if up { x } else { best };
        }
        Some(at as usize)
    }
}

/// The point (u, v) of cube face `face` (2·axis + [negative]): ±1 along the axis, u and v
/// along the next two.
fn face_point(face: usize, u: f64, v: f64) -> Vector3<f64> {
    let axis = face / 2;
    let mut m = Vector3::zeros();
    m[axis] = if face.is_multiple_of(2) { 1.0 } else { -1.0 };
    m[NEXT[axis]] = u;
    m[NEXT[NEXT[axis]]] = v;
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::linear_support;

    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    /// Random points on an elongated ellipsoid plus a box's corners and face lattice (exact
    /// ties along the axes), checked against the plain scan on random, axis, diagonal and
    /// near-border directions.
    #[test]
    fn answers_as_the_plain_scan_including_ties() {
        let mut seed = 11u64;
        let mut verts: Vec<Point3<f64>> = (0..150)
            .map(|_| {
                let p = Vector3::new(lcg(&mut seed), lcg(&mut seed), lcg(&mut seed)).normalize();
                Point3::new(0.3 * p.x, 0.05 * p.y + 0.01, 0.08 * p.z)
            })
            .collect();
        for x in [-0.2, 0.2] {
            for y in [-0.1, 0.0, 0.1] {
                for z in [-0.1, 0.1] {
                    verts.push(Point3::new(x, y, z));
                }
            }
        }
        let cells = SupportCells::of_vertices(&verts).expect("a table");
        let mut dirs: Vec<Vector3<f64>> =
            (0..20000).map(|_| Vector3::new(lcg(&mut seed), lcg(&mut seed), lcg(&mut seed))).collect();
        for a in [-1.0, 0.0, 1.0] {
            for b in [-1.0, 0.0, 1.0] {
                for c in [-1.0, 0.0, 1.0] {
                    dirs.push(Vector3::new(a, b, c));
                    dirs.push(Vector3::new(a, b * 0.5, c * 0.25));
                }
            }
        }
        // On and near cell borders (u = −1 + 2i/k) of every face.
        for i in 0..=cells.side {
            let u = -1.0 + 2.0 * i as f64 / cells.side as f64;
            for eps in [0.0, 1e-15, -1e-15, 1e-9] {
                dirs.push(Vector3::new(1.0, u + eps, 0.3));
                dirs.push(Vector3::new(-0.7, 0.2 * 0.7, (u - eps) * 0.7));
                dirs.push(Vector3::new(0.4 * (u + eps), -1e3, 1e3 * u));
            }
        }
        let mut answered = 0;
        for m in &dirs {
            match cells.support(&verts, m) {
                Some(i) => {
                    answered += 1;
                    assert_eq!(i, linear_support(&verts, m), "m = {m:?}");
                }
                None => assert!(m.amax() == 0.0, "no answer for {m:?}"),
            }
        }
        assert!(answered > 20000);
        let mean = cells.list.len() as f64 / (cells.starts.len() - 1) as f64;
        assert!(mean < 20.0, "{mean} candidates per cell");
    }

    /// A whole GJK run with the lists gives the scanned run's output bit for bit: random
    /// clouds (with a lattice of tied points) at random poses, near and far.
    #[test]
    fn gjk_runs_match_the_scanned_runs() {
        use crate::Pose;
        use crate::gjk::{GjkSettings, gjk_distance_scanned, gjk_distance_scanned_cells};
        use crate::shape::ConvexPolytope;
        let mut seed = 5u64;
        let mut cloud = |n: usize, stretch: f64| {
            let mut v: Vec<[f64; 3]> = (0..n)
                .map(|_| [stretch * lcg(&mut seed), 0.3 * lcg(&mut seed), 0.2 * lcg(&mut seed)])
                .collect();
            v.extend([[0.5, 0.3, 0.2], [0.5, -0.3, 0.2], [0.5, 0.0, 0.2], [-0.5, 0.3, -0.2]]);
            ConvexPolytope::new(v).expect("a polytope")
        };
        let shapes = [cloud(30, 1.0), cloud(120, 0.5), cloud(300, 0.8)];
        let cells: Vec<SupportCells> =
            shapes.iter().map(|p| SupportCells::new(p).expect("a table")).collect();
        let settings = GjkSettings::default();
        let mut seed = 9u64;
        for k in 0..300 {
            let (i, j) = (k % 3, (k / 3) % 3);
            let q = [lcg(&mut seed), lcg(&mut seed), lcg(&mut seed), lcg(&mut seed) + 1.5];
            let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
            let q = q.map(|x| x / n);
            let t = [2.0 * lcg(&mut seed), 2.0 * lcg(&mut seed), lcg(&mut seed)];
            let pb = Pose::from_quaternion(q, t).expect("a pose");
            let pa = Pose::from_translation([0.1, -0.2, 0.05]).expect("a pose");
            let plain = gjk_distance_scanned(&shapes[i], &pa, &shapes[j], &pb, &settings).expect("runs");
            let celled = gjk_distance_scanned_cells(
                &shapes[i],
                Some(&cells[i]),
                &pa,
                &shapes[j],
                Some(&cells[j]),
                &pb,
                &settings,
            )
            .expect("runs");
            assert_eq!(plain, celled, "pair {k}");
        }
    }

    #[test]
    fn declines_bad_directions_and_clouds() {
        let verts = vec![Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0)];
        let cells = SupportCells::of_vertices(&verts).expect("a table");
        for m in [
            Vector3::zeros(),
            Vector3::new(f64::NAN, 1.0, 0.0),
            Vector3::new(1.0, 0.0, f64::NAN),
            Vector3::new(f64::INFINITY, 0.0, 0.0),
            Vector3::new(1e-200, 0.0, 0.0),
            Vector3::new(1e200, 0.0, 0.0),
        ] {
            assert_eq!(cells.support(&verts, &m), None, "{m:?}");
        }
        assert_eq!(cells.support(&verts[..2], &Vector3::x()), None, "another cloud");
        assert_eq!(cells.support(&verts, &Vector3::new(0.0, 2.0, 1.0)), Some(1));
        assert!(SupportCells::of_vertices(&verts[..1]).is_none());
        assert!(SupportCells::of_vertices(&[Point3::origin(), Point3::origin()]).is_none());
        assert!(SupportCells::of_vertices(&[Point3::origin(), Point3::new(f64::NAN, 0.0, 0.0)]).is_none());
        assert!(SupportCells::of_vertices(&[Point3::origin(), Point3::new(1e200, 0.0, 0.0)]).is_none());
    }
}
