//! Shape descriptions: a shape as plain data (the vocabulary of the benchmark workload files,
//! scene files, URDF collision elements and the Python API), turned into a validated [`Shape`]
//! once, with errors that name the field.
//!
//! | `type` | fields | shape |
//! |---|---|---|
//! | `box` | `half_extents: [x, y, z]` | [`Cuboid`], \|pᵢ\| ≤ hᵢ |
//! | `sphere` | `radius` | [`Sphere`] |
//! | `capsule` | `radius`, `half_height` | [`Capsule`]: the segment (0, 0, ±hh) swept by the ball |
//! | `cylinder` | `radius`, `half_height` | [`Cylinder`]: x² + y² ≤ r², \|z\| ≤ hh |
//! | `cone` | `radius`, `half_height` | [`Cone`]: apex (0, 0, +hh), base disk at z = −hh |
//! | `ellipsoid` | `radii: [a, b, c]` | [`Ellipsoid`] |
//! | `triangle` | `vertices`: 3 points | [`Triangle`] |
//! | `convex` | `vertices: [[x, y, z], ...]`, optional `faces: [[i, j, k], ...]` | [`ConvexPolytope`], the hull of the vertices; `faces` (0-based, counter-clockwise seen from outside) give the hull adjacency for hill-climbing supports and are checked to triangulate the hull |
//!
//! These are the shapes of `../shared/bench/geometry/FORMAT.md` plus the cone of
//! `../shared/bench/ccd/FORMAT.md`. Checks happen in two steps, each naming the field in a
//! [`GeomError::InvalidField`]: reading (a missing field, a string where a number belongs,
//! `half_extents` with 2 numbers, a fractional face index, an unknown `type`) and
//! [`ShapeSpec::to_shape`] (what the shape constructors reject: a radius ≤ 0, NaN, collinear
//! triangle vertices, faces that do not triangulate the hull). A caller prefixes its own
//! path, so a workload reports `shapes[3].half_extents: expected 3 numbers, got 2`.
//!
//! With the `serde` feature, [`ShapeSpec`] implements `Deserialize` (an object with a `type`
//! key; unknown keys such as `id` are ignored) and `Serialize` (the same form).
//! [`ShapeSpec::deserialize_fields`] keeps the field-naming error as a value.

#[cfg(feature = "serde")]
use serde::{Deserialize, Deserializer};

use super::{Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Shape, Sphere, Triangle, positive};
use crate::error::GeomError;

/// A shape as data; [`ShapeSpec::to_shape`] validates it into a [`Shape`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(tag = "type", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum ShapeSpec {
    /// `box`: an oriented box centred at the origin.
    Box {
        /// Half extents along x, y, z (all > 0).
        half_extents: [f64; 3],
    },
    /// `sphere`: a ball centred at the origin.
    Sphere {
        /// Radius (> 0).
        radius: f64,
    },
    /// `capsule`: the segment from (0, 0, −half_height) to (0, 0, half_height) swept by a ball.
    Capsule {
        /// Radius of the ball (> 0).
        radius: f64,
        /// Half length of the core segment (> 0).
        half_height: f64,
    },
    /// `cylinder`: axis z, centred at the origin.
    Cylinder {
        /// Radius (> 0).
        radius: f64,
        /// Half height (> 0).
        half_height: f64,
    },
    /// `cone`: apex (0, 0, half_height), base disk of `radius` at z = −half_height.
    Cone {
        /// Base radius (> 0).
        radius: f64,
        /// Half height (> 0).
        half_height: f64,
    },
    /// `ellipsoid`: (x/a)² + (y/b)² + (z/c)² ≤ 1.
    Ellipsoid {
        /// Radii (a, b, c), all > 0.
        radii: [f64; 3],
    },
    /// `triangle`: a flat triangle.
    Triangle {
        /// The three corners (not collinear).
        vertices: [[f64; 3]; 3],
    },
    /// `convex`: the convex hull of points.
    Convex {
        /// The points (non-empty, finite; interior points allowed without `faces`).
        vertices: Vec<[f64; 3]>,
        /// A triangulation of the hull surface (0-based, counter-clockwise seen from outside).
        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
        faces: Option<Vec<[usize; 3]>>,
    },
}

