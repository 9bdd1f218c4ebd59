//! SG4004: the program to run is only known at run time (`$CMD args`).

use crate::declare_rule;
use crate::model::OriginKind;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags a simple command whose program word is not known statically: a variable
    /// (`$CMD args`, `"$@"`), a command substitution (`$(which tool) --flag`), or a glob.
    /// Pure assignments (`X=1`) and bare redirects (`> file`) run no program and are not
    /// flagged; the placeholder commands the core creates for code strings that are
    /// unknown as a whole are reported by SG4003 instead.
    ///
    /// ## Why is this bad?
    /// Any program could run, with these arguments; nothing about the command can be judged.
    ///
    /// ## Example
    /// ```sh
    /// $CMD --force     # approve
    /// CMD=ls; $CMD -l  # allow: the value is known
    /// ```
    ///
    /// ## Known limitations
    /// Values from the harness's environment are not known, so `$EDITOR file` is flagged.
    pub struct DynamicProgramName;
    code: "SG4004",
    name: "dynamic-program-name",
    severity: Approve,
    category: RemoteCode,
    hermes: [],
    programs: [],
    summary: "The program to run is only known at run time",
    pass: ["X=1", "> out.txt", "CMD=ls; $CMD -l", "echo $CMD"],
    fail: ["$CMD args", "\"$@\"", "$(which tool) --flag", "sudo $PROG"],
}

impl Rule for DynamicProgramName {
    fn check_script(&self, cx: &Cx, out: &mut Vec<Finding>) {
        for cmd in &cx.script.commands {
            if cmd.name.is_some() {
                continue;
            }
            let Some(w0) = cmd.argv.first() else { continue };
            // Placeholders for code strings unknown as a whole (`eval "$X"`, `sh -c "$x"`).
            if w0.raw.contains("__shellgate_unknown_") {
                continue;
            }
            // `xargs` and `find -exec` run found names; only a dynamic program word counts.
            let via_xargs = cmd
                .origin
                .steps
                .last()
                .is_some_and(|s| s.kind == OriginKind::Xargs);
            if via_xargs && w0.is_literal() {
                continue;
            }
            let f = Finding::on(
                &Self::META,
                cmd,
                format!(
                    "the program `{}` is only known at run time{}",
                    w0.raw,
                    route(cmd)
                ),
            )
            .with_span(w0.span);
            out.push(f);
        }
    }
}
