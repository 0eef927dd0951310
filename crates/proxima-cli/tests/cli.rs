//! End-to-end tests of the `proxima` binary: solve (JSON, Siconos, MatrixMarket), bad inputs,
//! bench-lcp's JSON Lines contract, demo.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_proxima");
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
/// The Siconos test files vendored in the repository.
fn siconos() -> String {
    format!("{ROOT}/testdata/siconos-lcp")
}

fn testdata(rel: &str) -> String {
    format!("{ROOT}/testdata/{rel}")
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run proxima")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

fn json_out(args: &[&str]) -> Value {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    serde_json::from_str(stdout(&out).trim()).unwrap_or_else(|e| panic!("{e}: {}", stdout(&out)))
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("proxima-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn strs(v: &Value) -> Vec<&str> {
    v.as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect()
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

#[test]
fn solve_example5_exactly() {
    let v = json_out(&["solve", &testdata("lcp/example5.json"), "--exact", "--format", "json"]);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["kind"], "lcp");
    assert_eq!(v["scalar"], "rational");
    assert_eq!(strs(&v["z"]), ["1", "1/2", "0"]);
    assert_eq!(strs(&v["w"]), ["0", "0", "3/2"]);
    assert_eq!(v["residual"]["min_map_inf"], "0");
    assert_eq!(v["residual"]["complementarity"], "0");
    assert!(v["pivots"].as_u64().unwrap() >= 1);
    assert!(v["path"].is_string());
}

#[test]
fn solve_example5_in_f64() {
    let v = json_out(&["solve", &testdata("lcp/example5.json"), "--format", "json"]);
    assert_eq!(v["scalar"], "f64");
    let z = nums(&v["z"]);
    assert!((z[0] - 1.0).abs() < 1e-12 && (z[1] - 0.5).abs() < 1e-12 && z[2].abs() < 1e-12, "{z:?}");
    assert!(v["residual"]["min_map_inf"].as_f64().unwrap() < 1e-12);
}

#[test]
fn solve_qp_exactly() {
    let v = json_out(&["solve", &testdata("qp/example5.json"), "--exact", "--format", "json"]);
    assert_eq!(v["kind"], "qp");
    assert_eq!(v["status"], "solved");
    assert_eq!(strs(&v["x"]), ["1", "1/2"]);
    assert_eq!(v["objective"], "-3/4");
    let lp = json_out(&["solve", &testdata("qp/example1.json"), "--exact", "--format", "json"]);
    assert_eq!(strs(&lp["x"]), ["0", "3"]);
    assert_eq!(lp["objective"], "-3");
}

#[test]
fn solve_siconos_dat() {
    let path = format!("{}/lcp_exp_murty.dat", siconos());
    let v = json_out(&["solve", &path, "--format", "json"]);
    assert_eq!(v["status"], "solved");
    assert_eq!(nums(&v["z"]), [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    let v =
        json_out(&["solve", &format!("{}/lcp_ortiz_block.dat", siconos()), "--exact", "--format", "json"]);
    assert_eq!(strs(&v["z"]), ["2/3", "0", "1/3", "0"]);
}

#[test]
fn solve_matrix_market_pair() {
    let (m, q) = (testdata("mtx/example5.M.mtx"), testdata("mtx/example5.q.mtx"));
    let v = json_out(&["solve", "--matrix", &m, "--vector", &q, "--exact", "--format", "json"]);
    assert_eq!(strs(&v["z"]), ["1", "1/2", "0"]);
    let out = run(&["solve", "--matrix", &m, "--vector", &q]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("status     solved"), "{text}");
    assert!(text.contains("z          ["), "{text}");
}

#[test]
fn text_output_is_readable() {
    let out = run(&["solve", &testdata("qp/example5.json"), "--exact"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for needle in
        ["QP, n = 2", "exact rational arithmetic", "x          [1, 1/2]", "objective  -3/4", "residual"]
    {
        assert!(text.contains(needle), "{needle:?} in {text}");
    }
}

#[test]
fn no_solution_is_data_not_an_error() {
    let v = json_out(&["solve", &testdata("lcp/example3.json"), "--format", "json"]);
    assert_eq!(v["status"], "no_solution");
}

/// Exit code 2, exactly one line on stderr starting with `error: ` and containing `needle`.
fn assert_bad_input(args: &[&str], needle: &str) {
    let out = run(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(needle), "{args:?}: {err:?} should contain {needle:?}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(stdout(&out).is_empty());
}

#[test]
fn bad_inputs_exit_2_with_one_line() {
    let dir = scratch("bad");
    let write = |name: &str, text: &str| -> String {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let ragged = write(
        "ragged.json",
        "{\"kind\": \"lcp\",\n \"M\": [[1, 2, 3, 4], [1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4]],\n \"q\": [1, 2, 3, 4]}",
    );
    assert_bad_input(&["solve", &ragged], "M row 2 has 3 entries, expected 4 (");
    assert_bad_input(&["solve", &ragged], "ragged.json)");
    let nan = write("nan.json", "{\"kind\": \"lcp\", \"M\": [[\"NaN\"]], \"q\": [1]}");
    assert_bad_input(&["solve", &nan, "--exact"], "not a finite number");
    let dims = write("dims.json", "{\"kind\": \"lcp\", \"M\": [[1, 0], [0, 1]], \"q\": [1, 2, 3]}");
    assert_bad_input(&["solve", &dims], "expected 3");
    let text = write("word.json", "{\"kind\": \"lcp\", \"M\": [[\"one\"]], \"q\": [1]}");
    assert_bad_input(&["solve", &text], "not a number \"one\"");
    let empty = write("empty.json", "");
    assert_bad_input(&["solve", &empty], "empty");
    let trunc = write("trunc.dat", "2\n0\n2\n2\n2 2\n1 1\n1 1\n-1\n");
    assert_bad_input(&["solve", &trunc], "q entry 2");
    let bad_dat = write("bad.dat", "3\n0\n3\n3\n3 3\n1 2 3\n4 inf 6\n7 8 9\n1 1 1\n");
    assert_bad_input(&["solve", &bad_dat], "line 7: M row 2, column 2");
    let no_ext = write("problem", "{\"kind\": \"lcp\", \"M\": [[1]], \"q\": [1], \"z\": 1}");
    assert_bad_input(&["solve", &no_ext], "unknown field \"z\"");
    let q2 = write("q2.mtx", "%%MatrixMarket matrix array real general\n2 1\n1\n2\n");
    assert_bad_input(
        &["solve", "--matrix", &testdata("mtx/example5.M.mtx"), "--vector", &q2],
        "q has 2 entries",
    );
    let missing = dir.join("missing.json").display().to_string();
    assert_bad_input(&["solve", &missing], "cannot read");
    assert_bad_input(&["solve", &testdata("mtx/example5.M.mtx")], "--matrix M.mtx --vector q.mtx");
    assert_bad_input(
        &["solve", &testdata("lcp/example5.json"), "--method", "simplex"],
        "known methods: lemke",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

const REQUIRED: [&str; 11] = [
    "problem",
    "family",
    "n",
    "solver",
    "status",
    "iterations",
    "time_ns",
    "res_minmap_inf",
    "compl_abs",
    "min_z",
    "min_w",
];

fn read_jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn bench_lcp_writes_the_result_contract() {
    let dir = scratch("bench");
    let out = dir.join("sub/results.jsonl");
    let manifest = testdata("bench/tiny/manifest.json");
    let args = [
        "bench-lcp",
        "--manifest",
        &manifest,
        "--solver",
        "lemke",
        "--out",
        out.to_str().unwrap(),
        "--repeat",
        "3",
    ];
    let res = run(&args);
    assert!(res.status.success(), "{}", stderr(&res));
    let records = read_jsonl(&out);
    assert_eq!(records.len(), 3);
    for r in &records {
        for field in REQUIRED {
            assert!(r.get(field).is_some(), "missing {field} in {r}");
        }
        assert_eq!(r["solver"], "ours.lemke");
        assert_eq!(r["family"], "tiny");
        assert!(["converged", "max_iter", "failed", "no_solution"].contains(&r["status"].as_str().unwrap()));
        assert!(r["n"].is_u64() && r["iterations"].is_u64() && r["time_ns"].is_u64(), "{r}");
        for f in ["res_minmap_inf", "compl_abs", "min_z", "min_w"] {
            assert!(r[f].is_f64() || r[f].is_null(), "{f} in {r}");
        }
    }
    let names: Vec<&str> = records.iter().map(|r| r["problem"].as_str().unwrap()).collect();
    assert_eq!(names, ["tiny_ex5", "tiny_murty", "tiny_ex3"]);
    let statuses: Vec<&str> = records.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["converged", "converged", "no_solution"]);
    // Verified (FORMAT.md rule) for the converged ones.
    assert!(records[0]["res_minmap_inf"].as_f64().unwrap() <= 1e-6);
    assert_eq!(records[1]["res_minmap_inf"].as_f64().unwrap(), 0.0);
    assert_eq!(records[1]["min_z"].as_f64().unwrap(), 0.0);

    // --append adds; --max-n skips larger problems (writes nothing for them); --limit.
    let mut args2 = args.to_vec();
    args2.extend(["--append", "--max-n", "4"]);
    assert!(run(&args2).status.success());
    let records = read_jsonl(&out);
    assert_eq!(records.len(), 5);
    assert_eq!(records[3]["problem"], "tiny_ex5");
    assert_eq!(records[4]["problem"], "tiny_ex3");
    let mut args3 = args.to_vec();
    args3.extend(["--limit", "1", "--max-iter", "50"]);
    assert!(run(&args3).status.success());
    let records = read_jsonl(&out);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["max_iter"], 50);

    // --write-solutions: one z file per returned z, readable back bit for bit, and its
    // residual is the one recorded.
    let zdir = dir.join("z");
    let mut args4 = args.to_vec();
    args4.extend(["--write-solutions", zdir.to_str().unwrap()]);
    assert!(run(&args4).status.success());
    let z_text = std::fs::read_to_string(zdir.join("tiny_murty.z.mtx")).unwrap();
    let z: Vec<f64> =
        proxima_lcp::io::read_mtx_vector(&z_text, &proxima_lcp::io::ReadLimits::new(100)).unwrap();
    assert!(!z.is_empty() && z.iter().all(|v| *v >= 0.0));
    assert!(zdir.join("tiny_ex5.z.mtx").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_lcp_timeout_is_recorded_as_failed() {
    let dir = scratch("timeout");
    let out = dir.join("r.jsonl");
    // Murty's n = 18 example needs tens of thousands of pivots (milliseconds even in release),
    // so a 1 ms timeout always expires first: the test does not race the solver.
    let manifest = testdata("bench/slow/manifest.json");
    let res = run(&[
        "bench-lcp",
        "--manifest",
        &manifest,
        "--solver",
        "lemke",
        "--out",
        out.to_str().unwrap(),
        "--timeout",
        "0.001",
        "--limit",
        "1",
    ]);
    assert!(res.status.success(), "{}", stderr(&res));
    let records = read_jsonl(&out);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["status"], "failed");
    assert!(records[0]["time_ns"].is_null());
    assert!(records[0]["error"].as_str().unwrap().contains("timeout"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_lcp_bad_arguments_exit_2() {
    let dir = scratch("benchbad");
    let out = dir.join("r.jsonl").display().to_string();
    let manifest = testdata("bench/tiny/manifest.json");
    assert_bad_input(
        &["bench-lcp", "--manifest", &manifest, "--solver", "nope", "--out", &out],
        "known solvers: lemke",
    );
    assert_bad_input(
        &["bench-lcp", "--manifest", &manifest, "--solver", "lemke", "--out", &out, "--repeat", "0"],
        "--repeat",
    );
    let missing = dir.join("none.json").display().to_string();
    assert_bad_input(
        &["bench-lcp", "--manifest", &missing, "--solver", "lemke", "--out", &out],
        "cannot read",
    );
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"format_version\": 1, \"family\": \"x\", \"problems\": [{\"name\": \"a\", \"M\": \"a.M.mtx\", \"q\": \"a.q.mtx\", \"n\": 2}]}").unwrap();
    assert_bad_input(
        &["bench-lcp", "--manifest", broken.to_str().unwrap(), "--solver", "lemke", "--out", &out],
        "a.M.mtx",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn demo_runs() {
    let out = run(&["demo", "--suite", "reference"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for needle in ["ex1", "ex5 (QP) exact", "lcp_CPS_1", "lcp_tobenna", "summary:"] {
        assert!(text.contains(needle), "{needle:?} missing from demo output:\n{text}");
    }
    let out = run(&["demo", "--suite", "reference", "--format", "json"]);
    assert!(out.status.success());
    let lines: Vec<Value> = stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(lines.len() >= 25, "{}", lines.len());
    let summary = &lines.last().unwrap()["summary"];
    assert_eq!(summary["problems"].as_u64().unwrap() as usize, lines.len() - 1);
    let ex5 = lines.iter().find(|l| l["name"] == "ex5 (QP) exact").unwrap();
    assert_eq!(ex5["status"], "solved");
    assert_eq!(ex5["residual"], "0");
    assert_eq!(ex5["check"], "ok");
}

#[test]
fn demo_without_siconos_files_says_so_and_continues() {
    let dir = scratch("nosiconos");
    let out = run(&["demo", "--suite", "reference", "--siconos-dir", dir.join("nothing").to_str().unwrap()]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("not found"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `proxima --help` describes the whole tool and lists every command with a one-line about.
#[test]
fn help_describes_the_whole_tool() {
    let out = run(&["--help"]);
    assert!(out.status.success());
    let help = stdout(&out);
    for needle in ["certified", "proximity", "LCP", "QP", "workcell", "benchmark"] {
        assert!(help.contains(needle), "--help should mention {needle:?}:\n{help}");
    }
    for command in
        ["solve", "query", "demo", "completions", "bench-geometry", "bench-ccd", "bench-lcp", "reproduce"]
    {
        let line = help.lines().find(|l| l.trim_start().starts_with(&format!("{command} ")));
        let about = line.map(|l| l.trim_start()[command.len()..].trim().to_string());
        assert!(about.is_some_and(|a| !a.is_empty()), "no one-line about for {command}:\n{help}");
    }
    let reproduce = stdout(&run(&["reproduce", "--help"]));
    for experiment in ["lcp-methods", "ellipsoids", "dqp3"] {
        assert!(reproduce.contains(experiment), "{reproduce}");
    }
}

/// Completion scripts cover user and lab commands alike; an unknown shell is a usage error.
#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        for name in ["proxima", "solve", "bench-geometry", "bench-lcp", "reproduce", "lcp-methods"] {
            assert!(script.contains(name), "{shell} script lacks {name:?}");
        }
    }
    // A bash script really is one: it registers a completion function for `proxima`.
    assert!(stdout(&run(&["completions", "bash"])).contains("complete -F"));
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("invalid value"), "{}", stderr(&out));
}
