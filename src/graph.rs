//! The dataflow graph: which bytes reach which command, file, or code-executing sink, built
//! from the lowered model (pipes, redirects, heredocs, substitutions, files run later).

use std::collections::{BTreeMap, VecDeque};

use petgraph::graph::{Graph, NodeIndex};
use petgraph::visit::EdgeRef;
use serde::Serialize;

use crate::model::{CmdId, Command, RedirectOp, Script, SubstKind};

/// A node of the dataflow graph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "node", rename_all = "snake_case")]
pub enum FlowNode {
    /// A command that neither fetches from the network, decodes, nor executes its input.
    Command { cmd: CmdId },
    /// A command that reads content from the network (`curl`, `wget`, `nc`, ...).
    Network { cmd: CmdId },
    /// A command that decodes or transforms bytes into something else (`base64 -d`, `xxd -r`).
    Decoder { cmd: CmdId },
    /// A command that executes what flows into it as code (a shell, `eval`, an interpreter).
    Sink { cmd: CmdId, kind: SinkKind },
    /// A file path, resolved against the working directory when possible.
    File { path: String },
    /// Literal text written in the command (a heredoc or here-string body).
    Payload { text: String },
}

/// How a sink runs code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SinkKind {
    /// A shell (`sh`, `bash`, ...).
    Shell,
    /// A language interpreter (`python3`, `node`, `perl`, ...).
    Interpreter,
    /// `eval`.
    Eval,
    /// `source` / `.`.
    Source,
}

/// An edge: how bytes move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FlowEdge {
    /// stdout of one pipeline stage to stdin of the next.
    Pipe,
    /// A command writes a file through `>`/`>|`/`&>`.
    RedirectWrite,
    /// A command appends to a file through `>>`/`&>>`.
    RedirectAppend,
    /// A command reads a file through `<`.
    RedirectRead,
    /// A command writes a file named in its arguments (`tee f`, `curl -o f`, `wget -O f`).
    WritesFile,
    /// Heredoc or here-string text on a command's stdin.
    Heredoc,
    /// A process substitution's output is read by the command (`bash <(curl ..)`).
    ProcessSubst,
    /// A command substitution's output becomes part of an argument (`sh -c "$(curl ..)"`).
    CommandSubst,
    /// A file written earlier in the script is executed (`curl -o f && bash f`, `./f`).
    WrittenThenExecuted,
}

pub type FlowGraph = Graph<FlowNode, FlowEdge>;

/// The graph with an index from command ids to nodes.
#[derive(Debug, Clone, Default)]
pub struct Flow {
    pub graph: FlowGraph,
    pub cmd_nodes: BTreeMap<CmdId, NodeIndex>,
}

/// Programs that fetch content from the network.
pub const NETWORK_PROGRAMS: &[&str] = &[
    "curl",
    "wget",
    "fetch",
    "aria2c",
    "http",
    "https",
    "httpie",
    "xh",
    "nc",
    "ncat",
    "netcat",
    "socat",
    "lwp-request",
    "GET",
    "lynx",
    "links",
    "w3m",
    "ftp",
    "tftp",
    "scp",
    "rsync",
    "gh",
    "s3cmd",
    "aws",
    "gsutil",
    "git-remote",
];

/// Interpreters whose stdin (or `-`) is code: the rows of the one interpreter table.
pub fn is_interpreter(name: &str) -> bool {
    crate::model::interp::table::lookup(name).is_some()
}

fn is_network(cmd: &Command) -> bool {
    let Some(n) = cmd.name.as_deref() else {
        return false;
    };
    match n {
        "aws" => {
            cmd.args()
                .first()
                .and_then(|w| w.lit())
                .is_some_and(|a| a == "s3")
                && cmd.arg_texts().iter().any(|a| a == "cp" || a == "sync")
        }
        "gh" => cmd.arg_texts().first().is_some_and(|a| a == "api"),
        "scp" | "rsync" | "gsutil" | "s3cmd" | "git-remote" => false,
        _ => NETWORK_PROGRAMS.contains(&n),
    }
}

