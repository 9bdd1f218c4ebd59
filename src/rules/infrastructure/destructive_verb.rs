//! SG8008: the long tail: a subcommand whose verb destroys persistent or remote state
//! (`delete`, `destroy`, `purge`, `drop`, `wipe`, ...) of any resource-managing CLI.

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags a command whose first one to three non-option words contain a destructive
    /// verb: `delete`, `destroy`, `remove`, `rm`, `purge`, `drop`, `terminate`, `wipe`,
    /// `prune`, `undefine`, `erase`, `nuke`, `flush`/`flushall`/`flushdb`,
    /// `factory-reset`, those verbs with a suffix (`delete-cluster`, `drop_database`) or as
    /// the last part of a task name (`rails db:drop`, `heroku apps:destroy`,
    /// `php artisan db:wipe`, `migrate:fresh`), and `reset` with `--force`/`-f`
    /// (`npx prisma migrate reset --force`). It applies to any program, including ones
    /// shellgate has no rule for (`virsh undefine --remove-all-storage`, `gh repo delete`,
    /// `lxc delete`, `dropdb`), except programs with their own rules, version control
    /// (`git rm`, `hg remove`), project dependency and toolchain managers (`npm uninstall`,
    /// `cargo remove`, `poetry remove`, `pip uninstall`), and programs whose arguments are
    /// data (`echo`, `grep`, `cat`, editors, shells, ...).
    ///
    /// ## Why is this bad?
    /// Deleting remote or persistent resources (VMs, databases, repositories, releases) is
    /// usually unrecoverable, whichever CLI does it.
    ///
    /// ## Example
    /// ```sh
    /// rails db:drop               # approve
    /// echo "delete the cache"     # allow: echo only prints
    /// ```
    ///
    /// ## Known limitations
    /// Verbs are matched by name, not by knowing each CLI: a read-only subcommand named
    /// like a verb (`tool remove --dry-run`) still asks, and verbs placed after the third
    /// word are not seen.
    pub struct DestructiveVerb;
    code: "SG8008",
    name: "destructive-subcommand-verb",
    severity: Approve,
    category: Infrastructure,
    hermes: [],
    programs: [],
    summary: "A CLI subcommand whose verb destroys persistent or remote state",
    pass: ["echo delete", "grep -r remove src", "npm uninstall lodash", "cargo remove serde", "poetry remove x", "pip uninstall x", "git rm f", "git branch -d x", "gh repo list", "virsh list --all", "rails db:migrate", "lxc launch ubuntu x"],
    fail: ["rails db:drop", "bin/rails db:drop", "rake db:drop", "virsh undefine vm --remove-all-storage", "gh repo delete owner/r --yes", "lxc delete x --force", "dropdb mydb", "heroku apps:destroy --app x", "php artisan db:wipe", "npx prisma migrate reset --force", "redis-cli flushall", "redis-cli -h h FLUSHDB", "multipass purge", "flyctl apps destroy x"],
}

const VERBS: &[&str] = &[
    "delete",
    "destroy",
    "remove",
    "rm",
    "purge",
    "drop",
    "terminate",
    "wipe",
    "prune",
    "undefine",
    "erase",
    "nuke",
    "flush",
    "flushall",
    "flushdb",
    "factory-reset",
    "factoryreset",
];
/// Verbs that count as the last part of a task name (`db:reset`, `migrate:fresh`).
const TASK_VERBS: &[&str] = &["reset", "fresh"];
/// Programs that are themselves a destructive verb.
const VERB_PROGRAMS: &[&str] = &["dropdb", "dropuser"];

