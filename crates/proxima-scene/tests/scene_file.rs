//! Scene files: the W25 file reproduces the built-in model; bad files give errors naming the
//! field (JSON path) or the line and column; nothing panics.

use proxima_scene::workcell::{self, PrismModel};
use proxima_scene::{SceneError, parse_scene};

const W25: &str = include_str!("data/w25.json");

#[test]
fn w25_file_matches_the_builtin_model() {
    let mut file = parse_scene(W25).unwrap();
    let mut builtin = workcell::w25(PrismModel::BoundingBox, false).unwrap();
    assert_eq!(file.pairs.len(), 25);
    assert_eq!(file.cycles, 4000);
    for c in [0, 172, 1234, 3856] {
        file.set_cycle(c).unwrap();
        builtin.set_cycle(c).unwrap();
        for (p, q) in file.pairs.iter().zip(&builtin.pairs) {
            let (a, b) = (file.world.object(p.a), file.world.object(p.b));
            let (a2, b2) = (builtin.world.object(q.a), builtin.world.object(q.b));
            assert_eq!((&a.name, &b.name), (&a2.name, &b2.name));
            let dist = |x: &proxima_scene::world::Object, y: &proxima_scene::world::Object| {
                proxima_geom::distance(x.shape(), x.pose(), y.shape(), y.pose(), &Default::default())
                    .unwrap()
                    .distance()
            };
            // degrees → radians in a different order of operations: agreement to round-off
            assert!((dist(a, b) - dist(a2, b2)).abs() < 1e-12, "cycle {c} {} - {}", a.name, b.name);
        }
    }
}

#[test]
fn scripted_bodies_and_samples() {
    let text = r#"{"cycles": 3,
      "shapes": [{"id": "s", "type": "sphere", "radius": 0.5}, {"id": "b", "type": "box", "half_extents": [1, 1, 1]}],
      "robots": [{"name": "r", "joints": [{"offset": [0, 0, 0], "axis": "z"}],
                  "links": [{"name": "L", "frame": 1, "shape": "b", "pose": {"translation": [2, 0, 0]}}],
                  "trajectory": {"samples": [[0], [90], [180]], "degrees": true}}],
      "bodies": [{"name": "ball", "shape": "s", "poses": [{"translation": [10, 0, 0]}, {"translation": [9, 0, 0]}]}]}"#;
    let mut cell = parse_scene(text).unwrap();
    assert_eq!(cell.pairs.len(), 1);
    cell.set_cycle(1).unwrap();
    let l = cell.world.object(cell.world.find("L").unwrap());
    assert!((l.pose().translation().y - 2.0).abs() < 1e-12);
    let ball = cell.world.object(cell.world.find("ball").unwrap());
    assert_eq!(ball.pose().translation().x, 9.0);
    cell.set_cycle(7).unwrap(); // past the end: last sample and pose held
    let l = cell.world.object(cell.world.find("L").unwrap());
    assert!((l.pose().translation().x + 2.0).abs() < 1e-12);
}

