//! Format-preserving edits of a JSON settings file: find the byte span of each value, then
//! insert or remove one member or element as text, in the file's own indentation. Every
//! byte outside the edit stays as it was, so removing what was inserted restores the file
//! exactly.

/// A parsed JSON value with its byte span `[start, end)` in the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub start: usize,
    pub end: usize,
    pub kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// Members: the key, the byte where the key's opening quote starts, and the value.
    Object(Vec<(String, usize, Node)>),
    Array(Vec<Node>),
    String(String),
    Other,
}

impl Node {
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.kind {
            Kind::Object(m) => m.iter().find(|(k, _, _)| k == key).map(|(_, _, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn elements(&self) -> &[Node] {
        match &self.kind {
            Kind::Array(v) => v,
            _ => &[],
        }
    }
}

const MAX_DEPTH: usize = 256;

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
    text: &'a str,
}

impl<'a> Parser<'a> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.i))
    }

    fn value(&mut self, depth: usize) -> Result<Node, String> {
        if depth > MAX_DEPTH {
            return self.err("nesting too deep");
        }
        self.ws();
        let start = self.i;
        match self.b.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut members = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b'}') {
                    self.i += 1;
                } else {
                    loop {
                        self.ws();
                        let key_start = self.i;
                        let key = self.string()?;
                        self.ws();
                        if self.b.get(self.i) != Some(&b':') {
                            return self.err("expected `:`");
                        }
                        self.i += 1;
                        let v = self.value(depth + 1)?;
                        members.push((key, key_start, v));
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b'}') => {
                                self.i += 1;
                                break;
                            }
                            _ => return self.err("expected `,` or `}`"),
                        }
                    }
                }
                Ok(Node {
                    start,
                    end: self.i,
                    kind: Kind::Object(members),
                })
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b']') {
                    self.i += 1;
                } else {
                    loop {
                        items.push(self.value(depth + 1)?);
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b']') => {
                                self.i += 1;
                                break;
                            }
                            _ => return self.err("expected `,` or `]`"),
                        }
                    }
                }
                Ok(Node {
                    start,
                    end: self.i,
                    kind: Kind::Array(items),
                })
            }
            Some(b'"') => {
                let s = self.string()?;
                Ok(Node {
                    start,
                    end: self.i,
                    kind: Kind::String(s),
                })
            }
            Some(_) => {
                while self.i < self.b.len()
                    && !matches!(
                        self.b[self.i],
                        b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r'
                    )
                {
                    self.i += 1;
                }
                if self.i == start {
                    return self.err("expected a value");
                }
                Ok(Node {
                    start,
                    end: self.i,
                    kind: Kind::Other,
                })
            }
            None => self.err("unexpected end of input"),
        }
    }

    /// A string token; its decoded value comes from serde_json so escapes are exact.
    fn string(&mut self) -> Result<String, String> {
        if self.b.get(self.i) != Some(&b'"') {
            return self.err("expected a string");
        }
        let start = self.i;
        self.i += 1;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    let raw = &self.text[start..self.i];
                    return serde_json::from_str::<String>(raw)
                        .map_err(|e| format!("bad string at byte {start}: {e}"));
                }
                _ => self.i += 1,
            }
        }
        self.err("unterminated string")
    }
}

/// Parse `text` (which must also be valid for serde_json) into spans.
pub fn parse(text: &str) -> Result<Node, String> {
    serde_json::from_str::<serde_json::Value>(text).map_err(|e| e.to_string())?;
    let mut p = Parser {
        b: text.as_bytes(),
        i: 0,
        text,
    };
    let v = p.value(0)?;
    p.ws();
    if p.i != text.len() {
        return p.err("trailing text");
    }
    Ok(v)
}

/// The file's indentation unit: the leading whitespace of the first indented line.
pub fn indent_unit(text: &str) -> String {
    text.lines()
        .map(|l| {
            let n = l.len() - l.trim_start().len();
            &l[..n]
        })
        .find(|w| !w.is_empty())
        .unwrap_or("  ")
        .to_string()
}

fn line_indent(text: &str, pos: usize) -> &str {
    let line_start = text[..pos].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let line = &text[line_start..];
    let n = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..n]
}

