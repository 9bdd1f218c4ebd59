//! The exec-hook table: options (and environment variables) whose value another program
//! runs, with how it runs it. One entry per option; each program's arguments are read with
//! its option grammar ([`crate::model::opts`]), so a value that merely looks like a hook
//! option (`rg -e --pre`, `rg -- --pre x`, `sort -T --compress-program f`) is none.
//!
//! A value run **through a shell** ([`Runs::Shell`]: `man -P`, `git -c core.pager=`,
//! `tar --to-command`, `ssh -o ProxyCommand=`) is lowered as nested shell code, so the
//! command is judged on what that code does (`git -c core.pager='rm -rf ~' log` is what
//! `rm -rf ~` is). A value **exec'd as a program** ([`Runs::Program`]: `rg --pre`,
//! `sort --compress-program`, `dhclient -sf`) runs code shellgate cannot see, and the
//! exec-hook rule (SG4005) asks, unless it is one of the entry's known programs (`gzip`
//! as a compressor). An option that **lets the program run code from elsewhere**
//! ([`Runs::Enables`]: `pdflatex --shell-escape`, `sudo -A`) is asked about too.

use super::opts::grammars::{TEX_ENGINES, VIM_FAMILY};
use super::opts::{self, Opt, Opts};
use super::{Assignment, Word, WrapperUse};

/// How a hook's value is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runs {
    /// Through a shell: the text is code, lowered and judged like any other.
    Shell,
    /// Exec'd as a program (with arguments split by the program itself): not visible.
    Program,
    /// The option makes the program run code that is not on the command line.
    Enables,
}

/// How the hook text is found in an option's value.
#[derive(Debug, Clone, Copy)]
pub enum Form {
    /// The whole value.
    Whole,
    /// The text after a prefix the value must start with (`exec=`, `unixexec:`).
    After(&'static str),
    /// `KEY=VALUE` settings (`git -c`, `hg --config`, `apt -o`, `ssh -o`), judged per key.
    Settings(&'static [Setting]),
    /// Settings whose value is read from an environment variable (`git --config-env`).
    SettingsFromEnv(&'static [Setting]),
    /// fzf's `--bind` action list: the commands of `execute(..)`, `become(..)`, ...
    FzfActions,
    /// An editor command (vim's `-c ':!cmd'`, less's `+!cmd`).
    EditorCommand,
    /// LESSOPEN's input preprocessor: `|cmd %s`, `||cmd %s`, `cmd %s`.
    Preprocessor,
    /// gcc's `-wrapper prog,arg,...`.
    CommaList,
}

/// Where an entry looks.
#[derive(Debug, Clone, Copy)]
pub enum At {
    /// Options, by the names the program's grammar resolves them to (`P`, `pager`).
    Options(&'static [&'static str]),
    /// Operands starting with a prefix (`ext::` URLs for git, `+cmd` for vim and less).
    Operand(&'static str),
}

/// One exec hook of one option.
#[derive(Debug, Clone, Copy)]
pub struct HookOption {
    pub programs: &'static [&'static str],
    pub at: At,
    pub runs: Runs,
    pub form: Form,
    /// Programs that are no hidden code in this hook (`gzip` as a compressor).
    pub known: &'static [&'static str],
}

/// One key of a settings hook (`core.pager`, `alias.*`): `key` is a lower-case glob (`*`
/// matches any text); the value must start with `prefix`, which is dropped.
#[derive(Debug, Clone, Copy)]
pub struct Setting {
    pub key: &'static str,
    pub prefix: &'static str,
    pub runs: Runs,
    pub known: &'static [&'static str],
}

/// An environment variable a program runs (`PAGER`, `GIT_SSH_COMMAND`), given as a prefix
/// assignment to one of `programs` (or a wrapper in front of it).
#[derive(Debug, Clone, Copy)]
pub struct EnvHook {
    pub vars: &'static [&'static str],
    /// Programs that read it; `*` is every program.
    pub programs: &'static [&'static str],
    pub runs: Runs,
    pub form: Form,
    pub known: &'static [&'static str],
}

const fn opt(
    programs: &'static [&'static str],
    names: &'static [&'static str],
    runs: Runs,
) -> HookOption {
    HookOption {
        programs,
        at: At::Options(names),
        runs,
        form: Form::Whole,
        known: &[],
    }
}

const fn setting(key: &'static str, runs: Runs) -> Setting {
    Setting {
        key,
        prefix: "",
        runs,
        known: &[],
    }
}

/// Pagers, editors and viewers that show text and run nothing else.
pub const PAGERS: &[&str] = &[
    "cat",
    "less",
    "more",
    "most",
    "pg",
    "true",
    "false",
    ":",
    "delta",
    "bat",
    "batcat",
    "diff-so-fancy",
    "vim",
    "vi",
    "nvim",
    "nano",
    "emacs",
    "code",
    "tee",
    "head",
    "w3m",
    "lynx",
    "firefox",
    "chromium",
    "google-chrome",
    "xdg-open",
    "open",
];
/// Compressors tar and sort run.
pub const COMPRESSORS: &[&str] = &[
    "gzip", "gunzip", "pigz", "zstd", "unzstd", "pzstd", "xz", "unxz", "pixz", "bzip2", "bunzip2",
    "pbzip2", "lbzip2", "lz4", "lzip", "plzip", "lzma", "lzop", "brotli", "compress", "zstdmt",
];
const SSH_CLIENTS: &[&str] = &["ssh", "rsh", "plink", "tortoiseplink", "autossh"];
const GIT_TRANSPORTS: &[&str] = &["git-upload-pack", "git-receive-pack", "git-upload-archive"];
const CREDENTIAL_HELPERS: &[&str] = &[
    "store",
    "cache",
    "osxkeychain",
    "manager",
    "manager-core",
    "libsecret",
    "wincred",
];

