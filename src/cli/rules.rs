//! `shellgate rules`: the rule catalog as a table, or one rule's docs and examples, both
//! generated from the registry `RULES` so they cannot drift from what actually runs.

use super::{emit, unwritten};

use clap::Args;

use super::{EXIT_INTERNAL, EXIT_USAGE};
use shellgate::render;
use shellgate::rules::{RULES, RuleMeta, find};

#[derive(Args, Debug)]
pub struct RulesArgs {
    /// A rule code (`SG1001`) or name (`recursive-delete-critical-path`); omit to list all rules.
    id: Option<String>,
    /// Print JSON: an array of rules, or one rule object when ID is given.
    #[arg(long)]
    json: bool,
}

fn print_json<T: serde::Serialize + ?Sized>(v: &T) -> i32 {
    match serde_json::to_string_pretty(v) {
        Ok(s) => {
            if let Err(e) = emit(&mut std::io::stdout().lock(), format_args!("{s}\n")) {
                return unwritten(&e, 0);
            }
            0
        }
        Err(e) => {
            eprintln!(
                "shellgate: could not encode the rules as JSON: {e}; please report this as a bug"
            );
            EXIT_INTERNAL
        }
    }
}

pub fn run(args: RulesArgs) -> i32 {
    let Some(id) = &args.id else {
        let metas: Vec<&RuleMeta> = RULES.iter().map(|r| r.meta()).collect();
        if args.json {
            return print_json(&metas);
        }
        if let Err(e) = emit(
            &mut std::io::stdout().lock(),
            format_args!("{}", render::rules_table(&metas)),
        ) {
            return unwritten(&e, 0);
        }
        return 0;
    };
    let Some(rule) = find(id) else {
        // Names are long kebab-case phrases; a fragment of one is the usual mistake.
        let needle = id.to_ascii_lowercase();
        let close: Vec<String> = RULES
            .iter()
            .map(|r| r.meta())
            .filter(|m| !needle.is_empty() && m.name.contains(needle.as_str()))
            .map(|m| format!("{} {}", m.code, m.name))
            .collect();
        let hint = if close.is_empty() {
            String::new()
        } else {
            format!(" (did you mean: {}?)", close.join(", "))
        };
        eprintln!(
            "shellgate: no rule with code or name {id:?}{hint}; run `shellgate rules` to list every rule"
        );
        return EXIT_USAGE;
    };
    if args.json {
        return print_json(rule.meta());
    }
    if let Err(e) = emit(
        &mut std::io::stdout().lock(),
        format_args!("{}", render::rule_docs(rule.meta())),
    ) {
        return unwritten(&e, 0);
    }
    0
}
