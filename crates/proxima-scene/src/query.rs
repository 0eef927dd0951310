//! The seam between the scene and the narrow phase: a per-pair distance query with its own
//! warm-start state.
//!
//! The scheduler keeps one [`PairQuery::State`] per monitored pair (never per object: an
//! object appears in several pairs, and warm-start data such as active sets or a GJK simplex is
//! meaningful only for one pair). [`ColdQuery`] answers every call independently through
//! [`proxima_geom::distance`]; a tracking implementation (DQP3 active sets, a GJK cached
//! direction) plugs in by implementing the trait with a non-trivial state. Whatever the state,
//! a query must return the same certified answer as a cold query up to its certificate gap:
//! the scheduler uses `certificate.lower` for its safety argument.

use proxima_geom::{
    DistanceResult, GeomError, GjkCache, Pose, QuerySettings, Shape, distance, distance_tracked,
};

/// A distance query between two posed shapes with per-pair state.
pub trait PairQuery {
    /// Warm-start state kept per pair (`()` for cold queries).
    type State: Default + Clone + std::fmt::Debug;

    /// The distance between `a` at `pose_a` and `b` at `pose_b`, updating `state`.
    fn query(
        &self,
        state: &mut Self::State,
        a: &Shape,
        pose_a: &Pose,
        b: &Shape,
        pose_b: &Pose,
    ) -> Result<DistanceResult, GeomError>;
}

/// Every query independent, through [`proxima_geom::distance`] with `settings`.
#[derive(Debug, Clone, Default)]
pub struct ColdQuery {
    /// Settings passed to every query (default: [`QuerySettings::default`], certified).
    pub settings: QuerySettings,
}

impl PairQuery for ColdQuery {
    type State = ();

    #[inline]
    fn query(
        &self,
        _state: &mut (),
        a: &Shape,
        pose_a: &Pose,
        b: &Shape,
        pose_b: &Pose,
    ) -> Result<DistanceResult, GeomError> {
        distance(a, pose_a, b, pose_b, &self.settings)
    }
}

/// Warm-started narrow phase: one [`GjkCache`] per pair, so a pair routed to GJK starts from
/// the simplex and support hints of its previous query ([`distance_tracked`]); pairs with a
/// closed form or an LCP kernel are answered exactly as [`ColdQuery`] answers them. Every
/// answer carries the same certificate as a cold query; only the iteration counts change.
#[derive(Debug, Clone, Default)]
pub struct TrackedQuery {
    /// Settings of every query.
    pub settings: QuerySettings,
}

impl PairQuery for TrackedQuery {
    type State = GjkCache;

    #[inline]
    fn query(
        &self,
        state: &mut GjkCache,
        a: &Shape,
        pose_a: &Pose,
        b: &Shape,
        pose_b: &Pose,
    ) -> Result<DistanceResult, GeomError> {
        distance_tracked(a, pose_a, b, pose_b, &self.settings, state)
    }
}
