//! Container rules: stopping and removing containers, images and volumes, and pointing the
//! client at another daemon. Shared reading of `docker`/`podman`/`docker-compose` global
//! options lives here.

pub mod daemon_redirect;
pub mod lifecycle;

use crate::model::{Command, Word};

/// A global option of a container CLI: its name as written and its value, if any.
#[derive(Debug, Clone)]
pub struct GlobalOpt {
    pub name: String,
    pub value: Option<String>,
}

/// Global options that take a value, per program family.
fn value_opts(prog: &str) -> &'static [&'static str] {
    match prog {
        "podman" | "podman-remote" => &[
            "-c",
            "--connection",
            "--url",
            "--identity",
            "--root",
            "--runroot",
            "--storage-driver",
            "--log-level",
            "--cgroup-manager",
            "--events-backend",
            "--hooks-dir",
            "--imagestore",
            "--module",
            "--network-cmd-path",
            "--network-config-dir",
            "--runtime",
            "--runtime-flag",
            "--ssh",
            "--storage-opt",
            "--tmpdir",
            "--volumepath",
            "--conmon",
            "--config",
            "--cni-config-dir",
            "--out",
        ],
        "docker-compose" | "podman-compose" | "compose" => &[
            "-f",
            "--file",
            "-p",
            "--project-name",
            "--project-directory",
            "--env-file",
            "--profile",
            "--ansi",
            "--parallel",
            "--progress",
            "-H",
            "--host",
            "--context",
            "-c",
        ],
        _ => &[
            "--config",
            "-c",
            "--context",
            "-H",
            "--host",
            "-l",
            "--log-level",
            "--tlscacert",
            "--tlscert",
            "--tlskey",
        ],
    }
}

/// Read the global options of `prog` from `words`; returns them and the index of the
/// first word that is not a global option (the subcommand).
pub fn globals(prog: &str, words: &[Word]) -> (Vec<GlobalOpt>, usize) {
    let vals = value_opts(prog);
    let mut opts = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let Some(t) = words[i].lit() else { break };
        if !t.starts_with('-') || t == "-" {
            break;
        }
        i += 1;
        if t == "--" {
            break;
        }
        if let Some((n, v)) = t.split_once('=').filter(|_| t.starts_with("--")) {
            opts.push(GlobalOpt {
                name: n.to_string(),
                value: Some(v.to_string()),
            });
            continue;
        }
        if vals.contains(&t.as_str()) {
            let v = words.get(i).map(|w| w.text_with("…"));
            i += 1;
            opts.push(GlobalOpt { name: t, value: v });
            continue;
        }
        // `-Htcp://host`: a value-taking short option with its value attached.
        if !t.starts_with("--")
            && let (Some(head), Some(rest)) = (t.get(..2), t.get(2..))
            && !rest.is_empty()
            && vals.contains(&head)
        {
            opts.push(GlobalOpt {
                name: head.to_string(),
                value: Some(rest.to_string()),
            });
            continue;
        }
        opts.push(GlobalOpt {
            name: t,
            value: None,
        });
    }
    (opts, i)
}

/// The program family of a container command (`docker`, `podman`, `docker-compose`).
pub fn family(cmd: &Command) -> &str {
    cmd.name.as_deref().unwrap_or("docker")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Context, analyze};

    fn first_globals(src: &str) -> (Vec<String>, Option<String>) {
        let a = analyze(src, &Context::fixture());
        let Some(cmd) = a.script.commands.first() else {
            return (Vec::new(), None);
        };
        let (opts, i) = globals(family(cmd), cmd.args());
        let sub = cmd.args().get(i).and_then(|w| w.lit());
        (opts.into_iter().map(|o| o.name).collect(), sub)
    }

    #[test]
    fn global_options_do_not_hide_the_subcommand() {
        assert_eq!(
            first_globals("docker --context prod -D stop web"),
            (vec!["--context".into(), "-D".into()], Some("stop".into()))
        );
        assert_eq!(
            first_globals("docker -Htcp://h:2375 ps"),
            (vec!["-H".into()], Some("ps".into()))
        );
        assert_eq!(
            first_globals("docker --host=ssh://x ps").1,
            Some("ps".into())
        );
        assert_eq!(
            first_globals("podman --remote --url ssh://x ps").1,
            Some("ps".into())
        );
        assert_eq!(
            first_globals("docker-compose -f a.yml -p app down").1,
            Some("down".into())
        );
    }

    #[test]
    fn multibyte_option_text_does_not_split_a_character() {
        assert_eq!(first_globals("docker -é ps").1, Some("ps".into()));
    }
}
