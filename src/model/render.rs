//! A readable text form of the lowered model, for grammar tests and `explain --model`.

use std::fmt::Write;

use super::{Command, Piece, RedirectOp, Script, Word};

fn word(w: &Word) -> String {
    let mut s = String::new();
    for p in &w.pieces {
        match p {
            Piece::Lit { text, .. } => s.push_str(text),
            Piece::Unknown { .. } => s.push_str("⟨?⟩"),
        }
    }
    format!("{s:?}")
}

fn op(o: RedirectOp) -> &'static str {
    match o {
        RedirectOp::Read => "<",
        RedirectOp::Write => ">",
        RedirectOp::Append => ">>",
        RedirectOp::WriteAll => "&>",
        RedirectOp::AppendAll => "&>>",
        RedirectOp::ReadWrite => "<>",
        RedirectOp::DupFd => ">&",
        RedirectOp::Heredoc => "<<",
        RedirectOp::HereString => "<<<",
    }
}

/// One command per line: program, argv values (`⟨?⟩` for unknown text), and its context.
pub fn render_command(c: &Command) -> String {
    let mut s = String::new();
    let _ = write!(s, "{}", c.name.as_deref().unwrap_or("-"));
    let argv: Vec<String> = c.argv.iter().map(word).collect();
    let _ = write!(s, " [{}]", argv.join(", "));
    for a in &c.assignments {
        let _ = write!(s, " assign {}={}", a.name, word(&a.value));
    }
    for r in &c.redirects {
        let target = match (&r.heredoc, &r.target) {
            (Some(h), _) => match &h.body {
                Some(b) => format!("{b:?}"),
                None => "⟨heredoc with run-time text⟩".into(),
            },
            (None, Some(t)) => word(t),
            (None, None) => String::new(),
        };
        let fd = r.fd.map(|f| f.to_string()).unwrap_or_default();
        let _ = write!(s, " redirect {fd}{} {target}", op(r.op));
    }
    if !c.wrappers.is_empty() {
        let w: Vec<String> = c.wrappers.iter().map(|w| w.name.clone()).collect();
        let _ = write!(s, " wrappers {}", w.join(">"));
    }
    if let Some(p) = c.pipe {
        let _ = write!(s, " pipe {}:{}/{}", p.pipeline, p.stage + 1, p.stages);
    }
    if c.background {
        s.push_str(" background");
    }
    if !c.origin.is_top_level() {
        let _ = write!(s, " origin {}", c.origin.describe());
    }
    if let Some(cwd) = &c.cwd {
        let _ = write!(s, " cwd {cwd}");
    }
    if c.recursive_call {
        s.push_str(" recursive-call");
    }
    s
}

/// The whole script: commands in execution order, then functions and issues.
pub fn render_script(script: &Script) -> String {
    let mut s = String::new();
    for c in &script.commands {
        let _ = writeln!(s, "{}", render_command(c));
    }
    for f in &script.functions {
        let _ = writeln!(
            s,
            "function {}{}",
            f.name,
            if f.called { " (called)" } else { "" }
        );
    }
    for i in &script.issues {
        let _ = writeln!(s, "issue {:?}: {}", i.kind, i.message);
    }
    s
}
