//! Motion bounds: how far any point of a link's collision geometry can move when the joints
//! move, from joint deltas or joint velocity limits, without knowing the path in between.
//!
//! # Maths
//!
//! Let joints J₁ … J_k lie on the path from the root to link l (J_k's child is l), o_i the
//! origin of J_i's frame (on its axis) and p a point of l's geometry. With t_m the translation
//! of J_m's `<origin>` and d_m the travel of a prismatic J_m (max |limit|),
//!
//! ```text
//! |p − o_i| ≤ D_i + R_l,   D_i = Σ_{m > i} (|t_m| + d_m),   R_l = max_{p ∈ l} |p − origin of l|
//! ```
//!
//! (triangle inequality along the chain, in any configuration). A revolute or continuous J_i
//! turning at rate ω moves p at speed ≤ ω · dist(p, axis) ≤ ω · |p − o_i|; a prismatic J_i
//! moves it at its own rate. So the speed of p is at most Σ_c |q̇_c| · ρ_{c,l} with
//!
//! ```text
//! ρ_{c,l} = Σ over joints J_i on the path driven by coordinate c of |multiplier_i| · (D_i + R_l  or  1 if prismatic)
//! ```
//!
//! (multiplier 1 for an actuated joint, the mimic multiplier otherwise). Integrating along any
//! path from q⁰ to q¹ whose coordinates vary monotonically (a straight joint-space segment)
//! gives the displacement bound Σ_c |q¹_c − q⁰_c| · ρ_{c,l}; with joint velocity limits v_c,
//! the speed bound Σ_c v_c · ρ_{c,l} holds for every admissible motion. Both are rounded up.

use crate::model::{JointDrive, Robot};
use crate::urdf::JointKind;

/// The reach coefficients ρ_{c,l} of a robot (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct MotionBounds {
    dof: usize,
    links: usize,
    /// ρ, row-major by link: rho[l · dof + c].
    rho: Vec<f64>,
}

impl MotionBounds {
    /// The coefficients of `robot`.
    pub fn new(robot: &Robot) -> Self {
        let (dof, links) = (robot.dof(), robot.links().len());
        let mut rho = vec![0.0; dof * links];
        for l in 0..links {
            let link = &robot.links()[l];
            let radius = robot.geometries()[link.geometry.clone()]
                .iter()
                .map(|g| {
                    let (c, r) = g.bounding_sphere;
                    g.origin.transform_point(&c.into()).coords.norm() + r
                })
                .fold(0.0, f64::max);
            // walk up the chain, accumulating D
            let mut reach = 0.0;
            let mut current = l;
            while let Some(j) = robot.links()[current].parent_joint {
                let joint = &robot.joints()[j];
                let (coordinate, multiplier) = match joint.drive {
                    JointDrive::Fixed => (None, 0.0),
                    JointDrive::Actuated { coordinate } => (Some(coordinate), 1.0),
                    JointDrive::Mimic { coordinate, multiplier, .. } => (Some(coordinate), multiplier),
                };
                if let Some(c) = coordinate {
                    let per_unit = match joint.kind {
                        JointKind::Prismatic => 1.0,
                        _ => reach + radius,
                    };
                    rho[l * dof + c] += multiplier.abs() * per_unit;
                }
                let travel = match (joint.kind, joint.limits) {
                    (JointKind::Prismatic, Some(lim)) => lim.lower.abs().max(lim.upper.abs()),
                    _ => 0.0,
                };
                reach += joint.origin.translation().norm() + travel;
                current = joint.parent;
            }
        }
        for r in &mut rho {
            *r *= 1.0 + 1e-12;
        }
        Self { dof, links, rho }
    }

    /// ρ_{c,l}: speed of any point of link `link` per unit rate of coordinate `coordinate`.
    pub fn reach(&self, coordinate: usize, link: usize) -> f64 {
        self.rho[link * self.dof + coordinate]
    }

    /// Σ_c |dq_c| · ρ_{c,l}: how far any point of link `link` can move along a joint-space
    /// segment whose coordinate changes are `dq`.
    pub fn link_displacement(&self, link: usize, dq: &[f64]) -> f64 {
        let row = &self.rho[link * self.dof..(link + 1) * self.dof];
        let s: f64 = row.iter().zip(dq).map(|(r, d)| r * d.abs()).sum();
        s * (1.0 + 1e-12)
    }

    /// [`MotionBounds::link_displacement`] for every link, from `q0` to `q1`.
    pub fn link_displacements(&self, q0: &[f64], q1: &[f64], out: &mut Vec<f64>) {
        let dq: Vec<f64> = q0.iter().zip(q1).map(|(a, b)| b - a).collect();
        out.clear();
        out.extend((0..self.links).map(|l| self.link_displacement(l, &dq)));
    }

    /// Speed bound of every link (m/s) from per-coordinate velocity limits; `None` for a link
    /// moved by a coordinate without a limit.
    pub fn link_speed_limits(&self, velocity_limits: &[Option<f64>]) -> Vec<Option<f64>> {
        (0..self.links)
            .map(|l| {
                let mut s = 0.0;
                for c in 0..self.dof {
                    let r = self.reach(c, l);
                    if r > 0.0 {
                        s += r * velocity_limits.get(c).copied().flatten()?;
                    }
                }
                Some(s * (1.0 + 1e-12))
            })
            .collect()
    }
}
