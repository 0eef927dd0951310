//! `time_of_impact_batch`: one pair of shapes over N motions (four (N, 4, 4) pose arrays, any
//! of them a (4, 4) pose for every row), the GIL released while the searches run (on
//! `threads` threads, rows in input order: see [`crate::parallel`]), the answers as numpy
//! arrays in a `ToiBatch`.
//!
//! Row i holds exactly what `time_of_impact` returns for the i-th motions, bit for bit
//! ([`crate::toi::Fields`]): each search is a pure function of its row (its warm start lives
//! inside the one search), so the thread count changes no bit. Attributes that are `None` in a
//! single result are NaN here (`toi` NaN = a proven miss; NaN rows of witnesses); `outcome` and
//! `status` are numpy unicode arrays of the library's names (`<U15`, `<U14`), strings rather
//! than codes so that a row reads the same as a single result (`batch.outcome == "hit"` masks
//! the hits); `iterations` and `distance_queries` are `uint32`.
//!
//! Poses are copied out of their arrays (or read in place from C-contiguous float64 ones)
//! before the GIL is released and checked row by row off it; the lowest bad row is reported
//! as `Ta1[i]: ...`, a search error as `row i: ...`.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyFixedUnicode, PyUntypedArrayMethods};
use proxima_geom::{GeomError as RustGeomError, Pose, ToiResult};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::arrays::{self, PoseError, read_only};
use crate::batch::{PoseRows, fixed_text, pose_error};
use crate::errors::{GeomError, InternalError, catch, invalid};
use crate::parallel::{FirstFailure, Rows, fill, thread_count};
use crate::shapes::PyShape;
use crate::toi::{fields, toi_between_poses, toi_settings};

/// `"initial_contact"`: the longest outcome name.
type OutcomeText = PyFixedUnicode<15>;
/// `"max_iterations"`: the longest status name.
type StatusText = PyFixedUnicode<14>;

/// The pose arguments, in signature order.
const POSE_ARGS: [&str; 4] = ["Ta0", "Ta1", "Tb0", "Tb1"];

/// The float columns, in the order of [`Columns::floats`].
const FLOATS: [&str; 9] =
    ["toi", "t_safe", "t_hit", "depth", "signed_distance", "lower", "upper", "last_time", "last_lower"];
/// The (N, 3) columns.
const POINTS: [&str; 3] = ["point_a", "point_b", "normal"];
/// The uint32 columns.
const COUNTS: [&str; 2] = ["iterations", "distance_queries"];

/// Why a row failed.
enum RowError {
    Pose(usize, PoseError),
    Query(RustGeomError),
}

/// The number of rows of the four pose arguments: every N given must agree.
fn row_count(rows: &[PoseRows<'_>; 4]) -> PyResult<usize> {
    let mut found: Option<(usize, usize)> = None;
    for (k, r) in rows.iter().enumerate() {
        match (r.rows(), found) {
            (Some(n), Some((m, first))) if n != m => {
                return Err(invalid(format!(
                    "{} has {m} poses but {} has {n}: give N of each, or one (4, 4) pose to broadcast",
                    POSE_ARGS[first], POSE_ARGS[k]
                )));
            }
            (Some(n), None) => found = Some((n, k)),
            _ => {}
        }
    }
    Ok(found.map_or(1, |(n, _)| n))
}

/// Splits each column of a group at index `k`.
fn split_group<'a, T, const N: usize>(
    columns: [&'a mut [T]; N],
    k: usize,
) -> ([&'a mut [T]; N], [&'a mut [T]; N]) {
    let (left, right): (Vec<_>, Vec<_>) = columns.into_iter().map(|c| c.split_at_mut(k)).unzip();
    let array = |v: Vec<&'a mut [T]>| -> [&'a mut [T]; N] {
        v.try_into().unwrap_or_else(|_| unreachable!("N columns in, N out"))
    };
    (array(left), array(right))
}

