//! Triage scheduling: which pairs to query this cycle, with a proof that skipped pairs are safe.
//!
//! # The safety argument
//!
//! When pair (A, B) was last evaluated at cycle c₀ the query returned a certified lower bound
//! ℓ₀ ≤ dist(A, B)(c₀). Every object carries a motion odometer Mᵢ (see [`crate::world`]):
//! between c₀ and now no point of A moved more than M_A − M_A(c₀), likewise for B, and the
//! distance is 1-Lipschitz in each object's points, so now
//!
//! ```text
//! dist(A, B) ≥ ℓ = max( ℓ₀ − (M_A − M_A(c₀)) − (M_B − M_B(c₀)),  gap(AABB_A, AABB_B) ).
//! ```
//!
//! (The second term is the broadphase bound: each shape lies in its AABB.) The odometer
//! difference is inflated by a relative 1e-12 plus 1e-10 × the odometer reading, which dominates the round-off of the running sums. A pair never evaluated
//! has ℓ = max(−∞, AABB gap).
//!
//! # Each cycle
//!
//! 1. **Mandatory:** every pair with ℓ − h·v ≤ `margin` is queried, v being the pair's motion
//!    bound over the last cycle — or, for objects with an a-priori per-cycle limit (robot
//!    links under joint velocity limits, [`crate::world::World::set_motion_limit`]), that
//!    limit when larger, so the look-ahead covers any admissible motion — and h =
//!    `lookahead_cycles` (default 1). With h ≥ 0 this
//!    includes every pair with ℓ ≤ margin, so a pair whose distance could be at or below the
//!    margin is never skipped; with h = 1, neither is a pair whose distance is ≤ margin + v
//!    (since ℓ ≤ distance). A pair never queried is mandatory only when its AABB gap allows it — so a pair whose distance could
//!    be at or below the safety margin is never skipped. If these exceed `max_queries` or the
//!    time budget, the cycle reports [`CycleReport::overload`]; they are still all queried.
//! 2. **Exact minimum** (`exact_minimum`, default on): while some unqueried pair has
//!    ℓ < (current minimum), query the one with the smallest ℓ. Afterwards every skipped pair
//!    has distance ≥ ℓ ≥ the reported minimum, so the reported minimum is the true minimum
//!    over all pairs (a branch-and-bound over the pair list).
//! 3. **Refresh** (the thesis's triage, earliest deadline first): up to `refresh_per_cycle`
//!    further pairs, ordered by the estimated number of cycles before ℓ can reach the margin,
//!    (ℓ − margin) / (closing rate), ties stalest first; the rate is the pair's odometer growth
//!    over the last cycle. Stops early at `max_queries` or when the time budget is spent.
//!
//! Queries refresh ℓ₀ and the odometer snapshot, so far pairs are re-checked before their
//! bound decays to the margin; the round-robin of step 3 keeps bounds tight in quiet phases.

use std::time::{Duration, Instant};

use proxima_geom::DistanceResult;

use crate::error::SceneError;
use crate::pairs::Pair;
use crate::query::PairQuery;
use crate::world::World;

/// An object's motion over the last cycle for the look-ahead: its odometer growth, or its
/// a-priori per-cycle limit (joint velocity limits) when that is larger.
#[inline]
fn step(o: &crate::world::Object, previous_odometer: f64) -> f64 {
    let moved = o.odometer() - previous_odometer;
    o.motion_limit().map_or(moved, |l| moved.max(l))
}

/// Settings of the [`Scheduler`].
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduleSettings {
    /// Safety margin m: pairs that could be within m are queried every cycle. Default 0.02.
    pub margin: f64,
    /// Queries per cycle above which the cycle is reported overloaded. Default 500 (the
    /// thesis's estimate for a 1 ms loop).
    pub max_queries: usize,
    /// Wall-time budget per cycle: optional work stops when it is spent, and mandatory work
    /// exceeding it is reported as overload. Default 1 ms.
    pub time_budget: Duration,
    /// Query extra pairs until the reported minimum is proven to be the minimum over all
    /// pairs. Default true.
    pub exact_minimum: bool,
    /// Optional refresh queries per cycle (earliest deadline first). Default 8.
    pub refresh_per_cycle: usize,
    /// Horizon h in cycles: a pair is mandatory when ℓ − h·v ≤ margin, v being the pair's
    /// motion bound over the last cycle (its closing-speed estimate). h = 0 queries exactly the
    /// pairs that could be within the margin now; the default h = 1 also queries every pair
    /// that could reach it next cycle at the current speed (spec §9 check 8a).
    pub lookahead_cycles: f64,
}

