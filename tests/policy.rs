//! The policy's decision order, step by step, and each mode; deny globs through wrappers
//! and paths; approvals that must not reach other findings or targets; unattended runs.

use shellgate::policy::{
    self, Answer, AnswerSource, DecidedBy, LoadedConfig, MemoryStore, Mode, Request, Scope, Store,
    decide_default,
};
use shellgate::{Context, Decision};

fn cfg(toml: &str) -> LoadedConfig {
    let c = LoadedConfig::from_toml(toml);
    assert!(c.errors.is_empty(), "{:?}", c.errors);
    c
}

fn req(cmd: &str) -> Request {
    let mut r = Request::new(cmd, Context::fixture());
    r.session = Some("s1".into());
    r.harness = Some("test".into());
    r.now = Some(1_000_000);
    r
}

fn decide(cmd: &str, c: &LoadedConfig) -> policy::Verdict {
    policy::evaluate(&req(cmd), c, &mut MemoryStore::new())
}

// Step 1 -----------------------------------------------------------------------------

#[test]
fn step1_block_findings_deny_in_every_mode() {
    for mode in ["manual", "smart", "off"] {
        let c = cfg(&format!("mode = \"{mode}\"\nallow = [\"SG1001\", \"*\"]\n"));
        let v = decide("rm -rf /", &c);
        assert_eq!(v.decision, Decision::Deny, "mode {mode}");
        assert!(matches!(v.decided_by, DecidedBy::Rule { .. }));
        assert!(v.reason.contains("never allowed"), "{}", v.reason);
    }
}

#[test]
fn step1_severity_raised_to_block_denies_even_when_allowlisted() {
    let c = cfg("mode = \"off\"\nallow = [\"SG2001\"]\n[severity]\nrecursive-delete = \"block\"\n");
    let v = decide("rm -rf build", &c);
    assert_eq!(v.decision, Decision::Deny);
    assert_eq!(
        v.decided_by,
        DecidedBy::Rule {
            rule: "SG2001".into()
        }
    );
}

// Step 2 -----------------------------------------------------------------------------

#[test]
fn step2_deny_glob_denies_in_mode_off_and_over_allowlist() {
    let c = cfg("mode = \"off\"\ndeny = [\"git push --force*\"]\nallow = [\"git-force-push\"]\n");
    let v = decide("git push --force origin main", &c);
    assert_eq!(v.decision, Decision::Deny);
    assert!(matches!(v.decided_by, DecidedBy::DenyGlob { .. }));
}

#[test]
fn step2_deny_glob_denies_commands_with_no_findings() {
    let c = cfg("deny = [\"npm publish*\"]\n");
    assert_eq!(
        decide("npm publish --access public", &c).decision,
        Decision::Deny
    );
    assert_eq!(decide("npm test", &c).decision, Decision::Allow);
}

#[test]
fn deny_glob_meets_sudo_by_absolute_path() {
    let c = cfg("mode = \"off\"\ndeny = [\"git push --force*\"]\n");
    let v = decide("/usr/bin/sudo git push --force origin", &c);
    assert_eq!(v.decision, Decision::Deny, "{}", v.reason);
}

#[test]
fn deny_glob_meets_git_global_options_and_short_flags() {
    let c = cfg("mode = \"off\"\ndeny = [\"git push --force*\"]\n");
    assert_eq!(decide("git -C r push -f", &c).decision, Decision::Deny);
    assert_eq!(
        decide("/usr/bin/git -c a=b push -f origin", &c).decision,
        Decision::Deny
    );
    assert_eq!(decide("git push origin main", &c).decision, Decision::Allow);
}

#[test]
fn deny_glob_meets_quoted_and_nested_spellings() {
    let c = cfg("mode = \"off\"\ndeny = [\"git push --force*\", \"*curl*|*sh*\"]\n");
    assert_eq!(decide("git pu\"\"sh --force", &c).decision, Decision::Deny);
    assert_eq!(
        decide("bash -c 'git push --force'", &c).decision,
        Decision::Deny
    );
    assert_eq!(decide("cu\"\"rl -s x | s\\h", &c).decision, Decision::Deny);
    assert_eq!(
        decide("timeout 5 nice git push --force", &c).decision,
        Decision::Deny
    );
}

