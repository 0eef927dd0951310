#!/usr/bin/env python3
"""Our LCP solvers against Siconos, side by side in one run, over R rounds, pinned to one core.

  scripts/lcp-ratios.py --bin new=target/release/proxima [--bin base=/path/to/old/proxima] \
      [--fams dense,n4l_contact] [--pairs fischer-newton:newton_fb,minmap-newton:newton_min] \
      [--rounds 3] [--repeat 3] [--cpu 1] [--out DIR]

Every round runs, per family and per pair, each of our binaries (`bench-lcp --repeat R`) then the
Siconos runner of the harness (../shared/bench/lcp, or $LCP_BENCH_DIR), each under
`taskset -c CPU` with single-threaded BLAS. Prints Markdown: per runner the verified count
(the harness rule res_minmap_inf <= 1e-6 max(1, ||q||)), the median time over problems of
every round; per pair the ratio ours / Siconos of those medians per round and their median.
An anchor of `-` runs ours only. Needs numpy (the harness venv or system python3).
"""
import argparse, json, os, subprocess, statistics, sys
import numpy as np
here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
common = subprocess.run(["git", "-C", here, "rev-parse", "--git-common-dir"], capture_output=True,
                        text=True).stdout.strip()
main_checkout = os.path.dirname(os.path.abspath(os.path.join(here, common))) if common else here
H = os.environ.get("LCP_BENCH_DIR", os.path.join(main_checkout, "..", "shared", "bench", "lcp"))
sys.path.insert(0, H)
import lcpio
ap = argparse.ArgumentParser()
ap.add_argument("--bin", action="append", required=True, help="label=path")
ap.add_argument("--fams", default="dense,n4l_contact")
ap.add_argument("--pairs", default="fischer-newton:newton_fb,minmap-newton:newton_min")
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--repeat", type=int, default=3)
ap.add_argument("--cpu", default="1")
ap.add_argument("--out", default=os.path.join(here, "target", "lcp-ratios"))
a = ap.parse_args()
os.makedirs(a.out, exist_ok=True)
env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
bins = [b.split("=", 1) for b in a.bin]
def load(path):
    return {r["problem"]: r for r in map(json.loads, open(path))}
thr = {}
for fam in a.fams.split(","):
    man, probs = lcpio.load_manifest(f"{H}/data/public/{fam}/manifest.json")
    for p in probs:
        thr[p.name] = 1e-6 * max(1.0, float(np.linalg.norm(p.q)))
res = {}  # (fam, runner) -> list of rounds of dict
for r in range(a.rounds):
    for fam in a.fams.split(","):
        m = f"{H}/data/public/{fam}/manifest.json"
        for pair in a.pairs.split(","):
            ours, anchor = pair.split(":")
            for label, path in bins:
                o = f"{a.out}/{label}-{ours}-{fam}-{r}.jsonl"
                subprocess.run(["taskset", "-c", a.cpu, path, "bench-lcp", "--manifest", m, "--solver", ours,
                                "--out", o, "--repeat", str(a.repeat), "--timeout", "60"], check=True,
                               stderr=subprocess.DEVNULL, env=env)
                res.setdefault((fam, f"{label}.{ours}"), []).append(load(o))
            if anchor != "-":
                o = f"{a.out}/siconos-{anchor}-{fam}-{r}.jsonl"
                subprocess.run(["taskset", "-c", a.cpu, "/usr/bin/python3", "run_siconos.py", "--manifest", m,
                                "--solver", anchor, "--out", o, "--repeat", str(a.repeat), "--timeout", "60"],
                               cwd=H, check=True, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env)
                res.setdefault((fam, f"siconos.{anchor}"), []).append(load(o))
def summary(rounds):
    ver = sum(1 for p, x in rounds[0].items() if x.get("res_minmap_inf") is not None
              and x["res_minmap_inf"] <= thr[p])
    meds = [statistics.median(x["time_ns"] for x in rd.values() if x.get("time_ns") is not None) for rd in rounds]
    # per-problem median over rounds, then median over problems
    per = statistics.median(statistics.median(rd[p]["time_ns"] for rd in rounds) for p in rounds[0])
    return ver, len(rounds[0]), meds, per
print("| family | runner | verified | median ms per round | median ms (per-problem median over rounds) | min round |")
print("|---|---|---|---|---|---|")
table = {}
for (fam, who), rounds in res.items():
    ver, n, meds, per = summary(rounds)
    table[(fam, who)] = (meds, per, ver, n)
    print(f"| {fam} | {who} | {ver}/{n} | {' '.join('%.3f' % (m/1e6) for m in meds)} | {per/1e6:.3f} | {min(meds)/1e6:.3f} |")
print()
print("| family | ours | anchor | ratio per round | median ratio | ratio of per-problem medians |")
print("|---|---|---|---|---|---|")
for fam in a.fams.split(","):
    for pair in a.pairs.split(","):
        ours, anchor = pair.split(":")
        if anchor == "-": continue
        sm, sp, _, _ = table[(fam, f"siconos.{anchor}")]
        for label, _ in bins:
            om, op, _, _ = table[(fam, f"{label}.{ours}")]
            rr = [o / s for o, s in zip(om, sm)]
            print(f"| {fam} | {label}.{ours} | siconos.{anchor} | {' '.join('%.2f' % x for x in rr)} | {statistics.median(rr):.2f} | {op/sp:.2f} |")
