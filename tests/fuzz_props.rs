//! Property-based fuzzing of every input surface: `analyze` on arbitrary strings and on
//! grammar-aware bash fragments (no panic, spans inside the command on char boundaries,
//! unanalysed input never allowed), and the `shellgate` binary's `check -`, `check CMD` and
//! `check --jsonl` on arbitrary bytes and lines (one output line per non-empty input line, in
//! order, never `allow` unless the line was a valid command the library allows).
//!
//! Surfaces are rows of [`SURFACES`]: a name, a byte-input generator, a runner and an
//! oracle. A later surface (hook events, config files) plugs in by adding a row.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};

use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use shellgate::policy::decide_default;
use shellgate::{Analysis, Context, Decision, analyze};

/// Invariants every analysis must satisfy, whatever the input.
fn check_analysis(cmd: &str, a: &Analysis) -> Result<(), String> {
    for f in &a.findings {
        let (s, e) = (f.span.start, f.span.end);
        if s > e || e > cmd.len() {
            return Err(format!("{} span {s}..{e} outside 0..{}", f.rule, cmd.len()));
        }
        if !cmd.is_char_boundary(s) || !cmd.is_char_boundary(e) {
            return Err(format!("{} span {s}..{e} not on char boundaries", f.rule));
        }
        if f.message.contains("internal error while analysing") {
            return Err(format!("analysis panicked (caught): {}", f.message));
        }
    }
    let unanalysed = a.findings.iter().any(|f| f.rule.starts_with("SG000"));
    if unanalysed && decide_default(a) == Decision::Allow {
        return Err("an analysis finding was allowed".into());
    }
    Ok(())
}

fn analyze_ok(cmd: &str) -> Result<(), TestCaseError> {
    // `SG_FUZZ_LOG=FILE` records each input before it is analysed, so an input that kills the
    // process (a crash cannot be caught) is the file's last line.
    if let Some(path) = std::env::var_os("SG_FUZZ_LOG") {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("log opens");
        let _ = writeln!(f, "{}", serde_json::to_string(cmd).unwrap_or_default());
        let _ = f.sync_data();
    }
    let a = analyze(cmd, &Context::fixture());
    check_analysis(cmd, &a).map_err(|e| TestCaseError::fail(format!("{cmd:?}: {e}")))
}

/// Pieces bash fragments are made of: quotes, substitutions, heredocs, escapes, control
/// characters, compound-command keywords, non-ASCII.
fn token() -> impl Strategy<Value = String> {
    let fixed: Vec<&'static str> = vec![
        "rm",
        "-rf",
        "/",
        "ls",
        "echo",
        "bash",
        "-c",
        "sh",
        "eval",
        "sudo",
        " ",
        " ",
        " ",
        "'",
        "\"",
        "`",
        "$(",
        ")",
        "(",
        "${",
        "}",
        "{",
        "$((",
        "))",
        "$'",
        "\\",
        "\\\n",
        "\n",
        ";",
        "&&",
        "||",
        "|",
        "&",
        ">",
        "<",
        ">>",
        "2>&1",
        "<<EOF\n",
        "<<'EOF'\n",
        "<<-EOF\n",
        "EOF",
        "EOF\n",
        "<<<",
        "<(",
        ">(",
        "#",
        "~",
        "*",
        "?",
        "[",
        "]",
        "[[",
        "]]",
        "!",
        "=",
        "X=",
        "$X",
        "$1",
        "$@",
        "${X:-/}",
        "${#X}",
        "${X//a/b}",
        "if",
        "then",
        "fi",
        "for",
        "in",
        "do",
        "done",
        "while",
        "case",
        "esac",
        ";;",
        "function",
        "f()",
        "\0",
        "\x1b[2K",
        "\r",
        "\t",
        "\u{7f}",
        "\u{85}",
        "\u{200b}",
        "\u{ff52}",
        "é",
        "日本",
        "\u{1F600}",
        "\u{feff}",
        "\\x72",
        "\\0",
        "%s",
        "base64",
        "-d",
        "python3",
        "-e",
        "import os",
    ];
    prop_oneof![
        6 => prop::sample::select(fixed).prop_map(str::to_string),
        1 => "[a-z0-9/._-]{1,6}",
        1 => any::<char>().prop_map(|c| c.to_string()),
    ]
}

