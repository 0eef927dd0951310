//! Joint trajectories: joint values as a function of the cycle number.
//!
//! * [`Trajectory::Sinusoids`]: q_j(t) = offset_j + Σ amplitude·sin(harmonic·ω·t + phase),
//!   ω = 2π / period (all angles in radians).
//! * [`Trajectory::Samples`]: one joint vector per cycle (cycles past the end hold the last
//!   sample).
//! * [`Trajectory::Waypoints`]: joint vectors at increasing times, linearly interpolated
//!   (before the first time: the first waypoint; after the last: the last). Each segment is a
//!   straight joint-space segment, so [`crate::MotionBounds`] bounds the motion along it.

use std::f64::consts::PI;

use crate::error::RobotError;

/// One joint's sinusoid: offset + Σ amplitude·sin(harmonic·ω·t + phase).
#[derive(Debug, Clone, PartialEq)]
pub struct JointSinusoid {
    /// Constant term (radians).
    pub offset: f64,
    /// (amplitude in radians, harmonic multiplier of ω, phase in radians).
    pub terms: Vec<(f64, f64, f64)>,
}

/// Joint values over time.
#[derive(Debug, Clone, PartialEq)]
pub enum Trajectory {
    /// Periodic sums of sines.
    Sinusoids {
        /// Period T of the base frequency ω = 2π/T (seconds).
        period: f64,
        /// One entry per joint.
        joints: Vec<JointSinusoid>,
    },
    /// One joint vector per cycle (radians).
    Samples(Vec<Vec<f64>>),
    /// Joint vectors at strictly increasing times (seconds), linearly interpolated.
    Waypoints {
        /// Times, strictly increasing.
        times: Vec<f64>,
        /// One joint vector per time.
        values: Vec<Vec<f64>>,
    },
}

impl Trajectory {
    /// Number of joints it drives.
    pub fn joint_count(&self) -> usize {
        match self {
            Trajectory::Sinusoids { joints, .. } => joints.len(),
            Trajectory::Samples(s) => s.first().map_or(0, Vec::len),
            Trajectory::Waypoints { values, .. } => values.first().map_or(0, Vec::len),
        }
    }

    /// Joint values at cycle `cycle` (time `cycle · dt`), written to `q`.
    pub fn at(&self, cycle: usize, dt: f64, q: &mut Vec<f64>) {
        q.clear();
        match self {
            Trajectory::Sinusoids { period, joints } => {
                let w = 2.0 * PI / period;
                let t = cycle as f64 * dt;
                for j in joints {
                    q.push(
                        j.offset + j.terms.iter().map(|&(a, h, p)| a * (h * w * t + p).sin()).sum::<f64>(),
                    );
                }
            }
            Trajectory::Samples(s) => {
                if let Some(row) = s.get(cycle.min(s.len().saturating_sub(1))) {
                    q.extend_from_slice(row);
                }
            }
            Trajectory::Waypoints { times, values } => {
                let t = cycle as f64 * dt;
                let k = times.partition_point(|&x| x <= t);
                if k == 0 || k == times.len() {
                    if let Some(row) = values.get(k.saturating_sub(1)) {
                        q.extend_from_slice(row);
                    }
                } else {
                    let (t0, t1) = (times[k - 1], times[k]);
                    let s = (t - t0) / (t1 - t0);
                    q.extend(values[k - 1].iter().zip(&values[k]).map(|(a, b)| a + s * (b - a)));
                }
            }
        }
    }

    /// Checks the trajectory: finite numbers, every joint vector of the same length, waypoint
    /// times strictly increasing and as many as the vectors, a positive period.
    pub fn validate(&self) -> Result<(), RobotError> {
        let rows = |rows: &[Vec<f64>], what: &str| -> Result<(), RobotError> {
            if rows.is_empty() {
                return Err(RobotError::invalid(what, "must not be empty"));
            }
            for (i, r) in rows.iter().enumerate() {
                if r.len() != rows[0].len() {
                    return Err(RobotError::invalid(
                        format!("{what}[{i}]"),
                        format!("{} values, the first row has {}", r.len(), rows[0].len()),
                    ));
                }
                if let Some(k) = r.iter().position(|x| !x.is_finite()) {
                    return Err(RobotError::invalid(format!("{what}[{i}][{k}]"), "must be finite"));
                }
            }
            Ok(())
        };
        match self {
            Trajectory::Sinusoids { period, joints } => {
                if !(period.is_finite() && *period > 0.0) {
                    return Err(RobotError::invalid("period", "must be finite and > 0"));
                }
                for (j, s) in joints.iter().enumerate() {
                    let finite = s.offset.is_finite()
                        && s.terms.iter().all(|t| t.0.is_finite() && t.1.is_finite() && t.2.is_finite());
                    if !finite {
                        return Err(RobotError::invalid(format!("joints[{j}]"), "must be finite"));
                    }
                }
                Ok(())
            }
            Trajectory::Samples(s) => rows(s, "samples"),
            Trajectory::Waypoints { times, values } => {
                rows(values, "waypoints")?;
                if times.len() != values.len() {
                    return Err(RobotError::invalid(
                        "waypoints",
                        format!("{} times for {} joint vectors", times.len(), values.len()),
                    ));
                }
                for (i, t) in times.iter().enumerate() {
                    if !t.is_finite() || (i > 0 && *t <= times[i - 1]) {
                        return Err(RobotError::invalid(
                            format!("waypoints[{i}].t"),
                            "times must be finite and strictly increasing",
                        ));
                    }
                }
                Ok(())
            }
        }
    }
}
