//! `solve_qp(H, c, A=None, b=None, A_eq=None, b_eq=None, *, free=None, constant=0,
//! exact=False, max_iter=None)`:
//!
//! ```text
//! minimize ½ xᵀH x + cᵀx + constant   subject to   A x ≥ b,  A_eq x = b_eq,  x_i ≥ 0 (i not free)
//! ```
//!
//! through [`proxima_lcp::solve_qp`] (Lemke on the KKT system; reference: Eberly, *Convex
//! Quadratic Programming*). As in the library, **variables are non-negative unless listed in
//! `free`** (`free=True` frees all of them); the block of H of the free variables must be
//! positive definite, and H positive semidefinite (the caller's promise, as in the library).
//! An LP is H = 0 (then no variable can be free: split x = x⁺ − x⁻).
//!
//! The result: `x`, `objective`, `status` ([`QpStatus::as_str`](proxima_lcp::QpStatus):
//! `solved`, `infeasible`, `unbounded`, `max_iterations`, `numerical_failure`), the KKT
//! multipliers (`multipliers_bounds` μ ≥ 0, `multipliers_inequalities` y ≥ 0,
//! `multipliers_equalities` λ), and the underlying LCP's status, pivots and residual.
//! `exact=True` solves in rational arithmetic and adds `x_exact` / `objective_exact` as
//! `Fraction`s. Shapes are checked here (H n×n with n = len(c), A m×n with m = len(b), A_eq
//! p×n with p = len(b_eq)); values by the library. The GIL is released while Lemke runs.

use numpy::PyArray1;
use proxima_lcp::{ConvexQp, Field, LemkeSettings, QpSettings, QpSolution, Rational};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyList, PyTuple};

use crate::arrays;
use crate::errors::{catch, invalid, lcp};
use crate::lcp::{pivot_limit, readonly_array, same_floats};
use crate::scalars::{fraction, rational, rational_matrix, rational_vector};

/// A matrix with its shape, row-major.
type Matrix<T> = (usize, usize, Vec<T>);

/// The problem data in one scalar type.
struct QpData<T> {
    h: Matrix<T>,
    c: Vec<T>,
    constant: T,
    inequalities: Option<(Matrix<T>, Vec<T>)>,
    equalities: Option<(Matrix<T>, Vec<T>)>,
    free: Vec<usize>,
}

fn shape_error(what: &str, expected: String, rows: usize, cols: usize) -> PyErr {
    invalid(format!("{what}: expected shape {expected}, got ({rows}, {cols})"))
}

impl<T: Field> QpData<T> {
    /// Checks the shapes and builds the library's problem (which checks the values).
    fn build(self) -> PyResult<ConvexQp<T>> {
        let n = self.c.len();
        let (hr, hc, h) = self.h;
        if (hr, hc) != (n, n) {
            return Err(shape_error("H", format!("({n}, {n}) for len(c) = {n}"), hr, hc));
        }
        let mut qp = ConvexQp::new(h, self.c, self.constant).map_err(lcp)?;
        if let Some(((r, cols, a), b)) = self.inequalities {
            if (r, cols) != (b.len(), n) {
                return Err(shape_error(
                    "A",
                    format!("({}, {n}) for len(b) = {}", b.len(), b.len()),
                    r,
                    cols,
                ));
            }
            qp = qp.with_inequalities(a, b).map_err(lcp)?;
        }
        if let Some(((r, cols, a), b)) = self.equalities {
            if (r, cols) != (b.len(), n) {
                return Err(shape_error(
                    "A_eq",
                    format!("({}, {n}) for len(b_eq) = {}", b.len(), b.len()),
                    r,
                    cols,
                ));
            }
            qp = qp.with_equalities(a, b).map_err(lcp)?;
        }
        if !self.free.is_empty() {
            qp = qp.with_free(self.free).map_err(lcp)?;
        }
        Ok(qp)
    }
}

