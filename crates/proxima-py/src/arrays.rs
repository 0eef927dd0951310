//! Arrays in and out: numpy (or anything `numpy.asarray` reads) to fixed-size Rust values,
//! with errors naming the argument.
//!
//! Accepted input: a numpy array of float64 (the fast path: no copy, any strides), or any
//! object `numpy.asarray` turns into an array of real numbers — lists, tuples, integer or
//! float32 arrays — converted to float64. Anything else (bool, complex, strings, objects,
//! ragged lists) is a `ProximaError` naming the argument and the dtype; a wrong shape names the
//! shape expected and the shape found. Values are not checked here: the library's constructors
//! and [`proxima_geom::Pose`] reject NaN/∞ with their own messages.

use nalgebra::{Matrix3, Vector3};
use numpy::{
    PyArray1, PyArray2, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use proxima_geom::Pose;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use crate::errors::{geom_at, invalid};

/// `numpy.asarray`, looked up once.
fn asarray(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static ASARRAY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    ASARRAY
        .get_or_try_init(py, || Ok::<_, PyErr>(py.import("numpy")?.getattr("asarray")?.unbind()))
        .map(|f| f.bind(py))
}

/// `obj` as a float64 numpy array of any shape (see the module docs).
pub fn float_array<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    if let Ok(a) = obj.cast::<PyArrayDyn<f64>>() {
        return Ok(a.clone());
    }
    let py = obj.py();
    let array = asarray(py)?
        .call1((obj,))
        .map_err(|e| invalid(format!("{what}: cannot be read as an array of numbers: {e}")))?;
    let untyped = array
        .cast::<PyUntypedArray>()
        .map_err(|_| invalid(format!("{what}: cannot be read as an array of numbers")))?;
    let dtype = untyped.dtype();
    match dtype.kind() {
        b'f' | b'i' | b'u' => {
            let converted = array.call_method1("astype", ("float64",))?;
            Ok(converted.cast_into::<PyArrayDyn<f64>>()?)
        }
        _ => Err(invalid(format!(
            "{what}: expected real numbers (a float or integer array), got dtype {}",
            dtype.str().map(|s| s.to_string()).unwrap_or_else(|_| "?".into())
        ))),
    }
}

