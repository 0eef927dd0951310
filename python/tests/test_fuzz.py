"""Thousands of random calls — valid, extreme and malformed arguments to every entry point —
in a child process, so that an abort or a crash fails this test instead of killing the run.
Every call must return or raise ValueError / TypeError (bad input) or UndecidedError (no
verdict); an InternalError (a caught panic) counts as a failure too."""

import json
import subprocess
import sys
import textwrap

from conftest import TESTDATA

PANDA = TESTDATA / "robots" / "panda" / "panda.urdf"

CHILD = textwrap.dedent(
    r"""
    import json, sys, warnings
    import numpy as np
    import proxima

    warnings.simplefilter("ignore")
    rng = np.random.default_rng(int(sys.argv[1]))
    calls = int(sys.argv[2])
    robot = proxima.Robot.from_urdf(sys.argv[3])

    def number():
        k = rng.integers(12)
        # 1e160: squared distances overflow f64 (a clean GeomError, see
        # test_coordinates_beyond_f64_range_are_an_error_not_a_panic).
        return [0.0, -1.0, 1e-300, 1e100, np.nan, np.inf, -np.inf, 5e-324,
                float(rng.normal()), float(abs(rng.normal())) + 0.1, 1e160, 2.0][k]

    def vector(n=3):
        k = rng.integers(8)
        if k == 0:
            return [number() for _ in range(n)]
        if k == 1:
            return [number() for _ in range(int(rng.integers(0, 6)))]
        if k == 2:
            return "abc"
        if k == 3:
            return None
        if k == 4:
            return np.array([number() for _ in range(n)], dtype=[np.float32, np.float64, complex][int(rng.integers(3))])
        return np.abs(rng.normal(size=n)) + 0.05

    def points():
        k = rng.integers(6)
        if k == 0:
            return rng.normal(size=(int(rng.integers(0, 12)), 3))
        if k == 1:
            p = rng.normal(size=(8, 3)); p[int(rng.integers(8)), int(rng.integers(3))] = number(); return p
        if k == 2:
            return rng.normal(size=(5, int(rng.integers(1, 5))))
        if k == 3:
            return np.zeros((6, 3))  # all equal
        if k == 4:
            return [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]]  # collinear
        return rng.normal(size=(30, 3)) * 10 ** float(rng.integers(-8, 8))

    def shape():
        k = rng.integers(10)
        try:
            if k == 0: return proxima.Box(vector())
            if k == 1: return proxima.Sphere(number())
            if k == 2: return proxima.Capsule(number(), number())
            if k == 3: return proxima.Cylinder(number(), number())
            if k == 4: return proxima.Cone(number(), number())
            if k == 5: return proxima.Ellipsoid(vector())
            if k == 6: return proxima.Triangle(vector(), vector(), vector())
            if k == 7: return proxima.ConvexHull(points())
            if k == 8:
                n = int(rng.integers(1, 9))
                return proxima.Polyhedron(rng.normal(size=(n, 3)), np.abs(rng.normal(size=n)))
            return proxima.Sphere(float(abs(rng.normal())) + 0.1)
        except (ValueError, TypeError):
            return proxima.Box([0.5, 0.5, 0.5])

    def pose():
        k = rng.integers(9)
        if k == 0:
            return proxima.pose(rng.normal(size=3) * 10 ** float(rng.integers(-3, 6)), rng.normal(size=4))
        if k == 1:
            return rng.normal(size=(4, 4))
        if k == 2:
            T = np.eye(4); T[int(rng.integers(3)), int(rng.integers(4))] = number(); return T
        if k == 3:
            return np.eye(int(rng.integers(1, 6)))
        if k == 4:
            return np.eye(4).tolist()
        if k == 5:
            return "pose"
        if k == 6:
            T = proxima.pose(rng.normal(size=3)); T[:3, :3] *= 1 + 1e-7; return T
        if k == 7:
            return np.stack([np.eye(4)] * 2)
        return np.eye(4)

    def settings():
        if rng.random() < 0.6:
            return {}
        key = ["algorithm", "arithmetic", "gap_tolerance", "touching_tolerance", "penetration_depth",
               "gjk_max_iterations", "gjk_tolerance", "gjk_acceleration", "bogus"][int(rng.integers(9))]
        value = [number(), "gjk", "lcp", "exact", "float", "closed_form", "dqp3", "ellipsoid", "lp", "sat",
                 True, 0, 1, -1, 2**40, None, "nesterov"][int(rng.integers(17))]
        return {key: value}

    def matrix():
        n = int(rng.integers(0, 5))
        k = rng.integers(5)
        if k == 0:
            M = rng.normal(size=(n, n)); M[rng.random(size=(n, n)) < 0.1] = number(); return M
        if k == 1:
            return rng.normal(size=(n, n + 1))
        if k == 2:
            return [[str(int(rng.integers(-3, 4))) + "/" + str(int(rng.integers(0, 4))) for _ in range(n)] for _ in range(n)]
        if k == 3:
            B = rng.normal(size=(n, n)); return B @ B.T
        return np.zeros((n, n))

    ACCEPTED = (ValueError, TypeError, proxima.UndecidedError)
    outcomes = {"ok": 0, "value": 0, "type": 0, "undecided": 0}
    last = None
    for i in range(calls):
        k = rng.integers(10)
        try:
            if k == 0:
                args = (shape(), pose(), shape(), pose())
                kw = settings()
                last = (args, kw)
                proxima.distance(*args, **kw)
            elif k == 1:
                proxima.intersects(shape(), pose(), shape(), pose(), **settings())
            elif k == 2:
                proxima.signed_distance(shape(), pose(), shape(), pose(), **settings())
            elif k == 3:
                n = int(rng.integers(0, 4))
                Ta = np.stack([np.asarray(pose(), dtype=float) if rng.random() < 0.2 else proxima.pose(rng.normal(size=3)) for _ in range(n)]) if n else np.zeros((0, 4, 4))
                proxima.distance_batch(shape(), Ta, shape(), pose(), threads=[None, 1, 2, 0][int(rng.integers(4))], **settings())
            elif k == 4:
                t = proxima.Tracker(shape(), shape(), **settings())
                for _ in range(3):
                    t.distance(pose(), pose())
            elif k == 5:
                M = matrix()
                q = rng.normal(size=len(M)) if rng.random() < 0.8 else vector(len(M))
                method = [None, "lemke", "baraff", "pgs", "psor", "jacobi", "minmap-newton", "fischer-newton"][int(rng.integers(8))]
                kwargs = {"exact": bool(rng.random() < 0.3)}
                if method:
                    kwargs["method"] = method
                if rng.random() < 0.3:
                    kwargs["max_iter"] = int(rng.integers(-1, 5))
                proxima.solve_lcp(M, q, **kwargs)
            elif k == 6:
                H = matrix(); n = len(H)
                proxima.solve_qp(H, rng.normal(size=n), A=rng.normal(size=(1, n)) if rng.random() < 0.5 else None,
                                 b=[number()] if rng.random() < 0.5 else None, exact=bool(rng.random() < 0.3),
                                 free=[True, None, [0]][int(rng.integers(3))])
            elif k == 7:
                proxima.pose(vector(), vector(4))
            elif k == 9:
                q = rng.uniform(-3.5, 3.5, size=int(rng.choice([8, 8, 8, 7]))) * rng.choice([1.0, 1e-3])
                if rng.random() < 0.2:
                    q[int(rng.integers(len(q)))] = number()
                if rng.random() < 0.5:
                    robot.distances(q, all_pairs=bool(rng.random() < 0.5), clamp=bool(rng.random() < 0.5))
                else:
                    robot.distances_batch(np.stack([q, q]), threads=[None, 1, 2][int(rng.integers(3))], clamp=bool(rng.random() < 0.5))
            else:
                a = shape()
                import pickle
                assert pickle.loads(pickle.dumps(a)) == a
            outcomes["ok"] += 1
        except proxima.InternalError as e:
            print(json.dumps({"internal_error": str(e), "call": int(i), "kind": int(k), "last": repr(last) if k == 0 else ""}))
            sys.exit(3)
            sys.exit(3)
        except proxima.UndecidedError:
            outcomes["undecided"] += 1
        except ValueError:
            outcomes["value"] += 1
        except TypeError:
            outcomes["type"] += 1
    print(json.dumps(outcomes))
    """
)


