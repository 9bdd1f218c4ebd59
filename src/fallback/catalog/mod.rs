//! The fallback catalog: every pattern with its Hermes key, severity, regex, check and
//! examples, one file per subject. Scan order is the order of [`GROUPS`] and of the patterns
//! inside each file; hits on the same span keep that order, so the block tier comes first.

use super::FallbackPattern;
use crate::Severity;

const B: Severity = Severity::Block;
const A: Severity = Severity::Approve;

/// One pattern: id, key, severity, regex, description, then an optional `check:` (what the
/// regex cannot decide; [`super::Check::Always`] if absent) and its `hits`/`misses` examples.
macro_rules! pat {
    ($id:expr, $key:expr, $sev:expr, $re:expr, $desc:expr,
     $(check: $check:expr,)? hits: $hits:expr, misses: $misses:expr $(,)?) => {
        $crate::fallback::FallbackPattern {
            id: $id,
            key: $key,
            severity: $sev,
            regex: $re,
            description: $desc,
            check: pat!(@check $($check)?),
            hits: $hits,
            misses: $misses,
        }
    };
    (@check) => {
        $crate::fallback::Check::Always
    };
    (@check $check:expr) => {
        $check
    };
}

mod block;
mod code;
mod destroy;
mod edits;
mod git;
mod lifecycle;
mod pipes;
mod privilege;
mod writes;

/// The pattern files in scan order: the unconditional tier, then the approval tier.
static GROUPS: &[&[FallbackPattern]] = &[
    block::PATTERNS,
    destroy::PATTERNS,
    pipes::PATTERNS,
    writes::PATTERNS,
    lifecycle::PATTERNS,
    edits::PATTERNS,
    code::PATTERNS,
    git::PATTERNS,
    privilege::PATTERNS,
];

