//! The one option grammar: how a program reads its argv (options that take values, attached
//! or separate; getopt_long abbreviations; `--`; bundles; global options before a
//! subcommand; subcommand trees), parsed once per command into [`Opts`]
//! ([`crate::model::Command::opts`]) that wrappers, the graph and every rule read.
//!
//! Grammars are data ([`Grammar`], one table in [`grammars`]). A program without an entry
//! is read by [`grammars::GENERIC`].
//! Shells read their own argv differently (`+o`, `-o` at the end of a bundle, a run-time word
//! ending the options); [`shell::shell_args`] is that one reader.
//!
//! ## Unknown options
//! An option the grammar does not list takes no value: the next word is read as an operand
//! (or, before a subcommand, as the subcommand). A rule that judges operands therefore sees
//! more words rather than fewer, which errs toward asking. A long option that is an
//! ambiguous or unknown abbreviation keeps the name as written.
//!
//! ## Precision
//! An option's value is never read as an option (`rg -e --pre` searches for `--pre`), and
//! after `--` every word is an operand (`rg -- --pre x`).

pub mod grammars;
pub mod shell;

use super::{Piece, Word};

/// Whether an option takes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// A flag.
    No,
    /// A value, attached (`-n5`, `--lines=5`) or the next word (`-n 5`, `--lines 5`).
    Value,
    /// A value only when attached (`--color=auto`, `-O2`); otherwise a flag.
    Optional,
}

/// A long option a grammar knows.
#[derive(Debug, Clone, Copy)]
pub struct Long {
    pub name: &'static str,
    pub takes: Takes,
}

/// Shorthand for grammar tables: a long flag.
pub const fn flag(name: &'static str) -> Long {
    Long {
        name,
        takes: Takes::No,
    }
}

/// Shorthand for grammar tables: a long option that takes a value.
pub const fn value(name: &'static str) -> Long {
    Long {
        name,
        takes: Takes::Value,
    }
}

/// Shorthand for grammar tables: a long option with an optional attached value.
pub const fn optional(name: &'static str) -> Long {
    Long {
        name,
        takes: Takes::Optional,
    }
}

/// A subcommand and the grammar of what follows it.
#[derive(Debug, Clone, Copy)]
pub struct Sub {
    pub names: &'static [&'static str],
    pub grammar: &'static Grammar,
}

/// Signals written as options (`kill -9`, `pkill -KILL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signals {
    /// No such spelling.
    None,
    /// `kill`: the first option word that is not one of its own options is the signal
    /// (`-9`, `-KILL`, `-Kill`); later `-N` and `-$PID` words are negative pids (process
    /// groups).
    FirstWord,
    /// `pkill`, `killall`: `-N` or an all-capitals `-NAME` anywhere is the signal.
    Spelled,
}

