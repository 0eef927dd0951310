//! `proxima`, the Python module: certified convex proximity queries and LCP / QP solvers from
//! Python, with numpy arrays in and out.
//!
//! This crate sits at the top of the crate graph, beside the CLI, and only converts: Python
//! objects to library values (shapes through `ShapeSpec`, settings checked by the library's
//! `validate()`, solvers by name from `proxima_lcp::registry`), library answers to Python
//! objects (names from the library's `as_str`), library errors to one exception per crate
//! error. It holds no algorithm of its own.
//!
//! | module | Python |
//! |---|---|
//! | `shapes` | `Shape`, `Box`, `Sphere`, `Capsule`, `Cylinder`, `Cone`, `Ellipsoid`, `ConvexHull`, `Triangle`, `Polyhedron` |
//! | `pose` | `pose(translation, quaternion_wxyz)` → 4×4 |
//! | `query` | `distance`, `signed_distance`, `intersects`, `DistanceResult` |
//! | `batch` | `distance_batch` (GIL released, rayon, input order), `DistanceBatch` |
//! | `toi`, `toi_batch` | `time_of_impact`, `ToiResult`; `time_of_impact_batch` (GIL released, rayon, input order), `ToiBatch` |
//! | `motion` | `RigidMotion` (constant twist, `from_poses`), `time_of_impact_motions` |
//! | `tracker` | `Tracker` (warm-started pair) |
//! | `robot` | `Robot` (URDF/SRDF/meshes, `distances`, `distances_batch`), `RobotDistances`, `RobotBatch` |
//! | `lcp`, `qp` | `solve_lcp`, `LcpResult`, `solve_qp`, `QpResult` |
//! | `errors` | `ProximaError` (a `ValueError`), `GeomError`, `LcpError`, `RobotError`, `SceneError`, `UndecidedError`, `InternalError` |
//!
//! Edge cases handled at the boundary: arrays of the wrong shape or dtype (bool, complex,
//! strings, objects) raise `ProximaError` naming the argument; NaN/∞, non-rotations and
//! degenerate shapes raise the library's error; a panic (a bug) raises `InternalError`
//! instead of crossing into Python; every object pickles to an equal object.
//!
//! The extension is built by maturin from `python/pyproject.toml` (`pip install ./python`);
//! its tests are the pytest suite in `python/tests` (the crate has no Rust test harness: the
//! module needs the interpreter that loads it).

#![deny(missing_docs)]

mod arrays;
mod batch;
mod errors;
mod lcp;
mod motion;
mod parallel;
mod pose;
mod qp;
mod query;
mod robot;
mod scalars;
mod settings;
mod shapes;
mod toi;
mod toi_batch;
mod tracker;

use pyo3::prelude::*;

/// The `proxima._proxima` extension module (re-exported by the `proxima` package).
#[pymodule]
fn _proxima(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ProximaError", py.get_type::<errors::ProximaError>())?;
    m.add("GeomError", py.get_type::<errors::GeomError>())?;
    m.add("LcpError", py.get_type::<errors::LcpError>())?;
    m.add("RobotError", py.get_type::<errors::RobotError>())?;
    m.add("SceneError", py.get_type::<errors::SceneError>())?;
    m.add("UndecidedError", py.get_type::<errors::UndecidedError>())?;
    m.add("InternalError", py.get_type::<errors::InternalError>())?;
    shapes::register(m)?;
    m.add_function(wrap_pyfunction!(pose::pose, m)?)?;
    m.add_class::<query::PyDistanceResult>()?;
    m.add_function(wrap_pyfunction!(query::distance, m)?)?;
    m.add_function(wrap_pyfunction!(query::signed_distance, m)?)?;
    m.add_function(wrap_pyfunction!(query::intersects, m)?)?;
    m.add_function(wrap_pyfunction!(query::distance_result_from_state, m)?)?;
    m.add_class::<batch::PyDistanceBatch>()?;
    m.add_function(wrap_pyfunction!(batch::distance_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::distance_batch_from_state, m)?)?;
    m.add_class::<toi::PyToiResult>()?;
    m.add_function(wrap_pyfunction!(toi::time_of_impact, m)?)?;
    m.add_function(wrap_pyfunction!(toi::toi_result_from_state, m)?)?;
    m.add_class::<toi_batch::PyToiBatch>()?;
    m.add_function(wrap_pyfunction!(toi_batch::time_of_impact_batch, m)?)?;
    m.add_function(wrap_pyfunction!(toi_batch::toi_batch_from_state, m)?)?;
    m.add_class::<motion::PyRigidMotion>()?;
    m.add_function(wrap_pyfunction!(motion::time_of_impact_motions, m)?)?;
    m.add_class::<tracker::PyTracker>()?;
    m.add_function(wrap_pyfunction!(tracker::tracker_from_state, m)?)?;
    m.add_class::<lcp::PyLcpResult>()?;
    m.add_function(wrap_pyfunction!(lcp::solve_lcp, m)?)?;
    m.add_function(wrap_pyfunction!(lcp::lcp_result_from_state, m)?)?;
    m.add_class::<qp::PyQpResult>()?;
    m.add_function(wrap_pyfunction!(qp::solve_qp, m)?)?;
    m.add_function(wrap_pyfunction!(qp::qp_result_from_state, m)?)?;
    m.add_class::<robot::PyRobot>()?;
    m.add_class::<robot::PyRobotDistances>()?;
    m.add_class::<robot::PyRobotBatch>()?;
    m.add_function(wrap_pyfunction!(robot::robot_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(robot::robot_distances_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(robot::robot_batch_from_state, m)?)?;
    m.add("LCP_METHODS", proxima_lcp::registry::REGISTRY.iter().map(|s| s.name()).collect::<Vec<_>>())?;
    m.add("ALGORITHMS", settings::ALGORITHMS.iter().map(|a| a.as_str()).collect::<Vec<_>>())?;
    Ok(())
}
