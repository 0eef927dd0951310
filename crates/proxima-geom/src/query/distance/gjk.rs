//! Adapter from shapes and poses to GJK / EPA ([`crate::gjk`]): the general algorithm for
//! every pair of bounded shapes.
//!
//! GJK runs on the shapes' cores (sphere → centre, capsule → axis, rounded → inner shape) in
//! A's frame; the witnesses are moved to the world frame and the radii added back by the
//! shared case analysis (`certificate::finish`). The answer's certificate reuses GJK's
//! duality-gap lower bound when no radius is involved.
//!
//! | GJK status | answer |
//! |---|---|
//! | `Converged`, `Stagnated` | separated (bracket from GJK), or contact below the round-off floor |
//! | `Stagnated`, lower ≤ r and upper − r beyond the accuracy asked for (r = the radii's sum; see `stalled_unproven`) | nothing proven by GJK: one cold retry when the run was warm-started (a stale simplex); then answered as above (see below) |
//! | `Contact` | EPA on the cores: touching (depth ≤ round-off) or intersecting with the depth |
//! | `MaxIterations` | separated when the lower bound is positive (proven), else an error: never a guess |
//!
//! A stalled run (`Stagnated`: the new support point repeats a simplex vertex or the
//! projection makes no progress in f64) whose lower bound does not exceed the radii's sum has
//! not proven separation; it was once reported separated with the bracket [0, 1e-4] for
//! overlapping pairs (a thin tetrahedron around the origin, fixed in `gjk/simplex.rs`). A warm
//! start may carry a stale simplex, hence the one cold retry (`stall_tests`). A cold run is
//! deterministic, so retrying it would stall the same way; such an answer still reads
//! "separated" with an open bracket [0, upper] (the bracket is valid, the status is not
//! proven). Making it an error, as for `MaxIterations`, is not done yet: the time-of-impact
//! tests (`tests/toi`, `lower_at` at sampled times) meet cold stalls at near-contact that
//! the answer's own certificate does not prove either. The near-contact sweeps
//! (`tests/no_false_separation*.rs`) do not reach this path.
//!
//! Curved pairs (a cylinder, ellipsoid or cone core) run GJK to a loose gap and then the
//! Newton polish (`gjk/polish.rs`). Their support queries are monomorphized per pair where
//! that pays ([`run_polished_dispatched`]): a scanned hull against a cylinder or an ellipsoid
//! runs the whole query under one `pulp` dispatch (its scans inlined into the loop and the
//! polish), two whole shapes skip the core variant's match, and so does a capsule's axis
//! against a whole curved shape; the same support points, hints and iterates as through
//! `CoreShape`, so the same answers bit for bit (`pair_tests`). A capsule's axis against a
//! small scanned hull (a flat pair, no polish) runs under one `pulp` dispatch as two hulls
//! do (`CloudSegmentQuery`).
//!
//! A line is not bounded, hence not a support map: pairs with a line other than the
//! closed-form and LCP ones are [`GeomError::Unsupported`].

use nalgebra::{Point3, Vector3};

use super::distance_segment_segment::{LinearPiece, closest_linear_linear};

use super::super::certificate::{Core, Radii, finish, finish_with_length, round_off_floor};
use crate::error::GeomError;
use crate::gjk::{
    COLD_HINT, CelledCloud, CoreShape, CoreSupport, Difference, EpaOutput, EpaStatus, Eval, Finish, GjkCache,
    GjkSettings, GjkStatus, Mode, NO_FACES, NearContact, PairSupport, PlacedCloud, Polished, RelativeFrame,
    Run, Simplex, Start, SupportMap, Vertex, VertexCloud, cold_core_of, contact_floor, core_of, expand_warm,
    finish_curved, initial_direction, is_curved, no_finish, polish_probed, run, run_into, store,
};
use crate::pose::Pose;
use crate::query::{Algorithm, DistanceResult, Intersection, QueryPath, QuerySettings};
use crate::shape::Shape;
use crate::shape::onto_placed::{Part, clamp_local, either_off_orthonormal};
use crate::shape::{ConvexPolytope, HILL_CLIMB_MIN_VERTICES, LANES_MIN_VERTICES, cylinder_support};

/// GJK answer in the canonical order (a before b). `cache`: warm start (the cache's stored
/// orientation is converted when the canonical order flipped since the last call). EPA runs
/// on overlapping cores unless the settings ask for an unsigned distance
/// ([`QuerySettings::penetration_depth`]).
///
/// `depth_on_contact`: a cold unsigned query whose signed twin follows (`query/signed.rs`)
/// passes one; when the run ends in contact, EPA runs on from the run's final state and the
/// answer [`distance_with_depth`] gives at the same arguments is left there (see
/// [`DepthOnContact`]). The returned unsigned answer is the same either way.
pub(crate) fn distance(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
    cache: Option<(&mut GjkCache, bool)>,
    depth_on_contact: Option<&DepthOnContact>,
) -> Result<DistanceResult, GeomError> {
    // (Warm runs never stash: their state is the cache's, not a cold run's.)
    let stash = depth_on_contact.filter(|_| cache.is_none() && !settings.penetration_depth);
    gjk_answer(a, pa, b, pb, settings, cache, settings.penetration_depth, stash).map(|(r, _)| r)
}

/// Where a cold unsigned GJK query that ends in contact leaves its depth answer (in the
/// canonical order), for the signed query that would otherwise run GJK again before EPA.
///
/// Why it is the same answer, bit for bit: [`distance_with_depth`] at the same ordered
/// arguments runs `gjk_answer` cold with `depth` set. Before the conclusion, a cold run does
/// not read `depth` (it gates only the tracked shortcuts, which need a cache) nor
/// [`QuerySettings::penetration_depth`] (read only by [`distance`]), and a GJK run is a
/// deterministic function of the cores, the frame, the start and `settings.gjk`: the second
/// run would end at the same simplex with the same support hints. The conclusion's contact
/// branch then runs on the state the first run left, exactly as it would on the second's; the
/// case analysis (`finish`) reads the settings' tolerances and radii, not
/// `penetration_depth`.
pub(crate) type DepthOnContact = core::cell::Cell<Option<Answer>>;

/// As [`distance`], plus a proven bracket [lower, upper] of the penetration depth when the
/// shapes overlap (EPA on the cores plus the radii, or radii minus the core distance), i.e. the
/// signed distance lies in [−upper, −lower]. When GJK ends without proving separation (its
/// lower bound ≤ 0 at a tiny distance), the bracket is [r − upper, r − lower] from GJK's
/// unclamped bounds (r = the sum of the radii): its lower end is negative, as the shapes may be
/// apart by up to that much.
pub(crate) fn distance_with_depth(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
    cache: Option<(&mut GjkCache, bool)>,
) -> Result<(DistanceResult, Option<(f64, f64)>), GeomError> {
    gjk_answer(a, pa, b, pb, settings, cache, true, None)
}

