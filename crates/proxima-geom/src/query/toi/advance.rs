//! Conservative advancement: the loop that proves one step after another free of contact.
//!
//! # Each step is a proof
//!
//! At a sample time t (already proven: d > margin on [start, t)), a warm-started distance query
//! gives a certified lower bound L, an upper bound U (the witness distance) and the witness
//! normal n. Three certificates each prove d > margin on a step [t, t + Δ]; the longest wins:
//!
//! 1. **Isotropic** (the motion bound): every point of a body moves at most
//!    |v| + |ω|·r per unit time (r = reach from its rotation centre) and the distance is
//!    invariant under a common translation, so |d'| ≤ R = |v_B − v_A| + |ω_A| r_A + |ω_B| r_B
//!    and Δ = (L − δ − margin)/R.
//! 2. **Directional, first order**: the separation along the fixed n,
//!    sep(τ) = −h_B(−n) − h_A(n) ≤ d(τ), changes at rate ≥ −σ with
//!    σ = n·(v_A − v_B) + |n × ω_A| ρ_A + |n × ω_B| ρ_B (ρ = reach from the rotation axis,
//!    `extent.rs`); Δ = (sep(t) − δ − margin)/σ, or the whole rest of the interval when σ ≤ 0.
//!    Exact for translations (sep is then affine: the step lands on sep = margin).
//! 3. **Directional, second order** (turning bodies): the chord bound of `arc_bound.rs` proves
//!    sep(τ) ≥ min(sep(t), sep(t + Δ)) − E_A − E_B on the whole step from one evaluation of the
//!    two support values at t + Δ. Δ is predicted by a Newton step on sep (its derivative from
//!    the velocities of the two support points) and shrunk by a secant when the check fails.
//!    The loss E is O(Δ²), so near contact the steps converge quadratically instead of
//!    linearly.
//!
//! # Round-off
//!
//! Every bound is lowered by δ = 64·ε·S, S = the largest |coordinate| any point of the two
//! bodies reaches on the interval plus the margin (it covers the rounding of support values,
//! of the certificate's separation and of the poses computed along the motion); rates are
//! rounded up by a relative 1e-12; a step whose end time rounds up past the proven end is
//! moved down one ulp.
//!
//! # Ending
//!
//! * A sample with U ≤ margin + tol (contact within the distance tolerance): a hit with
//!   t_safe = t_hit = that time. At the start: an initial contact with the signed distance.
//! * A step reaching the end of the interval: a miss, the last step being its final link.
//! * No step possible (L and sep at the round-off floor while U > margin + tol: the
//!   certificate is loose near contact): one probe at t + time tolerance; contact there is a
//!   hit [t, t_probe], otherwise the search stalls (`Undecided`).
//! * The step cap: `Undecided` with [`ToiStatus::MaxIterations`].

use nalgebra::{Point3, Vector3};

use super::chord::{ChordMotion, turned};
use super::direction::{Along, Pair, Placed};
use super::extent::{reach, rotation_defect};
use super::motion::RigidMotion;
use super::result::{ToiHit, ToiMiss, ToiOutcome, ToiResult, ToiStatus, ToiUndecided};
use super::settings::ToiSettings;
use super::start::{Queries, Sample};
use crate::error::GeomError;
use crate::query::{
    Algorithm, Arithmetic, Certificate, DistanceResult, Proximity, QueryPath, SignedDistance,
};
use crate::shape::Shape;

/// Secant shrinks of a failed second-order step (each one pose and two support evaluations).
const SECANT_TRIES: usize = 2;

/// A moving shape and the constants of its motion bounds.
struct Body<'s> {
    shape: &'s Shape,
    motion: &'s RigidMotion,
    /// Bound of |R₀(p − c)| over the shape (world length).
    radius: f64,
    /// Bound of the distance of the shape from its rotation axis (world).
    axis_radius: f64,
}

impl<'s> Body<'s> {
    fn new(shape: &'s Shape, motion: &'s RigidMotion) -> Result<Self, GeomError> {
        let start = motion.start();
        let axis = motion.axis();
        let local_axis = start.rotation().transpose() * axis;
        let k = if local_axis.norm() > 0.0 { local_axis.normalize() } else { Vector3::zeros() };
        let r = reach(shape, &motion.centre().coords, &k)?;
        // The pose's matrix is a rotation only to 1e-6 (used as given): see `extent.rs`.
        let eta = rotation_defect(start);
        let radius = r.radius * (1.0 + 2.0 * eta) * (1.0 + 1e-12);
        let axis_radius = ((r.axis_radius + 5.0 * eta * r.radius) * (1.0 + 1e-12)).min(radius);
        Ok(Self { shape, motion, radius, axis_radius })
    }

