//! Geometry benchmark workloads (`../shared/bench/geometry/FORMAT.md`): JSON parsing into
//! proxima-geom shapes and poses.
//!
//! Every shape and pose is validated once, while loading; an unknown shape type, a missing
//! field, an invalid shape (e.g. a negative radius), a rotation that is not one (to 1e-6) or a
//! query naming an unknown shape id is a bad file (the caller exits 2), reported with the
//! field's path (`shapes[3].half_extents: expected 3 numbers, got 2`). Unknown keys are
//! ignored. Shapes are read by [`ShapeSpec`] — the one shape vocabulary of the workspace
//! (scene files use it too) — so `convex` with `faces` keeps the hull adjacency for
//! hill-climbing support queries after checking that the faces triangulate the hull, and the
//! `cone` of the CCD workloads is accepted as well.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use proxima_geom::shape::ShapeSpec;
use proxima_geom::{Pose, Shape};
use serde::Deserialize;
use serde_json::Value;

use crate::files;

#[derive(Debug, Deserialize)]
struct FileJson {
    #[serde(default)]
    name: Option<String>,
    shapes: Vec<Value>,
    queries: Vec<QueryJson>,
    tracks: Vec<TrackJson>,
}

/// A pose as written in workload files.
#[derive(Debug, Deserialize)]
pub(crate) struct PoseJson {
    translation: [f64; 3],
    rotation: [[f64; 3]; 3],
}

#[derive(Debug, Deserialize)]
struct QueryJson {
    a: String,
    pose_a: PoseJson,
    b: String,
    pose_b: PoseJson,
}

#[derive(Debug, Deserialize)]
struct TrackJson {
    a: String,
    b: String,
    poses_a: Vec<PoseJson>,
    poses_b: Vec<PoseJson>,
}

/// One cold query: shape indices into [`Workload::shapes`] and their poses.
#[derive(Debug, Clone)]
pub struct Query {
    /// Index of shape a.
    pub a: usize,
    /// Pose of a.
    pub pose_a: Pose,
    /// Index of shape b.
    pub b: usize,
    /// Pose of b.
    pub pose_b: Pose,
}

/// A trajectory: step k places a by `poses[k].0` and b by `poses[k].1`.
#[derive(Debug, Clone)]
pub struct Track {
    /// Index of shape a.
    pub a: usize,
    /// Index of shape b.
    pub b: usize,
    /// (pose of a, pose of b) per step.
    pub poses: Vec<(Pose, Pose)>,
}

/// A parsed, validated workload.
#[derive(Debug, Clone)]
pub struct Workload {
    /// `name` from the file (else the file stem).
    pub name: String,
    /// Shape ids, parallel to `shapes`.
    pub ids: Vec<String>,
    /// The shapes.
    pub shapes: Vec<Shape>,
    /// Cold queries in file order.
    pub queries: Vec<Query>,
    /// Tracks in file order.
    pub tracks: Vec<Track>,
}

impl Workload {
    /// Total number of track steps.
    pub fn steps(&self) -> usize {
        self.tracks.iter().map(|t| t.poses.len()).sum()
    }
}

/// Shape `i` of the file: its id and the validated shape; errors name the field
/// (`shapes[3].radius: must be a number`).
fn build_shape(i: usize, s: &Value) -> Result<(String, Shape)> {
    let at = format!("shapes[{i}]");
    let id = match s.get("id") {
        Some(Value::String(id)) => id.clone(),
        Some(_) => bail!("{at}.id: must be a string"),
        None => bail!("{at}.id: missing"),
    };
    let spec = ShapeSpec::deserialize_fields(s)
        .map_err(|e| anyhow!("{at}: {e}"))?
        .map_err(|e| anyhow!("{at}.{e}"))?;
    let shape = spec.to_shape().map_err(|e| anyhow!("{at}.{e} (shape {id:?})"))?;
    Ok((id, shape))
}

