//! SG3201: stopping, killing, restarting or removing containers, images and volumes.

use crate::declare_rule;
use crate::model::{Command, Word};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

use super::{family, globals};

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
    hermes: ["docker restart/stop/kill (container lifecycle)", "docker compose restart/stop/kill/down (container lifecycle)"],
    programs: ["docker", "podman", "nerdctl", "docker-compose", "podman-compose"],
    summary: "docker/podman stop, kill, restart, rm -f, rmi, prune, compose down",
    pass: ["docker ps", "docker run --rm alpine echo hi", "docker build -t x .", "docker logs -f web", "docker compose up -d", "docker rm web", "echo docker stop web", "docker stop --help", "docker compose ps"],
    fail: ["docker stop web", "docker builder prune -af", "docker stack rm app", "docker kill $(docker ps -q)", "sudo docker restart db", "docker rm -f web", "docker rmi alpine", "docker system prune -af", "docker volume rm data", "docker compose down", "docker-compose -f prod.yml stop", "podman stop web", "docker --context prod restart api", "docker -H tcp://h:2375 kill x", "docker container prune -f", "docker image prune -a", "docker compose -p app restart"],
}

fn has_force(rest: &[Word]) -> bool {
    rest.iter().filter_map(|w| w.lit()).any(|t| {
        t == "--force" || (t.starts_with('-') && !t.starts_with("--") && t[1..].contains('f'))
    })
}

/// What a compose verb does, if it is a lifecycle one.
fn compose_verb(rest: &[Word]) -> Option<String> {
    let (_, i) = globals("compose", rest);
    let verb = rest.get(i)?.lit()?;
    let after = rest.get(i + 1..).unwrap_or(&[]);
    match verb.as_str() {
        "down" | "stop" | "kill" | "restart" => Some(verb),
        "rm" if has_force(after) => Some("rm -f".into()),
        _ => None,
    }
}

impl Rule for ContainerLifecycle {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let prog = family(cmd).to_string();
        let args = cmd.args();
        if args
            .iter()
            .any(|w| w.lit().is_some_and(|t| t == "--help" || t == "-h"))
        {
            return;
        }
        const COMPOSE: &str = "docker compose restart/stop/kill/down (container lifecycle)";
        const LIFE: &str = "docker restart/stop/kill (container lifecycle)";
        let (what, key): (String, Option<&'static str>) = if prog.ends_with("-compose") {
            match compose_verb(args) {
                Some(v) => (
                    format!("{prog} {v} stops or removes the project's containers"),
                    Some(COMPOSE),
                ),
                None => return,
            }
        } else {
            let (_, i) = globals(&prog, args);
            let Some(sub) = args.get(i).and_then(|w| w.lit()) else {
                return;
            };
            let rest = args.get(i + 1..).unwrap_or(&[]);
            let verb = rest
                .iter()
                .find_map(|w| w.lit().filter(|t| !t.starts_with('-')));
            let verb_rest = rest
                .iter()
                .position(|w| w.lit().is_some_and(|t| !t.starts_with('-')))
                .and_then(|p| rest.get(p + 1..))
                .unwrap_or(&[]);
            match (sub.as_str(), verb.as_deref()) {
                ("compose", _) => match compose_verb(rest) {
                    Some(v) => (
                        format!("{prog} compose {v} stops or removes the project's containers"),
                        Some(COMPOSE),
                    ),
                    None => return,
                },
                (v @ ("stop" | "kill" | "restart"), _) => (
                    format!("{prog} {v} interrupts running containers"),
                    Some(LIFE),
                ),
                ("container" | "pod", Some(v @ ("stop" | "kill" | "restart"))) => (
                    format!("{prog} {sub} {v} interrupts running containers"),
                    Some(LIFE),
                ),
                ("rm", _) if has_force(rest) => {
                    (format!("{prog} rm -f kills and removes containers"), None)
                }
                ("container" | "pod", Some("rm")) if has_force(verb_rest) => (
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
