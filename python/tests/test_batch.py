"""distance_batch: rows equal single calls, identical bits for any thread count, broadcasting,
errors naming the row, the GIL released while it runs, pickling; Tracker: warm answers equal
cold ones within the certificates."""

import pickle
import threading
import time

import numpy as np
import pytest

import proxima

from conftest import random_pose, sphere_points


def poses(rng, n, spread=0.5, center=(0, 0, 0)):
    return np.stack([random_pose(rng, spread, center) for _ in range(n)])


def pair(rng):
    return proxima.ConvexHull(sphere_points(rng, 24, (0.5, 0.4, 0.3))), proxima.Capsule(0.2, 0.4)


FLOAT_FIELDS = ["distance", "signed_distance", "lower", "upper", "signed_lower", "signed_upper"]
POINT_FIELDS = ["point_a", "point_b", "normal"]


def test_rows_equal_single_calls(rng):
    a, b = pair(rng)
    Ta, Tb = poses(rng, 300), poses(rng, 300, center=(0.9, 0, 0))
    batch = proxima.distance_batch(a, Ta, b, Tb)
    assert len(batch) == 300
    for i in range(300):
        r = proxima.distance(a, Ta[i], b, Tb[i])
        assert batch.status[i] == r.status
        for f in FLOAT_FIELDS:
            assert getattr(batch, f)[i] == getattr(r, f), f
        for f in POINT_FIELDS:
            v = getattr(r, f)
            if v is None:
                assert np.isnan(getattr(batch, f)[i]).all()
            else:
                assert np.array_equal(getattr(batch, f)[i], v), f
    assert {"separated", "intersecting"} <= set(batch.status)


SHAPES = {
    "box": lambda rng: proxima.Box([0.5, 0.4, 0.3]),
    "ellipsoid": lambda rng: proxima.Ellipsoid([0.5, 0.4, 0.3]),
    "capsule": lambda rng: proxima.Capsule(0.3, 0.5),
    "sphere": lambda rng: proxima.Sphere(0.4),
    "cylinder": lambda rng: proxima.Cylinder(0.3, 0.4),
    "hull": lambda rng: proxima.ConvexHull(sphere_points(rng, 40, (0.5, 0.4, 0.3))),
}


@pytest.mark.parametrize("penetration_depth", [True, False])
@pytest.mark.parametrize("names", [
    ("box", "box"), ("ellipsoid", "ellipsoid"), ("capsule", "capsule"), ("hull", "hull"),
    ("box", "ellipsoid"), ("ellipsoid", "box"), ("sphere", "hull"), ("hull", "cylinder"), ("cylinder", "box"),
])
def test_rows_equal_single_calls_for_each_pair_family(rng, names, penetration_depth):
    # The batch answers every row through one prepared pair (route chosen once, the order of
    # two shapes of one kind per row): bit for bit the single call, both argument orders,
    # signed and unsigned.
    a, b = SHAPES[names[0]](rng), SHAPES[names[1]](rng)
    Ta, Tb = poses(rng, 120, 0.3), poses(rng, 120, 0.3, center=(0.9, 0, 0))
    Ta[7] = Tb[7]
    batch = proxima.distance_batch(a, Ta, b, Tb, penetration_depth=penetration_depth)
    for i in range(len(Ta)):
        r = proxima.distance(a, Ta[i], b, Tb[i], penetration_depth=penetration_depth)
        assert batch.status[i] == r.status
        for f in FLOAT_FIELDS:
            assert np.float64(getattr(batch, f)[i]).tobytes() == np.float64(getattr(r, f)).tobytes(), (i, f)
        for f in POINT_FIELDS:
            v = getattr(r, f)
            expected = np.full(3, np.nan) if v is None else v
            assert getattr(batch, f)[i].tobytes() == np.asarray(expected).tobytes(), (i, f)


def test_hull_batches_with_support_lists_equal_calls_on_a_fresh_hull(rng):
    # A hull large enough (128 vertices or more) and enough rows (32 per vertex) for the batch
    # to build the hull's support lists, which the shape then keeps: every row equals the
    # single call on a hull built again from the same points (no lists), bit for bit,
    # separated and intersecting rows alike.
    points = sphere_points(rng, 140, (0.5, 0.4, 0.3))
    a = proxima.ConvexHull(points)
    Ta, Tb = poses(rng, 4500, 0.3), poses(rng, 4500, 0.3, center=(0.9, 0, 0))
    batch = proxima.distance_batch(a, Ta, a, Tb, threads=1)
    assert {"separated", "intersecting"} <= set(batch.status)
    fresh = proxima.ConvexHull(points)
    for i in range(len(Ta)):
        r = proxima.distance(fresh, Ta[i], fresh, Tb[i])
        assert batch.status[i] == r.status
        for f in FLOAT_FIELDS:
            assert np.float64(getattr(batch, f)[i]).tobytes() == np.float64(getattr(r, f)).tobytes(), (i, f)
        for f in POINT_FIELDS:
            v = getattr(r, f)
            expected = np.full(3, np.nan) if v is None else v
            assert getattr(batch, f)[i].tobytes() == np.asarray(expected).tobytes(), (i, f)
    assert proxima.distance_batch(a, Ta, a, Tb, threads=2) == batch
    assert a == fresh


