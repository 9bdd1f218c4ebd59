//! The oracle's inputs: the repo corpus, a fixed sample of the shared corpora, generated
//! multi-line scripts, and metamorphic respellings of every dangerous corpus command. All
//! random choices come from one fixed seed, so every run checks the same cases.

use std::path::PathBuf;

use shellgate::corpus;

/// One oracle case.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    pub cmd: String,
    /// Where it came from (`corpus`, `tldr`, `script`, `respell:<kind>`).
    pub group: String,
    /// For respellings: the decision the seed has (`deny` or `ask`), which must hold.
    pub keep: Option<String>,
    /// For respellings: the seed command.
    pub seed: Option<String>,
}

/// splitmix64: a tiny fixed-seed generator (no dependency, same numbers everywhere).
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

pub(crate) const SEED: u64 = 0x5e11_9a7e_0008;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Every corpus case: (command, expected decision).
pub(crate) fn corpus_cases() -> Vec<(String, String)> {
    let files = corpus::files(&corpus_dir()).expect("corpus directory lists");
    let mut out = Vec::new();
    for f in files {
        for l in corpus::load(&f).expect("corpus file loads") {
            out.push((l.case.cmd, l.case.expect));
        }
    }
    out
}

/// Where the shared corpora are, when present.
pub(crate) fn shared_corpora() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
    let alt = PathBuf::from("/work/shared/corpora");
    [p, alt]
        .into_iter()
        .find(|d| d.join("tldr.jsonl").is_file())
}

/// A fixed sample of unique shell commands from `tldr.jsonl` and `nl2bash.jsonl`: every
/// `step`-th unique command, in file order (`kind: keypress` records are not shell).
pub(crate) fn shared_sample(dir: &std::path::Path, per_file: usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (file, label) in [("tldr.jsonl", "tldr"), ("nl2bash.jsonl", "nl2bash")] {
        let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
            continue;
        };
        let mut seen = std::collections::BTreeSet::new();
        let mut cmds = Vec::new();
        for line in text.lines() {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if v.get("kind").and_then(|k| k.as_str()) == Some("keypress") {
                continue;
            }
            let Some(c) = v.get("cmd").and_then(|c| c.as_str()) else {
                continue;
            };
            if !c.contains('\0') && seen.insert(c.to_string()) {
                cmds.push(c.to_string());
            }
        }
        let step = (cmds.len() / per_file.max(1)).max(1);
        out.extend(
            cmds.into_iter()
                .step_by(step)
                .take(per_file)
                .map(|c| (c, label.to_string())),
        );
    }
    out
}

/// Multi-line scripts joining random single-line commands with newlines, `;`, `&&`, `||`, `|`.
pub(crate) fn scripts(pool: &[String], n: usize, rng: &mut Rng) -> Vec<String> {
    let singles: Vec<&String> = pool
        .iter()
        .filter(|c| !c.contains('\n') && !c.contains('#') && c.len() < 200 && !c.ends_with('\\'))
        .collect();
    let seps = ["\n", "; ", " && ", " || ", " | ", "\n"];
    let mut out = Vec::with_capacity(n);
    if singles.is_empty() {
        return out;
    }
    for _ in 0..n {
        let k = 2 + rng.below(4);
        let mut s = String::new();
        for i in 0..k {
            if i > 0 {
                s.push_str(seps[rng.below(seps.len())]);
            }
            s.push_str(singles[rng.below(singles.len())].trim_end_matches([';', '&', ' ']));
        }
        out.push(s);
    }
    out
}

/// Split a one-line command into top-level words with their byte ranges, when it is a plain
/// sequence of words (quotes allowed; no operators, substitutions, comments or heredocs).
pub(crate) fn top_words(cmd: &str) -> Option<Vec<(usize, usize)>> {
    let b = cmd.as_bytes();
    let mut words = Vec::new();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        let start = i;
        let (mut sq, mut dq) = (false, false);
        while i < b.len() {
            let c = b[i];
            if sq {
                sq = c != b'\'';
            } else if c == b'\\' {
                if b.get(i + 1).is_none_or(|&n| n == b'\n') {
                    return None;
                }
                i += 1;
            } else if dq {
                if c == b'"' {
                    dq = false;
                } else if c == b'`' || c == b'$' && b.get(i + 1) == Some(&b'(') {
                    return None;
                }
            } else {
                match c {
                    b'\'' => sq = true,
                    b'"' => dq = true,
                    b' ' => break,
                    b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')' | b'`' | b'\n' | b'\t'
                    | b'\r' => return None,
                    b'#' if i == start => return None,
                    b'$' if b.get(i + 1) == Some(&b'(') => return None,
                    b'{' | b'}' if i == start => return None,
                    _ => {}
                }
            }
            i += 1;
        }
        if sq || dq {
            return None;
        }
        words.push((start, i));
    }
    if words.is_empty() { None } else { Some(words) }
}

