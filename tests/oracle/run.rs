//! Running cases through the sandbox and the analyser in parallel, and sorting what differs
//! into divergence classes.

use std::collections::BTreeMap;
use std::sync::Mutex;

use shellgate::policy::decide_default;
use shellgate::{Context, Decision, analyze};

use super::compare::{self, Found};
use super::inputs::Case;
use super::sandbox::{Run, Sandbox, show};

/// Cases per bubblewrap start (the start costs about as much as 5 cases).
const BATCH: usize = 120;

/// One case after bash ran it and shellgate analysed it.
#[derive(Debug)]
pub struct Outcome {
    pub case: Case,
    pub run: Run,
    pub decision: Decision,
    /// Logged argvs the model does not contain, with their class.
    pub missing: Vec<(Vec<String>, &'static str)>,
    /// Model commands bash never ran, in scripts without branches.
    pub extra: Vec<String>,
    /// A respelling changed the seed's decision.
    pub decision_lost: bool,
}

fn workers() -> usize {
    std::env::var("SG_ORACLE_JOBS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
        })
        .max(1)
}

/// Absolute program paths the cases mention, so the sandbox can stub them.
pub fn stub_paths(cases: &[Case]) -> Vec<String> {
    let mut set = std::collections::BTreeSet::new();
    for dir in ["/usr/bin", "/usr/sbin", "/bin", "/sbin"] {
        if let Ok(rd) = std::fs::read_dir(dir) {
            for e in rd.flatten() {
                set.insert(format!("{dir}/{}", e.file_name().to_string_lossy()));
            }
        }
    }
    for c in cases {
        for tok in c
            .cmd
            .split(|ch: char| ch.is_whitespace() || "'\";&|()`<>=".contains(ch))
        {
            if tok.starts_with('/')
                && tok.len() > 1
                && !tok.ends_with('/')
                && tok
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || "/._+-".contains(ch))
                && tok.matches('/').count() <= 5
            {
                set.insert(tok.to_string());
            }
        }
    }
    set.into_iter().collect()
}

