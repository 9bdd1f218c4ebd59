//! Inline interpreter code (`python3 -c`, `node -e`, heredocs into `perl`): the code is
//! scanned for capabilities; literal shell-outs are lowered as nested shell code and
//! literal deletes as `rm` commands, so the same rules judge them.

use super::env::Env;
use super::interp::{self, CapKind, Lang, ShellOut};
use super::lower::{Block, Lowerer};
use super::{CmdId, InlineCode, Origin, OriginKind, Word};

/// The code an interpreter invocation runs, when it is inline (flag or stdin).
fn inline_code(
    lang: Lang,
    name: &str,
    argv: &[Word],
    stdin: Option<&str>,
) -> Option<Result<String, String>> {
    let args = argv.get(1..).unwrap_or(&[]);
    let flags: &[&str] = match lang {
        Lang::Python => &["-c"],
        Lang::Node => &["-e", "--eval", "-p", "--print"],
        Lang::Perl => &["-e", "-E"],
        Lang::Ruby => &["-e"],
        Lang::Php => &["-r"],
    };
    let mut pieces = Vec::new();
    let mut i = 0;
    let mut script_operand = false;
    if (name == "deno" || name == "bun")
        && args.first().and_then(|w| w.lit()).as_deref() == Some("eval")
    {
        return Some(
            args.get(1)
                .and_then(|w| w.lit())
                .ok_or_else(|| "code known only at run time".to_string()),
        );
    }
    while i < args.len() {
        let Some(a) = args[i].lit() else {
            i += 1;
            continue;
        };
        // `-c CODE`, bundles ending in the code flag (`perl -ne`, `python3 -Ic`), code attached
        // to the flag (`python3 -c'..'`, `perl -le'..'`) and `--eval=CODE`.
        let attached = attached_code(lang, &a, flags);
        if let Some(Some(code)) = attached {
            pieces.push(code);
            i += 1;
            if lang == Lang::Python {
                break;
            }
            continue;
        }
        if flags.contains(&a.as_str()) || attached.is_some() {
            match args.get(i + 1) {
                Some(w) => match w.lit() {
                    Some(code) => pieces.push(code),
                    None => return Some(Err("the code is only known at run time".into())),
                },
                None => return Some(Err("the code flag has no argument".into())),
            }
            i += 2;
            if lang == Lang::Python {
                break;
            }
            continue;
        }
        if a == "-" {
            break;
        }
        if !a.starts_with('-') {
            script_operand = true;
            break;
        }
        if lang == Lang::Python && matches!(a.as_str(), "-m" | "-W" | "-X" | "-Q") {
            if a == "-m" {
                return None;
            }
            i += 2;
            continue;
        }
        i += 1;
    }
    if !pieces.is_empty() {
        return Some(Ok(pieces.join("\n")));
    }
    if script_operand {
        return None;
    }
    stdin.map(|s| Ok(s.to_string()))
}

/// Short options that take the rest of their cluster as a value, per language: a code flag
/// after one of them is part of that value (`perl -ie` sets the backup extension `e`).
fn value_options(lang: Lang) -> &'static str {
    match lang {
        Lang::Python => "WXmQ",
        Lang::Perl => "iIMmlxCdD0",
        Lang::Ruby => "IrCEFKTWx0",
        Lang::Node => "r",
        Lang::Php => "cdzf",
    }
}

/// Read one argument as an option cluster: `Some(Some(code))` when the code is attached
/// (`-c'..'`, `-le'..'`, `--eval=..`), `Some(None)` when the cluster ends in the code flag
/// (the code is the next argument), `None` when the argument holds no code flag.
///
/// node rejects code attached to `-e` (`bad option`) but takes `--eval=`; the attached form is
/// still read as code, so a command that shows its code is judged on it.
fn attached_code(lang: Lang, a: &str, flags: &[&str]) -> Option<Option<String>> {
    if let Some(long) = a.strip_prefix("--") {
        let (name, value) = long.split_once('=')?;
        return flags
            .iter()
            .any(|f| f.strip_prefix("--") == Some(name))
            .then(|| Some(value.to_string()));
    }
    let cluster = a.strip_prefix('-')?;
    let is_flag = |c: char| flags.iter().any(|f| f.len() == 2 && f.ends_with(c));
    // node reads `-pe` as `-p -e`: a cluster of code flags takes the next argument.
    if lang == Lang::Node && !cluster.is_empty() && cluster.chars().all(is_flag) {
        return Some(None);
    }
    for (k, c) in cluster.char_indices() {
        if is_flag(c) {
            let rest = &cluster[k + c.len_utf8()..];
            return Some((!rest.is_empty()).then(|| rest.to_string()));
        }
        if !c.is_ascii_alphanumeric() || value_options(lang).contains(c) {
            return None;
        }
    }
    None
}

fn cap_name(k: CapKind) -> &'static str {
    match k {
        CapKind::Process => "process",
        CapKind::Delete => "delete",
        CapKind::Write => "write",
        CapKind::Network => "network",
        CapKind::Eval => "eval",
    }
}

/// Lower what inline interpreter code runs, when `name` is an interpreter.
pub(super) fn lower_inline(
    l: &mut Lowerer<'_>,
    id: CmdId,
    name: &str,
    argv: &[Word],
    env: &mut Env,
    origin: &Origin,
) -> Option<Block> {
    let lang = interp::lang_for_program(name)?;
    let (span, stdin) = {
        let c = l.script.commands.get(id)?;
        (c.span, c.stdin_text.clone())
    };
    let code = match inline_code(lang, name, argv, stdin.as_deref())? {
        Ok(c) => c,
        Err(reason) => {
            if let Some(c) = l.script.commands.get_mut(id) {
                c.inline = Some(InlineCode {
                    language: format!("{lang:?}").to_lowercase(),
                    capabilities: Vec::new(),
                    unreadable: Some(reason),
                });
            }
            return None;
        }
    };
    let scan = interp::scan(lang, &code);
    if let Some(c) = l.script.commands.get_mut(id) {
        c.inline = Some(InlineCode {
            language: format!("{lang:?}").to_lowercase(),
            capabilities: scan
                .capabilities
                .iter()
                .map(|c| (cap_name(c.kind).to_string(), c.what.clone()))
                .collect(),
            unreadable: scan.unreadable.then(|| {
                scan.unreadable_reason
                    .clone()
                    .unwrap_or_else(|| "the code could not be read".into())
            }),
        });
    }
    let mut out = Block::default();
    for so in &scan.shell_outs {
        let text = match so {
            ShellOut::Code { code, .. } => code.clone(),
            ShellOut::Argv { argv, .. } => shell_words::join(argv),
        };
        let w = Word::literal(&text, span);
        let detail = format!("{name} shell-out");
        let b = l.lower_code(
            &w,
            OriginKind::Interpreter,
            &detail,
            env,
            origin,
            Some(span),
            None,
        );
        out.commands.extend(b.commands);
    }
    for d in &scan.deletes {
        let mut words = vec![Word::literal("rm", span)];
        if d.recursive {
            words.push(Word::literal("-r", span));
        }
        words.push(Word::literal("--", span));
        words.push(Word::literal(&d.path, span));
        let step = super::OriginStep {
            kind: OriginKind::Interpreter,
            span,
            detail: format!("{name} {}", d.call),
        };
        let b = l.run_argv(
            words,
            Vec::new(),
            Vec::new(),
            span,
            env,
            &origin.push(step),
            None,
            Some(d.call.clone()),
        );
        out.commands.extend(b.commands);
    }
    Some(out)
}
