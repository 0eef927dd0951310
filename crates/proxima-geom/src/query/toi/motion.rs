//! Rigid motions with constant velocities: a centre moving on a straight line while the body
//! turns at a constant angular velocity about it.
//!
//! # Maths
//!
//! A motion is the start pose (R₀, T₀) (world = R₀·p + T₀ at t = 0), a rotation centre c in the
//! body's local frame, the centre's world velocity v and the world angular velocity ω. With
//! x(t) = R₀c + T₀ + t·v the centre's world position,
//!
//! ```text
//! R(t) = exp(t·[ω]×)·R₀,        world point of local p at time t:  R(t)·(p − c) + x(t),
//! ```
//!
//! i.e. the pose at t is (R(t), x(t) − R(t)·c). Every point of the body moves with velocity
//! v + ω × (R(t)(p − c)), of length at most |v| + |ω|·|R₀(p − c)|: the motion bound of
//! conservative advancement (`advance.rs`).
//!
//! [`RigidMotion::from_poses`] is the benchmark's motion model (`shared/bench/ccd/FORMAT.md`):
//! centre = the local origin, v = T₁ − T₀, ω = θ·u the rotation vector of R₁·R₀ᵀ with
//! θ ∈ [0, π] (the shortest arc; slerp between the two orientations). It is parry's
//! `NonlinearRigidMotion` with `local_center = 0`. [`RigidMotion::from_poses_about`] does the
//! same about another centre (its world position interpolated linearly), and
//! [`RigidMotion::new`] takes a constant twist directly.
//!
//! # Edge cases
//!
//! * R₁ equal to R₀ bit for bit: ω = 0 and every pose of the motion has exactly R₀ (the
//!   benchmark's translation-only queries).
//! * θ = π: the axis is taken from the largest diagonal entry of R₁R₀ᵀ (either sign is the
//!   same rotation; the motion then turns one of the two equally short ways).
//! * Poses are used as given (rotations checked to 1e-6 by [`Pose`]); exp(ω)·R₀ equals R₁ up to
//!   the rounding of the logarithm (~1e-15 for exact rotations).

use nalgebra::{Matrix3, Point3, Vector3};

use crate::error::GeomError;
use crate::pose::Pose;

/// A rigid motion with constant linear and angular velocity about a centre (see the module
/// docs for the formulas).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RigidMotion {
    start: Pose,
    centre: Point3<f64>,
    /// R₀c + T₀: the centre's world position at t = 0.
    centre_start: Vector3<f64>,
    linear: Vector3<f64>,
    angular: Vector3<f64>,
    /// |ω| and ω/|ω| (zero when not rotating).
    speed: f64,
    axis: Vector3<f64>,
}

fn finite(v: &Vector3<f64>, what: &'static str) -> Result<(), GeomError> {
    if v.iter().all(|x| x.is_finite()) { Ok(()) } else { Err(GeomError::NonFinite { what }) }
}

impl RigidMotion {
    /// The constant twist: the body is at `start` at t = 0, its local point `centre` moves with
    /// world velocity `linear_velocity` and the body turns at the world angular velocity
    /// `angular_velocity` (rad per time unit) about that point.
    ///
    /// Errors: [`GeomError::NonFinite`] for NaN/∞ inputs or an angular speed that overflows.
    pub fn new(
        start: Pose,
        centre: [f64; 3],
        linear_velocity: [f64; 3],
        angular_velocity: [f64; 3],
    ) -> Result<Self, GeomError> {
        let (c, v, w) =
            (Vector3::from(centre), Vector3::from(linear_velocity), Vector3::from(angular_velocity));
        finite(&c, "motion centre")?;
        finite(&v, "motion linear velocity")?;
        finite(&w, "motion angular velocity")?;
        let centre_start = start.rotation() * c + start.translation();
        finite(&centre_start, "motion centre (world)")?;
        let speed = w.norm();
        if !speed.is_finite() {
            return Err(GeomError::NonFinite { what: "motion angular speed" });
        }
        let axis = if speed > 0.0 { w / speed } else { Vector3::zeros() };
        Ok(Self { start, centre: Point3::from(c), centre_start, linear: v, angular: w, speed, axis })
    }

    /// The body resting at `pose`.
    pub fn stationary(pose: Pose) -> Self {
        Self {
            start: pose,
            centre: Point3::origin(),
            centre_start: *pose.translation(),
            linear: Vector3::zeros(),
            angular: Vector3::zeros(),
            speed: 0.0,
            axis: Vector3::zeros(),
        }
    }