impl Default for ScheduleSettings {
    fn default() -> Self {
        Self {
            margin: 0.02,
            max_queries: 500,
            time_budget: Duration::from_millis(1),
            exact_minimum: true,
            refresh_per_cycle: 8,
            lookahead_cycles: 1.0,
        }
    }
}

impl ScheduleSettings {
    /// Checks the settings: `margin` and `lookahead_cycles` finite and ≥ 0, `max_queries` ≥ 1.
    pub fn validate(&self) -> Result<(), SceneError> {
        if !self.lookahead_cycles.is_finite() || self.lookahead_cycles < 0.0 {
            return Err(SceneError::invalid("schedule.lookahead_cycles", "must be finite and >= 0"));
        }
        if !self.margin.is_finite() || self.margin < 0.0 {
            return Err(SceneError::invalid("schedule.margin", "must be finite and >= 0"));
        }
        if self.max_queries == 0 {
            return Err(SceneError::invalid("schedule.max_queries", "must be >= 1"));
        }
        Ok(())
    }
}

/// What the scheduler knows about one pair.
#[derive(Debug, Clone)]
pub struct PairRecord<S> {
    /// The pair.
    pub pair: Pair,
    /// Distance returned by its last query (NaN before the first).
    pub distance: f64,
    /// Certified lower bound returned by its last query (−∞ before the first).
    pub lower: f64,
    /// Cycle of its last query.
    pub last_cycle: Option<u64>,
    /// Lower bound ℓ on its current distance, as computed at the start of the last cycle.
    pub bound: f64,
    /// Why it was queried in the last cycle, if it was.
    pub queried: Option<Reason>,
    /// Warm-start state of the pair's tracker.
    pub state: S,
    odometer_at_query: f64,
}

/// Why a pair was queried in a cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// ℓ ≤ margin.
    Mandatory,
    /// Needed to prove the minimum.
    Minimum,
    /// Optional refresh (earliest deadline first).
    Refresh,
}

/// The closest pair of a cycle.
#[derive(Debug, Clone, Copy)]
pub struct Closest {
    /// Index into the scheduler's pair list.
    pub index: usize,
    /// The pair.
    pub pair: Pair,
    /// Its query result.
    pub result: DistanceResult,
}

/// What happened in one cycle.
#[derive(Debug, Clone)]
pub struct CycleReport {
    /// Cycle number (0-based).
    pub cycle: u64,
    /// Closest pair among the queried ones (`None` if nothing was queried). With
    /// `exact_minimum` it is the minimum over all pairs.
    pub closest: Option<Closest>,
    /// Pairs queried, by reason.
    pub mandatory: usize,
    /// Pairs queried to prove the minimum.
    pub for_minimum: usize,
    /// Pairs queried as optional refresh.
    pub refreshed: usize,
    /// Pairs not queried.
    pub skipped: usize,
    /// Smallest lower bound ℓ among skipped pairs (+∞ if none).
    pub skipped_min_bound: f64,
    /// The mandatory set exceeded `max_queries` or the time budget (all of it was still queried).
    pub overload: bool,
    /// Wall time spent in the scheduler this cycle.
    pub elapsed: Duration,
}

impl CycleReport {
    /// Number of queries this cycle.
    pub fn queried(&self) -> usize {
        self.mandatory + self.for_minimum + self.refreshed
    }
    /// The minimum distance (`None` if nothing was queried).
    pub fn min_distance(&self) -> Option<f64> {
        self.closest.map(|c| c.result.distance())
    }
}

