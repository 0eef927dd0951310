//! Swept checks: certify that a *motion* is collision-free, not only its sampled poses — the
//! straight joint-space segment between two configurations of a kinematic chain, and a
//! workcell's motion between two cycles.
//!
//! # Maths
//!
//! Over a motion parameter s ∈ [0, 1], two objects A and B whose points move at most v_A and
//! v_B per unit of s keep their distance d(s) within (v_A + v_B)·|s − s'| of d(s'): the distance
//! is 1-Lipschitz in each object's points. A certified distance query at s (lower bound L)
//! therefore proves d > margin on [s, s + (L − margin)/(v_A + v_B)): conservative advancement
//! with the isotropic bound, every step a proof (bounds lowered by a round-off allowance
//! 64·ε·(coordinates), speeds inflated, step ends rounded down). It needs nothing but poses
//! along the motion and speed bounds, so it covers motions that are not rigid screws:
//!
//! * a chain body (a link, or a convex piece of one) on the straight joint segment
//!   q(s) = q₀ + s·(q₁ − q₀): the speed bound of
//!   [`KinematicChain::body_speed_bounds`] for the rates |q₁ − q₀| (`chain.rs`);
//! * a workcell robot (a serial arm, or a robot from a description with its pieces) between
//!   cycles c and c + 1: its trajectory q(t) itself (sinusoids are continuous, waypoints are
//!   interpolated linearly, sample trajectories move linearly between samples), with joint
//!   rates bounded over the interval (|q̇_j| ≤ Σ |a·h·ω| for sinusoids, the steepest waypoint
//!   segment the interval touches, the sample difference);
//! * a scripted object between its poses of two cycles: the rigid motion of
//!   [`RigidMotion::from_poses`] (constant translation and angular velocity), speed
//!   ≤ |Δt| + |ω|·r; a static object: 0.
//!
//! # Verdicts
//!
//! A pair is [`SweptVerdict::Free`] when the steps reach s = 1; [`SweptVerdict::Contact`] when a
//! sample proves the distance ≤ margin (the motion collides, or comes within the margin);
//! [`SweptVerdict::NotProven`] when a sample's lower bound is ≤ margin without its upper bound
//! being so, or the step cap is reached — only [0, s_safe) is then proven. Near a contact the
//! isotropic steps shrink linearly; the step cap bounds the work (default 64 per pair).

use std::ops::Range;

use proxima_geom::{GjkCache, Pose, QuerySettings, RigidMotion, Shape, distance_tracked};

use crate::chain::{KinematicChain, PlacedRobot};
use crate::error::SceneError;
use crate::pairs::Pair;
use crate::robot::Trajectory;
use crate::workcell::Workcell;
use crate::world::ObjectId;

/// Settings of the swept checks (`SweptSettings::default().with_margin(0.02)`; the struct is
/// `#[non_exhaustive]` so it can grow).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SweptSettings {
    /// Distances ≤ margin count as contact. Finite, ≥ 0. Default 0.
    pub margin: f64,
    /// Advancement steps (distance queries) per pair before giving up with
    /// [`SweptVerdict::NotProven`]. ≥ 1. Default 64.
    pub max_steps: u32,
    /// Settings of the distance queries (certified by default).
    pub query: QuerySettings,
}

impl Default for SweptSettings {
    fn default() -> Self {
        Self { margin: 0.0, max_steps: 64, query: QuerySettings::default() }
    }
}

impl SweptSettings {
    /// Checks every field.
    pub fn validate(&self) -> Result<(), SceneError> {
        if !self.margin.is_finite() || self.margin < 0.0 {
            return Err(SceneError::invalid("swept.margin", "must be finite and >= 0"));
        }
        if self.max_steps == 0 {
            return Err(SceneError::invalid("swept.max_steps", "must be >= 1"));
        }
        self.query.validate().map_err(|source| SceneError::Geometry { at: "swept.query".into(), source })
    }

