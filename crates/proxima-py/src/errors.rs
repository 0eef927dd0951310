//! Errors crossing into Python: one exception class per crate error, all subclasses of
//! `proxima.ProximaError` (itself a `ValueError`, since every one of them means bad input),
//! carrying the Rust message unchanged; and the guard that turns a panic into
//! `proxima.InternalError` instead of letting it cross the boundary.
//!
//! | Rust | Python |
//! |---|---|
//! | argument conversion (array shape, dtype, a name that is not an option) | `ProximaError` |
//! | `proxima_geom::GeomError` | `GeomError` |
//! | `proxima_lcp::LcpError`, `proxima_lcp::io::IoError` (a sparse matrix's entries) | `LcpError` |
//! | `proxima_robot::RobotError` (URDF, SRDF, meshes, joint limits) | `RobotError` |
//! | `proxima_scene::SceneError` (robot worlds: pairs, configuration length) | `SceneError` |
//! | `intersects` reaching no verdict (`Intersection::Undecided`) | `UndecidedError` (`RuntimeError`) |
//! | a panic (a bug) | `InternalError` (`RuntimeError`) |

use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::{PyErr, PyResult, create_exception};

create_exception!(
    proxima,
    ProximaError,
    PyValueError,
    "Bad input to a proxima call (a ValueError): the message is the library's, naming the field."
);
create_exception!(
    proxima,
    GeomError,
    ProximaError,
    "A shape, pose or query setting the geometry library rejected (proxima_geom::GeomError)."
);
create_exception!(
    proxima,
    LcpError,
    ProximaError,
    "An LCP or QP the solvers rejected: sizes, NaN/inf, settings (proxima_lcp::LcpError)."
);
create_exception!(
    proxima,
    RobotError,
    ProximaError,
    "A robot description, mesh or configuration the robot crate rejected (proxima_robot::RobotError)."
);
create_exception!(
    proxima,
    SceneError,
    ProximaError,
    "A robot world (pairs, SRDF links, configuration length) the scene crate rejected (proxima_scene::SceneError)."
);
create_exception!(
    proxima,
    UndecidedError,
    PyRuntimeError,
    "intersects() reached no verdict (an iteration limit with the exact fallback disabled)."
);
create_exception!(
    proxima,
    InternalError,
    PyRuntimeError,
    "A bug in proxima (a Rust panic, caught at the boundary); please report it with the input."
);

/// A conversion error of the binding itself (`ProximaError`).
pub fn invalid(message: impl Into<String>) -> PyErr {
    ProximaError::new_err(message.into())
}

/// `GeomError` with the library's message.
pub fn geom(e: proxima_geom::GeomError) -> PyErr {
    GeomError::new_err(e.to_string())
}

/// `GeomError` with the library's message, prefixed by the argument it came from.
pub fn geom_at(what: &str, e: proxima_geom::GeomError) -> PyErr {
    GeomError::new_err(format!("{what}: {e}"))
}

/// `RobotError` with the library's message.
pub fn robot(e: proxima_robot::RobotError) -> PyErr {
    RobotError::new_err(e.to_string())
}

/// `RobotError` when a robot was rejected, else `SceneError`, with the library's message.
pub fn scene(e: proxima_scene::SceneError) -> PyErr {
    match e {
        proxima_scene::SceneError::Robot { .. } => RobotError::new_err(e.to_string()),
        _ => SceneError::new_err(e.to_string()),
    }
}

/// `LcpError` with the library's message.
pub fn lcp(e: impl std::fmt::Display) -> PyErr {
    LcpError::new_err(e.to_string())
}

/// Runs `f`, turning a panic into `InternalError` with the panic's message. Every entry point
/// runs its Rust work through this (or [`catch`]) so that no panic reaches pyo3's own
/// handler (which would raise a `BaseException`).
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch(f).and_then(|r| r)
}

/// Runs `f` (no Python access inside), turning a panic into `InternalError`.
pub fn catch<T>(f: impl FnOnce() -> T) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        InternalError::new_err(format!("internal error (please report with the input): {message}"))
    })
}