    /// The benchmark's motion from `from` (t = 0) to `to` (t = 1): the local origin moves on a
    /// straight line, the orientation turns at constant angular velocity along the shortest
    /// arc (slerp).
    ///
    /// Errors: [`GeomError::NonFinite`] when the velocities overflow.
    pub fn from_poses(from: &Pose, to: &Pose) -> Result<Self, GeomError> {
        Self::from_poses_about(from, to, [0.0; 3])
    }

    /// As [`RigidMotion::from_poses`], turning about the local point `centre` (its world
    /// position moves on a straight line from `from(centre)` to `to(centre)`).
    ///
    /// Errors: [`GeomError::NonFinite`] for a NaN/∞ centre or velocities that overflow.
    pub fn from_poses_about(from: &Pose, to: &Pose, centre: [f64; 3]) -> Result<Self, GeomError> {
        let c = Vector3::from(centre);
        finite(&c, "motion centre")?;
        let x0 = from.rotation() * c + from.translation();
        let x1 = to.rotation() * c + to.translation();
        let w = if from.rotation() == to.rotation() {
            Vector3::zeros()
        } else {
            rotation_vector(&(to.rotation() * from.rotation().transpose()))
        };
        Self::new(*from, centre, (x1 - x0).into(), w.into())
    }

    /// The pose at time `t`.
    #[inline]
    pub fn pose_at(&self, t: f64) -> Pose {
        let x = self.centre_at(t);
        if self.speed == 0.0 {
            let r = *self.start.rotation();
            return Pose::from_parts_unchecked(r, x - r * self.centre.coords);
        }
        let r = rotation_about(&self.axis, t * self.speed) * self.start.rotation();
        Pose::from_parts_unchecked(r, x - r * self.centre.coords)
    }

    /// The world position of the rotation centre at time `t`.
    pub fn centre_at(&self, t: f64) -> Vector3<f64> {
        self.centre_start + self.linear * t
    }

    /// The pose at t = 0.
    pub fn start(&self) -> &Pose {
        &self.start
    }
    /// The rotation centre (local frame).
    pub fn centre(&self) -> Point3<f64> {
        self.centre
    }
    /// The centre's world velocity.
    pub fn linear_velocity(&self) -> Vector3<f64> {
        self.linear
    }
    /// The world angular velocity.
    pub fn angular_velocity(&self) -> Vector3<f64> {
        self.angular
    }
    /// |ω|.
    pub(crate) fn angular_speed(&self) -> f64 {
        self.speed
    }
    /// ω/|ω|, zero when not rotating.
    pub(crate) fn axis(&self) -> Vector3<f64> {
        self.axis
    }
}

/// exp(θ·[u]×) for a unit axis u (Rodrigues).
pub(crate) fn rotation_about(u: &Vector3<f64>, theta: f64) -> Matrix3<f64> {
    let (s, c) = theta.sin_cos();
    let k = 1.0 - c;
    let (x, y, z) = (u.x, u.y, u.z);
    Matrix3::new(
        c + k * x * x,
        k * x * y - s * z,
        k * x * z + s * y,
        k * x * y + s * z,
        c + k * y * y,
        k * y * z - s * x,
        k * x * z - s * y,
        k * y * z + s * x,
        c + k * z * z,
    )
}