/// `git -c KEY=VALUE` keys whose value git runs.
pub static GIT_KEYS: &[Setting] = &[
    Setting {
        key: "alias.*",
        prefix: "!",
        runs: Runs::Shell,
        known: &[],
    },
    setting("core.pager", Runs::Shell),
    setting("pager.*", Runs::Shell),
    setting("core.editor", Runs::Shell),
    setting("sequence.editor", Runs::Shell),
    setting("core.sshcommand", Runs::Shell),
    setting("diff.external", Runs::Shell),
    setting("diff.*.command", Runs::Shell),
    setting("diff.*.textconv", Runs::Shell),
    setting("filter.*.clean", Runs::Shell),
    setting("filter.*.smudge", Runs::Shell),
    setting("filter.*.process", Runs::Shell),
    setting("merge.*.driver", Runs::Shell),
    setting("uploadpack.packobjectshook", Runs::Shell),
    Setting {
        key: "core.fsmonitor",
        prefix: "",
        runs: Runs::Program,
        known: &["true", "false"],
    },
    setting("core.hookspath", Runs::Enables),
    setting("core.gitproxy", Runs::Program),
    setting("core.askpass", Runs::Program),
    setting("gpg.program", Runs::Program),
    setting("gpg.*.program", Runs::Program),
    Setting {
        key: "credential.helper",
        prefix: "",
        runs: Runs::Program,
        known: CREDENTIAL_HELPERS,
    },
    Setting {
        key: "credential.*.helper",
        prefix: "",
        runs: Runs::Program,
        known: CREDENTIAL_HELPERS,
    },
    setting("protocol.ext.allow", Runs::Enables),
    setting("protocol.allow", Runs::Enables),
];

/// `hg --config SECTION.KEY=VALUE` keys whose value Mercurial runs.
pub static HG_KEYS: &[Setting] = &[
    Setting {
        key: "alias.*",
        prefix: "!",
        runs: Runs::Shell,
        known: &[],
    },
    Setting {
        key: "hooks.*",
        prefix: "python:",
        runs: Runs::Program,
        known: &[],
    },
    setting("hooks.*", Runs::Shell),
    setting("ui.editor", Runs::Shell),
    setting("ui.ssh", Runs::Shell),
    setting("pager.pager", Runs::Shell),
    setting("ui.merge", Runs::Program),
    setting("merge-tools.*.executable", Runs::Program),
    setting("extdiff.*", Runs::Program),
    setting("extensions.*", Runs::Program),
];

/// `apt -o KEY=VALUE` keys whose value apt runs through `sh -c`.
pub static APT_KEYS: &[Setting] = &[
    setting("*::pre-invoke*", Runs::Shell),
    setting("*::post-invoke*", Runs::Shell),
    setting("*::pre-install-pkgs*", Runs::Shell),
    setting("dir::bin::*", Runs::Program),
];

/// `ssh -o KEY=VALUE` (or `KEY VALUE`) keys whose value ssh runs.
pub static SSH_KEYS: &[Setting] = &[
    Setting {
        key: "proxycommand",
        prefix: "",
        runs: Runs::Shell,
        known: &["none"],
    },
    Setting {
        key: "localcommand",
        prefix: "",
        runs: Runs::Shell,
        known: &["none"],
    },
    Setting {
        key: "knownhostscommand",
        prefix: "",
        runs: Runs::Program,
        known: &["none"],
    },
    setting("match", Runs::Enables),
    setting("pkcs11provider", Runs::Program),
    setting("securitykeyprovider", Runs::Program),
];

