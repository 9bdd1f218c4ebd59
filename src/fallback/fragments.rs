//! Regex fragments shared by the fallback catalog: blanks, words, command position, option
//! runs, recursive flags, and the targets (root, system directories, homes, credentials, shell
//! startup files, Hermes's files, block devices) that several patterns name.
//!
//! They are macros, not consts, so that `concat!` can assemble every pattern into one
//! `&'static str` that the catalog can show exactly as it is compiled. They are visible to
//! `catalog/` through `#[macro_use]` on this module in `fallback/mod.rs`.

/// Blanks between words: spaces, tabs and backslash-newline continuations, not a newline
/// (which ends the command in bash).
macro_rules! sp {
    () => {
        r"(?:[ \t]|\\\n)+"
    };
}
/// One unquoted word that stays inside the current simple command.
macro_rules! arg {
    () => {
        r"[^\s;&|<>()`]+"
    };
}
/// Any further words of the same command (lazily, so a later alternative can claim a word).
macro_rules! args {
    () => {
        concat!("(?:", sp!(), arg!(), ")*?")
    };
}
/// Any further words of the same command, then the blank before the word a pattern names next.
macro_rules! later {
    () => {
        concat!(args!(), sp!())
    };
}
/// The hit `m`: `$head` (a program, maybe with its subcommand), any further words, then the
/// flag `$flag` as a whole word (`git push origin main --force`, `killall -v -9 x`).
macro_rules! with_flag {
    ($head:expr, $flag:expr) => {
        concat!("(?P<m>", $head, later!(), $flag, ")", end!())
    };
}
/// The signal SIGKILL by number or name.
macro_rules! sigkill {
    () => {
        "(?:9|KILL|SIGKILL)"
    };
}
/// Left boundary before a command word: start of line or a char that cannot continue a word
/// (`--rm`, `farm`, `$rm`, `x.rm` are not `rm`). Consumed, so patterns put the hit in `m`.
macro_rules! lb {
    () => {
        r"(?:(?m:^)|[^\w.$-])"
    };
}
/// What may precede a program name: `\rm`, `"rm"`, `/bin/rm`, `./x/rm`.
macro_rules! prog {
    () => {
        r#"\\?['"]?(?:[\w.~-]*/)*"#
    };
}
/// End of a word.
macro_rules! end {
    () => {
        r#"(?:\s|(?m:$)|[;&|)<>'"`])"#
    };
}
/// End of a simple command (the word before it is the last argument).
macro_rules! cmd_end {
    () => {
        r"(?:[ \t]*(?:(?m:$)|[;&|)`]|\d?>))"
    };
}
/// End of a simple command, also accepting a closing quote (`bash -c "kill -9 -1"`).
macro_rules! stmt_end {
    () => {
        r#"(?:[ \t]*(?:(?m:$)|[;&|)`'"]|\d?>))"#
    };
}
/// Command position: line start, after a control operator or `(`/`{`/`$(`/backtick, after
/// `-c '` of a shell, after `eval`/`then`/`do`/`else`; then optional wrappers (`sudo -u x`,
/// `env`, `nohup`, `timeout 5`, `VAR=x`) that run the next word as the command.
macro_rules! cmd_pos {
    () => {
        concat!(
            r#"(?:(?m:^)|[;&|(){}!`]|\$\(|\s-[a-zA-Z]*c\s+['"]?|\b(?:eval|then|do|else)\s+['"]?)[ \t]*"#,
            r"(?:(?:sudo|doas)(?:[ \t]+(?:-[ugCDhprtUT][ \t]*[^\s;&|-]\S*|-\S+))*[ \t]+",
            r"|(?:exec|command|builtin|nohup|time|nice|env|setsid|stdbuf|ionice)(?:[ \t]+-\S+)*[ \t]+",
            r"|timeout(?:[ \t]+-\S+)*[ \t]+\S+[ \t]+",
            r"|[A-Za-z_]\w*=[^\s;&|]*[ \t]+)*"
        )
    };
}
/// The hit `m`: a program in command position, `$rest` being its name and what follows it
/// (`sudo reboot`, `x; /sbin/init 0`).
macro_rules! command {
    ($rest:expr) => {
        concat!(cmd_pos!(), "(?P<m>", prog!(), $rest, ")")
    };
}
/// `sudo` options before the command, including those that take a value (`-u root`).
macro_rules! sudo_opts {
    () => {
        r"(?:[ \t]+(?:-[ugCDhprtUT][ \t]*[^\s;&|-]\S*|-\S+))*?"
    };
}
/// The hit `m`: `sudo` with the flag `$flag` among its options (`sudo -u x -S cmd`).
macro_rules! sudo_with {
    ($flag:expr) => {
        concat!(r"(?P<m>\bsudo", sudo_opts!(), r"[ \t]+", $flag, ")", end!())
    };
}
/// Options before a subcommand, each maybe with a value (`-H host`, `--profile x`).
macro_rules! opts {
    () => {
        r"(?:[ \t]+-\S+(?:[ \t]+[^\s;&|-]\S*)?)*?"
    };
}
/// `git` global options before the subcommand (`-C dir`, `-c k=v`, `--git-dir=x`).
macro_rules! git_opts {
    () => {
        concat!(
            r"(?:[ \t]+(?:-[Cc][ \t]*[^\s;&|]+",
            r"|--(?:git-dir|work-tree|namespace|exec-path|super-prefix|config-env)(?:=|[ \t]+)[^\s;&|]+",
            r"|-{1,2}[\w-]+(?:=[^\s;&|]*)?))*"
        )
    };
}
/// `git`, its global options and the subcommand `$sub` (`git -C repo push`).
macro_rules! git_sub {
    ($sub:expr) => {
        concat!(r"\bgit", git_opts!(), sp!(), $sub)
    };
}
/// A recursive flag of `rm`: a short cluster with `r`/`R`, or any unique prefix of
/// `--recursive` (getopt accepts `--r`).
macro_rules! rec_rm {
    () => {
        r"(?:-[a-zA-Z]*[rR][a-zA-Z]*|--r(?:e(?:c(?:u(?:r(?:s(?:i(?:v(?:e)?)?)?)?)?)?)?)?)"
    };
}
/// A recursive flag of `chmod`/`chown`/`chgrp` (`-r` is not recursive there; `--re` is
/// ambiguous with `--reference`).
macro_rules! rec_ch {
    () => {
        r"(?:-[a-zA-Z]*R[a-zA-Z]*|--rec(?:u(?:r(?:s(?:i(?:v(?:e)?)?)?)?)?)?)"
    };
}
/// `--recursive` and its unique prefixes, for the long-flag variants.
macro_rules! rec_long {
    () => {
        r"--rec(?:u(?:r(?:s(?:i(?:v(?:e)?)?)?)?)?)?"
    };
}
/// Block devices by name (never `null zero stdout stderr tty random urandom fd/*`).
macro_rules! blk {
    () => {
        r"(?:(?:sd|hd|vd|xvd)[a-z]|nvme|mmcblk|r?disk|md|dm-|mapper/)[\w./:-]*"
    };
}
/// Top-level system directories, Linux and macOS.
macro_rules! sysdirs {
    () => {
        r"(?:bin|boot|dev|etc|home|lib|lib64|opt|proc|root|sbin|srv|sys|usr|var|System|Library|Applications|Users|private)"
    };
}
/// `/`, `//`, `/*`, optionally quoted.
macro_rules! root_t {
    () => {
        r#"['"]?/+['"]?(?:\*['"]?)?"#
    };
}
/// A top-level system directory itself or everything in it (`/usr`, `/usr/`, `"/etc"/*`).
macro_rules! sys_t {
    () => {
        concat!(r#"['"]?/+"#, sysdirs!(), r#"/*['"]?(?:\*['"]?)?"#)
    };
}
/// The home directory itself or everything in it (`~`, `~/`, `~/*`, `$HOME`, `/home/bob`).
macro_rules! home_t {
    () => {
        r#"['"]?(?:~[\w.-]*|\$HOME|\$\{HOME\}|/+home/+[\w.-]+|/+Users/+[\w.-]+)['"]?/*['"]?(?:\*['"]?)?"#
    };
}
/// A home directory as a path prefix.
macro_rules! home_p {
    () => {
        r"(?:~|\$HOME|\$\{HOME\}|/home/[\w.-]+|/Users/[\w.-]+|/root)"
    };
}
/// Credential files and directories under a home.
macro_rules! cred {
    () => {
        concat!(
            home_p!(),
            r"/\.(?:ssh|aws|kube|gnupg|netrc|git-credentials|docker/config\.json|config/gh)"
        )
    };
}
/// Shell startup files under a home.
macro_rules! rc {
    () => {
        concat!(
            home_p!(),
            r"/\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin|zlogout|kshrc|cshrc|tcshrc|inputrc|config/fish/config\.fish)"
        )
    };
}
/// A credential path or a shell startup file under a home.
macro_rules! cred_or_rc {
    () => {
        concat!("(?:", cred!(), "|", rc!(), ")")
    };
}
/// Hermes's home directory.
macro_rules! hermes_home {
    () => {
        r"(?:(?:~|\$HOME|\$\{HOME\})/\.hermes|\$HERMES_HOME|\$\{HERMES_HOME\})"
    };
}
/// Hermes's env file (its secrets).
macro_rules! hermes_env {
    () => {
        concat!(hermes_home!(), r"/\.env")
    };
}
/// Hermes's env and config files.
macro_rules! hermes_cfg {
    () => {
        concat!(hermes_home!(), r"/(?:\.env|config\.yaml)")
    };
}
/// System trees other than `/etc` whose files a write would replace.
macro_rules! sys_w {
    () => {
        r"/+(?:boot|usr|bin|sbin|lib\w*|var/lib|System|Library)/"
    };
}
/// Write targets that are system files, credentials, shell startup files or Hermes's env.
macro_rules! sensitive {
    () => {
        concat!(
            "(?:",
            sys_w!(),
            "|",
            cred!(),
            "|",
            rc!(),
            "|",
            hermes_env!(),
            ")"
        )
    };
}
/// A project env file (`.env`, `.env.local`, `config/.envrc`), optionally quoted.
macro_rules! proj_env {
    () => {
        r#"(?:[^\s;&|<>'"]*/)?\.env(?:rc|\.[\w.-]+)?['"]?"#
    };
}
/// A pipe into a shell, or into an interpreter reading its program from stdin (`python3 -`,
/// but not `python3 -m json.tool`, which only pretty-prints).
macro_rules! sh_sink {
    () => {
        concat!(
            r"\|[ \t]*(?:sudo(?:[ \t]+-\S+)*[ \t]+)?(?:env(?:[ \t]+(?:-\S+|[A-Za-z_]\w*=\S*))*[ \t]+)?(?:[\w.~-]*/)*",
            r"(?:(?:ba|z|k|da|fi|c|tc|a|mk)?sh\b|(?:python[\d.]*|pypy[\d.]*|perl|ruby|node|php|lua)(?:[ \t]+-)?[ \t]*(?:(?m:$)|[;&|)]))"
        )
    };
}
/// A library call that deletes a tree, with its opening parenthesis (for inline code).
macro_rules! code_del {
    () => {
        r"\b(?:shutil\.rmtree|rmtree|rmSync|rmdirSync|removeSync|rm_rf|rm_r|remove_dir_all|rimraf(?:\.sync)?)[ \t]*\([ \t]*[rbu]?"
    };
}
/// A world- or other-writable mode: octal with 2/3/6/7 last, or symbolic `o+w`/`a+w`.
macro_rules! mode_ww {
    () => {
        r"(?:0*[0-7]?[0-7][0-7][2367]|(?:[ugoa]*[-+=][rwxXst]*,)*[ugo]*[oa][ugo]*[+=][rwxXst]*w[rwxXst]*(?:,[ugoa]*[-+=][rwxXst]*)*)"
    };
}
/// Owner root (`root`, `root:root`, `0:0`).
macro_rules! owner_root {
    () => {
        r#"['"]?(?:root|0)(?:[:.](?:root|wheel|0)?)?['"]?"#
    };
}
/// `sed` with a short in-place flag (`-i`, `-i.bak`, `-ni`), up to the start of a path.
macro_rules! sed_i {
    () => {
        r#"\bsed[ \t](?:[^\n;&|]*?[ \t])?-[a-zA-Z]*i\S*[ \t](?:[^\n;&|]*?[ \t])?['"]?"#
    };
}
/// `sed --in-place`, up to the start of a path.
macro_rules! sed_long {
    () => {
        r#"\bsed[ \t](?:[^\n;&|]*?[ \t])?--in-place(?:=\S*)?[ \t](?:[^\n;&|]*?[ \t])?['"]?"#
    };
}
/// `perl -i` / `ruby -i` (also in clusters like `-pi`), up to the start of a path.
macro_rules! perl_i {
    () => {
        r#"\b(?:perl|ruby)[ \t](?:[^\n;&|]*?[ \t])?-[a-zA-Z]*i\S*[ \t](?:[^\n;&|]*?[ \t])?['"]?"#
    };
}
/// `$prog` with the recursive flag `$flag` and the target `$target`, in either order, as
/// the hit `m`.
macro_rules! rec_of {
    ($prog:expr, $flag:expr, $target:expr) => {
        concat!(
            lb!(),
            "(?P<m>",
            prog!(),
            $prog,
            args!(),
            "(?:",
            sp!(),
            $flag,
            later!(),
            $target,
            "|",
            sp!(),
            $target,
            later!(),
            $flag,
            "))",
            end!()
        )
    };
}
/// Recursive `rm` of a target, with the recursive flag before or after it.
macro_rules! rm_rec_of {
    ($target:expr) => {
        rec_of!(r#"rm['"]?"#, rec_rm!(), $target)
    };
}
/// Recursive `chmod`/`chown` of a target, with the recursive flag before or after it.
macro_rules! ch_rec_of {
    ($prog:expr, $target:expr) => {
        rec_of!($prog, rec_ch!(), $target)
    };
}

#[cfg(test)]
mod tests {
    use crate::model::paths::catalog::{PathClass, Roots, classify};

    /// The names of a fragment's closing alternation after `after`: `ssh`, `docker/config.json`.
    fn names(fragment: &str, after: &str) -> Vec<String> {
        let alternation = fragment
            .split_once(after)
            .and_then(|(_, a)| a.strip_suffix(')'))
            .unwrap_or_else(|| panic!("no `{after}..)` in {fragment}"));
        alternation
            .split('|')
            .map(|n| n.replace(r"\.", "."))
            .collect()
    }

    /// Homes as `home_p!` spells them, and as the path catalog resolves them.
    const HOMES: &[(&str, &str)] = &[
        ("~/.", "/home/user/."),
        ("$HOME/.", "/home/user/."),
        ("/home/bob/.", "/home/bob/."),
        ("/Users/alice/.", "/Users/alice/."),
        ("/root/.", "/root/."),
    ];

    /// Hermes's home as `hermes_home!` spells it.
    const HERMES: &[(&str, &str)] = &[
        ("~/.hermes/", "/home/user/.hermes/"),
        ("${HOME}/.hermes/", "/home/user/.hermes/"),
        ("$HERMES_HOME/", "/home/user/.hermes/"),
    ];

    /// Every credential and shell-startup file (and Hermes file) the fallback catalog names
    /// is a row of the path catalog of the same class, so the text scan cannot drift from
    /// what the model knows: a name added to `cred!`/`rc!` needs its catalog row.
    #[test]
    fn every_credential_and_startup_fragment_is_a_path_catalog_row() {
        let roots = Roots {
            home: Some("/home/user"),
            hermes: Some("/home/user/.hermes"),
            cwd: Some("/home/user/project"),
        };
        let fragments = [
            (cred!(), r"/\.(?:", HOMES, PathClass::Credential),
            (rc!(), r"/\.(?:", HOMES, PathClass::ShellStartup),
            (hermes_cfg!(), "/(?:", HERMES, PathClass::HarnessConfig),
        ];
        for (fragment, after, homes, class) in fragments {
            let re = regex::Regex::new(&format!("^{fragment}$")).expect("fragment compiles");
            let names = names(fragment, after);
            assert!(!names.is_empty(), "{fragment}");
            for name in names {
                for (written, home) in homes {
                    let text = format!("{written}{name}");
                    assert!(re.is_match(&text), "{fragment} does not match {text}");
                    let path = format!("{home}{name}");
                    assert_eq!(
                        classify(&path, roots).class,
                        class,
                        "{path} (from {fragment})"
                    );
                }
            }
        }
    }
}
