//! Warm start by support *pairs*: the next GJK run of a tracked pair starts from the previous
//! final simplex re-read at the new poses, vertex pair by vertex pair.
//!
//! # Maths
//!
//! Each vertex of GJK's final simplex is w = a − b with a ∈ A and b ∈ B, the support points of
//! the two shapes (a = s_A(−d) in A's frame, b = s_B(Rᵀd) in B's frame). When the poses move
//! a little, the *same* local points a and b are still points of A and B, so
//! w' = a − (R'·b + t') is a point of the new Minkowski difference M' = A − B', and the hull of
//! those w' lies in M'. The closest point of that hull to the origin is therefore a valid
//! upper bound of the distance, and for small motions it is already (near-)optimal: the first
//! support query along it usually closes the duality gap, so a tracking step costs one
//! support query per shape instead of a full GJK descent.
//!
//! Re-reading a pair costs nothing for a polytope: its support hint *is* the vertex index, and
//! the vertex is looked up ([`SupportMap::hinted_vertex`]). Shapes without stored vertices
//! re-evaluate their support along the same *local* direction as last time, which returns the
//! same local point (a closed-form support) or a point near it.
//!
//! # Why it is always safe
//!
//! Nothing of the cache is trusted as geometry: an index selects a vertex of the *current*
//! shape (out of range: none), and a direction only chooses which support point is taken. So
//! every seeded w' is a genuine point of the current M', whatever the cache holds (stale, from
//! another pair, garbage): the upper bound stays valid, and the lower bound comes only from
//! genuine support queries of this run (the seeds contribute none). A bad cache can only cost
//! iterations. Non-finite directions are skipped; duplicated points are kept once; a seeded
//! tetrahedron enclosing the origin proves contact (M' is convex and contains its vertices),
//! and a flat one never does (the simplex sub-algorithm's flatness test).
//!
//! # Edge cases
//!
//! * The canonical order of the pair may flip between steps (the dispatcher swaps shapes):
//!   [`WarmPairs::swapped`] exchanges the two sides (A's and B's local directions and hints).
//! * An empty [`WarmPairs`] (cold cache) seeds nothing: the run starts cold.

use nalgebra::{Point3, Vector3};

use super::distance::{Mode, Run, Start, run};
use super::epa::{EpaOutput, EpaStatus, Finish, expand_finishing};
use super::settings::{GjkSettings, GjkStatus};
use super::simplex::{Simplex, Vertex};
use super::support::{COLD_HINT, Difference, RelativeFrame, SupportMap, warm_hint};

/// The previous final simplex as support pairs: for each vertex, the local directions along
/// which A and B were queried and the hints (vertex indices) of the answers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct WarmPairs {
    len: u8,
    /// −d in A's frame (a = s_A(dir_a)).
    dir_a: [Vector3<f64>; 4],
    /// Rᵀd in B's frame (b = s_B(dir_b)).
    dir_b: [Vector3<f64>; 4],
    /// (A, B) hints at which the supports were found.
    hints: [(u32, u32); 4],
}

impl Default for WarmPairs {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl WarmPairs {
    /// No pairs: a cold start. All bits zero (hints 0 too: a slot's hints are read only below
    /// the length), so that a cold start is cleared by a few vector stores instead of a copy
    /// of a 232-byte constant (a `memcpy` call on every cold query in the wheel build).
    pub const EMPTY: Self = Self {
        len: 0,
        dir_a: [Vector3::new(0.0, 0.0, 0.0); 4],
        dir_b: [Vector3::new(0.0, 0.0, 0.0); 4],
        hints: [(0, 0); 4],
    };

    /// Number of stored pairs.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Replaces the pairs by those of a run's final simplex (vertices in A's frame, B placed
    /// by `frame`); the slots past its length keep stale values that nothing reads.
    pub fn set_from_simplex(&mut self, simplex: &Simplex, frame: &RelativeFrame) {
        for (k, v) in simplex.v[..simplex.len.min(4)].iter().enumerate() {
            self.dir_a[k] = -v.d;
            self.dir_b[k] = frame.r.tr_mul(&v.d);
            self.hints[k] = (v.ha, v.hb);
        }
        self.len = simplex.len.min(4) as u8;
    }

    /// The same pairs for the exchanged shape order (B − A = −(A − B)).
    pub fn swapped(&self) -> Self {
        let mut p = *self;
        std::mem::swap(&mut p.dir_a, &mut p.dir_b);
        for h in p.hints.iter_mut() {
            *h = (h.1, h.0);
        }
        p
    }

