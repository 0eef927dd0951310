//! `proxima demo`: the README's main job. Suite `workcell` (see [`crate::workcell_demo`]): the
//! robot workcell monitored every 1 kHz cycle, cross-checked against brute force, with plots.
//! Suite `reference`: the reference's worked examples and the Siconos LCP test problems, solved
//! with Lemke's method, then geometric queries (a box–box distance with its certificate and
//! the reference's listings 4, 8 and 9), as compact tables (or JSON Lines). Suite `all` (the
//! default) runs both: in text the workcell first; in JSON the reference records first so
//! that the last line is the workcell summary.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use proxima_geom::lcp_queries::{
    AlignedBox3, BoxN, CertifySettings, CylinderData, DistanceOutput, box_box_distance_f64,
    triangle_aligned_box_distance, triangle_aligned_box_distance_f64, triangle_cylinder_intersection,
    triangle_cylinder_intersection_f64,
};
use proxima_geom::shape::{ConvexPolytope, Cuboid, Cylinder};
use proxima_geom::{
    Algorithm, Arithmetic, GeomError, Intersection, Pose, QuerySettings, Shape, distance, intersects,
};
use proxima_lcp::io::read_siconos_lcp;
use proxima_lcp::{Field, Lcp, LcpSolution, LcpStatus, LemkeSettings, QuadraticField, Rational, solve_lemke};
use serde_json::{Value, json};

use proxima_cli_support::exit;

use crate::scalar::{self, Scalar};
use crate::siconos_data::SICONOS_FILES;
use crate::solve::Format;

/// Arguments of `proxima demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Output format: a table, or one JSON object per problem plus a summary line.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Directory of Siconos `lcp_*.dat` files to solve instead of the built-in copies of
    /// `testdata/siconos-lcp`.
    #[arg(long)]
    pub siconos_dir: Option<PathBuf>,
    /// Directory for the plots (SVG), created if missing.
    #[arg(long, default_value = "target/proxima-demo")]
    pub out: PathBuf,
    /// A scene file (JSON, see `proxima_scene::scene_file`) instead of the embedded W25
    /// workcell; the scaled scene is then skipped.
    #[arg(long)]
    pub scene: Option<PathBuf>,
    /// Cycles to run (default: the scene's own count, 4000 for the embedded W25 cell).
    #[arg(long)]
    pub cycles: Option<usize>,
    /// Cycles of the scaled scene (3 arms among 100 obstacles, ~5000 pairs); 0 skips it.
    #[arg(long, default_value_t = 600)]
    pub scale_cycles: usize,
    /// The Panda URDF of the real-robot cell (default: the repository's
    /// `testdata/robots/panda/panda.urdf`).
    #[arg(long)]
    pub panda_urdf: Option<PathBuf>,
    /// Cycles of the real-robot cell (two Pandas); 0 skips it.
    #[arg(long, default_value_t = 4000)]
    pub robot_cycles: usize,
    /// Which part of the demo to run.
    #[arg(long, value_enum, default_value_t = Suite::All)]
    pub suite: Suite,
}

/// The parts of `proxima demo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Suite {
    /// The workcell, then the reference listings (JSON: reference first, workcell summary last).
    All,
    /// The robot workcell only.
    Workcell,
    /// The LCP and geometry reference listings only.
    Reference,
}

/// Runs `proxima demo`.
pub fn run(args: &DemoArgs) -> Result<()> {
    let text = args.format == Format::Text;
    let panda = args.panda_urdf.clone().unwrap_or_else(default_panda_urdf);
    let workcell = || {
        crate::workcell_demo::run(
            args.scene.as_deref(),
            args.cycles,
            args.scale_cycles,
            Some((panda.as_path(), args.robot_cycles)),
            &args.out,
            text,
        )
    };
    match args.suite {
        Suite::Workcell => workcell(),
        Suite::Reference => run_reference(args),
        Suite::All if text => {
            workcell()?;
            println!();
            run_reference(args)
        }
        Suite::All => {
            run_reference(args)?;
            workcell()
        }
    }
}

