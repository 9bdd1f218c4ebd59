//! SG8008: the long tail: a subcommand whose verb destroys persistent or remote state
//! (`delete`, `destroy`, `purge`, `drop`, `wipe`, ...) of any resource-managing CLI.

use crate::declare_rule;
use crate::model::Command;
use crate::model::opts::{Opts, grammars};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Judges a program by what its subcommand verb does, from the **verb lexicon**
    /// (`LEXICON` in this file: one row per verb with its meaning and when it counts). It
    /// flags a command whose first one to three non-option words contain a verb that
    /// destroys state (`delete`, `destroy`, `remove`, `rm`, `purge`, `drop`, `terminate`,
    /// `wipe`, `prune`, `undefine`, `erase`, `nuke`, `flush*`, `factory-reset`, `forget`,
    /// those verbs with a suffix (`delete-cluster`, `drop_database`) or as the last part of
    /// a task name (`rails db:drop`, `heroku apps:destroy`, `php artisan db:wipe`,
    /// `migrate:fresh`)); halts a machine or VM (`halt`, `poweroff`: `vagrant halt --force`); stops a
    /// named service, VM or queue, or all of them (`stop` as the subcommand: `pm2 stop app`,
    /// `supervisorctl stop all`), or restarts all or a daemon (`apachectl restart`); kills
    /// every job it manages (`kill --all`, `pm2 kill`; not `pueue kill 3`); garbage-collects
    /// (`gc`: `dvc gc`; `clean all`: `nh clean all`); or resets a machine or database
    /// (`reset` with `--force` or a target: `kubeadm reset -f`, `virsh reset vm1`,
    /// `npx prisma migrate reset --force`). It applies to any program, including ones
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
    /// Programs that are themselves a verb are the table `VERB_PROGRAMS`, each with the
    /// condition its grammar must show: `dropdb`, `nix-collect-garbage`, `nix-store --gc`,
    /// `debugfs -w`, `tune2fs` (any option but `-l`), `e2fsck -y|-p|-a` on a `/dev` device,
    /// `xfs_repair` (not `-n`), `btrfs rescue`, `btrfs check --repair`, `setcap` (not
    /// `-v`), `pivot_root`, `do-release-upgrade` (not `-c`). `MACHINE_CLIS` lists programs
    /// whose bare `stop`/`restart` acts on the machine or server they manage (`minikube
    /// stop`, `caddy stop`, like a `*ctl` program); `PROGRAM_VERBS` gives one program's
    /// verb a wider meaning (`pueue reset`, `nh clean`); `NOT_DESTRUCTIVE` removes a verb
    /// from one program where it means something else (`gcrane gc` lists, `timew stop`,
    /// `resolvectl flush-caches`). Options are read with the command's option grammar
    /// (`Command::opts`): an option's value is never a verb (`cbatticon -c poweroff`).
    ///
    /// To add a verb, add a row to `LEXICON` with its meaning and scope; to add a program,
    /// a row to `VERB_PROGRAMS` (and its grammar in `model::opts::grammars`), `MACHINE_CLIS`
    /// or `NOT_DESTRUCTIVE`; with pass/fail examples here and corpus cases.
    ///
    /// ## Known limitations
    /// Verbs are matched by name, not by knowing each CLI: a read-only subcommand named
    /// like a verb (`tool remove --dry-run`) still asks, and verbs placed after the third
    /// word are not seen. For a program with no grammar, an option's value is read as an
    /// operand (`tool --name x stop` stops a target `x`), and a bundle such as `-af` does not
    /// count as `--all`/`--force`.
    pub struct DestructiveVerb;
    code: "SG8008",
    name: "destructive-subcommand-verb",
    severity: Approve,
    category: Infrastructure,
    hermes: [],
    programs: [],
    summary: "A CLI subcommand whose verb destroys persistent or remote state",
    pass: ["echo delete", "grep -r remove src", "npm uninstall lodash", "cargo remove serde", "poetry remove x", "pip uninstall x", "git rm f", "git branch -d x", "gh repo list", "virsh list --all", "rails db:migrate", "lxc launch ubuntu x", "pueue kill 3", "nx reset", "pm2 logs", "vagrant up", "ssh host stop", "npm stop", "bazel shutdown", "bazel clean", "make clean", "gcrane gc repo", "dolt gc", "cbatticon -c poweroff", "in-toto-record stop --step-name s --key k", "dconf reset /org/x", "gsettings reset org.gnome.x key", "timew stop", "e2fsck -n /dev/sda1", "e2fsck -y disk.img", "tune2fs -l /dev/sda1", "debugfs /dev/sda1", "setcap -v cap_net_raw+ep f", "btrfs check /dev/sda1", "do-release-upgrade -c", "pueue restart 3"],
    fail: ["rails db:drop", "bin/rails db:drop", "rake db:drop", "virsh undefine vm --remove-all-storage", "gh repo delete owner/r --yes", "lxc delete x --force", "dropdb mydb", "heroku apps:destroy --app x", "php artisan db:wipe", "npx prisma migrate reset --force", "redis-cli flushall", "redis-cli -h h FLUSHDB", "multipass purge", "flyctl apps destroy x", "vagrant halt --force", "virsh destroy vm1", "apachectl restart", "pueue kill --all", "supervisorctl stop all", "dvc gc -w", "nh clean all", "kubeadm reset -f", "virsh reset vm1", "pm2 kill", "restic forget --keep-last 1 --prune", "minikube stop", "caddy stop", "pueue reset", "nh clean", "nix-collect-garbage -d", "debugfs -w /dev/sda1", "btrfs rescue zero-log /dev/sda1", "btrfs check --repair /dev/sda1", "tune2fs -O ^has_journal /dev/sda1", "e2fsck -y /dev/sda1", "setcap cap_net_raw+ep /usr/bin/x", "pivot_root . old", "do-release-upgrade", "btrfs subvolume delete /mnt/s"],
}