/// [`distance_with_depth`] when `depth`; otherwise overlapping cores end at GJK's contact
/// proof (no EPA, no depth bracket, `Intersecting { depth: None }`), and with `stash` the
/// depth answer is left there as well ([`DepthOnContact`]).
fn gjk_answer(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
    cache: Option<(&mut GjkCache, bool)>,
    depth: bool,
    stash: Option<&DepthOnContact>,
) -> Result<(DistanceResult, Option<(f64, f64)>), GeomError> {
    settings.gjk.validate()?;
    if !a.is_bounded() || !b.is_bounded() {
        return Err(unbounded(a, b));
    }
    let warm = cache.as_ref().is_some_and(|(c, _)| c.is_warm());
    // (One shape at a time: the pair of (core, radius) tuples chosen as a whole went through
    // memory, written field by field and copied by 16 bytes across those stores.)
    let (ca, ra) = if warm { core_of(a) } else { cold_core_of(a) };
    let (cb, rb) = if warm { core_of(b) } else { cold_core_of(b) };
    let frame = RelativeFrame::new(pa, pb);
    let (mut init, hints, depth_normal);
    if warm {
        (init, hints, depth_normal) = warm_state(&frame, cache.as_ref().map(|(c, s)| (&**c, *s)));
    } else {
        // (`warm_state`'s cold start, built here where it is kept: its ≈ 400 bytes were
        // copied twice on the way, polytope_8.) Cold vertex polytopes start along the line
        // between their bounding-box centres (link meshes have their origins at joints, far
        // from the geometry).
        init = Start::cold(center_direction(a, b, &frame).unwrap_or(-frame.t));
        (hints, depth_normal) = ((COLD_HINT, COLD_HINT), None);
    }
    // Cold pairs of axial cores (cylinders, capsule segments) with a cylinder start from the
    // axes' closest points, and are polished by Newton from there before any GJK iteration;
    // so is a cylinder against an ellipsoid (smooth: Newton from the axis seed succeeds often
    // enough to pay, mixed workload cylinder–ellipsoid 1985 → 1574 ns per query).
    let mut newton_first = false;
    if init.simplex_len == 0
        && init.pairs.len() == 0
        && let Some((v, both_axial)) = axis_seed(&ca, &cb, &frame)
    {
        init.direction = v;
        newton_first = both_axial || is_ellipsoid(&ca) || is_ellipsoid(&cb);
    }
    let flat_core = !(is_curved(&ca) && is_curved(&cb));
    let ask = Ask {
        shapes: (a, pa, b, pb),
        radii: Radii { a: ra, b: rb },
        settings,
        depth,
        stash,
        depth_normal,
        flat_core,
    };
    if let (CoreShape::Scanned(a), CoreShape::Scanned(b)) = (ca, cb) {
        // Two scanned polytopes: a run monomorphized for vertex clouds, whose support scans
        // are inlined into the loop and vectorized for the processor's instruction set (same
        // points and hints as through `CoreShape`).
        let q = CloudQuery { a, b, frame, hints, init: &init, cache, ask: &ask };
        // Two small polytopes scan vertex by vertex anyway: no dispatch (its call would keep
        // the run from being inlined here, which costs more than a small scan).
        return if a.vertices().len() < LANES_MIN_VERTICES && b.vertices().len() < LANES_MIN_VERTICES {
            pulp::WithSimd::with_simd(q, pulp::Scalar::new())
        } else {
            pulp::Arch::new().dispatch(q)
        };
    }
    if let Some((polytope, half_height, cloud_is_a)) = cloud_and_segment(&ca, &cb) {
        // A small scanned polytope against a capsule's axis: as above, the cloud's scans and
        // the segment's support inlined into one monomorphized run (same points and hints
        // as through `CoreShape`, see `CloudSegmentQuery`).
        let q = CloudSegmentQuery {
            polytope,
            half_height,
            cloud_is_a,
            frame,
            hints,
            init: &init,
            cache,
            ask: &ask,
        };
        return q.dispatched();
    }
    let mut diff = Difference { a: &ca, b: &cb, frame, hint_a: hints.0, hint_b: hints.1 };
    // Curved cores: a loose GJK run polished by Newton (`gjk/polish.rs`); a tracked query
    // stores the loose run's state, which warm-starts the next step as well.
    let curved = is_curved(&ca) || is_curved(&cb);
    // Two vertex polytopes tracked in contact: from the kept EPA surface, without GJK.
    let mut cache = cache;
    if !curved
        && ask.depth
        && let Some((c, swapped)) = cache.as_mut()
        && c.polytope.as_deref().is_some_and(|p| p.ready())
        && let Some(answer) = kept_contact(&mut diff, c, *swapped, &ask)
    {
        return answer;
    }
    // (The polish comes back through an out-parameter: a (Run, Option) tuple would be one
    // more copy of the large `Run` on every query.)
    let mut polished = None;
    let mut r = if curved {
        run_polished_dispatched(&mut diff, &init, &settings.gjk, newton_first, &mut polished)
    } else {
        run(&mut diff, &init, &settings.gjk, Mode::Distance)
    };
    if curved {
        // Overlapping curved cores: EPA to a loose gap, then Newton on the depth certified by
        // an enclosed ball (`gjk/depth.rs`).
        conclude(&mut diff, &mut r, polished, &init, cache, &ask, &mut finish_curved)
    } else {
        conclude(&mut diff, &mut r, polished, &init, cache, &ask, &mut no_finish)
    }
}

/// Up to this many vertices B is placed in A's frame before a small-cloud run.
const PLACED_MAX_VERTICES: usize = 16;

/// The GJK run (and EPA on contact) between two scanned polytopes, as a `pulp` operation:
/// the vertex clouds' scans use the instruction set it is dispatched to.
struct CloudQuery<'q> {
    a: &'q ConvexPolytope,
    b: &'q ConvexPolytope,
    frame: RelativeFrame,
    hints: (u32, u32),
    init: &'q Start,
    cache: Option<(&'q mut GjkCache, bool)>,
    ask: &'q Ask<'q>,
}

impl pulp::WithSimd for CloudQuery<'_> {
    type Output = Result<(DistanceResult, Option<(f64, f64)>), GeomError>;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) -> Self::Output {
        let vb = self.b.vertices();
        if S::IS_SCALAR && vb.len() <= PLACED_MAX_VERTICES {
            // A small B placed in A's frame once (see `PlacedCloud`).
            let mut placed = [Point3::origin(); PLACED_MAX_VERTICES];
            for (p, v) in placed.iter_mut().zip(vb) {
                *p = Point3::from(self.frame.r * v.coords + self.frame.t);
            }
            let a = VertexCloud { polytope: self.a, simd };
            return self.between(&a, &PlacedCloud(&placed[..vb.len()]));
        }
        // With the polytopes' support lists when they were prepared (`shape/cells_slot.rs`):
        // the scan's supports bit for bit, read from a few vertices.
        let a = CelledCloud { cloud: VertexCloud { polytope: self.a, simd }, cells: self.a.support_cells() };
        let b = CelledCloud { cloud: VertexCloud { polytope: self.b, simd }, cells: self.b.support_cells() };
        self.between(&a, &b)
    }
}

impl CloudQuery<'_> {
    /// The run and its conclusion between the query's clouds as the support maps `a`, `b`.
    #[inline(always)]
    fn between<A: SupportMap, B: SupportMap>(
        self,
        a: &A,
        b: &B,
    ) -> Result<(DistanceResult, Option<(f64, f64)>), GeomError> {
        run_flat(a, b, self.frame, self.hints, self.init, self.cache, self.ask)
    }
}

/// The GJK run between two flat cores given as support maps of their own types, and its
/// conclusion (EPA on contact, no curved finish); a tracked step still in contact is
/// answered from the kept EPA surface first (`kept_contact`).
#[inline(always)]
fn run_flat<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    frame: RelativeFrame,
    hints: (u32, u32),
    init: &Start,
    cache: Option<(&mut GjkCache, bool)>,
    ask: &Ask<'_>,
) -> Result<(DistanceResult, Option<(f64, f64)>), GeomError> {
    let mut diff = Difference { a, b, frame, hint_a: hints.0, hint_b: hints.1 };
    let mut cache = cache;
    if ask.depth
        && let Some((c, swapped)) = cache.as_mut()
        && c.polytope.as_deref().is_some_and(|p| p.ready())
        && let Some(answer) = kept_contact(&mut diff, c, *swapped, ask)
    {
        return answer;
    }
    // Built in place (`run_into`): no copy of the run's simplex on the way to `conclude`.
    let mut r = Run::blank(&frame);
    run_into(&mut diff, init, &ask.settings.gjk, Mode::Distance, &mut r);
    conclude(&mut diff, &mut r, None, init, cache, ask, &mut no_finish)
}

/// A scanned polytope of fewer than [`HILL_CLIMB_MIN_VERTICES`] vertices and a capsule's
/// axis among the cores: the polytope, the axis's half height, and whether the polytope is A.
fn cloud_and_segment<'c>(a: &CoreShape<'c>, b: &CoreShape<'c>) -> Option<(&'c ConvexPolytope, f64, bool)> {
    let small = |p: &ConvexPolytope| p.vertices().len() < HILL_CLIMB_MIN_VERTICES;
    match (*a, *b) {
        (CoreShape::Scanned(p), CoreShape::ZSegment(h)) if small(p) => Some((p, h, true)),
        (CoreShape::ZSegment(h), CoreShape::Scanned(p)) if small(p) => Some((p, h, false)),
        _ => None,
    }
}

/// The GJK run (and EPA on contact) between a scanned polytope and a capsule's axis as a
/// `pulp` operation: the cloud ([`VertexCloud`]) scans with the same lanes as
/// `CoreShape::Scanned` (or vertex by vertex below [`LANES_MIN_VERTICES`]) and, below
/// [`HILL_CLIMB_MIN_VERTICES`] vertices, never climbs, so its supports and hints are the
/// scan's first maximizers as through `CoreShape`; the axis is [`AxisSegment`].
struct CloudSegmentQuery<'q> {
    polytope: &'q ConvexPolytope,
    half_height: f64,
    cloud_is_a: bool,
    frame: RelativeFrame,
    hints: (u32, u32),
    init: &'q Start,
    cache: Option<(&'q mut GjkCache, bool)>,
    ask: &'q Ask<'q>,
}

impl CloudSegmentQuery<'_> {
    /// The query under the processor's instruction set (scalar below [`LANES_MIN_VERTICES`]).
    /// Not inlined: inlined, it grew `gjk_answer` past where LLVM still inlines `conclude`
    /// into it, which cost the other curved pairs a call and a copy of the `Run` (mixed
    /// workload, pinned: cylinder–triangle 608 → 629 ns, cylinder–ellipsoid 1237 → 1261).
    #[inline(never)]
    fn dispatched(self) -> Result<(DistanceResult, Option<(f64, f64)>), GeomError> {
        if self.polytope.vertices().len() < LANES_MIN_VERTICES {
            pulp::WithSimd::with_simd(self, pulp::Scalar::new())
        } else {
            pulp::Arch::new().dispatch(self)
        }
    }
}

