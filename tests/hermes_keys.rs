//! Every Hermes Agent approval key (HERMES_KEYS.md, v0.19.0) is covered by some rule's
//! metadata, so a Hermes user's allowlist and deny entries keep their meaning.

use std::collections::BTreeSet;

use shellgate::rules::RULES;
use shellgate::rules::hermes::HERMES_KEYS;

/// Hermes keys shellgate deliberately does not reproduce, with the reason.
const NOT_APPLICABLE: &[(&str, &str)] = &[
    (
        "shell command via -c/-lc flag",
        "Hermes asks for every `bash -c`; shellgate parses the -c code and judges what it does (`sh -c 'echo hi'` is allowed)",
    ),
    (
        "shell execution via heredoc",
        "Hermes asks for every heredoc into a shell; shellgate parses the heredoc body as bash and judges it",
    ),
];

#[test]
fn every_hermes_key_is_covered_by_a_rule_or_marked_not_applicable() {
    let declared: BTreeSet<&str> = RULES
        .iter()
        .flat_map(|r| r.meta().hermes.iter().copied())
        .collect();
    let mut missing = Vec::new();
    for key in HERMES_KEYS {
        if NOT_APPLICABLE.iter().any(|(k, _)| k == key) {
            continue;
        }
        let covered = if let Some(prefix) = key.strip_suffix("<tool> <option>") {
            declared.iter().any(|d| d.starts_with(prefix))
        } else {
            declared.contains(key)
        };
        if !covered {
            missing.push(*key);
        }
    }
    assert!(
        missing.is_empty(),
        "Hermes keys no rule declares:\n{}",
        missing.join("\n")
    );
}

#[test]
fn rules_declare_only_real_hermes_keys() {
    for r in RULES {
        for k in r.meta().hermes {
            let known =
                HERMES_KEYS.contains(k) || k.starts_with("arbitrary program execution via ");
            assert!(known, "{} declares unknown Hermes key {k:?}", r.meta().code);
        }
    }
}
