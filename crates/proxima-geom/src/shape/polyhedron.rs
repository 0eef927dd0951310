//! Validation of an H-representation { p : nᵢ·p ≤ dᵢ } and enumeration of its vertices.
//!
//! # Maths
//!
//! * Normals are normalized (offsets scaled by the same factor), so dᵢ is the signed distance
//!   of plane i from the origin.
//! * **Bounded** ⇔ the recession cone C = { r : nᵢ·r ≤ 0 ∀i } is {0}. If rank(N) < 3, C contains
//!   the line ker N. If rank(N) = 3, C is pointed, and a pointed cone ≠ {0} has an extreme ray
//!   on which two linearly independent constraints are active, i.e. r = ±(nᵢ × nⱼ). So the set
//!   is bounded iff rank(N) = 3 and no ±(nᵢ × nⱼ) lies in C.
//! * **Vertices**: every triple of independent planes meets in one point; the feasible ones are
//!   the vertices. A bounded non-empty polyhedron with rank(N) = 3 has at least one, so "no
//!   feasible triple point" ⇔ empty.
//!
//! Tolerances: directions are treated as independent when |det| or |nᵢ × nⱼ| exceeds 1e-12
//! (unit normals); a triple point v of planes i, j, k is feasible when nₗ·v ≤ dₗ + 1e-9 ·
//! max(1, |dᵢ|, |dⱼ|, |dₖ|, |v|) for every l (the size of the numbers that place v: a far
//! redundant plane does not loosen the test for the others). An empty
//! set whose infeasibility is below that tolerance is accepted (as a tiny polyhedron).

use nalgebra::{Point3, Vector3};

use crate::error::GeomError;

const INDEPENDENCE: f64 = 1e-12;
const FEASIBILITY: f64 = 1e-9;

type Validated = (Vec<Vector3<f64>>, Vec<f64>, Vec<Point3<f64>>);

/// Normalizes, checks boundedness and non-emptiness, enumerates vertices.
pub(super) fn validate(halfspaces: &[([f64; 3], f64)]) -> Result<Validated, GeomError> {
    if halfspaces.is_empty() {
        return Err(GeomError::Degenerate { what: "polyhedron has no half-spaces" });
    }
    let mut normals = Vec::with_capacity(halfspaces.len());
    let mut offsets = Vec::with_capacity(halfspaces.len());
    for (n, d) in halfspaces {
        if n.iter().any(|x| !x.is_finite()) {
            return Err(GeomError::NonFinite { what: "polyhedron normal" });
        }
        if !d.is_finite() {
            return Err(GeomError::NonFinite { what: "polyhedron offset" });
        }
        let v = Vector3::from(*n);
        let len = v.norm();
        if len == 0.0 {
            return Err(GeomError::ZeroAxis { what: "polyhedron normal" });
        }
        let (unit, off) = (v / len, d / len);
        if !off.is_finite() || unit.iter().any(|x| !x.is_finite()) {
            return Err(GeomError::NonFinite { what: "polyhedron offset after normalization" });
        }
        normals.push(unit);
        offsets.push(off);
    }
    check_bounded(&normals)?;
    let vertices = enumerate_vertices(&normals, &offsets);
    if vertices.is_empty() {
        return Err(GeomError::Degenerate { what: "polyhedron is empty (half-spaces have no common point)" });
    }
    Ok((normals, offsets, vertices))
}

fn check_bounded(normals: &[Vector3<f64>]) -> Result<(), GeomError> {
    let m = normals.len();
    let unbounded = Err(GeomError::Degenerate { what: "polyhedron is unbounded" });
    // rank 3?
    let mut rank3 = false;
    'outer: for i in 0..m {
        for j in i + 1..m {
            let c = normals[i].cross(&normals[j]);
            if c.norm() <= INDEPENDENCE {
                continue;
            }
            for k in j + 1..m {
                if normals[k].dot(&c).abs() > INDEPENDENCE {
                    rank3 = true;
                    break 'outer;
                }
            }
        }
    }
    if !rank3 {
        return unbounded;
    }
    for i in 0..m {
        for j in i + 1..m {
            let c = normals[i].cross(&normals[j]);
            let len = c.norm();
            if len <= INDEPENDENCE {
                continue;
            }
            let r = c / len;
            for sign in [1.0, -1.0] {
                let ray = r * sign;
                if normals.iter().all(|n| n.dot(&ray) <= INDEPENDENCE) {
                    return unbounded;
                }
            }
        }
    }
    Ok(())
}

fn enumerate_vertices(normals: &[Vector3<f64>], offsets: &[f64]) -> Vec<Point3<f64>> {
    let m = normals.len();
    let mut out: Vec<Point3<f64>> = Vec::new();
    for i in 0..m {
        for j in i + 1..m {
            for k in j + 1..m {
                let jk = normals[j].cross(&normals[k]);
                let det = normals[i].dot(&jk);
                if det.abs() <= INDEPENDENCE {
                    continue;
                }
                let ki = normals[k].cross(&normals[i]);
                let ij = normals[i].cross(&normals[j]);
                let v = (jk * offsets[i] + ki * offsets[j] + ij * offsets[k]) / det;
                // Relative to the point and the offsets that place it (not to every offset:
                // one far redundant plane must not make every triple point feasible).
                let size =
                    offsets[i].abs().max(offsets[j].abs()).max(offsets[k].abs()).max(v.norm()).max(1.0);
                let tol = FEASIBILITY * size;
                if !normals.iter().zip(offsets).all(|(n, d)| n.dot(&v) <= d + tol) {
                    continue;
                }
                let p = Point3::from(v);
                if !out.iter().any(|q| (q - p).norm() <= tol) {
                    out.push(p);
                }
            }
        }
    }
    out
}
