//! The shape classes: `proxima.Shape` and one subclass per shape, each built through
//! [`ShapeSpec`] (the crate's one shape description, so errors name the field exactly as
//! workload and scene files do) — except `Polyhedron`, which has no description form and is
//! built by [`Polyhedron::new`].
//!
//! Axes follow the Rust crate: capsules, cylinders and cones along z, centred at the origin
//! (a cone's apex at z = +half_height). A shape keeps the description it was built from: that
//! is what it pickles to, compares by and prints.
//!
//! `ConvexHull(vertices)` without `faces` computes the exact hull once
//! ([`ConvexPolytope::hull_of`]) so support queries on large hulls hill-climb over the hull's
//! adjacency; flat point sets (no volume), which have no such hull, stay a plain vertex set.

use std::hash::{Hash, Hasher};

use numpy::PyArray2;
use numpy::PyArrayMethods;
use proxima_geom::shape::{ConvexPolytope, Polyhedron, ShapeSpec};
use proxima_geom::{GeomError as RustGeomError, Shape};
use pyo3::prelude::*;
use pyo3::types::{PyTuple, PyType};

use crate::arrays::{self, out_points, out3};
use crate::errors::{self, invalid};

/// What a shape was built from (what it pickles to and compares by).
#[derive(Debug, Clone, PartialEq)]
pub enum Description {
    /// Every shape but the polyhedron.
    Spec(ShapeSpec),
    /// `Polyhedron(normals, offsets)` as given.
    Polyhedron {
        /// Outward normals as given (not normalized).
        normals: Vec<[f64; 3]>,
        /// Offsets as given.
        offsets: Vec<f64>,
    },
}

/// `proxima.Shape`: the base class of every shape (not constructible itself).
#[pyclass(frozen, subclass, module = "proxima", name = "Shape")]
pub struct PyShape {
    /// The validated shape the queries use.
    pub shape: Shape,
    /// What it was built from.
    pub description: Description,
}

/// The class name a user sees in messages.
fn class_name(spec: &ShapeSpec) -> &'static str {
    match spec {
        ShapeSpec::Box { .. } => "Box",
        ShapeSpec::Sphere { .. } => "Sphere",
        ShapeSpec::Capsule { .. } => "Capsule",
        ShapeSpec::Cylinder { .. } => "Cylinder",
        ShapeSpec::Cone { .. } => "Cone",
        ShapeSpec::Ellipsoid { .. } => "Ellipsoid",
        ShapeSpec::Triangle { .. } => "Triangle",
        _ => "ConvexHull",
    }
}

/// Builds a shape from its description, the error prefixed by the class name (and a capsule's
/// `half_height` field called `half_length`, the Python argument).
fn from_spec(spec: ShapeSpec) -> PyResult<PyShape> {
    let class = class_name(&spec);
    let shape = spec.to_shape().map_err(|e| {
        let mut text = e.to_string();
        if class == "Capsule" && text.starts_with("half_height") {
            text = text.replacen("half_height", "half_length", 1);
        }
        errors::GeomError::new_err(format!("{class}: {text}"))
    })?;
    Ok(PyShape { shape, description: Description::Spec(spec) })
}

/// f64s hashed by their bits (so equal descriptions hash alike; -0.0 ≠ 0.0 is harmless here
/// since equal descriptions compare their numbers with `==` and only differ there in sign).
fn hash_floats(h: &mut impl Hasher, values: impl IntoIterator<Item = f64>) {
    for v in values {
        (v + 0.0).to_bits().hash(h);
    }
}