    /// Bound of the speed of its points along ±n due to the turning: |n × ω|·ρ.
    fn turning_rate(&self, n: &Vector3<f64>) -> f64 {
        n.cross(&self.motion.angular_velocity()).norm() * self.axis_radius
    }
}

/// What one step proved.
struct Step {
    /// d > margin on [t, t + delta].
    delta: f64,
    /// The sample at t + delta when the second-order check computed it.
    sample: Option<Sample>,
}

/// The search state of one query.
struct Search<'s> {
    a: Body<'s>,
    b: Body<'s>,
    settings: &'s ToiSettings,
    /// The distance queries (settings, warm cache, count), begun by the start sample.
    q: Queries<'s>,
    /// Support hints of A and B for the directional steps.
    hints: (u32, u32),
    /// The direction that proved the last step, and the time it was chosen at.
    last_direction: Option<(Vector3<f64>, f64)>,
    /// Isotropic rate bound R.
    rate: f64,
    /// Round-off allowance δ.
    slack: f64,
    /// Contact within tolerance: U ≤ margin + this.
    contact_tolerance: f64,
}

impl<'s> Search<'s> {
    /// The search after its start sample, whose queries `q` found the shapes apart: the
    /// motion bounds are computed here.
    fn new(a: Body<'s>, b: Body<'s>, q: Queries<'s>) -> Result<Self, GeomError> {
        let settings = q.settings;
        let (ma, mb) = (a.motion, b.motion);
        let rate = ((mb.linear_velocity() - ma.linear_velocity()).norm()
            + ma.angular_speed() * a.radius
            + mb.angular_speed() * b.radius)
            * (1.0 + 1e-12);
        let reach_at = |m: &RigidMotion, t: f64| m.centre_at(t).norm();
        let (t0, t1) = (settings.start_time, settings.end_time);
        let coordinates = reach_at(ma, t0).max(reach_at(ma, t1))
            + reach_at(mb, t0).max(reach_at(mb, t1))
            + a.radius
            + b.radius
            + settings.margin;
        if !rate.is_finite() || !coordinates.is_finite() {
            return Err(GeomError::NonFinite { what: "motion bound (velocities or coordinates too large)" });
        }
        let slack = 64.0 * f64::EPSILON * coordinates;
        let size = a.radius + b.radius;
        let contact_tolerance = (settings.distance_tolerance * size).max(16.0 * slack);
        let hints = (crate::gjk::COLD_HINT, crate::gjk::COLD_HINT);
        Ok(Self { a, b, settings, q, hints, last_direction: None, rate, slack, contact_tolerance })
    }

    fn sample(&self, t: f64) -> Sample {
        Sample { t, pa: self.a.motion.pose_at(t), pb: self.b.motion.pose_at(t) }
    }

    fn distance(&mut self, s: &Sample) -> Result<DistanceResult, GeomError> {
        self.q.distance(s)
    }

    /// Contact within the tolerance (or overlap) proven at this sample.
    fn within(&self, r: &DistanceResult) -> bool {
        match r.proximity {
            Proximity::Separated { distance, .. } => {
                distance <= self.settings.margin + self.contact_tolerance
            }
            _ => true,
        }
    }

    fn pair<'p>(a: &'p Body<'_>, b: &'p Body<'_>, s: &'p Sample, hints: &'p mut (u32, u32)) -> Pair<'p> {
        Pair { a: Placed { shape: a.shape, pose: &s.pa }, b: Placed { shape: b.shape, pose: &s.pb }, hints }
    }

    fn along(&mut self, s: &Sample, n: &Vector3<f64>) -> Along {
        Self::pair(&self.a, &self.b, s, &mut self.hints).along(n)
    }

