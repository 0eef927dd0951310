//! `proxima.Robot`: a robot description (URDF, optional SRDF, meshes as exact convex hulls,
//! [`proxima_robot::Robot`]) with its monitored link pairs ([`RobotWorld`]: all pairs but
//! parent–child ones and those the SRDF disables), queried per configuration.
//!
//! Configuration vectors follow `../shared/bench/robot/FORMAT.md`: the actuated, non-mimic
//! joints in URDF document order (`joint_names`); values outside the joint limits are an error
//! (`RobotError`, naming the joint) unless `clamp=True`.
//!
//! * `distances(q, all_pairs=False, clamp=False)`: the minimum signed distance over the pairs
//!   (proven minimal by the scene crate's branch and bound), its pair as link names, whether
//!   any pair touches or overlaps, the bracket, and every pair's distance on request. Calls
//!   share one workspace, warm-started from the previous configuration (certified either way).
//! * `distances_batch(Q, threads=None, clamp=False, margin=None)`: one row per configuration,
//!   the GIL released, computed by the scene crate's batch engine
//!   ([`proxima_scene::batch::RobotBatch`]: chunks on `threads` threads, every row a cold
//!   query), so the arrays are identical for any thread count, and to `proxima.ray`'s.
//! * `check_configurations(Q, clamp=False)`: the batch's input checks alone (`proxima.ray`
//!   runs them before shipping anything).
//!
//! Pickling carries the description's source, not the built model: the URDF and SRDF text,
//! the directories meshes were resolved from, and the bytes of every mesh file used. Hulls
//! are exact and cheap to recompute, and the source is what reproduces the model anywhere: on
//! unpickling the mesh files are written into a private temporary directory that mirrors
//! their original absolute paths (so relative, `package://` and `../` URIs resolve to the
//! same files), the model is rebuilt from it and the directory removed. A mesh URI that
//! names an absolute path (`file:///...`) still needs that file on the unpickling machine.