/// Run every case: bash in the sandbox (batched, `workers()` in parallel), then shellgate.
pub fn run_all(sb: &Sandbox, cases: Vec<Case>) -> Result<Vec<Outcome>, String> {
    let batches: Vec<Vec<Case>> = cases.chunks(BATCH).map(|c| c.to_vec()).collect();
    let next = Mutex::new(0usize);
    let results: Mutex<Vec<(usize, Vec<Outcome>)>> = Mutex::new(Vec::new());
    let error: Mutex<Option<String>> = Mutex::new(None);
    let n = workers();
    std::thread::scope(|s| {
        for w in 0..n {
            let (next, results, error, batches) = (&next, &results, &error, &batches);
            s.spawn(move || {
                let ctx = Context::fixture();
                loop {
                    let i = {
                        let Ok(mut g) = next.lock() else { return };
                        let i = *g;
                        *g += 1;
                        i
                    };
                    let Some(batch) = batches.get(i) else { return };
                    if error.lock().map(|e| e.is_some()).unwrap_or(true) {
                        return;
                    }
                    let cmds: Vec<String> = batch.iter().map(|c| c.cmd.clone()).collect();
                    match sb.run_batch(&cmds, w as u32) {
                        Ok(runs) => {
                            let outs: Vec<Outcome> = batch
                                .iter()
                                .cloned()
                                .zip(runs)
                                .map(|(case, run)| judge(case, run, &ctx))
                                .collect();
                            if let Ok(mut r) = results.lock() {
                                r.push((i, outs));
                            }
                        }
                        Err(e) => {
                            if let Ok(mut g) = error.lock() {
                                *g = Some(e);
                            }
                            return;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = error.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut r = results
        .into_inner()
        .map_err(|_| "a worker panicked".to_string())?;
    r.sort_by_key(|(i, _)| *i);
    Ok(r.into_iter().flat_map(|(_, o)| o).collect())
}

fn judge(case: Case, run: Run, ctx: &Context) -> Outcome {
    let a = analyze(&case.cmd, ctx);
    let mut missing = Vec::new();
    for argv in &run.argvs {
        if compare::find(&a.script, argv) == Found::Missing {
            missing.push((argv.clone(), classify(&case.cmd, argv, &run, &a)));
        }
    }
    // NFKC-normalised text is not what bash runs (see the allowed class).
    let extra = if branchless(&case.cmd)
        && case.cmd.is_ascii()
        && !run.timed_out
        && a.script.issues.is_empty()
    {
        over_approximations(&a.script, &run.argvs)
    } else {
        Vec::new()
    };
    let decision = decide_default(&a);
    let decision_lost = match case.keep.as_deref() {
        Some("deny") => decision != Decision::Deny,
        Some("ask") => decision == Decision::Allow,
        _ => false,
    };
    Outcome {
        case,
        run,
        decision,
        missing,
        extra,
        decision_lost,
    }
}

/// Builtins that stay enabled in the sandbox (so bash never logs them).
const ENABLED_BUILTINS: &[&str] = &[
    "cd",
    "pushd",
    "popd",
    "export",
    "declare",
    "typeset",
    "local",
    "readonly",
    "eval",
    "exec",
    "command",
    "source",
    ".",
    "set",
    "unset",
    "alias",
    "unalias",
    "trap",
    "let",
    "shift",
    "enable",
    "builtin",
    "shopt",
    "getopts",
    "return",
    "exit",
    "break",
    "continue",
    "read",
    "mapfile",
    "readarray",
    ":",
    "caller",
    "complete",
    "compgen",
    "compopt",
    "dirs",
    "bind",
    "coproc",
];

/// Text without any branching: no `&& || if case while until for select`, functions, `&`,
/// `exit`, `exec`, `|` (a stage may be cut short), nor `set -e`.
fn branchless(cmd: &str) -> bool {
    let bad_tokens = [
        "&", "|", "exit", "exec", "return", "if", "case", "while", "until", "for", "select",
        "function", "set", "trap", "eval", "source", ".", "xargs", "find", "time",
    ];
    let toks: Vec<&str> = cmd
        .split(|c: char| c.is_whitespace() || ";()".contains(c))
        .filter(|t| !t.is_empty())
        .collect();
    !cmd.contains("()")
        && !cmd.contains('&')
        && !cmd.contains('|')
        && !toks.iter().any(|t| bad_tokens.contains(t))
}

fn over_approximations(script: &shellgate::model::Script, logged: &[Vec<String>]) -> Vec<String> {
    let fns: Vec<&str> = script.functions.iter().map(|f| f.name.as_str()).collect();
    let mut out = Vec::new();
    for c in compare::expected_to_run(script, &[]) {
        let name = c.argv[0].text_with("\u{fffd}");
        let base = name.rsplit('/').next().unwrap_or(&name);
        // Not comparable in the sandbox: words that came from an expansion (`printf -v`
        // assigns in the handler's own process), redirects (a file to read or a directory to
        // write into does not exist there, so bash skips the command), non-ASCII text (NFKC).
        let redirected = c.redirects.iter().any(|r| {
            r.op != shellgate::model::RedirectOp::DupFd
                && r.target.as_ref().and_then(|t| t.lit()).as_deref() != Some("/dev/null")
        });
        if name.contains('\u{fffd}')
            || ENABLED_BUILTINS.contains(&base)
            || fns.contains(&base)
            || name.contains('/') && !name.starts_with('/')
            || c.argv
                .iter()
                .any(|w| !w.is_literal() || !w.notes.is_empty() || !w.raw.is_ascii())
            || redirected
        {
            continue;
        }
        // `%5` is a job specification (`fg %5`), not a program; `exec PROG` replaces the shell
        // without the handler; a process substitution runs in the background and may be
        // killed with the case before it logs; a program path outside the stub directories
        // exists in the sandbox only when a stub could be made for it.
        let stub_dir = [
            "/bin/",
            "/sbin/",
            "/usr/bin/",
            "/usr/sbin/",
            "/usr/local/bin/",
        ]
        .iter()
        .any(|d| name.starts_with(d));
        if name.starts_with('%')
            || c.wrappers.iter().any(|w| w.name == "exec")
            || c.origin
                .steps
                .iter()
                .any(|s| s.kind == shellgate::model::OriginKind::ProcessSubstitution)
            || (name.starts_with('/') && !stub_dir)
        {
            continue;
        }
        // A wrapped command runs inside its wrapper, which the sandbox only logs.
        if let Some(w) = c.wrappers.first() {
            let wb = w.name.rsplit('/').next().unwrap_or(&w.name);
            if logged
                .iter()
                .any(|a| a.first().is_some_and(|p| p.rsplit('/').next() == Some(wb)))
            {
                continue;
            }
        }
        let forms = compare::forms(c);
        if !logged
            .iter()
            .any(|argv| forms.iter().any(|f| compare::seq_match(f, argv)))
        {
            out.push(
                c.argv
                    .iter()
                    .map(|w| w.text_with("?"))
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
    }
    out
}

/// The divergence class of one argv bash ran that the model lacks.
pub fn classify(cmd: &str, argv: &[String], run: &Run, a: &shellgate::Analysis) -> &'static str {
    use shellgate::model::IssueKind;
    let lines: Vec<&str> = cmd.lines().collect();
    if run.corrupt {
        return "log-corrupt";
    }
    // shellgate said it could not follow this far (nesting, size, command limits): never allow.
    if decide_default(a) != Decision::Allow
        && a.script.issues.iter().any(|i| {
            matches!(
                i.kind,
                IssueKind::NestingLimit | IssueKind::SizeLimit | IssueKind::CommandLimit
            )
        })
    {
        return "analysis-limit-reported";
    }
    // shellgate said the text did not parse: never allow, the fallback catalog scans it.
    if decide_default(a) != Decision::Allow
        && a.script
            .issues
            .iter()
            .any(|i| i.kind == IssueKind::ParseError)
    {
        return "parse-error-reported";
    }
    // A variable assigned in a branch that may not run (`a || X=/; rm -rf $X`) is taken with
    // its assigned value, the stricter reading; bash ran the branch where it stayed unset.
    // When the variable was the program word (`a || RM="rm -rf"; $RM build`), bash ran the
    // remaining words alone: the model's argv ends with bash's.
    let expanded = |w: &shellgate::model::Word| {
        w.notes
            .iter()
            .any(|n| matches!(n, shellgate::model::WordNote::Expanded { .. }))
    };
    if (cmd.contains("||") || cmd.contains("&&"))
        && a.script.commands.iter().any(|c| {
            // The program may be one bash's argv reaches through a wrapper it kept
            // (`sudo bash -c "rm -rf $X"` is the model's `bash -c ..` under sudo).
            let program = c.argv.first().and_then(|w| w.lit());
            let same_program =
                program.is_some_and(|p| argv.contains(&p)) && c.argv.iter().any(expanded);
            let lits: Vec<Option<String>> = c.argv.iter().map(|w| w.lit()).collect();
            let program_was_variable = c.argv.first().is_some_and(expanded)
                && lits.len() > argv.len()
                && lits[lits.len() - argv.len()..]
                    .iter()
                    .zip(argv)
                    .all(|(m, b)| m.as_deref().is_none_or(|m| m == b));
            same_program || program_was_variable
        })
    {
        return "branch-assigned-variable";
    }
    // Under `shopt -s nullglob` a glob that matches nothing is removed: the model's argv
    // without its glob words is bash's.
    if cmd.contains("nullglob")
        && a.script.commands.iter().any(|c| {
            let kept: Vec<Option<String>> = c
                .argv
                .iter()
                .filter(|w| !w.has_glob())
                .map(|w| w.lit())
                .collect();
            kept.len() == argv.len()
                && kept.len() < c.argv.len()
                && kept
                    .iter()
                    .zip(argv)
                    .all(|(m, b)| m.as_deref().is_none_or(|m| m == b))
        })
    {
        return "glob-result";
    }
    // `~name` for a user the sandbox does not have stays literal in bash.
    if argv
        .iter()
        .any(|x| x.starts_with('~') && x.len() > 1 && !x.starts_with("~/"))
    {
        return "unknown-user";
    }
    if argv.iter().any(|a| !a.is_ascii()) {
        return "non-ascii-normalisation";
    }
    if cmd.contains("\\\n") || cmd.contains("\\\r\n") {
        return "line-continuation";
    }
    let redirect_then_word = regex_lite_redirect_then_word(cmd);
    if lines.len() > 1
        && lines
            .iter()
            .take(lines.len() - 1)
            .any(|l| l.matches('|').count() >= 2)
    {
        return "newline-after-pipeline";
    }
    if redirect_then_word {
        return "redirect-destination-words";
    }
    if argv.iter().any(|a| !a.is_ascii()) {
        return "non-ascii-normalisation";
    }
    if ["-c'", "-c\"", "-e'", "-e\"", "-E'", "-r'", "-p'", "--eval="]
        .iter()
        .any(|p| cmd.contains(p))
    {
        return "attached-option-value";
    }
    if cmd.contains("<<") {
        return "heredoc";
    }
    if run.timed_out {
        return "timeout";
    }
    "unclassified"
}

/// A redirect followed by a plain word on the same command (`rm 2>/dev/null -rf ~`).
fn regex_lite_redirect_then_word(cmd: &str) -> bool {
    let b = cmd.as_bytes();
    let mut i = 0;
    let (mut sq, mut dq) = (false, false);
    while i < b.len() {
        let c = b[i];
        if sq {
            sq = c != b'\'';
        } else if c == b'\\' {
            i += 1;
        } else if dq {
            dq = c != b'"';
        } else if c == b'\'' {
            sq = true;
        } else if c == b'"' {
            dq = true;
        } else if (c == b'>' || c == b'<')
            && b.get(i + 1) != Some(&b'(')
            && b.get(i + 1) != Some(&b'<')
        {
            // Skip the operator and its target, then look at what follows on the line.
            let mut j = i + 1;
            while j < b.len() && matches!(b[j], b'>' | b'&' | b'|') {
                j += 1;
            }
            while j < b.len() && b[j] == b' ' {
                j += 1;
            }
            while j < b.len() && !matches!(b[j], b' ' | b'\n' | b';' | b'&' | b'|' | b')') {
                j += 1;
            }
            while j < b.len() && b[j] == b' ' {
                j += 1;
            }
            if j < b.len()
                && !matches!(
                    b[j],
                    b'\n' | b';' | b'&' | b'|' | b')' | b'#' | b'<' | b'>' | b'}'
                )
                && !b[j].is_ascii_digit()
            {
                return true;
            }
            i = j;
            continue;
        }
        i += 1;
    }
    false
}

/// A report of every divergence, grouped by class, with up to `per_class` examples each.
pub fn report(outs: &[Outcome], per_class: usize) -> (BTreeMap<&'static str, usize>, String) {
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut examples: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for o in outs {
        for (argv, class) in &o.missing {
            *counts.entry(class).or_default() += 1;
            let ex = examples.entry(class).or_default();
            if ex.len() < per_class {
                ex.push(format!(
                    "  [{}] {:?}\n      bash ran: {}",
                    o.case.group,
                    o.case.cmd,
                    show(argv)
                ));
            }
        }
        if !o.extra.is_empty() {
            *counts.entry("over-approximation").or_default() += o.extra.len();
            let ex = examples.entry("over-approximation").or_default();
            if ex.len() < per_class {
                ex.push(format!(
                    "  [{}] {:?}\n      never ran: {:?}",
                    o.case.group, o.case.cmd, o.extra
                ));
            }
        }
        if o.decision_lost {
            *counts.entry("decision-changed").or_default() += 1;
            let ex = examples.entry("decision-changed").or_default();
            if ex.len() < per_class {
                ex.push(format!(
                    "  [{}] {:?} -> {:?} (seed {:?} must stay {})",
                    o.case.group,
                    o.case.cmd,
                    o.decision,
                    o.case.seed.as_deref().unwrap_or(""),
                    o.case.keep.as_deref().unwrap_or("")
                ));
            }
        }
    }
    let mut s = String::new();
    for (class, n) in &counts {
        s.push_str(&format!("{class}: {n}\n"));
        for e in examples.get(class).into_iter().flatten() {
            s.push_str(e);
            s.push('\n');
        }
    }
    (counts, s)
}
