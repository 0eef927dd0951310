//! Siconos `.dat` reader: every vendored test file, block/dense twins, known values, exact
//! reading, malformed inputs.

use std::path::PathBuf;

use proxima_lcp::io::{
    IoErrorKind, ReadLimits, read_siconos_lcp, read_siconos_lcp_exact, read_siconos_lcp_with,
};
use proxima_lcp::{Lcp, Rational};

#[path = "support/testdata.rs"]
mod testdata;

fn dir() -> String {
    testdata::testdata("siconos-lcp")
}

fn dat_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("vendored Siconos test data")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
        .collect();
    files.sort();
    files
}

fn read(name: &str) -> String {
    std::fs::read_to_string(format!("{}/{name}.dat", dir())).unwrap()
}

fn r(s: &str) -> Rational {
    Rational::parse(s).unwrap()
}

#[test]
fn every_vendored_file_parses_in_f64_and_exactly() {
    let files = dat_files();
    assert_eq!(files.len(), 20, "{files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let f = read_siconos_lcp(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let x = read_siconos_lcp_exact(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(f.n(), x.n());
        assert!(f.n() >= 2 && f.n() <= 40);
        // The exact data rounds to the f64 data.
        for (a, b) in f.m().iter().zip(x.m()).chain(f.q().iter().zip(x.q())) {
            assert_eq!(*a, b.to_f64(), "{}", path.display());
        }
    }
}

#[test]
fn sizes_match_the_readme() {
    for (name, n) in [
        ("lcp_CPS_1", 2),
        ("lcp_CPS_2", 3),
        ("lcp_CPS_3", 4),
        ("lcp_enum_fails", 9),
        ("lcp_mmc", 26),
        ("lcp_tobenna", 40),
        ("lcp_trivial", 9),
    ] {
        assert_eq!(read_siconos_lcp(&read(name)).unwrap().n(), n, "{name}");
    }
}

#[test]
fn block_files_equal_their_dense_twins() {
    for name in ["lcp_deudeu", "lcp_ortiz", "lcp_trivial"] {
        let dense = read_siconos_lcp(&read(name)).unwrap();
        let block = read_siconos_lcp(&read(&format!("{name}_block"))).unwrap();
        assert_eq!(dense, block, "{name}");
        let dense = read_siconos_lcp_exact(&read(name)).unwrap();
        let block = read_siconos_lcp_exact(&read(&format!("{name}_block"))).unwrap();
        assert_eq!(dense, block, "{name} (exact)");
    }
}

#[test]
fn murty_is_upper_triangular_with_two_above_the_diagonal() {
    let lcp = read_siconos_lcp(&read("lcp_exp_murty")).unwrap();
    let n = lcp.n();
    assert_eq!(n, 6);
    for i in 0..n {
        for j in 0..n {
            let expected = match j.cmp(&i) {
                std::cmp::Ordering::Less => 0.0,
                std::cmp::Ordering::Equal => 1.0,
                std::cmp::Ordering::Greater => 2.0,
            };
            assert_eq!(lcp.m()[i * n + j], expected, "M[{i}][{j}]");
        }
    }
    assert_eq!(lcp.q(), &[-1.0; 6]);
}

/// The README's exact solutions have zero residual against the data as read: this pins the
/// column-major orientation of M (a transposed read fails most of these).
#[test]
fn readme_ground_truth_solutions_are_exact_solutions() {
    let cases: [(&str, &[&str]); 14] = [
        ("lcp_CPS_1", &["0", "1"]),
        ("lcp_CPS_2", &["0", "1", "3"]),
        ("lcp_CPS_3", &["0", "1/15", "0", "1/15"]),
        ("lcp_CPS_4", &["2", "2", "2", "92"]),
        ("lcp_CPS_4bis", &["3", "3", "0", "83"]),
        ("lcp_CPS_5", &["0", "1"]),
        ("lcp_Pang_isolated_sol", &["1", "0", "0"]),
        ("lcp_deudeu", &["4/3", "7/3"]),
        ("lcp_deudeu_block", &["4/3", "7/3"]),
        ("lcp_exp_murty", &["0", "0", "0", "0", "0", "1"]),
        ("lcp_exp_murty2", &["0", "0", "0", "0", "0", "64"]),
        ("lcp_inf_sol_perturbed", &["1", "0", "1/10000"]),
        ("lcp_ortiz_block", &["2/3", "0", "1/3", "0"]),
        ("lcp_trivial_block", &["1", "1/2", "1/3", "1/4", "1/5", "1/6", "1/7", "1/8", "1/9"]),
    ];
    for (name, z) in cases {
        let lcp: Lcp<Rational> = read_siconos_lcp_exact(&read(name)).unwrap();
        let z: Vec<Rational> = z.iter().map(|s| r(s)).collect();
        let res = lcp.residual(&z);
        assert_eq!(res.min_map_inf, r("0"), "{name}");
        assert_eq!(res.complementarity, r("0"), "{name}");
        assert!(res.min_z >= r("0") && res.min_w >= r("0"), "{name}");
    }
}

