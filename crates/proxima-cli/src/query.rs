//! `proxima query`: distance or intersection for every query of a geometry workload file
//! (`../shared/bench/geometry/FORMAT.md`), one JSON line (or text row) per query.
//!
//! A pair the library cannot handle yet (`GeomError::Unsupported`, or a body that is still
//! `todo!()`) is reported with `"status":"unsupported"` and the message in `"error"`; any
//! other per-query failure is `"status":"error"`. Neither stops the run. A bad file (missing,
//! malformed JSON, invalid shape or pose) is an input error: exit 2 with one line.

use std::io::{BufWriter, Write};
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueEnum};
use proxima_cli_support::outcome::{Outcome, ResultFields, Tally, run_distance, run_intersects};
use proxima_cli_support::workload;
use proxima_geom::{Acceleration, Algorithm, Arithmetic, GjkSettings, Intersection, QuerySettings};
use serde::Serialize;

/// Which query to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Op {
    /// Distance with witness points and a certificate.
    Distance,
    /// Boolean intersection test (touching counts).
    Intersects,
    /// Certified time of impact over the motion of a CCD workload (shared/bench/ccd/FORMAT.md).
    Toi,
}

/// `--algorithm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AlgorithmArg {
    /// The dispatcher's choice.
    Auto,
    /// Closed-form formulas only.
    #[value(name = "closed_form")]
    ClosedForm,
    /// The pair as a convex QP solved by Lemke's method.
    Lcp,
    /// `--op intersects` only: the vertex LP collision test (polytopes, boxes, triangles...).
    Lp,
    /// `--op intersects` only: separating axes for cylinder pairs.
    Sat,
    /// GJK (EPA for penetration) on support maps: every pair of bounded shapes.
    Gjk,
    /// The ellipsoid solvers (ellipsoid with point, sphere, ellipsoid, polytope, polyhedron).
    Ellipsoid,
    /// DQP3 on boxes, convex polytopes and polyhedra (converted to facet form per query).
    Dqp3,
}

impl AlgorithmArg {
    /// The library value.
    pub fn to_geom(self) -> Algorithm {
        match self {
            AlgorithmArg::Auto => Algorithm::Auto,
            AlgorithmArg::ClosedForm => Algorithm::ClosedForm,
            AlgorithmArg::Lcp => Algorithm::Lcp,
            AlgorithmArg::Lp => Algorithm::Lp,
            AlgorithmArg::Sat => Algorithm::Sat,
            AlgorithmArg::Gjk => Algorithm::Gjk,
            AlgorithmArg::Ellipsoid => Algorithm::Ellipsoid,
            AlgorithmArg::Dqp3 => Algorithm::Dqp3,
        }
    }
}

/// `--arithmetic`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ArithmeticArg {
    /// f64 with certification and exact re-solve when needed.
    Certified,
    /// f64 only.
    Float,
    /// Exact rational arithmetic.
    Exact,
}

impl ArithmeticArg {
    /// The library value.
    pub fn to_geom(self) -> Arithmetic {
        match self {
            ArithmeticArg::Certified => Arithmetic::Certified,
            ArithmeticArg::Float => Arithmetic::Float,
            ArithmeticArg::Exact => Arithmetic::Exact,
        }
    }
}

/// Output format of `proxima query`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum QueryFormat {
    /// One JSON object per query.
    Jsonl,
    /// One aligned text row per query.
    Text,
}

/// Arguments of `proxima query`.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// Workload file (JSON, shared/bench/geometry/FORMAT.md; a CCD workload,
    /// shared/bench/ccd/FORMAT.md, for `--op toi`).
    pub file: PathBuf,
    /// The query to run on every pair.
    #[arg(long, value_enum, default_value_t = Op::Distance)]
    pub op: Op,
    /// Algorithm (auto = the dispatcher's choice for each pair).
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Auto)]
    pub algorithm: AlgorithmArg,
    /// Arithmetic of LCP-formulated queries.
    #[arg(long, value_enum, default_value_t = ArithmeticArg::Certified)]
    pub arithmetic: ArithmeticArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = QueryFormat::Jsonl)]
    pub format: QueryFormat,
    /// GJK direction rule (pairs answered by GJK).
    #[arg(long, value_enum, default_value_t = AccelerationArg::None)]
    pub acceleration: AccelerationArg,
}

