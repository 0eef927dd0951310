//! Bad input: every malformed description names the element and its line; configurations of
//! the wrong length, NaN, unknown joint names; nothing panics.

use proxima_geom::Pose;
use proxima_robot::{LimitPolicy, LoadOptions, MeshCache, Robot, RobotError, parse_urdf};

use crate::support::panda_urdf;

fn build(text: &str) -> Result<Robot, RobotError> {
    let desc = parse_urdf(text, "bad.urdf")?;
    Robot::from_description(&desc, None, &LoadOptions::default(), &mut MeshCache::new())
}

const GOOD: &str = r#"<robot name="r">
  <link name="a"><collision><origin xyz="0 0 0.1"/><geometry><box size="1 1 1"/></geometry></collision></link>
  <link name="b"/>
  <link name="c"/>
  <joint name="j1" type="revolute">
    <parent link="a"/><child link="b"/><origin xyz="0 0 1" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" velocity="1"/>
  </joint>
  <joint name="j2" type="continuous"><parent link="b"/><child link="c"/></joint>
</robot>"#;

/// (what, from, to, expected line, text the message must contain)
const CASES: &[(&str, &str, &str, u32, &str)] = &[
    ("bad number", r#"xyz="0 0 1""#, r#"xyz="0 zero 1""#, 6, "<joint name=\"j1\"> <origin>"),
    ("NaN", r#"xyz="0 0 1""#, r#"xyz="0 NaN 1""#, 6, "not finite"),
    ("three numbers", r#"xyz="0 0 1""#, r#"xyz="0 0""#, 6, "expected 3"),
    ("joint type", r#"type="continuous""#, r#"type="hinge""#, 9, "unknown joint type"),
    ("floating", r#"type="continuous""#, r#"type="floating""#, 9, "not supported"),
    ("missing limit", r#"<limit lower="-1" upper="1" velocity="1"/>"#, "", 5, "needs a <limit>"),
    ("limits reversed", r#"lower="-1" upper="1""#, r#"lower="1" upper="-1""#, 7, "above the upper"),
    ("negative velocity", r#"velocity="1""#, r#"velocity="-1""#, 7, "velocity"),
    ("zero axis", r#"<axis xyz="0 0 1"/>"#, r#"<axis xyz="0 0 0"/>"#, 6, "zero length"),
    (
        "unknown parent",
        r#"<parent link="b"/><child link="c"/>"#,
        r#"<parent link="q"/><child link="c"/>"#,
        9,
        "parent link \"q\"",
    ),
    (
        "missing child",
        r#"<parent link="b"/><child link="c"/>"#,
        r#"<parent link="b"/>"#,
        9,
        "missing <child>",
    ),
    (
        "second parent",
        r#"<parent link="b"/><child link="c"/>"#,
        r#"<parent link="a"/><child link="b"/>"#,
        9,
        "already has the parent joint",
    ),
    ("self joint", r#"<child link="c"/>"#, r#"<child link="b"/>"#, 9, "to itself"),
    ("bad box", r#"size="1 1 1""#, r#"size="1 -1 1""#, 2, "<link name=\"a\"> <collision> <geometry> <box>"),
    ("bad geometry", r#"<box size="1 1 1"/>"#, r#"<cone radius="1"/>"#, 2, "unknown geometry"),
    ("empty geometry", r#"<box size="1 1 1"/>"#, "", 2, "empty <geometry>"),
    ("duplicate link", r#"<link name="c"/>"#, r#"<link name="b"/>"#, 4, "duplicate link name"),
    ("duplicate joint", r#"name="j2""#, r#"name="j1""#, 9, "duplicate joint name"),
    ("missing name", r#"<link name="c"/>"#, r#"<link/>"#, 4, "missing attribute \"name\""),
    (
        "mimic unknown",
        r#"<child link="c"/></joint>"#,
        r#"<child link="c"/><mimic joint="zz"/></joint>"#,
        9,
        "mimicked joint \"zz\"",
    ),
    (
        "mimic itself",
        r#"<child link="c"/></joint>"#,
        r#"<child link="c"/><mimic joint="j2"/></joint>"#,
        9,
        "cycle",
    ),
    ("two origins", r#"<axis xyz="0 0 1"/>"#, r#"<axis xyz="0 0 1"/><origin/>"#, 6, "more than one <origin>"),
];

#[test]
fn malformed_urdf_names_element_and_line() {
    build(GOOD).unwrap();
    for (what, from, to, line, needle) in CASES {
        assert!(GOOD.contains(from), "{what}: fixture does not contain {from}");
        let text = GOOD.replacen(from, to, 1);
        let e = build(&text).expect_err(what);
        let msg = e.to_string();
        match &e {
            RobotError::Description { line: l, file, .. } => {
                assert_eq!(l, line, "{what}: {msg}");
                assert_eq!(file, "bad.urdf");
            }
            other => panic!("{what}: {other}"),
        }
        assert!(msg.contains(needle), "{what}: {msg}");
        assert!(msg.starts_with(&format!("bad.urdf:{line}: ")), "{what}: {msg}");
    }
}

#[test]
fn structure_errors() {
    let e = build(r#"<robot name="r"><link name="a"/><link name="b"/></robot>"#).unwrap_err();
    assert!(e.to_string().contains("2 root links") && e.to_string().contains("a, b"), "{e}");
    let e = build(
        r#"<robot name="r"><link name="a"/><link name="b"/>
      <joint name="x" type="fixed"><parent link="a"/><child link="b"/></joint>
      <joint name="y" type="fixed"><parent link="b"/><child link="a"/></joint></robot>"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("cycle"), "{e}");
    let e = build(r#"<robot name="r"></robot>"#).unwrap_err();
    assert!(e.to_string().contains("no <link>"), "{e}");
    let e = build(r#"<robut/>"#).unwrap_err();
    assert!(e.to_string().contains("<robot>"), "{e}");
    let e = build("<robot name=\"r\">\n  <link name=\"a\">\n</robot>").unwrap_err();
    assert!(matches!(e, RobotError::Xml { line: 3, .. }), "{e}");
    let e = Robot::from_urdf_file("/nonexistent/robot.urdf", &LoadOptions::default()).unwrap_err();
    assert!(matches!(e, RobotError::Io { .. }) && e.to_string().contains("/nonexistent/robot.urdf"), "{e}");
}

#[test]
fn bad_configurations() {
    let r = Robot::from_urdf_file(panda_urdf(), &LoadOptions::default()).unwrap();
    let (mut s, mut p) = (Vec::new(), Vec::new());
    let mut f = |q: &[f64]| {
        r.link_poses(&Pose::identity(), q, LimitPolicy::Clamp, &mut s, &mut p).unwrap_err().to_string()
    };
    let e = f(&[0.0; 7]);
    assert!(e.contains("7 values for 8 actuated joints") && e.contains("panda_finger_joint1"), "{e}");
    let e = f(&[0.0, -0.5, 0.0, -1.0, 0.0, 1.0, f64::NAN, 0.0]);
    assert!(e.contains("q[6] (panda_joint7)") && e.contains("not finite"), "{e}");
    let e = f(&[0.0, -0.5, 0.0, -1.0, f64::INFINITY, 1.0, 0.0, 0.0]);
    assert!(e.contains("q[4]"), "{e}");
    let e = r.configuration_from_names(&["panda_joint1", "elbow"], &[0.0, 1.0]).unwrap_err().to_string();
    assert!(e.contains("\"elbow\" is not a joint"), "{e}");
    let e = r.configuration_from_names(&["panda_finger_joint2"], &[0.0]).unwrap_err().to_string();
    assert!(e.contains("mimic"), "{e}");
    let e =
        r.configuration_from_names(&["panda_joint1", "panda_joint1"], &[0.0, 1.0]).unwrap_err().to_string();
    assert!(e.contains("twice"), "{e}");
    let e = r.configuration_from_names(&["panda_joint1"], &[0.0]).unwrap_err().to_string();
    assert!(e.contains("no value for joint \"panda_joint2\""), "{e}");
}
