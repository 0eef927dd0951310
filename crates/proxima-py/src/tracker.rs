//! `proxima.Tracker(a, b, **settings)`: one pair followed along a trajectory, each
//! `distance(Ta, Tb)` warm-started from the previous one ([`proxima_geom::distance_tracked`]
//! with one [`GjkCache`]). The answer is certified exactly as a cold query's; only the work
//! changes. `reset()` starts cold (call it when the trajectory jumps).
//!
//! A tracker pickles as its shapes and settings; the unpickled copy starts cold (the warm
//! start is a speed-up, not part of the answer) and compares equal to the original.

use proxima_geom::{GjkCache, QuerySettings};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::arrays;
use crate::errors::{geom, guard};
use crate::query::{PyDistanceResult, complete};
use crate::settings::{CallSettings, from_kwargs, to_kwargs};
use crate::shapes::PyShape;

/// `proxima.Tracker`.
#[pyclass(module = "proxima", name = "Tracker")]
pub struct PyTracker {
    a: Py<PyShape>,
    b: Py<PyShape>,
    settings: QuerySettings,
    cache: GjkCache,
    queries: u64,
}

#[pymethods]
impl PyTracker {
    #[new]
    #[pyo3(signature = (a, b, **settings))]
    fn new(a: Py<PyShape>, b: Py<PyShape>, settings: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let settings = match CallSettings::new(settings)? {
            CallSettings::Default => QuerySettings::default(),
            CallSettings::Given(s) => s,
        };
        Ok(PyTracker { a, b, settings, cache: GjkCache::default(), queries: 0 })
    }

    /// The distance at poses `Ta`, `Tb` (4×4), warm-started from the previous call.
    #[allow(non_snake_case)]
    fn distance(&mut self, Ta: &Bound<'_, PyAny>, Tb: &Bound<'_, PyAny>) -> PyResult<PyDistanceResult> {
        let (pa, pb) = (arrays::pose(Ta, "Ta")?, arrays::pose(Tb, "Tb")?);
        let (a, b) = (&self.a.get().shape, &self.b.get().shape);
        let (settings, cache) = (&self.settings, &mut self.cache);
        let answer = guard(|| {
            let r = proxima_geom::distance_tracked(a, &pa, b, &pb, settings, cache).map_err(geom)?;
            complete(r, a, &pa, b, &pb, settings).map_err(geom)
        })?;
        self.queries += 1;
        Ok(answer.into())
    }

    /// Forgets the warm start: the next call starts cold.
    fn reset(&mut self) {
        self.cache.reset();
    }

    /// The first shape.
    #[getter]
    fn a(&self, py: Python<'_>) -> Py<PyShape> {
        self.a.clone_ref(py)
    }

    /// The second shape.
    #[getter]
    fn b(&self, py: Python<'_>) -> Py<PyShape> {
        self.b.clone_ref(py)
    }

    /// Queries answered since construction.
    #[getter]
    fn queries(&self) -> u64 {
        self.queries
    }

    /// The query settings, as the keyword arguments that rebuild them.
    #[getter]
    fn settings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        to_kwargs(py, &self.settings)
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(o) = other.cast::<PyTracker>() else { return Ok(false) };
        let o = o.try_borrow()?;
        Ok(self.settings == o.settings
            && self.a.bind(py).eq(o.a.bind(py))?
            && self.b.bind(py).eq(o.b.bind(py))?)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Tracker({}, {})", self.a.bind(py).repr()?, self.b.bind(py).repr()?))
    }

    /// Pickles as its shapes and settings (rebuilt cold by `proxima._proxima._tracker`).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("proxima._proxima")?.getattr("_tracker")?;
        let args = (self.a.clone_ref(py), self.b.clone_ref(py), to_kwargs(py, &self.settings)?);
        Ok((rebuild, args.into_pyobject(py)?))
    }
}

/// Rebuilds a pickled `Tracker` (not for direct use).
#[pyfunction]
#[pyo3(name = "_tracker")]
pub fn tracker_from_state(
    a: Py<PyShape>,
    b: Py<PyShape>,
    settings: &Bound<'_, PyDict>,
) -> PyResult<PyTracker> {
    Ok(PyTracker { a, b, settings: from_kwargs(settings)?, cache: GjkCache::default(), queries: 0 })
}
