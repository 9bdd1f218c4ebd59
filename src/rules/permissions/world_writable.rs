//! SG2101: making files writable by every user (`chmod 777`, `o+w`, `a+w`, `mkdir -m 777`).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::permissions::recursive_perm_system::judges_all;
use crate::rules::permissions::spec_and_paths;
use crate::rules::util::{route, shown_list};
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags a mode that lets every user write: numeric modes whose last digit has the write
    /// bit (`777`, `666`, `0757`, `1777`), and symbolic clauses that add write for others
    /// (`o+w`, `a+w`, `go+w`, `a=rwx`, `u+x,o+w`), with `chmod` (also `-R`, any spelling),
    /// `mkdir -m` and `install -m`. `chmod +w` (which respects the umask) is not flagged.
    ///
    /// ## Why is this bad?
    /// Any local user or compromised service can then replace the file's contents; a
    /// world-writable script or config is a privilege-escalation path.
    ///
    /// ## Example
    /// ```sh
    /// chmod 777 deploy.sh     # approve
    /// chmod -R a+w public/    # approve
    /// chmod 755 deploy.sh     # allowed
    /// ```
    ///
    /// ## Known limitations
    /// Recursive changes of `/` or a system directory are blocked by SG1401 and are not
    /// reported again; modes known only at run time are not judged.
    pub struct WorldWritable;
    code: "SG2101",
    name: "world-writable-permissions",
    severity: Approve,
    category: Permissions,
    hermes: ["world/other-writable permissions", RECURSIVE_LONG_FLAG = "recursive world/other-writable (long flag)"],
    programs: ["chmod", "mkdir", "install"],
    summary: "chmod 777 / o+w: files writable by every user",
    pass: ["chmod 644 f", "chmod 755 run.sh", "chmod +w f", "chmod u+w,g+w f", "chmod o-w f", "mkdir -m 755 d", "echo chmod 777 f", "chmod -R 777 /"],
    fail: ["chmod 777 f", "chmod 666 data.db", "chmod -R 777 ./public", "chmod o+w f", "chmod a+w f", "chmod go+w f", "sudo chmod --recursive a=rwx uploads", "chmod u+x,o+w f", "mkdir -m 777 shared", "chmod 0777 f", "chmod 1777 d"],
}

/// Does this mode string grant write to others?
pub fn world_writable(mode: &str) -> bool {
    if !mode.is_empty() && mode.chars().all(|c| c.is_ascii_digit()) {
        return mode.chars().all(|c| c <= '7')
            && mode
                .chars()
                .last()
                .and_then(|c| c.to_digit(8))
                .is_some_and(|d| d & 2 != 0);
    }
    mode.split(',').any(|clause| {
        let who_end = clause.find(['+', '-', '=']).unwrap_or(clause.len());
        let who = &clause[..who_end];
        if !(who.contains('o') || who.contains('a')) {
            return false;
        }
        // Each `+perms` / `=perms` action after the who part.
        let mut adds = false;
        let mut grants = false;
        for c in clause[who_end..].chars() {
            match c {
                '+' | '=' => adds = true,
                '-' => adds = false,
                'w' if adds => grants = true,
                _ => {}
            }
        }
        grants
    })
}

impl Rule for WorldWritable {
    fn check_command(&self, cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let prog = cmd.name.as_deref().unwrap_or("chmod");
        if prog == "chmod" {
            let a = &cmd.opts;
            if a.long("reference") {
                return;
            }
            let Some((mode, m, targets)) = spec_and_paths(cmd) else {
                return;
            };
            if !world_writable(&m) {
                return;
            }
            let recursive = a.short('R') || a.long("recursive");
            if recursive && judges_all(cx, cmd, &targets) {
                return;
            }
            let names = shown_list(&targets);
            let mut f = Finding::on(
                &Self::META,
                cmd,
                format!(
                    "chmod {m} makes {names}{} writable by every user{}",
                    if recursive {
                        " and everything below it"
                    } else {
                        ""
                    },
                    route(cmd)
                ),
            )
            .with_span(mode.span);
            if a.long("recursive") {
                f.hermes = vec![WorldWritable::RECURSIVE_LONG_FLAG];
            }
            out.push(f);
        } else {
            let Some(m) = cmd
                .opts
                .value_of(cmd.args(), &["m", "mode"])
                .and_then(|w| w.lit())
            else {
                return;
            };
            if world_writable(&m) {
                out.push(Finding::on(
                    &Self::META,
                    cmd,
                    format!(
                        "{prog} -m {m} creates files writable by every user{}",
                        route(cmd)
                    ),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::world_writable;

    #[test]
    fn numeric_and_symbolic_modes() {
        for m in [
            "777", "666", "0777", "1777", "2", "757", "o+w", "a+w", "go+w", "a=rwx", "u+x,o+w",
            "o+rw-x", "a+rwX",
        ] {
            assert!(world_writable(m), "{m} grants write to others");
        }
        for m in [
            "644", "755", "775", "0755", "+w", "u+w,g+w", "o-w", "a-w", "go=u-w", "=rw", "888",
            "o+r", "",
        ] {
            assert!(!world_writable(m), "{m} does not grant write to others");
        }
    }
}
