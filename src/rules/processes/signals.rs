//! The signal and process selectors of `kill`, `pkill` and `killall`, from their grammars
//! in `model::opts::grammars` (which also read signals spelled as options, `-9`, `-KILL`).

use crate::model::{Command, Word};

/// `pkill`/`killall` asked only to print (help, version, the signal list): nothing is killed.
pub fn only_informs(cmd: &Command) -> bool {
    cmd.arg_texts().iter().any(|t| {
        matches!(
            t.as_str(),
            "--help" | "-h" | "-V" | "--version" | "-l" | "--list"
        )
    })
}

/// Is this signal name or number SIGKILL?
pub fn is_kill_signal(sig: &str) -> bool {
    let s = sig.trim_start_matches('-');
    let up = s.to_ascii_uppercase();
    up == "9" || up == "KILL" || up == "SIGKILL"
}

/// `kill` arguments, read by its grammar (`Command::opts`): the signal (as written) and
/// the pid words.
pub fn kill_args(cmd: &Command) -> (Option<String>, Vec<&Word>) {
    let args = cmd.args();
    (
        cmd.opts.signal(args, &["signal", "s", "n"]),
        cmd.opts.operand_words(args),
    )
}

/// `pkill`/`pgrep`/`killall` arguments: the signal (as written), whether the pattern is a
/// regex (`killall -r`), whether `-s`/`--signal` was used, and the pattern operands.
pub struct Selector<'a> {
    pub signal: Option<String>,
    pub via_s: bool,
    pub regex: bool,
    /// `pkill -f`/`--full`: the pattern is matched against the whole command line.
    pub full: bool,
    /// `pkill -x`/`--exact`, `killall -e`/`--exact`.
    pub exact: bool,
    /// Process-family selectors and their values (decoded, or as written when known only
    /// at run time): `-P`/`--parent`,
    /// `-g`/`--pgroup`, `-s`/`--session` (pkill).
    pub family: Vec<(char, String)>,
    pub patterns: Vec<&'a Word>,
}

/// Read a `pkill`/`pgrep`/`killall` command with its grammar (`Command::opts`).
pub fn selector(cmd: &Command) -> Selector<'_> {
    let o = &cmd.opts;
    let args = cmd.args();
    let killall = cmd.is("killall");
    // A signal given by `-s`/`--signal` rather than spelled as an option word (`-9`).
    let via_s = o.own().iter().any(|x| match x.name.as_str() {
        "signal" => x.long,
        "s" => killall,
        _ => false,
    });
    let names: &[&str] = if killall {
        &["signal", "s"]
    } else {
        &["signal"]
    };
    let family = if killall {
        Vec::new()
    } else {
        o.own()
            .iter()
            .filter_map(|x| {
                let c = match x.name.as_str() {
                    "P" | "parent" => 'P',
                    "g" | "pgroup" => 'g',
                    "s" | "session" => 's',
                    _ => return None,
                };
                // The decoded value (`\0` is `0`), or the spelling of a run-time one (`$PPID`).
                let v = crate::model::opts::value_word(args, x)?;
                Some((c, v.lit().unwrap_or_else(|| v.raw.clone())))
            })
            .collect()
    };
    Selector {
        signal: o.signal(args, names),
        via_s,
        regex: o.long("regexp") || killall && o.short('r'),
        full: !killall && o.flag('f', "full"),
        exact: if killall {
            o.flag('e', "exact")
        } else {
            o.flag('x', "exact")
        },
        family,
        patterns: o.operand_words(args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Context, analyze};

    #[test]
    fn kill_signal_spellings() {
        for s in ["9", "-9", "KILL", "kill", "SIGKILL", "-SIGKILL"] {
            assert!(is_kill_signal(s), "{s}");
        }
        for s in ["15", "TERM", "HUP", "1", "99"] {
            assert!(!is_kill_signal(s), "{s}");
        }
    }

    #[test]
    fn killall_and_pkill_selectors() {
        let ctx = Context::fixture();
        let sel = |src: &str| {
            let a = analyze(src, &ctx);
            a.script.commands.first().map(|c| {
                let s = selector(c);
                (
                    s.signal,
                    s.via_s,
                    s.regex,
                    s.patterns.iter().map(|w| w.shown()).collect::<Vec<_>>(),
                )
            })
        };
        assert_eq!(
            sel("killall -s KILL node"),
            Some((Some("KILL".into()), true, false, vec!["node".into()]))
        );
        assert_eq!(
            sel("killall -qr 'wo.*'"),
            Some((None, false, true, vec!["wo.*".into()]))
        );
        assert_eq!(
            sel("pkill -9 -u bob node"),
            Some((Some("9".into()), false, false, vec!["node".into()]))
        );
        assert_eq!(
            sel("pkill --signal=KILL -f x"),
            Some((Some("KILL".into()), true, false, vec!["x".into()]))
        );
    }
}
