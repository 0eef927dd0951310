//! A polytope's support lists ([`SupportCells`]), kept with the shape: the per-direction
//! candidate lists that let a cold GJK run read each support from a few vertices instead of
//! scanning them all.
//!
//! # When they are built
//!
//! A table costs about 5n·6k² dot products to build (n vertices, k² cells per cube face,
//! `support_cells.rs`): for the 64-vertex hull of the Python benchmark about 1.2 million
//! instructions, the price of some 1500 GJK supports.
//!
//! * **Hulls with a surface adjacency** (`ConvexPolytope::with_faces`, `convex_hull`) of
//!   [`HULL_CELLS_MIN_VERTICES`] to [`HULL_CELLS_MAX_VERTICES`] vertices get theirs when the
//!   shape is built ([`CellsSlot::build_for_hull`]), as a shape-level acceleration structure
//!   (coal likewise builds its hulls' neighbour lists once): such hulls are made to be queried
//!   many times, and from ~128 vertices a listed support beats the four-lane scan and the
//!   short climbs. Construction then costs about 5n·6k² dot products once (k ≤ 16; the
//!   Panda's 152-vertex links: ≈ 0.8 million, a few ms; a 383-vertex hull: ≈ 2.9 million),
//!   some 15 times the convexity check of `with_faces` (n·2n dot products).
//! * **Other polytopes** get theirs on request ([`CellsSlot::build`]): one-off queries never
//!   pay, a caller that will query the same shape many times (a batch,
//!   `PreparedPair::prepare_for_rows`) asks once, and every later cold run on the shape —
//!   from any caller — reads it.
//!
//! # Same answers
//!
//! A listed support is the scan's first maximizer bit for bit (see `support_cells.rs`), and a
//! polytope with lists takes every support of a cold GJK run from them (or from the scan, for
//! the few directions the lists decline): its cold runs are the scan-only runs. For a
//! polytope of fewer than [`CELLS_MAX_VERTICES`] vertices that is the run without lists too,
//! so building them on request never changes an answer. A hull of [`CELLS_MAX_VERTICES`] to
//! [`HULL_CELLS_MAX_VERTICES`] vertices without lists first climbs a few steps from the run's
//! previous support, and the scan answers when the climb does not stop at a strict local
//! maximum; the two differ only where a climb stops at another vertex whose rounded value
//! equals the scan's first maximizer's — not once on the benchmark hulls (robot link pairs
//! and hull tracks, polytope_256/512, ellipsoid_hull_256/512, track_polytope_512: every
//! output field identical). Cold single support queries outside GJK runs (certificates,
//! EPA) keep their climbs (`shape/support.rs`), so those answers are unchanged too.
//!
//! # Edge cases
//!
//! * Clouds the table does not serve (a single point, non-finite or extreme coordinates):
//!   the slot holds `None` and runs scan or climb, as before.
//! * Equality and `{:?}` of shapes ignore the slot (built or not, the shape is the same);
//!   a clone shares the built table.
//! * Built at most once, from any thread (`OnceLock`); readers never wait for a build.

use std::sync::{Arc, OnceLock};

use nalgebra::Point3;

use crate::gjk::{NEAR_CLIMB_MIN_VERTICES, SupportCells};

/// Polytopes with this many vertices or more get no table on request (see the module docs).
pub(crate) const CELLS_MAX_VERTICES: usize = NEAR_CLIMB_MIN_VERTICES;

/// Hulls with an adjacency and at least this many vertices get their table when built. Below,
/// the four-lane scan of a few dozen vertex blocks is as fast as the lists' scattered reads
/// and data-dependent loop ends: measured by `PreparedPair::prepare_for_rows`
/// (`CELLS_MIN_VERTICES`, 100 vertices 765 → 786 ns per row, 120: 809 → 784), and on the
/// robot link hulls (`scripts/robot-pair-queries.py`, callgrind, 2 × 8306 cold queries: from
/// 96 vertices 169.6 M instructions, from 128 176.4 M, none 208.9 M; wall clock even between
/// 96 and 128 under load), so the public 112–120-vertex hulls keep their scans.
pub const HULL_CELLS_MIN_VERTICES: usize = 128;

/// Hulls with more vertices get no table at construction: they keep the climbs from their
/// direction table (`direction_table.rs`, from 384 vertices). With lists instead, the
/// public 393–415-vertex hulls ran 20–30% fewer instructions, but where a climb had stopped
/// at another maximizer than the scan's first (values equal to rounding) GJK converged to a
/// distance up to 100 ulps outside the climbing run's bracket (polytope_1024: 8 of 2000
/// queries, ellipsoid_hull_1024: 26): the same certified quality, not the same answer.
pub const HULL_CELLS_MAX_VERTICES: usize = super::DIRECTION_TABLE_MIN_VERTICES - 1;

/// The support lists of one polytope: empty until [`CellsSlot::build`].
#[derive(Clone, Default)]
pub(crate) struct CellsSlot(OnceLock<Option<Arc<SupportCells>>>);

impl PartialEq for CellsSlot {
    /// Always equal: the slot is a cache of the vertices, not part of the shape.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for CellsSlot {
    /// The same text built or not (a shape's `{:?}` does not change when a batch prepares it,
    /// and does not print the table).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CellsSlot")
    }
}

impl CellsSlot {
    /// Builds the table of `vertices` (the polytope's own) unless it was built already;
    /// whether the polytope now has one.
    pub(crate) fn build(&self, vertices: &[Point3<f64>]) -> bool {
        self.0
            .get_or_init(|| {
                (vertices.len() < CELLS_MAX_VERTICES)
                    .then(|| SupportCells::of_vertices(vertices).map(Arc::new))
                    .flatten()
            })
            .is_some()
    }

