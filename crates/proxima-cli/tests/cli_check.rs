//! `proxima check` end to end: one configuration, CSV (with and without a joint-name header)
//! and .npy files, JSON output with every pair, the collision exit status, and bad input
//! (exit 2 with one line naming the problem).

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_proxima");
const PANDA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda/panda.urdf");

/// Configurations 0 and 7 of the robot benchmark's panda_self_1000 workload and Pinocchio +
/// coal's minimum distances for them (0.0208594803 m, link5–link7; −0.0114300460 m, in
/// collision).
const Q0: &str =
    "0.070151885,1.65103954,-2.111628026,-0.161322897,-1.116629797,1.567737085,1.944652732,0.016367965";
const Q7: &str =
    "2.107987911,1.32417627,2.234446438,-1.659048426,-1.340842052,-0.059573787,0.864736939,0.028796375";

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run proxima")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("proxima-check-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn json_lines(out: &Output) -> Vec<Value> {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn one_configuration_text_and_json() {
    let out = run(&["check", "--urdf", PANDA, "--q", Q0]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("42 pairs checked")
            && text.contains("panda_link5 - panda_link7")
            && text.contains("witnesses"),
        "{text}"
    );
    let recs = json_lines(&run(&["check", "--urdf", PANDA, "--q", Q0, "--format", "json", "--all-pairs"]));
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert!((r["min_distance"].as_f64().unwrap() - 0.0208594803).abs() < 2e-6, "{r}");
    assert_eq!(r["pair"], serde_json::json!(["panda_link5", "panda_link7"]));
    assert_eq!(r["in_collision"], false);
    assert_eq!(r["distances"].as_object().unwrap().len(), 42);
    let b = r["bracket"].as_array().unwrap();
    assert!(b[0].as_f64() <= r["min_distance"].as_f64() && r["min_distance"].as_f64() <= b[1].as_f64());
}

#[test]
fn csv_and_npy_files() {
    let dir = scratch("files");
    let csv = dir.join("q.csv");
    std::fs::write(&csv, format!("{Q0}\n{Q7}\n")).unwrap();
    let recs =
        json_lines(&run(&["check", "--urdf", PANDA, "--configs", csv.to_str().unwrap(), "--format", "json"]));
    assert_eq!(recs.len(), 2);
    assert!((recs[1]["min_distance"].as_f64().unwrap() + 0.0114300460).abs() < 2e-6, "{}", recs[1]);
    assert_eq!(recs[1]["in_collision"], true);
    // a header of joint names in another order
    let mut names: Vec<String> = (1..=7).map(|i| format!("panda_joint{i}")).collect();
    names.push("panda_finger_joint1".into());
    let values: Vec<&str> = Q7.split(',').collect();
    let (h, v): (Vec<String>, Vec<&str>) = names.iter().cloned().zip(values).rev().unzip();
    std::fs::write(&csv, format!("{}\n{}\n", h.join(","), v.join(","))).unwrap();
    let recs =
        json_lines(&run(&["check", "--urdf", PANDA, "--configs", csv.to_str().unwrap(), "--format", "json"]));
    assert!((recs[0]["min_distance"].as_f64().unwrap() + 0.0114300460).abs() < 2e-6, "{}", recs[0]);
    // .npy float64, shape (2, 8)
    let mut npy = b"\x93NUMPY\x01\x00".to_vec();
    let mut header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 8), }".to_string();
    while !(10 + header.len() + 1).is_multiple_of(64) {
        header.push(' ');
    }
    header.push('\n');
    npy.extend_from_slice(&(header.len() as u16).to_le_bytes());
    npy.extend_from_slice(header.as_bytes());
    for q in [Q0, Q7] {
        for x in q.split(',') {
            npy.extend_from_slice(&x.parse::<f64>().unwrap().to_le_bytes());
        }
    }
    let path = dir.join("q.npy");
    std::fs::write(&path, &npy).unwrap();
    let recs = json_lines(&run(&[
        "check",
        "--urdf",
        PANDA,
        "--configs",
        path.to_str().unwrap(),
        "--format",
        "json",
    ]));
    assert_eq!(recs.len(), 2);
    assert!((recs[0]["min_distance"].as_f64().unwrap() - 0.0208594803).abs() < 2e-6);
    // --fail-on-collision: exit 1
    let out = run(&["check", "--urdf", PANDA, "--configs", path.to_str().unwrap(), "--fail-on-collision"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 configuration(s) in collision"));
    // a truncated .npy
    std::fs::write(&path, &npy[..npy.len() - 3]).unwrap();
    let out = run(&["check", "--urdf", PANDA, "--configs", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("data has"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let dir = scratch("bad");
    let err = |args: &[&str]| {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stdout));
        let e = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(e.lines().count(), 1, "{e}");
        e
    };
    let e = err(&["check", "--urdf", PANDA, "--q", "0,0,0"]);
    assert!(e.contains("3 values for 8 joints"), "{e}");
    let e = err(&["check", "--urdf", PANDA, "--q", &Q0.replace("1.65103954", "nan")]);
    assert!(e.contains("q[1]") && e.contains("not finite"), "{e}");
    let e = err(&["check", "--urdf", PANDA, "--q", &Q0.replace("1.65103954", "3.5")]);
    assert!(e.contains("panda_joint2") && e.contains("outside its limits"), "{e}");
    let csv = dir.join("h.csv");
    std::fs::write(&csv, "panda_joint1,elbow\n0,0\n").unwrap();
    let e = err(&["check", "--urdf", PANDA, "--configs", csv.to_str().unwrap()]);
    assert!(e.contains("\"elbow\" is not a joint"), "{e}");
    let urdf = dir.join("bad.urdf");
    std::fs::write(&urdf, "<robot name='r'>\n<link name='a'/>\n<joint name='j' type='revolute'><parent link='a'/><child link='b'/></joint>\n</robot>\n").unwrap();
    let e = err(&["check", "--urdf", urdf.to_str().unwrap(), "--q", "0"]);
    assert!(e.contains("bad.urdf:3") && e.contains("<joint name=\"j\">"), "{e}");
    std::fs::write(&urdf, "<robot name='r'><link name='a'><collision><geometry><mesh filename='package://robot_description/meshes/a.stl'/></geometry></collision></link></robot>").unwrap();
    let e =
        err(&["check", "--urdf", urdf.to_str().unwrap(), "--package-dir", dir.to_str().unwrap(), "--q", ""]);
    assert!(
        e.contains("package://robot_description/meshes/a.stl")
            && e.contains("robot_description/meshes/a.stl"),
        "{e}"
    );
    let srdf = dir.join("x.srdf");
    std::fs::write(&srdf, "<robot><disable_collisions link1='panda_link1' link2='nolink'/></robot>").unwrap();
    let e = err(&["check", "--urdf", PANDA, "--srdf", srdf.to_str().unwrap(), "--q", Q0]);
    assert!(e.contains("nolink") && e.contains("x.srdf:1"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
