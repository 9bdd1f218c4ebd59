//! Shared helpers for rules: reading flags the way programs read them (short clusters,
//! long options and their unambiguous prefixes, `--`), and classifying path operands.

use crate::model::paths::{self, Extent, PathClass, PathInfo, Roots};
use crate::model::{Command, Word};
use crate::rules::Cx;

/// How a program reads its options.
pub struct FlagSpec {
    /// Short options that take a value (`-n 5`, `-n5`).
    pub short_values: &'static str,
    /// Every long option the program accepts (without `--`), so that unambiguous prefixes
    /// (`--rec` for `--recursive`) resolve as getopt_long does.
    pub longs: &'static [&'static str],
    /// Long options that take a value (subset of `longs`).
    pub long_values: &'static [&'static str],
}

/// An argv read by a [`FlagSpec`].
#[derive(Debug, Default)]
pub struct Args<'a> {
    pub shorts: Vec<char>,
    /// Long options resolved to their full name.
    pub longs: Vec<String>,
    /// Option values: (option as written, value).
    pub values: Vec<(String, &'a Word)>,
    pub operands: Vec<&'a Word>,
}

impl Args<'_> {
    pub fn short(&self, c: char) -> bool {
        self.shorts.contains(&c)
    }
    pub fn long(&self, name: &str) -> bool {
        self.longs.iter().any(|l| l == name)
    }
    pub fn flag(&self, c: char, long: &str) -> bool {
        self.short(c) || self.long(long)
    }
    pub fn value(&self, opt: &str) -> Option<&Word> {
        self.values.iter().find(|(o, _)| o == opt).map(|(_, w)| *w)
    }
}

/// Resolve `--pre` against the known long options: exact match, else a unique prefix.
pub fn resolve_long(given: &str, longs: &[&str]) -> String {
    if longs.contains(&given) {
        return given.to_string();
    }
    let matches: Vec<&&str> = longs.iter().filter(|l| l.starts_with(given)).collect();
    if matches.len() == 1 {
        matches[0].to_string()
    } else {
        given.to_string()
    }
}

/// Read the arguments of `cmd` (after the program word).
pub fn parse<'a>(cmd: &'a Command, spec: &FlagSpec) -> Args<'a> {
    parse_words(cmd.args(), spec)
}

pub fn parse_words<'a>(words: &'a [Word], spec: &FlagSpec) -> Args<'a> {
    let mut a = Args::default();
    let mut i = 0;
    let mut only_operands = false;
    while i < words.len() {
        let w = &words[i];
        i += 1;
        let Some(t) = w.lit() else {
            a.operands.push(w);
            continue;
        };
        if only_operands || t == "-" || !t.starts_with('-') {
            a.operands.push(w);
            continue;
        }
        if t == "--" {
            only_operands = true;
            continue;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let full = resolve_long(name, spec.longs);
            if spec.long_values.contains(&full.as_str())
                && inline.is_none()
                && let Some(v) = words.get(i)
            {
                a.values.push((format!("--{full}"), v));
                i += 1;
            }
            a.longs.push(full);
            continue;
        }
        let body: Vec<char> = t[1..].chars().collect();
        for (pos, c) in body.iter().enumerate() {
            a.shorts.push(*c);
            if spec.short_values.contains(*c) {
                if pos + 1 == body.len()
                    && let Some(v) = words.get(i)
                {
                    a.values.push((format!("-{c}"), v));
                    i += 1;
                }
                break;
            }
        }
    }
    a
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
            || crate::policy::glob::matches(&g, &p)
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
