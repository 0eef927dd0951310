//! The GJK loop: distance with witnesses and a duality-gap certificate, and the early-exit
//! intersection test.
//!
//! # Maths
//!
//! dist(A, B) = min_{x∈M} |x| over the Minkowski difference M = A − B (computed in A's frame).
//! Each iteration asks the support maps for w = s_A(−d) − s_B(d) = argmin_{x∈M} d·x, adds w to
//! the simplex and replaces the iterate v by the point of the simplex's hull closest to the
//! origin. Two bounds hold at every step:
//!
//! * upper = |v|, since v = p_a − p_b with p_a = Σλᵢaᵢ ∈ A, p_b = Σλᵢbᵢ ∈ B;
//! * lower = d·w/|d| for *any* direction d: |x| ≥ d·x/|d| ≥ min_{y∈M} d·y/|d| for the optimum
//!   x. In the certificate convention of [`crate::query`], with n = −d/|d|,
//!   d·w/|d| = min_{b∈B} n·b − max_{a∈A} n·a.
//!
//! The loop keeps the best lower bound and stops when upper − lower ≤ tolerance × scale
//! ([`GjkStatus::Converged`]); polytopal cores converge in finitely many steps (the gap reaches
//! 0 up to rounding), curved ones linearly.
//!
//! # Edge cases
//!
//! * The origin inside the simplex (a non-flat tetrahedron), or |v| within 64 ulps of the
//!   problem scale: [`GjkStatus::Contact`], with a common point from the barycentric weights.
//! * A support point already in the simplex, or a projection that does not decrease |v|
//!   (rounding): [`GjkStatus::Stagnated`], the bracket still valid.
//! * The iteration cap: [`GjkStatus::MaxIterations`], never reported as an answer by the
//!   dispatcher unless its bracket proves the claim (lower > 0 for "separated").

use nalgebra::{Point3, Vector3};

use super::settings::{Acceleration, GjkCache, GjkSettings, GjkStatus};
use super::simplex::Simplex;
use super::support::{
    COLD_HINT, CelledCloud, Difference, RelativeFrame, SupportMap, VertexCloud, cold_scans, warm_hint,
};
use super::support_cells::SupportCells;
use super::warm::WarmPairs;
use crate::error::GeomError;
use crate::pose::Pose;
use crate::shape::ConvexPolytope;

/// What a GJK run found (witnesses in the world frame).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GjkOutput {
    /// How the run ended.
    pub status: GjkStatus,
    /// Witness on A (world frame): a convex combination of support points of A.
    pub point_a: Point3<f64>,
    /// Witness on B (world frame).
    pub point_b: Point3<f64>,
    /// Proven lower bound of the distance (may be ≤ 0 at contact; clamp for a distance).
    pub lower: f64,
    /// Upper bound |p_b − p_a| (as computed from the simplex).
    pub upper: f64,
    /// Iterations (support queries per shape, the initial one excluded).
    pub iterations: u32,
}

/// Run mode of the loop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Mode {
    /// Converge the distance.
    Distance,
    /// Stop as soon as separation (lower > margin) or contact (upper ≤ margin) is proven;
    /// `margin` = the radii added around the cores.
    Boolean {
        /// Sum of the radii around the cores (0 for bare shapes).
        margin: f64,
    },
}

/// Internal result: the output in A's frame plus the final simplex (for EPA).
pub(crate) struct Run {
    pub status: GjkStatus,
    pub simplex: Simplex,
    pub v: Vector3<f64>,
    pub lower: f64,
    /// The direction d whose support point gave `lower` (lower = d·w/|d|).
    pub lower_dir: Vector3<f64>,
    pub upper: f64,
    pub scale: f64,
    pub iterations: u32,
    pub hint_a: u32,
    pub hint_b: u32,
    /// B's placement in A's frame (for the warm-start pairs).
    pub frame: RelativeFrame,
}

/// Contact threshold: 64 ulps of the problem scale.
pub(crate) fn contact_floor(scale: f64) -> f64 {
    64.0 * f64::EPSILON * scale
}