/// The output arrays of a batch, borrowed mutably for filling off the GIL (fresh arrays no
/// Python code has seen yet).
struct Columns<'a> {
    floats: [&'a mut [f64]; 9],
    points: [&'a mut [f64]; 3],
    counts: [&'a mut [u32]; 2],
    outcome: &'a mut [OutcomeText],
    status: &'a mut [StatusText],
}

impl Rows for Columns<'_> {
    fn len(&self) -> usize {
        self.outcome.len()
    }

    fn split_at(self, k: usize) -> (Self, Self) {
        let Columns { floats, points, counts, outcome, status } = self;
        let (f0, f1) = split_group(floats, k);
        let (p0, p1) = split_group(points, 3 * k);
        let (c0, c1) = split_group(counts, k);
        let (o0, o1) = outcome.split_at_mut(k);
        let (s0, s1) = status.split_at_mut(k);
        (
            Columns { floats: f0, points: p0, counts: c0, outcome: o0, status: s0 },
            Columns { floats: f1, points: p1, counts: c1, outcome: o1, status: s1 },
        )
    }
}

impl Columns<'_> {
    /// Writes the answer `r` (searched up to `end_time`) into local row `j`.
    fn write(&mut self, j: usize, r: &ToiResult, end_time: f64) {
        let f = fields(r, end_time);
        let floats = [
            f.toi,
            Some(f.t_safe),
            f.t_hit,
            f.depth,
            f.signed_distance,
            f.lower,
            f.upper,
            f.last_time,
            f.last_lower,
        ];
        for (column, v) in self.floats.iter_mut().zip(floats) {
            column[j] = v.unwrap_or(f64::NAN);
        }
        for (column, p) in self.points.iter_mut().zip([f.point_a, f.point_b, f.normal]) {
            column[3 * j..3 * j + 3].copy_from_slice(&p.unwrap_or([f64::NAN; 3]));
        }
        self.counts[0][j] = r.iterations;
        self.counts[1][j] = r.distance_queries;
        self.outcome[j] = fixed_text(r.outcome.as_str());
        self.status[j] = fixed_text(r.status.as_str());
    }
}

/// `proxima.ToiBatch`: the answers of `time_of_impact_batch` as read-only numpy arrays, row i
/// for motion i (the attributes of `ToiResult`, NaN where it has None).
#[pyclass(frozen, module = "proxima", name = "ToiBatch")]
pub struct PyToiBatch {
    /// (N,) times of impact (NaN: a proven miss).
    #[pyo3(get)]
    toi: Py<PyArray1<f64>>,
    /// (N,) no contact proven on [start, t_safe) (the end of the interval for a miss).
    #[pyo3(get)]
    t_safe: Py<PyArray1<f64>>,
    /// (N,) contact proven at t_hit (NaN unless a hit or an initial contact).
    #[pyo3(get)]
    t_hit: Py<PyArray1<f64>>,
    /// (N,) penetration depth of an initial contact (NaN otherwise, or when not measured).
    #[pyo3(get)]
    depth: Py<PyArray1<f64>>,
    /// (N,) signed distance of an initial contact (NaN otherwise).
    #[pyo3(get)]
    signed_distance: Py<PyArray1<f64>>,
    /// (N,) proven lower bound at contact (NaN for a miss or undecided search).
    #[pyo3(get)]
    lower: Py<PyArray1<f64>>,
    /// (N,) proven upper bound at contact.
    #[pyo3(get)]
    upper: Py<PyArray1<f64>>,
    /// (N,) last sample of a miss or undecided search (NaN otherwise).
    #[pyo3(get)]
    last_time: Py<PyArray1<f64>>,
    /// (N,) certified lower bound of the distance at `last_time` (NaN otherwise).
    #[pyo3(get)]
    last_lower: Py<PyArray1<f64>>,
    /// (N, 3) witness points on A (NaN rows where there are none).
    #[pyo3(get)]
    point_a: Py<PyArray2<f64>>,
    /// (N, 3) witness points on B.
    #[pyo3(get)]
    point_b: Py<PyArray2<f64>>,
    /// (N, 3) unit contact normals from A towards B (NaN rows where there are none).
    #[pyo3(get)]
    normal: Py<PyArray2<f64>>,
    /// (N,) conservative-advancement steps (uint32).
    #[pyo3(get)]
    iterations: Py<PyArray1<u32>>,
    /// (N,) distance queries made (uint32).
    #[pyo3(get)]
    distance_queries: Py<PyArray1<u32>>,
    /// (N,) `"initial_contact"`, `"hit"`, `"miss"` or `"undecided"` (numpy `<U15`).
    #[pyo3(get)]
    outcome: Py<PyArray1<OutcomeText>>,
    /// (N,) `"converged"`, `"max_iterations"` or `"stalled"` (numpy `<U14`).
    #[pyo3(get)]
    status: Py<PyArray1<StatusText>>,
}

/// Every field name, in the order of [`PyToiBatch::arrays`] (and of the pickled state).
const FIELDS: [&str; 16] = [
    "toi",
    "t_safe",
    "t_hit",
    "depth",
    "signed_distance",
    "lower",
    "upper",
    "last_time",
    "last_lower",
    "point_a",
    "point_b",
    "normal",
    "iterations",
    "distance_queries",
    "outcome",
    "status",
];

