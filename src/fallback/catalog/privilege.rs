//! Approval tier: `chmod +x` then running the file, and `sudo` with privilege flags.

use super::A;
use crate::fallback::FallbackPattern;

pub(super) static PATTERNS: &[FallbackPattern] = &[
    pat!(
        "fb-chmod-x-exec",
        "chmod +x followed by immediate execution",
        A,
        r"\bchmod(?:[ \t]+-\S+)*[ \t]+(?:[ugoa]*\+[rwxXst]*x[rwxXst]*|0*[0-7]?[1357][0-7][0-7])[ \t]+[^\n;&|]+?[ \t]*(?:;|&&|\|\||\n)\s*(?:sudo[ \t]+)?(?:(?:ba|z|da)?sh[ \t]+)?(?:\.{1,2}/|~/)",
        "chmod +x (or an executable octal mode) and then running a relative path",
        hits: &[
            "chmod +x install.sh && ./install.sh",
            "chmod 755 run; ./run",
            "chmod u+x x.sh\n./x.sh",
            "chmod +x f && sh ./f",
        ],
        misses: &[
            "chmod +x install.sh",
            "chmod 644 f && ./configure",
            "chmod +x f && ls",
        ],
    ),
    pat!(
        "fb-sudo-priv-flag",
        "sudo with privilege flag (stdin/askpass/shell/list)",
        A,
        sudo_with!(r"(?:-[Asl]|--(?:askpass|shell|list))"),
        "sudo -A/--askpass, -s/--shell, -l/--list",
        hits: &[
            "sudo -s",
            "sudo -l",
            "sudo -A apt update",
            "sudo --shell",
            "sudo -u root -s",
        ],
        misses: &["sudo ls -l", "sudo apt -s install x", "sudo -E make"],
    ),
    pat!(
        "fb-sudo-combined-flag",
        "sudo with combined-flag privilege escalation",
        A,
        sudo_with!(r"-(?:[a-zA-Z]+[Asl][a-zA-Z]*|[Asl][a-zA-Z]+)"),
        "sudo with -A, -s or -l inside a flag cluster (-Es, -nl)",
        hits: &["sudo -Es", "sudo -nl", "sudo -sE"],
        misses: &["sudo -E make", "sudo -s", "sudo ls -la"],
    ),
];
