//! Per-configuration queries on a [`RobotWorld`]: forward kinematics, then certified distances
//! or collision verdicts of the monitored pairs.
//!
//! # Distances
//!
//! A body pair's distance is the minimum over its piece pairs. Two mesh hulls are measured by
//! GJK ([`proxima_geom::gjk::gjk_distance`]) on their hill-climbing support functions
//! ([`proxima_robot::HullSupport`]: the same vertices, so the same convex sets and the same
//! certificate — GJK's lower bound is a support-function bound, its upper bound the witness
//! distance), or, cold and for hulls of up to a few hundred vertices, by GJK with vectorized
//! vertex scans ([`proxima_geom::gjk::gjk_distance_scanned`], faster there: Panda
//! `distances` 0.63 → 0.53 of Pinocchio + coal in one interleaved run), whose supports are
//! read from each hull's per-direction candidate lists ([`proxima_geom::gjk::SupportCells`],
//! built with the world: the scan's vertex bit for bit, from about 6–13 listed vertices
//! instead of 100–260; Panda `distances` 25% fewer instructions, 34.5–35.2 → 32.6–33.3 µs
//! per configuration, best of each over 5 passes, 3 interleaved rounds, 2026-11-27); other pieces by [`proxima_geom::distance_tracked`] (unsigned: GJK stops as soon
//! as contact is proven). Optionally warm-started from the pair's previous query in the
//! workspace. Pairs that touch or overlap are re-measured when signed distances are asked for:
//! EPA ([`proxima_geom::gjk::penetration`]) gives the depth with its bracket, and
//! [`proxima_geom::signed_distance`] decides the rest (touching, separation not proven).
//! Every reported number comes with its proven bracket `[lower, upper]`.
//!
//! With [`DistanceMode::Minimum`] only the minimum is proven, by branch and bound: piece pairs
//! are taken in increasing order of the lower bound |c_a − c_b| − r_a − r_b of their bounding
//! balls, until that bound reaches the smallest distance found (every pair left has a distance
//! at least its bound, so the minimum is the true minimum over all pairs). Ties between pairs
//! go to the first pair in pair order, as in [`DistanceMode::AllPairs`].
//!
//! Where the time goes (Panda, 42 hull pairs of 18–260 vertices, random configurations, cold,
//! `perf` on `proxima bench-robot`): GJK takes 4.0 iterations per pair on average; about a
//! third of the time is the vertex scans, two fifths the GJK loop and its simplex projections,
//! a twentieth forward kinematics and placements. Starting GJK along the difference of the
//! bounding balls' centres instead of the link origins' gives 4.06 iterations (no gain), and
//! hill climbing instead of scans is slower on these hulls (measured, 2026-11-26).
//!
//! Why `distances` is about half of Pinocchio + coal while a cold step on the robot hull tracks
//! (`scripts/dqp3-vs-coal.sh`) is about as fast as coal: the pairs differ, and coal's cost
//! depends on them much more than ours. With every separated pair of the first 200 Panda
//! configurations as independent queries (`scripts/robot-pair-queries.py`, both runners cold,
//! one pinned core, shared machine, 2026-11-27), coal native takes 1.6–1.7 µs on pairs closer
//! than 5 cm — the regime of the tracks, whose gaps are 0–0.1 m — and 1.5–3.0 µs on pairs
//! 0.2 m or more apart (64% of the pairs), while we take about 1.25 µs and 0.8 µs: ours/coal
//! 0.73–0.79 near, 0.26–0.54 far, in four interleaved sessions. Near pairs in arbitrary relative orientation need about 6 GJK iterations
//! (the closest features are face–vertex or edge–edge: full simplices), far pairs about 3–4;
//! even started along the exact optimal direction, GJK takes 4.2 iterations on the track steps
//! (6.0 from the bounding-box centres), so a better start direction alone cannot halve a near
//! pair's cost. GJK's tolerance is not the difference either: polytope runs end exactly (1e-6
//! instead of 1e-10 changes neither the iterations nor the time).
//!
//! Tried and measured slower (2026-11-27, Panda `distances`, answers identical each time;
//! best-of-each µs per configuration over 10 passes, interleaved rounds, pinned, loaded
//! machine): two pairs' GJK runs stepped in lockstep in one loop (the run split into begin /
//! step / finish states) 32.8 → 34.9–35.8, and 47 with the states in an array; each cell's
//! candidate list padded to chunks of 4 (fewer distinct loop trip counts) 32.8 → 33.7, with
//! no fewer mispredicted branches in callgrind's simulation; the simplex reduction written
//! with selects instead of branches 32.6 → 33.2 (simulated mispredicts −8%, instructions
//! +3%). At about 6k instructions and 0.78 µs per pair the run is not latency-bound
//! enough for interleaving, and instruction count still tracks time.
//!
//! Where the cycles fall (2026-11-28, `perf record -e cpu-clock` on `bench-robot` over the
//! 819 collision-free Panda configurations, 300 of them × 60 passes, `--sort srcline`): the
//! GJK run (inlined into the dispatched `pulp` function) 77% of the samples; by source
//! file the candidate lookups (`support_cells.rs`) 19%, nalgebra's arithmetic 22% (mostly
//! the lookups' dot products and the direction changes), the simplex projections 12%, the
//! loop itself 11%; forward kinematics and placements about 5% (`Pose::compose` 2.3%, the
//! joint rotations 1.7%), this module's per-pair bookkeeping about 4%. The candidate loop is
//! about 12 instructions per listed vertex along one chain of running maxima. Configurations
//! in collision cost more: 41.1 µs against 29.0 µs per configuration for the free ones (best
//! of each over 10 passes), about 5.5 µs per touching pair (the restarted GJK and EPA on the
//! climbing supports): 7% of the section on `panda_self_1000` (394 of 42000 pairs).
//!
//! Tried and measured no faster (2026-11-28, Panda `distances`, every pair's distance
//! identical to the last bit each time; best-of-each µs per configuration over 10 passes
//! of 300 configurations, 4 interleaved rounds, pinned, heavily loaded machine): the
//! lookup four candidates at a time (each cell's list stored as blocks of x, y, z and index
//! lanes, lane maxima reduced at the end) 31.2–32.6 → 33.0–35.0, and 5.6% more samples under
//! `perf` — the horizontal reduction sits on GJK's dependency chain, and most lookups read
//! one or two blocks; the scalar lookup with two running maxima (even and odd places,
//! merged) 31.3–31.5 → 32.8–33.1; finer cells (k = ⌈1.5√n⌉ up to 24 instead of ⌈√n⌉ up to
//! 16) 31.2–31.4 → 31.1–31.4, no gain: the long lists are those of the cells around a flat
//! face's normal, where GJK's directions end up and every vertex of the face ties, at any
//! cell size.
//!
//! Forward kinematics composes each revolute joint as parent ∘ origin ∘ rotation in one
//! [`Pose::compose_rotated`] (the product by a z rotation on its nonzero block, no measure of
//! the intermediate pose; the two compositions' bits): Panda FK + placements 828 → 708 ns per
//! configuration, `distances` 31.6–32.1 → 31.2–31.3 µs (5 interleaved rounds, 2026-11-28).
//! Measured and dropped the same day: copying the link pose for pieces whose local pose is
//! the identity (bit-exact when every entry is nonzero) made FK + placements slower, 707 →
//! 866 ns; EPA (and its restarted GJK) on the candidate lists instead of the climbing
//! supports moves 90 of the 394 touching Panda pairs by an ulp or two (depth 1e-17 apart):
//! the scan's and the climb's vertices differ on near-ties, so the restart is not the scan's
//! run either, and seeding EPA with the first run's simplex cannot give the same bits.
//!
//! # Collisions
//!
//! [`RobotWorld::collisions`] decides for every pair (no early exit) whether it touches or
//! overlaps. A piece pair whose bounding balls are apart (rounded so that round-off cannot
//! turn an overlap into a gap) is separated without a query; the others go to
//! [`proxima_geom::intersects`] (GJK's early exit for hulls), which proves either a common
//! point or a separating direction. A pair without a verdict is listed as undecided and counted as colliding.

