//! Self-contained 3D pages for proxima runs: a workcell replay with its closest pair, one
//! query with its certificate, a swept motion with its time of impact, a robot with joint
//! sliders.
//!
//! # Contents
//!
//! | module | what |
//! |---|---|
//! | [`mesh`] | a shape as a drawable: exact hull meshes for polytopes, inscribed support-point hulls for curved shapes |
//! | [`model`] | the page's JSON model: [`Page`], [`View`], [`SceneBuilder`] (objects sharing meshes) |
//! | [`replay`] | [`ReplayRecorder`]: a run recorded cycle by cycle into a [`Timeline`], within a size budget |
//! | [`page`] | [`render`]: the HTML (template, style, script, data) |
//!
//! # The page
//!
//! One HTML file with everything inside: the data as JSON (large arrays as base64 typed
//! arrays), and a plain WebGL2 script (no library): flat-shaded meshes with their feature
//! edges, an orbit camera, the closest pair's witness segment coloured by distance (green far
//! from the safety margin, red at it), pairs under the margin in red, a timeline with
//! play / pause / speed, and the distance and cycle-time plots linked to it (click to jump).
//! Why no three.js: everything drawn is flat-shaded triangles, lines and points, a few hundred
//! lines of our own; three.js is distributed as ES modules only (since r160), so one offline
//! file would need a bundling step or an old build, and ~650 kB more per page.
//!
//! The element with id `summary` carries the run's summary as text (written as HTML, present
//! before any script runs) and the minimum distance in full in `data-min-distance`.
//! `window.proxima` exposes the page's state to tests (`frameState()`, `seekCycle(c)`...).
//!
//! # Should I use this?
//!
//! It is the `proxima demo` and `proxima view` pages' engine. Use it directly to turn your own
//! [`proxima_geom::Shape`]s and recorded poses into a page.
//!
//! # Example
//!
//! ```
//! use proxima_geom::shape::Cuboid;
//! use proxima_geom::{Pose, Shape};
//! use proxima_viewer::{ClosestSample, Page, ReplayRecorder, ReplaySettings, SceneBuilder, ViewKind, render};
//!
//! let cube = Shape::Cuboid(Cuboid::new([0.5; 3])?);
//! let mut scene = SceneBuilder::new();
//! scene.add("fixed", "obstacles", &cube, &Pose::identity())?;
//! scene.add("mover", "robot", &cube, &Pose::from_translation([3.0, 0.0, 0.0])?)?;
//! let mut rec = ReplayRecorder::new(2, 1, 100, ReplaySettings::default())?;
//! for c in 0..100 {
//!     let x = 3.0 - 0.015 * c as f64;
//!     let poses = [Pose::identity(), Pose::from_translation([x, 0.0, 0.0])?];
//!     let d = x - 1.0;
//!     let closest = ClosestSample { pair: 0, distance: d, witnesses: Some(([0.5, 0.0, 0.0], [x - 0.5, 0.0, 0.0])) };
//!     rec.record(&poses, Some(closest), (d < 0.1).then_some(0), None)?;
//! }
//! let mut view = scene.into_view("approach", ViewKind::Replay);
//! view.pairs = vec![[0, 1]];
//! view.margin = 0.1;
//! view.timeline = Some(rec.finish(1e-3)?);
//! let page = Page { title: "approach".into(), summary: vec!["minimum distance 0.515 m".into()], min_distance: Some(0.515), views: vec![view] };
//! let html = render(&page)?;
//! assert!(html.contains("id=\"summary\" data-min-distance=\"0.515\""));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod encode;
mod error;
pub mod mesh;
pub mod model;
pub mod page;
pub mod replay;

pub use encode::Encoded;
pub use error::ViewerError;
pub use model::{
    Annotation, Attachment, Ghost, JointData, Marker, MeshData, Minimum, ObjectData, Page, RobotData,
    SceneBuilder, Timeline, View, ViewKind, pose7, primitive_spec,
};
pub use page::render;
pub use replay::{ClosestSample, ReplayRecorder, ReplaySettings};
