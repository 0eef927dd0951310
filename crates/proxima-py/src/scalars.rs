//! Numbers of LCP and QP data: float64 arrays for the float solvers; for `exact=True`, exact
//! rationals read from anything a user holds exactly — `fractions.Fraction`, `int`, strings
//! such as `"11/30"` or `"0.1"` (parsed exactly by [`Rational::parse`]), and floats (their
//! exact binary value) — in nested lists or numpy arrays (object, integer or float dtype),
//! and scipy.sparse matrices (float entries). Exact answers come back as `Fraction`s.

use num_bigint::BigInt;
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use proxima_lcp::Rational;
use proxima_lcp::io::CooMatrix;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};

use crate::arrays;
use crate::errors::{invalid, lcp};

/// One exact number (see the module docs).
pub fn rational(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Rational> {
    let bad = |why: &str| invalid(format!("{what}: {why}"));
    if obj.is_instance_of::<PyBool>() {
        return Err(bad("expected a number, got a bool"));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Rational::parse(&s.to_cow()?).map_err(|e| bad(&e.to_string()));
    }
    if obj.is_instance_of::<PyInt>() {
        let n: BigInt = obj.extract()?;
        return Ok(Rational::from_big_rational(n.into()));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let v = f.value();
        return Rational::from_f64_exact(v).ok_or_else(|| bad(&format!("must be finite, got {v}")));
    }
    // fractions.Fraction, numpy integers and floats, anything with integer numerator and
    // denominator (Python's numbers.Rational protocol).
    if let (Ok(n), Ok(d)) = (obj.getattr("numerator"), obj.getattr("denominator")) {
        let (n, d): (BigInt, BigInt) = (
            n.extract().map_err(|_| bad("numerator is not an integer"))?,
            d.extract().map_err(|_| bad("denominator is not an integer"))?,
        );
        return Rational::from_bigints(n, d).ok_or_else(|| bad("zero denominator"));
    }
    if let Ok(v) = obj.extract::<f64>() {
        return Rational::from_f64_exact(v).ok_or_else(|| bad(&format!("must be finite, got {v}")));
    }
    Err(bad(&format!("expected a number (Fraction, int, float or str), got {}", obj.get_type().name()?)))
}

/// `fractions.Fraction(value)`.
pub fn fraction<'py>(py: Python<'py>, value: &Rational) -> PyResult<Bound<'py, PyAny>> {
    static FRACTION: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let class = FRACTION
        .get_or_try_init(py, || Ok::<_, PyErr>(py.import("fractions")?.getattr("Fraction")?.unbind()))?;
    class.bind(py).call1((value.numer().clone(), value.denom().clone()))
}

/// A list of `Fraction`s.
pub fn fractions<'py>(py: Python<'py>, values: &[Rational]) -> PyResult<Bound<'py, PyList>> {
    let items: PyResult<Vec<Bound<'py, PyAny>>> = values.iter().map(|v| fraction(py, v)).collect();
    PyList::new(py, items?)
}

/// A scipy.sparse matrix (anything with `tocoo`) as coordinates, duplicates summed.
fn sparse_coo(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Option<CooMatrix<f64>>> {
    if !obj.hasattr("tocoo")? {
        return Ok(None);
    }
    let kw = PyDict::new(obj.py());
    kw.set_item("copy", true)?;
    let coo = obj.call_method("tocoo", (), Some(&kw))?;
    coo.call_method0("sum_duplicates")?;
    let (nrows, ncols): (usize, usize) = coo.getattr("shape")?.extract()?;
    let rows = arrays::vector(&coo.getattr("row")?, None, what)?;
    let cols = arrays::vector(&coo.getattr("col")?, None, what)?;
    let data = arrays::vector(&coo.getattr("data")?, None, what)?;
    let entries =
        rows.iter().zip(&cols).zip(&data).map(|((i, j), v)| (*i as usize, *j as usize, *v)).collect();
    CooMatrix::new(nrows, ncols, entries).map(Some).map_err(|e| lcp(format!("{what}: {e}")))
}

/// A float matrix (dense numpy / anything array-like, or scipy.sparse) in coordinate form.
pub fn float_matrix(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<CooMatrix<f64>> {
    if let Some(coo) = sparse_coo(obj, what)? {
        return Ok(coo);
    }
    let (rows, cols, data) = arrays::matrix(obj, None, what)?;
    // Every entry that is not exactly 0 — NaN and ±∞ included, for the solver's own check to
    // reject (`CooMatrix::from_dense` drops NaN: `Field::is_zero` holds for it).
    let entries = data
        .iter()
        .enumerate()
        .filter(|(_, v)| **v != 0.0)
        .map(|(k, v)| (k / cols.max(1), k % cols.max(1), *v))
        .collect();
    CooMatrix::new(rows, cols, entries).map_err(|e| lcp(format!("{what}: {e}")))
}

/// An exact matrix, row-major, with its shape.
pub fn rational_matrix(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<(usize, usize, Vec<Rational>)> {
    if let Some(coo) = sparse_coo(obj, what)? {
        let (n, m) = (coo.nrows(), coo.ncols());
        let mut dense =
            vec![Rational::default(); n.checked_mul(m).ok_or_else(|| invalid(format!("{what}: too large")))?];
        for (i, j, v) in coo.entries() {
            dense[i * m + j] = exact_float(*v, what)?;
        }
        return Ok((n, m, dense));
    }
    let rows = nested(obj, what)?;
    let n = rows.len();
    let mut out = Vec::new();
    let mut m = None;
    for (i, row) in rows.iter().enumerate() {
        let row = nested(row, &format!("{what}[{i}]"))?;
        if *m.get_or_insert(row.len()) != row.len() {
            return Err(invalid(format!(
                "{what}: rows of different lengths (row 0 has {}, row {i} has {})",
                m.unwrap_or(0),
                row.len()
            )));
        }
        for (j, x) in row.iter().enumerate() {
            out.push(rational(x, &format!("{what}[{i}][{j}]"))?);
        }
    }
    Ok((n, m.unwrap_or(0), out))
}

/// An exact vector.
pub fn rational_vector(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Rational>> {
    nested(obj, what)?.iter().enumerate().map(|(i, x)| rational(x, &format!("{what}[{i}]"))).collect()
}

fn exact_float(v: f64, what: &str) -> PyResult<Rational> {
    Rational::from_f64_exact(v).ok_or_else(|| lcp(format!("non-finite value (NaN or infinity) in {what}")))
}

/// The items of a sequence (a numpy array's rows or elements, a list, a tuple). A float array
/// is read as Python floats (exact binary values); object and string arrays item by item.
fn nested<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        if array.ndim() == 0 {
            return Err(invalid(format!("{what}: expected a sequence, got a 0-d array")));
        }
        let kind = array.dtype().kind();
        if !matches!(kind, b'f' | b'i' | b'u' | b'O' | b'U') {
            return Err(invalid(format!(
                "{what}: expected numbers, got an array of dtype {}",
                array.dtype()
            )));
        }
        let list = obj.call_method0("tolist")?;
        return list.try_iter()?.collect::<PyResult<Vec<_>>>();
    }
    if obj.is_instance_of::<PyString>() {
        return Err(invalid(format!("{what}: expected a sequence of numbers, got a string")));
    }
    match obj.try_iter() {
        Ok(items) => items.collect(),
        Err(_) => {
            Err(invalid(format!("{what}: expected a sequence of numbers, got {}", obj.get_type().name()?)))
        }
    }
}
