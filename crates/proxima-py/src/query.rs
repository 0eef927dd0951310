//! `distance`, `signed_distance`, `intersects` and the `DistanceResult` they return.
//!
//! A result carries the library's answer unchanged — the case (`status`), witness points, the
//! proven bracket `[lower, upper]` of the distance, the algorithm and its path — plus the
//! signed distance (negative = penetration depth) with its own bracket
//! `[signed_lower, signed_upper]`:
//!
//! * separated with a proven gap (lower > 0): the distance and its bracket;
//! * touching: 0, bracket [0, 0];
//! * otherwise (overlap, or a separation within round-off): the library's
//!   [`proxima_geom::signed_distance`], which measures the depth (EPA bracket or closed form).
//!
//! With `penetration_depth=False` the depth is not measured: an overlapping pair reports
//! `signed_distance` NaN with the bracket [−∞, 0] (true, if loose), and a separation within
//! round-off reports its distance with the bracket [−∞, upper].
//!
//! Single queries hold the GIL: they take microseconds, less than handing the interpreter to
//! another thread and back would be worth; `distance_batch` releases it.

use nalgebra::{Point3, Vector3};
use numpy::PyArray1;
use proxima_geom::{
    Algorithm, Certificate, DistanceResult, GeomError as RustGeomError, Intersection, Pose, Proximity,
    QueryPath, QuerySettings, Shape,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::arrays::{self, out3};
use crate::errors::{UndecidedError, geom, guard, invalid};
use crate::settings::{DEFAULT, Names, algorithm_named, from_kwargs};
use crate::shapes::PyShape;

/// A distance answer with its signed distance (plain Rust: batches build these off the GIL).
#[derive(Debug, Clone, Copy)]
pub struct Answer {
    /// The library's answer.
    pub result: DistanceResult,
    /// Signed distance (NaN when not measured).
    pub signed: f64,
    /// Lower end of the signed distance's bracket.
    pub signed_lower: f64,
    /// Upper end of the signed distance's bracket.
    pub signed_upper: f64,
}

impl Answer {
    fn from_signed(value: f64, bracket: Certificate, result: DistanceResult) -> Self {
        Answer { result, signed: value, signed_lower: bracket.lower, signed_upper: bracket.upper }
    }
}

/// The signed distance when it follows from the distance answer alone.
fn signed_of(r: &DistanceResult) -> Option<Answer> {
    match r.proximity {
        Proximity::Separated { distance, .. } if r.certificate.lower > 0.0 => {
            Some(Answer::from_signed(distance, r.certificate, *r))
        }
        Proximity::Touching { .. } => {
            Some(Answer::from_signed(0.0, Certificate { lower: 0.0, upper: 0.0 }, *r))
        }
        _ => None,
    }
}

/// The answer for `r` when the depth is not to be measured.
pub fn unmeasured(r: DistanceResult) -> Answer {
    if let Some(answer) = signed_of(&r) {
        return answer;
    }
    match r.proximity {
        Proximity::Separated { distance, .. } => Answer {
            result: r,
            signed: distance,
            signed_lower: f64::NEG_INFINITY,
            signed_upper: r.certificate.upper,
        },
        _ => Answer { result: r, signed: f64::NAN, signed_lower: f64::NEG_INFINITY, signed_upper: 0.0 },
    }
}

/// Completes a distance answer `r` (from a cold or tracked query) with its signed distance.
pub fn complete(
    r: DistanceResult,
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<Answer, RustGeomError> {
    if !settings.penetration_depth {
        return Ok(unmeasured(r));
    }
    match signed_of(&r) {
        Some(answer) => Ok(answer),
        None => {
            let sd = proxima_geom::signed_distance(a, pa, b, pb, settings)?;
            Ok(Answer::from_signed(sd.value, sd.certificate, sd.result))
        }
    }
}

/// One cold query with its signed distance.
pub fn query(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<Answer, RustGeomError> {
    if settings.penetration_depth {
        let sd = proxima_geom::signed_distance(a, pa, b, pb, settings)?;
        return Ok(Answer::from_signed(sd.value, sd.certificate, sd.result));
    }
    proxima_geom::distance(a, pa, b, pb, settings).map(unmeasured)
}

/// How the answer was computed: the library's path, or its text after unpickling.
#[derive(Debug, Clone, PartialEq)]
enum PathText {
    Query(QueryPath),
    Text(String),
}

impl PathText {
    fn text(&self) -> String {
        match self {
            PathText::Query(p) => p.to_string(),
            PathText::Text(t) => t.clone(),
        }
    }
}

/// `proxima.DistanceResult`: the answer of `distance` and `Tracker.distance`.
#[pyclass(frozen, module = "proxima", name = "DistanceResult")]
pub struct PyDistanceResult {
    proximity: Proximity,
    certificate: Certificate,
    algorithm: Algorithm,
    path: PathText,
    signed: f64,
    signed_lower: f64,
    signed_upper: f64,
}

impl From<Answer> for PyDistanceResult {
    fn from(a: Answer) -> Self {
        PyDistanceResult {
            proximity: a.result.proximity,
            certificate: a.result.certificate,
            algorithm: a.result.algorithm,
            path: PathText::Query(a.result.path),
            signed: a.signed,
            signed_lower: a.signed_lower,
            signed_upper: a.signed_upper,
        }
    }
}

/// `"separated"`, `"touching"` or `"intersecting"`.
pub fn status_name(p: &Proximity) -> &'static str {
    match p {
        Proximity::Separated { .. } => "separated",
        Proximity::Touching { .. } => "touching",
        Proximity::Intersecting { .. } => "intersecting",
    }
}

/// Witness points (a, b) when the answer has them.
pub fn witnesses(p: &Proximity) -> Option<([f64; 3], [f64; 3])> {
    match *p {
        Proximity::Separated { point_a, point_b, .. } => Some((point_a.coords.into(), point_b.coords.into())),
        Proximity::Touching { point } | Proximity::Intersecting { point: Some(point), .. } => {
            Some((point.coords.into(), point.coords.into()))
        }
        Proximity::Intersecting { point: None, .. } => None,
    }
}

/// The unit normal from A towards B of a separated answer.
pub fn normal_of(p: &Proximity) -> Option<[f64; 3]> {
    match p {
        Proximity::Separated { normal, .. } => Some((*normal).into()),
        _ => None,
    }
}

/// Bitwise equality of floats (NaN equals NaN: what a pickle round trip preserves).
fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits()
}

fn same_opt3(a: Option<[f64; 3]>, b: Option<[f64; 3]>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.iter().zip(&b).all(|(x, y)| same(*x, *y)),
        (None, None) => true,
        _ => false,
    }
}