    /// The separating direction for the directional steps at sample `s` (`direction.rs`):
    /// the witness normal, the last step's direction (as is and turned with either body), the
    /// GJK cache's search direction, feature axes, a dual Newton step; the first within a
    /// small fraction of the certified bound `lower` wins.
    fn direction(&mut self, s: &Sample, r: &DistanceResult, lower: f64) -> Option<(Vector3<f64>, Along)> {
        let margin = self.settings.margin;
        let good = lower - (1e-3 * (lower - margin)).max(0.25 * self.contact_tolerance);
        let mut candidates = [Vector3::zeros(); 5];
        if let Proximity::Separated { normal, .. } = r.proximity {
            candidates[0] = normal;
        }
        if let Some((n, t)) = self.last_direction {
            candidates[1] = n;
            candidates[2] = turned(&self.a.motion.angular_velocity(), &n, s.t - t);
            candidates[3] = turned(&self.b.motion.angular_velocity(), &n, s.t - t);
        }
        if let Some(v) = self.q.cache.direction {
            // The last GJK run's closest point v of M = X − Y in X's frame, X the canonical
            // first shape: the normal from X to Y is −v.
            candidates[4] = if self.q.cache.swapped { s.pb.rotation() * v } else { -(s.pa.rotation() * v) };
        }
        let found = Self::pair(&self.a, &self.b, s, &mut self.hints).best(&candidates, good, true);
        if let Some((n, _)) = found {
            self.last_direction = Some((n, s.t));
        }
        found
    }

    /// The longest step from sample `s` (query answer `r`, witness normal `n`) that one of
    /// the three certificates proves (see the module docs).
    fn step(&mut self, s: &Sample, r: &DistanceResult) -> Step {
        let margin = self.settings.margin;
        let rest = self.settings.end_time - s.t;
        let mut best = 0.0f64;
        let lower = r.certificate.lower - self.slack;
        if lower > margin {
            best = if self.rate > 0.0 { (lower - margin) / self.rate } else { f64::INFINITY };
        }
        let Some((n, here)) = self.direction(s, r, r.certificate.lower) else {
            return Step { delta: best, sample: None };
        };
        let n = &n;
        let g0 = here.separation() - self.slack - margin;
        if g0 <= 0.0 {
            return Step { delta: best, sample: None };
        }
        // h_A(n) grows at most at n·v_A + |n × ω_A| ρ_A, min_B n·b falls at most at
        // −n·v_B + |n × ω_B| ρ_B.
        let (va, vb) = (self.a.motion.linear_velocity(), self.b.motion.linear_velocity());
        let sigma = (n.dot(&(va - vb)) + self.a.turning_rate(n) + self.b.turning_rate(n)) * (1.0 + 1e-12);
        best = best.max(if sigma > 0.0 { g0 / sigma } else { f64::INFINITY });
        let (wa, wb) = (self.a.motion.angular_velocity(), self.b.motion.angular_velocity());
        if best >= rest || (wa == Vector3::zeros() && wb == Vector3::zeros()) {
            return Step { delta: best, sample: None };
        }
        // Second order (`chord.rs`) along n fixed, turning with A or turning with B: for each
        // frame a Newton step on its separation, checked by the chord bound; then secant
        // shrinks of the most promising frame.
        let frames = self.frames();
        let mut tries: [(f64, usize); 3] = [(0.0, 0); 3];
        for (k, w_n) in frames.iter().enumerate() {
            let Some(w_n) = w_n else { continue };
            let slope = self.slope(s, &here, n, w_n);
            tries[k] = (if slope < 0.0 { (g0 / -slope).min(rest) } else { rest }, k);
        }
        tries.sort_by(|x, y| y.0.total_cmp(&x.0));
        let mut proven = None;
        let mut closest: Option<(f64, f64, usize)> = None;
        for &(delta, k) in tries.iter().filter(|(d, _)| *d > 0.0) {
            if delta <= best {
                break;
            }
            let (far, gap) = self.chord_gap(s, &here, n, delta, frames[k]);
            if gap > 0.0 {
                best = far.t - s.t;
                proven = Some(far);
                break;
            }
            if closest.is_none_or(|c| gap > c.1) {
                closest = Some((delta, gap, k));
            }
        }
        if proven.is_none()
            && let Some((mut delta, mut gap, k)) = closest
        {
            for _ in 0..SECANT_TRIES {
                // Just short of the secant root of the gap over [0, delta] (near contact the
                // root is within O(delta) relative of the failed candidate), ≥ 5% of delta.
                delta *= (0.99 * g0 / (g0 - gap)).clamp(0.05, 0.99);
                if delta <= best {
                    break;
                }
                let (far, g) = self.chord_gap(s, &here, n, delta, frames[k]);
                if g > 0.0 {
                    best = far.t - s.t;
                    proven = Some(far);
                    break;
                }
                gap = g;
            }
        }
        Step { delta: best, sample: proven }
    }