/// How one program (or one subcommand) reads its arguments.
#[derive(Debug, Clone, Copy)]
pub struct Grammar {
    /// Short options that take a value (`-u root`, `-uroot`).
    pub short_values: &'static str,
    /// Short options whose value must be attached (`-O2`); alone they are flags.
    pub short_optional: &'static str,
    /// Long options (without `--`).
    pub longs: &'static [Long],
    /// Unique prefixes of long options resolve to them (getopt_long, git's parse-options).
    pub abbreviate: bool,
    /// `-name` spellings of long options with one dash (`find`-style, Go's flag package):
    /// when set, `-xyz` is the long option `xyz`, never a bundle.
    pub single_dash_long: bool,
    /// The first operand ends the options (POSIX `getopt`, wrappers such as `sudo`/`env`,
    /// and every program's global options before its subcommand).
    pub stop_at_operand: bool,
    /// Subcommands; when not empty, the first operand is the subcommand and the rest is read
    /// by its grammar (or by [`Grammar::other_sub`] when it is none of them).
    pub subcommands: &'static [Sub],
    /// The grammar for a subcommand not listed.
    pub other_sub: Option<&'static Grammar>,
    /// Whether `-SIGNAL` words are signals (recorded as the option `signal`).
    pub signals: Signals,
    /// Windows-style options (`taskkill /F /IM x`): a word starting with `/`, `//` (Git
    /// Bash's escape) or `-` is one option named by the rest, case-insensitively (recorded
    /// in lower case, as a long option); no bundles; a value is the next word.
    pub windows: bool,
    /// Options (short letters or long names) whose value is the last option: every word
    /// after it is an operand (`python3 -c CODE -m x`, `python3 -m mod -v`: the rest is the
    /// code's or the module's argv; `pwsh -Command a -b`: the rest is the command).
    pub ends_options: &'static [&'static str],
    /// PowerShell parameters (about_Parameters; pwsh(1)): a word starting with `-` or `--`
    /// names a parameter by the rest, case-insensitively (recorded in lower case, as a long
    /// option), resolved exactly or else to the first listed long it is a prefix of (the
    /// order PowerShell's own matching checks its names in); `-Name:value` attaches a value;
    /// no bundles.
    pub powershell: bool,
    /// When not empty, a word is an option only when every letter after its `-` is one of
    /// these; any other word, `--` included, is the first operand and ends the options
    /// (bash's `echo`: `-neE` letters only, no `--`).
    pub only_letters: &'static str,
    /// Each option word is one option named by its first letter, the rest ignored (`xxd`:
    /// `-r`, `-revert` and `-rp` are all `-r`; `--r` is `-r`); a letter in
    /// [`Grammar::short_values`] takes the rest of the word, else the next word.
    pub first_letter: bool,
}

impl Grammar {
    /// A GNU-style grammar with no known options: the template for table entries.
    pub const GNU: Grammar = Grammar {
        short_values: "",
        short_optional: "",
        longs: &[],
        abbreviate: true,
        single_dash_long: false,
        stop_at_operand: false,
        subcommands: &[],
        other_sub: None,
        signals: Signals::None,
        windows: false,
        ends_options: &[],
        powershell: false,
        only_letters: "",
        first_letter: false,
    };

    fn long(&self, name: &str) -> Option<&Long> {
        self.longs.iter().find(|l| l.name == name)
    }

    /// Resolve a long option as written to its full name: exact, else (when the grammar
    /// abbreviates) its unique prefix; else unchanged.
    pub fn resolve_long<'a>(&'a self, given: &'a str) -> &'a str {
        if self.long(given).is_some() || !self.abbreviate || given.is_empty() {
            return given;
        }
        let mut found = self.longs.iter().filter(|l| l.name.starts_with(given));
        match (found.next(), found.next()) {
            (Some(l), None) => l.name,
            _ => given,
        }
    }

    fn sub(&self, name: &str) -> Option<&'static Grammar> {
        self.subcommands
            .iter()
            .find(|s| s.names.contains(&name))
            .map(|s| s.grammar)
            .or(self.other_sub)
    }
}

/// Where an option's value is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Value {
    /// Index (in the arguments) of the word that holds it.
    pub word: usize,
    /// The text after `=` or the rest of a short bundle, when attached; `None` when the
    /// value is the whole word.
    pub attached: Option<String>,
}

/// One option as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opt {
    /// The short letter (`"f"`) or the long name resolved from abbreviations (`"force"`);
    /// `signal` for a signal spelled as an option word (`kill -9`, see [`Signals`]).
    pub name: String,
    /// Written as a long option (`--name`, or `-name` in a one-dash grammar); false for a
    /// short letter and for a signal word (`-9`).
    pub long: bool,
    /// Index (in the arguments) of the word the option is in.
    pub word: usize,
    pub value: Option<Value>,
}

/// A command's arguments as its program reads them. Indices are into
/// [`crate::model::Command::args`] (the words after the program name).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Opts {
    /// Options before the subcommand (all options, for a program without subcommands).
    pub globals: Vec<Opt>,
    /// The subcommand path (`stash`, `drop`), with the index of each word.
    pub subcommand: Vec<(String, usize)>,
    /// Options after the (innermost) subcommand.
    pub options: Vec<Opt>,
    /// Operands, in order.
    pub operands: Vec<usize>,
    /// Index of the `--` that ended the options, if any.
    pub end_of_options: Option<usize>,
    /// A word whose option text is known only at run time (`rm $FLAGS x`) stood where an
    /// option could be.
    pub dynamic: bool,
}