use nalgebra::{Point3, Vector3};
use proxima_geom::gjk::{gjk_distance, gjk_distance_scanned_cells, penetration, scan_beats_climbing};
use proxima_geom::{
    GjkCache, GjkStatus, Intersection, Pose, Proximity, QuerySettings, Shape, distance, distance_tracked,
    intersects, signed_distance,
};
use proxima_robot::LimitPolicy;

use crate::error::SceneError;
use crate::robot_world::{BodyKind, RobotWorld};

/// Settings of per-configuration robot queries. Build with `RobotQuerySettings::default()`
/// and the `with_*` setters (the struct may grow).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RobotQuerySettings {
    /// Joint values outside their limits: an error (default) or clamped.
    pub limits: LimitPolicy,
    /// Geometry query settings (default: certified, [`QuerySettings::default`]).
    pub query: QuerySettings,
    /// Report penetration depth as a negative distance for overlapping pairs (default true);
    /// false reports 0 for every touching or overlapping pair.
    pub signed: bool,
    /// Warm-start each piece pair from its previous query in the workspace (default true).
    /// Answers are certified either way.
    pub warm_start: bool,
}

impl Default for RobotQuerySettings {
    fn default() -> Self {
        Self { limits: LimitPolicy::Reject, query: QuerySettings::default(), signed: true, warm_start: true }
    }
}

