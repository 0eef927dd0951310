//! Deterministic stand-in for the cargo-fuzz target `readers` (`fuzz/`): runs
//! `fuzz_readers` over every vendored Siconos file, the MatrixMarket and JSON samples, and
//! thousands of seeded byte-level mutations of them. It must never panic.

use proxima_lcp::io::{fuzz_readers, read_json_problem, read_siconos_lcp};
use rand::SeedableRng;
use rand::rngs::SmallRng;

#[path = "support/mutate.rs"]
mod mutate;
#[path = "support/testdata.rs"]
mod testdata;

use mutate::mutate;

fn siconos() -> String {
    testdata::testdata("siconos-lcp")
}
const TESTDATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata");
fn dense() -> String {
    testdata::testdata("bench-lcp/dense")
}

fn files_in(dir: &str, ext: &str) -> Vec<Vec<u8>> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

fn join_pair(m: &[u8], q: &[u8]) -> Vec<u8> {
    let mut v = m.to_vec();
    v.push(0);
    v.extend_from_slice(q);
    v
}

fn corpus() -> Vec<Vec<u8>> {
    let mut corpus = files_in(&siconos(), "dat");
    corpus.extend(files_in(&format!("{TESTDATA}/lcp"), "json"));
    corpus.extend(files_in(&format!("{TESTDATA}/qp"), "json"));
    let tiny = format!("{TESTDATA}/bench/tiny");
    corpus.extend(files_in(&tiny, "json"));
    for name in ["tiny_ex5", "tiny_murty", "tiny_ex3"] {
        let m = std::fs::read(format!("{tiny}/{name}.M.mtx")).unwrap();
        let q = std::fs::read(format!("{tiny}/{name}.q.mtx")).unwrap();
        corpus.push(join_pair(&m, &q));
    }
    corpus.push(b"%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 4\n2 1 -1\n3 2 0.5\n3 3 2\n\0%%MatrixMarket matrix coordinate real general\n3 1 2\n1 1 -1\n3 1 2\n".to_vec());
    // The first lines of a public bench problem (a big file: only its head is mutated).
    let m = std::fs::read(format!("{}/dense_r00_000.M.mtx", dense())).unwrap();
    let head: Vec<u8> =
        m.split(|&b| b == b'\n').take(40).flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
    corpus.push(head);
    corpus
}

#[test]
fn readers_never_panic_on_the_corpus_or_its_mutations() {
    let corpus = corpus();
    assert!(corpus.len() >= 30);
    for input in &corpus {
        fuzz_readers(input);
    }
    // PROXIMA_FUZZ_SCALE=N multiplies the number of mutations (for longer local runs, e.g.
    // `PROXIMA_FUZZ_SCALE=100 cargo test --release -p proxima-lcp --test io_fuzz`).
    let scale: usize = std::env::var("PROXIMA_FUZZ_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let seed: u64 = std::env::var("PROXIMA_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed);
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut runs, mut still_valid) = (0usize, 0usize);
    // Small inputs get more mutations; every input at least a few.
    for input in &corpus {
        let count = scale * if input.len() < 2_000 { 300 } else { 40 };
        for _ in 0..count {
            let mutated = mutate(&mut rng, input);
            fuzz_readers(&mutated);
            let text = String::from_utf8_lossy(&mutated);
            if read_siconos_lcp(&text).is_ok() || read_json_problem::<f64>(&text).is_ok() {
                still_valid += 1;
            }
            runs += 1;
        }
    }
    assert!(runs >= 3_000, "{runs}");
    // The mutations are not all rejected at the first byte: many still read, so the deeper
    // code paths are exercised too.
    assert!(still_valid * 10 >= runs, "{still_valid} of {runs} mutated inputs still read");
}

#[test]
fn pathological_inputs() {
    let deep = "[".repeat(10_000);
    fuzz_readers(deep.as_bytes());
    fuzz_readers(&[]);
    fuzz_readers(&[0]);
    fuzz_readers(&[0xff; 64]);
    fuzz_readers(b"%%MatrixMarket matrix coordinate real general\n18446744073709551615 18446744073709551615 18446744073709551615\n");
    fuzz_readers(b"%%MatrixMarket matrix array real general\n18446744073709551615 18446744073709551615\n1\n");
    fuzz_readers(b"18446744073709551615\n1\n18446744073709551615\n18446744073709551615\n");
    fuzz_readers(
        b"4\n1\n4\n4\n16\n4\n4\n1 2 3 4\n1 2 3 4\n5\n16\n0 4 8 12 16\n0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3\n",
    );
    fuzz_readers(b"{\"kind\":\"lcp\",\"M\":[[\"1e1000/1e-1000\"]],\"q\":[\"-1e-1000\"]}");
    let long_number = format!("{{\"kind\":\"lcp\",\"M\":[[1{}]],\"q\":[1]}}", "0".repeat(20_000));
    fuzz_readers(long_number.as_bytes());
}
