//! `shellgate explain`: the decision, every finding with its span underlined, and the
//! evidence chain (decoded words, expanded variables, peeled wrappers, re-parsed nested
//! code, graph paths, normalisation) that led there. Builds a `report::Report` (in
//! [`shellgate::report`]); rendering is in [`shellgate::render`], and `--json` serialises the same
//! report so both views agree.

use super::{emit, unwritten};

use clap::Args;

use super::{EXIT_INTERNAL, EXIT_USAGE, context_from, decision_exit, read_command};
use shellgate::Analysis;
use shellgate::render::{self, Style};
use shellgate::report::report;

/// The `--color` choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and `NO_COLOR` is unset or empty.
    Auto,
    /// Always colour, even into pipes and when `NO_COLOR` is set.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Resolve `--color` against the environment. An explicit `always` wins over `NO_COLOR`
    /// because the user asked for it on this very command line.
    pub fn style(self) -> Style {
        use std::io::IsTerminal;
        let color = match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                !no_color && std::io::stdout().is_terminal()
            }
        };
        Style::new(color)
    }
}

#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The command to explain, or `-` to read it from stdin.
    command: String,
    /// Print the report as JSON (the same content as the text report).
    #[arg(long)]
    json: bool,
    /// Working directory the command will run in (default: the current directory).
    #[arg(long)]
    cwd: Option<String>,
    /// Home directory of the user running it (default: $HOME).
    #[arg(long)]
    home: Option<String>,
    /// Colour the text report: auto (when stdout is a terminal and NO_COLOR is unset),
    /// always, or never.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,
    /// Debug view: print the tree-sitter syntax tree of the (normalised) command.
    #[arg(long)]
    cst: bool,
    /// Debug view: print the lowered commands (argv, wrappers, origin, cwd, redirects).
    #[arg(long)]
    model: bool,
    /// Debug view: print the dataflow graph in Graphviz DOT (pipe it to `dot -Tsvg`).
    #[arg(long)]
    graph: bool,
    #[command(flatten)]
    policy: super::policy_args::PolicyArgs,
}

/// What checkpoints say about the command: what one would hold if it were let through,
/// and the checkpoints already taken of it here (`checkpoint 42: undo with ...`). The state
/// database is only read, and only when it exists.
fn checkpoint_lines(
    req: &shellgate::policy::Request,
    cfg: &shellgate::policy::LoadedConfig,
    v: &shellgate::policy::Verdict,
    no_config: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    if no_config {
        return out;
    }
    if v.decision != shellgate::Decision::Deny
        && let Some(n) =
            shellgate::policy::checkpoint::would_take(req, cfg, &v.analysis, &v.findings)
    {
        out.push(format!("undo: if it is let through, {}", n.text));
    }
    if cfg.paths.state_db.as_ref().is_some_and(|p| p.exists()) {
        let mut store = shellgate::policy::open_store(cfg);
        if let Ok(all) = store.checkpoints(None) {
            for c in super::undo::of_command(&all, &req.command, req.context.cwd.as_deref()) {
                out.push(format!(
                    "checkpoint {}: undo with `shellgate undo {}` (taken {} UTC: {})",
                    c.id,
                    c.id,
                    super::ledger::fmt_time(c.time),
                    c.summary
                ));
            }
        }
    }
    out
}

/// The tree-sitter tree of the normalised text, or why there is none.
fn cst_text(a: &Analysis) -> String {
    match shellgate::syntax::parse(&a.normalized.text) {
        Ok(t) => t.sexp(t.root, &a.normalized.text),
        Err(e) => format!("(no syntax tree: {e})\n"),
    }
}

pub fn run(args: ExplainArgs) -> i32 {
    let ctx = context_from(args.cwd.as_deref(), args.home.as_deref());
    let cmd = match read_command(&args.command) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("shellgate: {e}");
            // Same contract as `check --json`: unreadable input is answered deny, never allow.
            if args.json {
                let v = serde_json::json!({"decision": "deny", "findings": [], "error": e});
                println!("{v}");
            }
            return EXIT_USAGE;
        }
    };
    // The policy decides; the report explains the analysis behind it.
    let cfg = args.policy.load(ctx.cwd.as_deref());
    let mut store: Box<dyn shellgate::policy::Store> = if args.policy.session.is_some() {
        args.policy.store(&cfg)
    } else {
        Box::new(shellgate::policy::NullStore)
    };
    let req = args.policy.request(&cmd, ctx.clone());
    let v = shellgate::policy::evaluate(&req, &cfg, &mut shellgate::policy::NoLedger(&mut *store));
    super::policy_args::report_warnings(&v);
    let a = &v.analysis;
    let mut r = report(&v, ctx.cwd.as_deref());
    let undo = checkpoint_lines(&req, &cfg, &v, args.policy.no_config);
    let policy_json = serde_json::json!({
        "mode": v.mode.as_str(),
        "decided_by": v.decided_by,
        "reason": v.reason,
        "checkpoint": undo,
    });
    let mut out = std::io::stdout().lock();
    if args.json {
        if args.cst {
            r.cst = Some(cst_text(a));
        }
        if args.model {
            r.model = Some(a.script.clone());
        }
        if args.graph {
            r.graph = Some(a.flow.dot(&a.script));
        }
        let encoded = serde_json::to_value(&r).and_then(|mut j| {
            if let Some(o) = j.as_object_mut() {
                o.insert("policy".into(), policy_json);
            }
            serde_json::to_string_pretty(&j)
        });
        match encoded {
            Ok(s) => {
                if let Err(e) = emit(&mut out, format_args!("{s}\n")) {
                    return unwritten(&e, decision_exit(v.decision));
                }
            }
            Err(e) => {
                eprintln!(
                    "shellgate: could not encode the report as JSON: {e}; please report this as a bug"
                );
                return EXIT_INTERNAL;
            }
        }
        return decision_exit(v.decision);
    }
    let views = [args.cst, args.model, args.graph]
        .iter()
        .filter(|v| **v)
        .count();
    if views == 0 {
        let style = args.color.style();
        if let Err(e) = emit(&mut out, format_args!("{}", render::explain(&r, &style))) {
            return unwritten(&e, decision_exit(v.decision));
        }
        if let Err(e) = emit(&mut out, format_args!("{}", render::policy_line(&v))) {
            return unwritten(&e, decision_exit(v.decision));
        }
        for (i, line) in undo.iter().enumerate() {
            let gap = if i == 0 { "\n" } else { "" };
            if let Err(e) = emit(&mut out, format_args!("{gap}{}\n", render::display(line))) {
                return unwritten(&e, decision_exit(v.decision));
            }
        }
        return decision_exit(v.decision);
    }
    // Debug views replace the report so a single view can be piped (`--graph | dot`); with
    // several, each gets a header.
    let mut section = |title: &str, body: String| -> std::io::Result<()> {
        if views > 1 {
            emit(&mut out, format_args!("== {title} ==\n"))?;
        }
        emit(&mut out, format_args!("{body}"))
    };
    let written = (|| {
        if args.cst {
            section("cst", cst_text(a))?;
        }
        if args.model {
            section("model", a.script.to_string())?;
        }
        if args.graph {
            section("graph", a.flow.dot(&a.script))?;
        }
        Ok(())
    })();
    if let Err(e) = written {
        return unwritten(&e, decision_exit(v.decision));
    }
    decision_exit(v.decision)
}
