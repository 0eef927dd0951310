#!/usr/bin/env python3
"""The anchor of the scale-out benchmark: a multiprocessing pool over Pinocchio + coal.

Each worker process builds the robot once (pool initializer, through the robot benchmark's own
runner `shared/bench/robot/run_pinocchio.py`: the same convex hulls, qhull inside coal, and the
workload's pair list), then computes, per configuration, every pair's distance with
`pin.computeDistances` and keeps the minimum and its pair -- what a Pinocchio user does to get
a configuration's minimum self-distance. Chunks of configurations go to the workers by
`Pool.map`; the results come back in input order.

Run with the anchor's venv (pin, coal, numpy):

    ~/.cache/robot-bench-venv/bin/python scripts/scale-out/anchor_pool.py \\
        --bench-dir ../shared/bench/robot --configs Q.npy --processes 2 --limit 20000

Prints one JSON object: configurations, seconds (pool start + model builds + map), seconds of
the map alone, configurations per second of each.
"""
import argparse
import json
import os
import sys
import time

import numpy as np

_STATE = {}


def _init(bench_dir, workload_path):
    sys.path.insert(0, bench_dir)
    import pinocchio as pin
    from run_pinocchio import build, q_mapper, setup_pairs

    workload = json.load(open(workload_path))
    model, gmodel, descs, _ = build(workload, os.path.dirname(workload_path), "hull")
    cp_owner, _ = setup_pairs(model, gmodel, workload, descs)
    _STATE.update(
        pin=pin, model=model, gmodel=gmodel, data=model.createData(), gdata=pin.GeometryData(gmodel),
        to_q=q_mapper(model, workload), owner=np.array(cp_owner), npairs=len(workload["pair_list"]),
    )


def _chunk(rows):
    s = _STATE
    pin, to_q = s["pin"], s["to_q"]
    out = np.empty(len(rows))
    arg = np.empty(len(rows), dtype=np.int64)
    per_pair = np.empty(s["npairs"])
    for i, row in enumerate(rows):
        pin.computeDistances(s["model"], s["data"], s["gmodel"], s["gdata"], to_q(row))
        d = np.array([r.min_distance for r in s["gdata"].distanceResults])
        per_pair.fill(np.inf)
        np.minimum.at(per_pair, s["owner"], d)
        arg[i] = int(np.argmin(per_pair))
        out[i] = per_pair[arg[i]]
    return out, arg


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench-dir", required=True, help="shared/bench/robot")
    ap.add_argument("--workload", default="workloads/panda_self_1000.json", help="relative to --bench-dir")
    ap.add_argument("--configs", required=True, help=".npy (N, dof)")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--chunk-size", type=int, default=500)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--out", help="write min_distance (.npy) here")
    a = ap.parse_args()
    import multiprocessing as mp

    bench_dir = os.path.abspath(a.bench_dir)
    Q = np.load(a.configs)
    if a.limit:
        Q = Q[: a.limit]
    chunks = [Q[s : s + a.chunk_size] for s in range(0, len(Q), a.chunk_size)]
    ctx = mp.get_context("fork")
    t0 = time.perf_counter()
    with ctx.Pool(a.processes, initializer=_init, initargs=(bench_dir, os.path.join(bench_dir, a.workload))) as pool:
        # wait for every initializer: one trivial task per process after the builds
        pool.map(_chunk, [Q[:1]] * a.processes, chunksize=1)
        t1 = time.perf_counter()
        parts = pool.map(_chunk, chunks, chunksize=1)
        t2 = time.perf_counter()
    d = np.concatenate([p[0] for p in parts])
    if a.out:
        np.save(a.out, d)
    n = len(Q)
    print(json.dumps({
        "runner": "multiprocessing pool, pinocchio + coal", "processes": a.processes, "n": n,
        "seconds_total": t2 - t0, "seconds_map": t2 - t1,
        "configs_per_s_total": n / (t2 - t0), "configs_per_s_map": n / (t2 - t1),
        "in_collision": int((d <= 0).sum()),
    }))


if __name__ == "__main__":
    main()
