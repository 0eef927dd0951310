//! Query settings as keyword arguments: `algorithm`, `arithmetic`, `gap_tolerance`,
//! `touching_tolerance`, `penetration_depth`, `gjk_max_iterations`, `epa_max_iterations`,
//! `gjk_tolerance`, `gjk_acceleration` map to the fields of [`QuerySettings`] (names through the library's
//! `as_str`), and the result is checked by [`QuerySettings::validate`] — never re-checked here.
//! An unknown keyword is a `TypeError`, as for any Python function.

use std::sync::LazyLock;

use proxima_geom::{Acceleration, Algorithm, Arithmetic, QuerySettings};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString};

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
pub const KEYWORDS: [&str; 9] = [
    "algorithm",
    "arithmetic",
    "gap_tolerance",
    "touching_tolerance",
    "penetration_depth",
    "gjk_max_iterations",
    "epa_max_iterations",
    "gjk_tolerance",
    "gjk_acceleration",
];

/// The keyword names as a table matched by identity first (see [`Names`]).
pub static SETTING_NAMES: Names<9> = Names::new(KEYWORDS);

/// A table of keyword names. A key is matched by identity with the table's interned Python
/// strings first — the keywords written at a call site are interned strings, so this is one
/// pointer comparison per name — and by value otherwise, through the string's cached hash (an
/// equality test only where the hashes agree): no text is decoded either way.
pub struct Names<const N: usize> {
    names: [&'static str; N],
    interned: PyOnceLock<[(Py<PyString>, isize); N]>,
}

impl<const N: usize> Names<N> {
    /// The table of `names`.
    pub const fn new(names: [&'static str; N]) -> Self {
        Names { names, interned: PyOnceLock::new() }
    }

    /// The names.
    pub fn names(&self) -> &[&'static str; N] {
        &self.names
    }

    /// The index of `key` in the table, `None` when it is not there.
    pub fn find(&self, key: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        let py = key.py();
        // (Hashing a str cannot fail; −1, which CPython never returns as a hash, would only
        // disable the by-value match of that name.)
        let interned = self.interned.get_or_init(py, || {
            self.names.map(|name| {
                let s = PyString::intern(py, name);
                let hash = s.hash().unwrap_or(-1);
                (s.unbind(), hash)
            })
        });
        if let Some(i) = interned.iter().position(|(s, _)| s.as_ptr() == key.as_ptr()) {
            return Ok(Some(i));
        }
        let hash = key.hash()?;
        for (i, (s, h)) in interned.iter().enumerate() {
            if *h == hash && key.eq(s.bind(py))? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }
}

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
        let value = &value;
        match SETTING_NAMES.find(&key)?.map(|i| KEYWORDS[i]) {
            Some(k @ "algorithm") => s.algorithm = choose(value, k, &ALGORITHMS.map(|a| (a, a.as_str())))?,
            Some(k @ "arithmetic") => s.arithmetic = choose(value, k, &ARITHMETICS)?,
            Some(k @ "gap_tolerance") => s.gap_tolerance = number(value, k)?,
            Some(k @ "touching_tolerance") => s.touching_tolerance = number(value, k)?,
            Some(k @ "penetration_depth") => {
                s.penetration_depth = value.extract().map_err(|_| invalid(format!("{k}: must be a bool")))?
            }
            Some(k @ "gjk_max_iterations") => {
                s.gjk.max_iterations = value
                    .extract()
                    .map_err(|_| invalid(format!("{k}: must be an integer in 1..=4294967295")))?
            }
            Some(k @ "epa_max_iterations") => {
                s.gjk.epa_max_iterations = value
                    .extract()
                    .map_err(|_| invalid(format!("{k}: must be an integer in 1..=4294967295")))?
            }
            Some(k @ "gjk_tolerance") => s.gjk.tolerance = number(value, k)?,
            Some(k @ "gjk_acceleration") => {
                s.gjk.acceleration = choose(value, k, &ACCELERATIONS.map(|a| (a, a.as_str())))?
            }
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "unexpected keyword argument {:?}; query settings are {}",
                    key.str()?.to_cow()?,
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
    d.set_item("epa_max_iterations", s.gjk.epa_max_iterations)?;
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