impl Opts {
    /// Record an option read: with the globals before a subcommand, with the subcommand's
    /// options after one.
    fn push(&mut self, opt: Opt) {
        if self.subcommand.is_empty() {
            self.globals.push(opt);
        } else {
            self.options.push(opt);
        }
    }

    /// Every option, globals first.
    pub fn all(&self) -> impl Iterator<Item = &Opt> {
        self.globals.iter().chain(&self.options)
    }

    /// The options that belong to the program itself when it has no subcommand, or to the
    /// subcommand when it has one.
    pub fn own(&self) -> &[Opt] {
        if self.subcommand.is_empty() {
            &self.globals
        } else {
            &self.options
        }
    }

    /// Was the short option `c` given (alone or in a bundle)?
    pub fn short(&self, c: char) -> bool {
        self.own()
            .iter()
            .any(|o| !o.long && o.name.len() == c.len_utf8() && o.name.starts_with(c))
    }

    /// Was the long option `name` given (by its full name or an abbreviation)?
    pub fn long(&self, name: &str) -> bool {
        self.own().iter().any(|o| o.long && o.name == name)
    }

    /// Was `-c` or `--long` given?
    pub fn flag(&self, c: char, long: &str) -> bool {
        self.short(c) || self.long(long)
    }

    /// The options named `name` (a short letter or a long name).
    pub fn named<'a>(&'a self, names: &'a [&'a str]) -> impl Iterator<Item = &'a Opt> {
        self.own()
            .iter()
            .filter(move |o| names.contains(&o.name.as_str()))
    }

    /// The first value given to any of `names`.
    pub fn value_of(&self, args: &[Word], names: &[&str]) -> Option<Word> {
        self.named(names).find_map(|o| value_word(args, o))
    }

    /// The signal given (`-9`, `-KILL`, or one of the options `names`, e.g. `-s KILL`,
    /// `--signal=KILL`), as written; the last one wins.
    pub fn signal(&self, args: &[Word], names: &[&str]) -> Option<String> {
        self.own()
            .iter()
            .rev()
            .filter(|o| names.contains(&o.name.as_str()))
            .find_map(|o| value_word(args, o))
            .map(|w| w.shown())
    }

    /// The subcommand (first level), when there is one.
    pub fn sub(&self) -> Option<&str> {
        self.subcommand.first().map(|(s, _)| s.as_str())
    }

    /// The operand words.
    pub fn operand_words<'w>(&self, args: &'w [Word]) -> Vec<&'w Word> {
        self.operands.iter().filter_map(|&i| args.get(i)).collect()
    }

    /// The arguments after the first subcommand word (all of them without one).
    pub fn after_sub<'w>(&self, args: &'w [Word]) -> &'w [Word] {
        match self.subcommand.first() {
            Some((_, i)) => args.get(i + 1..).unwrap_or(&[]),
            None => args,
        }
    }
}

/// The value of `opt` as a word: the next word itself, or a word holding the attached text
/// (keeping whatever is unknown in it).
pub fn value_word(args: &[Word], opt: &Opt) -> Option<Word> {
    let v = opt.value.as_ref()?;
    let w = args.get(v.word)?;
    let Some(att) = &v.attached else {
        return Some(w.clone());
    };
    // Drop the option text in front of the value from the word's leading literal pieces.
    let text = w.text_with("\u{fffd}");
    let skip = text.len().saturating_sub(att.len());
    let mut out = w.clone();
    let mut left = skip;
    let mut pieces = Vec::new();
    for p in &w.pieces {
        match p {
            Piece::Lit { text, quoted } if left > 0 => {
                if text.len() <= left {
                    left -= text.len();
                } else {
                    let rest = text.get(left..).unwrap_or_default().to_string();
                    left = 0;
                    pieces.push(Piece::Lit {
                        text: rest,
                        quoted: *quoted,
                    });
                }
            }
            p => pieces.push(p.clone()),
        }
    }
    if left > 0 {
        // The option text was not all literal: fall back to the attached text.
        pieces = vec![Piece::Lit {
            text: att.clone(),
            quoted: true,
        }];
    }
    out.pieces = pieces;
    Some(out)
}

