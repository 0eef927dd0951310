//! `time_of_impact` and the `ToiResult` it returns: continuous collision of two shapes, each
//! moving between two 4×4 poses.
//!
//! The motion model is the benchmark's ([`RigidMotion::from_poses`]): over t ∈ [0, 1] each
//! shape's local origin moves on the straight line from its pose at t = 0 to its pose at
//! t = 1 while its orientation turns at constant angular velocity along the shortest arc
//! (slerp). The search ([`proxima_geom::time_of_impact`]) is conservative advancement on
//! certified lower bounds, so it cannot step over a contact, however thin or fast the shapes.
//!
//! The result mirrors the library's [`ToiResult`]: `outcome` is [`ToiOutcome::as_str`]
//! (`"initial_contact"`, `"hit"`, `"miss"`, `"undecided"`), `status` is [`ToiStatus::as_str`]
//! (`"converged"`, `"max_iterations"`, `"stalled"`). Each attribute that has no meaning for an
//! outcome is `None` (see [`Fields`], shared with `time_of_impact_batch`, where `None` is NaN):
//!
//! | outcome | `toi` | `t_safe` | `t_hit` | witnesses | `depth`, `signed_distance`, `lower`, `upper` | `last_time`, `last_lower` |
//! |---|---|---|---|---|---|---|
//! | initial_contact | start | start | start | at the start (normal only when separated) | at the start | — |
//! | hit | t_safe | t_safe | t_hit | at t_hit | bracket of the distance at t_hit | — |
//! | miss | None | end | — | — | — | the last sample and its certified lower bound |
//! | undecided | t_safe | t_safe | — | — | — | as for a miss (last_time = t_safe) |
//!
//! Keyword settings: `start_time`, `end_time`, `distance_tolerance`, `time_tolerance`,
//! `max_iterations`, `initial_depth` ([`ToiSettings`]' fields) and the query settings of
//! `distance` ([`crate::settings`]) for the distance queries of the search; all checked by
//! [`ToiSettings::validate`]. An initial overlap measured with `initial_depth=False` has no
//! depth: `depth` and `signed_distance` are NaN (the bracket is [−∞, 0]), as `distance`
//! reports an unmeasured signed distance.
//!
//! Edge cases: NaN/∞ or non-rotation poses are `GeomError`s naming the argument (`Ta0`, ...);
//! a negative or non-finite margin, `end_time < start_time` and bad tolerances are `GeomError`s
//! naming the setting; an unknown keyword is a `TypeError`. A single call holds the GIL
//! (microseconds, as `distance`); `time_of_impact_batch` releases it.

