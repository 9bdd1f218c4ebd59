//! Static evaluation of what simple commands print (`echo`, `printf`, `base64 -d`, `xxd -r
//! -p`, `tr`, `rev`, `cat`), so decoded payloads piped into a shell are analysed as code.

use super::Command;
use super::opts::Opts;
use base64::Engine;

/// Largest payload evaluated; bigger ones are treated as unknown.
const MAX_OUTPUT: usize = 1 << 20;

fn cap(s: String) -> Option<String> {
    (s.len() <= MAX_OUTPUT).then_some(s)
}

/// What the command prints on stdout, when that is known without running it.
pub(crate) fn output_of(cmd: &Command, stdin: Option<&str>) -> Option<String> {
    if !cmd.wrappers.is_empty() && cmd.wrappers.iter().any(|w| w.name == "xargs") {
        return None;
    }
    // An output redirect means nothing reaches the pipe.
    if cmd
        .redirects
        .iter()
        .any(|r| r.op.writes() && r.fd.is_none_or(|f| f == 1))
    {
        return Some(String::new());
    }
    let name = cmd.name.as_deref()?;
    // The programs of the match below (keep the two together); any other prints nothing
    // known, so return before reading its arguments: this runs for every command.
    if !matches!(
        name,
        "echo"
            | "printf"
            | "cat"
            | "tee"
            | "true"
            | ":"
            | "pwd"
            | "basename"
            | "dirname"
            | "base64"
            | "base32"
            | "basenc"
            | "openssl"
            | "xxd"
            | "rev"
            | "tr"
    ) {
        return None;
    }
    let args: Option<Vec<String>> = cmd.args().iter().map(|w| w.lit()).collect();
    let args = args?;
    let stdin = cmd.stdin_text.as_deref().or(stdin);
    match name {
        "echo" => cap(echo(&cmd.opts, &args)),
        "printf" => cap(printf(&args)?),
        "cat" | "tee" => {
            // `cat` of a file prints the file; `cat`, `cat -` and `tee FILE` print stdin.
            let files = operands(cmd);
            if name == "cat" && files.iter().any(|f| f.as_str() != "-") {
                return None;
            }
            stdin.map(str::to_string)
        }
        "true" | ":" => Some(String::new()),
        "pwd" if cmd.opts.operands.is_empty() => cmd.cwd.as_ref().map(|c| format!("{c}\n")),
        "basename" if args.len() == 1 => {
            let t = args[0].trim_end_matches('/');
            Some(format!("{}\n", t.rsplit('/').next().unwrap_or(t)))
        }
        "dirname" if args.len() == 1 => {
            let t = args[0].trim_end_matches('/');
            Some(match t.rsplit_once('/') {
                Some(("", _)) => "/\n".to_string(),
                Some((d, _)) => format!("{d}\n"),
                None => ".\n".to_string(),
            })
        }
        "base64" | "base32" | "basenc" => {
            let o = &cmd.opts;
            let decode = o.flag('d', "decode") || o.short('D');
            if !decode || !o.operands.is_empty() || name != "base64" {
                return None;
            }
            b64(stdin?)
        }
        "openssl" => {
            // Read by openssl's grammar: `-name` options, exact, after the subcommand.
            let o = &cmd.opts;
            let sub = o.sub();
            let is_b64 = matches!(sub, Some("base64" | "enc"))
                && o.long("d")
                && (sub == Some("base64") || o.long("base64") || o.long("a"));
            if !is_b64 || o.long("in") {
                return None;
            }
            b64(stdin?)
        }
        "xxd" => {
            // Read by xxd's grammar: an option word is named by its first letter (`-revert`
            // is `-r`, `-rp` is `-r` alone), so only `-r` and `-p` together decode plain hex.
            let o = &cmd.opts;
            if o.short('r') && o.short('p') && o.operands.is_empty() && !o.dynamic {
                hex(stdin?)
            } else {
                None
            }
        }
        "rev" => {
            if !args.is_empty() {
                return None;
            }
            let s = stdin?;
            let mut out = String::new();
            for line in s.split_inclusive('\n') {
                let (body, nl) = match line.strip_suffix('\n') {
                    Some(b) => (b, "\n"),
                    None => (line, ""),
                };
                out.extend(body.chars().rev());
                out.push_str(nl);
            }
            Some(out)
        }
        "tr" => {
            // Only `tr SET1 SET2` and `tr -d SET` are evaluated.
            let o = &cmd.opts;
            let delete = o.flag('d', "delete");
            if o.all().count() != usize::from(delete) {
                return None;
            }
            tr(delete, &operands(cmd), stdin?)
        }
        _ => None,
    }
}