/// The `shapes` array of a workload file: ids and validated shapes, parallel, with the index
/// of each id.
pub(crate) struct ShapeTable {
    pub ids: Vec<String>,
    pub shapes: Vec<Shape>,
    index: HashMap<String, usize>,
}

impl ShapeTable {
    /// Every shape of the array; errors name the field (`shapes[3].radius: ...`), duplicate
    /// ids included.
    pub fn build(shapes: &[Value]) -> Result<Self> {
        let mut table = ShapeTable { ids: Vec::new(), shapes: Vec::new(), index: HashMap::new() };
        for (i, s) in shapes.iter().enumerate() {
            let (id, shape) = build_shape(i, s)?;
            if table.index.insert(id.clone(), table.shapes.len()).is_some() {
                bail!("shapes[{i}].id: duplicate shape id {id:?}");
            }
            table.shapes.push(shape);
            table.ids.push(id);
        }
        Ok(table)
    }

    /// The index of shape `id`; the error names `at`.
    pub fn lookup(&self, id: &str, at: &str) -> Result<usize> {
        self.index.get(id).copied().ok_or_else(|| anyhow!("{at}: unknown shape id {id:?}"))
    }
}

/// The pose a [`PoseJson`] describes, validated; errors are prefixed by `what()`.
pub(crate) fn build_pose(p: &PoseJson, what: impl Fn() -> String) -> Result<Pose> {
    Pose::new(p.rotation, p.translation).map_err(|e| anyhow!("{}: {e}", what()))
}

/// Parses a workload from JSON text; `fallback_name` names it when the file has no `name`.
pub fn parse(text: &str, fallback_name: &str) -> Result<Workload> {
    let file: FileJson = serde_json::from_str(text).context("malformed workload JSON")?;
    let table = ShapeTable::build(&file.shapes)?;
    let lookup = |id: &str, at: &str| table.lookup(id, at);
    let mut queries = Vec::with_capacity(file.queries.len());
    for (i, q) in file.queries.iter().enumerate() {
        let at = format!("query {i}");
        queries.push(Query {
            a: lookup(&q.a, &at)?,
            pose_a: build_pose(&q.pose_a, || format!("{at} pose_a"))?,
            b: lookup(&q.b, &at)?,
            pose_b: build_pose(&q.pose_b, || format!("{at} pose_b"))?,
        });
    }
    let mut tracks = Vec::with_capacity(file.tracks.len());
    for (i, t) in file.tracks.iter().enumerate() {
        let at = format!("track {i}");
        if t.poses_a.len() != t.poses_b.len() {
            bail!("{at}: {} poses_a but {} poses_b", t.poses_a.len(), t.poses_b.len());
        }
        let poses = t
            .poses_a
            .iter()
            .zip(&t.poses_b)
            .enumerate()
            .map(|(k, (pa, pb))| {
                Ok((
                    build_pose(pa, || format!("{at} step {k} pose_a"))?,
                    build_pose(pb, || format!("{at} step {k} pose_b"))?,
                ))
            })
            .collect::<Result<Vec<_>>>()?;
        tracks.push(Track { a: lookup(&t.a, &at)?, b: lookup(&t.b, &at)?, poses });
    }
    Ok(Workload {
        name: file.name.unwrap_or_else(|| fallback_name.to_string()),
        ids: table.ids,
        shapes: table.shapes,
        queries,
        tracks,
    })
}

/// Reads and parses a workload file; errors name the file.
pub fn load(path: &Path) -> Result<Workload> {
    files::parse_file(path, parse)
}

#[cfg(test)]
mod tests {
    use super::*;

    const POSE: &str = r#"{"translation":[0,0,0],"rotation":[[1,0,0],[0,1,0],[0,0,1]]}"#;