/// Every exec-hook option, one entry per option.
pub static HOOK_OPTIONS: &[HookOption] = &[
    opt(&["rg"], &["pre"], Runs::Program),
    opt(&["rg"], &["hostname-bin"], Runs::Program),
    HookOption {
        known: PAGERS,
        ..opt(&["man"], &["P", "pager", "H", "html"], Runs::Shell)
    },
    HookOption {
        known: PAGERS,
        ..opt(&["ag"], &["pager"], Runs::Shell)
    },
    HookOption {
        known: COMPRESSORS,
        ..opt(&["sort"], &["compress-program"], Runs::Program)
    },
    HookOption {
        form: Form::CommaList,
        ..opt(
            &["gcc", "g++", "cc", "c++", "gfortran"],
            &["wrapper"],
            Runs::Program,
        )
    },
    opt(
        &["aria2c"],
        &[
            "on-download-complete",
            "on-download-error",
            "on-download-pause",
            "on-download-start",
            "on-download-stop",
            "on-bt-download-complete",
        ],
        Runs::Program,
    ),
    HookOption {
        known: SSH_CLIENTS,
        ..opt(&["borg", "borgbackup"], &["rsh"], Runs::Program)
    },
    HookOption {
        form: Form::After("unixexec:"),
        ..opt(&["busctl"], &["address"], Runs::Program)
    },
    opt(
        &["certbot", "letsencrypt"],
        &[
            "pre-hook",
            "post-hook",
            "deploy-hook",
            "renew-hook",
            "manual-auth-hook",
            "manual-cleanup-hook",
        ],
        Runs::Shell,
    ),
    opt(&["dhclient"], &["sf"], Runs::Program),
    opt(
        &["dnsmasq"],
        &["conf-script", "dhcp-script", "6", "dhcp-luascript"],
        Runs::Program,
    ),
    HookOption {
        form: Form::FzfActions,
        ..opt(&["fzf"], &["bind"], Runs::Shell)
    },
    opt(&["fzf"], &["preview"], Runs::Shell),
    opt(&["fzf"], &["with-shell"], Runs::Program),
    HookOption {
        form: Form::Settings(HG_KEYS),
        ..opt(&["hg"], &["config"], Runs::Shell)
    },
    opt(
        TEX_ENGINES,
        &["shell-escape", "enable-write18"],
        Runs::Enables,
    ),
    opt(&["zip"], &["TT", "unzip-command"], Runs::Shell),
    opt(&["tar", "gtar", "bsdtar"], &["to-command"], Runs::Shell),
    HookOption {
        form: Form::After("exec="),
        ..opt(
            &["tar", "gtar", "bsdtar"],
            &["checkpoint-action"],
            Runs::Shell,
        )
    },
    HookOption {
        known: COMPRESSORS,
        ..opt(
            &["tar", "gtar", "bsdtar"],
            &["I", "use-compress-program"],
            Runs::Shell,
        )
    },
    opt(
        &["tar", "gtar", "bsdtar"],
        &["F", "info-script", "new-volume-script"],
        Runs::Shell,
    ),
    HookOption {
        known: &["rsh", "ssh"],
        ..opt(
            &["tar", "gtar", "bsdtar"],
            &["rsh-command", "rmt-command"],
            Runs::Program,
        )
    },
    HookOption {
        known: SSH_CLIENTS,
        ..opt(&["rsync"], &["e", "rsh"], Runs::Program)
    },
    HookOption {
        form: Form::Settings(SSH_KEYS),
        ..opt(&["ssh", "scp", "sftp"], &["o"], Runs::Shell)
    },
    HookOption {
        known: SSH_CLIENTS,
        ..opt(&["scp", "sftp"], &["S"], Runs::Program)
    },
    opt(&["sftp"], &["D"], Runs::Program),
    HookOption {
        form: Form::Settings(GIT_KEYS),
        ..opt(&["git"], &["c"], Runs::Shell)
    },
    HookOption {
        form: Form::SettingsFromEnv(GIT_KEYS),
        ..opt(&["git"], &["config-env"], Runs::Program)
    },
    HookOption {
        known: GIT_TRANSPORTS,
        ..opt(
            &["git"],
            &["upload-pack", "receive-pack", "exec"],
            Runs::Program,
        )
    },
    HookOption {
        at: At::Operand("ext::"),
        ..opt(&["git"], &[], Runs::Shell)
    },
    HookOption {
        form: Form::Settings(APT_KEYS),
        ..opt(&["apt", "apt-get"], &["o", "option"], Runs::Shell)
    },
    HookOption {
        form: Form::EditorCommand,
        ..opt(VIM_FAMILY, &["c", "cmd"], Runs::Shell)
    },
    HookOption {
        at: At::Operand("+"),
        form: Form::EditorCommand,
        ..opt(
            &[
                "vim", "vi", "nvim", "view", "ex", "vimdiff", "gvim", "rvim", "less",
            ],
            &[],
            Runs::Shell,
        )
    },
    opt(&["tcpdump"], &["z"], Runs::Program),
    opt(&["sudo", "sudoedit"], &["A", "askpass"], Runs::Enables),
];

