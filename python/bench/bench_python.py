#!/usr/bin/env python3
"""Python-level benchmarks: proxima beside coal (and Pinocchio for robots) in one run.

Sections (each timed `--repeat` times; min and median reported, ratios from the minima):

  per-call   proxima.distance(a, Ta, b, Tb) vs coal.distance(a, tfa, b, tfb, req, res) on the
             same pairs and poses: polytope (hull of 64 points), box, capsule, ellipsoid.
             coal runs with its default DistanceRequest (GJK tolerance 1e-6) and Transform3s
             built beforehand (its cheapest call); proxima with its defaults (certified
             bracket, GJK tolerance 1e-10) from 4x4 numpy poses. Python overhead included on
             both sides: this is what a Python user pays per query.
  batch      proxima.distance_batch over N pose pairs with threads=1 and threads=2 vs a
             Python loop over coal.distance. Two loops, both printed with their ratio:
             * the baseline ("numpy loop"): the poses are the same (N, 4, 4) numpy arrays
               the batch gets, and the loop builds coal's Transform3s from each row, as a
               user holding poses in numpy does;
             * coal's best case ("prebuilt loop"): the Transform3s built before the timed
               loop (not counted), so the loop pays only coal.distance and the call.
             The column "intersecting" is the fraction of rows in contact: those pay for a
             penetration depth (EPA) on both sides and dominate the box row cost.
  robot      (--robot-workload, needs proxima.Robot and pinocchio) Robot.distances_batch vs a
             Python loop over pin.computeDistances on the configurations of a robot workload
             of ../shared/bench/robot (convex hulls of the collision meshes, the workload's
             pair list).

Usage:
  python bench_python.py [--repeat 7] [--calls 2000] [--batch 20000] [--json out.json]
                         [--robot-workload ../../../shared/bench/robot/workloads/panda_self_1000.json]

The machine is shared and noisy: compare minima measured in the same run.
"""

import argparse
import json
import os

# One BLAS thread: numpy's OpenBLAS workers otherwise spin on the second core after any BLAS
# call and distort the thread-scaling numbers on a small machine.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import statistics
import sys
import time

import numpy as np

import proxima

try:
    import coal
except ImportError:  # pragma: no cover - the benchmark needs coal
    sys.exit("bench_python.py needs coal (pip install coal==3.0.3)")


def timed(fn, repeat, n):
    """ns per item for `repeat` runs of fn() (which processes n items)."""
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        fn()
        out.append((time.perf_counter_ns() - t0) / n)
    return min(out), statistics.median(out)


def random_rotation(rng):
    return proxima.pose(None, rng.normal(size=4))


def poses(rng, n, spread, center):
    T = np.stack([random_rotation(rng) for _ in range(n)])
    T[:, :3, 3] = np.asarray(center) + spread * rng.normal(size=(n, 3))
    return T


def coal_transform(T):
    return coal.Transform3s(np.ascontiguousarray(T[:3, :3]), np.ascontiguousarray(T[:3, 3]))


def hull_points(rng, n):
    p = rng.normal(size=(n, 3))
    return p / np.linalg.norm(p, axis=1)[:, None] * [0.5, 0.4, 0.3]


def pairs(rng):
    pts = hull_points(rng, 64)
    cpts = coal.StdVec_Vec3s()
    for v in pts:
        cpts.append(np.asarray(v, dtype=float))
    return {
        "polytope": (proxima.ConvexHull(pts), coal.Convex.convexHull(cpts, False, "Qt")),
        "box": (proxima.Box([0.5, 0.4, 0.3]), coal.Box(1.0, 0.8, 0.6)),
        "capsule": (proxima.Capsule(0.3, 0.5), coal.Capsule(0.3, 1.0)),
        "ellipsoid": (proxima.Ellipsoid([0.5, 0.4, 0.3]), coal.Ellipsoid(0.5, 0.4, 0.3)),
    }


