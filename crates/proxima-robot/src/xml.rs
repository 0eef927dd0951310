//! Shared helpers of the URDF and SRDF readers: an XML document with its file name, element
//! labels and line numbers for errors, and attribute parsing (names, finite numbers,
//! whitespace-separated vectors).

use roxmltree::{Document, Node};

use crate::error::RobotError;

/// A parsed XML document and the name of the file it came from (for errors).
pub(crate) struct XmlFile<'a> {
    pub(crate) file: &'a str,
    pub(crate) doc: Document<'a>,
}

impl<'a> XmlFile<'a> {
    /// Parses `text`; malformed XML is [`RobotError::Xml`] with the parser's line and column.
    pub(crate) fn parse(file: &'a str, text: &'a str) -> Result<Self, RobotError> {
        let options = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
        let doc = Document::parse_with_options(text, options).map_err(|e| {
            let pos = e.pos();
            RobotError::Xml { file: file.to_string(), line: pos.row, column: pos.col, message: e.to_string() }
        })?;
        Ok(Self { file, doc })
    }

    /// 1-based line where `node` starts.
    pub(crate) fn line(&self, node: Node) -> u32 {
        self.doc.text_pos_at(node.range().start).row
    }

    /// A [`RobotError::Description`] for `node`.
    pub(crate) fn error(&self, node: Node, reason: impl Into<String>) -> RobotError {
        RobotError::Description {
            file: self.file.to_string(),
            line: self.line(node),
            element: label(node),
            reason: reason.into(),
        }
    }

    /// The attribute `name` of `node`, or an error naming it.
    pub(crate) fn required<'n>(&self, node: Node<'n, '_>, name: &str) -> Result<&'n str, RobotError> {
        node.attribute(name).ok_or_else(|| self.error(node, format!("missing attribute {name:?}")))
    }

    /// A finite number from attribute `name` (or `default` when absent).
    pub(crate) fn number(&self, node: Node, name: &str, default: Option<f64>) -> Result<f64, RobotError> {
        match node.attribute(name) {
            None => default.ok_or_else(|| self.error(node, format!("missing attribute {name:?}"))),
            Some(text) => {
                let v = parse_numbers(text, 1)
                    .map_err(|r| self.error(node, format!("attribute {name:?}: {r}")))?;
                Ok(v[0])
            }
        }
    }

    /// Three finite numbers from attribute `name` (or `default` when absent).
    pub(crate) fn vec3(
        &self,
        node: Node,
        name: &str,
        default: Option<[f64; 3]>,
    ) -> Result<[f64; 3], RobotError> {
        match node.attribute(name) {
            None => default.ok_or_else(|| self.error(node, format!("missing attribute {name:?}"))),
            Some(text) => {
                let v = parse_numbers(text, 3)
                    .map_err(|r| self.error(node, format!("attribute {name:?}: {r}")))?;
                Ok([v[0], v[1], v[2]])
            }
        }
    }
}

/// Child elements of `node` named `tag`.
pub(crate) fn children<'a, 'i>(node: Node<'a, 'i>, tag: &'a str) -> impl Iterator<Item = Node<'a, 'i>> + 'a {
    node.children().filter(move |c| c.is_element() && c.tag_name().name() == tag)
}

/// The single child `tag` of `node`, if any; an error when there are several.
pub(crate) fn single_child<'a, 'i>(
    xml: &XmlFile,
    node: Node<'a, 'i>,
    tag: &'a str,
) -> Result<Option<Node<'a, 'i>>, RobotError> {
    let mut it = children(node, tag);
    let first = it.next();
    if let Some(second) = it.next() {
        return Err(xml.error(second, format!("more than one <{tag}> element")));
    }
    Ok(first)
}

/// `<tag name="...">` path from the document's root element (excluded) down to `node`:
/// `<joint name="elbow"> <limit>`.
pub(crate) fn label(node: Node) -> String {
    let mut parts: Vec<String> = node
        .ancestors()
        .filter(|n| n.is_element() && n.parent().is_some_and(|p| p.is_element()))
        .map(|n| match n.attribute("name") {
            Some(name) => format!("<{} name={name:?}>", n.tag_name().name()),
            None => format!("<{}>", n.tag_name().name()),
        })
        .collect();
    if parts.is_empty() {
        parts.push(format!("<{}>", node.tag_name().name()));
    }
    parts.reverse();
    parts.join(" ")
}

/// `count` finite numbers separated by whitespace.
pub(crate) fn parse_numbers(text: &str, count: usize) -> Result<Vec<f64>, String> {
    let mut out = Vec::with_capacity(count);
    for word in text.split_whitespace() {
        let v: f64 = word.parse().map_err(|_| format!("{word:?} is not a number"))?;
        if !v.is_finite() {
            return Err(format!("{word:?} is not finite"));
        }
        out.push(v);
    }
    if out.len() != count {
        return Err(format!("expected {count} number(s), found {} in {text:?}", out.len()));
    }
    Ok(out)
}