fn fragment() -> impl Strategy<Value = String> {
    prop::collection::vec(token(), 0..40).prop_map(|v| v.concat())
}

#[test]
fn analyze_never_panics_on_arbitrary_strings() {
    let mut runner = TestRunner::new(support::config(1500));
    let result = runner.run(&any::<String>(), |s| analyze_ok(&s));
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn analyze_keeps_its_invariants_on_generated_bash_fragments() {
    let mut runner = TestRunner::new(support::config(2500));
    let result = runner.run(&fragment(), |s| analyze_ok(&s));
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn analyze_keeps_its_invariants_on_nested_fragments() {
    // Fragments wrapped in the layers the analyser re-parses.
    let mut runner = TestRunner::new(support::config(800));
    let strat = (fragment(), 0u8..6);
    let result = runner.run(&strat, |(s, layer)| {
        let q = shell_words::quote(&s).into_owned();
        let cmd = match layer {
            0 => format!("bash -c {q}"),
            1 => format!("eval {q}"),
            2 => format!("echo {q} | sh"),
            3 => format!("bash <<'X'\n{s}\nX"),
            4 => format!("python3 -c {q}"),
            _ => format!("$({s})"),
        };
        analyze_ok(&cmd)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

// ---------------------------------------------------------------------------------------
// The binary's input surfaces.

/// What a run of the binary produced.
struct Run {
    stdout: Vec<u8>,
    code: Option<i32>,
}

/// One input surface of the binary.
struct Surface {
    name: &'static str,
    /// Generates one input (bytes).
    input: fn() -> BoxedStrategy<Vec<u8>>,
    /// Feeds it to the binary.
    run: fn(&[u8]) -> Run,
    /// Judges the output against the library; `Err` explains the violation.
    oracle: fn(&[u8], &Run) -> Result<(), String>,
    cases: u32,
}

const SURFACES: &[Surface] = &[
    Surface {
        name: "check --jsonl -",
        input: jsonl_input,
        run: run_jsonl,
        oracle: jsonl_oracle,
        cases: 48,
    },
    Surface {
        name: "check --json - (stdin)",
        input: stdin_input,
        run: run_stdin,
        oracle: single_oracle,
        cases: 48,
    },
    Surface {
        name: "check --json CMD (argument)",
        input: arg_input,
        run: run_arg,
        oracle: single_oracle,
        cases: 48,
    },
];

/// The binary with an environment that makes `Context::from_process` equal the fixture.
fn shellgate() -> Command {
    let mut c = Command::new(support::bin());
    c.env_clear()
        .env("HOME", "/home/user")
        .env("USER", "user")
        .env("TMPDIR", "/tmp")
        .env("PATH", "/usr/bin:/bin");
    c
}

fn run_with_stdin(mut c: Command, input: &[u8]) -> Run {
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("shellgate binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().expect("shellgate finishes");
    let _ = writer.join();
    Run {
        stdout: out.stdout,
        code: out.status.code(),
    }
}

fn run_jsonl(input: &[u8]) -> Run {
    let mut c = shellgate();
    c.args(["check", "--cwd", "/home/user/project", "--jsonl", "-"]);
    run_with_stdin(c, input)
}

fn run_stdin(input: &[u8]) -> Run {
    let mut c = shellgate();
    c.args(["check", "--cwd", "/home/user/project", "--json", "-"]);
    run_with_stdin(c, input)
}

fn run_arg(input: &[u8]) -> Run {
    let cmd = String::from_utf8_lossy(input).into_owned();
    let mut c = shellgate();
    c.args(["check", "--cwd", "/home/user/project", "--json", "--", &cmd]);
    run_with_stdin(c, b"")
}

/// JSONL lines: valid requests, wrong shapes, broken JSON, invalid UTF-8, blank lines.
fn jsonl_line() -> impl Strategy<Value = Vec<u8>> {
    let json_str = |s: String| serde_json::to_string(&s).expect("string encodes");
    prop_oneof![
        4 => fragment().prop_map(move |s| format!("{{\"cmd\":{}}}", json_str(s)).into_bytes()),
        1 => any::<String>().prop_map(move |s| format!("{{\"cmd\":{},\"x\":1}}", json_str(s)).into_bytes()),
        1 => prop::sample::select(vec![
            "{}", "[]", "null", "1", "\"rm -rf /\"", "{\"cmd\":1}", "{\"cmd\":null}",
            "{\"cmd\":[\"rm\",\"-rf\",\"/\"]}", "{\"cmd\":{\"a\":1}}", "{\"cmd\":true}",
            "{\"cmd\":\"\\ud800\"}", "{\"cmd\":\"rm -rf /\\udfff\"}", "{\"cmd\":\"\\ud83d\"}",
            "{\"cmd\":\"ls\",\"cmd\":\"rm -rf /\"}", "{\"cmd\":\"rm -rf /\"", "{\"cmd\":\"rm -rf /\"}}",
            "{\"Cmd\":\"rm -rf /\"}", "{\"cmd\":\"rm -rf /\\u0000\"}", "{\"cmd\":\"\"}",
            "   ", "\t", "\r", "", "\u{feff}{\"cmd\":\"ls\"}", "{\"cmd\":\"ls\"}\r",
            "{\"cmd\":\"ls\"} {\"cmd\":\"rm -rf /\"}", "\u{3000}",
        ]).prop_map(|s| s.as_bytes().to_vec()),
        1 => prop::collection::vec(any::<u8>(), 0..40).prop_map(|v| {
            v.into_iter().filter(|&b| b != b'\n').collect()
        }),
        1 => Just(b"{\"cmd\":\"rm -rf /\xff\"}".to_vec()),
        1 => Just(b"{\"cmd\":\"\xed\xa0\x80\"}".to_vec()),
    ]
}

fn jsonl_input() -> BoxedStrategy<Vec<u8>> {
    (prop::collection::vec(jsonl_line(), 0..12), any::<bool>())
        .prop_map(|(lines, trailing)| {
            let mut out = lines.join(&b'\n');
            if trailing {
                out.push(b'\n');
            }
            out
        })
        .boxed()
}

fn stdin_input() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        3 => fragment().prop_map(String::into_bytes),
        1 => prop::collection::vec(any::<u8>(), 0..64),
        1 => fragment().prop_map(|s| {
            let mut v = s.into_bytes();
            v.push(0xff);
            v.extend_from_slice(b"; rm -rf /");
            v
        }),
    ]
    .boxed()
}

fn arg_input() -> BoxedStrategy<Vec<u8>> {
    // Arguments cannot hold NUL bytes or invalid UTF-8 here; the rest is fair game.
    fragment()
        .prop_map(|s| s.replace('\0', "").into_bytes())
        .boxed()
}

/// The decision the library gives for one JSONL line, or `None` when the line is not a
/// valid request (then the binary must answer with a non-allow error line).
fn expected_for_line(line: &[u8]) -> Option<Option<(String, Decision)>> {
    let Ok(text) = std::str::from_utf8(line) else {
        return Some(None);
    };
    let text = text.trim_end_matches(['\n', '\r']);
    if text.trim().is_empty() {
        return None; // no output line
    }
    let v: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(_) => return Some(None),
    };
    match v.get("cmd").and_then(|c| c.as_str()) {
        Some(cmd) => Some(Some((
            cmd.to_string(),
            decide_default(&analyze(cmd, &Context::fixture())),
        ))),
        None => Some(None),
    }
}

fn decision_of(v: &serde_json::Value) -> Option<&str> {
    v.get("decision").and_then(|d| d.as_str())
}

fn jsonl_oracle(input: &[u8], run: &Run) -> Result<(), String> {
    let mut pieces: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if input.ends_with(b"\n") || input.is_empty() {
        pieces.pop();
    }
    let expected: Vec<Option<(String, Decision)>> =
        pieces.iter().filter_map(|l| expected_for_line(l)).collect();
    let out = String::from_utf8(run.stdout.clone()).map_err(|_| "output is not UTF-8")?;
    let got: Vec<&str> = out.lines().collect();
    if got.len() != expected.len() {
        return Err(format!(
            "{} output lines for {} non-empty input lines",
            got.len(),
            expected.len()
        ));
    }
    let mut any_bad = false;
    for (i, (e, g)) in expected.iter().zip(&got).enumerate() {
        let v: serde_json::Value =
            serde_json::from_str(g).map_err(|err| format!("output line {i} not JSON: {err}"))?;
        let d = decision_of(&v).ok_or(format!("output line {i} has no decision"))?;
        match e {
            Some((cmd, want)) => {
                if v.get("cmd").and_then(|c| c.as_str()) != Some(cmd.as_str()) {
                    return Err(format!("output line {i} is for another command (order?)"));
                }
                if d != want.as_str() {
                    return Err(format!(
                        "line {i}: binary says {d}, library says {}",
                        want.as_str()
                    ));
                }
            }
            None => {
                any_bad = true;
                if d == "allow" {
                    return Err(format!("invalid input line {i} answered allow"));
                }
            }
        }
    }
    if any_bad && run.code == Some(0) {
        return Err("invalid lines but exit code 0".into());
    }
    if !any_bad && run.code != Some(0) {
        return Err(format!("all lines valid but exit code {:?}", run.code));
    }
    Ok(())
}

/// `check --json` on one command: invalid UTF-8 is a usage error with a deny line; valid
/// text gets the library's decision and the matching exit code.
fn single_oracle(input: &[u8], run: &Run) -> Result<(), String> {
    let out = String::from_utf8(run.stdout.clone()).map_err(|_| "output is not UTF-8")?;
    let lines: Vec<&str> = out.lines().collect();
    if lines.len() != 1 {
        return Err(format!("{} output lines, want 1", lines.len()));
    }
    let v: serde_json::Value =
        serde_json::from_str(lines[0]).map_err(|e| format!("output not JSON: {e}"))?;
    let d = decision_of(&v).ok_or("no decision")?;
    match std::str::from_utf8(input) {
        Ok(cmd) => {
            let want = decide_default(&analyze(cmd, &Context::fixture()));
            if d != want.as_str() {
                return Err(format!("binary says {d}, library says {}", want.as_str()));
            }
            let code = match want {
                Decision::Allow => 0,
                Decision::Ask => 1,
                Decision::Deny => 2,
            };
            if run.code != Some(code) {
                return Err(format!("exit code {:?} for {d}", run.code));
            }
        }
        Err(_) => {
            if d == "allow" || run.code == Some(0) {
                return Err("invalid UTF-8 was allowed".into());
            }
        }
    }
    Ok(())
}

fn run_surface(s: &Surface) {
    let mut runner = TestRunner::new(support::config(s.cases));
    let result = runner.run(&(s.input)(), |input| {
        let run = (s.run)(&input);
        (s.oracle)(&input, &run).map_err(|e| {
            TestCaseError::fail(format!(
                "{}: {e}\ninput: {:?}",
                s.name,
                String::from_utf8_lossy(&input)
            ))
        })
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn every_binary_surface_answers_each_input_and_never_allows_bad_input() {
    for s in SURFACES {
        run_surface(s);
    }
}

#[test]
fn jsonl_answers_fixed_hostile_lines_in_order() {
    let input: &[u8] = b"{\"cmd\":\"ls\"}\n\xff\xfe\n{\"cmd\":\"\\ud800\"}\n{}\n{\"cmd\":1}\n\n   \n{\"cmd\":\"rm -rf /\"}\n{\"cmd\":\"ls\",\"cmd\":\"rm -rf /\"}";
    let run = run_jsonl(input);
    jsonl_oracle(input, &run).unwrap();
    let out = String::from_utf8(run.stdout).unwrap();
    let decisions: Vec<String> = out
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            decision_of(&v).unwrap().to_string()
        })
        .collect();
    assert_eq!(decisions[0], "allow");
    assert!(decisions[1..5].iter().all(|d| d == "deny"), "{decisions:?}");
    assert_eq!(decisions[5], "deny");
    // Duplicate keys: serde_json keeps the last value, so the dangerous one is judged.
    assert_eq!(decisions[6], "deny");
}

#[test]
fn brace_then_astral_char_does_not_crash() {
    // Run through the binary: the crash kills the process, so it cannot be tested in-process.
    for cmd in [
        "{\u{F0000}",
        "ls; {\u{10FFFF}",
        "rm -rf / #{\u{E0001}",
        "echo {1.\u{F0000}",
        "{\0\u{CB8C1}",
    ] {
        let run = run_stdin(cmd.as_bytes());
        assert!(
            run.code.is_some(),
            "shellgate was killed by a signal on {cmd:?}"
        );
        single_oracle(cmd.as_bytes(), &run).unwrap();
    }
}