impl PyDistanceResult {
    fn depth_value(&self) -> Option<f64> {
        match self.proximity {
            Proximity::Intersecting { depth, .. } => depth,
            _ => None,
        }
    }

    fn floats(&self) -> [f64; 6] {
        [
            self.certificate.lower,
            self.certificate.upper,
            self.signed,
            self.signed_lower,
            self.signed_upper,
            self.depth_value().unwrap_or(f64::NAN),
        ]
    }
}

#[pymethods]
impl PyDistanceResult {
    /// The distance (0 when touching or intersecting).
    #[getter]
    fn distance(&self) -> f64 {
        match self.proximity {
            Proximity::Separated { distance, .. } => distance,
            _ => 0.0,
        }
    }

    /// Signed distance: the distance, or minus the penetration depth (NaN when
    /// `penetration_depth=False` and the shapes overlap).
    #[getter]
    fn signed_distance(&self) -> f64 {
        self.signed
    }

    /// Closest point on A, world frame, shape (3,) (a common point when in contact; None when
    /// the algorithm gives none).
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        witnesses(&self.proximity).map(|(a, _)| out3(py, a))
    }

    /// Closest point on B, world frame, shape (3,).
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        witnesses(&self.proximity).map(|(_, b)| out3(py, b))
    }

    /// Unit vector from A towards B when separated, else None.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        normal_of(&self.proximity).map(|n| out3(py, n))
    }

    /// Proven lower bound of the distance.
    #[getter]
    fn lower(&self) -> f64 {
        self.certificate.lower
    }

    /// Proven upper bound of the distance (the witnesses' distance).
    #[getter]
    fn upper(&self) -> f64 {
        self.certificate.upper
    }

    /// `upper - lower`: the proven error of the distance.
    #[getter]
    fn gap(&self) -> f64 {
        self.certificate.gap()
    }

    /// Proven lower bound of the signed distance.
    #[getter]
    fn signed_lower(&self) -> f64 {
        self.signed_lower
    }

    /// Proven upper bound of the signed distance.
    #[getter]
    fn signed_upper(&self) -> f64 {
        self.signed_upper
    }

    /// Penetration depth reported by the algorithm for intersecting shapes, else None.
    #[getter]
    fn depth(&self) -> Option<f64> {
        self.depth_value()
    }

    /// `"separated"`, `"touching"` or `"intersecting"`.
    #[getter]
    fn status(&self) -> &'static str {
        status_name(&self.proximity)
    }

    /// The algorithm that ran (`"closed_form"`, `"lcp"`, `"gjk"`, `"ellipsoid"`, ...).
    #[getter]
    fn algorithm(&self) -> &'static str {
        self.algorithm.as_str()
    }

    /// How it ran, e.g. `"gjk/converged/12"`, `"float/lemke"`, `"closed_form"`.
    #[getter]
    fn path(&self) -> String {
        self.path.text()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let Ok(o) = other.cast::<PyDistanceResult>() else { return false };
        let o = o.get();
        let (wa, wb) = (witnesses(&self.proximity), witnesses(&o.proximity));
        status_name(&self.proximity) == status_name(&o.proximity)
            && same(self.distance(), o.distance())
            && same_opt3(wa.map(|w| w.0), wb.map(|w| w.0))
            && same_opt3(wa.map(|w| w.1), wb.map(|w| w.1))
            && same_opt3(normal_of(&self.proximity), normal_of(&o.proximity))
            && self.depth_value().is_some() == o.depth_value().is_some()
            && self.floats().iter().zip(o.floats()).all(|(x, y)| same(*x, y))
            && self.algorithm == o.algorithm
            && self.path.text() == o.path.text()
    }

    fn __repr__(&self) -> String {
        format!(
            "DistanceResult(status={:?}, distance={:?}, signed_distance={:?}, lower={:?}, upper={:?}, algorithm={:?}, path={:?})",
            self.status(),
            self.distance(),
            self.signed,
            self.certificate.lower,
            self.certificate.upper,
            self.algorithm(),
            self.path()
        )
    }

    /// Pickles as its fields, rebuilt by `proxima._proxima._distance_result`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("proxima._proxima")?.getattr("_distance_result")?;
        let (pa, pb) = witnesses(&self.proximity).unzip();
        let state = (
            self.status(),
            self.distance(),
            pa,
            pb,
            normal_of(&self.proximity),
            self.depth_value(),
            (self.certificate.lower, self.certificate.upper),
            self.algorithm(),
            self.path(),
            (self.signed, self.signed_lower, self.signed_upper),
        );
        Ok((rebuild, (state,).into_pyobject(py)?))
    }
}