impl RobotQuerySettings {
    /// Checks the geometry settings ([`QuerySettings::validate`]).
    pub fn validate(&self) -> Result<(), SceneError> {
        self.query.validate().map_err(|source| SceneError::Geometry { at: "settings.query".into(), source })
    }

    /// With `limits`.
    pub fn with_limits(mut self, limits: LimitPolicy) -> Self {
        self.limits = limits;
        self
    }

    /// With geometry settings `query`.
    pub fn with_query(mut self, query: QuerySettings) -> Self {
        self.query = query;
        self
    }

    /// With signed distances on or off.
    pub fn with_signed(mut self, signed: bool) -> Self {
        self.signed = signed;
        self
    }

    /// With warm starts on or off.
    pub fn with_warm_start(mut self, warm_start: bool) -> Self {
        self.warm_start = warm_start;
        self
    }
}

/// Which pairs a distance query measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DistanceMode {
    /// Only the minimum, proven by branch and bound (default).
    #[default]
    Minimum,
    /// Every pair's distance.
    AllPairs,
}

/// The certified distance of one body pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairDistance {
    /// Index into [`RobotWorld::pairs`].
    pub pair: usize,
    /// Signed distance (negative: penetration depth) — the minimum over the piece pairs.
    pub distance: f64,
    /// Proven lower bound of the (signed) distance.
    pub lower: f64,
    /// Proven upper bound.
    pub upper: f64,
    /// Witness points (world frame) on the pair's first and second body, when available.
    pub points: Option<(Point3<f64>, Point3<f64>)>,
    /// The closest piece pair (indices into [`RobotWorld::pieces`]).
    pub pieces: (usize, usize),
}

/// The answer of [`RobotWorld::distances`].
#[derive(Debug, Clone, Default)]
pub struct DistanceReport {
    /// The closest pair (first in pair order among ties); `None` without pairs.
    pub closest: Option<PairDistance>,
    /// Whether some pair touches or overlaps (the minimum is ≤ 0).
    pub in_collision: bool,
    /// Every pair in pair order ([`DistanceMode::AllPairs`]); empty otherwise.
    pub pairs: Vec<PairDistance>,
    /// Piece pairs queried.
    pub queries: usize,
}