/// The repository's Panda description: next to the sources the binary was built from, else
/// relative to the current directory.
fn default_panda_urdf() -> PathBuf {
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/robots/panda/panda.urdf");
    if built.is_file() { built } else { PathBuf::from("testdata/robots/panda/panda.urdf") }
}

/// What a correct solver must report.
#[derive(Debug, Clone, PartialEq)]
enum Expect {
    /// Some solution exists: a certified solution is expected.
    Solvable,
    /// This exact z is the unique solution.
    Exactly(Vec<&'static str>),
    /// No solution exists: `no_solution` is expected.
    NoSolution,
}

struct Row {
    group: &'static str,
    name: String,
    n: usize,
    scalar: &'static str,
    status: String,
    path: String,
    path_detail: String,
    pivots: Option<usize>,
    residual: Option<f64>,
    residual_json: Value,
    time: Option<Duration>,
    ok: bool,
    note: Option<String>,
}

/// The worked examples of the reference (Eberly, "Convex quadratic programming"): M rows, q.
/// A worked example: name, rows of M, q, what a correct solver reports.
type Example = (&'static str, Vec<Vec<i64>>, Vec<i64>, Expect);

fn examples() -> Vec<Example> {
    vec![
        (
            "ex1 (LP, unique)",
            vec![vec![0, 0, 1, -1], vec![0, 0, 1, -2], vec![-1, -1, 0, 0], vec![1, 2, 0, 0]],
            vec![2, -1, 3, -2],
            Expect::Solvable,
        ),
        (
            "ex2 (LP, many)",
            vec![
                vec![0, 0, -1, -1, 1, 0],
                vec![0, 0, -1, -1, 0, 1],
                vec![1, 1, 0, 0, 0, 0],
                vec![1, 1, 0, 0, 0, 0],
                vec![-1, 0, 0, 0, 0, 0],
                vec![0, -1, 0, 0, 0, 0],
            ],
            vec![1, 1, -1, -2, 2, 2],
            Expect::Solvable,
        ),
        (
            "ex3 (LP, none)",
            vec![vec![0, 0, -1], vec![0, 0, -1], vec![1, 1, 0]],
            vec![2, -1, 1],
            Expect::NoSolution,
        ),
        (
            "ex5 (QP)",
            vec![vec![1, 0, -2], vec![0, 2, -1], vec![2, 1, 0]],
            vec![-1, -1, -1],
            Expect::Exactly(vec!["1", "1/2", "0"]),
        ),
    ]
}

fn build<T: Scalar>(m: &[Vec<i64>], q: &[i64]) -> Option<Lcp<T>> {
    let rows = m.iter().map(|r| r.iter().map(|&v| T::from_i64(v)).collect()).collect();
    Lcp::from_rows(rows, q.iter().map(|&v| T::from_i64(v)).collect()).ok()
}

fn check<T: Scalar>(lcp: &Lcp<T>, sol: &LcpSolution<T>, expect: &Expect) -> bool {
    let certified = sol.status.is_solved()
        && scalar::residual_ok(&sol.residual.min_map_inf, lcp.view().scale(), lcp.n())
        && sol.residual.min_z.to_f64() >= 0.0;
    match expect {
        Expect::Solvable => certified,
        Expect::NoSolution => sol.status == LcpStatus::NoSolution,
        Expect::Exactly(z) => {
            certified
                && z.len() == sol.z.len()
                && z.iter().zip(&sol.z).all(|(e, got)| match T::parse_scalar(e) {
                    Ok(e) if T::EXACT => e == *got,
                    Ok(e) => (e.to_f64() - got.to_f64()).abs() <= 1e-9,
                    Err(_) => false,
                })
        }
    }
}

fn solve_row<T: Scalar>(group: &'static str, name: String, lcp: &Lcp<T>, expect: &Expect) -> Row {
    let settings = LemkeSettings::default();
    let start = Instant::now();
    let result = exit::catch(|| solve_lemke(lcp, &settings));
    let time = start.elapsed();
    let base = Row {
        group,
        name,
        n: lcp.n(),
        scalar: T::LABEL,
        status: String::new(),
        path: "-".into(),
        path_detail: "-".into(),
        pivots: None,
        residual: None,
        residual_json: Value::Null,
        time: None,
        ok: false,
        note: None,
    };
    match result {
        Ok(Ok(sol)) => Row {
            status: sol.status.as_str().to_string(),
            path: sol.path.as_str().to_string(),
            path_detail: sol.path.to_string(),
            pivots: Some(sol.pivots),
            residual: Some(sol.residual.min_map_inf.to_f64()),
            residual_json: sol.residual.min_map_inf.to_json(),
            time: Some(time),
            ok: check(lcp, &sol, expect),
            ..base
        },
        Ok(Err(e)) => Row { status: "error".into(), note: Some(e.to_string()), ..base },
        Err(panic) => Row { status: "panic".into(), note: Some(panic), ..base },
    }
}

/// The Siconos problems: the `lcp_*.dat` files of `--siconos-dir` when given (`None` when it is
/// not a directory), else the copies compiled into the binary from `testdata/siconos-lcp`.
/// Each entry: (name, file text or the read error), sorted by name.
fn siconos_sources(explicit: Option<&Path>) -> Option<(String, Vec<SiconosFile>)> {
    let Some(dir) = explicit else {
        let mut files: Vec<SiconosFile> =
            SICONOS_FILES.iter().map(|(name, text)| (name.to_string(), Ok(text.to_string()))).collect();
        files.sort_by(|x, y| x.0.cmp(&y.0));
        return Some(("testdata/siconos-lcp, built in".into(), files));
    };
    let entries = std::fs::read_dir(dir).ok()?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
        .collect();
    paths.sort();
    let files = paths
        .iter()
        .map(|path| {
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            (name, std::fs::read_to_string(path).map_err(|e| e.to_string()))
        })
        .collect();
    Some((dir.display().to_string(), files))
}

/// A Siconos problem file: its name and its text, or the error reading it.
type SiconosFile = (String, Result<String, String>);

fn siconos_expect(name: &str) -> Expect {
    match name {
        // The README: no solution (a correct solver reports "no solution").
        "lcp_Pang_isolated_sol_perturbed" => Expect::NoSolution,
        "lcp_exp_murty" => Expect::Exactly(vec!["0", "0", "0", "0", "0", "1"]),
        "lcp_exp_murty2" => Expect::Exactly(vec!["0", "0", "0", "0", "0", "64"]),
        _ => Expect::Solvable,
    }
}

fn siconos_rows(files: &[SiconosFile]) -> Vec<Row> {
    files
        .iter()
        .map(|(name, read)| {
            let name = name.clone();
            let expect = siconos_expect(&name);
            match read.clone().and_then(|text| read_siconos_lcp(&text).map_err(|e| e.to_string())) {
                Ok(lcp) => solve_row("siconos", name, &lcp, &expect),
                Err(e) => Row {
                    group: "siconos",
                    name,
                    n: 0,
                    scalar: f64::LABEL,
                    status: "read_error".into(),
                    path: "-".into(),
                    path_detail: "-".into(),
                    pivots: None,
                    residual: None,
                    residual_json: Value::Null,
                    time: None,
                    ok: false,
                    note: Some(e),
                },
            }
        })
        .collect()
}

fn print_header() {
    println!(
        "{:<34} {:>3}  {:<8}  {:<17} {:<13} {:>6}  {:>8}  {:>9}  check",
        "problem", "n", "scalar", "status", "path", "pivots", "residual", "time"
    );
}

fn print_row(row: &Row) {
    println!(
        "{:<34} {:>3}  {:<8}  {:<17} {:<13} {:>6}  {:>8}  {:>9}  {}{}",
        row.name,
        row.n,
        row.scalar,
        row.status,
        row.path,
        row.pivots.map_or("-".into(), |p| p.to_string()),
        row.residual.map_or("-".into(), scalar::fmt_residual),
        row.time.map_or("-".into(), scalar::fmt_duration),
        if row.ok { "ok" } else { "UNEXPECTED" },
        row.note.as_ref().map_or(String::new(), |n| format!("  ({})", exit::one_line(n))),
    );
}

fn row_json(row: &Row) -> Value {
    json!({
        "group": row.group,
        "name": row.name,
        "n": row.n,
        "scalar": row.scalar,
        "status": row.status,
        "path": row.path_detail,
        "pivots": row.pivots,
        "residual": row.residual_json,
        "time_ns": row.time.map(|t| u64::try_from(t.as_nanos()).unwrap_or(u64::MAX)),
        "check": if row.ok { "ok" } else { "unexpected" },
        "note": row.note,
    })
}

/// The reference suite: LCP examples, Siconos problems, geometry listings.
fn run_reference(args: &DemoArgs) -> Result<()> {
    let text = args.format == Format::Text;
    let mut rows = Vec::new();
    if text {
        println!("Proxima demo: Lemke's method (lexicographic anti-cycling, certified fallbacks)");
        println!();
        println!("Worked examples (Eberly, \"Convex quadratic programming\"), as LCPs:");
        print_header();
    }
    for (name, m, q, expect) in examples() {
        let mut group_rows = Vec::new();
        if let Some(lcp) = build::<f64>(&m, &q) {
            group_rows.push(solve_row("examples", name.to_string(), &lcp, &expect));
        }
        if name.starts_with("ex5")
            && let Some(lcp) = build::<Rational>(&m, &q)
        {
            group_rows.push(solve_row("examples", format!("{name} exact"), &lcp, &expect));
        }
        for row in group_rows {
            if text {
                print_row(&row);
            } else {
                println!("{}", row_json(&row));
            }
            rows.push(row);
        }
    }
    let sources = siconos_sources(args.siconos_dir.as_deref());
    if text {
        println!();
    }
    match &sources {
        Some((from, files)) => {
            if text {
                println!("Siconos LCP test problems ({from}):");
                print_header();
            }
            for row in siconos_rows(files) {
                if text {
                    print_row(&row);
                } else {
                    println!("{}", row_json(&row));
                }
                rows.push(row);
            }
        }
        None => {
            let msg = "Siconos test problems not found (--siconos-dir is not a directory); skipped";
            if text {
                println!("{msg}");
            } else {
                eprintln!("{msg}");
            }
        }
    }
    if text {
        println!();
        println!("Geometry (proxima-geom): box-box with its certificate; reference listings 4, 8, 9;");
        println!("test-intersection by vertex LP (exact at contact) and cylinder SAT:");
        print_geo_header();
    }
    let geo = geometry_rows();
    for row in &geo {
        if text {
            print_geo_row(row);
        } else {
            println!("{}", geo_row_json(row));
        }
    }
    if text {
        println!(
            "(*) the article's f64 test with eps = 1e-4 calls these cubes colliding; exact says separated"
        );
    }
    let geo_ok = geo.iter().filter(|r| matches!(r.check, GeoCheck::Ok | GeoCheck::Info)).count();
    let geo_unavailable = geo.iter().filter(|r| r.check == GeoCheck::Unavailable).count();
    let geo_unexpected = geo.len() - geo_ok - geo_unavailable;
    let ok = rows.iter().filter(|r| r.ok).count() + geo_ok;
    let unexpected = rows.len() + geo.len() - ok - geo_unavailable;
    let total = rows.len() + geo.len();
    if text {
        println!();
        let unavailable = if geo_unavailable > 0 {
            format!(", {geo_unavailable} not yet available")
        } else {
            String::new()
        };
        println!("summary: {total} problems, {ok} as expected, {unexpected} unexpected{unavailable}");
    } else {
        let summary = json!({"summary": {
            "problems": total,
            "as_expected": ok,
            "unexpected": unexpected,
            "not_yet_available": geo_unavailable,
            "geometry_unexpected": geo_unexpected,
            "siconos_dir": sources.as_ref().map(|(from, _)| from.clone()),
        }});
        println!("{summary}");
    }
    Ok(())
}

/// How a geometry row is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GeoCheck {
    Ok,
    Unexpected,
    /// Informational (no expected value, e.g. the raw f64 run of listing 4).
    Info,
    /// The kernel or API is not implemented yet.
    Unavailable,
}

impl GeoCheck {
    fn from_bool(ok: bool) -> Self {
        if ok { GeoCheck::Ok } else { GeoCheck::Unexpected }
    }
    fn as_str(self) -> &'static str {
        match self {
            GeoCheck::Ok => "ok",
            GeoCheck::Unexpected => "unexpected",
            GeoCheck::Info => "info",
            GeoCheck::Unavailable => "not yet available",
        }
    }
}

