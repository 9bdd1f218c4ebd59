//! What a command destroys or overwrites, read from the lowered model: the one typed
//! "affected paths" function ([`affected`]) that checkpoints snapshot before a destructive
//! command runs, and the per-program readers it shares with the rules (`sed -i` files, the
//! destination of `cp`/`mv`/`install`/`ln`).
//!
//! Every answer comes from the model's commands and their option grammar
//! ([`Command::opts`]), never from the command text. A target is absolute (resolved against
//! the command's working directory and the home) or, when bash only knows it at run time,
//! [`Target::Unknown`] with the reason; git operations are described by what git itself
//! can list at checkpoint time (`git clean -n`, the modified files of a pathspec, the stash
//! list, a branch tip), since the files they touch are the repository's state, not words.
//!
//! ## Adding a write
//! A program that destroys or overwrites files is one arm in [`of_command`] (or a helper
//! it calls) returning [`Affected`] items, plus a test below and one in
//! `tests/checkpoint.rs` that runs the real command and restores what it changed.

use super::opts::grammars::{find_paths, find_takes_value};
use super::opts::value_word;
use super::paths::{expand_tilde, fold, resolve};
use super::{CmdId, Command, OriginKind, Piece, RedirectOp, Script, Word};
use crate::Span;

/// How a command changes what is at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    /// Removed (`rm`, `find -delete`, `git clean`, `mv`'s sources).
    Delete,
    /// Emptied then written (`>`, `tee`, `truncate`, `dd of=`).
    Truncate,
    /// Replaced by other content (`cp`/`mv`/`install` destinations, `curl -o`).
    Overwrite,
    /// Rewritten in place (`sed -i`, `perl -pi`).
    Edit,
    /// Replaced from git's records (`git checkout -- f`, `git reset --hard`).
    GitDiscard,
    /// A git ref or stash entry removed (`git branch -D`, `git stash drop`).
    GitRef,
}

impl Change {
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Delete => "deleted",
            Change::Truncate => "truncated",
            Change::Overwrite => "overwritten",
            Change::Edit => "edited in place",
            Change::GitDiscard => "discarded by git",
            Change::GitRef => "git ref removed",
        }
    }
}

/// Where a git command runs: the directory after `-C`, and `--git-dir`/`--work-tree`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitAt {
    pub dir: String,
    pub git_dir: Option<String>,
    pub work_tree: Option<String>,
}

/// The tests of a `find` expression that narrow what it selects, when the expression is a
/// plain conjunction; `None` fields select everything.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FindFilter {
    /// `-name` patterns (all must match the file name).
    pub names: Vec<String>,
    /// `-iname` patterns, matched case-insensitively.
    pub inames: Vec<String>,
    /// `-type` letters (`f`, `d`, `l`); empty: any type.
    pub types: Vec<char>,
    pub maxdepth: Option<usize>,
    pub mindepth: Option<usize>,
}

/// One thing a command destroys or overwrites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A path (absolute, folded). `recursive`: a directory with everything below it.
    Path { path: String, recursive: bool },
    /// An absolute pattern bash expands before the command runs (`build/*.o`), `*`, `?`
    /// and `[..]` per component, dotfiles only when the component starts with `.`; quoted
    /// glob characters are written `[*]`.
    Glob { pattern: String, recursive: bool },
    /// Where `cp`/`mv`/`install`/`ln` write: `dest/NAME` for each source name when `dest`
    /// is a directory at run time (or `-t` names one), else `dest` itself.
    Into {
        dest: String,
        names: Vec<String>,
        /// `-t DIR`: always a directory. `-T`: never.
        dir: Option<bool>,
        recursive: bool,
    },
    /// What `find ROOTS ... -delete` (or `-exec rm`) selects.
    Find {
        roots: Vec<String>,
        filter: Option<FindFilter>,
    },
    /// The untracked files `git clean` removes, listed by `git clean -n` with the same
    /// options at checkpoint time.
    GitClean { at: GitAt, clean: GitClean },
    /// Work-tree files `git checkout`/`git restore` overwrite: those of `paths` that differ
    /// from the index (or from `source`).
    GitCheckout {
        at: GitAt,
        source: Option<String>,
        paths: Vec<String>,
    },
    /// Every uncommitted change to tracked files, which `git reset --hard`, `git checkout
    /// -f` and `git switch --discard-changes` discard (and the branch tip they move).
    GitUncommitted { at: GitAt },
    /// Stash entries `git stash drop`/`pop` (`which`) or `git stash clear` (`None`) remove.
    GitStashDrop { at: GitAt, which: Option<String> },
    /// Branch tips `git branch -D` removes.
    GitBranchDelete { at: GitAt, names: Vec<String> },
    /// Known only at run time: what it is, for the person.
    Unknown { what: String },
}