def test_thread_count_changes_no_bit(rng):
    a, b = pair(rng)
    Ta, Tb = poses(rng, 2000), poses(rng, 2000, center=(0.8, 0, 0))
    one = proxima.distance_batch(a, Ta, b, Tb, threads=1)
    for threads in (2, 3, None):
        other = proxima.distance_batch(a, Ta, b, Tb, threads=threads)
        assert other == one
        for f in FLOAT_FIELDS + POINT_FIELDS:
            assert getattr(other, f).tobytes() == getattr(one, f).tobytes(), (threads, f)


def test_one_pose_broadcasts(rng):
    a, b = pair(rng)
    Tb = poses(rng, 50, center=(1, 0, 0))
    fixed = random_pose(rng)
    left = proxima.distance_batch(a, fixed, b, Tb)
    right = proxima.distance_batch(a, np.repeat(fixed[None], 50, axis=0), b, Tb)
    assert left == right
    flipped = proxima.distance_batch(b, Tb, a, fixed)
    assert np.array_equal(flipped.distance, left.distance)
    # Fortran order and strided views read in logical order.
    assert proxima.distance_batch(a, fixed, b, np.asfortranarray(Tb)) == left
    doubled = np.repeat(Tb, 2, axis=0)[::2]
    assert proxima.distance_batch(a, fixed, b, doubled) == left
    assert proxima.distance_batch(a, np.asfortranarray(fixed.T).T, b, Tb) == left
    single = proxima.distance_batch(a, fixed, b, Tb[0])
    assert len(single) == 1 and single.distance[0] == left.distance[0]
    empty = proxima.distance_batch(a, np.zeros((0, 4, 4)), b, fixed)
    assert len(empty) == 0 and empty.point_a.shape == (0, 3)


def test_results_are_read_only_and_pickle_to_equal_batches(rng):
    a, b = pair(rng)
    batch = proxima.distance_batch(a, poses(rng, 40), b, poses(rng, 40, center=(0.7, 0, 0)))
    with pytest.raises(ValueError):
        batch.distance[0] = 1.0
    again = pickle.loads(pickle.dumps(batch))
    assert again == batch and len(again) == 40
    assert again.status.dtype == batch.status.dtype
    assert again != proxima.distance_batch(a, np.eye(4), b, proxima.pose([5, 0, 0]))


def test_columns_are_c_contiguous_read_only_and_typed(rng):
    # The outputs are filled in place without a zeroing pass (the status column through uint32
    # storage viewed as text): each column keeps its dtype, shape and C order, and is read-only
    # down to the array owning its memory (its base, when it is a view).
    a, b = pair(rng)
    n = 33
    batch = proxima.distance_batch(a, poses(rng, n), b, poses(rng, n, center=(0.7, 0, 0)))
    for name in FLOAT_FIELDS + POINT_FIELDS + ["status"]:
        column = getattr(batch, name)
        assert column.flags.c_contiguous and not column.flags.writeable, name
        assert column.shape == ((n, 3) if name in POINT_FIELDS else (n,)), name
        assert column.dtype == (np.dtype("<U12") if name == "status" else np.float64), name
        base = column.base
        while base is not None:
            assert not base.flags.writeable, name
            base = getattr(base, "base", None)
    assert set(batch.status) <= {"separated", "touching", "intersecting"}


def test_bad_rows_are_named(rng):
    a, b = pair(rng)
    Ta = poses(rng, 10)
    Tb = poses(rng, 10, center=(1, 0, 0))
    Ta[7, 0, 0] = np.nan
    Ta[9, :3, :3] *= 2
    with pytest.raises(proxima.GeomError, match=r"^Ta\[7\]: "):
        proxima.distance_batch(a, Ta, b, Tb)
    Tb[3, 3, 3] = 2.0
    with pytest.raises(proxima.ProximaError, match=r"^Tb\[3\]: the bottom row"):
        proxima.distance_batch(a, poses(rng, 10), b, Tb)
    with pytest.raises(proxima.ProximaError, match="Ta has 10 poses but Tb has 9"):
        proxima.distance_batch(a, poses(rng, 10), b, poses(rng, 9))
    with pytest.raises(proxima.ProximaError, match=r"Ta: expected an array of shape \(N, 4, 4\) or \(4, 4\)"):
        proxima.distance_batch(a, np.zeros((3, 3, 3)), b, np.eye(4))
    with pytest.raises(proxima.ProximaError, match="threads: must be >= 1"):
        proxima.distance_batch(a, np.eye(4), b, np.eye(4), threads=0)
    with pytest.raises(proxima.GeomError, match="gap_tolerance"):
        proxima.distance_batch(a, np.eye(4), b, np.eye(4), gap_tolerance=-1)


