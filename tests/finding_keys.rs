//! Every rule: each Hermes key a finding carries is one its rule declares, and every finding
//! message says what the command does (no empty messages).

use shellgate::rules::RULES;
use shellgate::rules::analysis::FallbackPattern;
use shellgate::rules::hermes::HERMES_KEYS;
use shellgate::{Context, analyze};

#[test]
fn findings_carry_only_declared_hermes_keys() {
    let ctx = Context::fixture();
    let mut problems = Vec::new();
    for r in RULES {
        let m = r.meta();
        for ex in m.fail {
            for f in analyze(ex, &ctx)
                .findings
                .iter()
                .filter(|f| f.rule == m.code)
            {
                for k in &f.hermes {
                    // A fallback hit carries the key of the Hermes pattern that matched.
                    let fallback = m.code == FallbackPattern::META.code && HERMES_KEYS.contains(k);
                    if !m.hermes.contains(k) && !fallback {
                        problems.push(format!("{}: undeclared Hermes key {k:?} for {ex}", m.code));
                    }
                }
                if f.message.trim().is_empty() {
                    problems.push(format!("{}: empty message for {ex}", m.code));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every Hermes key a rule declares is one that some finding of its `fail` examples carries:
/// a declared key no example reaches is either dead or untested. (Rules with no `fail`
/// example, which `tests/catalog.rs` names, have nothing to carry a key.)
#[test]
fn every_declared_hermes_key_is_carried_by_a_fail_example() {
    let ctx = Context::fixture();
    let mut unreached = Vec::new();
    for r in RULES {
        let m = r.meta();
        if m.fail.is_empty() {
            continue;
        }
        let carried: Vec<&str> = m
            .fail
            .iter()
            .flat_map(|ex| analyze(ex, &ctx).findings)
            .filter(|f| f.rule == m.code)
            .flat_map(|f| f.hermes)
            .collect();
        for k in m.hermes {
            if !carried.contains(k) {
                unreached.push(format!("{} {}: {k:?}", m.code, m.name));
            }
        }
    }
    assert!(
        unreached.is_empty(),
        "declared Hermes keys no fail example carries:\n{}",
        unreached.join("\n")
    );
}
