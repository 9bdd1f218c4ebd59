//! Execution oracle: bash itself runs every case inside bubblewrap, where no program exists
//! and every external command (and every disabled builtin) is logged with its argv; each argv
//! bash executed must be among the simple commands shellgate lowered. Inputs: the repo
//! corpus, a fixed sample of `../shared/corpora/` (skipped with a message when absent),
//! generated multi-line scripts, and metamorphic respellings of every dangerous corpus command
//! (which must also keep their decision). Design and divergence classes: docs/FIDELITY.md.
//! If the sandbox cannot start, the tests fail and say why; they never skip silently.
#![expect(
    clippy::print_stderr,
    reason = "the test reports its coverage figures on stderr"
)]

mod oracle;

use std::time::Instant;

use oracle::inputs::{self, Case, Rng};
use oracle::run::{self, Outcome};
use oracle::sandbox::Sandbox;

/// Divergence classes that come from the sandbox or from deliberate strictness, not from a
/// model bug, with the reason each is allowed. Everything else fails the test.
const ALLOWED: &[(&str, &str)] = &[
    (
        "non-ascii-normalisation",
        "shellgate judges the NFKC-normalised text (fullwidth `ｒｍ` is judged as `rm`); bash \
         runs the original bytes",
    ),
    (
        "parse-error-reported",
        "shellgate reported the text as not parsed (SG0001), so the decision is never allow \
         and the fallback catalog scans the text",
    ),
    (
        "analysis-limit-reported",
        "shellgate stopped at a documented limit (nesting, size, command count) and said so; \
         the decision is never allow",
    ),
    (
        "branch-assigned-variable",
        "a variable assigned in a branch that may not run (`a || X=/; rm -rf $X`) keeps its \
         assigned value in the model, the stricter of the two values bash may see",
    ),
    (
        "glob-result",
        "a word with an unquoted glob that matched nothing in the sandbox vanished under \
         `shopt -s nullglob`; the model keeps the pattern word (which files a glob matches \
         is not compared)",
    ),
    (
        "unknown-user",
        "the sandbox has only the users root and user; bash leaves `~name` of any other user \
         unexpanded where shellgate assumes /home/name",
    ),
];

fn sandbox(cases: &[Case]) -> Sandbox {
    Sandbox::new(&run::stub_paths(cases)).unwrap_or_else(|e| panic!("{e}"))
}

fn check(name: &str, cases: Vec<Case>) -> Vec<Outcome> {
    let start = Instant::now();
    // bash receives the command as one argv string, which cannot hold a NUL byte.
    let (cases, nul): (Vec<Case>, Vec<Case>) =
        cases.into_iter().partition(|c| !c.cmd.contains('\0'));
    if !nul.is_empty() {
        eprintln!(
            "execution oracle [{name}]: {} cases contain a NUL byte and cannot be given to bash",
            nul.len()
        );
    }
    let n = cases.len();
    let sb = sandbox(&cases);
    let outs = run::run_all(&sb, cases).unwrap_or_else(|e| panic!("{e}"));
    let (counts, text) = run::report(&outs, 8);
    let argvs: usize = outs.iter().map(|o| o.run.argvs.len()).sum();
    let timeouts = outs.iter().filter(|o| o.run.timed_out).count();
    let summary = format!(
        "execution oracle [{name}]: {n} cases, {argvs} argvs bash ran, {timeouts} timed out, {:.1}s",
        start.elapsed().as_secs_f64()
    );
    eprintln!("{summary}");
    if let Ok(dir) = std::env::var("SG_ORACLE_REPORT") {
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(
            format!("{dir}/{name}.txt"),
            format!("{summary}\n{}", run::report(&outs, usize::MAX).1),
        );
    }
    let bad: Vec<&&str> = counts
        .keys()
        .filter(|c| !ALLOWED.iter().any(|(a, _)| a == *c))
        .collect();
    eprintln!("{text}");
    assert!(
        bad.is_empty(),
        "execution oracle [{name}]: divergences in classes {bad:?} (see above)"
    );
    outs
}

#[test]
fn every_argv_bash_runs_is_in_the_model() {
    let mut rng = Rng::new(inputs::SEED);
    let corpus = inputs::corpus_cases();
    let mut cases: Vec<Case> = corpus
        .iter()
        .map(|(c, _)| Case {
            cmd: c.clone(),
            group: "corpus".into(),
            keep: None,
            seed: None,
        })
        .collect();
    let mut pool: Vec<String> = corpus.iter().map(|(c, _)| c.clone()).collect();
    match inputs::shared_corpora() {
        Some(dir) => {
            let sample = inputs::shared_sample(&dir, 4000);
            assert!(
                sample.len() >= 5000,
                "the shared sample has only {} commands",
                sample.len()
            );
            pool.extend(sample.iter().map(|(c, _)| c.clone()));
            cases.extend(sample.into_iter().map(|(c, g)| Case {
                cmd: c,
                group: g,
                keep: None,
                seed: None,
            }));
        }
        None => eprintln!(
            "execution oracle: ../shared/corpora is not present; the shared-corpus sample is skipped"
        ),
    }
    for s in inputs::scripts(&pool, 3000, &mut rng) {
        cases.push(Case {
            cmd: s,
            group: "script".into(),
            keep: None,
            seed: None,
        });
    }
    check("inputs", cases);
}

#[test]
fn respellings_run_the_same_commands_and_keep_their_decision() {
    let mut rng = Rng::new(inputs::SEED ^ 1);
    let mut cases = Vec::new();
    for (cmd, expect) in inputs::corpus_cases() {
        if expect != "deny" && expect != "ask" {
            continue;
        }
        if !oracle::support_passing(&cmd, &expect) {
            continue;
        }
        for (r, kind) in inputs::respellings(&cmd, &mut rng) {
            cases.push(Case {
                cmd: r,
                group: format!("respell:{kind}"),
                keep: Some(expect.clone()),
                seed: Some(cmd.clone()),
            });
        }
    }
    check("respellings", cases);
}

/// Print what bash ran for a few cases (`SG_CASES`, separated by `\x01`).
#[test]
#[ignore = "debugging aid: SG_CASES=... cargo test --test exec_oracle debug_batch -- --ignored --nocapture"]
fn debug_batch() {
    let cmds: Vec<String> = std::env::var("SG_CASES")
        .unwrap_or_default()
        .split("\u{1}")
        .map(str::to_string)
        .collect();
    let sb = Sandbox::new(&[]).unwrap_or_else(|e| panic!("{e}"));
    for (c, r) in cmds
        .iter()
        .zip(sb.run_batch(&cmds, 0).unwrap_or_else(|e| panic!("{e}")))
    {
        eprintln!("{c:?} => {r:?}");
    }
}
