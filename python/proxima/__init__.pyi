"""Type stubs of the proxima package (the extension module proxima._proxima).

tests/test_stub.py checks that every public name here exists in the module and every public
name of the module is here, class members included.
"""

import os
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

class RobotError(ProximaError):
    """A robot description, mesh or configuration the robot crate rejected."""

class SceneError(ProximaError):
    """A robot world (pairs, configuration length) the scene crate rejected."""

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
    """The answer of distance() and Tracker.distance().

    `lower` and `upper` bracket the true distance, proven from the shapes as given, up to
    floating-point round-off: the truth lies in [lower - tau, upper + tau] with
    tau = 4096 ulps x max(1, largest witness coordinate) (about 9e-13 at unit size). Bounds
    that meet within tau are reported equal (gap 0).
    """

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

class ToiResult:
    """The answer of time_of_impact(): what the search proved (``outcome``) and how it ended
    (``status``). Attributes without meaning for the outcome are None."""

    @property
    def outcome(self) -> str:
        """"initial_contact", "hit", "miss" or "undecided"."""
    @property
    def status(self) -> str:
        """"converged", "max_iterations" or "stalled"."""
    @property
    def toi(self) -> Optional[float]:
        """The start (initial contact), t_safe (hit, undecided) or None (a proven miss)."""
    @property
    def t_safe(self) -> float:
        """No contact is proven on [start, t_safe) (the end of the interval for a miss)."""
    @property
    def t_hit(self) -> Optional[float]: ...
    @property
    def point_a(self) -> Optional[FloatArray]: ...
    @property
    def point_b(self) -> Optional[FloatArray]: ...
    @property
    def normal(self) -> Optional[FloatArray]: ...
    @property
    def depth(self) -> Optional[float]: ...
    @property
    def signed_distance(self) -> Optional[float]: ...
    @property
    def lower(self) -> Optional[float]: ...
    @property
    def upper(self) -> Optional[float]: ...
    @property
    def last_time(self) -> Optional[float]: ...
    @property
    def last_lower(self) -> Optional[float]: ...
    @property
    def iterations(self) -> int: ...
    @property
    def distance_queries(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...

def time_of_impact(
    a: Shape,
    Ta0: ArrayLike,
    Ta1: ArrayLike,
    b: Shape,
    Tb0: ArrayLike,
    Tb1: ArrayLike,
    margin: float = 0.0,
    **settings: Any,
) -> ToiResult:
    """The certified first time the shapes come within margin while a moves from Ta0 (t = 0)
    to Ta1 (t = 1) and b from Tb0 to Tb1. Settings: start_time, end_time, distance_tolerance,
    time_tolerance, max_iterations, initial_depth and the query settings."""

class RigidMotion:
    """A constant twist: the body starts at `start`, its local point `centre` moves with
    world velocity `linear_velocity`, the body turns at the world angular velocity
    `angular_velocity` (rad per time unit) about it. Pickles bit for bit."""

    def __init__(
        self,
        start: ArrayLike,
        centre: Optional[ArrayLike] = None,
        linear_velocity: Optional[ArrayLike] = None,
        angular_velocity: Optional[ArrayLike] = None,
    ) -> None: ...
    @staticmethod
    def from_poses(T0: ArrayLike, T1: ArrayLike, centre: Optional[ArrayLike] = None) -> "RigidMotion":
        """From T0 (t = 0) to T1 (t = 1): `centre` on a straight line, shortest-arc rotation
        about it (the default centre, the origin, is time_of_impact's motion)."""
    def pose_at(self, t: float) -> FloatArray: ...
    @property
    def start(self) -> FloatArray: ...
    @property
    def centre(self) -> FloatArray: ...
    @property
    def linear_velocity(self) -> FloatArray: ...
    @property
    def angular_velocity(self) -> FloatArray: ...
    def __eq__(self, other: object) -> bool: ...

def time_of_impact_motions(
    a: Shape, motion_a: RigidMotion, b: Shape, motion_b: RigidMotion, margin: float = 0.0, **settings: Any
) -> ToiResult:
    """time_of_impact for RigidMotions (e.g. a body turning about a hinge), same result and
    settings."""

class ToiBatch:
    """The answers of time_of_impact_batch as read-only arrays, row i for motion i (NaN where
    a ToiResult has None)."""

    @property
    def toi(self) -> FloatArray: ...
    @property
    def t_safe(self) -> FloatArray: ...
    @property
    def t_hit(self) -> FloatArray: ...
    @property
    def depth(self) -> FloatArray: ...
    @property
    def signed_distance(self) -> FloatArray: ...
    @property
    def lower(self) -> FloatArray: ...
    @property
    def upper(self) -> FloatArray: ...
    @property
    def last_time(self) -> FloatArray: ...
    @property
    def last_lower(self) -> FloatArray: ...
    @property
    def point_a(self) -> FloatArray: ...
    @property
    def point_b(self) -> FloatArray: ...
    @property
    def normal(self) -> FloatArray: ...
    @property
    def iterations(self) -> npt.NDArray[np.uint32]: ...
    @property
    def distance_queries(self) -> npt.NDArray[np.uint32]: ...
    @property
    def outcome(self) -> npt.NDArray[np.str_]: ...
    @property
    def status(self) -> npt.NDArray[np.str_]: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...

def time_of_impact_batch(
    a: Shape,
    Ta0: ArrayLike,
    Ta1: ArrayLike,
    b: Shape,
    Tb0: ArrayLike,
    Tb1: ArrayLike,
    margin: float = 0.0,
    threads: Optional[int] = None,
    **settings: Any,
) -> ToiBatch:
    """time_of_impact over N motions ((N, 4, 4) arrays, any of them one (4, 4) broadcast), the
    GIL released, rows in input order and identical for any thread count."""

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

class RobotDistances:
    """The answer of Robot.distances at one configuration."""

    @property
    def min_distance(self) -> float: ...
    @property
    def lower(self) -> float: ...
    @property
    def upper(self) -> float: ...
    @property
    def pair(self) -> Optional[Tuple[str, str]]: ...
    @property
    def points(self) -> Optional[FloatArray]: ...
    @property
    def in_collision(self) -> bool: ...
    @property
    def distances(self) -> Optional[FloatArray]: ...
    def __eq__(self, other: object) -> bool: ...

class RobotBatch:
    """The answers of Robot.distances_batch, row i for configuration i."""

    @property
    def min_distance(self) -> FloatArray: ...
    @property
    def pair_a(self) -> npt.NDArray[np.int64]: ...
    @property
    def pair_b(self) -> npt.NDArray[np.int64]: ...
    @property
    def in_collision(self) -> npt.NDArray[np.bool_]: ...
    @property
    def lower(self) -> FloatArray: ...
    @property
    def upper(self) -> FloatArray: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...

class Robot:
    """A robot from URDF (+ SRDF): meshes as exact convex hulls, the monitored link pairs."""

    @staticmethod
    def from_urdf(
        path: Union[str, "os.PathLike[str]"],
        srdf: Optional[Union[str, "os.PathLike[str]"]] = None,
        package_dirs: Sequence[Union[str, "os.PathLike[str]"]] = (),
    ) -> "Robot": ...
    @property
    def dof(self) -> int: ...
    @property
    def joint_names(self) -> List[str]: ...
    @property
    def link_names(self) -> List[str]: ...
    @property
    def pairs(self) -> List[Tuple[str, str]]: ...
    def distances(self, q: ArrayLike, all_pairs: bool = False, clamp: bool = False) -> RobotDistances: ...
    def distances_batch(
        self, Q: ArrayLike, threads: Optional[int] = None, clamp: bool = False, margin: Optional[float] = None
    ) -> RobotBatch: ...
    def check_configurations(self, Q: ArrayLike, clamp: bool = False) -> None: ...
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