/// What a subcommand verb does to the resource it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    /// Deletes persistent or remote state.
    Destroy,
    /// Powers a machine or VM off, or ends a server.
    Halt,
    /// Stops or restarts a service, VM or job queue.
    Stop,
    /// Kills jobs or processes it manages.
    Kill,
    /// Garbage-collects: deletes what it judges unreferenced.
    Collect,
    /// Resets a machine, cluster node or database.
    Reset,
    /// Writes a filesystem's on-disk structures directly (repair, rescue, tuning).
    Rewrite,
    /// Changes file capabilities or the process's root directory.
    Privilege,
    /// Upgrades the operating system to a new release.
    Upgrade,
}

impl Meaning {
    fn describe(self) -> &'static str {
        match self {
            Meaning::Destroy => "destroys persistent or remote state",
            Meaning::Halt => "halts a machine, VM or server",
            Meaning::Stop => "stops or restarts a service, VM or job queue",
            Meaning::Kill => "kills the jobs or processes it manages",
            Meaning::Collect => "garbage-collects, deleting data it judges unreferenced",
            Meaning::Reset => "resets a machine, cluster node or database",
            Meaning::Rewrite => "writes a filesystem's on-disk structures directly",
            Meaning::Privilege => "changes file capabilities or the process's root",
            Meaning::Upgrade => "upgrades the operating system to a new release",
        }
    }
}

/// When a verb counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Always (`delete`, `halt`).
    Any,
    /// Only as the subcommand itself, the first operand (`apachectl restart`, `pm2 stop
    /// app`), where a later word is more often data (`ssh host stop`).
    First,
    /// Only over everything: `--all`, `-a`, `all` or `*` among the arguments, or no operand
    /// after the verb (`pueue kill --all`, `pm2 kill`; `pueue kill 3` is like `kill <pid>`).
    All,
    /// Only with `--force`/`-f`/`--yes` or naming a resource after the verb
    /// (`kubeadm reset -f`, `virsh reset vm1`; `nx reset` only clears a cache).
    ForceOrTarget,
    /// Only with an explicit `all`/`--all`/`-a` (`nh clean all`; `bazel clean` removes only
    /// build outputs).
    ExplicitAll,
    /// As the subcommand, of a named resource or of all (`pm2 stop app`, `qm stop 100`,
    /// `supervisorctl stop all`), or said to a daemon's control program (`apachectl stop`,
    /// `gitlab-ctl stop`). A bare `stop` of a tool's own session (`timew stop`, `mpc
    /// stop`) does not count.
    Target,
    /// As the subcommand, of all (`pm2 restart all`), or said to a daemon's control program
    /// (`apachectl restart`): restarting one named job re-runs it (`pueue restart 3`).
    Control,
}

