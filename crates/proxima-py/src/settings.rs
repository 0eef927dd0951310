//! Query settings as keyword arguments: `algorithm`, `arithmetic`, `gap_tolerance`,
//! `touching_tolerance`, `penetration_depth`, `gjk_max_iterations`, `gjk_tolerance`,
//! `gjk_acceleration` map to the fields of [`QuerySettings`] (names through the library's
//! `as_str`), and the result is checked by [`QuerySettings::validate`] — never re-checked here.
//! An unknown keyword is a `TypeError`, as for any Python function.

use std::sync::LazyLock;

use proxima_geom::{Acceleration, Algorithm, Arithmetic, QuerySettings};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{geom, invalid};

/// Every algorithm a query can be asked for, by [`Algorithm::as_str`].
pub const ALGORITHMS: [Algorithm; 8] = [
    Algorithm::Auto,
    Algorithm::ClosedForm,
    Algorithm::Lcp,
    Algorithm::Lp,
    Algorithm::Sat,
    Algorithm::Gjk,
    Algorithm::Ellipsoid,
    Algorithm::Dqp3,
];

const ARITHMETICS: [(Arithmetic, &str); 3] =
    [(Arithmetic::Certified, "certified"), (Arithmetic::Float, "float"), (Arithmetic::Exact, "exact")];

const ACCELERATIONS: [Acceleration; 3] = [Acceleration::None, Acceleration::Nesterov, Acceleration::Polyak];

/// The keyword names, in the order of the module docs.
pub const KEYWORDS: [&str; 8] = [
    "algorithm",
    "arithmetic",
    "gap_tolerance",
    "touching_tolerance",
    "penetration_depth",
    "gjk_max_iterations",
    "gjk_tolerance",
    "gjk_acceleration",
];

/// The defaults, shared by every call without keywords.
pub static DEFAULT: LazyLock<QuerySettings> = LazyLock::new(QuerySettings::default);

/// The algorithm called `name`.
pub fn algorithm_named(name: &str) -> Option<Algorithm> {
    ALGORITHMS.into_iter().find(|a| a.as_str() == name)
}

fn choose<T: Copy>(value: &Bound<'_, PyAny>, key: &str, options: &[(T, &str)]) -> PyResult<T> {
    let name: String = value.extract().map_err(|_| invalid(format!("{key}: must be a string")))?;
    options.iter().find(|(_, n)| *n == name).map(|(v, _)| *v).ok_or_else(|| {
        let known: Vec<&str> = options.iter().map(|(_, n)| *n).collect();
        invalid(format!("{key}: unknown value {name:?}; expected one of {}", known.join(", ")))
    })
}

/// A float keyword value (a `ProximaError` naming `key` otherwise).
pub fn number(value: &Bound<'_, PyAny>, key: &str) -> PyResult<f64> {
    value.extract().map_err(|_| invalid(format!("{key}: must be a number")))
}

/// Settings from keyword arguments (defaults for the rest), validated by the library.
pub fn from_kwargs(kwargs: &Bound<'_, PyDict>) -> PyResult<QuerySettings> {
    let mut s = QuerySettings::default();
    for (key, value) in kwargs.iter() {
        let key: String = key.extract()?;
        match key.as_str() {
            "algorithm" => {
                let options: Vec<(Algorithm, &str)> = ALGORITHMS.iter().map(|a| (*a, a.as_str())).collect();
                s.algorithm = choose(&value, &key, &options)?;
            }
            "arithmetic" => s.arithmetic = choose(&value, &key, &ARITHMETICS)?,
            "gap_tolerance" => s.gap_tolerance = number(&value, &key)?,
            "touching_tolerance" => s.touching_tolerance = number(&value, &key)?,
            "penetration_depth" => {
                s.penetration_depth =
                    value.extract().map_err(|_| invalid(format!("{key}: must be a bool")))?
            }
            "gjk_max_iterations" => {
                s.gjk.max_iterations = value
                    .extract()
                    .map_err(|_| invalid(format!("{key}: must be an integer in 1..=4294967295")))?
            }
            "gjk_tolerance" => s.gjk.tolerance = number(&value, &key)?,
            "gjk_acceleration" => {
                let options: Vec<(Acceleration, &str)> =
                    ACCELERATIONS.iter().map(|a| (*a, a.as_str())).collect();
                s.gjk.acceleration = choose(&value, &key, &options)?;
            }
            other => {
                return Err(PyTypeError::new_err(format!(
                    "unexpected keyword argument {other:?}; query settings are {}",
                    KEYWORDS.join(", ")
                )));
            }
        }
    }
    s.validate().map_err(geom)?;
    Ok(s)
}

/// The keyword arguments that rebuild `s` (for pickling objects that hold settings).
pub fn to_kwargs<'py>(py: Python<'py>, s: &QuerySettings) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("algorithm", s.algorithm.as_str())?;
    let arithmetic = ARITHMETICS.iter().find(|(a, _)| *a == s.arithmetic).map_or("certified", |(_, n)| *n);
    d.set_item("arithmetic", arithmetic)?;
    d.set_item("gap_tolerance", s.gap_tolerance)?;
    d.set_item("touching_tolerance", s.touching_tolerance)?;
    d.set_item("penetration_depth", s.penetration_depth)?;
    d.set_item("gjk_max_iterations", s.gjk.max_iterations)?;
    d.set_item("gjk_tolerance", s.gjk.tolerance)?;
    d.set_item("gjk_acceleration", s.gjk.acceleration.as_str())?;
    Ok(d)
}

/// The settings of a call: the shared defaults without keywords, else parsed.
pub enum CallSettings {
    /// No keywords.
    Default,
    /// Parsed from keywords.
    Given(QuerySettings),
}

impl CallSettings {
    /// From the `**settings` of a call.
    pub fn new(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        match kwargs {
            Some(k) if !k.is_empty() => Ok(CallSettings::Given(from_kwargs(k)?)),
            _ => Ok(CallSettings::Default),
        }
    }

    /// The settings.
    pub fn get(&self) -> &QuerySettings {
        match self {
            CallSettings::Default => &DEFAULT,
            CallSettings::Given(s) => s,
        }
    }
}
