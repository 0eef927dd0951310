//! The variants of `proxima bench-geometry` that run through the library's query API
//! ([`proxima_geom::distance`], [`proxima_geom::intersects`], [`proxima_geom::distance_tracked`])
//! with the variant's [`QuerySettings`]: every section (`queries`, `collide`, `track_cold`,
//! `track_warm` with one GJK cache per track).

use std::hint::black_box;

use anyhow::Result;
use proxima_cli_support::exit::{self, Internal};
use proxima_cli_support::outcome::{Outcome, classify, run_distance, run_intersects};
use proxima_cli_support::workload::Workload;
use proxima_geom::{
    DistanceResult, GjkCache, Intersection, QuerySettings, distance, distance_tracked, intersects,
};

use super::records::{output_lines, result_record, signed_fallback, timing_record};
use crate::timing::{time_passes, time_steps};

/// All records of one variant, in the order written.
pub fn run_variant(
    w: &Workload,
    variant: &str,
    settings: &QuerySettings,
    repeat: usize,
) -> Result<Vec<String>> {
    let shapes = &w.shapes;
    let mut timing = Vec::new();
    let mut records = Vec::new();

    // queries: untimed values, then timing over the supported ones.
    let outcomes: Vec<Outcome<DistanceResult>> = w
        .queries
        .iter()
        .map(|q| run_distance(&shapes[q.a], &q.pose_a, &shapes[q.b], &q.pose_b, settings))
        .collect();
    let ok: Vec<usize> = (0..outcomes.len()).filter(|&i| matches!(outcomes[i], Outcome::Ok(_))).collect();
    let total = exit::catch(|| {
        time_passes(repeat, || {
            for &i in &ok {
                let q = &w.queries[i];
                black_box(
                    distance(&shapes[q.a], &q.pose_a, &shapes[q.b], &q.pose_b, black_box(settings)).ok(),
                );
            }
        })
    })
    .map_err(|p| Internal(format!("timed distance pass: {p}")))?;
    timing.push(timing_record("queries", variant, ok.len(), outcomes.len() - ok.len(), repeat, &total));
    for (i, o) in outcomes.iter().enumerate() {
        let q = &w.queries[i];
        let signed = signed_fallback(o, (&shapes[q.a], &q.pose_a, &shapes[q.b], &q.pose_b), settings);
        records.push(result_record("query", variant, i, None, o, signed));
    }

    // collide: `intersects` (touching counts), timed over the pairs it supports.
    if !w.queries.is_empty() {
        let hits: Vec<Outcome<Intersection>> = w
            .queries
            .iter()
            .map(|q| run_intersects(&shapes[q.a], &q.pose_a, &shapes[q.b], &q.pose_b, settings))
            .collect();
        let ok: Vec<usize> = (0..hits.len()).filter(|&i| matches!(hits[i], Outcome::Ok(_))).collect();
        let intersecting =
            hits.iter().filter(|h| matches!(h, Outcome::Ok(Intersection::Intersecting { .. }))).count();
        let total = exit::catch(|| {
            time_passes(repeat, || {
                for &i in &ok {
                    let q = &w.queries[i];
                    black_box(
                        intersects(&shapes[q.a], &q.pose_a, &shapes[q.b], &q.pose_b, black_box(settings))
                            .ok(),
                    );
                }
            })
        })
        .map_err(|p| Internal(format!("timed intersects pass: {p}")))?;
        let mut rec = timing_record("collide", variant, ok.len(), hits.len() - ok.len(), repeat, &total);
        rec.num_intersecting = Some(intersecting);
        timing.push(rec);
    }

    // track_cold: every step independent; track_warm: one GJK cache per track.
    if !w.tracks.is_empty() {
        let mut steps = Vec::new();
        let mut skipped = 0;
        for t in &w.tracks {
            for (pa, pb) in &t.poses {
                if matches!(run_distance(&shapes[t.a], pa, &shapes[t.b], pb, settings), Outcome::Ok(_)) {
                    steps.push((t.a, pa, t.b, pb));
                } else {
                    skipped += 1;
                }
            }
        }
        let total = exit::catch(|| {
            time_passes(repeat, || {
                for &(a, pa, b, pb) in &steps {
                    black_box(distance(&shapes[a], pa, &shapes[b], pb, black_box(settings)).ok());
                }
            })
        })
        .map_err(|p| Internal(format!("timed track pass: {p}")))?;
        let clock = exit::catch(|| {
            time_steps(repeat, steps.len(), |clock| {
                for &(a, pa, b, pb) in &steps {
                    black_box(
                        clock.step(|| distance(&shapes[a], pa, &shapes[b], pb, black_box(settings)).ok()),
                    );
                }
            })
        })
        .map_err(|p| Internal(format!("per-step track pass: {p}")))?;
        timing.push(
            timing_record("track_cold", variant, steps.len(), skipped, repeat, &total).with_steps(&clock),
        );

        // Warm: values from an untimed warm-started pass, then the timed passes.
        let mut caches = vec![GjkCache::new(); w.tracks.len()];
        let mut warm_skipped = 0;
        let mut warm_n = 0;
        for (i, t) in w.tracks.iter().enumerate() {
            caches[i].reset();
            for (k, (pa, pb)) in t.poses.iter().enumerate() {
                let o = classify(|| {
                    distance_tracked(&shapes[t.a], pa, &shapes[t.b], pb, settings, &mut caches[i])
                });
                if matches!(o, Outcome::Ok(_)) {
                    warm_n += 1;
                } else {
                    warm_skipped += 1;
                }
                let signed = signed_fallback(&o, (&shapes[t.a], pa, &shapes[t.b], pb), settings);
                records.push(result_record("track", variant, i, Some(k), &o, signed));
            }
        }
        let total = exit::catch(|| {
            time_passes(repeat, || {
                for (t, cache) in w.tracks.iter().zip(caches.iter_mut()) {
                    cache.reset();
                    for (pa, pb) in &t.poses {
                        black_box(
                            distance_tracked(&shapes[t.a], pa, &shapes[t.b], pb, black_box(settings), cache)
                                .ok(),
                        );
                    }
                }
            })
        })
        .map_err(|p| Internal(format!("timed warm track pass: {p}")))?;
        let n_steps = w.tracks.iter().map(|t| t.poses.len()).sum();
        let clock = exit::catch(|| {
            time_steps(repeat, n_steps, |clock| {
                for (t, cache) in w.tracks.iter().zip(caches.iter_mut()) {
                    cache.reset();
                    for (pa, pb) in &t.poses {
                        black_box(clock.step(|| {
                            distance_tracked(&shapes[t.a], pa, &shapes[t.b], pb, black_box(settings), cache)
                                .ok()
                        }));
                    }
                }
            })
        })
        .map_err(|p| Internal(format!("per-step warm track pass: {p}")))?;
        timing.push(
            timing_record("track_warm", variant, warm_n, warm_skipped, repeat, &total).with_steps(&clock),
        );
    }
    output_lines(w, &timing, &records)
}