#[test]
fn deny_glob_is_case_insensitive_and_rm_flag_spellings_meet() {
    let c = cfg("mode = \"off\"\ndeny = [\"RM -RF *\"]\n");
    assert_eq!(decide("rm -rf build", &c).decision, Decision::Deny);
    assert_eq!(decide("rm -r -f build", &c).decision, Decision::Deny);
    assert_eq!(
        decide("rm --recursive --force build", &c).decision,
        Decision::Deny
    );
    assert_eq!(decide("rm -fR build", &c).decision, Decision::Deny);
}

#[test]
fn text_inside_the_command_is_never_configuration() {
    let c = cfg("");
    let v = decide("SHELLGATE_MODE=off rm -rf build", &c);
    assert_eq!(v.decision, Decision::Ask);
    assert_eq!(v.mode, Mode::Manual);
}

// Step 3 -----------------------------------------------------------------------------

#[test]
fn step3_no_findings_allows() {
    let v = decide("ls -la", &cfg(""));
    assert_eq!(v.decision, Decision::Allow);
    assert_eq!(v.decided_by, DecidedBy::NoFindings);
}

#[test]
fn step3_mode_off_allows_approve_findings() {
    let v = decide("git reset --hard", &cfg("mode = \"off\"\n"));
    assert_eq!(v.decision, Decision::Allow);
    assert_eq!(v.decided_by, DecidedBy::ModeOff);
}

#[test]
fn mode_off_never_allows_what_could_not_be_analysed() {
    let big = format!("echo {}", "a".repeat(shellgate::MAX_COMMAND_BYTES + 1));
    let v = decide(&big, &cfg("mode = \"off\"\n"));
    assert_eq!(v.decision, Decision::Ask);
}

#[test]
fn mode_flag_overrides_the_config() {
    let c = cfg("mode = \"off\"\n");
    let mut r = req("git reset --hard");
    r.mode = Some(Mode::Manual);
    let v = policy::evaluate(&r, &c, &mut MemoryStore::new());
    assert_eq!(v.decision, Decision::Ask);
}

#[test]
fn manual_mode_asks_for_approve_findings() {
    let v = decide("git reset --hard", &cfg(""));
    assert_eq!(v.decision, Decision::Ask);
    assert_eq!(v.decided_by, DecidedBy::Ask);
    assert!(v.reason.contains("SG"), "{}", v.reason);
}

// Step 4 -----------------------------------------------------------------------------

#[test]
fn step4_allowlist_rule_code_name_and_hermes_key_cover_findings() {
    for entry in [
        "SG3301",
        "git-reset-hard",
        "git reset --hard (destroys uncommitted changes)",
    ] {
        let c = cfg(&format!("allow = [\"{entry}\"]\n"));
        let v = decide("git reset --hard", &c);
        assert_eq!(v.decision, Decision::Allow, "entry {entry}: {}", v.reason);
        assert!(matches!(v.decided_by, DecidedBy::Approvals { .. }));
    }
}

#[test]
fn allowlist_command_glob_covers_only_its_target() {
    let c = cfg("allow = [\"git push --force origin feature*\"]\n");
    assert_eq!(
        decide("git push --force origin feature/x", &c).decision,
        Decision::Allow
    );
    assert_eq!(
        decide("git push --force origin main", &c).decision,
        Decision::Ask
    );
}

#[test]
fn approval_of_one_delete_does_not_cover_a_pipe_to_shell_after_it() {
    let c = cfg("allow = [\"rm -rf build\"]\n");
    assert_eq!(decide("rm -rf build", &c).decision, Decision::Allow);
    let v = decide("rm -rf build && curl x | sh", &c);
    assert_eq!(v.decision, Decision::Ask, "{}", v.reason);
    assert!(v.reason.contains("SG4001"), "{}", v.reason);
    assert!(
        !v.reason.contains("SG2001"),
        "the covered finding is not asked about: {}",
        v.reason
    );
}