    /// The direction frames of the second-order steps: fixed, turning with A, turning with B
    /// (`None` for a frame equal to an earlier one).
    fn frames(&self) -> [Option<Vector3<f64>>; 3] {
        let (wa, wb) = (self.a.motion.angular_velocity(), self.b.motion.angular_velocity());
        let zero = Vector3::zeros();
        [Some(zero), (wa != zero).then_some(wa), (wb != zero && wb != wa).then_some(wb)]
    }

    /// d/dτ of the separation along n(τ) turning at `w_n`, from the support points (exact
    /// for a body turning with n whatever its support point; the envelope derivative for the
    /// other body, exact where its support point is unique).
    fn slope(&self, s: &Sample, here: &Along, n: &Vector3<f64>, w_n: &Vector3<f64>) -> f64 {
        let dn = w_n.cross(n);
        let rate = |m: &RigidMotion, p: &Point3<f64>| {
            dn.dot(&p.coords)
                + n.dot(&(m.linear_velocity() + m.angular_velocity().cross(&(p.coords - m.centre_at(s.t)))))
        };
        rate(self.b.motion, &here.sb) - rate(self.a.motion, &here.sa)
    }

    /// The sample at t₀ + `delta` and min(sep(t₀), sep(t₁)) − E − δ − margin along the
    /// direction turning at `w_n` (`chord.rs`): positive proves d > margin on [t₀, t₁].
    fn chord_gap(
        &mut self,
        s0: &Sample,
        here: &Along,
        n: &Vector3<f64>,
        delta: f64,
        w_n: Option<Vector3<f64>>,
    ) -> (Sample, f64) {
        let s1 = self.sample(s0.t + delta);
        let w_n = w_n.unwrap_or_else(Vector3::zeros);
        let dt = s1.t - s0.t;
        if dt <= 0.0 {
            return (s1, f64::NEG_INFINITY);
        }
        let (ma, mb) = (self.a.motion, self.b.motion);
        let motion = ChordMotion {
            w_a: ma.angular_velocity(),
            w_b: mb.angular_velocity(),
            r_a: self.a.radius,
            r_b: self.b.radius,
            relative_speed: (mb.linear_velocity() - ma.linear_velocity()).norm() * (1.0 + 1e-12),
        };
        let gap_at = |t: f64| (mb.centre_at(t) - ma.centre_at(t)).norm();
        let centre_gap = gap_at(s0.t).max(gap_at(s1.t)) * (1.0 + 1e-12);
        let excess = motion.excess(dt, &w_n, centre_gap);
        let floor = here.separation() - self.slack - self.settings.margin - excess;
        if floor <= 0.0 {
            return (s1, floor);
        }
        let there = self.along(&s1, &turned(&w_n, n, dt));
        let gap = (there.separation() - self.slack - self.settings.margin - excess).min(floor);
        (s1, gap)
    }

    fn result(&self, outcome: ToiOutcome, status: ToiStatus, iterations: u32) -> ToiResult {
        self.q.result(outcome, status, iterations)
    }