use numpy::PyArray1;
use proxima_geom::query::toi::{ToiHit, ToiInitialContact, ToiMiss, ToiUndecided};
use proxima_geom::{
    Certificate, GeomError as RustGeomError, Pose, RigidMotion, Shape, ToiOutcome, ToiResult, ToiSettings,
    ToiStatus,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::arrays::{self, out3};
use crate::errors::{geom, guard, invalid};
use crate::settings::{self, number};
use crate::shapes::PyShape;

/// The keywords of [`ToiSettings`]' own fields (the rest are query settings).
pub const TOI_KEYWORDS: [&str; 6] =
    ["start_time", "end_time", "distance_tolerance", "time_tolerance", "max_iterations", "initial_depth"];

/// Settings from `margin` and the keyword arguments, validated by the library.
pub fn toi_settings(margin: f64, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<ToiSettings> {
    let mut s = ToiSettings::default().with_margin(margin);
    if let Some(kwargs) = kwargs {
        let query = PyDict::new(kwargs.py());
        for (key, value) in kwargs.iter() {
            let key: String = key.extract()?;
            match key.as_str() {
                "start_time" => s.start_time = number(&value, &key)?,
                "end_time" => s.end_time = number(&value, &key)?,
                "distance_tolerance" => s.distance_tolerance = number(&value, &key)?,
                "time_tolerance" => s.time_tolerance = number(&value, &key)?,
                "max_iterations" => {
                    s.max_iterations = value
                        .extract()
                        .map_err(|_| invalid(format!("{key}: must be an integer in 1..=4294967295")))?
                }
                "initial_depth" => {
                    s.initial_depth =
                        value.extract().map_err(|_| invalid(format!("{key}: must be a bool")))?
                }
                other if settings::KEYWORDS.contains(&other) => query.set_item(other, value)?,
                other => {
                    return Err(PyTypeError::new_err(format!(
                        "unexpected keyword argument {other:?}; time-of-impact settings are {} and the query settings {}",
                        TOI_KEYWORDS.join(", "),
                        settings::KEYWORDS.join(", ")
                    )));
                }
            }
        }
        if !query.is_empty() {
            s.query = settings::from_kwargs(&query)?;
        }
    }
    s.validate().map_err(geom)?;
    Ok(s)
}

/// One query under the benchmark's motion model: each shape from its first pose (t = 0) to
/// its second (t = 1). Plain Rust: batches run it off the GIL.
pub fn toi_between_poses(
    a: &Shape,
    a_poses: (&Pose, &Pose),
    b: &Shape,
    b_poses: (&Pose, &Pose),
    settings: &ToiSettings,
) -> Result<ToiResult, RustGeomError> {
    let ma = RigidMotion::from_poses(a_poses.0, a_poses.1)?;
    let mb = RigidMotion::from_poses(b_poses.0, b_poses.1)?;
    proxima_geom::time_of_impact(a, &ma, b, &mb, settings)
}

/// The attributes of a result (the module docs' table), `None` where an outcome has none.
#[derive(Debug, Clone, Copy)]
pub struct Fields {
    /// The time of impact ([`ToiResult::toi`]).
    pub toi: Option<f64>,
    /// No contact is proven on [start, t_safe) (the whole interval for a miss: t_safe = end).
    pub t_safe: f64,
    /// Contact is proven at t_hit (within the distance tolerance).
    pub t_hit: Option<f64>,
    /// Penetration depth of an initial contact (0 when separated within the margin).
    pub depth: Option<f64>,
    /// Signed distance of an initial contact.
    pub signed_distance: Option<f64>,
    /// Lower end of the proven bracket at contact.
    pub lower: Option<f64>,
    /// Upper end of the proven bracket at contact.
    pub upper: Option<f64>,
    /// The last sample of a miss or undecided search.
    pub last_time: Option<f64>,
    /// The certified lower bound of the distance there.
    pub last_lower: Option<f64>,
    /// Witness point on A.
    pub point_a: Option<[f64; 3]>,
    /// Witness point on B.
    pub point_b: Option<[f64; 3]>,
    /// Unit normal from A towards B.
    pub normal: Option<[f64; 3]>,
}

/// The attributes of `r` for a search that ended the interval at `end_time`.
pub fn fields(r: &ToiResult, end_time: f64) -> Fields {
    let none = Fields {
        toi: r.toi(),
        t_safe: end_time,
        t_hit: None,
        depth: None,
        signed_distance: None,
        lower: None,
        upper: None,
        last_time: None,
        last_lower: None,
        point_a: None,
        point_b: None,
        normal: None,
    };
    match r.outcome {
        ToiOutcome::InitialContact(c) => {
            // Lower end −∞: an overlap whose depth was not asked for (not measured).
            let measured = c.bracket.lower != f64::NEG_INFINITY;
            let (signed, depth) =
                if measured { (c.signed_distance, c.depth()) } else { (f64::NAN, f64::NAN) };
            Fields {
                t_safe: c.time,
                t_hit: Some(c.time),
                depth: Some(depth),
                signed_distance: Some(signed),
                lower: Some(c.bracket.lower),
                upper: Some(c.bracket.upper),
                point_a: c.points.map(|p| p.0.coords.into()),
                point_b: c.points.map(|p| p.1.coords.into()),
                normal: c.normal.map(Into::into),
                ..none
            }
        }
        ToiOutcome::Hit(h) => Fields {
            t_safe: h.t_safe,
            t_hit: Some(h.t_hit),
            lower: Some(h.distance.lower),
            upper: Some(h.distance.upper),
            point_a: Some(h.point_a.coords.into()),
            point_b: Some(h.point_b.coords.into()),
            normal: Some(h.normal.into()),
            ..none
        },
        ToiOutcome::Miss(m) => {
            Fields { last_time: Some(m.last_time), last_lower: Some(m.last_lower), ..none }
        }
        ToiOutcome::Undecided(u) => {
            Fields { t_safe: u.t_safe, last_time: Some(u.t_safe), last_lower: Some(u.last_lower), ..none }
        }
    }
}

/// The statuses a result can carry, by [`ToiStatus::as_str`].
const STATUSES: [ToiStatus; 3] = [ToiStatus::Converged, ToiStatus::MaxIterations, ToiStatus::Stalled];

/// The pickled state: outcome name, the outcome's numbers ([`numbers`]), status name,
/// iterations, distance queries, end time.
type State = (String, Vec<f64>, String, u32, u32, f64);

/// An optional point as three numbers (NaN for none: witnesses are always finite).
fn triple(p: Option<[f64; 3]>) -> [f64; 3] {
    p.unwrap_or([f64::NAN; 3])
}

fn untriple(v: &[f64]) -> Option<[f64; 3]> {
    (!v.iter().any(|x| x.is_nan())).then(|| [v[0], v[1], v[2]])
}

/// The numbers of an outcome, in a fixed order per outcome.
fn numbers(o: &ToiOutcome) -> Vec<f64> {
    let mut v = Vec::with_capacity(13);
    match *o {
        ToiOutcome::InitialContact(c) => {
            v.extend([c.time, c.signed_distance, c.bracket.lower, c.bracket.upper]);
            v.extend(triple(c.points.map(|p| p.0.coords.into())));
            v.extend(triple(c.points.map(|p| p.1.coords.into())));
            v.extend(triple(c.normal.map(Into::into)));
        }
        ToiOutcome::Hit(h) => {
            v.extend([h.t_safe, h.t_hit, h.distance.lower, h.distance.upper]);
            v.extend(<[f64; 3]>::from(h.point_a.coords));
            v.extend(<[f64; 3]>::from(h.point_b.coords));
            v.extend(<[f64; 3]>::from(h.normal));
        }
        ToiOutcome::Miss(m) => v.extend([m.last_time, m.last_lower]),
        ToiOutcome::Undecided(u) => v.extend([u.t_safe, u.last_lower]),
    }
    v
}

/// The outcome called `name` with `numbers` (the inverse of [`numbers`]).
fn outcome_from(name: &str, v: &[f64]) -> Option<ToiOutcome> {
    let point = |k: usize| untriple(&v[k..k + 3]).map(nalgebra::Point3::from);
    match (name, v.len()) {
        ("initial_contact", 13) => Some(ToiOutcome::InitialContact(ToiInitialContact {
            time: v[0],
            signed_distance: v[1],
            bracket: Certificate { lower: v[2], upper: v[3] },
            points: point(4).zip(point(7)),
            normal: untriple(&v[10..13]).map(nalgebra::Vector3::from),
        })),
        ("hit", 13) => Some(ToiOutcome::Hit(ToiHit {
            t_safe: v[0],
            t_hit: v[1],
            distance: Certificate { lower: v[2], upper: v[3] },
            point_a: point(4)?,
            point_b: point(7)?,
            normal: nalgebra::Vector3::from(untriple(&v[10..13])?),
        })),
        ("miss", 2) => Some(ToiOutcome::Miss(ToiMiss { last_time: v[0], last_lower: v[1] })),
        ("undecided", 2) => Some(ToiOutcome::Undecided(ToiUndecided { t_safe: v[0], last_lower: v[1] })),
        _ => None,
    }
}

/// `proxima.ToiResult`: the answer of `time_of_impact`.
#[pyclass(frozen, module = "proxima", name = "ToiResult")]
pub struct PyToiResult {
    result: ToiResult,
    /// The end of the searched interval (`t_safe` of a miss).
    end_time: f64,
}

impl PyToiResult {
    /// The result `result` of a search over an interval ending at `end_time`.
    pub fn new(result: ToiResult, end_time: f64) -> Self {
        PyToiResult { result, end_time }
    }

    fn fields(&self) -> Fields {
        fields(&self.result, self.end_time)
    }

    fn state(&self) -> State {
        let r = &self.result;
        (
            r.outcome.as_str().to_string(),
            numbers(&r.outcome),
            r.status.as_str().to_string(),
            r.iterations,
            r.distance_queries,
            self.end_time,
        )
    }
}

#[pymethods]
impl PyToiResult {
    /// `"initial_contact"` (within the margin at the start), `"hit"` (first contact in
    /// [t_safe, t_hit]), `"miss"` (no contact on the interval, proven) or `"undecided"` (the
    /// search stopped: only [start, t_safe) is proven free).
    #[getter]
    fn outcome(&self) -> &'static str {
        self.result.outcome.as_str()
    }

    /// How the search ended: `"converged"`, `"max_iterations"` or `"stalled"`.
    #[getter]
    fn status(&self) -> &'static str {
        self.result.status.as_str()
    }

    /// The time of impact, conservatively: the start for an initial contact, t_safe for a hit,
    /// None for a proven miss (and t_safe for an undecided search: check `outcome`).
    #[getter]
    fn toi(&self) -> Option<f64> {
        self.result.toi()
    }

    /// No contact is proven on [start, t_safe): t_safe of a hit or undecided search, the start
    /// for an initial contact, the end of the interval for a miss (free on all of it).
    #[getter]
    fn t_safe(&self) -> f64 {
        self.fields().t_safe
    }

    /// Contact (distance <= margin + tolerance) is proven at t_hit >= t_safe (a hit; the start
    /// for an initial contact), else None.
    #[getter]
    fn t_hit(&self) -> Option<f64> {
        self.fields().t_hit
    }

    /// Witness point on A (world frame, shape (3,)) at t_hit, or at the start for an initial
    /// contact (a common point when overlapping); None for a miss or undecided search.
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        self.fields().point_a.map(|p| out3(py, p))
    }

    /// Witness point on B (world frame, shape (3,)), as `point_a`.
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        self.fields().point_b.map(|p| out3(py, p))
    }

    /// Unit contact normal from A towards B at t_hit (for an initial contact: only when the
    /// shapes are separated within the margin), else None.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        self.fields().normal.map(|p| out3(py, p))
    }

    /// Penetration depth at the start of an initial contact (0 when separated within the
    /// margin, NaN when `initial_depth=False` left an overlap unmeasured), else None.
    #[getter]
    fn depth(&self) -> Option<f64> {
        self.fields().depth
    }

    /// Signed distance at the start of an initial contact (NaN when not measured), else None.
    #[getter]
    fn signed_distance(&self) -> Option<f64> {
        self.fields().signed_distance
    }

    /// Proven lower bound at contact: of the signed distance at the start (initial contact) or
    /// of the distance at t_hit (hit); None otherwise.
    #[getter]
    fn lower(&self) -> Option<f64> {
        self.fields().lower
    }

    /// Proven upper bound at contact (as `lower`).
    #[getter]
    fn upper(&self) -> Option<f64> {
        self.fields().upper
    }

    /// The last sample of a miss (from there a motion bound proved the distance > margin to
    /// the end) or of an undecided search (= t_safe), else None.
    #[getter]
    fn last_time(&self) -> Option<f64> {
        self.fields().last_time
    }

    /// The certified lower bound of the distance at `last_time` (the proof of a miss), else
    /// None.
    #[getter]
    fn last_lower(&self) -> Option<f64> {
        self.fields().last_lower
    }

    /// Conservative-advancement steps taken.
    #[getter]
    fn iterations(&self) -> u32 {
        self.result.iterations
    }

    /// Distance queries made (one per step, plus the start and any probes).
    #[getter]
    fn distance_queries(&self) -> u32 {
        self.result.distance_queries
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let Ok(o) = other.cast::<PyToiResult>() else { return false };
        let (x, y) = (self.state(), o.get().state());
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits();
        x.0 == y.0
            && x.1.len() == y.1.len()
            && x.1.iter().zip(&y.1).all(|(a, b)| same(*a, *b))
            && (x.2, x.3, x.4) == (y.2, y.3, y.4)
            && same(x.5, y.5)
    }

    fn __repr__(&self) -> String {
        let f = self.fields();
        format!(
            "ToiResult(outcome={:?}, toi={}, t_safe={:?}, t_hit={}, status={:?}, iterations={})",
            self.outcome(),
            f.toi.map_or("None".into(), |t| format!("{t:?}")),
            f.t_safe,
            f.t_hit.map_or("None".into(), |t| format!("{t:?}")),
            self.status(),
            self.result.iterations
        )
    }

    /// Pickles as its fields, rebuilt by `proxima._proxima._toi_result`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("proxima._proxima")?.getattr("_toi_result")?;
        Ok((rebuild, (self.state(),).into_pyobject(py)?))
    }
}