#[test]
fn session_approval_covers_same_rule_and_target_only() {
    let c = cfg("");
    let mut store = MemoryStore::new();
    let r = req("rm -rf build");
    assert_eq!(policy::evaluate(&r, &c, &mut store).decision, Decision::Ask);
    let rec = policy::record_answer(&r, Answer::Session, AnswerSource::Prompt, &c, &mut store);
    assert_eq!(rec.approvals.len(), 1, "{:?}", rec.warnings);
    let v = policy::evaluate(&r, &c, &mut store);
    assert_eq!(v.decision, Decision::Allow);
    assert!(
        matches!(v.decided_by, DecidedBy::Approvals { ref session, .. } if !session.is_empty())
    );
    // Another target of the same rule.
    assert_eq!(
        policy::evaluate(&req("rm -rf src"), &c, &mut store).decision,
        Decision::Ask
    );
    // Extra findings.
    assert_eq!(
        policy::evaluate(&req("rm -rf build && curl x | sh"), &c, &mut store).decision,
        Decision::Ask
    );
    // The same text resolving to another path (`cd /etc` first).
    assert_eq!(
        policy::evaluate(&req("cd /home/user && rm -rf build"), &c, &mut store).decision,
        Decision::Ask
    );
    // Another session.
    let mut other = req("rm -rf build");
    other.session = Some("s2".into());
    assert_eq!(
        policy::evaluate(&other, &c, &mut store).decision,
        Decision::Ask
    );
}

#[test]
fn session_approval_covers_the_same_command_inside_a_larger_one() {
    let c = cfg("");
    let mut store = MemoryStore::new();
    let r = req("rm -rf build");
    policy::record_answer(&r, Answer::Session, AnswerSource::Prompt, &c, &mut store);
    let v = policy::evaluate(&req("make clean; rm -rf build"), &c, &mut store);
    assert_eq!(v.decision, Decision::Allow, "{}", v.reason);
}

#[test]
fn session_approval_expires() {
    let c = cfg("session_ttl = 60\n");
    let mut store = MemoryStore::new();
    let r = req("git reset --hard");
    policy::record_answer(&r, Answer::Session, AnswerSource::Prompt, &c, &mut store);
    let mut later = r.clone();
    later.now = Some(r.now.unwrap_or(0) + 59);
    assert_eq!(
        policy::evaluate(&later, &c, &mut store).decision,
        Decision::Allow
    );
    later.now = Some(r.now.unwrap_or(0) + 61);
    assert_eq!(
        policy::evaluate(&later, &c, &mut store).decision,
        Decision::Ask
    );
}

#[test]
fn deferred_once_approval_allows_the_next_identical_run_only() {
    let c = cfg("");
    let mut store = MemoryStore::new();
    let r = req("git reset --hard");
    let rec = policy::record_answer(&r, Answer::Once, AnswerSource::Deferred, &c, &mut store);
    assert_eq!(rec.approvals.len(), 1);
    let v = policy::evaluate(&r, &c, &mut store);
    assert_eq!(v.decision, Decision::Allow);
    assert!(matches!(
        v.decided_by,
        DecidedBy::Approvals { once: Some(_), .. }
    ));
    assert_eq!(
        policy::evaluate(&r, &c, &mut store).decision,
        Decision::Ask,
        "used up"
    );
    // Not another command, not another directory.
    policy::record_answer(&r, Answer::Once, AnswerSource::Deferred, &c, &mut store);
    assert_eq!(
        policy::evaluate(&req("git reset --hard HEAD~3"), &c, &mut store).decision,
        Decision::Ask
    );
    let mut elsewhere = r.clone();
    elsewhere.context.cwd = Some("/srv/other".into());
    assert_eq!(
        policy::evaluate(&elsewhere, &c, &mut store).decision,
        Decision::Ask
    );
}

#[test]
fn once_from_a_prompt_stores_nothing_but_is_in_the_ledger() {
    let c = cfg("");
    let mut store = MemoryStore::new();
    let r = req("git reset --hard");
    let rec = policy::record_answer(&r, Answer::Once, AnswerSource::HarnessRan, &c, &mut store);
    assert!(rec.approvals.is_empty());
    assert_eq!(policy::evaluate(&r, &c, &mut store).decision, Decision::Ask);
    let e = &store.ledger[0];
    assert_eq!(e.decided_by, "harness");
    assert_eq!(e.answer, Some(Answer::Once));
    assert_eq!(e.decision, Decision::Allow);
}