#[test]
fn exact_mode_reads_decimal_text_exactly() {
    let lcp = read_siconos_lcp_exact(&read("lcp_Pang_isolated_sol_perturbed")).unwrap();
    assert_eq!(lcp.q()[0], r("-1/10000"));
    let lcp = read_siconos_lcp_exact(&read("lcp_enum_fails")).unwrap();
    // "2.000000000000000111022302e-01" is not the double 0.2 and not 1/5.
    assert_eq!(lcp.m()[2 * 9], r("0.2000000000000000111022302"));
}

fn err(text: &str) -> (IoErrorKind, String) {
    let e = read_siconos_lcp(text).unwrap_err();
    (e.kind(), e.to_string())
}

#[test]
fn malformed_inputs_are_clear_errors() {
    let cases: &[(&str, IoErrorKind, &str)] = &[
        ("", IoErrorKind::Empty, "empty"),
        ("  \n\n", IoErrorKind::Empty, "empty"),
        ("0\n0\n0\n0\n", IoErrorKind::Empty, "n = 0"),
        ("x\n", IoErrorKind::Header, "n (the problem size)"),
        ("-2\n0\n", IoErrorKind::Header, "non-negative integer"),
        ("1000000000000\n0\n", IoErrorKind::TooLarge, "limit"),
        ("2\n2\n2\n2\n", IoErrorKind::Unsupported, "storage type 2"),
        ("2\n7\n2\n2\n", IoErrorKind::Header, "unknown storage type 7"),
        ("2\n0\n3\n2\n", IoErrorKind::Dimension, "M is 3 x 2 but n = 2"),
        ("2\n0\n2\n2\n2 2\n1 1\n1 1\n-1\n", IoErrorKind::Count, "q entry 2"),
        ("2\n0\n2\n2\n2 2\n1 1\n1", IoErrorKind::Count, "M row 2, column 2"),
        ("2\n0\n2\n2\n2 2\n1 nan\n1 1\n-1 -1\n", IoErrorKind::NonFinite, "line 6: M row 2, column 1"),
        ("2\n0\n2\n2\n2 2\n1 1\n1 1\n-1 inf\n", IoErrorKind::NonFinite, "q entry 2"),
        ("2\n0\n2\n2\n2 2\n1 1\n1 abc\n-1 -1\n", IoErrorKind::Number, "\"abc\""),
        ("2\n0\n2\n2\n2 2\n1 1\n1 1e999\n-1 -1\n", IoErrorKind::NonFinite, "out of the f64 range"),
        // Sparse block: wrong block number, sizes not adding up, bad row pointers.
        (
            "2\n1\n2\n2\n1\n1\n1\n2\n2\n2\n1\n0 1\n0\n5\n1 2 3 4\n-1 -1\n",
            IoErrorKind::Syntax,
            "expected block 0",
        ),
        ("2\n1\n2\n2\n1\n1\n1\n1\n2\n2\n1\n0 1\n0\n0\n1\n-1 -1\n", IoErrorKind::Dimension, "add up to 1"),
        ("2\n1\n2\n2\n1\n1\n1\n2\n2\n3\n1\n", IoErrorKind::Header, "filled1"),
        ("2\n1\n2\n2\n1\n1\n1\n2\n2\n2\n1\n0 2\n", IoErrorKind::Index, "index1_data"),
        ("2\n1\n2\n2\n1\n1\n1\n2\n2\n2\n1\n0 1\n3\n", IoErrorKind::Index, "block column index 3"),
        ("2\n1\n2\n2\n9\n", IoErrorKind::Header, "cannot fit"),
    ];
    for (text, kind, needle) in cases {
        let (k, msg) = err(text);
        assert_eq!(k, *kind, "{text:?}: {msg}");
        assert!(msg.contains(needle), "{text:?}: {msg:?} should mention {needle:?}");
        assert!(!msg.contains('\n'));
    }
}

#[test]
fn dense_header_without_the_repeated_size_line_is_read() {
    let lcp = read_siconos_lcp("2\n0\n2\n2\n1 3\n2 4\n-1 -1\n").unwrap();
    assert_eq!(lcp.m(), &[1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn sparse_block_with_no_blocks_is_the_zero_matrix() {
    let lcp = read_siconos_lcp("2\n1\n2\n2\n0\n1 2\n").unwrap();
    assert_eq!(lcp.m(), &[0.0; 4]);
    assert_eq!(lcp.q(), &[1.0, 2.0]);
}

#[test]
fn limits_are_checked_before_allocating() {
    let e = read_siconos_lcp_with::<f64>("100\n1\n100\n100\n0\n", &ReadLimits::new(10)).unwrap_err();
    assert_eq!(e.kind(), IoErrorKind::TooLarge);
}
