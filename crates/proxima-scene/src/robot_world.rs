//! Robots from descriptions in a world of obstacles: the bodies (links with collision geometry,
//! obstacles), their convex pieces and the monitored body pairs.
//!
//! # Bodies and names
//!
//! Every link of a robot that has collision geometry is a body named `{prefix}{link}`; every
//! obstacle is a body with its given name. A body is the union of its convex pieces; the
//! distance between two bodies is the minimum over their piece pairs. Robot bodies belong to
//! the group named after their robot, obstacles to the group `obstacles`; [`Selector`]s in the
//! include / exclude rules match body names and these groups.
//!
//! # Pairs ([`RobotPairRules`])
//!
//! In this order, without duplicates:
//!
//! 1. **Self pairs** of each robot (robots in the order added): every pair of its geometry
//!    links (i, k), i < k in URDF order, except links of one rigid group (connected through
//!    fixed joints: their distance never changes), and under
//!    [`SelfCollision::AllButAdjacent`] (the default) links whose rigid groups are joined by
//!    one movable joint (parent and child bodies), and the pairs the robot's SRDF disables.
//! 2. **Robot–robot** pairs: every link of robot i with every link of robot k > i.
//! 3. **Robot–obstacle** pairs: every robot link with every obstacle.
//! 4. Pairs matched by an `include` rule (by body index), then every pair matched by an
//!    `exclude` rule is removed.
//!
//! This is the robot benchmark's `all_but_adjacent` rule and order. An explicit pair list
//! ([`RobotWorldBuilder::pair_list`]) replaces all of it.

use std::sync::Arc;

use proxima_geom::gjk::SupportCells;
use proxima_geom::{Pose, Shape};
use proxima_robot::{HullSupport, Robot, Srdf};

use crate::error::SceneError;
use crate::pairs::Selector;

/// How the self pairs of a robot are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SelfCollision {
    /// Every pair of links except same rigid group, parent–child bodies and SRDF-disabled
    /// pairs (the default).
    #[default]
    AllButAdjacent,
    /// Every pair of links except same rigid group and SRDF-disabled pairs.
    AllButRigid,
    /// No self pairs.
    None,
}

/// Which body pairs a [`RobotWorld`] monitors (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RobotPairRules {
    /// Self pairs of each robot. Default [`SelfCollision::AllButAdjacent`].
    pub self_collision: SelfCollision,
    /// Pairs between links of different robots. Default true.
    pub robot_robot: bool,
    /// Pairs between robot links and obstacles. Default true.
    pub robot_obstacle: bool,
    /// Extra pairs (selectors over body names and groups).
    pub include: Vec<(Selector, Selector)>,
    /// Pairs removed last.
    pub exclude: Vec<(Selector, Selector)>,
}

impl Default for RobotPairRules {
    fn default() -> Self {
        Self {
            self_collision: SelfCollision::AllButAdjacent,
            robot_robot: true,
            robot_obstacle: true,
            include: Vec::new(),
            exclude: Vec::new(),
        }
    }
}

/// A robot placed in the world.
#[derive(Debug, Clone)]
pub struct PlacedRobot {
    /// The model (shared, immutable).
    pub robot: Arc<Robot>,
    /// Pose of its root link in the world.
    pub base: Pose,
    /// Prepended to its link and joint names.
    pub prefix: String,
    /// Its group name (for selectors and reports).
    pub name: String,
    /// Its SRDF, if any (disabled pairs).
    pub srdf: Option<Srdf>,
    /// Index of its first value in the world's configuration vector.
    pub coordinate_offset: usize,
}

/// A static obstacle: convex pieces placed in the world.
#[derive(Debug, Clone)]
pub struct Obstacle {
    /// Name (unique among bodies).
    pub name: String,
    /// Pieces: shape and world pose.
    pub pieces: Vec<(Shape, Pose)>,
}

/// What a body is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// Link `link` of robot `robot`.
    Link {
        /// Robot index.
        robot: usize,
        /// Link index in the robot.
        link: usize,
    },
    /// Obstacle index.
    Obstacle(usize),
}

/// A body: a robot link with geometry, or an obstacle.
#[derive(Debug, Clone)]
pub struct Body {
    /// Name (`{prefix}{link}` or the obstacle's name).
    pub name: String,
    /// Group: the robot's name, or `obstacles`.
    pub group: String,
    /// What it is.
    pub kind: BodyKind,
    /// Its pieces: indices into [`RobotWorld::pieces`].
    pub pieces: std::ops::Range<usize>,
}

