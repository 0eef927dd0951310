//! Scene files: JSON, the geometry bench's workload format (`shapes` with `id`/`type`, poses
//! `{"translation", "rotation"}`) extended with bodies, robots and pair rules.
//!
//! ```text
//! {
//!   "name": "my cell", "dt": 0.001, "cycles": 2000,
//!   "shapes": [ {"id": "slab", "type": "box", "half_extents": [5, 5, 0.1]},
//!               {"id": "col", "type": "prism", "sides": 8, "axis": "z", "apothem": 0.28, "half": 0.125},
//!               ... box | sphere | capsule | cylinder | cone | ellipsoid | triangle | convex | prism ],
//!   "bodies": [ {"name": "F", "group": "floor", "shape": "slab", "pose": POSE,
//!                "poses": [POSE, ...]   (optional: one pose per cycle, scripted motion)} ],
//!   "robots": [ {"name": "arm", "base": POSE,
//!                "joints": [ {"offset": [x, y, z], "axis": "x" | "y" | "z"} ],
//!                "links":  [ {"name": "P1", "frame": 0, "shape": "id", "pose": POSE} ],
//!                "trajectory": TRAJECTORY },
//!              {"name": "left", "urdf": "robots/panda.urdf", "srdf": "robots/panda.srdf",
//!               "package_dirs": ["ros/share"], "base": POSE, "prefix": "left/",
//!               "self_collision": "all_but_adjacent" | "all_but_rigid" | "none",
//!               "clamp": false, "mesh_parts": "objects" | "whole", "trajectory": TRAJECTORY } ],
//!   "pairs": {"include": [["group:arm", "O"], ...], "exclude": [["P1", "F"]],
//!             "exclude_same_group": false, "exclude_adjacent": true}
//! }
//! POSE = {"translation": [x, y, z], "rotation": [[r00, r01, r02], [r10, r11, r12], [r20, r21, r22]]}
//!     or {"xyz": [x, y, z], "rpy": [roll, pitch, yaw]}            (URDF convention)
//! TRAJECTORY = {"period": 4, "degrees": true,
//!               "joints": [ {"offset": 0, "terms": [[amplitude, harmonic, phase_rad]]} ]}
//!           or {"samples": [[q1, …, qn], …], "degrees": true}        (one vector per cycle)
//!           or {"waypoints": [{"t": 0.0, "q": [q1, …, qn]}, …], "degrees": true}
//! ```
//!
//! Shapes other than `prism` and `mesh` are read by [`ShapeSpec`] (the shape vocabulary the
//! workload files share; `convex` may carry `faces`); `{"type": "mesh", "file": PATH,
//! "scale": [sx, sy, sz]}` is the exact convex hull of a mesh's vertices (STL, OBJ, COLLADA).
//! `rotation` may be omitted (identity). Relative paths (URDF, SRDF, package directories,
//! meshes) are relative to the scene file's folder ([`parse_scene_file`]), or the current
//! directory for [`parse_scene`].
//!
//! Hand-written arms' links become objects named as given, in group `robots[i].name`. A robot
//! with a `urdf` is a [`crate::workcell::DescribedRobot`]: its link pieces are objects named
//! `{prefix}{link}` (prefix default `""`) in group `name`, its configuration is the URDF's
//! actuated joints in document order (`degrees` converts revolute and continuous coordinates
//! only), its self pairs follow `self_collision` and the SRDF and are always monitored (minus
//! `exclude` rules); trajectory values outside the joint limits are an error naming the sample
//! or waypoint, unless `clamp`. Without `pairs`, every pair of objects in different groups is
//! monitored.
//! A prism with `"exact": false` (the default) is its bounding box (see
//! [`crate::workcell::PrismModel`]). Every error names the offending field by its JSON path
//! (`robots[0].links[3].frame`), and syntax errors by line and column. Unknown keys are ignored.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use nalgebra::{Matrix3, Vector3};
use proxima_geom::shape::ShapeSpec;
use proxima_geom::{GeomError, Pose, Shape};
use proxima_robot::urdf::rpy_matrix;
use proxima_robot::{JointKind, LimitPolicy, LoadOptions, MeshCache, MeshParts, Robot, Srdf};
use serde_json::{Map, Value};

