//! The lowered model: the simple commands bash will execute, with decoded words, resolved
//! program names, redirects, and the origin of every command (top level or nested code).

pub mod affected;
mod block;
mod display;
mod env;
mod frame;
pub mod hooks;
mod inline;
pub mod interp;
mod lower;
pub mod opts;
pub mod paths;
mod payload;
mod source;
pub mod sql;
mod word;
pub mod wrappers;

pub use env::{Env, VarValue};
pub use lower::{LowerLimits, is_shell, lower_script};
pub use payload::is_decoder;

/// How text known only at run time is shown to people: in rule messages, `explain` and the
/// model's `Display` (`rm -rf …/*`). One spelling everywhere, through [`Word::shown`].
pub const UNKNOWN_TEXT: &str = "…";

use crate::Span;
use serde::Serialize;

/// Runs `f`, first growing the stack when little of it is left: lowering and word decoding
/// recurse as deep as the input nests.
pub(crate) fn grow_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, f)
}

/// Index of a command in [`Script::commands`].
pub type CmdId = usize;

/// One piece of a decoded word.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Piece {
    /// Text whose value is known. `quoted` text is not subject to globbing.
    Lit { text: String, quoted: bool },
    /// Text known only at run time (an unknown variable, a command's output, arithmetic).
    Unknown { reason: String, may_be_empty: bool },
}

/// The value of a word as rules see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WordValue {
    /// Fully known.
    Literal { value: String },
    /// Known start, unknown rest.
    Partial { prefix: String, reason: String },
    /// Unknown from the start.
    Dynamic { reason: String },
}

/// What happened while decoding a word: the evidence `explain` shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WordNote {
    /// Quotes, backslashes or `$'..'` escapes were removed.
    Decoded { from: String, to: String },
    /// A variable expanded to a known value.
    Expanded { var: String, value: String },
    /// A variable whose value is not known here.
    UnknownVar { var: String },
    /// `~` or `~user` expanded.
    Tilde { to: String },
    /// A command substitution whose output is known statically.
    SubstitutionOutput { value: String },
    /// Brace expansion produced several words.
    Braces { count: usize },
}

/// One shell word after bash's expansions, as far as they can be known statically.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Word {
    pub pieces: Vec<Piece>,
    pub span: Span,
    /// The source text of the word (normalised).
    pub raw: String,
    pub notes: Vec<WordNote>,
    /// Commands lowered from substitutions inside this word (`$(..)`, `<(..)`, `>(..)`).
    pub substitutions: Vec<Substitution>,
    /// The word's span in the normalised top-level text, when it is a verbatim slice of it.
    #[serde(skip)]
    pub nspan: Option<(usize, usize)>,
}

/// A substitution inside a word, linking the word to the commands that produce it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Substitution {
    pub kind: SubstKind,
    /// The commands whose output becomes the substitution's value (last pipeline stage).
    pub producers: Vec<CmdId>,
    /// Every command lowered inside the substitution.
    pub commands: Vec<CmdId>,
    /// What the substitution's commands print, when statically known.
    pub output: Option<String>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SubstKind {
    Command,
    ProcessIn,
    ProcessOut,
}

impl Word {
    /// A synthetic literal word (for commands built from interpreter code and the like).
    pub fn literal(text: &str, span: Span) -> Word {
        Word {
            pieces: vec![Piece::Lit {
                text: text.to_string(),
                quoted: true,
            }],
            span,
            raw: text.to_string(),
            notes: Vec::new(),
            substitutions: Vec::new(),
            nspan: None,
        }
    }

    /// Literal words with no span, as tests write argv.
    #[cfg(test)]
    pub(crate) fn literals(texts: &[&str]) -> Vec<Word> {
        texts
            .iter()
            .map(|s| Word::literal(s, Span::default()))
            .collect()
    }

    pub fn value(&self) -> WordValue {
        let mut prefix = String::with_capacity(self.lit_len());
        for p in &self.pieces {
            match p {
                Piece::Lit { text, .. } => prefix.push_str(text),
                Piece::Unknown { reason, .. } => {
                    return if prefix.is_empty() {
                        WordValue::Dynamic {
                            reason: reason.clone(),
                        }
                    } else {
                        WordValue::Partial {
                            prefix,
                            reason: reason.clone(),
                        }
                    };
                }
            }
        }
        WordValue::Literal { value: prefix }
    }

    /// The value when fully known.
    pub fn lit(&self) -> Option<String> {
        // Not through `value()`: that copies the unknown piece's reason only to drop it.
        if !self.is_literal() {
            return None;
        }
        Some(self.text_with(""))
    }