use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use numpy::{PyArray1, PyUntypedArrayMethods};
use proxima_geom::Pose;
use proxima_robot::{GeometrySource, LimitPolicy, LoadOptions, MeshCache, Robot, Srdf, parse_urdf};
use proxima_scene::batch::{BatchSettings, NO_PAIR, RobotBatch};
use proxima_scene::{
    DistanceMode, RobotQuerySettings, RobotWorkspace, RobotWorld, RobotWorldBuilder, SceneError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use crate::arrays::{self, read_only};
use crate::errors::{self, InternalError, catch, guard, invalid};
use crate::parallel::thread_count;

/// What a robot was built from (what it pickles to and compares by).
#[derive(Debug, Clone, PartialEq)]
struct RobotSource {
    urdf_path: String,
    urdf_text: String,
    srdf: Option<(String, String)>,
    package_dirs: Vec<String>,
    /// Resolved mesh files (absolute paths) and their bytes, in first-use order.
    meshes: Vec<(String, Vec<u8>)>,
}

/// `proxima.Robot`.
#[pyclass(frozen, module = "proxima", name = "Robot")]
pub struct PyRobot {
    world: RobotWorld,
    source: RobotSource,
    link_names: Vec<String>,
    /// Link index (into `link_names`) of each body of the world.
    body_link: Vec<usize>,
    /// The workspace of single-configuration calls (warm-started from call to call).
    workspace: Mutex<RobotWorkspace>,
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn io_error(path: &Path, e: std::io::Error) -> PyErr {
    errors::robot(proxima_robot::RobotError::Io { path: path.to_path_buf(), message: e.to_string() })
}

/// Parses, loads meshes (through `description_dir` and `package_dirs`) and builds the world.
fn build(
    urdf_name: &str,
    urdf_text: &str,
    description_dir: &Path,
    package_dirs: &[PathBuf],
    srdf: Option<&(String, String)>,
) -> PyResult<(Robot, RobotWorld)> {
    let desc = parse_urdf(urdf_text, urdf_name).map_err(errors::robot)?;
    let options = LoadOptions { package_dirs: package_dirs.to_vec(), ..LoadOptions::default() };
    let robot = Robot::from_description(&desc, Some(description_dir), &options, &mut MeshCache::new())
        .map_err(errors::robot)?;
    let srdf = srdf.map(|(name, text)| Srdf::parse(text, name)).transpose().map_err(errors::robot)?;
    let world = RobotWorldBuilder::new()
        .robot(Arc::new(robot.clone()), Pose::identity(), "", "robot", srdf)
        .build()
        .map_err(errors::scene)?;
    Ok((robot, world))
}

impl PyRobot {
    fn new(world: RobotWorld, robot: &Robot, source: RobotSource) -> PyResult<Self> {
        let link_names: Vec<String> = robot.link_names().into_iter().map(str::to_string).collect();
        let body_link = world
            .bodies()
            .iter()
            .map(|b| {
                link_names
                    .iter()
                    .position(|l| *l == b.name)
                    .ok_or_else(|| InternalError::new_err(format!("body {:?} is not a link", b.name)))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let workspace = Mutex::new(world.workspace());
        Ok(PyRobot { world, source, link_names, body_link, workspace })
    }

    /// Link indices of pair `k`.
    fn pair_links(&self, k: usize) -> (usize, usize) {
        let p = self.world.pairs()[k];
        (self.body_link[p.a], self.body_link[p.b])
    }

    fn settings(clamp: bool, warm: bool) -> RobotQuerySettings {
        RobotQuerySettings::default()
            .with_limits(if clamp { LimitPolicy::Clamp } else { LimitPolicy::Reject })
            .with_warm_start(warm)
    }

    /// Rebuilds a robot from its pickled source in a temporary mirror of the mesh paths.
    fn from_source(source: RobotSource) -> PyResult<Self> {
        let root = std::env::temp_dir().join(format!(
            "proxima-robot-{}-{}",
            std::process::id(),
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos())
        ));
        let mirror = |p: &Path| -> PathBuf {
            let mut out = root.clone();
            for c in p.components() {
                if let Component::Normal(part) = c {
                    out.push(part);
                }
            }
            out
        };
        let result = (|| {
            for (path, bytes) in &source.meshes {
                let target = mirror(Path::new(path));
                if let Some(dir) = target.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
                }
                std::fs::write(&target, bytes).map_err(|e| io_error(&target, e))?;
            }
            let dir = mirror(Path::new(&source.urdf_path).parent().unwrap_or(Path::new("/")));
            std::fs::create_dir_all(&dir).map_err(|e| io_error(&dir, e))?;
            let packages: Vec<PathBuf> = source.package_dirs.iter().map(|d| mirror(Path::new(d))).collect();
            build(&source.urdf_path, &source.urdf_text, &dir, &packages, source.srdf.as_ref())
        })();
        let _ = std::fs::remove_dir_all(&root);
        let (robot, world) = result?;
        PyRobot::new(world, &robot, source)
    }
}

/// `RobotError` and `SceneError` for the Python side live in `errors`.
#[pymethods]
impl PyRobot {
    /// Loads a robot from a URDF file (meshes resolved against its folder and `package_dirs`,
    /// `package://` URIs through `package_dirs`), with an optional SRDF file whose
    /// `disable_collisions` remove pairs.
    #[staticmethod]
    #[pyo3(signature = (path, srdf=None, package_dirs=Vec::new()))]
    fn from_urdf(path: PathBuf, srdf: Option<PathBuf>, package_dirs: Vec<PathBuf>) -> PyResult<Self> {
        let urdf_path = absolute(&path);
        let urdf_text = std::fs::read_to_string(&urdf_path).map_err(|e| io_error(&urdf_path, e))?;
        let srdf = match srdf {
            Some(p) => {
                let p = absolute(&p);
                let text = std::fs::read_to_string(&p).map_err(|e| io_error(&p, e))?;
                Some((p.display().to_string(), text))
            }
            None => None,
        };
        let package_dirs: Vec<PathBuf> = package_dirs.iter().map(|d| absolute(d)).collect();
        let dir = urdf_path.parent().map(Path::to_path_buf).unwrap_or_default();
        let name = urdf_path.display().to_string();
        let (robot, world) = guard(|| build(&name, &urdf_text, &dir, &package_dirs, srdf.as_ref()))?;
        let mut meshes: Vec<(String, Vec<u8>)> = Vec::new();
        for g in robot.geometries() {
            if let GeometrySource::Mesh { path, .. } = &g.source {
                let path = absolute(path);
                let key = path.display().to_string();
                if !meshes.iter().any(|(p, _)| *p == key) {
                    let bytes = std::fs::read(&path).map_err(|e| io_error(&path, e))?;
                    meshes.push((key, bytes));
                }
            }
        }
        let source = RobotSource {
            urdf_path: name,
            urdf_text,
            srdf,
            package_dirs: package_dirs.iter().map(|d| d.display().to_string()).collect(),
            meshes,
        };
        PyRobot::new(world, &robot, source)
    }

    /// Number of configuration values (actuated, non-mimic joints).
    #[getter]
    fn dof(&self) -> usize {
        self.world.dof()
    }

    /// The configuration's joints, in order (URDF document order).
    #[getter]
    fn joint_names(&self) -> Vec<String> {
        self.world.joint_names()
    }

    /// Every link, in URDF document order (pair indices refer to this list).
    #[getter]
    fn link_names(&self) -> Vec<String> {
        self.link_names.clone()
    }

    /// The monitored link pairs, as (link_a, link_b) names.
    #[getter]
    fn pairs(&self) -> Vec<(String, String)> {
        (0..self.world.pairs().len())
            .map(|k| {
                let (a, b) = self.pair_links(k);
                (self.link_names[a].clone(), self.link_names[b].clone())
            })
            .collect()
    }

    /// Distances at configuration `q` (length `dof`): the minimum over the pairs with its
    /// pair, the collision verdict, and with `all_pairs=True` every pair's distance.
    #[pyo3(signature = (q, all_pairs=false, clamp=false))]
    fn distances(&self, q: &Bound<'_, PyAny>, all_pairs: bool, clamp: bool) -> PyResult<PyRobotDistances> {
        let q = arrays::vector(q, Some(self.world.dof()), "q")?;
        let mode = if all_pairs { DistanceMode::AllPairs } else { DistanceMode::Minimum };
        let settings = Self::settings(clamp, true);
        let mut ws = self.workspace.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let report =
            guard(|| self.world.distances(&q, &mut ws, &settings, mode).cloned().map_err(errors::scene))?;
        let closest = report.closest;
        Ok(PyRobotDistances {
            min_distance: closest.map_or(f64::INFINITY, |c| c.distance),
            lower: closest.map_or(f64::INFINITY, |c| c.lower),
            upper: closest.map_or(f64::INFINITY, |c| c.upper),
            pair: closest.map(|c| {
                let (a, b) = self.pair_links(c.pair);
                (self.link_names[a].clone(), self.link_names[b].clone())
            }),
            points: closest.and_then(|c| c.points).map(|(a, b)| [a.coords.into(), b.coords.into()]),
            in_collision: report.in_collision,
            all: all_pairs.then(|| report.pairs.iter().map(|p| p.distance).collect()),
        })
    }

    /// Distances at N configurations `Q` (N, dof): arrays `min_distance`, `pair_a`, `pair_b`
    /// (indices into `link_names`), `in_collision`, `lower`, `upper`; the GIL released, rows
    /// in input order and the same bits for any thread count (the scene crate's batch
    /// engine, [`RobotBatch`]). With `margin`: distances exact up to it, `inf` (pair -1,
    /// bracket [margin, inf]) beyond.
    #[pyo3(signature = (Q, threads=None, clamp=false, margin=None))]
    #[allow(non_snake_case)]
    fn distances_batch(
        &self,
        py: Python<'_>,
        Q: &Bound<'_, PyAny>,
        threads: Option<i64>,
        clamp: bool,
        margin: Option<f64>,
    ) -> PyResult<PyRobotBatch> {
        let threads = thread_count(threads)?;
        let (_, _, q) = arrays::matrix(Q, Some(self.world.dof()), "Q")?;
        let settings = BatchSettings::default()
            .with_threads(threads)
            .with_margin(margin)
            .with_query(Self::settings(clamp, false));
        let result = py
            .detach(|| catch(|| RobotBatch::new(&self.world, &q, &settings).and_then(|b| b.run(None))))?
            .map_err(batch_error)?;
        let (pair_a, pair_b): (Vec<i64>, Vec<i64>) = result
            .pair
            .iter()
            .map(|&k| {
                if k == NO_PAIR {
                    (-1, -1)
                } else {
                    let (a, b) = self.pair_links(k as usize);
                    (a as i64, b as i64)
                }
            })
            .unzip();
        Ok(PyRobotBatch {
            min_distance: read_only(PyArray1::from_vec(py, result.min_distance))?.unbind(),
            pair_a: read_only(PyArray1::from_vec(py, pair_a))?.unbind(),
            pair_b: read_only(PyArray1::from_vec(py, pair_b))?.unbind(),
            in_collision: read_only(PyArray1::from_vec(py, result.in_collision))?.unbind(),
            lower: read_only(PyArray1::from_vec(py, result.lower))?.unbind(),
            upper: read_only(PyArray1::from_vec(py, result.upper))?.unbind(),
        })
    }

    /// Checks configurations `Q` (N, dof) as a batch would, without computing anything: finite
    /// values, joint limits (unless `clamp`). Raises `ValueError` (`RobotError`) naming the
    /// first bad row, as `Q[i]: ...`.
    #[pyo3(signature = (Q, clamp=false))]
    #[allow(non_snake_case)]
    fn check_configurations(&self, py: Python<'_>, Q: &Bound<'_, PyAny>, clamp: bool) -> PyResult<()> {
        let dof = self.world.dof();
        let (_, _, q) = arrays::matrix(Q, Some(dof), "Q")?;
        let limits = if clamp { LimitPolicy::Clamp } else { LimitPolicy::Reject };
        py.detach(|| {
            catch(|| {
                let mut scratch = vec![0.0; dof];
                for (i, row) in q.chunks_exact(dof.max(1)).enumerate() {
                    if let Err(e) = self.world.check_configuration(row, limits, &mut scratch) {
                        return Err((i, e));
                    }
                }
                Ok(())
            })
        })?
        .map_err(|(i, e)| row_error(i, e))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyRobot>().is_ok_and(|o| {
            let (s, o) = (&self.source, &o.get().source);
            s.urdf_text == o.urdf_text
                && s.srdf.as_ref().map(|x| &x.1) == o.srdf.as_ref().map(|x| &x.1)
                && s.meshes.iter().map(|m| &m.1).eq(o.meshes.iter().map(|m| &m.1))
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Robot.from_urdf({:?}) ({} joints, {} pairs)",
            self.source.urdf_path,
            self.world.dof(),
            self.world.pairs().len()
        )
    }

    /// Pickles as its source (URDF, SRDF, mesh bytes), rebuilt by `proxima._proxima._robot`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("proxima._proxima")?.getattr("_robot")?;
        let s = &self.source;
        let meshes = PyList::empty(py);
        for (path, bytes) in &s.meshes {
            meshes.append((path, PyBytes::new(py, bytes)))?;
        }
        let state = (&s.urdf_path, &s.urdf_text, s.srdf.clone(), s.package_dirs.clone(), meshes);
        Ok((rebuild, (state,).into_pyobject(py)?))
    }
}

/// A failed row of a robot batch: `Q[i]: ...` with the scene crate's message.
fn row_error(i: usize, e: SceneError) -> PyErr {
    let text = format!("Q[{i}]: {e}");
    match e {
        SceneError::Robot { .. } => errors::RobotError::new_err(text),
        _ => errors::SceneError::new_err(text),
    }
}

/// A batch error: a configuration's as `Q[i]: ...`, the rest (settings) as they are.
fn batch_error(e: SceneError) -> PyErr {
    match e {
        SceneError::Configuration { index, source } => row_error(index, *source),
        other => errors::scene(other),
    }
}

/// The pickled state of a `Robot`.
type RobotState = (String, String, Option<(String, String)>, Vec<String>, Vec<(String, Vec<u8>)>);

/// Rebuilds a pickled `Robot` (not for direct use).
#[pyfunction]
#[pyo3(name = "_robot")]
pub fn robot_from_state(state: RobotState) -> PyResult<PyRobot> {
    let (urdf_path, urdf_text, srdf, package_dirs, meshes) = state;
    guard(|| PyRobot::from_source(RobotSource { urdf_path, urdf_text, srdf, package_dirs, meshes }))
}

/// `proxima.RobotDistances`: the answer of `Robot.distances`.
#[pyclass(frozen, module = "proxima", name = "RobotDistances")]
pub struct PyRobotDistances {
    /// Minimum signed distance over the pairs (inf without pairs).
    #[pyo3(get)]
    min_distance: f64,
    /// Proven lower bound of the minimum.
    #[pyo3(get)]
    lower: f64,
    /// Proven upper bound of the minimum.
    #[pyo3(get)]
    upper: f64,
    /// The closest pair as (link_a, link_b) names (None without pairs).
    #[pyo3(get)]
    pair: Option<(String, String)>,
    points: Option<[[f64; 3]; 2]>,
    /// Whether some pair touches or overlaps.
    #[pyo3(get)]
    in_collision: bool,
    all: Option<Vec<f64>>,
}

#[pymethods]
impl PyRobotDistances {
    /// Witness points of the closest pair, (2, 3) (world frame), or None.
    #[getter]
    fn points<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, numpy::PyArray2<f64>>>> {
        self.points.map(|p| arrays::out_points(py, &p)).transpose()
    }

    /// Every pair's signed distance in `Robot.pairs` order (with `all_pairs=True`), else None.
    #[getter]
    fn distances<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        self.all.as_ref().map(|v| PyArray1::from_slice(py, v))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let Ok(o) = other.cast::<PyRobotDistances>() else { return false };
        let o = o.get();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        bits(&[self.min_distance, self.lower, self.upper]) == bits(&[o.min_distance, o.lower, o.upper])
            && self.pair == o.pair
            && self.in_collision == o.in_collision
            && self.points.map(|p| bits(p.as_flattened())) == o.points.map(|p| bits(p.as_flattened()))
            && self.all.as_deref().map(bits) == o.all.as_deref().map(bits)
    }

    fn __repr__(&self) -> String {
        let pair = self.pair.as_ref().map_or("None".to_string(), |(a, b)| format!("({a:?}, {b:?})"));
        format!(
            "RobotDistances(min_distance={:?}, pair={pair}, in_collision={})",
            self.min_distance,
            if self.in_collision { "True" } else { "False" }
        )
    }

    /// Pickles as its fields, rebuilt by `proxima._proxima._robot_distances`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("proxima._proxima")?.getattr("_robot_distances")?;
        let state = (
            (self.min_distance, self.lower, self.upper),
            self.pair.clone(),
            self.points,
            self.in_collision,
            self.all.clone(),
        );
        Ok((rebuild, (state,).into_pyobject(py)?))
    }
}

