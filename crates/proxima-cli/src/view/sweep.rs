//! `proxima view --workload CCD_FILE --i K`: one query of a CCD workload — the two shapes
//! swept over t ∈ [0, 1] (translation on a line, constant angular velocity about the local
//! origin, `../shared/bench/ccd/FORMAT.md`), every frame's distance from the library, the
//! start and end poses as ghosts, the impact pose highlighted with its witness points and
//! contact normal, and the certified bracket [t_safe, t_hit] of the time of impact.
//!
//! The time of impact is the library's (`proxima query --op toi`'s, default settings with the
//! workload's margin): free on [0, t_safe) is proven, contact at t_hit is proven. The frames
//! are `SWEEP_STEPS + 1` evenly spaced times, each with its certified distance (the plot), and
//! the impact pose is drawn at t_hit.

use anyhow::{Result, bail};
use proxima_cli_support::ccd_workload::CcdWorkload;
use proxima_cli_support::outcome::{Outcome, run_distance, xyz};
use proxima_geom::{Pose, QuerySettings, RigidMotion, ToiOutcome};
use proxima_viewer::{
    Annotation, ClosestSample, Ghost, Marker, Page, ReplayRecorder, ReplaySettings, SceneBuilder, ViewKind,
    pose7,
};

/// Frames of the swept motion: t = k / SWEEP_STEPS.
const SWEEP_STEPS: usize = 400;

/// The page of CCD query `i` of `w`.
pub fn sweep_page(w: &CcdWorkload, i: usize) -> Result<Page> {
    let Some(q) = w.queries.get(i) else {
        bail!("--i {i}: the workload {:?} has {} queries (0..{})", w.name, w.queries.len(), w.queries.len())
    };
    let (ida, idb) = (&w.ids[q.a], &w.ids[q.b]);
    let (sa, sb) = (&w.shapes[q.a], &w.shapes[q.b]);
    let (ma, mb) = (RigidMotion::from_poses(&q.a0, &q.a1)?, RigidMotion::from_poses(&q.b0, &q.b1)?);
    let toi_settings = w.settings();
    toi_settings.validate()?;
    let toi = w.time_of_impact(q, &toi_settings)?;
    let settings = QuerySettings::default();
    settings.validate()?;

    let mut scene = SceneBuilder::new();
    scene.add(&format!("A: {ida}"), "a", sa, &q.a0)?;
    scene.add(&format!("B: {idb}"), "b", sb, &q.b0)?;
    let mut rec = ReplayRecorder::new(2, 1, SWEEP_STEPS + 1, ReplaySettings::default())?;
    for k in 0..=SWEEP_STEPS {
        let t = k as f64 / SWEEP_STEPS as f64;
        let (pa, pb) = (ma.pose_at(t), mb.pose_at(t));
        let closest = match run_distance(sa, &pa, sb, &pb, &settings) {
            Outcome::Ok(r) => Some(ClosestSample {
                pair: 0,
                distance: r.distance(),
                witnesses: r.witnesses().map(|(a, b)| (xyz(&a), xyz(&b))),
            }),
            _ => None,
        };
        rec.record([&pa, &pb], closest, None, None)?;
    }
    let mut timeline = rec.finish(1.0 / SWEEP_STEPS as f64)?;
    timeline.unit = "t".into();

    let mut view_ghosts = vec![
        ghost(0, &q.a0, 0.18, "start"),
        ghost(1, &q.b0, 0.18, "start"),
        ghost(0, &q.a1, 0.18, "end"),
        ghost(1, &q.b1, 0.18, "end"),
    ];
    let mut summary = vec![format!(
        "CCD query {i} of {}: A = {ida} ({}), B = {idb} ({}), margin {}",
        w.name,
        sa.kind(),
        sb.kind(),
        toi_settings.margin
    )];
    let mut annotation = None;
    match &toi.outcome {
        ToiOutcome::Hit(hit) => {
            summary.push(format!(
                "time of impact {} (proven bracket [t_safe, t_hit] = [{}, {}])",
                hit.t_safe, hit.t_safe, hit.t_hit
            ));
            summary.push(format!(
                "at impact: distance in [{}, {}], normal A → B ({:.9}, {:.9}, {:.9})",
                hit.distance.lower, hit.distance.upper, hit.normal.x, hit.normal.y, hit.normal.z
            ));
            view_ghosts.push(ghost(0, &ma.pose_at(hit.t_hit), 0.55, "impact"));
            view_ghosts.push(ghost(1, &mb.pose_at(hit.t_hit), 0.55, "impact"));
            timeline.markers.push(Marker {
                cycle: (hit.t_hit * SWEEP_STEPS as f64).round() as usize,
                label: format!("impact t = {:.6}", hit.t_hit),
            });
            annotation = Some(Annotation {
                pair: [0, 1],
                point_a: Some(xyz(&hit.point_a)),
                point_b: Some(xyz(&hit.point_b)),
                normal: Some([hit.normal.x, hit.normal.y, hit.normal.z]),
                distance: Some(hit.distance.upper),
                lower: Some(hit.distance.lower),
                upper: Some(hit.distance.upper),
            });
        }
        ToiOutcome::InitialContact(c) => {
            summary.push(format!("in contact at t = {} (signed distance {})", c.time, c.signed_distance));
        }
        ToiOutcome::Miss(m) => {
            summary.push(format!("no impact on [0, 1] (last certified lower bound {})", m.last_lower));
        }
        ToiOutcome::Undecided(u) => {
            summary.push(format!("undecided ({}): free on [0, {}) proven", toi.status.as_str(), u.t_safe));
        }
    }
    summary.push(format!("{} distance queries, {} iterations", toi.distance_queries, toi.iterations));
    let mut view = scene.into_view(format!("CCD query {i}"), ViewKind::Sweep);
    view.pairs = vec![[0, 1]];
    // workload coordinates carry no unit
    view.unit = String::new();
    view.margin = toi_settings.margin;
    view.summary = summary.clone();
    view.timeline = Some(timeline);
    view.annotation = annotation;
    view.ghosts = view_ghosts;
    Ok(Page {
        title: format!("Proxima: {} CCD query {i}", w.name),
        summary,
        min_distance: None,
        views: vec![view],
    })
}

fn ghost(object: u32, pose: &Pose, alpha: f64, label: &str) -> Ghost {
    Ghost { object, pose: pose7(pose), alpha, label: label.into() }
}
