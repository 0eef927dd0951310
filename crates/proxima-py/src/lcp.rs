//! `solve_lcp(M, q, method="lemke", exact=False, tol=1e-9, max_iter=None)`: find z ≥ 0 with
//! w = M z + q ≥ 0 and zᵀw = 0.
//!
//! `method` is any name of [`proxima_lcp::registry`] — the names of `proxima solve --method`:
//! `lemke`, `baraff`, `minmap-newton`, `fischer-newton`, `jacobi`, `pgs`, `psor` — run in f64 on
//! M given dense (numpy, lists) or sparse (scipy.sparse, kept sparse for the iterative
//! methods). `exact=True` (only with `lemke`) solves in exact rational arithmetic (the
//! generic Lemke on [`Rational`]): data read exactly (see [`crate::scalars`]), the answer also
//! as `Fraction`s in `z_exact` / `w_exact`, residuals exactly zero at a solution.
//!
//! The result's `status` is the registry's coarse outcome (`converged`, `max_iter`, `failed`,
//! `no_solution`), `info` the solver's own status name; `w` and the residuals are recomputed
//! from M and q (never taken from the solver): `residual` = ‖min(z, w)‖∞, `complementarity`
//! = |zᵀw|, `min_z`, `min_w`. A non-converged run is a status, not an exception; bad input
//! (sizes, NaN/∞, non-square M, settings) raises `LcpError`. The GIL is released while the
//! solver runs.

use numpy::PyArray1;
use proxima_lcp::io::CooMatrix;
use proxima_lcp::registry::{self, SolverSettings, SolverStatus};
use proxima_lcp::{Lcp, LcpError as RustLcpError, LemkeSettings, Rational, solve_lemke};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::arrays;
use crate::errors::{catch, invalid, lcp};
use crate::scalars::{float_matrix, fractions, rational_matrix, rational_vector};

/// ‖min(z, w)‖∞, |zᵀw|, min z, min w (the definitions of [`proxima_lcp::LcpResidual`]).
pub fn residuals(z: &[f64], w: &[f64]) -> [f64; 4] {
    let mut out = [0.0, 0.0, f64::INFINITY, f64::INFINITY];
    let mut dot = 0.0;
    for (zi, wi) in z.iter().zip(w) {
        out[0] = f64::max(out[0], zi.min(*wi).abs());
        dot += zi * wi;
        out[2] = out[2].min(*zi);
        out[3] = out[3].min(*wi);
    }
    out[1] = f64::abs(dot);
    if z.is_empty() {
        out[2] = 0.0;
        out[3] = 0.0;
    }
    out
}

/// w = M z + q from M's coordinates.
fn w_of(m: &CooMatrix<f64>, q: &[f64], z: &[f64]) -> Vec<f64> {
    let mut w = q.to_vec();
    for &(i, j, v) in m.entries() {
        w[i] += v * z[j];
    }
    w
}

/// A read-only float64 array.
pub fn readonly_array(py: Python<'_>, v: &[f64]) -> PyResult<Py<PyArray1<f64>>> {
    Ok(arrays::read_only(PyArray1::from_slice(py, v))?.unbind())
}