/// A command that turns bytes into different bytes (a decoder or transformer): what it
/// feeds a shell is not what the command text shows.
pub fn is_decoder(cmd: &Command) -> bool {
    let Some(n) = cmd.name.as_deref() else {
        return false;
    };
    // The argument texts only for the programs that read them: this runs for every command.
    let args = || cmd.arg_texts();
    let o = &cmd.opts;
    match n {
        "base64" | "base32" | "basenc" => o.flag('d', "decode") || o.short('D'),
        // Read by xxd's grammar: `-r`, `-revert`, `-rp` are all `-r`.
        "xxd" => o.short('r'),
        "openssl" => o.long("d"),
        "uudecode" | "rev" | "zcat" | "gunzip" | "bzcat" | "bunzip2" | "unxz" | "xzcat"
        | "zstdcat" | "unzip" => true,
        "gzip" | "xz" | "zstd" | "bzip2" => o.flag('d', "decompress"),
        "tr" => !cmd.args().is_empty(),
        // printf only hides text when it expands escapes (`\x72`, `\162`, `%b`).
        "printf" => args().iter().any(|a| {
            a.contains("\\x")
                || a.contains("\\0")
                || a.contains("\\u")
                || a.contains("%b")
                || a.split('\\')
                    .skip(1)
                    .any(|p| p.starts_with(|c: char| c.is_ascii_digit()))
        }),
        "perl" => {
            let args = args();
            args.iter().any(|a| a == "-pe")
                && args
                    .iter()
                    .any(|a| a.contains("pack") || a.contains("decode"))
        }
        _ => false,
    }
}

/// What `echo` prints: its options read with its grammar (leading words of `n`, `e`, `E`
/// letters only; the last of `-e`/`-E` wins), its operands joined.
fn echo(o: &Opts, args: &[String]) -> String {
    let mut newline = true;
    let mut escapes = false;
    for x in o.all() {
        match x.name.as_str() {
            "n" => newline = false,
            "e" => escapes = true,
            _ => escapes = false,
        }
    }
    let ops: Vec<&str> = o
        .operands
        .iter()
        .filter_map(|&i| args.get(i).map(String::as_str))
        .collect();
    let mut s = ops.join(" ");
    if escapes {
        s = super::word::decode_ansi_c(&s);
    }
    if newline {
        s.push('\n');
    }
    s
}

/// `printf FORMAT ARGS..` for `%s %b %c %d %%` and backslash escapes; the format is reused
/// while arguments remain, as printf does.
fn printf(args: &[String]) -> Option<String> {
    let (fmt, rest) = args.split_first()?;
    let fmt = if fmt == "--" {
        let (f, _) = rest.split_first()?;
        return printf(
            &std::iter::once(f.clone())
                .chain(rest[1..].iter().cloned())
                .collect::<Vec<_>>(),
        );
    } else {
        fmt
    };
    let mut out = String::new();
    let mut idx = 0usize;
    for _round in 0..1000 {
        let mut chars = fmt.chars().peekable();
        let mut used = false;
        let mut lit = String::new();
        while let Some(c) = chars.next() {
            if c == '%' {
                // Skip flags and width.
                let mut spec = String::new();
                while let Some(&n) = chars.peek() {
                    if "-+ #0123456789.".contains(n) {
                        spec.push(n);
                        chars.next();
                    } else {
                        break;
                    }
                }
                let conv = chars.next()?;
                out.push_str(&super::word::decode_ansi_c(&std::mem::take(&mut lit)));
                let arg = rest.get(idx).cloned();
                match conv {
                    '%' => out.push('%'),
                    's' => {
                        out.push_str(&arg.unwrap_or_default());
                        idx += 1;
                        used = true;
                    }
                    'b' => {
                        out.push_str(&super::word::decode_ansi_c(&arg.unwrap_or_default()));
                        idx += 1;
                        used = true;
                    }
                    'c' => {
                        out.extend(arg.unwrap_or_default().chars().next());
                        idx += 1;
                        used = true;
                    }
                    'd' | 'i' | 'u' => {
                        out.push_str(&arg.unwrap_or_else(|| "0".into()));
                        idx += 1;
                        used = true;
                    }
                    _ => return None,
                }
            } else {
                lit.push(c);
            }
        }
        out.push_str(&super::word::decode_ansi_c(&lit));
        if !used || idx >= rest.len() {
            break;
        }
        if out.len() > MAX_OUTPUT {
            return None;
        }
    }
    Some(out)
}