/// One geometry row of the demo.
struct GeoRow {
    name: &'static str,
    arithmetic: &'static str,
    result: String,
    path: String,
    time: Option<Duration>,
    check: GeoCheck,
    note: Option<String>,
}

/// Runs `f` timed; a panic or an error becomes a row that says why.
fn geo_row<R>(
    name: &'static str,
    arithmetic: &'static str,
    f: impl FnOnce() -> Result<R, GeomError>,
    judge: impl FnOnce(&R) -> (String, String, GeoCheck),
) -> GeoRow {
    let start = Instant::now();
    let out = exit::catch(f);
    let time = start.elapsed();
    let base = GeoRow {
        name,
        arithmetic,
        result: "-".into(),
        path: "-".into(),
        time: None,
        check: GeoCheck::Unavailable,
        note: None,
    };
    match out {
        Ok(Ok(r)) => {
            let (result, path, check) = judge(&r);
            GeoRow { result, path, time: Some(time), check, ..base }
        }
        Ok(Err(e @ GeomError::Unsupported { .. })) => GeoRow { note: Some(e.to_string()), ..base },
        Ok(Err(e)) => GeoRow { check: GeoCheck::Unexpected, note: Some(e.to_string()), ..base },
        Err(panic) if panic.contains("not yet implemented") || panic.contains("not implemented") => {
            GeoRow { note: Some(exit::one_line(&panic)), ..base }
        }
        Err(panic) => GeoRow {
            check: GeoCheck::Unexpected,
            note: Some(format!("panic: {}", exit::one_line(&panic))),
            ..base
        },
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1.0)
}

