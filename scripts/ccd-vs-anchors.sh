#!/usr/bin/env bash
# Our time of impact beside parry3d-f64 (cast_shapes_nonlinear / cast_shapes) and python-fcl
# (continuousCollide) on the CCD harness's public workloads, in one run: for every family ours,
# then parry, then FCL, back to back; then the harness's own agreement report
# (../shared/bench/ccd/compare.py report: misses, late, early, false hits, ns per query), and
# per family the ratio ours / parry on the queries parry runs (it skips ellipsoids).
#   scripts/ccd-vs-anchors.sh [OUT_DIR]      (default target/ccd-vs-anchors)
#   REPEAT=5 FAMS="rotating mixed" FCL_VARIANTS=trans_ca,linear_ca scripts/ccd-vs-anchors.sh
#   PARRY_CCD=/path/to/parry_ccd scripts/ccd-vs-anchors.sh   (a parry anchor built elsewhere)
# Needs ../shared/bench/ccd/setup.sh (venv ~/.cache/ccd-bench-venv, the parry anchor build);
# missing anchors are skipped.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The harness sits beside the main checkout; from a worktree, find it through git's common dir.
main_checkout="$(cd "$(git -C "$here" rev-parse --git-common-dir)/.." && pwd)"
H="${CCD_BENCH_DIR:-$main_checkout/../shared/bench/ccd}"
[ -d "$H" ] || { echo "no harness at $H (set CCD_BENCH_DIR)" >&2; exit 1; }
OUT="${1:-$here/target/ccd-vs-anchors}"
REPEAT="${REPEAT:-5}"
FAMS="${FAMS:-linear_hit rotating grazing thin_fast start_contact mixed}"
FCL_VARIANTS="${FCL_VARIANTS:-trans_ca}"
VPY="${CCD_BENCH_VENV:-$HOME/.cache/ccd-bench-venv}/bin/python"
PARRY="${PARRY_CCD:-$H/native/parry_ccd/target/release/parry_ccd}"
mkdir -p "$OUT/proxima" "$OUT/parry-native" "$OUT/fcl-py"
OUT="$(cd "$OUT" && pwd)"   # absolute: the FCL runner runs inside the harness directory
(cd "$here" && cargo build --release -q -p proxima-cli) || exit 1
# The binary lives in cargo's target directory, which CARGO_TARGET_DIR (or a config file) may move.
target_dir="$(cd "$here" && cargo metadata --format-version 1 --no-deps \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')" || exit 1
P="$target_dir/release/proxima"
have_fcl=0; [ -x "$VPY" ] && "$VPY" -c 'import fcl' 2>/dev/null && have_fcl=1
for fam in $FAMS; do
  w="$H/workloads/$fam.json"
  echo "== $fam" >&2
  "$P" bench-ccd --workload "$w" --repeat "$REPEAT" --variants default,no_depth --out "$OUT/proxima/$fam.jsonl"
  if [ -x "$PARRY" ]; then
    "$PARRY" --workload "$w" --repeat "$REPEAT" --out "$OUT/parry-native/$fam.jsonl"
    # Parry skips the queries it cannot run (ellipsoids): ours again on exactly the queries parry
    # timed, so the ratio compares the same work (a file, not a runner directory: the harness's
    # report reads directories and would check this subset's renumbered queries against the oracle).
    sub="$OUT/parry-subset-$fam.json"
    if python3 - "$w" "$OUT/parry-native/$fam.jsonl" "$sub" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))
records = [r for r in map(json.loads, open(sys.argv[2])) if r.get("kind") == "query"]
skipped = {r["i"] for r in records if r.get("variant") == "nonlinear" and r.get("skipped")}
w["queries"] = [q for i, q in enumerate(w["queries"]) if i not in skipped]
json.dump(w, open(sys.argv[3], "w"))
PY
    then
      "$P" bench-ccd --workload "$sub" --repeat "$REPEAT" --variants default --out "$OUT/parry-subset-$fam.jsonl"
      python3 - "$OUT/parry-subset-$fam.jsonl" "$OUT/parry-native/$fam.jsonl" "$fam" <<'PY' >&2
import json, sys
def best(path, variant):
    for r in map(json.loads, open(path)):
        if r.get("kind") == "timing" and r.get("variant") == variant:
            return r["n"], r["ns_per_query_min"]
    return None
ours, parry = best(sys.argv[1], "default"), best(sys.argv[2], "nonlinear")
if ours and parry:
    print(f"{sys.argv[3]}: on parry's {parry[0]} queries, ours {ours[1]:.0f} ns vs parry nonlinear "
          f"{parry[1]:.0f} ns -> ratio {ours[1] / parry[1]:.2f}")
PY
    fi
  fi
  if [ $have_fcl = 1 ]; then
    (cd "$H" && "$VPY" run_fcl.py --workload "$w" --repeat "$REPEAT" --variants "$FCL_VARIANTS" \
      --out "$OUT/fcl-py/$fam.jsonl" 2>&1 >/dev/null | grep -v '^Warning' >&2)
  fi
done
[ -x "$VPY" ] || VPY=python3
"$VPY" "$H/compare.py" report --workloads "$H/workloads" --out-dir "$OUT" --md "$OUT/report.md" >/dev/null
echo "report: $OUT/report.md" >&2
