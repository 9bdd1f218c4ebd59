//! Shared helpers for rules: classifying path operands (through `model::paths` and its
//! catalog) and describing how a command was reached. Options are read once per command
//! by `model::opts` (`Command::opts`), not here.

use crate::model::paths::{self, Extent, PathClass, PathInfo, Roots};
use crate::model::{Command, Word};
use crate::rules::Cx;

/// Words as messages show them, comma-separated (`a, b, …/x`).
pub fn shown_list(words: &[&Word]) -> String {
    words
        .iter()
        .map(|w| w.shown())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Classify a path operand of `cmd` (its working directory and the context's home).
pub fn classify(cmd: &Command, w: &Word, home: Option<&str>) -> Extent {
    paths::classify_word(w, cmd.cwd.as_deref(), home)
}

/// What the catalog says about a resolved path, in this analysis's context.
pub fn path_info(cx: &Cx, path: &str) -> PathInfo {
    let p = paths::fix_tilde_path(path, cx.ctx.home.as_deref());
    let mut info = paths::classify(&p, Roots::of(cx.ctx));
    if !info.class.is_protected() && configured_protected(cx.ctx, &p) {
        info.class = PathClass::Configured;
    }
    info
}

/// Does one of the config's `protected_paths` cover `path`: a glob that matches it, or a
/// directory (with `~` for the home) that holds it?
pub fn configured_protected(ctx: &crate::Context, path: &str) -> bool {
    let p = paths::fold(path);
    ctx.protected_paths.iter().any(|g| {
        let g = paths::expand_tilde(g, ctx.home.as_deref());
        (g.starts_with('/') && paths::within(&p, &paths::fold(&g)))
            || crate::glob::matches_ignore_case(&g, &p)
    })
}

/// A path word of `cmd` that is protected from writes, copies and deletes: its class and
/// resolved path.
pub fn protected_word(cx: &Cx, cmd: &Command, w: &Word) -> Option<(PathClass, String)> {
    let p = paths::resolve_word(cmd, w, cx.ctx.home.as_deref())?;
    let class = path_info(cx, &p).class;
    class.is_protected().then_some((class, p))
}

/// Is this path word of `cmd` a secret (a credential, key or `.env*` file)?
pub fn secret_word(cx: &Cx, cmd: &Command, w: &Word) -> bool {
    paths::resolve_word(cmd, w, cx.ctx.home.as_deref()).is_some_and(|p| path_info(cx, &p).secret)
}

/// Human wording for a path extent, for messages.
pub fn describe(class: &Extent) -> String {
    match class {
        Extent::Root => "the root filesystem".into(),
        Extent::SystemDir(d) => format!("the system directory {d}"),
        Extent::Home(h) => format!("the home directory {h}"),
        Extent::MaybeRoot(p) => format!("`{p}`, which is `/…` if the variable is empty"),
        Extent::Unknown(p) => format!("`{p}`, known only at run time"),
        Extent::InsideSystem(p) => format!("the system path {p}"),
        Extent::InsideHome(p) => format!("{p} in the home directory"),
        Extent::WorkDirItself(p) => format!("the working directory itself ({p})"),
        Extent::Temp(p) => format!("the temporary path {p}"),
        Extent::Workspace(p) => format!("{p} in the working directory"),
        Extent::Other(p) => p.clone(),
    }
}

/// Explain how the command was reached (wrappers, nesting) for a message suffix.
pub fn route(cmd: &Command) -> String {
    let mut parts = Vec::new();
    if !cmd.wrappers.is_empty() {
        parts.push(format!(
            "via {}",
            cmd.wrappers
                .iter()
                .map(|w| w.name.as_str())
                .collect::<Vec<_>>()
                .join(" → ")
        ));
    }
    if !cmd.origin.is_top_level() {
        parts.push(format!("inside {}", cmd.origin.describe()));
    }
    if let Some(s) = &cmd.synthetic {
        parts.push(format!("from {s}"));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}