/// One convex piece of a body.
#[derive(Debug, Clone)]
pub struct Piece {
    /// The body it belongs to.
    pub body: usize,
    /// The shape in its own frame.
    pub shape: Shape,
    /// Pose in the link frame (robot pieces) or in the world (obstacle pieces).
    pub local: Pose,
    /// Bounding ball in the shape's frame: centre and radius.
    pub sphere: ([f64; 3], f64),
    /// Hill-climbing support function of a hull piece (the GJK fast path of hull pairs).
    pub support: Option<Arc<HullSupport>>,
    /// Support candidate lists of a hull piece's vertices (the cold scanned GJK fast path
    /// of hull pairs; see `robot_query.rs`).
    pub cells: Option<Arc<SupportCells>>,
}

/// A monitored pair of bodies (a < b by body index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BodyPair {
    /// First body.
    pub a: usize,
    /// Second body.
    pub b: usize,
}

/// Robots and obstacles with their monitored pairs. Immutable and `Sync`: share it between
/// threads; per-thread state lives in a [`crate::robot_query::RobotWorkspace`].
#[derive(Debug, Clone)]
pub struct RobotWorld {
    pub(crate) robots: Vec<PlacedRobot>,
    pub(crate) obstacles: Vec<Obstacle>,
    pub(crate) bodies: Vec<Body>,
    pub(crate) pieces: Vec<Piece>,
    pub(crate) pairs: Vec<BodyPair>,
    /// Piece pairs of each body pair: (pair index, piece a, piece b), grouped by pair.
    pub(crate) piece_pairs: Vec<(u32, u32, u32)>,
    pub(crate) dof: usize,
}

/// Builds a [`RobotWorld`].
#[derive(Debug, Clone, Default)]
pub struct RobotWorldBuilder {
    robots: Vec<PlacedRobot>,
    obstacles: Vec<Obstacle>,
    rules: RobotPairRules,
    pair_list: Option<Vec<(String, String)>>,
}

impl RobotWorldBuilder {
    /// An empty builder with the default rules.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a robot with its root at `base`; its names get `prefix`, its group is `name`.
    pub fn robot(
        mut self,
        robot: Arc<Robot>,
        base: Pose,
        prefix: &str,
        name: &str,
        srdf: Option<Srdf>,
    ) -> Self {
        self.robots.push(PlacedRobot {
            robot,
            base,
            prefix: prefix.to_string(),
            name: name.to_string(),
            srdf,
            coordinate_offset: 0,
        });
        self
    }

    /// Adds a static obstacle made of `pieces` (shape, world pose).
    pub fn obstacle(mut self, name: &str, pieces: Vec<(Shape, Pose)>) -> Self {
        self.obstacles.push(Obstacle { name: name.to_string(), pieces });
        self
    }

    /// Sets the pair rules.
    pub fn rules(mut self, rules: RobotPairRules) -> Self {
        self.rules = rules;
        self
    }

    /// Uses exactly these body pairs (by name), in this order, instead of the rules.
    pub fn pair_list(mut self, pairs: Vec<(String, String)>) -> Self {
        self.pair_list = Some(pairs);
        self
    }

