//! `shellgate audit --html`: one self-contained page (inline CSS, no scripts, nothing
//! fetched): the headline list of what ran although shellgate would deny or ask, the tables
//! by rule and project, and a timeline per session with each call's decision, findings and
//! what the transcript shows after it.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::audit::{Summary, Tally, what, when};
use shellgate::Decision;
use shellgate::audit::{Audit, Judged, Ran};

const STYLE: &str = "
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1.5em;color:#1d1d1f;background:#fafafa}
h1{margin:.2em 0}h2{margin-top:1.6em;border-bottom:1px solid #ddd}
code{font:13px ui-monospace,monospace;white-space:pre-wrap;word-break:break-all}
.totals span{margin-right:1.2em}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .7em;text-align:right;border-bottom:1px solid #eee}
td:last-child,th:last-child{text-align:left}
ol{padding-left:1.2em}li.call{margin:.45em 0;padding:.35em .6em;border-left:4px solid #bbb;background:#fff}
li.deny{border-color:#c62828}li.ask{border-color:#ef8f00}li.allow{border-color:#2e7d32}
.badge{display:inline-block;min-width:3.2em;font-weight:600;font-size:12px;text-align:center;border-radius:3px;color:#fff;padding:0 .3em;margin-right:.4em}
.deny .badge{background:#c62828}.ask .badge{background:#ef8f00}.allow .badge{background:#2e7d32}
.ran-flag{font-size:12px;margin-left:.4em;padding:0 .3em;border-radius:3px;background:#eee}
li.ran.deny .ran-flag,li.ran.ask .ran-flag{background:#ffebee;color:#b71c1c;font-weight:600}
.meta{color:#666;font-size:12px}.finding{margin:.15em 0 0 1em;font-size:13px}.result{color:#555;font-size:12px;margin-left:1em}
article.session{margin:1em 0;padding:.6em 1em;background:#f0f0f3;border-radius:6px}
#headline li.call{background:#fff5f5}
";

/// Text for HTML content and attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

fn ran_label(r: Ran) -> &'static str {
    match r {
        Ran::Ran => "ran",
        Ran::Refused => "refused",
        Ran::Unknown => "no-result",
    }
}

/// One call as a list item: decision badge, the command or paths, whether it ran, the
/// findings and the start of the result.
fn call_item(out: &mut String, j: &Judged, with_session: bool) {
    let d = j.decision.as_str();
    let rules: Vec<&str> = j.findings.iter().map(|f| f.rule.as_str()).collect();
    let _ = write!(
        out,
        "<li class=\"call {d} {}\" data-decision=\"{d}\" data-rules=\"{}\"><span class=\"badge\">{}</span><code class=\"what\">{}</code><span class=\"ran-flag\">{}</span>",
        ran_label(j.call.ran),
        esc(&rules.join(" ")),
        d.to_uppercase(),
        esc(&what(j)),
        ran_label(j.call.ran).replace('-', " "),
    );
    let _ = write!(
        out,
        "<div class=\"meta\">{} · {} · {}{}</div>",
        esc(&when(j)),
        esc(j.call.host),
        esc(&j.call.tool),
        if with_session {
            format!(" · session {}", esc(&j.call.session))
        } else {
            String::new()
        }
    );
    for f in &j.findings {
        let _ = write!(
            out,
            "<div class=\"finding\"><b>{}</b> {} — {}</div>",
            esc(&f.rule),
            esc(&f.name),
            esc(&f.message)
        );
    }
    if j.findings.is_empty() && j.decision != Decision::Allow {
        let _ = write!(out, "<div class=\"finding\">{}</div>", esc(&j.reason));
    }
    if let Some(r) = &j.call.result {
        let _ = write!(out, "<div class=\"result\">→ {}</div>", esc(r));
    }
    out.push_str("</li>\n");
}

fn tally_table(out: &mut String, id: &str, title: &str, rows: &BTreeMap<String, Tally>) {
    let _ = writeln!(
        out,
        "<h2>{title}</h2><table id=\"{id}\"><tr><th>calls</th><th>allow</th><th>ask</th><th>deny</th><th>ran unsafe</th><th></th></tr>"
    );
    for (k, t) in rows {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            t.calls,
            t.allow,
            t.ask,
            t.deny,
            t.ran_unsafe,
            esc(k)
        );
    }
    out.push_str("</table>\n");
}

/// The whole report page.
pub fn page(a: &Audit, s: &Summary) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>shellgate audit</title><style>{STYLE}</style></head><body>\n<h1>shellgate audit</h1>\n<p class=\"totals\" id=\"totals\" data-calls=\"{}\" data-ran-unsafe=\"{}\"><span>{} transcript files</span><span>{} calls</span><span>allow {}</span><span>ask {}</span><span>deny {}</span><span>{} malformed</span></p>\n",
        s.total.calls,
        s.total.ran_unsafe,
        a.files.len(),
        s.total.calls,
        s.total.allow,
        s.total.ask,
        s.total.deny,
        s.malformed
    );
    let ran: Vec<&Judged> = a.ran_unsafe().collect();
    let _ = writeln!(
        out,
        "<section id=\"headline\"><h2>Ran although shellgate would deny or ask: {}</h2><ol>",
        ran.len()
    );
    for j in &ran {
        call_item(&mut out, j, true);
    }
    if ran.is_empty() {
        out.push_str("<li class=\"none\">Nothing: every call shellgate would deny or ask about was refused or has no result.</li>\n");
    }
    out.push_str("</ol></section>\n");
    tally_table(&mut out, "by-rule", "By rule", &s.by_rule);
    tally_table(&mut out, "by-project", "By project", &s.by_project);
    out.push_str("<section id=\"sessions\"><h2>Sessions</h2>\n");
    let mut sessions: BTreeMap<(&str, &str), Vec<&Judged>> = BTreeMap::new();
    for j in &a.calls {
        sessions
            .entry((j.call.host, j.call.session.as_str()))
            .or_default()
            .push(j);
    }
    for ((host, session), calls) in sessions {
        let project = calls
            .iter()
            .find_map(|j| j.call.project.as_deref())
            .unwrap_or("");
        let _ = writeln!(
            out,
            "<article class=\"session\" data-host=\"{}\" data-session=\"{}\"><h3>{} · {}</h3><div class=\"meta\">{}</div><ol class=\"timeline\">",
            esc(host),
            esc(session),
            esc(host),
            esc(session),
            esc(project)
        );
        for j in calls {
            call_item(&mut out, j, false);
        }
        out.push_str("</ol></article>\n");
    }
    out.push_str("</section>\n");
    if !a.malformed.is_empty() {
        out.push_str("<section id=\"malformed\"><h2>Malformed</h2><ul>\n");
        for (f, line, why) in &a.malformed {
            let _ = writeln!(
                out,
                "<li><code>{}:{line}</code> {}</li>",
                esc(&f.display().to_string()),
                esc(why)
            );
        }
        out.push_str("</ul></section>\n");
    }
    out.push_str("</body></html>\n");
    out
}
