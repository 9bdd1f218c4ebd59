//! fnmatch-style globs as Hermes's `approvals.deny` uses them: `*`, `?`, `[...]`/`[!...]`,
//! matched case-insensitively against the whole text (`*` also matches `/`), by the crate's
//! one matcher ([`crate::glob`]) on case-folded text. Python's `fnmatch` is the oracle
//! (tests/glob_oracle.rs).

/// True when `pattern` matches all of `text`, ignoring case (Python's `fnmatch` on
/// lower-cased strings). A malformed bracket (`[` with no `]`) matches a literal `[`.
pub fn matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().flat_map(char::to_lowercase).collect();
    let t: Vec<char> = text.chars().flat_map(char::to_lowercase).collect();
    crate::glob::match_chars(&p, &t)
}

/// Escape `text` so that [`matches`] treats every character literally (the crate's one
/// escape, [`crate::glob::escape`]).
pub use crate::glob::escape;

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