/// Whether a command executes what flows into it, and through which inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SinkInputs {
    pub kind: SinkKind,
    /// stdin is code (`sh`, `bash -s`, `python3 -`).
    pub stdin: bool,
    /// argument text is code (`sh -c "$(..)"`, `eval "$(..)"`).
    pub args: bool,
    /// a file argument is code (`bash <(..)`, `source <(..)`, `bash f`).
    pub file: bool,
}

pub fn sink_inputs(cmd: &Command) -> Option<SinkInputs> {
    let n = cmd.name.as_deref()?;
    if crate::model::is_shell(n) {
        let sh = crate::model::opts::shell::shell_args(cmd.args());
        let operands = cmd.args().len().saturating_sub(sh.rest);
        // `sh -` ends the options and reads stdin.
        let dash = sh
            .rest
            .checked_sub(1)
            .and_then(|i| cmd.args().get(i))
            .is_some_and(|w| w.lit().as_deref() == Some("-"));
        return Some(SinkInputs {
            kind: SinkKind::Shell,
            stdin: !sh.code_string && (operands == 0 || sh.reads_stdin || dash),
            args: sh.code_string,
            file: !sh.code_string,
        });
    }
    match n {
        // `at`/`batch` run what arrives on stdin as shell code, later.
        // `-f FILE` reads a file; `-l`, `-r`/`-d`, `-c` list, remove or show jobs.
        "at" | "batch" => Some(SinkInputs {
            kind: SinkKind::Shell,
            stdin: !["f", "l", "r", "d", "c"]
                .iter()
                .any(|c| cmd.opts.named(&[c]).next().is_some()),
            args: false,
            file: false,
        }),
        "eval" => Some(SinkInputs {
            kind: SinkKind::Eval,
            stdin: false,
            args: true,
            file: false,
        }),
        "source" | "." => Some(SinkInputs {
            kind: SinkKind::Source,
            stdin: false,
            args: false,
            file: true,
        }),
        _ if is_interpreter(n) => {
            let it = crate::model::interp::table::lookup(n)?;
            let words: Vec<Option<String>> = cmd.args().iter().map(|w| w.lit()).collect();
            let src = crate::model::interp::table::code_source(it, &words);
            use crate::model::interp::table::CodeSource;
            Some(SinkInputs {
                kind: SinkKind::Interpreter,
                // `python3 /dev/stdin` is a script file that is stdin.
                stdin: src == CodeSource::Stdin
                    || (src == CodeSource::File
                        && words.iter().flatten().any(|w| {
                            matches!(w.as_str(), "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0")
                        })),
                args: src == CodeSource::Inline,
                file: src == CodeSource::File,
            })
        }
        _ => None,
    }
}

/// Arguments naming files a command writes (`tee f`, `curl -o f`, `wget -O f`), read with
/// each program's grammar.
pub(crate) fn written_args(cmd: &Command) -> Vec<String> {
    let Some(n) = cmd.name.as_deref() else {
        return Vec::new();
    };
    let args = cmd.args();
    let o = &cmd.opts;
    let values = |names: &[&str]| -> Vec<String> {
        o.named(names)
            .filter_map(|x| crate::model::opts::value_word(args, x))
            .map(|w| w.text_with("\u{fffd}"))
            // `-o -` writes to stdout.
            .filter(|v| v != "-")
            .collect()
    };
    let url_name = || {
        o.operand_words(args)
            .iter()
            .rev()
            .map(|w| w.text_with("\u{fffd}"))
            .find(|x| x.contains("://"))
            .and_then(|url| {
                url.trim_end_matches('/')
                    .rsplit('/')
                    .next()
                    .filter(|name| !name.contains(':'))
                    .map(str::to_string)
            })
    };
    match n {
        "tee" => o
            .operand_words(args)
            .iter()
            .map(|w| w.text_with("\u{fffd}"))
            .collect(),
        "curl" => {
            let mut out = values(&["o", "output"]);
            // `curl -O URL` saves under the URL's last path segment.
            if o.flag('O', "remote-name") {
                out.extend(url_name());
            }
            out
        }
        "wget" => {
            let out = values(&["O", "output-document"]);
            match out.is_empty() {
                true => url_name().into_iter().collect(),
                false => out,
            }
        }
        "aria2c" => values(&["o", "out"]),
        "fetch" | "http" | "xh" => values(&["o", "output"]),
        _ => Vec::new(),
    }
}

