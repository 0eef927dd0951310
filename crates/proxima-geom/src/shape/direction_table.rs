//! A direction-indexed start table for cold hill-climbing support queries on large hulls.
//!
//! # Maths
//!
//! The unit sphere of directions is cut by the cube map: a direction m ≠ 0 belongs to the face
//! of the cube [−1, 1]³ hit by the ray along m — the face of its largest |mₐ| (axis a, sign
//! of mₐ) — at the point (m_b / |mₐ|, m_c / |mₐ|) ∈ [−1, 1]² in the face's two other
//! coordinates (b = a + 1, c = a + 2 mod 3). Each face is split into k × k square cells; a
//! cell stores a vertex maximizing the direction through its centre. A cold query looks up
//! the cell of m and hill-climbs from its vertex ([`VertexAdjacency::hill_climb`]): the
//! centre direction is within about 45°/k of m, so for k² cells of the order of the vertex
//! count the start is one or two climbing steps from the answer, a few dozen dot products
//! instead of a scan of every vertex.
//!
//! # Exactness
//!
//! The table only chooses where the climb starts; the climb's stopping rule (no neighbour
//! strictly better, plateaus explored, a scan for huge plateaus) proves the answer a global
//! maximizer from *any* start vertex. A stale or rounded table entry costs steps, never
//! correctness, so supports — and every certificate built on them — are those of a scan up to
//! the choice among tied maximizers.
//!
//! # Edge cases
//!
//! A direction on a cell boundary (or on a cube edge or corner, where two or three |mᵢ| tie)
//! takes the first axis of the tie and the upper cell, clamped to the face: either neighbour
//! is a valid start. A zero, NaN or infinite direction has no cell ([`DirectionTable::start`]
//! returns `None`; the caller keeps its ordinary path).
//!
//! Size: k = ⌈√(n / 6)⌉ clamped to [2, [`MAX_CELLS_PER_SIDE`]] for n vertices, at most
//! 6 × 16² = 1,536 `u32` (6 KiB). Construction climbs from cell to cell (each cell starting
//! at its predecessor's answer): a few dot products per cell, not a scan per cell.

use nalgebra::{Point3, Vector3};

use super::adjacency::VertexAdjacency;

/// Hulls with at least this many vertices get a start table, and their cold support queries
/// (GJK cold runs, certificate support values) climb from it instead of scanning.
///
/// Measured with `cargo bench -p proxima-geom --bench gjk -- ours_unsigned` (2000 cold
/// unsigned queries per workload, best of 3 alternated runs on a shared 2-core machine, table
/// on every hull vs the scans of `main`; ms per pass, scan → table): polytope_256 (189–204
/// vertices) 2.74 → 3.48, polytope_512 (283–292) 3.28 → 3.61, polytope_1024 (393–415)
/// 3.76 → 3.58; ellipsoid_hull_512 5.15 → 5.66, ellipsoid_hull_1024 6.33 → 5.95. The
/// four-lane scan wins up to ~290 vertices, the table from ~400; the bound sits between. (The
/// Panda's robot hulls, 18–260 vertices, keep scanning: `proxima bench-robot` was slower with
/// table climbing on them.) Hulls of 128 to 383 vertices now read support lists built with
/// the shape instead (`cells_slot.rs`); from this size on they keep the table.
pub const DIRECTION_TABLE_MIN_VERTICES: usize = 384;

/// The largest number of cells per cube-face side.
const MAX_CELLS_PER_SIDE: usize = 16;

/// Per cube-map cell, a vertex maximizing the cell-centre direction (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectionTable {
    /// Cells per face side (k).
    side: usize,
    /// Vertex index per cell, at `(face · k + i) · k + j` (face = 2·axis + [mₐ < 0]).
    cells: Box<[u32]>,
}

