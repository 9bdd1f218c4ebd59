//! Remote-code rules: code that shellgate cannot see, because it arrives from the network,
//! is decoded at run time, is built from run-time strings, or runs through another
//! program's exec hook; reverse shells; and secrets flowing to a network client.

pub mod decoded_content_executed;
pub mod dynamic_program_name;
pub mod exec_hook;
pub mod generators;
pub mod remote_content_executed;
pub mod reverse_shell;
pub mod runtime_code_string;
pub mod secret_exfiltration;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;

use crate::graph::{Flow, FlowEdge, FlowNode, FlowPath, sink_inputs};
use crate::model::{Command, Script};

/// Whether `edge` into the command `cmd` delivers bytes that the command runs as code.
pub fn delivers_code(script: &Script, cmd: &Command, edge: FlowEdge) -> bool {
    let _ = script;
    // `python3 -mjson.tool` runs a module; its stdin is data (the graph misses the
    // attached form of `-m`). Read by the grammar: `-m` alone, attached or in a bundle.
    let module =
        crate::graph::is_interpreter(cmd.name.as_deref().unwrap_or("")) && cmd.opts.short('m');
    if module {
        return false;
    }
    sink_inputs(cmd).is_some_and(|s| match edge {
        FlowEdge::Pipe | FlowEdge::RedirectRead | FlowEdge::Heredoc => s.stdin,
        FlowEdge::CommandSubst => s.args || s.file,
        FlowEdge::ProcessSubst | FlowEdge::WrittenThenExecuted => s.file || s.args,
        _ => false,
    })
}

/// Breadth-first paths from `start` to every node where `hit(edge, target)` holds. Each
/// path entry carries the edge that leaves it, as [`Flow::describe`] expects. Paths stop at
/// a hit; the search is bounded by the graph size.
pub fn paths_from(
    flow: &Flow,
    start: NodeIndex,
    hit: &dyn Fn(FlowEdge, NodeIndex) -> bool,
) -> Vec<FlowPath> {
    let g = &flow.graph;
    let mut out = Vec::new();
    let mut parent: BTreeMap<NodeIndex, (NodeIndex, FlowEdge)> = BTreeMap::new();
    let mut seen = BTreeSet::new();
    let mut q = VecDeque::new();
    seen.insert(start);
    q.push_back(start);
    while let Some(n) = q.pop_front() {
        for e in g.edges(n) {
            let t = e.target();
            let edge = *e.weight();
            if t != start && hit(edge, t) {
                let mut nodes = vec![t];
                let mut edges = vec![edge];
                let mut cur = n;
                while let Some(&(p, pe)) = parent.get(&cur) {
                    nodes.push(cur);
                    edges.push(pe);
                    cur = p;
                }
                nodes.push(cur);
                nodes.reverse();
                edges.reverse();
                let mut path: FlowPath = Vec::new();
                for (i, node) in nodes.into_iter().enumerate() {
                    path.push((node, edges.get(i).copied()));
                }
                out.push(path);
                continue;
            }
            if seen.insert(t) {
                parent.insert(t, (n, edge));
                q.push_back(t);
            }
        }
    }
    out
}

/// Nodes from which `target` can be reached (its ancestors), excluding itself.
pub fn ancestors(flow: &Flow, target: NodeIndex) -> BTreeSet<NodeIndex> {
    let g = &flow.graph;
    let mut seen = BTreeSet::new();
    let mut q = VecDeque::new();
    q.push_back(target);
    while let Some(n) = q.pop_front() {
        for e in g.edges_directed(n, petgraph::Direction::Incoming) {
            let s = e.source();
            if s != target && seen.insert(s) {
                q.push_back(s);
            }
        }
    }
    seen
}

/// Nodes reachable by at least one edge from a node where `from` holds: the descendants of
/// all of them, in one search (so asking it of every node stays linear, unlike
/// [`ancestors`] per node).
pub fn reached_from(flow: &Flow, from: &dyn Fn(NodeIndex) -> bool) -> BTreeSet<NodeIndex> {
    let g = &flow.graph;
    let mut seen = BTreeSet::new();
    let mut q: VecDeque<NodeIndex> = g.node_indices().filter(|&n| from(n)).collect();
    while let Some(n) = q.pop_front() {
        for e in g.edges(n) {
            if seen.insert(e.target()) {
                q.push_back(e.target());
            }
        }
    }
    seen
}

/// The command behind a node, if it is a command node.
pub fn node_command<'a>(flow: &Flow, script: &'a Script, n: NodeIndex) -> Option<&'a Command> {
    flow.node_cmd(n).and_then(|c| script.command(c))
}

/// The paths by which content starting at nodes matching `from` reaches something that runs
/// it: a shell/interpreter input that is code, or a file written earlier and executed.
/// One path per executing command, the shortest found.
pub fn code_paths(
    cx: &crate::rules::Cx,
    from: &dyn Fn(NodeIndex) -> bool,
) -> Vec<(usize, FlowPath)> {
    let flow = cx.flow;
    let script = cx.script;
    let mut best: BTreeMap<usize, FlowPath> = BTreeMap::new();
    // A hit is a sink or the target of a written-then-executed edge. Most scripts have
    // neither, and then no search can find anything: skipping the per-start searches keeps
    // long pipelines of decoders linear.
    let g = &flow.graph;
    let can_hit = g
        .node_indices()
        .any(|n| matches!(g[n], FlowNode::Sink { .. }))
        || g.edge_references()
            .any(|e| *e.weight() == FlowEdge::WrittenThenExecuted);
    if !can_hit {
        return Vec::new();
    }
    for start in flow.graph.node_indices().filter(|&n| from(n)) {
        let hit = |edge: FlowEdge, t: NodeIndex| -> bool {
            let Some(cmd) = node_command(flow, script, t) else {
                return false;
            };
            edge == FlowEdge::WrittenThenExecuted
                || (matches!(flow.graph[t], FlowNode::Sink { .. })
                    && delivers_code(script, cmd, edge))
        };
        for p in paths_from(flow, start, &hit) {
            let Some(&(last, _)) = p.last() else { continue };
            let Some(id) = flow.node_cmd(last) else {
                continue;
            };
            let better = best.get(&id).is_none_or(|b| p.len() < b.len());
            if better {
                best.insert(id, p);
            }
        }
    }
    best.into_iter().collect()
}

/// The edge that delivers the content to the last node of a path.
pub fn last_edge(path: &FlowPath) -> Option<FlowEdge> {
    path.iter().rev().nth(1).and_then(|(_, e)| *e)
}
