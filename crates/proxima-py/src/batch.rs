//! `distance_batch`: one pair of shapes at N pairs of poses, the GIL released while the
//! queries run (on `threads` threads, rows in input order: see [`crate::parallel`]), the
//! answers as numpy arrays in a `DistanceBatch`.
//!
//! The poses of a C-contiguous float64 (N, 4, 4) array are read in place (other layouts and
//! dtypes are copied first, under the GIL) and checked row by row off the GIL — the caller
//! must not write to the pose arrays from another thread while the batch runs; the first bad
//! row (lowest index) is reported as `Ta[i]: ...`. A broadcast (4, 4) pose is checked once.
//! The answers are written straight into the output arrays, row i into slot i.

use numpy::ndarray::{Ix1, Ix2};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyFixedUnicode, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use std::mem::MaybeUninit;
use std::sync::LazyLock;

use nalgebra::{Point3, Vector3};
use proxima_geom::{DistanceResult, GeomError as RustGeomError, Pose, PreparedPair, Proximity};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::arrays::{
    self, PoseError, RawPose, Unfilled, UnfilledText, check_pose, pose_error_text, read_only,
};
use crate::errors::{GeomError, InternalError, catch, geom, invalid};
use crate::parallel::{FirstFailure, Rows, fill, thread_count};
use crate::query::{normal_of, status_name, unmeasured, witnesses};
use crate::settings::CallSettings;
use crate::shapes::PyShape;

/// Width of the status strings ("intersecting").
const STATUS_WIDTH: usize = 12;
type Status = PyFixedUnicode<STATUS_WIDTH>;

fn status_text(name: &str) -> Status {
    fixed_text(name)
}

/// The three status strings as numpy text, built once (rows copy them instead of encoding
/// the name again): entry [`status_index`]`(p)` is [`status_name`]`(p)`, by construction.
static STATUS_TEXTS: LazyLock<[Status; 3]> = LazyLock::new(|| {
    let (p, v) = (Point3::origin(), Vector3::x());
    [
        Proximity::Separated { distance: 1.0, point_a: p, point_b: p, normal: v },
        Proximity::Touching { point: p },
        Proximity::Intersecting { point: None, depth: None },
    ]
    .map(|c| status_text(status_name(&c)))
});

/// The variant of `p` as an index, in the order [`STATUS_TEXTS`] is built.
fn status_index(p: &Proximity) -> usize {
    match p {
        Proximity::Separated { .. } => 0,
        Proximity::Touching { .. } => 1,
        Proximity::Intersecting { .. } => 2,
    }
}

/// `name` as a numpy fixed-width unicode string of `W` characters (cut beyond `W`).
pub fn fixed_text<const W: usize>(name: &str) -> PyFixedUnicode<W> {
    let mut chars = [0u32; W];
    for (slot, c) in chars.iter_mut().zip(name.chars()) {
        *slot = c as u32;
    }
    PyFixedUnicode(chars)
}

/// The poses of one argument: rows read in place from a C-contiguous float64 array (the
/// common case: no copy), rows copied from any other layout, or one pose for every row.
pub enum PoseRows<'a> {
    InPlace(&'a [f64]),
    Copied(Vec<f64>),
    One(Pose),
}

impl<'a> PoseRows<'a> {
    /// The poses of argument `what` (shape (N, 4, 4), or (4, 4) for every row).
    pub fn new(view: &'a PyReadonlyArrayDyn<'_, f64>, what: &str) -> PyResult<Self> {
        match *view.shape() {
            [4, 4] => {
                let mut m: RawPose = [0.0; 16];
                for (slot, x) in m.iter_mut().zip(view.as_array().iter()) {
                    *slot = *x;
                }
                Ok(PoseRows::One(arrays::pose_from_raw(&m, what)?))
            }
            // In place only in C order (`as_slice` also accepts Fortran order, whose memory
            // holds the axes reversed); other layouts are copied in logical order.
            [_, 4, 4] => Ok(match view.as_slice() {
                Ok(flat) if view.is_c_contiguous() => PoseRows::InPlace(flat),
                _ => PoseRows::Copied(view.as_array().iter().copied().collect()),
            }),
            ref other => Err(invalid(format!(
                "{what}: expected an array of shape (N, 4, 4) or (4, 4), got shape {other:?}"
            ))),
        }
    }

    /// N, or `None` for one pose broadcast to every row.
    pub fn rows(&self) -> Option<usize> {
        match self {
            PoseRows::InPlace(flat) => Some(flat.len() / 16),
            PoseRows::Copied(flat) => Some(flat.len() / 16),
            PoseRows::One(_) => None,
        }
    }

