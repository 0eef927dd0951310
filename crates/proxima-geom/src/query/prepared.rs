//! A prepared pair: one pair of shapes queried at many pairs of poses (a batch, a sweep, a
//! sampled trajectory), with everything that depends only on the shapes and the settings
//! decided once.
//!
//! # What is decided once
//!
//! A query [`distance`](super::distance)`(a, pa, b, pb, s)` does, in order: validate `s`; put
//! the pair in canonical order (`must_swap`: by [`ShapeKind`](crate::ShapeKind), then — two
//! shapes of one kind — by the poses and the shapes' data); choose the route of the ordered
//! pair (closed form, LCP kernel, ellipsoid solver, GJK...); run it; check the answer against
//! the user's shapes at the user's poses and settle its case. Of these, the settings check,
//! the route and — for two shapes of different kinds — the canonical order depend on the
//! shapes and the settings only. [`PreparedPair::new`] computes them once (the route of each
//! order: for two shapes of one kind the order still depends on the poses and is decided per
//! query, exactly as `distance` decides it); each query then runs the same route, the same
//! kernel and the same check against the shapes, so its answer — value, witnesses,
//! certificate, case, algorithm and path — is bit for bit the one of
//! [`distance`](super::distance) or [`signed_distance`](super::signed_distance) on the same
//! arguments, and so are its errors.
//!
//! # Edge cases
//!
//! * Invalid settings are refused by [`PreparedPair::new`] (the error `distance` would return
//!   on every query).
//! * An unsupported pair (a line against a box, an algorithm the pair does not have) is not an
//!   error of `new`: each query returns the [`GeomError::Unsupported`] that `distance`
//!   returns, so a caller handles both alike.
//! * Poses are [`Pose`]s: validated when made (a non-rotation, NaN or ∞ never reaches a
//!   query).

use super::dispatch::{self, Route, must_swap};
use super::distance::gjk::DepthOnContact;
use super::{DistanceResult, QuerySettings, SignedDistance, signed_from_unsigned};
use crate::error::GeomError;
use crate::pose::Pose;
use crate::shape::Shape;

/// Rows per polytope vertex from which [`PreparedPair::prepare_for_rows`] builds support
/// lists. The build costs about 30·n² dot products for n vertices and saves a share of each
/// row's supports that grows with n: on the 64-vertex hull of the Python benchmark
/// (`examples/harness_batch_rows.rs polytope`, callgrind) 1.44 million instructions to build,
/// 655 fewer per row (5584 → 4929), even at about 2200 rows, 34 per vertex.
pub const CELLS_MIN_ROWS_PER_VERTEX: usize = 32;

/// Polytopes with fewer vertices get no support lists from [`PreparedPair::prepare_for_rows`]:
/// fewer instructions is not less time there. Measured with `distance_batch` on hulls of
/// points on the benchmark's ellipsoid (same 2000 rows, pinned, interleaved, 15 rounds, ns per
/// row without → with lists, minima): 64 vertices 687 → 753 (10% fewer instructions, but the
/// lists' scattered reads and data-dependent loop ends cost more than the four-lane scan of
/// 64 vertices), 100: 765 → 786, 120: 809 → 784, 150: 889 → 821, 190: 982 → 818.
pub const CELLS_MIN_VERTICES: usize = 128;

/// Two shapes and query settings, prepared for many distance queries at different poses.
///
/// ```
/// use proxima_geom::query::PreparedPair;
/// use proxima_geom::shape::{Cuboid, Ellipsoid};
/// use proxima_geom::{Pose, QuerySettings, Shape, distance};
///
/// let a = Shape::Cuboid(Cuboid::new([0.5, 0.4, 0.3])?);
/// let b = Shape::Ellipsoid(Ellipsoid::new([0.5, 0.4, 0.3])?);
/// let s = QuerySettings::default();
/// let pair = PreparedPair::new(&a, &b, &s)?;
/// for x in [1.5, 2.0, 2.5] {
///     let (pa, pb) = (Pose::identity(), Pose::from_translation([x, 0.0, 0.0])?);
///     // The same answer as the one-off query, bit for bit.
///     assert_eq!(pair.distance(&pa, &pb)?, distance(&a, &pa, &b, &pb, &s)?);
/// }
/// # Ok::<(), proxima_geom::GeomError>(())
/// ```
#[derive(Debug, Clone)]
pub struct PreparedPair<'s> {
    a: &'s Shape,
    b: &'s Shape,
    settings: QuerySettings,
    /// `settings` without the penetration depth: the first half of a signed query.
    unsigned: QuerySettings,
    /// The canonical order when the kinds differ (`Some(true)`: b first); `None` for two
    /// shapes of one kind (decided per query from the poses).
    swap: Option<bool>,
    /// The route of (a, b) and of (b, a) under the settings (`None`: unsupported).
    routes: [Option<Route>; 2],
}