impl PyShape {
    /// The constructor arguments that rebuild this shape (for pickling and the repr).
    fn arguments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        match &self.description {
            Description::Spec(spec) => match spec {
                ShapeSpec::Box { half_extents } => (half_extents.to_vec(),).into_pyobject(py),
                ShapeSpec::Sphere { radius } => (*radius,).into_pyobject(py),
                ShapeSpec::Capsule { radius, half_height }
                | ShapeSpec::Cylinder { radius, half_height }
                | ShapeSpec::Cone { radius, half_height } => (*radius, *half_height).into_pyobject(py),
                ShapeSpec::Ellipsoid { radii } => (radii.to_vec(),).into_pyobject(py),
                ShapeSpec::Triangle { vertices: [p0, p1, p2] } => {
                    (p0.to_vec(), p1.to_vec(), p2.to_vec()).into_pyobject(py)
                }
                ShapeSpec::Convex { vertices, faces } => {
                    let faces = faces.as_ref().map(|f| faces_array(py, f)).transpose()?;
                    (out_points(py, vertices)?, faces).into_pyobject(py)
                }
                _ => Err(invalid("a shape description this version cannot rebuild")),
            },
            Description::Polyhedron { normals, offsets } => {
                (out_points(py, normals)?, numpy::PyArray1::from_slice(py, offsets)).into_pyobject(py)
            }
        }
    }

    fn hash_description(&self, h: &mut impl Hasher) {
        match &self.description {
            Description::Spec(spec) => {
                spec.type_name().hash(h);
                match spec {
                    ShapeSpec::Box { half_extents } => hash_floats(h, *half_extents),
                    ShapeSpec::Sphere { radius } => hash_floats(h, [*radius]),
                    ShapeSpec::Capsule { radius, half_height }
                    | ShapeSpec::Cylinder { radius, half_height }
                    | ShapeSpec::Cone { radius, half_height } => hash_floats(h, [*radius, *half_height]),
                    ShapeSpec::Ellipsoid { radii } => hash_floats(h, *radii),
                    ShapeSpec::Triangle { vertices } => hash_floats(h, vertices.iter().flatten().copied()),
                    ShapeSpec::Convex { vertices, faces } => {
                        hash_floats(h, vertices.iter().flatten().copied());
                        faces.hash(h);
                    }
                    _ => {}
                }
            }
            Description::Polyhedron { normals, offsets } => {
                "polyhedron".hash(h);
                hash_floats(h, normals.iter().flatten().copied());
                hash_floats(h, offsets.iter().copied());
            }
        }
    }
}

#[pymethods]
impl PyShape {
    /// (class, arguments): a shape pickles as the call that builds it.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyTuple>)> {
        Ok((slf.get_type(), slf.get().arguments(slf.py())?))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyShape>().is_ok_and(|o| o.get().description == self.description)
    }

    fn __hash__(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.hash_description(&mut h);
        h.finish()
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let args = slf.get().arguments(slf.py())?;
        let parts: PyResult<Vec<String>> = args.iter().map(|a| Ok(a.repr()?.to_string())).collect();
        let name = slf.get_type().name()?;
        Ok(format!("{name}({})", parts?.join(", ")))
    }
}

/// The (m, 3) index array of faces.
fn faces_array<'py>(py: Python<'py>, faces: &[[usize; 3]]) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let flat: Vec<i64> = faces.iter().flatten().map(|&i| i as i64).collect();
    numpy::PyArray1::from_vec(py, flat).reshape([faces.len(), 3])
}

/// An (m, 3) array of vertex indices (non-negative integers).
fn faces_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<[usize; 3]>> {
    let rows = arrays::points(obj, "faces")?;
    let index = |x: f64, i: usize, k: usize| {
        if x >= 0.0 && x.fract() == 0.0 && x < 9_007_199_254_740_992.0 {
            Ok(x as usize)
        } else {
            Err(invalid(format!("faces[{i}][{k}]: must be a vertex index (an integer >= 0), got {x}")))
        }
    };
    rows.iter()
        .enumerate()
        .map(|(i, r)| Ok([index(r[0], i, 0)?, index(r[1], i, 1)?, index(r[2], i, 2)?]))
        .collect()
}

/// The description of a subclass instance (every subclass extends [`PyShape`]).
macro_rules! spec_of {
    ($slf:expr) => {
        match &$slf.as_super().description {
            Description::Spec(spec) => spec,
            Description::Polyhedron { .. } => unreachable!("only Polyhedron holds a polyhedron description"),
        }
    };
}

/// `Box(half_extents)`: the box |x| ≤ hx, |y| ≤ hy, |z| ≤ hz.
#[pyclass(frozen, extends = PyShape, module = "proxima", name = "Box")]
pub struct PyBox;

#[pymethods]
impl PyBox {
    #[new]
    fn new(half_extents: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let half_extents = arrays::vec3(half_extents, "Box: half_extents")?;
        Ok(PyClassInitializer::from(from_spec(ShapeSpec::Box { half_extents })?).add_subclass(PyBox))
    }

    /// Half extents (x, y, z).
    #[getter]
    fn half_extents<'py>(slf: PyRef<'py, Self>) -> Bound<'py, numpy::PyArray1<f64>> {
        let ShapeSpec::Box { half_extents } = spec_of!(slf) else { unreachable!("a Box") };
        out3(slf.py(), *half_extents)
    }
}

/// `Sphere(radius)`, centred at the origin.
#[pyclass(frozen, extends = PyShape, module = "proxima", name = "Sphere")]
pub struct PySphere;