/// Bitwise equality of float slices.
pub fn same_floats(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// `proxima.LcpResult`.
#[pyclass(frozen, module = "proxima", name = "LcpResult")]
pub struct PyLcpResult {
    z: Vec<f64>,
    w: Vec<f64>,
    z_array: Py<PyArray1<f64>>,
    w_array: Py<PyArray1<f64>>,
    status: String,
    info: Option<String>,
    iterations: Option<u64>,
    residual: [f64; 4],
    method: String,
    path: Option<String>,
    exact: Option<(Vec<Rational>, Vec<Rational>)>,
}

/// The plain parts of a result (what pickling carries).
struct LcpState {
    z: Vec<f64>,
    w: Vec<f64>,
    status: String,
    info: Option<String>,
    iterations: Option<u64>,
    residual: [f64; 4],
    method: String,
    path: Option<String>,
    exact: Option<(Vec<Rational>, Vec<Rational>)>,
}

impl PyLcpResult {
    fn new(py: Python<'_>, s: LcpState) -> PyResult<Self> {
        Ok(PyLcpResult {
            z_array: readonly_array(py, &s.z)?,
            w_array: readonly_array(py, &s.w)?,
            z: s.z,
            w: s.w,
            status: s.status,
            info: s.info,
            iterations: s.iterations,
            residual: s.residual,
            method: s.method,
            path: s.path,
            exact: s.exact,
        })
    }
}

#[pymethods]
impl PyLcpResult {
    /// z (n,), float64.
    #[getter]
    fn z(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.z_array.clone_ref(py)
    }

    /// w = M z + q (n,), recomputed from the data.
    #[getter]
    fn w(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.w_array.clone_ref(py)
    }

    /// `"converged"`, `"max_iter"`, `"failed"` or `"no_solution"`.
    #[getter]
    fn status(&self) -> &str {
        &self.status
    }

    /// The solver's own status name (`"solved"`, `"trivial"`, `"converged_absolute"`...).
    #[getter]
    fn info(&self) -> Option<&str> {
        self.info.as_deref()
    }

    /// Iterations or pivots.
    #[getter]
    fn iterations(&self) -> Option<u64> {
        self.iterations
    }

    /// ‖min(z, w)‖∞ (0 exactly at an exact solution).
    #[getter]
    fn residual(&self) -> f64 {
        self.residual[0]
    }

    /// |zᵀw|.
    #[getter]
    fn complementarity(&self) -> f64 {
        self.residual[1]
    }

    /// min z (negative = infeasible).
    #[getter]
    fn min_z(&self) -> f64 {
        self.residual[2]
    }

    /// min w (negative = infeasible).
    #[getter]
    fn min_w(&self) -> f64 {
        self.residual[3]
    }

    /// The method that ran.
    #[getter]
    fn method(&self) -> &str {
        &self.method
    }

    /// The algorithmic path (e.g. `"lemke"`, `"baraff(refactorizations=2)"`).
    #[getter]
    fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }

    /// Whether the solve was exact.
    #[getter]
    fn exact(&self) -> bool {
        self.exact.is_some()
    }

    /// z as `Fraction`s (exact solves), else None.
    #[getter]
    fn z_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        self.exact.as_ref().map(|(z, _)| fractions(py, z)).transpose()
    }

    /// w as `Fraction`s (exact solves), else None.
    #[getter]
    fn w_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        self.exact.as_ref().map(|(_, w)| fractions(py, w)).transpose()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let Ok(o) = other.cast::<PyLcpResult>() else { return false };
        let o = o.get();
        same_floats(&self.z, &o.z)
            && same_floats(&self.w, &o.w)
            && same_floats(&self.residual, &o.residual)
            && (&self.status, &self.info, self.iterations, &self.method, &self.path, &self.exact)
                == (&o.status, &o.info, o.iterations, &o.method, &o.path, &o.exact)
    }

    fn __repr__(&self) -> String {
        format!(
            "LcpResult(status={:?}, method={:?}, n={}, residual={:e}, iterations={})",
            self.status,
            self.method,
            self.z.len(),
            self.residual[0],
            self.iterations.map_or("None".to_string(), |k| k.to_string())
        )
    }

    /// Pickles as its fields, rebuilt by `proxima._proxima._lcp_result`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("proxima._proxima")?.getattr("_lcp_result")?;
        let exact = match &self.exact {
            Some((z, w)) => Some((fractions(py, z)?, fractions(py, w)?)),
            None => None,
        };
        let state = (
            self.z.clone(),
            self.w.clone(),
            (&self.status, &self.info, self.iterations, &self.method, &self.path),
            self.residual,
            exact,
        );
        Ok((rebuild, (state,).into_pyobject(py)?))
    }
}

type Exact<'py> = Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>;

/// Rebuilds a pickled `LcpResult` (not for direct use).
#[pyfunction]
#[pyo3(name = "_lcp_result")]
#[allow(clippy::type_complexity)]
pub fn lcp_result_from_state<'py>(
    py: Python<'py>,
    state: (
        Vec<f64>,
        Vec<f64>,
        (String, Option<String>, Option<u64>, String, Option<String>),
        [f64; 4],
        Exact<'py>,
    ),
) -> PyResult<PyLcpResult> {
    let (z, w, (status, info, iterations, method, path), residual, exact) = state;
    let exact = match exact {
        Some((z, w)) => Some((rational_vector(&z, "z_exact")?, rational_vector(&w, "w_exact")?)),
        None => None,
    };
    PyLcpResult::new(py, LcpState { z, w, status, info, iterations, residual, method, path, exact })
}

