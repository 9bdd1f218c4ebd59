//! SG5003: `sed -i`, `perl -i` or `ruby -i` editing a sensitive file in place.

use crate::declare_rule;
use crate::model::Command;
use crate::model::affected::in_place_files;
use crate::model::paths::PathClass;
use crate::rules::util::protected_word;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags in-place edits (`sed -i`, `sed -Ei.bak`, `sed --in-place`, `perl -pi -e`,
    /// `ruby -pi -e`) of a sensitive file (the list in SG5001): system config, credentials,
    /// shell startup files, crontabs, `.env*` files, Hermes's and shellgate's config.
    ///
    /// ## Why is this bad?
    /// A substitution that matches more than intended silently corrupts a file the system,
    /// a login or the guard depends on.
    ///
    /// ## Example
    /// ```sh
    /// sed -i 's/^PermitRootLogin.*/PermitRootLogin yes/' /etc/ssh/sshd_config   # approve
    /// sed -i 's/foo/bar/' src/main.rs                                           # allow
    /// ```
    ///
    /// ## Known limitations
    /// Files named only at run time, and edits made by interpreters' own file APIs, are not
    /// judged here.
    pub struct InPlaceEditSensitive;
    code: "SG5003",
    name: "in-place-edit-sensitive-path",
    severity: Approve,
    category: SensitiveWrites,
    hermes: [SYSTEM = "in-place edit of system config", SYSTEM_LONG = "in-place edit of system config (long flag)", CREDENTIAL = "in-place edit of sensitive credential/SSH/shell-rc path", CREDENTIAL_LONG = "in-place edit of sensitive credential/SSH/shell-rc path (long flag)", CREDENTIAL_INTERP = "in-place edit of sensitive credential/SSH/shell-rc path (perl/ruby)", HERMES = "in-place edit of Hermes config/env", HERMES_LONG = "in-place edit of Hermes config/env (long flag)", HERMES_INTERP = "in-place edit of Hermes config/env (perl/ruby)"],
    programs: ["sed", "gsed", "perl", "ruby"],
    summary: "In-place edit of a system, credential, startup, env or guard file",
    pass: ["sed -i 's/foo/bar/' src/main.rs", "sed 's/a/b/' /etc/hosts", "sed -n '1p' ~/.bashrc", "perl -pe 's/a/b/' /etc/hosts", "sed -e 's/x/y/' -i.bak notes.txt"],
    fail: [
        "sed -i 's/^PermitRootLogin.*/PermitRootLogin yes/' /etc/ssh/sshd_config",
        "sed --in-place 's/a/b/' /etc/hosts",
        "sed -i.bak 's/x/y/' ~/.bashrc",
        "sudo sed -Ei 's/x/y/' /etc/fstab",
        "perl -pi -e 's/a/b/' ~/.ssh/config",
        "sed -i 's/KEY=.*/KEY=x/' .env",
        "sed -i 's/a/b/' ~/.hermes/config.yaml",
        "ruby -pi -e 'gsub(/a/, \"b\")' ~/.zshrc",
        "sed --in-place 's/a/b/' ~/.ssh/config",
        "sed --in-place 's/a/b/' ~/.hermes/.env",
        "perl -pi -e 's/a/b/' ~/.hermes/config.yaml",
    ],
}

/// (in-place?, long flag?, file operands), read with sed's grammar: the first operand is
/// the script unless `-e`/`-f` gave it.
fn key(s: PathClass, long: bool, interp: bool) -> &'static str {
    match (s, long, interp) {
        (PathClass::HarnessConfig, _, true) => InPlaceEditSensitive::HERMES_INTERP,
        (PathClass::HarnessConfig, true, _) => InPlaceEditSensitive::HERMES_LONG,
        (PathClass::HarnessConfig, false, _) => InPlaceEditSensitive::HERMES,
        (PathClass::System | PathClass::Cron, true, false) => InPlaceEditSensitive::SYSTEM_LONG,
        (PathClass::System | PathClass::Cron, _, _) => InPlaceEditSensitive::SYSTEM,
        (_, _, true) => InPlaceEditSensitive::CREDENTIAL_INTERP,
        (_, true, _) => InPlaceEditSensitive::CREDENTIAL_LONG,
        _ => InPlaceEditSensitive::CREDENTIAL,
    }
}

impl Rule for InPlaceEditSensitive {
    fn check_command(&self, cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let interp = cmd.is("perl") || cmd.is("ruby");
        let (inplace, long, files) = in_place_files(cmd);
        if !inplace {
            return;
        }
        for w in files {
            if let Some((s, p)) = protected_word(cx, cmd, w) {
                let name = cmd.name.clone().unwrap_or_default();
                let mut f = Finding::on(
                    &Self::META,
                    cmd,
                    format!("{name} edits {p} in place, {}{}", s.describe(), route(cmd)),
                )
                .with_span(w.span);
                f.hermes = vec![key(s, long, interp)];
                out.push(f);
            }
        }
    }
}
