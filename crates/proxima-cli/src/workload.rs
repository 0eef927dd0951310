//! Geometry benchmark workloads (`../shared/bench/geometry/FORMAT.md`): JSON parsing into
//! proxima-geom shapes and poses.
//!
//! Every shape and pose is validated once, while loading; an unknown shape type, a missing
//! field, an invalid shape (e.g. a negative radius), a rotation that is not one (to 1e-6) or a
//! query naming an unknown shape id is a bad file (the caller exits 2). Unknown keys are
//! ignored. `triangle` maps to [`Shape::Triangle`], `convex` to [`Shape::ConvexPolytope`]: with
//! `faces`, through `ConvexPolytope::with_faces`, which checks that they triangulate the hull
//! (closed, oriented, convex) and keeps the adjacency for hill-climbing support queries.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use proxima_geom::shape::{Capsule, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Sphere, Triangle};
use proxima_geom::{Pose, Shape};
use serde::Deserialize;

use crate::common;

#[derive(Debug, Deserialize)]
struct FileJson {
    #[serde(default)]
    name: Option<String>,
    shapes: Vec<ShapeJson>,
    queries: Vec<QueryJson>,
    tracks: Vec<TrackJson>,
}

#[derive(Debug, Deserialize)]
struct ShapeJson {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    half_extents: Option<[f64; 3]>,
    radius: Option<f64>,
    half_height: Option<f64>,
    radii: Option<[f64; 3]>,
    vertices: Option<Vec<[f64; 3]>>,
    faces: Option<Vec<[usize; 3]>>,
}

#[derive(Debug, Deserialize)]
struct PoseJson {
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

fn need<T: Copy>(v: Option<T>, field: &str) -> Result<T> {
    v.ok_or_else(|| anyhow!("missing field {field:?}"))
}

fn build_shape(s: &ShapeJson) -> Result<Shape> {
    let shape = match s.kind.as_str() {
        "box" => Shape::Cuboid(Cuboid::new(need(s.half_extents, "half_extents")?)?),
        "sphere" => Shape::Sphere(Sphere::new(need(s.radius, "radius")?)?),
        "capsule" => {
            Shape::Capsule(Capsule::new(need(s.radius, "radius")?, need(s.half_height, "half_height")?)?)
        }
        "cylinder" => {
            Shape::Cylinder(Cylinder::new(need(s.radius, "radius")?, need(s.half_height, "half_height")?)?)
        }
        "ellipsoid" => Shape::Ellipsoid(Ellipsoid::new(need(s.radii, "radii")?)?),
        "triangle" => {
            let v = s.vertices.as_ref().ok_or_else(|| anyhow!("missing field \"vertices\""))?;
            if v.len() != 3 {
                bail!("a triangle needs 3 vertices, got {}", v.len());
            }
            Shape::Triangle(Triangle::new(v[0], v[1], v[2])?)
        }
        "convex" => {
            let v = s.vertices.as_ref().ok_or_else(|| anyhow!("missing field \"vertices\""))?;
            match &s.faces {
                Some(faces) => {
                    if let Some(bad) = faces.iter().flatten().find(|&&k| k >= v.len()) {
                        bail!("face index {bad} out of range ({} vertices)", v.len());
                    }
                    // The faces give the hull's vertex adjacency (hill-climbing support).
                    Shape::ConvexPolytope(ConvexPolytope::with_faces(v.clone(), faces)?)
                }
                None => Shape::ConvexPolytope(ConvexPolytope::new(v.clone())?),
            }
        }
        other => bail!("unknown type {other:?}"),
    };
    Ok(shape)
}

fn build_pose(p: &PoseJson, what: impl Fn() -> String) -> Result<Pose> {
    Pose::new(p.rotation, p.translation).map_err(|e| anyhow!("{}: {e}", what()))
}

/// Parses a workload from JSON text; `fallback_name` names it when the file has no `name`.
pub fn parse(text: &str, fallback_name: &str) -> Result<Workload> {
    let file: FileJson = serde_json::from_str(text).context("malformed workload JSON")?;
    let mut index = HashMap::new();
    let mut ids = Vec::with_capacity(file.shapes.len());
    let mut shapes = Vec::with_capacity(file.shapes.len());
    for s in &file.shapes {
        if index.insert(s.id.clone(), shapes.len()).is_some() {
            bail!("duplicate shape id {:?}", s.id);
        }
        shapes.push(build_shape(s).with_context(|| format!("shape {:?}", s.id))?);
        ids.push(s.id.clone());
    }
    let lookup = |id: &str, at: &str| -> Result<usize> {
        index.get(id).copied().ok_or_else(|| anyhow!("{at}: unknown shape id {id:?}"))
    };
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
        ids,
        shapes,
        queries,
        tracks,
    })
}

/// Reads and parses a workload file; errors name the file.
pub fn load(path: &Path) -> Result<Workload> {
    let text = common::read_text(path)?;
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    parse(&text, &stem).map_err(|e| anyhow!("{e:#} ({})", path.display()))
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
}
