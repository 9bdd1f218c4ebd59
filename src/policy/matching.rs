//! What the policy matches against: deny globs over the normalised command and each lowered
//! simple command, the target of every finding, and the allowlist entries that cover one.

use crate::model::{Command, Word};
use crate::rules::{self, Category, Finding};
use crate::{Analysis, Span};

use super::store::FindingKey;
use crate::glob;

/// Collapse runs of whitespace to one space and trim.
pub fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn slice(text: &str, span: Span) -> Option<&str> {
    text.get(span.start..span.end.min(text.len()))
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// The key of a finding: its rule, its target (the text of the pipeline or command it is
/// in, so an approval never reaches a different command), and its message (which names the
/// resolved path, remote or resource).
pub fn finding_key(a: &Analysis, f: &Finding) -> FindingKey {
    let cmd_span = f.cmd.and_then(|id| a.script.command(id)).map(|c| c.span);
    let mut span = match cmd_span {
        Some(c) => Span::new(c.start.min(f.span.start), c.end.max(f.span.end)),
        None => f.span,
    };
    if let Some(p) = a
        .script
        .pipelines
        .iter()
        .filter(|p| contains(p.span, span))
        .min_by_key(|p| p.span.end - p.span.start)
    {
        span = p.span;
    }
    let target = slice(&a.command, span)
        .map(collapse)
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| collapse(&a.command));
    FindingKey {
        rule: f.rule.to_string(),
        target,
        detail: f.message.clone(),
    }
}

/// A word as matched: its decoded value when known, else its text as written.
fn word_text(w: &Word) -> String {
    w.lit().unwrap_or_else(|| w.raw.clone())
}

/// The texts one lowered command is matched as: the program as a basename with wrappers
/// peeled, and for git also without global options (`git -C r push -f` → `git push -f`)
/// and with `push -f` spelt `--force`.
pub fn command_variants(cmd: &Command) -> Vec<String> {
    let Some(name) = cmd.name.clone().or_else(|| cmd.argv.first().map(word_text)) else {
        return Vec::new();
    };
    let args: Vec<String> = cmd.args().iter().map(word_text).collect();
    let mut out = vec![join(&name, &args)];
    if name == "git"
        && let Some(i) = cmd.opts.subcommand.first().map(|(_, i)| *i)
    {
        let rest: Vec<String> = args.get(i..).unwrap_or(&[]).to_vec();
        out.push(join(&name, &rest));
        if rest.first().map(String::as_str) == Some("push") {
            let long: Vec<String> = rest
                .iter()
                .map(|a| {
                    if a == "-f" {
                        "--force".to_string()
                    } else {
                        a.clone()
                    }
                })
                .collect();
            out.push(join(&name, &long));
        }
    }
    if name == "rm" {
        // `rm -r -f x`, `rm -fR x`, `rm --recursive --force x` also meet `rm -rf *` rules.
        let (operands, recursive) = rules::filesystem::rm_args(cmd);
        let force = cmd.opts.flag('f', "force");
        if recursive && force {
            let ops: Vec<String> = operands.iter().map(|w| word_text(w)).collect();
            let mut v = vec!["-rf".to_string()];
            v.extend(ops);
            out.push(join(&name, &v));
        }
    }
    out.dedup();
    out
}

fn join(name: &str, args: &[String]) -> String {
    let mut s = name.to_string();
    for a in args {
        s.push(' ');
        s.push_str(a);
    }
    s
}

/// Every text deny globs are matched against: the normalised command, each lowered
/// simple command (nested ones included), and each pipeline rebuilt from its lowered
/// commands (so `cu""rl x | s\h` meets `*curl*|*sh*`).
pub fn deny_texts(a: &Analysis) -> Vec<String> {
    let mut out = vec![a.command.clone(), collapse(&a.normalized.text)];
    for c in &a.script.commands {
        out.extend(command_variants(c));
    }
    for p in &a.script.pipelines {
        let stages: Vec<String> = p
            .stages
            .iter()
            .filter_map(|s| s.heads.first())
            .filter_map(|id| a.script.command(*id))
            .filter_map(|c| command_variants(c).into_iter().next())
            .collect();
        if stages.len() > 1 {
            out.push(stages.join(" | "));
        }
    }
    out.dedup();
    out
}

/// The first deny glob that matches, with the text it matched.
pub fn deny_match<'g>(globs: &'g [String], a: &Analysis) -> Option<(&'g str, String)> {
    // No globs (the usual config): the texts would be built only to be dropped.
    if globs.is_empty() {
        return None;
    }
    let texts = deny_texts(a);
    for g in globs {
        for t in &texts {
            if glob::matches_ignore_case(g, t) {
                return Some((g.as_str(), t.clone()));
            }
        }
    }
    None
}

/// One entry of the `allow` ("always") list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AllowEntry {
    /// A rule code or name: every finding of that rule.
    Rule(&'static str),
    /// A Hermes key: every finding that carries it.
    Hermes(String),
    /// `RULE: GLOB`: findings of that rule whose target matches the glob.
    RuleGlob(&'static str, String),
    /// A command glob: findings whose target matches it.
    Glob(String),
}

impl AllowEntry {
    pub fn parse(s: &str) -> AllowEntry {
        let t = s.trim();
        if let Some(r) = rules::find(t) {
            return AllowEntry::Rule(r.meta().code);
        }
        if crate::rules::hermes::HERMES_KEYS
            .iter()
            .any(|k| k.eq_ignore_ascii_case(t))
        {
            return AllowEntry::Hermes(t.to_string());
        }
        if let Some((r, g)) = t.split_once(": ")
            && let Some(rule) = rules::find(r.trim())
        {
            return AllowEntry::RuleGlob(rule.meta().code, g.trim().to_string());
        }
        AllowEntry::Glob(t.to_string())
    }

    /// True when this entry covers the finding. Findings about what shellgate could not
    /// analyse are never covered by the allowlist (only a person who saw the command can
    /// approve them, once or for the session).
    pub fn covers(&self, f: &Finding, key: &FindingKey) -> bool {
        if f.category == Category::Analysis {
            return false;
        }
        match self {
            AllowEntry::Rule(code) => f.rule == *code,
            AllowEntry::Hermes(k) => {
                f.hermes.iter().any(|h| h.eq_ignore_ascii_case(k))
                    || rules::find(f.rule)
                        .is_some_and(|r| r.meta().hermes.iter().any(|h| h.eq_ignore_ascii_case(k)))
            }
            AllowEntry::RuleGlob(code, g) => {
                f.rule == *code && glob::matches_ignore_case(g, &key.target)
            }
            AllowEntry::Glob(g) => glob::matches_ignore_case(g, &key.target),
        }
    }
}

/// The allow entry an "always" answer writes for a finding: its rule and its exact target.
pub fn always_entry(key: &FindingKey) -> String {
    format!("{}: {}", key.rule, glob::escape(&key.target))
}
