//! `approvals suggest`: mine the commands people approved into proposed allowlist entries,
//! ranked by how often they were approved. Destructive classes are never proposed, however
//! often they were approved.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::Severity;
use crate::Span;
use crate::model::{Word, opts};
use crate::rules::{self, Category};

use super::matching::AllowEntry;
use super::store::{LedgerEntry, LedgerFinding};
use crate::glob;

/// Categories never proposed: recursive and other deletes, disk and device writes,
/// credential and system writes, code shellgate cannot see (pipe-to-shell, decoded
/// payloads, eval), SQL DROP/TRUNCATE/DELETE, process killing (the harness included),
/// power state, cloud and cluster destruction, and what could not be analysed.
pub const NEVER_PROPOSED: &[Category] = &[
    Category::Analysis,
    Category::Filesystem,
    Category::Disks,
    Category::SensitiveWrites,
    Category::RemoteCode,
    Category::Sql,
    Category::Processes,
    Category::SelfProtection,
    Category::System,
    Category::Infrastructure,
];

/// Wrappers that run the command as someone else: approvals under them are not proposed.
const PRIVILEGE: &[&str] = &["sudo", "doas", "su", "pkexec", "run0"];

/// One proposed allowlist entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Suggestion {
    /// The entry to add to `allow` (`SG3302: git push *`).
    pub entry: String,
    pub rule: String,
    pub name: String,
    /// How many approvals it stands for.
    pub count: usize,
    /// A few of the approved commands, for the person deciding.
    pub examples: Vec<String>,
}

/// True when findings of this rule may be proposed at all.
pub fn proposable(rule: &str, severity: &str) -> bool {
    if severity == "block" {
        return false;
    }
    match rules::find(rule) {
        Some(r) => {
            let m = r.meta();
            m.severity != Severity::Block && !NEVER_PROPOSED.contains(&m.category)
        }
        // A rule this version does not know: not proposed.
        None => false,
    }
}

/// The pattern proposed for one approved finding: the program and, when it has one, its
/// subcommand, then anything (`git push *`, `docker restart *`).
fn pattern(target: &str) -> Option<String> {
    let words: Vec<&str> = target.split_whitespace().collect();
    let first = *words.first()?;
    if PRIVILEGE.contains(&first) || target.contains(['|', ';', '&', '`', '$', '>', '<']) {
        return None;
    }
    let first = first.rsplit('/').next().unwrap_or(first);
    // The second word is the subcommand when the program's grammar reads it as its first
    // operand or subcommand (not an option), and the pattern must match the text as written.
    let args: Vec<Word> = words
        .iter()
        .skip(1)
        .map(|w| Word::literal(w, Span::default()))
        .collect();
    let o = opts::parse_program(Some(first), &args);
    let second_is_operand =
        o.subcommand.first().map(|(_, i)| *i) == Some(0) || o.operands.first() == Some(&0);
    let sub = words.get(1).filter(|_| second_is_operand).filter(|w| {
        w.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    });
    Some(match sub {
        Some(s) => format!("{} {} *", glob::escape(first), glob::escape(s)),
        None => format!("{} *", glob::escape(first)),
    })
}

/// Proposals from approved ledger entries (`decided_by` person or harness, decision
/// allow): entries approved at least `min_count` times, most approved first, leaving out
/// destructive classes and what `existing` allow entries already cover.
pub fn suggest(approved: &[LedgerEntry], min_count: usize, existing: &[String]) -> Vec<Suggestion> {
    let existing: Vec<AllowEntry> = existing.iter().map(|e| AllowEntry::parse(e)).collect();
    let mut by_entry: BTreeMap<String, Suggestion> = BTreeMap::new();
    for e in approved {
        for f in &e.findings {
            let Some(s) = one(f, &existing) else {
                continue;
            };
            let slot = by_entry.entry(s.clone()).or_insert_with(|| Suggestion {
                entry: s,
                rule: f.rule.clone(),
                name: f.name.clone(),
                count: 0,
                examples: Vec::new(),
            });
            slot.count += 1;
            if slot.examples.len() < 3 && !slot.examples.contains(&e.command) {
                slot.examples.push(e.command.clone());
            }
        }
    }
    let mut out: Vec<Suggestion> = by_entry
        .into_values()
        .filter(|s| s.count >= min_count.max(1))
        .collect();
    out.sort_by(|a, b| b.count.cmp(&a.count).then(a.entry.cmp(&b.entry)));
    out
}

fn one(f: &LedgerFinding, existing: &[AllowEntry]) -> Option<String> {
    if !proposable(&f.rule, &f.severity) {
        return None;
    }
    let p = pattern(&f.target)?;
    let entry = format!("{}: {p}", f.rule);
    let already = existing.iter().any(|x| match x {
        AllowEntry::Rule(code) => *code == f.rule,
        AllowEntry::RuleGlob(code, g) => {
            *code == f.rule && (g == &p || glob::matches_ignore_case(g, &p))
        }
        AllowEntry::Glob(g) => g == &p || glob::matches_ignore_case(g, &p),
        AllowEntry::Hermes(k) => rules::find(&f.rule)
            .is_some_and(|r| r.meta().hermes.iter().any(|h| h.eq_ignore_ascii_case(k))),
    });
    (!already).then_some(entry)
}