/// The options of a `git clean` that decide what it removes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GitClean {
    /// `-d`: untracked directories too.
    pub dirs: bool,
    /// `-x` (ignored files too) or `-X` (only ignored files).
    pub ignored: Option<char>,
    /// `-f` given twice: nested repositories too.
    pub force_twice: bool,
    /// `-e PATTERN` values.
    pub excludes: Vec<String>,
    /// Pathspecs.
    pub paths: Vec<String>,
}

/// One item: which command, where in the text, how and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Affected {
    pub cmd: CmdId,
    pub span: Span,
    pub change: Change,
    pub target: Target,
}

/// Everything the script destroys or overwrites, in command order.
pub fn affected(script: &Script, home: Option<&str>) -> Vec<Affected> {
    let mut out = Vec::new();
    for cmd in &script.commands {
        of_command(script, cmd, home, &mut out);
    }
    out.dedup();
    out
}

/// Devices and descriptors a write to which destroys no file (`/dev/null`, `/dev/fd/1`).
fn not_a_file(path: &str) -> bool {
    path.starts_with("/dev/") || path.starts_with("/proc/")
}

struct Cx<'a> {
    cmd: &'a Command,
    home: Option<&'a str>,
    out: &'a mut Vec<Affected>,
}

impl Cx<'_> {
    fn push(&mut self, span: Span, change: Change, target: Target) {
        self.out.push(Affected {
            cmd: self.cmd.id,
            span,
            change,
            target,
        });
    }

    fn unknown(&mut self, w: &Word, change: Change) {
        let what = format!("`{}`, known only at run time", w.raw);
        self.push(w.span, change, Target::Unknown { what });
    }

    /// A path operand: a path, a glob, or unknown.
    fn word(&mut self, w: &Word, change: Change, recursive: bool) {
        match path_of(self.cmd, w, self.home) {
            Some(PathWord::Path(path)) => {
                if !not_a_file(&path) {
                    self.push(w.span, change, Target::Path { path, recursive });
                }
            }
            Some(PathWord::Glob(pattern)) => {
                self.push(w.span, change, Target::Glob { pattern, recursive })
            }
            None => self.unknown(w, change),
        }
    }
}

enum PathWord {
    Path(String),
    Glob(String),
}

/// A word as a path: literal text resolved, a glob pattern with quoted glob characters
/// escaped, or `None` when part of it is known only at run time.
fn path_of(cmd: &Command, w: &Word, home: Option<&str>) -> Option<PathWord> {
    if !w.is_literal() {
        return None;
    }
    let glob = w.has_glob();
    let mut text = String::new();
    for p in &w.pieces {
        if let Piece::Lit { text: t, quoted } = p {
            if glob && *quoted {
                text.push_str(&crate::glob::escape(t));
            } else {
                text.push_str(t);
            }
        }
    }
    if text.is_empty() {
        return None;
    }
    let text = expand_tilde(&text, home);
    let abs = resolve(&text, cmd.cwd.as_deref())?;
    Some(if glob {
        PathWord::Glob(abs)
    } else {
        PathWord::Path(abs)
    })
}