/// One verb of the lexicon.
#[derive(Debug, Clone, Copy)]
pub struct Verb {
    pub word: &'static str,
    pub meaning: Meaning,
    pub scope: Scope,
}

const fn v(word: &'static str, meaning: Meaning, scope: Scope) -> Verb {
    Verb {
        word,
        meaning,
        scope,
    }
}

/// The verb lexicon over subcommand words. Destroy verbs also count with a suffix
/// (`delete-cluster`, `drop_database`) and as the last part of a task name (`db:drop`).
pub static LEXICON: &[Verb] = &[
    v("delete", Meaning::Destroy, Scope::Any),
    v("destroy", Meaning::Destroy, Scope::Any),
    v("remove", Meaning::Destroy, Scope::Any),
    v("rm", Meaning::Destroy, Scope::Any),
    v("purge", Meaning::Destroy, Scope::Any),
    v("drop", Meaning::Destroy, Scope::Any),
    v("terminate", Meaning::Destroy, Scope::Any),
    v("wipe", Meaning::Destroy, Scope::Any),
    v("prune", Meaning::Destroy, Scope::Any),
    v("undefine", Meaning::Destroy, Scope::Any),
    v("erase", Meaning::Destroy, Scope::Any),
    v("nuke", Meaning::Destroy, Scope::Any),
    v("obliterate", Meaning::Destroy, Scope::Any),
    v("flush", Meaning::Destroy, Scope::Any),
    v("flushall", Meaning::Destroy, Scope::Any),
    v("flushdb", Meaning::Destroy, Scope::Any),
    v("factory-reset", Meaning::Destroy, Scope::Any),
    v("factoryreset", Meaning::Destroy, Scope::Any),
    v("forget", Meaning::Destroy, Scope::First),
    v("halt", Meaning::Halt, Scope::Any),
    v("poweroff", Meaning::Halt, Scope::Any),
    v("power-off", Meaning::Halt, Scope::Any),
    v("stop", Meaning::Stop, Scope::Target),
    v("restart", Meaning::Stop, Scope::Control),
    v("kill", Meaning::Kill, Scope::All),
    v("gc", Meaning::Collect, Scope::Any),
    v("clean", Meaning::Collect, Scope::ExplicitAll),
    v("collect-garbage", Meaning::Collect, Scope::Any),
    v("reset", Meaning::Reset, Scope::ForceOrTarget),
];

fn lexicon(word: &str) -> Option<&'static Verb> {
    LEXICON.iter().find(|v| v.word == word)
}

/// Verbs that count as the last part of a task name (`db:reset`, `migrate:fresh`).
const TASK_VERBS: &[&str] = &["reset", "fresh"];

/// When a program that is itself a verb counts.
#[derive(Debug, Clone, Copy)]
pub enum When {
    /// Always (`pivot_root`, `dropdb`).
    Always,
    /// With one of these options (`debugfs -w`).
    With(&'static [&'static str]),
    /// Unless one of these options says it only reads (`setcap -v`, `xfs_repair -n`).
    Unless(&'static [&'static str]),
    /// With any option other than these (`tune2fs`: every option but `-l` writes).
    AnyOptionBut(&'static [&'static str]),
    /// With one of these options and a device operand (`e2fsck -y /dev/sdb1`).
    WithOnDevice(&'static [&'static str]),
    /// As this subcommand (`btrfs rescue ...`).
    Sub(&'static str),
    /// As this subcommand with one of these options (`btrfs check --repair`).
    SubWith(&'static str, &'static [&'static str]),
}

/// A program that is itself a verb (or one of whose subcommands is), read with its grammar.
#[derive(Debug, Clone, Copy)]
pub struct VerbProgram {
    pub names: &'static [&'static str],
    pub meaning: Meaning,
    pub when: When,
}

const fn p(names: &'static [&'static str], meaning: Meaning, when: When) -> VerbProgram {
    VerbProgram {
        names,
        meaning,
        when,
    }
}