    /// With this [`SweptSettings::margin`].
    #[must_use]
    pub fn with_margin(mut self, margin: f64) -> Self {
        self.margin = margin;
        self
    }

    /// With this [`SweptSettings::max_steps`].
    #[must_use]
    pub fn with_max_steps(mut self, max_steps: u32) -> Self {
        self.max_steps = max_steps;
        self
    }

    /// With these [`SweptSettings::query`] settings.
    #[must_use]
    pub fn with_query(mut self, query: QuerySettings) -> Self {
        self.query = query;
        self
    }
}

/// What the swept check proved for one pair over s ∈ [0, 1].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SweptVerdict {
    /// d > margin on the whole motion.
    Free {
        /// Distance queries made.
        steps: u32,
    },
    /// d ≤ margin at `s` (proven by the witnesses there); d > margin is proven before the
    /// last advancement sample (`s` may be a probe past it).
    Contact {
        /// Where contact was proven.
        s: f64,
        /// The distance's upper bound at `s`.
        distance: f64,
    },
    /// Free on [0, s_safe) only: a lower bound at or below the margin without proof of contact,
    /// or the step cap.
    NotProven {
        /// The end of the proven-free prefix.
        s_safe: f64,
        /// The certified lower bound at the last sample.
        lower: f64,
        /// Distance queries made.
        steps: u32,
    },
}

impl SweptVerdict {
    /// Lowercase name (`"free"`, `"contact"`, `"not_proven"`).
    pub fn as_str(&self) -> &'static str {
        match self {
            SweptVerdict::Free { .. } => "free",
            SweptVerdict::Contact { .. } => "contact",
            SweptVerdict::NotProven { .. } => "not_proven",
        }
    }
    /// Whether the motion is proven free.
    pub fn is_free(&self) -> bool {
        matches!(self, SweptVerdict::Free { .. })
    }
}

/// Joint values along a motion: q(s) written to the buffer.
type JointPath<'a> = dyn Fn(f64, &mut Vec<f64>) + 'a;

/// How an object's pose follows the motion parameter s ∈ [0, 1].
enum Path<'a> {
    /// At rest.
    Fixed(Pose),
    /// A rigid motion (s is its time).
    Rigid(RigidMotion),
    /// Body `body` of a chain whose joints follow `joints(s)`.
    Body { chain: &'a dyn KinematicChain, joints: &'a JointPath<'a>, body: usize },
}

/// An object along a motion: its shape, pose path and speed bound (per unit of s).
struct Mover<'a> {
    shape: &'a Shape,
    path: Path<'a>,
    speed: f64,
}

impl Mover<'_> {
    fn pose_at(&self, s: f64, q: &mut Vec<f64>, poses: &mut Vec<Pose>) -> Result<Pose, SceneError> {
        Ok(match &self.path {
            Path::Fixed(p) => *p,
            Path::Rigid(m) => m.pose_at(s),
            Path::Body { chain, joints, body } => {
                joints(s, q);
                chain.body_poses_at(q, poses)?;
                poses[*body]
            }
        })
    }
}

/// Conservative advancement of one pair over s ∈ [0, 1] (module docs).
fn certify_pair(a: &Mover<'_>, b: &Mover<'_>, settings: &SweptSettings) -> Result<SweptVerdict, SceneError> {
    let mut probe = Probe { a, b, settings, q: Vec::new(), poses: Vec::new(), cache: GjkCache::new() };
    let rate = (a.speed + b.speed) * (1.0 + 1e-12);
    let mut s = 0.0f64;
    let mut steps = 0u32;
    // The previous sample (s, upper bound) for the secant probes.
    let mut previous: Option<(f64, f64)> = None;
    loop {
        let (pa, pb, r) = probe.at(s)?;
        steps += 1;
        let upper = r.distance();
        if upper <= settings.margin {
            return Ok(SweptVerdict::Contact { s, distance: upper });
        }
        // Round-off allowance: 64 ulps of the coordinates the two shapes reach here.
        let coordinates = pa.translation().norm() + pb.translation().norm() + upper + a.speed + b.speed;
        let lower = r.certificate.lower - 64.0 * f64::EPSILON * coordinates;
        let next = if lower > settings.margin && rate > 0.0 {
            let delta = (lower - settings.margin) / rate;
            let next = s + delta;
            if next - s > delta { next.next_down() } else { next }
        } else if lower > settings.margin {
            f64::INFINITY
        } else {
            s
        };
        if next >= 1.0 {
            return Ok(SweptVerdict::Free { steps });
        }
        if steps >= settings.max_steps || next <= s {
            // Near a contact the steps shrink: a few secant probes on the witness distance
            // look for a sample that proves it.
            if let Some(contact) = probe.secant(previous, (s, upper), &mut steps)? {
                return Ok(contact);
            }
            return Ok(SweptVerdict::NotProven { s_safe: next.max(s), lower: r.certificate.lower, steps });
        }
        previous = Some((s, upper));
        s = next;
    }
}

