//! The clap front end: the only place that prints or decides exit codes.
//!
//! Exit codes: 0 allow, 1 ask, 2 deny (for `check` and `explain`); for `rules` 0 success
//! and for `corpus` 0 all passed, 1 some failed; 64 usage error; 70 internal error.
//! No error ever exits 0. Human-readable rendering lives in the library's `shellgate::render`.

mod audit;
mod audit_html;
mod check;
mod config_cmd;
mod corpus;
mod exec;
mod explain;
pub(crate) mod hook;
mod install;
mod ledger;
mod policy_args;
mod rules;
mod undo;

use clap::{Parser, Subcommand};

pub(crate) const EXIT_ALLOW: i32 = 0;
pub(crate) const EXIT_ASK: i32 = 1;
pub(crate) const EXIT_DENY: i32 = 2;
pub(crate) const EXIT_USAGE: i32 = 64;
pub(crate) const EXIT_INTERNAL: i32 = 70;

const EXIT_CODES: &str = "Exit codes:
  0   allow (check, explain); success (rules); every case passed (corpus)
  1   ask: a person must approve the command (check, explain);
      some cases failed (corpus)
  2   deny: the command must not run (check, explain)
  64  usage error: bad arguments, an unknown rule, unreadable or invalid input
      (a command on stdin that is not UTF-8, a corpus file that does not parse)
  70  internal error: a bug in shellgate (please report it), or an answer
      of allow or success that could not be written to stdout

Errors are printed to stderr as `shellgate: WHAT WENT WRONG; WHAT TO DO`.
Input that cannot be read is never allowed: it exits 64, and with --json
`check` and `explain` print decision deny.

Examples:
  shellgate check 'rm -rf /'              decide (exit 2)
  shellgate explain 'rm -rf \"$X\"'         show why, with spans and evidence
  shellgate explain --graph 'curl x | sh' | dot -Tsvg > flow.svg
  shellgate rules                         list every rule
  shellgate rules SG1001                  one rule's docs and examples
  shellgate corpus corpus/                run the labelled corpus";

const DECISION_EXIT_CODES: &str =
    "Exit codes: 0 allow, 1 ask, 2 deny, 64 usage error or unreadable input, 70 internal error.";
const EXEC_EXIT_CODES: &str = "Exit codes: the command's own exit status when it ran (128+N if killed by signal N); 126 refused (denied, by policy, a person, or the prompt timeout); 127 bash could not be started; 64 usage error.";
const AUDIT_EXIT_CODES: &str = "Exit codes: 0 nothing shellgate would deny or ask about ran, 1 some such call ran (listed first), 64 bad arguments or a missing PATH, 70 internal error (a report that could not be written). Malformed transcript lines are counted and reported, never an error.";
const RULES_EXIT_CODES: &str =
    "Exit codes: 0 success, 64 unknown rule or bad arguments, 70 internal error.";
const INSTALL_EXIT_CODES: &str = "Exit codes: 0 done (or nothing to change), 64 bad arguments or a settings file that does not parse (left unchanged), 70 could not write the file.";
const UNDO_EXIT_CODES: &str = "Exit codes: 0 restored (or --dry-run shown), 1 nothing restored because a file changed after the command (use --force), 64 no such checkpoint, 70 the store could not be read or a file could not be restored.";
const CORPUS_EXIT_CODES: &str = "Exit codes: 0 every case passed (or --update rewrote every failure), 1 some cases failed, 64 missing or invalid corpus input, 70 internal error.";