impl DirectionTable {
    /// The table of a hull with its surface adjacency (`vertices` as given to `adjacency`).
    pub fn new(vertices: &[Point3<f64>], adjacency: &VertexAdjacency) -> Self {
        let side = cells_per_side(vertices.len());
        let mut cells = vec![0u32; 6 * side * side].into_boxed_slice();
        // Cold start for the first cell; each later cell starts at the previous answer.
        let mut hint = u32::MAX;
        for face in 0..6 {
            for i in 0..side {
                // Serpentine order: consecutive cells are neighbours, so climbs stay short.
                for jj in 0..side {
                    let j = if i.is_multiple_of(2) { jj } else { side - 1 - jj };
                    let m = cell_centre(side, face, i, j);
                    let v = adjacency.hill_climb(vertices, &m, &mut hint);
                    // Indices fit u32: the adjacency checked the vertex count.
                    cells[(face * side + i) * side + j] = v as u32;
                }
            }
        }
        Self { side, cells }
    }

    /// The stored start vertex for direction `m`, or `None` for a zero or non-finite `m`.
    #[inline]
    pub fn start(&self, m: &Vector3<f64>) -> Option<u32> {
        let (x, y, z) = (m.x.abs(), m.y.abs(), m.z.abs());
        let (axis, major) = if x >= y && x >= z {
            (0, m.x)
        } else if y >= z {
            (1, m.y)
        } else {
            (2, m.z)
        };
        let scale = major.abs();
        // NaN fails the comparison; ∞ / ∞ would be NaN below.
        if !(scale > 0.0 && scale < f64::INFINITY) {
            return None;
        }
        let face = 2 * axis + usize::from(major < 0.0);
        let k = self.side;
        let half = 0.5 * k as f64 / scale;
        // m_b / |mₐ| ∈ [−1, 1] → cell ⌊(t + 1) k / 2⌋, clamped (t = 1 lands on k); `as usize`
        // saturates, so rounding just below 0 gives cell 0.
        let cell = |c: f64| ((c * half + 0.5 * k as f64) as usize).min(k - 1);
        let (i, j) = (cell(m[(axis + 1) % 3]), cell(m[(axis + 2) % 3]));
        Some(self.cells[(face * k + i) * k + j])
    }

    /// Cells per cube-face side.
    #[cfg(test)]
    pub(crate) fn side(&self) -> usize {
        self.side
    }
}

/// k = ⌈√(n / 6)⌉ in [2, [`MAX_CELLS_PER_SIDE`]]: about one cell per vertex.
fn cells_per_side(n: usize) -> usize {
    let mut k = 2;
    while k < MAX_CELLS_PER_SIDE && 6 * k * k < n {
        k += 1;
    }
    k
}

