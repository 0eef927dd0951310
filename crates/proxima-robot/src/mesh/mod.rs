//! Mesh files as point sets for convex hulls: STL (binary and ASCII) and COLLADA through the
//! `mesh-loader` crate, OBJ by our reader ([`obj`]: f64 positions as written, `o` objects,
//! line numbers in errors).
//!
//! A collision mesh becomes one or more [`MeshPart`]s, each a point set whose convex hull is
//! one convex piece of the link:
//!
//! * [`MeshParts::Whole`]: one part, every vertex of the file (what the robot benchmark's
//!   workload format specifies: "the convex hull of its vertices").
//! * [`MeshParts::Objects`] (the default): an OBJ file with several `o` objects, each a closed
//!   surface (every edge shared by two faces), is taken as a convex decomposition: one part
//!   per object, of the vertices its faces use. If any object is open (a surface patch, whose
//!   hull would not enclose the solid), or there is at most one object, the file is one part
//!   as in `Whole`. STL and COLLADA files are always one part.
//!
//! STL and COLLADA coordinates are single precision (`mesh-loader` reads f32; binary STL
//! stores f32), widened exactly to f64; COLLADA node transforms and `<unit meter>` are applied
//! by the loader. The format is chosen by the file extension (`.stl`, `.obj`, `.dae`, any
//! case).

pub mod obj;

use std::path::Path;

use crate::error::RobotError;

/// How a mesh file is split into convex parts (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MeshParts {
    /// One part per closed OBJ object when there are several; otherwise the whole file.
    #[default]
    Objects,
    /// Always one part with every vertex.
    Whole,
}

/// A mesh file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MeshFormat {
    /// STL, binary or ASCII.
    Stl,
    /// Wavefront OBJ.
    Obj,
    /// COLLADA (`.dae`).
    Collada,
}

impl MeshFormat {
    /// The format of `path` by its extension.
    pub fn of_path(path: &Path) -> Result<MeshFormat, RobotError> {
        let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("stl") => Ok(MeshFormat::Stl),
            Some("obj") => Ok(MeshFormat::Obj),
            Some("dae") => Ok(MeshFormat::Collada),
            _ => Err(RobotError::Mesh {
                path: path.to_path_buf(),
                line: None,
                reason: "unsupported mesh format (expected .stl, .obj or .dae)".into(),
            }),
        }
    }
}

/// One convex part's points (before the hull).
#[derive(Debug, Clone, PartialEq)]
pub struct MeshPart {
    /// The OBJ object name, or `""`.
    pub name: String,
    /// The points.
    pub points: Vec<[f64; 3]>,
}

/// Reads the mesh file at `path` into parts.
pub fn read_mesh(path: &Path, parts: MeshParts) -> Result<Vec<MeshPart>, RobotError> {
    let format = MeshFormat::of_path(path)?;
    let bytes = std::fs::read(path)
        .map_err(|e| RobotError::Io { path: path.to_path_buf(), message: e.to_string() })?;
    parse_mesh(&bytes, format, path, parts)
}

/// Parses mesh bytes of `format`; `path` names the file in errors. Errors: malformed data,
/// and a mesh without vertices.
pub fn parse_mesh(
    bytes: &[u8],
    format: MeshFormat,
    path: &Path,
    parts: MeshParts,
) -> Result<Vec<MeshPart>, RobotError> {
    let out = match format {
        MeshFormat::Obj => {
            let mesh = obj::read_obj(bytes).map_err(|e| RobotError::Mesh {
                path: path.to_path_buf(),
                line: Some(e.line),
                reason: e.reason,
            })?;
            let split = parts == MeshParts::Objects
                && mesh.objects.len() >= 2
                && mesh.objects.iter().all(obj::ObjObject::is_closed);
            if split {
                mesh.objects
                    .iter()
                    .map(|o| MeshPart {
                        name: o.name.clone(),
                        points: o.vertex_indices().into_iter().map(|i| mesh.vertices[i]).collect(),
                    })
                    .collect()
            } else {
                vec![MeshPart { name: String::new(), points: mesh.vertices }]
            }
        }
        MeshFormat::Stl | MeshFormat::Collada => {
            let loader = mesh_loader::Loader::default();
            let scene = match format {
                MeshFormat::Stl => loader.load_stl_from_slice(bytes, path),
                _ => loader.load_collada_from_slice(bytes, path),
            }
            .map_err(|e| RobotError::Mesh {
                path: path.to_path_buf(),
                line: None,
                reason: e.to_string(),
            })?;
            let points = scene
                .meshes
                .iter()
                .flat_map(|m| m.vertices.iter().map(|v| [f64::from(v[0]), f64::from(v[1]), f64::from(v[2])]))
                .collect();
            vec![MeshPart { name: String::new(), points }]
        }
    };
    if out.iter().all(|p| p.points.is_empty()) {
        return Err(RobotError::Mesh {
            path: path.to_path_buf(),
            line: None,
            reason: "the mesh has no vertices".into(),
        });
    }
    Ok(out)
}
