//! Every Hermes Agent approval key (HERMES_KEYS.md, v0.19.0) is covered by some rule's
//! metadata, so a Hermes user's allowlist and deny entries keep their meaning.

use std::collections::BTreeSet;

use shellgate::rules::RULES;

/// The keys, copied from the shared HERMES_KEYS.md (kept here so the repo stands alone).
const HERMES_KEYS: &[&str] = &[
    // unconditional tier
    "recursive delete of root filesystem",
    "recursive delete of system directory",
    "recursive delete of home directory",
    "format filesystem (mkfs)",
    "dd to raw block device",
    "redirect to raw block device",
    "fork bomb",
    "kill all processes",
    "system shutdown/reboot",
    "init 0/6 (shutdown/reboot)",
    "systemctl poweroff/reboot",
    "telinit 0/6 (shutdown/reboot)",
    // approval tier
    "delete in root path",
    "recursive delete",
    "recursive delete (long flag)",
    "Windows cmd destructive delete",
    "Windows PowerShell destructive delete",
    "PowerShell encoded command execution",
    "world/other-writable permissions",
    "recursive world/other-writable (long flag)",
    "recursive chown to root",
    "recursive chown to root (long flag)",
    "format filesystem",
    "disk copy",
    "write to block device",
    "SQL DROP",
    "SQL DELETE without WHERE",
    "SQL TRUNCATE",
    "overwrite system config",
    "stop/restart system service",
    "force kill processes",
    "force kill processes (killall -KILL)",
    "force kill processes (killall -s KILL)",
    "kill processes by regex (killall -r)",
    "pipe remote content to shell",
    "execute remote script via process substitution",
    "execute remote content via command substitution",
    "pipe decoded content to shell (possible command obfuscation)",
    "pipe xxd-decoded content to shell (possible command obfuscation)",
    "pipe tr-transformed output to shell (possible command obfuscation)",
    "pipe openssl-decoded content to shell (possible command obfuscation)",
    "overwrite system file via tee",
    "overwrite system file via redirection",
    "overwrite project env/config via tee",
    "overwrite project env/config via redirection",
    "xargs with rm",
    "find -exec/-execdir rm",
    "find -delete",
    "stop/restart hermes gateway (kills running agents)",
    "hermes update (restarts gateway, kills running agents)",
    "docker compose restart/stop/kill/down (container lifecycle)",
    "docker restart/stop/kill (container lifecycle)",
    "start gateway outside systemd (use 'systemctl --user restart hermes-gateway')",
    "kill hermes/gateway process (self-termination)",
    "kill process via pgrep/pidof expansion (self-termination)",
    "kill process via backtick pgrep/pidof expansion (self-termination)",
    "stop/restart hermes launchd service (kills running agents)",
    "copy/move file into system config path",
    "overwrite project env/config file",
    "copy/move file into sensitive credential/SSH/shell-rc path",
    "in-place edit of sensitive credential/SSH/shell-rc path",
    "in-place edit of sensitive credential/SSH/shell-rc path (long flag)",
    "in-place edit of sensitive credential/SSH/shell-rc path (perl/ruby)",
    "in-place edit of system config",
    "in-place edit of system config (long flag)",
    "in-place edit of Hermes config/env",
    "in-place edit of Hermes config/env (long flag)",
    "in-place edit of Hermes config/env (perl/ruby)",
    "shell execution via heredoc",
    "git reset --hard (destroys uncommitted changes)",
    "git force push (rewrites remote history)",
    "git force push short flag (rewrites remote history)",
    "git clean with force (deletes untracked files)",
    "git branch force delete",
    "git branch force delete (long flags)",
    "git branch force delete (long flags, force-first)",
    "chmod +x followed by immediate execution",
    "sudo with privilege flag (stdin/askpass/shell/list)",
    "sudo with combined-flag privilege escalation",
    // non-regex detectors
    "script execution via -e/-c flag",
    "script execution via heredoc",
    "shell command via -c/-lc flag",
    "arbitrary program execution via <tool> <option>",
    "command parser limit exceeded",
    "command parser limit or malformed executable payload",
];

/// Hermes keys shellgate deliberately does not reproduce, with the reason.
const NOT_APPLICABLE: &[(&str, &str)] = &[
    (
        "shell command via -c/-lc flag",
        "Hermes asks for every `bash -c`; shellgate parses the -c code and judges what it does (`sh -c 'echo hi'` is allowed)",
    ),
    (
        "shell execution via heredoc",
        "Hermes asks for every heredoc into a shell; shellgate parses the heredoc body as bash and judges it",
    ),
];

#[test]
fn every_hermes_key_is_covered_by_a_rule_or_marked_not_applicable() {
    let declared: BTreeSet<&str> = RULES
        .iter()
        .flat_map(|r| r.meta().hermes.iter().copied())
        .collect();
    let mut missing = Vec::new();
    for key in HERMES_KEYS {
        if NOT_APPLICABLE.iter().any(|(k, _)| k == key) {
            continue;
        }
        let covered = if let Some(prefix) = key.strip_suffix("<tool> <option>") {
            declared.iter().any(|d| d.starts_with(prefix))
        } else {
            declared.contains(key)
        };
        if !covered {
            missing.push(*key);
        }
    }
    assert!(
        missing.is_empty(),
        "Hermes keys no rule declares:\n{}",
        missing.join("\n")
    );
}

#[test]
fn rules_declare_only_real_hermes_keys() {
    for r in RULES {
        for k in r.meta().hermes {
            let known =
                HERMES_KEYS.contains(k) || k.starts_with("arbitrary program execution via ");
            assert!(known, "{} declares unknown Hermes key {k:?}", r.meta().code);
        }
    }
}
