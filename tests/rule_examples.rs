//! Every rule's examples, pinned: the message and span of each finding a `fail` example
//! produces are snapshotted (one snapshot per rule, as oxc does), and the commands in the
//! docs' `## Example` block agree with what the rule does on them.

use shellgate::rules::RULES;
use shellgate::{Context, analyze};

/// The findings of rule `code` on `cmd`: message and the text under the span.
fn findings_of(code: &str, cmd: &str) -> Vec<String> {
    analyze(cmd, &Context::fixture())
        .findings
        .iter()
        .filter(|f| f.rule == code)
        .map(|f| {
            let under = cmd
                .get(f.span.start..f.span.end)
                .unwrap_or("<span outside the text>");
            format!(
                "  [{}..{}] `{under}`\n    {}",
                f.span.start, f.span.end, f.message
            )
        })
        .collect()
}

#[test]
fn fail_example_messages_and_spans_are_snapshotted() {
    for r in RULES {
        let m = r.meta();
        let mut text = String::new();
        for ex in m.fail {
            text.push_str(&format!("$ {ex}\n"));
            for f in findings_of(m.code, ex) {
                text.push_str(&f);
                text.push('\n');
            }
        }
        insta::assert_snapshot!(format!("{}-{}", m.code, m.name), text);
    }
}

/// A line of an `## Example` block: the command, the rule its comment is about (another
/// rule's code when it names one: `# block (SG1201), not this rule`), and whether that rule
/// flags it.
fn example_lines(docs: &str, own: &'static str) -> Vec<(String, String, bool)> {
    let Some(start) = docs.find("## Example") else {
        return Vec::new();
    };
    let section = &docs[start..];
    let section = section
        .get(10..)
        .and_then(|rest| rest.find("\n## ").map(|end| &rest[..end]))
        .unwrap_or(section);
    let mut out = Vec::new();
    let mut in_code = false;
    for line in section.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if !in_code {
            continue;
        }
        let Some((cmd, comment)) = t.rsplit_once(" # ") else {
            continue;
        };
        let c = comment.trim().to_ascii_lowercase();
        let fires = if c.starts_with("approve")
            || c.starts_with("block")
            || c.starts_with("ask")
            || c.starts_with("deny")
        {
            true
        } else if c.starts_with("allow") {
            false
        } else {
            continue;
        };
        let named = comment
            .split(|c: char| !c.is_ascii_alphanumeric())
            .find(|w| {
                w.len() == 6 && w.starts_with("SG") && w[2..].chars().all(|d| d.is_ascii_digit())
            });
        let rule = named.unwrap_or(own).to_string();
        out.push((cmd.trim().to_string(), rule, fires));
    }
    out
}

#[test]
fn doc_example_blocks_agree_with_the_rule() {
    let mut wrong = Vec::new();
    let mut checked = 0;
    for r in RULES {
        let m = r.meta();
        for (cmd, rule, fires) in example_lines(m.docs, m.code) {
            checked += 1;
            let fired = !findings_of(&rule, &cmd).is_empty();
            if fired != fires {
                wrong.push(format!(
                    "{} docs: `{cmd}` is documented as {} by {rule} but it {}",
                    m.code,
                    if fires { "flagged" } else { "allowed" },
                    if fired { "fires" } else { "does not fire" }
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(
        checked > 50,
        "only {checked} documented examples were found"
    );
}
