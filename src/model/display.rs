//! The lowered model as text (`explain --model`, the grammar tests): `Display` for
//! [`Script`] and [`Command`], written with `fmt::Write` so errors propagate.

use std::fmt;

use super::{Command, RedirectOp, Script};
use crate::text::{display_text, quote};

fn redirect_op(op: RedirectOp) -> &'static str {
    match op {
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

impl fmt::Display for Command {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self;
        let name = c.name.as_deref().unwrap_or("(unknown program)");
        writeln!(
            out,
            "#{} {}  [{}..{}]",
            c.id, name, c.span.start, c.span.end
        )?;
        let argv: Vec<String> = c.argv.iter().map(|w| quote(&w.shown())).collect();
        if argv.is_empty() {
            writeln!(out, "  argv: (none: only assignments)")?;
        } else {
            writeln!(out, "  argv: {}", argv.join(" "))?;
        }
        for a in &c.assignments {
            writeln!(out, "  assigns: {}={}", a.name, quote(&a.value.shown()))?;
        }
        for w in &c.wrappers {
            writeln!(out, "  wrapper: {} {}", w.name, w.args.join(" "))?;
        }
        writeln!(out, "  origin: {}", c.origin.describe())?;
        if let Some(cwd) = &c.cwd {
            writeln!(out, "  cwd: {cwd}")?;
        }
        for r in &c.redirects {
            let fd = r.fd.map(|f| f.to_string()).unwrap_or_default();
            let target = match (&r.target, &r.heredoc) {
                (Some(t), _) => quote(&t.shown()),
                (None, Some(h)) => match &h.body {
                    Some(b) => format!("heredoc {}", quote(b.trim_end())),
                    None => "heredoc (expanded at run time)".to_string(),
                },
                (None, None) => String::new(),
            };
            match (r.op, &r.target) {
                // `2>&1` reads as one token; spacing it out would suggest a file named `1`.
                (RedirectOp::DupFd, Some(t)) => {
                    writeln!(out, "  redirect: {fd}>&{}", display_text(&t.shown()))?;
                }
                _ => writeln!(out, "  redirect: {fd}{} {target}", redirect_op(r.op))?,
            }
        }
        if let Some(p) = c.pipe {
            writeln!(
                out,
                "  pipe: pipeline {} stage {}/{}",
                p.pipeline,
                p.stage + 1,
                p.stages
            )?;
        }
        if c.background {
            writeln!(out, "  background: yes (&)")?;
        }
        if !c.functions.is_empty() {
            writeln!(out, "  inside function: {}", c.functions.join(" → "))?;
        }
        if c.recursive_call {
            writeln!(out, "  recursive call: yes")?;
        }
        if let Some(s) = &c.synthetic {
            writeln!(out, "  synthetic: {s}")?;
        }
        if let Some(s) = &c.stdin_text {
            let short: String = s.chars().take(80).collect();
            writeln!(out, "  stdin: {}", quote(&short))?;
        }
        Ok(())
    }
}

impl fmt::Display for Script {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.commands.is_empty() {
            writeln!(out, "(no commands)")?;
        }
        for c in &self.commands {
            write!(out, "{c}")?;
        }
        for f in &self.functions {
            writeln!(
                out,
                "function {} [{}..{}]{}",
                f.name,
                f.span.start,
                f.span.end,
                if f.called { " (called)" } else { "" }
            )?;
        }
        for i in &self.issues {
            writeln!(
                out,
                "issue {:?} [{}..{}]: {} ({})",
                i.kind,
                i.span.start,
                i.span.end,
                i.message,
                i.origin.describe()
            )?;
        }
        Ok(())
    }
}
