//! MatrixMarket reader/writer and benchmark manifests.

use proxima_lcp::Rational;
use proxima_lcp::io::{
    CooMatrix, IoErrorKind, ReadLimits, format_f64, read_manifest, read_mtx_lcp, read_mtx_lcp_exact,
    read_mtx_lcp_with, read_mtx_matrix, read_mtx_vector, write_mtx_array, write_mtx_coordinate,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[path = "support/testdata.rs"]
mod testdata;

fn dense() -> String {
    testdata::testdata("bench-lcp/dense")
}
const TINY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/bench/tiny");

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn dense_public_bench_problem_reads_with_n_100() {
    let m = read(&format!("{}/dense_r00_000.M.mtx", dense()));
    let q = read(&format!("{}/dense_r00_000.q.mtx", dense()));
    let lcp = read_mtx_lcp(&m, &q).unwrap();
    assert_eq!(lcp.n(), 100);
    assert_eq!(lcp.m()[0], 0.569922978915343);
    assert_eq!(lcp.m()[1], 0.02743323821597697);
    assert_eq!(lcp.q()[0], -0.5505317620599993);
    // The planted z reads as a vector and is a solution to within rounding.
    let z: Vec<f64> =
        read_mtx_vector(&read(&format!("{}/dense_r00_000.z.mtx", dense())), &ReadLimits::default()).unwrap();
    let res = lcp.residual(&z);
    assert!(res.min_map_inf < 1e-12, "{res:?}");
    // Symmetric as the manifest says.
    for i in 0..100 {
        for j in 0..100 {
            assert_eq!(lcp.m()[i * 100 + j], lcp.m()[j * 100 + i]);
        }
    }
}

#[test]
fn public_manifest_reads() {
    let man = read_manifest(&read(&format!("{}/manifest.json", dense()))).unwrap();
    assert_eq!(man.format_version, 1);
    assert_eq!(man.family, "dense");
    assert_eq!(man.problems.len(), 20);
    let p = &man.problems[0];
    assert_eq!(
        (p.name.as_str(), p.m.as_str(), p.n, p.nnz),
        ("dense_r00_000", "dense_r00_000.M.mtx", 100, Some(10000))
    );
    assert_eq!(p.z.as_deref(), Some("dense_r00_000.z.mtx"));
    assert_eq!(p.symmetric, Some(true));
}

#[test]
fn tiny_manifest_and_its_files_read() {
    let man = read_manifest(&read(&format!("{TINY}/manifest.json"))).unwrap();
    assert_eq!(man.problems.len(), 3);
    for p in &man.problems {
        let lcp = read_mtx_lcp(&read(&format!("{TINY}/{}", p.m)), &read(&format!("{TINY}/{}", p.q))).unwrap();
        assert_eq!(lcp.n(), p.n, "{}", p.name);
    }
}

#[test]
fn manifest_errors() {
    assert_eq!(read_manifest("").unwrap_err().kind(), IoErrorKind::Empty);
    assert_eq!(read_manifest("{").unwrap_err().kind(), IoErrorKind::Syntax);
    let e = read_manifest("{\"format_version\": 1,\n \"family\": \"x\"}").unwrap_err();
    assert_eq!(e.kind(), IoErrorKind::Schema);
    assert!(e.to_string().contains("problems"), "{e}");
    let e = read_manifest("{\"format_version\": 2, \"family\": \"x\", \"problems\": []}").unwrap_err();
    assert_eq!(e.kind(), IoErrorKind::Unsupported);
    let p = "{\"name\": \"a\", \"M\": \"a.M.mtx\", \"q\": \"a.q.mtx\", \"n\": 1}";
    let e = read_manifest(&format!("{{\"format_version\": 1, \"family\": \"x\", \"problems\": [{p}, {p}]}}"))
        .unwrap_err();
    assert_eq!(e.kind(), IoErrorKind::Duplicate);
}

/// Values spanning the double range: subnormals, huge, negative zero, integers, fractions.
fn awkward_value(rng: &mut SmallRng) -> f64 {
    match rng.random_range(0..6) {
        0 => f64::from_bits(rng.random::<u64>() >> 12), // subnormal or tiny
        1 => (rng.random::<f64>() - 0.5) * 1e300,
        2 => rng.random_range(-1000i32..1000) as f64,
        3 => -0.0,
        4 => {
            let bits = rng.random::<u64>();
            let v = f64::from_bits(bits);
            if v.is_finite() { v } else { 1.0 }
        }
        _ => rng.random::<f64>() - 0.5,
    }
}

#[test]
fn coordinate_round_trip_is_bit_identical() {
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..20 {
        let (nr, nc) = (rng.random_range(1..30), rng.random_range(1..30));
        let mut entries = Vec::new();
        for i in 0..nr {
            for j in 0..nc {
                if rng.random_bool(0.3) {
                    entries.push((i, j, awkward_value(&mut rng)));
                }
            }
        }
        let m = CooMatrix::new(nr, nc, entries).unwrap();
        let mut out = Vec::new();
        write_mtx_coordinate(&mut out, &m, Some("round trip\nsecond comment line")).unwrap();
        let text = String::from_utf8(out).unwrap();
        let back: CooMatrix<f64> = read_mtx_matrix(&text).unwrap();
        assert_eq!((back.nrows(), back.ncols(), back.nnz()), (nr, nc, m.nnz()));
        for (a, b) in m.entries().iter().zip(back.entries()) {
            assert_eq!((a.0, a.1, a.2.to_bits()), (b.0, b.1, b.2.to_bits()), "{}", format_f64(a.2));
        }
    }
}

#[test]
fn array_round_trip_is_bit_identical() {
    let mut rng = SmallRng::seed_from_u64(11);
    let (nr, nc) = (7, 3);
    let data: Vec<f64> = (0..nr * nc).map(|_| awkward_value(&mut rng)).collect();
    let mut out = Vec::new();
    write_mtx_array(&mut out, nr, nc, &data, None).unwrap();
    let back: CooMatrix<f64> = read_mtx_matrix(std::str::from_utf8(&out).unwrap()).unwrap();
    let dense = back.to_dense().unwrap();
    assert_eq!(
        dense.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        data.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    // A vector.
    let mut out = Vec::new();
    write_mtx_array(&mut out, 4, 1, &[0.1, -2.0, 1e-300, 3.5e20], Some("q")).unwrap();
    let v: Vec<f64> = read_mtx_vector(std::str::from_utf8(&out).unwrap(), &ReadLimits::default()).unwrap();
    assert_eq!(v, vec![0.1, -2.0, 1e-300, 3.5e20]);
    // Wrong data length is an error, not a panic.
    assert!(write_mtx_array(&mut Vec::new(), 2, 2, &[1.0], None).is_err());
}

#[test]
fn dense_lcp_round_trip_through_writers() {
    let lcp = read_mtx_lcp(
        &read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/mtx/example5.M.mtx")),
        &read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/mtx/example5.q.mtx")),
    )
    .unwrap();
    assert_eq!(lcp.m(), &[1.0, 0.0, -2.0, 0.0, 2.0, -1.0, 2.0, 1.0, 0.0]);
    let coo = CooMatrix::from_dense(3, 3, lcp.m()).unwrap();
    assert_eq!(coo.nnz(), 6);
    let (mut m_out, mut q_out) = (Vec::new(), Vec::new());
    write_mtx_coordinate(&mut m_out, &coo, None).unwrap();
    write_mtx_array(&mut q_out, 3, 1, lcp.q(), None).unwrap();
    let back =
        read_mtx_lcp(std::str::from_utf8(&m_out).unwrap(), std::str::from_utf8(&q_out).unwrap()).unwrap();
    assert_eq!(back, lcp);
}

#[test]
fn symmetric_files_are_mirrored() {
    let text = "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 4\n2 1 -1\n3 2 0.5\n3 3 2\n";
    let m: CooMatrix<f64> = read_mtx_matrix(text).unwrap();
    assert_eq!(m.to_dense().unwrap(), vec![4.0, -1.0, 0.0, -1.0, 0.0, 0.5, 0.0, 0.5, 2.0]);
    let skew = "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3\n";
    let m: CooMatrix<f64> = read_mtx_matrix(skew).unwrap();
    assert_eq!(m.to_dense().unwrap(), vec![0.0, -3.0, 3.0, 0.0]);
    // Both triangles of the same pair in a symmetric file: a duplicate.
    let dup = "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 1\n1 2 1\n";
    let e = read_mtx_matrix::<f64>(dup).unwrap_err();
    assert_eq!(e.kind(), IoErrorKind::Duplicate);
    assert_eq!(e.line(), Some(4));
}

#[test]
fn exact_reading_keeps_decimal_text() {
    let m = "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 0.1\n";
    let q = "%%MatrixMarket matrix array real general\n1 1\n-2.5e-3\n";
    let lcp = read_mtx_lcp_exact(m, q).unwrap();
    assert_eq!(lcp.m()[0], Rational::new(1, 10));
    assert_eq!(lcp.q()[0], Rational::new(-1, 400));
    assert_eq!(read_mtx_lcp(m, q).unwrap().m()[0], 0.1);
}

#[test]
fn integer_field_comments_and_crlf_are_accepted() {
    let m =
        "%%MatrixMarket matrix coordinate integer general\r\n% c\r\n\r\n2 2 2\r\n1 1 3\r\n% mid\r\n2 2 4\r\n";
    let q = "%%MatrixMarket matrix coordinate real general\n2 1 1\n2 1 -1\n";
    let lcp = read_mtx_lcp(m, q).unwrap();
    assert_eq!(lcp.m(), &[3.0, 0.0, 0.0, 4.0]);
    assert_eq!(lcp.q(), &[0.0, -1.0]);
}

fn m_err(text: &str) -> (IoErrorKind, Option<usize>, String) {
    let e = read_mtx_matrix::<f64>(text).unwrap_err();
    (e.kind(), e.line(), e.to_string())
}

#[test]
fn malformed_matrices_are_clear_errors() {
    const H: &str = "%%MatrixMarket matrix coordinate real general\n";
    let cases: Vec<(String, IoErrorKind, Option<usize>, &str)> = vec![
        (String::new(), IoErrorKind::Empty, None, "empty"),
        ("hello\n1 1 1\n".into(), IoErrorKind::Header, Some(1), "not a MatrixMarket file"),
        ("%%MatrixMarket matrix coordinate real\n".into(), IoErrorKind::Header, Some(1), "banner"),
        (
            "%%MatrixMarket matrix coordinate complex general\n".into(),
            IoErrorKind::Unsupported,
            Some(1),
            "complex",
        ),
        (
            "%%MatrixMarket matrix coordinate pattern general\n".into(),
            IoErrorKind::Unsupported,
            Some(1),
            "pattern",
        ),
        (
            "%%MatrixMarket vector coordinate real general\n".into(),
            IoErrorKind::Unsupported,
            Some(1),
            "object",
        ),
        (
            "%%MatrixMarket matrix array real symmetric\n".into(),
            IoErrorKind::Unsupported,
            Some(1),
            "symmetry",
        ),
        (H.into(), IoErrorKind::Header, None, "missing size line"),
        (format!("{H}2 2\n"), IoErrorKind::Header, Some(2), "3 integers"),
        (format!("{H}2 -2 1\n"), IoErrorKind::Header, Some(2), "not a non-negative integer"),
        (format!("{H}2 2 5\n"), IoErrorKind::Header, Some(2), "exceeds"),
        (format!("{H}2 2 2\n1 1 1\n"), IoErrorKind::Count, None, "expected 2 entries, found 1"),
        (format!("{H}2 2 1\n1 1 1\n2 2 1\n"), IoErrorKind::Count, Some(4), "more entry lines"),
        (format!("{H}2 2 1\n0 1 1\n"), IoErrorKind::Index, Some(3), "row index 0 out of range 1..=2"),
        (format!("{H}2 2 1\n1 3 1\n"), IoErrorKind::Index, Some(3), "column index 3"),
        (format!("{H}2 2 1\n1 x 1\n"), IoErrorKind::Syntax, Some(3), "not an integer"),
        (format!("{H}2 2 1\n1 1\n"), IoErrorKind::Syntax, Some(3), "3 fields"),
        (format!("{H}2 2 1\n1 1 NaN\n"), IoErrorKind::NonFinite, Some(3), "\"NaN\""),
        (format!("{H}2 2 1\n1 1 -Inf\n"), IoErrorKind::NonFinite, Some(3), "finite"),
        (format!("{H}2 2 1\n1 1 1e400\n"), IoErrorKind::NonFinite, Some(3), "f64 range"),
        (format!("{H}2 2 1\n1 1 one\n"), IoErrorKind::Number, Some(3), "\"one\""),
        (format!("{H}2 2 2\n1 1 1\n1 1 2\n"), IoErrorKind::Duplicate, Some(4), "first given on line 3"),
        (
            "%%MatrixMarket matrix array real general\n2 1\n1\n".into(),
            IoErrorKind::Count,
            None,
            "expected 2 values",
        ),
        (
            "%%MatrixMarket matrix array real general\n1 1\n1 2\n".into(),
            IoErrorKind::Count,
            Some(3),
            "more values",
        ),
    ];
    for (text, kind, line, needle) in cases {
        let (k, l, msg) = m_err(&text);
        assert_eq!((k, l), (kind, line), "{text:?}: {msg}");
        assert!(msg.contains(needle), "{text:?}: {msg:?} should mention {needle:?}");
        assert!(!msg.contains('\n'));
    }
}

#[test]
fn malformed_lcp_pairs_are_clear_errors() {
    let m2 = "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n";
    let m23 = "%%MatrixMarket matrix coordinate real general\n2 3 1\n1 1 1\n";
    let q2 = "%%MatrixMarket matrix array real general\n2 1\n1\n2\n";
    let q3 = "%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n";
    let q22 = "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n";
    let e = read_mtx_lcp(m23, q2).unwrap_err();
    assert_eq!(e.kind(), IoErrorKind::Dimension);
    assert!(e.to_string().contains("M: matrix is 2 x 3"), "{e}");
    let e = read_mtx_lcp(m2, q3).unwrap_err();
    assert_eq!(e.kind(), IoErrorKind::Dimension);
    assert!(e.to_string().contains("q has 3 entries"), "{e}");
    let e = read_mtx_lcp(m2, q22).unwrap_err();
    assert_eq!(e.kind(), IoErrorKind::Dimension);
    assert!(e.to_string().starts_with("q: "), "{e}");
    let e = read_mtx_lcp(m2, "").unwrap_err();
    assert_eq!(e.kind(), IoErrorKind::Empty);
    let e = read_mtx_lcp("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 zz\n", q2).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 3: M: not a number \"zz\": expected a decimal like -2.5e-3 or a fraction p/q"
    );
    // An absurd size is rejected before the dense M is allocated.
    let huge = "%%MatrixMarket matrix coordinate real general\n1000000000000 1000000000000 0\n";
    let qh = "%%MatrixMarket matrix coordinate real general\n1000000000000 1 0\n";
    assert_eq!(read_mtx_lcp(huge, qh).unwrap_err().kind(), IoErrorKind::TooLarge);
    assert_eq!(
        read_mtx_lcp_with::<f64>(m2, q2, &ReadLimits::new(1)).unwrap_err().kind(),
        IoErrorKind::TooLarge
    );
    assert!(read_mtx_lcp_with::<f64>(m2, q2, &ReadLimits::new(2)).is_ok());
}

#[test]
fn coo_constructor_validates() {
    assert_eq!(CooMatrix::new(2, 2, vec![(2, 0, 1.0)]).unwrap_err().kind(), IoErrorKind::Index);
    assert_eq!(
        CooMatrix::new(2, 2, vec![(1, 0, 1.0), (1, 0, 2.0)]).unwrap_err().kind(),
        IoErrorKind::Duplicate
    );
    let m = CooMatrix::new(2, 2, vec![(1, 0, 2.0), (0, 1, 3.0)]).unwrap();
    assert_eq!(m.entries()[0], (0, 1, 3.0));
    assert_eq!(m.mul_vec(&[1.0, 10.0]), Some(vec![30.0, 2.0]));
    assert_eq!(m.mul_vec(&[1.0]), None);
    assert!(CooMatrix::from_dense(2, 2, &[1.0]).is_none());
}
