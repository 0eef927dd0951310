//! A polytope's support lists ([`SupportCells`]), built on request and kept with the shape:
//! the per-direction candidate lists that let a cold GJK run read each support from a few
//! vertices instead of scanning them all.
//!
//! # Why on request
//!
//! A table costs about 5n·6k² dot products to build (n vertices, k² cells per cube face,
//! `support_cells.rs`): for the 64-vertex hull of the Python benchmark about 1.2 million
//! instructions, the price of some 1500 GJK supports. One-off queries never pay it; a caller
//! that will query the same shape many times (a batch, `PreparedPair::prepare_for_rows`)
//! asks for it once, and every later cold run on the shape — from any caller — reads it.
//!
//! # Same answers
//!
//! A listed support is the scan's first maximizer bit for bit (see `support_cells.rs`), so a
//! run with the table is the run without it. That holds where the scan is the only support
//! rule of a cold run: polytopes below [`CELLS_MAX_VERTICES`] (the size from which a run's
//! later supports may hill-climb from the previous one instead of scanning, where a tie can
//! go to another maximizer). Larger polytopes get no table.
//!
//! # Edge cases
//!
//! * Clouds the table does not serve (a single point, non-finite or extreme coordinates):
//!   the slot holds `None` and runs scan, as before.
//! * Equality and `{:?}` of shapes ignore the slot (built or not, the shape is the same);
//!   a clone shares the built table.
//! * Built at most once, from any thread (`OnceLock`); readers never wait for a build.

use std::sync::{Arc, OnceLock};

use nalgebra::Point3;

use crate::gjk::{NEAR_CLIMB_MIN_VERTICES, SupportCells};

/// Polytopes with this many vertices or more get no table (see the module docs).
pub(crate) const CELLS_MAX_VERTICES: usize = NEAR_CLIMB_MIN_VERTICES;

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

    /// The table, when built.
    #[inline(always)]
    pub(crate) fn get(&self) -> Option<&SupportCells> {
        self.0.get().and_then(|c| c.as_deref())
    }
}
