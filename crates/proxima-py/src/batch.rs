//! `distance_batch`: one pair of shapes at N pairs of poses, the GIL released while the
//! queries run (on `threads` threads, rows in input order: see [`crate::parallel`]), the
//! answers as numpy arrays in a `DistanceBatch`.
//!
//! The poses are copied out of their arrays before the GIL is released (another Python
//! thread could write to them meanwhile) and checked row by row off the GIL; the first bad
//! row (lowest index) is reported as `Ta[i]: ...`. A broadcast (4, 4) pose is checked once.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyFixedUnicode, PyUntypedArrayMethods};
use proxima_geom::{GeomError as RustGeomError, Pose};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::arrays::{self, PoseError, RawPose, check_pose, pose_error_text};
use crate::errors::{GeomError, InternalError, catch, invalid};
use crate::parallel::{map_rows, thread_count};
use crate::query::{Answer, normal_of, query, status_name, witnesses};
use crate::settings::CallSettings;
use crate::shapes::PyShape;

/// Width of the status strings ("intersecting").
const STATUS_WIDTH: usize = 12;
type Status = PyFixedUnicode<STATUS_WIDTH>;

fn status_text(name: &str) -> Status {
    let mut chars = [0u32; STATUS_WIDTH];
    for (slot, c) in chars.iter_mut().zip(name.chars()) {
        *slot = c as u32;
    }
    PyFixedUnicode(chars)
}

/// The poses of one argument: per row, or one for every row.
enum Poses {
    Rows(Vec<RawPose>),
    One(Pose),
}

impl Poses {
    fn read(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Self> {
        let (raw, broadcast) = arrays::raw_poses(obj, what)?;
        if broadcast { Ok(Poses::One(arrays::pose_from_raw(&raw[0], what)?)) } else { Ok(Poses::Rows(raw)) }
    }

    fn rows(&self) -> Option<usize> {
        match self {
            Poses::Rows(r) => Some(r.len()),
            Poses::One(_) => None,
        }
    }

    fn at(&self, i: usize) -> Result<Pose, PoseError> {
        match self {
            Poses::Rows(r) => check_pose(&r[i]),
            Poses::One(p) => Ok(*p),
        }
    }
}

/// Why a row failed.
enum RowError {
    PoseA(PoseError),
    PoseB(PoseError),
    Query(RustGeomError),
}

/// The number of rows of two pose arguments.
fn row_count(ta: &Poses, tb: &Poses) -> PyResult<usize> {
    match (ta.rows(), tb.rows()) {
        (Some(n), Some(m)) if n != m => {
            Err(invalid(format!("Ta has {n} poses but Tb has {m}: give N of each, or one (4, 4) pose to broadcast")))
        }
        (Some(n), _) | (None, Some(n)) => Ok(n),
        (None, None) => Ok(1),
    }
}

/// `proxima.DistanceBatch`: the answers of `distance_batch` as read-only numpy arrays, row i
/// for pose pair i.
#[pyclass(frozen, module = "proxima", name = "DistanceBatch")]
pub struct PyDistanceBatch {
    /// (N,) distances (0 when in contact).
    #[pyo3(get)]
    distance: Py<PyArray1<f64>>,
    /// (N,) signed distances.
    #[pyo3(get)]
    signed_distance: Py<PyArray1<f64>>,
    /// (N,) proven lower bounds of the distance.
    #[pyo3(get)]
    lower: Py<PyArray1<f64>>,
    /// (N,) proven upper bounds of the distance.
    #[pyo3(get)]
    upper: Py<PyArray1<f64>>,
    /// (N,) proven lower bounds of the signed distance.
    #[pyo3(get)]
    signed_lower: Py<PyArray1<f64>>,
    /// (N,) proven upper bounds of the signed distance.
    #[pyo3(get)]
    signed_upper: Py<PyArray1<f64>>,
    /// (N, 3) closest points on A (NaN rows where the algorithm gives none).
    #[pyo3(get)]
    point_a: Py<PyArray2<f64>>,
    /// (N, 3) closest points on B.
    #[pyo3(get)]
    point_b: Py<PyArray2<f64>>,
    /// (N, 3) unit normals from A towards B (NaN rows unless separated).
    #[pyo3(get)]
    normal: Py<PyArray2<f64>>,
    /// (N,) `"separated"`, `"touching"` or `"intersecting"` (numpy `<U12`).
    #[pyo3(get)]
    status: Py<PyArray1<Status>>,
}

/// The field names, in the order of the struct (and of the pickled state).
const FIELDS: [&str; 10] = [
    "distance",
    "signed_distance",
    "lower",
    "upper",
    "signed_lower",
    "signed_upper",
    "point_a",
    "point_b",
    "normal",
    "status",
];

/// Marks an array read-only (a result is immutable: equality and pickling rely on it).
fn frozen<'py, T>(a: Bound<'py, T>) -> PyResult<Bound<'py, T>> {
    let kw = PyDict::new(a.py());
    kw.set_item("write", false)?;
    a.as_any().call_method("setflags", (), Some(&kw))?;
    Ok(a)
}

