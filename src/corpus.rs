//! Labelled corpora: loading cases (the repo's TOML format or JSONL), running them through
//! [`crate::analyze`], and reporting every mismatch at once as a unified diff.
//!
//! Repo format (`corpus/*.toml`):
//! ```toml
//! source = "where these commands come from"   # default for every case
//! [[case]]
//! cmd = "rm -rf /"
//! expect = "deny"            # allow | ask | deny
//! rules = ["SG1001"]         # optional: exact set of rule codes that must fire
//! source = "..."             # optional, overrides the file's source
//! note = "why this is the right answer"   # optional
//! ```
//! JSONL (`*.jsonl`): one `{"cmd": ..., "expect": ..., "rules": [...]}` per line.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::{Context, Decision, analyze};

/// One labelled command. In the repo's TOML files unknown fields are an error: a typo such
/// as `rule = [...]` must not pass silently as a case with no rule check.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub cmd: String,
    pub expect: String,
    #[serde(default)]
    pub rules: Option<Vec<String>>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
}

/// A JSONL line: the case's fields, other fields (ids, categories of shared sets) ignored.
#[derive(Debug, Deserialize)]
struct JsonCase {
    cmd: String,
    expect: String,
    #[serde(default)]
    rules: Option<Vec<String>>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlFile {
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    case: Vec<Case>,
}

/// A case with where it was loaded from.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub file: PathBuf,
    /// 0-based index of the case in its file.
    pub index: usize,
    pub case: Case,
}

/// The outcome of one case.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub loaded: Loaded,
    pub decision: Decision,
    pub rules: Vec<String>,
    pub ok: bool,
}

/// Every corpus file under `path` (a file, or a directory searched recursively).
pub fn files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    let rd = std::fs::read_dir(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files(&p)?);
        } else if matches!(
            p.extension().and_then(|x| x.to_str()),
            Some("toml" | "jsonl")
        ) {
            out.push(p);
        }
    }
    out.sort();
    Ok(out)
}

/// Load one corpus file.
pub fn load(path: &Path) -> Result<Vec<Loaded>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let cases: Vec<Case> = if path.extension().and_then(|x| x.to_str()) == Some("jsonl") {
        let mut v = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let c: JsonCase = serde_json::from_str(line).map_err(|e| {
                format!(
                    "{}:{}: not a corpus case ({e}); expected {{\"cmd\", \"expect\", \"rules\"?}}",
                    path.display(),
                    i + 1
                )
            })?;
            v.push(Case {
                cmd: c.cmd,
                expect: c.expect,
                rules: c.rules,
                source: c.source,
                note: c.note,
            });
        }
        v
    } else {
        let f: TomlFile = toml::from_str(&text)
            .map_err(|e| format!("{}: not a corpus file: {e}", path.display()))?;
        f.case
            .into_iter()
            .map(|mut c| {
                if c.source.is_none() {
                    c.source = f.source.clone();
                }
                c
            })
            .collect()
    };
    for c in &cases {
        if !matches!(c.expect.as_str(), "allow" | "ask" | "deny") {
            return Err(format!(
                "{}: case {:?} expects {:?}; use allow, ask or deny",
                path.display(),
                c.cmd,
                c.expect
            ));
        }
    }
    Ok(cases
        .into_iter()
        .enumerate()
        .map(|(index, case)| Loaded {
            file: path.to_path_buf(),
            index,
            case,
        })
        .collect())
}

/// Run one case under `ctx`.
pub fn run_case(l: &Loaded, ctx: &Context) -> Outcome {
    let a = analyze(&l.case.cmd, ctx);
    let decision = crate::policy::decide_default(&a);
    let mut rules: Vec<String> = a.findings.iter().map(|f| f.rule.to_string()).collect();
    rules.sort();
    rules.dedup();
    let decision_ok = decision.as_str() == l.case.expect;
    let rules_ok = match &l.case.rules {
        Some(expected) => {
            let mut e = expected.clone();
            e.sort();
            e.dedup();
            e == rules
        }
        None => true,
    };
    Outcome {
        loaded: l.clone(),
        decision,
        rules,
        ok: decision_ok && rules_ok,
    }
}

fn render(decision: &str, rules: &[String]) -> String {
    format!("decision: {decision}\nrules: [{}]\n", rules.join(", "))
}

/// A unified diff of expected vs actual for a failed case.
pub fn diff(o: &Outcome) -> String {
    let c = &o.loaded.case;
    let expected = render(&c.expect, c.rules.as_deref().unwrap_or(&o.rules));
    let actual = render(o.decision.as_str(), &o.rules);
    let header = format!(
        "{} case #{}: {}{}",
        o.loaded.file.display(),
        o.loaded.index + 1,
        c.cmd.replace('\n', "\\n"),
        c.source
            .as_deref()
            .map(|s| format!("  (source: {s})"))
            .unwrap_or_default()
    );
    let d = similar::TextDiff::from_lines(&expected, &actual);
    format!(
        "{header}\n{}",
        d.unified_diff()
            .context_radius(3)
            .header("expected", "actual")
    )
}

/// Load and run every case under `paths`.
pub fn run_paths(paths: &[PathBuf], ctx: &Context) -> Result<Vec<Outcome>, String> {
    let mut out = Vec::new();
    for p in paths {
        for f in files(p)? {
            for l in load(&f)? {
                out.push(run_case(&l, ctx));
            }
        }
    }
    Ok(out)
}

/// Rewrite expectations of the failed cases in a repo-format (TOML) file to what shellgate
/// now answers, keeping comments and layout. Returns how many cases changed.
pub fn update_file(path: &Path, outcomes: &[&Outcome]) -> Result<usize, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let Some(cases) = doc.get_mut("case").and_then(|c| c.as_array_of_tables_mut()) else {
        return Ok(0);
    };
    let mut changed = 0;
    for o in outcomes {
        let Some(t) = cases.get_mut(o.loaded.index) else {
            continue;
        };
        t["expect"] = toml_edit::value(o.decision.as_str());
        if t.contains_key("rules") || !o.rules.is_empty() {
            let mut arr = toml_edit::Array::new();
            for r in &o.rules {
                arr.push(r.as_str());
            }
            t["rules"] = toml_edit::value(arr);
        }
        changed += 1;
    }
    std::fs::write(path, doc.to_string())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelt_case_field_is_an_error() {
        let dir = std::env::temp_dir().join(format!("sg-corpus-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let f = dir.join("typo.toml");
        let written = std::fs::write(
            &f,
            "[[case]]\ncmd = \"rm -rf /\"\nexpect = \"deny\"\nrule = [\"SG1001\"]\n",
        );
        assert!(written.is_ok());
        let err = load(&f).err().unwrap_or_default();
        assert!(err.contains("rule"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
