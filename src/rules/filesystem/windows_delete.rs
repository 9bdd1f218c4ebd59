//! SG2006: destructive deletes through Windows shells (`cmd /c del /s`, PowerShell
//! `Remove-Item -Recurse`), and PowerShell `-EncodedCommand` payloads.

use base64::Engine;

use crate::Span;
use crate::declare_rule;
use crate::model::opts::{self, grammars, value_word};
use crate::model::{Command, Word};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags Windows shells run from bash (WSL, Git Bash, MSYS, or `pwsh` on any OS):
    /// `cmd /c del /s|/q`, `rd /s`, `rmdir /s`, `format`; PowerShell (`powershell`,
    /// `pwsh`) commands with `Remove-Item`/`rm`/`ri`/`del`/`rd` and `-Recurse` or
    /// `-Force`, `Clear-Content`, `Format-Volume`; and any `-EncodedCommand` (`-enc`,
    /// `-e`): the base64 UTF-16 payload is decoded and shown, and always needs a person.
    ///
    /// ## Why is this bad?
    /// These delete whole trees on the Windows side, which bash-level rules do not see;
    /// encoded commands hide what runs.
    ///
    /// ## Example
    /// ```sh
    /// cmd.exe /c "del /s /q C:\Users\me"                 # approve
    /// powershell -Command "Remove-Item -Recurse -Force C:\x"  # approve
    /// powershell -Command "Get-ChildItem"                # allowed
    /// ```
    ///
    /// ## Known limitations
    /// PowerShell and cmd syntax is not parsed: verbs and switches are matched as words in
    /// the command text.
    pub struct WindowsDelete;
    code: "SG2006",
    name: "windows-destructive-delete",
    severity: Approve,
    category: Filesystem,
    hermes: [CMD_DELETE = "Windows cmd destructive delete", POWERSHELL_DELETE = "Windows PowerShell destructive delete", ENCODED_COMMAND = "PowerShell encoded command execution"],
    programs: ["cmd", "cmd.exe", "powershell", "powershell.exe", "pwsh", "pwsh.exe"],
    summary: "Destructive delete through cmd.exe or PowerShell, or an encoded PowerShell command",
    pass: ["cmd.exe /c dir", "powershell -Command Get-ChildItem", "pwsh -c 'Get-Content a.txt'", "cmd /c echo del /s"],
    fail: ["cmd.exe /c del /s /q C:\\\\temp", "cmd /c rd /s /q build", "powershell -Command 'Remove-Item -Recurse -Force C:\\\\x'", "pwsh -c 'rm -r -fo ./x'", "powershell -EncodedCommand ZABpAHIA"],
}

/// Decode a PowerShell `-EncodedCommand` payload (base64 of UTF-16LE).
fn decode_ps(b64: &str) -> Option<String> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64.trim())
        .ok()?;
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    String::from_utf16(&units).ok()
}

fn words_lower(text: &str) -> Vec<String> {
    text.split(|c: char| {
        c.is_whitespace()
            || c == ';'
            || c == '|'
            || c == '&'
            || c == '('
            || c == ')'
            || c == '{'
            || c == '}'
    })
    .filter(|w| !w.is_empty())
    .map(|w| w.trim_matches(['"', '\'']).to_ascii_lowercase())
    .collect()
}

/// A destructive cmd.exe command in `words` (after `/c` or `/k`).
fn cmd_destructive(words: &[String]) -> Option<String> {
    let verb_at = words.iter().position(|w| {
        matches!(
            w.as_str(),
            "del" | "erase" | "rd" | "rmdir" | "format" | "format.com"
        )
    })?;
    // `echo del /s` only prints.
    if verb_at > 0 && words[verb_at - 1] == "echo" {
        return None;
    }
    let verb = &words[verb_at];
    let switches: Vec<&String> = words[verb_at + 1..]
        .iter()
        .filter(|w| w.starts_with('/'))
        .collect();
    let destructive = verb.starts_with("format")
        || switches
            .iter()
            .any(|s| s.as_str() == "/s" || s.as_str() == "/q");
    destructive.then(|| {
        format!(
            "{verb} {}",
            switches
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        )
    })
}