/// Listing 4's triangle and aligned box (f64 inputs as written in the reference).
#[allow(clippy::excessive_precision)]
fn listing4() -> ([[f64; 3]; 3], AlignedBox3<f64>) {
    let tri = [[0.5, 0.5, 1.5], [0.500000000000000178, 25.5, 1.5], [-0.500000000000000355, 0.5, 1.5]];
    let b = AlignedBox3 {
        min: [-28.666800635711962, 12.285771701019407, -48.666800635711965],
        max: [-20.476286168365689, 20.476286168365682, -40.476286168365689],
    };
    (tri, b)
}

/// The exact distance of listing 4 (rational arithmetic in the reference).
#[allow(clippy::excessive_precision)]
const LISTING4_DISTANCE: f64 = 46.6845780373756085;

fn rational3(v: &[f64; 3]) -> Result<[Rational; 3], GeomError> {
    let mut out = [Rational::zero(), Rational::zero(), Rational::zero()];
    for (o, x) in out.iter_mut().zip(v) {
        *o = Rational::from_f64_exact(*x).ok_or(GeomError::NonFinite { what: "input" })?;
    }
    Ok(out)
}

fn qf3(v: [i64; 3]) -> [QuadraticField; 3] {
    v.map(|x| QuadraticField::from_rational(Rational::from_integer(x)))
}