/// The files `sed -i`/`perl -pi`/`ruby -pi` edit in place: whether it edits in place,
/// whether that was the long `--in-place`, and the file operands (the script operand
/// removed when no `-e`/`-f` gave it).
pub fn in_place_files(cmd: &Command) -> (bool, bool, Vec<&Word>) {
    let o = &cmd.opts;
    if cmd.is("perl") || cmd.is("ruby") {
        let code_given = o.short('e') || (cmd.is("perl") && o.short('E'));
        let mut ops = o.operand_words(cmd.args());
        if !code_given && !ops.is_empty() {
            ops.remove(0);
        }
        return (o.short('i'), false, ops);
    }
    let long = o.long("in-place");
    let inplace = long || o.short('i');
    let script_given = o
        .all()
        .any(|x| matches!(x.name.as_str(), "e" | "f" | "expression" | "file"));
    let mut ops = o.operand_words(cmd.args());
    if !script_given && !ops.is_empty() {
        ops.remove(0);
    }
    (inplace, long, ops)
}

/// Where `cp`/`mv`/`install`/`ln` write.
pub struct CopyDest<'a> {
    /// The destination word: `-t DIR`, else the last operand.
    pub dest: Word,
    /// The source operands.
    pub sources: Vec<&'a Word>,
    /// `-t` given: the destination is a directory.
    pub into_dir: bool,
}

/// The destination and sources of `cp`/`mv`/`install`/`ln`; `None` when it writes nothing
/// (`install -d`, a single operand).
pub fn copy_dest(cmd: &Command) -> Option<CopyDest<'_>> {
    let args = cmd.args();
    let o = &cmd.opts;
    let operands = o.operand_words(args);
    if let Some(t) = o.value_of(args, &["t", "target-directory"]) {
        return Some(CopyDest {
            dest: t,
            sources: operands,
            into_dir: true,
        });
    }
    if cmd.is("install") && o.short('d') || operands.len() < 2 {
        return None;
    }
    let (last, sources) = operands.split_last()?;
    Some(CopyDest {
        dest: (*last).clone(),
        sources: sources.to_vec(),
        into_dir: false,
    })
}

/// The file name a source lands under in a destination directory (`a/b/` → `b`).
fn base_name(w: &Word) -> Option<String> {
    let t = w.lit()?;
    let name = t.trim_end_matches('/').rsplit('/').next()?.to_string();
    (!name.is_empty() && name != "." && name != "..").then_some(name)
}

fn copy_like(cx: &mut Cx, recursive: bool) {
    let cmd = cx.cmd;
    let o = &cmd.opts;
    // `ln` without -f refuses to replace an existing file.
    if cmd.is("ln") && !o.flag('f', "force") {
        return;
    }
    let Some(d) = copy_dest(cmd) else {
        return;
    };
    if cmd.is("mv") {
        for s in &d.sources {
            cx.word(s, Change::Delete, true);
        }
    }
    let Some(PathWord::Path(dest)) = path_of(cmd, &d.dest, cx.home) else {
        cx.unknown(&d.dest, Change::Overwrite);
        return;
    };
    if not_a_file(&dest) {
        return;
    }
    let names: Vec<String> = d.sources.iter().filter_map(|s| base_name(s)).collect();
    let dir = if d.into_dir {
        Some(true)
    } else if o.flag('T', "no-target-directory") {
        Some(false)
    } else {
        None
    };
    if names.len() < d.sources.len() && dir != Some(false) {
        // A source named at run time lands under a name known only then.
        let what = format!(
            "files copied into `{}` under names known only at run time",
            dest
        );
        cx.push(d.dest.span, Change::Overwrite, Target::Unknown { what });
    }
    cx.push(
        d.dest.span,
        Change::Overwrite,
        Target::Into {
            dest,
            names,
            dir,
            recursive,
        },
    );
}

/// The start paths and the narrowing tests of a `find` command.
fn find_selection(find: &Command, home: Option<&str>) -> Option<(Vec<String>, Option<FindFilter>)> {
    let args = find.args();
    let (paths, expr) = find_paths(&find.opts, args);
    let mut roots = Vec::new();
    for i in &paths {
        match path_of(find, &args[*i], home) {
            Some(PathWord::Path(p)) => roots.push(p),
            _ => return None,
        }
    }
    if roots.is_empty() {
        roots.push(resolve(".", find.cwd.as_deref())?);
    }
    Some((roots, find_filter(args.get(expr..).unwrap_or(&[]))))
}