const REDIRECTS: &[&str] = &[
    "2>/dev/null",
    ">/dev/null",
    "2>&1",
    "</dev/null",
    "&>f",
    ">>f",
];
const PIPELINES: &[&str] = &[
    "git status | grep x",
    "ls | grep x | head",
    "git log --oneline | grep fix | sort | head -3",
];
/// Interpreters that take code attached to the option (`-c'..'`), and their code options.
const ATTACHABLE: &[(&str, &[&str])] = &[
    ("python", &["-c"]),
    ("python3", &["-c"]),
    ("python2", &["-c"]),
    ("perl", &["-e", "-E"]),
    ("ruby", &["-e"]),
    ("node", &["-e", "-p"]),
    ("php", &["-r"]),
];

/// Metamorphic respellings of one dangerous command; each must keep its decision.
pub(crate) fn respellings(cmd: &str, rng: &mut Rng) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = Vec::new();
    let one_line = !cmd.contains('\n');
    let plain_end = !cmd.trim_end().ends_with(['\\', '&', ';']);
    if one_line && plain_end {
        for (i, p) in PIPELINES.iter().enumerate() {
            let kind = ["after-pipeline-2", "after-pipeline-3", "after-pipeline-4"][i];
            out.push((format!("{p}\n{cmd}"), kind));
        }
        out.push((format!("# checked\r\n{cmd}"), "comment-crlf"));
        out.push((format!("{cmd} # trailing comment"), "trailing-comment"));
        out.push((format!("{{ {cmd}; }} 2>/dev/null"), "brace-group-redirect"));
        out.push((
            format!("cat <<'EOF' ; {cmd}\nnotes\nEOF"),
            "heredoc-then-command",
        ));
    }
    let Some(words) = top_words(cmd) else {
        return out;
    };
    let text = |r: (usize, usize)| &cmd[r.0..r.1];
    // A redirect at every word position (after the program word and each argument).
    for (k, w) in words.iter().enumerate() {
        let r = REDIRECTS[rng.below(REDIRECTS.len())];
        let mut s = String::new();
        s.push_str(&cmd[..w.1]);
        s.push(' ');
        s.push_str(r);
        s.push_str(&cmd[w.1..]);
        out.push((
            s,
            if k == 0 {
                "redirect-after-program"
            } else {
                "redirect-between-args"
            },
        ));
    }
    // `\` + newline between words and inside the program word.
    if words.len() > 1 {
        let w = words[1];
        out.push((
            format!("{} \\\n{}", cmd[..words[0].1].trim_end(), &cmd[w.0..]),
            "continuation-between-words",
        ));
        let w = words[0];
        let prog = text(w);
        if prog.len() > 1
            && prog
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._/-".contains(c))
        {
            let cut = prog.len() / 2;
            out.push((
                format!("{}\\\n{}{}", &prog[..cut], &prog[cut..], &cmd[w.1..]),
                "continuation-inside-word",
            ));
        }
        // Tabs between words.
        out.push((
            words
                .iter()
                .map(|&r| text(r))
                .collect::<Vec<_>>()
                .join("\t"),
            "tabs",
        ));
    }
    // `env -S` with the command as one string, when it needs no quoting of its own.
    if cmd
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || " ._/-=:,@%+".contains(c))
    {
        out.push((format!("env -S '{cmd}'"), "env-split-string"));
        out.push((format!("env --split-string='{cmd}'"), "env-split-string"));
    }
    // Code attached to the interpreter's option: `-c'..'`, `--eval=..`.
    let prog = text(words[0]);
    let base = prog.rsplit('/').next().unwrap_or(prog);
    if let Some((_, opts)) = ATTACHABLE.iter().find(|(p, _)| *p == base) {
        for (k, w) in words.iter().enumerate().skip(1) {
            if opts.contains(&text(*w))
                && let Some(next) = words.get(k + 1)
            {
                out.push((
                    format!("{}{}{}", &cmd[..w.1], text(*next), &cmd[next.1..]),
                    "attached-option-value",
                ));
                if base == "node" && text(*w) == "-e" {
                    out.push((
                        format!("{}--eval={}{}", &cmd[..w.0], text(*next), &cmd[next.1..]),
                        "attached-option-value",
                    ));
                }
                break;
            }
        }
    }
    out
}