/// Distance queries of one pair along the motion (warm-started).
struct Probe<'m, 'a> {
    a: &'m Mover<'a>,
    b: &'m Mover<'a>,
    settings: &'m SweptSettings,
    q: Vec<f64>,
    poses: Vec<Pose>,
    cache: GjkCache,
}

impl Probe<'_, '_> {
    fn at(&mut self, s: f64) -> Result<(Pose, Pose, proxima_geom::DistanceResult), SceneError> {
        let pa = self.a.pose_at(s, &mut self.q, &mut self.poses)?;
        let pb = self.b.pose_at(s, &mut self.q, &mut self.poses)?;
        let r = distance_tracked(self.a.shape, &pa, self.b.shape, &pb, &self.settings.query, &mut self.cache)
            .map_err(|source| SceneError::Geometry { at: "swept pair".into(), source })?;
        Ok((pa, pb, r))
    }

    /// Up to three secant steps on the upper bound from the last two samples towards the
    /// margin: a contact proven at one of them (upper ≤ margin).
    fn secant(
        &mut self,
        previous: Option<(f64, f64)>,
        last: (f64, f64),
        steps: &mut u32,
    ) -> Result<Option<SweptVerdict>, SceneError> {
        let margin = self.settings.margin;
        let Some(mut p0) = previous else { return Ok(None) };
        let mut p1 = last;
        for _ in 0..3 {
            let ((s0, u0), (s1, u1)) = (p0, p1);
            let s = s1 + (u1 - margin) * (s1 - s0) / (u0 - u1);
            if !(u0 > u1 && s > last.0 && s <= 1.0) {
                break;
            }
            let (_, _, r) = self.at(s)?;
            *steps += 1;
            let u = r.distance();
            if u <= margin {
                return Ok(Some(SweptVerdict::Contact { s, distance: u }));
            }
            (p0, p1) = (p1, (s, u));
        }
        Ok(None)
    }
}

/// A static obstacle for [`certify_segment`].
#[derive(Debug, Clone, Copy)]
pub struct Obstacle<'a> {
    /// The shape (its own frame).
    pub shape: &'a Shape,
    /// Its world pose.
    pub pose: Pose,
}

/// The verdict of one pair of a segment check.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SegmentPair {
    /// Body `body` of the chain against obstacle `obstacle`.
    Obstacle {
        /// Body index ([`KinematicChain::body_count`]).
        body: usize,
        /// Obstacle index.
        obstacle: usize,
    },
    /// Two bodies of the chain.
    Bodies(usize, usize),
}

/// The answer of [`certify_segment`]: one verdict per checked pair, in input order (bodies ×
/// obstacles first, then the self pairs).
#[derive(Debug, Clone, PartialEq)]
pub struct SegmentReport {
    /// (pair, verdict) for every checked pair.
    pub pairs: Vec<(SegmentPair, SweptVerdict)>,
}

