//! `proxima view --workload FILE --i K`: one query of a geometry workload as a page — both
//! shapes at their poses, the witness points joined by the distance segment, the normal from
//! A towards B, and the certificate bracket [lower, upper]; `--track T` replays a track of
//! the workload step by step with its distance plot.
//!
//! The numbers are the library's answer with default settings (`proxima query`'s): the page
//! draws them, it computes nothing.

use anyhow::{Result, bail};
use proxima_cli_support::outcome::{Outcome, run_distance, signed_of, xyz};
use proxima_cli_support::workload::Workload;
use proxima_geom::{DistanceResult, Proximity, QuerySettings};
use proxima_viewer::{
    Annotation, ClosestSample, Page, ReplayRecorder, ReplaySettings, SceneBuilder, ViewKind,
};

/// The page of query `i` of `w`.
pub fn query_page(w: &Workload, i: usize) -> Result<Page> {
    let Some(q) = w.queries.get(i) else {
        bail!("--i {i}: the workload {:?} has {} queries (0..{})", w.name, w.queries.len(), w.queries.len())
    };
    let (ida, idb) = (&w.ids[q.a], &w.ids[q.b]);
    let (sa, sb) = (&w.shapes[q.a], &w.shapes[q.b]);
    let mut scene = SceneBuilder::new();
    // two objects may share an id (a shape against itself): the names say which side
    scene.add(&format!("A: {ida}"), "a", sa, &q.pose_a)?;
    scene.add(&format!("B: {idb}"), "b", sb, &q.pose_b)?;
    let settings = QuerySettings::default();
    settings.validate()?;
    let outcome = run_distance(sa, &q.pose_a, sb, &q.pose_b, &settings);
    let mut summary =
        vec![format!("query {i} of {}: A = {ida} ({}), B = {idb} ({})", w.name, sa.kind(), sb.kind())];
    let mut view = scene.into_view(format!("query {i}"), ViewKind::Query);
    view.pairs = vec![[0, 1]];
    // workload coordinates carry no unit
    view.unit = String::new();
    let mut min_distance = None;
    match &outcome {
        Outcome::Ok(r) => {
            summary.extend(answer_lines(r));
            view.annotation = Some(annotation(r));
            min_distance = signed_of(r);
        }
        other => {
            summary.push(format!("no answer ({}): {}", other.status(), other.error().unwrap_or("no message")))
        }
    }
    view.summary = summary.clone();
    Ok(Page { title: format!("Proxima: {} query {i}", w.name), summary, min_distance, views: vec![view] })
}

/// The lines describing one distance answer.
fn answer_lines(r: &DistanceResult) -> Vec<String> {
    let c = r.certificate;
    let mut lines = Vec::new();
    match r.proximity {
        Proximity::Separated { distance, point_a, point_b, normal } => {
            lines.push(format!("distance {distance}"));
            lines.push(format!("witness on A ({}, {}, {})", point_a.x, point_a.y, point_a.z));
            lines.push(format!("witness on B ({}, {}, {})", point_b.x, point_b.y, point_b.z));
            lines.push(format!("normal A → B ({:.9}, {:.9}, {:.9})", normal.x, normal.y, normal.z));
        }
        Proximity::Touching { point } => {
            lines.push("touching (distance 0)".into());
            lines.push(format!("contact point ({}, {}, {})", point.x, point.y, point.z));
        }
        Proximity::Intersecting { point, depth } => {
            lines.push(match depth {
                Some(d) => format!("intersecting, penetration depth {d}"),
                None => "intersecting".into(),
            });
            if let Some(p) = point {
                lines.push(format!("common point ({}, {}, {})", p.x, p.y, p.z));
            }
        }
    }
    lines.push(format!("certificate: distance in [{}, {}] (gap {:.3e})", c.lower, c.upper, c.gap()));
    lines.push(format!("algorithm {}, path {}", r.algorithm.as_str(), r.path));
    lines
}

fn annotation(r: &DistanceResult) -> Annotation {
    let (point_a, point_b) = r.witnesses().map_or((None, None), |(a, b)| (Some(xyz(&a)), Some(xyz(&b))));
    let normal = match r.proximity {
        Proximity::Separated { normal, .. } => Some([normal.x, normal.y, normal.z]),
        _ => None,
    };
    Annotation {
        pair: [0, 1],
        point_a,
        point_b,
        normal,
        distance: signed_of(r),
        lower: Some(r.certificate.lower),
        upper: Some(r.certificate.upper),
    }
}

/// The page of track `t` of `w`: every step queried (cold, default settings) and replayed.
pub fn track_page(w: &Workload, t: usize) -> Result<Page> {
    let Some(track) = w.tracks.get(t) else {
        bail!("--track {t}: the workload {:?} has {} tracks", w.name, w.tracks.len())
    };
    if track.poses.is_empty() {
        bail!("--track {t}: the track has no steps");
    }
    let (ida, idb) = (&w.ids[track.a], &w.ids[track.b]);
    let (sa, sb) = (&w.shapes[track.a], &w.shapes[track.b]);
    let (pa0, pb0) = &track.poses[0];
    let mut scene = SceneBuilder::new();
    scene.add(&format!("A: {ida}"), "a", sa, pa0)?;
    scene.add(&format!("B: {idb}"), "b", sb, pb0)?;
    let settings = QuerySettings::default();
    settings.validate()?;
    let mut rec = ReplayRecorder::new(2, 1, track.poses.len(), ReplaySettings::default())?;
    let mut min: Option<(f64, usize)> = None;
    let mut unanswered = 0;
    for (k, (pa, pb)) in track.poses.iter().enumerate() {
        let closest = match run_distance(sa, pa, sb, pb, &settings) {
            Outcome::Ok(r) => {
                let d = r.distance();
                if min.is_none_or(|(m, _)| d < m) {
                    min = Some((d, k));
                }
                Some(ClosestSample {
                    pair: 0,
                    distance: d,
                    witnesses: r.witnesses().map(|(a, b)| (xyz(&a), xyz(&b))),
                })
            }
            _ => {
                unanswered += 1;
                None
            }
        };
        rec.record([pa, pb], closest, None, None)?;
    }
    let mut summary = vec![match min {
        Some((d, k)) => format!("track {t} of {}: minimum distance {d} at step {k}", w.name),
        None => format!("track {t} of {}: no step answered", w.name),
    }];
    summary.push(format!(
        "A = {ida} ({}), B = {idb} ({}); {} steps, {unanswered} unanswered",
        sa.kind(),
        sb.kind(),
        track.poses.len()
    ));
    let mut view = scene.into_view(format!("track {t}"), ViewKind::Replay);
    view.pairs = vec![[0, 1]];
    // workload coordinates carry no unit
    view.unit = String::new();
    view.summary = summary.clone();
    let mut timeline = rec.finish(1.0)?;
    timeline.unit = "step".into();
    view.timeline = Some(timeline);
    Ok(Page {
        title: format!("Proxima: {} track {t}", w.name),
        summary,
        min_distance: min.map(|m| m.0),
        views: vec![view],
    })
}
