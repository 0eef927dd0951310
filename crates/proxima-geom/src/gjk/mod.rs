//! Support maps, GJK distance (certified, warm-started, optionally accelerated) and
//! penetration depth for every pair of bounded convex shapes.
//!
//! # Maths
//!
//! GJK minimizes |x| over the Minkowski difference M = A − B using only support maps
//! ([`SupportMap`]): it is the Frank–Wolfe method on ½|x|² with a simplex "fully corrective"
//! step. Every iteration yields a point v ∈ M (upper bound |v| of the distance, witnesses
//! p_a ∈ A, p_b ∈ B with p_a − p_b = v) and, from the support point w along the search
//! direction d, a lower bound d·w/|d|: the certificate of [`crate::query`] (see
//! [`distance`](self::gjk_distance) for the details and edge cases).
//!
//! When the shapes overlap, GJK ends with a tetrahedron of M around the origin, and EPA
//! ([`penetration`]) expands it into a polytope P ⊆ M to find the penetration depth
//! min_{|n|=1} h_M(n), again with a bracket: the distance from the origin to ∂P is a lower
//! bound of the depth, and h_M(n) along the best face normal an upper bound.
//! Overlapping curved cores finish their depth by Newton on the support functions once EPA's
//! gap is loose (`depth.rs`), the lower bound then proven by a ball enclosed in M.
//!
//! # Contents
//!
//! | item | what |
//! |---|---|
//! | [`SupportMap`] | the support-map trait (implemented by [`Shape`](crate::Shape)) |
//! | [`gjk_distance`], [`gjk_intersects`] | distance with bracket / early-exit intersection test |
//! | [`gjk_distance_scanned`], [`scan_beats_climbing`] | cold distance between two convex polytopes by vectorized vertex scans, and when that is the faster choice |
//! | [`penetration`] | EPA penetration depth with bracket |
//! | [`GjkSettings`], [`Acceleration`], [`GjkStatus`], [`GjkCache`] | settings, momentum variants, statuses, warm start |
//!
//! The query API ([`crate::distance`], [`crate::distance_tracked`]) routes every pair without a
//! better algorithm here, on the shapes' *cores* (sphere → centre, capsule → axis segment,
//! rounded shape → inner shape) with the radii added back.

mod contact_warm;
mod depth;
mod distance;
mod epa;
mod polish;
mod settings;
mod simplex;
mod support;
mod support_cells;
mod warm;

pub use distance::{
    GjkOutput, gjk_distance, gjk_distance_scanned, gjk_distance_scanned_cells, gjk_intersects,
    scan_beats_climbing,
};
pub use epa::{EpaOutput, EpaStatus, penetration};
pub use settings::{Acceleration, GjkCache, GjkSettings, GjkStatus};
pub use support::SupportMap;
pub use support_cells::SupportCells;

pub(crate) use contact_warm::ContactPolytope;
pub(crate) use depth::{depth_newton, finish_curved};
pub(crate) use distance::{
    Mode, Run, Start, center_direction, contact_floor, initial_direction, run, run_into, store,
};
pub(crate) use epa::{Finish, no_finish, penetration_above};
pub(crate) use polish::{
    CoreSupport, Eval, NO_FACES, NearContact, PairSupport, Polished, is_curved, polish_probed,
};
pub(crate) use simplex::{Simplex, Vertex, closest_to_origin};
pub(crate) use support::{
    COLD_HINT, CelledCloud, CoreShape, Difference, NEAR_CLIMB_MIN_VERTICES, PlacedCloud, RelativeFrame,
    SCANNED, VertexCloud, cold_core_of, core_of, scan_support, scanned_hint, warm_hint,
};
pub(crate) use warm::expand_warm;

/// `x > y`, false when either is NaN (reads better than `!(x > y)` for "not proven greater").
#[inline]
pub(crate) fn gt(x: f64, y: f64) -> bool {
    x > y
}
