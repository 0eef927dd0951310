"""solve_lcp / solve_qp on the reference examples of testdata/ (Eberly, Convex quadratic
programming: exact answers given there), every registry method, dense and scipy.sparse
input, exact arithmetic with Fractions, bad input, pickling."""

import json
import pickle
from fractions import Fraction

import numpy as np
import pytest

import proxima

from conftest import TESTDATA

scipy_sparse = pytest.importorskip("scipy.sparse")


def load(kind, name):
    return json.loads((TESTDATA / kind / name).read_text())


def exact(values):
    return [Fraction(str(v)) for v in values]


def lcp_truth_holds(M, q, z, tol):
    """z ≥ 0, w = Mz + q ≥ 0, z·w = 0, checked here from the data."""
    w = np.asarray(M, dtype=float) @ z + np.asarray(q, dtype=float)
    return z.min() >= -tol and w.min() >= -tol and abs(z @ w) <= tol


@pytest.mark.parametrize("name", ["example1.json", "example5.json"])
def test_reference_lcps_exactly_and_in_floats(name):
    case = load("lcp", name)
    M, q, expected = case["M"], case["q"], case["expected"]
    r = proxima.solve_lcp(M, q, exact=True)
    assert r.status == "converged" and r.exact and r.method == "lemke"
    assert r.z_exact == exact(expected["z"])
    assert r.w_exact == exact(expected["w"])
    assert r.residual == 0.0 and r.complementarity == 0.0
    f = proxima.solve_lcp(np.array(M, dtype=float), q)
    assert f.status == "converged" and not f.exact and f.z_exact is None
    assert np.allclose(f.z, [float(v) for v in exact(expected["z"])], atol=1e-12)
    assert np.allclose(f.w, np.array(M, dtype=float) @ f.z + q, atol=0)


def test_infinitely_many_solutions_give_a_valid_one():
    case = load("lcp", "example2.json")
    r = proxima.solve_lcp(case["M"], case["q"], exact=True)
    assert r.status == "converged"
    z = np.array([float(v) for v in r.z_exact])
    assert lcp_truth_holds(case["M"], case["q"], z, 0.0)


def test_no_solution_is_a_status_not_an_exception():
    case = load("lcp", "example3.json")
    for exact_mode in (True, False):
        r = proxima.solve_lcp(case["M"], case["q"], exact=exact_mode)
        assert r.status == "no_solution", r


def test_exact_input_as_fractions_and_strings():
    case = load("lcp", "fractions.json")
    # "0.1" is 1/10 exactly when read as text.
    r = proxima.solve_lcp(case["M"], [case["q"][0], "0.1"], exact=True)
    M = [[Fraction(2), Fraction(1, 3)], [Fraction(1, 3), Fraction(1)]]
    q = [Fraction(-11, 30), Fraction(1, 10)]
    z = r.z_exact
    w = [sum(M[i][j] * z[j] for j in range(2)) + q[i] for i in range(2)]
    assert all(v >= 0 for v in z + w) and sum(a * b for a, b in zip(z, w)) == 0
    assert w == r.w_exact
    again = proxima.solve_lcp(np.array(M, dtype=object), q, exact=True)
    assert again.z_exact == z


@pytest.mark.parametrize("method", proxima.LCP_METHODS)
def test_every_method_on_a_symmetric_positive_definite_problem(method, rng):
    n = 30
    B = rng.normal(size=(n, n))
    M = B @ B.T + n * np.eye(n)  # SPD, diagonally dominant: every method converges
    q = rng.normal(size=n)
    r = proxima.solve_lcp(M, q, method=method, tol=1e-10)
    assert r.status == "converged", r
    assert r.method == method
    # Tolerance: the methods' own rule, 1e-10 x max(1, |q|), with margin for w's recomputation.
    assert lcp_truth_holds(M, q, r.z, 1e-8 * max(1.0, np.linalg.norm(q)) * n)
    assert r.residual == pytest.approx(np.abs(np.minimum(r.z, r.w)).max(), abs=0)
    ref = proxima.solve_lcp(M, q, exact=True)
    assert np.allclose(r.z, ref.z, atol=1e-6)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_scipy_sparse_matrices(fmt, rng):
    n = 200
    main = 4.0 * np.ones(n)
    off = -1.0 * np.ones(n - 1)
    M = scipy_sparse.diags([off, main, off], [-1, 0, 1], format=fmt)
    q = rng.normal(size=n)
    for method in ("pgs", "lemke", "minmap-newton"):
        r = proxima.solve_lcp(M, q, method=method, tol=1e-12)
        assert r.status == "converged", (method, r)
        assert lcp_truth_holds(M.toarray(), q, r.z, 1e-9)
    # Duplicate COO entries are summed, as scipy does.
    dup = scipy_sparse.coo_matrix(([1.0, 1.0, 2.0], ([0, 0, 1], [0, 0, 1])), shape=(2, 2))
    r = proxima.solve_lcp(dup, [-2.0, -2.0], exact=True)
    assert r.z_exact == [Fraction(1), Fraction(1)]