impl pulp::WithSimd for CloudSegmentQuery<'_> {
    type Output = Result<(DistanceResult, Option<(f64, f64)>), GeomError>;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) -> Self::Output {
        let cloud = VertexCloud { polytope: self.polytope, simd };
        let axis = AxisSegment(self.half_height);
        if self.cloud_is_a {
            run_flat(&cloud, &axis, self.frame, self.hints, self.init, self.cache, self.ask)
        } else {
            run_flat(&axis, &cloud, self.frame, self.hints, self.init, self.cache, self.ask)
        }
    }
}

/// A distance answer and, when the shapes overlap, its proven depth bracket.
pub(crate) type Answer = (DistanceResult, Option<(f64, f64)>);

/// A tracked step of two vertex polytopes still in contact, answered from the kept EPA
/// surface alone (`ContactPolytope::warm_contact`): its lower bound proves the overlap and
/// brackets the depth, its crossing faces give the common point, so neither GJK's descent to
/// a contact simplex nor its cache update is needed (the cache keeps the last run's pairs,
/// still valid seeds for when the pair separates: `warm.rs`). `None` (run GJK as usual) when
/// the depth is not asked for, nothing is kept, or the warm surface does not prove the depth
/// beyond the contact floor. (Not inlined: the callers test for a kept surface first, and a
/// step apart pays only that test.)
#[inline(never)]
fn kept_contact<A, B>(
    diff: &mut Difference<'_, A, B>,
    c: &mut GjkCache,
    swapped: bool,
    ask: &Ask<'_>,
) -> Option<Result<Answer, GeomError>>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let polytope = c.polytope.as_deref_mut().filter(|p| ask.depth && p.ready())?;
    let (e, qa, qb, scale) = polytope.warm_contact(diff, swapped, &ask.settings.gjk, &mut no_finish)?;
    if !crate::gjk::gt(e.lower, contact_floor(scale)) {
        return None;
    }
    c.depth_normal = None;
    c.last_iterations = 0;
    let (a, pa, b, pb) = ask.shapes;
    // (A contact's common point: not moved onto the shapes, see `world_a`.)
    let (qa, qb) = (world_a(&qa, a, pa, pb, false), world_b(&qb, b, &diff.frame, pa, pb, false));
    let rsum = ask.radii.a + ask.radii.b;
    let common = nalgebra::center(&qa, &qb);
    let core = Core { qa: common, qb: common, core_depth: Some(e.upper), lower_hint: None };
    let path = QueryPath::Gjk { status: GjkStatus::Contact, iterations: e.iterations };
    let bracket = Some((e.lower + rsum, e.upper + rsum));
    Some(Ok(answer(core, bracket, (a, pa, b, pb), ask, path, None)))
}

/// The answer from the case analysis's input (`core`) and the depth bracket proven in A's
/// frame, moved to the poses as given (see [`world_lower`]). `witness_len`: |qb − qa| of
/// `core`'s witnesses when the caller already took it (the same expression, the same bits).
#[inline(always)]
fn answer(
    core: Core,
    bracket: Option<(f64, f64)>,
    shapes: (&Shape, &Pose, &Shape, &Pose),
    ask: &Ask<'_>,
    path: QueryPath,
    witness_len: Option<f64>,
) -> (DistanceResult, Option<(f64, f64)>) {
    let (a, pa, _, _) = shapes;
    let bracket = bracket.map(|(lo, hi)| {
        let e = pa.orthonormality_error();
        let m = 3.0 * e * (a.local_extent() + hi.abs());
        ((lo - m).max(0.0), hi + m)
    });
    let result = match witness_len {
        Some(len) => finish_with_length(core, ask.radii, shapes, ask.settings, Algorithm::Gjk, path, len),
        None => finish(core, ask.radii, shapes, ask.settings, Algorithm::Gjk, path),
    };
    (result, bracket)
}

/// What the caller asked: the shapes and poses, the radii around their cores, the settings,
/// and whether overlapping cores get their depth (EPA).
struct Ask<'s> {
    shapes: (&'s Shape, &'s Pose, &'s Shape, &'s Pose),
    radii: Radii,
    settings: &'s QuerySettings,
    depth: bool,
    /// Without `depth`: where a run that ends in contact leaves its depth answer (EPA run
    /// on), for the signed query that follows ([`DepthOnContact`]).
    stash: Option<&'s DepthOnContact>,
    /// The last tracked step's penetration direction (A's frame), when it was in contact.
    depth_normal: Option<Vector3<f64>>,
    /// Whether a core is not curved (a polytope, whose face a depth finish may stand on, a
    /// segment or a point): only then is the finish's face kept for the next step
    /// (`ContactPolytope::seed_depth_face`); two curved cores have no face to fix the
    /// direction, and re-reading one costs support queries.
    flat_core: bool,
}

