//! Mesh parts to convex pieces: the exact convex hull of each part's points (the geometry
//! crate's [`convex_hull`]: hull vertices are copies of input points, every input point is on
//! or inside every face by exact predicates), with the hull's adjacency for hill-climbing
//! support queries, cached per (file, scale, split mode).
//!
//! A part whose points span less than three dimensions (a flat mesh, a segment, a point) has
//! no 3D hull: with [`DegenerateMeshes::Flag`] it becomes a [`ConvexPolytope`] of its
//! distinct points (the support function of a point set is that of its hull, so every query
//! stays exact) and is flagged `flat`; with [`DegenerateMeshes::Reject`] it is an error.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use proxima_geom::GeomError;
use proxima_geom::shape::{ConvexPolytope, convex_hull};

use crate::error::RobotError;
use crate::mesh::{MeshParts, read_mesh};
use crate::support::HullSupport;

/// What to do with a mesh part that has no 3D hull (fewer than four non-coplanar points).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DegenerateMeshes {
    /// Keep it as a flat (lower-dimensional) polytope and flag it (default).
    #[default]
    Flag,
    /// Reject it with [`RobotError::Geometry`] naming the mesh.
    Reject,
}

/// One convex piece made from a mesh part.
#[derive(Debug, Clone, PartialEq)]
pub struct HullPiece {
    /// The OBJ object name of the part, or `""`.
    pub part_name: String,
    /// The convex polytope (hull vertices with adjacency, or the distinct points when flat).
    pub polytope: ConvexPolytope,
    /// Points of the part (mesh vertices, scaled).
    pub mesh_vertices: usize,
    /// Whether the points span less than three dimensions.
    pub flat: bool,
    /// Its support function by hill climbing (3D hulls).
    pub support: Option<Arc<HullSupport>>,
}

/// The pieces of `points` (already scaled).
pub fn hull_piece(
    part_name: &str,
    points: &[[f64; 3]],
    degenerate: DegenerateMeshes,
) -> Result<HullPiece, GeomError> {
    match convex_hull(points) {
        Ok(h) => {
            let polytope = h.to_polytope();
            Ok(HullPiece {
                part_name: part_name.to_string(),
                support: HullSupport::new(&polytope).map(Arc::new),
                polytope,
                mesh_vertices: points.len(),
                flat: false,
            })
        }
        Err(GeomError::Degenerate { .. }) if degenerate == DegenerateMeshes::Flag && !points.is_empty() => {
            let mut distinct: Vec<[f64; 3]> = points.to_vec();
            distinct.sort_by(|a, b| {
                a.iter()
                    .zip(b)
                    .map(|(x, y)| x.total_cmp(y))
                    .find(|o| o.is_ne())
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
            distinct.dedup();
            Ok(HullPiece {
                part_name: part_name.to_string(),
                polytope: ConvexPolytope::new(distinct)?,
                mesh_vertices: points.len(),
                flat: true,
                support: None,
            })
        }
        Err(e) => Err(e),
    }
}

type Key = (PathBuf, [u64; 3], MeshParts, DegenerateMeshes);

/// Hulls of mesh files, computed once per (file, scale, split mode): two links (or two
/// robots) using one mesh share its hulls. Not thread-safe by itself; one per loader.
#[derive(Debug, Clone, Default)]
pub struct MeshCache {
    hulls: HashMap<Key, Arc<Vec<HullPiece>>>,
    /// How many hulls were computed (not found in the cache).
    pub computed: usize,
}

impl MeshCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The pieces of the mesh file `path` scaled by `scale`. Errors name the file (and the
    /// part when a hull is rejected).
    pub fn pieces(
        &mut self,
        path: &Path,
        scale: [f64; 3],
        parts: MeshParts,
        degenerate: DegenerateMeshes,
    ) -> Result<Arc<Vec<HullPiece>>, RobotError> {
        let key = (path.to_path_buf(), scale.map(f64::to_bits), parts, degenerate);
        if let Some(p) = self.hulls.get(&key) {
            return Ok(Arc::clone(p));
        }
        let mut out = Vec::new();
        for (k, part) in read_mesh(path, parts)?.into_iter().enumerate() {
            let points: Vec<[f64; 3]> =
                part.points.iter().map(|p| [p[0] * scale[0], p[1] * scale[1], p[2] * scale[2]]).collect();
            let piece = hull_piece(&part.name, &points, degenerate).map_err(|source| {
                RobotError::geometry(
                    format!("mesh {} part {k} ({} points)", path.display(), points.len()),
                    source,
                )
            })?;
            out.push(piece);
        }
        self.computed += 1;
        let out = Arc::new(out);
        self.hulls.insert(key, Arc::clone(&out));
        Ok(out)
    }
}