/// The rotation vector θ·u of a rotation matrix (θ ∈ [0, π]), through its unit quaternion
/// (largest-component extraction, then the sign with w ≥ 0: the shortest arc).
pub(crate) fn rotation_vector(m: &Matrix3<f64>) -> Vector3<f64> {
    let tr = m[(0, 0)] + m[(1, 1)] + m[(2, 2)];
    let (w, x, y, z);
    if tr >= m[(0, 0)].max(m[(1, 1)]).max(m[(2, 2)]) {
        let s = (1.0 + tr).max(0.0).sqrt() * 2.0;
        w = 0.25 * s;
        x = (m[(2, 1)] - m[(1, 2)]) / s;
        y = (m[(0, 2)] - m[(2, 0)]) / s;
        z = (m[(1, 0)] - m[(0, 1)]) / s;
    } else if m[(0, 0)] >= m[(1, 1)] && m[(0, 0)] >= m[(2, 2)] {
        let s = (1.0 + m[(0, 0)] - m[(1, 1)] - m[(2, 2)]).max(0.0).sqrt() * 2.0;
        w = (m[(2, 1)] - m[(1, 2)]) / s;
        x = 0.25 * s;
        y = (m[(0, 1)] + m[(1, 0)]) / s;
        z = (m[(0, 2)] + m[(2, 0)]) / s;
    } else if m[(1, 1)] >= m[(2, 2)] {
        let s = (1.0 + m[(1, 1)] - m[(0, 0)] - m[(2, 2)]).max(0.0).sqrt() * 2.0;
        w = (m[(0, 2)] - m[(2, 0)]) / s;
        x = (m[(0, 1)] + m[(1, 0)]) / s;
        y = 0.25 * s;
        z = (m[(1, 2)] + m[(2, 1)]) / s;
    } else {
        let s = (1.0 + m[(2, 2)] - m[(0, 0)] - m[(1, 1)]).max(0.0).sqrt() * 2.0;
        w = (m[(1, 0)] - m[(0, 1)]) / s;
        x = (m[(0, 2)] + m[(2, 0)]) / s;
        y = (m[(1, 2)] + m[(2, 1)]) / s;
        z = 0.25 * s;
    }
    let v = if w < 0.0 { -Vector3::new(x, y, z) } else { Vector3::new(x, y, z) };
    let len = v.norm();
    if len == 0.0 || !len.is_finite() {
        return Vector3::zeros();
    }
    v * (2.0 * len.atan2(w.abs()) / len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rot(axis: [f64; 3], angle: f64) -> Matrix3<f64> {
        rotation_about(&Vector3::from(axis).normalize(), angle)
    }

    #[test]
    fn logarithm_inverts_the_exponential() {
        // Angles across (0, π], axes along every diagonal branch of the extraction.
        for &angle in &[1e-9, 0.3, 1.0, 2.5, 3.1, std::f64::consts::PI - 1e-7] {
            for axis in
                [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.3, -0.5, 0.8], [-1.0, 2.0, 0.1]]
            {
                let u = Vector3::from(axis).normalize();
                let w = rotation_vector(&rot(axis, angle));
                // Near π the axis is recovered from a diagonal entry: relative 1e-9 there.
                let tol = if angle > 3.0 { 1e-7 } else { 1e-12 };
                assert!((w - u * angle).norm() <= tol * angle.max(1.0), "{axis:?} {angle}: {w:?}");
            }
        }
    }

    #[test]
    fn from_poses_reaches_both_ends() {
        let p0 = Pose::from_matrix(rot([0.2, 0.4, -1.0], 0.7), Vector3::new(1.0, -2.0, 0.5)).unwrap();
        let p1 = Pose::from_matrix(rot([1.0, 0.1, 0.3], 2.9), Vector3::new(-0.5, 0.25, 3.0)).unwrap();
        for centre in [[0.0; 3], [0.3, -0.2, 0.9]] {
            let m = RigidMotion::from_poses_about(&p0, &p1, centre).unwrap();
            let (a, b) = (m.pose_at(0.0), m.pose_at(1.0));
            assert!((a.rotation() - p0.rotation()).abs().max() < 1e-15);
            assert!((a.translation() - p0.translation()).abs().max() < 1e-14);
            assert!((b.rotation() - p1.rotation()).abs().max() < 1e-14);
            assert!((b.translation() - p1.translation()).abs().max() < 1e-14);
            // The centre moves on the segment between its two end positions.
            let c = Vector3::from(centre);
            let mid = m.pose_at(0.5).rotation() * c + m.pose_at(0.5).translation();
            let expect =
                0.5 * ((p0.rotation() * c + p0.translation()) + (p1.rotation() * c + p1.translation()));
            assert!((mid - expect).norm() < 1e-14);
        }
    }

    #[test]
    fn translation_only_keeps_the_rotation_bit_for_bit() {
        let r = rot([0.3, 0.3, 0.1], 1.3);
        let p0 = Pose::from_matrix(r, Vector3::new(0.0, 1.0, 2.0)).unwrap();
        let p1 = Pose::from_matrix(r, Vector3::new(4.0, 1.0, 2.0)).unwrap();
        let m = RigidMotion::from_poses(&p0, &p1).unwrap();
        assert_eq!(m.angular_velocity(), Vector3::zeros());
        assert_eq!(*m.pose_at(0.37).rotation(), r);
        assert_eq!(m.pose_at(0.5).translation().x, 2.0);
    }

    #[test]
    fn rejects_non_finite_input() {
        let p = Pose::identity();
        assert!(RigidMotion::new(p, [0.0; 3], [f64::NAN, 0.0, 0.0], [0.0; 3]).is_err());
        assert!(RigidMotion::new(p, [0.0; 3], [0.0; 3], [f64::INFINITY, 0.0, 0.0]).is_err());
        assert!(RigidMotion::new(p, [0.0, f64::NAN, 0.0], [0.0; 3], [0.0; 3]).is_err());
        assert!(RigidMotion::new(p, [0.0; 3], [0.0; 3], [1e300, 1e300, 0.0]).is_err());
        assert!(RigidMotion::from_poses_about(&p, &p, [f64::NAN; 3]).is_err());
    }
}