/// From a finished GJK run (and its Newton polish, if any) to the answer: the cache update,
/// the witnesses in the world frame, EPA on contact when asked, and the case analysis.
fn conclude<A, B, F>(
    diff: &mut Difference<'_, A, B>,
    r: &mut Run,
    polished: Option<Polished>,
    init: &Start,
    cache: Option<(&mut GjkCache, bool)>,
    ask: &Ask<'_>,
    depth_finish: &mut F,
) -> Result<(DistanceResult, Option<(f64, f64)>), GeomError>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    F: FnMut(&mut Difference<'_, A, B>, &Simplex, &Vector3<f64>, f64) -> Option<Finish>,
{
    let (a, pa, b, pb) = ask.shapes;
    let settings = ask.settings;
    let mut polished = polished;
    let rsum = ask.radii.a + ask.radii.b;
    // Nothing proven by GJK's bounds (module table): one cold retry of a warm-started run (a
    // cold run is deterministic and would stall again).
    if stalled_unproven(r, polished.as_ref(), rsum, settings)
        && (init.simplex_len > 0 || init.pairs.len() > 0)
    {
        *r = run(diff, &Start::cold(init.direction), &settings.gjk, Mode::Distance);
        polished = None;
    }
    if r.status == GjkStatus::Overflow || r.simplex.len == 0 {
        // Coordinates near f64::MAX overflowed the run (squared norms): no answer, not a guess.
        return Err(GeomError::NonFinite { what: "query (coordinates too large for f64)" });
    }
    let mut cache = cache;
    if let Some((c, swapped)) = cache.as_mut() {
        store(c, r, *swapped);
        // (Set again below when this step ends in contact.)
        c.depth_normal = None;
    }
    let (qa, qb) = match polished {
        Some(p) => {
            (r.lower, r.upper) = (p.lower, p.upper);
            r.iterations += p.steps;
            (p.a, p.b)
        }
        None => r.simplex.witnesses(),
    };
    let path = QueryPath::Gjk { status: r.status, iterations: r.iterations };
    let apart = r.status != GjkStatus::Contact;
    let (qa, qb) = (world_a(&qa, a, pa, pb, apart), world_b(&qb, b, &diff.frame, pa, pb, apart));
    let shapes = (a, pa, b, pb);
    let mut bracket = None;
    // |qb − qa| when the cores stay apart, handed to the case analysis (one root, not two).
    let mut witness_len = None;
    let core = match r.status {
        GjkStatus::Contact if !ask.depth && ask.stash.is_none() => {
            // Unsigned distance: contact is proven, the depth is not asked for.
            let common = nalgebra::center(&qa, &qb);
            Core { qa: common, qb: common, core_depth: None, lower_hint: None }
        }
        GjkStatus::Contact => {
            // Tracking through contact: the depth from the last step's direction, when its
            // certificate closes the bracket; otherwise EPA (with the curved cores' finish).
            // The direction is kept for the next step only when a certificate closed this
            // one: pairs that need EPA (rims, edges, deep smooth pairs) do not pay for a
            // failing attempt at every step.
            // The warm finish starts on the face that closed the last step's bracket (a
            // polytope face fixes the direction: `ContactPolytope::seed_depth_face`), re-read
            // at these poses; the face that closes this one is kept for the next step.
            // A finish that failed inside the last steps' EPA is skipped there for a few
            // steps (`ContactPolytope::finish_due`), unless a core is an ellipsoid: on its
            // smooth surface EPA alone converges slowly and the finish's misses are isolated
            // (depth bench tracks, callgrind per warm step in contact with the back-off for
            // every pair: cylinder–box −7.9 %, but cylinder–ellipsoid +4.9 %, ellipsoid–hull
            // +9.3 %).
            let target = settings.gjk.tolerance * r.scale;
            let mut certified = false;
            let called = core::cell::Cell::new(false);
            let smooth = matches!(a, Shape::Ellipsoid(_)) || matches!(b, Shape::Ellipsoid(_));
            let due = match cache.as_mut() {
                Some((c, _)) if !smooth => c.polytope.as_deref_mut().is_none_or(|p| p.finish_due()),
                _ => true,
            };
            let mut face: Option<(Simplex, RelativeFrame)> = None;
            let mut hook = |d: &mut Difference<'_, A, B>, s: &Simplex, n: &Vector3<f64>, t: f64| {
                if !due {
                    return None;
                }
                called.set(true);
                let f = depth_finish(d, s, n, t);
                if f.is_some_and(|f| f.upper - f.lower <= t) {
                    certified = true;
                    if ask.flat_core {
                        face = Some((*s, d.frame));
                    }
                }
                f
            };
            let warm = ask
                .depth_normal
                .and_then(|n| {
                    let mut seed = Simplex::new();
                    if let Some((c, swapped)) = cache.as_ref()
                        && let Some(p) = c.polytope.as_deref()
                    {
                        p.seed_depth_face(*swapped, diff, &mut seed);
                    }
                    hook(diff, &seed, &n, target)
                })
                .filter(|f| f.upper - f.lower <= target);
            let e = match warm {
                Some(f) => EpaOutput {
                    status: EpaStatus::Converged,
                    depth: f.upper,
                    lower: f.lower,
                    upper: f.upper,
                    normal: f.normal,
                    point_a: f.a,
                    point_b: f.b,
                    iterations: 0,
                },
                None => {
                    called.set(false);
                    let tracked = cache.as_mut().map(|(c, swapped)| (&mut **c, *swapped));
                    let e = contact_depth(diff, r, init, tracked, &settings.gjk, &mut hook);
                    if called.get()
                        && !smooth
                        && let Some((c, _)) = cache.as_mut()
                    {
                        c.polytope.get_or_insert_with(Default::default).record_finish(certified);
                    }
                    e
                }
            };
            if let Some((c, swapped)) = cache.as_mut() {
                c.depth_normal = certified.then_some(e.normal);
                let kept = face.as_ref().filter(|(s, _)| certified && s.len > 0);
                match (c.polytope.as_deref_mut(), kept) {
                    (Some(p), kept) => p.set_depth_face(kept.map(|(s, f)| (s, f)), *swapped),
                    (None, Some((s, f))) => {
                        let mut p = Box::<crate::gjk::ContactPolytope>::default();
                        p.set_depth_face(Some((s, f)), *swapped);
                        c.polytope = Some(p);
                    }
                    (None, None) => {}
                }
            }
            // Touching: the proven depth is below round-off (a flat expansion measures its
            // extent, which is round-off sized, but it is judged like any other bound).
            let touching = e.upper <= contact_floor(r.scale);
            let (lo, hi) = if touching { (0.0, 0.0) } else { (e.lower, e.upper) };
            bracket = Some((lo + rsum, hi + rsum));
            let common = nalgebra::center(&qa, &qb);
            Core { qa: common, qb: common, core_depth: Some(hi), lower_hint: None }
        }
        GjkStatus::MaxIterations if !crate::gjk::gt(r.lower, 0.0) => {
            return Err(GeomError::Degenerate {
                what: "GJK reached its iteration cap without proving separation or contact \
                       (raise gjk.max_iterations or the tolerance)",
            });
        }
        _ if r.upper <= contact_floor(r.scale) => {
            bracket = Some((rsum, rsum));
            let common = nalgebra::center(&qa, &qb);
            Core { qa: common, qb: common, core_depth: Some(0.0), lower_hint: None }
        }
        _ => {
            let core =
                Core { qa, qb, core_depth: None, lower_hint: Some(world_lower(r.lower.max(0.0), a, pa)) };
            let len = (qb - qa).norm();
            if len <= round_off_floor(&core) {
                // Below what f64 resolves at these coordinates: contact (as `finish` decides).
                bracket = Some((rsum, rsum));
                let common = nalgebra::center(&qa, &qb);
                Core { qa: common, qb: common, core_depth: Some(0.0), lower_hint: None }
            } else {
                witness_len = Some(len);
                if r.upper < rsum {
                    bracket = Some((rsum - r.upper, rsum - r.lower.max(0.0)));
                } else if !crate::gjk::gt(r.lower, 0.0) {
                    bracket = Some((rsum - r.upper, rsum - r.lower));
                }
                core
            }
        }
    };
    if !ask.depth
        && r.status == GjkStatus::Contact
        && let Some(stash) = ask.stash
    {
        // The depth answer for the signed query that follows, and the unsigned answer as the
        // branch above gives it (no core depth, no bracket).
        stash.set(Some(answer(core, bracket, shapes, ask, path, witness_len)));
        let core = Core { core_depth: None, ..core };
        return Ok(answer(core, None, shapes, ask, path, None));
    }
    // The depth bracket was proven in A's frame too (see `world_lower`).
    Ok(answer(core, bracket, shapes, ask, path, witness_len))
}