/// The pickled state of a `DistanceResult`.
type ResultState = (
    String,
    f64,
    Option<[f64; 3]>,
    Option<[f64; 3]>,
    Option<[f64; 3]>,
    Option<f64>,
    (f64, f64),
    String,
    String,
    (f64, f64, f64),
);

/// Rebuilds a pickled `DistanceResult` (not for direct use).
#[pyfunction]
#[pyo3(name = "_distance_result")]
pub fn distance_result_from_state(state: ResultState) -> PyResult<PyDistanceResult> {
    let (status, distance, pa, pb, normal, depth, (lower, upper), algorithm, path, (signed, sl, su)) = state;
    let point = |p: [f64; 3]| Point3::from(p);
    let proximity = match (status.as_str(), pa, pb, normal) {
        ("separated", Some(a), Some(b), Some(n)) => {
            Proximity::Separated { distance, point_a: point(a), point_b: point(b), normal: Vector3::from(n) }
        }
        ("touching", Some(a), _, _) => Proximity::Touching { point: point(a) },
        ("intersecting", a, _, _) => Proximity::Intersecting { point: a.map(point), depth },
        _ => return Err(invalid(format!("not a DistanceResult state: status {status:?}"))),
    };
    let algorithm =
        algorithm_named(&algorithm).ok_or_else(|| invalid(format!("unknown algorithm {algorithm:?}")))?;
    Ok(PyDistanceResult {
        proximity,
        certificate: Certificate { lower, upper },
        algorithm,
        path: PathText::Text(path),
        signed,
        signed_lower: sl,
        signed_upper: su,
    })
}

/// The names of a pair query's arguments before its settings.
static PAIR_ARGUMENTS: Names<4> = Names::new(["a", "Ta", "b", "Tb"]);