/// The literal text a word starts with (before anything known only at run time), and
/// whether that is the whole word.
fn literal_head(w: &Word) -> (String, bool) {
    let mut head = String::new();
    for p in &w.pieces {
        match p {
            Piece::Lit { text, .. } => head.push_str(text),
            _ => return (head, false),
        }
    }
    (head, true)
}

/// Read `args` (the words after the program name) with `g`.
pub fn parse(g: &'static Grammar, args: &[Word]) -> Opts {
    let mut out = Opts::default();
    let mut g = g;
    let mut only_operands = false;
    let mut i = 0;
    while i < args.len() {
        let w = &args[i];
        let here = i;
        i += 1;
        let (head, whole) = literal_head(w);
        if g.windows && !only_operands && head.len() > 1 && head.starts_with(['/', '-']) {
            let body = head
                .strip_prefix("//")
                .or_else(|| head.strip_prefix('/'))
                .or_else(|| head.strip_prefix('-'))
                .unwrap_or_default()
                .to_ascii_lowercase();
            let takes = g.long(&body).map(|l| l.takes).unwrap_or(Takes::No);
            let value = value_at(here, None, takes, &mut i, args.len());
            let opt = Opt {
                name: body,
                long: true,
                word: here,
                value,
            };
            out.push(opt);
            continue;
        }
        if g.powershell && !only_operands && head.len() > 1 && head.starts_with('-') && head != "--"
        {
            let body = head.trim_start_matches('-').to_ascii_lowercase();
            let (given, attached) = match body.split_once(':') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (body, None),
            };
            let long = g.long(&given).or_else(|| {
                g.longs
                    .iter()
                    .find(|l| !given.is_empty() && l.name.starts_with(given.as_str()))
            });
            let takes = long.map(|l| l.takes).unwrap_or(Takes::No);
            let name = long.map(|l| l.name.to_string()).unwrap_or(given);
            let value = value_at(here, attached.as_deref(), takes, &mut i, args.len());
            if value.is_some() && g.ends_options.contains(&name.as_str()) {
                only_operands = true;
            }
            let opt = Opt {
                name,
                long: true,
                word: here,
                value,
            };
            out.push(opt);
            continue;
        }
        if only_operands || head == "-" && whole || !head.starts_with('-') {
            if !only_operands && head.is_empty() && !whole {
                // `rm $FLAGS x`: the word may hold options.
                out.dynamic = true;
            }
            let wants_sub = !g.subcommands.is_empty() || g.other_sub.is_some();
            if !only_operands && wants_sub {
                if let Some((name, next)) = w.lit().and_then(|s| g.sub(&s).map(|n| (s, n))) {
                    out.subcommand.push((name, here));
                    g = next;
                    continue;
                }
                // A subcommand known only at run time, or one with no grammar: the rest are
                // operands.
                only_operands = true;
            }
            out.operands.push(here);
            if g.stop_at_operand {
                only_operands = true;
            }
            continue;
        }
        let text = if whole { head } else { w.text_with("\u{fffd}") };
        if !g.only_letters.is_empty()
            && !text
                .get(1..)
                .is_some_and(|b| !b.is_empty() && b.chars().all(|c| g.only_letters.contains(c)))
        {
            out.operands.push(here);
            only_operands = true;
            continue;
        }
        if text == "--" {
            out.end_of_options = Some(here);
            only_operands = true;
            continue;
        }
        let mut read = Vec::new();
        if let Some(sig) = signal_word(g, &text, &out) {
            match sig {
                Some(body) => out.globals.push(Opt {
                    name: "signal".into(),
                    // Spelled as an option word (`-9`), not as `--signal`.
                    long: false,
                    word: here,
                    value: Some(Value {
                        word: here,
                        attached: Some(body),
                    }),
                }),
                None => out.operands.push(here),
            }
            continue;
        }
        if g.first_letter {
            let body = text
                .strip_prefix("--")
                .unwrap_or_else(|| text.get(1..).unwrap_or_default());
            if let Some(c) = body.chars().next() {
                let rest = body.get(c.len_utf8()..).unwrap_or_default();
                let value = g.short_values.contains(c).then(|| {
                    value_at(
                        here,
                        Some(rest).filter(|r| !r.is_empty()),
                        Takes::Value,
                        &mut i,
                        args.len(),
                    )
                });
                let opt = Opt {
                    name: c.to_string(),
                    long: false,
                    word: here,
                    value: value.flatten(),
                };
                out.push(opt);
            }
            continue;
        }
        let long_body = text
            .strip_prefix("--")
            .or_else(|| text.strip_prefix('-').filter(|_| g.single_dash_long));
        if let Some(body) = long_body {
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            if name.contains('\u{fffd}') {
                out.dynamic = true;
                out.operands.push(here);
                continue;
            }
            let full = g.resolve_long(name).to_string();
            let takes = g.long(&full).map(|l| l.takes).unwrap_or(Takes::No);
            let value = value_at(here, inline, takes, &mut i, args.len());
            if value.is_some() && g.ends_options.contains(&full.as_str()) {
                only_operands = true;
            }
            read.push(Opt {
                name: full,
                long: true,
                word: here,
                value,
            });
        } else {
            // A bundle of short options; a value-taking one consumes the rest or the next
            // word.
            let body = text.get(1..).unwrap_or_default();
            for (pos, c) in body.char_indices() {
                if c == '\u{fffd}' {
                    out.dynamic = true;
                    break;
                }
                let rest = body.get(pos + c.len_utf8()..).unwrap_or_default();
                let takes = if g.short_values.contains(c) {
                    Takes::Value
                } else if g.short_optional.contains(c) {
                    Takes::Optional
                } else {
                    Takes::No
                };
                let value = match takes {
                    Takes::No => None,
                    _ => value_at(
                        here,
                        Some(rest).filter(|r| !r.is_empty()),
                        takes,
                        &mut i,
                        args.len(),
                    ),
                };
                let last = value.is_some()
                    && g.ends_options
                        .iter()
                        .any(|e| e.starts_with(c) && e.len() == c.len_utf8());
                read.push(Opt {
                    name: c.to_string(),
                    long: false,
                    word: here,
                    value,
                });
                if last {
                    only_operands = true;
                }
                if takes != Takes::No {
                    break;
                }
            }
        }
        for opt in read {
            out.push(opt);
        }
    }
    out
}

