//! Tracking through contact: the last step's expanded polytope, re-read at the new poses, as
//! the start of this step's depth.
//!
//! # Maths
//!
//! EPA ends with a closed triangulated surface P whose vertices are points w = a − b of the
//! Minkowski difference M = A − B (a, b support points of the shapes). Kept as *support pairs*
//! (the local directions along which A and B were queried and the vertex hints, as the GJK
//! warm start keeps its simplex, `warm.rs`), each vertex re-read at the next poses is a point
//! of the new difference M' (the same local point of a polytope, the support along the same
//! local direction of any other shape). With the stored faces that gives a closed, oriented
//! surface P' whose vertices lie in M', but which need not be convex any more.
//!
//! **Lower bound without convexity.** For an oriented triangle (u, v, w) with outward normal
//! n ∝ (v − u) × (w − u), n·u has the sign of det(u, v, w), the sign of the solid angle the
//! triangle subtends at the origin. When every face of the closed surface P' has the origin
//! strictly on its inner side (n·u > 0), all solid angles are positive, their sum 4π·k gives a
//! winding number k ≥ 1, and the origin is enclosed by P', hence lies in the hull of its
//! vertices (a point outside that hull has a plane separating it from every vertex, and a ray
//! beyond the plane meets no face: winding number 0). Every x with |x| < L = min over faces of
//! n·u is joined to the origin by a segment that meets no face (each face lies at distance
//! ≥ L), so it has the same winding number: the ball B(0, L) lies in hull(P') ⊆ M', and the
//! depth δ = dist(0, ∂M') ≥ L. **Upper bound:** δ ≤ h_M'(n) for every unit n, one support query
//! along the closest face's normal.
//!
//! When the contact feature pair has not changed (polytopes: the same face of one shape
//! against the same vertex of the other, or the same two edges), the closest face is still on
//! the facet of M' and the bracket closes with that one support query. Otherwise the surface
//! is expanded as EPA does — the faces the new support point sees are replaced by a fan over
//! their horizon, which must be one simple cycle; the new faces keep the orientation of the
//! horizon edges and must again have the origin strictly inside — for a few steps, with the
//! curved cores' finishing hook tried at a loose gap (as [`super::epa`]). Anything else (a face
//! through or behind the origin, a horizon that is not a disk, no convergence within the step
//! budget) gives up: the caller runs EPA as before, so the warm state can only cost a
//! re-read, never an answer.
//!
//! **Bounds carried between steps.** Computing every face's plane is most of a step's work.
//! Each face keeps a proven lower bound of its triangle's distance from the origin; a
//! triangle whose vertices moved by at most m since then (m: the largest move of any vertex)
//! is within Hausdorff distance m of the old one, so its distance dropped by at most m. When
//! every face keeps a positive bound after that, no face crossed the origin on the straight
//! path between the two surfaces, the winding number is unchanged (≥ 1), and the ball
//! argument above holds with the carried bounds: only the faces whose bound is the least are computed (their plane offset bounds the
//! triangle's distance too), until the least bound belongs to a computed face. An expansion
//! step computes every face and needs the origin strictly inside each (the faces it removes
//! then see the new point from outside, so the fan adds no winding around the origin).
//!
//! The query adapter (`query/distance/gjk.rs::contact_depth`) uses it between two vertex
//! polytopes only, whose pairs re-read by vertex index; the maths holds for any support maps
//! (the tests run it on boxes, segments and curved cores too). Its lower bound L > 0 proves
//! the overlap by itself, so a tracked step whose kept surface proves the depth skips GJK
//! (`kept_contact` there) and takes its common point from the surface
//! ([`ContactPolytope::warm_contact`]).
//!
//! **Depth face.** For curved cores against a polytope the surface is not kept (re-reading it
//! costs support queries, and EPA is as cheap); what is kept is the face on which the depth
//! finish (`depth.rs`) closed the bracket, as support pairs: re-read, it is the next step's
//! finish simplex, whose polytope face fixes the depth direction (one support evaluation and
//! the enclosed balls) where Newton from the direction alone meets the face's kink
//! ([`ContactPolytope::seed_depth_face`]).
//!
//! # Edge cases
//!
//! * The canonical order of the pair flipped since the last step: every vertex is negated
//!   (B − A = −(A − B)), the pairs' sides exchanged and every face's orientation reversed.
//! * The stored surface is imported from EPA only when it is closed (every directed edge
//!   has exactly one twin): a polytope left open by a stopped expansion is not kept.
//! * Non-finite re-read points, degenerate (zero-area) faces: give up.
//! * A failed attempt is followed by 2^k − 1 contact steps without one (k failures in a row,
//!   up to 15 steps), each of them running EPA and keeping its polytope.
//! * The polytope grows by the vertices each warm step adds: past [`MAX_VERTICES`] it is not
//!   kept (the next contact step runs EPA and imports a fresh one).
//! * The cache also holds the back-off of the curved cores' depth finish inside EPA
//!   ([`ContactPolytope::finish_due`]): a finish that failed there at k steps in a row is not
//!   called in the next 2^(k−1) − 1 EPA runs (at most 15); the caller never backs off with an
//!   ellipsoid core. It only chooses which proven bracket EPA reports.

use nalgebra::{Point3, Vector3};