    /// Builds the world. Errors: no robot and no obstacle, duplicate body names, an SRDF naming
    /// an unknown link, an obstacle without pieces, a pair naming an unknown body or a body
    /// twice, selectors that match nothing.
    pub fn build(self) -> Result<RobotWorld, SceneError> {
        let RobotWorldBuilder { mut robots, obstacles, rules, pair_list } = self;
        let mut bodies = Vec::new();
        let mut pieces = Vec::new();
        let mut dof = 0;
        for (r, placed) in robots.iter_mut().enumerate() {
            placed.coordinate_offset = dof;
            dof += placed.robot.dof();
            if placed.name.is_empty() {
                placed.name = format!("robot{r}");
            }
            if let Some(srdf) = &placed.srdf {
                srdf.check_links(|l| placed.robot.link_index(l).is_some())
                    .map_err(|e| SceneError::robot(&format!("robots[{r}].srdf"), e))?;
            }
            let robot = &placed.robot;
            for link in robot.links_with_geometry() {
                let body = bodies.len();
                let start = pieces.len();
                for g in &robot.geometries()[robot.links()[link].geometry.clone()] {
                    pieces.push(Piece {
                        body,
                        shape: g.shape.clone(),
                        local: g.origin,
                        sphere: g.bounding_sphere,
                        support: g.support.clone(),
                        cells: support_cells(&g.shape),
                    });
                }
                bodies.push(Body {
                    name: format!("{}{}", placed.prefix, robot.links()[link].name),
                    group: placed.name.clone(),
                    kind: BodyKind::Link { robot: r, link },
                    pieces: start..pieces.len(),
                });
            }
        }
        for (o, obstacle) in obstacles.iter().enumerate() {
            if obstacle.pieces.is_empty() {
                return Err(SceneError::invalid(format!("obstacles.{}", obstacle.name), "has no pieces"));
            }
            let body = bodies.len();
            let start = pieces.len();
            for (shape, pose) in &obstacle.pieces {
                let sphere = proxima_robot::model::bounding_sphere(shape);
                if !sphere.1.is_finite() {
                    return Err(SceneError::invalid(
                        format!("obstacles.{}", obstacle.name),
                        "a piece is unbounded",
                    ));
                }
                let support = match shape {
                    Shape::ConvexPolytope(p) => HullSupport::new(p).map(Arc::new),
                    _ => None,
                };
                let cells = support_cells(shape);
                pieces.push(Piece { body, shape: shape.clone(), local: *pose, sphere, support, cells });
            }
            bodies.push(Body {
                name: obstacle.name.clone(),
                group: "obstacles".to_string(),
                kind: BodyKind::Obstacle(o),
                pieces: start..pieces.len(),
            });
        }
        if bodies.len() < 2 {
            return Err(SceneError::invalid("robots", "a robot world needs at least two bodies"));
        }
        for (i, b) in bodies.iter().enumerate() {
            if b.name.is_empty() {
                return Err(SceneError::invalid(format!("bodies[{i}]"), "empty name"));
            }
            if bodies[..i].iter().any(|o| o.name == b.name) {
                return Err(SceneError::invalid(format!("bodies.{}", b.name), "duplicate body name"));
            }
        }
        let mut world =
            RobotWorld { robots, obstacles, bodies, pieces, pairs: Vec::new(), piece_pairs: Vec::new(), dof };
        world.pairs = match pair_list {
            Some(list) => world.explicit_pairs(&list)?,
            None => world.rule_pairs(&rules)?,
        };
        for (k, p) in world.pairs.iter().enumerate() {
            for i in world.bodies[p.a].pieces.clone() {
                for j in world.bodies[p.b].pieces.clone() {
                    world.piece_pairs.push((k as u32, i as u32, j as u32));
                }
            }
        }
        Ok(world)
    }
}

/// The self pairs of `robot` under `mode` and its SRDF, as link indices (a < b in URDF order,
/// links with collision geometry only): see the module docs.
pub fn self_link_pairs(robot: &Robot, srdf: Option<&Srdf>, mode: SelfCollision) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if mode == SelfCollision::None {
        return out;
    }
    let links = robot.links_with_geometry();
    for (x, &la) in links.iter().enumerate() {
        for &lb in &links[x + 1..] {
            if robot.same_rigid_group(la, lb)
                || (mode == SelfCollision::AllButAdjacent && robot.adjacent(la, lb))
            {
                continue;
            }
            if srdf.is_some_and(|s| s.is_disabled(&robot.links()[la].name, &robot.links()[lb].name)) {
                continue;
            }
            out.push((la, lb));
        }
    }
    out
}

impl RobotWorld {
    /// The robots, in the order added.
    pub fn robots(&self) -> &[PlacedRobot] {
        &self.robots
    }

    /// The obstacles.
    pub fn obstacles(&self) -> &[Obstacle] {
        &self.obstacles
    }

    /// The bodies: robot links with geometry (robot by robot, URDF order), then obstacles.
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// Every convex piece.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The monitored body pairs.
    pub fn pairs(&self) -> &[BodyPair] {
        &self.pairs
    }

    /// Number of piece pairs queried for all pairs.
    pub fn piece_pair_count(&self) -> usize {
        self.piece_pairs.len()
    }

    /// Length of the configuration vector: the robots' coordinates, robot by robot.
    pub fn dof(&self) -> usize {
        self.dof
    }

    /// Names of the configuration coordinates (`{prefix}{joint}`).
    pub fn joint_names(&self) -> Vec<String> {
        self.robots
            .iter()
            .flat_map(|r| r.robot.joint_names().into_iter().map(move |n| format!("{}{n}", r.prefix)))
            .collect()
    }

    /// The body named `name`.
    pub fn body_index(&self, name: &str) -> Option<usize> {
        self.bodies.iter().position(|b| b.name == name)
    }

    /// Names of the two bodies of pair `k`.
    pub fn pair_names(&self, k: usize) -> (&str, &str) {
        let p = self.pairs[k];
        (&self.bodies[p.a].name, &self.bodies[p.b].name)
    }