/// Every environment variable a program runs, with the programs that read it.
pub static ENV_HOOKS: &[EnvHook] = &[
    EnvHook {
        vars: &["PAGER"],
        programs: &[
            "man",
            "git",
            "systemctl",
            "journalctl",
            "loginctl",
            "coredumpctl",
            "psql",
            "mysql",
            "mariadb",
            "gh",
            "hg",
            "busctl",
        ],
        runs: Runs::Shell,
        form: Form::Whole,
        known: PAGERS,
    },
    EnvHook {
        vars: &["MANPAGER", "MANROFFOPT"],
        programs: &["man"],
        runs: Runs::Shell,
        form: Form::Whole,
        known: PAGERS,
    },
    EnvHook {
        vars: &[
            "GIT_PAGER",
            "GIT_EDITOR",
            "GIT_SEQUENCE_EDITOR",
            "GIT_SSH_COMMAND",
        ],
        programs: &["git"],
        runs: Runs::Shell,
        form: Form::Whole,
        known: &[],
    },
    EnvHook {
        vars: &["GIT_EXTERNAL_DIFF"],
        programs: &["git"],
        runs: Runs::Shell,
        form: Form::Whole,
        known: &[],
    },
    EnvHook {
        vars: &["GIT_SSH"],
        programs: &["git"],
        runs: Runs::Program,
        form: Form::Whole,
        known: SSH_CLIENTS,
    },
    EnvHook {
        vars: &["GIT_ASKPASS", "GIT_PROXY_COMMAND"],
        programs: &["git"],
        runs: Runs::Program,
        form: Form::Whole,
        known: &[],
    },
    EnvHook {
        vars: &["SSH_ASKPASS"],
        programs: &["git", "ssh", "ssh-add", "scp", "sftp"],
        runs: Runs::Program,
        form: Form::Whole,
        known: &[],
    },
    EnvHook {
        vars: &["EDITOR", "VISUAL"],
        programs: &[
            "git",
            "crontab",
            "visudo",
            "sudoedit",
            "hg",
            "svn",
            "kubectl",
            "gh",
            "vipw",
            "vigr",
            "systemctl",
            "edquota",
            "less",
            "virsh",
            "mutt",
            "pueue",
            "vidir",
            "nix",
        ],
        runs: Runs::Shell,
        form: Form::Whole,
        known: PAGERS,
    },
    EnvHook {
        vars: &["SUDO_EDITOR"],
        programs: &["sudoedit", "sudo"],
        runs: Runs::Shell,
        form: Form::Whole,
        known: PAGERS,
    },
    EnvHook {
        vars: &["SYSTEMD_PAGER", "SYSTEMD_EDITOR"],
        programs: &[
            "systemctl",
            "journalctl",
            "loginctl",
            "coredumpctl",
            "busctl",
            "networkctl",
            "resolvectl",
        ],
        runs: Runs::Shell,
        form: Form::Whole,
        known: PAGERS,
    },
    EnvHook {
        vars: &["PSQL_PAGER", "PSQL_EDITOR"],
        programs: &["psql"],
        runs: Runs::Shell,
        form: Form::Whole,
        known: PAGERS,
    },
    EnvHook {
        vars: &["LESSOPEN", "LESSCLOSE"],
        programs: &["less", "man", "git"],
        runs: Runs::Shell,
        form: Form::Preprocessor,
        known: &[],
    },
    EnvHook {
        vars: &["BROWSER"],
        programs: &["xdg-open", "man", "gh", "sensible-browser", "www-browser"],
        runs: Runs::Shell,
        form: Form::Whole,
        known: PAGERS,
    },
    EnvHook {
        vars: &["RSYNC_RSH"],
        programs: &["rsync"],
        runs: Runs::Program,
        form: Form::Whole,
        known: SSH_CLIENTS,
    },
    EnvHook {
        vars: &["BORG_RSH"],
        programs: &["borg", "borgbackup"],
        runs: Runs::Program,
        form: Form::Whole,
        known: SSH_CLIENTS,
    },
    EnvHook {
        vars: &["BASH_ENV"],
        programs: &["bash"],
        runs: Runs::Program,
        form: Form::Whole,
        known: &[],
    },
    EnvHook {
        vars: &["LD_PRELOAD", "LD_AUDIT"],
        programs: &["*"],
        runs: Runs::Program,
        form: Form::Whole,
        known: &[],
    },
];

/// One hook a command uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookUse {
    pub runs: Runs,
    /// The hook's text (code for [`Runs::Shell`], the program and its arguments for
    /// [`Runs::Program`]); `None` when it is known only at run time.
    pub text: Option<String>,
    /// The text starts with one of the entry's known programs.
    pub known: bool,
    /// Where it came from, for messages (`rg --pre`, `git -c core.pager=`).
    pub detail: String,
    /// The hook-table entry it came from (its first program and first option name, e.g.
    /// `("rg", "pre")`), for an option hook; rules key their own metadata on it.
    pub entry: Option<(&'static str, &'static str)>,
}

impl HookUse {
    /// Code shellgate lowers as nested shell code: shell hooks, and known programs given
    /// arguments (`rsync -e 'ssh -o ProxyCommand=..'`), when the text is known.
    pub fn lowered(&self) -> Option<&str> {
        match self.runs {
            Runs::Shell => self.text.as_deref(),
            Runs::Program if self.known => self.text.as_deref(),
            _ => None,
        }
    }

    /// The hook runs code that is not visible: a program that is not known, an enabling
    /// option, or shell code known only at run time.
    pub fn hidden(&self) -> bool {
        match self.runs {
            Runs::Shell => self.text.is_none(),
            Runs::Program => !self.known,
            Runs::Enables => true,
        }
    }
}

/// Stands for the parts of a hook value known only at run time.
const DYNAMIC: char = '\u{fffd}';

/// The program a hook text starts with (basename of its first word).
pub fn first_program(s: &str) -> &str {
    let w = s.split_whitespace().next().unwrap_or("");
    w.rsplit('/').next().unwrap_or(w)
}

fn is_known(text: &str, known: &[&str]) -> bool {
    !text.contains(['|', ';', '&', '$', '`', '(', ')', '<', '>', '\n'])
        && known.contains(&first_program(text))
}

/// `*` matches any run of characters (over lower-case keys).
fn key_match(pat: &str, key: &str) -> bool {
    crate::glob::matches(pat, key)
}

