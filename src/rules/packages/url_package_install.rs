//! SG7002: installing a package straight from a URL or from a file just downloaded.

use petgraph::visit::EdgeRef;

use crate::declare_rule;
use crate::graph::FlowNode;
use crate::model::Command;
use crate::model::opts::{self, grammars};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags package installs whose package is a URL rather than a name from a configured
    /// index: `pip install https://..`/`git+https://..`, `npm|pnpm|yarn|bun install|add`
    /// of a URL, `git+`, `github:` or tarball URL, `apt|dnf|yum|zypper|rpm|brew install
    /// http://..`, `gem install` of a URL, `cargo install --git`, and `apt install ./x.deb`,
    /// `dpkg -i x.deb`, `rpm -i x.rpm` of a file downloaded earlier in the same command.
    ///
    /// ## Why is this bad?
    /// The package is whatever the URL serves, and installing it runs its install scripts,
    /// often as root; no index or signature vouches for it.
    ///
    /// ## Example
    /// ```sh
    /// pip install https://x.example/pkg.tar.gz   # approve
    /// pip install requests                       # allow
    /// ```
    ///
    /// ## Known limitations
    /// A package file downloaded by an earlier, separate command is not connected to it.
    pub struct UrlPackageInstall;
    code: "SG7002",
    name: "package-install-from-url",
    severity: Approve,
    category: Packages,
    hermes: [],
    programs: ["pip", "pip3", "pipx", "uv", "python", "python3", "npm", "pnpm", "yarn", "bun", "apt", "apt-get", "dnf", "yum", "zypper", "rpm", "dpkg", "brew", "gem", "cargo"],
    summary: "Installs a package straight from a URL",
    pass: ["pip install requests", "npm install lodash", "apt install htop", "cargo install ripgrep", "dpkg -i local.deb", "pip install -r requirements.txt", "npm install"],
    fail: ["pip install https://x.example/pkg.tar.gz", "pip3 install git+https://github.com/x/y", "python3 -m pip install https://x/p.whl", "npm install https://x/p.tgz", "npm i github:user/repo", "yarn add git+https://x/y.git", "rpm -i http://x/p.rpm", "curl -L -O https://x/p.deb && sudo apt install ./p.deb", "wget https://x/p.deb && sudo dpkg -i p.deb", "cargo install --git https://github.com/x/y"],
}

fn is_url(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    [
        "http://",
        "https://",
        "ftp://",
        "git+",
        "git://",
        "github:",
        "gitlab:",
        "bitbucket:",
        "ssh://",
    ]
    .iter()
    .any(|p| l.starts_with(p))
        || (l.contains('@') && l.contains("://"))
}

/// The package operands of an install subcommand, if this is one.
fn install_operands(cmd: &Command) -> Option<Vec<String>> {
    let name = cmd.name.as_deref()?;
    let args = cmd.args();
    // The program's own grammar where the table has one (`apt`, `rpm`, `dpkg`, `cargo`,
    // `python3`); the package tools' shared install options otherwise, so the value of
    // `-i URL` or `--registry URL` is never a package.
    let o = if grammars::has_grammar(name) {
        cmd.opts.clone()
    } else {
        opts::parse(&grammars::PACKAGE_INSTALL, args)
    };
    let ops: Vec<String> = o
        .operand_words(args)
        .iter()
        .map(|w| w.text_with("\u{fffd}"))
        .collect();
    let after = |subs: &[&str], ops: &[String]| -> Option<Vec<String>> {
        let i = ops.iter().position(|o| subs.contains(&o.as_str()))?;
        Some(ops[i + 1..].to_vec())
    };
    match name {
        "pip" | "pip3" | "pipx" | "gem" => after(&["install"], &ops),
        "uv" => {
            let i = ops.iter().position(|o| o == "pip" || o == "tool")?;
            after(&["install", "add"], &ops[i..])
        }
        "python" | "python3" => {
            // `python3 -m pip install ..`: the module's argv are the operands after `-m`.
            let m = o.value_of(args, &["m"])?;
            (m.lit().as_deref() == Some("pip")).then_some(())?;
            let first = o.operands.first().copied().unwrap_or(args.len());
            let rest = args.get(first..).unwrap_or_default();
            let ops: Vec<String> = opts::parse(&grammars::PACKAGE_INSTALL, rest)
                .operand_words(rest)
                .iter()
                .map(|w| w.text_with("\u{fffd}"))
                .collect();
            after(&["install"], &ops)
        }
        "npm" | "pnpm" | "yarn" | "bun" => after(&["install", "i", "add", "isntall"], &ops),
        "apt" | "apt-get" | "dnf" | "yum" | "zypper" | "brew" => {
            after(&["install", "in", "reinstall", "localinstall"], &ops)
        }
        // rpm's modes are options: `-i`, `-U`, `-F` install, alone or in a bundle (`-ivh`),
        // unless the mode is a query or verify (`-qi` is `--query --info`).
        "rpm" => {
            let installs = o.short('i')
                || o.short('U')
                || o.short('F')
                || ["install", "upgrade", "freshen", "reinstall"]
                    .iter()
                    .any(|l| o.long(l));
            let reads = o.short('q') || o.short('V') || o.long("query") || o.long("verify");
            (installs && !reads).then_some(ops)
        }
        "dpkg" => o.flag('i', "install").then_some(ops),
        "cargo" => {
            let u = o.value_of(args, &["git"])?;
            Some(vec![format!("git+{}", u.text_with("\u{fffd}"))])
        }
        _ => None,
    }
}

impl Rule for UrlPackageInstall {
    fn check_command(&self, cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let Some(pkgs) = install_operands(cmd) else {
            return;
        };
        let name = cmd.name.clone().unwrap_or_default();
        if let Some(u) = pkgs.iter().find(|p| is_url(p)) {
            out.push(Finding::on(
                &Self::META,
                cmd,
                format!("{name} installs a package straight from {u}{}", route(cmd)),
            ));
            return;
        }
        // A local package file written by a network client earlier in the command.
        for p in pkgs.iter().filter(|p| {
            p.ends_with(".deb")
                || p.ends_with(".rpm")
                || p.ends_with(".whl")
                || p.ends_with(".tgz")
                || p.ends_with(".tar.gz")
                || p.ends_with(".apk")
                || p.ends_with(".pkg.tar.zst")
        }) {
            let path =
                crate::model::paths::resolve(p, cmd.cwd.as_deref()).unwrap_or_else(|| p.clone());
            let g = &cx.flow.graph;
            let downloaded = g
                .node_indices()
                .filter(|&n| matches!(&g[n], FlowNode::File { path: fp } if *fp == path))
                .any(|n| {
                    g.edges_directed(n, petgraph::Direction::Incoming).any(
                        |e| matches!(g[e.source()], FlowNode::Network { cmd: c } if c < cmd.id),
                    )
                });
            if downloaded {
                out.push(Finding::on(
                    &Self::META,
                    cmd,
                    format!(
                        "{name} installs {p}, downloaded earlier in this command{}",
                        route(cmd)
                    ),
                ));
                return;
            }
        }
    }
}