/// The pickled state of a `RobotDistances`.
type DistancesState =
    ((f64, f64, f64), Option<(String, String)>, Option<[[f64; 3]; 2]>, bool, Option<Vec<f64>>);

/// Rebuilds a pickled `RobotDistances` (not for direct use).
#[pyfunction]
#[pyo3(name = "_robot_distances")]
pub fn robot_distances_from_state(state: DistancesState) -> PyRobotDistances {
    let ((min_distance, lower, upper), pair, points, in_collision, all) = state;
    PyRobotDistances { min_distance, lower, upper, pair, points, in_collision, all }
}

/// `proxima.RobotBatch`: the answers of `Robot.distances_batch`, row i for configuration i.
#[pyclass(frozen, module = "proxima", name = "RobotBatch")]
pub struct PyRobotBatch {
    /// (N,) minimum signed distance over the pairs.
    #[pyo3(get)]
    min_distance: Py<PyArray1<f64>>,
    /// (N,) first link of the closest pair (index into `Robot.link_names`; -1 without pairs).
    #[pyo3(get)]
    pair_a: Py<PyArray1<i64>>,
    /// (N,) second link of the closest pair.
    #[pyo3(get)]
    pair_b: Py<PyArray1<i64>>,
    /// (N,) whether some pair touches or overlaps.
    #[pyo3(get)]
    in_collision: Py<PyArray1<bool>>,
    /// (N,) proven lower bound of the minimum.
    #[pyo3(get)]
    lower: Py<PyArray1<f64>>,
    /// (N,) proven upper bound of the minimum.
    #[pyo3(get)]
    upper: Py<PyArray1<f64>>,
}