/// The answer of [`RobotWorld::collisions`].
#[derive(Debug, Clone, Default)]
pub struct CollisionReport {
    /// Whether some pair touches, overlaps or is undecided.
    pub in_collision: bool,
    /// Pairs proven to touch or overlap (indices into [`RobotWorld::pairs`], ascending).
    pub colliding: Vec<usize>,
    /// Pairs without a verdict (counted as colliding).
    pub undecided: Vec<usize>,
    /// Piece pairs rejected by their bounding balls.
    pub rejected: usize,
    /// Piece pairs queried.
    pub queries: usize,
}

/// Per-thread state of robot queries: configuration, poses, warm starts, results.
#[derive(Debug, Clone)]
pub struct RobotWorkspace {
    q: Vec<f64>,
    link_poses: Vec<Vec<Pose>>,
    poses: Vec<Pose>,
    centers: Vec<Vector3<f64>>,
    caches: Vec<GjkCache>,
    order: Vec<(f64, u32)>,
    distances: DistanceReport,
    collisions: CollisionReport,
}

impl RobotWorkspace {
    /// World poses of the pieces at the last configuration.
    pub fn piece_poses(&self) -> &[Pose] {
        &self.poses
    }

    /// Link poses of robot `r` at the last configuration.
    pub fn link_poses(&self, r: usize) -> &[Pose] {
        &self.link_poses[r]
    }

    /// The joint values used at the last configuration (clamped when asked for).
    pub fn configuration(&self) -> &[f64] {
        &self.q
    }

    /// Forgets the warm starts.
    pub fn reset(&mut self) {
        self.caches.iter_mut().for_each(GjkCache::reset);
    }
}

impl RobotWorld {
    /// A workspace for this world (obstacle poses set, robots at no configuration yet).
    pub fn workspace(&self) -> RobotWorkspace {
        let poses: Vec<Pose> = self
            .pieces
            .iter()
            .map(|p| match self.bodies[p.body].kind {
                BodyKind::Obstacle(_) => p.local,
                BodyKind::Link { .. } => Pose::identity(),
            })
            .collect();
        let centers = self.pieces.iter().zip(&poses).map(|(p, pose)| center(pose, &p.sphere.0)).collect();
        RobotWorkspace {
            q: vec![0.0; self.dof],
            link_poses: self.robots.iter().map(|r| vec![Pose::identity(); r.robot.links().len()]).collect(),
            poses,
            centers,
            caches: vec![GjkCache::default(); self.piece_pairs.len()],
            order: Vec::with_capacity(self.piece_pairs.len()),
            distances: DistanceReport::default(),
            collisions: CollisionReport::default(),
        }
    }

    /// Checks `q` (length [`RobotWorld::dof`], finite, limits under `limits`) and writes the
    /// values to use into `out` ([`RobotWorld::dof`] entries; clamped when asked).
    pub fn check_configuration(
        &self,
        q: &[f64],
        limits: LimitPolicy,
        out: &mut [f64],
    ) -> Result<(), SceneError> {
        if q.len() != self.dof {
            return Err(SceneError::invalid(
                "q",
                format!("{} values for {} joints ({})", q.len(), self.dof, self.joint_names().join(", ")),
            ));
        }
        for placed in &self.robots {
            let range = placed.coordinate_offset..placed.coordinate_offset + placed.robot.dof();
            placed
                .robot
                .check_configuration(&q[range.clone()], limits, &mut out[range])
                .map_err(|e| SceneError::robot(&placed.name, e))?;
        }
        Ok(())
    }