fn param_text<T: ToString>(p: &[T; 2]) -> String {
    format!("(s, t) = ({}, {})", p[0].to_string(), p[1].to_string())
}

fn geometry_rows() -> Vec<GeoRow> {
    let mut rows = Vec::new();
    let cs = CertifySettings::default();

    // Box–box: unit-half-extent cube at the origin; a cube of half extent 1/2 turned 45° about
    // z at (3, 0, 0): its edge at x = 3 − √2/2 is nearest, distance 2 − √2/2.
    let expected = 2.0 - std::f64::consts::FRAC_1_SQRT_2;
    let c = std::f64::consts::FRAC_1_SQRT_2;
    let rot = [[c, -c, 0.0], [c, c, 0.0], [0.0, 0.0, 1.0]];
    rows.push(geo_row(
        "box-box distance()",
        "certified",
        || {
            let a = Shape::Cuboid(Cuboid::new([1.0; 3])?);
            let b = Shape::Cuboid(Cuboid::new([0.5; 3])?);
            distance(&a, &Pose::identity(), &b, &Pose::new(rot, [3.0, 0.0, 0.0])?, &QuerySettings::default())
        },
        |r| {
            let (d, cert) = (r.distance(), r.certificate);
            let ok = close(d, expected, 1e-12) && cert.lower <= d && d <= cert.upper && cert.gap() <= 1e-9;
            (
                format!("d = {d} in [{}, {}]", cert.lower, cert.upper),
                r.path.to_string(),
                GeoCheck::from_bool(ok),
            )
        },
    ));
    rows.push(geo_row(
        "box-box kernel (3D fast path)",
        "certified",
        || {
            let a = BoxN {
                center: [0.0; 3],
                axes: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                half_extents: [1.0; 3],
            };
            // axes[j] = column j of the rotation.
            let b = BoxN {
                center: [3.0, 0.0, 0.0],
                axes: [[c, c, 0.0], [-c, c, 0.0], [0.0, 0.0, 1.0]],
                half_extents: [0.5; 3],
            };
            box_box_distance_f64(&a, &b, &cs)
        },
        |r| {
            let d = r.distance_f64();
            let cert = r.certificate;
            let ok = close(d, expected, 1e-12)
                && cert.is_some_and(|c| c.lower <= d && d <= c.upper && c.gap() <= 1e-9 * c.scale);
            let bracket = cert.map_or(String::new(), |c| format!(" in [{}, {}]", c.lower, c.upper));
            (format!("d = {d}{bracket}"), r.path.as_str().into(), GeoCheck::from_bool(ok))
        },
    ));

    // Listing 4: near-parallel triangle / aligned box; the f64 LCP alone may land on a wrong
    // vertex, the certified path re-solves exactly.
    let (tri, abox) = listing4();
    let l4 = |r: &DistanceOutput<f64, 3, 3>, check: bool| {
        let d = r.distance_f64();
        let bracket = r.certificate.map_or(String::new(), |c| format!(" in [{}, {}]", c.lower, c.upper));
        let verdict =
            if check { GeoCheck::from_bool(close(d, LISTING4_DISTANCE, 1e-12)) } else { GeoCheck::Info };
        (format!("d = {d}{bracket}"), r.path.as_str().to_string(), verdict)
    };
    rows.push(geo_row(
        "listing 4 triangle-aligned box",
        "f64 only",
        || triangle_aligned_box_distance_f64(&tri, &abox, &CertifySettings { exact_fallback: false, ..cs }),
        |r| l4(r, false),
    ));
    rows.push(geo_row(
        "listing 4 triangle-aligned box",
        "certified",
        || triangle_aligned_box_distance_f64(&tri, &abox, &cs),
        |r| l4(r, true),
    ));
    rows.push(geo_row(
        "listing 4 triangle-aligned box",
        "exact",
        || {
            let rt = [rational3(&tri[0])?, rational3(&tri[1])?, rational3(&tri[2])?];
            let rb = AlignedBox3 { min: rational3(&abox.min)?, max: rational3(&abox.max)? };
            triangle_aligned_box_distance(&rt, &rb)
        },
        |r| {
            let d = r.distance_f64();
            (
                format!("d = {d}"),
                r.path.as_str().into(),
                GeoCheck::from_bool(close(d, LISTING4_DISTANCE, 1e-12)),
            )
        },
    ));

    // Listing 8: triangle–cylinder, caps inactive: (s, t) = (0, 11/30).
    let tri8 = [[0.5, -1.0, 0.0], [3.0, 1.0, 0.0], [0.5, 2.0, 0.0]];
    let n14 = 14f64.sqrt();
    let unit = [1.0 / n14, 2.0 / n14, 3.0 / n14];
    rows.push(geo_row(
        "listing 8 triangle-cylinder",
        "f64 (unit axis)",
        || triangle_cylinder_intersection_f64(&tri8, &[0.0; 3], &unit, 1.0, 2.0, &cs),
        |r| {
            let ok = r.intersects && r.param[0].abs() <= 1e-12 && close(r.param[1], 11.0 / 30.0, 1e-12);
            (param_text(&r.param), r.path.as_str().into(), GeoCheck::from_bool(ok))
        },
    ));
    rows.push(geo_row(
        "listing 8 triangle-cylinder",
        "Q(sqrt 14)",
        || {
            let q = |n: i64, d: i64| QuadraticField::from_rational(Rational::new(n, d));
            let tri =
                [[q(1, 2), q(-1, 1), q(0, 1)], [q(3, 1), q(1, 1), q(0, 1)], [q(1, 2), q(2, 1), q(0, 1)]];
            let cyl = CylinderData {
                center: qf3([0, 0, 0]),
                axis: qf3([1, 2, 3]),
                axis_length: QuadraticField::sqrt_of(Rational::from_integer(14))
                    .map_err(|_| GeomError::ZeroAxis { what: "cylinder axis" })?,
                radius: QuadraticField::from_rational(Rational::from_integer(1)),
                height: QuadraticField::from_rational(Rational::from_integer(2)),
            };
            triangle_cylinder_intersection(&tri, &cyl)
        },
        |r| {
            let t = QuadraticField::from_rational(Rational::new(11, 30));
            let ok = r.intersects && r.param[0].is_zero() && r.param[1].sub(&t).is_zero();
            (param_text(&r.param), r.path.as_str().into(), GeoCheck::from_bool(ok))
        },
    ));

    // Listing 9: the triangle crosses a cap plane: s = 1 − √14/7, t = 0.
    let tri9 = [[0.125, 1.0, 1.625], [-0.75, 0.0, 0.25], [-3.0, 0.0, 1.0]];
    let s9 = 1.0 - n14 / 7.0;
    rows.push(geo_row(
        "listing 9 triangle-cylinder",
        "f64 (unit axis)",
        || triangle_cylinder_intersection_f64(&tri9, &[0.0; 3], &unit, 1.0, 2.0, &cs),
        |r| {
            let ok = r.intersects && close(r.param[0], s9, 1e-12) && r.param[1].abs() <= 1e-12;
            (param_text(&r.param), r.path.as_str().into(), GeoCheck::from_bool(ok))
        },
    ));
    rows.push(geo_row(
        "listing 9 triangle-cylinder",
        "Q(sqrt 14)",
        || {
            let q = |n: i64, d: i64| QuadraticField::from_rational(Rational::new(n, d));
            let tri =
                [[q(1, 8), q(1, 1), q(13, 8)], [q(-3, 4), q(0, 1), q(1, 4)], [q(-3, 1), q(0, 1), q(1, 1)]];
            let cyl = CylinderData {
                center: qf3([0, 0, 0]),
                axis: qf3([1, 2, 3]),
                axis_length: QuadraticField::sqrt_of(Rational::from_integer(14))
                    .map_err(|_| GeomError::ZeroAxis { what: "cylinder axis" })?,
                radius: q(1, 1),
                height: q(2, 1),
            };
            triangle_cylinder_intersection(&tri, &cyl)
        },
        |r| {
            let expected = QuadraticField::new(
                Rational::from_integer(1),
                Rational::new(-1, 7),
                Rational::from_integer(14),
            );
            let ok =
                r.intersects && expected.is_ok_and(|s| r.param[0].sub(&s).is_zero()) && r.param[1].is_zero();
            (param_text(&r.param), r.path.as_str().into(), GeoCheck::from_bool(ok))
        },
    ));
    rows.extend(intersection_rows());
    rows
}