impl PyRobotBatch {
    fn arrays<'py>(&self, py: Python<'py>) -> [(&'static str, Bound<'py, PyAny>); 6] {
        [
            ("min_distance", self.min_distance.bind(py).clone().into_any()),
            ("pair_a", self.pair_a.bind(py).clone().into_any()),
            ("pair_b", self.pair_b.bind(py).clone().into_any()),
            ("in_collision", self.in_collision.bind(py).clone().into_any()),
            ("lower", self.lower.bind(py).clone().into_any()),
            ("upper", self.upper.bind(py).clone().into_any()),
        ]
    }
}

#[pymethods]
impl PyRobotBatch {
    fn __len__(&self, py: Python<'_>) -> usize {
        self.min_distance.bind(py).len()
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(o) = other.cast::<PyRobotBatch>() else { return Ok(false) };
        let equal = py.import("numpy")?.getattr("array_equal")?;
        for ((_, x), (_, y)) in self.arrays(py).iter().zip(o.get().arrays(py)) {
            if !equal.call1((x, y))?.is_truthy()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("RobotBatch(n={})", self.__len__(py))
    }

    /// Pickles as its arrays, rebuilt by `proxima._proxima._robot_batch`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("proxima._proxima")?.getattr("_robot_batch")?;
        let state = PyDict::new(py);
        for (name, array) in self.arrays(py) {
            state.set_item(name, array)?;
        }
        Ok((rebuild, (state,).into_pyobject(py)?))
    }
}