/// The depth of a contact run's overlapping cores: from the tracked pair's last expanded
/// polytope re-read at these poses when it proves a bracket within the tolerance
/// (`gjk/contact_warm.rs`), else EPA from the run's simplex (`expand_warm`), whose final
/// polytope the cache then keeps for the next step. `tracked`: the cache and whether the
/// pair is in exchanged order.
///
/// Only between two vertex polytopes (both cores re-read by vertex index, no support query):
/// with a box, segment or curved core the re-read costs support queries and EPA from the
/// simplex is as cheap or cheaper (depth bench, warm steps in contact, min of 3 rounds:
/// capsule–box 0.96 → 1.10 ms, cylinder–ellipsoid 3.06 → 3.34 ms with it; hull–hull
/// 2.71 → 2.12 ms).
fn contact_depth<A, B, F>(
    diff: &mut Difference<'_, A, B>,
    r: &Run,
    init: &Start,
    tracked: Option<(&mut GjkCache, bool)>,
    settings: &GjkSettings,
    hook: &mut F,
) -> EpaOutput
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
    F: FnMut(&mut Difference<'_, A, B>, &Simplex, &Vector3<f64>, f64) -> Option<Finish>,
{
    let vertices = diff.a.hinted_vertex(0).is_some() && diff.b.hinted_vertex(0).is_some();
    let Some((c, swapped)) = tracked.filter(|_| vertices) else {
        return expand_warm(diff, r, init, settings, hook);
    };
    let polytope = c.polytope.get_or_insert_with(Default::default);
    if let Some(e) = polytope.warm_depth(diff, swapped, r.scale, settings, hook) {
        return e;
    }
    let e = expand_warm(diff, r, init, settings, hook);
    if e.status == EpaStatus::Converged && e.iterations > 0 {
        polytope.import_epa(&diff.frame, swapped);
    }
    e
}

/// A's witness `qa` (A's frame: A's local coordinates, on A's core) in the world frame, R_A·qa +
/// t_A. When a rotation of the pair is off orthonormal beyond rounding and the cores are
/// apart (`onto`), the point is first clamped into A's core (`shape::onto_placed`): the
/// features the polish builds for A are local to A, so this only ever removes rounding, but
/// it makes the witness a point of A as placed whatever built it. (A contact's common point
/// is left alone: moving it would open a gap that is not there.)
fn world_a(qa: &Point3<f64>, a: &Shape, pa: &Pose, pb: &Pose, onto: bool) -> Point3<f64> {
    if !(onto && either_off_orthonormal(pa, pb)) {
        return pa.transform_point(qa);
    }
    pa.transform_point(&clamp_core(a, qa))
}

/// `q` (local to `s`) clamped into the core of `s` where `clamp_local` clamps, else `q`. A
/// vertex polytope is never clamped (`clamp_local` answers `None` for it): the type test in
/// line spares the two hull–hull witnesses a call each.
#[inline(always)]
fn clamp_core(s: &Shape, q: &Point3<f64>) -> Point3<f64> {
    if matches!(s, Shape::ConvexPolytope(_)) {
        return *q;
    }
    clamp_local(s, Part::Core, q).unwrap_or(*q)
}

/// B's witness `qb` (A's frame, a point of B's core placed by the relative frame: a convex
/// combination of support points, or a point the Newton polish built on a side, cap or rim)
/// in the world frame. For exact rotations that is `pa`'s transform; when a rotation is off
/// by more than its rounding (data files with 12 digits, float32 rotations), R_A R_Aᵀ ≠ I
/// would move the point off B by up to 3e·|x − t_A|, so it is taken back to B's own frame
/// through the inverse of the relative rotation and placed by `pb`: a point of B as placed.
/// The polish builds B's side, cap and rim points in A's frame through Rᵀ and normalized
/// axes, which leaves them off B by O(e·size) even in B's frame: when the cores are apart
/// (`onto`) the local point is clamped into B's core there first (`shape::onto_placed`).
fn world_b(
    qb: &Point3<f64>,
    b: &Shape,
    frame: &RelativeFrame,
    pa: &Pose,
    pb: &Pose,
    onto: bool,
) -> Point3<f64> {
    if !either_off_orthonormal(pa, pb) {
        return pa.transform_point(qb);
    }
    match frame.r.try_inverse() {
        Some(inv) => {
            let local = Point3::from(inv * (qb.coords - frame.t));
            let local = if onto { clamp_core(b, &local) } else { local };
            pb.transform_point(&local)
        }
        None => pa.transform_point(qb),
    }
}

/// Whether a run ended `Stagnated` without proving anything: its lower bound (after the
/// polish, if any) does not exceed the radii's sum `rsum` (separation not proven) while its
/// upper bound exceeds `rsum` by more than the accuracy asked for — GJK's tolerance × scale
/// and the query's `gap_tolerance` × max(1, scale) (the LCP kernels' acceptance) — and the
/// round-off floor: the answer would read "separated" with a bracket no tolerance closes. A
/// stall within that accuracy of contact (touching poses: a time of impact's hit stalls at
/// 6e-14 with the lower bound −4e-6, FCL #445's board at 2.6e-10 with −9.7e-9) has its
/// distance bracketed to the accuracy asked for, like a converged run, and is answered as one.
fn stalled_unproven(r: &Run, polished: Option<&Polished>, rsum: f64, settings: &QuerySettings) -> bool {
    let (lower, upper) = polished.map_or((r.lower, r.upper), |p| (p.lower, p.upper));
    let accuracy = (settings.gjk.tolerance * r.scale).max(settings.gap_tolerance * r.scale.max(1.0));
    r.status == GjkStatus::Stagnated
        && !crate::gjk::gt(lower, rsum)
        && upper - rsum > accuracy.max(contact_floor(r.scale))
}

#[cfg(test)]
#[path = "gjk_stall_tests.rs"]
mod stall_tests;

/// GJK's lower bound `lower`, proven in A's frame, as a bound for the shapes placed by the poses
/// as given. A's frame maps the world by φ(x) = R_Aᵀ(x − t_A), which sends B exactly to B's
/// placement in A's frame but A to (R_AᵀR_A)·A, and scales lengths by at most ‖R_A‖₂: with
/// e = max |R_AᵀR_A − I| (‖·‖₂ ≤ 3e) and ρ ≥ max |a| over A's local points,
/// dist ≥ (lower − 3eρ)/(1 + 3e) ≥ lower − 3e(ρ + lower). Zero for exact rotations.
fn world_lower(lower: f64, a: &Shape, pa: &Pose) -> f64 {
    let e = pa.orthonormality_error();
    // (A hull's stored extent read in line: the same number as `local_extent`, no call.)
    let extent = || match a {
        Shape::ConvexPolytope(x) => x.extent(),
        _ => a.local_extent(),
    };
    if e == 0.0 { lower } else { (lower - 3.0 * e * (extent() + lower)).max(0.0) }
}

/// The loose GJK tolerance (relative to the problem scale) from which curved pairs are
/// polished by Newton: GJK's linear convergence costs about 1.6 iterations per decade of gap
/// on cylinders, Newton's quadratic one one to three steps from here (measured on the
/// cylinders workload: 1e-4 beats 1e-3 and 1e-5; 1e-2 leaves Newton too far out).
const POLISH_FROM: f64 = 1e-4;

/// The loose tolerance for an ellipsoid against a triangle or a convex polytope: Newton
/// converges from further out there (mixed workload, ns per query from 1e-4 to 1e-3:
/// ellipsoid–triangle 1623 → 1427, convex–ellipsoid 1811 → 1754); a capsule's axis or a box
/// against an ellipsoid stays at [`POLISH_FROM`] (capsule–ellipsoid 1212 at 1e-4, 1379 at
/// 1e-3; box–ellipsoid even).
const POLISH_FROM_ELLIPSOID_FLAT: f64 = 1e-3;

/// The loose tolerance for an ellipsoid against a cylinder: Newton from the rim's and the
/// ellipsoid's smooth supports converges from further out still (callgrind, instructions per
/// query of the mixed workload's pair, seed 1 and a held-out seed 7 of 335 pairs: 1e-3 →
/// 3e-3 −4.4 % and −2.4 %; 6e-3 and 1e-2 worse again).
const POLISH_FROM_ELLIPSOID_CYLINDER: f64 = 3e-3;

/// The loose tolerance for a cylinder against a triangle or a convex polytope (same
/// measurement as [`POLISH_FROM_ELLIPSOID_CYLINDER`], convex–cylinder: 1e-4 → 3e-4 −3.9 %
/// and −2.0 %; 5e-4 −5.9 % and −1.4 %, 1e-3 −3.7 % and +3.1 %).
const POLISH_FROM_CYLINDER_FLAT: f64 = 3e-4;

/// The loose tolerance of the GJK run before the polish for these cores (see
/// [`POLISH_FROM`] and the pair classes after it).
fn polish_from(a: &CoreShape<'_>, b: &CoreShape<'_>) -> f64 {
    let flat = |c: &CoreShape<'_>| {
        matches!(c, CoreShape::Scanned(_) | CoreShape::Whole(Shape::Triangle(_) | Shape::ConvexPolytope(_)))
    };
    let cylinder = |c: &CoreShape<'_>| matches!(c, CoreShape::Whole(Shape::Cylinder(_)));
    let (ea, eb, fa, fb, ca, cb) =
        (is_ellipsoid(a), is_ellipsoid(b), flat(a), flat(b), cylinder(a), cylinder(b));
    if (ea && fb) || (fa && eb) {
        POLISH_FROM_ELLIPSOID_FLAT
    } else if (ea && cb) || (ca && eb) {
        POLISH_FROM_ELLIPSOID_CYLINDER
    } else if (ca && fb) || (fa && cb) {
        POLISH_FROM_CYLINDER_FLAT
    } else {
        POLISH_FROM
    }
}

fn is_ellipsoid(c: &CoreShape<'_>) -> bool {
    matches!(c, CoreShape::Whole(Shape::Ellipsoid(_)))
}

/// GJK to [`polish_from`] (the loose tolerance), then the Newton polish to the requested tolerance; when the polish
/// does not get there (a kink of a support function at the optimum, or separation not
/// proven), GJK resumes at full tolerance from the loose run's simplex (its search directions
/// re-evaluated, as a warm start). Statuses other than `Converged` are those of the full run
/// (same iterates up to the stop).
///
/// `newton_first` (cold axial pairs started from the axes' closest points, see
/// [`axis_seed`]): the polish is first tried straight from the starting direction n₀, after
/// the single support evaluation that gives its bracket [g(n₀), |b − a|] and the problem
/// scale, before any GJK iteration. On the cylinders workload it succeeds often enough to
/// take the mean from 1529 to 1341 ns per query; when it fails the pair continues as above
/// (one support evaluation lost). Also used for a cylinder against an ellipsoid (from the axis
/// seed); not for other pairs: from a centre-to-centre direction against a polytope or an
/// ellipsoid it fails too often to pay.
#[inline(always)]
fn run_polished<P: PairRuns>(
    pair: &mut P,
    diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    init: &Start,
    settings: &GjkSettings,
    newton_first: bool,
    polished: &mut Option<Polished>,
) -> Run {
    if newton_first {
        // Newton straight from the starting direction: the run below stops after the first
        // support evaluation (the bracket at n₀ and the problem scale).
        let probe_settings = GjkSettings { max_iterations: 0, ..*settings };
        let mut probe = pair.run(diff, init, &probe_settings);
        let target = settings.tolerance * probe.scale;
        let n0 = -init.direction;
        if crate::gjk::gt(probe.lower, 0.0)
            && crate::gjk::gt(probe.upper, 0.0)
            && let Some(n0) = n0.try_normalize(0.0)
        {
            let (a, b) = probe.simplex.witnesses();
            let seed = Polished { lower: probe.lower, upper: probe.upper, a, b, steps: 0 };
            // The probe's support pair along n0 is the polish's opening evaluation (its g the
            // probe's lower bound), not evaluated again.
            let at_n0 = Eval { n: n0, g: probe.lower, grad: b - a, a, b, faces: &NO_FACES };
            if let Some(p) = polish_probed(diff, pair, n0, &probe.simplex, seed, target, Some(at_n0)) {
                probe.status = GjkStatus::Converged;
                *polished = Some(p);
                return probe;
            }
        }
    }
    let loose = GjkSettings { tolerance: settings.tolerance.max(polish_from(diff.a, diff.b)), ..*settings };
    let mut r = pair.run(diff, init, &loose);
    let target = settings.tolerance * r.scale;
    if r.status != GjkStatus::Converged || r.upper - r.lower <= target {
        return r;
    }
    if crate::gjk::gt(r.upper, 0.0) {
        let (a, b) = r.simplex.witnesses();
        let seed = Polished { lower: r.lower, upper: r.upper, a, b, steps: 0 };
        let n0 = -r.v / r.upper;
        // Separation not proven at the loose gap: the cores are within it of contact, where
        // GJK's convergence is sublinear; Newton's is not (`NearContact`).
        if crate::gjk::gt(r.lower, 0.0) {
            if let Some(p) = polish_probed(diff, pair, n0, &r.simplex, seed, target, None) {
                *polished = Some(p);
                return r;
            }
        } else if let Some(NearContact(p)) =
            polish_probed(diff, pair, n0, &r.simplex, NearContact(seed), target, None)
        {
            // The loose run's direction is only good to its gap, which is of the order of the
            // distance here: a tracked query (the time of impact's next sample) starts from
            // the polished witnesses' direction instead.
            let v = p.a - p.b;
            if crate::gjk::gt(v.norm(), 0.0) {
                r.v = v;
            }
            *polished = Some(p);
            return r;
        }
    }
    let mut resume = Start::cold(r.v);
    resume.simplex_len = r.simplex.len;
    for (d, v) in resume.simplex_dirs.iter_mut().zip(&r.simplex.v[..r.simplex.len]) {
        *d = v.d;
    }
    let mut full = pair.run(diff, &resume, settings);
    full.iterations += r.iterations;
    full
}