/// Programs that are themselves a destructive verb: databases dropped, stores collected,
/// low-level filesystem writers, capabilities and the process root, release upgrades.
pub static VERB_PROGRAMS: &[VerbProgram] = &[
    p(&["dropdb", "dropuser"], Meaning::Destroy, When::Always),
    p(&["nix-collect-garbage"], Meaning::Collect, When::Always),
    p(
        &["nix-store"],
        Meaning::Collect,
        When::With(&["gc", "delete"]),
    ),
    p(&["debugfs"], Meaning::Rewrite, When::With(&["w"])),
    p(
        &["tune2fs"],
        Meaning::Rewrite,
        When::AnyOptionBut(&["l", "help"]),
    ),
    p(
        &["e2fsck", "fsck", "fsck.ext2", "fsck.ext3", "fsck.ext4"],
        Meaning::Rewrite,
        When::WithOnDevice(&["y", "p", "a"]),
    ),
    p(&["xfs_repair"], Meaning::Rewrite, When::Unless(&["n"])),
    p(&["btrfs"], Meaning::Rewrite, When::Sub("rescue")),
    p(
        &["btrfs"],
        Meaning::Rewrite,
        When::SubWith("check", &["repair", "init-csum-tree", "init-extent-tree"]),
    ),
    p(&["setcap"], Meaning::Privilege, When::Unless(&["v"])),
    p(
        &["pivot_root"],
        Meaning::Privilege,
        When::Unless(&["h", "help", "V", "version"]),
    ),
    p(
        &["do-release-upgrade"],
        Meaning::Upgrade,
        When::Unless(&["c", "check-dist-upgrade-only", "h", "help", "V", "version"]),
    ),
];

/// Programs that manage one machine, VM or server of their own: a bare `stop`/`restart`
/// acts on it (`minikube stop`, `caddy stop`), as it does for a `*ctl` control program.
pub static MACHINE_CLIS: &[&str] = &[
    "minikube",
    "caddy",
    "colima",
    "limactl",
    "multipass",
    "docker-machine",
    "orbctl",
    "lando",
    "ddev",
];

/// Programs whose verb means something else than the lexicon says: (program, verb). Each
/// was a false positive on real commands (tldr-pages).
pub static NOT_DESTRUCTIVE: &[(&str, &str)] = &[
    // `gc` only lists unreferenced images
    ("gcrane", "gc"),
    ("crane", "gc"),
    // `stop` ends the tool's own recording, timer or playback
    ("in-toto-record", "stop"),
    ("timew", "stop"),
    ("watson", "stop"),
    ("mpc", "stop"),
    ("asciinema", "stop"),
    // `restart` re-runs queued jobs
    ("pueue", "restart"),
    // caches, indexes and session state rebuilt on demand
    ("resolvectl", "flush-caches"),
    ("systemd-resolve", "flush-caches"),
    ("balooctl", "purge"),
    ("zoxide", "remove"),
    ("cliphist", "wipe"),
    ("cliphist", "delete"),
    ("module", "purge"),
    ("eselect", "purge"),
    // `libtool --mode=clean rm` deletes build objects only
    ("libtool", "rm"),
    // a desktop widget daemon of the user's own session
    ("eww", "kill"),
    ("awww", "kill"),
    // revokes a user's capabilities: fewer privileges, no data lost
    ("apptainer", "drop"),
    ("singularity", "drop"),
];

/// Programs whose own verb means more than the lexicon's default scope: (program, verb,
/// meaning). `pueue reset` kills every task and clears the queue; `nh clean` deletes old
/// generations of the profiles it names.
pub static PROGRAM_VERBS: &[(&str, &str, Meaning)] = &[
    ("pueue", "reset", Meaning::Kill),
    ("nh", "clean", Meaning::Collect),
];

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
    // the other infrastructure-as-code programs are in `DESTROY_ONLY_RULES`
    "terragrunt",
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
    "dolt",
    // settings editors: `reset` puts one key back to its default
    "dconf",
    "gsettings",
    "xfconf-query",
    "gconftool-2",
    "kwriteconfig5",
    "kwriteconfig6",
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
    "n",
    "fvm",
    "rvm",
    "haxelib",
    "apm",
    "meteor",
    "fisher",
    "omf",
    "phive",
    "pixi",
    "cordova",
    "hyprpm",
    "eim",
    "gup",
    "vf",
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

