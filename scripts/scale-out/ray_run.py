#!/usr/bin/env python3
"""The Ray side of the scale-out benchmark (run with a venv holding proxima[ray]).

    python scripts/scale-out/ray_run.py --urdf testdata/robots/panda/panda.urdf \\
        --configs Q.npy --workers 2 [--chunk-size N] --repeat 3 [--out D.npy]

Starts a local Ray with --workers CPUs, then times whole calls of
``proxima.ray.distances(robot, Q, chunk_size)`` (everything after ``ray.init``: shipping the
robot, the chunks, the tasks, assembling the result; the first call also builds the robot in
every worker and is reported apart). Also measures Ray's per-task overhead: the wall time per
task of a stream of tasks doing nothing with a small numpy chunk, on the same workers (2 per
worker in flight), and the driver's task rate (the same tasks, 64 in flight). Prints one JSON
object.
"""
import argparse
import json
import time

import numpy as np
import ray

import proxima
import proxima.ray


@ray.remote
def _noop(q):
    return q.shape[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--urdf", required=True)
    ap.add_argument("--configs", required=True)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunk-size", type=int, default=None, help="default: proxima.ray.auto_chunk_size")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--overhead-tasks", type=int, default=2000)
    ap.add_argument("--out")
    a = ap.parse_args()
    Q = np.load(a.configs)
    robot = proxima.Robot.from_urdf(a.urdf)
    ray.init(num_cpus=a.workers, include_dashboard=False, log_to_driver=False)
    times = []
    first = None
    for r in range(a.repeat + 1):
        t0 = time.perf_counter()
        b = proxima.ray.distances(robot, Q, chunk_size=a.chunk_size, progress=False)
        dt = time.perf_counter() - t0
        if r == 0:
            first = dt
        else:
            times.append(dt)
    if a.out:
        np.save(a.out, np.asarray(b.min_distance))
    # per-task overhead: tasks that do nothing, a 64-row chunk each, 2 x workers in flight
    chunk = ray.put(Q[:64])
    [ray.get(_noop.remote(chunk)) for _ in range(10)]
    t0 = time.perf_counter()
    pending = []
    for _ in range(a.overhead_tasks):
        if len(pending) >= 2 * a.workers:
            done, pending = ray.wait(pending, num_returns=1)
            ray.get(done)
        pending.append(_noop.remote(ray.put(Q[:64])))
    ray.get(pending)
    per_task = (time.perf_counter() - t0) / a.overhead_tasks
    # the driver's task rate: the same tasks, 64 in flight
    t0 = time.perf_counter()
    pending = []
    for _ in range(a.overhead_tasks):
        if len(pending) >= 64:
            done, pending = ray.wait(pending, num_returns=1)
            ray.get(done)
        pending.append(_noop.remote(ray.put(Q[:64])))
    ray.get(pending)
    driver_rate = a.overhead_tasks / (time.perf_counter() - t0)
    n = len(Q)
    print(json.dumps({
        "runner": "proxima.ray", "workers": a.workers, "n": n,
        "chunk_size": a.chunk_size or proxima.ray.auto_chunk_size(n, a.workers),
        "seconds_first": first, "seconds_min": min(times), "seconds_median": float(np.median(times)),
        "configs_per_s_min_time": n / min(times), "configs_per_s_median_time": n / float(np.median(times)),
        "task_overhead_s": per_task, "driver_tasks_per_s": driver_rate, "in_collision": int(np.asarray(b.in_collision).sum()),
        "ray": ray.__version__,
    }))


if __name__ == "__main__":
    main()
