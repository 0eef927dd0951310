#!/usr/bin/env python3
"""Ours beside coal's native runner on the geometry harness's workloads, in one run.

    scripts/geometry-vs-coal.py --coal PATH/bench_coal [--proxima target/release/proxima]
        [--workloads ../shared/bench/geometry/workloads] [--rounds 3] [--repeat 20]
        [--split-mixed] [--cpu 1] NAME...

For every round and every workload, coal's `bench_coal` and `proxima bench-geometry` run one
after the other (pinned to one core with `taskset -c CPU` when taskset exists), so both see the
same machine load; the table gives per workload the median over rounds of each runner's
min-over-passes ns/query (or ns/step for the tracking sections) and the ratio ours / coal, and
the ratio of the two runners' minima over rounds.

`--split-mixed` also writes one workload per pair type of `mixed` (the queries whose two shapes
have those types, e.g. `mixed:cylinder-ellipsoid`) to a temporary folder and times each the
same way, so the pair types inside `mixed` get their own ratio. Only the harness's runner
contract is used (`--workload --repeat --out`), so any runner following it can stand in.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

SECTIONS = ("queries", "track_cold", "track_warm")


def timings(path):
    """{(section, variant): ns per item} from a result JSONL (min over passes)."""
    out = {}
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            if rec.get("kind") != "timing":
                continue
            n = rec.get("num_queries") or rec.get("num_steps") or rec.get("n")
            ns = rec.get("ns_per_query_min") or rec.get("ns_per_step_min")
            if ns is None and n:
                ns = rec["total_ns_min"] / n
            out[(rec["section"], rec.get("variant", "default"))] = ns
    return out


def split_mixed(path, folder):
    """One workload file per unordered pair of shape types; returns [(label, file)]."""
    with open(path) as f:
        w = json.load(f)
    kind = {s["id"]: s["type"] for s in w["shapes"]}
    groups = {}
    for q in w["queries"]:
        key = "-".join(sorted((kind[q["a"]], kind[q["b"]])))
        groups.setdefault(key, []).append(q)
    files = []
    for key in sorted(groups):
        sub = dict(w, name=f"mixed_{key}", queries=groups[key], tracks=[])
        p = os.path.join(folder, f"mixed_{key}.json")
        with open(p, "w") as f:
            json.dump(sub, f)
        files.append((f"mixed:{key}", p))
    return files


def run(cmd, cpu):
    if cpu is not None and shutil.which("taskset"):
        cmd = ["taskset", "-c", str(cpu)] + cmd
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="+")
    ap.add_argument("--coal", required=True)
    ap.add_argument("--proxima", default="target/release/proxima")
    ap.add_argument("--workloads", default="../shared/bench/geometry/workloads")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--split-mixed", action="store_true")
    args = ap.parse_args(argv)

    tmp = tempfile.mkdtemp(prefix="geometry-vs-coal-")
    jobs = [(n, os.path.join(args.workloads, f"{n}.json")) for n in args.names]
    if args.split_mixed:
        jobs += split_mixed(os.path.join(args.workloads, "mixed.json"), tmp)
    samples = {}  # (label, section) -> {"coal": [...], "ours": [...]}
    for r in range(args.rounds):
        for label, wl in jobs:
            for who, exe in (("coal", [args.coal]), ("ours", [args.proxima, "bench-geometry"])):
                out = os.path.join(tmp, f"{who}.jsonl")
                run(exe + ["--workload", wl, "--repeat", str(args.repeat), "--out", out], args.cpu)
                for (section, variant), ns in timings(out).items():
                    if variant == "default" and section in SECTIONS:
                        samples.setdefault((label, section), {}).setdefault(who, []).append(ns)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    shutil.rmtree(tmp)

    print(f"| workload | section | coal ns | ours ns | ours/coal median | ours/coal min | (medians of {args.rounds} rounds, min over {args.repeat} passes each; min: ratio of the rounds' minima) |")
    print("|---|---|---|---|---|---|---|")
    for (label, section), s in samples.items():
        if "coal" not in s or "ours" not in s:
            continue
        c, o = statistics.median(s["coal"]), statistics.median(s["ours"])
        cm, om = min(s["coal"]), min(s["ours"])
        print(f"| {label} | {section} | {c:,.0f} | {o:,.0f} | {o / c:.2f} | {om / cm:.2f} | |")


if __name__ == "__main__":
    main()
