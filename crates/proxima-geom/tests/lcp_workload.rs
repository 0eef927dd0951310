//! The boxes workload (the harness's `boxes.json`: 1500 random poses + 500 near-parallel pairs;
//! by default its vendored extract `testdata/geometry/workloads/boxes.json`, 150 + 100) through the certified `f64` box–box kernel: path counts, certified
//! gaps, and the bracket against the exact Rational solve on the near-parallel pairs.
//!
//! Ignored by default (it is meant for release builds):
//!
//! ```text
//! cargo test --release -p proxima-geom --test lcp_workload -- --ignored --nocapture
//! ```
//!
//! `$PROXIMA_BOXES_WORKLOAD` may name the full harness file instead; either way 3/5 of the
//! queries are random and the rest near-parallel.

use std::collections::BTreeMap;
use std::time::Instant;

use proxima_geom::lcp_queries::{BoxN, CertifySettings, KernelPath, box_box_distance, box_box_distance_f64};
use proxima_lcp::Rational;

/// A minimal JSON value (enough for the workload format).
#[derive(Debug, Clone)]
enum Json {
    Null,
    Bool,
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(v) => v.iter().find(|(k, _)| k == key).map(|(_, v)| v).unwrap_or(&Json::Null),
            _ => &Json::Null,
        }
    }
    fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(v) => v,
            _ => &[],
        }
    }
    fn num(&self) -> f64 {
        match self {
            Json::Num(x) => *x,
            _ => panic!("not a number: {self:?}"),
        }
    }
    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }
    fn vec3(&self) -> [f64; 3] {
        core::array::from_fn(|i| self.arr()[i].num())
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn value(&mut self) -> Json {
        self.ws();
        match self.s[self.i] {
            b'{' => {
                self.i += 1;
                let mut v = Vec::new();
                loop {
                    self.ws();
                    if self.s[self.i] == b'}' {
                        self.i += 1;
                        return Json::Obj(v);
                    }
                    let Json::Str(k) = self.value() else { panic!("object key") };
                    self.ws();
                    assert_eq!(self.s[self.i], b':');
                    self.i += 1;
                    let x = self.value();
                    v.push((k, x));
                    self.ws();
                    if self.s[self.i] == b',' {
                        self.i += 1;
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut v = Vec::new();
                loop {
                    self.ws();
                    if self.s[self.i] == b']' {
                        self.i += 1;
                        return Json::Arr(v);
                    }
                    v.push(self.value());
                    self.ws();
                    if self.s[self.i] == b',' {
                        self.i += 1;
                    }
                }
            }
            b'"' => {
                self.i += 1;
                let start = self.i;
                while self.s[self.i] != b'"' {
                    self.i += 1 + usize::from(self.s[self.i] == b'\\');
                }
                self.i += 1;
                Json::Str(String::from_utf8_lossy(&self.s[start..self.i - 1]).into_owned())
            }
            b't' | b'f' => {
                self.i += if self.s[self.i] == b't' { 4 } else { 5 };
                Json::Bool
            }
            b'n' => {
                self.i += 4;
                Json::Null
            }
            _ => {
                let start = self.i;
                while self.i < self.s.len() && b"+-0123456789.eE".contains(&self.s[self.i]) {
                    self.i += 1;
                }
                Json::Num(std::str::from_utf8(&self.s[start..self.i]).unwrap().parse().unwrap())
            }
        }
    }
}

/// The world-frame kernel box of a shape and a pose (axes = columns of R, as the API adapter).
fn world_box(half: [f64; 3], pose: &Json) -> BoxN<f64, 3> {
    let r: Vec<[f64; 3]> = pose.get("rotation").arr().iter().map(Json::vec3).collect();
    BoxN {
        center: pose.get("translation").vec3(),
        axes: core::array::from_fn(|j| [r[0][j], r[1][j], r[2][j]]),
        half_extents: half,
    }
}

fn load() -> Option<Vec<(BoxN<f64, 3>, BoxN<f64, 3>)>> {
    let path = std::env::var("PROXIMA_BOXES_WORKLOAD").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/geometry/workloads/boxes.json").into()
    });
    let text = std::fs::read(&path).ok()?;
    let root = Parser { s: &text, i: 0 }.value();
    let mut half = BTreeMap::new();
    for s in root.get("shapes").arr() {
        if s.get("type").str() == "box" {
            half.insert(s.get("id").str().to_string(), s.get("half_extents").vec3());
        }
    }
    Some(
        root.get("queries")
            .arr()
            .iter()
            .map(|q| {
                (
                    world_box(half[q.get("a").str()], q.get("pose_a")),
                    world_box(half[q.get("b").str()], q.get("pose_b")),
                )
            })
            .collect(),
    )
}

#[test]
#[ignore = "a timing report: run in release with --ignored"]
fn boxes_workload_certified_in_f64() {
    let pairs = load().expect("boxes workload");
    // Both the harness file (2000) and the extract (250) are 3/5 random, 2/5 near-parallel.
    assert!(pairs.len() == 2000 || pairs.len() == 250, "{}", pairs.len());
    let split = pairs.len() * 3 / 5;
    for (name, fallback) in [("certified", true), ("float only", false)] {
        let settings = CertifySettings { exact_fallback: fallback, ..CertifySettings::default() };
        for (section, range) in [("random", 0..split), ("near-parallel", split..pairs.len())] {
            let mut paths: BTreeMap<String, usize> = BTreeMap::new();
            let mut worst = 0.0f64;
            let t = Instant::now();
            for (a, b) in &pairs[range.clone()] {
                let out = box_box_distance_f64(a, b, &settings).unwrap();
                *paths.entry(format!("{:?}", out.path)).or_default() += 1;
                if out.path != KernelPath::Uncertified {
                    let c = out.certificate.unwrap();
                    worst = worst.max(c.gap() / c.scale);
                }
                if !fallback {
                    assert_ne!(out.path, KernelPath::ExactResolve);
                }
            }
            let us = t.elapsed().as_secs_f64() * 1e6 / range.len() as f64;
            eprintln!("{name:>10} {section:>13}: {us:8.2} µs/query, max gap/scale {worst:.2e}, {paths:?}");
            if section == "near-parallel" {
                let f64_paths = range.len() - paths.get("ExactResolve").copied().unwrap_or(0);
                let uncertified = paths.get("Uncertified").copied().unwrap_or(0);
                assert!(100 * (f64_paths - uncertified) >= 99 * range.len(), "{paths:?}");
            }
        }
    }
    // The bracket contains the exact distance (near-parallel pairs, exact Rational solve).
    let settings = CertifySettings::default();
    for (i, (a, b)) in pairs[split..].iter().enumerate() {
        let out = box_box_distance_f64(a, b, &settings).unwrap();
        let c = out.certificate.unwrap();
        let ex = box_box_distance(
            &BoxN::<Rational, 3>::convert_from_f64(a).unwrap(),
            &BoxN::<Rational, 3>::convert_from_f64(b).unwrap(),
        )
        .unwrap();
        let d = ex.squared_distance.to_f64().sqrt();
        let slack = 1e-14 * c.scale;
        assert!(c.lower <= d + slack && d <= c.upper + slack, "pair {}: {c:?} vs exact {d}", split + i);
    }
}
