//! The thesis baseline: alternating point projection between two ellipsoids (spec §3).
//!
//! # The iteration
//!
//! * **Sequential** (§3.1 text): x_a ← c_a; repeat x_b ← proj_B(x_a), x_a ← proj_A(x_b).
//! * **Simultaneous** (§3.1 listing): x_a ← c_a, x_b ← c_b; repeat
//!   (x_a, x_b) ← (proj_A(x_b), proj_B(x_a)) — two interleaved sequential chains.
//!
//! proj is the projection onto the *solid* ellipsoid (a point inside stays put), so a pair that
//! intersects stops with x_a = x_b, a common point. Both bodies are convex, so the iteration
//! converges, but only linearly, with a rate that tends to 1 as the gap closes (§3.2): this is
//! the behaviour our [`super::dual_newton()`] avoids.
//!
//! The projection is the robust Newton of [`super::point_ellipsoid`] or the thesis's
//! [`super::pptes()`] (K = 20, as `eepps` calls it).
//!
//! Stop: the certificate gap (upper − lower at the witness direction) ≤ tolerance × scale, or a
//! step |Δx| ≤ `step_tolerance` × scale (status `Stagnated` if the gap is then still open), or
//! `max_iterations`.

use nalgebra::Vector3;

use super::{EllipsoidDistance, EllipsoidSettings, EllipsoidStatus, Placed, finish, pair_scale, pptes};
use crate::error::GeomError;
use crate::pose::Pose;
use crate::shape::Ellipsoid;

/// Sequential or simultaneous alternation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlternatingForm {
    /// One chain from the centre of A (spec §3.1 text).
    Sequential,
    /// Two interleaved chains from both centres (the thesis listing).
    Simultaneous,
}

/// The point projection used inside the alternation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Projector {
    /// Safeguarded Newton on the secular equation (exact to round-off).
    Newton,
    /// The thesis's `pptes` with K = 20 and tolerance 1e-10.
    Pptes,
}

/// Settings of the alternating projection.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlternatingSettings {
    /// Default [`AlternatingForm::Sequential`].
    pub form: AlternatingForm,
    /// Default [`Projector::Newton`].
    pub projector: Projector,
    /// Default 100 000 (the rate tends to 1 at contact).
    pub max_iterations: usize,
    /// Stop when the iterate moves less than this × scale. Default 1e-15.
    pub step_tolerance: f64,
}

impl Default for AlternatingSettings {
    fn default() -> Self {
        Self {
            form: AlternatingForm::Sequential,
            projector: Projector::Newton,
            max_iterations: 100_000,
            step_tolerance: 1e-15,
        }
    }
}

impl AlternatingSettings {
    /// Checks the fields.
    pub fn validate(&self) -> Result<(), GeomError> {
        if self.max_iterations == 0 {
            return Err(GeomError::InvalidSettings { field: "max_iterations", reason: "must be ≥ 1" });
        }
        if !self.step_tolerance.is_finite() || self.step_tolerance < 0.0 {
            return Err(GeomError::InvalidSettings {
                field: "step_tolerance",
                reason: "must be finite and ≥ 0",
            });
        }
        Ok(())
    }
}

/// Alternating projection between two ellipsoids. `trace`, when given, receives
/// [x_a; x_b] after every iteration (the spec's 6-vector, for error curves).
pub fn alternating_projection(
    a: &Ellipsoid,
    pa: &Pose,
    b: &Ellipsoid,
    pb: &Pose,
    settings: &AlternatingSettings,
    tolerance: f64,
    trace: Option<&mut Vec<[f64; 6]>>,
) -> Result<EllipsoidDistance, GeomError> {
    settings.validate()?;
    EllipsoidSettings { tolerance, ..EllipsoidSettings::default() }.validate()?;
    Ok(run(&Placed::new(a, pa), &Placed::new(b, pb), settings, tolerance, trace))
}

fn project(e: &Placed, p: &Vector3<f64>, projector: Projector) -> Vector3<f64> {
    match projector {
        Projector::Newton => e.project_solid(p),
        Projector::Pptes => {
            if e.level(p) <= 1.0 {
                return *p;
            }
            let local = e.rotation.tr_mul(&(p - e.center));
            let s = pptes::PptesSettings { max_iterations: 20, tolerance: 1e-10, lambda0: None };
            match pptes::pptes(e.radii.as_slice(), local.as_slice(), &s) {
                Ok(r) => e.center + e.rotation * Vector3::new(r.closest[0], r.closest[1], r.closest[2]),
                Err(_) => e.project_solid(p),
            }
        }
    }
}

pub(crate) fn run(
    a: &Placed,
    b: &Placed,
    settings: &AlternatingSettings,
    tolerance: f64,
    mut trace: Option<&mut Vec<[f64; 6]>>,
) -> EllipsoidDistance {
    let scale = pair_scale(a, b);
    let mut xa = a.center;
    let mut xb = match settings.form {
        AlternatingForm::Sequential => project(b, &xa, settings.projector),
        AlternatingForm::Simultaneous => b.center,
    };
    if settings.form == AlternatingForm::Sequential {
        xa = project(a, &xb, settings.projector);
    }
    let mut iterations = 1;
    loop {
        if let Some(t) = trace.as_deref_mut() {
            t.push([xa.x, xa.y, xa.z, xb.x, xb.y, xb.z]);
        }
        let (na, nb) = match settings.form {
            AlternatingForm::Sequential => {
                let nb = project(b, &xa, settings.projector);
                (project(a, &nb, settings.projector), nb)
            }
            AlternatingForm::Simultaneous => {
                (project(a, &xb, settings.projector), project(b, &xa, settings.projector))
            }
        };
        let step = (na - xa).norm().max((nb - xb).norm());
        xa = na;
        xb = nb;
        iterations += 1;
        let cert = super::certify(a, b, &xa, &xb, None);
        if cert.upper == 0.0 || (settings.form == AlternatingForm::Sequential && a.level(&xb) <= 1.0) {
            return finish(a, b, xb, xb, None, iterations, EllipsoidStatus::Converged);
        }
        let gap_ok = cert.gap() <= tolerance * scale;
        if step <= settings.step_tolerance * scale {
            let status = if gap_ok { EllipsoidStatus::Converged } else { EllipsoidStatus::Stagnated };
            return finish(a, b, xa, xb, None, iterations, status);
        }
        if iterations >= settings.max_iterations {
            return finish(a, b, xa, xb, None, iterations, EllipsoidStatus::MaxIterations);
        }
    }
}