def test_random_calls_never_abort_or_panic():
    calls = 5000
    child = subprocess.run(
        [sys.executable, "-c", CHILD, "20261201", str(calls), str(PANDA)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert child.returncode == 0, f"exit {child.returncode}\n{child.stdout[-2000:]}\n{child.stderr[-2000:]}"
    outcomes = json.loads(child.stdout.strip().splitlines()[-1])
    assert sum(outcomes.values()) == calls
    # The mix exercises both kinds of outcome.
    assert outcomes["ok"] > calls // 10 and outcomes["value"] > calls // 10, outcomes


def test_coordinates_beyond_f64_range_are_an_error_not_a_panic():
    """A box 1e160 away from an ellipsoid: the squared distance overflows f64. The geometry
    crate once panicked there (EPA on an emptied simplex; the binding turned it into
    InternalError); it now reports proxima.GeomError (a ValueError) naming the overflow, and
    the next query on the same thread answers correctly. Up to ~1e154 such pairs are answered."""
    import numpy as np
    import pytest

    import proxima

    box, ellipsoid = proxima.Box([0.5, 0.5, 0.5]), proxima.Ellipsoid([1, 2, 3])
    with pytest.raises(proxima.GeomError, match="too large for f64") as e:
        proxima.distance(box, proxima.pose([0.0, 1e160, 0.0]), ellipsoid, np.eye(4))
    assert isinstance(e.value, ValueError)
    r = proxima.distance(box, proxima.pose([0.0, 1e150, 0.0]), ellipsoid, np.eye(4))
    assert abs(r.distance - 1e150) <= 1e-9 * 1e150
    r = proxima.distance(box, proxima.pose([3.0, 0, 0]), ellipsoid, np.eye(4))
    assert abs(r.distance - 1.5) < 1e-8
