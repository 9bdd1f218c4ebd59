//! SG4002: decoded or transformed bytes (`base64 -d`, `xxd -r`, `tr`, `openssl -d`) run as code.

use petgraph::graph::NodeIndex;

use super::{ancestors, code_paths, node_command, reached_from};
use crate::declare_rule;
use crate::graph::FlowNode;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags bytes produced by a decoder or transformer that reach a shell or interpreter as
    /// code: `base64 -d | sh`, `xxd -r -p | bash`, `tr 'a-z' 'n-za-m' | sh`,
    /// `openssl enc -d ... | sh`, `rev | sh`, `printf '\x72\x6d..' | sh`, or the same through
    /// a command or process substitution. When the payload is literal the core also decodes
    /// it and the commands inside are judged by the other rules; this rule still flags the
    /// decoding itself, because hiding code from a reader is a hazard of its own.
    /// Decompressors (`gunzip`, `zcat`) of local files are not obfuscation and are not
    /// flagged; content from the network is reported by SG4001 instead.
    ///
    /// ## Why is this bad?
    /// Encoding a command is how injected instructions get past a person reading it.
    ///
    /// ## Example
    /// ```sh
    /// echo cm0gLXJmIH4= | base64 -d | sh   # approve (and whatever it decodes to)
    /// echo aGVsbG8= | base64 -d            # allow: decoded, only printed
    /// ```
    ///
    /// ## Known limitations
    /// Decoding done by an interpreter (`python3 -c 'exec(base64..)'`) is judged by the
    /// interpreter rules, not here.
    pub struct DecodedContentExecuted;
    code: "SG4002",
    name: "decoded-content-executed",
    severity: Approve,
    category: RemoteCode,
    hermes: [DECODED = "pipe decoded content to shell (possible command obfuscation)", XXD = "pipe xxd-decoded content to shell (possible command obfuscation)", TR = "pipe tr-transformed output to shell (possible command obfuscation)", OPENSSL = "pipe openssl-decoded content to shell (possible command obfuscation)"],
    programs: [],
    summary: "Decoded or transformed content is run as code",
    pass: ["echo aGVsbG8= | base64 -d", "base64 -d key.b64 > key.bin", "zcat logs.gz | grep error", "printf 'hello\\n' | sh"],
    fail: [
        "echo ZWNobyBoaQ== | base64 -d | sh",
        "base64 --decode payload.txt | bash",
        "xxd -r -p hex.txt | bash",
        "cat x | tr 'a-z' 'n-za-m' | sh",
        "openssl enc -d -aes256 -in p.enc -k k | sh",
        "sh -c \"$(echo ZWNobyBoaQ== | base64 -d)\"",
        "printf '\\x6c\\x73' | bash",
    ],
}

fn escapes(text: &str) -> bool {
    text.contains("\\x")
        || text.contains("\\u")
        || text.contains("\\0")
        || text
            .chars()
            .collect::<Vec<_>>()
            .windows(2)
            .any(|w| w[0] == '\\' && w[1].is_ascii_digit())
}

/// Is this command an obfuscating decoder (not a decompressor)?
pub fn obfuscating(cmd: &Command) -> bool {
    let Some(n) = cmd.name.as_deref() else {
        return false;
    };
    let o = &cmd.opts;
    match n {
        // Read by the grammar: `-d` in a bundle, `--decode` and its abbreviations.
        "base64" | "base32" | "basenc" => o.flag('d', "decode") || o.short('D'),
        // xxd names an option by its first letter: `-r`, `-revert`, `-rp`.
        "xxd" => o.short('r'),
        // openssl's `-name` options follow its subcommand (`openssl base64 -d`).
        "openssl" => o.long("d") || o.long("decrypt"),
        "uudecode" | "rev" => true,
        "tr" => !cmd.args().is_empty(),
        "perl" => cmd
            .arg_texts()
            .iter()
            .any(|a| a.contains("pack") || a.contains("decode")),
        "printf" => cmd.arg_texts().first().is_some_and(|a| escapes(a)),
        // The last of `-e`/`-E` decides whether echo expands escapes.
        "echo" => {
            o.all()
                .filter(|x| matches!(x.name.as_str(), "e" | "E"))
                .last()
                .is_some_and(|x| x.name == "e")
                && o.operand_words(cmd.args())
                    .iter()
                    .any(|w| escapes(&w.text_with("")))
        }
        _ => false,
    }
}

fn key_for(cmd: &Command) -> &'static str {
    match cmd.name.as_deref() {
        Some("xxd") => DecodedContentExecuted::XXD,
        Some("tr") => DecodedContentExecuted::TR,
        Some("openssl") => DecodedContentExecuted::OPENSSL,
        _ => DecodedContentExecuted::DECODED,
    }
}

impl Rule for DecodedContentExecuted {
    fn check_script(&self, cx: &Cx, out: &mut Vec<Finding>) {
        // What a network node reaches (another rule's case), found once for all nodes; a
        // network node itself asks for a network node other than itself.
        let is_network = |a: NodeIndex| matches!(cx.flow.graph[a], FlowNode::Network { .. });
        let reached = reached_from(cx.flow, &is_network);
        let from_network = |n: NodeIndex| {
            if is_network(n) {
                ancestors(cx.flow, n).into_iter().any(is_network)
            } else {
                reached.contains(&n)
            }
        };
        let start = |n: NodeIndex| {
            node_command(cx.flow, cx.script, n).is_some_and(obfuscating) && !from_network(n)
        };
        for (id, path) in code_paths(cx, &start) {
            let Some(cmd) = cx.script.command(id) else {
                continue;
            };
            let Some(decoder) = path
                .first()
                .and_then(|(n, _)| node_command(cx.flow, cx.script, *n))
            else {
                continue;
            };
            let dname = decoder.name.clone().unwrap_or_default();
            let runner = cmd.name.clone().unwrap_or_default();
            let mut f = Finding::on(&Self::META, cmd, format!("output of `{dname}` (decoded or transformed text) is run as code by `{runner}`{}", route(cmd)))
                .with_evidence(cx.flow.describe(cx.script, &path));
            f.hermes = vec![key_for(decoder)];
            out.push(f);
        }
    }
}