/// Per-pair trackers plus the triage scheduler over a fixed pair list.
#[derive(Debug, Clone)]
pub struct Scheduler<Q: PairQuery> {
    query: Q,
    settings: ScheduleSettings,
    records: Vec<PairRecord<Q::State>>,
    cycle: u64,
    prev_odometer: Vec<f64>,
    scratch: Vec<(f64, u64, u32)>,
}

impl<Q: PairQuery> Scheduler<Q> {
    /// A scheduler for `pairs` of `world` answering with `query`.
    pub fn new(
        query: Q,
        settings: ScheduleSettings,
        world: &World,
        pairs: &[Pair],
    ) -> Result<Self, SceneError> {
        settings.validate()?;
        for (i, p) in pairs.iter().enumerate() {
            if p.a.index() >= world.len() || p.b.index() >= world.len() || p.a == p.b {
                return Err(SceneError::invalid(
                    format!("pairs[{i}]"),
                    "object index out of range or a == b",
                ));
            }
        }
        let records = pairs
            .iter()
            .map(|&pair| PairRecord {
                pair,
                distance: f64::NAN,
                lower: f64::NEG_INFINITY,
                last_cycle: None,
                bound: f64::NEG_INFINITY,
                queried: None,
                state: Q::State::default(),
                odometer_at_query: 0.0,
            })
            .collect();
        let prev_odometer = world.objects().iter().map(|o| o.odometer()).collect();
        Ok(Self { query, settings, records, cycle: 0, prev_odometer, scratch: Vec::new() })
    }

    /// The settings.
    pub fn settings(&self) -> &ScheduleSettings {
        &self.settings
    }

    /// The per-pair records (state after the last cycle).
    pub fn records(&self) -> &[PairRecord<Q::State>] {
        &self.records
    }

    /// The query implementation.
    pub fn query(&self) -> &Q {
        &self.query
    }

