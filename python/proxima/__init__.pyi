"""Type stubs of the proxima package (the extension module proxima._proxima).

tests/test_stub.py checks that every public name here exists in the module and every public
name of the module is here, class members included.
"""

from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

ArrayLike = npt.ArrayLike
FloatArray = npt.NDArray[np.float64]

__version__: str
ALGORITHMS: List[str]
"""Names accepted by the ``algorithm`` setting."""
LCP_METHODS: List[str]
"""Names accepted by ``solve_lcp(method=...)``."""

class ProximaError(ValueError):
    """Bad input: the message is the library's, naming the field."""

class GeomError(ProximaError):
    """A shape, pose or setting the geometry library rejected."""

class LcpError(ProximaError):
    """An LCP or QP the solvers rejected (sizes, NaN/inf, settings)."""

class UndecidedError(RuntimeError):
    """intersects() reached no verdict."""

class InternalError(RuntimeError):
    """A bug in proxima (a Rust panic caught at the boundary)."""

class Shape:
    """Base class of every shape (not constructible itself). Shapes are immutable, hashable,
    compare by the arguments they were built from and pickle as those arguments."""

    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Box(Shape):
    """The box |x| <= hx, |y| <= hy, |z| <= hz."""

    def __init__(self, half_extents: ArrayLike) -> None: ...
    @property
    def half_extents(self) -> FloatArray: ...

class Sphere(Shape):
    """A ball centred at the origin."""

    def __init__(self, radius: float) -> None: ...
    @property
    def radius(self) -> float: ...

class Capsule(Shape):
    """The segment (0, 0, -half_length)..(0, 0, half_length) swept by a ball of radius."""

    def __init__(self, radius: float, half_length: float) -> None: ...
    @property
    def radius(self) -> float: ...
    @property
    def half_length(self) -> float: ...

class Cylinder(Shape):
    """x^2 + y^2 <= radius^2, |z| <= half_height."""

    def __init__(self, radius: float, half_height: float) -> None: ...
    @property
    def radius(self) -> float: ...
    @property
    def half_height(self) -> float: ...

class Cone(Shape):
    """Apex (0, 0, half_height), base disk of radius at z = -half_height."""

    def __init__(self, radius: float, half_height: float) -> None: ...
    @property
    def radius(self) -> float: ...
    @property
    def half_height(self) -> float: ...

class Ellipsoid(Shape):
    """(x/a)^2 + (y/b)^2 + (z/c)^2 <= 1."""

    def __init__(self, radii: ArrayLike) -> None: ...
    @property
    def radii(self) -> FloatArray: ...

class Triangle(Shape):
    """A flat triangle (corners not collinear)."""

    def __init__(self, p0: ArrayLike, p1: ArrayLike, p2: ArrayLike) -> None: ...
    @property
    def vertices(self) -> FloatArray: ...

class ConvexHull(Shape):
    """The convex hull of an (n, 3) point array; optional (m, 3) surface triangulation."""

    def __init__(self, vertices: ArrayLike, faces: Optional[ArrayLike] = None) -> None: ...
    @property
    def vertices(self) -> FloatArray: ...
    @property
    def faces(self) -> Optional[npt.NDArray[np.int64]]: ...

class Polyhedron(Shape):
    """{p : normals[i] . p <= offsets[i]}, bounded and non-empty."""

    def __init__(self, normals: ArrayLike, offsets: ArrayLike) -> None: ...
    @property
    def normals(self) -> FloatArray: ...
    @property
    def offsets(self) -> FloatArray: ...

def pose(translation: Optional[ArrayLike] = None, quaternion_wxyz: Optional[ArrayLike] = None) -> FloatArray:
    """A 4x4 homogeneous pose from a translation and a (w, x, y, z) quaternion (normalized)."""