/// Where a run starts: an initial direction, and optionally the search directions of a
/// previous run's final simplex (re-evaluated at the current poses: a warm start).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Start {
    pub direction: Vector3<f64>,
    pub simplex_dirs: [Vector3<f64>; 4],
    pub simplex_hints: [(u32, u32); 4],
    pub simplex_len: usize,
    /// The previous final simplex as support pairs (preferred over `simplex_dirs`).
    pub pairs: WarmPairs,
}

impl Start {
    /// A cold start along `direction`.
    pub fn cold(direction: Vector3<f64>) -> Self {
        Self {
            direction,
            simplex_dirs: [Vector3::zeros(); 4],
            simplex_hints: [(COLD_HINT, COLD_HINT); 4],
            simplex_len: 0,
            pairs: WarmPairs::EMPTY,
        }
    }
}

/// The GJK loop on A − B in A's frame. Always inlined: its result holds the whole simplex
/// (≈ 560 bytes), which a call returns through memory and the caller then copies; inlined,
/// the simplex is built where the caller keeps it (warm hull tracking: 570 → 557 ns/step).
#[inline(always)]
pub(crate) fn run<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    diff: &mut Difference<'_, A, B>,
    start: &Start,
    settings: &GjkSettings,
    mode: Mode,
) -> Run {
    let mut out = Run::blank(&diff.frame);
    run_into(diff, start, settings, mode, &mut out);
    out
}

impl Run {
    /// A run that has not started (empty simplex, no bounds), to be filled by [`run_into`].
    #[inline(always)]
    pub(crate) fn blank(frame: &RelativeFrame) -> Self {
        Run {
            status: GjkStatus::MaxIterations,
            simplex: Simplex::new(),
            v: Vector3::zeros(),
            lower: f64::NEG_INFINITY,
            lower_dir: Vector3::zeros(),
            upper: f64::INFINITY,
            scale: 0.0,
            iterations: 0,
            hint_a: COLD_HINT,
            hint_b: COLD_HINT,
            frame: *frame,
        }
    }
}