def per_call(args, rng, report):
    print(f"\n== per call: {args.calls} queries per run, {args.repeat} runs (ns per call: min / median)")
    print(f"{'pair':10s} {'proxima':>17s} {'coal':>17s} {'ratio':>7s}  {'max |d diff|':>12s}")
    for name, (p, c) in pairs(rng).items():
        # Each side gets its poses prebuilt in a list: 4x4 numpy arrays for proxima,
        # Transform3s for coal (indexing an (N, 4, 4) array in the loop would charge proxima
        # for numpy's view creation).
        Ta = list(poses(rng, args.calls, 0.3, (0, 0, 0)))
        Tb = list(poses(rng, args.calls, 0.3, (1.6, 0, 0)))
        ta = [coal_transform(T) for T in Ta]
        tb = [coal_transform(T) for T in Tb]
        req, res = coal.DistanceRequest(), coal.DistanceResult()
        dist, cdist = proxima.distance, coal.distance
        ours = [0.0] * args.calls
        theirs = [0.0] * args.calls

        def run_proxima():
            for i in range(args.calls):
                ours[i] = dist(p, Ta[i], p, Tb[i]).distance

        def run_coal():
            for i in range(args.calls):
                res.clear()
                theirs[i] = cdist(c, ta[i], c, tb[i], req, res)

        # Interleaved runs so both see the same machine load.
        tp, tc = [], []
        for _ in range(args.repeat):
            tp.append(timed(run_proxima, 1, args.calls)[0])
            tc.append(timed(run_coal, 1, args.calls)[0])
        diff = max(abs(a - max(b, 0.0)) for a, b in zip(ours, theirs))
        row = {
            "pair": name,
            "proxima_ns_min": min(tp),
            "proxima_ns_median": statistics.median(tp),
            "coal_ns_min": min(tc),
            "coal_ns_median": statistics.median(tc),
            "ratio_min": min(tp) / min(tc),
            "ratio_median": statistics.median(tp) / statistics.median(tc),
            "max_abs_distance_diff": diff,
        }
        report["per_call"].append(row)
        print(
            f"{name:10s} {min(tp):8.0f} / {statistics.median(tp):6.0f} {min(tc):8.0f} / {statistics.median(tc):6.0f}"
            f" {row['ratio_min']:7.2f}  {diff:12.1e}"
        )


def batch(args, rng, report):
    n = args.batch
    print(f"\n== batch: {n} pose pairs per run, {args.repeat} runs, interleaved (ns per query: min / median)")
    print("   baseline = numpy loop: `for i: coal.distance(c, Transform3s(Ta[i][:3, :3], Ta[i][:3, 3]), c, ...)`")
    print("   coal's best case = prebuilt loop: the Transform3s built before the timed loop")
    print("   ratios: loop time / proxima time, from the minima (and from the medians)")
    print(
        f"{'pair':10s} {'intersecting':>12s} {'numpy loop':>17s} {'prebuilt loop':>17s} {'proxima 1 thread':>17s}"
        f" {'2 threads':>17s} {'vs numpy loop':>16s} {'vs prebuilt':>16s} {'2 vs 1':>6s}"
    )
    for name, (p, c) in pairs(rng).items():
        Ta = poses(rng, n, 0.3, (0, 0, 0))
        Tb = poses(rng, n, 0.3, (1.6, 0, 0))
        ta = [coal_transform(T) for T in Ta]
        tb = [coal_transform(T) for T in Tb]
        req, res = coal.DistanceRequest(), coal.DistanceResult()
        cdist, Transform3s = coal.distance, coal.Transform3s

        def coal_loop():
            out = np.empty(n)
            for i in range(n):
                res.clear()
                out[i] = cdist(c, ta[i], c, tb[i], req, res)
            return out

        def coal_loop_numpy():
            out = np.empty(n)
            for i in range(n):
                A, B = Ta[i], Tb[i]
                res.clear()
                out[i] = cdist(c, Transform3s(A[:3, :3], A[:3, 3]), c, Transform3s(B[:3, :3], B[:3, 3]), req, res)
            return out

        times = {"coal_loop": [], "coal_loop_numpy": [], "threads_1": [], "threads_2": []}
        for _ in range(args.repeat):
            times["coal_loop_numpy"].append(timed(coal_loop_numpy, 1, n)[0])
            times["coal_loop"].append(timed(coal_loop, 1, n)[0])
            times["threads_1"].append(timed(lambda: proxima.distance_batch(p, Ta, p, Tb, threads=1), 1, n)[0])
            times["threads_2"].append(timed(lambda: proxima.distance_batch(p, Ta, p, Tb, threads=2), 1, n)[0])
        ours = proxima.distance_batch(p, Ta, p, Tb, threads=1)
        theirs = coal_loop()
        intersecting = float(np.mean(ours.status == "intersecting"))
        mins = {k: min(v) for k, v in times.items()}
        meds = {k: statistics.median(v) for k, v in times.items()}
        row = {"pair": name, "n": n, "intersecting_fraction": intersecting, "ns_min": mins, "ns_median": meds}
        row["baseline"] = "coal_loop_numpy"
        for loop in ("coal_loop_numpy", "coal_loop"):
            row[f"speedup_1_thread_vs_{loop}"] = mins[loop] / mins["threads_1"]
            row[f"speedup_1_thread_vs_{loop}_median"] = meds[loop] / meds["threads_1"]
        row["speedup_2_vs_1_thread"] = mins["threads_1"] / mins["threads_2"]
        row["max_abs_distance_diff"] = float(np.max(np.abs(ours.distance - np.maximum(theirs, 0.0))))
        report["batch"].append(row)

        def cell(k):
            return f"{mins[k]:8.0f} / {meds[k]:6.0f}"

        def ratio(loop):
            return f"{row[f'speedup_1_thread_vs_{loop}']:5.1f}x ({row[f'speedup_1_thread_vs_{loop}_median']:5.1f}x)"

        print(
            f"{name:10s} {intersecting:12.3f} {cell('coal_loop_numpy')} {cell('coal_loop')} {cell('threads_1')}"
            f" {cell('threads_2')} {ratio('coal_loop_numpy'):>16s} {ratio('coal_loop'):>16s}"
            f" {row['speedup_2_vs_1_thread']:5.2f}x"
        )


