//! JSON problem files: LCPs and QPs, exact and rounded numbers, malformed inputs.

use proxima_lcp::io::{IoErrorKind, ProblemFile, ReadLimits, read_json_problem, read_json_problem_with};
use proxima_lcp::{ConvexQp, Lcp, Rational};

const TESTDATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata");

fn r(s: &str) -> Rational {
    Rational::parse(s).unwrap()
}

fn lcp<T: proxima_lcp::io::ParseScalar>(text: &str) -> Lcp<T> {
    match read_json_problem::<T>(text) {
        Ok(ProblemFile::Lcp(lcp)) => lcp,
        Ok(ProblemFile::Qp(_)) => panic!("expected an LCP"),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn example5_reads_exactly_and_in_f64() {
    let text = std::fs::read_to_string(format!("{TESTDATA}/lcp/example5.json")).unwrap();
    let exact: Lcp<Rational> = lcp(&text);
    assert_eq!(exact.n(), 3);
    assert_eq!(exact.m(), &[r("1"), r("0"), r("-2"), r("0"), r("2"), r("-1"), r("2"), r("1"), r("0")]);
    let float: Lcp<f64> = lcp(&text);
    assert_eq!(float.q(), &[-1.0, -1.0, -1.0]);
}

#[test]
fn every_example_lcp_file_reads() {
    for name in ["example1", "example2", "example3", "example5", "fractions"] {
        let text = std::fs::read_to_string(format!("{TESTDATA}/lcp/{name}.json")).unwrap();
        let _: Lcp<f64> = lcp(&text);
        let _: Lcp<Rational> = lcp(&text);
    }
}

#[test]
fn numbers_are_read_from_their_text() {
    let text = r#"{"kind": "lcp", "M": [["2", "1/3"], ["1/3", 1]], "q": ["-11/30", 0.1]}"#;
    let exact: Lcp<Rational> = lcp(text);
    assert_eq!(exact.m()[1], r("1/3"));
    assert_eq!(exact.q(), &[r("-11/30"), r("1/10")]);
    let float: Lcp<f64> = lcp(text);
    assert_eq!(float.m()[1], 1.0 / 3.0);
    assert_eq!(float.q(), &[-11.0 / 30.0, 0.1]);
    // Exponents, negative zero, strings with spaces.
    let text = r#"{"kind": "lcp", "M": [[-2.5e-3]], "q": [" -0 "]}"#;
    let exact: Lcp<Rational> = lcp(text);
    assert_eq!(exact.m()[0], r("-1/400"));
    let float: Lcp<f64> = lcp(text);
    assert!(float.q()[0] == 0.0 && float.q()[0].is_sign_negative());
}

#[test]
fn informational_keys_are_ignored() {
    let text = r#"{"kind": "lcp", "name": "x", "_note": [1, {"a": null}], "expected": {"z": [1]},
                   "M": [[1]], "q": [-1]}"#;
    let _: Lcp<f64> = lcp(text);
}

fn err(text: &str) -> (IoErrorKind, String) {
    let e = read_json_problem::<f64>(text).unwrap_err();
    let e2 = read_json_problem::<Rational>(text).unwrap_err();
    assert_eq!(e.kind(), e2.kind(), "{text}");
    (e.kind(), e.to_string())
}

#[test]
fn malformed_lcp_files_are_clear_errors() {
    let cases: &[(&str, IoErrorKind, &str)] = &[
        ("", IoErrorKind::Empty, "empty"),
        ("[1, 2]", IoErrorKind::Schema, "expected a JSON object"),
        ("{\"kind\": \"lcp\", \"M\": [[1]]", IoErrorKind::Syntax, "line 1: expected ',' or '}'"),
        ("{\"M\": [[1]], \"q\": [1]}", IoErrorKind::Schema, "missing field \"kind\""),
        ("{\"kind\": 3}", IoErrorKind::Schema, "\"kind\" must be"),
        ("{\"kind\": \"nlp\"}", IoErrorKind::Schema, "unknown kind \"nlp\""),
        ("{\"kind\": \"lcp\", \"q\": [1]}", IoErrorKind::Schema, "missing field \"M\""),
        ("{\"kind\": \"lcp\", \"M\": [[1]]}", IoErrorKind::Schema, "missing field \"q\""),
        ("{\"kind\": \"lcp\", \"M\": [], \"q\": []}", IoErrorKind::Empty, "q is empty"),
        (
            "{\"kind\": \"lcp\",\n \"M\": [[1, 2, 3, 4], [1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4]],\n \"q\": [1, 2, 3, 4]}",
            IoErrorKind::Dimension,
            "line 2: M row 2 has 3 entries, expected 4",
        ),
        (
            "{\"kind\": \"lcp\", \"M\": [[1, 2], [3, 4]], \"q\": [1, 2, 3]}",
            IoErrorKind::Dimension,
            "row 1 has 2 entries, expected 3",
        ),
        (
            "{\"kind\": \"lcp\", \"M\": [[1, 2]], \"q\": [1, 2]}",
            IoErrorKind::Dimension,
            "M has 1 rows but q has 2 entries",
        ),
        (
            "{\"kind\": \"lcp\", \"M\": [1, 2], \"q\": [1, 2]}",
            IoErrorKind::Schema,
            "M row 1 must be an array",
        ),
        ("{\"kind\": \"lcp\", \"M\": [[1]], \"q\": 1}", IoErrorKind::Schema, "q must be an array"),
        ("{\"kind\": \"lcp\", \"M\": [[NaN]], \"q\": [1]}", IoErrorKind::NonFinite, "NaN"),
        ("{\"kind\": \"lcp\", \"M\": [[\"nan\"]], \"q\": [1]}", IoErrorKind::NonFinite, "M row 1, column 1"),
        (
            "{\"kind\": \"lcp\", \"M\": [[1]], \"q\": [\"abc\"]}",
            IoErrorKind::Number,
            "q entry 1: not a number \"abc\"",
        ),
        ("{\"kind\": \"lcp\", \"M\": [[1]], \"q\": [\"1/0\"]}", IoErrorKind::Number, "zero denominator"),
        ("{\"kind\": \"lcp\", \"M\": [[true]], \"q\": [1]}", IoErrorKind::Schema, "found a boolean"),
        (
            "{\"kind\": \"lcp\", \"M\": [[1]], \"q\": [1], \"Q\": 2}",
            IoErrorKind::Schema,
            "unknown field \"Q\"",
        ),
        (
            "{\"kind\": \"lcp\", \"M\": [[1]], \"q\": [1], \"q\": [2]}",
            IoErrorKind::Duplicate,
            "duplicate key \"q\"",
        ),
        (
            "{\"kind\": \"lcp\", \"M\": [[1]], \"q\": [1]} extra",
            IoErrorKind::Syntax,
            "after the JSON document",
        ),
    ];
    for (text, kind, needle) in cases {
        let (k, msg) = err(text);
        assert_eq!(k, *kind, "{text:?}: {msg}");
        assert!(msg.contains(needle), "{text:?}: {msg:?} should mention {needle:?}");
        assert!(!msg.contains('\n'));
    }
}

#[test]
fn out_of_range_for_f64_is_an_error_only_in_f64() {
    let text = r#"{"kind": "lcp", "M": [[1e999]], "q": [1]}"#;
    let e = read_json_problem::<f64>(text).unwrap_err();
    assert_eq!(e.kind(), IoErrorKind::NonFinite);
    assert!(e.to_string().contains("f64 range"), "{e}");
    let exact: Lcp<Rational> = lcp(text);
    assert_eq!(exact.m()[0], r("1e999"));
}

#[test]
fn malformed_qp_files_are_clear_errors() {
    // All of these are rejected before a QP is built.
    let cases: &[(&str, IoErrorKind, &str)] = &[
        ("{\"kind\": \"qp\"}", IoErrorKind::Schema, "missing field \"b\""),
        ("{\"kind\": \"qp\", \"b\": []}", IoErrorKind::Empty, "b is empty"),
        (
            "{\"kind\": \"qp\", \"b\": [1, 2], \"A\": [[1, 0]]}",
            IoErrorKind::Dimension,
            "A has 1 rows but b has 2",
        ),
        (
            "{\"kind\": \"qp\", \"b\": [1, 2], \"A\": [[1, 0], [0]]}",
            IoErrorKind::Dimension,
            "A row 2 has 1 entries",
        ),
        ("{\"kind\": \"qp\", \"b\": [1, 2], \"D\": [[1, 1]]}", IoErrorKind::Schema, "\"D\" needs \"e\""),
        ("{\"kind\": \"qp\", \"b\": [1, 2], \"e\": [1]}", IoErrorKind::Schema, "\"e\" needs \"D\""),
        (
            "{\"kind\": \"qp\", \"b\": [1, 2], \"D\": [[1, 1]], \"e\": [1, 2]}",
            IoErrorKind::Dimension,
            "e has 2 entries but D has 1 rows",
        ),
        (
            "{\"kind\": \"qp\", \"b\": [1, 2], \"Aeq\": [[1]], \"beq\": [1]}",
            IoErrorKind::Dimension,
            "Aeq row 1 has 1 entries, expected 2",
        ),
        (
            "{\"kind\": \"qp\", \"b\": [1, 2], \"free\": [2]}",
            IoErrorKind::Index,
            "free index 2 out of range 0..2",
        ),
        ("{\"kind\": \"qp\", \"b\": [1, 2], \"free\": [1, 1]}", IoErrorKind::Duplicate, "listed twice"),
        (
            "{\"kind\": \"qp\", \"b\": [1, 2], \"free\": [-1]}",
            IoErrorKind::Schema,
            "not a non-negative integer",
        ),
        (
            "{\"kind\": \"qp\", \"b\": [1, 2], \"free\": [0.5]}",
            IoErrorKind::Schema,
            "not a non-negative integer",
        ),
        ("{\"kind\": \"qp\", \"b\": [1, 2], \"c\": [1]}", IoErrorKind::Schema, "c must be a number"),
        ("{\"kind\": \"qp\", \"b\": [1, 2], \"M\": [[1]]}", IoErrorKind::Schema, "unknown field \"M\""),
    ];
    for (text, kind, needle) in cases {
        let (k, msg) = err(text);
        assert_eq!(k, *kind, "{text:?}: {msg}");
        assert!(msg.contains(needle), "{text:?}: {msg:?} should mention {needle:?}");
    }
}

#[test]
fn limits_bound_the_problem_size() {
    let text = r#"{"kind": "lcp", "M": [[1, 0], [0, 1]], "q": [1, 1]}"#;
    let e = read_json_problem_with::<f64>(text, &ReadLimits::new(1)).unwrap_err();
    assert_eq!(e.kind(), IoErrorKind::TooLarge);
    let qp = r#"{"kind": "qp", "b": [1, 1], "D": [[1, 1], [1, 0]], "e": [0, 0]}"#;
    let e = read_json_problem_with::<f64>(qp, &ReadLimits::new(3)).unwrap_err();
    assert_eq!(e.kind(), IoErrorKind::TooLarge);
}

#[test]
fn qp_files_build_the_same_problem_as_the_api() {
    let text = std::fs::read_to_string(format!("{TESTDATA}/qp/example5.json")).unwrap();
    let Ok(ProblemFile::Qp(qp)) = read_json_problem::<Rational>(&text) else { panic!("expected a QP") };
    let api = ConvexQp::new(vec![r("1"), r("0"), r("0"), r("2")], vec![r("-1"), r("-1")], r("0"))
        .unwrap()
        .with_inequalities(vec![r("2"), r("1")], vec![r("1")])
        .unwrap();
    assert_eq!(qp, api);

    let text = std::fs::read_to_string(format!("{TESTDATA}/qp/example1.json")).unwrap();
    let Ok(ProblemFile::Qp(lp)) = read_json_problem::<f64>(&text) else { panic!("expected a QP") };
    let api = ConvexQp::linear(vec![2.0, -1.0], 0.0)
        .unwrap()
        .with_inequalities(vec![-1.0, -1.0, 1.0, 2.0], vec![-3.0, 2.0])
        .unwrap();
    assert_eq!(lp, api);

    let text = r#"{"kind": "qp", "A": [[2, 0], [0, 2]], "b": [0, "-1/3"], "c": "1/2", "free": [1],
                   "Aeq": [[1, 1]], "beq": [1], "D": [], "e": []}"#;
    let Ok(ProblemFile::Qp(qp)) = read_json_problem::<Rational>(text) else { panic!("expected a QP") };
    let api = ConvexQp::new(vec![r("2"), r("0"), r("0"), r("2")], vec![r("0"), r("-1/3")], r("1/2"))
        .unwrap()
        .with_equalities(vec![r("1"), r("1")], vec![r("1")])
        .unwrap()
        .with_free(vec![1])
        .unwrap();
    assert_eq!(qp, api);
}
