"""Robot distances for millions of configurations on a Ray cluster.

``proxima.ray.distances(robot, Q, chunk_size=None, margin=None)`` cuts the configurations ``Q``
(N, dof) into chunks of ``chunk_size`` rows (by default about four chunks per worker, between
``MIN_AUTO_CHUNK`` and ``MAX_AUTO_CHUNK`` rows), ships each chunk as a numpy array through Ray's
object store to a task that runs ``robot.distances_batch`` on it, and puts the answers back
together in input order: the same ``proxima.RobotBatch`` as ``robot.distances_batch(Q)``,
bit for bit (every row is a cold query, a pure function of its configuration).

* The robot is shipped once (``ray.put``) and built once per worker process: tasks receive
  its object reference wrapped in a list (so Ray does not deserialize it per task) and keep
  the rebuilt robot in a per-process cache.
* At most ``max_in_flight`` chunks are submitted at a time (default: twice the cluster's
  CPUs), so the object store holds a bounded slice of ``Q``.
* A worker process that dies mid-run (killed, out of memory, node lost) is retried by Ray
  (``max_retries`` per chunk); the result is keyed by chunk index, so no row is lost or
  counted twice. Errors raised by the computation itself (bad input) are not retried.
* Bad input (not a ``proxima.Robot``, wrong shape or dof, NaN or infinite values, joint values
  outside their limits unless ``clamp``, a bad ``chunk_size`` or ``margin``) raises
  ``ValueError`` / ``TypeError`` before anything is shipped.
* Works with ``ray.init()`` (local) and ``ray.init(address=...)`` (a cluster) alike; when Ray
  is not initialized, ``ray.init()`` is called.

Install with the optional extra: ``pip install "./python[ray]"``.
"""

from __future__ import annotations

import math
import sys

import numpy as np

#: The automatic chunk size never goes below this: a Panda chunk of 8192 rows is about 90 ms
#: of work on one core, 27x Ray's per-task overhead measured on a busy 2-core machine, so the
#: overhead stays under 5 % (docs/scale-out.md).
MIN_AUTO_CHUNK = 8192
#: ... nor above this (under a second of work per core: fine-grained progress, cheap retries).
MAX_AUTO_CHUNK = 65536