/// [`run`] written into `out`, a [`Run::blank`] of `diff.frame` (every other field is set
/// here; the frame is the blank's): a caller
/// that keeps the run gets it built in place, where returning it copied the simplex (≈ 450
/// bytes) into the caller's slot (polytope_8: one `memcpy` call per query). The blank's
/// simplex is already cleared; it is only marked empty here (its slots are written before
/// they are read), which spares clearing it twice.
#[inline(always)]
pub(crate) fn run_into<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    diff: &mut Difference<'_, A, B>,
    start: &Start,
    settings: &GjkSettings,
    mode: Mode,
    out: &mut Run,
) {
    // (Coordinates tested one by one: an iterator over `d0` took its address, which kept a
    // copy of it in memory, re-read across the copy's stores.)
    let mut d0 = start.direction;
    if !(super::gt(d0.norm_squared(), 0.0) && d0.x.is_finite() && d0.y.is_finite() && d0.z.is_finite()) {
        d0 = Vector3::x();
    }
    out.simplex.len = 0;
    // (`out.frame` is the blank's, made from `diff.frame` by every caller: not copied again.)
    let simplex = &mut out.simplex;
    // Warm start by support pairs (gjk/warm.rs): the previous final simplex re-read here
    // (a cold start has none: no call).
    let warm_size = if start.pairs.len() > 0 { start.pairs.seed(diff, simplex) } else { 0.0 };
    let dir_warm_len = if simplex.len > 0 { 0 } else { start.simplex_len.min(4) };
    let mut start_bound = StartBound { lower: f64::NEG_INFINITY, lower_dir: d0 };
    // The first point pushed here, which is the simplex's first (it starts empty when these
    // re-evaluations run): kept in registers, where reading it back from the simplex waited
    // on the push's stores (a store-forwarding stall on every cold run).
    let mut pushed_first = None;
    // Warm start: the previous final simplex's directions, re-evaluated at these poses.
    for k in 0..dir_warm_len {
        // Start each re-evaluation where that vertex was found last time.
        let (ha, hb) = start.simplex_hints[k];
        let hints = (ha != COLD_HINT && hb != COLD_HINT).then_some((ha, hb));
        let w = add_start_support(diff, simplex, &mut start_bound, &start.simplex_dirs[k], hints);
        pushed_first = pushed_first.or(w);
    }
    if simplex.len == 0 {
        pushed_first = add_start_support(diff, simplex, &mut start_bound, &d0, None);
    }
    let StartBound { mut lower, mut lower_dir } = start_bound;
    // No support point with finite coordinates: nothing below is meaningful.
    let empty = simplex.len == 0;
    let first = pushed_first.unwrap_or(simplex.v[0].w);
    simplex.lambda[0] = 1.0;
    let mut v = if simplex.len > 1 { simplex.project_origin() } else { first };
    let mut upper = v.norm();
    let margin = match mode {
        Mode::Distance => None,
        Mode::Boolean { margin } => Some(margin),
    };
    let mut scale = upper.max(warm_size).max(f64::MIN_POSITIVE);
    let mut accel = settings.acceleration;
    let mut dir = v;
    let mut w_prev = first;
    let mut status = GjkStatus::MaxIterations;
    let mut it = 0u32;
    let mut warm_contact = false;
    if simplex.len == 4 {
        // The warm simplex already encloses the origin.
        v = Vector3::zeros();
        upper = 0.0;
        status = GjkStatus::Contact;
        warm_contact = true;
    }
    while !warm_contact && it < settings.max_iterations {
        if empty || !(upper.is_finite() && scale.is_finite()) {
            // |w|² overflowed (coordinates beyond ~1e154): every comparison below would be
            // against ∞ (contact_floor(∞) = ∞ "proves" contact).
            status = GjkStatus::Overflow;
            break;
        }
        if upper <= contact_floor(scale) || margin.is_some_and(|m| upper <= m) {
            status = GjkStatus::Contact;
            break;
        }
        if margin.is_some_and(|m| lower > m) {
            status = GjkStatus::SeparationProven;
            break;
        }
        it += 1;
        let k = f64::from(it);
        // Plain GJK searches along v, whose norm is `upper` (computed as v.norm()): no
        // second square root, and no fallback to choose.
        let momentum = match accel {
            Acceleration::None => None,
            Acceleration::Nesterov => {
                let delta = (k + 1.0) / (k + 3.0);
                let y = v * delta + w_prev * (1.0 - delta);
                dir = dir * delta + y * (1.0 - delta);
                Some(dir)
            }
            Acceleration::Polyak => {
                let beta = k / (k + 3.0);
                dir = dir * beta + v * (1.0 - beta);
                Some(dir)
            }
        };
        let (d, dn) = match momentum.map(|d| (d, d.norm())) {
            Some((d, dn)) if dn > 0.0 && dn.is_finite() => (d, dn),
            _ => (v, upper),
        };
        let x = diff.support(&d);
        // scale = max(scale, |w|), with the root taken only when |w| is larger
        // (sqrt(fl(s²)) = s, so the comparison on squares keeps the result bit for bit; a NaN
        // |w| left `scale` unchanged before too).
        let w2 = x.w.norm_squared();
        if w2 > scale * scale {
            scale = scale.max(w2.sqrt());
        }
        let lk = d.dot(&x.w) / dn;
        if lk > lower {
            lower = lk;
            lower_dir = d;
        }
        if margin.is_some_and(|m| lower > m) {
            status = GjkStatus::SeparationProven;
            break;
        }
        if mode == Mode::Distance && upper - lower <= settings.tolerance * scale {
            status = GjkStatus::Converged;
            break;
        }
        if accel != Acceleration::None && v.dot(&(v - x.w)) <= settings.tolerance * scale * upper {
            // The momentum direction gave no descent from v: plain GJK from here on.
            accel = Acceleration::None;
            continue;
        }
        if simplex.contains(&x.w) {
            status = GjkStatus::Stagnated;
            break;
        }
        simplex.push(x);
        let mut plan = simplex.plan_inlined(false);
        let mut un = plan.v.norm();
        if !super::gt(upper, un) && plan.len < 4 {
            // No decrease: possibly the region tests' cancellation on a nearly degenerate
            // face; redo the projection with explicit candidates.
            plan = simplex.plan(true);
            un = plan.v.norm();
        }
        let vn = simplex.apply(&plan);
        if simplex.len == 4 {
            v = Vector3::zeros();
            upper = 0.0;
            status = GjkStatus::Contact;
            break;
        }
        let progress = un < upper;
        v = vn;
        upper = un;
        w_prev = x.w;
        if !progress {
            status = if upper <= contact_floor(scale) { GjkStatus::Contact } else { GjkStatus::Stagnated };
            break;
        }
    }
    if status == GjkStatus::MaxIterations && upper <= contact_floor(scale) {
        status = GjkStatus::Contact;
    }
    if empty || !(upper.is_finite() && scale.is_finite()) {
        status = GjkStatus::Overflow;
    }
    out.status = status;
    out.v = v;
    out.lower = lower;
    out.lower_dir = lower_dir;
    out.upper = upper;
    out.scale = scale;
    out.iterations = it;
    out.hint_a = diff.hint_a;
    out.hint_b = diff.hint_b;
}