def robot(args, report):
    """Robot.distances_batch vs a Python loop over pin.computeDistances, both on the workload's
    configurations. The Pinocchio model is built by the anchor runner's own functions
    (../shared/bench/robot/run_pinocchio.py: meshes as qhull hulls, the workload's pair list);
    the loop takes the minimum over the collision pairs, as the runner's results do."""
    import pinocchio as pin

    workload_path = os.path.abspath(args.robot_workload)
    sys.path.insert(0, os.path.dirname(os.path.dirname(workload_path)))
    import run_pinocchio  # noqa: E402  (the anchor's model building)

    with open(workload_path) as f:
        workload = json.load(f)
    wl_dir = os.path.dirname(workload_path)
    if len(workload.get("robots", [])) > 1:
        print("\n== robot: skipped (multi-robot workloads need a scene, not one Robot)")
        return
    Q = np.asarray(workload["configurations"], dtype=float)
    n = len(Q)
    model, gmodel, descs, _ = run_pinocchio.build(workload, wl_dir, "hull")
    run_pinocchio.setup_pairs(model, gmodel, workload, descs)
    to_q = run_pinocchio.q_mapper(model, workload)
    qs = [to_q(q) for q in Q]
    data, gdata = model.createData(), pin.GeometryData(gmodel)

    def pin_loop():
        out = np.empty(n)
        for i, q in enumerate(qs):
            pin.computeDistances(model, data, gmodel, gdata, q)
            out[i] = min(r.min_distance for r in gdata.distanceResults)
        return out

    urdf = workload["robots"][0]["urdf"] if "robots" in workload else workload["robot"]
    rob = proxima.Robot.from_urdf(os.path.join(wl_dir, urdf))
    ours_pairs = {frozenset(p) for p in rob.pairs}
    if ours_pairs != {frozenset(p) for p in workload["pair_list"]}:
        print("\n== robot: pair lists differ; the comparison would not be like for like")
        return
    times = {"pin_loop": [], "threads_1": [], "threads_2": []}
    for _ in range(args.repeat):
        times["pin_loop"].append(timed(pin_loop, 1, n)[0])
        times["threads_1"].append(timed(lambda: rob.distances_batch(Q, threads=1), 1, n)[0])
        times["threads_2"].append(timed(lambda: rob.distances_batch(Q, threads=2), 1, n)[0])
    mins = {k: min(v) for k, v in times.items()}
    meds = {k: statistics.median(v) for k, v in times.items()}
    ours = rob.distances_batch(Q).min_distance
    theirs = pin_loop()
    row = {
        "workload": workload["name"],
        "n": n,
        "ns_min": mins,
        "ns_median": meds,
        "speedup_1_thread_vs_pin_loop": mins["pin_loop"] / mins["threads_1"],
        "speedup_2_vs_1_thread": mins["threads_1"] / mins["threads_2"],
        "max_abs_min_distance_diff": float(np.max(np.abs(ours - theirs))),
    }
    report["robot"].append(row)
    print(f"\n== robot {workload['name']}: {n} configurations (ns per configuration: min / median)")
    print(
        f"pin.computeDistances loop {mins['pin_loop']:8.0f} / {meds['pin_loop']:8.0f}   distances_batch 1 thread"
        f" {mins['threads_1']:8.0f} / {meds['threads_1']:8.0f}   2 threads {mins['threads_2']:8.0f} / {meds['threads_2']:8.0f}"
        f"   | {row['speedup_1_thread_vs_pin_loop']:.1f}x, 2 vs 1 thread {row['speedup_2_vs_1_thread']:.2f}x,"
        f" max |min_distance diff| {row['max_abs_min_distance_diff']:.1e}"
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--batch", type=int, default=20000)
    ap.add_argument("--sections", default="per-call,batch,robot")
    ap.add_argument("--robot-workload", default=None)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(1)
    report = {
        "proxima": proxima.__version__,
        "coal": coal.__version__,
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "per_call": [],
        "batch": [],
        "robot": [],
    }
    sections = args.sections.split(",")
    if "per-call" in sections:
        per_call(args, rng, report)
    if "batch" in sections:
        batch(args, rng, report)
    if "robot" in sections and args.robot_workload:
        robot(args, report)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