    /// Forward kinematics: checks `q` ([`RobotWorld::check_configuration`]) and places every
    /// robot piece.
    pub fn set_configuration(
        &self,
        q: &[f64],
        limits: LimitPolicy,
        ws: &mut RobotWorkspace,
    ) -> Result<(), SceneError> {
        self.check_configuration(q, limits, &mut ws.q)?;
        for (r, placed) in self.robots.iter().enumerate() {
            let range = placed.coordinate_offset..placed.coordinate_offset + placed.robot.dof();
            placed.robot.link_poses_unchecked(&placed.base, &ws.q[range], &mut ws.link_poses[r]);
        }
        for (i, p) in self.pieces.iter().enumerate() {
            if let BodyKind::Link { robot, link } = self.bodies[p.body].kind {
                let pose = ws.link_poses[robot][link].compose(&p.local);
                ws.centers[i] = center(&pose, &p.sphere.0);
                ws.poses[i] = pose;
            }
        }
        Ok(())
    }

    /// Lower bound of piece pair k's distance from the bounding balls (may be negative).
    #[inline]
    fn ball_gap(&self, ws: &RobotWorkspace, i: usize, j: usize) -> f64 {
        let d = (ws.centers[i] - ws.centers[j]).norm();
        let r = self.pieces[i].sphere.1 + self.pieces[j].sphere.1;
        // round the gap down: |c| carries a relative error of a few ulps
        d * (1.0 - 4.0 * f64::EPSILON) - r * (1.0 + 4.0 * f64::EPSILON)
    }

    fn piece_distance(
        &self,
        ws: &mut RobotWorkspace,
        k: usize,
        settings: &RobotQuerySettings,
        unsigned: &QuerySettings,
    ) -> Result<PairDistance, SceneError> {
        let (pair, i, j) = self.piece_pairs[k];
        let (i, j) = (i as usize, j as usize);
        let (a, b) = (&self.pieces[i], &self.pieces[j]);
        let (pa, pb) = (&ws.poses[i], &ws.poses[j]);
        let err = |source| {
            let (na, nb) = self.pair_names(pair as usize);
            SceneError::Query { pair: (na.to_string(), nb.to_string()), source }
        };
        if let (Some(sa), Some(sb)) = (&a.support, &b.support) {
            // Two mesh hulls: GJK on their vertices (scanned) or hill-climbing supports.
            let o = match (&a.shape, &b.shape) {
                // Cold, both hulls small enough for the vector scan to beat climbing (a few
                // hundred vertices): the run monomorphized for vertex scans.
                (Shape::ConvexPolytope(x), Shape::ConvexPolytope(y))
                    if !settings.warm_start && scan_beats_climbing(x) && scan_beats_climbing(y) =>
                {
                    gjk_distance_scanned_cells(
                        x,
                        a.cells.as_deref(),
                        pa,
                        y,
                        b.cells.as_deref(),
                        pb,
                        &settings.query.gjk,
                    )
                    .map_err(err)?
                }
                _ => {
                    let cache = settings.warm_start.then_some(&mut ws.caches[k]);
                    gjk_distance(&**sa, pa, &**sb, pb, &settings.query.gjk, cache).map_err(err)?
                }
            };
            let upper = (o.point_b - o.point_a).norm();
            if o.lower > 0.0
                && upper > settings.query.touching_tolerance
                && o.status != GjkStatus::MaxIterations
            {
                return Ok(PairDistance {
                    pair: pair as usize,
                    distance: upper,
                    lower: o.lower.min(upper),
                    upper,
                    points: Some((o.point_a, o.point_b)),
                    pieces: (i, j),
                });
            }
            if o.status == GjkStatus::Contact
                && settings.signed
                && let Some(e) = penetration(&**sa, pa, &**sb, pb, &settings.query.gjk).map_err(err)?
            {
                return Ok(PairDistance {
                    pair: pair as usize,
                    distance: -e.depth,
                    lower: -e.upper,
                    upper: -e.lower,
                    points: Some((e.point_a, e.point_b)),
                    pieces: (i, j),
                });
            }
            // touching, unproven separation, no verdict: the general path below decides
        }
        let r = if settings.warm_start {
            distance_tracked(&a.shape, pa, &b.shape, pb, unsigned, &mut ws.caches[k])
        } else {
            distance(&a.shape, pa, &b.shape, pb, unsigned)
        }
        .map_err(err)?;
        let mut out = PairDistance {
            pair: pair as usize,
            distance: r.distance(),
            lower: r.certificate.lower,
            upper: r.certificate.upper,
            points: r.witnesses(),
            pieces: (i, j),
        };
        if r.certificate.lower <= 0.0 && settings.signed {
            // touching or overlapping (or separation not proven): the depth with its bracket
            let epa = match (&a.shape, &b.shape) {
                (Shape::ConvexPolytope(_), Shape::ConvexPolytope(_)) => {
                    penetration(&a.shape, pa, &b.shape, pb, &settings.query.gjk).map_err(err)?
                }
                _ => None,
            };
            match epa {
                Some(e) => {
                    out.distance = -e.depth;
                    out.lower = -e.upper;
                    out.upper = -e.lower;
                    out.points = Some((e.point_a, e.point_b));
                }
                None => {
                    let sd = signed_distance(&a.shape, pa, &b.shape, pb, &settings.query).map_err(err)?;
                    out.distance = sd.value;
                    out.lower = sd.certificate.lower;
                    out.upper = sd.certificate.upper;
                    out.points = sd.result.witnesses();
                }
            }
        } else if !matches!(r.proximity, Proximity::Separated { .. }) {
            out.distance = 0.0;
        }
        Ok(out)
    }