/// How children of a container are laid out: on their own lines (with this indent), or
/// inline.
fn child_layout(text: &str, container: &Node, first_child_start: Option<usize>) -> Option<String> {
    match first_child_start {
        Some(s) => text[container.start..s]
            .contains('\n')
            .then(|| line_indent(text, s).to_string()),
        None => {
            // An empty container: lay out like the rest of the file.
            let multi_line = text.contains('\n');
            multi_line.then(|| {
                format!(
                    "{}{}",
                    line_indent(text, container.start),
                    indent_unit(text)
                )
            })
        }
    }
}

/// Render `value` (compact JSON) for insertion at `indent` (pretty), or inline (compact).
fn render(value: &serde_json::Value, indent: Option<&str>, unit: &str) -> String {
    match indent {
        None => value.to_string(),
        Some(ind) => {
            let mut buf = Vec::new();
            let fmt = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
            let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
            if serde::Serialize::serialize(value, &mut ser).is_err() {
                return value.to_string();
            }
            let s = String::from_utf8_lossy(&buf).into_owned();
            s.replace('\n', &format!("\n{ind}"))
        }
    }
}

/// Insert `key: value` as the last member of the object `obj`.
pub fn insert_member(text: &str, obj: &Node, key: &str, value: &serde_json::Value) -> String {
    let Kind::Object(members) = &obj.kind else {
        return text.to_string();
    };
    let unit = indent_unit(text);
    let layout = child_layout(text, obj, members.first().map(|(_, ks, _)| *ks));
    let key_json = serde_json::Value::String(key.to_string()).to_string();
    let sep = if layout.is_some() { ": " } else { ":" };
    let member = format!("{key_json}{sep}{}", render(value, layout.as_deref(), &unit));
    splice_last(
        text,
        obj,
        members.last().map(|(_, _, v)| v.end),
        &member,
        layout,
    )
}

/// Append `value` as the last element of the array `arr`.
pub fn append_element(text: &str, arr: &Node, value: &serde_json::Value) -> String {
    let Kind::Array(items) = &arr.kind else {
        return text.to_string();
    };
    let unit = indent_unit(text);
    let layout = child_layout(text, arr, items.first().map(|n| n.start));
    let item = render(value, layout.as_deref(), &unit);
    splice_last(text, arr, items.last().map(|n| n.end), &item, layout)
}

/// Insert `value` as element `index` of the array `arr` (appended when `index` is past the
/// end), in the array's own layout. Removing child `index` afterwards restores the text.
pub fn insert_element(text: &str, arr: &Node, index: usize, value: &serde_json::Value) -> String {
    let Kind::Array(items) = &arr.kind else {
        return text.to_string();
    };
    let Some(at) = items.get(index) else {
        return append_element(text, arr, value);
    };
    let unit = indent_unit(text);
    let layout = child_layout(text, arr, items.first().map(|n| n.start));
    let item = render(value, layout.as_deref(), &unit);
    // Reuse the separator the array already has, so removing the element restores it.
    let sep = match (
        index.checked_sub(1).and_then(|i| items.get(i)),
        items.get(1),
    ) {
        (Some(prev), _) => text[prev.end..at.start].to_string(),
        (None, Some(next)) => text[at.end..next.start].to_string(),
        (None, None) => match &layout {
            Some(ind) => format!(",\n{ind}"),
            None => ", ".to_string(),
        },
    };
    if index > 0 {
        let prev_end = items[index - 1].end;
        format!("{}{sep}{item}{}", &text[..prev_end], &text[prev_end..])
    } else {
        format!("{}{item}{sep}{}", &text[..at.start], &text[at.start..])
    }
}

fn splice_last(
    text: &str,
    container: &Node,
    last_end: Option<usize>,
    child: &str,
    layout: Option<String>,
) -> String {
    match (last_end, layout) {
        (Some(end), Some(ind)) => format!("{},\n{ind}{child}{}", &text[..end], &text[end..]),
        (Some(end), None) => format!("{},{child}{}", &text[..end], &text[end..]),
        (None, Some(ind)) => {
            let close_indent = line_indent(text, container.start);
            format!(
                "{}\n{ind}{child}\n{close_indent}{}",
                &text[..container.start + 1],
                &text[container.end - 1..]
            )
        }
        (None, None) => format!(
            "{}{child}{}",
            &text[..container.start + 1],
            &text[container.end - 1..]
        ),
    }
}

