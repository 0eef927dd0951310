//! `proxima query FILE --op toi`: the certified time of impact of every query of a CCD
//! workload (`../shared/bench/ccd/FORMAT.md`), one JSON line (or text row) per query.
//!
//! Each line carries the outcome (`hit`, `miss`, `initial_contact`, `undecided`), the status,
//! the conservative time of impact (`toi`: t_safe of a hit, the start for an initial contact,
//! `null` for a proven miss) and the proof's data: the bracket [t_safe, t_hit], witnesses and
//! normal at the hit, the depth of an initial contact, the last certified lower bound of a miss,
//! and the work done. A query the library rejects is reported with `"status":"unsupported"` or
//! `"error"` and does not stop the run; a bad file exits 2.

use std::io::{BufWriter, Write};

use anyhow::Result;
use proxima_geom::{ToiOutcome, ToiResult};
use serde::Serialize;

use proxima_cli_support::ccd_workload;
use proxima_cli_support::outcome::{Outcome, Tally, classify, xyz};

use crate::query::{QueryArgs, QueryFormat};

/// One line of `proxima query --op toi` output.
#[derive(Debug, Clone, Default, Serialize)]
struct ToiRecord<'a> {
    i: usize,
    a: &'a str,
    b: &'a str,
    /// `ok`, `unsupported` or `error` (the call), see `outcome` for the answer.
    status: &'static str,
    outcome: Option<&'static str>,
    /// How the search ended (`converged`, `max_iterations`, `stalled`).
    search: Option<&'static str>,
    toi: Option<f64>,
    t_safe: Option<f64>,
    t_hit: Option<f64>,
    p_a: Option<[f64; 3]>,
    p_b: Option<[f64; 3]>,
    normal: Option<[f64; 3]>,
    /// Certified bracket of the distance at t_hit (hit) or of the signed distance at the start
    /// (initial contact).
    lower: Option<f64>,
    upper: Option<f64>,
    /// Penetration depth of an initial contact.
    depth: Option<f64>,
    /// Proof of a miss: the last sample and its certified lower bound.
    last_time: Option<f64>,
    last_lower: Option<f64>,
    iterations: Option<u32>,
    distance_queries: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

fn fill(rec: &mut ToiRecord<'_>, r: &ToiResult) {
    rec.outcome = Some(r.outcome.as_str());
    rec.search = Some(r.status.as_str());
    rec.toi = r.toi();
    rec.iterations = Some(r.iterations);
    rec.distance_queries = Some(r.distance_queries);
    match r.outcome {
        ToiOutcome::Hit(h) => {
            (rec.t_safe, rec.t_hit) = (Some(h.t_safe), Some(h.t_hit));
            (rec.p_a, rec.p_b, rec.normal) =
                (Some(xyz(&h.point_a)), Some(xyz(&h.point_b)), Some(h.normal.into()));
            (rec.lower, rec.upper) = (Some(h.distance.lower), Some(h.distance.upper));
        }
        ToiOutcome::InitialContact(c) => {
            (rec.t_safe, rec.t_hit) = (Some(c.time), Some(c.time));
            if let Some((pa, pb)) = c.points {
                (rec.p_a, rec.p_b) = (Some(xyz(&pa)), Some(xyz(&pb)));
            }
            rec.normal = c.normal.map(Into::into);
            (rec.lower, rec.upper) = (Some(c.bracket.lower).filter(|x| x.is_finite()), Some(c.bracket.upper));
            rec.depth = Some(c.depth());
        }
        ToiOutcome::Miss(m) => (rec.last_time, rec.last_lower) = (Some(m.last_time), Some(m.last_lower)),
        ToiOutcome::Undecided(u) => (rec.t_safe, rec.last_lower) = (Some(u.t_safe), Some(u.last_lower)),
    }
}

fn fmt_opt(x: Option<f64>) -> String {
    x.map_or("-".into(), |x| format!("{x}"))
}

/// Runs `proxima query --op toi`.
pub fn run(args: &QueryArgs) -> Result<()> {
    let w = ccd_workload::load(&args.file)?;
    let settings = w.settings();
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if args.format == QueryFormat::Text {
        writeln!(
            out,
            "{:>5}  {:<24} {:<24} {:<16} {:<15} {:>22}  {:>22}  iterations",
            "i", "a", "b", "outcome", "search", "t_safe", "t_hit"
        )?;
    }
    let mut tally = Tally::default();
    for (i, q) in w.queries.iter().enumerate() {
        let mut rec = ToiRecord { i, a: &w.ids[q.a], b: &w.ids[q.b], ..ToiRecord::default() };
        let o = classify(|| w.time_of_impact(q, &settings));
        rec.status = o.status();
        rec.error = o.error().map(str::to_string);
        if let Outcome::Ok(r) = &o {
            fill(&mut rec, r);
        }
        tally.add(rec.status);
        match args.format {
            QueryFormat::Jsonl => {
                serde_json::to_writer(&mut out, &rec)?;
                writeln!(out)?;
            }
            QueryFormat::Text => writeln!(
                out,
                "{:>5}  {:<24} {:<24} {:<16} {:<15} {:>22}  {:>22}  {}{}",
                rec.i,
                rec.a,
                rec.b,
                rec.outcome.unwrap_or(rec.status),
                rec.search.unwrap_or("-"),
                fmt_opt(rec.t_safe),
                fmt_opt(rec.t_hit),
                rec.iterations.map_or("-".into(), |n| n.to_string()),
                rec.error.as_ref().map_or(String::new(), |e| format!("  ({e})")),
            )?,
        }
    }
    out.flush()?;
    eprintln!("{}", tally.summary(&format!("query {} (toi)", w.name)));
    Ok(())
}
