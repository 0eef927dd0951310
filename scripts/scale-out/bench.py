#!/usr/bin/env python3
"""Scale-out benchmark: configurations per second for the Panda self-distance workload.

Side by side, on the same N configurations (seeded uniform samples in the joint limits of
shared/bench/robot/workloads/panda_self_1000.json) and the same convex hulls:

* ``proxima batch`` (release binary), 1 and 2 threads: the compute time it reports (loading
  and hull building excluded, the chunks' checkpoint writes included);
* ``proxima.ray.distances`` with 2 local Ray workers (scripts/scale-out/ray_run.py, everything
  after ray.init included);
* a ``multiprocessing`` pool of 1 and 2 processes over Pinocchio + coal (anchor_pool.py, the
  map time; model builds excluded), on the first --anchor-limit configurations.

    python3 scripts/scale-out/bench.py --bench-dir ../shared/bench/robot \\
        --ray-python /path/to/venv/bin/python --anchor-python ~/.cache/robot-bench-venv/bin/python

Prints a Markdown table and the JSON records; repeats every Rust run --repeat times
(interleaved) and reports min and median. Check ``uptime`` first: the ratios only mean
something on an otherwise idle machine.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def loadavg():
    return open("/proc/loadavg").read().split()[:3]


def rust(binary, urdf, q, threads, out_dir):
    out = os.path.join(out_dir, f"rust-{threads}.npy")
    text = subprocess.run(
        [binary, "batch", "--urdf", urdf, "--configs", q, "--out", out, "--threads", str(threads), "--fresh"],
        check=True, capture_output=True, text=True,
    ).stdout
    seconds = float(re.search(r"; ([0-9.]+) s, ", text).group(1))
    return seconds, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench-dir", required=True)
    ap.add_argument("--binary", default=os.path.join(ROOT, "target/release/proxima"))
    ap.add_argument("--ray-python", required=True)
    ap.add_argument("--anchor-python", default=os.path.expanduser("~/.cache/robot-bench-venv/bin/python"))
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--anchor-limit", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--chunk-size", type=int, default=0, help="Ray chunk size (0: automatic)")
    ap.add_argument("--skip", default="", help="comma list of: rust,ray,anchor")
    a = ap.parse_args()
    skip = set(filter(None, a.skip.split(",")))
    wl = json.load(open(os.path.join(a.bench_dir, "workloads/panda_self_1000.json")))
    lim = np.array(wl["joint_limits"])
    Q = np.random.default_rng(20).uniform(lim[:, 0], lim[:, 1], size=(a.n, len(lim)))
    tmp = tempfile.mkdtemp(prefix="proxima-scale-out-")
    q = os.path.join(tmp, "q.npy")
    np.save(q, Q)
    urdf = os.path.join(a.bench_dir, "robots/panda/panda.urdf")
    records = [{"load_before": loadavg(), "n": a.n}]
    rows = []
    if "rust" not in skip:
        times = {1: [], 2: []}
        for _ in range(a.repeat):
            for t in (1, 2):
                s, out = rust(a.binary, urdf, q, t, tmp)
                times[t].append(s)
        same = np.array_equal(np.load(os.path.join(tmp, "rust-1.npy")).view(np.uint64),
                              np.load(os.path.join(tmp, "rust-2.npy")).view(np.uint64))
        for t in (1, 2):
            rec = {"runner": f"proxima batch, {t} thread(s)", "n": a.n, "seconds_min": min(times[t]),
                   "seconds_median": statistics.median(times[t]), "bitwise_equal_1_vs_2": bool(same)}
            records.append(rec)
            rows.append((rec["runner"], a.n / rec["seconds_min"], a.n / rec["seconds_median"], t))
    if "ray" not in skip:
        out = os.path.join(tmp, "ray.npy")
        text = subprocess.run(
            [a.ray_python, os.path.join(HERE, "ray_run.py"), "--urdf", urdf, "--configs", q, "--workers", "2",
             "--repeat", str(a.repeat), "--out", out] + (["--chunk-size", str(a.chunk_size)] if a.chunk_size else []),
            check=True, capture_output=True, text=True,
        ).stdout
        rec = json.loads(text.strip().splitlines()[-1])
        if os.path.exists(os.path.join(tmp, "rust-1.npy")):
            rec["bitwise_equal_to_rust"] = bool(np.array_equal(
                np.load(out).view(np.uint64), np.load(os.path.join(tmp, "rust-1.npy")).view(np.uint64)))
        records.append(rec)
        rows.append(("proxima.ray, 2 workers", rec["configs_per_s_min_time"], rec["configs_per_s_median_time"], 2))
    if "anchor" not in skip:
        for p in (1, 2):
            text = subprocess.run(
                [a.anchor_python, os.path.join(HERE, "anchor_pool.py"), "--bench-dir", a.bench_dir,
                 "--configs", q, "--processes", str(p), "--limit", str(a.anchor_limit)],
                check=True, capture_output=True, text=True,
            ).stdout
            rec = json.loads(text.strip().splitlines()[-1])
            records.append(rec)
            rows.append((f"multiprocessing pool, Pinocchio + coal, {p} process(es)", rec["configs_per_s_map"],
                         rec["configs_per_s_map"], p))
    records.append({"load_after": loadavg()})
    print("| runner | configs/s (best) | configs/s (median) | per core (best) |")
    print("|---|---|---|---|")
    for name, best, med, cores in rows:
        print(f"| {name} | {best:,.0f} | {med:,.0f} | {best / cores:,.0f} |")
    for r in records:
        print(json.dumps(r))


if __name__ == "__main__":
    sys.exit(main())
