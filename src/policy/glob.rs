//! fnmatch-style globs as Hermes's `approvals.deny` uses them: `*`, `?`, `[...]`/`[!...]`,
//! matched case-insensitively against the whole text (`*` also matches `/`). Python's
//! `fnmatch` is the oracle (tests/glob_oracle.rs).

/// True when `pattern` matches all of `text`, ignoring case (Python's `fnmatch` on
/// lower-cased strings). A malformed bracket (`[` with no `]`) matches a literal `[`.
pub fn matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().flat_map(char::to_lowercase).collect();
    let t: Vec<char> = text.chars().flat_map(char::to_lowercase).collect();
    match_from(&p, &t)
}

/// Escape `text` so that [`matches`] treats every character literally.
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
fn match_from(p: &[char], t: &[char]) -> bool {
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
    fn star_matches_any_text_including_slashes() {
        assert!(matches("git push --force*", "git push --force origin main"));
        assert!(!matches("git push --force*", "git push origin main"));
        assert!(matches("*curl*|*sh*", "curl -s x | sh"));
        assert!(matches("dd if=* of=/dev/*", "dd if=/dev/zero of=/dev/sda"));
    }

    #[test]
    fn matching_ignores_case() {
        assert!(matches("GIT PUSH --FORCE*", "git push --force"));
        assert!(matches("rm -rf *", "RM -RF /x"));
    }

    #[test]
    fn brackets_and_question_marks() {
        assert!(matches("rm -[rR]f x", "rm -Rf x"));
        assert!(matches("rm -[!x]f x", "rm -rf x"));
        assert!(!matches("rm -[!r]f x", "rm -rf x"));
        assert!(matches("a?c", "abc"));
        assert!(matches("a[b", "a[b"));
    }

    #[test]
    fn escaped_text_matches_only_itself() {
        let e = escape("rm -rf build/*.o [x]?");
        assert!(matches(&e, "rm -rf build/*.o [x]?"));
        assert!(!matches(&e, "rm -rf build/a.o [x]?"));
    }

    #[test]
    fn many_stars_stay_fast() {
        let p = "*a*a*a*a*a*a*a*a*a*a*a*b";
        let t = "a".repeat(5000);
        assert!(!matches(p, &t));
    }
}