use crate::error::SceneError;
use crate::pairs::{PairRules, Selector};
use crate::robot::{Axis, Joint, JointSinusoid, Link, RobotModel, Trajectory};
use crate::robot_world::SelfCollision;
use crate::workcell::{PrismModel, ScriptedObject, Workcell, prism};

/// Reads and parses the scene file at `path` (relative paths inside resolve against its
/// folder).
pub fn parse_scene_file(path: &Path) -> Result<Workcell, SceneError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| SceneError::invalid(path.display().to_string(), format!("cannot read: {e}")))?;
    parse_scene_in(&text, path.parent())
}

/// Parses a scene file's text into a [`Workcell`]; relative paths resolve against the current
/// directory.
pub fn parse_scene(text: &str) -> Result<Workcell, SceneError> {
    parse_scene_in(text, None)
}

/// Parses a scene file's text; relative paths resolve against `dir` (the current directory
/// when `None`).
pub fn parse_scene_in(text: &str, dir: Option<&Path>) -> Result<Workcell, SceneError> {
    let resolve = |p: &str| -> PathBuf {
        let p = Path::new(p);
        match dir {
            Some(d) if p.is_relative() => d.join(p),
            _ => p.to_path_buf(),
        }
    };
    let mut meshes = MeshCache::new();
    let root: Value = serde_json::from_str(text).map_err(|e| SceneError::Syntax {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let root = object(&root, "scene")?;
    let name = match root.get("name") {
        Some(v) => v.as_str().ok_or_else(|| SceneError::invalid("name", "must be a string"))?.to_string(),
        None => "scene".to_string(),
    };
    let dt = match root.get("dt") {
        Some(v) => positive(v, "dt")?,
        None => 1e-3,
    };
    let cycles = match root.get("cycles") {
        Some(v) => {
            v.as_u64()
                .filter(|&c| c >= 1)
                .ok_or_else(|| SceneError::invalid("cycles", "must be an integer >= 1"))? as usize
        }
        None => 1000,
    };
    let mut cell = Workcell::new(name, dt, cycles)?;

    let mut shapes: HashMap<String, Shape> = HashMap::new();
    if let Some(list) = root.get("shapes") {
        for (i, s) in array(list, "shapes")?.iter().enumerate() {
            let at = format!("shapes[{i}]");
            let s = object(s, &at)?;
            let id = string(field(s, "id", &at)?, &format!("{at}.id"))?;
            if shapes.contains_key(id) {
                return Err(SceneError::invalid(format!("{at}.id"), format!("duplicate shape id {id:?}")));
            }
            let parsed = if s.get("type").and_then(Value::as_str) == Some("mesh") {
                mesh_shape(s, &at, &resolve, &mut meshes)?
            } else {
                shape(s, &at)?
            };
            shapes.insert(id.to_string(), parsed);
        }
    }
    let lookup = |v: &Value, at: &str| -> Result<Shape, SceneError> {
        let id = string(v, at)?;
        shapes.get(id).cloned().ok_or_else(|| SceneError::invalid(at, format!("unknown shape id {id:?}")))
    };

    if let Some(list) = root.get("robots") {
        for (i, r) in array(list, "robots")?.iter().enumerate() {
            let at = format!("robots[{i}]");
            let r = object(r, &at)?;
            let rname = string(field(r, "name", &at)?, &format!("{at}.name"))?.to_string();
            if r.contains_key("urdf") {
                described_robot(&mut cell, r, &at, &rname, &resolve, &mut meshes)?;
                continue;
            }
            let base = match r.get("base") {
                Some(p) => pose(p, &format!("{at}.base"))?,
                None => Pose::identity(),
            };
            let mut joints = Vec::new();
            for (j, jv) in array(field(r, "joints", &at)?, &format!("{at}.joints"))?.iter().enumerate() {
                let jat = format!("{at}.joints[{j}]");
                let jo = object(jv, &jat)?;
                let offset = vec3(field(jo, "offset", &jat)?, &format!("{jat}.offset"))?;
                let axis = match string(field(jo, "axis", &jat)?, &format!("{jat}.axis"))? {
                    "x" => Axis::X,
                    "y" => Axis::Y,
                    "z" => Axis::Z,
                    other => {
                        return Err(SceneError::invalid(
                            format!("{jat}.axis"),
                            format!("{other:?} is not x, y or z"),
                        ));
                    }
                };
                joints.push(Joint { offset, axis });
            }
            let mut links = Vec::new();
            for (k, lv) in array(field(r, "links", &at)?, &format!("{at}.links"))?.iter().enumerate() {
                let lat = format!("{at}.links[{k}]");
                let lo = object(lv, &lat)?;
                let name = string(field(lo, "name", &lat)?, &format!("{lat}.name"))?.to_string();
                let frame = field(lo, "frame", &lat)?.as_u64().ok_or_else(|| {
                    SceneError::invalid(format!("{lat}.frame"), "must be a non-negative integer")
                })? as usize;
                if frame > joints.len() {
                    return Err(SceneError::invalid(
                        format!("{lat}.frame"),
                        format!("frame {frame} does not exist (the arm has {} joints)", joints.len()),
                    ));
                }
                let local = match lo.get("pose") {
                    Some(p) => pose(p, &format!("{lat}.pose"))?,
                    None => Pose::identity(),
                };
                let shape = lookup(field(lo, "shape", &lat)?, &format!("{lat}.shape"))?;
                links.push(Link { name, frame, local, shape });
            }
            let traj = trajectory(
                field(r, "trajectory", &at)?,
                &format!("{at}.trajectory"),
                &vec![true; joints.len()],
            )?;
            let model = RobotModel { base, joints, links };
            cell.add_robot("", &rname, model, traj).map_err(|e| prefix_error(e, &at))?;
        }
    }

    if let Some(list) = root.get("bodies") {
        for (i, b) in array(list, "bodies")?.iter().enumerate() {
            let at = format!("bodies[{i}]");
            let b = object(b, &at)?;
            let name = string(field(b, "name", &at)?, &format!("{at}.name"))?;
            let group = match b.get("group") {
                Some(g) => string(g, &format!("{at}.group"))?,
                None => "bodies",
            };
            let shape = lookup(field(b, "shape", &at)?, &format!("{at}.shape"))?;
            let scripted = match b.get("poses") {
                Some(list) => {
                    let list = array(list, &format!("{at}.poses"))?;
                    if list.is_empty() {
                        return Err(SceneError::invalid(format!("{at}.poses"), "must not be empty"));
                    }
                    let mut poses = Vec::with_capacity(list.len());
                    for (k, p) in list.iter().enumerate() {
                        poses.push(pose(p, &format!("{at}.poses[{k}]"))?);
                    }
                    Some(poses)
                }
                None => None,
            };
            let initial = match (b.get("pose"), &scripted) {
                (Some(p), _) => pose(p, &format!("{at}.pose"))?,
                (None, Some(poses)) => poses[0],
                (None, None) => Pose::identity(),
            };
            let id = cell.world.add(name, group, shape, initial).map_err(|e| prefix_error(e, &at))?;
            if let Some(poses) = scripted {
                cell.scripted.push(ScriptedObject { object: id, poses });
            }
        }
    }
    if cell.world.len() < 2 {
        return Err(SceneError::invalid("bodies", "a scene needs at least two objects"));
    }

    let rules = match root.get("pairs") {
        Some(p) => pair_rules(p)?,
        None => PairRules {
            include: vec![(Selector::All, Selector::All)],
            exclude_same_group: true,
            ..PairRules::default()
        },
    };
    cell.set_pairs(&rules)?;
    if cell.pairs.is_empty() {
        return Err(SceneError::invalid("pairs", "the rules select no pair"));
    }
    cell.set_cycle(0)?;
    Ok(cell)
}

fn prefix_error(e: SceneError, at: &str) -> SceneError {
    match e {
        SceneError::Invalid { field, reason } => SceneError::invalid(format!("{at}.{field}"), reason),
        SceneError::Geometry { at: inner, source } => {
            SceneError::Geometry { at: format!("{at}.{inner}"), source }
        }
        other => other,
    }
}

fn object<'a>(v: &'a Value, at: &str) -> Result<&'a Map<String, Value>, SceneError> {
    v.as_object().ok_or_else(|| SceneError::invalid(at, "must be a JSON object"))
}