impl SegmentReport {
    /// Whether the whole segment is proven free (every pair).
    pub fn is_free(&self) -> bool {
        self.pairs.iter().all(|(_, v)| v.is_free())
    }
    /// The pairs not proven free.
    pub fn unproven(&self) -> impl Iterator<Item = &(SegmentPair, SweptVerdict)> {
        self.pairs.iter().filter(|(_, v)| !v.is_free())
    }
}

/// Certifies the straight joint-space segment from `q0` to `q1` of `chain`: every body against
/// every static obstacle, and the body pairs `self_pairs` against each other, proven to stay
/// farther apart than `settings.margin` for every configuration q0 + s·(q1 − q0), s ∈ [0, 1]
/// (see the module docs).
///
/// Errors: configurations of the wrong length or non-finite, a body index out of range, invalid
/// settings, a pair the distance query does not support.
pub fn certify_segment<C: KinematicChain + ?Sized>(
    chain: &C,
    q0: &[f64],
    q1: &[f64],
    obstacles: &[Obstacle<'_>],
    self_pairs: &[(usize, usize)],
    settings: &SweptSettings,
) -> Result<SegmentReport, SceneError> {
    settings.validate()?;
    let n = chain.joint_count();
    for (q, name) in [(q0, "q0"), (q1, "q1")] {
        if q.len() != n {
            return Err(SceneError::invalid(name, format!("{} joint values for {n} joints", q.len())));
        }
        if q.iter().any(|x| !x.is_finite()) {
            return Err(SceneError::invalid(name, "joint values must be finite"));
        }
    }
    let links = chain.body_count();
    if let Some(&(i, j)) = self_pairs.iter().find(|(i, j)| *i >= links || *j >= links) {
        return Err(SceneError::invalid(
            "self_pairs",
            format!("body pair ({i}, {j}) out of range ({links} bodies)"),
        ));
    }
    let dq: Vec<f64> = q0.iter().zip(q1).map(|(a, b)| b - a).collect();
    let mut speeds = Vec::new();
    chain.body_speed_bounds(&dq.iter().map(|d| d.abs()).collect::<Vec<_>>(), &mut speeds)?;
    let joints = |s: f64, q: &mut Vec<f64>| {
        q.clear();
        q.extend(q0.iter().zip(&dq).map(|(a, d)| a + s * d));
    };
    let dyn_chain: &dyn KinematicChain = &ChainRef(chain);
    let link = |k: usize| Mover {
        shape: chain.body_shape(k),
        path: Path::Body { chain: dyn_chain, joints: &joints, body: k },
        speed: speeds[k],
    };
    let mut pairs = Vec::new();
    for k in 0..links {
        for (o, obstacle) in obstacles.iter().enumerate() {
            let still = Mover { shape: obstacle.shape, path: Path::Fixed(obstacle.pose), speed: 0.0 };
            pairs.push((
                SegmentPair::Obstacle { body: k, obstacle: o },
                certify_pair(&link(k), &still, settings)?,
            ));
        }
    }
    for &(i, j) in self_pairs {
        pairs.push((SegmentPair::Bodies(i, j), certify_pair(&link(i), &link(j), settings)?));
    }
    Ok(SegmentReport { pairs })
}

/// A sized wrapper so that an unsized chain can be used as `dyn KinematicChain`.
struct ChainRef<'a, C: ?Sized>(&'a C);

impl<C: KinematicChain + ?Sized> KinematicChain for ChainRef<'_, C> {
    fn joint_count(&self) -> usize {
        self.0.joint_count()
    }
    fn body_count(&self) -> usize {
        self.0.body_count()
    }
    fn body_shape(&self, k: usize) -> &Shape {
        self.0.body_shape(k)
    }
    fn body_poses_at(&self, q: &[f64], poses: &mut Vec<Pose>) -> Result<(), SceneError> {
        self.0.body_poses_at(q, poses)
    }
    fn body_speed_bounds(&self, rates: &[f64], bounds: &mut Vec<f64>) -> Result<(), SceneError> {
        self.0.body_speed_bounds(rates, bounds)
    }
}