/// The conjunction of `-name`/`-iname`/`-type`/`-maxdepth`/`-mindepth` tests. Other tests
/// of a conjunction only narrow the selection, so leaving them out keeps a superset; an
/// expression with `-o`, `,` or parentheses selects by rules this does not follow (`None`:
/// everything under the roots). A negated test is never used as a filter.
fn find_filter(expr: &[Word]) -> Option<FindFilter> {
    let mut f = FindFilter::default();
    let mut i = 0;
    let mut negated = false;
    while i < expr.len() {
        let t = expr[i].lit()?;
        let value = || expr.get(i + 1).and_then(Word::lit);
        match t.as_str() {
            "-o" | "-or" | "," | "(" | ")" => return None,
            "!" | "-not" => {
                negated = true;
                i += 1;
                continue;
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                i += 1;
                while i < expr.len() && !matches!(expr[i].lit().as_deref(), Some(";" | "+")) {
                    i += 1;
                }
            }
            "-name" | "-iname" | "-type" | "-maxdepth" | "-mindepth" => {
                let v = value()?;
                if !negated {
                    match t.as_str() {
                        "-name" => f.names.push(v),
                        "-iname" => f.inames.push(v),
                        "-type" => f.types.extend(v.chars().filter(|c| *c != ',')),
                        "-maxdepth" => f.maxdepth = v.parse().ok(),
                        _ => f.mindepth = v.parse().ok(),
                    }
                }
                i += 1;
            }
            x if find_takes_value(x) => i += 1,
            _ => {}
        }
        negated = false;
        i += 1;
    }
    Some(f)
}

/// Does `find` delete what it selects itself (`-delete`, outside `-exec` clauses)?
fn find_deletes(find: &Command) -> bool {
    let args = find.args();
    let (_, expr) = find_paths(&find.opts, args);
    let mut i = expr;
    while i < args.len() {
        match args[i].lit().as_deref() {
            Some("-exec" | "-execdir" | "-ok" | "-okdir") => {
                while i < args.len() && !matches!(args[i].lit().as_deref(), Some(";" | "+")) {
                    i += 1;
                }
            }
            Some("-delete") => return true,
            Some(t) if find_takes_value(t) => i += 1,
            _ => {}
        }
        i += 1;
    }
    false
}

fn push_find(cx: &mut Cx, find: &Command, change: Change) {
    match find_selection(find, cx.home) {
        Some((roots, filter)) => cx.push(find.span, change, Target::Find { roots, filter }),
        None => cx.push(
            find.span,
            change,
            Target::Unknown {
                what: "the files `find` selects, under a path known only at run time".into(),
            },
        ),
    }
}

/// The `find` whose `-exec` clause lowered into `cmd`, if any.
fn exec_parent<'s>(script: &'s Script, cmd: &Command) -> Option<&'s Command> {
    let step = cmd
        .origin
        .steps
        .iter()
        .rev()
        .find(|s| s.kind == OriginKind::FindExec)?;
    script
        .commands
        .iter()
        .find(|c| c.is("find") && c.span == step.span && c.id != cmd.id)
}

/// Where a git command runs, when its global options are known.
fn git_at(cmd: &Command, home: Option<&str>) -> Option<GitAt> {
    let args = cmd.args();
    let mut dir = cmd.cwd.clone()?;
    let mut git_dir = None;
    let mut work_tree = None;
    for o in &cmd.opts.globals {
        let value = || {
            value_word(args, o)
                .and_then(|w| w.lit())
                .map(|v| expand_tilde(&v, home))
        };
        match o.name.as_str() {
            "C" => dir = resolve(&value()?, Some(&dir))?,
            "git-dir" => git_dir = Some(resolve(&value()?, Some(&dir))?),
            "work-tree" => work_tree = Some(resolve(&value()?, Some(&dir))?),
            _ => {}
        }
    }
    Some(GitAt {
        dir,
        git_dir,
        work_tree,
    })
}

