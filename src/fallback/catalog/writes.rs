//! Approval tier: overwriting system and project env files (`tee`, `>`), and bulk deletes
//! (`xargs rm`, `find -exec rm`, `find -delete`).

use super::A;
use crate::fallback::FallbackPattern;

pub(super) static PATTERNS: &[FallbackPattern] = &[
    pat!(
        "fb-tee-system",
        "overwrite system file via tee",
        A,
        concat!(
            r"\btee",
            later!(),
            r#"['"]?(?:/+etc/|"#,
            sensitive!(),
            ")"
        ),
        "tee into /etc, a system tree, a credential file, a shell startup file or Hermes's .env",
        hits: &[
            "echo x | sudo tee /etc/hosts",
            "tee -a ~/.ssh/authorized_keys",
            "echo | tee /usr/local/bin/x",
            "tee ~/.bashrc",
            "tee ~/.hermes/.env",
        ],
        misses: &["tee out.log", "tee ./etc/x", "cat ~/.ssh/config"],
    ),
    pat!(
        "fb-redirect-system",
        "overwrite system file via redirection",
        A,
        concat!(r#"(?:\d|&)?>{1,2}[|&]?[ \t]*['"]?"#, sensitive!()),
        "redirection into a system tree (/usr /boot /bin /sbin /lib* /var/lib), a credential file, a shell startup file or Hermes's .env",
        hits: &[
            "echo x > /usr/bin/ls",
            "cat key >> ~/.ssh/authorized_keys",
            "echo x >> $HOME/.bashrc",
            "echo k > ~/.hermes/.env",
            "echo > $HERMES_HOME/.env",
            "echo > /boot/grub/grub.cfg",
        ],
        misses: &[
            "echo x > /tmp/x",
            "cat ~/.ssh/config",
            "echo x > ./usr/x",
            "cat ~/.bashrc",
        ],
    ),
    pat!(
        "fb-tee-env",
        "overwrite project env/config via tee",
        A,
        concat!(r"\btee", later!(), r#"['"]?"#, proj_env!(), end!()),
        "tee into a .env / .env.* / .envrc file",
        hits: &[
            "echo K=v | tee .env",
            "tee -a config/.env.local",
            "tee .envrc",
        ],
        misses: &["tee env.txt", "tee .environment", "cat .env"],
    ),
    pat!(
        "fb-redirect-env",
        "overwrite project env/config via redirection",
        A,
        concat!(r#"(?:\d|&)?>{1,2}[|&]?[ \t]*['"]?"#, proj_env!(), end!()),
        "redirection into a .env / .env.* / .envrc file",
        hits: &[
            "echo K=v > .env",
            "echo K=v >> ./app/.env.production",
            "printf x >'.envrc'",
        ],
        misses: &["cat .env", "echo x > .environment", "source .env"],
    ),
    pat!(
        "fb-xargs-rm",
        "xargs with rm",
        A,
        concat!(
            r"\bxargs\b(?:[ \t]+(?:-[IinPdLasEe][ \t]*[^\s;&|-][^\s;&|]*|-[^\s;&|]+))*?(?:[ \t]+sudo)?",
            sp!(),
            r#"['"]?(?:[\w.~-]*/)*rm"#,
            end!()
        ),
        "xargs running rm",
        hits: &[
            "find . -name '*.o' | xargs rm",
            "xargs -0 rm -f",
            "xargs -I{} /bin/rm {}",
        ],
        misses: &["xargs echo rm", "xargs grep rm", "xargs rmdir"],
    ),
    pat!(
        "fb-find-exec-rm",
        "find -exec/-execdir rm",
        A,
        concat!(
            r"\bfind\b(?:[^\n;&|]|\\;)*?[ \t]-exec(?:dir)?",
            sp!(),
            r#"['"]?(?:[\w.~-]*/)*rm"#,
            end!()
        ),
        "find -exec rm / -execdir rm",
        hits: &[
            "find . -name '*.tmp' -exec rm {} \\;",
            "find /x -execdir rm -f {} +",
            "find . -exec /bin/rm {} \\;",
        ],
        misses: &[
            "find . -exec echo {} \\;",
            "find . -name rm",
            "find . -exec rmdir {} \\;",
        ],
    ),
    pat!(
        "fb-find-delete",
        "find -delete",
        A,
        concat!(r"\bfind\b(?:[^\n;&|]|\\;)*?[ \t]-delete", end!()),
        "find -delete",
        hits: &[
            "find . -name '*.pyc' -delete",
            "find /tmp -mtime +7 -delete",
        ],
        misses: &["find . -name x", "find . -name '-deleted'"],
    ),
];