impl<'s> PreparedPair<'s> {
    /// Prepares `a` and `b` for queries under `settings`.
    ///
    /// # Errors
    ///
    /// [`GeomError::InvalidSettings`] as [`QuerySettings::validate`].
    pub fn new(a: &'s Shape, b: &'s Shape, settings: &QuerySettings) -> Result<Self, GeomError> {
        settings.validate()?;
        let swap = (a.kind() != b.kind()).then(|| a.kind() > b.kind());
        Ok(PreparedPair {
            a,
            b,
            settings: settings.clone(),
            unsigned: settings.clone().with_penetration_depth(false),
            swap,
            routes: [dispatch::route(a, b, settings), dispatch::route(b, a, settings)],
        })
    }

    /// Readies the shapes for `rows` more queries: in a pair of two convex polytopes (whose
    /// cold runs scan their vertices), each polytope of at least [`CELLS_MIN_VERTICES`]
    /// vertices gets its support lists (see
    /// [`ConvexPolytope::prepare_support_cells`](crate::shape::ConvexPolytope::prepare_support_cells))
    /// when the rows pay for building them: at least [`CELLS_MIN_ROWS_PER_VERTEX`] rows per
    /// vertex. Answers are the same either way, bit for bit: this only changes how fast they
    /// come. Returns whether a polytope of the pair now has lists.
    pub fn prepare_for_rows(&self, rows: usize) -> bool {
        let (Shape::ConvexPolytope(a), Shape::ConvexPolytope(b)) = (self.a, self.b) else {
            return false;
        };
        let worth = |n: usize| n >= CELLS_MIN_VERTICES && rows >= CELLS_MIN_ROWS_PER_VERTEX.saturating_mul(n);
        let built_a = worth(a.vertices().len()) && a.prepare_support_cells();
        let built_b = worth(b.vertices().len()) && b.prepare_support_cells();
        built_a | built_b
    }

    /// The shapes (a, b).
    pub fn shapes(&self) -> (&'s Shape, &'s Shape) {
        (self.a, self.b)
    }

    /// The settings every query uses.
    pub fn settings(&self) -> &QuerySettings {
        &self.settings
    }

    /// Whether the pair at these poses is computed as (b, a), and that order's route.
    #[inline(always)]
    fn order(&self, pa: &Pose, pb: &Pose) -> (bool, Option<Route>) {
        let swap = match self.swap {
            Some(swap) => swap,
            None => must_swap(self.a, pa, self.b, pb),
        };
        (swap, self.routes[usize::from(swap)])
    }

    /// [`distance`](super::distance)`(a, pose_a, b, pose_b, settings)`: the same answer and
    /// the same errors.
    pub fn distance(&self, pose_a: &Pose, pose_b: &Pose) -> Result<DistanceResult, GeomError> {
        let (swap, route) = self.order(pose_a, pose_b);
        dispatch::distance_routed(self.a, pose_a, self.b, pose_b, &self.settings, swap, route, None)
    }

    /// [`signed_distance`](super::signed_distance)`(a, pose_a, b, pose_b, settings)`: the same
    /// answer and the same errors (the unsigned answer first, then the depth when separation
    /// is not proven).
    pub fn signed_distance(&self, pose_a: &Pose, pose_b: &Pose) -> Result<SignedDistance, GeomError> {
        let (swap, route) = self.order(pose_a, pose_b);
        // (A match rather than `?`, binding the answer by reference: it is read from where it
        // lies, inside the `Result`, without the copies `?`, a moving binding and a by-value
        // argument made of it.)
        // A GJK run that ends in contact goes on into EPA and leaves its depth answer for the
        // signed half (`gjk::DepthOnContact`): one GJK run, not two.
        let depth = DepthOnContact::new(None);
        match dispatch::distance_routed(
            self.a,
            pose_a,
            self.b,
            pose_b,
            &self.unsigned,
            swap,
            route,
            Some(&depth),
        ) {
            Ok(ref r) => signed_from_unsigned(
                self.a,
                pose_a,
                self.b,
                pose_b,
                &self.settings,
                r,
                None,
                Some((swap, &depth)),
            ),
            Err(e) => Err(e),
        }
    }
}