fn array<'a>(v: &'a Value, at: &str) -> Result<&'a Vec<Value>, SceneError> {
    v.as_array().ok_or_else(|| SceneError::invalid(at, "must be a JSON array"))
}

fn field<'a>(m: &'a Map<String, Value>, key: &str, at: &str) -> Result<&'a Value, SceneError> {
    m.get(key).ok_or_else(|| SceneError::invalid(format!("{at}.{key}"), "missing"))
}

fn string<'a>(v: &'a Value, at: &str) -> Result<&'a str, SceneError> {
    v.as_str().ok_or_else(|| SceneError::invalid(at, "must be a string"))
}

fn number(v: &Value, at: &str) -> Result<f64, SceneError> {
    let x = v.as_f64().ok_or_else(|| SceneError::invalid(at, "must be a number"))?;
    if x.is_finite() { Ok(x) } else { Err(SceneError::invalid(at, "must be finite")) }
}

fn positive(v: &Value, at: &str) -> Result<f64, SceneError> {
    let x = number(v, at)?;
    if x > 0.0 { Ok(x) } else { Err(SceneError::invalid(at, "must be > 0")) }
}

fn numbers(v: &Value, at: &str) -> Result<Vec<f64>, SceneError> {
    array(v, at)?.iter().enumerate().map(|(i, x)| number(x, &format!("{at}[{i}]"))).collect()
}