/// A destructive PowerShell command in `words`.
fn ps_destructive(words: &[String]) -> Option<String> {
    for (i, w) in words.iter().enumerate() {
        let verb = w.as_str();
        let remove = matches!(
            verb,
            "remove-item" | "rm" | "ri" | "del" | "erase" | "rd" | "rmdir"
        );
        if remove {
            // Read by Remove-Item's grammar: `-r` is -Recurse, `-fo` -Force, `-f` -Filter.
            let rest: Vec<Word> = words[i + 1..]
                .iter()
                .map(|a| Word::literal(a, Span::default()))
                .collect();
            let o = opts::parse(&grammars::PS_REMOVE_ITEM, &rest);
            let (recurse, force) = (o.long("recurse"), o.long("force"));
            if !(recurse || force) {
                continue;
            }
            return Some(format!(
                "{verb}{}{}",
                if recurse { " -Recurse" } else { "" },
                if force { " -Force" } else { "" }
            ));
        }
        if matches!(
            verb,
            "format-volume" | "clear-disk" | "remove-partition" | "clear-content"
        ) {
            return Some(verb.to_string());
        }
    }
    None
}

impl Rule for WindowsDelete {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let name = cmd
            .name
            .as_deref()
            .unwrap_or("")
            .trim_end_matches(".exe")
            .to_ascii_lowercase();
        let args: Vec<String> = cmd.arg_texts();
        let push = |out: &mut Vec<Finding>, msg: String, key: &'static str| {
            let mut f = Finding::on(&Self::META, cmd, format!("{msg}{}", route(cmd)));
            f.hermes = vec![key];
            out.push(f);
        };
        if name == "cmd" {
            let Some(c) = args
                .iter()
                .position(|a| a.eq_ignore_ascii_case("/c") || a.eq_ignore_ascii_case("/k"))
            else {
                return;
            };
            let words = words_lower(&args[c + 1..].join(" "));
            if let Some(what) = cmd_destructive(&words) {
                push(
                    out,
                    format!("cmd.exe runs `{what}`, deleting or formatting on the Windows side"),
                    WindowsDelete::CMD_DELETE,
                );
            }
            return;
        }
        // PowerShell: -EncodedCommand hides the script; -Command / trailing words are the
        // script. Read by powershell's grammar: `-e`, `-enc`, `-ec` are -EncodedCommand,
        // `-ex` is -ExecutionPolicy, and nothing after -Command is a parameter.
        // (Read here rather than from `Command::opts`: `PowerShell.exe` may be spelled in
        // any case.)
        let o = opts::parse(&grammars::POWERSHELL, cmd.args());
        if let Some(x) = o
            .all()
            .find(|x| matches!(x.name.as_str(), "encodedcommand" | "ec"))
        {
            let payload = value_word(cmd.args(), x)
                .map(|w| w.text_with("\u{fffd}"))
                .unwrap_or_default();
            let decoded = decode_ps(&payload).unwrap_or_else(|| "(not valid base64 UTF-16)".into());
            let mut msg = format!(
                "PowerShell runs an encoded command that hides what it does: `{}`",
                decoded.chars().take(120).collect::<String>()
            );
            if ps_destructive(&words_lower(&decoded)).is_some() {
                msg.push_str(" (it deletes files)");
            }
            push(out, msg, WindowsDelete::ENCODED_COMMAND);
            return;
        }
        let words = words_lower(&args.join(" "));
        if let Some(what) = ps_destructive(&words) {
            push(
                out,
                format!("PowerShell runs `{what}`, deleting on the Windows side"),
                WindowsDelete::POWERSHELL_DELETE,
            );
        }
    }
}