impl PyDistanceBatch {
    fn from_answers(py: Python<'_>, answers: &[Answer]) -> PyResult<Self> {
        let n = answers.len();
        let col = |f: &dyn Fn(&Answer) -> f64| -> PyResult<Py<PyArray1<f64>>> {
            Ok(frozen(PyArray1::from_vec(py, answers.iter().map(f).collect()))?.unbind())
        };
        let rows = |f: &dyn Fn(&Answer) -> Option<[f64; 3]>| -> PyResult<Py<PyArray2<f64>>> {
            let flat: Vec<f64> = answers.iter().flat_map(|a| f(a).unwrap_or([f64::NAN; 3])).collect();
            Ok(frozen(PyArray1::from_vec(py, flat).reshape([n, 3])?)?.unbind())
        };
        let status: Vec<Status> = answers.iter().map(|a| status_text(status_name(&a.result.proximity))).collect();
        Ok(PyDistanceBatch {
            distance: col(&|a| a.result.distance())?,
            signed_distance: col(&|a| a.signed)?,
            lower: col(&|a| a.result.certificate.lower)?,
            upper: col(&|a| a.result.certificate.upper)?,
            signed_lower: col(&|a| a.signed_lower)?,
            signed_upper: col(&|a| a.signed_upper)?,
            point_a: rows(&|a| witnesses(&a.result.proximity).map(|w| w.0))?,
            point_b: rows(&|a| witnesses(&a.result.proximity).map(|w| w.1))?,
            normal: rows(&|a| normal_of(&a.result.proximity))?,
            status: frozen(PyArray1::from_vec(py, status))?.unbind(),
        })
    }

    fn arrays<'py>(&self, py: Python<'py>) -> [Bound<'py, PyAny>; 10] {
        [
            self.distance.bind(py).clone().into_any(),
            self.signed_distance.bind(py).clone().into_any(),
            self.lower.bind(py).clone().into_any(),
            self.upper.bind(py).clone().into_any(),
            self.signed_lower.bind(py).clone().into_any(),
            self.signed_upper.bind(py).clone().into_any(),
            self.point_a.bind(py).clone().into_any(),
            self.point_b.bind(py).clone().into_any(),
            self.normal.bind(py).clone().into_any(),
            self.status.bind(py).clone().into_any(),
        ]
    }
}

#[pymethods]
impl PyDistanceBatch {
    fn __len__(&self, py: Python<'_>) -> usize {
        self.distance.bind(py).len()
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(o) = other.cast::<PyDistanceBatch>() else { return Ok(false) };
        let equal = py.import("numpy")?.getattr("array_equal")?;
        for (k, (x, y)) in self.arrays(py).iter().zip(o.get().arrays(py)).enumerate() {
            let kw = PyDict::new(py);
            kw.set_item("equal_nan", FIELDS[k] != "status")?;
            if !equal.call((x, y), Some(&kw))?.is_truthy()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("DistanceBatch(n={})", self.__len__(py))
    }

    /// Pickles as its arrays, rebuilt by `proxima._proxima._distance_batch`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("proxima._proxima")?.getattr("_distance_batch")?;
        let state = PyDict::new(py);
        for (name, array) in FIELDS.iter().zip(self.arrays(py)) {
            state.set_item(name, array)?;
        }
        Ok((rebuild, (state,).into_pyobject(py)?))
    }
}

