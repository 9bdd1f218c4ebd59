//! The one list of known `eval` generators: programs whose output is fixed shell setup code
//! written by that program (`pyenv init -`, `direnv hook bash`, `brew shellenv`, `conda
//! shell.bash hook`, `starship init bash`, completion scripts). `eval "$(GEN ..)"` and
//! `source <(GEN ..)` of one of these run that program's own code, not a string an agent
//! built, so SG4003 does not ask about them. Anything else built at run time still asks.
//!
//! To add a generator: one [`Generator`] row with the program, the words that must follow
//! it, and the options it may also be given. Shell names (`bash`, `zsh`, `fish`, `-`) are
//! always accepted after the fixed words.

use crate::model::{Command, SubstKind, Word};

/// One generator: `program words.. [shell] [options]`.
#[derive(Debug)]
pub struct Generator {
    /// Program names (resolved basenames: `/opt/homebrew/bin/brew` is `brew`).
    pub programs: &'static [&'static str],
    /// The words that must come first (`init`, `shell.bash hook`).
    pub words: &'static [&'static str],
    /// Other options it may be given; `--opt` also accepts `--opt=value` and `--opt value`
    /// when listed as `--opt=`.
    pub options: &'static [&'static str],
}

const fn g(
    programs: &'static [&'static str],
    words: &'static [&'static str],
    options: &'static [&'static str],
) -> Generator {
    Generator {
        programs,
        words,
        options,
    }
}

/// Shell names a generator may be told to write for.
const SHELLS: &[&str] = &[
    "-",
    "bash",
    "zsh",
    "fish",
    "sh",
    "ksh",
    "posix",
    "elvish",
    "nu",
    "tcsh",
    "powershell",
];

/// Every known generator.
pub static GENERATORS: &[Generator] = &[
    // Version managers.
    g(
        &[
            "pyenv", "rbenv", "nodenv", "goenv", "jenv", "plenv", "phpenv", "swiftenv", "luaenv",
            "scalaenv", "tfenv", "exenv", "crenv",
        ],
        &["init"],
        &["--path", "--no-rehash", "--no-push-path"],
    ),
    g(&["pyenv"], &["virtualenv-init"], &[]),
    g(
        &["fnm"],
        &["env"],
        &[
            "--use-on-cd",
            "--shell=",
            "--version-file-strategy=",
            "--corepack-enabled",
            "--resolve-engines",
            "--log-level=",
        ],
    ),
    g(
        &["mise", "rtx"],
        &["activate"],
        &["--shims", "--quiet", "-q"],
    ),
    g(&["mise", "rtx"], &["hook-env"], &["-s=", "--shell="]),
    g(
        &["opam"],
        &["env"],
        &[
            "--switch=",
            "--set-switch",
            "--shell=",
            "--root=",
            "--readonly",
        ],
    ),
    g(
        &["luarocks"],
        &["path"],
        &["--bin", "--lr-path", "--lr-cpath", "--lua-version="],
    ),
    // Environment loaders and package managers' shell setup.
    g(&["direnv"], &["hook"], &[]),
    g(&["brew"], &["shellenv"], &[]),
    g(&["conda", "mamba"], &["shell.bash", "hook"], &[]),
    g(&["conda", "mamba"], &["shell.zsh", "hook"], &[]),
    g(&["conda", "mamba"], &["shell.fish", "hook"], &[]),
    g(&["conda", "mamba"], &["shell.posix", "hook"], &[]),
    g(
        &["micromamba", "mamba"],
        &["shell", "hook"],
        &["--shell=", "-s=", "--root-prefix=", "-r="],
    ),
    g(&["ssh-agent"], &[], &["-s", "-c"]),
    g(
        &["keychain"],
        &["--eval"],
        &["--agents=", "--quiet", "-q", "--noask", "--nogui", "*key"],
    ),
    g(
        &["dircolors"],
        &[],
        &["-b", "--sh", "--bourne-shell", "-c", "--csh", "*file"],
    ),
    // Prompt and history tools.
    g(&["starship"], &["init"], &["--print-full-init"]),
    g(&["zoxide"], &["init"], &["--cmd=", "--hook="]),
    g(
        &["atuin"],
        &["init"],
        &["--disable-up-arrow", "--disable-ctrl-r"],
    ),
    g(&["mcfly"], &["init"], &[]),
    g(&["oh-my-posh"], &["init"], &["--config=", "-c="]),
    g(&["thefuck"], &["--alias"], &["*name"]),
    g(&["navi"], &["widget"], &[]),
    g(
        &["fasd"],
        &["--init"],
        &["auto", "posix-alias", "bash-hook", "bash-ccomp", "zsh-hook"],
    ),
    g(
        &["register-python-argcomplete"],
        &[],
        &["--shell=", "-s=", "*name"],
    ),
    // Completion scripts of well-known CLIs.
    g(
        &[
            "kubectl",
            "helm",
            "gh",
            "minikube",
            "kind",
            "kubeadm",
            "k3d",
            "kustomize",
            "flux",
            "argocd",
            "istioctl",
            "skaffold",
            "rustup",
            "poetry",
            "pdm",
            "uv",
            "deno",
            "bun",
            "docker",
            "podman",
            "nerdctl",
            "gitlab",
            "glab",
            "hugo",
            "cobra-cli",
            "just",
            "task",
            "golangci-lint",
            "goreleaser",
            "terraform-docs",
            "eksctl",
            "doctl",
            "linkerd",
            "velero",
            "tkn",
            "kn",
            "oc",
            "crictl",
            "stern",
            "k9s",
            "pulumi",
            "chezmoi",
        ],
        &["completion"],
        &["-s=", "--shell="],
    ),
    g(&["rustup"], &["completions"], &[]),
    g(&["npm", "pnpm"], &["completion"], &[]),
    g(
        &["pip", "pip3"],
        &["completion"],
        &["--bash", "--zsh", "--fish", "-b", "-z", "-f"],
    ),
];