/// Files a command executes as code (`bash f`, `source f`, `./f`, `python3 f.py`).
fn executed_files(cmd: &Command) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(p) = cmd.argv.first().and_then(|w| w.lit())
        && p.contains('/')
    {
        out.push(p);
    }
    let Some(s) = sink_inputs(cmd) else {
        return out;
    };
    if !s.file {
        return out;
    }
    let args = cmd.args();
    let script = match cmd.name.as_deref() {
        Some(n) if crate::model::is_shell(n) => {
            Some(crate::model::opts::shell::shell_args(args).rest)
        }
        Some("source" | ".") => Some(0),
        Some(n) => crate::model::interp::table::lookup(n).and_then(|it| {
            let words: Vec<Option<String>> = args.iter().map(|w| w.lit()).collect();
            crate::model::interp::table::script_operand(it, &words)
        }),
        None => None,
    };
    if let Some(f) = script.and_then(|i| args.get(i)) {
        out.push(f.text_with("\u{fffd}"));
    }
    out
}

fn resolve(path: &str, cmd: &Command) -> String {
    crate::model::paths::resolve(path, cmd.cwd.as_deref()).unwrap_or_else(|| path.to_string())
}

/// Build the graph from the lowered script.
pub fn build(script: &Script) -> Flow {
    let mut g = FlowGraph::new();
    let mut cmd_nodes = BTreeMap::new();
    let mut files: BTreeMap<String, NodeIndex> = BTreeMap::new();
    for c in &script.commands {
        let node = if let Some(s) = sink_inputs(c) {
            FlowNode::Sink {
                cmd: c.id,
                kind: s.kind,
            }
        } else if is_network(c) {
            FlowNode::Network { cmd: c.id }
        } else if crate::model::is_decoder(c) {
            FlowNode::Decoder { cmd: c.id }
        } else {
            FlowNode::Command { cmd: c.id }
        };
        cmd_nodes.insert(c.id, g.add_node(node));
    }
    let mut file_node = |g: &mut FlowGraph, path: String| -> NodeIndex {
        *files
            .entry(path.clone())
            .or_insert_with(|| g.add_node(FlowNode::File { path }))
    };
    for p in &script.pipelines {
        for w in p.stages.windows(2) {
            for &a in &w[0].tails {
                for &b in &w[1].heads {
                    if let (Some(&x), Some(&y)) = (cmd_nodes.get(&a), cmd_nodes.get(&b)) {
                        g.add_edge(x, y, FlowEdge::Pipe);
                    }
                }
            }
        }
    }
    for c in &script.commands {
        let Some(&me) = cmd_nodes.get(&c.id) else {
            continue;
        };
        for r in &c.redirects {
            match r.op {
                RedirectOp::Heredoc | RedirectOp::HereString => {
                    let text = r
                        .heredoc
                        .as_ref()
                        .map(|h| h.body.clone().unwrap_or_else(|| h.raw.clone()))
                        .or_else(|| r.target.as_ref().map(|t| t.shown()))
                        .unwrap_or_default();
                    let p = g.add_node(FlowNode::Payload { text });
                    g.add_edge(p, me, FlowEdge::Heredoc);
                }
                op => {
                    let Some(t) = r.target.as_ref().and_then(|t| t.lit()) else {
                        continue;
                    };
                    if op == RedirectOp::DupFd {
                        continue;
                    }
                    let f = file_node(&mut g, resolve(&t, c));
                    match op {
                        RedirectOp::Read => {
                            g.add_edge(f, me, FlowEdge::RedirectRead);
                        }
                        RedirectOp::Append | RedirectOp::AppendAll => {
                            g.add_edge(me, f, FlowEdge::RedirectAppend);
                        }
                        RedirectOp::ReadWrite => {
                            g.add_edge(me, f, FlowEdge::RedirectWrite);
                            g.add_edge(f, me, FlowEdge::RedirectRead);
                        }
                        _ => {
                            g.add_edge(me, f, FlowEdge::RedirectWrite);
                        }
                    }
                }
            }
        }
        for a in written_args(c) {
            let f = file_node(&mut g, resolve(&a, c));
            g.add_edge(me, f, FlowEdge::WritesFile);
        }
        for w in c.argv.iter().chain(c.assignments.iter().map(|a| &a.value)) {
            for s in &w.substitutions {
                for &p in &s.producers {
                    let Some(&pn) = cmd_nodes.get(&p) else {
                        continue;
                    };
                    match s.kind {
                        SubstKind::Command => g.add_edge(pn, me, FlowEdge::CommandSubst),
                        SubstKind::ProcessIn => g.add_edge(pn, me, FlowEdge::ProcessSubst),
                        SubstKind::ProcessOut => g.add_edge(me, pn, FlowEdge::ProcessSubst),
                    };
                }
            }
        }
        for r in &c.redirects {
            // `$(..)` inside a heredoc body becomes part of the command's input.
            for s in r.heredoc.iter().flat_map(|h| &h.substitutions) {
                for &p in &s.producers {
                    if let Some(&pn) = cmd_nodes.get(&p) {
                        g.add_edge(pn, me, FlowEdge::CommandSubst);
                    }
                }
            }
            if let Some(t) = &r.target {
                for s in &t.substitutions {
                    for &p in &s.producers {
                        let Some(&pn) = cmd_nodes.get(&p) else {
                            continue;
                        };
                        match s.kind {
                            SubstKind::ProcessOut => g.add_edge(me, pn, FlowEdge::Pipe),
                            _ => g.add_edge(pn, me, FlowEdge::ProcessSubst),
                        };
                    }
                }
            }
        }
    }
    // Files written earlier and executed later.
    for c in &script.commands {
        let Some(&me) = cmd_nodes.get(&c.id) else {
            continue;
        };
        for f in executed_files(c) {
            let path = resolve(&f, c);
            if let Some(&fnode) = files.get(&path) {
                let written_before = g
                    .edges_directed(fnode, petgraph::Direction::Incoming)
                    .any(|e| matches!(g[e.source()], FlowNode::Command { cmd } | FlowNode::Network { cmd } | FlowNode::Decoder { cmd } | FlowNode::Sink { cmd, .. } if cmd < c.id));
                if written_before {
                    g.add_edge(fnode, me, FlowEdge::WrittenThenExecuted);
                }
            }
        }
    }
    Flow {
        graph: g,
        cmd_nodes,
    }
}

