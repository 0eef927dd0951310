//! A second-order bound of the separation along a (possibly turning) direction over a time
//! step, from its values at the two ends: the certificate of the long advancement steps.
//!
//! # Maths
//!
//! Take a unit direction n(τ) = exp((τ − t₀)[ω_n]×)·n₀ that is fixed (ω_n = 0) or turns with
//! one of the bodies (ω_n = ω_A or ω_B), and the separation along it,
//!
//! ```text
//! sep(τ) = −h_B(τ)(−n) − h_A(τ)(n) = n·D − H_A(u_A) − H_B(u_B),
//! ```
//!
//! with D(τ) = x_B(τ) − x_A(τ) the vector between the rotation centres (affine in τ),
//! H_X = h_{S_X − c_X} the support function of body X about its centre (in its own frame) and
//! u_A = R_A(τ)ᵀn, u_B = −R_B(τ)ᵀn the directions the bodies see. Over [t₀, t₁] (Δ = t₁ − t₀,
//! λ = (τ − t₀)/Δ) a C² curve deviates from its chord by at most Δ²/8 times the bound of its
//! second derivative, and a support function is sublinear, H(p + r) ≤ H(p) + |r|·r_X
//! (r_X = the body's reach from its centre), so
//!
//! ```text
//! sep(τ) ≥ (1 − λ)·sep(t₀) + λ·sep(t₁) − E ≥ min(sep(t₀), sep(t₁)) − E,
//! E = Δ²/8 · ( |ω_n|²·max|D| + 2|ω_n|·|v_B − v_A|                   (n·D)
//!            + |ω_n − ω_A|(|ω_A| + |ω_n|)·r_A + |ω_n − ω_B|(|ω_B| + |ω_n|)·r_B ),   (u_A, u_B)
//! ```
//!
//! using |(n·D)''| = |n''·D + 2n'·D'| ≤ |ω_n|²|D| + 2|ω_n||D'| and, for u = R_X(τ)ᵀn(τ) =
//! R_X0ᵀ·exp(−τ[ω_X])·exp(τ[ω_n])·n₀, |u''| ≤ |ω_n − ω_X|·(|ω_X| + |ω_n|) (‖R_X0‖ and the
//! non-orthogonality of a pose used as given are in r_X, see `extent.rs`).
//!
//! One evaluation of the two support values at t₁ therefore proves the whole step when the
//! right side stays above the margin, with a loss E that vanishes quadratically with the step.
//! A body turning with the direction loses nothing: along a face normal of A that turns with
//! A, A's support value is constant, where a fixed direction would see the face tilt and lose
//! a first-order amount.

use nalgebra::Vector3;

/// What the excess E of one step depends on besides the step length.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChordMotion {
    /// Angular velocities of A and B (world).
    pub w_a: Vector3<f64>,
    pub w_b: Vector3<f64>,
    /// Reach of A and B from their rotation centres (world bound).
    pub r_a: f64,
    pub r_b: f64,
    /// |v_B − v_A|, the relative velocity of the centres.
    pub relative_speed: f64,
}

impl ChordMotion {
    /// E for a step of length `dt`, a direction turning at `w_n`, and |D| ≤ `centre_gap` over
    /// the step; rounded up by a relative 1e-12.
    pub fn excess(&self, dt: f64, w_n: &Vector3<f64>, centre_gap: f64) -> f64 {
        let wn = w_n.norm();
        let turn = |w: &Vector3<f64>, r: f64| (w_n - w).norm() * (w.norm() + wn) * r;
        let second = wn * wn * centre_gap
            + 2.0 * wn * self.relative_speed
            + turn(&self.w_a, self.r_a)
            + turn(&self.w_b, self.r_b);
        0.125 * dt * dt * second * (1.0 + 1e-12)
    }
}

