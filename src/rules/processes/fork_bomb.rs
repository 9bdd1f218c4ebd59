//! SG1101: a function that pipes into or backgrounds a call to itself (a fork bomb).

use crate::declare_rule;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Blocks fork bombs of any name: a function whose body calls a function already running
    /// (itself, or one of its callers) inside a pipeline or in the background, so every call
    /// spawns at least two more. `:(){ :|:& };:`, `bomb(){ bomb|bomb& };bomb` and mutually
    /// recursive pairs all match; the names do not matter, the call structure does.
    ///
    /// ## Why is this bad?
    /// Process creation grows exponentially until the machine stops responding and must be
    /// power-cycled.
    ///
    /// ## Example
    /// ```sh
    /// :(){ :|:& };:              # block
    /// f(){ echo hi; }; f | cat  # fine: f does not call itself
    /// ```
    ///
    /// ## Known limitations
    /// Fork bombs in other languages (`perl -e 'fork while fork'`) are judged by the
    /// interpreter rules, not this one. A function that recurses only sequentially
    /// (`f(){ f; }`) is a stack overflow, not a fork bomb, and is not flagged.
    pub struct ForkBomb;
    code: "SG1101",
    name: "fork-bomb",
    severity: Block,
    category: Processes,
    hermes: ["fork bomb"],
    programs: [],
    summary: "A function that recursively spawns copies of itself (fork bomb)",
    pass: ["f(){ echo hi; }; f | cat", "f(){ f; }", "echo ':(){ :|:& };:'"],
    fail: [":(){ :|:& };:", "bomb(){ bomb|bomb& };bomb", "a(){ b|b& }; b(){ a|a& }; a", ": () { : | : & } ; :", "bash -c 'x(){ x|x & }; x'"],
}

impl Rule for ForkBomb {
    fn check_script(&self, cx: &Cx, out: &mut Vec<Finding>) {
        let mut reported = std::collections::BTreeSet::new();
        for c in &cx.script.commands {
            if !c.recursive_call || !(c.background || c.pipe.is_some()) {
                continue;
            }
            let name = c.name.clone().unwrap_or_default();
            if !reported.insert(name.clone()) {
                continue;
            }
            let how = if c.pipe.is_some() && c.background {
                "piped and in the background"
            } else if c.pipe.is_some() {
                "in a pipeline"
            } else {
                "in the background"
            };
            let chain = c.functions.join(" → ");
            out.push(
                Finding::on(
                    &Self::META,
                    c,
                    format!("function `{name}` calls itself {how}: each call spawns more copies (fork bomb)"),
                )
                .with_evidence(format!("call chain: {chain} → {name}")),
            );
        }
    }
}