fn vec3(v: &Value, at: &str) -> Result<[f64; 3], SceneError> {
    let xs = numbers(v, at)?;
    xs.try_into()
        .map_err(|xs: Vec<f64>| SceneError::invalid(at, format!("needs 3 numbers, got {}", xs.len())))
}

fn geom<T>(at: &str, r: Result<T, proxima_geom::GeomError>) -> Result<T, SceneError> {
    r.map_err(|source| SceneError::Geometry { at: at.to_string(), source })
}

fn pose(v: &Value, at: &str) -> Result<Pose, SceneError> {
    let m = object(v, at)?;
    if m.contains_key("xyz") || m.contains_key("rpy") {
        let xyz = match m.get("xyz") {
            Some(t) => vec3(t, &format!("{at}.xyz"))?,
            None => [0.0; 3],
        };
        let rpy = match m.get("rpy") {
            Some(t) => vec3(t, &format!("{at}.rpy"))?,
            None => [0.0; 3],
        };
        return geom(&format!("{at}.rpy"), Pose::from_matrix(rpy_matrix(rpy), Vector3::from(xyz)));
    }
    let t = match m.get("translation") {
        Some(t) => vec3(t, &format!("{at}.translation"))?,
        None => [0.0; 3],
    };
    let r = match m.get("rotation") {
        Some(r) => {
            let rows = array(r, &format!("{at}.rotation"))?;
            if rows.len() != 3 {
                return Err(SceneError::invalid(format!("{at}.rotation"), "needs 3 rows"));
            }
            let mut out = Matrix3::zeros();
            for (i, row) in rows.iter().enumerate() {
                let row = vec3(row, &format!("{at}.rotation[{i}]"))?;
                for j in 0..3 {
                    out[(i, j)] = row[j];
                }
            }
            out
        }
        None => Matrix3::identity(),
    };
    geom(&format!("{at}.rotation"), Pose::from_matrix(r, Vector3::from(t)))
}