/// "(4, 4)" for error messages.
fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!("({})", shape.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// Checks `array.shape == expected` (`None` = any size on that axis).
fn expect_shape(array: &Bound<'_, PyArrayDyn<f64>>, expected: &[Option<usize>], what: &str) -> PyResult<()> {
    let shape = array.shape();
    let ok =
        shape.len() == expected.len() && shape.iter().zip(expected).all(|(s, e)| e.is_none_or(|e| *s == e));
    if ok {
        return Ok(());
    }
    let wanted: Vec<String> = expected.iter().map(|e| e.map_or("n".to_string(), |v| v.to_string())).collect();
    let wanted =
        if wanted.len() == 1 { format!("({},)", wanted[0]) } else { format!("({})", wanted.join(", ")) };
    Err(invalid(format!("{what}: expected an array of shape {wanted}, got shape {}", shape_text(shape))))
}

/// A vector of 3 numbers.
pub fn vec3(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<[f64; 3]> {
    let a = float_array(obj, what)?;
    expect_shape(&a, &[Some(3)], what)?;
    let view = a.readonly();
    let v = view.as_array();
    Ok([v[0], v[1], v[2]])
}

/// A vector of `n` numbers (any length when `n` is `None`).
pub fn vector(obj: &Bound<'_, PyAny>, n: Option<usize>, what: &str) -> PyResult<Vec<f64>> {
    let a = float_array(obj, what)?;
    expect_shape(&a, &[n], what)?;
    let view = a.readonly();
    Ok(view.as_array().iter().copied().collect())
}

/// An (n, 3) array of points, as rows.
pub fn points(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<[f64; 3]>> {
    let a = float_array(obj, what)?;
    expect_shape(&a, &[None, Some(3)], what)?;
    let view = a.readonly();
    let v = view.as_array();
    Ok((0..v.shape()[0]).map(|i| [v[[i, 0]], v[[i, 1]], v[[i, 2]]]).collect())
}

/// An (rows, cols) matrix in row-major order, with its shape (`cols` fixed when given).
pub fn matrix(obj: &Bound<'_, PyAny>, cols: Option<usize>, what: &str) -> PyResult<(usize, usize, Vec<f64>)> {
    let a = float_array(obj, what)?;
    expect_shape(&a, &[None, cols], what)?;
    let view = a.readonly();
    let v = view.as_array();
    Ok((v.shape()[0], v.shape()[1], v.iter().copied().collect()))
}

/// The 16 entries of a 4×4 matrix, row-major, as given.
pub type RawPose = [f64; 16];

/// A rigid pose from its 4×4 homogeneous matrix: the bottom row must be exactly (0, 0, 0, 1)
/// and the upper-left block a rotation to [`proxima_geom::ROTATION_TOLERANCE`] (used as given,
/// never re-orthonormalized, as [`Pose::new`] does).
#[inline]
pub fn pose_from_raw(m: &RawPose, what: &str) -> PyResult<Pose> {
    check_pose(m).map_err(|e| match e {
        PoseError::BottomRow(row) => {
            invalid(format!("{what}: the bottom row of a homogeneous pose must be [0, 0, 0, 1], got {row:?}"))
        }
        PoseError::Geom(e) => geom_at(what, e),
    })
}

/// Why a raw 4×4 matrix is not a rigid pose (no Python involved: batches check rows while the
/// interpreter runs other threads).
pub enum PoseError {
    /// The bottom row is not (0, 0, 0, 1).
    BottomRow([f64; 4]),
    /// The library rejected the rotation or translation.
    Geom(proxima_geom::GeomError),
}

/// The [`Pose`] of a raw 4×4 matrix, without Python.
#[inline]
pub fn check_pose(m: &RawPose) -> Result<Pose, PoseError> {
    let bottom = [m[12], m[13], m[14], m[15]];
    if bottom != [0.0, 0.0, 0.0, 1.0] {
        return Err(PoseError::BottomRow(bottom));
    }
    let rotation = Matrix3::new(m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]);
    Pose::from_matrix(rotation, Vector3::new(m[3], m[7], m[11])).map_err(PoseError::Geom)
}

/// The message of a [`PoseError`] for row `i` of a batch argument.
pub fn pose_error_text(e: &PoseError, what: &str, i: usize) -> String {
    match e {
        PoseError::BottomRow(row) => {
            format!("{what}[{i}]: the bottom row of a homogeneous pose must be [0, 0, 0, 1], got {row:?}")
        }
        PoseError::Geom(e) => format!("{what}[{i}]: {e}"),
    }
}

/// One 4×4 pose argument. The fast path reads a float64 (4, 4) array in place.
pub fn pose(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Pose> {
    pose_from_raw(&raw_pose(obj, what)?, what)
}

/// The 16 entries of one (4, 4) argument.
pub fn raw_pose(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<RawPose> {
    // The fast path: a float64 (4, 4) array of any layout, its 16 values read in place under
    // the GIL (no copy into a temporary, no borrow registration); anything else (lists, other
    // dtypes, wrong shapes) goes through the general path and its messages.
    if let Ok(a) = obj.cast::<PyArray2<f64>>()
        && a.shape() == [4, 4]
    {
        return Ok(read_4x4(a));
    }
    let a = float_array(obj, what)?;
    expect_shape(&a, &[Some(4), Some(4)], what)?;
    let view = a.readonly();
    let mut m = [0.0; 16];
    for (slot, x) in m.iter_mut().zip(view.as_array().iter()) {
        *slot = *x;
    }
    Ok(m)
}

/// The 16 entries of a float64 (4, 4) array, row-major, read through its strides.
///
/// The one `unsafe` read of the crate: rust-numpy's safe readers either copy into a `Vec`
/// (`to_vec`: an allocation per pose) or register a borrow in its global borrow table
/// (`readonly`), each costing more than the 16 loads on the per-call path. Reading under the
/// GIL is what numpy's own C readers do; a thread writing the array with the GIL released at
/// the same moment would be a data race in the caller's program with any reader.
#[allow(unsafe_code)]
fn read_4x4(a: &Bound<'_, PyArray2<f64>>) -> RawPose {
    let mut m = [0.0; 16];
    let base = a.data().cast::<u8>().cast_const();
    let (s0, s1) = (a.strides()[0], a.strides()[1]);
    if s1 == 8 && s0 == 32 {
        // C order: one copy of 128 bytes. SAFETY: the array holds 16 float64 contiguously from
        // `base` (shape (4, 4), these strides); the GIL is held while they are read and the
        // array object is borrowed, so the buffer stays alive. (numpy does not guarantee
        // alignment: the bytes are copied, never read as an aligned f64.)
        unsafe { std::ptr::copy_nonoverlapping(base, m.as_mut_ptr().cast::<u8>(), 128) };
        return m;
    }
    for (i, row) in m.chunks_exact_mut(4).enumerate() {
        for (j, slot) in row.iter_mut().enumerate() {
            // SAFETY: element (i, j) of a (4, 4) float64 array lives at byte offset
            // i·s0 + j·s1 from `base` (numpy's strides, in bytes, possibly negative); read
            // unaligned for the same reason as above.
            *slot = unsafe { base.offset(i as isize * s0 + j as isize * s1).cast::<f64>().read_unaligned() };
        }
    }
    m
}

/// A (3,) float64 array.
pub fn out3<'py>(py: Python<'py>, v: [f64; 3]) -> Bound<'py, PyArray1<f64>> {
    PyArray1::from_slice(py, &v)
}

/// An (n, 3) float64 array from rows.
pub fn out_points<'py>(py: Python<'py>, rows: &[[f64; 3]]) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let flat: Vec<f64> = rows.iter().flatten().copied().collect();
    PyArray1::from_vec(py, flat).reshape([rows.len(), 3])
}