#[pymethods]
impl PySphere {
    #[new]
    fn new(radius: f64) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(from_spec(ShapeSpec::Sphere { radius })?).add_subclass(PySphere))
    }

    /// The radius.
    #[getter]
    fn radius(slf: PyRef<'_, Self>) -> f64 {
        let ShapeSpec::Sphere { radius } = spec_of!(slf) else { unreachable!("a Sphere") };
        *radius
    }
}

/// The radius and half height/length of the three axial shapes.
fn axial(spec: &ShapeSpec) -> (f64, f64) {
    match spec {
        ShapeSpec::Capsule { radius, half_height }
        | ShapeSpec::Cylinder { radius, half_height }
        | ShapeSpec::Cone { radius, half_height } => (*radius, *half_height),
        _ => unreachable!("an axial shape"),
    }
}

/// One class per axial shape (radius and a half extent along z), built through its
/// `ShapeSpec` variant; the second argument's Python name is `$half`.
macro_rules! axial_shape {
    ($class:ident, $name:literal, $variant:ident, $half:ident, $doc:literal, $radius_doc:literal, $half_doc:literal) => {
        #[doc = $doc]
        #[pyclass(frozen, extends = PyShape, module = "proxima", name = $name)]
        pub struct $class;

        #[pymethods]
        impl $class {
            #[new]
            fn new(radius: f64, $half: f64) -> PyResult<PyClassInitializer<Self>> {
                let spec = ShapeSpec::$variant { radius, half_height: $half };
                Ok(PyClassInitializer::from(from_spec(spec)?).add_subclass($class))
            }

            #[doc = $radius_doc]
            #[getter]
            fn radius(slf: PyRef<'_, Self>) -> f64 {
                axial(spec_of!(slf)).0
            }

            #[doc = $half_doc]
            #[getter]
            fn $half(slf: PyRef<'_, Self>) -> f64 {
                axial(spec_of!(slf)).1
            }
        }
    };
}

axial_shape!(
    PyCapsule,
    "Capsule",
    Capsule,
    half_length,
    "`Capsule(radius, half_length)`: the segment from (0, 0, −half_length) to (0, 0, half_length) swept by a ball of `radius`.",
    "The radius of the swept ball.",
    "Half the length of the core segment (along z)."
);
axial_shape!(
    PyCylinder,
    "Cylinder",
    Cylinder,
    half_height,
    "`Cylinder(radius, half_height)`: x² + y² ≤ radius², |z| ≤ half_height.",
    "The radius.",
    "Half the height (along z)."
);
axial_shape!(
    PyCone,
    "Cone",
    Cone,
    half_height,
    "`Cone(radius, half_height)`: apex (0, 0, half_height), base disk of `radius` at z = −half_height.",
    "The base radius.",
    "Half the height (along z)."
);

/// `Ellipsoid(radii)`: (x/a)² + (y/b)² + (z/c)² ≤ 1.
#[pyclass(frozen, extends = PyShape, module = "proxima", name = "Ellipsoid")]
pub struct PyEllipsoid;

#[pymethods]
impl PyEllipsoid {
    #[new]
    fn new(radii: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let radii = arrays::vec3(radii, "Ellipsoid: radii")?;
        Ok(PyClassInitializer::from(from_spec(ShapeSpec::Ellipsoid { radii })?).add_subclass(PyEllipsoid))
    }

    /// The radii (a, b, c).
    #[getter]
    fn radii<'py>(slf: PyRef<'py, Self>) -> Bound<'py, numpy::PyArray1<f64>> {
        let ShapeSpec::Ellipsoid { radii } = spec_of!(slf) else { unreachable!("an Ellipsoid") };
        out3(slf.py(), *radii)
    }
}

/// `Triangle(p0, p1, p2)`: a flat triangle (not collinear).
#[pyclass(frozen, extends = PyShape, module = "proxima", name = "Triangle")]
pub struct PyTriangle;

#[pymethods]
impl PyTriangle {
    #[new]
    fn new(
        p0: &Bound<'_, PyAny>,
        p1: &Bound<'_, PyAny>,
        p2: &Bound<'_, PyAny>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let vertices = [
            arrays::vec3(p0, "Triangle: p0")?,
            arrays::vec3(p1, "Triangle: p1")?,
            arrays::vec3(p2, "Triangle: p2")?,
        ];
        Ok(PyClassInitializer::from(from_spec(ShapeSpec::Triangle { vertices })?).add_subclass(PyTriangle))
    }

    /// The corners as a (3, 3) array, one per row.
    #[getter]
    fn vertices<'py>(slf: PyRef<'py, Self>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let ShapeSpec::Triangle { vertices } = spec_of!(slf) else { unreachable!("a Triangle") };
        out_points(slf.py(), vertices)
    }
}