/// The `free` argument: None/False (none), True (all), or indices.
fn free_indices(free: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<Vec<usize>> {
    let Some(free) = free else { return Ok(Vec::new()) };
    if let Ok(all) = free.cast::<PyBool>() {
        return Ok(if all.is_true() { (0..n).collect() } else { Vec::new() });
    }
    let values = arrays::vector(free, None, "free")?;
    values
        .iter()
        .map(|&v| {
            if v >= 0.0 && v.fract() == 0.0 && v < 9_007_199_254_740_992.0 {
                Ok(v as usize)
            } else {
                Err(invalid(format!("free: must hold variable indices (integers >= 0), got {v}")))
            }
        })
        .collect()
}

/// A pair of optional arguments that come together (A with b, A_eq with b_eq).
fn pair<'a, 'py>(
    a: Option<&'a Bound<'py, PyAny>>,
    b: Option<&'a Bound<'py, PyAny>>,
    names: (&str, &str),
) -> PyResult<Option<(&'a Bound<'py, PyAny>, &'a Bound<'py, PyAny>)>> {
    match (a, b) {
        (Some(a), Some(b)) => Ok(Some((a, b))),
        (None, None) => Ok(None),
        _ => Err(invalid(format!("{} and {} must be given together", names.0, names.1))),
    }
}

/// `proxima.QpResult`.
#[pyclass(frozen, module = "proxima", name = "QpResult")]
pub struct PyQpResult {
    x: Vec<f64>,
    x_array: Py<PyArray1<f64>>,
    objective: f64,
    status: String,
    multipliers: [Py<PyArray1<f64>>; 3],
    multiplier_values: [Vec<f64>; 3],
    lcp_status: String,
    pivots: usize,
    residual: f64,
    path: String,
    exact: Option<(Vec<Rational>, Rational)>,
}

fn floats<T: Field>(v: &[T]) -> Vec<f64> {
    v.iter().map(Field::to_f64).collect()
}

impl PyQpResult {
    fn new<T: Field>(
        py: Python<'_>,
        sol: &QpSolution<T>,
        exact: Option<(Vec<Rational>, Rational)>,
    ) -> PyResult<Self> {
        let x = floats(&sol.x);
        let m = &sol.multipliers;
        let values = [floats(&m.bounds), floats(&m.inequalities), floats(&m.equalities)];
        Ok(PyQpResult {
            x_array: readonly_array(py, &x)?,
            x,
            objective: sol.objective.to_f64(),
            status: sol.status.as_str().to_string(),
            multipliers: [
                readonly_array(py, &values[0])?,
                readonly_array(py, &values[1])?,
                readonly_array(py, &values[2])?,
            ],
            multiplier_values: values,
            lcp_status: sol.lcp.status.as_str().to_string(),
            pivots: sol.lcp.pivots,
            residual: sol.lcp.residual.min_map_inf.to_f64(),
            path: sol.lcp.path.to_string(),
            exact,
        })
    }
}

#[pymethods]
impl PyQpResult {
    /// The minimizer x (n,) (meaningful when status is "solved").
    #[getter]
    fn x(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.x_array.clone_ref(py)
    }

    /// ½xᵀHx + cᵀx + constant at x.
    #[getter]
    fn objective(&self) -> f64 {
        self.objective
    }

    /// `"solved"`, `"infeasible"`, `"unbounded"`, `"max_iterations"` or `"numerical_failure"`.
    #[getter]
    fn status(&self) -> &str {
        &self.status
    }

    /// μ ≥ 0 of the bounds x ≥ 0 (0 for free variables), (n,).
    #[getter]
    fn multipliers_bounds(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.multipliers[0].clone_ref(py)
    }

    /// y ≥ 0 of A x ≥ b, (m,).
    #[getter]
    fn multipliers_inequalities(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.multipliers[1].clone_ref(py)
    }

    /// λ of A_eq x = b_eq, (p,).
    #[getter]
    fn multipliers_equalities(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.multipliers[2].clone_ref(py)
    }

    /// The status of the LCP Lemke solved (`"solved"`, `"no_solution"`...).
    #[getter]
    fn lcp_status(&self) -> &str {
        &self.lcp_status
    }

    /// Lemke pivots.
    #[getter]
    fn iterations(&self) -> usize {
        self.pivots
    }

    /// ‖min(z, w)‖∞ of the LCP.
    #[getter]
    fn residual(&self) -> f64 {
        self.residual
    }

    /// The LCP solver's path.
    #[getter]
    fn path(&self) -> &str {
        &self.path
    }

    /// Whether the solve was exact.
    #[getter]
    fn exact(&self) -> bool {
        self.exact.is_some()
    }

    /// x as `Fraction`s (exact solves), else None.
    #[getter]
    fn x_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        self.exact.as_ref().map(|(x, _)| crate::scalars::fractions(py, x)).transpose()
    }

    /// The objective as a `Fraction` (exact solves), else None.
    #[getter]
    fn objective_exact<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.exact.as_ref().map(|(_, o)| fraction(py, o)).transpose()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let Ok(o) = other.cast::<PyQpResult>() else { return false };
        let o = o.get();
        same_floats(&self.x, &o.x)
            && same_floats(&[self.objective, self.residual], &[o.objective, o.residual])
            && self.multiplier_values.iter().zip(&o.multiplier_values).all(|(a, b)| same_floats(a, b))
            && (&self.status, &self.lcp_status, self.pivots, &self.path, &self.exact)
                == (&o.status, &o.lcp_status, o.pivots, &o.path, &o.exact)
    }

    fn __repr__(&self) -> String {
        format!("QpResult(status={:?}, objective={:?}, n={})", self.status, self.objective, self.x.len())
    }

    /// Pickles as its fields, rebuilt by `proxima._proxima._qp_result`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("proxima._proxima")?.getattr("_qp_result")?;
        let exact = match &self.exact {
            Some((x, o)) => Some((crate::scalars::fractions(py, x)?, fraction(py, o)?)),
            None => None,
        };
        let state = (
            self.x.clone(),
            self.objective,
            (&self.status, &self.lcp_status, self.pivots, &self.path, self.residual),
            self.multiplier_values.clone(),
            exact,
        );
        Ok((rebuild, (state,).into_pyobject(py)?))
    }
}