    /// The search from the start sample `start`, whose answer `first` found the shapes apart
    /// (`start.rs` answers a start in contact).
    fn run(&mut self, start: Sample, first: DistanceResult) -> Result<ToiResult, GeomError> {
        let settings = self.settings;
        // Apart, but within the margin plus the tolerance: an initial contact with the
        // bracket of its signed distance (`initial_signed`).
        if let Proximity::Separated { distance, normal, .. } = first.proximity
            && self.within(&first)
        {
            let sd = self.initial_signed(&start, first, distance, normal);
            return Ok(self.q.initial_contact(&start, &sd));
        }
        // Every sample re-answers the pair. Under `Algorithm::Auto` (not in exact arithmetic),
        // pairs the dispatcher gives to a Lemke LCP kernel — point/sphere against a polytope,
        // decided from the kinds before the start (`Queries::new`), and any other the first
        // answer's path reveals here — run GJK instead: warm-started from the previous sample
        // it is several times faster than a fresh pivoting solve (thin_fast sphere–hull
        // pairs: 18 → 4.5 µs per time of impact) and carries the same certificate. A forced
        // algorithm is kept.
        let auto =
            settings.query.algorithm == Algorithm::Auto && settings.query.arithmetic != Arithmetic::Exact;
        if auto && matches!(first.path, QueryPath::Float { .. } | QueryPath::ExactResolve) {
            self.q.query = self.q.query.clone().with_algorithm(Algorithm::Gjk);
        }
        let (mut s, mut r) = (start, first);
        let mut width = settings.time_tolerance * (settings.end_time - settings.start_time);
        // No probe before this time (the last one found no contact there).
        let mut probe_after = f64::NEG_INFINITY;
        // The previous sample's time and distance (for the probes' secant).
        let mut previous: Option<(f64, f64)> = None;
        for iteration in 1..=settings.max_iterations {
            let step = self.step(&s, &r);
            if s.t + step.delta >= settings.end_time {
                let miss = ToiMiss { last_time: s.t, last_lower: r.certificate.lower };
                return Ok(self.result(ToiOutcome::Miss(miss), ToiStatus::Converged, iteration));
            }
            let next = match step.sample {
                Some(far) if far.t > s.t => Some(far),
                _ => {
                    let mut t = s.t + step.delta;
                    if t - s.t > step.delta {
                        t = t.next_down();
                    }
                    (t > s.t).then(|| self.sample(t))
                }
            };
            // Steps far below the time tolerance: the certificates are at their round-off
            // floor while the witnesses are not within the distance tolerance. Probes ahead
            // end the search when one proves contact (`probe`).
            if next.as_ref().is_none_or(|n| n.t - s.t < 1e-3 * width) && s.t >= probe_after {
                if let Some((t, answer)) = self.probe(&s, &r, previous, &mut width, next.is_none())? {
                    return Ok(self.hit(s.t, t, &answer, iteration));
                }
                probe_after = s.t;
            }
            let Some(next) = next else {
                let undecided = ToiUndecided { t_safe: s.t, last_lower: r.certificate.lower };
                return Ok(self.result(ToiOutcome::Undecided(undecided), ToiStatus::Stalled, iteration));
            };
            let answer = self.distance(&next)?;
            if self.within(&answer) {
                return Ok(self.hit(next.t, next.t, &answer, iteration));
            }
            previous = Some((s.t, r.distance()));
            (s, r) = (next, answer);
        }
        let undecided = ToiUndecided { t_safe: s.t, last_lower: r.certificate.lower };
        Ok(self.result(ToiOutcome::Undecided(undecided), ToiStatus::MaxIterations, settings.max_iterations))
    }

    /// Probes ahead of `s` for a contact within tolerance: first up to three secant steps on
    /// the witness distance from the previous sample (a contact that only touches, along a
    /// tangent or at a single instant, is found there and not by a fixed stride), then one probe
    /// `width` ahead, 8× further each time it finds no contact (the bracket a far probe finds
    /// is still proven, only wider than the time tolerance). With `exhaustive` (no step
    /// possible) the strides go on to the end of the interval. Returns the probe time and its
    /// answer when it proves contact.
    fn probe(
        &mut self,
        s: &Sample,
        r: &DistanceResult,
        previous: Option<(f64, f64)>,
        width: &mut f64,
        exhaustive: bool,
    ) -> Result<Option<(f64, DistanceResult)>, GeomError> {
        let (margin, end) = (self.settings.margin, self.settings.end_time);
        let mut points = previous.map(|p| (p, (s.t, r.distance())));
        for _ in 0..3 {
            let Some(((t0, u0), (t1, u1))) = points else { break };
            let t = t1 + (u1 - margin) * (t1 - t0) / (u0 - u1);
            if !(t > s.t && t < end && u0 > u1) {
                break;
            }
            let answer = self.distance(&self.sample(t))?;
            if self.within(&answer) {
                return Ok(Some((t, answer)));
            }
            points = Some(((t1, u1), (t, answer.distance())));
        }
        loop {
            let t = (s.t + *width).min(end);
            let answer = self.distance(&self.sample(t))?;
            if self.within(&answer) {
                return Ok(Some((t, answer)));
            }
            *width *= 8.0;
            if !exhaustive || t >= end {
                return Ok(None);
            }
        }
    }

