#!/usr/bin/env bash
# DQP3's warm tracking step beside coal's (and our GJK's), on trajectories between convex hulls
# of the Panda and KUKA iiwa collision meshes, in the same session, alternating runs.
#
#   scripts/dqp3-vs-coal.sh [OUT_DIR] [RUNS]     (default target/dqp3-vs-coal, 5 runs)
#
# Needs the benchmark harness beside the repository (../shared, or SHARED=...): the robot meshes
# (shared/bench/robot/robots), the geometry harness's helpers and its coal runner built by
# shared/bench/geometry/native/build.sh. Prints per-run and min / median warm-step times and the
# ratios ours/coal (and the cold step of the default routes beside coal's), and the largest
# distance difference to coal per variant. COAL=path picks
# another build of the coal runner (the same command as build.sh, any output directory).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/dqp3-vs-coal}
runs=${2:-5}
shared=${SHARED:-../shared}
coal=${COAL:-$shared/bench/geometry/native/build/bench_coal}
[ -x "$coal" ] || { echo "no coal runner at $coal (run $shared/bench/geometry/native/build.sh)" >&2; exit 2; }
mkdir -p "$out"
workload="$out/track_robot_hulls.json"
python3 scripts/robot-hull-tracks.py --robots "$shared/bench/robot/robots" \
  --geometry "$shared/bench/geometry" --bench "$workload"
cargo build --release -q -p proxima-cli
for run in $(seq 1 "$runs"); do
  target/release/proxima bench-geometry --workload "$workload" --repeat 5 --variants default,dqp3 \
    --out "$out/ours-$run.jsonl" >/dev/null
  "$coal" --workload "$workload" --repeat 5 --out "$out/coal-$run.jsonl" >/dev/null
done
python3 - "$out" "$runs" <<'EOF'
import json, statistics, sys

out, runs = sys.argv[1], int(sys.argv[2])

def records(path):
    return [json.loads(line) for line in open(path)]

warm = {"coal": [], "ours gjk": [], "ours dqp3": []}
cold = {"coal": [], "ours": []}
worst = {}
for run in range(1, runs + 1):
    coal = records(f"{out}/coal-{run}.jsonl")
    ours = records(f"{out}/ours-{run}.jsonl")
    for r in coal:
        if r.get("kind") == "timing" and r["section"] == "track_warm" and r["variant"] == "default":
            warm["coal"].append(r["ns_per_query_min"])
        if r.get("kind") == "timing" and r["section"] == "track_cold" and r["variant"] == "default":
            cold["coal"].append(r["ns_per_query_min"])
    for r in ours:
        if r.get("kind") == "timing" and r["section"] == "track_warm":
            warm["ours gjk" if r["variant"] == "default" else "ours dqp3"].append(r["ns_per_query_min"])
        if r.get("kind") == "timing" and r["section"] == "track_cold" and r["variant"] == "default":
            cold["ours"].append(r["ns_per_query_min"])
    ref = {(r["i"], r["k"]): r["distance"] for r in coal if r.get("kind") == "track" and r["variant"] == "default"}
    for r in ours:
        if r.get("kind") == "track" and r.get("distance") is not None:
            d = abs(r["distance"] - ref[(r["i"], r["k"])])
            worst[r["variant"]] = max(worst.get(r["variant"], 0.0), d)
print("warm step, ns (each run: min over 5 passes of 6000 steps)")
for name, xs in warm.items():
    print(f"  {name:10} min {min(xs):8.1f}  median {statistics.median(xs):8.1f}   runs {', '.join(f'{x:.0f}' for x in xs)}")
for name in ("ours dqp3", "ours gjk"):
    ratios = [o / c for o, c in zip(warm[name], warm["coal"])]
    print(f"ratio {name} / coal: min-to-min {min(warm[name]) / min(warm['coal']):.3f}, "
          f"per run median {statistics.median(ratios):.3f} ({', '.join(f'{r:.3f}' for r in ratios)})")
print("cold step (track_cold, default routes), ns")
for name, xs in cold.items():
    print(f"  {name:10} min {min(xs):8.1f}  median {statistics.median(xs):8.1f}   runs {', '.join(f'{x:.0f}' for x in xs)}")
ratios = [o / c for o, c in zip(cold["ours"], cold["coal"])]
print(f"ratio ours cold / coal cold: min-to-min {min(cold['ours']) / min(cold['coal']):.3f}, "
      f"per run median {statistics.median(ratios):.3f} ({', '.join(f'{r:.3f}' for r in ratios)})")
print("max |d - coal|:", ", ".join(f"{k} {v:.2e}" for k, v in sorted(worst.items())))
EOF