/// What one hook value holds, under `form`: (text, how it runs, known programs).
fn read_form(
    form: Form,
    runs: Runs,
    known: &'static [&'static str],
    value: Option<&str>,
    detail: &str,
) -> Vec<HookUse> {
    // Text known only in part holds the placeholder: it is never lowered, but a known
    // program in front of run-time arguments (`rsync -e "ssh -p $PORT"`) is still known.
    let mk = |runs: Runs, text: Option<String>, known: &[&str], detail: String| HookUse {
        runs,
        known: text.as_deref().is_some_and(|t| is_known(t, known)),
        text: text.filter(|t| !t.contains(DYNAMIC)),
        detail,
        entry: None,
    };
    let Some(v) = value else {
        // Known only at run time: every form might hold a hook.
        return match form {
            Form::After(_) | Form::Settings(_) | Form::SettingsFromEnv(_) | Form::FzfActions => {
                Vec::new()
            }
            _ => vec![mk(runs, None, known, detail.to_string())],
        };
    };
    match form {
        Form::Whole => vec![mk(runs, Some(v.to_string()), known, detail.to_string())],
        Form::After(prefix) => v
            .strip_prefix(prefix)
            .map(|rest| {
                mk(
                    runs,
                    Some(rest.to_string()),
                    known,
                    format!("{detail}={prefix}"),
                )
            })
            .into_iter()
            .collect(),
        Form::CommaList => {
            let argv = v.split(',').collect::<Vec<_>>().join(" ");
            vec![mk(runs, Some(argv), known, detail.to_string())]
        }
        Form::Preprocessor => {
            let cmd = v.trim_start_matches(['|', '-']).trim_start();
            if cmd.is_empty() {
                return Vec::new();
            }
            vec![mk(runs, Some(cmd.to_string()), known, detail.to_string())]
        }
        Form::Settings(keys) | Form::SettingsFromEnv(keys) => {
            let from_env = matches!(form, Form::SettingsFromEnv(_));
            let (key, val) = match v.split_once('=') {
                Some((k, val)) => (k.trim(), val),
                // ssh's `-o 'ProxyCommand sh -c id'`
                None => match v.trim_start().split_once(char::is_whitespace) {
                    Some((k, val)) => (k, val.trim_start()),
                    None => (v.trim(), ""),
                },
            };
            let lower = key.to_ascii_lowercase();
            let Some(s) = keys
                .iter()
                .find(|s| key_match(s.key, &lower) && val.starts_with(s.prefix))
            else {
                return Vec::new();
            };
            let detail = format!("{detail} {key}=");
            if from_env {
                return vec![mk(Runs::Program, None, &[], detail)];
            }
            let text = val.get(s.prefix.len()..).unwrap_or_default().to_string();
            // `git -c core.pager` (no value) sets a boolean, no command.
            if text.trim().is_empty() {
                return Vec::new();
            }
            if s.runs == Runs::Enables
                && (text.eq_ignore_ascii_case("never") || text.eq_ignore_ascii_case("user"))
            {
                return Vec::new();
            }
            if s.known.iter().any(|k| k.eq_ignore_ascii_case(text.trim())) {
                return Vec::new();
            }
            vec![mk(s.runs, Some(text), s.known, detail)]
        }
        Form::FzfActions => fzf_actions(v)
            .into_iter()
            .map(|(action, code)| mk(runs, Some(code), known, format!("{detail} {action}")))
            .collect(),
        Form::EditorCommand => editor_command(v)
            .map(|(runs, text)| mk(runs, Some(text), &[], detail.to_string()))
            .into_iter()
            .collect(),
    }
}

/// fzf actions that run their argument through `$SHELL -c`.
const FZF_SHELL_ACTIONS: &[&str] = &[
    "execute",
    "execute-silent",
    "execute-multi",
    "become",
    "reload",
    "reload-sync",
    "preview",
    "change-preview",
    "transform",
    "transform-border-label",
    "transform-header",
    "transform-footer",
    "transform-input-label",
    "transform-list-label",
    "transform-preview-label",
    "transform-prompt",
    "transform-query",
    "transform-search",
    "transform-ghost",
    "transform-pointer",
    "transform-nth",
    "bg-transform",
    "print-query",
];

/// The shell commands in an fzf `--bind` value: `KEY:ACTION(CMD)` with any of fzf's
/// delimiters (`()`, `[]`, `{}`, `<>`, or the same character on both sides), or
/// `KEY:ACTION:CMD` running to the end.
fn fzf_actions(v: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let lower = v.to_ascii_lowercase();
    let mut search = 0;
    while search < lower.len() {
        let Some((pos, name)) = FZF_SHELL_ACTIONS
            .iter()
            .filter_map(|a| lower[search..].find(a).map(|p| (search + p, *a)))
            .min_by_key(|(p, a)| (*p, std::cmp::Reverse(a.len())))
        else {
            break;
        };
        let after = pos + name.len();
        search = after;
        // The action must start a binding or follow `:`, `,`, `+`.
        let before = v[..pos].chars().next_back();
        if !matches!(before, None | Some(':' | ',' | '+')) {
            continue;
        }
        let rest = &v[after..];
        let Some(open) = rest.chars().next() else {
            continue;
        };
        if open == ':' {
            out.push((name.to_string(), rest[1..].to_string()));
            break;
        }
        let close = match open {
            '(' => ')',
            '[' => ']',
            '{' => '}',
            '<' => '>',
            c if c.is_ascii_punctuation() => c,
            _ => continue,
        };
        let body = &rest[open.len_utf8()..];
        match body.find(close) {
            Some(end) => {
                out.push((name.to_string(), body[..end].to_string()));
                search = after + open.len_utf8() + end + close.len_utf8();
            }
            None => {
                out.push((name.to_string(), body.to_string()));
                break;
            }
        }
    }
    out
}

