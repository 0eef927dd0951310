//! `proxima batch` end to end: outputs (.npy, .npz, .csv) agree bit for bit and with
//! `proxima check`; thread counts change no byte; a run killed mid-way (a real process,
//! SIGKILL) and restarted with the same arguments writes the same file as an uninterrupted
//! run, also from a checkpoint with a torn last record and with another thread count; bad
//! input exits 2 with one line before any file is made.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_proxima");
const PANDA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda/panda.urdf");

/// The Panda's joint limits (URDF order; the finger last).
const LIMITS: [(f64, f64); 8] = [
    (-2.8973, 2.8973),
    (-1.7628, 1.7628),
    (-2.8973, 2.8973),
    (-3.0718, -0.0698),
    (-2.8973, 2.8973),
    (-0.0175, 3.7525),
    (-2.8973, 2.8973),
    (0.0, 0.04),
];

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run proxima")
}

fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("proxima-batch-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `n` configurations inside the limits (xorshift64*, seeded), as an .npy (n, 8) file.
fn write_configs(path: &Path, n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.max(1);
    let mut next = || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        (s.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    };
    let values: Vec<f64> = (0..n)
        .flat_map(|_| LIMITS.map(|(lo, hi)| lo + (hi - lo) * 0.999 * next() + 0.0005 * (hi - lo)))
        .collect();
    std::fs::write(path, npy_f64(&values, n, 8)).unwrap();
    values
}

fn npy_f64(values: &[f64], rows: usize, cols: usize) -> Vec<u8> {
    let mut header = format!("{{'descr': '<f8', 'fortran_order': False, 'shape': ({rows}, {cols}), }}");
    while !(10 + header.len() + 1).is_multiple_of(64) {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend(values.iter().flat_map(|v| v.to_le_bytes()));
    out
}

/// The data bytes of an .npy file and its header text.
fn npy_data(path: &Path) -> (String, Vec<u8>) {
    let bytes = std::fs::read(path).unwrap();
    let len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    (String::from_utf8_lossy(&bytes[10..10 + len]).to_string(), bytes[10 + len..].to_vec())
}

fn f64s(data: &[u8]) -> Vec<f64> {
    data.chunks_exact(8).map(|b| f64::from_le_bytes(b.try_into().unwrap())).collect()
}

fn checkpoint(out: &Path) -> PathBuf {
    PathBuf::from(format!("{}.checkpoint", out.display()))
}

#[test]
fn outputs_agree_and_threads_change_no_byte() {
    let dir = scratch("outputs");
    let q = dir.join("q.npy");
    let values = write_configs(&q, 150, 7);
    let q = q.to_str().unwrap();
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let base = ["batch", "--urdf", PANDA, "--configs", q, "--chunk-size", "11"];
    let with = |extra: &[&str]| ok(&[&base[..], extra].concat());
    let summary = with(&["--out", &out("t1.npz"), "--threads", "1"]);
    assert!(summary.contains("150 configurations (150 computed, 0 from the checkpoint)"), "{summary}");
    with(&["--out", &out("t2.npz"), "--threads", "2"]);
    with(&["--out", &out("t3.npz"), "--threads", "3"]);
    let t1 = std::fs::read(out("t1.npz")).unwrap();
    assert_eq!(t1, std::fs::read(out("t2.npz")).unwrap());
    assert_eq!(t1, std::fs::read(out("t3.npz")).unwrap());
    assert!(!checkpoint(&dir.join("t1.npz")).exists(), "the checkpoint is removed at the end");
    // .npy holds min_distance; .csv the same numbers in round-trip text
    with(&["--out", &out("d.npy"), "--threads", "2"]);
    let (header, data) = npy_data(&dir.join("d.npy"));
    assert!(header.contains("'shape': (150,)"), "{header}");
    let min = f64s(&data);
    with(&["--out", &out("d.csv"), "--threads", "2"]);
    let csv = std::fs::read_to_string(out("d.csv")).unwrap();
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().starts_with("min_distance,lower,upper,link_a,link_b,in_collision"));
    let mut colliding = Vec::new();
    for (i, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells[0].parse::<f64>().unwrap().to_bits(), min[i].to_bits(), "row {i}");
        let (lo, hi) = (cells[1].parse::<f64>().unwrap(), cells[2].parse::<f64>().unwrap());
        assert!(lo <= min[i] && min[i] <= hi);
        assert_eq!(cells[5] == "1", min[i] <= 0.0);
        colliding.push(cells[5] == "1");
    }
    assert_eq!(colliding.len(), 150);
    // collision mode: the .npy is the verdicts, the same as distances ≤ 0
    with(&["--out", &out("c.npy"), "--mode", "collision"]);
    let (header, data) = npy_data(&dir.join("c.npy"));
    assert!(header.contains("'descr': '|b1'"), "{header}");
    assert_eq!(data.iter().map(|&b| b == 1).collect::<Vec<_>>(), colliding);
    // all pairs: (150, 42), whose row minima are the distances
    with(&["--out", &out("a.npy"), "--mode", "all-pairs"]);
    let (header, data) = npy_data(&dir.join("a.npy"));
    assert!(header.contains("'shape': (150, 42)"), "{header}");
    let all = f64s(&data);
    for i in 0..150 {
        let row_min = all[i * 42..(i + 1) * 42].iter().copied().fold(f64::INFINITY, f64::min);
        assert_eq!(row_min.to_bits(), min[i].to_bits(), "row {i}");
    }
    // the same numbers as `proxima check` for the first configuration
    let first: Vec<String> = values[..8].iter().map(f64::to_string).collect();
    let check = ok(&["check", "--urdf", PANDA, "--q", &first.join(","), "--format", "json"]);
    let rec: serde_json::Value = serde_json::from_str(check.lines().next().unwrap()).unwrap();
    // check starts from an empty warm-start cache, a slightly different GJK start: both certified
    assert!((rec["min_distance"].as_f64().unwrap() - min[0]).abs() <= 1e-9);
    // a margin: exact up to it, +inf beyond
    with(&["--out", &out("m.npy"), "--margin", "0.01"]);
    let near = f64s(&npy_data(&dir.join("m.npy")).1);
    for i in 0..150 {
        if min[i] <= 0.01 {
            assert_eq!(near[i].to_bits(), min[i].to_bits());
        } else {
            assert_eq!(near[i], f64::INFINITY);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Kills a real `proxima batch` process mid-run (SIGKILL) and restarts it with the same
/// arguments: the file equals an uninterrupted run's, byte for byte. A checkpoint whose last
/// record was torn, resumed on another thread count, gives the same file too.
#[test]
fn a_killed_run_resumes_to_the_same_file() {
    let dir = scratch("kill");
    let q = dir.join("q.npy");
    let n = 3000;
    write_configs(&q, n, 11);
    let q = q.to_str().unwrap();
    let args = |out: &Path, threads: &str| -> Vec<String> {
        ["batch", "--urdf", PANDA, "--configs", q, "--chunk-size", "8", "--threads", threads, "--out"]
            .iter()
            .map(|s| s.to_string())
            .chain([out.to_str().unwrap().to_string()])
            .collect()
    };
    let reference = dir.join("ref.npz");
    let a: Vec<String> = args(&reference, "2");
    ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let expected = std::fs::read(&reference).unwrap();

    let out = dir.join("killed.npz");
    let ck = checkpoint(&out);
    let mut child =
        Command::new(BIN).args(args(&out, "2")).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    // kill once some chunks (records of 20 + 8 × 106 bytes after a 56-byte header) are on disk
    let record = 20 + 8 * 106;
    let started = Instant::now();
    loop {
        let size = std::fs::metadata(&ck).map(|m| m.len() as usize).unwrap_or(0);
        if size >= 56 + 10 * record {
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it could be killed");
        assert!(started.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!out.exists(), "no output before the end");
    let saved = std::fs::read(&ck).unwrap();
    let records = (saved.len() - 56) / record;
    assert!(records >= 10 && records < n / 8, "{records} records");

    // a torn copy of the checkpoint for the second restart
    let torn = dir.join("torn.npz");
    std::fs::write(checkpoint(&torn), &saved[..saved.len() - (saved.len() - 56) % record - 300]).unwrap();

    let summary = ok(&args(&out, "2").iter().map(String::as_str).collect::<Vec<_>>());
    let resumed: usize =
        summary.split(" computed, ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(resumed >= 10 * 8 && resumed < n, "{summary}");
    assert_eq!(std::fs::read(&out).unwrap(), expected, "the resumed file differs");
    assert!(!ck.exists());

    let summary = ok(&args(&torn, "1").iter().map(String::as_str).collect::<Vec<_>>());
    assert!(summary.contains("from the checkpoint"), "{summary}");
    assert_eq!(std::fs::read(&torn).unwrap(), expected, "the file resumed from a torn checkpoint differs");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_2_with_one_line_and_makes_no_file() {
    let dir = scratch("bad");
    let q = dir.join("q.npy");
    let mut values = write_configs(&q, 20, 3);
    let out = dir.join("o.npz");
    let err = |args: &[&str]| {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&o.stdout));
        let e = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(!out.exists() && !checkpoint(&out).exists(), "{args:?} made a file");
        e
    };
    let (qs, os) = (q.to_str().unwrap(), out.to_str().unwrap());
    let base = ["batch", "--urdf", PANDA, "--configs", qs, "--out", os];
    values[3 * 8 + 1] = f64::NAN;
    std::fs::write(&q, npy_f64(&values, 20, 8)).unwrap();
    let e = err(&base);
    assert!(e.contains("configuration 3") && e.contains("not finite"), "{e}");
    values[3 * 8 + 1] = 0.0;
    values[5 * 8 + 3] = 1.0; // panda_joint4 must be negative
    std::fs::write(&q, npy_f64(&values, 20, 8)).unwrap();
    let e = err(&base);
    assert!(e.contains("configuration 5") && e.contains("panda_joint4"), "{e}");
    std::fs::write(&q, npy_f64(&values[..7 * 20], 20, 7)).unwrap();
    let e = err(&base);
    assert!(e.contains("7 values per configuration") && e.contains("8 joints"), "{e}");
    let e = err(&["batch", "--urdf", PANDA, "--configs", qs, "--out", &format!("{}/o.json", dir.display())]);
    assert!(e.contains(".npy, .npz or .csv"), "{e}");
    write_configs(&q, 20, 3);
    let e = err(&[&base[..], &["--threads", "0"]].concat());
    assert!(e.contains("threads"), "{e}");
    let e = err(&[&base[..], &["--margin", "-1"]].concat());
    assert!(e.contains("margin"), "{e}");
    let e = err(&[&base[..], &["--chunk-size", "0"]].concat());
    assert!(e.contains("chunk_size"), "{e}");
    // a checkpoint of another run is not resumed, unless --fresh
    std::fs::write(checkpoint(&out), b"PROXIMA-BATCH-CK something else").unwrap();
    let o = run(&base);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--fresh"), "{}", String::from_utf8_lossy(&o.stderr));
    ok(&[&base[..], &["--fresh"]].concat());
    assert!(out.exists() && !checkpoint(&out).exists());
    let _ = std::fs::remove_dir_all(&dir);
}
