//! SRDF: disabled pairs, default disables with re-enabled pairs, unknown links.

use proxima_robot::{LoadOptions, Robot, RobotError, Srdf};

use crate::support::panda_urdf;

const SRDF: &str = r#"<?xml version="1.0"?>
<robot name="panda">
  <group name="arm"><chain base_link="panda_link0" tip_link="panda_link8"/></group>
  <disable_collisions link1="panda_link0" link2="panda_link2" reason="Never"/>
  <disable_collisions link1="panda_link5" link2="panda_link7" reason="Default"/>
  <disable_default_collisions link="panda_leftfinger"/>
  <enable_collisions link1="panda_leftfinger" link2="panda_link0"/>
</robot>"#;

#[test]
fn disabled_pairs() {
    let s = Srdf::parse(SRDF, "panda.srdf").unwrap();
    assert_eq!(s.disabled.len(), 2);
    assert_eq!(s.disabled[1].line, 5);
    assert!(s.is_disabled("panda_link2", "panda_link0"));
    assert!(s.is_disabled("panda_link5", "panda_link7"));
    assert!(!s.is_disabled("panda_link1", "panda_link3"));
    // default-disabled link: every pair off except the re-enabled one
    assert!(s.is_disabled("panda_leftfinger", "panda_link3"));
    assert!(!s.is_disabled("panda_link0", "panda_leftfinger"));
    let r = Robot::from_urdf_file(panda_urdf(), &LoadOptions::default()).unwrap();
    s.check_links(|l| r.link_index(l).is_some()).unwrap();
}

#[test]
fn unknown_links_and_malformed_files() {
    let bad = SRDF.replace("link2=\"panda_link7\"", "link2=\"panda_link77\"");
    let s = Srdf::parse(&bad, "panda.srdf").unwrap();
    let r = Robot::from_urdf_file(panda_urdf(), &LoadOptions::default()).unwrap();
    let e = s.check_links(|l| r.link_index(l).is_some()).unwrap_err();
    assert!(
        matches!(&e, RobotError::Description { line: 5, element, .. } if element == "<disable_collisions>"),
        "{e}"
    );
    assert!(e.to_string().contains("panda_link77") && e.to_string().starts_with("panda.srdf:5:"), "{e}");
    let e = Srdf::parse(&SRDF.replace(" link2=\"panda_link2\"", ""), "x.srdf").unwrap_err();
    assert!(matches!(&e, RobotError::Description { line: 4, .. }) && e.to_string().contains("link2"), "{e}");
    let e = Srdf::parse("<robot><disable_collisions link1='a'", "x.srdf").unwrap_err();
    assert!(matches!(e, RobotError::Xml { line: 1, .. }), "{e}");
    let e = Srdf::parse("<model/>", "x.srdf").unwrap_err();
    assert!(e.to_string().contains("<robot>"), "{e}");
}