    /// Distances at configuration `q` (see the module docs). The report lives in the
    /// workspace until the next query.
    pub fn distances<'w>(
        &self,
        q: &[f64],
        ws: &'w mut RobotWorkspace,
        settings: &RobotQuerySettings,
        mode: DistanceMode,
    ) -> Result<&'w DistanceReport, SceneError> {
        self.set_configuration(q, settings.limits, ws)?;
        self.distances_at_current(ws, settings, mode)
    }

    /// [`RobotWorld::distances`] at the configuration last set by
    /// [`RobotWorld::set_configuration`].
    pub fn distances_at_current<'w>(
        &self,
        ws: &'w mut RobotWorkspace,
        settings: &RobotQuerySettings,
        mode: DistanceMode,
    ) -> Result<&'w DistanceReport, SceneError> {
        let unsigned = settings.query.clone().with_penetration_depth(false);
        let mut report = std::mem::take(&mut ws.distances);
        report.pairs.clear();
        report.closest = None;
        report.queries = 0;
        match mode {
            DistanceMode::AllPairs => {
                let mut current: Option<PairDistance> = None;
                for k in 0..self.piece_pairs.len() {
                    let d = self.piece_distance(ws, k, settings, &unsigned)?;
                    report.queries += 1;
                    if current.is_some_and(|c| c.pair != d.pair) {
                        let c = current.take().expect("checked");
                        if better(&c, &report.closest) {
                            report.closest = Some(c);
                        }
                        report.pairs.push(c);
                    }
                    current = Some(match current {
                        Some(c) => PairDistance {
                            lower: c.lower.min(d.lower),
                            upper: c.upper.min(d.upper),
                            ..if d.distance < c.distance { d } else { c }
                        },
                        None => d,
                    });
                }
                if let Some(c) = current {
                    if better(&c, &report.closest) {
                        report.closest = Some(c);
                    }
                    report.pairs.push(c);
                }
            }
            DistanceMode::Minimum => {
                let (closest, queries) = self.minimum_below(ws, settings, &unsigned, f64::INFINITY)?;
                report.closest = closest;
                report.queries = queries;
            }
        }
        report.in_collision = report.closest.is_some_and(|c| c.distance <= 0.0);
        ws.distances = report;
        Ok(&ws.distances)
    }

    /// The minimum distance by branch and bound over the piece pairs whose ball bound is at
    /// most `cutoff` (see the module docs), and the number of piece pairs queried. With a
    /// finite cutoff the answer is the true minimum when it is at most the cutoff (then the
    /// same pair and the same bits as with an infinite cutoff: the minimum's own bound is at
    /// most its distance, so both runs query it); an answer above the cutoff, or none, only
    /// proves that every pair is more than `cutoff` apart.
    pub(crate) fn minimum_below(
        &self,
        ws: &mut RobotWorkspace,
        settings: &RobotQuerySettings,
        unsigned: &QuerySettings,
        cutoff: f64,
    ) -> Result<(Option<PairDistance>, usize), SceneError> {
        let mut order = std::mem::take(&mut ws.order);
        order.clear();
        for (k, &(_, i, j)) in self.piece_pairs.iter().enumerate() {
            order.push((self.ball_gap(ws, i as usize, j as usize), k as u32));
        }
        order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
        let mut closest: Option<PairDistance> = None;
        let mut queries = 0;
        let mut outcome = Ok(());
        for &(bound, k) in &order {
            if bound > cutoff || closest.is_some_and(|b| bound > b.distance) {
                break;
            }
            match self.piece_distance(ws, k as usize, settings, unsigned) {
                Ok(d) => {
                    queries += 1;
                    if better(&d, &closest) {
                        closest = Some(d);
                    }
                }
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
        }
        ws.order = order;
        outcome.map(|()| (closest, queries))
    }

    /// Whether configuration `q` is in collision — or, with `margin > 0`, whether some pair
    /// is closer than `margin` — stopping at the first pair (in pair order) proven so.
    /// Piece pairs whose bounding balls are at least `margin` apart are skipped; the others
    /// go to [`proxima_geom::intersects`] (`margin == 0`: touching counts as colliding) or to
    /// the certified distance (`margin > 0`: closer when its upper bound is below `margin`,
    /// clear when its lower bound is at least `margin`). A pair without a verdict is
    /// remembered and the search goes on for a proven one.
    pub fn first_collision(
        &self,
        q: &[f64],
        ws: &mut RobotWorkspace,
        settings: &RobotQuerySettings,
        margin: f64,
    ) -> Result<FirstCollision, SceneError> {
        if !(margin.is_finite() && margin >= 0.0) {
            return Err(SceneError::invalid("margin", format!("must be finite and >= 0, got {margin}")));
        }
        self.set_configuration(q, settings.limits, ws)?;
        let unsigned = settings.query.clone().with_penetration_depth(false);
        let unsigned_settings = RobotQuerySettings { signed: false, ..settings.clone() };
        let mut undecided = None;
        let mut queries = 0;
        for k in 0..self.piece_pairs.len() {
            let (pair, i, j) = self.piece_pairs[k];
            let (pair, i, j) = (pair as usize, i as usize, j as usize);
            if self.ball_gap(ws, i, j) > margin {
                continue;
            }
            queries += 1;
            let verdict = if margin == 0.0 {
                let (x, y) = (&self.pieces[i], &self.pieces[j]);
                let hit = intersects(&x.shape, &ws.poses[i], &y.shape, &ws.poses[j], &settings.query)
                    .map_err(|source| {
                        let (na, nb) = self.pair_names(pair);
                        SceneError::Query { pair: (na.to_string(), nb.to_string()), source }
                    })?;
                match hit {
                    Intersection::Intersecting { .. } => Verdict::Colliding,
                    Intersection::Separated { .. } => Verdict::Separated,
                    Intersection::Undecided { .. } => Verdict::Undecided,
                }
            } else {
                let d = self.piece_distance(ws, k, &unsigned_settings, &unsigned)?;
                if d.upper < margin {
                    Verdict::Colliding
                } else if d.lower >= margin {
                    Verdict::Separated
                } else {
                    Verdict::Undecided
                }
            };
            match verdict {
                Verdict::Colliding => return Ok(FirstCollision::Colliding { pair, queries }),
                Verdict::Undecided => undecided = undecided.or(Some(pair)),
                Verdict::Separated => {}
            }
        }
        Ok(match undecided {
            Some(pair) => FirstCollision::Undecided { pair, queries },
            None => FirstCollision::Free { queries },
        })
    }

    /// Collision verdicts of every pair at configuration `q` (see the module docs). The report
    /// lives in the workspace until the next query.
    pub fn collisions<'w>(
        &self,
        q: &[f64],
        ws: &'w mut RobotWorkspace,
        settings: &RobotQuerySettings,
    ) -> Result<&'w CollisionReport, SceneError> {
        self.set_configuration(q, settings.limits, ws)?;
        let mut report = std::mem::take(&mut ws.collisions);
        report.colliding.clear();
        report.undecided.clear();
        report.rejected = 0;
        report.queries = 0;
        let mut k = 0;
        while k < self.piece_pairs.len() {
            let pair = self.piece_pairs[k].0;
            let mut verdict = Verdict::Separated;
            while k < self.piece_pairs.len() && self.piece_pairs[k].0 == pair {
                let (_, i, j) = self.piece_pairs[k];
                let (i, j) = (i as usize, j as usize);
                k += 1;
                if verdict == Verdict::Colliding {
                    continue;
                }
                if self.ball_gap(ws, i, j) > 0.0 {
                    report.rejected += 1;
                    continue;
                }
                report.queries += 1;
                let err = |source| {
                    let (na, nb) = self.pair_names(pair as usize);
                    SceneError::Query { pair: (na.to_string(), nb.to_string()), source }
                };
                let (x, y) = (&self.pieces[i], &self.pieces[j]);
                let hit = intersects(&x.shape, &ws.poses[i], &y.shape, &ws.poses[j], &settings.query)
                    .map_err(err)?;
                match hit {
                    Intersection::Intersecting { .. } => verdict = Verdict::Colliding,
                    Intersection::Separated { .. } => {}
                    Intersection::Undecided { .. } => verdict = Verdict::Undecided,
                }
            }
            match verdict {
                Verdict::Colliding => report.colliding.push(pair as usize),
                Verdict::Undecided => report.undecided.push(pair as usize),
                Verdict::Separated => {}
            }
        }
        report.in_collision = !report.colliding.is_empty() || !report.undecided.is_empty();
        ws.collisions = report;
        Ok(&ws.collisions)
    }
}