/// `Err(InvalidField)` at `field` for a constructor's rejection.
fn at<T>(field: &str, r: Result<T, GeomError>) -> Result<T, GeomError> {
    r.map_err(|e| GeomError::InvalidField { field: field.to_string(), reason: e.to_string() })
}

impl ShapeSpec {
    /// Every `type` name, in the order of the table above.
    pub const TYPES: &'static [&'static str] =
        &["box", "sphere", "capsule", "cylinder", "cone", "ellipsoid", "triangle", "convex"];

    /// The `type` name (`"box"`, `"convex"`...).
    pub fn type_name(&self) -> &'static str {
        match self {
            ShapeSpec::Box { .. } => "box",
            ShapeSpec::Sphere { .. } => "sphere",
            ShapeSpec::Capsule { .. } => "capsule",
            ShapeSpec::Cylinder { .. } => "cylinder",
            ShapeSpec::Cone { .. } => "cone",
            ShapeSpec::Ellipsoid { .. } => "ellipsoid",
            ShapeSpec::Triangle { .. } => "triangle",
            ShapeSpec::Convex { .. } => "convex",
        }
    }

    /// The validated shape.
    ///
    /// # Errors
    ///
    /// [`GeomError::InvalidField`] naming the field the shape's constructor rejected, with
    /// the constructor's reason (`radius: capsule radius must be > 0, got -1`).
    pub fn to_shape(&self) -> Result<Shape, GeomError> {
        // Two-parameter shapes: each parameter is checked on its own (with the constructor's
        // own rule) so the error names the field.
        let pair = |radius: f64, half_height: f64, r_what, h_what| -> Result<(), GeomError> {
            at("radius", positive(radius, r_what))?;
            at("half_height", positive(half_height, h_what)).map(|_| ())
        };
        Ok(match self {
            ShapeSpec::Box { half_extents } => Shape::Cuboid(at("half_extents", Cuboid::new(*half_extents))?),
            ShapeSpec::Sphere { radius } => Shape::Sphere(at("radius", Sphere::new(*radius))?),
            ShapeSpec::Capsule { radius, half_height } => {
                pair(*radius, *half_height, "capsule radius", "capsule half height")?;
                Shape::Capsule(at("", Capsule::new(*radius, *half_height))?)
            }
            ShapeSpec::Cylinder { radius, half_height } => {
                pair(*radius, *half_height, "cylinder radius", "cylinder half height")?;
                Shape::Cylinder(at("", Cylinder::new(*radius, *half_height))?)
            }
            ShapeSpec::Cone { radius, half_height } => {
                pair(*radius, *half_height, "cone radius", "cone half height")?;
                Shape::Cone(at("", Cone::new(*radius, *half_height))?)
            }
            ShapeSpec::Ellipsoid { radii } => Shape::Ellipsoid(at("radii", Ellipsoid::new(*radii))?),
            ShapeSpec::Triangle { vertices: [a, b, c] } => {
                Shape::Triangle(at("vertices", Triangle::new(*a, *b, *c))?)
            }
            ShapeSpec::Convex { vertices, faces } => {
                let polytope = at("vertices", ConvexPolytope::new(vertices.clone()))?;
                Shape::ConvexPolytope(match faces {
                    Some(faces) => at("faces", polytope.attach_faces(faces))?,
                    None => polytope,
                })
            }
        })
    }

    /// Reads a description from any serde format, keeping the two kinds of failure apart: the
    /// outer error is the format's (the input is not an object, or a key appears twice), the
    /// inner one a [`GeomError::InvalidField`] naming the field (`half_extents: expected 3
    /// numbers, got 2`). Callers that keep errors as data (scene files) use this; the
    /// `Deserialize` impl turns the inner error into the format's.
    #[cfg(feature = "serde")]
    pub fn deserialize_fields<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<ShapeSpec, GeomError>, D::Error> {
        Ok(read::Fields::deserialize(deserializer)?.check())
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for ShapeSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        ShapeSpec::deserialize_fields(deserializer)?.map_err(serde::de::Error::custom)
    }
}

/// Reading: every field is taken as whatever value it holds, then checked here, so that an
/// error names the field instead of a position in the input.
#[cfg(feature = "serde")]
mod read {
    use serde::Deserialize;
    use serde::de::IgnoredAny;