    fn matches(&self, s: &Selector, body: usize) -> bool {
        let b = &self.bodies[body];
        match s {
            Selector::All => true,
            Selector::Object(n) => &b.name == n,
            Selector::Group(g) => &b.group == g,
        }
    }

    fn explicit_pairs(&self, list: &[(String, String)]) -> Result<Vec<BodyPair>, SceneError> {
        let mut out = Vec::with_capacity(list.len());
        for (k, (a, b)) in list.iter().enumerate() {
            let find = |n: &str, side: usize| {
                self.body_index(n).ok_or_else(|| {
                    SceneError::invalid(
                        format!("pair_list[{k}][{side}]"),
                        format!("{n:?} is not a body with collision geometry"),
                    )
                })
            };
            let (ia, ib) = (find(a, 0)?, find(b, 1)?);
            if ia == ib {
                return Err(SceneError::invalid(format!("pair_list[{k}]"), "a body cannot pair with itself"));
            }
            let pair = BodyPair { a: ia.min(ib), b: ia.max(ib) };
            if out.contains(&pair) {
                return Err(SceneError::invalid(format!("pair_list[{k}]"), "duplicate pair"));
            }
            out.push(pair);
        }
        Ok(out)
    }

    fn rule_pairs(&self, rules: &RobotPairRules) -> Result<Vec<BodyPair>, SceneError> {
        for (field, list) in [("include", &rules.include), ("exclude", &rules.exclude)] {
            for (i, (a, b)) in list.iter().enumerate() {
                for (side, s) in [(0, a), (1, b)] {
                    if !(0..self.bodies.len()).any(|k| self.matches(s, k)) {
                        return Err(SceneError::invalid(
                            format!("pairs.{field}[{i}][{side}]"),
                            format!("{s:?} matches no body"),
                        ));
                    }
                }
            }
        }
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut push = |a: usize, b: usize, out: &mut Vec<BodyPair>| {
            let p = BodyPair { a: a.min(b), b: a.max(b) };
            if seen.insert(p) {
                out.push(p);
            }
        };
        let robot_bodies = |r: usize| -> Vec<usize> {
            (0..self.bodies.len())
                .filter(|&b| matches!(self.bodies[b].kind, BodyKind::Link { robot, .. } if robot == r))
                .collect()
        };
        let link_of = |b: usize| match self.bodies[b].kind {
            BodyKind::Link { link, .. } => link,
            BodyKind::Obstacle(_) => unreachable!("robot bodies are links"),
        };
        for (r, placed) in self.robots.iter().enumerate() {
            let bodies = robot_bodies(r);
            let body_of = |link: usize| bodies.iter().copied().find(|&b| link_of(b) == link);
            for (la, lb) in self_link_pairs(&placed.robot, placed.srdf.as_ref(), rules.self_collision) {
                if let (Some(a), Some(b)) = (body_of(la), body_of(lb)) {
                    push(a, b, &mut out);
                }
            }
        }
        if rules.robot_robot {
            for r in 0..self.robots.len() {
                for r2 in r + 1..self.robots.len() {
                    for &a in &robot_bodies(r) {
                        for &b in &robot_bodies(r2) {
                            push(a, b, &mut out);
                        }
                    }
                }
            }
        }
        if rules.robot_obstacle {
            for r in 0..self.robots.len() {
                for &a in &robot_bodies(r) {
                    for b in 0..self.bodies.len() {
                        if matches!(self.bodies[b].kind, BodyKind::Obstacle(_)) {
                            push(a, b, &mut out);
                        }
                    }
                }
            }
        }
        let n = self.bodies.len();
        for (sa, sb) in &rules.include {
            for a in 0..n {
                for b in a + 1..n {
                    if (self.matches(sa, a) && self.matches(sb, b))
                        || (self.matches(sa, b) && self.matches(sb, a))
                    {
                        push(a, b, &mut out);
                    }
                }
            }
        }
        out.retain(|p| {
            !rules.exclude.iter().any(|(sa, sb)| {
                (self.matches(sa, p.a) && self.matches(sb, p.b))
                    || (self.matches(sa, p.b) && self.matches(sb, p.a))
            })
        });
        Ok(out)
    }
}

/// The support candidate lists of a convex polytope piece (none for other shapes): the
/// polytope's own when it was built with them (hulls of 128–383 vertices), else built here.
fn support_cells(shape: &Shape) -> Option<Arc<SupportCells>> {
    match shape {
        Shape::ConvexPolytope(p) => p.shared_support_cells().or_else(|| SupportCells::new(p).map(Arc::new)),
        _ => None,
    }
}