/// A path through the graph, for evidence.
pub type FlowPath = Vec<(NodeIndex, Option<FlowEdge>)>;

impl Flow {
    pub fn node_cmd(&self, n: NodeIndex) -> Option<CmdId> {
        match self.graph[n] {
            FlowNode::Command { cmd }
            | FlowNode::Network { cmd }
            | FlowNode::Decoder { cmd }
            | FlowNode::Sink { cmd, .. } => Some(cmd),
            _ => None,
        }
    }

    /// Paths from nodes matching `from` to a sink that executes what arrives, with the
    /// edge that delivers it matching the sink's code inputs.
    pub fn paths_to_sinks(
        &self,
        script: &Script,
        from: impl Fn(&FlowNode) -> bool,
    ) -> Vec<FlowPath> {
        let mut out = Vec::new();
        for start in self.graph.node_indices().filter(|&n| from(&self.graph[n])) {
            // BFS with parent links; bounded by the graph size.
            let mut parent: BTreeMap<NodeIndex, (NodeIndex, FlowEdge)> = BTreeMap::new();
            let mut seen = std::collections::BTreeSet::new();
            let mut q = VecDeque::new();
            q.push_back(start);
            seen.insert(start);
            while let Some(n) = q.pop_front() {
                for e in self.graph.edges(n) {
                    let t = e.target();
                    let edge = *e.weight();
                    // A file written earlier and then run by path is executed whatever
                    // program it is; otherwise the sink must take code on that input.
                    let delivers = match self.graph[t] {
                        FlowNode::Sink { cmd, .. } => script
                            .command(cmd)
                            .and_then(sink_inputs)
                            .is_some_and(|s| match edge {
                                FlowEdge::Pipe | FlowEdge::RedirectRead | FlowEdge::Heredoc => {
                                    s.stdin
                                }
                                FlowEdge::CommandSubst => s.args || s.file,
                                FlowEdge::ProcessSubst | FlowEdge::WrittenThenExecuted => {
                                    s.file || s.args
                                }
                                _ => false,
                            }),
                        _ => edge == FlowEdge::WrittenThenExecuted,
                    };
                    {
                        if delivers && t != start {
                            let mut path = vec![(t, Some(edge))];
                            let mut cur = n;
                            while let Some(&(p, pe)) = parent.get(&cur) {
                                path.push((cur, Some(pe)));
                                cur = p;
                            }
                            path.push((cur, None));
                            path.reverse();
                            // Shift edges so each entry carries the edge that leaves it.
                            let nodes: Vec<NodeIndex> = path.iter().map(|(x, _)| *x).collect();
                            let edges: Vec<Option<FlowEdge>> = path
                                .iter()
                                .skip(1)
                                .map(|(_, e)| *e)
                                .chain(std::iter::once(None))
                                .collect();
                            out.push(nodes.into_iter().zip(edges).collect());
                            continue;
                        }
                    }
                    if seen.insert(t) {
                        parent.insert(t, (n, edge));
                        q.push_back(t);
                    }
                }
            }
        }
        out
    }