    use super::ShapeSpec;
    use crate::error::GeomError;

    /// A value as read, before the vocabulary checks it.
    #[derive(Deserialize)]
    #[serde(untagged)]
    pub(super) enum Value {
        Number(f64),
        Text(String),
        List(Vec<Value>),
        Other(IgnoredAny),
    }

    /// The keys of every shape type; others are ignored.
    #[derive(Deserialize)]
    pub(super) struct Fields {
        #[serde(rename = "type")]
        kind: Option<Value>,
        half_extents: Option<Value>,
        radius: Option<Value>,
        half_height: Option<Value>,
        radii: Option<Value>,
        vertices: Option<Value>,
        faces: Option<Value>,
    }

    fn invalid(field: &str, reason: impl Into<String>) -> GeomError {
        GeomError::InvalidField { field: field.to_string(), reason: reason.into() }
    }

    fn present<'a>(v: &'a Option<Value>, field: &str) -> Result<&'a Value, GeomError> {
        v.as_ref().ok_or_else(|| invalid(field, "missing"))
    }

    fn number(v: &Value, field: &str) -> Result<f64, GeomError> {
        match v {
            Value::Number(x) => Ok(*x),
            _ => Err(invalid(field, "must be a number")),
        }
    }

    fn list<'a>(v: &'a Value, field: &str) -> Result<&'a [Value], GeomError> {
        match v {
            Value::List(items) => Ok(items),
            _ => Err(invalid(field, "must be a list")),
        }
    }

    fn vec3(v: &Value, field: &str) -> Result<[f64; 3], GeomError> {
        let items = list(v, field)?;
        if items.len() != 3 {
            return Err(invalid(field, format!("expected 3 numbers, got {}", items.len())));
        }
        let mut out = [0.0; 3];
        for (i, item) in items.iter().enumerate() {
            out[i] = number(item, &format!("{field}[{i}]"))?;
        }
        Ok(out)
    }

    fn points(v: &Value, field: &str) -> Result<Vec<[f64; 3]>, GeomError> {
        list(v, field)?.iter().enumerate().map(|(i, p)| vec3(p, &format!("{field}[{i}]"))).collect()
    }

    /// A vertex index: a non-negative integer (exactly representable, below 2⁵³).
    fn index(v: &Value, field: &str) -> Result<usize, GeomError> {
        let x = number(v, field)?;
        if x >= 0.0 && x.fract() == 0.0 && x < 9_007_199_254_740_992.0 {
            Ok(x as usize)
        } else {
            Err(invalid(field, format!("must be a vertex index (an integer >= 0), got {x}")))
        }
    }

    fn faces(v: &Value, field: &str) -> Result<Vec<[usize; 3]>, GeomError> {
        let mut out = Vec::new();
        for (i, face) in list(v, field)?.iter().enumerate() {
            let at = format!("{field}[{i}]");
            let items = list(face, &at)?;
            if items.len() != 3 {
                return Err(invalid(&at, format!("expected 3 vertex indices, got {}", items.len())));
            }
            let mut f = [0; 3];
            for (k, item) in items.iter().enumerate() {
                f[k] = index(item, &format!("{at}[{k}]"))?;
            }
            out.push(f);
        }
        Ok(out)
    }

    impl Fields {
        /// The description the fields give for their `type`.
        pub(super) fn check(&self) -> Result<ShapeSpec, GeomError> {
            let kind = match present(&self.kind, "type")? {
                Value::Text(t) => t.as_str(),
                _ => return Err(invalid("type", "must be a string")),
            };
            let radius = || number(present(&self.radius, "radius")?, "radius");
            let half_height = || number(present(&self.half_height, "half_height")?, "half_height");
            Ok(match kind {
                "box" => ShapeSpec::Box {
                    half_extents: vec3(present(&self.half_extents, "half_extents")?, "half_extents")?,
                },
                "sphere" => ShapeSpec::Sphere { radius: radius()? },
                "capsule" => ShapeSpec::Capsule { radius: radius()?, half_height: half_height()? },
                "cylinder" => ShapeSpec::Cylinder { radius: radius()?, half_height: half_height()? },
                "cone" => ShapeSpec::Cone { radius: radius()?, half_height: half_height()? },
                "ellipsoid" => ShapeSpec::Ellipsoid { radii: vec3(present(&self.radii, "radii")?, "radii")? },
                "triangle" => {
                    let v = points(present(&self.vertices, "vertices")?, "vertices")?;
                    let vertices: [[f64; 3]; 3] = v.try_into().map_err(|v: Vec<[f64; 3]>| {
                        invalid("vertices", format!("a triangle needs 3 vertices, got {}", v.len()))
                    })?;
                    ShapeSpec::Triangle { vertices }
                }
                "convex" => ShapeSpec::Convex {
                    vertices: points(present(&self.vertices, "vertices")?, "vertices")?,
                    faces: self.faces.as_ref().map(|f| faces(f, "faces")).transpose()?,
                },
                other => {
                    return Err(invalid(
                        "type",
                        format!("unknown type {other:?}; expected one of {}", ShapeSpec::TYPES.join(", ")),
                    ));
                }
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_of(e: GeomError) -> String {
        match e {
            GeomError::InvalidField { field, .. } => field,
            other => panic!("not a field error: {other:?}"),
        }
    }

    #[test]
    fn every_type_builds_its_shape() {
        let specs = [
            ShapeSpec::Box { half_extents: [1.0, 2.0, 3.0] },
            ShapeSpec::Sphere { radius: 1.0 },
            ShapeSpec::Capsule { radius: 1.0, half_height: 2.0 },
            ShapeSpec::Cylinder { radius: 1.0, half_height: 2.0 },
            ShapeSpec::Cone { radius: 1.0, half_height: 2.0 },
            ShapeSpec::Ellipsoid { radii: [1.0, 2.0, 3.0] },
            ShapeSpec::Triangle { vertices: [[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] },
            ShapeSpec::Convex {
                vertices: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                faces: Some(vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]),
            },
        ];
        let kinds: Vec<&str> = specs.iter().map(|s| s.to_shape().unwrap().kind().as_str()).collect();
        assert_eq!(
            kinds,
            ["cuboid", "sphere", "capsule", "cylinder", "cone", "ellipsoid", "triangle", "convex_polytope"]
        );
        let names: Vec<&str> = specs.iter().map(ShapeSpec::type_name).collect();
        assert_eq!(names, ShapeSpec::TYPES);
        match specs[7].to_shape().unwrap() {
            Shape::ConvexPolytope(p) => assert!(p.adjacency().is_some()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn rejected_shapes_name_the_field() {
        let cases = [
            (ShapeSpec::Box { half_extents: [1.0, -2.0, 3.0] }, "half_extents"),
            (ShapeSpec::Sphere { radius: f64::NAN }, "radius"),
            (ShapeSpec::Capsule { radius: 1.0, half_height: 0.0 }, "half_height"),
            (ShapeSpec::Cylinder { radius: -1.0, half_height: 1.0 }, "radius"),
            (ShapeSpec::Cone { radius: 1.0, half_height: f64::INFINITY }, "half_height"),
            (ShapeSpec::Ellipsoid { radii: [1.0, 0.0, 1.0] }, "radii"),
            (ShapeSpec::Triangle { vertices: [[0.0; 3], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]] }, "vertices"),
            (ShapeSpec::Convex { vertices: vec![], faces: None }, "vertices"),
            (
                // A face index past the last vertex.
                ShapeSpec::Convex {
                    vertices: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                    faces: Some(vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 7]]),
                },
                "faces",
            ),
            (
                // Faces that do not close the surface.
                ShapeSpec::Convex {
                    vertices: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                    faces: Some(vec![[0, 2, 1], [0, 1, 3]]),
                },
                "faces",
            ),
        ];
        for (spec, field) in cases {
            let e = spec.to_shape().unwrap_err();
            assert!(e.to_string().starts_with(&format!("{field}: ")), "{spec:?}: {e}");
            assert_eq!(field_of(e), field, "{spec:?}");
        }
    }

    /// Reading (`--features serde`; the workspace test run has it through proxima-scene).
    #[cfg(feature = "serde")]
    mod serde_reading {
        use super::*;

        fn read(json: &str) -> Result<ShapeSpec, GeomError> {
            let value: serde_json::Value = serde_json::from_str(json).unwrap();
            ShapeSpec::deserialize_fields(&value).expect("an object")
        }

        #[test]
        fn reads_every_type_of_both_formats_and_ignores_unknown_keys() {
            let cases = [
                (r#"{"id":"b","type":"box","half_extents":[1,2,3],"extra":{"x":[1]}}"#, "box"),
                (r#"{"type":"sphere","radius":1}"#, "sphere"),
                (r#"{"type":"capsule","radius":1,"half_height":2}"#, "capsule"),
                (r#"{"type":"cylinder","radius":1,"half_height":2.5}"#, "cylinder"),
                (r#"{"type":"cone","radius":0.5,"half_height":1}"#, "cone"),
                (r#"{"type":"ellipsoid","radii":[1,2,3]}"#, "ellipsoid"),
                (r#"{"type":"triangle","vertices":[[0,0,0],[1,0,0],[0,1,0]]}"#, "triangle"),
                (r#"{"type":"convex","vertices":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]]}"#, "convex"),
                (
                    r#"{"type":"convex","vertices":[[0,0,0],[1,0,0],[0,1,0],[0,0,1]],
                        "faces":[[0,2,1],[0,1,3],[0,3,2],[1,2,3]]}"#,
                    "convex",
                ),
            ];
            for (json, kind) in cases {
                let spec = read(json).unwrap();
                assert_eq!(spec.type_name(), kind);
                spec.to_shape().unwrap();
                // Serialize writes the same form back.
                let again: ShapeSpec = serde_json::from_value(serde_json::to_value(&spec).unwrap()).unwrap();
                assert_eq!(again, spec);
            }
            assert_eq!(
                read(r#"{"type":"cone","radius":0.5,"half_height":1}"#).unwrap(),
                ShapeSpec::Cone { radius: 0.5, half_height: 1.0 }
            );
        }

        #[test]
        fn malformed_fields_are_named() {
            let cases = [
                (r#"{"type":"box","half_extents":[1,2]}"#, "half_extents: expected 3 numbers, got 2"),
                (r#"{"type":"box","half_extents":[1,"2",3]}"#, "half_extents[1]: must be a number"),
                (r#"{"type":"box"}"#, "half_extents: missing"),
                (r#"{"type":"sphere","radius":"1"}"#, "radius: must be a number"),
                (r#"{"type":"capsule","radius":1}"#, "half_height: missing"),
                (r#"{"radius":1}"#, "type: missing"),
                (r#"{"type":7}"#, "type: must be a string"),
                (r#"{"type":"torus","radius":1}"#, "type: unknown type \"torus\""),
                (
                    r#"{"type":"triangle","vertices":[[0,0,0],[1,0,0]]}"#,
                    "vertices: a triangle needs 3 vertices",
                ),
                (r#"{"type":"convex","vertices":[[0,0,0],[1,0]]}"#, "vertices[1]: expected 3 numbers, got 2"),
                (
                    r#"{"type":"convex","vertices":[[0,0,0]],"faces":[[0,0.5,1]]}"#,
                    "faces[0][1]: must be a vertex index",
                ),
                (
                    r#"{"type":"convex","vertices":[[0,0,0]],"faces":[[0,-1,1]]}"#,
                    "faces[0][1]: must be a vertex index",
                ),
                (
                    r#"{"type":"convex","vertices":[[0,0,0]],"faces":[[0,1]]}"#,
                    "faces[0]: expected 3 vertex indices",
                ),
                (r#"{"type":"ellipsoid","radii":3}"#, "radii: must be a list"),
                (r#"{"type":"ellipsoid","radii":null}"#, "radii: missing"),
            ];
            for (json, message) in cases {
                let e = read(json).unwrap_err();
                assert!(e.to_string().starts_with(message), "{json}: {e}");
            }
            // Not an object: the format's own error; through Deserialize, the field error.
            assert!(ShapeSpec::deserialize_fields(&serde_json::json!([1, 2])).is_err());
            let e = serde_json::from_str::<ShapeSpec>(r#"{"type":"box","half_extents":[1]}"#).unwrap_err();
            assert!(e.to_string().starts_with("half_extents: expected 3 numbers, got 1"), "{e}");
        }
    }
}