/// Marks an array read-only: results are immutable (their equality and pickling rely on it).
pub fn read_only<'py, T>(a: Bound<'py, T>) -> PyResult<Bound<'py, T>> {
    let kw = pyo3::types::PyDict::new(a.py());
    kw.set_item("write", false)?;
    a.as_any().call_method("setflags", (), Some(&kw))?;
    Ok(a)
}

/// A (4, 4) float64 homogeneous matrix of `pose`.
pub fn out_pose<'py>(py: Python<'py>, pose: &Pose) -> PyResult<Bound<'py, PyArray2<f64>>> {
    out_homogeneous(py, pose.rotation(), &(*pose.translation()).into())
}

/// The (4, 4) float64 homogeneous matrix [R t; 0 0 0 1].
pub fn out_homogeneous<'py>(
    py: Python<'py>,
    r: &Matrix3<f64>,
    t: &[f64; 3],
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let mut m = [0.0; 16];
    for i in 0..3 {
        for j in 0..3 {
            m[4 * i + j] = r[(i, j)];
        }
        m[4 * i + 3] = t[i];
    }
    m[15] = 1.0;
    PyArray1::from_slice(py, &m).reshape([4, 4])
}

/// Whether two lists of numpy arrays are equal, array by array (NaN equal to NaN in float
/// arrays: what a pickle round trip preserves); the `__eq__` of the batch results.
pub fn columns_equal(py: Python<'_>, xs: &[Bound<'_, PyAny>], ys: &[Bound<'_, PyAny>]) -> PyResult<bool> {
    let equal = py.import("numpy")?.getattr("array_equal")?;
    for (x, y) in xs.iter().zip(ys) {
        let kw = pyo3::types::PyDict::new(py);
        let float = x.getattr("dtype")?.getattr("kind")?.extract::<String>()? == "f";
        kw.set_item("equal_nan", float)?;
        if !equal.call((x, y), Some(&kw))?.is_truthy()? {
            return Ok(false);
        }
    }
    Ok(xs.len() == ys.len())
}

/// The `__reduce__` of a batch result: `proxima._proxima.<rebuild>` called with the dict
/// `names[i]` → `columns[i]`.
pub fn reduce_columns<'py>(
    py: Python<'py>,
    rebuild: &str,
    names: &[&str],
    columns: &[Bound<'py, PyAny>],
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, pyo3::types::PyTuple>)> {
    let rebuild = py.import("proxima._proxima")?.getattr(rebuild)?;
    let state = pyo3::types::PyDict::new(py);
    for (name, column) in names.iter().zip(columns) {
        state.set_item(name, column)?;
    }
    Ok((rebuild, (state,).into_pyobject(py)?))
}

/// A fresh C-order numpy array whose slots are not initialised yet, filled through
/// [`Unfilled::slots`] (off the GIL if need be) and handed to Python by [`Unfilled::into_filled`]
/// only once every slot is written.
///
/// Why: a batch overwrites every slot of its outputs, so zeroing them first (`numpy.zeros`:
/// `calloc`, a memset of reused heap memory) is a second pass over the whole output for
/// nothing. The slots are `MaybeUninit`, so no Rust reference to an unwritten value ever
/// exists; the proof obligation — no unwritten slot reaches Python — is the caller's, stated
/// by the `unsafe` of `into_filled`. Dropping an `Unfilled` (on an error path) frees it unseen.
pub struct Unfilled<'py, T: numpy::Element, D: numpy::ndarray::Dimension> {
    array: Bound<'py, numpy::PyArray<T, D>>,
}