/// Solves LCP(M, q): z ≥ 0, w = M z + q ≥ 0, zᵀw = 0. See the module docstring for the
/// methods, `exact`, and the result.
#[pyfunction]
#[pyo3(signature = (M, q, method="lemke", exact=false, tol=1e-9, max_iter=None))]
#[allow(non_snake_case)]
pub fn solve_lcp(
    py: Python<'_>,
    M: &Bound<'_, PyAny>,
    q: &Bound<'_, PyAny>,
    method: &str,
    exact: bool,
    tol: f64,
    max_iter: Option<i64>,
) -> PyResult<PyLcpResult> {
    let max_iter = pivot_limit(max_iter)?;
    if exact {
        if method != "lemke" {
            return Err(invalid(format!(
                "exact=True needs method=\"lemke\" (method {method:?} runs in f64)"
            )));
        }
        return solve_exact(py, M, q, max_iter);
    }
    let solver = registry::find(method).ok_or_else(|| {
        invalid(format!("method: unknown method {method:?}; known methods: {}", registry::known_described()))
    })?;
    let settings = SolverSettings::default().with_tol(tol).with_max_iter(max_iter);
    settings.validate().map_err(lcp)?;
    let m = float_matrix(M, "M")?;
    let q = arrays::vector(q, None, "q")?;
    // Some registry solvers do not compare len(q) with M (an empty q passes `baraff`, `psor`):
    // the library's own error, raised here so that w = Mz + q is always defined.
    if m.nrows() == m.ncols() && q.len() != m.nrows() {
        return Err(lcp(RustLcpError::DimensionMismatch { what: "q", expected: m.nrows(), found: q.len() }));
    }
    let outcome = py.detach(|| {
        catch(|| -> Result<_, RustLcpError> {
            let out = solver.prepare(&m, &q, &settings)?.solve();
            let fits = out.z.len() == q.len() && (m.nrows(), m.ncols()) == (q.len(), q.len());
            let w = if fits { w_of(&m, &q, &out.z) } else { Vec::new() };
            Ok((out, w))
        })
    })?;
    let (out, w) = outcome.map_err(lcp)?;
    if let Some(e) = out.error {
        return Err(lcp(e));
    }
    let residual = residuals(&out.z, &w);
    PyLcpResult::new(
        py,
        LcpState {
            z: out.z,
            w,
            status: out.status.as_str().to_string(),
            info: out.info,
            iterations: out.iterations,
            residual,
            method: method.to_string(),
            path: out.path,
            exact: None,
        },
    )
}

/// A `max_iter` argument: None or ≥ 1.
pub fn pivot_limit(max_iter: Option<i64>) -> PyResult<Option<usize>> {
    match max_iter {
        None => Ok(None),
        Some(k) if k >= 1 => Ok(Some(usize::try_from(k).unwrap_or(usize::MAX))),
        Some(k) => {
            let e = RustLcpError::InvalidSettings { field: "max_iter", reason: "must be >= 1" };
            Err(lcp(format!("{e}, got {k}")))
        }
    }
}

fn solve_exact(
    py: Python<'_>,
    m: &Bound<'_, PyAny>,
    q: &Bound<'_, PyAny>,
    max_iter: Option<usize>,
) -> PyResult<PyLcpResult> {
    let (rows, cols, data) = rational_matrix(m, "M")?;
    if rows != cols {
        return Err(lcp(RustLcpError::NotSquare { rows, cols }));
    }
    let q = rational_vector(q, "q")?;
    let lcp_problem = Lcp::new(data, q).map_err(lcp)?;
    let settings = LemkeSettings { max_pivots: max_iter, ..LemkeSettings::default() };
    settings.validate(lcp_problem.n()).map_err(lcp)?;
    let sol = py.detach(|| catch(|| solve_lemke(&lcp_problem, &settings)))?.map_err(lcp)?;
    let to_f64 = |v: &[Rational]| v.iter().map(Rational::to_f64).collect::<Vec<_>>();
    let r = &sol.residual;
    PyLcpResult::new(
        py,
        LcpState {
            z: to_f64(&sol.z),
            w: to_f64(&sol.w),
            status: SolverStatus::from_lcp(sol.status).as_str().to_string(),
            info: Some(sol.status.as_str().to_string()),
            iterations: Some(sol.pivots as u64),
            residual: [
                r.min_map_inf.to_f64(),
                r.complementarity.to_f64(),
                r.min_z.to_f64(),
                r.min_w.to_f64(),
            ],
            method: "lemke".to_string(),
            path: Some(sol.path.to_string()),
            exact: Some((sol.z, sol.w)),
        },
    )
}