fn git(cx: &mut Cx) {
    let cmd = cx.cmd;
    let o = &cmd.opts;
    let Some(sub) = o.sub() else {
        return;
    };
    let args = cmd.args();
    let lits = |ws: &[&Word]| -> Option<Vec<String>> { ws.iter().map(|w| w.lit()).collect() };
    let Some(at) = git_at(cmd, cx.home) else {
        if matches!(
            sub,
            "clean" | "checkout" | "restore" | "reset" | "stash" | "branch"
        ) {
            let what = "a git repository named only at run time".to_string();
            cx.push(cmd.span, Change::GitDiscard, Target::Unknown { what });
        }
        return;
    };
    let unknown = |cx: &mut Cx, what: &str| {
        cx.push(
            cmd.span,
            Change::GitDiscard,
            Target::Unknown {
                what: format!("{what}, known only at run time"),
            },
        )
    };
    match sub {
        "clean" => {
            if !o.flag('f', "force") || o.flag('n', "dry-run") {
                return;
            }
            let excludes: Option<Vec<String>> = o
                .named(&["e", "exclude"])
                .map(|x| value_word(args, x).and_then(|w| w.lit()))
                .collect();
            let (Some(excludes), Some(paths)) = (excludes, lits(&o.operand_words(args))) else {
                return unknown(cx, "what `git clean` removes");
            };
            let clean = GitClean {
                dirs: o.short('d'),
                ignored: ['X', 'x'].into_iter().find(|c| o.short(*c)),
                force_twice: o.named(&["f", "force"]).count() > 1,
                excludes,
                paths,
            };
            cx.push(cmd.span, Change::Delete, Target::GitClean { at, clean });
        }
        "checkout" | "restore" | "switch" => {
            let discards_all = match sub {
                "switch" => o.flag('f', "force") || o.long("discard-changes"),
                "checkout" => o.flag('f', "force"),
                _ => false,
            };
            if discards_all {
                return cx.push(cmd.span, Change::GitDiscard, Target::GitUncommitted { at });
            }
            if sub == "switch" {
                return;
            }
            let Some((source, paths)) = git_checkout_paths(cmd) else {
                return;
            };
            match lits(&paths) {
                Some(paths) => cx.push(
                    cmd.span,
                    Change::GitDiscard,
                    Target::GitCheckout { at, source, paths },
                ),
                None => unknown(cx, "the paths git overwrites"),
            }
        }
        "reset" => {
            let hard = o
                .own()
                .iter()
                .any(|x| x.long && !x.name.is_empty() && "hard".starts_with(x.name.as_str()));
            if hard {
                cx.push(cmd.span, Change::GitDiscard, Target::GitUncommitted { at });
            }
        }
        "stash" => {
            let subs: Vec<&str> = o.subcommand.iter().map(|(s, _)| s.as_str()).collect();
            let which = match subs.as_slice() {
                ["stash", "clear", ..] => None,
                ["stash", "drop" | "pop", ..] => {
                    let ops = o.operand_words(args);
                    match ops.first() {
                        Some(w) => match w.lit() {
                            Some(s) => Some(s),
                            None => return unknown(cx, "the stash entry dropped"),
                        },
                        None => Some("stash@{0}".into()),
                    }
                }
                _ => return,
            };
            cx.push(cmd.span, Change::GitRef, Target::GitStashDrop { at, which });
        }
        "branch" => {
            let force = o.short('D') || (o.flag('d', "delete") && o.flag('f', "force"));
            if !force {
                return;
            }
            match lits(&o.operand_words(args)) {
                Some(names) => cx.push(
                    cmd.span,
                    Change::GitRef,
                    Target::GitBranchDelete { at, names },
                ),
                None => unknown(cx, "the branches deleted"),
            }
        }
        _ => {}
    }
}