#[derive(Parser, Debug)]
#[command(name = "shellgate", version, args_override_self = true, about = "A guard for AI agents' shell commands: allow, ask or deny, and why.", after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Decide one command (or a JSONL batch) and print the decision and findings.
    #[command(after_help = DECISION_EXIT_CODES)]
    Check(check::CheckArgs),
    /// Show exactly why a command is allowed, asked about or denied.
    ///
    /// Prints the decision, each finding with its span underlined in the command, and the
    /// evidence chain: decoded words, expanded variables, peeled wrappers, re-parsed nested
    /// code, the dataflow path that fired, and normalisation.
    #[command(after_help = DECISION_EXIT_CODES)]
    Explain(explain::ExplainArgs),
    /// List the rule catalog, or show one rule's docs and pass/fail examples.
    #[command(after_help = RULES_EXIT_CODES)]
    Rules(rules::RulesArgs),
    /// Run labelled corpus files and diff every mismatch; ends with `N passed, M failed`.
    #[command(after_help = CORPUS_EXIT_CODES)]
    Corpus(corpus::CorpusArgs),
    /// Gate a command: run it if allowed, ask on the terminal, or refuse (exit 126).
    #[command(after_help = EXEC_EXIT_CODES)]
    Exec(exec::ExecArgs),
    /// Query the decision ledger.
    Log(ledger::LogArgs),
    /// Judge every shell command and file write in the transcripts agents left (Claude Code,
    /// Codex, Gemini CLI, Hermes, OpenCode) and list those shellgate would deny or ask
    /// about that ran anyway.
    #[command(after_help = AUDIT_EXIT_CODES)]
    Audit(audit::AuditArgs),
    /// List, revoke, clear or mine approvals.
    Approvals(ledger::ApprovalsArgs),
    /// Import a Hermes Agent config, or show the config in effect.
    Config(config_cmd::ConfigArgs),
    /// Answer one harness hook event on stdin (Claude Code, Codex, Gemini CLI, Copilot CLI,
    /// Hermes, Qwen Code, Crush, OpenCode, Pi, Amp, Cursor) in that harness's protocol.
    ///
    /// Exit codes follow the harness: 0 with the decision on stdout (or no output for
    /// allow), 2 for a block the harness reads from the exit status, and 1 for an ask in
    /// Amp's delegate protocol only. Never any other code, because most harnesses run the
    /// tool when a hook fails.
    Hook(hook::HookArgs),
    /// Add shellgate's hook to a harness's settings (merged, backed up, idempotent).
    ///
    /// Files: Claude `~/.claude/settings.json` (or `.claude/settings.json` with
    /// --project), Codex `~/.codex/hooks.json`, Gemini `~/.gemini/settings.json`, Copilot
    /// `.github/hooks/shellgate.json`, Hermes `$HERMES_HOME/config.yaml`, Qwen Code
    /// `~/.qwen/settings.json`, Crush `~/.config/crush/crush.json`, Cursor
    /// `~/.cursor/hooks.json`, Amp `~/.config/amp/settings.json`, and the OpenCode and Pi
    /// plugin files. A file that does not parse is never overwritten.
    #[command(after_help = INSTALL_EXIT_CODES)]
    Install(install::InstallArgs),
    /// Remove shellgate's hook from a harness's settings, leaving everything else as it was.
    #[command(after_help = INSTALL_EXIT_CODES)]
    Uninstall(install::InstallArgs),
    /// List the checkpoints taken before destructive commands that were let through.
    Checkpoints(undo::CheckpointsArgs),
    /// Put back what a checkpoint holds: the files a command destroyed or overwrote, and
    /// the git refs and stash entries it removed.
    ///
    /// With no ID, the newest checkpoint of the project the current directory is in. It
    /// shows what it restores first; a file changed after the command ran is only
    /// overwritten with --force (without it, nothing is restored).
    #[command(after_help = UNDO_EXIT_CODES)]
    Undo(undo::UndoArgs),
}

/// Run the CLI; returns the process exit code.
pub(crate) fn main() -> i32 {
    if let Some(a) = hook::exact_args(std::env::args_os().skip(1)) {
        return hook::run(a);
    }
    if let Some(a) = hook::amp_delegate(std::env::args_os().skip(1), |k| std::env::var(k).ok()) {
        return hook::run(a);
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        // A hook that cannot even parse its arguments must still block: harnesses treat
        // exit codes other than 2 as "the hook failed, run the tool".
        Err(e)
            if std::env::args().nth(1).as_deref() == Some("hook")
                && !matches!(
                    e.kind(),
                    clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
                ) =>
        {
            let _ = e.print();
            eprintln!("shellgate: the hook could not start, so the tool call is blocked");
            return EXIT_DENY;
        }
        Err(e) => {
            let code = match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => 0,
                _ => EXIT_USAGE,
            };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Cmd::Check(a) => check::run(a),
        Cmd::Explain(a) => explain::run(a),
        Cmd::Rules(a) => rules::run(a),
        Cmd::Corpus(a) => corpus::run(a),
        Cmd::Exec(a) => exec::run(a),
        Cmd::Log(a) => ledger::run_log(a),
        Cmd::Audit(a) => audit::run(a),
        Cmd::Approvals(a) => ledger::run_approvals(a),
        Cmd::Config(a) => config_cmd::run(a),
        Cmd::Hook(a) => hook::run(a),
        Cmd::Install(a) => install::run_install(a),
        Cmd::Uninstall(a) => install::run_uninstall(a),
        Cmd::Checkpoints(a) => undo::run_checkpoints(a),
        Cmd::Undo(a) => undo::run_undo(a),
    }
}

/// The analysis context for `--cwd`/`--home`, shared by `check` and `explain` so the two
/// always judge a command the same way: the process's environment with those two replaced
/// (`HERMES_HOME`, unless the environment sets it, follows the home given).
pub(crate) fn context_from(cwd: Option<&str>, home: Option<&str>) -> shellgate::Context {
    shellgate::api::context_at(cwd, home)
}