    /// Pushes the pairs re-read at `diff`'s poses onto an empty `simplex` and points `diff`'s
    /// climbing hints at the first of them. Returns the largest |w| seeded (0 when none), a
    /// size of the problem for the convergence tolerance.
    pub fn seed<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
        &self,
        diff: &mut Difference<'_, A, B>,
        simplex: &mut Simplex,
    ) -> f64 {
        // The largest |w|², rooted once at the end (sqrt is monotone and correctly rounded:
        // the same value as the largest root).
        let mut size2 = 0.0f64;
        for k in 0..self.len().min(4) {
            let (da, db) = (self.dir_a[k], self.dir_b[k]);
            if !(finite(&da) & finite(&db)) {
                continue;
            }
            let (ha, hb) = self.hints[k];
            let a = pair_point(diff.a, &da, ha);
            let bl = pair_point(diff.b, &db, hb);
            let b = Point3::from(diff.frame.r * bl.coords + diff.frame.t);
            let w = a - b;
            if !finite(&w) || simplex.contains(&w) || simplex.len >= 4 {
                continue;
            }
            size2 = size2.max(w.norm_squared());
            simplex.push(Vertex { w, a, b, d: -da, ha, hb });
        }
        if simplex.len > 0 {
            // Climbs start at the last run's final support vertices (the cache's hints, the
            // supports along the last direction, which the next search direction is close
            // to), else at the first pair's.
            let pick = |last: u32, first: u32| warm_hint(if last == COLD_HINT { first } else { last });
            diff.hint_a = pick(diff.hint_a, simplex.v[0].ha);
            diff.hint_b = pick(diff.hint_b, simplex.v[0].hb);
        }
        size2.sqrt()
    }
}