/// Joint values of a trajectory at the fractional cycle `cycle + s` (sinusoids evaluated at
/// that time, samples interpolated linearly), written to `q`.
fn trajectory_at(traj: &Trajectory, cycle: usize, s: f64, dt: f64, q: &mut Vec<f64>) {
    q.clear();
    match traj {
        Trajectory::Sinusoids { period, joints } => {
            let w = 2.0 * std::f64::consts::PI / period;
            let t = (cycle as f64 + s) * dt;
            for j in joints {
                q.push(j.offset + j.terms.iter().map(|&(a, h, p)| a * (h * w * t + p).sin()).sum::<f64>());
            }
        }
        Trajectory::Samples(rows) => {
            let last = rows.len().saturating_sub(1);
            let (r0, r1) = (&rows[cycle.min(last)], &rows[(cycle + 1).min(last)]);
            q.extend(r0.iter().zip(r1).map(|(a, b)| a + s * (b - a)));
        }
        Trajectory::Waypoints { times, values } => {
            let t = (cycle as f64 + s) * dt;
            let k = times.partition_point(|&x| x <= t);
            let row = |i: usize| &values[i.min(values.len() - 1)];
            if k == 0 || k == times.len() {
                q.extend_from_slice(row(k.saturating_sub(1)));
            } else {
                let f = (t - times[k - 1]) / (times[k] - times[k - 1]);
                q.extend(row(k - 1).iter().zip(row(k)).map(|(a, b)| a + f * (b - a)));
            }
        }
    }
}

/// Bounds of |dq_j/ds| over the interval [cycle, cycle + 1] (s = fraction of the cycle).
fn trajectory_rates(traj: &Trajectory, cycle: usize, dt: f64) -> Vec<f64> {
    match traj {
        Trajectory::Sinusoids { period, joints } => {
            let w = 2.0 * std::f64::consts::PI / period;
            joints
                .iter()
                .map(|j| dt * j.terms.iter().map(|&(a, h, _)| (a * h * w).abs()).sum::<f64>())
                .collect()
        }
        Trajectory::Samples(rows) => {
            let last = rows.len().saturating_sub(1);
            let (r0, r1) = (&rows[cycle.min(last)], &rows[(cycle + 1).min(last)]);
            r0.iter().zip(r1).map(|(a, b)| (b - a).abs()).collect()
        }
        Trajectory::Waypoints { times, values } => {
            // The steepest rate of every waypoint segment the interval overlaps, times dt.
            let (t0, t1) = (cycle as f64 * dt, (cycle + 1) as f64 * dt);
            let mut rates = vec![0.0f64; traj.joint_count()];
            for k in 1..times.len() {
                if times[k] <= t0 || times[k - 1] >= t1 {
                    continue;
                }
                let span = times[k] - times[k - 1];
                for (r, (a, b)) in rates.iter_mut().zip(values[k - 1].iter().zip(&values[k])) {
                    *r = r.max((b - a).abs() / span * dt);
                }
            }
            rates
        }
    }
}

/// The verdicts of the pairs of one interval that were not proven free.
#[derive(Debug, Clone, PartialEq)]
pub struct IntervalReport {
    /// The interval [cycle, cycle + 1].
    pub cycle: usize,
    /// Pairs checked.
    pub checked: usize,
    /// (index into the workcell's pair list, verdict) of every pair not proven free.
    pub unproven: Vec<(usize, SweptVerdict)>,
}

