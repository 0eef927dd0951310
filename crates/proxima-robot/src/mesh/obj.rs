//! Wavefront OBJ geometry: `v` (vertex positions, in f64 as written), `f` (faces, indices
//! `i`, `i/t`, `i//n`, `i/t/n`, negative = relative to the end), `o` (objects). Texture
//! coordinates, normals, groups, materials, smoothing and free-form elements are skipped.
//!
//! Extra values after `v x y z` (a weight or vertex colours, depending on the exporter) are
//! ignored: for polygonal meshes the position is x, y, z.
//!
//! Errors name the line: a `v` without three finite numbers, a face with fewer than three
//! vertices, a face index that is zero, not an integer, or outside the vertices read so far.

/// One `o` object: the faces read while it was current.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ObjObject {
    /// Its name (`""` before the first `o` line).
    pub name: String,
    /// Faces as 0-based vertex indices (polygons as written, ≥ 3 vertices each).
    pub faces: Vec<Vec<usize>>,
}

/// The geometry of an OBJ file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ObjMesh {
    /// Every `v` position, in file order.
    pub vertices: Vec<[f64; 3]>,
    /// Objects that have at least one face, in file order.
    pub objects: Vec<ObjObject>,
}

/// An OBJ reading error: 1-based line and reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjError {
    /// Line.
    pub line: u32,
    /// Reason.
    pub reason: String,
}

/// Reads OBJ text (bytes; invalid UTF-8 is an error on its line).
pub fn read_obj(bytes: &[u8]) -> Result<ObjMesh, ObjError> {
    let mut mesh = ObjMesh::default();
    let mut current = ObjObject::default();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let err = |reason: String| ObjError { line, reason };
        let text = std::str::from_utf8(raw).map_err(|_| err("not valid UTF-8".into()))?;
        let text = text.split('#').next().unwrap_or("");
        let mut words = text.split_whitespace();
        match words.next() {
            Some("v") => {
                let mut p = [0.0; 3];
                for (k, slot) in p.iter_mut().enumerate() {
                    let w = words
                        .next()
                        .ok_or_else(|| err(format!("a vertex needs 3 coordinates, found {k}")))?;
                    let v: f64 = w.parse().map_err(|_| err(format!("{w:?} is not a number")))?;
                    if !v.is_finite() {
                        return Err(err(format!("{w:?} is not finite")));
                    }
                    *slot = v;
                }
                mesh.vertices.push(p);
            }
            Some("f") => {
                let mut face = Vec::with_capacity(4);
                for w in words {
                    let idx = w.split('/').next().unwrap_or("");
                    let k: i64 =
                        idx.parse().map_err(|_| err(format!("face index {w:?} is not an integer")))?;
                    let n = mesh.vertices.len() as i64;
                    let resolved = if k > 0 { k - 1 } else { n + k };
                    if k == 0 || resolved < 0 || resolved >= n {
                        return Err(err(format!("face index {k} is outside the {n} vertices read so far")));
                    }
                    face.push(resolved as usize);
                }
                if face.len() < 3 {
                    return Err(err(format!("a face needs at least 3 vertices, found {}", face.len())));
                }
                current.faces.push(face);
            }
            Some("o") => {
                let name = words.collect::<Vec<_>>().join(" ");
                let done = std::mem::replace(&mut current, ObjObject { name, faces: Vec::new() });
                if !done.faces.is_empty() {
                    mesh.objects.push(done);
                }
            }
            _ => {}
        }
    }
    if !current.faces.is_empty() {
        mesh.objects.push(current);
    }
    Ok(mesh)
}

impl ObjObject {
    /// The distinct vertex indices of its faces, ascending.
    pub fn vertex_indices(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.faces.iter().flatten().copied().collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Whether its faces form closed surfaces: every edge {i, j} (by vertex index) is shared
    /// by exactly two faces. A convex piece of a decomposition is closed; a surface patch
    /// is not, and the hull of a patch does not enclose the solid it bounds.
    pub fn is_closed(&self) -> bool {
        let mut edges: Vec<(usize, usize)> = Vec::new();
        for f in &self.faces {
            for k in 0..f.len() {
                let (a, b) = (f[k], f[(k + 1) % f.len()]);
                edges.push((a.min(b), a.max(b)));
            }
        }
        edges.sort_unstable();
        let mut i = 0;
        while i < edges.len() {
            let mut j = i;
            while j < edges.len() && edges[j] == edges[i] {
                j += 1;
            }
            if j - i != 2 {
                return false;
            }
            i = j;
        }
        !edges.is_empty()
    }
}
