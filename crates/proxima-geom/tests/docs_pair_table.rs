//! The pair × algorithm table of the user guide (`docs/pairs.md`) is generated from the
//! dispatcher itself: for one representative of every shape kind, each pair is queried under
//! `Auto` (certified and exact arithmetic) and with every algorithm forced, and the table
//! records what answered or that the pair is unsupported. The test fails when the guide's
//! table differs from what the code does now; regenerate it with `scripts/regen-docs.sh`
//! (or `PROXIMA_BLESS=1 cargo test -p proxima-geom --test docs_pair_table`).

use std::path::PathBuf;

use proxima_geom::shape::{
    AlignedBox, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Line, MinkowskiSum, Point,
    Polyhedron, Rounded, Segment, Sphere, Triangle,
};
use proxima_geom::{
    Algorithm, Arithmetic, DistanceResult, GeomError, Pose, QueryPath, QuerySettings, Shape, distance,
    intersects,
};

const BEGIN: &str = "<!-- BEGIN GENERATED: pair table (crates/proxima-geom/tests/docs_pair_table.rs) -->";
const END: &str = "<!-- END GENERATED: pair table -->";

/// One shape per kind, in the `ShapeKind` order (the dispatcher's canonical order).
fn representatives() -> Result<Vec<(String, Shape)>, GeomError> {
    let corners = |h: [f64; 3]| {
        let mut v = Vec::new();
        for sx in [-1.0, 1.0] {
            for sy in [-1.0, 1.0] {
                for sz in [-1.0, 1.0] {
                    v.push([sx * h[0], sy * h[1], sz * h[2]]);
                }
            }
        }
        v
    };
    let slab = |h: [f64; 3]| {
        (0..3)
            .flat_map(|i| {
                [1.0, -1.0].map(|s| {
                    let mut n = [0.0; 3];
                    n[i] = s;
                    (n, h[i])
                })
            })
            .collect::<Vec<_>>()
    };
    Ok(vec![
        ("point".into(), Shape::Point(Point::new([0.1, 0.0, 0.0])?)),
        ("segment".into(), Shape::Segment(Segment::new([-0.3, 0.0, 0.0], [0.3, 0.1, 0.0])?)),
        ("line".into(), Shape::Line(Line::new([0.0, 0.0, 0.0], [0.0, 0.0, 1.0])?)),
        (
            "triangle".into(),
            Shape::Triangle(Triangle::new([0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [0.0, 0.5, 0.1])?),
        ),
        ("cuboid".into(), Shape::Cuboid(Cuboid::new([0.3, 0.4, 0.5])?)),
        ("aligned_box".into(), Shape::AlignedBox(AlignedBox::new([-0.2, -0.3, -0.1], [0.3, 0.2, 0.4])?)),
        ("sphere".into(), Shape::Sphere(Sphere::new(0.4)?)),
        ("capsule".into(), Shape::Capsule(Capsule::new(0.2, 0.3)?)),
        ("cylinder".into(), Shape::Cylinder(Cylinder::new(0.3, 0.4)?)),
        ("ellipsoid".into(), Shape::Ellipsoid(Ellipsoid::new([0.3, 0.4, 0.5])?)),
        (
            "convex_polytope (8 vertices)".into(),
            Shape::ConvexPolytope(ConvexPolytope::new(corners([0.3, 0.35, 0.4]))?),
        ),
        ("polyhedron".into(), Shape::Polyhedron(Polyhedron::new(slab([0.3, 0.3, 0.2]))?)),
        ("cone".into(), Shape::Cone(Cone::new(0.3, 0.4)?)),
        ("rounded".into(), Shape::Rounded(Rounded::new(Shape::Cuboid(Cuboid::new([0.2, 0.2, 0.2])?), 0.1)?)),
        (
            "minkowski_sum".into(),
            Shape::MinkowskiSum(MinkowskiSum::new(
                Shape::Segment(Segment::new([-0.2, 0.0, 0.0], [0.2, 0.0, 0.0])?),
                Pose::identity(),
                Shape::Sphere(Sphere::new(0.1)?),
                Pose::identity(),
            )?),
        ),
    ])
}

/// A polytope above the dispatcher's LCP size limit for point/sphere pairs (16 vertices).
fn big_polytope() -> Result<Shape, GeomError> {
    let v: Vec<[f64; 3]> = (0..20)
        .map(|k| {
            let (t, z) = (k as f64 * 0.7, (k as f64 / 19.0 - 0.5) * 0.6);
            let r = (0.16 - z * z).sqrt();
            [r * t.cos(), r * t.sin(), z]
        })
        .collect();
    let p = ConvexPolytope::new(v)?;
    assert!(p.vertices().len() > 16, "the big polytope keeps more than 16 vertices");
    Ok(Shape::ConvexPolytope(p))
}

/// `Some(answer)` when the dispatcher handles the pair, `None` when it is unsupported; any
/// other error is a bug in the representatives.
fn supported<T>(r: Result<T, GeomError>, what: &str) -> Option<T> {
    match r {
        Ok(x) => Some(x),
        Err(GeomError::Unsupported { .. }) => None,
        Err(e) => panic!("{what}: unexpected error {e}"),
    }
}

fn row(a: &str, sa: &Shape, b: &str, sb: &Shape) -> String {
    // B 3 m away along x (and a little off-axis), turned about z: every pair is separated.
    let c = 0.3f64.cos();
    let s = 0.3f64.sin();
    let pb = Pose::new([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]], [3.0, 0.3, 0.2]).unwrap();
    let pa = Pose::identity();
    let what = format!("{a} – {b}");
    let base = QuerySettings::default();
    let dist = |s: &QuerySettings| supported(distance(sa, &pa, sb, &pb, s), &what);
    let name =
        |r: &Option<DistanceResult>| r.as_ref().map_or("unsupported", |r| r.algorithm.as_str()).to_string();
    let auto = dist(&base);
    let exact =
        dist(&base.clone().with_arithmetic(Arithmetic::Exact)).map_or("unsupported".to_string(), |r| {
            let arithmetic = match r.path {
                QueryPath::Exact | QueryPath::ExactResolve => "exact",
                _ => "f64",
            };
            format!("{}, {arithmetic}", r.algorithm.as_str())
        });
    let mark = |ok: bool| if ok { "✓" } else { "—" }.to_string();
    let forced =
        [Algorithm::ClosedForm, Algorithm::Lcp, Algorithm::Gjk, Algorithm::Ellipsoid, Algorithm::Dqp3]
            .map(|alg| mark(dist(&base.clone().with_algorithm(alg)).is_some()));
    let test_only = [Algorithm::Lp, Algorithm::Sat].map(|alg| {
        mark(supported(intersects(sa, &pa, sb, &pb, &base.clone().with_algorithm(alg)), &what).is_some())
    });
    let mut cells = vec![a.to_string(), b.to_string(), name(&auto), exact];
    cells.extend(forced);
    cells.extend(test_only);
    format!("| {} |", cells.join(" | "))
}

