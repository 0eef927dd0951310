//! A world of convex objects with poses, their AABBs and their accumulated motion.
//!
//! Every object keeps a **motion odometer**: the running sum of the motion bounds
//! ([`motion_bound`]) of all its pose changes. For two cycles c₀ < c₁ the difference of the
//! odometer readings bounds how far any point of the object can have moved between them, so a
//! pair's distance at c₁ is at least its distance at c₀ minus the two odometer differences. The
//! scheduler's safety argument rests on this (see [`crate::schedule`]).

use proxima_geom::{Pose, Shape};

use crate::bounds::{Aabb, LocalBox, local_radius, motion_bound};
use crate::error::SceneError;

/// Index of an object in a [`World`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(pub u32);

impl ObjectId {
    /// The index as `usize`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One convex object.
#[derive(Debug, Clone)]
pub struct Object {
    /// Unique name (used by pair rules, reports and errors).
    pub name: String,
    /// Group (for example `robot0` or `obstacles`), used by pair rules.
    pub group: String,
    /// For robot links: (frame index along the chain); links on the same or adjacent frames of
    /// one group count as adjacent for [`crate::pairs::PairRules::exclude_adjacent`].
    pub chain_frame: Option<usize>,
    shape: Shape,
    radius: f64,
    pose: Pose,
    aabb: Aabb,
    local_box: Option<LocalBox>,
    odometer: f64,
    motion_limit: Option<f64>,
}

impl Object {
    /// The shape in its local frame.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }
    /// Current pose.
    pub fn pose(&self) -> &Pose {
        &self.pose
    }
    /// Current world AABB (tight, or of the local bounding box for large polytopes: see
    /// [`crate::bounds`]).
    pub fn aabb(&self) -> &Aabb {
        &self.aabb
    }
    /// max |x| over the shape in its local frame.
    pub fn radius(&self) -> f64 {
        self.radius
    }
    /// Sum of the motion bounds of all pose changes so far.
    pub fn odometer(&self) -> f64 {
        self.odometer
    }
    /// An a-priori bound on how far any point of the object can move in one cycle (from joint
    /// velocity limits), when known: the scheduler's look-ahead uses it.
    pub fn motion_limit(&self) -> Option<f64> {
        self.motion_limit
    }
}

/// The objects of a scene.
#[derive(Debug, Clone, Default)]
pub struct World {
    objects: Vec<Object>,
}

impl World {
    /// An empty world.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an object. Errors: a duplicate or empty name, an unbounded shape (a line).
    pub fn add(
        &mut self,
        name: impl Into<String>,
        group: impl Into<String>,
        shape: Shape,
        pose: Pose,
    ) -> Result<ObjectId, SceneError> {
        let name = name.into();
        if name.is_empty() {
            return Err(SceneError::invalid("name", "an object name must not be empty"));
        }
        if self.objects.iter().any(|o| o.name == name) {
            return Err(SceneError::invalid(format!("objects.{name}"), "duplicate object name"));
        }
        let radius = local_radius(&shape).map_err(|e| match e {
            SceneError::Invalid { reason, .. } => {
                SceneError::invalid(format!("objects.{name}.shape"), reason)
            }
            other => other,
        })?;
        let local_box = LocalBox::of(&shape);
        let aabb = local_box.map_or_else(|| Aabb::of(&shape, &pose), |b| Aabb::of_box(&b, &pose));
        let id = ObjectId(self.objects.len() as u32);
        self.objects.push(Object {
            name,
            group: group.into(),
            chain_frame: None,
            shape,
            radius,
            pose,
            aabb,
            local_box,
            odometer: 0.0,
            motion_limit: None,
        });
        Ok(id)
    }

    /// Marks `id` as a link on frame `frame` of its group's kinematic chain.
    ///
    /// Panics if `id` does not come from this world (caller misuse).
    #[track_caller]
    pub fn set_chain_frame(&mut self, id: ObjectId, frame: usize) {
        self.objects[id.index()].chain_frame = Some(frame);
    }

    /// Sets the a-priori per-cycle motion bound of `id` (see [`Object::motion_limit`]); a
    /// negative or non-finite value is ignored.
    ///
    /// Panics if `id` does not come from this world (caller misuse).
    #[track_caller]
    pub fn set_motion_limit(&mut self, id: ObjectId, per_cycle: f64) {
        if per_cycle.is_finite() && per_cycle >= 0.0 {
            self.objects[id.index()].motion_limit = Some(per_cycle);
        }
    }

    /// Moves an object: updates its pose, AABB and odometer.
    ///
    /// Panics if `id` does not come from this world (caller misuse).
    #[track_caller]
    pub fn set_pose(&mut self, id: ObjectId, pose: Pose) {
        let o = &mut self.objects[id.index()];
        o.odometer += motion_bound(&o.pose, &pose, o.radius);
        o.pose = pose;
        o.aabb = match &o.local_box {
            Some(b) => Aabb::of_box(b, &o.pose),
            None => Aabb::of(&o.shape, &o.pose),
        };
    }

    /// The object `id`. Panics if `id` does not come from this world (caller misuse).
    #[inline]
    pub fn object(&self, id: ObjectId) -> &Object {
        &self.objects[id.index()]
    }

    /// All objects, indexed by [`ObjectId`].
    pub fn objects(&self) -> &[Object] {
        &self.objects
    }

    /// Number of objects.
    pub fn len(&self) -> usize {
        self.objects.len()
    }

    /// Whether the world has no objects.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// The object named `name`.
    pub fn find(&self, name: &str) -> Option<ObjectId> {
        self.objects.iter().position(|o| o.name == name).map(|i| ObjectId(i as u32))
    }
}