/// Rebuilds a pickled `DistanceBatch` (not for direct use).
#[pyfunction]
#[pyo3(name = "_distance_batch")]
pub fn distance_batch_from_state(py: Python<'_>, state: &Bound<'_, PyDict>) -> PyResult<PyDistanceBatch> {
    let get = |name: &str| -> PyResult<Bound<'_, PyAny>> {
        state.get_item(name)?.ok_or_else(|| invalid(format!("not a DistanceBatch state: no {name}")))
    };
    let col = |name: &str| -> PyResult<Py<PyArray1<f64>>> {
        let v = arrays::vector(&get(name)?, None, name)?;
        Ok(frozen(PyArray1::from_vec(py, v))?.unbind())
    };
    let rows = |name: &str| -> PyResult<Py<PyArray2<f64>>> {
        let v = arrays::points(&get(name)?, name)?;
        Ok(frozen(arrays::out_points(py, &v)?)?.unbind())
    };
    let status = get("status")?;
    let status: Vec<String> = status.call_method0("tolist")?.extract()?;
    let status: Vec<Status> = status.iter().map(|s| status_text(s)).collect();
    let batch = PyDistanceBatch {
        distance: col("distance")?,
        signed_distance: col("signed_distance")?,
        lower: col("lower")?,
        upper: col("upper")?,
        signed_lower: col("signed_lower")?,
        signed_upper: col("signed_upper")?,
        point_a: rows("point_a")?,
        point_b: rows("point_b")?,
        normal: rows("normal")?,
        status: frozen(PyArray1::from_vec(py, status))?.unbind(),
    };
    let n = batch.__len__(py);
    if batch.arrays(py).iter().any(|a| a.len().ok() != Some(n)) {
        return Err(invalid("not a DistanceBatch state: arrays of different lengths"));
    }
    Ok(batch)
}

/// The distances between `a` and `b` at N pairs of poses: `Ta`, `Tb` of shape (N, 4, 4), or
/// one of them (4, 4) for every row. Runs on `threads` threads (None: every core) with the
/// GIL released; rows come back in input order, identical for any thread count.
#[pyfunction]
#[pyo3(signature = (a, Ta, b, Tb, threads=None, **settings))]
#[allow(non_snake_case)]
pub fn distance_batch(
    py: Python<'_>,
    a: &Bound<'_, PyShape>,
    Ta: &Bound<'_, PyAny>,
    b: &Bound<'_, PyShape>,
    Tb: &Bound<'_, PyAny>,
    threads: Option<i64>,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyDistanceBatch> {
    let settings = CallSettings::new(settings)?;
    let threads = thread_count(threads)?;
    let (ta, tb) = (Poses::read(Ta, "Ta")?, Poses::read(Tb, "Tb")?);
    let n = row_count(&ta, &tb)?;
    let (sa, sb) = (&a.get().shape, &b.get().shape);
    let settings = settings.get();
    let rows = py.detach(|| {
        catch(|| {
            map_rows(n, threads, |i| {
                let pa = ta.at(i).map_err(RowError::PoseA)?;
                let pb = tb.at(i).map_err(RowError::PoseB)?;
                query(sa, &pa, sb, &pb, settings).map_err(RowError::Query)
            })
        })
    })?;
    let rows = rows.map_err(InternalError::new_err)?;
    let mut answers = Vec::with_capacity(n);
    for (i, row) in rows.into_iter().enumerate() {
        match row {
            Ok(answer) => answers.push(answer),
            Err(RowError::PoseA(e)) => return Err(pose_error(&e, "Ta", i)),
            Err(RowError::PoseB(e)) => return Err(pose_error(&e, "Tb", i)),
            Err(RowError::Query(e)) => return Err(GeomError::new_err(format!("row {i}: {e}"))),
        }
    }
    PyDistanceBatch::from_answers(py, &answers)
}

fn pose_error(e: &PoseError, what: &str, i: usize) -> PyErr {
    match e {
        PoseError::BottomRow(_) => invalid(pose_error_text(e, what, i)),
        PoseError::Geom(_) => GeomError::new_err(pose_error_text(e, what, i)),
    }
}
