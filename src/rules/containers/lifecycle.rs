//! SG3201: stopping, killing, restarting or removing containers, images and volumes.

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

use super::family;

declare_rule! {
    /// ## What it does
    /// Flags container lifecycle commands of `docker`, `podman` and `nerdctl`: `stop`,
    /// `kill`, `restart`, `rm -f`, `rmi`, `system prune`, `volume rm|prune`,
    /// `image rm|prune`, `container stop|kill|restart|prune|rm -f`, `pod stop|kill|rm -f`,
    /// and `compose down|stop|kill|restart|rm -f` (also `docker-compose`, `podman-compose`).
    /// Global options before the subcommand (`--context x`, `-H host`, `-f compose.yml`)
    /// do not hide it.
    ///
    /// ## Why is this bad?
    /// Running services go down; forced removal, prunes and volume removal delete containers,
    /// images and data volumes that may not be reproducible.
    ///
    /// ## Example
    /// ```sh
    /// docker compose down -v     # approve
    /// docker stop web            # approve
    /// docker ps                  # allowed
    /// ```
    ///
    /// ## Known limitations
    /// `docker rm` without `-f` (which only removes stopped containers) is allowed.
    pub struct ContainerLifecycle;
    code: "SG3201",
    name: "container-lifecycle",
    severity: Approve,
    category: Containers,
    hermes: [LIFE = "docker restart/stop/kill (container lifecycle)", COMPOSE = "docker compose restart/stop/kill/down (container lifecycle)"],
    programs: ["docker", "podman", "nerdctl", "docker-compose", "podman-compose"],
    summary: "docker/podman stop, kill, restart, rm -f, rmi, prune, compose down",
    pass: ["docker ps", "docker run --rm alpine echo hi", "docker build -t x .", "docker logs -f web", "docker compose up -d", "docker rm web", "echo docker stop web", "docker stop --help", "docker compose ps", "docker run --name stop alpine", "docker rm --volumes web"],
    fail: ["docker stop web", "docker builder prune -af", "docker stack rm app", "docker kill $(docker ps -q)", "sudo docker restart db", "docker rm -f web", "docker rmi alpine", "docker system prune -af", "docker volume rm data", "docker compose down", "docker-compose -f prod.yml stop", "podman stop web", "docker --context prod restart api", "docker -H tcp://h:2375 kill x", "docker container prune -f", "docker image prune -a", "docker compose -p app restart", "docker compose -f prod.yml down", "docker container rm -f web", "podman pod rm -f p", "docker rm -vf web"],
}

/// What a compose verb does, if it is a lifecycle one (`force`: `rm -f`).
fn compose_verb(verb: &str, force: bool) -> Option<String> {
    match verb {
        "down" | "stop" | "kill" | "restart" => Some(verb.to_string()),
        "rm" if force => Some("rm -f".into()),
        _ => None,
    }
}

impl Rule for ContainerLifecycle {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let prog = family(cmd).to_string();
        // The arguments as the engine's grammar reads them (`model::opts::grammars`: global
        // options, the subcommand path `container rm`, the options after it, operands).
        let o = &cmd.opts;
        if o.all()
            .any(|x| x.name == "help" || (x.name == "h" && !x.long))
        {
            return;
        }
        let path: Vec<&str> = o.subcommand.iter().map(|(s, _)| s.as_str()).collect();
        let ops: Vec<String> = o
            .operand_words(cmd.args())
            .iter()
            .filter_map(|w| w.lit())
            .collect();
        let force = o.flag('f', "force");
        let (what, key): (String, Option<&'static str>) = if prog.ends_with("-compose") {
            match path.first().and_then(|v| compose_verb(v, force)) {
                Some(v) => (
                    format!("{prog} {v} stops or removes the project's containers"),
                    Some(Self::COMPOSE),
                ),
                None => return,
            }
        } else {
            let Some(&sub) = path.first() else {
                return;
            };
            // `docker container stop`: the verb is the second subcommand word; `docker
            // volume rm`: the first operand of a group with no grammar of its own.
            let verb = path
                .get(1)
                .map(|v| v.to_string())
                .or_else(|| ops.first().cloned());
            match (sub, verb.as_deref()) {
                ("compose", _) => match path.get(1).and_then(|v| compose_verb(v, force)) {
                    Some(v) => (
                        format!("{prog} compose {v} stops or removes the project's containers"),
                        Some(Self::COMPOSE),
                    ),
                    None => return,
                },
                (v @ ("stop" | "kill" | "restart"), _) => (
                    format!("{prog} {v} interrupts running containers"),
                    Some(Self::LIFE),
                ),
                ("container" | "pod", Some(v @ ("stop" | "kill" | "restart"))) => (
                    format!("{prog} {sub} {v} interrupts running containers"),
                    Some(Self::LIFE),
                ),
                ("rm", _) if force => (format!("{prog} rm -f kills and removes containers"), None),
                ("container" | "pod", Some("rm")) if force => (
                    format!("{prog} {sub} rm -f kills and removes containers"),
                    None,
                ),
                ("rmi", _) => (format!("{prog} rmi deletes images"), None),
                ("image", Some(v @ ("rm" | "remove" | "prune"))) => {
                    (format!("{prog} image {v} deletes images"), None)
                }
                ("volume", Some(v @ ("rm" | "remove" | "prune"))) => (
                    format!("{prog} volume {v} deletes data volumes and their contents"),
                    None,
                ),
                ("builder" | "buildx", Some("prune")) => {
                    (format!("{prog} {sub} prune deletes the build cache"), None)
                }
                ("network", Some("prune")) => (
                    format!("{prog} network prune deletes every unused network"),
                    None,
                ),
                ("stack" | "service", Some(v @ ("rm" | "remove"))) => (
                    format!("{prog} {sub} {v} removes running services and their containers"),
                    None,
                ),
                ("container" | "pod", Some("prune")) => (
                    format!("{prog} {sub} prune deletes every stopped container"),
                    None,
                ),
                ("system", Some("prune")) => (
                    format!(
                        "{prog} system prune deletes stopped containers, images, networks and caches"
                    ),
                    None,
                ),
                ("system", Some("reset")) => (
                    format!("{prog} system reset deletes all containers, images and volumes"),
                    None,
                ),
                _ => return,
            }
        };
        let mut f = Finding::on(&Self::META, cmd, format!("{what}{}", route(cmd)));
        f.hermes = key.into_iter().collect();
        out.push(f);
    }
}