/// The direction through the centre of cell (i, j) of `face`, as in [`DirectionTable::start`].
pub(crate) fn cell_centre(side: usize, face: usize, i: usize, j: usize) -> Vector3<f64> {
    let (axis, sign) = (face / 2, if face.is_multiple_of(2) { 1.0 } else { -1.0 });
    let centre = |c: usize| -1.0 + (c as f64 + 0.5) * 2.0 / side as f64;
    let mut m = Vector3::zeros();
    m[axis] = sign;
    m[(axis + 1) % 3] = centre(i);
    m[(axis + 2) % 3] = centre(j);
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gjk::COLD_HINT;
    use crate::shape::{ConvexPolytope, Shape};
    use proptest::prelude::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// The largest m·v over the vertices, by brute force.
    fn brute_max(v: &[Point3<f64>], m: &Vector3<f64>) -> f64 {
        v.iter().map(|p| m.dot(&p.coords)).fold(f64::NEG_INFINITY, f64::max)
    }

    /// Checks, for direction `m`: the table's start climbed by the adjacency, and the shape's
    /// cold support query, both attain the brute-force maximum exactly (the same dot products:
    /// a maximizer has exactly the maximal value; ties may pick another vertex).
    fn check(p: &ConvexPolytope, table: &DirectionTable, m: &Vector3<f64>) {
        let v = p.vertices();
        let best = brute_max(v, m);
        let adj = p.adjacency().expect("hull adjacency");
        let mut start = table.start(m).expect("finite non-zero direction");
        let i = adj.hill_climb(v, m, &mut start);
        assert_eq!(m.dot(&v[i].coords), best, "table + climb, {} vertices, m = {m:?}", v.len());
        let s = Shape::ConvexPolytope(p.clone());
        let mut hint = COLD_HINT;
        let q = s.local_support_hinted(m, &mut hint).expect("bounded");
        assert_eq!(m.dot(&q.coords), best, "cold support, {} vertices, m = {m:?}", v.len());
        // A second query of the same run (hint from the first) is exact too.
        let q = s.local_support_hinted(&-m, &mut hint).expect("bounded");
        assert_eq!((-m).dot(&q.coords), brute_max(v, &-m), "second support, m = {m:?}");
    }

    /// Random unit directions, the axes, cube corners and edge midpoints, and directions on
    /// every cell boundary of the table (both coordinates on grid lines, and one on a line).
    fn directions(side: usize, rng: &mut SmallRng) -> Vec<Vector3<f64>> {
        let mut d: Vec<Vector3<f64>> = (0..200)
            .map(|_| Vector3::from(core::array::from_fn(|_| rng.random_range(-1.0..1.0))))
            .filter(|m: &Vector3<f64>| m.norm() > 1e-3)
            .collect();
        for a in [-1.0, 0.0, 1.0] {
            for b in [-1.0, 0.0, 1.0] {
                for c in [-1.0, 0.0, 1.0] {
                    if (a, b, c) != (0.0, 0.0, 0.0) {
                        d.push(Vector3::new(a, b, c));
                    }
                }
            }
        }
        let line = |c: usize| -1.0 + 2.0 * c as f64 / side as f64;
        for axis in 0..3 {
            for sign in [1.0, -1.0] {
                for i in 0..=side {
                    for j in 0..=side {
                        let mut m = Vector3::zeros();
                        m[axis] = sign;
                        m[(axis + 1) % 3] = line(i);
                        m[(axis + 2) % 3] = line(j);
                        d.push(m);
                        // One coordinate on a grid line, the other at a random place.
                        m[(axis + 2) % 3] = rng.random_range(-1.0..1.0);
                        d.push(m);
                    }
                }
            }
        }
        d
    }

    fn sphere_points(n: usize, rng: &mut SmallRng) -> Vec<[f64; 3]> {
        (0..n)
            .map(|_| {
                let v = Vector3::<f64>::from(core::array::from_fn(|_| rng.random_range(-1.0..1.0)));
                let v = v / v.norm().max(1e-9);
                [v.x, v.y, v.z]
            })
            .collect()
    }

    fn table_of(p: &ConvexPolytope) -> DirectionTable {
        // Built here for every size (the shape keeps one only above the threshold).
        DirectionTable::new(p.vertices(), p.adjacency().expect("hull adjacency"))
    }

    #[test]
    fn vendored_robot_hulls_match_brute_force() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/robots/panda/meshes.json"
        ))
        .expect("vendored robot meshes");
        let json: serde_json::Value = serde_json::from_str(&text).expect("meshes.json is JSON");
        let mut rng = SmallRng::seed_from_u64(11);
        let mut hulls = 0;
        for pts in json["links"].as_object().expect("links").values() {
            let pts: Vec<[f64; 3]> = pts
                .as_array()
                .expect("points")
                .iter()
                .map(|q| [0, 1, 2].map(|k| q[k].as_f64().expect("number")))
                .collect();
            let p = ConvexPolytope::hull_of(&pts).expect("robot hull");
            assert_eq!(
                p.direction_table().is_some(),
                p.vertices().len() >= DIRECTION_TABLE_MIN_VERTICES,
                "tables exactly on the hulls at or above the threshold"
            );
            let t = table_of(&p);
            for m in directions(t.side(), &mut rng) {
                check(&p, &t, &m);
            }
            hulls += 1;
        }
        assert_eq!(hulls, 10, "every vendored Panda link");
    }

    #[test]
    fn nearly_coplanar_faces_match_brute_force() {
        // Boxes whose faces carry many points lifted by up to 1e-9: sliver facets, nearly flat
        // vertex stars, and exact ties along the axes.
        let mut rng = SmallRng::seed_from_u64(5);
        for n in [40, 150, 600] {
            let mut pts = Vec::new();
            for k in 0..n as usize {
                let (axis, sign) = (k % 3, if k.is_multiple_of(2) { 1.0 } else { -1.0 });
                let mut q = [rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), 0.0];
                q.rotate_right(2 - axis);
                let mut q = Vector3::from(q);
                q[axis] = sign * (1.0 + rng.random_range(0.0..1e-9));
                pts.push([q.x, q.y, q.z]);
            }
            let p = ConvexPolytope::hull_of(&pts).expect("hull");
            let t = table_of(&p);
            for m in directions(t.side(), &mut rng) {
                check(&p, &t, &m);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn random_hulls_match_brute_force(seed in any::<u64>(), n in 8usize..1200, flat in 0.0f64..1.0) {
            // Points on a unit sphere squashed along z by 10^(−6 flat): from round hulls to
            // nearly flat ones (near-coplanar faces on both sides).
            let mut rng = SmallRng::seed_from_u64(seed);
            let squash = 10f64.powf(-6.0 * flat);
            let pts: Vec<[f64; 3]> =
                sphere_points(n, &mut rng).into_iter().map(|[x, y, z]| [x, y, z * squash]).collect();
            let Ok(p) = ConvexPolytope::hull_of(&pts) else { return Ok(()) };
            let t = table_of(&p);
            for m in directions(t.side(), &mut rng) {
                check(&p, &t, &m);
            }
        }
    }

    #[test]
    fn cells_grow_with_the_vertex_count_and_stay_bounded() {
        assert_eq!(cells_per_side(4), 2);
        assert_eq!(cells_per_side(64), 4); // 6·9 = 54 < 64 ≤ 6·16
        assert_eq!(cells_per_side(1_000_000), MAX_CELLS_PER_SIDE);
    }

    #[test]
    fn every_cell_centre_looks_up_its_own_cell() {
        // A table whose cell c holds c: the lookup of each centre must return the cell itself.
        for side in [2, 3, 5, 16] {
            let t = DirectionTable { side, cells: (0..6 * side * side).map(|c| c as u32).collect() };
            for face in 0..6 {
                for i in 0..side {
                    for j in 0..side {
                        let m = cell_centre(side, face, i, j);
                        assert_eq!(t.start(&m), Some(((face * side + i) * side + j) as u32));
                        // Scaling does not change the cell.
                        assert_eq!(t.start(&(m * 1e-300)), t.start(&m));
                        assert_eq!(t.start(&(m * 1e300)), t.start(&m));
                    }
                }
            }
        }
    }

    #[test]
    fn degenerate_directions_have_no_cell() {
        let t = DirectionTable { side: 2, cells: vec![0; 24].into_boxed_slice() };
        assert_eq!(t.start(&Vector3::zeros()), None);
        assert_eq!(t.start(&Vector3::new(f64::NAN, 0.0, 0.0)), None);
        assert_eq!(t.start(&Vector3::new(f64::INFINITY, 1.0, 0.0)), None);
        // Boundaries and cube corners land in range.
        for m in [Vector3::new(1.0, 1.0, 1.0), Vector3::new(-1.0, 1.0, -1.0), Vector3::new(0.0, 0.0, -2.0)] {
            assert!(t.start(&m).is_some());
        }
    }
}
