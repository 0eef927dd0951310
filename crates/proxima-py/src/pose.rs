//! `proxima.pose(translation, quaternion_wxyz)`: a 4×4 homogeneous pose from a translation and
//! a rotation quaternion q = (w, x, y, z) (scalar first, as Eigen/Pinocchio print it and
//! coal's `Quaternion(w, x, y, z)` takes it).
//!
//! The rotation of a unit quaternion is R = I + 2w[v]× + 2[v]×², v = (x, y, z). A quaternion
//! of any other non-zero length is normalized first (as `scipy.spatial.transform.Rotation`
//! does); q and −q give the same rotation. A zero or non-finite quaternion or a non-finite
//! translation is a `ProximaError`.

use nalgebra::{Quaternion, UnitQuaternion};
use numpy::PyArray2;
use pyo3::prelude::*;

use crate::arrays;
use crate::errors::invalid;

/// A 4×4 pose (float64) from `translation` (3,) and `quaternion_wxyz` (4,), both optional
/// (zero translation, identity rotation).
#[pyfunction]
#[pyo3(signature = (translation=None, quaternion_wxyz=None))]
pub fn pose<'py>(
    py: Python<'py>,
    translation: Option<&Bound<'py, PyAny>>,
    quaternion_wxyz: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let t = translation.map(|t| arrays::vec3(t, "translation")).transpose()?.unwrap_or([0.0; 3]);
    if t.iter().any(|v| !v.is_finite()) {
        return Err(invalid(format!("translation: must be finite, got {t:?}")));
    }
    let q = match quaternion_wxyz {
        Some(q) => {
            let q = arrays::vector(q, Some(4), "quaternion_wxyz")?;
            let norm = q.iter().map(|v| v * v).sum::<f64>().sqrt();
            if !(norm.is_finite() && norm > 0.0) {
                return Err(invalid(format!("quaternion_wxyz: must be finite and non-zero, got {q:?}")));
            }
            UnitQuaternion::from_quaternion(Quaternion::new(q[0], q[1], q[2], q[3]))
        }
        None => UnitQuaternion::identity(),
    };
    arrays::out_homogeneous(py, q.to_rotation_matrix().matrix(), &t)
}
