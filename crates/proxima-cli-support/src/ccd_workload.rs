//! CCD (time-of-impact) workloads (`../shared/bench/ccd/FORMAT.md`): the geometry format's
//! shapes (read by `ShapeSpec`, `cone` included), queries with four poses `a0, a1, b0, b1`, and
//! an optional `margin`.
//!
//! Shapes and poses are validated while loading (as in [`crate::workload`]); an unknown shape
//! id, a negative or non-finite margin, or a pose that is not a rotation is a bad file (exit 2).
//! Unknown keys (`family_case`, `design_gap`, ...) are ignored. [`CcdWorkload::time_of_impact`]
//! runs one query under the format's motion model, for `query --op toi` and `bench-ccd` alike.

use std::path::Path;

use anyhow::{Context, Result, bail};
use proxima_geom::{GeomError, Pose, RigidMotion, Shape, ToiResult, ToiSettings, time_of_impact};
use serde::Deserialize;
use serde_json::Value;

use crate::files;
use crate::workload::{PoseJson, ShapeTable, build_pose};

#[derive(Debug, Deserialize)]
struct FileJson {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    margin: Option<f64>,
    shapes: Vec<Value>,
    queries: Vec<QueryJson>,
}

#[derive(Debug, Deserialize)]
struct QueryJson {
    a: String,
    b: String,
    a0: PoseJson,
    a1: PoseJson,
    b0: PoseJson,
    b1: PoseJson,
}

/// One motion query: shape indices into [`CcdWorkload::shapes`] and the four poses.
#[derive(Debug, Clone)]
pub struct CcdQuery {
    /// Index of shape a.
    pub a: usize,
    /// Index of shape b.
    pub b: usize,
    /// a at t = 0.
    pub a0: Pose,
    /// a at t = 1.
    pub a1: Pose,
    /// b at t = 0.
    pub b0: Pose,
    /// b at t = 1.
    pub b1: Pose,
}

/// A parsed, validated CCD workload.
#[derive(Debug, Clone)]
pub struct CcdWorkload {
    /// `name` from the file (else the file stem).
    pub name: String,
    /// Target distance of every query (default 0).
    pub margin: f64,
    /// Shape ids, parallel to `shapes`.
    pub ids: Vec<String>,
    /// The shapes.
    pub shapes: Vec<Shape>,
    /// Queries in file order.
    pub queries: Vec<CcdQuery>,
}

impl CcdWorkload {
    /// The library settings of every query: the defaults with the workload's margin.
    pub fn settings(&self) -> ToiSettings {
        ToiSettings::default().with_margin(self.margin)
    }

    /// The time of impact of query `q` under the format's motion model (both shapes on
    /// [`RigidMotion::from_poses`]): everything from the four poses to the answer.
    pub fn time_of_impact(&self, q: &CcdQuery, settings: &ToiSettings) -> Result<ToiResult, GeomError> {
        let ma = RigidMotion::from_poses(&q.a0, &q.a1)?;
        let mb = RigidMotion::from_poses(&q.b0, &q.b1)?;
        time_of_impact(&self.shapes[q.a], &ma, &self.shapes[q.b], &mb, settings)
    }
}

/// Parses a CCD workload from JSON text; `fallback_name` names it when the file has no `name`.
pub fn parse(text: &str, fallback_name: &str) -> Result<CcdWorkload> {
    let file: FileJson = serde_json::from_str(text).context("malformed CCD workload JSON")?;
    let margin = file.margin.unwrap_or(0.0);
    if !(margin.is_finite() && margin >= 0.0) {
        bail!("margin: must be finite and >= 0, got {margin}");
    }
    let table = ShapeTable::build(&file.shapes)?;
    let lookup = |id: &str, at: &str| table.lookup(id, at);
    let mut queries = Vec::with_capacity(file.queries.len());
    for (i, q) in file.queries.iter().enumerate() {
        let at = format!("queries[{i}]");
        let pose = |p: &PoseJson, which: &str| build_pose(p, || format!("{at}.{which}"));
        queries.push(CcdQuery {
            a: lookup(&q.a, &at)?,
            b: lookup(&q.b, &at)?,
            a0: pose(&q.a0, "a0")?,
            a1: pose(&q.a1, "a1")?,
            b0: pose(&q.b0, "b0")?,
            b1: pose(&q.b1, "b1")?,
        });
    }
    Ok(CcdWorkload {
        name: file.name.unwrap_or_else(|| fallback_name.to_string()),
        margin,
        ids: table.ids,
        shapes: table.shapes,
        queries,
    })
}

/// Reads and parses a CCD workload file; errors name the file.
pub fn load(path: &Path) -> Result<CcdWorkload> {
    files::parse_file(path, parse)
}

#[cfg(test)]
mod tests {
    use super::*;

    const POSE: &str = r#"{"translation":[0,0,0],"rotation":[[1,0,0],[0,1,0],[0,0,1]]}"#;

    fn file(margin: &str, b: &str) -> String {
        format!(
            r#"{{"name":"t",{margin}"shapes":[{{"id":"s","type":"sphere","radius":1}},
            {{"id":"k","type":"cone","radius":0.5,"half_height":1}}],
            "queries":[{{"a":"s","b":"{b}","a0":{POSE},"a1":{POSE},"b0":{POSE},"b1":{POSE},"family_case":"x"}}]}}"#
        )
    }

    #[test]
    fn parses_cones_and_the_margin() {
        let w = parse(&file(r#""margin":0.25,"#, "k"), "x").unwrap();
        assert_eq!((w.name.as_str(), w.margin, w.queries.len()), ("t", 0.25, 1));
        assert!(matches!(w.shapes[1], Shape::Cone(_)));
        assert_eq!(parse(&file("", "k"), "x").unwrap().margin, 0.0);
        // Overlapping at rest: an initial contact.
        let r = w.time_of_impact(&w.queries[0], &w.settings()).unwrap();
        assert_eq!(r.toi(), Some(0.0));
    }

    #[test]
    fn rejects_bad_files() {
        assert!(parse(&file(r#""margin":-1,"#, "k"), "x").unwrap_err().to_string().contains("margin"));
        assert!(parse(&file("", "zz"), "x").unwrap_err().to_string().contains("unknown shape id"));
        let bad_rot = file("", "k").replacen("[[1,0,0]", "[[2,0,0]", 1);
        assert!(parse(&bad_rot, "x").unwrap_err().to_string().contains("queries[0].a0"));
        let bad_shape = file("", "k").replacen(r#""radius":0.5"#, r#""radius":-0.5"#, 1);
        assert!(parse(&bad_shape, "x").unwrap_err().to_string().contains("shapes[1]"));
        assert!(parse("{", "x").is_err());
    }
}
