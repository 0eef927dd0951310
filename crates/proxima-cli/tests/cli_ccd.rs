//! End-to-end tests of `proxima query --op toi` and `proxima bench-ccd` on the vendored slice of
//! the public CCD benchmark (`testdata/ccd/`): the record fields of the harness contract, the
//! oracle's times (no miss, no false hit, within 1e-6 of its bracket), and exit codes.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/ccd").join(name)
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_proxima")).args(args).output().expect("run proxima")
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// The oracle's bracket per query index.
fn oracle() -> Vec<Option<(f64, f64)>> {
    let text = std::fs::read_to_string(data("public-slice.expected.json")).unwrap();
    let rows: Vec<Value> = serde_json::from_str(&text).unwrap();
    rows.iter().map(|e| e["toi"].as_f64().map(|lo| (lo, e["toi_hi"].as_f64().unwrap_or(lo)))).collect()
}

fn assert_agrees(i: usize, toi: Option<f64>, oracle: Option<(f64, f64)>) {
    match (oracle, toi) {
        (None, None) => {}
        (Some((lo, hi)), Some(t)) => {
            assert!(lo - 1e-6 <= t && t <= hi + 1e-6, "query {i}: {t} vs [{lo}, {hi}]")
        }
        (o, t) => panic!("query {i}: {t:?} vs oracle {o:?}"),
    }
}

#[test]
fn query_toi_answers_every_query_with_its_proof() {
    let file = data("public-slice.json");
    let out = run(&["query", file.to_str().unwrap(), "--op", "toi"]);
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let recs = json_lines(&String::from_utf8_lossy(&out.stdout));
    let expected = oracle();
    assert_eq!(recs.len(), expected.len());
    for (i, rec) in recs.iter().enumerate() {
        assert_eq!((rec["i"].as_u64(), rec["status"].as_str()), (Some(i as u64), Some("ok")), "{rec}");
        assert_agrees(i, rec["toi"].as_f64(), expected[i]);
        match rec["outcome"].as_str().unwrap() {
            "hit" | "initial_contact" => {
                let (ts, th) = (rec["t_safe"].as_f64().unwrap(), rec["t_hit"].as_f64().unwrap());
                assert!(ts <= th && rec["p_a"].is_array() && rec["p_b"].is_array(), "{rec}");
            }
            "miss" => assert!(rec["last_lower"].as_f64().unwrap() > 0.0 && rec["toi"].is_null(), "{rec}"),
            other => panic!("query {i}: outcome {other}: {rec}"),
        }
    }
    let text = run(&["query", file.to_str().unwrap(), "--op", "toi", "--format", "text"]);
    assert!(text.status.success());
    assert_eq!(String::from_utf8_lossy(&text.stdout).lines().count(), expected.len() + 1);
}

#[test]
fn bench_ccd_writes_the_result_contract() {
    let file = data("public-slice.json");
    let out_path = std::env::temp_dir().join(format!("proxima-bench-ccd-{}.jsonl", std::process::id()));
    let out = run(&[
        "bench-ccd",
        "--workload",
        file.to_str().unwrap(),
        "--repeat",
        "2",
        "--out",
        out_path.to_str().unwrap(),
        "--variants",
        "default,no_depth",
    ]);
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let recs = json_lines(&std::fs::read_to_string(&out_path).unwrap());
    std::fs::remove_file(&out_path).ok();
    let meta = &recs[0];
    assert_eq!((meta["kind"].as_str(), meta["runner"].as_str()), (Some("meta"), Some("proxima")));
    for key in ["library_version", "workload", "num_queries", "repeat", "variants", "margin", "date"] {
        assert!(meta.get(key).is_some(), "meta lacks {key}: {meta}");
    }
    let expected = oracle();
    let n = expected.len();
    assert_eq!(meta["num_queries"].as_u64(), Some(n as u64));
    for variant in ["default", "no_depth"] {
        let queries: Vec<&Value> =
            recs.iter().filter(|r| r["kind"] == "query" && r["variant"] == variant).collect();
        assert_eq!(queries.len(), n);
        let seen: HashSet<u64> = queries.iter().map(|r| r["i"].as_u64().unwrap()).collect();
        assert_eq!(seen.len(), n);
        for r in &queries {
            let i = r["i"].as_u64().unwrap() as usize;
            assert!(r.get("skipped").is_none(), "{r}");
            assert_agrees(i, r["toi"].as_f64(), expected[i]);
            if r["toi"].is_number() {
                assert!(r["normal"].is_array() || r["outcome"] == "initial_contact", "{r}");
            }
        }
        let timing: Vec<&Value> =
            recs.iter().filter(|r| r["kind"] == "timing" && r["variant"] == variant).collect();
        assert_eq!(timing.len(), 1);
        let t = timing[0];
        assert_eq!(
            (t["section"].as_str(), t["n"].as_u64(), t["repeat"].as_u64()),
            (Some("toi"), Some(n as u64), Some(2))
        );
        assert_eq!(t["total_ns"].as_array().unwrap().len(), 2);
        let (min, med) =
            (t["ns_per_query_min"].as_f64().unwrap(), t["ns_per_query_median"].as_f64().unwrap());
        assert!(0.0 < min && min <= med, "{t}");
    }
}

#[test]
fn bad_ccd_input_exits_2_with_one_line() {
    let dir = std::env::temp_dir();
    let bad = dir.join(format!("proxima-ccd-bad-{}.json", std::process::id()));
    std::fs::write(&bad, r#"{"shapes":[{"id":"s","type":"sphere","radius":-1}],"queries":[]}"#).unwrap();
    let out_path = dir.join(format!("proxima-ccd-bad-{}.jsonl", std::process::id()));
    let slice = data("public-slice.json");
    let (bad_s, slice_s, out_s) =
        (bad.to_str().unwrap(), slice.to_str().unwrap(), out_path.to_str().unwrap());
    for (args, needle) in [
        (vec!["query", bad_s, "--op", "toi"], "shapes[0]"),
        (vec!["query", "/no/such/file.json", "--op", "toi"], "cannot read"),
        (vec!["bench-ccd", "--workload", bad_s, "--out", out_s], "shapes[0]"),
        (vec!["bench-ccd", "--workload", slice_s, "--out", out_s, "--repeat", "0"], "repeat"),
        (vec!["bench-ccd", "--workload", slice_s, "--out", out_s, "--variants", "bogus"], "unknown variant"),
    ] {
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle) && err.trim().lines().count() == 1, "{args:?}: {err}");
    }
    std::fs::remove_file(&bad).ok();
    std::fs::remove_file(&out_path).ok();
}