    /// Describe a path like `curl →pipe→ tee →pipe→ sh`.
    pub fn describe(&self, script: &Script, path: &FlowPath) -> String {
        let mut s = String::new();
        for (n, e) in path {
            s.push_str(&self.label(script, *n));
            if let Some(e) = e {
                s.push_str(match e {
                    FlowEdge::Pipe => " →pipe→ ",
                    FlowEdge::RedirectWrite => " →writes→ ",
                    FlowEdge::RedirectAppend => " →appends→ ",
                    FlowEdge::RedirectRead => " →read by→ ",
                    FlowEdge::WritesFile => " →saves→ ",
                    FlowEdge::Heredoc => " →heredoc→ ",
                    FlowEdge::ProcessSubst => " →process substitution→ ",
                    FlowEdge::CommandSubst => " →command substitution→ ",
                    FlowEdge::WrittenThenExecuted => " →executed by→ ",
                });
            }
        }
        s
    }

    pub fn label(&self, script: &Script, n: NodeIndex) -> String {
        match &self.graph[n] {
            FlowNode::File { path } => path.clone(),
            FlowNode::Payload { text } => {
                format!("{:?}", text.chars().take(30).collect::<String>())
            }
            other => {
                let id = match other {
                    FlowNode::Command { cmd }
                    | FlowNode::Network { cmd }
                    | FlowNode::Decoder { cmd }
                    | FlowNode::Sink { cmd, .. } => *cmd,
                    _ => 0,
                };
                script
                    .command(id)
                    .map(|c| {
                        c.name.clone().unwrap_or_else(|| {
                            c.argv.first().map(|w| w.raw.clone()).unwrap_or_default()
                        })
                    })
                    .unwrap_or_default()
            }
        }
    }

    /// DOT rendering for `explain --graph`.
    pub fn dot(&self, script: &Script) -> String {
        let mut s = String::from("digraph shellgate {\n  rankdir=LR;\n");
        for n in self.graph.node_indices() {
            let shape = match self.graph[n] {
                FlowNode::File { .. } => "note",
                FlowNode::Payload { .. } => "plaintext",
                FlowNode::Network { .. } => "invhouse",
                FlowNode::Sink { .. } => "doubleoctagon",
                FlowNode::Decoder { .. } => "hexagon",
                FlowNode::Command { .. } => "box",
            };
            let label = self
                .label(script, n)
                .replace('\\', "\\\\")
                .replace('"', "\\\"");
            s.push_str(&format!(
                "  n{} [shape={shape}, label=\"{label}\"];\n",
                n.index()
            ));
        }
        for e in self.graph.edge_references() {
            let l = format!("{:?}", e.weight()).to_lowercase();
            s.push_str(&format!(
                "  n{} -> n{} [label=\"{l}\"];\n",
                e.source().index(),
                e.target().index()
            ));
        }
        s.push_str("}\n");
        s
    }
}