    fn file(shapes: &str, queries: &str) -> String {
        format!(r#"{{"name":"t","shapes":[{shapes}],"queries":[{queries}],"tracks":[],"extra":1}}"#)
    }

    #[test]
    fn parses_every_shape_type() {
        let shapes = r#"{"id":"b","type":"box","half_extents":[1,2,3]},
            {"id":"s","type":"sphere","radius":1},
            {"id":"c","type":"capsule","radius":1,"half_height":2},
            {"id":"y","type":"cylinder","radius":1,"half_height":2},
            {"id":"e","type":"ellipsoid","radii":[1,2,3]},
            {"id":"t","type":"triangle","vertices":[[0,0,0],[1,0,0],[0,1,0]]},
            {"id":"p","type":"convex","vertices":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]],
             "faces":[[0,2,1],[0,1,3],[0,3,2],[1,2,3]]}"#;
        let q = format!(r#"{{"a":"t","pose_a":{POSE},"b":"p","pose_b":{POSE}}}"#);
        let w = parse(&file(shapes, &q), "x").unwrap();
        assert_eq!(w.name, "t");
        assert_eq!(w.shapes.len(), 7);
        assert!(matches!(w.shapes[5], Shape::Triangle(_)));
        assert!(matches!(w.shapes[6], Shape::ConvexPolytope(_)));
        assert_eq!((w.queries[0].a, w.queries[0].b), (5, 6));
    }

    #[test]
    fn rejects_bad_input() {
        let q = format!(r#"{{"a":"s","pose_a":{POSE},"b":"zz","pose_b":{POSE}}}"#);
        let s = r#"{"id":"s","type":"sphere","radius":1}"#;
        assert!(parse(&file(s, &q), "x").unwrap_err().to_string().contains("unknown shape id"));
        let bad = r#"{"id":"s","type":"sphere","radius":-1}"#;
        assert!(parse(&file(bad, ""), "x").is_err());
        let unknown = r#"{"id":"s","type":"torus","radius":1}"#;
        assert!(format!("{:#}", parse(&file(unknown, ""), "x").unwrap_err()).contains("unknown type"));
        let q = r#"{"a":"s","pose_a":{"translation":[0,0,0],"rotation":[[2,0,0],[0,1,0],[0,0,1]]},"b":"s","pose_b":{"translation":[0,0,0],"rotation":[[1,0,0],[0,1,0],[0,0,1]]}}"#;
        assert!(parse(&file(s, q), "x").is_err());
        assert!(parse(r#"{"shapes":[]}"#, "x").is_err());
    }

    /// Errors name the field by its path in the file; the CCD format's cone is read too.
    #[test]
    fn errors_name_the_field_and_cones_are_read() {
        let err = |shapes: &str| format!("{:#}", parse(&file(shapes, ""), "x").unwrap_err());
        let cases = [
            (
                r#"{"id":"s","type":"sphere","radius":1},{"id":"b","type":"box","half_extents":[1,2]}"#,
                "shapes[1].half_extents: expected 3 numbers, got 2",
            ),
            (
                r#"{"id":"b","type":"box","half_extents":[1,-2,3]}"#,
                "shapes[0].half_extents: box half extent must be > 0",
            ),
            (r#"{"id":"c","type":"capsule","radius":1}"#, "shapes[0].half_height: missing"),
            (r#"{"type":"sphere","radius":1}"#, "shapes[0].id: missing"),
            (
                r#"{"id":"s","type":"sphere","radius":1},{"id":"s","type":"sphere","radius":2}"#,
                "shapes[1].id: duplicate",
            ),
            (
                r#"{"id":"p","type":"convex","vertices":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]],"faces":[[0,2,1],[0,1,3],[0,3,2],[1,2,9]]}"#,
                "shapes[0].faces: ",
            ),
        ];
        for (shapes, message) in cases {
            let e = err(shapes);
            assert!(e.starts_with(message), "{e}");
        }
        let w = parse(&file(r#"{"id":"k","type":"cone","radius":0.5,"half_height":1}"#, ""), "x").unwrap();
        assert!(matches!(w.shapes[0], Shape::Cone(_)));
    }
}
