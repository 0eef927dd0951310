//! SRDF reading (MoveIt's semantic robot description): which link pairs never need a
//! collision check.
//!
//! * `<disable_collisions link1 link2 reason>`: the pair is never checked.
//! * `<disable_default_collisions link>`: no pair containing the link is checked, except the
//!   pairs re-enabled below.
//! * `<enable_collisions link1 link2>`: the pair is checked even if a
//!   `disable_default_collisions` of one of its links removed it (an explicit
//!   `disable_collisions` of the same pair wins over it, as it is more specific).
//!
//! Groups, end effectors, virtual joints and other elements are ignored. Link names are
//! checked against the robot by [`Srdf::check_links`] (an unknown link is an error naming the
//! element and its line, since a misspelt name would silently keep a pair).

use crate::error::RobotError;
use crate::xml::{XmlFile, children};

/// A pair of link names with the line of the element that named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SrdfPair {
    /// First link.
    pub link1: String,
    /// Second link.
    pub link2: String,
    /// The `reason` attribute (empty when absent).
    pub reason: String,
    /// Line of the element.
    pub line: u32,
}

/// The collision-relevant part of an SRDF file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Srdf {
    /// The `<robot name>`.
    pub name: String,
    /// The file name used in errors.
    pub file: String,
    /// `<disable_collisions>` pairs.
    pub disabled: Vec<SrdfPair>,
    /// `<disable_default_collisions link>`: (link, line).
    pub disabled_links: Vec<(String, u32)>,
    /// `<enable_collisions>` pairs.
    pub enabled: Vec<SrdfPair>,
}

impl Srdf {
    /// Parses SRDF text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Srdf, RobotError> {
        let xml = XmlFile::parse(file, text)?;
        let root = xml.doc.root_element();
        if root.tag_name().name() != "robot" {
            return Err(xml.error(root, "the root element must be <robot>"));
        }
        let pair = |node| -> Result<SrdfPair, RobotError> {
            let link1 = xml.required(node, "link1")?.to_string();
            let link2 = xml.required(node, "link2")?.to_string();
            if link1.is_empty() || link2.is_empty() {
                return Err(xml.error(node, "empty link name"));
            }
            Ok(SrdfPair {
                link1,
                link2,
                reason: node.attribute("reason").unwrap_or("").to_string(),
                line: xml.line(node),
            })
        };
        let mut out = Srdf {
            name: root.attribute("name").unwrap_or("").to_string(),
            file: file.to_string(),
            ..Srdf::default()
        };
        for node in children(root, "disable_collisions") {
            out.disabled.push(pair(node)?);
        }
        for node in children(root, "enable_collisions") {
            out.enabled.push(pair(node)?);
        }
        for node in children(root, "disable_default_collisions") {
            let link = xml.required(node, "link")?;
            if link.is_empty() {
                return Err(xml.error(node, "empty link name"));
            }
            out.disabled_links.push((link.to_string(), xml.line(node)));
        }
        Ok(out)
    }

    /// Checks that every link named exists (`has_link`); the error names the element's line.
    pub fn check_links(&self, has_link: impl Fn(&str) -> bool) -> Result<(), RobotError> {
        let bad = |element: &str, line: u32, link: &str| RobotError::Description {
            file: self.file.clone(),
            line,
            element: element.to_string(),
            reason: format!("link {link:?} is not a link of the robot"),
        };
        for p in &self.disabled {
            for l in [&p.link1, &p.link2] {
                if !has_link(l) {
                    return Err(bad("<disable_collisions>", p.line, l));
                }
            }
        }
        for p in &self.enabled {
            for l in [&p.link1, &p.link2] {
                if !has_link(l) {
                    return Err(bad("<enable_collisions>", p.line, l));
                }
            }
        }
        for (l, line) in &self.disabled_links {
            if !has_link(l) {
                return Err(bad("<disable_default_collisions>", *line, l));
            }
        }
        Ok(())
    }

    /// Whether the SRDF removes the pair {a, b} from collision checking.
    pub fn is_disabled(&self, a: &str, b: &str) -> bool {
        let same = |p: &SrdfPair| (p.link1 == a && p.link2 == b) || (p.link1 == b && p.link2 == a);
        if self.disabled.iter().any(same) {
            return true;
        }
        let by_default = self.disabled_links.iter().any(|(l, _)| l == a || l == b);
        by_default && !self.enabled.iter().any(same)
    }
}
