//! SG2103: `chmod +x FILE` followed by running FILE in the same command.

use crate::declare_rule;
use crate::model::paths;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags a script that makes a file executable (`chmod +x f`, `chmod u+x`, `chmod 755`)
    /// and later in the same command runs that file as a program (`./f`, `/abs/path/f`),
    /// whatever joins them (`&&`, `;`, a newline, nested `bash -c`).
    ///
    /// ## Why is this bad?
    /// The file's contents are not part of the command, so shellgate (and the person
    /// approving) cannot see what will run; this is the typical download-or-write-then-run
    /// shape.
    ///
    /// ## Example
    /// ```sh
    /// chmod +x install.sh && ./install.sh   # approve
    /// chmod +x install.sh                   # allowed
    /// ```
    ///
    /// ## Known limitations
    /// The file is matched by its resolved path; running it through a variable or a
    /// `PATH` lookup is not matched.
    pub struct ChmodThenExecute;
    code: "SG2103",
    name: "chmod-x-then-execute",
    severity: Approve,
    category: Permissions,
    hermes: ["chmod +x followed by immediate execution"],
    programs: [],
    summary: "chmod +x f followed by running f",
    pass: ["chmod +x run.sh", "./run.sh", "chmod +x a.sh && ./b.sh", "chmod 644 f && ./f", "echo 'chmod +x f && ./f'", "./f; chmod +x f"],
    fail: ["chmod +x f && ./f", "chmod +x ./install.sh; ./install.sh --yes", "chmod u+x tool && ./tool", "chmod 755 run.sh && ./run.sh", "chmod a+rx /tmp/x.sh && /tmp/x.sh", "bash -c 'chmod +x f && ./f'"],
}

/// Does this mode make a file executable by its owner?
fn adds_exec(mode: &str) -> bool {
    if !mode.is_empty() && mode.chars().all(|c| c.is_ascii_digit()) {
        let d: Vec<u32> = mode.chars().filter_map(|c| c.to_digit(8)).collect();
        return d.len() >= 3 && d.len() == mode.len() && d.iter().rev().take(3).any(|x| x & 1 != 0);
    }
    mode.split(',').any(|clause| {
        let who_end = clause.find(['+', '=']).unwrap_or(clause.len());
        let mut adds = false;
        clause[who_end..].chars().any(|c| {
            match c {
                '+' | '=' => adds = true,
                '-' => adds = false,
                _ => {}
            }
            adds && (c == 'x' || c == 'X')
        })
    })
}

impl Rule for ChmodThenExecute {
    fn check_script(&self, cx: &Cx, out: &mut Vec<Finding>) {
        let cmds = &cx.script.commands;
        for (i, c) in cmds.iter().enumerate() {
            if !c.is("chmod") {
                continue;
            }
            let operands = c.opts.operand_words(c.args());
            let Some((mode, targets)) = operands.split_first() else {
                continue;
            };
            if !mode.lit().is_some_and(|m| adds_exec(&m)) {
                continue;
            }
            let made: Vec<String> = targets
                .iter()
                .filter_map(|t| t.lit().filter(|_| !t.has_glob()))
                .filter_map(|t| paths::resolve(&t, c.cwd.as_deref()))
                .collect();
            for later in &cmds[i + 1..] {
                let Some(prog) = later.argv.first().and_then(|w| w.lit()) else {
                    continue;
                };
                if !prog.contains('/') {
                    continue;
                }
                let Some(p) = paths::resolve(&prog, later.cwd.as_deref()) else {
                    continue;
                };
                if made.contains(&p) {
                    out.push(
                        Finding::on(&Self::META, later, format!("runs {p} right after chmod made it executable; its contents are not visible here{}", route(later)))
                            .with_evidence(format!("made executable by: chmod {}", c.arg_texts().join(" "))),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::adds_exec;

    #[test]
    fn modes_that_make_a_file_executable() {
        for m in [
            "+x",
            "u+x",
            "a+rx",
            "755",
            "0700",
            "711",
            "=rwx",
            "u=rwx,go=rx",
        ] {
            assert!(adds_exec(m), "{m} adds exec");
        }
        for m in ["644", "-x", "u-x", "600", "go-x", "+r"] {
            assert!(!adds_exec(m), "{m} does not add exec");
        }
    }
}
