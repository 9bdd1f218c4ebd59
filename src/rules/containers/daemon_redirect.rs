//! SG3202: pointing docker/podman at another daemon (`-H`, `--context`, `DOCKER_HOST=`).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

use super::globals;

declare_rule! {
    /// ## What it does
    /// Flags commands that send container commands to another daemon: `docker -H|--host`,
    /// `docker --context|-c` (other than `default`), `docker context use`, `podman --remote|-r|
    /// --url|--connection|-c|--identity`, `podman system connection default`, and setting
    /// `DOCKER_HOST`, `DOCKER_CONTEXT`, `CONTAINER_HOST` or `CONTAINER_CONNECTION` (for one
    /// command, with `export`, or as a plain assignment).
    ///
    /// ## Why is this bad?
    /// Whatever follows runs against a remote or production engine instead of the local one:
    /// a harmless-looking `docker rm` or `compose down` then acts on someone else's machine.
    ///
    /// ## Example
    /// ```sh
    /// DOCKER_HOST=ssh://prod docker ps    # approve
    /// docker context use prod             # approve
    /// docker ps                           # allowed
    /// ```
    ///
    /// ## Known limitations
    /// A daemon chosen through a config file (`~/.docker/config.json`) is not seen.
    pub struct DaemonRedirect;
    code: "SG3202",
    name: "container-daemon-redirect",
    severity: Approve,
    category: Containers,
    hermes: [],
    programs: [],
    summary: "docker/podman pointed at another daemon (-H, --context, DOCKER_HOST)",
    pass: ["docker ps", "docker context ls", "docker --context default ps", "podman ps", "echo DOCKER_HOST=x", "unset DOCKER_HOST"],
    fail: ["DOCKER_HOST=ssh://prod docker ps", "export DOCKER_HOST=tcp://10.0.0.5:2375", "DOCKER_CONTEXT=prod; docker compose up -d", "docker -H tcp://h:2375 ps", "docker --host=ssh://x info", "docker --context prod ps", "docker context use prod", "podman --remote ps", "podman --url ssh://x ps", "podman -c prod ps", "CONTAINER_HOST=ssh://x podman ps", "sudo docker -H ssh://x ps"],
}

const VARS: &[&str] = &[
    "DOCKER_HOST",
    "DOCKER_CONTEXT",
    "CONTAINER_HOST",
    "CONTAINER_CONNECTION",
];

fn check(cmd: &Command, out: &mut Vec<Finding>) {
    for a in &cmd.assignments {
        if VARS.contains(&a.name.as_str()) {
            let v = a.value.shown();
            if v.is_empty() {
                continue;
            }
            out.push(
                Finding::on(
                    &DaemonRedirect::META,
                    cmd,
                    format!(
                        "{}={v} sends container commands to another daemon{}",
                        a.name,
                        route(cmd)
                    ),
                )
                .with_span(a.span),
            );
        }
    }
    let Some(prog) = cmd.name.as_deref() else {
        return;
    };
    let podman = matches!(prog, "podman" | "podman-remote");
    if !matches!(
        prog,
        "docker" | "podman" | "podman-remote" | "docker-compose" | "nerdctl"
    ) {
        return;
    }
    let args = cmd.args();
    let (opts, i) = globals(prog, args);
    for o in &opts {
        let redirect = match o.name.as_str() {
            "-H" | "--host" => !podman,
            "--context" | "-c" if !podman => o.value.as_deref() != Some("default"),
            "--remote" | "-r" | "--url" | "--connection" | "-c" | "--identity" => podman,
            _ => false,
        };
        if redirect {
            let v = o
                .value
                .as_deref()
                .map(|v| format!(" {v}"))
                .unwrap_or_default();
            out.push(Finding::on(
                &DaemonRedirect::META,
                cmd,
                format!(
                    "{prog} {}{v} talks to another container daemon{}",
                    o.name,
                    route(cmd)
                ),
            ));
        }
    }
    let words: Vec<String> = args
        .get(i..)
        .unwrap_or(&[])
        .iter()
        .map(|w| w.shown())
        .collect();
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    match w.as_slice() {
        ["context", "use", target, ..] if *target != "default" => out.push(Finding::on(
            &DaemonRedirect::META,
            cmd,
            format!("{prog} context use {target} sends every later docker command to that daemon{}", route(cmd)),
        )),
        ["system", "connection", "default", target, ..] if podman => out.push(Finding::on(
            &DaemonRedirect::META,
            cmd,
            format!("podman system connection default {target} sends every later podman command to that daemon{}", route(cmd)),
        )),
        _ => {}
    }
}

impl Rule for DaemonRedirect {
    fn check_script(&self, cx: &Cx, out: &mut Vec<Finding>) {
        for cmd in &cx.script.commands {
            check(cmd, out);
        }
    }
}