class DistanceResult:
    """The answer of distance() and Tracker.distance()."""

    @property
    def distance(self) -> float: ...
    @property
    def signed_distance(self) -> float: ...
    @property
    def point_a(self) -> Optional[FloatArray]: ...
    @property
    def point_b(self) -> Optional[FloatArray]: ...
    @property
    def normal(self) -> Optional[FloatArray]: ...
    @property
    def lower(self) -> float: ...
    @property
    def upper(self) -> float: ...
    @property
    def gap(self) -> float: ...
    @property
    def signed_lower(self) -> float: ...
    @property
    def signed_upper(self) -> float: ...
    @property
    def depth(self) -> Optional[float]: ...
    @property
    def status(self) -> str:
        """"separated", "touching" or "intersecting"."""
    @property
    def algorithm(self) -> str: ...
    @property
    def path(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...

def distance(a: Shape, Ta: ArrayLike, b: Shape, Tb: ArrayLike, **settings: Any) -> DistanceResult:
    """Distance with witness points, the proven bracket and the signed distance."""

def signed_distance(a: Shape, Ta: ArrayLike, b: Shape, Tb: ArrayLike, **settings: Any) -> float:
    """Signed distance (negative = penetration depth)."""

def intersects(a: Shape, Ta: ArrayLike, b: Shape, Tb: ArrayLike, **settings: Any) -> bool:
    """Whether the shapes share a point (touching counts); UndecidedError without a verdict."""

class DistanceBatch:
    """The answers of distance_batch as read-only arrays, row i for pose pair i."""

    @property
    def distance(self) -> FloatArray: ...
    @property
    def signed_distance(self) -> FloatArray: ...
    @property
    def lower(self) -> FloatArray: ...
    @property
    def upper(self) -> FloatArray: ...
    @property
    def signed_lower(self) -> FloatArray: ...
    @property
    def signed_upper(self) -> FloatArray: ...
    @property
    def point_a(self) -> FloatArray: ...
    @property
    def point_b(self) -> FloatArray: ...
    @property
    def normal(self) -> FloatArray: ...
    @property
    def status(self) -> npt.NDArray[np.str_]: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...

def distance_batch(
    a: Shape, Ta: ArrayLike, b: Shape, Tb: ArrayLike, threads: Optional[int] = None, **settings: Any
) -> DistanceBatch:
    """Distances at N pose pairs ((N, 4, 4) arrays, or one (4, 4) broadcast), the GIL released,
    rows in input order for any thread count."""

class Tracker:
    """One pair followed along a trajectory, each query warm-started from the previous one."""

    def __init__(self, a: Shape, b: Shape, **settings: Any) -> None: ...
    def distance(self, Ta: ArrayLike, Tb: ArrayLike) -> DistanceResult: ...
    def reset(self) -> None: ...
    @property
    def a(self) -> Shape: ...
    @property
    def b(self) -> Shape: ...
    @property
    def queries(self) -> int: ...
    @property
    def settings(self) -> Dict[str, Any]: ...
    def __eq__(self, other: object) -> bool: ...

class LcpResult:
    """The answer of solve_lcp: z, w = Mz + q, status, iterations, residuals."""

    @property
    def z(self) -> FloatArray: ...
    @property
    def w(self) -> FloatArray: ...
    @property
    def status(self) -> str:
        """"converged", "max_iter", "failed" or "no_solution"."""
    @property
    def info(self) -> Optional[str]: ...
    @property
    def iterations(self) -> Optional[int]: ...
    @property
    def residual(self) -> float: ...
    @property
    def complementarity(self) -> float: ...
    @property
    def min_z(self) -> float: ...
    @property
    def min_w(self) -> float: ...
    @property
    def method(self) -> str: ...
    @property
    def path(self) -> Optional[str]: ...
    @property
    def exact(self) -> bool: ...
    @property
    def z_exact(self) -> Optional[List[Fraction]]: ...
    @property
    def w_exact(self) -> Optional[List[Fraction]]: ...
    def __eq__(self, other: object) -> bool: ...

def solve_lcp(
    M: Any,
    q: ArrayLike,
    method: str = "lemke",
    exact: bool = False,
    tol: float = 1e-9,
    max_iter: Optional[int] = None,
) -> LcpResult:
    """Solve LCP(M, q); M dense or scipy.sparse; exact=True solves in rationals (lemke)."""

class QpResult:
    """The answer of solve_qp."""

    @property
    def x(self) -> FloatArray: ...
    @property
    def objective(self) -> float: ...
    @property
    def status(self) -> str: ...
    @property
    def multipliers_bounds(self) -> FloatArray: ...
    @property
    def multipliers_inequalities(self) -> FloatArray: ...
    @property
    def multipliers_equalities(self) -> FloatArray: ...
    @property
    def lcp_status(self) -> str: ...
    @property
    def iterations(self) -> int: ...
    @property
    def residual(self) -> float: ...
    @property
    def path(self) -> str: ...
    @property
    def exact(self) -> bool: ...
    @property
    def x_exact(self) -> Optional[List[Fraction]]: ...
    @property
    def objective_exact(self) -> Optional[Fraction]: ...
    def __eq__(self, other: object) -> bool: ...

def solve_qp(
    H: Any,
    c: Any,
    A: Optional[Any] = None,
    b: Optional[Any] = None,
    A_eq: Optional[Any] = None,
    b_eq: Optional[Any] = None,
    *,
    free: Union[None, bool, Sequence[int]] = None,
    constant: Union[None, float, Fraction, int, str] = None,
    exact: bool = False,
    max_iter: Optional[int] = None,
) -> QpResult:
    """min 1/2 x'Hx + c'x + constant s.t. A x >= b, A_eq x = b_eq, x_i >= 0 unless free."""