/// The best lower bound of a run's start and the direction that gave it.
struct StartBound {
    lower: f64,
    lower_dir: Vector3<f64>,
}

/// Adds the support point along `d` (re-read from `hints` when given) to a run's starting
/// simplex, unless it is there already, and raises the start's lower bound d·w/|d|; returns
/// the point w when it was added. A direction whose |d|² overflows is taken at a smaller size
/// (see the body); a zero or non-finite one adds nothing. Always inlined, and a function
/// rather than a closure over the run's state: as an out-of-line closure it kept the bound
/// and the difference in memory for the whole loop (their addresses were taken).
#[inline(always)]
fn add_start_support<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    diff: &mut Difference<'_, A, B>,
    simplex: &mut Simplex,
    bound: &mut StartBound,
    d: &Vector3<f64>,
    hints: Option<(u32, u32)>,
) -> Option<Vector3<f64>> {
    let mut dn = d.norm();
    // (The direction taken by value: a reference chosen between `d` and a rescaled copy kept
    // both in memory, and the run's start direction was re-read across its copy's stores.)
    let d = if dn == f64::INFINITY && d.amax().is_finite() {
        // |d|² overflowed (a start direction beyond ~1e154, e.g. towards a shape that far
        // away): the same direction at a size whose norm is finite. Skipping it would
        // leave the simplex empty.
        let rescaled = d / d.amax();
        dn = rescaled.norm();
        rescaled
    } else {
        *d
    };
    let d = &d;
    if !super::gt(dn, 0.0) || !dn.is_finite() {
        return None;
    }
    if let Some((ha, hb)) = hints {
        diff.hint_a = warm_hint(ha);
        diff.hint_b = warm_hint(hb);
    }
    let x = diff.support(d);
    let lk = d.dot(&x.w) / dn;
    if lk > bound.lower {
        bound.lower = lk;
        bound.lower_dir = *d;
    }
    if simplex.contains(&x.w) {
        return None;
    }
    simplex.push(x);
    Some(x.w)
}

/// The start of a run: the cache's direction and simplex, else a cold start from B's origin
/// towards A's (so the first support point faces the other shape), in A's frame. In line:
/// the start (≈ 400 bytes) is then built where the caller keeps it, not returned and copied.
#[inline(always)]
pub(crate) fn initial_direction(frame: &RelativeFrame, cache: Option<&GjkCache>) -> Start {
    match cache {
        Some(c) if c.direction.is_some() => {
            Start { pairs: c.pairs, ..Start::cold(c.direction.unwrap_or(-frame.t)) }
        }
        _ => Start::cold(-frame.t),
    }
}

/// GJK distance between two support maps placed by poses, with witnesses and a certified
/// bracket. `cache`: warm start for tracking (read and updated), `None` for a cold query.
///
/// The shapes must be bounded (a [`Shape::Line`](crate::Shape::Line) is not a support map).
/// Errors: invalid settings.
pub fn gjk_distance<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Pose,
    b: &B,
    pose_b: &Pose,
    settings: &GjkSettings,
    cache: Option<&mut GjkCache>,
) -> Result<GjkOutput, GeomError> {
    gjk_entry(a, pose_a, b, settings, cache, Mode::Distance, None, RelativeFrame::new(pose_a, pose_b))
}