#[test]
fn answers_never_approve_a_blocked_command() {
    let c = cfg("deny = [\"npm publish*\"]\n");
    let mut store = MemoryStore::new();
    for cmd in ["rm -rf /", "npm publish"] {
        let r = req(cmd);
        let rec = policy::record_answer(&r, Answer::Session, AnswerSource::Prompt, &c, &mut store);
        assert!(rec.approvals.is_empty());
        assert_eq!(
            store.ledger.last().map(|e| e.decision),
            Some(Decision::Deny)
        );
        assert_eq!(
            policy::evaluate(&r, &c, &mut store).decision,
            Decision::Deny
        );
    }
}

#[test]
fn always_answer_writes_visible_allow_entries_that_cover_only_that_target() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "# my settings\nmode = \"manual\"\n").unwrap();
    let paths = policy::Paths {
        config: Some(path.clone()),
        config_explicit: true,
        state_db: None,
        checkpoints: None,
    };
    let c = LoadedConfig::load_with(paths.clone(), None);
    let mut store = MemoryStore::new();
    let r = req("git push --force origin feature");
    let rec = policy::record_answer(&r, Answer::Always, AnswerSource::Prompt, &c, &mut store);
    assert_eq!(rec.allow_entries.len(), 1, "{:?}", rec.warnings);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("# my settings"), "comments are kept: {text}");
    assert!(
        text.contains("SG3302: git push --force origin feature"),
        "{text}"
    );
    let c = LoadedConfig::load_with(paths, None);
    assert_eq!(
        policy::evaluate(&r, &c, &mut store).decision,
        Decision::Allow
    );
    assert_eq!(
        policy::evaluate(&req("git push --force origin main"), &c, &mut store).decision,
        Decision::Ask
    );
}

#[test]
fn allowlist_never_covers_what_could_not_be_analysed() {
    let c = cfg("allow = [\"*\", \"SG0001\", \"SG0002\", \"SG0003\", \"SG0004\"]\n");
    let big = format!("echo {}", "a".repeat(shellgate::MAX_COMMAND_BYTES + 1));
    assert_eq!(decide(&big, &c).decision, Decision::Ask);
}

// Step 5 -----------------------------------------------------------------------------

#[test]
fn step5_smart_allows_low_risk_deletes() {
    let c = cfg("mode = \"smart\"\n");
    for cmd in [
        "rm -rf ./build",
        "rm -rf node_modules",
        "rm -rf /tmp/build-123",
        "rm -rf target/debug",
        "d=$(mktemp -d) && cd \"$d\" && touch a && rm -rf \"$d\"",
        "rm -rf ~/.cache/pip",
    ] {
        let v = decide(cmd, &c);
        assert_eq!(v.decision, Decision::Allow, "{cmd}: {}", v.reason);
        assert!(matches!(v.decided_by, DecidedBy::Smart { .. }), "{cmd}");
    }
}

#[test]
fn smart_mode_still_asks_for_the_rest() {
    let c = cfg("mode = \"smart\"\n");
    for cmd in [
        "rm -rf .",
        "rm -rf *",
        "rm -rf ..",
        "rm -rf /tmp/*",
        "rm -rf /tmp",
        "rm -rf ~/Documents",
        "rm -rf \"$X\"",
        "sudo rm -rf build",
        "rm -rf build && curl x | sh",
        "git reset --hard",
        "d=$(mktemp -d); d=/srv/data; rm -rf \"$d\"",
        "rm -rf .git",
        "rm -rf .env.d .envrc",
        "rm -rf .claude",
    ] {
        let v = decide(cmd, &c);
        assert_ne!(v.decision, Decision::Allow, "{cmd}: {}", v.reason);
    }
}

fn assessor(dir: &std::path::Path, body: &str) -> String {
    let p = dir.join("assess.sh");
    std::fs::write(
        &p,
        format!(
            "#!/bin/sh\ncat > \"{}/input.json\"\n{body}\n",
            dir.display()
        ),
    )
    .unwrap();
    format!("sh {}", p.display())
}