def auto_chunk_size(n, workers):
    """The default chunk size for ``n`` rows on ``workers`` parallel tasks: about four chunks
    per worker (equal shares, no straggling last chunk), clamped to
    [``MIN_AUTO_CHUNK``, ``MAX_AUTO_CHUNK``]."""
    return max(MIN_AUTO_CHUNK, min(MAX_AUTO_CHUNK, -(-n // (4 * max(1, workers)))))

_FIELDS = ("min_distance", "pair_a", "pair_b", "in_collision", "lower", "upper")

# Per worker process: robot key -> rebuilt robot (the last few robots only).
_ROBOTS: dict = {}
_REMOTE = None


def _import_ray():
    try:
        import ray
    except ImportError as e:  # pragma: no cover - exercised only without the extra
        raise ImportError('proxima.ray needs Ray: pip install "proxima[ray]"') from e
    return ray


def _cached_robot(key, boxed_ref):
    robot = _ROBOTS.get(key)
    if robot is None:
        import ray

        robot = ray.get(boxed_ref[0])
        while len(_ROBOTS) >= 4:
            _ROBOTS.pop(next(iter(_ROBOTS)))
        _ROBOTS[key] = robot
    return robot


def _distances_chunk(boxed_robot, key, q, margin, clamp, threads):
    robot = _cached_robot(key, boxed_robot)
    batch = robot.distances_batch(q, threads=threads, clamp=clamp, margin=margin)
    return {name: np.asarray(getattr(batch, name)) for name in _FIELDS}


def _remote(ray):
    global _REMOTE
    if _REMOTE is None:
        _REMOTE = ray.remote(_distances_chunk)
    return _REMOTE


def check_configurations(robot, Q, clamp=False):
    """``Q`` as a C-contiguous float64 (N, dof) array, after checking it the way the batch
    will: shape, finite values, joint limits (unless ``clamp``). Raises ``ValueError`` naming
    the first bad row."""
    import proxima

    if not isinstance(robot, proxima.Robot):
        raise TypeError(f"robot: expected a proxima.Robot, got {type(robot).__name__}")
    Q = np.asarray(Q)
    if Q.dtype.kind not in "fiu":
        raise ValueError(f"Q: expected real numbers, got dtype {Q.dtype}")
    Q = np.ascontiguousarray(Q, dtype=np.float64)
    if Q.ndim != 2 or Q.shape[1] != robot.dof:
        raise ValueError(
            f"Q: expected shape (N, {robot.dof}) (joints {', '.join(robot.joint_names)}), got {Q.shape}"
        )
    finite = np.isfinite(Q).all(axis=1)
    if not finite.all():
        i = int(np.argmin(finite))
        raise ValueError(f"Q[{i}]: {Q[i].tolist()} has a value that is not finite")
    robot.check_configurations(Q, clamp=clamp)
    return Q


class _Progress:
    """A bar over chunks: tqdm when installed, else nothing."""

    def __init__(self, total, enabled):
        self.bar = None
        if enabled:
            try:
                from tqdm.auto import tqdm

                self.bar = tqdm(total=total, unit="chunk", desc="proxima.ray", file=sys.stderr)
            except ImportError:
                pass

    def update(self):
        if self.bar is not None:
            self.bar.update(1)

    def close(self):
        if self.bar is not None:
            self.bar.close()


def distances(
    robot,
    Q,
    chunk_size=None,
    margin=None,
    *,
    clamp=False,
    threads_per_task=1,
    max_in_flight=None,
    max_retries=3,
    progress=True,
):
    """Minimum signed distances of ``robot`` at every row of ``Q`` (N, dof) on a Ray
    cluster, as a ``proxima.RobotBatch`` in input order (see the module docs).

    ``chunk_size``: rows per task (default: ``auto_chunk_size(N, parallel tasks)``).
    ``margin``: distances are exact up to it and ``inf`` beyond (as ``Robot.distances_batch``).
    ``threads_per_task``: threads (and CPUs reserved) per chunk task. ``max_retries``: how
    often Ray reruns a chunk whose worker died. ``progress``: a tqdm bar over chunks."""
    import proxima

    Q = check_configurations(robot, Q, clamp=clamp)
    if chunk_size is not None and (
        isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)) or chunk_size < 1
    ):
        raise ValueError(f"chunk_size: must be an integer >= 1 or None, got {chunk_size!r}")
    if margin is not None and not (math.isfinite(margin) and margin >= 0):
        raise ValueError(f"margin: must be finite and >= 0, got {margin!r}")
    if not isinstance(threads_per_task, (int, np.integer)) or threads_per_task < 1:
        raise ValueError(f"threads_per_task: must be an integer >= 1, got {threads_per_task!r}")
    ray = _import_ray()
    if not ray.is_initialized():
        ray.init()
    n = len(Q)
    workers = max(1, int(ray.cluster_resources().get("CPU", 1)) // threads_per_task)
    chunk_size = auto_chunk_size(n, workers) if chunk_size is None else int(chunk_size)
    bounds = [(s, min(s + chunk_size, n)) for s in range(0, n, chunk_size)]
    if max_in_flight is None:
        max_in_flight = 2 * workers
    robot_ref = ray.put(robot)
    key = robot_ref.hex()
    task = _remote(ray).options(num_cpus=threads_per_task, max_retries=max_retries, retry_exceptions=False)
    parts = [None] * len(bounds)
    pending = {}
    next_chunk = 0
    bar = _Progress(len(bounds), progress)
    try:
        while next_chunk < len(bounds) or pending:
            while next_chunk < len(bounds) and len(pending) < max_in_flight:
                s, e = bounds[next_chunk]
                chunk = ray.put(Q[s:e])
                ref = task.remote([robot_ref], key, chunk, margin, clamp, threads_per_task)
                pending[ref] = next_chunk
                next_chunk += 1
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                k = pending.pop(ref)
                parts[k] = ray.get(ref)
                bar.update()
    finally:
        bar.close()
        for ref in pending:
            ray.cancel(ref, force=False)
    # every chunk exactly once, each of its own length
    for k, ((s, e), part) in enumerate(zip(bounds, parts)):
        if part is None or any(len(part[f]) != e - s for f in _FIELDS):
            raise RuntimeError(f"chunk {k} (rows {s}..{e}) came back incomplete")
    state = {
        f: (np.concatenate([p[f] for p in parts]) if parts else np.zeros(0, dtype=_DTYPES[f])) for f in _FIELDS
    }
    return proxima._proxima._robot_batch(state)


_DTYPES = {
    "min_distance": np.float64,
    "pair_a": np.int64,
    "pair_b": np.int64,
    "in_collision": np.bool_,
    "lower": np.float64,
    "upper": np.float64,
}