impl PyToiBatch {
    fn arrays<'py>(&self, py: Python<'py>) -> [Bound<'py, PyAny>; 16] {
        let any = |a: &Py<PyArray1<f64>>| a.bind(py).clone().into_any();
        let rows = |a: &Py<PyArray2<f64>>| a.bind(py).clone().into_any();
        let count = |a: &Py<PyArray1<u32>>| a.bind(py).clone().into_any();
        [
            any(&self.toi),
            any(&self.t_safe),
            any(&self.t_hit),
            any(&self.depth),
            any(&self.signed_distance),
            any(&self.lower),
            any(&self.upper),
            any(&self.last_time),
            any(&self.last_lower),
            rows(&self.point_a),
            rows(&self.point_b),
            rows(&self.normal),
            count(&self.iterations),
            count(&self.distance_queries),
            self.outcome.bind(py).clone().into_any(),
            self.status.bind(py).clone().into_any(),
        ]
    }

    /// Builds the batch from its arrays (fresh, filled), marking them read-only.
    fn from_arrays(
        floats: [Bound<'_, PyArray1<f64>>; 9],
        points: [Bound<'_, PyArray2<f64>>; 3],
        counts: [Bound<'_, PyArray1<u32>>; 2],
        outcome: Bound<'_, PyArray1<OutcomeText>>,
        status: Bound<'_, PyArray1<StatusText>>,
    ) -> PyResult<Self> {
        let [toi, t_safe, t_hit, depth, signed_distance, lower, upper, last_time, last_lower] = floats;
        let [point_a, point_b, normal] = points;
        let [iterations, distance_queries] = counts;
        Ok(PyToiBatch {
            toi: read_only(toi)?.unbind(),
            t_safe: read_only(t_safe)?.unbind(),
            t_hit: read_only(t_hit)?.unbind(),
            depth: read_only(depth)?.unbind(),
            signed_distance: read_only(signed_distance)?.unbind(),
            lower: read_only(lower)?.unbind(),
            upper: read_only(upper)?.unbind(),
            last_time: read_only(last_time)?.unbind(),
            last_lower: read_only(last_lower)?.unbind(),
            point_a: read_only(point_a)?.unbind(),
            point_b: read_only(point_b)?.unbind(),
            normal: read_only(normal)?.unbind(),
            iterations: read_only(iterations)?.unbind(),
            distance_queries: read_only(distance_queries)?.unbind(),
            outcome: read_only(outcome)?.unbind(),
            status: read_only(status)?.unbind(),
        })
    }
}

#[pymethods]
impl PyToiBatch {
    fn __len__(&self, py: Python<'_>) -> usize {
        self.toi.bind(py).len()
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(o) = other.cast::<PyToiBatch>() else { return Ok(false) };
        arrays::columns_equal(py, &self.arrays(py), &o.get().arrays(py))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("ToiBatch(n={})", self.__len__(py))
    }

    /// Pickles as its arrays, rebuilt by `proxima._proxima._toi_batch`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        arrays::reduce_columns(py, "_toi_batch", &FIELDS, &self.arrays(py))
    }
}

/// Rebuilds a pickled `ToiBatch` (not for direct use).
#[pyfunction]
#[pyo3(name = "_toi_batch")]
pub fn toi_batch_from_state(py: Python<'_>, state: &Bound<'_, PyDict>) -> PyResult<PyToiBatch> {
    let get = |name: &str| -> PyResult<Bound<'_, PyAny>> {
        state.get_item(name)?.ok_or_else(|| invalid(format!("not a ToiBatch state: no {name}")))
    };
    let list = |name: &str| get(name)?.call_method0("tolist");
    let floats =
        FLOATS.try_map_py(|name| Ok(PyArray1::from_vec(py, arrays::vector(&get(name)?, None, name)?)))?;
    let points = POINTS.try_map_py(|name| arrays::out_points(py, &arrays::points(&get(name)?, name)?))?;
    let counts = COUNTS.try_map_py(|name| Ok(PyArray1::from_vec(py, list(name)?.extract::<Vec<u32>>()?)))?;
    let texts = |name: &str| -> PyResult<Vec<String>> { list(name)?.extract() };
    let outcome: Vec<OutcomeText> = texts("outcome")?.iter().map(|s| fixed_text(s)).collect();
    let status: Vec<StatusText> = texts("status")?.iter().map(|s| fixed_text(s)).collect();
    let batch = PyToiBatch::from_arrays(
        floats,
        points,
        counts,
        PyArray1::from_vec(py, outcome),
        PyArray1::from_vec(py, status),
    )?;
    let n = batch.__len__(py);
    if batch.arrays(py).iter().any(|a| a.len().ok() != Some(n)) {
        return Err(invalid("not a ToiBatch state: arrays of different lengths"));
    }
    Ok(batch)
}

/// `[T; N].map` with a fallible closure (the first error wins).
trait TryMapPy<T, const N: usize> {
    fn try_map_py<U>(self, f: impl FnMut(T) -> PyResult<U>) -> PyResult<[U; N]>;
}