@pytest.mark.parametrize(
    "args, kwargs, error, message",
    [
        (([[1, 2]], [1]), {}, proxima.LcpError, "not square"),
        (([[1.0, 0], [0, 1]], [1.0]), {}, proxima.LcpError, "dimension mismatch"),
        (([[np.nan, 0], [0, 1]], [1, 1]), {}, proxima.LcpError, "non-finite"),
        (([[1, 0], [0, 1]], [1, np.inf]), {}, proxima.LcpError, "non-finite"),
        (([[1, 0], [0, 1]], [1, 1]), {"method": "simplex"}, proxima.ProximaError, 'unknown method "simplex"'),
        (([[1, 0], [0, 1]], [1, 1]), {"method": "pgs", "exact": True}, proxima.ProximaError, "exact=True needs"),
        (([[1, 0], [0, 1]], [1, 1]), {"tol": 0.0}, proxima.LcpError, "tol"),
        (([[1, 0], [0, 1]], [1, 1]), {"max_iter": 0}, proxima.LcpError, "max_iter"),
        (([[1, 0], [0, 1]], [1, 1]), {"max_iter": -5}, proxima.LcpError, "max_iter"),
        (([[1, 0], [0, 1]], ["a", "b"]), {}, proxima.ProximaError, "q: expected real numbers"),
        (([["1/2", 0], [0, "x"]], [1, 1]), {"exact": True}, proxima.ProximaError, "M[1][1]"),
        (([[1, 0], [0, 1]], [Fraction(1), None]), {"exact": True}, proxima.ProximaError, "q[1]"),
        (([[1, 0], [0, 1]], [1, "1/0"]), {"exact": True}, proxima.ProximaError, "q[1]"),
        (([[1, 0], [0]], [1, 1]), {"exact": True}, proxima.ProximaError, "rows of different lengths"),
        (([[0, 1], [1, 0]], [-1, -1]), {"method": "pgs"}, proxima.LcpError, "diagonal"),
    ],
)
def test_bad_lcp_input(args, kwargs, error, message):
    with pytest.raises(error) as e:
        proxima.solve_lcp(*args, **kwargs)
    assert isinstance(e.value, ValueError)
    assert message in str(e.value)


def test_iteration_limit_is_a_status():
    rng = np.random.default_rng(2)
    B = rng.normal(size=(50, 50))
    r = proxima.solve_lcp(B @ B.T + np.eye(50), rng.normal(size=50), method="pgs", tol=1e-14, max_iter=2)
    assert r.status == "max_iter" and r.iterations == 2


def test_lcp_results_pickle_to_equal_results():
    case = load("lcp", "example5.json")
    for r in (proxima.solve_lcp(case["M"], case["q"], exact=True), proxima.solve_lcp(case["M"], case["q"], method="baraff")):
        again = pickle.loads(pickle.dumps(r))
        assert again == r and again.z_exact == r.z_exact
        assert np.array_equal(again.z, r.z) and again.info == r.info


# --- QP ---------------------------------------------------------------------------------------


