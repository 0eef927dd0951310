//! A small JSON parser that keeps number *text* (for exact reading) and line numbers.
//!
//! RFC 8259 syntax, with these limits: nesting depth at most [`MAX_DEPTH`]; duplicate object
//! keys are rejected; `NaN`/`Infinity` literals get a specific non-finite error.

use super::error::{IoError, IoErrorKind};
use super::scalar::show;

/// Deepest nesting of arrays/objects accepted.
pub(crate) const MAX_DEPTH: usize = 64;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value<'a> {
    Null,
    Bool(bool),
    /// The number exactly as written (valid JSON number syntax).
    Number(&'a str),
    Str(String),
    Array(Vec<Node<'a>>),
    Object(Vec<(String, Node<'a>)>),
}

impl Value<'_> {
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::Str(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
}

/// A value and the 1-based line where it starts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node<'a> {
    pub(crate) line: usize,
    pub(crate) value: Value<'a>,
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    line: usize,
    depth: usize,
}

/// Parses one JSON document (trailing whitespace allowed, nothing else).
pub(crate) fn parse(src: &str) -> Result<Node<'_>, IoError> {
    let mut p = Parser { src, pos: 0, line: 1, depth: 0 };
    p.skip_ws();
    if p.pos >= src.len() {
        return Err(IoError::plain(IoErrorKind::Empty, "empty input: expected a JSON object"));
    }
    let node = p.value()?;
    p.skip_ws();
    if p.pos < src.len() {
        return Err(p.err("unexpected text after the JSON document"));
    }
    Ok(node)
}

impl<'a> Parser<'a> {
    fn bytes(&self) -> &'a [u8] {
        self.src.as_bytes()
    }
    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }
    fn err(&self, msg: impl Into<String>) -> IoError {
        IoError::at(IoErrorKind::Syntax, self.line, msg)
    }
    fn unexpected(&self, expected: &str) -> IoError {
        match self.src.get(self.pos..).and_then(|rest| rest.chars().next()) {
            Some(c) => self.err(format!("expected {expected}, found {c:?}")),
            None => self.err(format!("expected {expected}, found the end of the input")),
        }
    }
    fn skip_ws(&mut self) {
        while let Some(b) = self.peek() {
            match b {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => break,
            }
            self.pos += 1;
        }
    }

    fn value(&mut self) -> Result<Node<'a>, IoError> {
        let line = self.line;
        let value = match self.peek() {
            Some(b'{') => self.object()?,
            Some(b'[') => self.array()?,
            Some(b'"') => Value::Str(self.string()?),
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(b't') => self.literal("true", Value::Bool(true))?,
            Some(b'f') => self.literal("false", Value::Bool(false))?,
            Some(b'n') => self.literal("null", Value::Null)?,
            Some(b'N' | b'I') => {
                return Err(IoError::at(
                    IoErrorKind::NonFinite,
                    self.line,
                    "NaN and Infinity are not allowed (and are not JSON)",
                ));
            }
            _ => return Err(self.unexpected("a JSON value")),
        };
        Ok(Node { line, value })
    }

    fn literal(&mut self, word: &str, value: Value<'a>) -> Result<Value<'a>, IoError> {
        if self.bytes()[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.unexpected("a JSON value"))
        }
    }

    fn enter(&mut self) -> Result<(), IoError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    fn array(&mut self) -> Result<Value<'a>, IoError> {
        self.enter()?;
        self.pos += 1; // '['
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value()?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.unexpected("',' or ']'")),
            }
        }
        self.depth -= 1;
        Ok(Value::Array(items))
    }

    fn object(&mut self) -> Result<Value<'a>, IoError> {
        self.enter()?;
        self.pos += 1; // '{'
        let mut fields: Vec<(String, Node<'a>)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Value::Object(fields));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.unexpected("a quoted key"));
            }
            let key_line = self.line;
            let key = self.string()?;
            if !seen.insert(key.clone()) {
                return Err(IoError::at(
                    IoErrorKind::Duplicate,
                    key_line,
                    format!("duplicate key {}", show(&key)),
                ));
            }
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.unexpected("':'"));
            }
            self.pos += 1;
            self.skip_ws();
            let value = self.value()?;
            fields.push((key, value));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.unexpected("',' or '}'")),
            }
        }
        self.depth -= 1;
        Ok(Value::Object(fields))
    }

    fn hex4(&mut self) -> Result<u32, IoError> {
        let digits = self.src.get(self.pos..self.pos + 4).ok_or_else(|| self.err("truncated \\u escape"))?;
        let value = u32::from_str_radix(digits, 16).map_err(|_| self.err("bad \\u escape"))?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(self.err("bad \\u escape"));
        }
        self.pos += 4;
        Ok(value)
    }

    fn string(&mut self) -> Result<String, IoError> {
        self.pos += 1; // opening quote
        let mut out = String::new();
        loop {
            let start = self.pos;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            // `start..pos` ends before an ASCII byte (or at the end), so it is a char boundary.
            out.push_str(self.src.get(start..self.pos).unwrap_or(""));
            match self.peek() {
                None => return Err(self.err("unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let esc = self.peek().ok_or_else(|| self.err("unterminated string"))?;
                    self.pos += 1;
                    match esc {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if !self.bytes()[self.pos..].starts_with(b"\\u") {
                                    return Err(self.err("unpaired surrogate in \\u escape"));
                                }
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.err("unpaired surrogate in \\u escape"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            let c = char::from_u32(code).ok_or_else(|| self.err("invalid \\u escape"))?;
                            out.push(c);
                        }
                        _ => return Err(self.err("invalid escape in string")),
                    }
                }
                Some(_) => return Err(self.err("control character in string (newlines must be escaped)")),
            }
        }
    }

    fn number(&mut self) -> Result<Value<'a>, IoError> {
        let start = self.pos;
        let b = self.bytes();
        let mut i = self.pos;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                while b.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
            }
            Some(b'I') => {
                return Err(IoError::at(IoErrorKind::NonFinite, self.line, "-Infinity is not allowed"));
            }
            _ => return Err(self.err("bad number: expected a digit")),
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            let s = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == s {
                return Err(self.err("bad number: expected a digit after '.'"));
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let s = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == s {
                return Err(self.err("bad number: expected a digit in the exponent"));
            }
        }
        if b.get(i).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'.') {
            return Err(self.err("bad number"));
        }
        self.pos = i;
        Ok(Value::Number(self.src.get(start..i).unwrap_or("")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_values_and_lines() {
        let doc =
            parse("{\"a\": [1, -2.5e3, \"x\\u00e9\\ud83d\\ude00\"],\n \"b\": {\"c\": null, \"d\": true}}")
                .unwrap();
        let Value::Object(fields) = doc.value else { panic!() };
        assert_eq!(fields[0].0, "a");
        let Value::Array(items) = &fields[0].1.value else { panic!() };
        assert_eq!(items[1].value, Value::Number("-2.5e3"));
        assert_eq!(items[2].value, Value::Str("x\u{e9}\u{1F600}".into()));
        assert_eq!(fields[1].1.line, 2);
    }

    #[test]
    fn rejects_bad_json() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "01",
            "1.",
            "-",
            "[1 2]",
            "{\"a\" 1}",
            "\"abc",
            "[\"\\x\"]",
            "tru",
            "{\"a\":1}x",
            "[\"\\ud800\"]",
            "NaN",
            "[-Infinity]",
            "{\"a\":1,\"a\":2}",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert!(parse(&deep).is_err());
    }
}