/// Programs handled by dedicated rules, version control, project dependency managers,
/// and programs whose arguments are data or code rather than a verb path.
const EXCLUDED: &[&str] = &[
    // dedicated rules (this branch)
    "aws",
    "gcloud",
    "az",
    "doctl",
    "eksctl",
    "gsutil",
    "kubectl",
    "oc",
    "microk8s",
    "k3s",
    "helm",
    "terraform",
    "tofu",
    "terragrunt",
    "pulumi",
    "cdk",
    "cdktf",
    "serverless",
    "sls",
    "sam",
    "vagrant",
    "cryptsetup",
    "apt",
    "apt-get",
    "aptitude",
    "dnf",
    "yum",
    "microdnf",
    "zypper",
    "pacman",
    "yay",
    "paru",
    "brew",
    "snap",
    "apk",
    "port",
    "dpkg",
    "rpm",
    "flatpak",
    "add-apt-repository",
    "apt-add-repository",
    "apt-key",
    "pacman-key",
    "iptables",
    "ip6tables",
    "iptables-legacy",
    "iptables-nft",
    "ebtables",
    "arptables",
    "iptables-restore",
    "nft",
    "ufw",
    "firewall-cmd",
    "pfctl",
    "efibootmgr",
    "bootctl",
    "userdel",
    "deluser",
    "delgroup",
    "groupdel",
    "usermod",
    "gpasswd",
    "dscl",
    "sysadminctl",
    // dedicated rules (other categories)
    "docker",
    "podman",
    "nerdctl",
    "docker-compose",
    "podman-compose",
    "lvm",
    "lvremove",
    "vgremove",
    "pvremove",
    "mdadm",
    "rm",
    "unlink",
    "rmdir",
    "find",
    "shred",
    "systemctl",
    "service",
    "kill",
    "killall",
    "killall5",
    "pkill",
    "crontab",
    "launchctl",
    "hermes",
    "chmod",
    "chown",
    "chgrp",
    "dd",
    "psql",
    "mysql",
    "mariadb",
    "sqlite3",
    "mongo",
    "mongosh",
    "shellgate",
    // version control
    "git",
    "hg",
    "svn",
    "bzr",
    "fossil",
    "jj",
    "darcs",
    "git-lfs",
    // project dependency and toolchain managers
    "npm",
    "pnpm",
    "yarn",
    "bun",
    "cargo",
    "poetry",
    "pip",
    "pip3",
    "pipx",
    "uv",
    "pdm",
    "hatch",
    "conda",
    "mamba",
    "micromamba",
    "gem",
    "bundle",
    "bundler",
    "composer",
    "go",
    "dotnet",
    "nuget",
    "mvn",
    "gradle",
    "rustup",
    "nvm",
    "pyenv",
    "rbenv",
    "asdf",
    "mise",
    "sdk",
    "deno",
    "opam",
    "cabal",
    "stack",
    "mix",
    "rebar3",
    "pub",
    "dart",
    "flutter",
    "swift",
    "renv",
    "vcpkg",
    "conan",
    // arguments are data, text, paths or code
    "echo",
    "printf",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "ack",
    "sed",
    "awk",
    "gawk",
    "mawk",
    "cut",
    "tr",
    "sort",
    "uniq",
    "wc",
    "head",
    "tail",
    "cat",
    "tac",
    "less",
    "more",
    "bat",
    "jq",
    "yq",
    "xq",
    "man",
    "help",
    "info",
    "tldr",
    "apropos",
    "whatis",
    "which",
    "whereis",
    "type",
    "command",
    "hash",
    "alias",
    "unalias",
    "history",
    "test",
    "[",
    "[[",
    "true",
    "false",
    ":",
    "export",
    "declare",
    "local",
    "readonly",
    "set",
    "unset",
    "printenv",
    "env",
    "read",
    "mapfile",
    "let",
    "expr",
    "seq",
    "yes",
    "sleep",
    "date",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "ls",
    "tree",
    "stat",
    "file",
    "du",
    "df",
    "touch",
    "cp",
    "mv",
    "ln",
    "diff",
    "cmp",
    "comm",
    "patch",
    "tee",
    "column",
    "fmt",
    "fold",
    "nl",
    "paste",
    "join",
    "split",
    "od",
    "xxd",
    "hexdump",
    "base64",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "gzip",
    "gunzip",
    "tar",
    "zip",
    "unzip",
    "7z",
    "vim",
    "vi",
    "nvim",
    "nano",
    "emacs",
    "code",
    "cd",
    "pushd",
    "popd",
    "mkdir",
    "say",
    "notify-send",
    "logger",
    "wall",
    "write",
    "mail",
    "ssh",
    "scp",
    "rsync",
    "curl",
    "wget",
    "trap",
    "exit",
    "return",
    "source",
    ".",
    "eval",
    "exec",
    "printenv",
    "getent",
    "id",
    "whoami",
    "pwd",
    "tmux",
    "screen",
    "script",
    "watch",
    "time",
    "timeout",
    "xargs",
    "parallel",
    "nohup",
    "sudo",
    "doas",
    "make",
];