fn b64(input: &str) -> Option<String> {
    let clean: String = input.chars().filter(|c| !c.is_whitespace()).collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(clean.as_bytes())
        .or_else(|_| {
            base64::engine::general_purpose::STANDARD_NO_PAD
                .decode(clean.trim_end_matches('=').as_bytes())
        })
        .or_else(|_| base64::engine::general_purpose::URL_SAFE.decode(clean.as_bytes()))
        .ok()?;
    cap(String::from_utf8(bytes).ok()?)
}

fn hex(input: &str) -> Option<String> {
    let clean: Vec<u8> = input.bytes().filter(|b| b.is_ascii_hexdigit()).collect();
    if !clean.len().is_multiple_of(2) {
        return None;
    }
    let mut bytes = Vec::with_capacity(clean.len() / 2);
    for pair in clean.chunks(2) {
        let s = std::str::from_utf8(pair).ok()?;
        bytes.push(u8::from_str_radix(s, 16).ok()?);
    }
    cap(String::from_utf8(bytes).ok()?)
}

/// Expand a `tr` set (`a-z`, escapes) into its characters.
fn tr_set(s: &str) -> Option<Vec<char>> {
    let s = super::word::decode_ansi_c(s);
    let chars: Vec<char> = s.chars().collect();
    if s.contains("[:") {
        return None;
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if i + 2 < chars.len() && chars[i + 1] == '-' {
            let (a, b) = (chars[i] as u32, chars[i + 2] as u32);
            if a > b {
                return None;
            }
            out.extend((a..=b).filter_map(char::from_u32));
            i += 3;
        } else {
            out.push(chars[i]);
            i += 1;
        }
        if out.len() > 4096 {
            return None;
        }
    }
    Some(out)
}

/// The operand texts of a command, read with its grammar.
fn operands(cmd: &Command) -> Vec<String> {
    cmd.opts
        .operand_words(cmd.args())
        .iter()
        .map(|w| w.text_with("\u{fffd}"))
        .collect()
}

/// `tr -d SET` (`delete`) or `tr SET1 SET2` over `input`.
fn tr(delete: bool, sets: &[String], input: &str) -> Option<String> {
    match sets {
        [set] if delete => {
            let set = tr_set(set)?;
            Some(input.chars().filter(|c| !set.contains(c)).collect())
        }
        [a, b] if !delete => {
            let from = tr_set(a)?;
            let to = tr_set(b)?;
            let last = *to.last()?;
            Some(
                input
                    .chars()
                    .map(|c| match from.iter().position(|&f| f == c) {
                        Some(p) => *to.get(p).unwrap_or(&last),
                        None => c,
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    fn echoed(v: &[&str]) -> String {
        let words: Vec<crate::model::Word> = v
            .iter()
            .map(|x| crate::model::Word::literal(x, crate::model::Span::default()))
            .collect();
        echo(
            &super::super::opts::parse_program(Some("echo"), &words),
            &s(v),
        )
    }

    #[test]
    fn echo_joins_and_honours_flags() {
        assert_eq!(echoed(&["rm", "-rf", "/"]), "rm -rf /\n");
        assert_eq!(echoed(&["-n", "x"]), "x");
        assert_eq!(echoed(&["-e", r"\x72m"]), "rm\n");
        assert_eq!(echoed(&["-eE", r"\x72m"]), "\\x72m\n");
        assert_eq!(echoed(&["-n", "--", "-e"]), "-- -e");
    }

    #[test]
    fn printf_handles_escapes_and_reused_format() {
        assert_eq!(
            printf(&s(&[r"\x72\x6d -rf /"])).as_deref(),
            Some("rm -rf /")
        );
        assert_eq!(printf(&s(&["%s ", "a", "b"])).as_deref(), Some("a b "));
    }

    #[test]
    fn decodes_base64_and_hex() {
        assert_eq!(b64("cm0gLXJmIH4=").as_deref(), Some("rm -rf ~"));
        assert_eq!(hex("726d202d7266202f").as_deref(), Some("rm -rf /"));
    }

    #[test]
    fn tr_rot13_round_trips() {
        let enc = tr(false, &s(&["A-Za-z", "N-ZA-Mn-za-m"]), "ez -es /").unwrap_or_default();
        assert_eq!(enc, "rm -rf /");
    }
}
