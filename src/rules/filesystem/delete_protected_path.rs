//! SG2002: non-recursive `rm`/`unlink` of a system file or a credential file.

use crate::declare_rule;
use crate::model::paths::{self, Extent, PathClass};
use crate::model::{Command, Word, WordValue};
use crate::rules::util::{classify, describe, path_info, route};
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `rm` (without `-r`; recursive deletes are SG2001/SG1001) and `unlink` of a path
    /// under a system directory (`/etc/passwd`, `/usr/local/bin/tool`, `/etc/*`), of the
    /// files directly in `/` or in a home directory (`rm /*`, `rm ~/*`), or of any path the
    /// path catalog (`model::paths::catalog`) protects: credentials (`~/.ssh/*`, `~/.aws/`,
    /// `~/.netrc`, ...), shell startup files, `.env*` files, agent harness configs
    /// (`~/.hermes/`, `~/.claude/settings.json`, ...) and shellgate's own config and state,
    /// in any user's home. The write rules (SG5001-SG5003) read the same catalog.
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
    fail: ["rm /etc/passwd", "sudo rm -f /etc/hosts", "rm ~/.ssh/id_rsa", "unlink /usr/local/bin/tool", "rm ~/.aws/credentials", "rm ~/.bashrc", "rm .env", "rm ~/.kshrc", "rm ~/.local/state/shellgate/state.json", "rm /home/bob/.ssh/id_rsa", "rm /etc/*", "cd /etc && rm passwd", "rm -f /etc/$F"],
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
    fn check_command(&self, cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let operands = if cmd.is("rm") {
            let (args, recursive) = super::rm_args(cmd);
            if recursive {
                return;
            }
            args
        } else {
            cmd.opts.operand_words(cmd.args())
        };
        let home = cx.ctx.home.as_deref();
        let prog = cmd.name.as_deref().unwrap_or("rm");
        for w in operands {
            let class = match classify(cmd, w, home) {
                // Inside the working directory, but the working directory may itself be a
                // system directory (`cd /etc && rm passwd`): judge the absolute path alone.
                Extent::Workspace(p) | Extent::WorkDirItself(p) => {
                    match paths::classify_abs(&p, home, None) {
                        c @ (Extent::Root | Extent::SystemDir(_) | Extent::InsideSystem(_)) => c,
                        _ => Extent::Workspace(p),
                    }
                }
                // `rm /etc/$F`: the file is unknown, but the directory is known.
                Extent::Unknown(_) => match known_dir(cmd, w) {
                    Some(dir) if path_info(cx, &dir).class != PathClass::Temp => {
                        match paths::classify_abs(&dir, home, None) {
                            Extent::Root | Extent::SystemDir(_) | Extent::InsideSystem(_) => {
                                Extent::InsideSystem(dir)
                            }
                            _ => continue,
                        }
                    }
                    _ => continue,
                },
                c => c,
            };
            let (system, path) = match &class {
                Extent::Root | Extent::SystemDir(_) | Extent::InsideSystem(_) => {
                    (true, String::new())
                }
                Extent::Home(p) if w.has_glob() => (false, p.clone()),
                Extent::InsideHome(p)
                | Extent::Workspace(p)
                | Extent::WorkDirItself(p)
                | Extent::Other(p) => {
                    if !path_info(cx, p).class.is_protected() {
                        continue;
                    }
                    (false, p.clone())
                }
                _ => continue,
            };
            let what = if w.is_dynamic() {
                format!(
                    "{prog} deletes {}, a path under {} whose name is known only at run time{}",
                    w.shown(),
                    describe(&class),
                    route(cmd)
                )
            } else if system && w.has_glob() {
                format!(
                    "{prog} deletes every file matching {} in {}{}",
                    w.shown(),
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