/// The value of an option in word `here`: its `attached` text, or, when it requires a value,
/// the next word (`next` moves past it).
fn value_at(
    here: usize,
    attached: Option<&str>,
    takes: Takes,
    next: &mut usize,
    len: usize,
) -> Option<Value> {
    match (attached, takes) {
        (Some(v), _) => Some(Value {
            word: here,
            attached: Some(v.to_string()),
        }),
        (None, Takes::Value) if *next < len => {
            *next += 1;
            Some(Value {
                word: here + 1,
                attached: None,
            })
        }
        _ => None,
    }
}

/// A `-SIGNAL` word under the grammar's [`Signals`]: `Some(Some(signal))` for a signal,
/// `Some(None)` for a negative pid (`kill -9 -1`), `None` for an ordinary option.
fn signal_word(g: &Grammar, text: &str, so_far: &Opts) -> Option<Option<String>> {
    let body = text
        .strip_prefix('-')
        .filter(|b| !b.starts_with('-') && !b.is_empty())?;
    let numeric = body.chars().all(|c| c.is_ascii_digit());
    match g.signals {
        Signals::None => None,
        Signals::Spelled => {
            let capitals = body.len() > 1
                && body
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
            (numeric || body.starts_with(|c: char| c.is_ascii_digit()) || capitals)
                .then(|| Some(body.to_string()))
        }
        Signals::FirstWord => {
            let signalled = so_far
                .globals
                .iter()
                .any(|o| matches!(o.name.as_str(), "signal" | "s" | "n"));
            if signalled {
                // After the signal, `-N` and `-$PID` (a run-time number) are process groups.
                return (numeric || body.starts_with('\u{fffd}')).then_some(None);
            }
            let own = body.chars().count() == 1 && body.chars().all(|c| g.short_values.contains(c))
                || body.starts_with('l')
                || body.starts_with('L');
            (!own).then(|| Some(body.to_string()))
        }
    }
}