/// `--acceleration`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AccelerationArg {
    /// Classic GJK.
    None,
    /// Nesterov momentum.
    Nesterov,
    /// Polyak heavy-ball averaging.
    Polyak,
}

impl AccelerationArg {
    /// The library value.
    pub fn to_geom(self) -> Acceleration {
        match self {
            AccelerationArg::None => Acceleration::None,
            AccelerationArg::Nesterov => Acceleration::Nesterov,
            AccelerationArg::Polyak => Acceleration::Polyak,
        }
    }
}

/// One line of `proxima query` output.
#[derive(Debug, Clone, Serialize)]
struct QueryRecord<'a> {
    i: usize,
    a: &'a str,
    b: &'a str,
    #[serde(flatten)]
    fields: ResultFields,
    status: &'static str,
    path: Option<String>,
    /// `intersects` only: a separating direction when the library gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    direction: Option<[f64; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

fn fmt_opt(x: Option<f64>) -> String {
    x.map_or("-".into(), |x| format!("{x}"))
}

fn text_row(rec: &QueryRecord<'_>) -> String {
    let f = &rec.fields;
    let hit = f.intersects.map_or("-", |b| if b { "yes" } else { "no" });
    let mut line = format!(
        "{:>5}  {:<12} {:<12} {:<11} {:>19}  {:>19}  {:>19}  {:<10} {} {}",
        rec.i,
        rec.a,
        rec.b,
        rec.status,
        fmt_opt(f.distance),
        fmt_opt(f.lower),
        fmt_opt(f.upper),
        hit,
        f.algorithm.unwrap_or("-"),
        rec.path.as_deref().unwrap_or("-"),
    );
    if let Some(e) = &rec.error {
        line.push_str(&format!("  ({e})"));
    }
    line
}

/// Runs `proxima query`.
pub fn run(args: &QueryArgs) -> Result<()> {
    if args.op == Op::Toi {
        return crate::query_toi::run(args);
    }
    let w = workload::load(&args.file)?;
    let settings = QuerySettings::default()
        .with_algorithm(args.algorithm.to_geom())
        .with_arithmetic(args.arithmetic.to_geom())
        .with_gjk(GjkSettings { acceleration: args.acceleration.to_geom(), ..GjkSettings::default() });
    settings.validate()?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if args.format == QueryFormat::Text {
        writeln!(
            out,
            "{:>5}  {:<12} {:<12} {:<11} {:>19}  {:>19}  {:>19}  {:<10} algorithm path",
            "i", "a", "b", "status", "distance", "lower", "upper", "intersects"
        )?;
    }
    let mut tally = Tally::default();
    for (i, q) in w.queries.iter().enumerate() {
        let (sa, sb) = (&w.shapes[q.a], &w.shapes[q.b]);
        let (fields, path, direction, status, error) = match args.op {
            Op::Distance => {
                let o = run_distance(sa, &q.pose_a, sb, &q.pose_b, &settings);
                let (fields, path) = ResultFields::of_distance(&o);
                (fields, path, None, o.status(), o.error().map(str::to_string))
            }
            Op::Intersects => {
                let o = run_intersects(sa, &q.pose_a, sb, &q.pose_b, &settings);
                let direction = match &o {
                    Outcome::Ok(Intersection::Separated { direction: Some(d) }) => Some([d.x, d.y, d.z]),
                    _ => None,
                };
                let fields = ResultFields::of_intersects(&o, settings.algorithm);
                match &o {
                    // No verdict is data, not an answer: say so instead of guessing.
                    Outcome::Ok(Intersection::Undecided { reason }) => {
                        (fields, None, direction, "undecided", Some((*reason).to_string()))
                    }
                    _ => (fields, None, direction, o.status(), o.error().map(str::to_string)),
                }
            }
            Op::Toi => unreachable!("answered by query_toi"),
        };
        let rec = QueryRecord { i, a: &w.ids[q.a], b: &w.ids[q.b], fields, status, path, direction, error };
        tally.add(status);
        match args.format {
            QueryFormat::Jsonl => {
                serde_json::to_writer(&mut out, &rec)?;
                writeln!(out)?;
            }
            QueryFormat::Text => writeln!(out, "{}", text_row(&rec))?,
        }
    }
    out.flush()?;
    eprintln!("{}", tally.summary(&format!("query {}", w.name)));
    Ok(())
}