/// How the curved pairs' GJK runs and polish query supports: through the cores (`CoreShape`:
/// a variant match, and for a scanned polytope a `pulp` dispatch, at every query), or
/// monomorphized for a scanned polytope against a cylinder or an ellipsoid
/// ([`CloudCurved`]).
trait PairRuns: PairSupport {
    /// `run(diff, start, settings, Mode::Distance)`, its hints left in `diff`.
    fn run(
        &mut self,
        diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
        start: &Start,
        settings: &GjkSettings,
    ) -> Run;
}

impl PairRuns for CoreSupport {
    #[inline(always)]
    fn run(
        &mut self,
        diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
        start: &Start,
        settings: &GjkSettings,
    ) -> Run {
        run(diff, start, settings, Mode::Distance)
    }
}

/// A scanned polytope (as a [`VertexCloud`] under the instruction set `S`, its scans inlined
/// into the GJK loop and the polish) against a cylinder or ellipsoid core ([`CurvedCore`],
/// without the core variant's match); `flat_is_a`: the polytope is A. The same support points,
/// hints and iterates as through `CoreShape`: the cloud scans with the same lanes (or vertex
/// by vertex below [`LANES_MIN_VERTICES`]), and below [`HILL_CLIMB_MIN_VERTICES`] it never
/// climbs (`VertexCloud`).
struct CloudCurved<'q, S, C> {
    cloud: VertexCloud<'q, S>,
    curved: C,
    flat_is_a: bool,
}

impl<S: pulp::Simd, C: SupportMap> PairSupport for CloudCurved<'_, S, C> {
    #[inline(always)]
    fn support(
        &mut self,
        diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
        d: &Vector3<f64>,
    ) -> Vertex {
        let (frame, hint_a, hint_b) = (diff.frame, diff.hint_a, diff.hint_b);
        let x = if self.flat_is_a {
            Difference { a: &self.cloud, b: &self.curved, frame, hint_a, hint_b }.support(d)
        } else {
            Difference { a: &self.curved, b: &self.cloud, frame, hint_a, hint_b }.support(d)
        };
        (diff.hint_a, diff.hint_b) = (x.ha, x.hb);
        x
    }
}

impl<S: pulp::Simd, C: SupportMap> PairRuns for CloudCurved<'_, S, C> {
    #[inline(always)]
    fn run(
        &mut self,
        diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
        start: &Start,
        settings: &GjkSettings,
    ) -> Run {
        let (frame, hint_a, hint_b) = (diff.frame, diff.hint_a, diff.hint_b);
        let r = if self.flat_is_a {
            run(
                &mut Difference { a: &self.cloud, b: &self.curved, frame, hint_a, hint_b },
                start,
                settings,
                Mode::Distance,
            )
        } else {
            run(
                &mut Difference { a: &self.curved, b: &self.cloud, frame, hint_a, hint_b },
                start,
                settings,
                Mode::Distance,
            )
        };
        (diff.hint_a, diff.hint_b) = (r.hint_a, r.hint_b);
        r
    }
}

/// Two cores as support maps of their own types, without the core variant's match at every
/// query: two whole shapes (cylinders, ellipsoids, cones, boxes, triangles…) as
/// [`CurvedCore`]s, or a capsule's axis ([`AxisSegment`]) against a whole shape. The same
/// answers and hints as through `CoreShape::Whole` and `CoreShape::ZSegment`.
struct TypedPair<A, B> {
    a: A,
    b: B,
}

impl<A: SupportMap, B: SupportMap> PairSupport for TypedPair<A, B> {
    #[inline(always)]
    fn support(
        &mut self,
        diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
        d: &Vector3<f64>,
    ) -> Vertex {
        let (frame, hint_a, hint_b) = (diff.frame, diff.hint_a, diff.hint_b);
        let x = Difference { a: &self.a, b: &self.b, frame, hint_a, hint_b }.support(d);
        (diff.hint_a, diff.hint_b) = (x.ha, x.hb);
        x
    }
}

impl<A: SupportMap, B: SupportMap> PairRuns for TypedPair<A, B> {
    #[inline(always)]
    fn run(
        &mut self,
        diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
        start: &Start,
        settings: &GjkSettings,
    ) -> Run {
        let (frame, hint_a, hint_b) = (diff.frame, diff.hint_a, diff.hint_b);
        let r = run(
            &mut Difference { a: &self.a, b: &self.b, frame, hint_a, hint_b },
            start,
            settings,
            Mode::Distance,
        );
        (diff.hint_a, diff.hint_b) = (r.hint_a, r.hint_b);
        r
    }
}

/// A whole shape's core (a cylinder or an ellipsoid, or any shape that is its own core) as a
/// support map of its own type (the `CoreShape::Whole` answer, without the core variant's
/// match): see [`CloudCurved`], [`TypedPair`].
struct CurvedCore<'s>(&'s Shape);

/// A capsule's axis, the segment (0, 0, ±h), as a support map of its own type: the
/// `CoreShape::ZSegment` answer (the upper end for m_z ≥ 0, the lower one otherwise, NaN
/// included as there), hints untouched, without the core variant's match.
#[derive(Debug, Clone, Copy)]
struct AxisSegment(f64);

impl SupportMap for AxisSegment {
    #[inline(always)]
    fn local_support(&self, m: &Vector3<f64>, _hint: &mut u32) -> Point3<f64> {
        Point3::new(0.0, 0.0, if m.z >= 0.0 { self.0 } else { -self.0 })
    }
}

/// A cylinder's core (the whole cylinder: radius, half height) as a support map of its own
/// type: `cylinder_support`, the very formula `CoreShape::Whole(Shape::Cylinder)` answers
/// with (same points, hints untouched), without the shape and core matches.
#[derive(Debug, Clone, Copy)]
struct CylinderCore {
    radius: f64,
    half_height: f64,
}

impl CylinderCore {
    fn of(c: &crate::shape::Cylinder) -> Self {
        Self { radius: c.radius(), half_height: c.half_height() }
    }
}

impl SupportMap for CylinderCore {
    #[inline(always)]
    fn local_support(&self, m: &Vector3<f64>, _hint: &mut u32) -> Point3<f64> {
        cylinder_support(self.radius, self.half_height, m)
    }
}

impl SupportMap for CurvedCore<'_> {
    #[inline(always)]
    fn local_support(&self, m: &Vector3<f64>, hint: &mut u32) -> Point3<f64> {
        self.0.local_support_hinted(m, hint).unwrap_or_else(Point3::origin)
    }
}