/// Shape `at`: a `prism` (scene files only), else the workspace's one shape vocabulary,
/// [`ShapeSpec`], whose field errors keep their path (`shapes[8].half_extents: ...`).
fn shape(s: &Map<String, Value>, at: &str) -> Result<Shape, SceneError> {
    let kind = string(field(s, "type", at)?, &format!("{at}.type"))?;
    let p = |k: &str| format!("{at}.{k}");
    if kind != "prism" {
        if !ShapeSpec::TYPES.contains(&kind) {
            let known = ShapeSpec::TYPES.join(", ");
            return Err(SceneError::invalid(
                p("type"),
                format!("unknown shape type {kind:?}; expected one of {known}, prism"),
            ));
        }
        let in_field = |e: GeomError| match e {
            GeomError::InvalidField { field, reason } => SceneError::invalid(p(&field), reason),
            source => SceneError::Geometry { at: at.to_string(), source },
        };
        let spec = ShapeSpec::deserialize_fields(&Value::Object(s.clone()))
            .map_err(|e| SceneError::invalid(at, e.to_string()))?
            .map_err(in_field)?;
        return spec.to_shape().map_err(in_field);
    }
    let f = |k: &str| field(s, k, at);
    let sides = f("sides")?
        .as_u64()
        .filter(|&k| (3..=64).contains(&k))
        .ok_or_else(|| SceneError::invalid(p("sides"), "must be an integer in 3..=64"))?;
    let axis = match string(f("axis")?, &p("axis"))? {
        "x" => Axis::X,
        "y" => Axis::Y,
        "z" => Axis::Z,
        other => return Err(SceneError::invalid(p("axis"), format!("{other:?} is not x, y or z"))),
    };
    let apothem = positive(f("apothem")?, &p("apothem"))?;
    let half = positive(f("half")?, &p("half"))?;
    let exact = match s.get("exact") {
        Some(v) => v.as_bool().ok_or_else(|| SceneError::invalid(p("exact"), "must be true or false"))?,
        None => false,
    };
    let model = if exact { PrismModel::Exact } else { PrismModel::BoundingBox };
    prism(sides as usize, axis, apothem, half, model).map_err(|e| prefix_error(e, at))
}

/// A trajectory for `angular.len()` joints; `degrees` converts the joints marked angular.
fn trajectory(v: &Value, at: &str, angular: &[bool]) -> Result<Trajectory, SceneError> {
    let joints = angular.len();
    let m = object(v, at)?;
    let degrees = match m.get("degrees") {
        Some(d) => d
            .as_bool()
            .ok_or_else(|| SceneError::invalid(format!("{at}.degrees"), "must be true or false"))?,
        None => false,
    };
    let scales: Vec<f64> =
        angular.iter().map(|&a| if degrees && a { std::f64::consts::PI / 180.0 } else { 1.0 }).collect();
    let convert = |q: Vec<f64>| -> Vec<f64> { q.into_iter().zip(&scales).map(|(x, s)| x * s).collect() };
    if let Some(list) = m.get("waypoints") {
        let rows = array(list, &format!("{at}.waypoints"))?;
        if rows.is_empty() {
            return Err(SceneError::invalid(format!("{at}.waypoints"), "must not be empty"));
        }
        let (mut times, mut values) = (Vec::with_capacity(rows.len()), Vec::with_capacity(rows.len()));
        for (i, row) in rows.iter().enumerate() {
            let wat = format!("{at}.waypoints[{i}]");
            let w = object(row, &wat)?;
            let t = number(field(w, "t", &wat)?, &format!("{wat}.t"))?;
            if times.last().is_some_and(|&last| t <= last) {
                return Err(SceneError::invalid(format!("{wat}.t"), "times must increase strictly"));
            }
            let q = numbers(field(w, "q", &wat)?, &format!("{wat}.q"))?;
            if q.len() != joints {
                return Err(SceneError::invalid(
                    format!("{wat}.q"),
                    format!("{} values for {joints} joints", q.len()),
                ));
            }
            times.push(t);
            values.push(convert(q));
        }
        return Ok(Trajectory::Waypoints { times, values });
    }
    if let Some(samples) = m.get("samples") {
        let rows = array(samples, &format!("{at}.samples"))?;
        if rows.is_empty() {
            return Err(SceneError::invalid(format!("{at}.samples"), "must not be empty"));
        }
        let mut out = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let rat = format!("{at}.samples[{i}]");
            let q = numbers(row, &rat)?;
            if q.len() != joints {
                return Err(SceneError::invalid(rat, format!("{} values for {joints} joints", q.len())));
            }
            out.push(convert(q));
        }
        return Ok(Trajectory::Samples(out));
    }
    let period = positive(field(m, "period", at)?, &format!("{at}.period"))?;
    let list = array(field(m, "joints", at)?, &format!("{at}.joints"))?;
    if list.len() != joints {
        return Err(SceneError::invalid(
            format!("{at}.joints"),
            format!("{} entries for {joints} joints", list.len()),
        ));
    }
    let mut out = Vec::with_capacity(joints);
    for (j, jv) in list.iter().enumerate() {
        let jat = format!("{at}.joints[{j}]");
        let jo = object(jv, &jat)?;
        let scale = scales[j];
        let offset = match jo.get("offset") {
            Some(o) => number(o, &format!("{jat}.offset"))? * scale,
            None => 0.0,
        };
        let mut terms = Vec::new();
        if let Some(ts) = jo.get("terms") {
            for (k, t) in array(ts, &format!("{jat}.terms"))?.iter().enumerate() {
                let tat = format!("{jat}.terms[{k}]");
                let t = vec3(t, &tat)?;
                terms.push((t[0] * scale, t[1], t[2]));
            }
        }
        out.push(JointSinusoid { offset, terms });
    }
    Ok(Trajectory::Sinusoids { period, joints: out })
}

