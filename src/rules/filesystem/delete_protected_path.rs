//! SG2002: non-recursive `rm`/`unlink` of a system file or a credential file.

use crate::declare_rule;
use crate::model::paths::{self, PathClass};
use crate::model::{Command, Word, WordValue};
use crate::rules::util::{classify, describe, route};
use crate::rules::{Cx, Finding, Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Flags `rm` (without `-r`; recursive deletes are SG2001/SG1001) and `unlink` of a path
    /// under a system directory (`/etc/passwd`, `/usr/local/bin/tool`, `/etc/*`), of the
    /// files directly in `/` or in a home directory (`rm /*`, `rm ~/*`), or of a credential
    /// or guard file: `~/.ssh/*`, `~/.aws/`, `~/.kube/`, `~/.gnupg/`, `~/.netrc`,
    /// `~/.docker/config.json`, `~/.config/gh/`, `~/.git-credentials`, `~/.hermes/`,
    /// shellgate's config, shell startup files, and `.env*` files.
    ///
    /// ## Why is this bad?
    /// Deleting one system file can make the machine unbootable or lock users out;
    /// deleting a key or credential file loses access that may not be restorable.
    ///
    /// ## Example
    /// ```sh
    /// sudo rm /etc/passwd     # approve
    /// rm ~/.ssh/id_ed25519    # approve
    /// rm notes.txt            # allowed
    /// rm /tmp/x.log           # allowed
    /// ```
    ///
    /// ## Known limitations
    /// A name known only at run time is judged by its known directory (`rm /etc/$F` asks);
    /// a path that is entirely unknown (`rm "$F"`) is not judged.
    pub struct DeleteProtectedPath;
    code: "SG2002",
    name: "delete-system-or-credential-file",
    severity: Approve,
    category: Filesystem,
    hermes: ["delete in root path"],
    programs: ["rm", "unlink"],
    summary: "rm of a system file or a credential file",
    pass: ["rm notes.txt", "rm /tmp/x.log", "rm -f build/a.o", "rm ~/project/old.txt", "echo rm /etc/passwd", "rm ~/.cache/pip/x", "rm .env.example"],
    fail: ["rm /etc/passwd", "sudo rm -f /etc/hosts", "rm ~/.ssh/id_rsa", "unlink /usr/local/bin/tool", "rm ~/.aws/credentials", "rm ~/.bashrc", "rm .env", "rm /etc/*", "cd /etc && rm passwd", "rm -f /etc/$F"],
}

/// Credential and guard files below the home directory (relative to it).
const HOME_CREDENTIALS: &[&str] = &[
    ".ssh",
    ".aws",
    ".kube",
    ".gnupg",
    ".netrc",
    ".docker/config.json",
    ".config/gh",
    ".git-credentials",
    ".hermes",
    ".config/shellgate",
    ".local/share/shellgate",
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".config/fish",
    ".pgpass",
    ".npmrc",
    ".pypirc",
    ".config/gcloud",
    ".azure",
];

/// Is `path` (absolute, folded) a credential or guard file?
pub fn is_credential_path(path: &str, home: Option<&str>) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    if base == ".env" || base.starts_with(".env.") {
        // Templates committed to the repository hold no secrets.
        let template = [".example", ".sample", ".template", ".dist", ".defaults"]
            .iter()
            .any(|s| base.ends_with(s));
        return !template;
    }
    let Some(h) = home else { return false };
    let Some(rel) = path
        .strip_prefix(h.trim_end_matches('/'))
        .and_then(|r| r.strip_prefix('/'))
    else {
        return false;
    };
    HOME_CREDENTIALS
        .iter()
        .any(|c| rel == *c || rel.strip_prefix(c).is_some_and(|r| r.starts_with('/')))
}

/// Temporary directories, where deleting an unknown name is routine.
fn is_temp_dir(dir: &str) -> bool {
    let d = paths::fold(dir);
    matches!(
        d.as_str(),
        "/tmp" | "/var/tmp" | "/private/tmp" | "/dev/shm"
    ) || d.starts_with("/tmp/")
        || d.starts_with("/var/tmp/")
}

/// The known directory part of a path whose file name is only known at run time.
fn known_dir(cmd: &Command, w: &Word) -> Option<String> {
    let WordValue::Partial { prefix, .. } = w.value() else {
        return None;
    };
    let dir = &prefix[..=prefix.rfind('/')?];
    paths::resolve(dir, cmd.cwd.as_deref())
}

impl Rule for DeleteProtectedPath {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_command(&self, cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let operands = if cmd.is("rm") {
            let (args, recursive) = super::rm_args(cmd);
            if recursive {
                return;
            }
            args.operands
        } else {
            cmd.args()
                .iter()
                .filter(|w| !w.lit().is_some_and(|t| t.starts_with('-')))
                .collect()
        };
        let home = cx.ctx.home.as_deref();
        let prog = cmd.name.as_deref().unwrap_or("rm");
        for w in operands {
            let class = match classify(cmd, w, home) {
                // Inside the working directory, but the working directory may itself be a
                // system directory (`cd /etc && rm passwd`): judge the absolute path alone.
                PathClass::Workspace(p) | PathClass::WorkDirItself(p) => {
                    match paths::classify_abs(&p, home, None) {
                        c @ (PathClass::Root
                        | PathClass::SystemDir(_)
                        | PathClass::InsideSystem(_)) => c,
                        _ => PathClass::Workspace(p),
                    }
                }
                // `rm /etc/$F`: the file is unknown, but the directory is known.
                PathClass::Unknown(_) => match known_dir(cmd, w) {
                    Some(dir) if !is_temp_dir(&dir) => {
                        match paths::classify_abs(&dir, home, None) {
                            PathClass::Root
                            | PathClass::SystemDir(_)
                            | PathClass::InsideSystem(_) => PathClass::InsideSystem(dir),
                            _ => continue,
                        }
                    }
                    _ => continue,
                },
                c => c,
            };
            let (system, path) = match &class {
                PathClass::Root | PathClass::SystemDir(_) | PathClass::InsideSystem(_) => {
                    (true, String::new())
                }
                PathClass::Home(p) if w.has_glob() => (false, p.clone()),
                PathClass::InsideHome(p)
                | PathClass::Workspace(p)
                | PathClass::WorkDirItself(p)
                | PathClass::Other(p) => {
                    if !is_credential_path(p, home) {
                        continue;
                    }
                    (false, p.clone())
                }
                _ => continue,
            };
            let what = if w.is_dynamic() {
                format!(
                    "{prog} deletes {}, a path under {} whose name is known only at run time{}",
                    w.text_with("$?"),
                    describe(&class),
                    route(cmd)
                )
            } else if system && w.has_glob() {
                format!(
                    "{prog} deletes every file matching {} in {}{}",
                    w.text_with("…"),
                    describe(&class),
                    route(cmd)
                )
            } else if system {
                format!("{prog} deletes {}{}", describe(&class), route(cmd))
            } else if path.ends_with('*') {
                format!(
                    "{prog} deletes the files in {path}, including shell startup and credential files{}",
                    route(cmd)
                )
            } else {
                format!(
                    "{prog} deletes the credential or configuration file {path}{}",
                    route(cmd)
                )
            };
            let mut f = Finding::on(&Self::META, cmd, what).with_span(w.span);
            if !system {
                f.hermes = Vec::new();
            }
            out.push(f);
        }
    }
}