/// [`run_polished`] with the pair's supports monomorphized where [`CloudCurved`] applies (a
/// scanned polytope of fewer than [`HILL_CLIMB_MIN_VERTICES`] vertices against a cylinder or
/// an ellipsoid: one `pulp` dispatch for the query), as a [`TypedPair`] for two whole shapes,
/// through the cores otherwise. Mixed workload, callgrind per query: convex–cylinder
/// 22934 → 21191 with the runs alone.
fn run_polished_dispatched(
    diff: &mut Difference<'_, CoreShape<'_>, CoreShape<'_>>,
    init: &Start,
    settings: &GjkSettings,
    newton_first: bool,
    polished: &mut Option<Polished>,
) -> Run {
    let small = |p: &ConvexPolytope| p.vertices().len() < HILL_CLIMB_MIN_VERTICES;
    let curved = |c: &CoreShape<'_>| matches!(c, CoreShape::Whole(Shape::Cylinder(_) | Shape::Ellipsoid(_)));
    let (flat_is_a, polytope, other) = match (*diff.a, *diff.b) {
        (CoreShape::Scanned(p), CoreShape::Whole(s)) if small(p) && curved(diff.b) => (true, p, s),
        (CoreShape::Whole(s), CoreShape::Scanned(p)) if small(p) && curved(diff.a) => (false, p, s),
        // Cylinder pairs (the Newton-first pairs of the cylinders workload: most of their
        // time is support evaluations) as their own support maps, without the shape match.
        (CoreShape::Whole(Shape::Cylinder(a)), CoreShape::Whole(Shape::Cylinder(b))) => {
            let mut pair = TypedPair { a: CylinderCore::of(a), b: CylinderCore::of(b) };
            return run_polished(&mut pair, diff, init, settings, newton_first, polished);
        }
        (CoreShape::ZSegment(h), CoreShape::Whole(Shape::Cylinder(b))) => {
            let mut pair = TypedPair { a: AxisSegment(h), b: CylinderCore::of(b) };
            return run_polished(&mut pair, diff, init, settings, newton_first, polished);
        }
        (CoreShape::Whole(Shape::Cylinder(a)), CoreShape::ZSegment(h)) => {
            let mut pair = TypedPair { a: CylinderCore::of(a), b: AxisSegment(h) };
            return run_polished(&mut pair, diff, init, settings, newton_first, polished);
        }
        (CoreShape::Whole(Shape::Cylinder(a)), CoreShape::Whole(b)) => {
            let mut pair = TypedPair { a: CylinderCore::of(a), b: CurvedCore(b) };
            return run_polished(&mut pair, diff, init, settings, newton_first, polished);
        }
        (CoreShape::Whole(a), CoreShape::Whole(Shape::Cylinder(b))) => {
            let mut pair = TypedPair { a: CurvedCore(a), b: CylinderCore::of(b) };
            return run_polished(&mut pair, diff, init, settings, newton_first, polished);
        }
        (CoreShape::Whole(a), CoreShape::Whole(b)) => {
            let mut pair = TypedPair { a: CurvedCore(a), b: CurvedCore(b) };
            return run_polished(&mut pair, diff, init, settings, newton_first, polished);
        }
        (CoreShape::ZSegment(h), CoreShape::Whole(b)) => {
            let mut pair = TypedPair { a: AxisSegment(h), b: CurvedCore(b) };
            return run_polished(&mut pair, diff, init, settings, newton_first, polished);
        }
        (CoreShape::Whole(a), CoreShape::ZSegment(h)) => {
            let mut pair = TypedPair { a: CurvedCore(a), b: AxisSegment(h) };
            return run_polished(&mut pair, diff, init, settings, newton_first, polished);
        }
        _ => return run_polished(&mut CoreSupport, diff, init, settings, newton_first, polished),
    };
    let op = PolishedRun { polytope, curved: other, flat_is_a, diff, init, settings, newton_first, polished };
    if polytope.vertices().len() < LANES_MIN_VERTICES {
        pulp::WithSimd::with_simd(op, pulp::Scalar::new())
    } else {
        pulp::Arch::new().dispatch(op)
    }
}

/// [`run_polished_dispatched`]'s monomorphized query as a `pulp` operation.
struct PolishedRun<'q, 'd, 'x, 'y, 'z> {
    polytope: &'q ConvexPolytope,
    curved: &'q Shape,
    flat_is_a: bool,
    diff: &'d mut Difference<'x, CoreShape<'y>, CoreShape<'z>>,
    init: &'q Start,
    settings: &'q GjkSettings,
    newton_first: bool,
    polished: &'d mut Option<Polished>,
}

impl pulp::WithSimd for PolishedRun<'_, '_, '_, '_, '_> {
    type Output = Run;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) -> Run {
        let cloud = VertexCloud { polytope: self.polytope, simd };
        let flat_is_a = self.flat_is_a;
        // (A cylinder as its own support map, see [`CylinderCore`].)
        if let Shape::Cylinder(c) = self.curved {
            let mut pair = CloudCurved { cloud, curved: CylinderCore::of(c), flat_is_a };
            return run_polished(
                &mut pair,
                self.diff,
                self.init,
                self.settings,
                self.newton_first,
                self.polished,
            );
        }
        let mut pair = CloudCurved { cloud, curved: CurvedCore(self.curved), flat_is_a };
        run_polished(&mut pair, self.diff, self.init, self.settings, self.newton_first, self.polished)
    }
}

/// A cold start for pairs with a cylinder core: v = p − q for the closest points p, q of the
/// two *axis pieces* (a cylinder's axis segment, a capsule core's segment, any other core's
/// local origin), in a's frame. For two cylinders whose sides are the closest features this
/// is the exact optimal direction (the side is the axis dilated perpendicularly), and near
/// it otherwise, where the default −t (centre to centre) can be far off for long cylinders;
/// GJK then needs a few iterations fewer. Also says whether both cores have an axis (no
/// point piece). `None` (keep the default) without a cylinder or when the pieces meet (no
/// direction).
fn axis_seed(a: &CoreShape<'_>, b: &CoreShape<'_>, frame: &RelativeFrame) -> Option<(Vector3<f64>, bool)> {
    let half_axis = |c: &CoreShape<'_>| match c {
        CoreShape::Whole(Shape::Cylinder(cyl)) => Some((cyl.half_height(), true)),
        CoreShape::ZSegment(h) => Some((*h, false)),
        _ => None,
    };
    let (ha, hb) = (half_axis(a), half_axis(b));
    if !matches!(ha, Some((_, true))) && !matches!(hb, Some((_, true))) {
        return None;
    }
    let piece = |origin: Point3<f64>, dir: Vector3<f64>, h: Option<(f64, bool)>| {
        let h = h.map_or(0.0, |(h, _)| h);
        LinearPiece { origin, dir, lo: -h, hi: h }
    };
    let p = piece(Point3::origin(), Vector3::z(), ha);
    let q = piece(Point3::from(frame.t), frame.r.column(2).into_owned(), hb);
    let (x, y) = closest_linear_linear(&p, &q);
    let v = x - y;
    (v.norm_squared() > 1e-24 * (1.0 + frame.t.norm_squared()) && v.iter().all(|c| c.is_finite()))
        .then_some((v, ha.is_some() && hb.is_some()))
}

/// A cold start for pairs with a vertex polytope: from B's bounding-box centre to A's (A's
/// frame; other shapes count from their local origin, their centre), the direction the default
/// −t (origin to origin) stands for. Robot link meshes have their origin at a joint, often far
/// from the middle of the link: on the Panda/iiwa hull tracks this start saves about 5% of
/// the cold run's work. `None` (keep the default) without a polytope or when the centres
/// (nearly) coincide.
#[inline]
fn center_direction(a: &Shape, b: &Shape, frame: &RelativeFrame) -> Option<Vector3<f64>> {
    let center = |s: &Shape| match s {
        Shape::ConvexPolytope(p) => Some(p.center()),
        _ => None,
    };
    let (ca, cb) = (center(a), center(b));
    if ca.is_none() && cb.is_none() {
        return None;
    }
    let (ca, cb) = (ca.unwrap_or_else(Point3::origin), cb.unwrap_or_else(Point3::origin));
    crate::gjk::center_direction(&ca, &cb, frame)
}

fn unbounded(a: &Shape, b: &Shape) -> GeomError {
    GeomError::Unsupported {
        op: "distance",
        a: a.kind(),
        b: b.kind(),
        algorithm: Some(Algorithm::Gjk.as_str()),
    }
}

/// Start (direction, warm simplex) and hints, converted to the current order. Always inlined:
/// the start holds the cache's support pairs (≈ 400 bytes), which a call would return through
/// memory for the caller to copy again.
#[inline(always)]
fn warm_state(
    frame: &RelativeFrame,
    cache: Option<(&GjkCache, bool)>,
) -> (Start, (u32, u32), Option<Vector3<f64>>) {
    match cache {
        Some((c, swapped)) if c.is_warm() => {
            // (As `initial_direction` of a warm cache, built here: the pairs copied once.)
            let direction = c.direction.unwrap_or(-frame.t);
            if c.swapped == swapped {
                (Start { pairs: c.pairs, ..Start::cold(direction) }, (c.hint_a, c.hint_b), c.depth_normal)
            } else {
                // Stored for (b, a): a direction d in b's frame for M' = B − A = −M becomes
                // −R d in a's frame (R maps b's frame to a's).
                // (A cache holds no search directions besides the pairs: `simplex_len` is 0.)
                let conv = |d: Vector3<f64>| -(frame.r * d);
                let t = Start { pairs: c.pairs.swapped(), ..Start::cold(conv(direction)) };
                (t, (c.hint_b, c.hint_a), c.depth_normal.map(conv))
            }
        }
        _ => (initial_direction(frame, None), (COLD_HINT, COLD_HINT), None),
    }
}

