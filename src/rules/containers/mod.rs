//! Container rules: stopping and removing containers, images and volumes, pointing the
//! client at another daemon, and containers given the host. The global options of `docker`/`podman`/`docker-compose` are
//! read by their grammars in `model::opts::grammars`.

pub mod daemon_redirect;
pub mod host_escape;
pub mod lifecycle;

use crate::model::opts::{self, grammars};
use crate::model::{Command, Word};

/// A global option of a container CLI: its name as written and its value, if any.
#[derive(Debug, Clone)]
pub struct GlobalOpt {
    pub name: String,
    pub value: Option<String>,
}

/// Read the global options of `prog` from `words` with its grammar
/// (`model::opts::grammars`: `docker`, `podman`, and `compose` for `docker compose` and
/// `docker-compose`); returns them as written (`-H`, `--host`) with their values, and the
/// index of the first word that is not a global option (the subcommand).
pub fn globals(prog: &str, words: &[Word]) -> (Vec<GlobalOpt>, usize) {
    let g = match prog {
        "compose" => &grammars::COMPOSE,
        p => grammars::for_program(Some(p)),
    };
    let o = opts::parse(g, words);
    let found = o
        .globals
        .iter()
        .map(|x| GlobalOpt {
            name: format!("{}{}", if x.long { "--" } else { "-" }, x.name),
            value: opts::value_word(words, x).map(|w| w.shown()),
        })
        .collect();
    let first = o
        .subcommand
        .first()
        .map(|(_, i)| *i)
        .or(o.operands.first().copied())
        .unwrap_or(words.len());
    (found, first)
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