/// An editor command (`:!cmd`, `r !cmd`, `w !cmd`, `:term cmd`, `:py ..`): the shell code
/// it runs, or [`Runs::Program`] for code in another language.
fn editor_command(c: &str) -> Option<(Runs, String)> {
    let t = c.trim_start_matches([':', ' ']).trim();
    let lower = t.to_ascii_lowercase();
    if let Some(code) = t.strip_prefix('!') {
        return Some((Runs::Shell, code.trim_start().to_string()));
    }
    for p in [
        "r!", "r !", "read!", "read !", "w !", "write !", "silent !", "silent!",
    ] {
        if lower.starts_with(p) && t.len() > p.len() {
            return Some((Runs::Shell, t[p.len()..].trim_start().to_string()));
        }
    }
    if let Some(i) = t.find("|!").or_else(|| t.find("| !")) {
        let code = t[i..].trim_start_matches(['|', ' ', '!']);
        return Some((Runs::Shell, code.to_string()));
    }
    let word = lower.split_whitespace().next().unwrap_or("");
    let other_language = [
        "py", "python", "py3", "python3", "pyx", "pythonx", "lua", "luado", "luafile", "perl",
        "perldo", "ruby", "rubydo", "mzscheme", "tcl", "tcldo", "term", "terminal", "source", "so",
        "runtime",
    ]
    .contains(&word);
    (other_language || lower.contains("system(") || lower.contains("systemlist("))
        .then(|| (Runs::Program, t.to_string()))
}

/// The hooks of `name` run with arguments `args` read as `o`, and the environment hooks of
/// `assignments` given to it (or to one of `wrappers` in front of it).
pub fn hooks(
    name: &str,
    args: &[Word],
    o: &Opts,
    assignments: &[Assignment],
    wrappers: &[WrapperUse],
) -> Vec<HookUse> {
    let value = |opt: &Opt| opts::value_word(args, opt).map(|w| w.text_with(&DYNAMIC.to_string()));
    let mut out = option_hooks(name, o, &value, |i| args.get(i).and_then(Word::lit));
    for w in wrappers {
        let wv = |opt: &Opt| wrapper_value(w, opt);
        out.extend(option_hooks(&w.name, &w.opts, &wv, |i| {
            w.args.get(i).cloned()
        }));
    }
    let readers: Vec<&str> = std::iter::once(name)
        .chain(wrappers.iter().map(|w| w.name.as_str()))
        .collect();
    for a in assignments {
        for h in ENV_HOOKS
            .iter()
            .filter(|h| h.vars.contains(&a.name.as_str()))
        {
            if !h.programs.iter().any(|p| *p == "*" || readers.contains(p)) {
                continue;
            }
            let text = Some(a.value.text_with(&DYNAMIC.to_string()));
            if text.as_deref() == Some("") {
                continue;
            }
            let detail = format!("{}= (read by {name})", a.name);
            out.extend(read_form(h.form, h.runs, h.known, text.as_deref(), &detail));
        }
    }
    out
}

/// An option's value in a wrapper, from the wrapper's decoded argument texts.
fn wrapper_value(w: &WrapperUse, opt: &Opt) -> Option<String> {
    let v = opt.value.as_ref()?;
    match &v.attached {
        Some(a) => Some(a.clone()),
        None => w.args.get(v.word).cloned(),
    }
}

fn option_hooks(
    name: &str,
    o: &Opts,
    value: &dyn Fn(&Opt) -> Option<String>,
    operand: impl Fn(usize) -> Option<String>,
) -> Vec<HookUse> {
    let mut out = Vec::new();
    for h in HOOK_OPTIONS.iter().filter(|h| h.programs.contains(&name)) {
        let found: Vec<HookUse> = match h.at {
            At::Options(names) => o
                .all()
                .filter(|x| names.contains(&x.name.as_str()))
                .flat_map(|x| {
                    // The option as written (`--ask`, `-shell-escape`), or its letter.
                    let spelled = match x.long {
                        true => operand(x.word)
                            .and_then(|w| w.split('=').next().map(str::to_string))
                            .unwrap_or_else(|| format!("--{}", x.name)),
                        false => format!("-{}", x.name),
                    };
                    let detail = format!("{name} {spelled}");
                    if h.runs == Runs::Enables {
                        return vec![HookUse {
                            runs: Runs::Enables,
                            text: None,
                            known: false,
                            detail,
                            entry: None,
                        }];
                    }
                    // An optional value left out (`man -H`) names no program here.
                    if x.value.is_none() {
                        return Vec::new();
                    }
                    read_form(h.form, h.runs, h.known, value(x).as_deref(), &detail)
                })
                .collect(),
            At::Operand(prefix) => o
                .operands
                .iter()
                .filter_map(|&i| operand(i))
                .filter_map(|t| t.strip_prefix(prefix).map(str::to_string))
                .flat_map(|rest| {
                    let detail = format!("{name} {prefix}");
                    read_form(h.form, h.runs, h.known, Some(&rest), &detail)
                })
                .collect(),
        };
        out.extend(found.into_iter().map(|mut u| {
            u.entry = match h.at {
                At::Options(names) => h.programs.first().copied().zip(names.first().copied()),
                At::Operand(_) => None,
            };
            u
        }));
    }
    out
}

/// The hooks of a lowered command.
pub fn of_command(cmd: &super::Command) -> Vec<HookUse> {
    match cmd.name.as_deref() {
        Some(n) => hooks(n, cmd.args(), &cmd.opts, &cmd.assignments, &cmd.wrappers),
        None => Vec::new(),
    }
}