    /// The pose of row `i`, checked (read in place: no copy of the row).
    #[inline]
    pub fn at(&self, i: usize) -> Result<Pose, PoseError> {
        let raw = |flat: &[f64]| {
            let row: &RawPose = flat[16 * i..16 * i + 16].try_into().expect("a row holds 16 values");
            check_pose(row)
        };
        match self {
            PoseRows::InPlace(flat) => raw(flat),
            PoseRows::Copied(flat) => raw(flat),
            PoseRows::One(p) => Ok(*p),
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
fn row_count(ta: &PoseRows<'_>, tb: &PoseRows<'_>) -> PyResult<usize> {
    match (ta.rows(), tb.rows()) {
        (Some(n), Some(m)) if n != m => Err(invalid(format!(
            "Ta has {n} poses but Tb has {m}: give N of each, or one (4, 4) pose to broadcast"
        ))),
        (Some(n), _) | (None, Some(n)) => Ok(n),
        (None, None) => Ok(1),
    }
}

/// The output arrays of a batch, borrowed mutably for filling off the GIL (fresh arrays no
/// Python code has seen yet).
struct Columns<'a> {
    values: [&'a mut [MaybeUninit<f64>]; 6],
    points: [&'a mut [MaybeUninit<f64>]; 3],
    status: &'a mut [MaybeUninit<[u32; STATUS_WIDTH]>],
}

impl Rows for Columns<'_> {
    fn len(&self) -> usize {
        self.status.len()
    }

    fn split_at(self, k: usize) -> (Self, Self) {
        let Columns { values, points, status } = self;
        let (s0, s1) = status.split_at_mut(k);
        let [v0, v1, v2, v3, v4, v5] = values.map(|v| v.split_at_mut(k));
        let [p0, p1, p2] = points.map(|p| p.split_at_mut(3 * k));
        (
            Columns { values: [v0.0, v1.0, v2.0, v3.0, v4.0, v5.0], points: [p0.0, p1.0, p2.0], status: s0 },
            Columns { values: [v0.1, v1.1, v2.1, v3.1, v4.1, v5.1], points: [p0.1, p1.1, p2.1], status: s1 },
        )
    }
}

impl Columns<'_> {
    /// Writes into local row `j` the answer `r` completed by its signed distance `signed` and
    /// that value's bracket [`signed_lower`, `signed_upper`] (every slot of the row).
    #[inline]
    fn write(&mut self, j: usize, r: &DistanceResult, signed: f64, signed_lower: f64, signed_upper: f64) {
        let values =
            [r.distance(), signed, r.certificate.lower, r.certificate.upper, signed_lower, signed_upper];
        for (column, v) in self.values.iter_mut().zip(values) {
            column[j].write(v);
        }
        let w = witnesses(&r.proximity);
        let points = [w.map(|w| w.0), w.map(|w| w.1), normal_of(&r.proximity)];
        for (column, p) in self.points.iter_mut().zip(points) {
            for (slot, x) in column[3 * j..3 * j + 3].iter_mut().zip(p.unwrap_or([f64::NAN; 3])) {
                slot.write(x);
            }
        }
        self.status[j].write(STATUS_TEXTS[status_index(&r.proximity)].0);
    }

    /// Computes the answer of `pair` at (`pa`, `pb`) and writes it into local row `j`: the
    /// answer of one `distance` call (bit for bit), read where the library returns it (no
    /// intermediate copies of the result).
    #[inline]
    fn answer(
        &mut self,
        j: usize,
        pair: &PreparedPair<'_>,
        pa: &Pose,
        pb: &Pose,
    ) -> Result<(), RustGeomError> {
        if pair.settings().penetration_depth {
            match pair.signed_distance(pa, pb) {
                Ok(ref sd) => self.write(j, &sd.result, sd.value, sd.certificate.lower, sd.certificate.upper),
                Err(e) => return Err(e),
            }
        } else {
            let a = unmeasured(pair.distance(pa, pb)?);
            self.write(j, &a.result, a.signed, a.signed_lower, a.signed_upper);
        }
        Ok(())
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

impl PyDistanceBatch {
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
        arrays::columns_equal(py, &self.arrays(py), &o.get().arrays(py))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("DistanceBatch(n={})", self.__len__(py))
    }

    /// Pickles as its arrays, rebuilt by `proxima._proxima._distance_batch`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        arrays::reduce_columns(py, "_distance_batch", &FIELDS, &self.arrays(py))
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
        Ok(read_only(PyArray1::from_vec(py, v))?.unbind())
    };
    let rows = |name: &str| -> PyResult<Py<PyArray2<f64>>> {
        let v = arrays::points(&get(name)?, name)?;
        Ok(read_only(arrays::out_points(py, &v)?)?.unbind())
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
        status: read_only(PyArray1::from_vec(py, status))?.unbind(),
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
    let (ta_array, tb_array) = (arrays::float_array(Ta, "Ta")?, arrays::float_array(Tb, "Tb")?);
    let (ta_view, tb_view) = (ta_array.readonly(), tb_array.readonly());
    let (ta, tb) = (PoseRows::new(&ta_view, "Ta")?, PoseRows::new(&tb_view, "Tb")?);
    let n = row_count(&ta, &tb)?;
    // The shapes' route and the settings' check once for every row (answers bit for bit those
    // of one `distance` call per row).
    let pair = PreparedPair::new(&a.get().shape, &b.get().shape, settings.get()).map_err(geom)?;

    // Uninitialised outputs (no zeroing pass over memory every row overwrites; see
    // `arrays::Unfilled`).
    let mut values: [Unfilled<'_, f64, Ix1>; 6] = std::array::from_fn(|_| Unfilled::new(py, [n]));
    let mut points: [Unfilled<'_, f64, Ix2>; 3] = std::array::from_fn(|_| Unfilled::new(py, [n, 3]));
    let mut status = UnfilledText::<STATUS_WIDTH>::new(py, n);
    {
        let [v0, v1, v2, v3, v4, v5] = &mut values;
        let [p0, p1, p2] = &mut points;
        let columns = Columns {
            values: [v0.slots(), v1.slots(), v2.slots(), v3.slots(), v4.slots(), v5.slots()],
            points: [p0.slots(), p1.slots(), p2.slots()],
            status: status.slots(),
        };
        let failure = FirstFailure::new();
        let leaf = |offset: usize, mut part: Columns<'_>| {
            for j in 0..part.len() {
                let i = offset + j;
                let pa = match ta.at(i) {
                    Ok(p) => p,
                    Err(e) => {
                        failure.record(i, RowError::PoseA(e));
                        continue;
                    }
                };
                let pb = match tb.at(i) {
                    Ok(p) => p,
                    Err(e) => {
                        failure.record(i, RowError::PoseB(e));
                        continue;
                    }
                };
                if let Err(e) = part.answer(j, &pair, &pa, &pb) {
                    failure.record(i, RowError::Query(e));
                }
            }
        };
        // Per-shape structures the rows pay for (polytopes' support lists), built once before
        // the rows are split between threads.
        let run = || {
            pair.prepare_for_rows(n);
            fill(columns, threads, &leaf)
        };
        py.detach(|| catch(run))?.map_err(InternalError::new_err)?;
        match failure.into_inner() {
            None => {}
            Some((i, RowError::PoseA(e))) => return Err(pose_error(&e, "Ta", i)),
            Some((i, RowError::PoseB(e))) => return Err(pose_error(&e, "Tb", i)),
            Some((i, RowError::Query(e))) => return Err(GeomError::new_err(format!("row {i}: {e}"))),
        }
    }
    // SAFETY (`into_filled`): no failure was recorded and no panic escaped, so every row of
    // 0..n went through `Columns::answer`, which writes every slot of its row in every output
    // (`fill` hands each row to exactly one leaf call). On any error above the arrays were
    // dropped unseen by Python.
    #[allow(unsafe_code)]
    let ([d, sd, lo, up, slo, sup], [pa, pb, nn], status) =
        unsafe { (values.map(|a| a.into_filled()), points.map(|a| a.into_filled()), status.into_filled()?) };
    Ok(PyDistanceBatch {
        distance: read_only(d)?.unbind(),
        signed_distance: read_only(sd)?.unbind(),
        lower: read_only(lo)?.unbind(),
        upper: read_only(up)?.unbind(),
        signed_lower: read_only(slo)?.unbind(),
        signed_upper: read_only(sup)?.unbind(),
        point_a: read_only(pa)?.unbind(),
        point_b: read_only(pb)?.unbind(),
        normal: read_only(nn)?.unbind(),
        status: status.unbind(),
    })
}

/// The exception for a bad pose in row `i` of argument `what`.
pub fn pose_error(e: &PoseError, what: &str, i: usize) -> PyErr {
    match e {
        PoseError::BottomRow(_) => invalid(pose_error_text(e, what, i)),
        PoseError::Geom(_) => GeomError::new_err(pose_error_text(e, what, i)),
    }
}