fn pair_rules(v: &Value) -> Result<PairRules, SceneError> {
    let m = object(v, "pairs")?;
    let selectors = |key: &str| -> Result<Vec<(Selector, Selector)>, SceneError> {
        let mut out = Vec::new();
        if let Some(list) = m.get(key) {
            for (i, p) in array(list, &format!("pairs.{key}"))?.iter().enumerate() {
                let at = format!("pairs.{key}[{i}]");
                let pair = array(p, &at)?;
                if pair.len() != 2 {
                    return Err(SceneError::invalid(at, "needs two selectors"));
                }
                let a = string(&pair[0], &format!("{at}[0]"))?;
                let b = string(&pair[1], &format!("{at}[1]"))?;
                out.push((Selector::parse(a), Selector::parse(b)));
            }
        }
        Ok(out)
    };
    let flag = |key: &str| -> Result<bool, SceneError> {
        match m.get(key) {
            Some(v) => v
                .as_bool()
                .ok_or_else(|| SceneError::invalid(format!("pairs.{key}"), "must be true or false")),
            None => Ok(false),
        }
    };
    let include = selectors("include")?;
    if include.is_empty() {
        return Err(SceneError::invalid("pairs.include", "missing or empty"));
    }
    Ok(PairRules {
        include,
        exclude: selectors("exclude")?,
        exclude_same_group: flag("exclude_same_group")?,
        exclude_adjacent: flag("exclude_adjacent")?,
    })
}

fn mesh_shape(
    s: &Map<String, Value>,
    at: &str,
    resolve: &dyn Fn(&str) -> PathBuf,
    meshes: &mut MeshCache,
) -> Result<Shape, SceneError> {
    let file = string(field(s, "file", at)?, &format!("{at}.file"))?;
    let scale = match s.get("scale") {
        Some(v) => vec3(v, &format!("{at}.scale"))?,
        None => [1.0; 3],
    };
    if scale.contains(&0.0) {
        return Err(SceneError::invalid(format!("{at}.scale"), "must be non-zero"));
    }
    let pieces = meshes
        .pieces(&resolve(file), scale, MeshParts::Whole, proxima_robot::DegenerateMeshes::Flag)
        .map_err(|e| SceneError::robot(&format!("{at}.file"), e))?;
    Ok(Shape::ConvexPolytope(pieces[0].polytope.clone()))
}