/// Early-exit GJK intersection test on the canonical pair.
pub(crate) fn intersects(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<Intersection, GeomError> {
    settings.gjk.validate()?;
    if !a.is_bounded() || !b.is_bounded() {
        return Err(unbounded(a, b));
    }
    let (ca, ra) = cold_core_of(a);
    let (cb, rb) = cold_core_of(b);
    let frame = RelativeFrame::new(pa, pb);
    let mut diff = Difference { a: &ca, b: &cb, frame, hint_a: COLD_HINT, hint_b: COLD_HINT };
    let margin = ra + rb;
    let r = run(&mut diff, &initial_direction(&frame, None), &settings.gjk, Mode::Boolean { margin });
    if r.status == GjkStatus::Overflow {
        return Err(GeomError::NonFinite { what: "intersects (coordinates too large for f64)" });
    }
    let (qa, qb) = r.simplex.witnesses();
    Ok(match r.status {
        GjkStatus::Contact => {
            // Cores within `margin`: the point on qa→qb at the fraction ra/(ra+rb) is in both.
            let t = if margin > 0.0 { ra / margin } else { 0.5 };
            let p = qa + (qb - qa) * t;
            Intersection::Intersecting { point: Some(pa.transform_point(&p)) }
        }
        _ if r.lower > margin => {
            // lower = d·w/|d| with n = −d/|d|: min_B n·x − max_A n·x > 0.
            let n = -r.lower_dir / r.lower_dir.norm();
            Intersection::Separated { direction: Some(pa.transform_vector(&n)) }
        }
        _ if r.upper <= margin + contact_floor(r.scale) => Intersection::Intersecting { point: None },
        _ => Intersection::Undecided { reason: "GJK reached no verdict (iteration cap or round-off)" },
    })
}

#[cfg(test)]
mod pair_tests {
    //! The monomorphized curved queries ([`run_polished_dispatched`]: a scanned hull against a
    //! cylinder or an ellipsoid, two whole shapes) against the same queries through the cores
    //! ([`CoreSupport`]): the same runs, polish and hints, bit for bit, over random poses.

    use super::*;
    use crate::shape::{Capsule, Cylinder, Ellipsoid};

    /// A deterministic generator of uniform numbers in [0, 1) (64-bit LCG, high bits).
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> f64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    fn pose(rng: &mut Lcg) -> Pose {
        let q = [rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5];
        let len = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        let t = [5.0 * rng.next() - 2.5, 5.0 * rng.next() - 2.5, 5.0 * rng.next() - 2.5];
        Pose::from_quaternion([q[0] / len, q[1] / len, q[2] / len, q[3] / len], t).unwrap()
    }

    /// Both ways of answering the pair (a, b) at these poses; returns whether the polish
    /// answered.
    fn same_both_ways(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> bool {
        let settings = QuerySettings::default().gjk;
        let ((ca, _), (cb, _)) = (cold_core_of(a), cold_core_of(b));
        let frame = RelativeFrame::new(pa, pb);
        let init = initial_direction(&frame, None);
        let mut d1 = Difference { a: &ca, b: &cb, frame, hint_a: COLD_HINT, hint_b: COLD_HINT };
        let mut d2 = Difference { a: &ca, b: &cb, frame, hint_a: COLD_HINT, hint_b: COLD_HINT };
        let (mut p1, mut p2) = (None, None);
        let r1 = run_polished(&mut CoreSupport, &mut d1, &init, &settings, false, &mut p1);
        let r2 = run_polished_dispatched(&mut d2, &init, &settings, false, &mut p2);
        assert_eq!(r1.status, r2.status);
        assert_eq!(r1.iterations, r2.iterations);
        assert_eq!((r1.lower.to_bits(), r1.upper.to_bits()), (r2.lower.to_bits(), r2.upper.to_bits()));
        assert_eq!(r1.v, r2.v);
        assert_eq!((d1.hint_a, d1.hint_b), (d2.hint_a, d2.hint_b));
        match (p1, p2) {
            (None, None) => false,
            (Some(x), Some(y)) => {
                assert_eq!((x.lower.to_bits(), x.upper.to_bits()), (y.lower.to_bits(), y.upper.to_bits()));
                assert_eq!((x.a, x.b, x.steps), (y.a, y.b, y.steps));
                true
            }
            _ => panic!("the polish answered one way only"),
        }
    }

    #[test]
    fn monomorphized_curved_pairs_match_the_cores() {
        let mut rng = Lcg(7);
        // A hull of 40 points on a squashed sphere: scanned cold, with vector lanes.
        let points: Vec<[f64; 3]> = (0..40)
            .map(|_| {
                let (u, v) = (2.0 * rng.next() - 1.0, std::f64::consts::TAU * rng.next());
                let s = (1.0 - u * u).sqrt();
                [0.6 * s * v.cos(), 0.4 * s * v.sin(), 0.8 * u]
            })
            .collect();
        let hull = Shape::ConvexPolytope(ConvexPolytope::hull_of(&points).unwrap());
        assert!(matches!(cold_core_of(&hull).0, CoreShape::Scanned(_)));
        let cylinder = Shape::Cylinder(Cylinder::new(0.4, 0.9).unwrap());
        let ellipsoid = Shape::Ellipsoid(Ellipsoid::new([0.5, 0.3, 0.8]).unwrap());
        let capsule = Shape::Capsule(Capsule::new(0.2, 0.7).unwrap());
        let pairs = [
            (&hull, &cylinder),
            (&cylinder, &hull),
            (&hull, &ellipsoid),
            (&ellipsoid, &hull),
            (&cylinder, &ellipsoid),
            (&capsule, &cylinder),
            (&cylinder, &capsule),
            (&capsule, &ellipsoid),
            (&ellipsoid, &capsule),
        ];
        let mut polished = 0;
        for _ in 0..150 {
            let (pa, pb) = (pose(&mut rng), pose(&mut rng));
            for (a, b) in pairs {
                polished += usize::from(same_both_ways(a, &pa, b, &pb));
            }
        }
        // Most separated pairs end in the polish: both of its paths are compared.
        assert!(polished > 500, "{polished}");
    }

    /// The run between a hull and a capsule's axis through the cores and through
    /// [`CloudSegmentQuery`]'s support maps (a [`VertexCloud`] under the instruction set `S`
    /// and an [`AxisSegment`]), both ways round: the same iterates, bounds and hints.
    struct SegmentRuns<'q> {
        hull: &'q ConvexPolytope,
        half_height: f64,
        pa: &'q Pose,
        pb: &'q Pose,
    }

    impl pulp::WithSimd for SegmentRuns<'_> {
        type Output = ();

        fn with_simd<S: pulp::Simd>(self, simd: S) {
            let settings = QuerySettings::default().gjk;
            let frame = RelativeFrame::new(self.pa, self.pb);
            let init = initial_direction(&frame, None);
            let (cloud, axis) = (VertexCloud { polytope: self.hull, simd }, AxisSegment(self.half_height));
            let (cs, cz) = (CoreShape::Scanned(self.hull), CoreShape::ZSegment(self.half_height));
            for cloud_is_a in [true, false] {
                let mut d1 = if cloud_is_a {
                    Difference { a: &cs, b: &cz, frame, hint_a: COLD_HINT, hint_b: COLD_HINT }
                } else {
                    Difference { a: &cz, b: &cs, frame, hint_a: COLD_HINT, hint_b: COLD_HINT }
                };
                let r1 = run(&mut d1, &init, &settings, Mode::Distance);
                let r2 = if cloud_is_a {
                    run(
                        &mut Difference { a: &cloud, b: &axis, frame, hint_a: COLD_HINT, hint_b: COLD_HINT },
                        &init,
                        &settings,
                        Mode::Distance,
                    )
                } else {
                    run(
                        &mut Difference { a: &axis, b: &cloud, frame, hint_a: COLD_HINT, hint_b: COLD_HINT },
                        &init,
                        &settings,
                        Mode::Distance,
                    )
                };
                assert_eq!(r1.status, r2.status);
                assert_eq!(r1.iterations, r2.iterations);
                assert_eq!(
                    (r1.lower.to_bits(), r1.upper.to_bits()),
                    (r2.lower.to_bits(), r2.upper.to_bits())
                );
                assert_eq!(r1.v, r2.v);
                assert_eq!((r1.hint_a, r1.hint_b), (r2.hint_a, r2.hint_b));
            }
        }
    }

    #[test]
    fn hull_against_capsule_axis_matches_the_cores() {
        let mut rng = Lcg(11);
        let points: Vec<[f64; 3]> =
            (0..40).map(|_| [rng.next() - 0.5, 0.8 * rng.next() - 0.4, 1.2 * rng.next() - 0.6]).collect();
        let hull = ConvexPolytope::hull_of(&points).unwrap();
        let shape = Shape::ConvexPolytope(hull.clone());
        let capsule = Shape::Capsule(Capsule::new(0.2, 0.7).unwrap());
        assert!(cloud_and_segment(&cold_core_of(&shape).0, &cold_core_of(&capsule).0).is_some());
        for _ in 0..200 {
            let (pa, pb) = (pose(&mut rng), pose(&mut rng));
            let op = || SegmentRuns { hull: &hull, half_height: 0.7, pa: &pa, pb: &pb };
            pulp::WithSimd::with_simd(op(), pulp::Scalar::new());
            pulp::Arch::new().dispatch(op());
        }
    }
}
