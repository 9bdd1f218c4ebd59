//! Reading the signal and process selectors of `kill`, `pkill` and `killall`.

use crate::model::Word;

/// Is this signal name or number SIGKILL?
pub fn is_kill_signal(sig: &str) -> bool {
    let s = sig.trim_start_matches('-');
    let up = s.to_ascii_uppercase();
    up == "9" || up == "KILL" || up == "SIGKILL"
}

/// `kill` arguments: the signal (as written) and the pid words.
pub fn kill_args(words: &[Word]) -> (Option<String>, Vec<&Word>) {
    let mut sig = None;
    let mut pids = Vec::new();
    let mut i = 0;
    let mut opts_done = false;
    while i < words.len() {
        let w = &words[i];
        i += 1;
        let t = w.lit();
        match t.as_deref() {
            Some("--") if !opts_done => opts_done = true,
            Some("-s" | "-n" | "--signal") if !opts_done => {
                sig = words.get(i).map(|v| v.text_with("…"));
                i += 1;
            }
            Some(o) if !opts_done && o.starts_with("--signal=") => {
                sig = Some(o["--signal=".len()..].to_string())
            }
            Some(o)
                if !opts_done
                    && sig.is_none()
                    && o.starts_with('-')
                    && o.len() > 1
                    && !o.starts_with("--") =>
            {
                sig = Some(o[1..].to_string());
            }
            _ => pids.push(w),
        }
    }
    (sig, pids)
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
    /// Process-family selectors and their values: `-P`/`--parent`, `-g`/`--pgroup`,
    /// `-s`/`--session` (pkill).
    pub family: Vec<(char, String)>,
    pub patterns: Vec<&'a Word>,
}

pub fn selector<'a>(prog: &str, words: &'a [Word]) -> Selector<'a> {
    // Short options that take a value.
    let values: &str = if prog == "killall" {
        "suoyYn"
    } else {
        "gGPstuUFd"
    };
    let mut s = Selector {
        signal: None,
        via_s: false,
        regex: false,
        full: false,
        exact: false,
        family: Vec::new(),
        patterns: Vec::new(),
    };
    let mut i = 0;
    let mut opts_done = false;
    while i < words.len() {
        let w = &words[i];
        i += 1;
        let Some(t) = w.lit() else {
            s.patterns.push(w);
            continue;
        };
        if opts_done || !t.starts_with('-') || t == "-" {
            s.patterns.push(w);
            continue;
        }
        if t == "--" {
            opts_done = true;
            continue;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (long.to_string(), None),
            };
            let takes = matches!(
                name.as_str(),
                "signal"
                    | "group"
                    | "pgroup"
                    | "parent"
                    | "session"
                    | "terminal"
                    | "euid"
                    | "uid"
                    | "pidfile"
                    | "ns"
                    | "nslist"
                    | "user"
                    | "context"
                    | "older-than"
                    | "younger-than"
                    | "delimiter"
                    | "runstates"
            );
            let raw = if takes && inline.is_none() {
                words.get(i).map(|x| x.raw.clone())
            } else {
                inline.clone()
            };
            let val = if takes && inline.is_none() {
                let v = words.get(i).map(|x| x.text_with("…"));
                i += 1;
                v
            } else {
                inline
            };
            match name.as_str() {
                "signal" => {
                    s.signal = val;
                    s.via_s = true;
                }
                "regexp" => s.regex = true,
                "full" => s.full = true,
                "exact" => s.exact = true,
                "parent" | "pgroup" | "session" if prog != "killall" => {
                    let c = match name.as_str() {
                        "parent" => 'P',
                        "pgroup" => 'g',
                        _ => 's',
                    };
                    s.family.push((c, raw.unwrap_or_default()));
                }
                _ => {}
            }
            continue;
        }
        let body = &t[1..];
        // `-9`, `-KILL`, `-SIGKILL`, `-HUP`: a signal written as an option.
        let first = body.chars().next().unwrap_or(' ');
        if first.is_ascii_digit()
            || (body.len() > 1
                && body
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()))
        {
            s.signal = Some(body.to_string());
            continue;
        }
        for (pos, c) in body.char_indices() {
            if c == 'r' && prog == "killall" {
                s.regex = true;
            }
            if c == 'f' && prog != "killall" {
                s.full = true;
            }
            if (c == 'x' && prog != "killall") || (c == 'e' && prog == "killall") {
                s.exact = true;
            }
            if values.contains(c) {
                let rest = &body[pos + c.len_utf8()..];
                // The value as written: a family selector is judged by its spelling (`$PPID`).
                let raw = if rest.is_empty() {
                    words.get(i).map(|x| x.raw.clone())
                } else {
                    Some(rest.to_string())
                };
                let val = if rest.is_empty() {
                    let v = words.get(i).map(|x| x.text_with("…"));
                    i += 1;
                    v
                } else {
                    Some(rest.to_string())
                };
                if c == 's' && prog == "killall" {
                    s.signal = val;
                    s.via_s = true;
                } else if matches!(c, 'P' | 'g' | 's') && prog != "killall" {
                    s.family.push((c, raw.unwrap_or_default()));
                }
                break;
            }
        }
    }
    s
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
                let s = selector(c.name.as_deref().unwrap_or(""), c.args());
                (
                    s.signal,
                    s.via_s,
                    s.regex,
                    s.patterns
                        .iter()
                        .map(|w| w.text_with("?"))
                        .collect::<Vec<_>>(),
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
