//! The one glob matcher: `*`, `?` and `[...]`/`[!...]` against a whole text, with the
//! semantics bash's pattern matching and Python's `fnmatch` (what Hermes's
//! `approvals.deny` uses) share. `*` matches any text, `/` included; `[` with no closing
//! `]` is a literal `[`; only `!` negates a bracket. Its readers: the policy's allow/deny
//! globs, the config's protected paths in rules and the hooks' write guard (case-folded
//! first, [`matches_ignore_case`]), `${X#pattern}` and friends in word expansion, the path
//! catalog's per-component patterns, and glob-named programs (`/bin/r?`).
//!
//! ## Why not `globset`
//! `globset` compiles globs to regexes for matching many paths against many globs at once.
//! Its syntax is gitignore's, not bash's or fnmatch's: `{a,b}` is an alternation (a literal
//! in both bash patterns and fnmatch, so `git push {x}` would change meaning in a deny list),
//! an unclosed `[` is a compile error (fnmatch matches it literally; a user's deny entry must
//! never stop matching because it does not compile), and `**` is special. It adds nothing
//! for the few patterns matched here, each once, and its compile step costs more than this
//! linear scan. `tests/glob_oracle.rs` pins the fnmatch semantics against Python.
//!
//! ## Where bash differs (not modelled)
//! - `[^...]` also negates in bash, and bash has POSIX classes (`[[:alpha:]]`); here `^` and
//!   `[:` are literal characters of the bracket, as in fnmatch.
//! - A backslash escapes the next character in a bash pattern; here it is literal
//!   (`glob::escape` writes a literal `*` as `[*]`, which both read alike).
//! - extglob (`@(a|b)`, `!(x)`, `+(..)`) is not matched: its characters are read literally
//!   (a `*` or `?` inside still acts as a glob).
//! - Pathname expansion rules are the caller's: `*` here matches a leading `.` and `/`,
//!   where bash's filename globbing skips dotfiles and stops at `/`. The path catalog
//!   matches one component at a time for that reason.

/// True when `pattern` matches all of `text` (case-sensitive).
pub fn matches(pattern: &str, text: &str) -> bool {
    // Most patterns (path catalog components such as `etc`, `.ssh`) hold no glob character
    // at all: then matching is equality, and nothing need be collected. This runs for every
    // catalog row of every path looked up.
    if !pattern.contains(['*', '?', '[']) {
        return pattern == text;
    }
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    match_chars(&p, &t)
}

/// True when `pattern` matches all of `text`, ignoring case (Python's `fnmatch` on
/// lower-cased strings, as Hermes's `approvals.deny`). A malformed bracket (`[` with no `]`)
/// matches a literal `[`. `tests/glob_oracle.rs` pins it against Python.
pub fn matches_ignore_case(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().flat_map(char::to_lowercase).collect();
    let t: Vec<char> = text.chars().flat_map(char::to_lowercase).collect();
    match_chars(&p, &t)
}

/// Escape `text` so that [`matches`] and [`matches_ignore_case`] read every character
/// literally (`*` becomes `[*]`).
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '*' | '?' | '[' => {
                s.push('[');
                s.push(c);
                s.push(']');
            }
            _ => s.push(c),
        }
    }
    s
}

/// Iterative matcher with single-star backtracking: linear in practice and never
/// exponential, whatever the pattern (a deny list is user input).
pub fn match_chars(p: &[char], t: &[char]) -> bool {
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() {
            match p[pi] {
                '*' => {
                    star = Some((pi, ti));
                    pi += 1;
                    continue;
                }
                '?' => {
                    pi += 1;
                    ti += 1;
                    continue;
                }
                '[' => {
                    if let Some((hit, next)) = bracket(p, pi, t[ti]) {
                        if hit {
                            pi = next;
                            ti += 1;
                            continue;
                        }
                    } else if t[ti] == '[' {
                        pi += 1;
                        ti += 1;
                        continue;
                    }
                }
                c if c == t[ti] => {
                    pi += 1;
                    ti += 1;
                    continue;
                }
                _ => {}
            }
        }
        match star {
            Some((sp, st)) => {
                pi = sp + 1;
                ti = st + 1;
                star = Some((sp, st + 1));
            }
            None => return false,
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// Match one character against the bracket expression at `p[start]`; returns whether it
/// matched and the index after the closing `]`, or `None` when the bracket is not closed.
fn bracket(p: &[char], start: usize, c: char) -> Option<(bool, usize)> {
    let mut i = start + 1;
    // Only `!` negates, as in Python's fnmatch (Hermes's matcher); `^` is literal.
    let negate = matches!(p.get(i), Some('!'));
    if negate {
        i += 1;
    }
    let first = i;
    let mut hit = false;
    while i < p.len() {
        if p[i] == ']' && i > first {
            return Some((hit != negate, i + 1));
        }
        if i + 2 < p.len() && p[i + 1] == '-' && p[i + 2] != ']' {
            if p[i] <= c && c <= p[i + 2] {
                hit = true;
            }
            i += 3;
        } else {
            if p[i] == c {
                hit = true;
            }
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_and_question_marks_match_any_text_and_one_char() {
        assert!(matches("*.txt", "a.txt"));
        assert!(matches("a?c", "abc"));
        assert!(!matches("a?c", "ac"));
        assert!(matches("*", ""));
        assert!(matches("a*", "a/b/c"));
    }

    #[test]
    fn brackets_are_classes_and_an_unclosed_one_is_literal() {
        assert!(matches("[rR]m", "Rm"));
        assert!(!matches("[!r]m", "rm"));
        assert!(matches("[a-z]m", "rm"));
        assert!(matches("a[b", "a[b"));
        // Only `!` negates, as in fnmatch: `[^r]` is the set of `^` and `r`.
        assert!(matches("[^r]m", "rm") && matches("[^r]m", "^m"));
    }

    #[test]
    fn matching_is_case_sensitive() {
        assert!(!matches("RM", "rm"));
    }

    #[test]
    fn star_matches_any_text_including_slashes() {
        let m = matches_ignore_case;
        assert!(m("git push --force*", "git push --force origin main"));
        assert!(!m("git push --force*", "git push origin main"));
        assert!(m("*curl*|*sh*", "curl -s x | sh"));
        assert!(m("dd if=* of=/dev/*", "dd if=/dev/zero of=/dev/sda"));
    }

    #[test]
    fn folded_matching_ignores_case() {
        assert!(matches_ignore_case("GIT PUSH --FORCE*", "git push --force"));
        assert!(matches_ignore_case("rm -rf *", "RM -RF /x"));
    }

    #[test]
    fn escaped_text_matches_only_itself() {
        let e = escape("rm -rf build/*.o [x]?");
        assert!(matches_ignore_case(&e, "rm -rf build/*.o [x]?"));
        assert!(!matches_ignore_case(&e, "rm -rf build/a.o [x]?"));
        assert!(matches(&e, "rm -rf build/*.o [x]?"));
    }

    #[test]
    fn many_stars_stay_fast() {
        let p = "*a*a*a*a*a*a*a*a*a*a*a*b";
        let t = "a".repeat(5000);
        assert!(!matches_ignore_case(p, &t));
    }
}