/// The whole catalog in scan order, for the engine and for docs/`shellgate rules` to list.
pub fn catalog() -> impl Iterator<Item = &'static FallbackPattern> {
    GROUPS.iter().flat_map(|group| group.iter())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fallback::{hits_of, scan};
    use crate::rules::hermes::HERMES_KEYS;

    fn ids(text: &str) -> Vec<&'static str> {
        scan(text).into_iter().map(|h| h.pattern_id).collect()
    }

    #[test]
    fn every_key_is_a_hermes_key() {
        for p in catalog() {
            assert!(
                HERMES_KEYS.contains(&p.key),
                "{}: unknown key {:?}",
                p.id,
                p.key
            );
        }
    }

    #[test]
    fn pattern_ids_are_unique_and_prefixed() {
        let mut seen = std::collections::HashSet::new();
        for p in catalog() {
            assert!(p.id.starts_with("fb-"), "{}", p.id);
            assert!(seen.insert(p.id), "duplicate id {}", p.id);
            assert!(!p.description.is_empty(), "{}", p.id);
        }
    }

    #[test]
    fn every_pattern_has_positive_and_negative_examples() {
        for p in catalog() {
            assert!(
                !p.hits.is_empty() && !p.misses.is_empty(),
                "{} needs both kinds",
                p.id
            );
        }
    }

    #[test]
    fn examples_match_and_counterexamples_do_not() {
        let mut failures = Vec::new();
        for p in catalog() {
            let id = p.id;
            for text in p.hits {
                if hits_of(text, id).is_empty() {
                    failures.push(format!("{id} should match {text:?}; got {:?}", ids(text)));
                }
            }
            for text in p.misses {
                if !hits_of(text, id).is_empty() {
                    failures.push(format!("{id} should not match {text:?}"));
                }
            }
        }
        assert!(
            failures.is_empty(),
            "{} failures:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }

    #[test]
    fn matches_recursive_delete_of_root_in_any_flag_order() {
        for text in [
            "rm -rf /",
            "rm -fr /",
            "rm -r -f /",
            "rm -f -r /",
            "rm -R /",
            "rm --recursive /",
            "rm / -rf",
            "rm --force --recursive --no-preserve-root /",
        ] {
            let hits = hits_of(text, "fb-rm-root");
            assert_eq!(hits.len(), 1, "{text}");
            assert_eq!(hits[0].severity, Severity::Block);
            assert_eq!(hits[0].key, "recursive delete of root filesystem");
        }
    }

    #[test]
    fn relative_recursive_delete_is_only_the_generic_approve_pattern() {
        let hits = scan("rm -rf ./build");
        assert!(!hits.is_empty());
        assert!(
            hits.iter().all(|h| h.severity == Severity::Approve),
            "{hits:?}"
        );
        assert!(hits.iter().any(|h| h.pattern_id == "fb-rm-recursive"));
    }

    #[test]
    fn reboot_as_an_argument_of_another_program_is_not_a_power_command() {
        for text in [
            "adb reboot",
            "bazel shutdown",
            "fastboot reboot",
            "docker restart x",
        ] {
            assert!(
                scan(text).iter().all(|h| h.severity != Severity::Block),
                "{text}: {:?}",
                ids(text)
            );
        }
        assert_eq!(ids("sudo reboot"), vec!["fb-power-command"]);
    }

    #[test]
    fn dev_null_and_friends_are_not_block_devices() {
        for text in [
            "echo > /dev/null",
            "dd if=x of=/dev/null",
            "cmd 2>/dev/stderr >/dev/stdout",
            "cat </dev/urandom >/dev/tty",
            "x >/dev/fd/3",
            "mkfs.ext4 /dev/zero",
        ] {
            assert!(
                scan(text).is_empty() || scan(text).iter().all(|h| h.severity != Severity::Block),
                "{text}: {:?}",
                ids(text)
            );
            assert!(hits_of(text, "fb-redirect-dev").is_empty(), "{text}");
        }
    }

    #[test]
    fn sql_keywords_are_case_insensitive_and_commands_are_not() {
        assert!(!hits_of("DeLeTe FrOm users", "fb-sql-delete-no-where").is_empty());
        assert!(!hits_of("drop table x", "fb-sql-drop").is_empty());
        assert!(hits_of("RM -RF /", "fb-rm-root").is_empty());
        assert!(hits_of("REBOOT", "fb-power-command").is_empty());
    }

    #[test]
    fn sql_delete_with_where_in_the_same_statement_is_not_flagged() {
        assert!(
            hits_of(
                "DELETE FROM t WHERE id=1; SELECT 1",
                "fb-sql-delete-no-where"
            )
            .is_empty()
        );
        assert_eq!(
            hits_of(
                "DELETE FROM a; DELETE FROM b WHERE x",
                "fb-sql-delete-no-where"
            )
            .len(),
            1
        );
        assert_eq!(
            hits_of(
                "DELETE FROM a WHERE x; DELETE FROM b",
                "fb-sql-delete-no-where"
            )
            .len(),
            1
        );
        assert!(hits_of("DELETE FROM t nowhere", "fb-sql-delete-no-where").len() == 1);
    }

    #[test]
    fn fork_bomb_requires_the_same_name_three_times() {
        let hits = hits_of("x; bomb(){ bomb|bomb& };bomb", "fb-fork-bomb");
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].severity, Severity::Block);
        assert!(hits_of("f(){ f|g& }", "fb-fork-bomb").is_empty());
    }

    #[test]
    fn span_is_the_command_not_the_boundary_character() {
        let text = "echo a; sudo rm -rf / && echo b";
        let hit = &hits_of(text, "fb-rm-root")[0];
        assert_eq!(&text[hit.span.start..hit.span.end], "rm -rf /");
        let text = "x && reboot now";
        let hit = &hits_of(text, "fb-power-command")[0];
        assert_eq!(&text[hit.span.start..hit.span.end], "reboot");
    }
}
