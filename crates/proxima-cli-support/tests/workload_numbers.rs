//! Workload numbers are read exactly: every decimal in a file becomes the f64 nearest to it
//! (what Python's `json`, coal's and Pinocchio's readers produce from the same file), so that
//! both sides of a comparison query the same poses. serde_json's default float parser may land
//! one ulp away; the workspace enables its `float_roundtrip` feature. 0.44252236665390643 is a
//! decimal the default parser reads one ulp low (found through a CLI test comparing a printed
//! time of impact with its re-parsed value).

use proxima_cli_support::workload::parse;

#[test]
fn workload_translations_are_the_nearest_doubles() {
    let decimals = ["0.44252236665390643", "-1.41744274678", "2.2250738585072014e-308", "0.1"];
    let text = format!(
        r#"{{"shapes": [{{"id": "s", "type": "sphere", "radius": 1}}],
            "queries": [{{"a": "s", "b": "s",
                "pose_a": {{"translation": [{}, {}, {}], "rotation": [[1,0,0],[0,1,0],[0,0,1]]}},
                "pose_b": {{"translation": [{}, 0, 0], "rotation": [[1,0,0],[0,1,0],[0,0,1]]}}}}],
            "tracks": []}}"#,
        decimals[0], decimals[1], decimals[2], decimals[3]
    );
    let w = parse(&text, "numbers").unwrap();
    let q = &w.queries[0];
    let got = [
        q.pose_a.translation().x,
        q.pose_a.translation().y,
        q.pose_a.translation().z,
        q.pose_b.translation().x,
    ];
    for (g, d) in got.iter().zip(decimals) {
        let want: f64 = d.parse().unwrap();
        assert_eq!(g.to_bits(), want.to_bits(), "{d} read as {g:e}");
    }
}