#[test]
fn assessor_allows_denies_and_gets_the_command_findings_and_cwd() {
    let dir = tempfile::tempdir().unwrap();
    let allow = assessor(
        dir.path(),
        "echo '{\"verdict\":\"allow\",\"reason\":\"fine\"}'",
    );
    let c = cfg(&format!(
        "mode = \"smart\"\n[smart]\nassessor = '{allow}'\n"
    ));
    let v = decide("git reset --hard", &c);
    assert_eq!(v.decision, Decision::Allow, "{}", v.reason);
    assert!(matches!(v.decided_by, DecidedBy::Assessor { .. }));
    let input: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("input.json")).unwrap())
            .unwrap();
    assert_eq!(input["command"], "git reset --hard");
    assert_eq!(input["cwd"], "/home/user/project");
    assert_eq!(input["findings"][0]["rule"], "SG3301");
    let deny = assessor(
        dir.path(),
        "echo '{\"verdict\":\"deny\",\"reason\":\"no\"}'",
    );
    let c = cfg(&format!("mode = \"smart\"\n[smart]\nassessor = '{deny}'\n"));
    assert_eq!(decide("git reset --hard", &c).decision, Decision::Deny);
}

#[test]
fn assessor_failure_timeout_or_garbage_means_ask() {
    let dir = tempfile::tempdir().unwrap();
    for body in [
        "exit 3",
        "echo 'not json'",
        "echo '{\"verdict\":\"yes\"}'",
        "sleep 5; echo '{\"verdict\":\"allow\"}'",
    ] {
        let a = assessor(dir.path(), body);
        let c = cfg(&format!(
            "mode = \"smart\"\n[smart]\nassessor = '{a}'\ntimeout = 1\n"
        ));
        let v = decide("git reset --hard", &c);
        assert_eq!(v.decision, Decision::Ask, "{body}: {}", v.reason);
    }
}

#[test]
fn assessor_never_overrides_block_or_deny_globs() {
    let dir = tempfile::tempdir().unwrap();
    let a = assessor(
        dir.path(),
        "echo '{\"verdict\":\"allow\",\"reason\":\"fine\"}'",
    );
    let c = cfg(&format!(
        "mode = \"smart\"\ndeny = [\"git reset*\"]\n[smart]\nassessor = '{a}'\n"
    ));
    assert_eq!(decide("rm -rf /", &c).decision, Decision::Deny);
    assert_eq!(decide("git reset --hard", &c).decision, Decision::Deny);
    assert!(!dir.path().join("input.json").exists(), "never consulted");
}

// Step 6 -----------------------------------------------------------------------------

#[test]
fn step6_unattended_ask_becomes_deny() {
    let c = cfg("");
    let mut r = req("git reset --hard");
    r.unattended = true;
    let v = policy::evaluate(&r, &c, &mut MemoryStore::new());
    assert_eq!(v.decision, Decision::Deny);
    assert_eq!(v.decided_by, DecidedBy::Unattended);
}

#[test]
fn unattended_ask_setting_keeps_ask() {
    let c = cfg("unattended = \"ask\"\n");
    let mut r = req("git reset --hard");
    r.unattended = true;
    assert_eq!(
        policy::evaluate(&r, &c, &mut MemoryStore::new()).decision,
        Decision::Ask
    );
}

#[test]
fn unattended_runs_still_use_approvals() {
    let c = cfg("allow = [\"SG3301\"]\n");
    let mut r = req("git reset --hard");
    r.unattended = true;
    assert_eq!(
        policy::evaluate(&r, &c, &mut MemoryStore::new()).decision,
        Decision::Allow
    );
}

// Config failures and the store --------------------------------------------------------

#[test]
fn malformed_config_is_strictest_never_allow_all() {
    let c = LoadedConfig::from_toml(
        "mode = \"off\"\nallow = [\"*\"]\nunattended = \"ask\"\ntimeout = \"x\"\n",
    );
    assert!(c.is_strict_fallback());
    let v = decide("git reset --hard", &c);
    assert_eq!(v.decision, Decision::Ask);
    assert!(
        c.problems()
            .iter()
            .any(|w| w.contains("<inline>:4: key `timeout`")),
        "{:?}",
        c.problems()
    );
    let mut r = req("git reset --hard");
    r.mode = Some(Mode::Off);
    assert_eq!(
        policy::evaluate(&r, &c, &mut MemoryStore::new()).decision,
        Decision::Ask
    );
}