fn described_robot(
    cell: &mut Workcell,
    r: &Map<String, Value>,
    at: &str,
    name: &str,
    resolve: &dyn Fn(&str) -> PathBuf,
    meshes: &mut MeshCache,
) -> Result<(), SceneError> {
    let text_field = |key: &str| -> Result<Option<&str>, SceneError> {
        r.get(key).map(|v| string(v, &format!("{at}.{key}"))).transpose()
    };
    let urdf = resolve(string(field(r, "urdf", at)?, &format!("{at}.urdf"))?);
    let mut options = LoadOptions::default();
    if let Some(list) = r.get("package_dirs") {
        for (i, d) in array(list, &format!("{at}.package_dirs"))?.iter().enumerate() {
            options.package_dirs.push(resolve(string(d, &format!("{at}.package_dirs[{i}]"))?));
        }
    }
    options.mesh_parts = match text_field("mesh_parts")? {
        None | Some("objects") => MeshParts::Objects,
        Some("whole") => MeshParts::Whole,
        Some(other) => {
            return Err(SceneError::invalid(
                format!("{at}.mesh_parts"),
                format!("{other:?} is not objects or whole"),
            ));
        }
    };
    let self_collision = match text_field("self_collision")? {
        None | Some("all_but_adjacent") => SelfCollision::AllButAdjacent,
        Some("all_but_rigid") => SelfCollision::AllButRigid,
        Some("none") => SelfCollision::None,
        Some(other) => {
            return Err(SceneError::invalid(
                format!("{at}.self_collision"),
                format!("{other:?} is not all_but_adjacent, all_but_rigid or none"),
            ));
        }
    };
    let limits = match r.get("clamp") {
        None => LimitPolicy::Reject,
        Some(v) => match v.as_bool() {
            Some(true) => LimitPolicy::Clamp,
            Some(false) => LimitPolicy::Reject,
            None => return Err(SceneError::invalid(format!("{at}.clamp"), "must be true or false")),
        },
    };
    let robot = Robot::from_urdf_file_cached(&urdf, &options, meshes)
        .map_err(|e| SceneError::robot(&format!("{at}.urdf"), e))?;
    let srdf = match text_field("srdf")? {
        None => None,
        Some(p) => {
            let path = resolve(p);
            let text = std::fs::read_to_string(&path).map_err(|e| {
                SceneError::invalid(format!("{at}.srdf"), format!("cannot read {}: {e}", path.display()))
            })?;
            Some(
                Srdf::parse(&text, &path.display().to_string())
                    .map_err(|e| SceneError::robot(&format!("{at}.srdf"), e))?,
            )
        }
    };
    let base = match r.get("base") {
        Some(p) => pose(p, &format!("{at}.base"))?,
        None => Pose::identity(),
    };
    let prefix = text_field("prefix")?.unwrap_or("");
    let angular: Vec<bool> = robot
        .actuated_joints()
        .iter()
        .map(|&j| matches!(robot.joints()[j].kind, JointKind::Revolute | JointKind::Continuous))
        .collect();
    let tat = format!("{at}.trajectory");
    let traj = trajectory(field(r, "trajectory", at)?, &tat, &angular)?;
    if limits == LimitPolicy::Reject {
        let rows: Vec<(String, &Vec<f64>)> = match &traj {
            Trajectory::Samples(s) => {
                s.iter().enumerate().map(|(i, q)| (format!("{tat}.samples[{i}]"), q)).collect()
            }
            Trajectory::Waypoints { values, .. } => {
                values.iter().enumerate().map(|(i, q)| (format!("{tat}.waypoints[{i}].q"), q)).collect()
            }
            _ => Vec::new(),
        };
        let mut scratch = vec![0.0; robot.dof()];
        for (where_, q) in rows {
            robot
                .check_configuration(q, LimitPolicy::Reject, &mut scratch)
                .map_err(|e| SceneError::robot(&where_, e))?;
        }
    }
    cell.add_described_robot(name, prefix, Arc::new(robot), base, traj, srdf.as_ref(), self_collision, limits)
}