/// The early-exit intersection test: stops as soon as a separating direction
/// ([`GjkStatus::SeparationProven`]) or contact ([`GjkStatus::Contact`]) is proven. Any other
/// status means no verdict.
pub fn gjk_intersects<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Pose,
    b: &B,
    pose_b: &Pose,
    settings: &GjkSettings,
    cache: Option<&mut GjkCache>,
) -> Result<GjkOutput, GeomError> {
    gjk_entry(
        a,
        pose_a,
        b,
        settings,
        cache,
        Mode::Boolean { margin: 0.0 },
        None,
        RelativeFrame::new(pose_a, pose_b),
    )
}

/// [`gjk_distance`] between two convex polytopes, cold, with every support found by scanning
/// the vertices: four at a time where the processor has AVX2 (the run is dispatched once to
/// its instruction set), else one by one. The certified bracket and witnesses of any GJK run
/// (the first vertex of largest m·v is a support point). [`scan_beats_climbing`] says for
/// which polytopes it is the faster choice over a hill-climbing support map. The run starts
/// along the line between the two vertex sets' bounding-box centres (as the query API's cold
/// runs between polytopes do), not between the local origins.
///
/// Errors: invalid settings.
pub fn gjk_distance_scanned(
    a: &ConvexPolytope,
    pose_a: &Pose,
    b: &ConvexPolytope,
    pose_b: &Pose,
    settings: &GjkSettings,
) -> Result<GjkOutput, GeomError> {
    struct Scanned<'q> {
        a: (&'q ConvexPolytope, &'q Pose),
        b: (&'q ConvexPolytope, &'q Pose),
        settings: &'q GjkSettings,
    }
    impl pulp::WithSimd for Scanned<'_> {
        type Output = Result<GjkOutput, GeomError>;
        #[inline(always)]
        fn with_simd<S: pulp::Simd>(self, simd: S) -> Self::Output {
            let ((a, pa), (b, pb)) = (self.a, self.b);
            let frame = RelativeFrame::new(pa, pb);
            let start = center_direction(&a.center(), &b.center(), &frame);
            let (a, b) = (VertexCloud { polytope: a, simd }, VertexCloud { polytope: b, simd });
            gjk_entry(&a, pa, &b, self.settings, None, Mode::Distance, start, frame)
        }
    }
    pulp::Arch::new().dispatch(Scanned { a: (a, pose_a), b: (b, pose_b), settings })
}

/// [`gjk_distance_scanned`] with each polytope's candidate lists ([`SupportCells`], built for
/// its vertices; `None` scans): a support is read from the few vertices listed for the
/// direction's cell, the same vertex as the scan's bit for bit, so the same run, bracket and
/// witnesses. Measured on `proxima bench-robot` (Panda, 42 hull pairs of 18–260 vertices):
/// see `proxima-scene`'s `robot_query.rs`.
///
/// Errors: invalid settings.
pub fn gjk_distance_scanned_cells(
    a: &ConvexPolytope,
    cells_a: Option<&SupportCells>,
    pose_a: &Pose,
    b: &ConvexPolytope,
    cells_b: Option<&SupportCells>,
    pose_b: &Pose,
    settings: &GjkSettings,
) -> Result<GjkOutput, GeomError> {
    struct Celled<'q> {
        a: (&'q ConvexPolytope, Option<&'q SupportCells>, &'q Pose),
        b: (&'q ConvexPolytope, Option<&'q SupportCells>, &'q Pose),
        settings: &'q GjkSettings,
    }
    impl pulp::WithSimd for Celled<'_> {
        type Output = Result<GjkOutput, GeomError>;
        #[inline(always)]
        fn with_simd<S: pulp::Simd>(self, simd: S) -> Self::Output {
            let ((a, ca, pa), (b, cb, pb)) = (self.a, self.b);
            let frame = RelativeFrame::new(pa, pb);
            let start = center_direction(&a.center(), &b.center(), &frame);
            let a = CelledCloud { cloud: VertexCloud { polytope: a, simd }, cells: ca };
            let b = CelledCloud { cloud: VertexCloud { polytope: b, simd }, cells: cb };
            gjk_entry(&a, pa, &b, self.settings, None, Mode::Distance, start, frame)
        }
    }
    pulp::Arch::new().dispatch(Celled { a: (a, cells_a, pose_a), b: (b, cells_b, pose_b), settings })
}