/// Remove child `index` of a container given the children's `(start, end)` spans: the
/// text from the previous child's end to this one's end (or, for the first child, up to
/// the next child's start; for the only child, everything between the brackets).
pub fn remove_child(
    text: &str,
    container: &Node,
    spans: &[(usize, usize)],
    index: usize,
) -> String {
    let Some(&(start, end)) = spans.get(index) else {
        return text.to_string();
    };
    if index > 0 {
        let prev_end = spans[index - 1].1;
        format!("{}{}", &text[..prev_end], &text[end..])
    } else if let Some(&(next_start, _)) = spans.get(1) {
        format!("{}{}", &text[..start], &text[next_start..])
    } else {
        format!(
            "{}{}",
            &text[..container.start + 1],
            &text[container.end - 1..]
        )
    }
}

/// The `(start, end)` spans of an object's members (key through value).
pub fn member_spans(obj: &Node) -> Vec<(usize, usize)> {
    match &obj.kind {
        Kind::Object(m) => m.iter().map(|(_, ks, v)| (*ks, v.end)).collect(),
        _ => Vec::new(),
    }
}

pub fn element_spans(arr: &Node) -> Vec<(usize, usize)> {
    arr.elements().iter().map(|n| (n.start, n.end)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inserting_then_removing_an_element_restores_the_text() {
        for text in [
            "{\"a\": [\n  1,\n  2\n]}\n",
            "{\"a\": [1, 2]}",
            "{\"a\": []}",
        ] {
            for index in 0..3 {
                let root = parse(text).unwrap_or_else(|e| panic!("{e}"));
                let Some(arr) = root.get("a") else {
                    panic!("no a in {text}");
                };
                let after = insert_element(text, arr, index, &json!({"x": 1}));
                let v: serde_json::Value =
                    serde_json::from_str(&after).unwrap_or_else(|e| panic!("{e}: {after}"));
                let n = arr.elements().len();
                assert_eq!(v["a"][index.min(n)]["x"], 1, "{after}");
                let root = parse(&after).unwrap_or_else(|e| panic!("{e}"));
                let Some(arr) = root.get("a") else {
                    panic!("no a in {after}");
                };
                let back = remove_child(&after, arr, &element_spans(arr), index.min(n));
                assert_eq!(back, text, "index {index}");
            }
        }
    }

    #[test]
    fn inserting_then_removing_a_member_restores_the_text() {
        let text = "{\n    \"model\": \"opus\",\n    \"env\": {\"A\": \"1\"}\n}\n";
        let root = parse(text).unwrap_or_else(|e| panic!("{e}"));
        let added = insert_member(text, &root, "hooks", &json!({"PreToolUse": []}));
        assert!(
            added.contains("\n    \"hooks\": {\n        \"PreToolUse\": []\n    }\n}"),
            "{added}"
        );
        let root2 = parse(&added).unwrap_or_else(|e| panic!("{e}"));
        let back = remove_child(&added, &root2, &member_spans(&root2), 2);
        assert_eq!(back, text);
    }

    #[test]
    fn appends_to_compact_and_empty_arrays() {
        let text = r#"{"a":[1,2]}"#;
        let root = parse(text).unwrap_or_else(|e| panic!("{e}"));
        let arr = root.get("a").cloned().unwrap_or_else(|| panic!("no a"));
        assert_eq!(
            append_element(text, &arr, &json!({"x": 1})),
            r#"{"a":[1,2,{"x":1}]}"#
        );
        let text = "{\n  \"a\": []\n}";
        let root = parse(text).unwrap_or_else(|e| panic!("{e}"));
        let arr = root.get("a").cloned().unwrap_or_else(|| panic!("no a"));
        assert_eq!(
            append_element(text, &arr, &json!(1)),
            "{\n  \"a\": [\n    1\n  ]\n}"
        );
    }

    #[test]
    fn removes_first_middle_and_only_children() {
        let text = "[1, 2, 3]";
        let arr = parse(text).unwrap_or_else(|e| panic!("{e}"));
        let spans = element_spans(&arr);
        assert_eq!(remove_child(text, &arr, &spans, 0), "[2, 3]");
        assert_eq!(remove_child(text, &arr, &spans, 1), "[1, 3]");
        let one = parse("[ 1 ]").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(remove_child("[ 1 ]", &one, &element_spans(&one), 0), "[]");
    }

    #[test]
    fn refuses_what_serde_refuses() {
        assert!(parse("{\"a\": 1,}").is_err());
        assert!(parse("// comment\n{}").is_err());
        assert!(parse("{\"k\\\"ey\": \"v\"}").is_ok());
    }
}