use super::epa::{EpaOutput, EpaStatus, FINISH_FROM, Finish};
use super::settings::GjkSettings;
use super::simplex::{Simplex, Vertex};
use super::support::{COLD_HINT, Difference, RelativeFrame, SupportMap};
use super::warm::{WarmPairs, pair_point};

/// The largest polytope kept between steps (vertices).
const MAX_VERTICES: usize = 160;

/// Expansion steps a warm depth may take before it gives up.
const MAX_STEPS: u32 = 24;

/// One vertex of the kept polytope as a support pair.
#[derive(Debug, Clone, Copy, PartialEq)]
struct PairVertex {
    /// −d in A's frame (a = s_A(dir_a)).
    dir_a: Vector3<f64>,
    /// Rᵀd in B's frame (b = s_B(dir_b)).
    dir_b: Vector3<f64>,
    ha: u32,
    hb: u32,
    /// The point it gave at the last step (A's frame then).
    w: Vector3<f64>,
}

/// The last contact step's polytope: support pairs and a closed surface of outward faces.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ContactPolytope {
    verts: Vec<PairVertex>,
    faces: Vec<[u32; 3]>,
    /// Per face, a lower bound of the distance from the origin to the triangle at the
    /// stored points (its plane offset when computed; 0 when unknown).
    bounds: Vec<f64>,
    /// Whether it was computed with the shapes exchanged.
    swapped: bool,
    /// Warm attempts that failed in a row, and contact steps left before the next attempt
    /// (2^misses − 1, at most 15: pairs whose depth moves off the kept surface — curved
    /// rims — do not pay a failing attempt on every step).
    misses: u8,
    skip: u8,
    /// A one-shot owner (a time-of-impact search stops at its initial contact): nothing is
    /// kept, EPA's polytope is not copied for a next step that never comes.
    one_shot: bool,
    /// The face (EPA's closest, as support pairs) on which the curved cores' depth finish
    /// closed the last step's bracket, and whether it was computed with the shapes exchanged:
    /// the next step's warm finish starts from it, re-read at the new poses (see
    /// [`ContactPolytope::seed_depth_face`]).
    face: WarmPairs,
    face_swapped: bool,
    /// The slots of the faces in which the line along the depth normal crossed the surface at
    /// the last step answered from it, in front and behind ([`NO_FACE`]: none): tried first by
    /// the next step's search (the slots survive a step without expansion, and an expansion
    /// renumbers them: a stale slot is only a face tested in vain).
    crossings: [u32; 2],
    /// Contact steps in a row whose EPA called the depth finish in vain, and EPA runs left
    /// before the finish is tried there again (2^misses − 1, at most 15; see
    /// [`ContactPolytope::finish_due`]).
    finish_misses: u8,
    finish_skip: u8,
}

/// No face slot (see `ContactPolytope::crossings`).
const NO_FACE: u32 = u32::MAX;

/// A face of the working surface: outward unit normal and plane offset once computed
/// (`exact`), and a proven lower bound of the triangle's distance from the origin.
#[derive(Debug, Clone, Copy)]
struct Face {
    idx: [u32; 3],
    n: Vector3<f64>,
    dist: f64,
    bound: f64,
    exact: bool,
}

/// Per-thread working storage (no allocation per step).
#[derive(Default)]
struct Scratch {
    verts: Vec<Vertex>,
    faces: Vec<Face>,
    edges: Vec<u64>,
    /// EPA's faces and the vertex renumbering of an import.
    import_faces: Vec<[u32; 3]>,
    remap: Vec<u32>,
    /// The last warm depth's closest face (its index in `faces`) and scale.
    closest: usize,
    scale: f64,
}

impl Default for ContactPolytope {
    fn default() -> Self {
        Self {
            verts: Vec::new(),
            faces: Vec::new(),
            bounds: Vec::new(),
            swapped: false,
            misses: 0,
            skip: 0,
            one_shot: false,
            face: WarmPairs::EMPTY,
            face_swapped: false,
            crossings: [NO_FACE; 2],
            finish_misses: 0,
            finish_skip: 0,
        }
    }
}

thread_local! {
    static SCRATCH: core::cell::RefCell<Scratch> = core::cell::RefCell::new(Scratch::default());
}

impl ContactPolytope {
    /// Replaces the kept surface by EPA's last polytope on this thread (vertices in A's frame,
    /// B placed by `frame`), when it is closed; otherwise empties it. Only the vertices on a
    /// face are kept.
    pub(crate) fn import_epa(&mut self, frame: &RelativeFrame, swapped: bool) {
        self.clear();
        if self.one_shot {
            return;
        }
        self.swapped = swapped;
        // (In the thread's working storage: an import follows every EPA of a tracked hull
        // pair in contact, its own vectors were four allocations each time.)
        SCRATCH.with(|cell| {
            if let Ok(mut scratch) = cell.try_borrow_mut() {
                self.import_from(&mut scratch, frame);
            }
        });
    }