#[test]
fn failing_store_is_reported_and_never_allows() {
    let c = cfg("");
    let mut store = policy::FailingStore("disk on fire".into());
    let v = policy::evaluate(&req("git reset --hard"), &c, &mut store);
    assert_eq!(v.decision, Decision::Ask);
    assert!(
        v.warnings.iter().any(|w| w.contains("disk on fire")),
        "{:?}",
        v.warnings
    );
    let v = policy::evaluate(&req("ls"), &c, &mut store);
    assert_eq!(v.decision, Decision::Allow);
    assert!(v.warnings.iter().any(|w| w.contains("not recorded")));
}

#[test]
fn every_decision_is_in_the_ledger() {
    let c = cfg("");
    let mut store = MemoryStore::new();
    policy::evaluate(&req("ls"), &c, &mut store);
    policy::evaluate(&req("git reset --hard"), &c, &mut store);
    policy::evaluate(&req("rm -rf /"), &c, &mut store);
    let got: Vec<(Decision, String)> = store
        .ledger
        .iter()
        .map(|e| (e.decision, e.decided_by.clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            (Decision::Allow, "no-findings".to_string()),
            (Decision::Ask, "ask".to_string()),
            (Decision::Deny, "rule".to_string()),
        ]
    );
    let e = &store.ledger[1];
    assert_eq!(e.session.as_deref(), Some("s1"));
    assert_eq!(e.harness.as_deref(), Some("test"));
    assert_eq!(e.cwd.as_deref(), Some("/home/user/project"));
    assert_eq!(e.findings[0].rule, "SG3301");
    assert_eq!(e.findings[0].target, "git reset --hard");
}

#[test]
fn revoked_and_cleared_approvals_stop_applying() {
    let c = cfg("");
    let mut store = MemoryStore::new();
    let r = req("git reset --hard");
    let rec = policy::record_answer(&r, Answer::Session, AnswerSource::Prompt, &c, &mut store);
    assert!(store.revoke(rec.approvals[0]).unwrap());
    assert_eq!(policy::evaluate(&r, &c, &mut store).decision, Decision::Ask);
    policy::record_answer(&r, Answer::Session, AnswerSource::Prompt, &c, &mut store);
    assert_eq!(store.clear(Some("s1")).unwrap(), 1);
    assert_eq!(policy::evaluate(&r, &c, &mut store).decision, Decision::Ask);
    let all = store.all_approvals(0).unwrap();
    assert!(all.iter().all(|a| a.scope != Scope::Session));
}

#[test]
fn broken_config_keeps_its_deny_globs_and_drops_everything_that_loosens() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(
        &path,
        "mode = \"off\"\nallow = [\"*\"]\ndeny = [\"git push --force*\"]\ntimeout = \"soon\"\n",
    )
    .unwrap();
    let c = LoadedConfig::load(Some(&path), None);
    assert!(c.is_strict_fallback());
    let e = &c.errors[0];
    assert_eq!(e.file, path);
    assert_eq!((e.line, e.key.as_deref()), (Some(4), Some("timeout")));
    assert_eq!(decide("git push --force", &c).decision, Decision::Deny);
    assert_eq!(decide("git reset --hard", &c).decision, Decision::Ask);
}

#[test]
fn missing_explicit_config_is_an_error_but_missing_default_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let c = LoadedConfig::load(Some(&dir.path().join("nope.toml")), None);
    assert!(c.is_strict_fallback());
    let paths = policy::Paths {
        config: Some(dir.path().join("nope.toml")),
        config_explicit: false,
        state_db: None,
        checkpoints: None,
    };
    assert!(!LoadedConfig::load_with(paths, None).is_strict_fallback());
}