/// The answer of [`RobotWorld::first_collision`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstCollision {
    /// Every pair is proven separated (by at least the margin).
    Free {
        /// Piece pairs queried.
        queries: usize,
    },
    /// The first pair in pair order proven to collide (closer than the margin).
    Colliding {
        /// Index into [`RobotWorld::pairs`].
        pair: usize,
        /// Piece pairs queried.
        queries: usize,
    },
    /// No pair is proven to collide, but this one (the first such) has no verdict: count it
    /// as colliding.
    Undecided {
        /// Index into [`RobotWorld::pairs`].
        pair: usize,
        /// Piece pairs queried.
        queries: usize,
    },
}

impl FirstCollision {
    /// Colliding or undecided.
    pub fn in_collision(&self) -> bool {
        !matches!(self, FirstCollision::Free { .. })
    }

    /// The colliding (or undecided) pair.
    pub fn pair(&self) -> Option<usize> {
        match *self {
            FirstCollision::Free { .. } => None,
            FirstCollision::Colliding { pair, .. } | FirstCollision::Undecided { pair, .. } => Some(pair),
        }
    }

    /// Piece pairs queried.
    pub fn queries(&self) -> usize {
        match *self {
            FirstCollision::Free { queries }
            | FirstCollision::Colliding { queries, .. }
            | FirstCollision::Undecided { queries, .. } => queries,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Separated,
    Colliding,
    Undecided,
}

/// Whether `x` beats `best`: a smaller distance, ties to the first pair in pair order.
fn better(x: &PairDistance, best: &Option<PairDistance>) -> bool {
    best.is_none_or(|b| x.distance < b.distance || (x.distance == b.distance && x.pair < b.pair))
}

#[inline]
fn center(pose: &Pose, c: &[f64; 3]) -> Vector3<f64> {
    pose.rotation() * Vector3::from(*c) + pose.translation()
}