    fn import_from(&mut self, scratch: &mut Scratch, frame: &RelativeFrame) {
        let Scratch { verts, edges, import_faces: faces, remap, .. } = scratch;
        verts.clear();
        faces.clear();
        super::epa::last_polytope(verts, faces);
        edges.clear();
        edges.extend(
            faces
                .iter()
                .flat_map(|f: &[u32; 3]| [(f[0], f[1]), (f[1], f[2]), (f[2], f[0])])
                .map(|(u, v)| u64::from(u) << 32 | u64::from(v)),
        );
        if faces.len() < 4 || !is_closed(edges) || verts.len() > MAX_VERTICES {
            return;
        }
        remap.clear();
        remap.resize(verts.len(), u32::MAX);
        for f in faces.iter() {
            let mut g = [0u32; 3];
            for (k, &i) in f.iter().enumerate() {
                let Some(v) = verts.get(i as usize) else {
                    self.clear();
                    return;
                };
                if remap[i as usize] == u32::MAX {
                    remap[i as usize] = self.verts.len() as u32;
                    self.verts.push(pair_of(v, frame));
                }
                g[k] = remap[i as usize];
            }
            // EPA's faces have the origin inside; the plane offset is the bound (0 if not
            // positive: the next step recomputes it).
            let bound = oriented_face(verts, *f, 0.0).map_or(0.0, |f| f.dist);
            self.faces.push(g);
            self.bounds.push(bound);
        }
    }

    /// A surface that is never kept: for a cache whose owner asks for one depth in contact
    /// and no next step (a time-of-impact search ends at an initial contact). Its warm
    /// attempts find nothing and EPA's polytope is not copied (seven allocations and a copy
    /// of the surface per query, ~5 % of the CCD start-in-contact family).
    pub(crate) fn one_shot() -> Self {
        Self { one_shot: true, ..Self::default() }
    }

    /// Pushes the kept depth face, re-read at `diff`'s poses, onto the empty `simplex`: the
    /// support pairs of the face (EPA's closest) on which the last step's depth finish closed
    /// its bracket, in the pair's current order (`swapped`); nothing when none is kept.
    /// Re-read at the new poses they are genuine points of the new Minkowski difference
    /// (`warm.rs`), so a finish started on them proves its bracket like any other, and a face
    /// that is no longer the contact's only costs that attempt: for an ellipsoid or a cylinder
    /// rim against a polytope face, the face fixes the depth direction and one support
    /// evaluation with its enclosed balls closes the bracket, where Newton from the direction
    /// alone meets the face's kink (h of a polytope has no curvature to steer it) and fails.
    pub(crate) fn seed_depth_face<A, B>(
        &self,
        swapped: bool,
        diff: &mut Difference<'_, A, B>,
        simplex: &mut Simplex,
    ) where
        A: SupportMap + ?Sized,
        B: SupportMap + ?Sized,
    {
        if self.face.len() == 0 {
            return;
        }
        let face = if self.face_swapped == swapped { self.face } else { self.face.swapped() };
        face.seed(diff, simplex);
    }

    /// Keeps `face` (a simplex of `frame`'s Minkowski difference, the pair in the order
    /// `swapped`) as the next step's depth face, or forgets it (`None`); a one-shot owner
    /// keeps nothing.
    pub(crate) fn set_depth_face(&mut self, face: Option<(&Simplex, &RelativeFrame)>, swapped: bool) {
        match face {
            Some((s, frame)) if !self.one_shot => {
                self.face.set_from_simplex(s, frame);
                self.face_swapped = swapped;
            }
            _ => self.face = WarmPairs::EMPTY,
        }
    }

    /// Whether this step's EPA should call the depth finish (`depth.rs`) at its loose gap;
    /// consumes one skipped run when not. A finish that fails inside EPA (a cylinder's rim
    /// pressed in near a box edge, a box edge across a rim: no enclosed ball reaches the
    /// depth) tends to fail again at the next poses, and costs about a third of that EPA;
    /// after k such steps in a row the next 2^k − 1 runs (at most 15) expand to the
    /// tolerance on their own. EPA's bracket is proven either way: this only chooses which
    /// proven bracket is reported.
    pub(crate) fn finish_due(&mut self) -> bool {
        if self.finish_skip > 0 {
            self.finish_skip -= 1;
            return false;
        }
        true
    }

    /// Records whether the depth finish, called inside this step's EPA, closed its bracket.
    pub(crate) fn record_finish(&mut self, closed: bool) {
        if closed {
            self.finish_misses = 0;
        } else {
            self.finish_misses = self.finish_misses.saturating_add(1);
            self.finish_skip = (1u8 << (self.finish_misses.min(5) - 1)) - 1;
        }
    }

    fn clear(&mut self) {
        self.verts.clear();
        self.faces.clear();
        self.bounds.clear();
        self.crossings = [NO_FACE; 2];
    }

