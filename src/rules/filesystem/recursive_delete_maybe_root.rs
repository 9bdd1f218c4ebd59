//! SG1002: recursive delete of `"$VAR/"…` where the variable may be empty (then it is `/…`).

use crate::declare_rule;
use crate::model::Command;
use crate::model::paths::Extent;
use crate::rules::util::{classify, route};
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags a recursive delete whose target starts with a variable shellgate cannot know,
    /// followed by a slash: `rm -rf "$DIR/"*`, `rm -rf $PREFIX/lib`.
    ///
    /// ## Why is this bad?
    /// If the variable is unset or empty, the target becomes `/…`: the classic
    /// Steam-installer bug that deleted users' whole disks.
    ///
    /// ## Example
    /// ```sh
    /// rm -rf "$BUILD_DIR/"*      # approve: empty BUILD_DIR means rm -rf /*
    /// rm -rf "${BUILD_DIR:?}/"*  # still flagged (shellgate cannot prove it is set)
    /// ```
    ///
    /// ## Known limitations
    /// `${VAR:?}` makes bash abort when VAR is empty, but shellgate still asks.
    pub struct RecursiveDeleteMaybeRoot;
    code: "SG1002",
    name: "recursive-delete-maybe-root",
    severity: Approve,
    category: Filesystem,
    hermes: ["delete in root path"],
    programs: ["rm"],
    summary: "Recursive delete of a path that is `/…` if a variable is empty",
    pass: ["rm -rf ./build", "D=/tmp/x; rm -rf \"$D/\"*"],
    fail: ["rm -rf \"$DIR/\"*", "rm -rf $PREFIX/lib"],
}

impl Rule for RecursiveDeleteMaybeRoot {
    fn check_command(&self, cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let (args, recursive) = super::rm_args(cmd);
        if !recursive {
            return;
        }
        for t in &args {
            if let Extent::MaybeRoot(p) = classify(cmd, t, cx.ctx.home.as_deref()) {
                out.push(
                    Finding::on(
                        &Self::META,
                        cmd,
                        format!("recursive rm of `{p}`: if the variable is empty this deletes from `/`{}", route(cmd)),
                    )
                    .with_span(t.span),
                );
            }
        }
    }
}
