//! The `dqp3` variant of `proxima bench-geometry` (its row in the variant table): DQP3 ([`proxima_geom::dqp3`]) on
//! [`FacetShape`]s built once per shape, outside the timed region (the exact hull and its
//! facets, done once per object in any real use). Cold `queries` and `track_cold` call
//! [`distance_facet_shapes`]; `track_warm` runs one [`Dqp3ShapeTracker`] per track (built-in
//! transforms: only the poses change per step). Every answer is certified against the
//! workload's shapes, not the facet forms; a refused DQP3 answer is recomputed by GJK inside the
//! timed call (its record then says so in `algorithm`). Shapes without a facet form (spheres,
//! ellipsoids...) are counted as skipped. Records use the harness's result format; there is no
//! `collide` section (DQP3 is a distance algorithm).

use std::hint::black_box;

use anyhow::Result;
use proxima_geom::{DistanceResult, Dqp3ShapeTracker, FacetShape, QuerySettings, distance_facet_shapes};

use proxima_cli_support::exit::{self, Internal};
use proxima_cli_support::outcome::Outcome;
use proxima_cli_support::workload::Workload;

use super::records::{output_lines, result_record, signed_fallback, timing_record};
use crate::timing::time_passes;

const VARIANT: &str = "dqp3";

fn answer(
    facets: &[Option<FacetShape>],
    a: usize,
    pa: &proxima_geom::Pose,
    b: usize,
    pb: &proxima_geom::Pose,
    settings: &QuerySettings,
) -> Outcome<DistanceResult> {
    let (Some(fa), Some(fb)) = (&facets[a], &facets[b]) else {
        return Outcome::Unsupported("dqp3 needs boxes, convex polytopes or polyhedra".into());
    };
    match distance_facet_shapes(fa, pa, fb, pb, settings) {
        Ok(d) => Outcome::Ok(d),
        Err(e) => Outcome::Error(e.to_string()),
    }
}

/// All records of the `dqp3` variant, in the order written.
pub fn run_variant(w: &Workload, repeat: usize) -> Result<Vec<String>> {
    let settings = QuerySettings::default();
    let facets: Vec<Option<FacetShape>> = w.shapes.iter().map(|s| FacetShape::new(s.clone()).ok()).collect();
    let mut timing = Vec::new();
    let mut records = Vec::new();

    let outcomes: Vec<Outcome<DistanceResult>> =
        w.queries.iter().map(|q| answer(&facets, q.a, &q.pose_a, q.b, &q.pose_b, &settings)).collect();
    let ok: Vec<usize> = (0..outcomes.len()).filter(|&i| matches!(outcomes[i], Outcome::Ok(_))).collect();
    let total = exit::catch(|| {
        time_passes(repeat, || {
            for &i in &ok {
                let q = &w.queries[i];
                if let (Some(fa), Some(fb)) = (&facets[q.a], &facets[q.b]) {
                    black_box(distance_facet_shapes(fa, &q.pose_a, fb, &q.pose_b, black_box(&settings)).ok());
                }
            }
        })
    })
    .map_err(|p| Internal(format!("timed dqp3 pass: {p}")))?;
    timing.push(timing_record("queries", VARIANT, ok.len(), outcomes.len() - ok.len(), repeat, &total));
    for (i, o) in outcomes.iter().enumerate() {
        let q = &w.queries[i];
        let signed = signed_fallback(o, (&w.shapes[q.a], &q.pose_a, &w.shapes[q.b], &q.pose_b), &settings);
        records.push(result_record("query", VARIANT, i, None, o, signed));
    }

    if !w.tracks.is_empty() {
        let usable: Vec<usize> = (0..w.tracks.len())
            .filter(|&i| facets[w.tracks[i].a].is_some() && facets[w.tracks[i].b].is_some())
            .collect();
        let steps: usize = usable.iter().map(|&i| w.tracks[i].poses.len()).sum();
        let skipped = w.steps() - steps;
        let total = exit::catch(|| {
            time_passes(repeat, || {
                for &i in &usable {
                    let t = &w.tracks[i];
                    if let (Some(fa), Some(fb)) = (&facets[t.a], &facets[t.b]) {
                        for (pa, pb) in &t.poses {
                            black_box(distance_facet_shapes(fa, pa, fb, pb, black_box(&settings)).ok());
                        }
                    }
                }
            })
        })
        .map_err(|p| Internal(format!("timed dqp3 track pass: {p}")))?;
        timing.push(timing_record("track_cold", VARIANT, steps, skipped, repeat, &total));

        // Warm: values from an untimed tracked pass, then the timed passes.
        for (i, t) in w.tracks.iter().enumerate() {
            let (Some(fa), Some(fb)) = (&facets[t.a], &facets[t.b]) else { continue };
            let mut tracker = Dqp3ShapeTracker::new(fa, fb, &settings)?;
            for (k, (pa, pb)) in t.poses.iter().enumerate() {
                let o = match tracker.step(pa, pb) {
                    Ok(d) => Outcome::Ok(d),
                    Err(e) => Outcome::Error(e.to_string()),
                };
                let signed = signed_fallback(&o, (&w.shapes[t.a], pa, &w.shapes[t.b], pb), &settings);
                records.push(result_record("track", VARIANT, i, Some(k), &o, signed));
            }
        }
        let total = exit::catch(|| {
            time_passes(repeat, || {
                for &i in &usable {
                    let t = &w.tracks[i];
                    if let (Some(fa), Some(fb)) = (&facets[t.a], &facets[t.b])
                        && let Ok(mut tracker) = Dqp3ShapeTracker::new(fa, fb, &settings)
                    {
                        for (pa, pb) in &t.poses {
                            black_box(tracker.step(black_box(pa), pb).ok());
                        }
                    }
                }
            })
        })
        .map_err(|p| Internal(format!("timed dqp3 warm track pass: {p}")))?;
        timing.push(timing_record("track_warm", VARIANT, steps, skipped, repeat, &total));
    }
    output_lines(w, &timing, &records)
}