/// Rebuilds a pickled `QpResult` (not for direct use).
#[pyfunction]
#[pyo3(name = "_qp_result")]
#[allow(clippy::type_complexity)]
pub fn qp_result_from_state<'py>(
    py: Python<'py>,
    state: (
        Vec<f64>,
        f64,
        (String, String, usize, String, f64),
        [Vec<f64>; 3],
        Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>,
    ),
) -> PyResult<PyQpResult> {
    let (x, objective, (status, lcp_status, pivots, path, residual), values, exact) = state;
    let exact = match exact {
        Some((x, o)) => Some((rational_vector(&x, "x_exact")?, rational(&o, "objective_exact")?)),
        None => None,
    };
    Ok(PyQpResult {
        x_array: readonly_array(py, &x)?,
        x,
        objective,
        status,
        multipliers: [
            readonly_array(py, &values[0])?,
            readonly_array(py, &values[1])?,
            readonly_array(py, &values[2])?,
        ],
        multiplier_values: values,
        lcp_status,
        pivots,
        residual,
        path,
        exact,
    })
}

fn solve<T: Field + Send + Sync>(
    py: Python<'_>,
    data: QpData<T>,
    max_iter: Option<usize>,
) -> PyResult<(ConvexQp<T>, QpSolution<T>)> {
    let qp = data.build()?;
    let settings = QpSettings { lemke: LemkeSettings { max_pivots: max_iter, ..LemkeSettings::default() } };
    let sol = py.detach(|| catch(|| proxima_lcp::solve_qp(&qp, &settings)))?.map_err(lcp)?;
    Ok((qp, sol))
}

/// Solves the convex QP of the module docstring.
#[pyfunction]
#[pyo3(signature = (H, c, A=None, b=None, A_eq=None, b_eq=None, *, free=None, constant=None, exact=false, max_iter=None))]
#[allow(non_snake_case)]
pub fn solve_qp(
    py: Python<'_>,
    H: &Bound<'_, PyAny>,
    c: &Bound<'_, PyAny>,
    A: Option<&Bound<'_, PyAny>>,
    b: Option<&Bound<'_, PyAny>>,
    A_eq: Option<&Bound<'_, PyAny>>,
    b_eq: Option<&Bound<'_, PyAny>>,
    free: Option<&Bound<'_, PyAny>>,
    constant: Option<&Bound<'_, PyAny>>,
    exact: bool,
    max_iter: Option<i64>,
) -> PyResult<PyQpResult> {
    let max_iter = pivot_limit(max_iter)?;
    let inequalities = pair(A, b, ("A", "b"))?;
    let equalities = pair(A_eq, b_eq, ("A_eq", "b_eq"))?;
    if exact {
        let c = rational_vector(c, "c")?;
        let free = free_indices(free, c.len())?;
        let data = QpData {
            h: rational_matrix(H, "H")?,
            constant: constant.map(|k| rational(k, "constant")).transpose()?.unwrap_or_default(),
            inequalities: inequalities
                .map(|(a, b)| Ok::<_, PyErr>((rational_matrix(a, "A")?, rational_vector(b, "b")?)))
                .transpose()?,
            equalities: equalities
                .map(|(a, b)| Ok::<_, PyErr>((rational_matrix(a, "A_eq")?, rational_vector(b, "b_eq")?)))
                .transpose()?,
            free,
            c,
        };
        let (_, sol) = solve(py, data, max_iter)?;
        let exact = Some((sol.x.clone(), sol.objective.clone()));
        return PyQpResult::new(py, &sol, exact);
    }
    let c = arrays::vector(c, None, "c")?;
    let free = free_indices(free, c.len())?;
    let constant = match constant {
        Some(k) => k.extract::<f64>().map_err(|_| invalid("constant: must be a number"))?,
        None => 0.0,
    };
    let data = QpData {
        h: arrays::matrix(H, None, "H")?,
        constant,
        inequalities: inequalities
            .map(|(a, b)| Ok::<_, PyErr>((arrays::matrix(a, None, "A")?, arrays::vector(b, None, "b")?)))
            .transpose()?,
        equalities: equalities
            .map(|(a, b)| {
                Ok::<_, PyErr>((arrays::matrix(a, None, "A_eq")?, arrays::vector(b, None, "b_eq")?))
            })
            .transpose()?,
        free,
        c,
    };
    let (_, sol) = solve(py, data, max_iter)?;
    PyQpResult::new(py, &sol, None)
}