/// n turned by exp(dt·[w]×) (Rodrigues on a vector).
pub(crate) fn turned(w: &Vector3<f64>, n: &Vector3<f64>, dt: f64) -> Vector3<f64> {
    let speed = w.norm();
    let theta = speed * dt;
    if theta == 0.0 {
        return *n;
    }
    let k = w / speed;
    let (sin, cos) = theta.sin_cos();
    n * cos + k.cross(n) * sin + k * (k.dot(n) * (1.0 - cos))
}

#[cfg(test)]
mod tests {
    //! The bound against dense sampling of the separation along real motions.

    use nalgebra::Vector3;
    use proptest::prelude::*;

    use super::{ChordMotion, turned};
    use crate::query::toi::RigidMotion;
    use crate::query::toi::extent::reach;
    use crate::shape::{Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid};
    use crate::{Pose, Shape};

    fn shapes() -> Vec<Shape> {
        vec![
            Shape::Cuboid(Cuboid::new([0.3, 0.8, 0.1]).unwrap()),
            Shape::Cone(Cone::new(0.4, 0.9).unwrap()),
            Shape::Cylinder(Cylinder::new(0.2, 0.7).unwrap()),
            Shape::Ellipsoid(Ellipsoid::new([0.9, 0.2, 0.5]).unwrap()),
            Shape::ConvexPolytope(
                ConvexPolytope::new(vec![
                    [0.5, 0.0, 0.1],
                    [-0.2, 0.6, 0.0],
                    [0.0, -0.3, 0.7],
                    [-0.1, -0.1, -0.6],
                ])
                .unwrap(),
            ),
        ]
    }

    fn v3() -> impl Strategy<Value = [f64; 3]> {
        prop::array::uniform3(-2.0..2.0f64)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        #[test]
        fn chord_minus_excess_bounds_the_separation(
            ia in 0usize..5, ib in 0usize..5, frame in 0usize..3,
            ra in v3(), rb in v3(), ta in v3(), tb in v3(), ca in v3(), cb in v3(),
            va in v3(), vb in v3(), wa in v3(), wb in v3(), n0 in v3(), dt in 0.0..0.8f64,
        ) {
            let shapes = shapes();
            let (a, b) = (&shapes[ia], &shapes[ib]);
            let pose = |r: [f64; 3], t: [f64; 3]| {
                Pose::from_matrix(*nalgebra::Rotation3::new(Vector3::from(r)).matrix(), Vector3::from(t)).unwrap()
            };
            let centre = |c: [f64; 3]| c.map(|x| 0.2 * x);
            let ma = RigidMotion::new(pose(ra, ta), centre(ca), va, wa).unwrap();
            let mb = RigidMotion::new(pose(rb, tb), centre(cb), vb, wb).unwrap();
            let n0 = Vector3::from(n0);
            prop_assume!(n0.norm() > 0.1);
            let n0 = n0.normalize();
            let w_n = [Vector3::zeros(), ma.angular_velocity(), mb.angular_velocity()][frame];
            let sep = |t: f64| {
                let n = turned(&w_n, &n0, t);
                -b.support_value(&mb.pose_at(t), &-n) - a.support_value(&ma.pose_at(t), &n)
            };
            let z = Vector3::zeros();
            let cm = ChordMotion {
                w_a: ma.angular_velocity(),
                w_b: mb.angular_velocity(),
                r_a: reach(a, &ma.centre().coords, &z).unwrap().radius * (1.0 + 1e-9),
                r_b: reach(b, &mb.centre().coords, &z).unwrap().radius * (1.0 + 1e-9),
                relative_speed: (mb.linear_velocity() - ma.linear_velocity()).norm(),
            };
            let gap = |t: f64| (mb.centre_at(t) - ma.centre_at(t)).norm();
            let excess = cm.excess(dt, &w_n, gap(0.0).max(gap(dt)));
            let (s0, s1) = (sep(0.0), sep(dt));
            for i in 0..=64 {
                let lambda = i as f64 / 64.0;
                let bound = (1.0 - lambda) * s0 + lambda * s1 - excess;
                let mid = sep(lambda * dt);
                prop_assert!(mid >= bound - 1e-12, "λ {lambda}: sep {mid} < bound {bound}");
            }
        }
    }
}