    /// Builds the table of a hull with a surface adjacency when its vertex count is in
    /// [`HULL_CELLS_MIN_VERTICES`]..=[`HULL_CELLS_MAX_VERTICES`] (no [`CELLS_MAX_VERTICES`]
    /// bound: see the module docs); whether the hull now has one.
    pub(crate) fn build_for_hull(&self, vertices: &[Point3<f64>]) -> bool {
        (HULL_CELLS_MIN_VERTICES..=HULL_CELLS_MAX_VERTICES).contains(&vertices.len())
            && self.0.get_or_init(|| SupportCells::of_vertices(vertices).map(Arc::new)).is_some()
    }

    /// The table, when built.
    #[inline(always)]
    pub(crate) fn get(&self) -> Option<&SupportCells> {
        self.0.get().and_then(|c| c.as_deref())
    }

    /// The table's shared handle, when built (callers that keep their own handle share it).
    pub(crate) fn shared(&self) -> Option<Arc<SupportCells>> {
        self.0.get().and_then(Clone::clone)
    }
}

#[cfg(test)]
mod tests {
    //! Which hulls get their lists when built, and that a listed hull answers cold distance
    //! queries exactly as the same hull without lists.

    use super::*;
    use crate::Pose;
    use crate::shape::{ConvexPolytope, Shape};
    use crate::{QuerySettings, distance};

    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    /// The hull of `n` points on an elongated ellipsoid (every point a vertex), with a lattice
    /// of a box's face points on top (exactly coplanar vertices: ties).
    fn hull(n: usize, seed: &mut u64) -> ConvexPolytope {
        let mut points: Vec<[f64; 3]> = (0..n)
            .map(|_| {
                let p = nalgebra::Vector3::new(lcg(seed), lcg(seed), lcg(seed)).normalize();
                [0.3 * p.x, 0.1 * p.y, 0.08 * p.z]
            })
            .collect();
        for x in [-0.05, 0.0, 0.05] {
            for y in [-0.05, 0.0, 0.05] {
                points.push([x, y, 0.1]);
            }
        }
        ConvexPolytope::hull_of(&points).expect("a hull")
    }

    /// The same polytope without support lists (and without a direction table).
    fn unlisted(p: &ConvexPolytope) -> ConvexPolytope {
        ConvexPolytope { cells: CellsSlot::default(), table: None, ..p.clone() }
    }

    #[test]
    fn hulls_in_range_get_lists_when_built() {
        let mut seed = 3u64;
        for (n, listed) in [(60, false), (170, true), (300, true), (520, false)] {
            let p = hull(n, &mut seed);
            let count = p.vertices().len();
            assert_eq!(
                (HULL_CELLS_MIN_VERTICES..=HULL_CELLS_MAX_VERTICES).contains(&count),
                listed,
                "{count} vertices"
            );
            assert_eq!(p.support_cells().is_some(), listed, "{count} vertices");
            // The shared handle is the same table, and a clone shares it.
            let shared = p.shared_support_cells();
            assert_eq!(shared.is_some(), listed, "{count} vertices");
            if let Some(shared) = shared {
                assert!(std::ptr::eq(&*shared, p.support_cells().unwrap()));
                assert!(std::sync::Arc::ptr_eq(&shared, &p.clone().shared_support_cells().unwrap()));
            }
            // Large hulls keep their direction table instead.
            assert_eq!(p.direction_table().is_some(), count >= crate::shape::DIRECTION_TABLE_MIN_VERTICES);
            // Plain point clouds get none until asked.
            let cloud = ConvexPolytope::new(p.vertices().iter().map(|v| [v.x, v.y, v.z]).collect()).unwrap();
            assert!(cloud.support_cells().is_none() && cloud.shared_support_cells().is_none());
            if count < CELLS_MAX_VERTICES {
                assert!(cloud.prepare_support_cells());
                assert!(cloud.shared_support_cells().is_some());
            }
        }
    }

    /// Separated, touching-close and overlapping pairs at random poses: the listed hulls'
    /// answers equal the unlisted hulls' field for field.
    #[test]
    fn listed_hulls_answer_as_unlisted_ones() {
        let mut seed = 21u64;
        let hulls = [hull(160, &mut seed), hull(185, &mut seed), hull(300, &mut seed)];
        assert!(hulls.iter().all(|p| p.support_cells().is_some()));
        let settings = QuerySettings::default();
        for k in 0..600 {
            let (i, j) = (k % 3, (k / 3) % 3);
            let q = [lcg(&mut seed), lcg(&mut seed), lcg(&mut seed), lcg(&mut seed) + 1.5];
            let norm = q.iter().map(|x| x * x).sum::<f64>().sqrt();
            let reach = [0.05, 0.3, 0.6][k % 3];
            let t = [reach * lcg(&mut seed), reach * lcg(&mut seed), 0.5 * reach * lcg(&mut seed)];
            let pb = Pose::from_quaternion(q.map(|x| x / norm), t).unwrap();
            let pa = Pose::from_translation([0.01, -0.02, 0.005]).unwrap();
            let (a, b) = (Shape::ConvexPolytope(hulls[i].clone()), Shape::ConvexPolytope(hulls[j].clone()));
            let (ua, ub) =
                (Shape::ConvexPolytope(unlisted(&hulls[i])), Shape::ConvexPolytope(unlisted(&hulls[j])));
            let listed = distance(&a, &pa, &b, &pb, &settings).expect("answers");
            let plain = distance(&ua, &pa, &ub, &pb, &settings).expect("answers");
            assert_eq!(listed, plain, "pair {k}");
        }
    }
}