def test_reference_qp_example5_exactly():
    # minimize (x0² + 2 x1²)/2 − (x0 + x1), x ≥ 0, 2 x0 + x1 ≥ 1: x = (1, 1/2), f = −3/4.
    case = load("qp", "example5.json")
    r = proxima.solve_qp(case["A"], case["b"], case["D"], case["e"], exact=True)
    assert r.status == "solved"
    assert r.x_exact == exact(case["expected"]["x"])
    assert r.objective_exact == Fraction(case["expected"]["objective"])
    f = proxima.solve_qp(np.array(case["A"], dtype=float), case["b"], case["D"], case["e"])
    assert np.allclose(f.x, [1.0, 0.5], atol=1e-12) and f.objective == pytest.approx(-0.75, abs=1e-12)
    assert pickle.loads(pickle.dumps(r)) == r and pickle.loads(pickle.dumps(f)) == f


def test_reference_lp_example1():
    case = load("qp", "example1.json")
    n = len(case["b"])
    r = proxima.solve_qp(np.zeros((n, n)), case["b"], case["D"], case["e"], exact=True)
    assert r.status == "solved" and r.x_exact == exact(case["expected"]["x"])
    assert r.objective_exact == Fraction(case["expected"]["objective"])


def test_free_variables_and_equalities_against_the_kkt_solution(rng):
    # minimize ½|x − p|² subject to sum(x) = 1 with x free: the projection onto the
    # hyperplane, x = p − (sum(p) − 1)/n.
    n = 5
    p = rng.normal(size=n)
    r = proxima.solve_qp(np.eye(n), -p, A_eq=np.ones((1, n)), b_eq=[1.0], free=True)
    assert r.status == "solved"
    assert np.allclose(r.x, p - (p.sum() - 1) / n, atol=1e-10)
    assert r.multipliers_equalities.shape == (1,)
    # The same with bounds x ≥ 0 on all but the first variable, checked by KKT here.
    r = proxima.solve_qp(np.eye(n), -p, A_eq=np.ones((1, n)), b_eq=[1.0], free=[0])
    x, mu, lam = r.x, r.multipliers_bounds, r.multipliers_equalities
    assert abs(x.sum() - 1) < 1e-10 and (x[1:] >= -1e-12).all() and (mu >= -1e-12).all()
    assert np.allclose(x - p, lam[0] * np.ones(n) + mu, atol=1e-10)
    assert abs(mu @ x) < 1e-10


def test_infeasible_and_unbounded_are_statuses():
    # x ≥ 0 and −x ≥ 1: infeasible.
    assert proxima.solve_qp([[1.0]], [0.0], [[-1.0]], [1.0]).status == "infeasible"
    # minimize −x with x ≥ 0: unbounded.
    assert proxima.solve_qp([[0.0]], [-1.0]).status == "unbounded"


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (([[1, 0], [0, 1]], [1, 1, 1]), {}, "H: expected shape (3, 3)"),
        (([[1, 0], [0, 1]], [1, 1]), {"A": [[1, 1]]}, "A and b must be given together"),
        (([[1, 0], [0, 1]], [1, 1]), {"A": [[1, 1, 1]], "b": [1]}, "A: expected shape (1, 2)"),
        (([[1, 0], [0, 1]], [1, 1]), {"A_eq": [[1, 1]], "b_eq": [1, 2]}, "A_eq: expected shape (2, 2)"),
        (([[1, 2], [0, 1]], [1, 1]), {}, "symmetric"),
        (([[1, 0], [0, 1]], [1, np.nan]), {}, "non-finite"),
        (([[1, 0], [0, 1]], [1, 1]), {"free": [5]}, "out of range"),
        (([[1, 0], [0, 1]], [1, 1]), {"free": [0.5]}, "free: must hold variable indices"),
        (([[0, 0], [0, 1]], [1, 1]), {"free": [0]}, "positive definite"),
        (([[1, 0], [0, 1]], [1, 1]), {"constant": "x"}, "constant"),
        (([[1, 0], [0, 1]], [1, 1]), {"constant": "x", "exact": True}, "constant"),
    ],
)
def test_bad_qp_input(args, kwargs, message):
    with pytest.raises(ValueError) as e:
        proxima.solve_qp(*args, **kwargs)
    assert isinstance(e.value, proxima.ProximaError)
    assert message in str(e.value)