def python_steps_in_the_middle(work):
    """Runs `work` in another thread and counts the timestamps this thread records in the
    middle third of the work's run. A call that holds the GIL allows none there: this thread
    can only slip in within one switch interval (5 ms) of the call's start or end, and the
    run lasts far longer (checked)."""
    window = {}
    started = threading.Event()

    def run():
        started.set()
        window["start"] = time.perf_counter()
        work()
        window["end"] = time.perf_counter()

    worker = threading.Thread(target=run)
    worker.start()
    started.wait()
    stamps = []
    while worker.is_alive():
        stamps.append(time.perf_counter())
    worker.join()
    start, end = window["start"], window["end"]
    third = (end - start) / 3
    assert third > 0.02, f"the run took {end - start:.3f} s: too short to tell"
    return sum(1 for t in stamps if start + third < t < end - third)


def test_the_gil_is_released_while_the_batch_runs(rng):
    a, b = pair(rng)
    # Enough rows for a run of ~0.3 s whatever the machine's speed (the check needs its middle
    # third to last well beyond one 5 ms switch interval): time a first batch, then scale.
    n = 20000
    Ta, Tb = poses(rng, n), poses(rng, n, center=(0.9, 0, 0))
    t0 = time.perf_counter()
    proxima.distance_batch(a, Ta, b, Tb, threads=1)
    scale = min(64, max(1, int(np.ceil(0.3 / max(time.perf_counter() - t0, 1e-6)))))
    Ta, Tb = np.concatenate([Ta] * scale), np.concatenate([Tb] * scale)
    assert python_steps_in_the_middle(lambda: proxima.distance_batch(a, Ta, b, Tb, threads=1)) > 100
    # The control: a C call that holds the GIL lets no step through.
    assert python_steps_in_the_middle(lambda: sum(range(2 * 10**7))) == 0


def test_tracker_follows_a_trajectory_like_cold_queries(rng):
    a, b = pair(rng)
    tracker = proxima.Tracker(a, b)
    Ta = random_pose(rng)
    for k in range(200):
        angle = 0.02 * k
        Tb = proxima.pose([1.2 * np.cos(angle), 1.2 * np.sin(angle), 0.1], [np.cos(angle / 2), 0, 0, np.sin(angle / 2)])
        warm = tracker.distance(Ta, Tb)
        cold = proxima.distance(a, Ta, b, Tb)
        # Both certified: each distance inside the other's bracket (GJK tolerance 1e-10 x
        # scale, scale ~ 2 here).
        assert warm.status == cold.status
        assert cold.lower - 1e-9 <= warm.distance <= cold.upper + 1e-9
        assert warm.lower - 1e-9 <= cold.distance <= warm.upper + 1e-9
    assert tracker.queries == 200
    tracker.reset()
    assert tracker.distance(Ta, Tb).distance == pytest.approx(cold.distance, abs=1e-9)


def test_tracker_pickles_cold_and_equal_and_keeps_settings(rng):
    a, b = pair(rng)
    tracker = proxima.Tracker(a, b, gap_tolerance=1e-7, algorithm="gjk")
    tracker.distance(np.eye(4), proxima.pose([1, 0, 0]))
    again = pickle.loads(pickle.dumps(tracker))
    assert again == tracker and again.queries == 0
    assert again.settings["gap_tolerance"] == 1e-7 and again.settings["algorithm"] == "gjk"
    assert again.a == a and again.b == b
    assert again != proxima.Tracker(a, b)
    with pytest.raises(proxima.GeomError, match="gap_tolerance"):
        proxima.Tracker(a, b, gap_tolerance=-1.0)
    with pytest.raises(proxima.ProximaError, match="Tb"):
        tracker.distance(np.eye(4), np.eye(3))


def test_row_blocks_cover_every_row_for_any_length_and_thread_count(rng):
    # Rows are handed out in blocks of about n / (64 k) rows (at least 8) from one queue:
    # lengths around and between block sizes, any thread count, give the one-thread arrays.
    a, b = pair(rng)
    for n in (1, 7, 8, 9, 17, 129, 1031):
        Ta, Tb = poses(rng, n), poses(rng, n, center=(0.8, 0, 0))
        one = proxima.distance_batch(a, Ta, b, Tb, threads=1)
        for threads in (2, 3, 5):
            other = proxima.distance_batch(a, Ta, b, Tb, threads=threads)
            for f in FLOAT_FIELDS + POINT_FIELDS:
                assert getattr(other, f).tobytes() == getattr(one, f).tobytes(), (n, threads, f)


def test_lowest_bad_row_is_reported_whatever_the_thread_count(rng):
    a, b = pair(rng)
    Ta, Tb = poses(rng, 3000), poses(rng, 3000, center=(0.8, 0, 0))
    Ta[2500, 0, 0] = np.nan
    Tb[1700, :3, :3] *= 2
    for threads in (1, 2, 3, None):
        with pytest.raises(proxima.ProximaError, match=r"^Tb\[1700\]"):
            proxima.distance_batch(a, Ta, b, Tb, threads=threads)
