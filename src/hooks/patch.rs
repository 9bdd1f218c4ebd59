//! The files an `apply_patch`-style patch touches (Codex `apply_patch`, Hermes `patch` in
//! V4A mode): `*** Add File:`, `*** Update File:`, `*** Delete File:`, `*** Move to:` and
//! Hermes's `*** Move File: a -> b`. Read more leniently than either harness parses, so a
//! header a harness accepts is never missed.

use std::sync::LazyLock;

use regex::Regex;

static FILE_HEADER: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)^\*\*\*\s*(?:add|update|delete)\s+file:\s*(.+?)\s*$").ok());
static MOVE_TO: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)^\*\*\*\s*move\s+to:\s*(.+?)\s*$").ok());
static MOVE_FILE: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)^\*\*\*\s*move\s+file:\s*(.+?)\s*->\s*(.+?)\s*$").ok());

/// Every path the patch names, in order, duplicates removed. A patch naming no file is an
/// error: there is nothing to judge, and the harness's own parser may still find one.
pub fn paths(text: &str) -> Result<Vec<String>, String> {
    let (Some(header), Some(move_to), Some(move_file)) = (&*FILE_HEADER, &*MOVE_TO, &*MOVE_FILE)
    else {
        return Err("internal error: the patch header patterns did not compile".into());
    };
    let mut out: Vec<String> = Vec::new();
    let mut push = |p: &str| {
        let p = p.trim();
        if !p.is_empty() && !out.iter().any(|q| q == p) {
            out.push(p.to_string());
        }
    };
    for line in text.lines() {
        let line = line.trim_start();
        if let Some(c) = move_file.captures(line) {
            push(&c[1]);
            push(&c[2]);
        } else if let Some(c) = header.captures(line) {
            push(&c[1]);
        } else if let Some(c) = move_to.captures(line) {
            push(&c[1]);
        }
    }
    if out.is_empty() {
        return Err("the patch names no file (no `*** Add/Update/Delete File:` line)".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_file_a_codex_patch_touches() {
        let p = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** Update File: src/b.rs\n*** Move to: src/c.rs\n@@\n-x\n+y\n*** Delete File: ../../home/u/.ssh/id_rsa\n*** End Patch\n";
        assert_eq!(
            paths(p).unwrap_or_default(),
            ["a.txt", "src/b.rs", "src/c.rs", "../../home/u/.ssh/id_rsa"]
        );
    }

    #[test]
    fn reads_headers_as_leniently_as_hermes() {
        let p = "***Update   File:   ~/.bashrc\n  *** move file: a -> /etc/passwd\n";
        assert_eq!(
            paths(p).unwrap_or_default(),
            ["~/.bashrc", "a", "/etc/passwd"]
        );
    }

    #[test]
    fn added_lines_that_look_like_headers_are_content() {
        let p =
            "*** Begin Patch\n*** Add File: notes.md\n+*** Update File: /etc/shadow\n*** End Patch";
        assert_eq!(paths(p).unwrap_or_default(), ["notes.md"]);
    }

    #[test]
    fn a_patch_without_file_headers_is_an_error() {
        assert!(paths("*** Begin Patch\n*** End Patch\n").is_err());
    }
}