/// Read the arguments of program `name` with its grammar from the table.
pub fn parse_program(name: Option<&str>, args: &[Word]) -> Opts {
    parse(grammars::for_program(name), args)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(args: &[Word], idx: &[usize]) -> Vec<String> {
        idx.iter().map(|&i| args[i].shown()).collect()
    }

    const G: Grammar = Grammar {
        short_values: "ne",
        short_optional: "O",
        longs: &[
            value("lines"),
            flag("force"),
            flag("force-with-lease"),
            flag("follow"),
        ],
        ..Grammar::GNU
    };

    #[test]
    fn values_attached_or_separate_are_never_options() {
        static GR: Grammar = G;
        let a = Word::literals(&[
            "-n", "--force", "-e--x", "--lines", "-f", "x", "-O", "-O2", "y",
        ]);
        let o = parse(&GR, &a);
        let names: Vec<&str> = o.globals.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["n", "e", "lines", "O", "O"]);
        assert_eq!(texts(&a, &o.operands), ["x", "y"]);
        assert_eq!(
            value_word(&a, &o.globals[1])
                .and_then(|w| w.lit())
                .as_deref(),
            Some("--x")
        );
        assert_eq!(
            value_word(&a, &o.globals[0])
                .and_then(|w| w.lit())
                .as_deref(),
            Some("--force")
        );
        assert!(o.globals[3].value.is_none());
        assert_eq!(
            o.globals[4]
                .value
                .as_ref()
                .and_then(|v| v.attached.as_deref()),
            Some("2")
        );
    }

    #[test]
    fn long_options_resolve_unique_prefixes_only() {
        static GR: Grammar = G;
        let a = Word::literals(&["--forc", "--force-w", "--fo", "--li=3"]);
        let o = parse(&GR, &a);
        let names: Vec<&str> = o.globals.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["forc", "force-with-lease", "fo", "lines"]);
        assert!(o.long("lines"));
    }

    #[test]
    fn nothing_after_double_dash_is_an_option() {
        static GR: Grammar = G;
        let a = Word::literals(&["-e", "x", "--", "--force", "-n"]);
        let o = parse(&GR, &a);
        assert!(!o.long("force"));
        assert_eq!(texts(&a, &o.operands), ["--force", "-n"]);
        assert_eq!(o.end_of_options, Some(2));
    }

    #[test]
    fn bundles_split_until_a_value_option() {
        static GR: Grammar = G;
        let a = Word::literals(&["-rfn5", "-xe", "pat"]);
        let o = parse(&GR, &a);
        let names: Vec<&str> = o.globals.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["r", "f", "n", "x", "e"]);
        assert!(o.operands.is_empty());
    }

    #[test]
    fn subcommand_trees_keep_global_options_apart() {
        let a = Word::literals(&[
            "-C",
            "repo",
            "-c",
            "a=b",
            "--no-pager",
            "push",
            "-f",
            "--force-w",
            "origin",
        ]);
        let o = parse_program(Some("git"), &a);
        assert_eq!(o.sub(), Some("push"));
        assert_eq!(o.globals.len(), 3);
        assert!(o.short('f'));
        assert!(o.long("force-with-lease"));
        assert_eq!(texts(&a, &o.operands), ["origin"]);
        let a = Word::literals(&["stash", "drop", "stash@{0}"]);
        let o = parse_program(Some("git"), &a);
        let subs: Vec<&str> = o.subcommand.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(subs, ["stash", "drop"]);
    }

    #[test]
    fn wrappers_stop_at_their_command() {
        let a = Word::literals(&["-u", "root", "-E", "rm", "-rf", "/"]);
        let o = parse_program(Some("sudo"), &a);
        assert_eq!(texts(&a, &o.operands), ["rm", "-rf", "/"]);
    }

    #[test]
    fn windows_options_are_case_insensitive_and_take_the_next_word() {
        let a = Word::literals(&["/F", "//im", "node.exe", "-T", "/PID", "42"]);
        let o = parse_program(Some("taskkill"), &a);
        let names: Vec<&str> = o.globals.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["f", "im", "t", "pid"]);
        assert!(o.operands.is_empty());
        let images: Vec<String> = o
            .named(&["im"])
            .filter_map(|x| value_word(&a, x).and_then(|w| w.lit()))
            .collect();
        assert_eq!(images, ["node.exe"]);
    }

    #[test]
    fn echo_options_are_only_words_of_its_letters() {
        let a = Word::literals(&["-ne", "-E", "-x", "-n", "a"]);
        let o = parse_program(Some("echo"), &a);
        let names: Vec<&str> = o.globals.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["n", "e", "E"]);
        assert_eq!(texts(&a, &o.operands), ["-x", "-n", "a"]);
        // No `--`: it is printed.
        let a = Word::literals(&["--", "-e"]);
        let o = parse_program(Some("echo"), &a);
        assert!(o.globals.is_empty());
        assert_eq!(texts(&a, &o.operands), ["--", "-e"]);
    }

    #[test]
    fn first_letter_options_name_the_whole_word() {
        let a = Word::literals(&["-rp", "--revert", "-c", "8", "-l16", "--", "-p"]);
        let o = parse_program(Some("xxd"), &a);
        let names: Vec<&str> = o.globals.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["r", "r", "c", "l"]);
        assert!(!o.short('p'));
        assert_eq!(texts(&a, &o.operands), ["-p"]);
        assert_eq!(
            value_word(&a, &o.globals[3])
                .and_then(|w| w.lit())
                .as_deref(),
            Some("16")
        );
    }

    #[test]
    fn an_option_that_ends_the_options_leaves_the_rest_as_operands() {
        let a = Word::literals(&["-u", "-c", "code", "-m", "x"]);
        let o = parse_program(Some("python3"), &a);
        assert!(!o.short('m'));
        assert_eq!(texts(&a, &o.operands), ["-m", "x"]);
        let a = Word::literals(&["-mjson.tool", "-v"]);
        let o = parse_program(Some("python3"), &a);
        assert!(o.short('m'));
        assert_eq!(texts(&a, &o.operands), ["-v"]);
    }

    #[test]
    fn powershell_parameters_resolve_in_order_and_end_at_the_command() {
        let a = Word::literals(&[
            "-NoP",
            "-e",
            "ZQBj",
            "-ExecutionPolicy:Bypass",
            "-C",
            "ls",
            "-e",
            "x",
        ]);
        let o = parse_program(Some("pwsh"), &a);
        let names: Vec<&str> = o.globals.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(
            names,
            ["noprofile", "encodedcommand", "executionpolicy", "command"]
        );
        assert_eq!(texts(&a, &o.operands), ["-e", "x"]);
        assert_eq!(
            value_word(&a, &o.globals[2])
                .and_then(|w| w.lit())
                .as_deref(),
            Some("Bypass")
        );
        // A cmdlet's switches: `-r` is -Recurse, `-f` is -Filter (listed first), `-fo` -Force.
        let a = Word::literals(&["-r", "-f", "*.tmp", "-fo", "x"]);
        let o = parse(&grammars::PS_REMOVE_ITEM, &a);
        assert!(o.long("recurse") && o.long("filter") && o.long("force"));
        assert_eq!(texts(&a, &o.operands), ["x"]);
    }

    #[test]
    fn unknown_options_take_no_value() {
        let a = Word::literals(&["--frobnicate", "x", "-Q", "y"]);
        let o = parse_program(Some("no-such-program"), &a);
        assert_eq!(texts(&a, &o.operands), ["x", "y"]);
    }
}