/// `git checkout`/`git restore`: the tree-ish they copy from (none: the index) and the
/// pathspecs of the work-tree files they overwrite; `None` when they overwrite none
/// (switching branches, `restore --staged`, `-p`).
fn git_checkout_paths(cmd: &Command) -> Option<(Option<String>, Vec<&Word>)> {
    let o = &cmd.opts;
    let args = cmd.args();
    let ops = o.operand_words(args);
    if o.long("help") || o.flag('p', "patch") {
        return None;
    }
    if o.sub() == Some("restore") {
        if o.flag('S', "staged") && !o.flag('W', "worktree") {
            return None;
        }
        let source = o.value_of(args, &["s", "source"]).and_then(|w| w.lit());
        return (!ops.is_empty()).then_some((source, ops));
    }
    // `git checkout [TREE-ISH] [--] PATHS`: operands after `--` are paths; without `--`,
    // two or more operands are a tree-ish and paths; one is a branch unless git finds no
    // such ref (a path then), which only git knows: it is listed as a path, and the
    // checkpoint finds nothing modified under it when it names a branch.
    let before = match o.end_of_options {
        Some(d) => o.operands.iter().filter(|&&i| i < d).count(),
        None => ops.len().min(1),
    };
    let (head, paths) = ops.split_at(before.min(ops.len()));
    if o.end_of_options.is_none() && ops.len() == 1 {
        return Some((None, ops));
    }
    let source = head.first().and_then(|w| w.lit());
    (!paths.is_empty()).then(|| (source, paths.to_vec()))
}