    /// Bytes of known text: a capacity hint for the builders above and below.
    fn lit_len(&self) -> usize {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Lit { text, .. } => text.len(),
                Piece::Unknown { .. } => 0,
            })
            .sum()
    }

    /// The text as shown to people: known text, each unknown piece as [`UNKNOWN_TEXT`].
    pub fn shown(&self) -> String {
        self.text_with(UNKNOWN_TEXT)
    }

    /// The known text, with each unknown piece replaced by `unknown` (for matching shapes
    /// like `$DIR/` where only the literal parts matter; [`Word::shown`] for display).
    pub fn text_with(&self, unknown: &str) -> String {
        let mut s = String::with_capacity(self.lit_len() + unknown.len());
        for p in &self.pieces {
            match p {
                Piece::Lit { text, .. } => s.push_str(text),
                Piece::Unknown { .. } => s.push_str(unknown),
            }
        }
        s
    }

    pub fn is_literal(&self) -> bool {
        self.pieces.iter().all(|p| matches!(p, Piece::Lit { .. }))
    }

    /// True when an unquoted glob character (`*`, `?`, `[`) appears in known text.
    pub fn has_glob(&self) -> bool {
        self.pieces.iter().any(|p| match p {
            Piece::Lit {
                text,
                quoted: false,
            } => text.contains(['*', '?', '[']),
            _ => false,
        })
    }

    /// True when the word starts with text that may expand to nothing (`"$DIR/"`).
    pub fn starts_with_maybe_empty(&self) -> bool {
        matches!(
            self.pieces.first(),
            Some(Piece::Unknown {
                may_be_empty: true,
                ..
            })
        )
    }

    /// True when any substitution or unknown piece is present.
    pub fn is_dynamic(&self) -> bool {
        !self.is_literal()
    }
}

/// A redirect of one command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Redirect {
    pub fd: Option<u32>,
    pub op: RedirectOp,
    /// The target word (file, fd number, or here-string text). `None` for heredocs.
    pub target: Option<Word>,
    /// Heredoc body text after expansion (for `<<` forms) when known.
    pub heredoc: Option<Heredoc>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Heredoc {
    /// Body as the command will read it; `None` when it holds run-time expansions.
    pub body: Option<String>,
    /// The body's text as written.
    pub raw: String,
    /// Whether the delimiter was quoted (no expansion inside).
    pub quoted: bool,
    pub span: Span,
    /// Start of the body in the normalised top-level text, when it is a verbatim slice.
    #[serde(skip)]
    pub nstart: Option<usize>,
    /// Substitutions expanded inside the body (`$(curl ..)` in an unquoted heredoc).
    pub substitutions: Vec<Substitution>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RedirectOp {
    /// `<`
    Read,
    /// `>` and `>|`
    Write,
    /// `>>`
    Append,
    /// `&>` / `>&` to a file (stdout and stderr)
    WriteAll,
    /// `&>>`
    AppendAll,
    /// `<>`
    ReadWrite,
    /// `>&N`, `<&N`, `N>&-`
    DupFd,
    /// `<<`, `<<-`
    Heredoc,
    /// `<<<`
    HereString,
}

impl RedirectOp {
    pub fn writes(self) -> bool {
        matches!(
            self,
            RedirectOp::Write
                | RedirectOp::Append
                | RedirectOp::WriteAll
                | RedirectOp::AppendAll
                | RedirectOp::ReadWrite
        )
    }
}

/// A variable assignment (`X=1 cmd`, `X=1`, `export X=1`, `env X=1 cmd`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Assignment {
    pub name: String,
    pub value: Word,
    pub span: Span,
}

/// A wrapper program peeled off in front of the real program (`sudo -u root`, `timeout 5`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WrapperUse {
    pub name: String,
    /// The wrapper's own options and operands, as decoded text.
    pub args: Vec<String>,
    pub span: Span,
    /// The wrapper's own options, read with its grammar ([`opts`]).
    #[serde(skip)]
    pub opts: opts::Opts,
}