    /// Runs one cycle on the world's current poses. Errors: a world with a different number
    /// of objects than the one the scheduler was built for, or a failed query (named pair).
    pub fn run_cycle(&mut self, world: &World) -> Result<CycleReport, SceneError> {
        let start = Instant::now();
        if world.len() != self.prev_odometer.len() {
            return Err(SceneError::invalid(
                "world",
                format!(
                    "has {} objects, the scheduler was built for {}",
                    world.len(),
                    self.prev_odometer.len()
                ),
            ));
        }
        let objects = world.objects();
        let margin = self.settings.margin;
        let lookahead = self.settings.lookahead_cycles;
        let cycle = self.cycle;
        let mut best: Option<Closest> = None;
        let mut report = CycleReport {
            cycle,
            closest: None,
            mandatory: 0,
            for_minimum: 0,
            refreshed: 0,
            skipped: 0,
            skipped_min_bound: f64::INFINITY,
            overload: false,
            elapsed: Duration::ZERO,
        };

        // 1. bounds and the mandatory set
        for idx in 0..self.records.len() {
            let r = &mut self.records[idx];
            let (oa, ob) = (&objects[r.pair.a.index()], &objects[r.pair.b.index()]);
            let odo = oa.odometer() + ob.odometer();
            let moved = (odo - r.odometer_at_query) * (1.0 + 1e-12) + odo * 1e-10;
            let from_query = r.lower - moved;
            r.bound = from_query.max(oa.aabb().gap(ob.aabb()));
            r.queried = None;
            let (ia, ib) = (r.pair.a.index(), r.pair.b.index());
            let rate = step(oa, self.prev_odometer[ia]) + step(ob, self.prev_odometer[ib]);
            if r.bound - lookahead * rate <= margin {
                self.evaluate(idx, world, Reason::Mandatory, &mut best)?;
                report.mandatory += 1;
            }
        }
        if report.mandatory > self.settings.max_queries || start.elapsed() > self.settings.time_budget {
            report.overload = true;
        }

        // 2. exact minimum: branch and bound over the remaining pairs
        if self.settings.exact_minimum {
            let current = best.map_or(f64::INFINITY, |c| c.result.distance());
            self.scratch.clear();
            for (i, r) in self.records.iter().enumerate() {
                if r.queried.is_none() && r.bound < current {
                    self.scratch.push((r.bound, 0, i as u32));
                }
            }
            self.scratch.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
            let candidates = std::mem::take(&mut self.scratch);
            for &(bound, _, i) in &candidates {
                if bound >= best.map_or(f64::INFINITY, |c| c.result.distance()) {
                    break;
                }
                self.evaluate(i as usize, world, Reason::Minimum, &mut best)?;
                report.for_minimum += 1;
            }
            self.scratch = candidates;
        }

        // 3. optional refresh, earliest estimated deadline first, stalest on ties
        let mut room =
            self.settings.refresh_per_cycle.min(self.settings.max_queries.saturating_sub(report.queried()));
        if room > 0 && start.elapsed() < self.settings.time_budget {
            self.scratch.clear();
            for (i, r) in self.records.iter().enumerate() {
                if r.queried.is_some() {
                    continue;
                }
                let (a, b) = (r.pair.a.index(), r.pair.b.index());
                let rate =
                    step(&objects[a], self.prev_odometer[a]) + step(&objects[b], self.prev_odometer[b]);
                let cycles_left = (r.bound - margin) / rate.max(1e-300);
                self.scratch.push((cycles_left, r.last_cycle.unwrap_or(0), i as u32));
            }
            let order = |x: &(f64, u64, u32), y: &(f64, u64, u32)| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1));
            room = room.min(self.scratch.len());
            if room > 0 && room < self.scratch.len() {
                self.scratch.select_nth_unstable_by(room - 1, order);
            }
            self.scratch.truncate(room);
            self.scratch.sort_unstable_by(order);
            let candidates = std::mem::take(&mut self.scratch);
            for &(_, _, i) in &candidates {
                if start.elapsed() >= self.settings.time_budget {
                    break;
                }
                self.evaluate(i as usize, world, Reason::Refresh, &mut best)?;
                report.refreshed += 1;
            }
            self.scratch = candidates;
        }

        for r in &self.records {
            if r.queried.is_none() {
                report.skipped += 1;
                report.skipped_min_bound = report.skipped_min_bound.min(r.bound);
            }
        }
        for (p, o) in self.prev_odometer.iter_mut().zip(objects) {
            *p = o.odometer();
        }
        report.closest = best;
        self.cycle += 1;
        report.elapsed = start.elapsed();
        Ok(report)
    }

    fn evaluate(
        &mut self,
        idx: usize,
        world: &World,
        reason: Reason,
        best: &mut Option<Closest>,
    ) -> Result<(), SceneError> {
        let r = &mut self.records[idx];
        let (oa, ob) = (world.object(r.pair.a), world.object(r.pair.b));
        let result = self
            .query
            .query(&mut r.state, oa.shape(), oa.pose(), ob.shape(), ob.pose())
            .map_err(|source| SceneError::Query { pair: (oa.name.clone(), ob.name.clone()), source })?;
        let d = result.distance();
        r.distance = d;
        r.lower = result.certificate.lower.min(d);
        r.odometer_at_query = oa.odometer() + ob.odometer();
        r.last_cycle = Some(self.cycle);
        r.queried = Some(reason);
        if best.is_none_or(|c| d < c.result.distance()) {
            *best = Some(Closest { index: idx, pair: r.pair, result });
        }
        Ok(())
    }
}

/// Brute force: every pair queried cold; the minimum distance and its pair index.
pub fn brute_force_minimum<Q: PairQuery>(
    query: &Q,
    world: &World,
    pairs: &[Pair],
) -> Result<Option<(usize, f64)>, SceneError> {
    let mut best: Option<(usize, f64)> = None;
    for (i, p) in pairs.iter().enumerate() {
        let (oa, ob) = (world.object(p.a), world.object(p.b));
        let mut state = Q::State::default();
        let d = query
            .query(&mut state, oa.shape(), oa.pose(), ob.shape(), ob.pose())
            .map_err(|source| SceneError::Query { pair: (oa.name.clone(), ob.name.clone()), source })?
            .distance();
        if best.is_none_or(|(_, b)| d < b) {
            best = Some((i, d));
        }
    }
    Ok(best)
}