/// Interpreter entry points that take a task name (`php artisan db:wipe`).
const TASK_RUNNERS: &[&str] = &["artisan", "manage.py", "bin/console", "console"];

/// Programs some other rule in the registry looks at: that rule judges their verbs.
fn has_own_rule(name: &str) -> bool {
    crate::rules::RULES
        .iter()
        .any(|r| r.meta().code != DestructiveVerb::META.code && r.meta().programs.contains(&name))
}

fn verb_like(w: &str, force: bool) -> bool {
    let lower = w.to_ascii_lowercase();
    let w = lower.as_str();
    let last = w.rsplit(':').next().unwrap_or(w);
    let colon = w.contains(':');
    if w.contains('/') || w.contains('.') || w.contains('=') {
        return false;
    }
    VERBS.contains(&last)
        || (colon && TASK_VERBS.contains(&last))
        || (last == "reset" && force)
        || VERBS.iter().any(|v| {
            last.len() > v.len() + 1
                && last.starts_with(v)
                && matches!(last.as_bytes().get(v.len()), Some(b'-' | b'_'))
                && *v != "rm"
        })
}

fn destroys(cmd: &Command) -> Option<String> {
    let name = cmd.name.as_deref()?;
    if cmd.arg_texts().iter().any(|a| a == "--help" || a == "help") {
        return None;
    }
    if VERB_PROGRAMS.contains(&name) {
        return Some(format!("`{name}` destroys persistent state"));
    }
    let args = cmd.arg_texts();
    let mut ops: Vec<&String> = args
        .iter()
        .filter(|a| !a.starts_with('-') && !a.starts_with('+'))
        .collect();
    let interpreter = crate::graph::is_interpreter(name) || crate::model::is_shell(name);
    if interpreter {
        let first = ops.first()?;
        if !TASK_RUNNERS
            .iter()
            .any(|t| first.as_str() == *t || first.ends_with(&format!("/{t}")))
        {
            return None;
        }
        ops.remove(0);
    } else if EXCLUDED.contains(&name) || has_own_rule(name) {
        return None;
    }
    if args
        .iter()
        .any(|a| a == "--dry-run" || a == "--dryrun" || a.starts_with("--dry-run="))
    {
        return None;
    }
    let force = args
        .iter()
        .any(|a| a == "--force" || a == "-f" || a == "--yes-i-really-mean-it");
    let path: Vec<&String> = ops.into_iter().take(3).collect();
    let i = path.iter().position(|w| verb_like(w, force))?;
    let shown: Vec<&str> = path[..=i].iter().map(|s| s.as_str()).collect();
    Some(format!(
        "`{name} {}` destroys persistent or remote state",
        shown.join(" ")
    ))
}

impl Rule for DestructiveVerb {
    fn check_script(&self, cx: &Cx, out: &mut Vec<Finding>) {
        for cmd in &cx.script.commands {
            if let Some(m) = destroys(cmd) {
                out.push(Finding::on(&Self::META, cmd, format!("{m}{}", route(cmd))));
            }
        }
    }
}