impl Workcell {
    /// Certifies the motion between cycles `cycle` and `cycle + 1` for every monitored pair
    /// (module docs: robots — serial arms and robots from descriptions, piece by piece — follow
    /// their trajectories, scripted objects move rigidly between their two poses, other objects
    /// rest). The world's poses are left at `cycle + 1`.
    pub fn certify_interval(
        &mut self,
        cycle: usize,
        settings: &SweptSettings,
    ) -> Result<IntervalReport, SceneError> {
        settings.validate()?;
        self.set_cycle(cycle)?;
        let start: Vec<Pose> = self.world.objects().iter().map(|o| *o.pose()).collect();
        self.set_cycle(cycle + 1)?;
        let dt = self.dt;
        // Every robot as a chain with its trajectory and the world object of each body.
        let placed: Vec<PlacedRobot<'_>> =
            self.described.iter().map(|r| PlacedRobot::new(&r.robot, r.base, r.limits)).collect();
        let mut chains: Vec<(&dyn KinematicChain, &Trajectory, &[ObjectId])> = Vec::new();
        for r in &self.robots {
            chains.push((&r.model, &r.trajectory, &r.links));
        }
        for (r, p) in self.described.iter().zip(&placed) {
            chains.push((p, &r.trajectory, &r.objects));
        }
        // Per object: a robot body (chain, body index), scripted (rigid motion), or at rest.
        let mut role: Vec<Option<(usize, usize)>> = vec![None; self.world.len()];
        for (c, (_, _, objects)) in chains.iter().enumerate() {
            for (k, id) in objects.iter().enumerate() {
                role[id.index()] = Some((c, k));
            }
        }
        let mut rigid: Vec<Option<RigidMotion>> = vec![None; self.world.len()];
        for sc in &self.scripted {
            let (i, end) = (sc.object.index(), *self.world.object(sc.object).pose());
            let m = RigidMotion::from_poses(&start[i], &end).map_err(|source| SceneError::Geometry {
                at: self.world.object(sc.object).name.clone(),
                source,
            })?;
            rigid[i] = Some(m);
        }
        let mut speeds: Vec<Vec<f64>> = Vec::with_capacity(chains.len());
        for (chain, traj, _) in &chains {
            let mut b = Vec::new();
            chain.body_speed_bounds(&trajectory_rates(traj, cycle, dt), &mut b)?;
            speeds.push(b);
        }
        let joint_fns: Vec<Box<JointPath<'_>>> = chains
            .iter()
            .map(|&(_, traj, _)| {
                Box::new(move |s: f64, q: &mut Vec<f64>| trajectory_at(traj, cycle, s, dt, q))
                    as Box<JointPath<'_>>
            })
            .collect();
        let mover = |id: ObjectId| -> Mover<'_> {
            let o = self.world.object(id);
            if let Some((c, k)) = role[id.index()] {
                return Mover {
                    shape: o.shape(),
                    path: Path::Body { chain: chains[c].0, joints: joint_fns[c].as_ref(), body: k },
                    speed: speeds[c][k],
                };
            }
            match rigid[id.index()] {
                Some(m) => Mover {
                    shape: o.shape(),
                    path: Path::Rigid(m),
                    speed: (m.linear_velocity().norm() + m.angular_velocity().norm() * o.radius())
                        * (1.0 + 1e-12),
                },
                None => Mover { shape: o.shape(), path: Path::Fixed(start[id.index()]), speed: 0.0 },
            }
        };
        let mut unproven = Vec::new();
        for (i, &Pair { a, b }) in self.pairs.iter().enumerate() {
            let v = certify_pair(&mover(a), &mover(b), settings).map_err(|e| match e {
                SceneError::Geometry { source, .. } => SceneError::Query {
                    pair: (self.world.object(a).name.clone(), self.world.object(b).name.clone()),
                    source,
                },
                other => other,
            })?;
            if !v.is_free() {
                unproven.push((i, v));
            }
        }
        Ok(IntervalReport { cycle, checked: self.pairs.len(), unproven })
    }

    /// [`Workcell::certify_interval`] for every interval [c, c + 1] with c in `cycles`: the
    /// reports of the intervals with a pair not proven free (an empty list: the whole motion
    /// is proven free).
    pub fn swept_check(
        &mut self,
        cycles: Range<usize>,
        settings: &SweptSettings,
    ) -> Result<Vec<IntervalReport>, SceneError> {
        let mut bad = Vec::new();
        for c in cycles {
            let r = self.certify_interval(c, settings)?;
            if !r.unproven.is_empty() {
                bad.push(r);
            }
        }
        Ok(bad)
    }
}