fn err(text: &str) -> String {
    match parse_scene(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

fn with(path: &str, from: &str, to: &str) -> String {
    assert!(W25.contains(from), "{path}: test pattern {from:?} not in the file");
    W25.replacen(from, to, 1)
}

#[test]
fn bad_files_name_the_field() {
    let cases: Vec<(String, &str)> = vec![
        (
            with("frame", r#""name": "P9", "frame": 4"#, r#""name": "P9", "frame": 9"#),
            "robots[0].links[8].frame",
        ),
        (with("half", r#"[0.31, 0.09, 0.09]"#, r#"[0.31, -0.09, 0.09]"#), "shapes[8].half_extents"),
        (with("axis", r#""axis": "x"}"#, r#""axis": "w"}"#), "robots[0].joints[3].axis"),
        (with("shape id", r#""shape": "jaws""#, r#""shape": "claws""#), "robots[0].links[13].shape"),
        (with("missing", r#""name": "O", "#, ""), "bodies[0].name"),
        (
            with("rotation", "0.8660254037844387, -0.49999999999999994", "0.9, -0.49999999999999994"),
            "bodies[0].pose.rotation",
        ),
        (with("translation", "[1.60, 0.40, 0.25]", "[1.60, 0.40]"), "bodies[0].pose.translation"),
        (with("terms", "[[40, 2, 0]]", r#"[[40, "2", 0]]"#), "robots[0].trajectory.joints[4].terms[0][1]"),
        (with("period", r#""period": 4.0"#, r#""period": 0"#), "robots[0].trajectory.period"),
        (with("selector", r#"["P2", "F"]"#, r#"["P20", "F"]"#), "pairs.exclude[1][0]"),
        (with("dup", r#""name": "P13""#, r#""name": "P12""#), "robots[0]"),
        (
            with(
                "type",
                r#""type": "prism", "sides": 8, "axis": "z""#,
                r#""type": "torus", "sides": 8, "axis": "z""#,
            ),
            "shapes[1].type",
        ),
        (
            with(
                "sides",
                r#""sides": 6, "axis": "y", "apothem": 0.18"#,
                r#""sides": 2, "axis": "y", "apothem": 0.18"#,
            ),
            "shapes[3].sides",
        ),
        (with("dt", r#""dt": 0.001"#, r#""dt": -1"#), "dt"),
        (with("cycles", r#""cycles": 4000"#, r#""cycles": 0"#), "cycles"),
        (
            with(
                "joints",
                r#",
          {"offset": 0, "terms": [[90, 1, 0]]}"#,
                "",
            ),
            "robots[0].trajectory.joints",
        ),
        ("[1, 2]".to_string(), "scene"),
        (r#"{"shapes": []}"#.to_string(), "bodies"),
    ];
    for (text, field) in cases {
        let e = err(&text);
        assert!(e.starts_with(field), "expected an error at {field:?}, got {e:?}");
    }
}

#[test]
fn syntax_errors_give_line_and_column() {
    let broken = W25.replacen("\"cycles\": 4000,", "\"cycles\": 4000,,", 1);
    match parse_scene(&broken) {
        Err(SceneError::Syntax { line, column, .. }) => assert_eq!((line, column), (5, 18)),
        other => panic!("{other:?}"),
    }
    let overflow = W25.replacen("0.10]}", "1e999]}", 1);
    assert!(matches!(parse_scene(&overflow), Err(SceneError::Syntax { .. })));
    assert!(matches!(parse_scene(""), Err(SceneError::Syntax { .. })));
}

/// Truncations and byte flips of a valid file: every one is an `Ok` or an `Err`, never a panic.
#[test]
fn mutated_files_never_panic() {
    let bytes = W25.as_bytes();
    for cut in (0..bytes.len()).step_by(97) {
        let _ = parse_scene(&String::from_utf8_lossy(&bytes[..cut]));
    }
    let flips = [b'0', b'-', b'"', b'[', b'}', b'e', b'9'];
    for (k, pos) in (0..bytes.len()).step_by(53).enumerate() {
        let mut m = bytes.to_vec();
        m[pos] = flips[k % flips.len()];
        let _ = parse_scene(&String::from_utf8_lossy(&m));
    }
}

const TWO_PANDAS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/scenes/two-pandas.json");

/// The shipped scene file describes the demo's real-robot cell: same objects, pairs and
/// distances along the trajectory.
#[test]
fn urdf_robots_in_a_scene_file_match_the_builtin_cell() {
    let mut file = proxima_scene::parse_scene_file(std::path::Path::new(TWO_PANDAS)).unwrap();
    let urdf =
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda/panda.urdf"));
    let mut builtin = workcell::panda_cell(urdf).unwrap();
    assert_eq!(file.world.len(), builtin.world.len());
    assert_eq!(file.pairs.len(), 269);
    let names = |c: &proxima_scene::Workcell| {
        let mut v: Vec<(String, String)> = c
            .pairs
            .iter()
            .map(|p| {
                let (a, b) = (c.world.object(p.a).name.clone(), c.world.object(p.b).name.clone());
                if a < b { (a, b) } else { (b, a) }
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&file), names(&builtin));
    for c in [0, 777, 2500] {
        file.set_cycle(c).unwrap();
        builtin.set_cycle(c).unwrap();
        for o in builtin.world.objects() {
            let f = file.world.object(file.world.find(&o.name).unwrap());
            // degrees/radians and decimal phases written to 17 digits: round-off only
            assert!((f.pose().translation() - o.pose().translation()).norm() < 1e-12, "{} at {c}", o.name);
        }
    }
}

fn robot_scene(robot: &str) -> String {
    format!(
        r#"{{"shapes": [{{"id": "hand", "type": "mesh", "file": "../robots/panda/meshes/collision/hand.obj", "scale": [2, 2, 2]}}],
  "robots": [{robot}],
  "bodies": [{{"name": "big hand", "shape": "hand", "pose": {{"xyz": [0.6, 0, 0.3], "rpy": [0, 1.5707963267948966, 0]}}}}]}}"#
    )
}

const WAYPOINTS: &str = r#"{"name": "p", "urdf": "../robots/panda/panda.urdf", "trajectory": {"degrees": true,
  "waypoints": [{"t": 0, "q": [0, -30, 0, -120, 0, 90, 45, 0.02]}, {"t": 1, "q": [40, -10, 0, -100, 0, 90, 45, 0.04]}]}}"#;

#[test]
fn waypoints_degrees_mesh_obstacles() {
    let dir = std::path::Path::new(TWO_PANDAS).parent().unwrap();
    let mut cell = proxima_scene::parse_scene_in(&robot_scene(WAYPOINTS), Some(dir)).unwrap();
    // 11 links + the obstacle; self pairs (42) plus 11 links × the obstacle
    assert_eq!(cell.world.len(), 12);
    assert_eq!(cell.pairs.len(), 42 + 11);
    let r = &cell.described[0];
    // degrees convert the revolute joints only: the finger stays in metres
    let mut q = Vec::new();
    r.trajectory.at(500, cell.dt, &mut q);
    assert!((q[0] - 20f64.to_radians()).abs() < 1e-12 && (q[7] - 0.03).abs() < 1e-12, "{q:?}");
    cell.set_cycle(2000).unwrap(); // past the last waypoint: held
    let hand = cell.world.object(cell.world.find("big hand").unwrap());
    let proxima_geom::Shape::ConvexPolytope(p) = hand.shape() else { panic!() };
    assert_eq!(p.vertices().len(), 102, "the exact hull of hand.obj");
}

#[test]
fn urdf_robot_errors_name_the_field() {
    let dir = std::path::Path::new(TWO_PANDAS).parent().unwrap();
    let e = |robot: &str| match proxima_scene::parse_scene_in(&robot_scene(robot), Some(dir)) {
        Ok(_) => panic!("accepted: {robot}"),
        Err(e) => e.to_string(),
    };
    let msg = e(&WAYPOINTS.replace("-120", "-190"));
    assert!(
        msg.contains("trajectory.waypoints[0].q")
            && msg.contains("panda_joint4")
            && msg.contains("outside its limits"),
        "{msg}"
    );
    let msg = e(&WAYPOINTS.replace(", 0.02]", "]"));
    assert!(msg.contains("waypoints[0].q") && msg.contains("7 values for 8 joints"), "{msg}");
    let msg = e(&WAYPOINTS.replace(r#""t": 1"#, r#""t": 0"#));
    assert!(msg.contains("waypoints[1].t"), "{msg}");
    let msg = e(&WAYPOINTS.replace("panda.urdf", "nope.urdf"));
    assert!(msg.contains("robots[0].urdf") && msg.contains("nope.urdf"), "{msg}");
    let msg = e(&WAYPOINTS.replace(r#""name": "p","#, r#""name": "p", "self_collision": "some","#));
    assert!(msg.contains("robots[0].self_collision"), "{msg}");
    let msg = e(&WAYPOINTS.replace(r#""name": "p","#, r#""name": "p", "srdf": "missing.srdf","#));
    assert!(msg.contains("robots[0].srdf") && msg.contains("missing.srdf"), "{msg}");
    // out-of-limit values are clamped on request
    let clamped =
        WAYPOINTS.replace("-120", "-190").replace(r#""name": "p","#, r#""name": "p", "clamp": true,"#);
    assert!(proxima_scene::parse_scene_in(&robot_scene(&clamped), Some(dir)).is_ok());
}