/// Runs `query` on the arguments `(a, Ta, b, Tb, **settings)` of a pair query, read from the
/// call as Python made it: pyo3 hands a `(*args, **kwargs)` function the call's own tuple and
/// dict, so a call without keywords builds nothing and parses no settings; the four arguments
/// may also be given by name. Errors are those of any Python function (`TypeError` for a
/// missing, repeated or unknown argument or a non-shape `a`/`b`), then those of the poses and
/// settings. `query` runs under [`guard`] and gets the poses and settings by reference where
/// they were parsed (no copy of the parsed call).
fn with_pair<'py, T>(
    function: &str,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
    query: impl FnOnce(&Shape, &Pose, &Shape, &Pose, &QuerySettings) -> PyResult<T>,
) -> PyResult<T> {
    let names = PAIR_ARGUMENTS.names();
    let given = args.len();
    if given > names.len() {
        return Err(PyTypeError::new_err(format!(
            "{function}() takes 4 positional arguments but {given} were given"
        )));
    }
    let mut found: [Option<Bound<'py, PyAny>>; 4] = Default::default();
    for (slot, item) in found.iter_mut().zip(args.iter()) {
        *slot = Some(item);
    }
    // Keywords other than the four arguments are the settings (the dict is copied only when
    // an argument was given by name).
    let mut settings = kwargs.filter(|k| !k.is_empty()).cloned();
    if let Some(k) = kwargs {
        let mut rest: Option<Bound<'py, PyDict>> = None;
        for (key, value) in k.iter() {
            let Some(i) = PAIR_ARGUMENTS.find(&key)? else { continue };
            if found[i].is_some() {
                return Err(PyTypeError::new_err(format!(
                    "{function}() got multiple values for argument '{}'",
                    names[i]
                )));
            }
            found[i] = Some(value);
            let rest = match &mut rest {
                Some(r) => r,
                None => rest.insert(k.copy()?),
            };
            rest.del_item(key)?;
        }
        if let Some(r) = rest {
            settings = Some(r).filter(|r| !r.is_empty());
        }
    }
    let [a, ta, b, tb] = found;
    let missing = |i: usize| {
        PyTypeError::new_err(format!("{function}() missing required argument '{}' (pos {})", names[i], i + 1))
    };
    let shape = |i: usize, obj: Option<Bound<'py, PyAny>>| -> PyResult<Bound<'py, PyShape>> {
        obj.ok_or_else(|| missing(i))?.cast_into::<PyShape>().map_err(|e| {
            PyTypeError::new_err(format!(
                "{function}() argument '{}': expected a proxima shape, got {}",
                names[i],
                e.into_inner().get_type().name().map_or_else(|_| "?".into(), |n| n.to_string())
            ))
        })
    };
    let (a, b) = (shape(0, a)?, shape(2, b)?);
    let pa = arrays::pose(&ta.ok_or_else(|| missing(1))?, "Ta")?;
    let pb = arrays::pose(&tb.ok_or_else(|| missing(3))?, "Tb")?;
    let given = match settings {
        Some(k) => Some(from_kwargs(&k)?),
        None => None,
    };
    let settings = given.as_ref().unwrap_or(&DEFAULT);
    guard(|| query(&a.get().shape, &pa, &b.get().shape, &pb, settings))
}

/// `distance(a, Ta, b, Tb, **settings)`: the distance between shape `a` placed by the 4×4 pose
/// `Ta` and `b` placed by `Tb`, with witness points, the proven bracket and the signed
/// distance. Keyword settings: see the module docstring.
#[pyfunction]
#[pyo3(signature = (*args, **kwargs), text_signature = "(a, Ta, b, Tb, **settings)")]
pub fn distance(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<PyDistanceResult> {
    with_pair("distance", args, kwargs, |a, pa, b, pb, settings| {
        query(a, pa, b, pb, settings).map(PyDistanceResult::from).map_err(geom)
    })
}

/// `signed_distance(a, Ta, b, Tb, **settings)`: the signed distance (negative = penetration
/// depth) between `a` at `Ta` and `b` at `Tb`.
#[pyfunction]
#[pyo3(signature = (*args, **kwargs), text_signature = "(a, Ta, b, Tb, **settings)")]
pub fn signed_distance(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<f64> {
    with_pair("signed_distance", args, kwargs, |a, pa, b, pb, settings| {
        let settings = settings.clone().with_penetration_depth(true);
        proxima_geom::signed_distance(a, pa, b, pb, &settings).map(|sd| sd.value).map_err(geom)
    })
}

/// `intersects(a, Ta, b, Tb, **settings)`: whether `a` at `Ta` and `b` at `Tb` share a point
/// (touching counts). Raises `UndecidedError` when the algorithm reaches no verdict.
#[pyfunction]
#[pyo3(signature = (*args, **kwargs), text_signature = "(a, Ta, b, Tb, **settings)")]
pub fn intersects(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<bool> {
    with_pair("intersects", args, kwargs, |a, pa, b, pb, settings| {
        match proxima_geom::intersects(a, pa, b, pb, settings) {
            Ok(Intersection::Intersecting { .. }) => Ok(true),
            Ok(Intersection::Separated { .. }) => Ok(false),
            Ok(Intersection::Undecided { reason }) => {
                Err(UndecidedError::new_err(format!("no verdict: {reason}")))
            }
            Err(e) => Err(geom(e)),
        }
    })
}