#[test]
fn project_file_can_only_tighten() {
    let dir = tempfile::tempdir().unwrap();
    let user = dir.path().join("user.toml");
    std::fs::write(&user, "mode = \"off\"\ntimeout = 100\n").unwrap();
    let proj = dir.path().join("repo");
    let sub = proj.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(
        proj.join(".shellgate.toml"),
        "mode = \"off\"\nallow = [\"*\"]\nsudo_password_configured = true\ndeny = [\"make deploy*\"]\ntimeout = 500\n[severity]\nSG2001 = \"block\"\n[smart]\nassessor = \"echo allow\"\n",
    )
    .unwrap();
    let paths = policy::Paths {
        config: Some(user.clone()),
        config_explicit: true,
        state_db: None,
        checkpoints: None,
    };
    let c = LoadedConfig::load_with(paths.clone(), Some(&sub));
    assert!(c.errors.is_empty(), "{:?}", c.errors);
    assert_eq!(c.project_files, vec![proj.join(".shellgate.toml")]);
    assert!(c.config.allow.is_empty());
    assert!(!c.config.sudo_password_configured);
    assert!(c.config.smart.assessor.is_none());
    assert_eq!(c.config.timeout, 100, "a longer timeout is ignored");
    for w in [
        "allow",
        "sudo_password_configured",
        "timeout = 500",
        "smart.assessor",
    ] {
        assert!(
            c.warnings.iter().any(|x| x.contains(w)),
            "{w}: {:?}",
            c.warnings
        );
    }
    let mut r = req("make deploy prod");
    r.context.cwd = Some(sub.display().to_string());
    assert_eq!(
        policy::evaluate(&r, &c, &mut MemoryStore::new()).decision,
        Decision::Deny
    );
    let mut r = req("rm -rf build");
    r.context.cwd = Some(sub.display().to_string());
    assert_eq!(
        policy::evaluate(&r, &c, &mut MemoryStore::new()).decision,
        Decision::Deny
    );
    // A stricter mode is taken.
    std::fs::write(proj.join(".shellgate.toml"), "mode = \"manual\"\n").unwrap();
    let c = LoadedConfig::load_with(paths, Some(&sub));
    assert_eq!(c.config.mode, Mode::Manual);
    assert_eq!(decide("git reset --hard", &c).decision, Decision::Ask);
}

#[test]
fn configured_protected_paths_make_writes_and_deletes_ask() {
    let c = cfg(
        "mode = \"smart\"\nprotected_paths = [\"~/notes\", \"/srv/data/*.db\", \"/home/user/project/vendor\"]\n",
    );
    for cmd in [
        "echo x > ~/notes/todo.md",
        "cp a.db /srv/data/main.db",
        "rm -rf vendor",
        "sed -i s/a/b/ /home/user/notes/x",
    ] {
        let v = decide(cmd, &c);
        assert_eq!(v.decision, Decision::Ask, "{cmd}: {}", v.reason);
    }
    assert_eq!(decide("echo x > ~/other.md", &c).decision, Decision::Allow);
    assert_eq!(
        decide("rm -rf build", &c).decision,
        Decision::Allow,
        "smart"
    );
    assert_eq!(
        decide("echo x > ~/notes/todo.md", &cfg("")).decision,
        Decision::Allow
    );
}

#[test]
fn configured_harness_names_are_protected_from_kill() {
    let c = cfg("harness_processes = [\"my-agent\"]\n");
    for cmd in [
        "pkill -f my-agent",
        "killall my-agent",
        "kill $(pgrep -f my-agent)",
        "pkill -f agent",
    ] {
        assert_eq!(decide(cmd, &c).decision, Decision::Ask, "{cmd}");
    }
    assert_eq!(
        decide("pkill -f my-agent", &cfg("")).decision,
        Decision::Allow
    );
    assert_eq!(decide("pkill -f webpack", &c).decision, Decision::Allow);
}

#[test]
fn default_policy_gives_the_analyzer_decision_on_the_whole_corpus() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let files = shellgate::corpus::files(&dir).unwrap();
    let loose = cfg("mode = \"off\"\nallow = [\"*\"]\n");
    let mut n = 0;
    for f in files {
        for l in shellgate::corpus::load(&f).unwrap() {
            let cmd = &l.case.cmd;
            let a = shellgate::analyze(cmd, &Context::fixture());
            let analyzer = decide_default(&a);
            let v = policy::evaluate(
                &req(cmd),
                &LoadedConfig::defaults(),
                &mut MemoryStore::new(),
            );
            assert_eq!(v.decision, analyzer, "{cmd}: {}", v.reason);
            // The loosest config never allows what the analyzer denies or cannot analyse.
            let v = policy::evaluate(&req(cmd), &loose, &mut MemoryStore::new());
            if analyzer == Decision::Deny {
                assert_eq!(v.decision, Decision::Deny, "{cmd}");
            }
            if a.findings
                .iter()
                .any(|f| f.category == shellgate::rules::Category::Analysis)
            {
                assert_ne!(v.decision, Decision::Allow, "{cmd}");
            }
            n += 1;
        }
    }
    assert!(n > 500, "{n} corpus cases");
}
