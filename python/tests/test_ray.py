"""proxima.ray on a local Ray with 2 CPUs: results bit for bit those of the single-process
batch (any chunk size, with a margin too), a worker killed mid-run (SIGKILL) is retried and
the result is still complete and identical, bad input raises before anything is shipped.

Needs the optional extra (``pip install "./python[ray]"``); skipped without Ray unless
PROXIMA_REQUIRE_RAY is set (CI sets it)."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import proxima

if os.environ.get("PROXIMA_REQUIRE_RAY"):
    import ray
else:
    ray = pytest.importorskip("ray")

import proxima.ray  # noqa: E402

from test_robot import LIMITS, PANDA  # noqa: E402

FIELDS = ("min_distance", "pair_a", "pair_b", "in_collision", "lower", "upper")


def configurations(n, seed):
    rng = np.random.default_rng(seed)
    return LIMITS[:, 0] + rng.random((n, 8)) * (LIMITS[:, 1] - LIMITS[:, 0])


def assert_same_bits(a, b):
    assert type(a) is type(b) and len(a) == len(b)
    for f in FIELDS:
        x, y = np.asarray(getattr(a, f)), np.asarray(getattr(b, f))
        assert x.dtype == y.dtype and x.shape == y.shape, f
        assert x.tobytes() == y.tobytes(), f


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def panda():
    return proxima.Robot.from_urdf(PANDA)


def test_identical_to_the_single_process_batch(local_ray, panda):
    Q = configurations(2500, seed=1)
    reference = panda.distances_batch(Q, threads=1)
    assert 0 < np.asarray(reference.in_collision).sum() < len(Q)
    for chunk_size in (1000, 333, 2500, 10_000):
        assert_same_bits(proxima.ray.distances(panda, Q, chunk_size=chunk_size, progress=False), reference)
    near = proxima.ray.distances(panda, Q, chunk_size=400, margin=0.02, progress=False)
    assert_same_bits(near, panda.distances_batch(Q, threads=2, margin=0.02))
    d, m = np.asarray(reference.min_distance), np.asarray(near.min_distance)
    assert np.array_equal(m[d <= 0.02], d[d <= 0.02]) and np.isinf(m[d > 0.02]).all()
    # lists and float32 arrays are accepted like distances_batch accepts them
    assert_same_bits(proxima.ray.distances(panda, Q[:10].tolist(), progress=False), panda.distances_batch(Q[:10]))
    assert len(proxima.ray.distances(panda, np.zeros((0, 8)), progress=False)) == 0


def _busy_workers():
    """Worker processes executing a chunk (Ray titles them ray::<task name>)."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if cmd.startswith(b"ray::_distances_chunk"):
            pids.append(int(pid))
    return pids


def test_a_worker_killed_mid_run_is_retried(local_ray, panda):
    Q = configurations(24_000, seed=2)
    reference = panda.distances_batch(Q, threads=2)
    killed = []
    stop = threading.Event()

    def killer():
        deadline = time.monotonic() + 60
        while not stop.is_set() and time.monotonic() < deadline:
            busy = _busy_workers()
            if busy:
                os.kill(busy[0], signal.SIGKILL)
                killed.append(busy[0])
                return
            time.sleep(0.001)

    t = threading.Thread(target=killer)
    t.start()
    try:
        result = proxima.ray.distances(panda, Q, chunk_size=1200, progress=False)
    finally:
        stop.set()
        t.join()
    assert killed, "no worker was found busy to kill"
    assert not os.path.exists(f"/proc/{killed[0]}/cmdline") or not open(
        f"/proc/{killed[0]}/cmdline", "rb"
    ).read().startswith(b"ray::_distances_chunk")
    assert_same_bits(result, reference)


def test_bad_input_raises_before_anything_is_shipped(local_ray, panda, monkeypatch):
    def no_shipping(*args, **kwargs):
        raise AssertionError("something was shipped")

    monkeypatch.setattr(ray, "put", no_shipping)
    Q = configurations(50, seed=3)
    with pytest.raises(ValueError, match=r"shape \(N, 8\)"):
        proxima.ray.distances(panda, Q[:, :7])
    with pytest.raises(ValueError, match=r"shape \(N, 8\)"):
        proxima.ray.distances(panda, Q[0])
    bad = Q.copy()
    bad[17, 3] = np.nan
    bad[30, 0] = np.inf
    with pytest.raises(ValueError, match=r"Q\[17\].*not finite"):
        proxima.ray.distances(panda, bad)
    out = Q.copy()
    out[9, 1] = 3.0  # beyond panda_joint2's limits
    with pytest.raises(ValueError, match=r"Q\[9\].*panda_joint2"):
        proxima.ray.distances(panda, out)
    assert proxima.ray.check_configurations(panda, out, clamp=True).shape == (50, 8)
    with pytest.raises(ValueError, match="dtype"):
        proxima.ray.distances(panda, Q.astype(str))
    for chunk_size in (0, -5, 2.5, True, "4096"):
        with pytest.raises(ValueError, match="chunk_size"):
            proxima.ray.distances(panda, Q, chunk_size=chunk_size)
    for margin in (-0.1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="margin"):
            proxima.ray.distances(panda, Q, margin=margin)
    with pytest.raises(TypeError, match="proxima.Robot"):
        proxima.ray.distances("panda.urdf", Q)