/// `ConvexHull(vertices, faces=None)`: the convex hull of an (n, 3) point array.
#[pyclass(frozen, extends = PyShape, module = "proxima", name = "ConvexHull")]
pub struct PyConvexHull;

#[pymethods]
impl PyConvexHull {
    #[new]
    #[pyo3(signature = (vertices, faces=None))]
    fn new(
        vertices: &Bound<'_, PyAny>,
        faces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let vertices = arrays::points(vertices, "ConvexHull: vertices")?;
        let faces = faces.map(faces_arg).transpose()?;
        let hull_wanted = faces.is_none() && vertices.len() >= 4;
        let mut built = from_spec(ShapeSpec::Convex { vertices, faces })?;
        if hull_wanted && let Description::Spec(ShapeSpec::Convex { vertices, .. }) = &built.description {
            match ConvexPolytope::hull_of(vertices) {
                Ok(hull) => built.shape = Shape::ConvexPolytope(hull),
                // A flat point set has no volume hull: it stays a plain vertex set.
                Err(RustGeomError::Degenerate { .. }) => {}
                Err(e) => return Err(errors::geom_at("ConvexHull: vertices", e)),
            }
        }
        Ok(PyClassInitializer::from(built).add_subclass(PyConvexHull))
    }

    /// The points as given, (n, 3).
    #[getter]
    fn vertices<'py>(slf: PyRef<'py, Self>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let ShapeSpec::Convex { vertices, .. } = spec_of!(slf) else { unreachable!("a ConvexHull") };
        out_points(slf.py(), vertices)
    }

    /// The surface triangulation as given, (m, 3) vertex indices, or None.
    #[getter]
    fn faces<'py>(slf: PyRef<'py, Self>) -> PyResult<Option<Bound<'py, PyArray2<i64>>>> {
        let ShapeSpec::Convex { faces, .. } = spec_of!(slf) else { unreachable!("a ConvexHull") };
        faces.as_ref().map(|f| faces_array(slf.py(), f)).transpose()
    }
}

/// `Polyhedron(normals, offsets)`: { p : normals[i]·p ≤ offsets[i] }, bounded and non-empty.
#[pyclass(frozen, extends = PyShape, module = "proxima", name = "Polyhedron")]
pub struct PyPolyhedron;

#[pymethods]
impl PyPolyhedron {
    #[new]
    fn new(normals: &Bound<'_, PyAny>, offsets: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let normals = arrays::points(normals, "Polyhedron: normals")?;
        let offsets = arrays::vector(offsets, Some(normals.len()), "Polyhedron: offsets")?;
        let halfspaces = normals.iter().copied().zip(offsets.iter().copied()).collect();
        let polyhedron = Polyhedron::new(halfspaces).map_err(|e| errors::geom_at("Polyhedron", e))?;
        let base = PyShape {
            shape: Shape::Polyhedron(polyhedron),
            description: Description::Polyhedron { normals, offsets },
        };
        Ok(PyClassInitializer::from(base).add_subclass(PyPolyhedron))
    }

    /// The normals as given, (m, 3).
    #[getter]
    fn normals<'py>(slf: PyRef<'py, Self>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let Description::Polyhedron { normals, .. } = &slf.as_super().description else {
            unreachable!("a Polyhedron")
        };
        out_points(slf.py(), normals)
    }

    /// The offsets as given, (m,).
    #[getter]
    fn offsets<'py>(slf: PyRef<'py, Self>) -> Bound<'py, numpy::PyArray1<f64>> {
        let Description::Polyhedron { offsets, .. } = &slf.as_super().description else {
            unreachable!("a Polyhedron")
        };
        numpy::PyArray1::from_slice(slf.py(), offsets)
    }
}

/// Registers the shape classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyShape>()?;
    m.add_class::<PyBox>()?;
    m.add_class::<PySphere>()?;
    m.add_class::<PyCapsule>()?;
    m.add_class::<PyCylinder>()?;
    m.add_class::<PyCone>()?;
    m.add_class::<PyEllipsoid>()?;
    m.add_class::<PyTriangle>()?;
    m.add_class::<PyConvexHull>()?;
    m.add_class::<PyPolyhedron>()?;
    Ok(())
}
