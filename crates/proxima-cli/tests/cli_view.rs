//! `proxima view` end to end: the page it writes (summary and data against `proxima query`'s
//! answer for the same query) and its input errors (exit 2, one line naming the problem).
//! The pages are opened in a browser by `browser-tests/` (CI).

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_proxima");

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/geometry").join(name).display().to_string()
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run proxima")
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("proxima-view-{}-{name}.html", std::process::id()))
}

/// The JSON of a page's data block.
fn page_data(html: &str) -> Value {
    let start = html.find("id=\"proxima-data\">").unwrap() + "id=\"proxima-data\">".len();
    serde_json::from_str(&html[start..start + html[start..].find("</script>").unwrap()]).unwrap()
}

#[test]
fn a_query_page_carries_the_query_answer() {
    let tiny = data("tiny.json");
    let out = run(&["query", &tiny, "--format", "jsonl"]);
    assert!(out.status.success());
    let answers: Vec<Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    for i in [1usize, 6] {
        let file = scratch(&format!("q{i}"));
        let out = run(&["view", "--workload", &tiny, "--i", &i.to_string(), "--out", file.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let html = std::fs::read_to_string(&file).unwrap();
        let want = &answers[i];
        let d = page_data(&html);
        let view = &d["views"][0];
        assert_eq!(view["kind"], "query");
        assert_eq!(view["objects"].as_array().unwrap().len(), 2);
        let a = &view["annotation"];
        assert_eq!(a["distance"], want["distance"]);
        assert_eq!(a["point_a"], want["p_a"]);
        assert_eq!(a["point_b"], want["p_b"]);
        assert_eq!(a["lower"], want["lower"]);
        assert_eq!(a["upper"], want["upper"]);
        let bracket = format!("[{}, {}]", want["lower"].as_f64().unwrap(), want["upper"].as_f64().unwrap());
        assert!(html.contains(&bracket), "summary shows the bracket {bracket}");
        let _ = std::fs::remove_file(&file);
    }
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let tiny = data("tiny.json");
    let out_file = scratch("bad");
    let out = out_file.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["view", "--workload", &tiny, "--i", "7", "--out", out], "--i 7"),
        (&["view", "--workload", &tiny, "--track", "9", "--out", out], "--track 9"),
        (&["view", "--workload", "no/such/file.json", "--out", out], "no/such/file.json"),
        (&["view", "--workload", &data("malformed.json"), "--out", out], "malformed"),
        (&["view", "--workload", &tiny, "--out", "/no/such/dir/page.html"], "/no/such/dir/page.html"),
    ];
    for (args, needle) in cases {
        let o = run(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // no input at all is a usage error
    let o = run(&["view", "--out", out]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_track_page_has_one_frame_per_step() {
    let file = scratch("track");
    let out =
        run(&["view", "--workload", &data("tiny.json"), "--track", "0", "--out", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let d = page_data(&std::fs::read_to_string(&file).unwrap());
    let t = &d["views"][0]["timeline"];
    assert_eq!(d["views"][0]["kind"], "replay");
    assert_eq!(t["unit"], "step");
    // tiny.json's track has 3 steps, every one a frame
    assert_eq!(t["cycles"], 3);
    assert_eq!(t["frame_cycle"]["len"], 3);
    assert!(t["minimum"]["distance"].as_f64().unwrap() >= 0.0);
    let _ = std::fs::remove_file(&file);
}

/// The guide's track example (docs/cli.md) runs in a bare clone: the vendored extract of the
/// harness's `track_polytope_64` keeps whole tracks of 100 steps.
#[test]
fn the_guide_track_example_pages_a_vendored_hundred_step_track() {
    let file = scratch("track-poly64");
    let workload = data("workloads/track_polytope_64.json");
    let out = run(&["view", "--workload", &workload, "--track", "1", "--out", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let d = page_data(&std::fs::read_to_string(&file).unwrap());
    let t = &d["views"][0]["timeline"];
    assert_eq!(t["cycles"], 100);
    // the harness's tracks move separated hulls: every step's distance is non-negative
    assert!(t["minimum"]["distance"].as_f64().unwrap() >= 0.0);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn a_robot_page_has_a_slider_joint_per_coordinate_and_the_certified_minimum() {
    let urdf = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/robots/panda/panda.urdf");
    let urdf = urdf.to_str().unwrap();
    let file = scratch("panda");
    let out = run(&["view", "--urdf", urdf, "--out", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&file).unwrap();
    let d = page_data(&html);
    let view = &d["views"][0];
    assert_eq!(view["kind"], "robot");
    let robot = &view["robot"];
    // the Panda: 7 arm joints and one finger joint are coordinates; the other finger mimics
    let coords: Vec<u64> =
        robot["joints"].as_array().unwrap().iter().filter_map(|j| j["coordinate"].as_u64()).collect();
    assert_eq!(coords, (0..8).collect::<Vec<u64>>());
    assert_eq!(robot["joints"].as_array().unwrap().iter().filter(|j| !j["mimic"].is_null()).count(), 1);
    assert_eq!(view["objects"].as_array().unwrap().len(), robot["attachments"].as_array().unwrap().len());
    // the summary's minimum is proxima check's at the first configuration
    let q: Vec<String> = {
        let mut q = vec![String::new(); coords.len()];
        for (j, init) in robot["joints"].as_array().unwrap().iter().zip(robot["initial"].as_array().unwrap())
        {
            if let Some(c) = j["coordinate"].as_u64() {
                q[c as usize] = init.as_f64().unwrap().to_string();
            }
        }
        q
    };
    let check = run(&["check", "--urdf", urdf, "--q", &q.join(","), "--format", "json"]);
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    let want: Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(d["min_distance"], want["min_distance"]);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn robot_input_errors_exit_2() {
    let out_file = scratch("bad-robot");
    let out = out_file.to_str().unwrap();
    let urdf = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/robots/panda/panda.urdf");
    let urdf = urdf.to_str().unwrap();
    for (args, needle) in [
        (vec!["view", "--urdf", "no/such/robot.urdf", "--out", out], "no/such/robot.urdf"),
        (vec!["view", "--urdf", &data("tiny.json"), "--out", out], "tiny.json"),
        (vec!["view", "--urdf", urdf, "--srdf", "no/such.srdf", "--out", out], "no/such.srdf"),
        (vec!["view", "--urdf", urdf, "--margin", "-1", "--out", out], "--margin"),
        (vec!["view", "--urdf", urdf, "--margin", "nan", "--out", out], "--margin"),
    ] {
        let o = run(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // --srdf without --urdf, --urdf with --workload: usage errors
    assert_eq!(
        run(&["view", "--workload", &data("tiny.json"), "--srdf", "x", "--out", out]).status.code(),
        Some(2)
    );
    assert_eq!(
        run(&["view", "--workload", &data("tiny.json"), "--urdf", urdf, "--out", out]).status.code(),
        Some(2)
    );
}

#[test]
fn a_ccd_query_page_sweeps_the_motion_to_the_impact() {
    let ccd = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/ccd/public-slice.json");
    let ccd = ccd.to_str().unwrap();
    let out = run(&["query", ccd, "--op", "toi"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let want: Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(want["outcome"], "hit", "query 0 of the slice is a linear hit");
    let file = scratch("ccd");
    let out = run(&["view", "--workload", ccd, "--i", "0", "--out", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&file).unwrap();
    let d = page_data(&html);
    let view = &d["views"][0];
    assert_eq!(view["kind"], "sweep");
    // 401 evenly spaced frames over t in [0, 1]
    assert_eq!(view["timeline"]["frame_cycle"]["len"], 401);
    assert_eq!(view["timeline"]["unit"], "t");
    assert_eq!(view["annotation"]["point_a"], want["p_a"]);
    assert_eq!(view["annotation"]["normal"], want["normal"]);
    let labels: Vec<&str> =
        view["ghosts"].as_array().unwrap().iter().map(|g| g["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["start", "start", "end", "end", "impact", "impact"]);
    let toi = format!("time of impact {} ", want["toi"].as_f64().unwrap());
    assert!(html.contains(&toi), "the summary states {toi}");
    // a CCD workload has no tracks
    let o = run(&["view", "--workload", ccd, "--track", "0", "--out", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no tracks"));
    let _ = std::fs::remove_file(&file);
}