/// Programs whose own rules judge stopping, restarting and killing (the lexicon's other
/// meanings apply to every program not excluded above... except these).
const LIFECYCLE_RULED: &[&str] = &[
    "docker",
    "podman",
    "nerdctl",
    "docker-compose",
    "podman-compose",
    "systemctl",
    "service",
    "launchctl",
    "hermes",
    "kubectl",
    "kill",
    "pkill",
    "killall",
    "shutdown",
    "reboot",
    "halt",
    "poweroff",
];

/// Programs with dedicated rules (as the first group of `EXCLUDED`) that judge only deletion:
/// the lexicon still judges their other verbs (`vagrant halt --force`).
const DESTROY_ONLY_RULES: &[&str] = &[
    "vagrant",
    "terraform",
    "tofu",
    "pulumi",
    "serverless",
    "sls",
    "sam",
    "cdk",
    "cdktf",
];

/// Interpreter entry points that take a task name (`php artisan db:wipe`).
const TASK_RUNNERS: &[&str] = &["artisan", "manage.py", "bin/console", "console"];

/// Programs some other rule in the registry looks at: that rule judges their verbs.
fn has_own_rule(name: &str) -> bool {
    crate::rules::for_program(name)
        .iter()
        .any(|r| r.meta().code != DestructiveVerb::META.code)
}

/// The options and operands of a command as the lexicon reads them (from the command's
/// option grammar, `Command::opts`).
struct Reading<'a> {
    opts: &'a Opts,
    /// The argument texts the options index into.
    args: Vec<String>,
    /// The program has an entry in the grammar table.
    grammar: bool,
    /// Operand words (`+x` words are not verbs).
    ops: Vec<String>,
}

impl Reading<'_> {
    /// Was one of `names` given? For a program with no grammar, a short option counts only
    /// written alone (`-a`), not inside a word that may be a one-dash long option
    /// (`xcodebuild -target`).
    fn any_opt(&self, names: &[&str]) -> bool {
        self.opts.all().any(|o| {
            names.contains(&o.name.as_str())
                && (o.long
                    || self.grammar
                    || self
                        .args
                        .get(o.word)
                        .is_some_and(|w| w.chars().count() == 2))
        })
    }

    fn forced(&self) -> bool {
        self.any_opt(&["force", "f", "yes-i-really-mean-it", "yes", "y"])
    }

    fn all(&self) -> bool {
        self.any_opt(&["all", "a"]) || self.ops.iter().any(|o| o == "all")
    }
}

/// The meaning of `w` as a verb at operand position `pos` (0 = the subcommand), given the
/// operands after it.
fn verb_meaning(
    program: &str,
    w: &str,
    pos: usize,
    after: &[String],
    r: &Reading,
) -> Option<Meaning> {
    let lower = w.to_ascii_lowercase();
    let w = lower.as_str();
    let last = w.rsplit(':').next().unwrap_or(w);
    let colon = w.contains(':');
    if w.contains('/') || w.contains('.') || w.contains('=') {
        return None;
    }
    if NOT_DESTRUCTIVE.contains(&(program, last)) {
        return None;
    }
    if colon && TASK_VERBS.contains(&last) {
        return Some(Meaning::Destroy);
    }
    if pos == 0
        && let Some((_, _, m)) = PROGRAM_VERBS
            .iter()
            .find(|(p, v, _)| *p == program && *v == last)
    {
        return Some(*m);
    }
    if let Some(verb) = lexicon(last) {
        // A task name (`server:stop`, `queue:restart`) counts only for destroy verbs.
        if colon && verb.meaning != Meaning::Destroy {
            return None;
        }
        let base = program.rsplit('/').next().unwrap_or(program);
        let control = base.ends_with("ctl")
            || base.ends_with("-ctl")
            || base.ends_with("_ctl")
            || MACHINE_CLIS.contains(&base);
        let counts = match verb.scope {
            Scope::Any => true,
            Scope::First => pos == 0,
            Scope::All => after.is_empty() || r.all() || r.ops.iter().any(|o| o == "*"),
            Scope::ForceOrTarget => r.forced() || (pos == 0 && !after.is_empty()),
            Scope::ExplicitAll => r.all(),
            Scope::Target => pos == 0 && (control || r.all() || !after.is_empty()),
            Scope::Control => pos == 0 && (control || r.all()),
        };
        return counts.then_some(verb.meaning);
    }
    // `delete-cluster`, `drop_database`: a destroy verb with a suffix.
    LEXICON
        .iter()
        .filter(|v| v.meaning == Meaning::Destroy && v.scope == Scope::Any && v.word != "rm")
        .any(|v| {
            last.len() > v.word.len() + 1
                && last.starts_with(v.word)
                && matches!(last.as_bytes().get(v.word.len()), Some(b'-' | b'_'))
        })
        .then_some(Meaning::Destroy)
}