/// Write a subcommand's text to stdout or the terminal; text with several parts is built
/// first with `fmt::Write` and `?` (`render::render`). A failure is returned for the caller
/// to turn into its exit code with [`unwritten`]; it gets a line on stderr unless the reader
/// has gone (a closed pipe, `| head`), when nobody is left to tell.
pub(crate) fn emit(
    w: &mut impl std::io::Write,
    text: std::fmt::Arguments<'_>,
) -> std::io::Result<()> {
    w.write_fmt(text).inspect_err(report_write)
}

/// Flush buffered output ([`emit`] into a `BufWriter`), reporting a failure the same way.
pub(crate) fn flush(w: &mut impl std::io::Write) -> std::io::Result<()> {
    w.flush().inspect_err(report_write)
}

fn report_write(e: &std::io::Error) {
    if e.kind() != std::io::ErrorKind::BrokenPipe {
        eprintln!("shellgate: could not write the output: {e}");
    }
}

/// The exit code of a subcommand that would have exited `code` but could not write its
/// output. A closed pipe keeps `code`: the reader chose to stop, and the exit code still
/// carries the answer. Any other failure never leaves success behind: allow (or plain
/// success) becomes [`EXIT_INTERNAL`], while ask, deny and failure codes stay, so a lost
/// write can only make the answer stricter.
pub(crate) fn unwritten(e: &std::io::Error, code: i32) -> i32 {
    if e.kind() == std::io::ErrorKind::BrokenPipe || code != EXIT_ALLOW {
        code
    } else {
        EXIT_INTERNAL
    }
}

/// Exit code for a decision.
pub(crate) fn decision_exit(d: shellgate_decision::Decision) -> i32 {
    match d {
        shellgate_decision::Decision::Allow => EXIT_ALLOW,
        shellgate_decision::Decision::Ask => EXIT_ASK,
        shellgate_decision::Decision::Deny => EXIT_DENY,
    }
}

mod shellgate_decision {
    pub(super) use shellgate::Decision;
}

/// Most bytes read from stdin for one command (larger ones are refused).
pub(crate) const STDIN_LIMIT: usize = 64 << 20;

/// Read a command from an argument or `-` (stdin). Invalid UTF-8 is an error.
pub(crate) fn read_command(arg: &str) -> Result<String, String> {
    if arg != "-" {
        return Ok(arg.to_string());
    }
    use std::io::Read;
    // Read one byte past the limit so an oversized command is refused, never truncated:
    // judging a prefix could allow what the cut-off tail does.
    let limit = STDIN_LIMIT as u64;
    let mut buf = Vec::new();
    std::io::stdin()
        .take(limit + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("could not read the command from stdin: {e}"))?;
    if buf.len() as u64 > limit {
        return Err(format!(
            "the command on stdin is larger than {} MiB; it was not analysed (split it or pass a smaller command)",
            STDIN_LIMIT >> 20
        ));
    }
    String::from_utf8(buf).map_err(|e| {
        format!(
            "the command on stdin is not valid UTF-8 (first bad byte at offset {}); pass text",
            e.utf8_error().valid_up_to()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;
    use shellgate::model::opts::grammars::SHELLGATE;
    use shellgate::model::opts::{Grammar, Takes};

    /// Options and subcommands the CLI accepts that `g` does not declare with the same arity.
    fn drift(cmd: &clap::Command, g: &Grammar, path: &str, out: &mut Vec<String>) {
        for a in cmd.get_arguments() {
            let takes = a.get_action().takes_values();
            if let Some(l) = a.get_long() {
                let declared = g.longs.iter().find(|x| x.name == l);
                if declared.is_none_or(|x| (x.takes == Takes::Value) != takes) {
                    out.push(format!("{path} --{l} (takes a value: {takes})"));
                }
            }
            if let Some(c) = a.get_short()
                && g.short_values.contains(c) != takes
            {
                out.push(format!("{path} -{c} (takes a value: {takes})"));
            }
        }
        for sub in cmd.get_subcommands() {
            let name = sub.get_name();
            match g.subcommands.iter().find(|s| s.names.contains(&name)) {
                // `help`'s own "subcommands" are the topics it names: operands.
                Some(_) if name == "help" => {}
                Some(s) => drift(sub, s.grammar, &format!("{path} {name}"), out),
                None => out.push(format!("{path} {name} (subcommand)")),
            }
        }
    }

    #[test]
    fn the_shellgate_grammar_declares_every_option_the_cli_accepts() {
        let mut cli = Cli::command();
        cli.build();
        let mut out = Vec::new();
        drift(&cli, &SHELLGATE, "shellgate", &mut out);
        assert!(
            out.is_empty(),
            "src/model/opts/grammars.rs SHELLGATE lacks:\n{}",
            out.join("\n")
        );
    }
}