/// Rebuilds a pickled `ToiResult` (not for direct use).
#[pyfunction]
#[pyo3(name = "_toi_result")]
pub fn toi_result_from_state(state: State) -> PyResult<PyToiResult> {
    let (outcome, numbers, status, iterations, distance_queries, end_time) = state;
    let outcome = outcome_from(&outcome, &numbers)
        .ok_or_else(|| invalid(format!("not a ToiResult state: outcome {outcome:?}")))?;
    let status = STATUSES
        .into_iter()
        .find(|s| s.as_str() == status)
        .ok_or_else(|| invalid(format!("not a ToiResult state: status {status:?}")))?;
    Ok(PyToiResult { result: ToiResult { outcome, status, iterations, distance_queries }, end_time })
}

/// The first time `a` and `b` come within `margin` of each other while `a` moves from pose
/// `Ta0` (t = 0) to `Ta1` (t = 1) and `b` from `Tb0` to `Tb1` (4×4 poses; straight-line
/// translation of each shape's origin, constant-axis rotation about it), certified by
/// conservative advancement: a `ToiResult` whose `outcome` is "initial_contact" (`depth`),
/// "hit" (first contact in [`t_safe`, `t_hit`], witnesses and `normal` at t_hit), "miss" (`toi`
/// None; `last_lower`, the certified bound that proved it) or "undecided" (see `status`).
/// Keyword settings: `start_time` (0), `end_time` (1), `distance_tolerance` (1e-9),
/// `time_tolerance` (1e-9), `max_iterations` (500), `initial_depth` (True) and the query
/// settings of `distance`.
#[pyfunction]
#[pyo3(signature = (a, Ta0, Ta1, b, Tb0, Tb1, margin=0.0, **settings))]
#[allow(non_snake_case, clippy::too_many_arguments)]
pub fn time_of_impact(
    a: &Bound<'_, PyShape>,
    Ta0: &Bound<'_, PyAny>,
    Ta1: &Bound<'_, PyAny>,
    b: &Bound<'_, PyShape>,
    Tb0: &Bound<'_, PyAny>,
    Tb1: &Bound<'_, PyAny>,
    margin: f64,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyToiResult> {
    let settings = toi_settings(margin, settings)?;
    let pa = (arrays::pose(Ta0, "Ta0")?, arrays::pose(Ta1, "Ta1")?);
    let pb = (arrays::pose(Tb0, "Tb0")?, arrays::pose(Tb1, "Tb1")?);
    guard(|| {
        toi_between_poses(&a.get().shape, (&pa.0, &pa.1), &b.get().shape, (&pb.0, &pb.1), &settings)
            .map(|result| PyToiResult::new(result, settings.end_time))
            .map_err(geom)
    })
}
