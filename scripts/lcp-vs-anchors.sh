#!/usr/bin/env bash
# Our LCP solvers beside Siconos (and Drake's Moby Lemke on contact) on the harness's public
# problem set, in one run: for every family and every matching pair, our solver then the anchor,
# back to back, then one summary table (../shared/bench/lcp/summarize.py).
#   scripts/lcp-vs-anchors.sh [OUT_DIR]      (default target/lcp-vs-anchors)
# Needs the anchors installed by ../shared/bench/lcp/setup.sh; missing anchors are skipped.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The harness sits beside the main checkout; from a worktree, find it through git's common dir.
main_checkout="$(cd "$(git -C "$here" rev-parse --git-common-dir)/.." && pwd)"
H="${LCP_BENCH_DIR:-$main_checkout/../shared/bench/lcp}"
[ -d "$H" ] || { echo "no harness at $H (set LCP_BENCH_DIR)" >&2; exit 1; }
DATA="$H/data/public"
OUT="${1:-$here/target/lcp-vs-anchors}"
mkdir -p "$OUT"
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
SPY=/usr/bin/python3
VPY=${LCP_BENCH_VENV:-$HOME/.cache/lcp-bench-venv}/bin/python
(cd "$here" && cargo build --release -q -p proxima-cli) || exit 1
# The binary lives in cargo's target directory, which CARGO_TARGET_DIR (or a config file) may move.
target_dir="$(cd "$here" && cargo metadata --format-version 1 --no-deps \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')" || exit 1
P="$target_dir/release/proxima"
FAMS="${FAMS:-dense n4l_fluid n4l_contact fluid contact}"
# ours:anchor pairs (Siconos names)
PAIRS="${PAIRS:-lemke:lemke pgs:pgs minmap-newton:newton_min fischer-newton:newton_fb baraff:pivot_lumod psor:- jacobi:-}"
have_siconos=0; $SPY -c 'import siconos.numerics' 2>/dev/null && have_siconos=1
have_drake=0; [ -x "$VPY" ] && $VPY -c 'import pydrake.solvers' 2>/dev/null && have_drake=1
for fam in $FAMS; do
  for pair in $PAIRS; do
    ours="${pair%%:*}"; anchor="${pair##*:}"
    echo "== $fam: ours.$ours vs siconos.$anchor" >&2
    "$P" bench-lcp --manifest "$DATA/$fam/manifest.json" --solver "$ours" --out "$OUT/ours-$ours-$fam.jsonl" \
      --timeout 60 2>>"$OUT/ours.log"
    if [ "$anchor" != "-" ] && [ $have_siconos = 1 ]; then
      (cd "$H" && $SPY run_siconos.py --manifest "$DATA/$fam/manifest.json" --solver "$anchor" \
        --out "$OUT/siconos-$anchor-$fam.jsonl" --timeout 60 2>>"$OUT/siconos.log" >/dev/null)
    fi
  done
done
if [ $have_drake = 1 ]; then
  echo "== contact (first 6): drake.moby_lemke" >&2
  (cd "$H" && $VPY run_drake.py --manifest "$DATA/contact/manifest.json" --solver moby_lemke --limit 6 \
    --out "$OUT/drake-moby_lemke-contact.jsonl" --timeout 30 2>>"$OUT/drake.log" >/dev/null)
fi
manifests=""; for fam in $FAMS; do manifests="$manifests $DATA/$fam/manifest.json"; done
"$VPY" "$H/summarize.py" "$OUT"/*.jsonl --manifests $manifests > "$OUT/summary.md"
echo "summary: $OUT/summary.md" >&2