/// Rebuilds a pickled `RobotBatch` (not for direct use).
#[pyfunction]
#[pyo3(name = "_robot_batch")]
pub fn robot_batch_from_state(py: Python<'_>, state: &Bound<'_, PyDict>) -> PyResult<PyRobotBatch> {
    let get = |name: &str| -> PyResult<Bound<'_, PyAny>> {
        state.get_item(name)?.ok_or_else(|| invalid(format!("not a RobotBatch state: no {name}")))
    };
    let floats = |name: &str| -> PyResult<Py<PyArray1<f64>>> {
        Ok(read_only(PyArray1::from_vec(py, arrays::vector(&get(name)?, None, name)?))?.unbind())
    };
    let ints = |name: &str| -> PyResult<Py<PyArray1<i64>>> {
        let v: Vec<i64> = get(name)?.call_method0("tolist")?.extract()?;
        Ok(read_only(PyArray1::from_vec(py, v))?.unbind())
    };
    let flags: Vec<bool> = get("in_collision")?.call_method0("tolist")?.extract()?;
    let batch = PyRobotBatch {
        min_distance: floats("min_distance")?,
        pair_a: ints("pair_a")?,
        pair_b: ints("pair_b")?,
        in_collision: read_only(PyArray1::from_vec(py, flags))?.unbind(),
        lower: floats("lower")?,
        upper: floats("upper")?,
    };
    let n = batch.__len__(py);
    if batch.arrays(py).iter().any(|(_, a)| a.len().ok() != Some(n)) {
        return Err(invalid("not a RobotBatch state: arrays of different lengths"));
    }
    Ok(batch)
}