impl<'py, T: numpy::Element, D: numpy::ndarray::Dimension> Unfilled<'py, T, D> {
    /// A C-order array of shape `dims`, not initialised.
    #[allow(unsafe_code)]
    pub fn new<ID: numpy::ndarray::IntoDimension<Dim = D>>(py: Python<'py>, dims: ID) -> Self {
        // SAFETY: `PyArray::new` leaves the elements uninitialised; they are only ever written
        // through `slots` (as `MaybeUninit<T>`, never read) before `into_filled` publishes them.
        Unfilled { array: unsafe { numpy::PyArray::new(py, dims, false) } }
    }

    /// Every slot of the array in C order, for writing.
    #[allow(unsafe_code)]
    pub fn slots(&mut self) -> &mut [std::mem::MaybeUninit<T>] {
        let len = self.array.len();
        let data = self.array.data().cast::<std::mem::MaybeUninit<T>>();
        // SAFETY: a fresh C-contiguous array of `len` elements owns its buffer of `len` T from
        // `data` (numpy allocates it aligned for T; an empty array may have a dangling data
        // pointer, so it is not dereferenced then). No Python code has the object yet and
        // `&mut self` keeps this the only view of the memory while the slice lives.
        if len == 0 {
            return &mut [];
        }
        unsafe { std::slice::from_raw_parts_mut(data, len) }
    }

    /// The array, for Python.
    ///
    /// # Safety
    /// Every slot must have been written through [`Unfilled::slots`].
    #[allow(unsafe_code)]
    pub unsafe fn into_filled(self) -> Bound<'py, numpy::PyArray<T, D>> {
        self.array
    }
}

/// A fresh column of `n` fixed-width unicode strings (numpy `<U{W}`, `W` UCS-4 code units a
/// row) whose slots are not initialised yet: an [`Unfilled`] uint32 (n, W) array, viewed as
/// `<U{W}` once filled. (numpy zero-fills every fresh unicode array it allocates itself — a
/// `calloc` memset of 4·W bytes a row — but not a uint32 one; the view has the same bytes, C
/// order, shape (n,) and the unicode dtype of [`numpy::PyFixedUnicode`]`<W>`.)
pub struct UnfilledText<'py, const W: usize>(Unfilled<'py, u32, numpy::ndarray::Ix2>);

impl<'py, const W: usize> UnfilledText<'py, W> {
    /// `n` unwritten rows.
    pub fn new(py: Python<'py>, n: usize) -> Self {
        UnfilledText(Unfilled::new(py, [n, W]))
    }

    /// The `W` code units of every row, in row order, for writing.
    #[allow(unsafe_code)]
    pub fn slots(&mut self) -> &mut [std::mem::MaybeUninit<[u32; W]>] {
        let codes = self.0.slots();
        let rows = codes.len() / W;
        // SAFETY: `codes` holds rows·W code units (the array's shape is (rows, W)), and
        // `[u32; W]` is laid out as W consecutive u32 (size 4·W, the alignment of u32), so
        // the same memory is `rows` arrays of W, borrowed exclusively as `codes` was.
        unsafe { std::slice::from_raw_parts_mut(codes.as_mut_ptr().cast(), rows) }
    }

    /// The column, for Python: shape (n,), dtype `<U{W}`, read-only (its uint32 storage too,
    /// which it keeps as its `base`: no view of the memory can be made writeable again).
    ///
    /// # Safety
    /// Every slot must have been written through [`UnfilledText::slots`].
    #[allow(unsafe_code)]
    pub unsafe fn into_filled(self) -> PyResult<Bound<'py, PyArray1<numpy::PyFixedUnicode<W>>>> {
        // SAFETY: the caller's (every code unit written).
        let codes = read_only(unsafe { self.0.into_filled() })?;
        let n = codes.shape()[0];
        let dtype = <numpy::PyFixedUnicode<W> as numpy::Element>::get_dtype(codes.py());
        // (n, W) uint32 → (n, 1) `<U{W}` (the last axis regrouped, no copy) → (n,).
        let text = codes.call_method1("view", (dtype,))?.call_method1("reshape", (n,))?;
        Ok(text.cast_into::<PyArray1<numpy::PyFixedUnicode<W>>>()?)
    }
}
