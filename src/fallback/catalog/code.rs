//! Approval tier: code run from heredocs and from `-c`/`-e` strings.

use super::A;
use crate::fallback::FallbackPattern;

pub(super) static PATTERNS: &[FallbackPattern] = &[
    pat!(
        "fb-shell-heredoc",
        "shell execution via heredoc",
        A,
        concat!(
            "(?:",
            lb!(),
            "(?P<m>",
            prog!(),
            r"(?:ba|z|k|da|fi|c|tc|a|mk)?sh(?:[ \t]+-\S+)*[ \t]*<<)",
            r#"|<<-?[ \t]*['"]?\w+['"]?[^\n]*?"#,
            sh_sink!(),
            ")"
        ),
        "a here-document or here-string fed to a shell (bash <<EOF, cat <<EOF | sh)",
        hits: &[
            "bash <<EOF\nrm -rf x\nEOF",
            "sh -s <<'EOF'",
            "cat <<EOF | sh",
            "bash <<< \"$cmd\"",
            "zsh<<X",
        ],
        misses: &["cat <<EOF > file", "bash script.sh", "ssh host <<EOF"],
    ),
    pat!(
        "fb-interp-heredoc",
        "script execution via heredoc",
        A,
        concat!(
            lb!(),
            "(?P<m>",
            prog!(),
            r"(?:python[\d.]*|pypy[\d.]*|perl|ruby|node|nodejs|php|lua|Rscript|osascript|deno|bun)(?:[ \t]+-\S*)*[ \t]*<<)"
        ),
        "a here-document or here-string fed to an interpreter (python3 - <<EOF)",
        hits: &[
            "python3 - <<EOF",
            "python <<'PY'",
            "node <<EOF",
            "perl -w <<X",
            "ruby<<<'puts 1'",
        ],
        misses: &["python3 script.py", "cat <<EOF | grep x"],
    ),
    pat!(
        "fb-interp-inline",
        "script execution via -e/-c flag",
        A,
        concat!(
            lb!(),
            "(?P<m>",
            prog!(),
            r"(?:(?:python[\d.]*|pypy[\d.]*)(?:[ \t]+-\S+)*?[ \t]+-[a-zA-Z]*c",
            r"|(?:perl|ruby|lua|osascript)(?:[ \t]+-\S+)*?[ \t]+-[a-zA-Z]*[eE]",
            r"|(?:node|nodejs|bun)(?:[ \t]+-\S+)*?[ \t]+(?:-e|-p|--eval|--print)",
            r"|deno[ \t]+eval|php(?:[ \t]+-\S+)*?[ \t]+-r))",
            end!()
        ),
        "inline interpreter code: python -c, perl/ruby -e, node -e/-p, deno eval, php -r",
        hits: &[
            "python3 -c 'print(1)'",
            "python -Bc 'x'",
            "perl -ne 'print'",
            "ruby -e 'puts 1'",
            "node -e 'x'",
            "node --eval x",
            "php -r 'x;'",
            "deno eval 'x'",
        ],
        misses: &[
            "python3 script.py",
            "python3 -m pip install x",
            "node app.js",
            "perl script.pl",
            "pythonic -c x",
        ],
    ),
    pat!(
        "fb-shell-c",
        "shell command via -c/-lc flag",
        A,
        concat!(
            lb!(),
            "(?P<m>",
            prog!(),
            r"(?:ba|z|k|da|fi|c|tc|a|mk)?sh(?:[ \t]+(?:-o[ \t]+\w+|[-+][^\s;&|]+))*?[ \t]+-[a-zA-Z]*c[a-zA-Z]*)",
            end!()
        ),
        "a shell given code with -c (sh -c, bash -lc, zsh -ic)",
        hits: &[
            "sh -c 'echo hi'",
            "bash -lc 'x'",
            "zsh -ic x",
            "/bin/bash -c x",
            "bash -o pipefail -c x",
            "busybox sh -c x",
        ],
        misses: &[
            "ssh -c aes128 host",
            "bash script.sh",
            "sh -x script.sh",
            "fish_indent -c x",
        ],
    ),
];