fn render() -> Result<String, GeomError> {
    let shapes = representatives()?;
    let mut out = vec![
        "| A | B | `auto` | `auto`, exact arithmetic | `closed_form` | `lcp` | `gjk` | `ellipsoid` | `dqp3` | `lp` (intersects) | `sat` (intersects) |".to_string(),
        "|---|---|---|---|---|---|---|---|---|---|---|".to_string(),
    ];
    for (i, (a, sa)) in shapes.iter().enumerate() {
        for (b, sb) in &shapes[i..] {
            out.push(row(a, sa, b, sb));
        }
    }
    let big = big_polytope()?;
    for (a, sa) in shapes.iter().filter(|(n, _)| n == "point" || n == "sphere") {
        out.push(row(a, sa, "convex_polytope (20 vertices)", &big));
    }
    Ok(out.join("\n") + "\n")
}

#[test]
fn guide_pair_table_matches_the_dispatcher() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/pairs.md");
    let text = std::fs::read_to_string(&path).expect("docs/pairs.md");
    let start = text.find(BEGIN).expect("docs/pairs.md has the BEGIN marker") + BEGIN.len();
    let end = text.find(END).expect("docs/pairs.md has the END marker");
    let table = render().unwrap();
    let current = text[start..end].trim_start_matches('\n');
    if current == table {
        return;
    }
    if std::env::var_os("PROXIMA_BLESS").is_some() {
        let updated = format!("{}\n{}{}", &text[..start], table, &text[end..]);
        std::fs::write(&path, updated).expect("write docs/pairs.md");
        return;
    }
    panic!(
        "docs/pairs.md's pair table differs from the dispatcher; regenerate it with scripts/regen-docs.sh\n\
         --- generated ---\n{table}"
    );
}