/// The awk program texts of an awk command: `-e`/`--source` texts, and the first operand
/// unless `-f`/`--file`/`-E`/`--exec` names a program file.
pub fn awk_programs(args: &[Word], o: &Opts) -> Vec<Option<String>> {
    let mut out: Vec<Option<String>> = o
        .named(&["e", "source"])
        .map(|x| opts::value_word(args, x).and_then(|w| w.lit()))
        .collect();
    let from_file = o.named(&["f", "file", "E", "exec"]).next().is_some();
    if !from_file
        && out.is_empty()
        && let Some(&first) = o.operands.first()
    {
        out.push(args.get(first).and_then(Word::lit));
    }
    out
}

/// String literals passed to `system(...)` in an awk program (`"` strings, awk escapes).
pub fn awk_system_literals(prog: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = prog.as_bytes();
    let mut i = 0;
    while let Some(pos) = prog[i..].find("system") {
        let start = i + pos;
        i = start + "system".len();
        // The word must stand alone (not `mysystem`).
        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            continue;
        }
        let rest = prog[i..].trim_start();
        let Some(rest) = rest.strip_prefix('(') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix('"') else {
            continue;
        };
        let mut lit = String::new();
        let mut chars = rest.chars();
        let mut closed = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some('n') => lit.push('\n'),
                    Some('t') => lit.push('\t'),
                    Some(o) => lit.push(o),
                    None => break,
                },
                '"' => {
                    closed = true;
                    break;
                }
                c => lit.push(c),
            }
        }
        // Only a whole literal argument: `system("a" x)` builds the string at run time.
        if closed && chars.as_str().trim_start().starts_with(')') {
            out.push(lit);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses(argv: &[&str]) -> Vec<HookUse> {
        let words = Word::literals(argv);
        let o = opts::parse_program(Some(argv[0]), &words[1..]);
        hooks(argv[0], &words[1..], &o, &[], &[])
    }

    fn texts(argv: &[&str]) -> Vec<(Runs, Option<String>)> {
        uses(argv).into_iter().map(|u| (u.runs, u.text)).collect()
    }

    fn some(runs: Runs, t: &str) -> Vec<(Runs, Option<String>)> {
        vec![(runs, Some(t.to_string()))]
    }

    #[test]
    fn reads_every_table_entry_in_its_spellings() {
        use Runs::*;
        let cases: &[(&[&str], Runs, &str)] = &[
            (&["rg", "--pre", "./x", "foo"], Program, "./x"),
            (&["rg", "--pre=./x", "foo"], Program, "./x"),
            (&["rg", "--hostname-bin", "./h", "x"], Program, "./h"),
            (&["man", "-P", "less -R", "ls"], Shell, "less -R"),
            (&["man", "-Pmore", "ls"], Shell, "more"),
            (&["man", "--pager=most", "ls"], Shell, "most"),
            (&["man", "--pag", "most", "ls"], Shell, "most"),
            (&["man", "-Hfirefox", "ls"], Shell, "firefox"),
            (&["man", "--html=w3m", "ls"], Shell, "w3m"),
            (&["ag", "--pager", "less", "x"], Shell, "less"),
            (&["ag", "--pag=less", "x"], Shell, "less"),
            (&["sort", "--compress-program=./z", "f"], Program, "./z"),
            (&["sort", "--compress-prog", "./z", "f"], Program, "./z"),
            (
                &["gcc", "-wrapper", "gdb,--args", "a.c"],
                Program,
                "gdb --args",
            ),
            (
                &["aria2c", "--on-download-complete=./x", "u"],
                Program,
                "./x",
            ),
            (&["aria2c", "--on-download-c", "./x", "u"], Program, "./x"),
            (&["borg", "--rsh", "./x", "list", "r"], Program, "./x"),
            (
                &["busctl", "--address=unixexec:path=/bin/sh", "list"],
                Program,
                "path=/bin/sh",
            ),
            (&["certbot", "renew", "--pre-hook", "id"], Shell, "id"),
            (&["certbot", "renew", "--deploy-h=id"], Shell, "id"),
            (&["dhclient", "-sf", "./x", "eth0"], Program, "./x"),
            (&["dnsmasq", "--conf-script=./x"], Program, "./x"),
            (&["dnsmasq", "-6", "./x"], Program, "./x"),
            (&["fzf", "--bind", "enter:execute(rm {})"], Shell, "rm {}"),
            (&["fzf", "--bind", "a:reload[ls],b:toggle"], Shell, "ls"),
            (&["fzf", "--bind", "b:become:vim {}"], Shell, "vim {}"),
            (&["fzf", "--preview", "cat {}"], Shell, "cat {}"),
            (&["hg", "--config", "alias.x=!id", "x"], Shell, "id"),
            (&["hg", "--conf=hooks.pre-commit=id", "ci"], Shell, "id"),
            (&["zip", "a.zip", "f", "-T", "-TT", "sh #"], Shell, "sh #"),
            (&["zip", "a.zip", "f", "--unzip-command", "id"], Shell, "id"),
            (&["tar", "-xf", "a", "--to-command=id"], Shell, "id"),
            (&["tar", "-xf", "a", "--to-com", "id"], Shell, "id"),
            (&["tar", "-I", "./z", "-xf", "a"], Shell, "./z"),
            (&["tar", "-xI./z", "-f", "a"], Shell, "./z"),
            (&["tar", "--use-compress=./z", "-xf", "a"], Shell, "./z"),
            (
                &["tar", "cf", "a", "--checkpoint-action=exec=id", "x"],
                Shell,
                "id",
            ),
            (&["tar", "-cf", "a", "-F", "./s", "x"], Shell, "./s"),
            (&["rsync", "-e", "./x", "a", "b"], Program, "./x"),
            (&["rsync", "--rsh=./x", "a", "b"], Program, "./x"),
            (
                &["ssh", "-o", "ProxyCommand=nc %h %p", "h"],
                Shell,
                "nc %h %p",
            ),
            (&["ssh", "-oProxyCommand nc %h %p", "h"], Shell, "nc %h %p"),
            (&["ssh", "-o", "localcommand=id", "h"], Shell, "id"),
            (&["scp", "-S", "./x", "a", "h:b"], Program, "./x"),
            (&["git", "-c", "core.sshCommand=./x", "fetch"], Shell, "./x"),
            (&["git", "-c", "core.editor=./x", "commit"], Shell, "./x"),
            (&["git", "-c", "diff.external=./x", "diff"], Shell, "./x"),
            (&["git", "-c", "alias.x=!id", "x"], Shell, "id"),
            (&["git", "-ccore.pager=id", "log"], Shell, "id"),
            (
                &["git", "ls-remote", "--upload-pack=./x", "r"],
                Program,
                "./x",
            ),
            (&["git", "clone", "ext::sh -c id", "d"], Shell, "sh -c id"),
            (
                &["apt-get", "-o", "APT::Update::Pre-Invoke::=id", "update"],
                Shell,
                "id",
            ),
            (&["vim", "-c", ":!id"], Shell, "id"),
            (&["vim", "+!id"], Shell, "id"),
            (&["vim", "-c", "py3 import os"], Program, "py3 import os"),
            (&["less", "+!id", "f"], Shell, "id"),
            (&["tcpdump", "-w", "f", "-z", "./x"], Program, "./x"),
        ];
        for (argv, runs, text) in cases {
            assert_eq!(texts(argv), some(*runs, text), "{argv:?}");
        }
        for argv in [
            &["pdflatex", "--shell-escape", "d.tex"][..],
            &["latex", "-shell-escape", "d.tex"],
            &["xelatex", "-shell-e", "d.tex"],
            &["pdftex", "-enable-write18", "d.tex"],
            &["sudo", "-A", "id"],
            &["sudo", "--askpass", "id"],
            &["sudo", "--ask", "id"],
            &["sudo", "-kA", "id"],
        ] {
            assert_eq!(texts(argv), vec![(Enables, None)], "{argv:?}");
        }
    }

    #[test]
    fn look_alike_words_are_no_hooks() {
        for argv in [
            &["rg", "-e", "TODO", "--", "--pre", "src/"][..],
            &["rg", "-e", "--pre", "src/"],
            &["rg", "--pre-glob", "*.gz", "x"],
            &["rg", "--pr", "./x", "foo"],
            &["sort", "-T", "--compress-program", "data.csv"],
            &["sort", "-o", "--compress-program=./x", "f"],
            &["man", "-k", "pager"],
            &["man", "-H", "ls"],
            &["man", "--", "-P", "ls"],
            &["tar", "-xf", "a.tar", "--", "--to-command=./x"],
            &["tar", "-C", "--to-command=./x", "-xf", "a"],
            &["git", "commit", "-m", "-c core.pager=id"],
            &["git", "-c", "core.pager", "log"],
            &["git", "-c", "user.name=x", "log"],
            &["ssh", "-o", "StrictHostKeyChecking=no", "h"],
            &["ssh", "-o", "ProxyCommand=none", "h"],
            &["fzf", "--bind", "ctrl-a:select-all"],
            &["fzf", "--query", "--preview"],
            &["hg", "--config", "ui.username=x", "log"],
            &["busctl", "--address=unix:path=/run/bus", "list"],
            &["zip", "-r", "a.zip", "-TT"],
            &["vim", "-c", "set nu", "f"],
            &["gcc", "-o", "-wrapper", "a.c"],
            &["pdflatex", "-no-shell-escape", "d.tex"],
            &["pdflatex", "-shell-restricted", "d.tex"],
            &["sudo", "-u", "-A", "id"],
            &["certbot", "renew", "--", "--pre-hook", "x"],
        ] {
            let u = uses(argv);
            assert!(
                u.iter().all(|u| !u.hidden() && u.lowered().is_none()),
                "{argv:?}: {u:?}"
            );
        }
    }

    #[test]
    fn known_programs_are_not_hidden() {
        for argv in [
            &["sort", "--compress-program=gzip", "f"][..],
            &["tar", "-I", "zstd -19", "-cf", "a", "d"],
            &["rsync", "-e", "ssh -p 2222", "a", "h:b"],
            &["borg", "--rsh", "ssh -i k", "list", "r"],
        ] {
            let u = uses(argv);
            assert!(u.iter().all(|u| !u.hidden()), "{argv:?}: {u:?}");
        }
        let u = uses(&["rsync", "-e", "ssh -o ProxyCommand=id", "a", "h:b"]);
        assert_eq!(u[0].lowered(), Some("ssh -o ProxyCommand=id"));
    }

    #[test]
    fn reads_awk_system_literals_only() {
        assert_eq!(
            awk_system_literals(r#"BEGIN{system("rm -rf /")}"#),
            ["rm -rf /"]
        );
        assert!(awk_system_literals(r#"{system("echo " $1)}"#).is_empty());
        assert!(awk_system_literals(r#"{print "system(\"x\")"}"#).len() <= 1);
    }
}
