//! `RigidMotion` (a constant twist) and `time_of_impact_motions`: continuous collision for
//! motions other than the benchmark's, e.g. a body turning about a hinge.
//!
//! A motion is the library's [`RigidMotion`]: the body starts at the 4×4 pose `start`
//! (t = 0), its local point `centre` moves with the constant world velocity `linear_velocity`
//! and the body turns at the constant world angular velocity `angular_velocity` (rad per time
//! unit) about that point, so the pose at t is (exp(t·[ω]×)·R₀, x(t) − R(t)·c) with
//! x(t) = R₀c + T₀ + t·v. `RigidMotion.from_poses(T0, T1, centre)` is the motion from `T0`
//! (t = 0) to `T1` (t = 1) turning along the shortest arc about `centre` (whose world position
//! moves on a straight line); with the default centre (the origin) it is the motion
//! `time_of_impact` uses.
//!
//! Edge cases: NaN/∞ in any argument and velocities that overflow are `GeomError`s; poses are
//! checked as everywhere (rotation to 1e-6, bottom row 0 0 0 1). A motion pickles as
//! (start, centre, linear velocity, angular velocity), which rebuilds it bit for bit.

use numpy::{PyArray1, PyArray2};
use proxima_geom::RigidMotion;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::arrays::{self, out_pose, out3};
use crate::errors::{geom, geom_at, guard};
use crate::shapes::PyShape;
use crate::toi::{PyToiResult, toi_settings};

/// `proxima.RigidMotion`: a rigid motion with constant linear and angular velocity about a
/// centre (see the module docs).
#[pyclass(frozen, module = "proxima", name = "RigidMotion")]
pub struct PyRigidMotion {
    motion: RigidMotion,
}

fn optional_vec3(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<[f64; 3]> {
    obj.map(|o| arrays::vec3(o, what)).transpose().map(|v| v.unwrap_or([0.0; 3]))
}

#[pymethods]
impl PyRigidMotion {
    /// The body at the 4×4 pose `start` at t = 0; its local point `centre` (default the origin)
    /// moves with world velocity `linear_velocity` while the body turns at the world angular
    /// velocity `angular_velocity` (rad per time unit) about it.
    #[new]
    #[pyo3(signature = (start, centre=None, linear_velocity=None, angular_velocity=None))]
    fn new(
        start: &Bound<'_, PyAny>,
        centre: Option<&Bound<'_, PyAny>>,
        linear_velocity: Option<&Bound<'_, PyAny>>,
        angular_velocity: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let start = arrays::pose(start, "start")?;
        let c = optional_vec3(centre, "centre")?;
        let v = optional_vec3(linear_velocity, "linear_velocity")?;
        let w = optional_vec3(angular_velocity, "angular_velocity")?;
        let motion = guard(|| RigidMotion::new(start, c, v, w).map_err(geom))?;
        Ok(PyRigidMotion { motion })
    }

    /// The motion from the 4×4 pose `T0` (t = 0) to `T1` (t = 1): the local point `centre`
    /// (default the origin) moves on a straight line, the orientation turns at constant angular
    /// velocity along the shortest arc about it.
    #[staticmethod]
    #[pyo3(signature = (T0, T1, centre=None))]
    #[allow(non_snake_case)]
    fn from_poses(
        T0: &Bound<'_, PyAny>,
        T1: &Bound<'_, PyAny>,
        centre: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let (p0, p1) = (arrays::pose(T0, "T0")?, arrays::pose(T1, "T1")?);
        let c = optional_vec3(centre, "centre")?;
        let motion = guard(|| RigidMotion::from_poses_about(&p0, &p1, c).map_err(geom))?;
        Ok(PyRigidMotion { motion })
    }

    /// The 4×4 pose at time `t`.
    fn pose_at<'py>(&self, py: Python<'py>, t: f64) -> PyResult<Bound<'py, PyArray2<f64>>> {
        if !t.is_finite() {
            return Err(geom_at("t", proxima_geom::GeomError::NonFinite { what: "time" }));
        }
        out_pose(py, &self.motion.pose_at(t))
    }

    /// The 4×4 pose at t = 0.
    #[getter]
    fn start<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        out_pose(py, self.motion.start())
    }

    /// The rotation centre, in the body's local frame, shape (3,).
    #[getter]
    fn centre<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        out3(py, self.motion.centre().coords.into())
    }

    /// The centre's world velocity, shape (3,).
    #[getter]
    fn linear_velocity<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        out3(py, self.motion.linear_velocity().into())
    }

    /// The world angular velocity (rad per time unit), shape (3,).
    #[getter]
    fn angular_velocity<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        out3(py, self.motion.angular_velocity().into())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyRigidMotion>().is_ok_and(|o| o.get().motion == self.motion)
    }

    fn __repr__(&self) -> String {
        let f = |v: [f64; 3]| format!("[{:?}, {:?}, {:?}]", v[0], v[1], v[2]);
        let m = &self.motion;
        format!(
            "RigidMotion(centre={}, linear_velocity={}, angular_velocity={})",
            f(m.centre().coords.into()),
            f(m.linear_velocity().into()),
            f(m.angular_velocity().into())
        )
    }

    /// Pickles as the constructor's arguments (rebuilt bit for bit).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let this = slf.get();
        let args = (this.start(py)?, this.centre(py), this.linear_velocity(py), this.angular_velocity(py));
        Ok((slf.get_type().into_any(), args.into_pyobject(py)?))
    }
}

/// The first time `a` moving by `motion_a` and `b` moving by `motion_b` come within `margin`
/// (`RigidMotion`s; the interval is [0, 1] unless `start_time` / `end_time` say otherwise),
/// certified as `time_of_impact`, with the same result and keyword settings.
#[pyfunction]
#[pyo3(signature = (a, motion_a, b, motion_b, margin=0.0, **settings))]
pub fn time_of_impact_motions(
    a: &Bound<'_, PyShape>,
    motion_a: &Bound<'_, PyRigidMotion>,
    b: &Bound<'_, PyShape>,
    motion_b: &Bound<'_, PyRigidMotion>,
    margin: f64,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyToiResult> {
    let settings = toi_settings(margin, settings)?;
    let (ma, mb) = (&motion_a.get().motion, &motion_b.get().motion);
    guard(|| {
        proxima_geom::time_of_impact(&a.get().shape, ma, &b.get().shape, mb, &settings)
            .map(|result| PyToiResult::new(result, settings.end_time))
            .map_err(geom)
    })
}
