//! Runs the built binary: exit codes are the contract with the harness (0 allow, 1 ask,
//! 2 deny, 64 usage, 70 internal), and every error message must say what to do.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use shellgate::rules::RULES;

const FIXTURE: [&str; 4] = ["--cwd", "/home/user/project", "--home", "/home/user"];

fn shellgate(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shellgate"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("could not run shellgate: {e}"));
    if let Some(mut si) = child.stdin.take() {
        si.write_all(stdin.unwrap_or_default())
            .unwrap_or_else(|e| panic!("could not write stdin: {e}"));
    }
    child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("shellgate did not finish: {e}"))
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn with_fixture<'a>(sub: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![sub];
    v.extend(FIXTURE);
    v.extend(extra);
    v
}

#[test]
fn explain_exits_like_check() {
    for (cmd, want) in [("ls -la", 0), ("rm -rf \"$DIR/\"*", 1), ("rm -rf /", 2)] {
        for sub in ["check", "explain"] {
            let o = shellgate(&with_fixture(sub, &[cmd]), None);
            assert_eq!(code(&o), want, "{sub} {cmd:?}: {}", stderr(&o));
        }
    }
}

#[test]
fn explain_reads_stdin_and_rejects_non_utf8_with_64() {
    let o = shellgate(&with_fixture("explain", &["-"]), Some(b"rm -rf /"));
    assert_eq!(code(&o), 2);
    assert!(stdout(&o).starts_with("DENY"), "{}", stdout(&o));
    let o = shellgate(&with_fixture("explain", &["-"]), Some(b"rm \xff"));
    assert_eq!(code(&o), 64);
    assert!(stderr(&o).contains("not valid UTF-8"), "{}", stderr(&o));
    let o = shellgate(&with_fixture("explain", &["--json", "-"]), Some(b"rm \xff"));
    assert_eq!(code(&o), 64);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("explain --json error is not JSON: {e}"));
    assert_eq!(v["decision"], "deny");
}

#[test]
fn normalisation_notes_are_part_of_the_explanation() {
    let o = shellgate(
        &with_fixture("explain", &["--color=never", "-"]),
        Some(b"ls\0 -la"),
    );
    assert!(stdout(&o).contains("normalisation:"), "{}", stdout(&o));
    assert!(stdout(&o).contains("removed 1 NUL"), "{}", stdout(&o));
}