fn option_ok(row: &Generator, words: &[String], i: usize) -> Option<usize> {
    let w = &words[i];
    if SHELLS.contains(&w.as_str()) {
        return Some(1);
    }
    for o in row.options {
        if let Some(name) = o.strip_suffix('=') {
            if w == name {
                // `--shell bash`: the value must be a plain word.
                return words
                    .get(i + 1)
                    .filter(|v| !v.contains(['$', '`', ';', '|', '&']))
                    .map(|_| 2);
            }
            if w.strip_prefix(name).is_some_and(|r| r.starts_with('=')) {
                return Some(1);
            }
        } else if o.starts_with('*') {
            // An operand such as a key or file name (not an option).
            if !w.starts_with('-') {
                return Some(1);
            }
        } else if w == o {
            return Some(1);
        }
    }
    None
}

/// The generator a command is, when it is exactly one of the list with literal arguments.
pub fn generator(cmd: &Command) -> Option<&'static Generator> {
    let name = cmd.name.as_deref()?;
    // `./brew shellenv` runs a file from the workspace, not the known program.
    let prog = cmd.argv.first().and_then(Word::lit)?;
    if prog.contains('/') && !prog.starts_with('/') && !prog.starts_with('~') {
        return None;
    }
    if !cmd.wrappers.is_empty()
        || !cmd.assignments.is_empty()
        || cmd.redirects.iter().any(|r| !r.op.writes())
    {
        return None;
    }
    let words: Vec<String> = cmd.args().iter().map(Word::lit).collect::<Option<_>>()?;
    GENERATORS.iter().find(|row| {
        if !row.programs.contains(&name) || words.len() < row.words.len() {
            return false;
        }
        if words[..row.words.len()] != *row.words {
            return false;
        }
        let mut i = row.words.len();
        while i < words.len() {
            match option_ok(row, &words, i) {
                Some(n) => i += n,
                None => return false,
            }
        }
        true
    })
}

/// Is `w` exactly the output of one known generator (`"$(pyenv init -)"`, `<(kubectl
/// completion bash)`), with nothing else in the word?
pub fn is_generator_output(script: &crate::model::Script, w: &Word) -> bool {
    let [s] = w.substitutions.as_slice() else {
        return false;
    };
    if !matches!(s.kind, SubstKind::Command | SubstKind::ProcessIn) {
        return false;
    }
    let [only] = s.commands.as_slice() else {
        return false;
    };
    if s.producers.as_slice() != [*only] {
        return false;
    }
    let other_text = w.pieces.iter().any(|p| match p {
        crate::model::Piece::Lit { text, .. } => !text.trim().is_empty(),
        crate::model::Piece::Unknown { .. } => false,
    });
    let unknowns = w
        .pieces
        .iter()
        .filter(|p| matches!(p, crate::model::Piece::Unknown { .. }))
        .count();
    if other_text || unknowns > 1 {
        return false;
    }
    script.command(*only).and_then(generator).is_some()
}

#[cfg(test)]
mod tests {
    use super::GENERATORS;

    #[test]
    fn every_generator_row_names_a_program() {
        for g in GENERATORS {
            assert!(!g.programs.is_empty());
            for p in g.programs {
                assert!(!p.contains('/'), "{p}");
            }
        }
    }
}