impl<T, const N: usize> TryMapPy<T, N> for [T; N] {
    fn try_map_py<U>(self, f: impl FnMut(T) -> PyResult<U>) -> PyResult<[U; N]> {
        let v = self.into_iter().map(f).collect::<PyResult<Vec<U>>>()?;
        Ok(v.try_into().unwrap_or_else(|_| unreachable!("N items in, N out")))
    }
}

/// The times of impact of `a` and `b` over N motions: `Ta0[i]` → `Ta1[i]` and `Tb0[i]` →
/// `Tb1[i]` as in `time_of_impact` (each argument (N, 4, 4), or (4, 4) for every row). Runs on
/// `threads` threads (None: every core) with the GIL released; rows come back in input order,
/// identical for any thread count.
#[pyfunction]
#[pyo3(signature = (a, Ta0, Ta1, b, Tb0, Tb1, margin=0.0, threads=None, **settings))]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub fn time_of_impact_batch(
    py: Python<'_>,
    a: &Bound<'_, PyShape>,
    Ta0: &Bound<'_, PyAny>,
    Ta1: &Bound<'_, PyAny>,
    b: &Bound<'_, PyShape>,
    Tb0: &Bound<'_, PyAny>,
    Tb1: &Bound<'_, PyAny>,
    margin: f64,
    threads: Option<i64>,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyToiBatch> {
    let settings = toi_settings(margin, settings)?;
    let threads = thread_count(threads)?;
    let given = [Ta0, Ta1, Tb0, Tb1];
    let arrays = given
        .iter()
        .zip(POSE_ARGS)
        .map(|(t, what)| arrays::float_array(t, what))
        .collect::<PyResult<Vec<_>>>()?;
    let views: Vec<_> = arrays.iter().map(|a| a.readonly()).collect();
    let rows = [0, 1, 2, 3].try_map_py(|k| PoseRows::new(&views[k], POSE_ARGS[k]))?;
    let n = row_count(&rows)?;
    let (sa, sb) = (&a.get().shape, &b.get().shape);

    let floats: [Bound<'_, PyArray1<f64>>; 9] = std::array::from_fn(|_| PyArray1::zeros(py, n, false));
    let points: [Bound<'_, PyArray2<f64>>; 3] = std::array::from_fn(|_| PyArray2::zeros(py, [n, 3], false));
    let counts: [Bound<'_, PyArray1<u32>>; 2] = std::array::from_fn(|_| PyArray1::zeros(py, n, false));
    let outcome = PyArray1::<OutcomeText>::zeros(py, n, false);
    let status = PyArray1::<StatusText>::zeros(py, n, false);
    {
        let slices = |e| InternalError::new_err(format!("output array: {e}"));
        let mut float_views = floats.each_ref().map(|a| a.readwrite());
        let mut point_views = points.each_ref().map(|a| a.readwrite());
        let mut count_views = counts.each_ref().map(|a| a.readwrite());
        let (mut outcome_view, mut status_view) = (outcome.readwrite(), status.readwrite());
        let columns = Columns {
            floats: float_views.each_mut().try_map_py(|v| v.as_slice_mut().map_err(slices))?,
            points: point_views.each_mut().try_map_py(|v| v.as_slice_mut().map_err(slices))?,
            counts: count_views.each_mut().try_map_py(|v| v.as_slice_mut().map_err(slices))?,
            outcome: outcome_view.as_slice_mut().map_err(slices)?,
            status: status_view.as_slice_mut().map_err(slices)?,
        };
        let failure = FirstFailure::new();
        let end_time = settings.end_time;
        let leaf = |offset: usize, mut part: Columns<'_>| {
            for j in 0..part.len() {
                let i = offset + j;
                let row = || {
                    let mut p = [Pose::identity(); 4];
                    for (k, (slot, r)) in p.iter_mut().zip(&rows).enumerate() {
                        *slot = r.at(i).map_err(|e| RowError::Pose(k, e))?;
                    }
                    toi_between_poses(sa, (&p[0], &p[1]), sb, (&p[2], &p[3]), &settings)
                        .map_err(RowError::Query)
                };
                match row() {
                    Ok(r) => part.write(j, &r, end_time),
                    Err(e) => failure.record(i, e),
                }
            }
        };
        py.detach(|| catch(|| fill(columns, threads, &leaf)))?.map_err(InternalError::new_err)?;
        match failure.into_inner() {
            None => {}
            Some((i, RowError::Pose(k, e))) => return Err(pose_error(&e, POSE_ARGS[k], i)),
            Some((i, RowError::Query(e))) => return Err(GeomError::new_err(format!("row {i}: {e}"))),
        }
    }
    PyToiBatch::from_arrays(floats, points, counts, outcome, status)
}