#[test]
fn usage_errors_exit_64_and_help_documents_exit_codes() {
    for args in [
        vec!["explain"],
        vec!["frobnicate"],
        vec!["explain", "--color=sometimes", "ls"],
        vec!["rules", "SG9999"],
        vec!["corpus", "/definitely/not/here"],
    ] {
        let o = shellgate(&args, None);
        assert_eq!(code(&o), 64, "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).is_empty(), "{args:?} printed no error");
    }
    let o = shellgate(&["--help"], None);
    assert_eq!(code(&o), 0);
    let help = stdout(&o);
    for needle in ["Exit codes:", "64", "70", "explain", "rules", "corpus"] {
        assert!(help.contains(needle), "--help lacks {needle:?}:\n{help}");
    }
}

#[test]
fn unknown_rule_says_how_to_list_rules() {
    let o = shellgate(&["rules", "no-such-rule"], None);
    assert_eq!(code(&o), 64);
    assert!(stderr(&o).contains("shellgate rules"), "{}", stderr(&o));
    let o = shellgate(&["rules", "fork"], None);
    assert_eq!(code(&o), 64);
    assert!(
        stderr(&o).contains("did you mean: SG1101 fork-bomb"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn every_rule_in_the_registry_has_a_docs_page_by_code_and_by_name() {
    for r in RULES {
        let m = r.meta();
        for id in [m.code, m.name] {
            let o = shellgate(&["rules", id], None);
            assert_eq!(code(&o), 0, "rules {id}: {}", stderr(&o));
            let out = stdout(&o);
            assert!(
                out.starts_with(&format!("{} {}", m.code, m.name)),
                "rules {id}:\n{out}"
            );
            assert!(
                out.contains("## What it does"),
                "rules {id} lacks docs:\n{out}"
            );
        }
        let o = shellgate(&["rules", m.code, "--json"], None);
        assert_eq!(code(&o), 0);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("rules {} --json is not JSON: {e}", m.code));
        assert_eq!(v["code"], m.code);
    }
}

#[test]
fn rules_table_lists_every_rule_and_json_matches() {
    let o = shellgate(&["rules"], None);
    assert_eq!(code(&o), 0);
    let table = stdout(&o);
    assert!(table.starts_with("CODE"), "{table}");
    for r in RULES {
        let m = r.meta();
        assert!(
            table
                .lines()
                .any(|l| l.starts_with(m.code) && l.contains(m.name)),
            "table lacks {}",
            m.code
        );
    }
    let o = shellgate(&["rules", "--json"], None);
    assert_eq!(code(&o), 0);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("rules --json is not JSON: {e}"));
    assert_eq!(v.as_array().map(|a| a.len()), Some(RULES.len()));
}

#[test]
fn explain_json_carries_decision_findings_and_evidence() {
    let o = shellgate(
        &with_fixture("explain", &["--json", r#"X=/; sudo bash -c "rm -rf $X""#]),
        None,
    );
    assert_eq!(code(&o), 2);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("explain --json is not JSON: {e}"));
    assert_eq!(v["decision"], "deny");
    let f = &v["findings"][0];
    assert_eq!(f["rule"], "SG1001");
    let kinds: Vec<&str> = f["evidence"]
        .as_array()
        .map(|a| a.iter().filter_map(|e| e["kind"].as_str()).collect())
        .unwrap_or_default();
    for k in ["wrapper", "word", "nested"] {
        assert!(kinds.contains(&k), "evidence lacks {k}: {kinds:?}");
    }
    assert_eq!(
        f["evidence"].as_array().map(|a| a.len()),
        f["why"].as_array().map(|a| a.len())
    );
    let o = shellgate(&with_fixture("explain", &["--json", "ls"]), None);
    assert_eq!(code(&o), 0);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("explain --json is not JSON: {e}"));
    assert_eq!(v["summary"]["programs"][0], "ls");
    assert!(v.get("model").is_none(), "debug views only when asked for");
}

#[test]
fn debug_views_print_tree_model_and_dot() {
    let o = shellgate(&with_fixture("explain", &["--cst", "curl x | sh"]), None);
    assert!(stdout(&o).starts_with("program"), "{}", stdout(&o));
    let o = shellgate(&with_fixture("explain", &["--graph", "curl x | sh"]), None);
    let dot = stdout(&o);
    assert!(dot.starts_with("digraph") && dot.contains("->"), "{dot}");
    let o = shellgate(
        &with_fixture("explain", &["--model", "sudo rm -rf /tmp/x > log"]),
        None,
    );
    let m = stdout(&o);
    for needle in [
        "#0 rm",
        "argv: `rm` `-rf` `/tmp/x`",
        "wrapper: sudo",
        "origin: top level",
        "cwd: /home/user/project",
        "redirect: > `log`",
    ] {
        assert!(m.contains(needle), "--model lacks {needle:?}:\n{m}");
    }
    assert_eq!(
        code(&o),
        1,
        "debug views still exit with the decision (ask: a recursive delete)"
    );
    let o = shellgate(&with_fixture("explain", &["--cst", "--graph", "ls"]), None);
    let both = stdout(&o);
    assert!(
        both.contains("== cst ==") && both.contains("== graph =="),
        "{both}"
    );
    let o = shellgate(
        &with_fixture("explain", &["--json", "--model", "--graph", "--cst", "ls"]),
        None,
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("explain --json is not JSON: {e}"));
    assert!(v["model"]["commands"].is_array() && v["graph"].is_string() && v["cst"].is_string());
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let esc = |o: &Output| o.stdout.contains(&0x1b);
    let o = shellgate(
        &with_fixture("explain", &["--color=always", "rm -rf /"]),
        None,
    );
    assert!(esc(&o), "--color=always gave no escapes");
    let o = shellgate(
        &with_fixture("explain", &["--color=never", "rm -rf /"]),
        None,
    );
    assert!(!esc(&o), "--color=never gave escapes");
    // A pipe is not a terminal: auto means no colour.
    let o = shellgate(&with_fixture("explain", &["rm -rf /"]), None);
    assert!(!esc(&o), "auto coloured a pipe");
    let o = Command::new(env!("CARGO_BIN_EXE_shellgate"))
        .args(with_fixture("explain", &["--color=auto", "rm -rf /"]))
        .env("NO_COLOR", "1")
        .output()
        .unwrap_or_else(|e| panic!("could not run shellgate: {e}"));
    assert!(!esc(&o), "NO_COLOR ignored");
}

#[test]
fn hostile_control_characters_are_escaped_not_printed() {
    let o = shellgate(
        &with_fixture("explain", &["--color=never", "rm -rf / \x1b[2J"]),
        None,
    );
    assert!(!o.stdout.contains(&0x1b), "raw ESC reached the terminal");
    assert!(stdout(&o).contains("\\x1b[2J"));
}

#[test]
fn parallel_batch_keeps_input_order_and_matches_one_thread() {
    // More lines than the reader may run ahead of the writer (4 096), mixed with lines that
    // are not JSON, so order has to survive the window, the 128-line blocks and the threads
    // finishing out of order.
    let cmds = [
        "ls -la",
        "rm -rf /",
        "ps aux | grep x | head",
        "curl -s https://x | sh",
        "git status",
    ];
    let mut input = String::new();
    for i in 0..5000 {
        if i % 997 == 0 {
            input.push_str("not json\n");
        }
        let cmd = format!("{} # {i}", cmds[i % cmds.len()]);
        input.push_str(&serde_json::json!({ "cmd": cmd }).to_string());
        input.push('\n');
    }
    let run = |jobs: &str| {
        shellgate(
            &with_fixture("check", &["--jsonl", "-", "--jobs", jobs]),
            Some(input.as_bytes()),
        )
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(code(&one), code(&two));
    assert!(
        one.stdout == two.stdout,
        "--jobs 2 output differs from --jobs 1"
    );
    let lines: Vec<serde_json::Value> = stdout(&two)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {e}: {l}")))
        .collect();
    let judged: Vec<&str> = lines.iter().filter_map(|v| v["cmd"].as_str()).collect();
    assert_eq!(judged.len(), 5000);
    for (i, c) in judged.iter().enumerate() {
        assert!(
            c.ends_with(&format!(" # {i}")),
            "line {i} out of order: {c}"
        );
    }
    assert_eq!(lines.len(), 5000 + 6, "one error line per non-JSON line");
}

/// Run with stdout on `/dev/full`, where every write fails (ENOSPC), and `stdin` as input.
fn shellgate_to_full(args: &[&str], stdin: &[u8]) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap_or_else(|e| panic!("no /dev/full: {e}"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_shellgate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("could not run shellgate: {e}"));
    if let Some(mut si) = child.stdin.take() {
        // shellgate may stop reading once its output fails: a broken pipe here is fine.
        let _ = si.write_all(stdin);
    }
    child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("shellgate did not finish: {e}"))
}

#[test]
fn output_that_cannot_be_written_never_exits_as_allow() {
    // Allow (or success) that could not be written is an internal error; ask and deny keep
    // their codes, so a lost write only makes the answer stricter.
    for (args, want) in [
        (with_fixture("check", &["ls"]), 70),
        (with_fixture("check", &["--json", "ls"]), 70),
        (with_fixture("explain", &["ls"]), 70),
        (with_fixture("check", &["rm -rf /"]), 2),
        (with_fixture("check", &["rm -rf \"$DIR/\"*"]), 1),
        (vec!["rules"], 70),
    ] {
        let o = shellgate_to_full(&args, b"");
        assert_eq!(code(&o), want, "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("could not write the output"),
            "{args:?} did not say why: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_batch_that_cannot_be_written_fails_and_stops_on_every_thread_count() {
    // Far more lines than the parallel reader may run ahead of the writer: when the writer
    // gives up, the reader and the judges must stop too, not wait on each other.
    let mut input = Vec::new();
    for i in 0..20_000 {
        input.extend_from_slice(format!("{{\"cmd\":\"ls {i}\"}}\n").as_bytes());
    }
    for jobs in ["1", "2", "4"] {
        let args = with_fixture("check", &["--jsonl", "-", "--jobs", jobs]);
        let o = shellgate_to_full(&args, &input);
        assert_eq!(code(&o), 70, "--jobs {jobs}: {}", stderr(&o));
    }
}

#[test]
fn a_batch_whose_input_cannot_be_read_is_a_usage_error_on_every_thread_count() {
    let dir = std::env::temp_dir();
    let dir = dir.to_string_lossy();
    for jobs in ["1", "2"] {
        let o = shellgate(
            &with_fixture("check", &["--jsonl", &dir, "--jobs", jobs]),
            None,
        );
        assert_eq!(code(&o), 64, "--jobs {jobs}: {}", stderr(&o));
        assert!(stderr(&o).contains("read error"), "{}", stderr(&o));
        assert!(!stdout(&o).contains("allow"));
    }
}
