//! Word decoding checked against real bash: generated shell words (quotes, backslashes,
//! `$'..'` escapes, braces, tildes, `$V` with a value set in the script) are printed by
//! `bash -c 'V=..; printf "%s\0" WORDS'` and compared with the argv shellgate decodes for
//! the same script, wherever shellgate claims every word is a literal (`Word::lit()`).
//! A second mode compares assignment values (`X=WORD; printf "%s\0" "$X"`).
//!
//! bash runs with `HOME=/home/user` (the fixture's home) in an empty directory, so globs
//! match nothing and stay literal. Skips when bash is not installed.

mod support;

use std::process::Command;

use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use shellgate::policy::decide_default;
use shellgate::{Context, analyze};

fn have_bash() -> bool {
    Command::new("bash")
        .args(["-c", "true"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// Run `script` in bash and split its NUL-terminated output.
fn bash_fields(script: &str, dir: &std::path::Path) -> Option<Vec<Vec<u8>>> {
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", script])
        .env_clear()
        .env("HOME", "/home/user")
        .env("PATH", "/usr/bin:/bin")
        .env("LC_ALL", "C.UTF-8")
        .current_dir(dir)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let mut v: Vec<Vec<u8>> = out.stdout.split(|&b| b == 0).map(|s| s.to_vec()).collect();
    // printf's output ends with a NUL: the last split piece is empty.
    if v.last().is_some_and(|l| l.is_empty()) {
        v.pop();
    }
    Some(v)
}

/// One piece of a generated word, as source text.
fn segment() -> impl Strategy<Value = String> {
    let plain = "[a-z0-9._/=:,@%+-]{1,4}";
    let sq = "[ a-z$\"\\\\`*{},~]{0,5}".prop_map(|s| format!("'{s}'"));
    let dq_piece = prop_oneof![
        "[ a-z'*~{},]{1,3}",
        Just("\\\"".to_string()),
        Just("\\\\".to_string()),
        Just("\\$".to_string()),
        Just("\\`".to_string()),
        Just("\\x".to_string()),
        Just("\\'".to_string()),
        Just("$V".to_string()),
        Just("${V}".to_string()),
        Just("${V:-d}".to_string()),
        Just("${#V}".to_string()),
        Just("$U".to_string()),
    ];
    let dq = prop::collection::vec(dq_piece, 0..4).prop_map(|v| format!("\"{}\"", v.concat()));
    let backslash = "[ a-z$'\"*?~{}#;&|<>()=\\\\]".prop_map(|c| format!("\\{c}"));
    let ansi_piece = prop_oneof![
        "[ a-z\"$]{1,3}",
        Just("\\n".to_string()),
        Just("\\t".to_string()),
        Just("\\\\".to_string()),
        Just("\\'".to_string()),
        Just("\\\"".to_string()),
        Just("\\a".to_string()),
        Just("\\e".to_string()),
        Just("\\E".to_string()),
        Just("\\?".to_string()),
        Just("\\q".to_string()),
        (0u8..128).prop_map(|b| format!("\\x{b:x}")),
        (1u8..128).prop_map(|b| format!("\\{b:o}")),
        Just("\\0".to_string()),
        Just("\\x".to_string()),
        Just("\\u00e9".to_string()),
        Just("\\U0001F600".to_string()),
        Just("\\cA".to_string()),
        Just("\\c?".to_string()),
    ];
    let ansi = prop::collection::vec(ansi_piece, 0..4).prop_map(|v| format!("$'{}'", v.concat()));
    let braces = prop_oneof![
        Just("{a,b}".to_string()),
        Just("{x,}".to_string()),
        Just("{1..3}".to_string()),
        Just("{a}".to_string()),
        Just("{,}".to_string()),
        Just("{a,b{c,d}}".to_string()),
        Just("{'a,b',c}".to_string()),
        Just("\\{a,b}".to_string()),
    ];
    let var = prop_oneof![
        Just("$V".to_string()),
        Just("${V}".to_string()),
        Just("${V:-d}".to_string()),
        Just("${V:+set}".to_string()),
        Just("${U:-d}".to_string()),
        Just("${#V}".to_string()),
        Just("$U".to_string()),
    ];
    let glob = prop_oneof![
        Just("*".to_string()),
        Just("?".to_string()),
        Just("[ab]".to_string())
    ];
    prop_oneof![
        4 => plain,
        2 => sq,
        2 => dq,
        2 => backslash,
        2 => ansi,
        1 => braces,
        1 => var,
        1 => glob,
    ]
}

/// A word: an optional leading tilde form, then segments.
fn word() -> impl Strategy<Value = String> {
    (
        prop_oneof![
            6 => Just(""),
            1 => Just("~"),
            1 => Just("~/"),
            1 => Just("\\~"),
            1 => Just("'~'"),
        ],
        prop::collection::vec(segment(), 1..4),
    )
        .prop_map(|(t, s)| format!("{t}{}", s.concat()))
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("value".to_string()),
        Just("a b".to_string()),
        Just("/x/y".to_string()),
        Just(String::new()),
        Just(" lead  trail ".to_string()),
        Just("*".to_string()),
    ]
}

/// The decoded argv of the last `printf` command after the format, when all literal.
fn shellgate_fields(script: &str) -> Option<Vec<String>> {
    let a = analyze(script, &Context::fixture());
    // Under a parse error or limit shellgate claims nothing (and asks).
    if a.findings.iter().any(|f| f.rule.starts_with("SG000")) {
        return None;
    }
    let cmd = a
        .script
        .commands
        .iter()
        .rev()
        .find(|c| c.name.as_deref() == Some("printf"))?;
    let words = cmd.argv.get(2..)?;
    // Unquoted glob characters expand against the file system, which shellgate cannot see.
    if words.iter().any(|w| w.has_glob()) {
        return None;
    }
    words.iter().map(|w| w.lit()).collect()
}

#[derive(Default)]
struct Tally {
    compared: u32,
    skipped: u32,
    gaps: u32,
}

/// Known, reported decoding differences (see `docs/ROBUSTNESS.md`); each has an ignored test
/// below. Returns the name of the one `script` goes through, if any.
fn known_gap(script: &str, _ours: &[String]) -> Option<&'static str> {
    if script.contains("\\ ") {
        // `\ a`: shellgate drops an escaped space at the start of a word.
        return Some("escaped-space-dropped");
    }
    if script.contains("X=") && script.contains("..") {
        // `X={1..3}`: shellgate brace-expands a sequence inside an assignment value.
        return Some("sequence-braces-in-assignment");
    }
    let b = script.as_bytes();
    if (1..b.len().saturating_sub(1)).any(|i| b[i] == b'\\' && b[i + 1] == b'$' && b[i - 1] != b' ')
    {
        // `$''\$`, `$V\$""`: an escaped `$` right after a quote or an expansion is dropped.
        return Some("escaped-dollar-after-text");
    }
    if script.contains("$'") && script.contains("\\\\'") {
        // `$'\\' '\'`: an ANSI-C string ending in an escaped backslash is misparsed.
        return Some("ansi-c-ending-in-escaped-backslash");
    }
    if script.contains("X=\" $") || script.contains("X=\" ${") {
        // `X=" ${V}"`: the leading blank inside double quotes is dropped.
        return Some("dq-leading-blank-before-expansion");
    }
    if ["_{", "@{", "%{", ":{", ",{", "={", "+{"]
        .iter()
        .any(|p| script.contains(p))
    {
        // `_{1..3}`, `@{1..3}`: braces after punctuation are not expanded by shellgate.
        return Some("braces-after-underscore");
    }
    if script.contains("$V{") || script.contains("$U{") {
        // `$V{a,b}`: bash brace-expands first (`$Va $Vb`); shellgate expands `$V` first.
        return Some("brace-before-parameter");
    }
    if script.contains("\\{") {
        // `{a}\{a,b}`: bash matches braces across an escaped `{`; shellgate does not expand.
        return Some("escaped-brace-matching");
    }
    if ["*{", "?{", "]{"].iter().any(|p| script.contains(p)) {
        // `*{1..3}`: braces after a glob character are not expanded by shellgate.
        return Some("glob-then-braces");
    }
    let assign_tilde = script.contains("; X=")
        && (1..b.len()).any(|i| b[i] == b'~' && !matches!(b[i - 1], b'=' | b':'));
    if assign_tilde || ["}~", "V~", "U~"].iter().any(|p| script.contains(p)) {
        // `${V:+x}~/a`: a tilde after an expansion is not at the word start; shellgate expands.
        return Some("tilde-after-expansion");
    }
    if script.contains("lead  trail")
        && [
            "$V\"", "$V'", "}\"", "}'", "$V$'", "}$'", "'$V", "\"$V", "'${V", "\"${V",
        ]
        .iter()
        .any(|p| script.contains(p))
    {
        // `$V""` / `''$V` with blanks at V's ends: bash keeps an empty field there.
        return Some("split-then-empty-quotes");
    }
    if script.contains(",}") || script.contains("{,") {
        // `{x,}`: bash drops the empty alternative's word, shellgate keeps an empty word.
        return Some("empty-brace-alternative");
    }
    if script.contains("X=") && script.contains("lead  trail") {
        // `X=$V` with runs of blanks in V: shellgate squeezes them in the assignment value.
        return Some("assignment-value-resplit");
    }
    let b = script.as_bytes();
    if (0..b.len().saturating_sub(1)).any(|i| {
        b[i] == b'~'
            && (i == 0 || matches!(b[i - 1], b' ' | b'='))
            && matches!(b[i + 1], b'"' | b'\'' | b'$')
    }) {
        // `~""`: a quoted tilde suffix stops tilde expansion in bash; shellgate expands.
        return Some("tilde-with-quoted-suffix");
    }
    if (0..b.len().saturating_sub(1)).any(|i| {
        b[i] == b'~'
            && (i == 0 || matches!(b[i - 1], b' ' | b'='))
            && (b[i + 1].is_ascii_alphanumeric() || matches!(b[i + 1], b'_' | b'.' | b'-' | b'{'))
    }) {
        // `~name`: shellgate assumes /home/name; bash leaves it when there is no such user.
        return Some("tilde-user-guess");
    }
    None
}

fn compare(
    script: &str,
    dir: &std::path::Path,
    tally: &std::cell::RefCell<Tally>,
) -> Result<(), TestCaseError> {
    let Some(mut ours) = shellgate_fields(script) else {
        if std::env::var_os("SG_ORACLE_DEBUG").is_some() {
            eprintln!("not literal: {script:?}");
        }
        tally.borrow_mut().skipped += 1;
        return Ok(());
    };
    let Some(theirs) = bash_fields(script, dir) else {
        if std::env::var_os("SG_ORACLE_DEBUG").is_some() {
            eprintln!("bash failed: {script:?}");
        }
        tally.borrow_mut().skipped += 1;
        return Ok(());
    };
    if let Some(g) = known_gap(script, &ours) {
        tally.borrow_mut().gaps += 1;
        if std::env::var_os("SG_ORACLE_DEBUG").is_some() {
            eprintln!("known gap {g}: {script:?}");
        }
        return Ok(());
    }
    let theirs: Vec<String> = theirs
        .iter()
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .collect();
    let strip =
        |v: &[String]| -> Vec<String> { v.iter().filter(|w| !w.is_empty()).cloned().collect() };
    if ours != theirs && ours.len() > theirs.len() && strip(&ours) == strip(&theirs) {
        // `${V:+x}` unquoted and empty: bash removes the word, shellgate keeps "".
        tally.borrow_mut().gaps += 1;
        return Ok(());
    }
    tally.borrow_mut().compared += 1;
    if ours.is_empty() {
        // `printf FMT` with no arguments still prints the format once.
        ours.push(String::new());
    }
    prop_assert_eq!(
        &ours,
        &theirs,
        "shellgate decodes {:?} differently from bash",
        script
    );
    Ok(())
}

fn run(cases: u32, mk: impl Fn(&str, &[String]) -> String) {
    if !have_bash() {
        eprintln!("bash not found; skipping the bash oracle");
        return;
    }
    let dir = std::env::temp_dir().join(format!("sg-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let tally = std::cell::RefCell::new(Tally::default());
    let mut runner = TestRunner::new(support::config(cases));
    let strat = (value(), prop::collection::vec(word(), 1..4));
    let result = runner.run(&strat, |(v, words)| {
        let script = mk(&v, &words);
        compare(&script, &dir, &tally)
    });
    let _ = std::fs::remove_dir_all(&dir);
    let t = tally.borrow();
    eprintln!(
        "{} scripts compared with bash, {} skipped (not all literal, or bash failed), {} through known gaps",
        t.compared, t.skipped, t.gaps
    );
    if let Err(e) = result {
        panic!("{e}");
    }
}

fn assign(v: &str) -> String {
    format!("V={}", shell_words::quote(v))
}

#[test]
fn printf_arguments_decode_like_bash() {
    run(600, |v, words| {
        format!("{}; printf '%s\\0' {}", assign(v), words.join(" "))
    });
}

#[test]
fn assignment_values_decode_like_bash() {
    run(400, |v, words| {
        format!("{}; X={}; printf '%s\\0' \"$X\"", assign(v), words.concat())
    });
}

#[test]
fn oracle_reads_bash_output_fields() {
    if !have_bash() {
        return;
    }
    let dir = std::env::temp_dir();
    assert_eq!(
        bash_fields("printf '%s\\0' a 'b c' ''", &dir),
        Some(vec![b"a".to_vec(), b"b c".to_vec(), Vec::new()])
    );
    assert_eq!(
        shellgate_fields("V=x; printf '%s\\0' a$V 'b c'"),
        Some(vec!["ax".to_string(), "b c".to_string()])
    );
}

/// Debug aid: `SG_SCRIPT='...' cargo test --test bash_oracle -- --ignored show --nocapture`
/// prints shellgate's and bash's fields for one script.
#[test]
#[ignore = "debug aid"]
fn show_one_script_decoding() {
    let Ok(script) = std::env::var("SG_SCRIPT") else {
        return;
    };
    for s in script.split("\n---\n") {
        let theirs = bash_fields(s, &std::env::temp_dir());
        eprintln!(
            "{s:?}\n  shellgate: {:?}\n  bash:      {:?}",
            shellgate_fields(s),
            theirs.map(|v| v
                .iter()
                .map(|b| String::from_utf8_lossy(b).into_owned())
                .collect::<Vec<_>>())
        );
    }
}

// Decoding differences found by the properties above that change a decision; minimal
// commands. Ignored until the analyser is fixed (see `docs/ROBUSTNESS.md`).

fn decision(cmd: &str) -> shellgate::Decision {
    decide_default(&analyze(cmd, &Context::fixture()))
}

#[test]
fn nul_in_ansi_c_string_ends_the_word() {
    assert_eq!(decision("rm -rf $'/\\0tmp/x'"), shellgate::Decision::Deny);
    assert_eq!(decision("rm -rf $'/\\x00tmp'"), shellgate::Decision::Deny);
    assert_eq!(
        decision("X=$'/\\0tmp'; rm -rf $X"),
        shellgate::Decision::Deny
    );
}

#[test]
#[ignore = "bypass: bash brace-expands before parameters, so $V{a,b} is $Va $Vb"]
fn brace_expansion_happens_before_parameter_expansion() {
    assert_eq!(decision("Va=/; rm -rf $V{a,b}"), shellgate::Decision::Deny);
}

#[test]
#[ignore = "gap: $'\\\\' followed by more words is misparsed; deny is downgraded to ask"]
fn ansi_c_string_ending_in_escaped_backslash_parses() {
    assert_eq!(
        decision("echo $'\\\\' ; rm -rf / ; echo ''"),
        shellgate::Decision::Deny
    );
}

#[test]
#[ignore = "decoding differences without a known bypass; listed in docs/ROBUSTNESS.md"]
fn minor_decoding_differences_match_bash() {
    let dir = std::env::temp_dir();
    for script in [
        "printf '%s\\0' $'\\c?'",
        "printf '%s\\0' \\ a",
        "X={1..3}; printf '%s\\0' \"$X\"",
        "printf '%s\\0' ~\"\"",
        "printf '%s\\0' {x,}",
        "V=' a  b '; X=$V; printf '%s\\0' \"$X\"",
        "V=' a '; printf '%s\\0' $V\"\"",
        "printf '%s\\0' {a}\\{a,b}",
        "V=; X=${V:+x}~/a; printf '%s\\0' \"$X\"",
        "V=; printf '%s\\0' ${V:+x} b",
        "V=x; printf '%s\\0' $V\\$\"\"",
        "V=x; X=\" ${V}\"; printf '%s\\0' \"$X\"",
        "printf '%s\\0' _{1..3}",
    ] {
        let theirs = bash_fields(script, &dir).map(|v| {
            v.iter()
                .map(|b| String::from_utf8_lossy(b).into_owned())
                .collect::<Vec<_>>()
        });
        assert_eq!(shellgate_fields(script), theirs, "{script:?}");
    }
}