/// A program that is itself a verb ([`VERB_PROGRAMS`]), when its condition holds.
fn verb_program(name: &str, cmd: &Command, r: &Reading) -> Option<String> {
    let sub = r.opts.sub();
    VERB_PROGRAMS
        .iter()
        .filter(|p| p.names.contains(&name))
        .find_map(|p| {
            let holds = match p.when {
                When::Always => true,
                When::With(o) => r.any_opt(o),
                When::Unless(o) => !r.any_opt(o),
                When::AnyOptionBut(o) => r.opts.all().any(|x| !o.contains(&x.name.as_str())),
                When::WithOnDevice(o) => {
                    r.any_opt(o)
                        && r.opts
                            .operand_words(cmd.args())
                            .iter()
                            .any(|w| w.lit().is_some_and(|t| t.starts_with("/dev/")))
                }
                When::Sub(s) => sub == Some(s),
                When::SubWith(s, o) => sub == Some(s) && r.any_opt(o),
            };
            let shown = match p.when {
                When::Sub(s) | When::SubWith(s, _) => format!("{name} {s}"),
                _ => name.to_string(),
            };
            holds.then(|| format!("`{shown}` {}", p.meaning.describe()))
        })
}

fn destroys(cmd: &Command) -> Option<String> {
    let name = cmd.name.as_deref()?;
    let opts = &cmd.opts;
    let mut ops: Vec<String> = opts
        .operand_words(cmd.args())
        .iter()
        .map(|w| w.text_with("\u{fffd}"))
        .filter(|t| !t.starts_with('+'))
        .collect();
    let grammar = grammars::has_grammar(name);
    let r0 = Reading {
        opts,
        args: cmd.arg_texts(),
        grammar,
        ops: ops.clone(),
    };
    if r0.any_opt(&["help", "dry-run", "dryrun"]) || ops.iter().any(|o| o == "help") {
        return None;
    }
    // A subcommand path the grammar read (`btrfs subvolume delete`) is the verb path.
    let mut path: Vec<String> = opts.subcommand.iter().map(|(s, _)| s.clone()).collect();
    path.append(&mut ops);
    let ops = path;
    if let Some(m) = verb_program(name, cmd, &r0) {
        return Some(m);
    }
    let interpreter = crate::graph::is_interpreter(name) || crate::model::is_shell(name);
    let mut ops = ops;
    let mut destroy_only = false;
    if interpreter {
        let first = ops.first()?;
        if !TASK_RUNNERS
            .iter()
            .any(|t| first.as_str() == *t || first.ends_with(&format!("/{t}")))
        {
            return None;
        }
        ops.remove(0);
    } else if DESTROY_ONLY_RULES.contains(&name) {
        destroy_only = true;
    } else if EXCLUDED.contains(&name) || has_own_rule(name) {
        return None;
    }
    let r = Reading {
        ops: ops.clone(),
        ..r0
    };
    let path: Vec<&String> = ops.iter().take(3).collect();
    let (i, meaning) = path.iter().enumerate().find_map(|(i, w)| {
        let m = verb_meaning(name, w, i, &ops[i + 1..], &r)?;
        let ruled = if m == Meaning::Destroy {
            destroy_only
        } else {
            LIFECYCLE_RULED.contains(&name)
        };
        (!ruled).then_some((i, m))
    })?;
    let shown: Vec<&str> = path[..=i].iter().map(|s| s.as_str()).collect();
    Some(format!(
        "`{name} {}` {}",
        shown.join(" "),
        meaning.describe()
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