    /// Whether a surface is kept.
    pub(crate) fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }

    /// The depth at `diff`'s poses from the kept surface (see the module documentation), the
    /// kept surface updated to the one it ended with; `None` when it cannot prove a bracket
    /// within the tolerance (the kept surface is then emptied). `swapped`: the current order
    /// of the pair; `scale`: the problem's size (GJK's); `finish`: the curved cores' hook.
    pub(crate) fn warm_depth<A, B, F>(
        &mut self,
        diff: &mut Difference<'_, A, B>,
        swapped: bool,
        scale: f64,
        settings: &GjkSettings,
        finish: &mut F,
    ) -> Option<EpaOutput>
    where
        A: SupportMap + ?Sized,
        B: SupportMap + ?Sized,
        F: FnMut(&mut Difference<'_, A, B>, &Simplex, &Vector3<f64>, f64) -> Option<Finish>,
    {
        self.attempt(diff, swapped, scale, settings, finish, true)
    }

    /// [`Self::warm_depth`]; the witnesses of the closest face (the origin projected onto it)
    /// only when `witnesses` is set: [`Self::warm_contact`] takes its common point from the
    /// surface's crossings instead, and leaves the output's witnesses at the origin.
    fn attempt<A, B, F>(
        &mut self,
        diff: &mut Difference<'_, A, B>,
        swapped: bool,
        scale: f64,
        settings: &GjkSettings,
        finish: &mut F,
        witnesses: bool,
    ) -> Option<EpaOutput>
    where
        A: SupportMap + ?Sized,
        B: SupportMap + ?Sized,
        F: FnMut(&mut Difference<'_, A, B>, &Simplex, &Vector3<f64>, f64) -> Option<Finish>,
    {
        if self.skip > 0 {
            self.skip -= 1;
            return None;
        }
        if self.is_empty() || diff.b.placed() {
            return None;
        }
        let out = SCRATCH.with(|cell| {
            let mut scratch = cell.try_borrow_mut().ok()?;
            self.expand(diff, swapped != self.swapped, scale, settings, finish, witnesses, &mut scratch)
        });
        if out.is_none() {
            self.clear();
            self.misses = self.misses.saturating_add(1);
            self.skip = (1u8 << self.misses.min(4)) - 1;
        } else {
            self.misses = 0;
        }
        out
    }

    /// Whether a warm attempt would run now: a surface is kept and no back-off is pending.
    pub(crate) fn ready(&self) -> bool {
        self.skip == 0 && !self.is_empty()
    }

    /// A whole tracked step in contact from the kept surface, with no GJK run: the depth of
    /// [`Self::warm_depth`] (whose lower bound L > 0 proves the overlap: the ball B(0, L) is in
    /// the Minkowski difference), a point common to both shapes as a pair (A's point, B's
    /// point: the same convex weights over the surface's vertices' support points, equal to
    /// rounding; A's frame), and the problem's scale (the largest |w| of the surface). `None`
    /// when the warm depth fails or no line crossing is found for the common point (rounding at
    /// an edge): the caller runs GJK and EPA as before.
    ///
    /// **Common point.** The line through the origin along the depth normal n crosses the
    /// closed surface, which winds around the origin, on both sides: at s_f·n (s_f > 0) in one
    /// face and at −s_b·n (s_b > 0) in another, each a convex combination of its triangle's
    /// vertices w_i = a_i − b_i (barycentric weights det(n, v, w) : det(n, w, u) : det(n, u, v)
    /// for the triangle (u, v, w), all of one sign exactly when the line meets it). Then
    /// 0 = (s_b·p_f + s_f·p_b)/(s_f + s_b): with those weights μ (≥ 0, summing to 1),
    /// Σ μ_i a_i ∈ A equals Σ μ_i b_i ∈ B, as GJK's enclosing simplex gives it.
    pub(crate) fn warm_contact<A, B, F>(
        &mut self,
        diff: &mut Difference<'_, A, B>,
        swapped: bool,
        settings: &GjkSettings,
        finish: &mut F,
    ) -> Option<(EpaOutput, Point3<f64>, Point3<f64>, f64)>
    where
        A: SupportMap + ?Sized,
        B: SupportMap + ?Sized,
        F: FnMut(&mut Difference<'_, A, B>, &Simplex, &Vector3<f64>, f64) -> Option<Finish>,
    {
        let e = self.attempt(diff, swapped, 0.0, settings, finish, false)?;
        if !super::gt(e.lower, 0.0) {
            return None;
        }
        SCRATCH.with(|cell| {
            let scratch = cell.try_borrow().ok()?;
            let (qa, qb, crossings) =
                enclosing_pair(&scratch.verts, &scratch.faces, scratch.closest, self.crossings, &e.normal)?;
            self.crossings = crossings;
            Some((e, qa, qb, scratch.scale))
        })
    }

    fn expand<A, B, F>(
        &mut self,
        diff: &mut Difference<'_, A, B>,
        flipped: bool,
        scale: f64,
        settings: &GjkSettings,
        finish: &mut F,
        witnesses: bool,
        scratch: &mut Scratch,
    ) -> Option<EpaOutput>
    where
        A: SupportMap + ?Sized,
        B: SupportMap + ?Sized,
        F: FnMut(&mut Difference<'_, A, B>, &Simplex, &Vector3<f64>, f64) -> Option<Finish>,
    {
        let Scratch { verts, faces, edges, .. } = scratch;
        verts.clear();
        faces.clear();
        // The largest |w|² and the largest squared move, rooted once each.
        let (mut size2, mut moved2) = (0.0f64, 0.0f64);
        // Re-read the pairs (exchanged sides when the order flipped).
        for p in &self.verts {
            let (dir_a, dir_b, ha, hb) =
                if flipped { (p.dir_b, p.dir_a, p.hb, p.ha) } else { (p.dir_a, p.dir_b, p.ha, p.hb) };
            let a = pair_point(diff.a, &dir_a, ha);
            let bl = pair_point(diff.b, &dir_b, hb);
            let b = Point3::from(diff.frame.r * bl.coords + diff.frame.t);
            let w = a - b;
            if !(w.iter().all(|x| x.is_finite())) {
                return None;
            }
            size2 = size2.max(w.norm_squared());
            moved2 = moved2.max((w - p.w).norm_squared());
            verts.push(Vertex { w, a, b, d: -dir_a, ha, hb });
        }
        let mut scale = scale.max(size2.sqrt()).max(f64::MIN_POSITIVE);
        let moved = moved2.sqrt();
        // The origin strictly inside every face, beyond round-off of the plane offsets.
        let floor = 64.0 * f64::EPSILON * scale;
        // Each triangle's distance from the origin drops by at most the largest move of the
        // vertices (the moved triangle is within that Hausdorff distance): when every face
        // keeps a positive bound, no face crossed the origin on the straight path from the
        // last points, so the winding number (≥ 1) is unchanged, and the bounds are proven
        // without computing the faces. Otherwise (and in exchanged order, whose frame is not
        // the stored one) every face is computed and must have the origin inside.
        let mut carried = !flipped;
        let slack = moved + 4.0 * f64::EPSILON * scale;
        for (f, &bound) in self.faces.iter().zip(&self.bounds) {
            let idx = if flipped { [f[0], f[2], f[1]] } else { *f };
            let bound = bound - slack;
            carried &= super::gt(bound, floor);
            faces.push(Face { idx, n: Vector3::zeros(), dist: 0.0, bound, exact: false });
        }
        if !carried {
            for f in faces.iter_mut() {
                *f = oriented_face(verts, f.idx, floor)?;
            }
        }
        let tol = settings.tolerance * scale;
        let mut upper = f64::INFINITY;
        let mut best: Option<(Vector3<f64>, Point3<f64>, Point3<f64>)> = None;
        let mut finished: Option<Finish> = None;
        let mut tried = false;
        let mut status = None;
        let mut it = 0;
        while it < MAX_STEPS {
            it += 1;
            // The face of least bound, computed (only the faces whose bound is below it are).
            let ci = least_computed(faces, verts)?;
            let f = faces[ci];
            // Climb from where the face's first vertex was found (as EPA does).
            let first = verts[f.idx[0] as usize];
            if first.ha != COLD_HINT && first.hb != COLD_HINT {
                (diff.hint_a, diff.hint_b) = (first.ha, first.hb);
            }
            let p = diff.support(&-f.n);
            if !p.w.iter().all(|x| x.is_finite()) {
                return None;
            }
            scale = scale.max(p.w.norm());
            let h = f.n.dot(&p.w);
            if h < upper {
                upper = h;
                best = None;
            }
            // Rounding of the plane offsets (a few ulps of the scale) off the lower end.
            let mut lower = (f.bound - 8.0 * f64::EPSILON * scale).max(0.0);
            if let Some(fin) = finished {
                lower = lower.max(fin.lower);
            }
            if upper - lower <= tol {
                status = Some((lower, ci));
                break;
            }
            if !tried && upper - lower <= FINISH_FROM * scale {
                tried = true;
                let s = Simplex::of_face(verts, &f.idx);
                if let Some(fin) = finish(diff, &s, &f.n, tol) {
                    finished = Some(fin);
                    lower = lower.max(fin.lower);
                    if fin.upper < upper {
                        upper = fin.upper;
                        best = Some((fin.normal, fin.a, fin.b));
                    }
                    if upper - lower <= tol {
                        status = Some((lower, ci));
                        break;
                    }
                }
            }
            if verts.len() >= MAX_VERTICES {
                return None;
            }
            // Expansion: every face computed, with the origin inside (both arguments of the
            // module documentation then hold for the new surface).
            for f in faces.iter_mut() {
                if !f.exact {
                    let g = plane(verts, f.idx)?;
                    *f = Face { bound: g.dist.max(f.bound), ..g };
                }
                if !super::gt(f.dist, floor) {
                    return None;
                }
            }
            // Replace the faces that see p by the fan over their horizon (one simple cycle).
            let eps = 1e-12 * scale;
            edges.clear();
            let mut removed = 0;
            for face in faces.iter() {
                if face.n.dot(&p.w) - face.dist > eps {
                    removed += 1;
                    super::epa::toggle_horizon_edges(edges, face.idx);
                }
            }
            if removed == 0 || !(edges.len() == removed + 2 || super::epa::is_simple_cycle(edges)) {
                return None;
            }
            faces.retain(|face| face.n.dot(&p.w) - face.dist <= eps);
            verts.push(p);
            let pi = (verts.len() - 1) as u32;
            for &e in edges.iter() {
                faces.push(oriented_face(verts, [(e >> 32) as u32, e as u32, pi], floor)?);
            }
        }
        let (lower, ci) = status?;
        (scratch.closest, scratch.scale) = (ci, scale);
        // Keep the surface for the next step: the points just read, the faces' bounds.
        let (normal, point_a, point_b) = match best {
            Some(b) => b,
            None if !witnesses => (faces[ci].n, Point3::origin(), Point3::origin()),
            None => {
                let f = faces[ci];
                let mut s = Simplex::of_face(verts, &f.idx);
                s.project_origin();
                let (pa, pb) = s.witnesses();
                (f.n, pa, pb)
            }
        };
        if flipped || verts.len() != self.verts.len() {
            // Rebuilt in the current order (new vertices appended, faces replaced).
            self.swapped ^= flipped;
            self.verts.clear();
            self.verts.extend(verts.iter().map(|v| pair_of(v, &diff.frame)));
            self.faces.clear();
            self.faces.extend(faces.iter().map(|f| f.idx));
            self.bounds.clear();
            self.bounds.extend(faces.iter().map(|f| f.bound.max(0.0)));
        } else {
            // No expansion (each adds a vertex) in the stored order: the same faces in the
            // same slots, only the points and the bounds are new.
            for (p, v) in self.verts.iter_mut().zip(verts.iter()) {
                p.w = v.w;
            }
            for (b, f) in self.bounds.iter_mut().zip(faces.iter()) {
                *b = f.bound.max(0.0);
            }
        }
        Some(EpaOutput {
            status: EpaStatus::Converged,
            depth: upper,
            lower: lower.min(upper),
            upper,
            normal,
            point_a,
            point_b,
            iterations: it,
        })
    }
}

/// The index of the face of least bound once it is computed: the least-bound face is computed
/// (its plane offset, itself a lower bound of its triangle's distance, replaces a smaller
/// carried bound), then every face whose bound is below the least computed one so far, in one
/// pass — the bound kept only grows when a face is computed, so a face passed over was not
/// below the final least. Every bound is finite here (a carried one passed the positivity
/// test, a computed one is a plane offset of finite points). `None` for a degenerate face.
fn least_computed(faces: &mut [Face], verts: &[Vertex]) -> Option<usize> {
    let mut ci = 0;
    for (k, f) in faces.iter().enumerate() {
        if f.bound < faces[ci].bound {
            ci = k;
        }
    }
    let f = faces.get(ci)?;
    if !f.exact {
        let g = plane(verts, f.idx)?;
        faces[ci] = Face { bound: g.dist.max(f.bound), ..g };
    }
    let mut least = faces[ci].bound;
    for k in 0..faces.len() {
        let f = faces[k];
        if f.bound < least {
            let bound = if f.exact {
                f.bound
            } else {
                let g = plane(verts, f.idx)?;
                faces[k] = Face { bound: g.dist.max(f.bound), ..g };
                faces[k].bound
            };
            if bound < least {
                (least, ci) = (bound, k);
            }
        }
    }
    Some(ci)
}

/// Where the line along the depth normal crosses a face: the distance from the origin, the
/// barycentric weights, the face's vertex indices, the face's slot.
type Crossing = (f64, [f64; 3], [u32; 3], u32);

/// The weights of the origin over the vertices of the two faces the line along `n` crosses
/// (see [`ContactPolytope::warm_contact`]), applied to the vertices' support points of A and
/// of B, and the slots of the two faces (front, behind); `None` when no crossing is found on
/// one side. The closest face (`closest`, whose normal `n` is: the line meets its plane at
/// the depth's lower end) is tried first, then the faces of the last step's crossings
/// (`hints`, slots; [`NO_FACE`] or out of range: none), then every face. Any crossing on each
/// side gives a common point (see [`ContactPolytope::warm_contact`]); the hints only make the
/// search short (under small motions the line crosses the same faces again).
fn enclosing_pair(
    verts: &[Vertex],
    faces: &[Face],
    closest: usize,
    hints: [u32; 2],
    n: &Vector3<f64>,
) -> Option<(Point3<f64>, Point3<f64>, [u32; 2])> {
    // The crossing in front and behind.
    let mut sides: [Option<Crossing>; 2] = [None, None];
    let first = [closest, hints[0] as usize, hints[1] as usize].into_iter();
    for slot in first.chain(0..faces.len()) {
        let Some(f) = faces.get(slot) else { continue };
        let [u, v, w] = f.idx.map(|i| verts.get(i as usize).map(|x| x.w));
        let (u, v, w) = (u?, v?, w?);
        // The weights det(n, v, w) : det(n, w, u) : det(n, u, v), of one sign exactly when
        // the line meets the triangle (the later ones computed only while the signs agree).
        let x = n.dot(&v.cross(&w));
        let y = n.dot(&w.cross(&u));
        if (x > 0.0 && y < 0.0) || (x < 0.0 && y > 0.0) {
            continue;
        }
        let z = n.dot(&u.cross(&v));
        let sum = x + y + z;
        let crosses = (x >= 0.0 && y >= 0.0 && z >= 0.0 && sum > 0.0)
            || (x <= 0.0 && y <= 0.0 && z <= 0.0 && sum < 0.0);
        if !crosses {
            continue;
        }
        let weights = [x / sum, y / sum, z / sum];
        let s = n.dot(&(u * weights[0] + v * weights[1] + w * weights[2]));
        let side = usize::from(s < 0.0);
        if sides[side].is_none() && s != 0.0 && s.is_finite() {
            sides[side] = Some((s.abs(), weights, f.idx, slot as u32));
        }
        if sides[0].is_some() && sides[1].is_some() {
            break;
        }
    }
    let [Some((sf, wf, f, front)), Some((sb, wb, b, behind))] = sides else { return None };
    let (kf, kb) = (sb / (sf + sb), sf / (sf + sb));
    let (mut qa, mut qb) = (Vector3::zeros(), Vector3::zeros());
    for (idx, weights, k) in [(f, wf, kf), (b, wb, kb)] {
        for (i, wi) in idx.iter().zip(weights) {
            let x = &verts[*i as usize];
            qa += x.a.coords * (wi * k);
            qb += x.b.coords * (wi * k);
        }
    }
    let finite = |p: &Vector3<f64>| p.iter().all(|c| c.is_finite());
    (finite(&qa) && finite(&qb)).then_some((Point3::from(qa), Point3::from(qb), [front, behind]))
}

/// The support pair of vertex `v` (A's frame, B placed by `frame`).
fn pair_of(v: &Vertex, frame: &RelativeFrame) -> PairVertex {
    PairVertex { dir_a: -v.d, dir_b: frame.r.tr_mul(&v.d), ha: v.ha, hb: v.hb, w: v.w }
}

/// The face (u, v, w) with its normal along (v − u) × (w − u) (no re-orientation: the
/// winding argument needs the surface's own orientation), when the origin lies more than
/// `floor` inside its plane.
#[inline(always)]
fn oriented_face(verts: &[Vertex], idx: [u32; 3], floor: f64) -> Option<Face> {
    plane(verts, idx).filter(|f| super::gt(f.dist, floor))
}

/// The face (u, v, w)'s unit normal along (v − u) × (w − u) and plane offset (its bound);
/// `None` for a zero-area or non-finite face.
#[inline(always)]
fn plane(verts: &[Vertex], idx: [u32; 3]) -> Option<Face> {
    let [i, j, k] = idx.map(|x| x as usize);
    let (a, b, c) = (verts.get(i)?.w, verts.get(j)?.w, verts.get(k)?.w);
    let n = (b - a).cross(&(c - a));
    let len = n.norm();
    if !super::gt(len, 0.0) || !len.is_finite() {
        return None;
    }
    let n = n / len;
    let dist = n.dot(&a);
    Some(Face { idx, n, dist, bound: dist, exact: true })
}

/// Whether the directed edges (u·2³² + v) form a closed surface: each appears once and so does
/// its twin (v, u). Sorts `edges`.
fn is_closed(edges: &mut [u64]) -> bool {
    edges.sort_unstable();
    if edges.windows(2).any(|w| w[0] == w[1]) {
        return false;
    }
    edges.iter().all(|&e| edges.binary_search(&((e & 0xffff_ffff) << 32 | e >> 32)).is_ok())
}

#[cfg(test)]
mod tests {
    //! The warm depth against a cold EPA on the same shapes and poses (an independent run from
    //! GJK's simplex, its own proven bracket): every bracket the warm surface proves overlaps
    //! the cold one and is within the tolerance; on polytopal pairs it closes on most steps
    //! (the feature pair changes rarely under 0.01 rad turns). A kept surface whose orientation
    //! was reversed or whose pairs were re-aimed at random never gives a depth off the cold
    //! bracket.

    use nalgebra::{Rotation3, Vector3};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::super::epa::{expand_finishing, no_finish};
    use super::super::{GjkStatus, Mode, Start, penetration, run};
    use super::*;
    use crate::shape::{ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Segment};
    use crate::{Pose, Shape};

    fn shape(kind: &str, rng: &mut SmallRng) -> Shape {
        let mut r = |lo: f64, hi: f64| rng.random_range(lo..hi);
        match kind {
            "cyl" => Shape::Cylinder(Cylinder::new(r(0.4, 0.8), r(0.4, 1.0)).unwrap()),
            "ell" => Shape::Ellipsoid(Ellipsoid::new([r(0.5, 1.0), r(0.5, 1.0), r(0.5, 1.0)]).unwrap()),
            "box" => Shape::Cuboid(Cuboid::new([r(0.3, 0.9), r(0.3, 0.9), r(0.3, 0.9)]).unwrap()),
            "seg" => {
                let h = r(0.3, 0.9);
                Shape::Segment(Segment::new([0.0, 0.0, -h], [0.0, 0.0, h]).unwrap())
            }
            _ => {
                let axes = [r(0.5, 1.0), r(0.5, 1.0), r(0.5, 1.0)];
                let pts: Vec<[f64; 3]> = (0..24)
                    .map(|_| {
                        let v = Vector3::new(r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0)).normalize();
                        [v.x * axes[0], v.y * axes[1], v.z * axes[2]]
                    })
                    .collect();
                Shape::ConvexPolytope(ConvexPolytope::hull_of(&pts).unwrap())
            }
        }
    }

    /// Steps of one pair's tracks in contact; returns (steps in contact, warm depths proven).
    fn track_pair(pair: &str, seed: u64, garble: bool) -> (usize, usize) {
        let (ka, kb) = pair.split_once('_').unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        let settings = GjkSettings::default();
        let (mut steps, mut warm) = (0, 0);
        for _ in 0..8 {
            let (a, b) = (shape(ka, &mut rng), shape(kb, &mut rng));
            let rot = |rng: &mut SmallRng| {
                Rotation3::new(Vector3::new(
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                ))
            };
            let (ra, rb) = (rot(&mut rng), rot(&mut rng));
            let d = Vector3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), 0.5).normalize();
            let overlap = rng.random_range(0.1..0.3);
            let mut poly = ContactPolytope::default();
            for k in 0..24 {
                let kf = k as f64;
                let pa = Pose::from_matrix(
                    *(Rotation3::new(Vector3::new(0.01, 0.004, -0.006) * kf) * ra).matrix(),
                    Vector3::zeros(),
                )
                .unwrap();
                let rbk = Rotation3::new(Vector3::new(-0.003, 0.008, 0.005) * kf) * rb;
                let pb0 = Pose::from_matrix(*rbk.matrix(), Vector3::zeros()).unwrap();
                let reach = a.support_value(&pa, &d) + b.support_value(&pb0, &-d);
                let pb = Pose::from_matrix(*rbk.matrix(), d * (reach - overlap)).unwrap();
                // Every third step in the exchanged order (B − A).
                let swapped = k % 3 == 2;
                let (x, px, y, py) = if swapped { (&b, &pb, &a, &pa) } else { (&a, &pa, &b, &pb) };
                let Some(cold) = penetration(x, px, y, py, &settings).unwrap() else { continue };
                let frame = RelativeFrame::new(px, py);
                let mut diff = Difference { a: x, b: y, frame, hint_a: COLD_HINT, hint_b: COLD_HINT };
                let r = run(&mut diff, &Start::cold(-frame.t), &settings, Mode::Distance);
                assert_eq!(r.status, GjkStatus::Contact);
                steps += 1;
                if garble && !poly.is_empty() {
                    // The orientation reversed, or every pair re-aimed at random (the
                    // surface stays closed, its points anywhere in M').
                    if k % 2 == 0 {
                        poly.faces.iter_mut().for_each(|f| f.swap(1, 2));
                    } else {
                        let mut dir = || {
                            Vector3::new(
                                rng.random_range(-1.0..1.0),
                                rng.random_range(-1.0..1.0),
                                rng.random_range(-1.0..1.0),
                            )
                        };
                        for v in poly.verts.iter_mut() {
                            (v.dir_a, v.dir_b, v.ha, v.hb) = (dir(), dir(), COLD_HINT, COLD_HINT);
                        }
                    }
                }
                match poly.warm_depth(&mut diff, swapped, r.scale, &settings, &mut no_finish) {
                    Some(e) => {
                        warm += 1;
                        let tol = settings.tolerance * r.scale.max(e.upper);
                        let at = format!("{pair} step {k}: warm {e:?} cold {cold:?}");
                        assert!(e.lower <= e.upper && e.upper - e.lower <= 2.0 * tol, "{at}");
                        assert!(e.lower <= cold.upper + tol && cold.lower <= e.upper + tol, "{at}");
                    }
                    None => {
                        let e = expand_finishing(&mut diff, &r.simplex, r.scale, &settings, &mut no_finish);
                        if e.status == EpaStatus::Converged && e.iterations > 0 {
                            poly.import_epa(&diff.frame, swapped);
                        }
                    }
                }
            }
        }
        (steps, warm)
    }

    #[test]
    fn warm_depth_keeps_the_cold_bracket() {
        for (i, pair) in
            ["hull_hull", "box_box", "seg_box", "cyl_box", "ell_hull", "cyl_ell"].iter().enumerate()
        {
            let (steps, warm) = track_pair(pair, 7 + i as u64, false);
            eprintln!("{pair}: warm depth on {warm} of {steps} steps in contact");
            assert!(steps >= 40, "{pair}: {steps} steps in contact");
            // Polytopal pairs: the feature pair persists on most steps.
            if matches!(*pair, "hull_hull" | "box_box" | "seg_box") {
                assert!(2 * warm >= steps, "{pair}: warm on {warm} of {steps} steps");
            }
        }
    }

    #[test]
    fn a_garbled_surface_never_gives_a_depth_off_the_bracket() {
        for (i, pair) in ["hull_hull", "box_box", "cyl_box"].iter().enumerate() {
            track_pair(pair, 40 + i as u64, true);
        }
    }

    /// A one-shot surface (a time-of-impact search's cache) keeps nothing after a converged
    /// EPA, whose polytope an ordinary one keeps; neither changes EPA's answer.
    #[test]
    fn a_one_shot_surface_keeps_nothing() {
        let mut rng = SmallRng::seed_from_u64(3);
        let (a, b) = (shape("hull", &mut rng), shape("hull", &mut rng));
        let pb = Pose::from_translation([0.3, 0.2, 0.1]).unwrap();
        let settings = GjkSettings::default();
        let frame = RelativeFrame::new(&Pose::identity(), &pb);
        let mut diff = Difference { a: &a, b: &b, frame, hint_a: COLD_HINT, hint_b: COLD_HINT };
        let r = run(&mut diff, &Start::cold(-frame.t), &settings, Mode::Distance);
        assert_eq!(r.status, GjkStatus::Contact);
        let e = expand_finishing(&mut diff, &r.simplex, r.scale, &settings, &mut no_finish);
        assert!(e.status == EpaStatus::Converged && e.iterations > 0, "{e:?}");
        let (mut kept, mut one_shot) = (ContactPolytope::default(), ContactPolytope::one_shot());
        kept.import_epa(&frame, false);
        one_shot.import_epa(&frame, false);
        assert!(!kept.is_empty() && one_shot.is_empty());
        // And its warm attempt finds nothing (EPA answers as for a cold pair).
        assert!(one_shot.warm_depth(&mut diff, false, r.scale, &settings, &mut no_finish).is_none());
    }

    #[test]
    fn closed_surface_check() {
        let e = |u: u64, v: u64| u << 32 | v;
        // A tetrahedron's four faces are closed; without one face, or with a repeated edge, not.
        let tet = [[0, 1, 2], [0, 2, 3], [0, 3, 1], [1, 3, 2]];
        let mut edges: Vec<u64> =
            tet.iter().flat_map(|f: &[u64; 3]| [e(f[0], f[1]), e(f[1], f[2]), e(f[2], f[0])]).collect();
        assert!(is_closed(&mut edges.clone()));
        assert!(!is_closed(&mut edges[3..].to_vec()));
        edges.push(e(0, 1));
        assert!(!is_closed(&mut edges));
    }
}
