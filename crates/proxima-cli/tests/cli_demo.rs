//! `proxima demo`'s workcell section end to end: the JSON summary contract, the plots, scene
//! files and their errors. Cycle counts are cut with `--cycles` to keep the debug build fast;
//! CI runs the full default demo in release.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_proxima");
const W25_SCENE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../proxima-scene/tests/data/w25.json");

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run proxima")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("proxima-demo-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn last_json_line(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text
        .lines()
        .last()
        .unwrap_or_else(|| panic!("no output; stderr: {}", String::from_utf8_lossy(&out.stderr)));
    serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {last}"))
}

#[test]
fn json_summary_is_the_last_line_and_plots_exist() {
    let dir = scratch("json");
    let out = run(&[
        "demo",
        "--suite",
        "workcell",
        "--format",
        "json",
        "--cycles",
        "200",
        "--scale-cycles",
        "3",
        "--robot-cycles",
        "20",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s = last_json_line(&out);
    assert_eq!(s["cycles"], 200);
    for k in ["p50", "p99", "max"] {
        assert!(s["cycle_us"][k].as_f64().unwrap() > 0.0, "{s}");
    }
    assert!(s["cycle_us"]["p50"].as_f64() <= s["cycle_us"]["p99"].as_f64());
    assert_eq!(s["brute_force_mismatches"], 0);
    // the forearm passes the obstacle at 4.7254 cm at cycle 172 (spec §7.7)
    assert!((s["min_distance"].as_f64().unwrap() - 0.047254).abs() < 1e-5, "{s}");
    let plots = s["plots"].as_array().unwrap();
    assert_eq!(plots.len(), 3, "W25, the two Pandas and the scaled scene");
    for p in plots {
        let svg = std::fs::read_to_string(p.as_str().unwrap()).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("minimum distance") && svg.contains("<polyline"));
    }
    let robots = &s["details"]["robots"];
    assert_eq!((robots["objects"].as_u64(), robots["pairs"].as_u64()), (Some(25), Some(269)), "{robots}");
    assert_eq!(robots["brute_force_mismatches"], 0);
    let scale = &s["details"]["scale"];
    assert!(scale["objects"].as_u64().unwrap() >= 100 && scale["pairs"].as_u64().unwrap() > 2000, "{scale}");
    // the replay page: the summary element carries the JSON summary's minimum in full, and
    // the data block has one replay per run with a frame per cycle
    let page = std::fs::read_to_string(s["page"].as_str().unwrap()).unwrap();
    let min = s["min_distance"].as_f64().unwrap();
    assert!(page.contains(&format!("id=\"summary\" data-min-distance=\"{min}\"")), "summary attribute");
    assert!(page.contains(&format!("minimum distance {min} m")), "summary text");
    let start = page.find("id=\"proxima-data\">").unwrap() + "id=\"proxima-data\">".len();
    let data: Value =
        serde_json::from_str(&page[start..start + page[start..].find("</script>").unwrap()]).unwrap();
    let views = data["views"].as_array().unwrap();
    assert_eq!(views.len(), 3, "W25, the two Pandas, the scaled scene");
    assert_eq!(views[0]["kind"], "replay");
    assert_eq!(views[0]["timeline"]["cycles"], 200);
    assert_eq!(views[0]["timeline"]["frame_cycle"]["len"], 200);
    assert_eq!(views[0]["timeline"]["minimum"]["distance"].as_f64(), Some(min));
    assert_eq!(views[1]["timeline"]["cycles"], 20);
    assert_eq!(views[1]["timeline"]["minimum"]["distance"], s["details"]["robots"]["min_distance"]);
    assert_eq!(views[2]["timeline"]["cycles"], 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn text_report_states_the_budget_and_the_cross_check() {
    let dir = scratch("text");
    let out = run(&[
        "demo",
        "--suite",
        "workcell",
        "--cycles",
        "120",
        "--scale-cycles",
        "2",
        "--robot-cycles",
        "10",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "W25",
        "p50",
        "p99",
        "1 ms budget",
        "0 mismatches in 120 cycles",
        "closest pair",
        "4947 pairs",
        "two Pandas",
        "269 pairs",
        "plot:",
    ] {
        assert!(text.contains(needle), "{needle:?} missing:\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn scene_file_runs_and_bad_scene_names_the_field() {
    let dir = scratch("scene");
    let out = run(&[
        "demo",
        "--suite",
        "workcell",
        "--format",
        "json",
        "--scene",
        W25_SCENE,
        "--cycles",
        "180",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s = last_json_line(&out);
    assert_eq!(s["plots"].as_array().unwrap().len(), 1, "no scaled scene with --scene");
    assert_eq!(s["brute_force_mismatches"], 0);
    assert!((s["min_distance"].as_f64().unwrap() - 0.047254).abs() < 1e-5, "{s}");

    let bad = dir.join("bad.json");
    let text = std::fs::read_to_string(W25_SCENE).unwrap().replacen(r#""frame": 4"#, r#""frame": 11"#, 1);
    std::fs::write(&bad, text).unwrap();
    let out = run(&[
        "demo",
        "--suite",
        "workcell",
        "--scene",
        bad.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("robots[0].links[8].frame") && err.contains("frame 11 does not exist"), "{err}");

    std::fs::write(&bad, "{\"bodies\": [}").unwrap();
    let out = run(&[
        "demo",
        "--suite",
        "workcell",
        "--scene",
        bad.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("line 1, column 13"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let out = run(&["demo", "--suite", "workcell", "--scene", dir.join("missing.json").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