    /// A hit: witnesses of the sample at t_hit, and as the normal the direction that proved
    /// the last step (the witness normal's error grows as the distance shrinks, see
    /// `direction.rs`), else the witness normal.
    fn hit(&self, t_safe: f64, t_hit: f64, r: &DistanceResult, iterations: u32) -> ToiResult {
        let (point_a, point_b, witness_normal) = match r.proximity {
            Proximity::Separated { point_a, point_b, normal, .. } => (point_a, point_b, Some(normal)),
            _ => {
                let (p, q) = r.witnesses().unwrap_or_else(|| {
                    let c =
                        Point3::from(0.5 * (self.a.motion.centre_at(t_hit) + self.b.motion.centre_at(t_hit)));
                    (c, c)
                });
                (p, q, None)
            }
        };
        let normal = match (self.last_direction, witness_normal) {
            (Some((n, _)), _) => n,
            (None, Some(n)) => n,
            (None, None) => Vector3::zeros(),
        };
        let hit = ToiHit { t_safe, t_hit, point_a, point_b, normal, distance: r.certificate };
        let settings = self.settings;
        let width = settings.time_tolerance * (settings.end_time - settings.start_time);
        let status = if t_hit - t_safe <= width { ToiStatus::Converged } else { ToiStatus::Stalled };
        self.result(ToiOutcome::Hit(hit), status, iterations)
    }

    /// The signed distance at the start sample `s`, whose distance answer `r` found the
    /// shapes apart (witness distance `distance`, witness normal `normal`) but within the
    /// margin plus the tolerance: sd ∈ [L, U] with U the witness distance and L the best
    /// separation −h_B(−m) − h_A(m) over the directions at hand (the certificate's lower bound
    /// when positive, else the witness normal and GJK's last search direction): every unit m
    /// bounds sd from below, whatever its sign, and GJK's direction is within its tolerance of
    /// the optimum (its duality gap). No depth computation: near a touching contact that was
    /// the dearest part of the query (EPA on a dilated pair), for a bracket that the tolerance
    /// already confines. (Contact proven at the start is answered in `start.rs`.)
    fn initial_signed(
        &mut self,
        s: &Sample,
        r: DistanceResult,
        distance: f64,
        normal: Vector3<f64>,
    ) -> SignedDistance {
        let mut lower = r.certificate.lower;
        if lower <= 0.0 {
            let mut candidates = [normal, Vector3::zeros()];
            if let Some(v) = self.q.cache.direction {
                // (See `direction`: the normal from X to Y is −v.)
                candidates[1] =
                    if self.q.cache.swapped { s.pb.rotation() * v } else { -(s.pa.rotation() * v) };
            }
            let mut pair = Self::pair(&self.a, &self.b, s, &mut self.hints);
            lower = pair.best(&candidates, 0.0, false).map_or(f64::NEG_INFINITY, |(_, al)| al.separation());
        }
        let lower = lower.min(distance);
        let value = if lower > 0.0 { distance } else { 0.0 };
        SignedDistance { value, certificate: Certificate { lower, upper: distance }, result: r }
    }
}

/// See [`super::time_of_impact`].
pub(crate) fn time_of_impact(
    a: &Shape,
    motion_a: &RigidMotion,
    b: &Shape,
    motion_b: &RigidMotion,
    settings: &ToiSettings,
) -> Result<ToiResult, GeomError> {
    settings.validate()?;
    if !a.is_bounded() || !b.is_bounded() {
        return Err(GeomError::Unsupported {
            op: "time_of_impact",
            a: a.kind(),
            b: b.kind(),
            algorithm: None,
        });
    }
    // The start first: contact there is answered without the motion bounds (`start.rs`).
    let mut q = Queries::new(a, b, settings);
    let t = settings.start_time;
    let start = Sample { t, pa: motion_a.pose_at(t), pb: motion_b.pose_at(t) };
    let first = q.distance(&start)?;
    if !matches!(first.proximity, Proximity::Separated { .. }) {
        return q.overlap(&start, first);
    }
    let mut search = Search::new(Body::new(a, motion_a)?, Body::new(b, motion_b)?, q)?;
    search.run(start, first)
}