/// Whether cold GJK runs on `p` are faster with vertex scans ([`gjk_distance_scanned`]) than
/// with hill climbing over its adjacency: the hull carries support lists (built with the
/// shape for hulls of [`HULL_CELLS_MIN_VERTICES`](crate::shape::HULL_CELLS_MIN_VERTICES) to
/// [`HULL_CELLS_MAX_VERTICES`](crate::shape::HULL_CELLS_MAX_VERTICES) vertices, read in place
/// of the scan), no adjacency, fewer vertices than climbing pays for, or fewer than
/// `LANE_SCAN_MAX_VERTICES` (512) where the processor runs the four-lane scan — the rule the
/// query API's cold runs follow (measured in `support.rs`).
pub fn scan_beats_climbing(p: &ConvexPolytope) -> bool {
    cold_scans(p)
}

/// `cold_direction`: the start direction of a cold run instead of −t (see
/// [`center_direction`]); `frame`: B's placement in A's frame, `RelativeFrame::new(pose_a,
/// pose_b)` (computed once by callers that also need it for the start direction: it was
/// 2.5% of the instructions of a Panda `distances` pass when computed twice).
///
/// Always inlined: in [`gjk_distance_scanned`] it is then compiled inside the run's
/// instruction-set dispatch (with [`run`] and its projection), not as a baseline function
/// calling into the dispatched vertex scans.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn gjk_entry<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    pose_a: &Pose,
    b: &B,
    settings: &GjkSettings,
    cache: Option<&mut GjkCache>,
    mode: Mode,
    cold_direction: Option<Vector3<f64>>,
    frame: RelativeFrame,
) -> Result<GjkOutput, GeomError> {
    settings.validate()?;
    let (h_a, h_b) =
        cache.as_ref().filter(|c| c.is_warm()).map_or((COLD_HINT, COLD_HINT), |c| (c.hint_a, c.hint_b));
    let mut diff = Difference { a, b, frame, hint_a: h_a, hint_b: h_b };
    let mut init = initial_direction(&frame, cache.as_deref());
    if let (None, Some(d)) = (cache.as_ref().filter(|c| c.is_warm()), cold_direction) {
        init.direction = d;
    }
    // Built in place (`run_into`): returned by `run`, the run (≈ 500 bytes) was copied into
    // this frame with a `memcpy` call per query (robot distances: 88 instructions each).
    let mut r = Run::blank(&frame);
    run_into(&mut diff, &init, settings, mode, &mut r);
    if let Some(c) = cache {
        store(c, &r, false);
    }
    let (qa, qb) = r.simplex.witnesses();
    Ok(GjkOutput {
        status: r.status,
        point_a: pose_a.transform_point(&qa),
        point_b: pose_a.transform_point(&qb),
        lower: r.lower,
        upper: r.upper,
        iterations: r.iterations,
    })
}

/// The cold start direction c_a − (R c_b + t) from B's centre `cb` to A's centre `ca` (local
/// frames; B placed in A's by `frame`): the first support pair then faces across the middle
/// of the two shapes. `None` when it is not finite or shorter than 1e-12 × the centres' size
/// (the default −t is kept).
#[inline]
pub(crate) fn center_direction(
    ca: &Point3<f64>,
    cb: &Point3<f64>,
    frame: &RelativeFrame,
) -> Option<Vector3<f64>> {
    let d = ca.coords - (frame.r * cb.coords + frame.t);
    let size = ca.coords.amax().max(cb.coords.amax()).max(frame.t.amax());
    (d.iter().all(|x| x.is_finite()) && d.amax() > 1e-12 * size).then_some(d)
}

/// Saves a run's direction and hints in a cache.
pub(crate) fn store(c: &mut GjkCache, r: &Run, swapped: bool) {
    let dir = if r.upper > 0.0 { r.v } else { c.direction.unwrap_or(r.v) };
    c.direction = Some(dir);
    // Written in place: the pairs are most of the cache, a temporary would be copied over.
    c.pairs.set_from_simplex(&r.simplex, &r.frame);
    c.hint_a = r.hint_a;
    c.hint_b = r.hint_b;
    c.swapped = swapped;
    c.last_iterations = r.iterations;
}