/// An axis-aligned cube [x0, x0 + 1] × [0, 1] × [0, 1] as an 8-vertex polytope.
fn cube_vertices(x0: f64) -> Result<Shape, GeomError> {
    let corners = (0..8).map(|k| [x0 + f64::from(k & 1), f64::from(k >> 1 & 1), f64::from(k >> 2 & 1)]);
    Ok(Shape::ConvexPolytope(ConvexPolytope::new(corners.collect())?))
}

fn intersection_text(hit: &Intersection) -> String {
    match hit {
        Intersection::Intersecting { point: Some(p) } => {
            format!("intersecting at ({:.4}, {:.4}, {:.4})", p.x, p.y, p.z)
        }
        Intersection::Intersecting { point: None } => "intersecting".into(),
        Intersection::Separated { direction: Some(n) } => {
            format!("separated along ({:.4}, {:.4}, {:.4})", n.x, n.y, n.z)
        }
        Intersection::Separated { direction: None } => "separated".into(),
        Intersection::Undecided { reason } => format!("undecided: {reason}"),
        #[allow(unreachable_patterns)]
        _ => "other".into(),
    }
}

/// Test-intersection rows (issue 5): the vertex LP, exact at touching contact where the
/// article's 1e-4 epsilon is wrong, and cylinder–cylinder separating axes.
fn intersection_rows() -> Vec<GeoRow> {
    let settings = |algorithm, arithmetic| {
        QuerySettings::default().with_algorithm(algorithm).with_arithmetic(arithmetic)
    };
    let id = Pose::identity();
    let lp_row = |name: &'static str, arith: &'static str, gap: f64, expect_hit: bool, arithmetic| {
        geo_row(
            name,
            arith,
            || {
                let (a, b) = (cube_vertices(0.0)?, cube_vertices(1.0 + gap)?);
                intersects(&a, &id, &b, &id, &settings(Algorithm::Lp, arithmetic))
            },
            |hit| {
                let ok = matches!(hit, Intersection::Intersecting { .. }) == expect_hit
                    && !matches!(hit, Intersection::Undecided { .. });
                (intersection_text(hit), "lp".into(), GeoCheck::from_bool(ok))
            },
        )
    };
    let mut rows = vec![
        lp_row("LP cubes touching (face)", "rational", 0.0, true, Arithmetic::Exact),
        lp_row("LP cubes 5e-5 apart (*)", "rational", 5e-5, false, Arithmetic::Exact),
        lp_row("LP cubes 5e-5 apart", "f64", 5e-5, false, Arithmetic::Certified),
    ];
    let cyl_row = |name: &'static str, offset: f64, expect_hit: bool| {
        geo_row(
            name,
            "f64",
            move || {
                let c = Shape::Cylinder(Cylinder::new(1.0, 2.0)?);
                // B's axis along x (a quarter turn about y), shifted along y.
                let pb = Pose::new([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]], [0.0, offset, 0.0])?;
                intersects(&c, &Pose::identity(), &c, &pb, &settings(Algorithm::Sat, Arithmetic::Certified))
            },
            move |hit| {
                let ok = matches!(hit, Intersection::Intersecting { .. }) == expect_hit;
                (intersection_text(hit), "sat".into(), GeoCheck::from_bool(ok))
            },
        )
    };
    rows.push(cyl_row("SAT cylinders 2.5 apart", 2.5, false));
    rows.push(cyl_row("SAT cylinders touching", 2.0, true));
    rows.push(cyl_row("SAT cylinders overlapping", 1.5, true));
    rows
}

fn print_geo_header() {
    println!("{:<31} {:<16} {:<66} {:<16} {:>9}  check", "query", "arithmetic", "result", "path", "time");
}

fn print_geo_row(row: &GeoRow) {
    println!(
        "{:<31} {:<16} {:<66} {:<16} {:>9}  {}{}",
        row.name,
        row.arithmetic,
        row.result,
        row.path,
        row.time.map_or("-".into(), scalar::fmt_duration),
        row.check.as_str(),
        row.note.as_ref().map_or(String::new(), |n| format!("  ({})", exit::one_line(n))),
    );
}

fn geo_row_json(row: &GeoRow) -> Value {
    json!({
        "group": "geometry",
        "name": row.name,
        "arithmetic": row.arithmetic,
        "result": row.result,
        "path": row.path,
        "time_ns": row.time.map(|t| u64::try_from(t.as_nanos()).unwrap_or(u64::MAX)),
        "check": row.check.as_str(),
        "note": row.note,
    })
}