/// Where a command came from: each step is one layer of nesting, outermost first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Origin {
    pub steps: Vec<OriginStep>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OriginStep {
    pub kind: OriginKind,
    /// The text that introduced the nesting (`bash -c`, `eval`, `$(`..), in original bytes.
    pub span: Span,
    /// Human-readable detail, e.g. `bash -c`, `base64 -d payload`, `python3 os.system`.
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OriginKind {
    CommandSubstitution,
    ProcessSubstitution,
    ShellString,
    Eval,
    Source,
    HeredocToShell,
    StdinToShell,
    DecodedPayload,
    Interpreter,
    Xargs,
    FindExec,
    Function,
    WrittenScript,
}

impl Origin {
    pub fn is_top_level(&self) -> bool {
        self.steps.is_empty()
    }
    pub fn push(&self, step: OriginStep) -> Origin {
        let mut o = self.clone();
        o.steps.push(step);
        o
    }
    pub fn describe(&self) -> String {
        if self.steps.is_empty() {
            "top level".to_string()
        } else {
            self.steps
                .iter()
                .map(|s| s.detail.clone())
                .collect::<Vec<_>>()
                .join(" → ")
        }
    }
}

/// The position of a command inside a pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PipeRef {
    pub pipeline: usize,
    pub stage: usize,
    pub stages: usize,
}

/// A pipeline: stages, each a set of commands reading the previous stage's output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pipeline {
    pub stages: Vec<PipeStage>,
    pub span: Span,
}

/// One stage of a pipeline: the commands reading its input and those writing its output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PipeStage {
    pub heads: Vec<CmdId>,
    pub tails: Vec<CmdId>,
}

/// One simple command as it will execute.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Command {
    pub id: CmdId,
    /// Resolved program basename (`/usr/bin/rm` → `rm`), when known.
    pub name: Option<String>,
    /// argv after wrappers: `argv[0]` is the program word.
    pub argv: Vec<Word>,
    /// Wrappers peeled off in front, outermost first.
    pub wrappers: Vec<WrapperUse>,
    pub assignments: Vec<Assignment>,
    pub redirects: Vec<Redirect>,
    pub span: Span,
    pub origin: Origin,
    /// Known working directory when the command runs.
    pub cwd: Option<String>,
    pub pipe: Option<PipeRef>,
    pub background: bool,
    /// Functions whose bodies this command runs inside, outermost first.
    pub functions: Vec<String>,
    /// This command calls a function that is already running (recursion).
    pub recursive_call: bool,
    /// The command was built from something other than shell text (e.g. `shutil.rmtree`).
    pub synthetic: Option<String>,
    /// Text on stdin when it is known statically (heredoc, here-string, known pipe input).
    pub stdin_text: Option<String>,
    /// Inline interpreter code this command runs, with what it can do.
    pub inline: Option<InlineCode>,
    /// The arguments read once with the program's option grammar ([`opts`]).
    #[serde(skip)]
    pub opts: opts::Opts,
}

/// Inline interpreter code (`python3 -c CODE`, a heredoc into `node`) and its capabilities.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InlineCode {
    pub language: String,
    /// Capabilities found: (kind, what), e.g. ("process", "os.system").
    pub capabilities: Vec<(String, String)>,
    /// The code could not be read (or was not visible at all); treat it as capable of anything.
    pub unreadable: Option<String>,
}

impl Command {
    /// Arguments after the program word.
    pub fn args(&self) -> &[Word] {
        self.argv.get(1..).unwrap_or(&[])
    }

    /// Literal argument strings, with unknown pieces shown as `$?`-free placeholders.
    pub fn arg_texts(&self) -> Vec<String> {
        self.args()
            .iter()
            .map(|w| w.text_with("\u{fffd}"))
            .collect()
    }

    pub fn is(&self, name: &str) -> bool {
        self.name.as_deref() == Some(name)
    }

    pub fn has_wrapper(&self, name: &str) -> bool {
        self.wrappers.iter().any(|w| w.name == name)
    }
}

/// A function definition seen in the script.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FunctionDef {
    pub name: String,
    pub span: Span,
    pub called: bool,
}

/// Something the analysis could not fully understand or a limit it hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Issue {
    pub kind: IssueKind,
    pub span: Span,
    pub message: String,
    pub origin: Origin,
    /// The text the fallback catalog should scan for this issue (normalised).
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IssueKind {
    ParseError,
    NestingLimit,
    SizeLimit,
    CommandLimit,
    Internal,
}

/// The whole lowered script.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Script {
    pub commands: Vec<Command>,
    pub pipelines: Vec<Pipeline>,
    pub functions: Vec<FunctionDef>,
    pub issues: Vec<Issue>,
    /// Files written earlier in the script with statically known content.
    pub written_files: Vec<(String, CmdId)>,
}

impl Script {
    pub fn command(&self, id: CmdId) -> Option<&Command> {
        self.commands.get(id)
    }
}