/// What one command destroys or overwrites.
fn of_command(script: &Script, cmd: &Command, home: Option<&str>, out: &mut Vec<Affected>) {
    let mut cx = Cx { cmd, home, out };
    for r in &cmd.redirects {
        if !matches!(r.op, RedirectOp::Write | RedirectOp::WriteAll) {
            continue;
        }
        if let Some(t) = &r.target {
            cx.word(t, Change::Truncate, false);
        }
    }
    let Some(name) = cmd.name.as_deref() else {
        return;
    };
    let o = &cmd.opts;
    let args = cmd.args();
    match name {
        "rm" | "unlink" | "rmdir" | "shred" => {
            if let Some(find) = exec_parent(script, cmd) {
                return push_find(&mut cx, find, Change::Delete);
            }
            if cmd.has_wrapper("xargs")
                || cmd.origin.steps.iter().any(|s| s.kind == OriginKind::Xargs)
            {
                let what = format!("the files {name} is given on its input by xargs");
                return cx.push(cmd.span, Change::Delete, Target::Unknown { what });
            }
            let recursive = name == "rm" && (o.short('r') || o.short('R') || o.long("recursive"));
            let change = if name == "shred" {
                Change::Overwrite
            } else {
                Change::Delete
            };
            for w in o.operand_words(args) {
                cx.word(w, change, recursive);
            }
        }
        "find" if find_deletes(cmd) => push_find(&mut cx, cmd, Change::Delete),
        "sed" | "gsed" | "perl" | "ruby" => {
            if let Some(find) = exec_parent(script, cmd) {
                if in_place_files(cmd).0 {
                    push_find(&mut cx, find, Change::Edit);
                }
                return;
            }
            let (inplace, _, files) = in_place_files(cmd);
            if inplace {
                for w in files {
                    cx.word(w, Change::Edit, false);
                }
            }
        }
        "cp" | "mv" | "install" | "ln" => {
            let recursive =
                name == "mv" || o.flag('r', "recursive") || o.short('R') || o.flag('a', "archive");
            copy_like(&mut cx, recursive);
        }
        "truncate" => {
            for w in o.operand_words(args) {
                cx.word(w, Change::Truncate, false);
            }
        }
        "dd" => {
            for w in args {
                if let Some(p) = w
                    .lit()
                    .and_then(|t| t.strip_prefix("of=").map(str::to_string))
                {
                    cx.word(&Word::literal(&p, w.span), Change::Truncate, false);
                }
            }
        }
        "rsync" => {
            let ops = o.operand_words(args);
            if let [_, .., dest] = ops.as_slice()
                && !dest.shown().split('/').next().unwrap_or("").contains(':')
            {
                cx.word(dest, Change::Overwrite, true);
            }
        }
        "git" => git(&mut cx),
        // Appending destroys nothing.
        "tee" if o.flag('a', "append") => {}
        _ => {
            for p in crate::graph::written_args(cmd) {
                if p.contains('\u{fffd}') {
                    let what = format!("`{}`, known only at run time", p.replace('\u{fffd}', "…"));
                    cx.push(cmd.span, Change::Overwrite, Target::Unknown { what });
                } else if let Some(abs) = resolve(&expand_tilde(&p, home), cmd.cwd.as_deref())
                    && !not_a_file(&abs)
                {
                    let path = fold(&abs);
                    cx.push(
                        cmd.span,
                        Change::Truncate,
                        Target::Path {
                            path,
                            recursive: false,
                        },
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Context, analyze};

    fn of(src: &str) -> Vec<(Change, Target)> {
        let ctx = Context::fixture();
        let a = analyze(src, &ctx);
        affected(&a.script, ctx.home.as_deref())
            .into_iter()
            .map(|x| (x.change, x.target))
            .collect()
    }

    fn path(p: &str, recursive: bool) -> Target {
        Target::Path {
            path: p.into(),
            recursive,
        }
    }

    const P: &str = "/home/user/project";

    #[test]
    fn rm_targets_resolve_against_the_working_directory() {
        assert_eq!(
            of("rm -rf ./build ~/x"),
            vec![
                (Change::Delete, path(&format!("{P}/build"), true)),
                (Change::Delete, path("/home/user/x", true)),
            ]
        );
        assert_eq!(
            of("cd src && rm a.o"),
            vec![(Change::Delete, path(&format!("{P}/src/a.o"), false))]
        );
    }

    #[test]
    fn globs_keep_quoted_glob_characters_literal() {
        assert_eq!(
            of("rm -f build/*.o \"odd*\"x*"),
            vec![
                (
                    Change::Delete,
                    Target::Glob {
                        pattern: format!("{P}/build/*.o"),
                        recursive: false
                    }
                ),
                (
                    Change::Delete,
                    Target::Glob {
                        pattern: format!("{P}/odd[*]x*"),
                        recursive: false
                    }
                ),
            ]
        );
    }

    #[test]
    fn run_time_paths_are_unknown() {
        let got = of("rm -rf \"$DIR\"");
        assert!(
            matches!(&got[..], [(Change::Delete, Target::Unknown { .. })]),
            "{got:?}"
        );
        let got = of("ls | xargs rm");
        assert!(
            matches!(&got[..], [(Change::Delete, Target::Unknown { .. })]),
            "{got:?}"
        );
    }

    #[test]
    fn truncating_redirects_and_tee_overwrite_but_appends_and_dev_null_do_not() {
        assert_eq!(
            of(
                "echo x > out.txt; echo y >> log; echo z > /dev/null; echo w | tee t.txt; echo v | tee -a u.txt"
            ),
            vec![
                (Change::Truncate, path(&format!("{P}/out.txt"), false)),
                (Change::Truncate, path(&format!("{P}/t.txt"), false)),
            ]
        );
    }

    #[test]
    fn copies_and_moves_name_their_destination_and_moved_sources() {
        assert_eq!(
            of("mv a.txt docs/"),
            vec![
                (Change::Delete, path(&format!("{P}/a.txt"), true)),
                (
                    Change::Overwrite,
                    Target::Into {
                        dest: format!("{P}/docs"),
                        names: vec!["a.txt".into()],
                        dir: None,
                        recursive: true
                    }
                ),
            ]
        );
        assert_eq!(
            of("cp -t out a b"),
            vec![(
                Change::Overwrite,
                Target::Into {
                    dest: format!("{P}/out"),
                    names: vec!["a".into(), "b".into()],
                    dir: Some(true),
                    recursive: false
                }
            )]
        );
        assert!(of("ln -s a b").is_empty());
        assert!(of("install -d build").is_empty());
    }

    #[test]
    fn in_place_edits_truncate_and_dd() {
        assert_eq!(
            of("sed -i 's/a/b/' f.txt; perl -pi -e 's/a/b/' g.txt; sed 's/a/b/' h.txt"),
            vec![
                (Change::Edit, path(&format!("{P}/f.txt"), false)),
                (Change::Edit, path(&format!("{P}/g.txt"), false)),
            ]
        );
        assert_eq!(
            of("truncate -s 0 app.log; dd if=/dev/zero of=disk.img count=1"),
            vec![
                (Change::Truncate, path(&format!("{P}/app.log"), false)),
                (Change::Truncate, path(&format!("{P}/disk.img"), false)),
            ]
        );
    }

    #[test]
    fn find_delete_and_find_exec_rm_select_under_their_roots() {
        let want = Target::Find {
            roots: vec![format!("{P}/src")],
            filter: Some(FindFilter {
                names: vec!["*.pyc".into()],
                types: vec!['f'],
                ..FindFilter::default()
            }),
        };
        assert_eq!(
            of("find src -type f -name '*.pyc' -mtime +3 -delete"),
            vec![(Change::Delete, want.clone())]
        );
        assert_eq!(
            of("find src -type f -name '*.pyc' -exec rm -f {} +"),
            vec![(Change::Delete, want)]
        );
        assert_eq!(
            of("find . -name a -o -name b -delete"),
            vec![(
                Change::Delete,
                Target::Find {
                    roots: vec![P.into()],
                    filter: None
                }
            )]
        );
        assert!(of("find . -name '*.rs'").is_empty());
    }

    #[test]
    fn git_operations_are_described_for_git_to_list() {
        let at = GitAt {
            dir: format!("{P}/app"),
            git_dir: None,
            work_tree: None,
        };
        assert_eq!(
            of("git -C app clean -fdx -e keep"),
            vec![(
                Change::Delete,
                Target::GitClean {
                    at: at.clone(),
                    clean: GitClean {
                        dirs: true,
                        ignored: Some('x'),
                        force_twice: false,
                        excludes: vec!["keep".into()],
                        paths: Vec::new(),
                    }
                }
            )]
        );
        assert_eq!(
            of("git -C app reset --hard HEAD~1"),
            vec![(
                Change::GitDiscard,
                Target::GitUncommitted { at: at.clone() }
            )]
        );
        assert_eq!(
            of("git -C app checkout -f main; git -C app switch --discard-changes x"),
            vec![
                (
                    Change::GitDiscard,
                    Target::GitUncommitted { at: at.clone() }
                ),
                (
                    Change::GitDiscard,
                    Target::GitUncommitted { at: at.clone() }
                ),
            ]
        );
        assert_eq!(
            of("git -C app checkout HEAD~2 -- src a.rs"),
            vec![(
                Change::GitDiscard,
                Target::GitCheckout {
                    at: at.clone(),
                    source: Some("HEAD~2".into()),
                    paths: vec!["src".into(), "a.rs".into()]
                }
            )]
        );
        assert_eq!(
            of("git -C app restore -s main ."),
            vec![(
                Change::GitDiscard,
                Target::GitCheckout {
                    at: at.clone(),
                    source: Some("main".into()),
                    paths: vec![".".into()]
                }
            )]
        );
        assert_eq!(
            of("git -C app stash drop; git -C app stash clear; git -C app branch -D a b"),
            vec![
                (
                    Change::GitRef,
                    Target::GitStashDrop {
                        at: at.clone(),
                        which: Some("stash@{0}".into())
                    }
                ),
                (
                    Change::GitRef,
                    Target::GitStashDrop {
                        at: at.clone(),
                        which: None
                    }
                ),
                (
                    Change::GitRef,
                    Target::GitBranchDelete {
                        at,
                        names: vec!["a".into(), "b".into()]
                    }
                ),
            ]
        );
        assert!(
            of("git checkout -b x; git restore --staged f; git clean -n; git branch -d x")
                .is_empty()
        );
    }

    #[test]
    fn nested_code_and_interpreter_writes_are_included() {
        assert_eq!(
            of("bash -c 'rm -rf dist'"),
            vec![(Change::Delete, path(&format!("{P}/dist"), true))]
        );
        let got = of("python3 -c 'import shutil; shutil.rmtree(\"cache\")'");
        assert!(
            got.iter()
                .any(|(_, t)| *t == path(&format!("{P}/cache"), true)),
            "{got:?}"
        );
    }
}
