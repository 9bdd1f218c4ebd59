//! Defence in depth: the parse tree is not trusted to have seen every command boundary. An
//! independent scan of the text (`scan`) finds where bash starts a new command (an unquoted
//! newline, `;`, `&`, `|`, `&&`, `||` outside quotes, substitutions and heredoc bodies); no
//! simple command of the lowered model may run across one. Where one does, the text between
//! separators is judged on its own as well and the stricter answer wins.

use crate::model::Script;
use crate::normalize::Normalized;
use crate::scan::{self, Separator};

/// A separator bash sees that the model ran a command across.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Disagreement {
    /// The separator, in normalised-text offsets.
    pub separator: Separator,
    /// The command whose words span it (its id in the script).
    pub command: usize,
}

/// The separators of `norm.text` that a lowered command's words run across.
pub fn disagreements(norm: &Normalized, script: &Script) -> Vec<Disagreement> {
    let text = &norm.text;
    // Nothing to check without an operator or a newline (the common short command).
    if !text
        .bytes()
        .any(|b| matches!(b, b'\n' | b';' | b'&' | b'|'))
    {
        return Vec::new();
    }
    let seps = scan::scan(text).separators;
    if seps.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for c in &script.commands {
        // Words copied verbatim from the top-level text; decoded or synthetic ones have no
        // position of their own to compare.
        let spans: Vec<(usize, usize)> = c.argv.iter().filter_map(|w| w.nspan).collect();
        let (Some(first), Some(last)) = (spans.first(), spans.last()) else {
            continue;
        };
        let (lo, hi) = (first.0, last.1);
        if hi <= lo {
            continue;
        }
        // Separators are sorted: find the first at or after `lo`.
        let start = seps.partition_point(|s| s.at < lo);
        for s in &seps[start..] {
            if s.at >= hi {
                break;
            }
            // Inside one word (a quoted `;` the scan already skipped cannot get here; this is
            // for words the model decoded from several nodes).
            if spans.iter().any(|&(a, b)| a <= s.at && s.at < b) {
                continue;
            }
            out.push(Disagreement {
                separator: *s,
                command: c.id,
            });
            break;
        }
    }
    out
}

/// The text between consecutive separators (normalised offsets), blank pieces left out: each
/// is judged alone when the tree is distrusted.
pub fn segments(text: &str) -> Vec<(usize, usize)> {
    let s = scan::scan(text);
    let mut out = Vec::new();
    let mut from = 0;
    let mut push = |a: usize, b: usize| {
        if text.get(a..b).is_some_and(|t| !t.trim().is_empty()) {
            out.push((a, b));
        }
    };
    for sep in &s.separators {
        push(from, sep.at);
        from = sep.at + sep.len;
    }
    push(from, text.len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Context, analyze};

    fn check(cmd: &str) -> Vec<Disagreement> {
        let a = analyze(cmd, &Context::fixture());
        disagreements(&a.normalized, &a.script)
    }

    #[test]
    fn agrees_on_commands_the_model_split_correctly() {
        assert!(check("ls | grep x | head\nrm -rf ~ && cd s").is_empty());
        assert!(check("echo 'a; b' \"c | d\" $(e; f) && g").is_empty());
        assert!(check("cat <<'EOF' ; rm x\na; b | c\nEOF").is_empty());
        assert!(check("for x in a b; do echo $x; done").is_empty());
    }

    #[test]
    fn segments_split_at_every_separator_outside_quotes() {
        let t = "a 'x;y' ; b && c | d\ne";
        let s: Vec<&str> = segments(t).iter().map(|&(a, b)| t[a..b].trim()).collect();
        assert_eq!(s, vec!["a 'x;y'", "b", "c", "d", "e"]);
    }
}