/// EPA from a contact run's simplex. When the run started warm and the expansion did not
/// converge (a seeded tetrahedron can be a sliver whose rounding breaks the horizon, and the
/// expansion stops with a valid but loose bracket), it is redone from a cold GJK run and the
/// two brackets are intersected: both are proven, so the result is at least as tight as the
/// cold answer and a warm start never loosens a depth.
///
/// `finish`: the finishing hook of [`expand_finishing`] (the curved cores' Newton depth).
pub(crate) fn expand_warm<A, B, F>(
    diff: &mut Difference<'_, A, B>,
    contact: &Run,
    start: &Start,
    settings: &GjkSettings,
    finish: &mut F,
) -> EpaOutput
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    F: FnMut(&mut Difference<'_, A, B>, &Simplex, &Vector3<f64>, f64) -> Option<Finish>,
{
    let e = expand_finishing(diff, &contact.simplex, contact.scale, settings, finish);
    if e.status == EpaStatus::Converged || start.pairs.len() == 0 {
        return e;
    }
    let mut cold =
        Difference { a: diff.a, b: diff.b, frame: diff.frame, hint_a: COLD_HINT, hint_b: COLD_HINT };
    let r = run(&mut cold, &Start::cold(-diff.frame.t), settings, Mode::Distance);
    if r.status != GjkStatus::Contact {
        return e;
    }
    let c = expand_finishing(&mut cold, &r.simplex, r.scale, settings, finish);
    let lower = e.lower.max(c.lower);
    let best = if c.upper <= e.upper { c } else { e };
    EpaOutput { lower: lower.min(best.upper), ..best }
}

/// Whether every coordinate is finite (branch-free: the three tests are cheap, a chained
/// iterator with early exit is not).
#[inline(always)]
fn finite(v: &Vector3<f64>) -> bool {
    v.x.is_finite() & v.y.is_finite() & v.z.is_finite()
}

/// The stored vertex under `hint`, else the support along the local direction `dir`
/// (climbing from `hint`): a point of the shape in both cases.
pub(crate) fn pair_point<S: SupportMap + ?Sized>(shape: &S, dir: &Vector3<f64>, hint: u32) -> Point3<f64> {
    let hint = warm_hint(hint);
    match shape.hinted_vertex(hint) {
        Some(p) => p,
        None => {
            let mut h = hint;
            shape.local_support(dir, &mut h)
        }
    }
}

#[cfg(test)]
mod tests {
    //! A warm start from an *arbitrary* cache (random directions, NaNs, hints in and out of
    //! range, either orientation) gives the cold answer: the seeds are always genuine points
    //! of the current Minkowski difference, so only the work changes.

    use nalgebra::{Rotation3, Vector3};
    use parry3d_f64::math::Vector as PVector;
    use proptest::prelude::*;

    use super::WarmPairs;
    use crate::shape::{ConvexPolytope, Cuboid, Ellipsoid};
    use crate::{Algorithm, GjkCache, Pose, Proximity, QuerySettings, Shape, distance, distance_tracked};

    /// Hull of `n` points on the unit sphere (golden-spiral placement) with faces.
    fn hull(n: usize) -> Shape {
        let pts: Vec<PVector> = (0..n)
            .map(|i| {
                let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
                let r = (1.0 - z * z).sqrt();
                let phi = i as f64 * 2.399_963_229_728_653;
                PVector::new(r * phi.cos(), r * phi.sin(), z)
            })
            .collect();
        let (v, f) = parry3d_f64::transformation::convex_hull(&pts);
        let verts: Vec<[f64; 3]> = v.iter().map(|p| [p.x, p.y, p.z]).collect();
        let faces: Vec<[usize; 3]> =
            f.iter().map(|t| [t[0] as usize, t[1] as usize, t[2] as usize]).collect();
        let flipped: Vec<[usize; 3]> = faces.iter().map(|t| [t[0], t[2], t[1]]).collect();
        let p = ConvexPolytope::with_faces(verts.clone(), &faces)
            .or_else(|_| ConvexPolytope::with_faces(verts, &flipped))
            .expect("hull faces");
        Shape::ConvexPolytope(p)
    }

    fn shapes() -> Vec<Shape> {
        vec![
            hull(40),
            hull(90),
            Shape::Cuboid(Cuboid::new([0.4, 0.7, 0.3]).unwrap()),
            Shape::Ellipsoid(Ellipsoid::new([0.5, 0.9, 0.3]).unwrap()),
        ]
    }

    fn finite_or_nan() -> impl Strategy<Value = f64> {
        prop_oneof![8 => -2.0..2.0f64, 1 => Just(f64::NAN), 1 => Just(0.0)]
    }

    fn hint() -> impl Strategy<Value = u32> {
        prop_oneof![4 => 0u32..120, 1 => Just(u32::MAX), 1 => any::<u32>()]
    }

    prop_compose! {
        fn pairs()(len in 0u8..=4,
                   da in prop::array::uniform4(prop::array::uniform3(finite_or_nan())),
                   db in prop::array::uniform4(prop::array::uniform3(finite_or_nan())),
                   hints in prop::array::uniform4((hint(), hint()))) -> WarmPairs {
            WarmPairs { len, dir_a: da.map(Vector3::from), dir_b: db.map(Vector3::from), hints }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_cache_keeps_the_cold_answer(
            ia in 0usize..4, ib in 0usize..4,
            rot_a in prop::array::uniform3(-3.0..3.0f64), rot_b in prop::array::uniform3(-3.0..3.0f64),
            t in prop::array::uniform3(-2.5..2.5f64),
            p in pairs(), swapped in any::<bool>(), dir in prop::array::uniform3(finite_or_nan()),
            (ha, hb) in (hint(), hint()),
        ) {
            let shapes = shapes();
            let (a, b) = (&shapes[ia], &shapes[ib]);
            let pa = Pose::from_matrix(*Rotation3::new(Vector3::from(rot_a)).matrix(), Vector3::zeros()).unwrap();
            let pb = Pose::from_matrix(*Rotation3::new(Vector3::from(rot_b)).matrix(), Vector3::from(t)).unwrap();
            let s = QuerySettings::default().with_algorithm(Algorithm::Gjk);
            let cold = distance(a, &pa, b, &pb, &s).unwrap();
            let mut cache = GjkCache {
                direction: Some(Vector3::from(dir)),
                pairs: p,
                hint_a: ha,
                hint_b: hb,
                swapped,
                ..GjkCache::default()
            };
            let warm = distance_tracked(a, &pa, b, &pb, &s, &mut cache).unwrap();
            prop_assert!(warm.certificate.lower <= warm.certificate.upper);
            let depth = |r: &crate::DistanceResult| match r.proximity {
                Proximity::Intersecting { depth, .. } => depth,
                Proximity::Touching { .. } => Some(0.0),
                _ => None,
            };
            match (depth(&cold), depth(&warm)) {
                (None, None) => {
                    // Curved shapes converge to the tolerance, polytopes exactly.
                    prop_assert!((warm.distance() - cold.distance()).abs() <= 1e-7, "warm {:?} cold {:?}", warm, cold);
                    prop_assert!(warm.certificate.lower <= cold.distance() + 1e-9);
                }
                (Some(dc), Some(dw)) => {
                    // EPA on a curved shape stops at its iteration cap with a bracket wider
                    // than the tolerance; on polytopes and boxes it converges.
                    let tol = if ia == 3 || ib == 3 { 1e-3 } else { 1e-6 };
                    prop_assert!((dw - dc).abs() <= tol, "warm {:?} cold {:?}", warm, cold);
                }
                _ => prop_assert!(warm.distance().max(cold.distance()) <= 1e-9, "status differs: warm {:?} cold {:?}", warm, cold),
            }
        }
    }
}
