//! SG6101: inline interpreter code that can run processes, delete or write files, use the
//! network or evaluate strings.

use crate::declare_rule;
use crate::model::{Command, RedirectOp};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Reads inline interpreter code — every row of the **interpreter table**
    /// (`src/model/interp/table.rs`): `python -c`, `node -e/-p`, `perl -e/-E`, `ruby -e`,
    /// `php -r`, `deno eval`, `bun -e`, `lua -e`, `R`/`Rscript -e`, `julia -e`, `tclsh`,
    /// `expect -c`, `guile -c`, `clisp -x`, `sbcl --eval`, `ghc -e`, `ocaml`, `pwsh -c`,
    /// `jrunscript -e`, `osascript -e`, `gdb -ex`, `bpftrace -e`, `dc -e`, and heredocs or
    /// pipes into any of them, with code attached to its option (`ruby -e'..'`) wherever
    /// that interpreter accepts it — with a scanner per language (hand-written for the first
    /// five, a dialect table in `dialect.rs` for the rest; comments and string contents are
    /// not code). It flags code that can run processes (`os.system`, `subprocess`,
    /// `os.execute`, `exec`, backticks), delete or write files (`shutil.rmtree`,
    /// `os.remove`, `open(.., 'w')`, `fs.rmSync`), open network connections, or evaluate
    /// strings, or that cannot be read. An `import` alone is no capability; reading
    /// (`open(f, 'rb')`, `pickle.load`, `torch.load`) is allowed. Literal shell-outs,
    /// deletes and write targets (`.to_csv('out.csv')`, `shutil.copytree(a, dst)`,
    /// `extractall(dir)`) are lowered as commands, so `os.system("rm -rf /")` is judged as
    /// `rm -rf /` and a write by its target; a language without a dialect still has its
    /// `system("..")`-like string literals judged as shell code.
    ///
    /// ## Why is this bad?
    /// Inline code is a second language inside the command; whatever it does is invisible
    /// to a shell-level guard unless it is read.
    ///
    /// ## Example
    /// ```sh
    /// python3 -c 'import subprocess; subprocess.run(cmd)'   # approve
    /// python3 -c "import json,sys; print(json.load(sys.stdin)['x'])"  # allowed
    /// ```
    ///
    /// ## Known limitations
    /// Scripts in files (`python3 tool.py`) are not read. Capabilities reached through
    /// reflection the tokenizer does not follow are missed. The dialect-table languages are
    /// read by call names, not parsed: an alias (`local x = os.execute`) hides a call.
    ///
    /// To add an interpreter, add a row to the interpreter table with its option grammar and
    /// a language; to add a language, add a dialect table.
    pub struct InlineCodeCapability;
    code: "SG6101",
    name: "inline-code-with-capabilities",
    severity: Approve,
    category: Interpreters,
    hermes: ["script execution via -e/-c flag", "script execution via heredoc"],
    programs: [],
    summary: "Inline interpreter code that can run processes, touch files, use the network or eval",
    pass: ["python3 -c 'print(1)'", "python3 -c \"import json,sys; print(json.load(sys.stdin)['x'])\"", "node -e 'console.log(1+1)'", "perl -e 'print \"hello\\n\"'", "ruby -e 'puts 1+1'", "python3 script.py", "python3 -c 'import requests, pexpect'", "lua -e 'print(1+1)'", "Rscript -e 'summary(read.csv(\"a.csv\"))'", "gdb --args ./prog -ex '!id'"],
    fail: ["python3 -c 'import subprocess; subprocess.run([\"ls\"])'", "node -e \"require('child_process').execSync('id')\"", "perl -e 'unlink \"x\"'", "python3 - <<EOF\nimport socket\nsocket.socket()\nEOF", "ruby -e 'File.write(\"x\", \"y\")'", "php -r 'eval($x);'", "python3 -c \"$CODE\"", "ruby -e'system(\"id\")'", "lua -e 'os.execute(\"id\")'", "osascript -e 'do shell script \"id\"'", "pwsh -c 'Start-Process notepad'", "gdb -batch -ex 'shell id'"],
}

impl Rule for InlineCodeCapability {
    fn check_script(&self, _cx: &Cx, out: &mut Vec<Finding>) {
        for cmd in &_cx.script.commands {
            let Some(inline) = &cmd.inline else { continue };
            let name = cmd.name.as_deref().unwrap_or("interpreter");
            let via_heredoc = cmd
                .redirects
                .iter()
                .any(|r| matches!(r.op, RedirectOp::Heredoc | RedirectOp::HereString))
                || cmd.pipe.is_some();
            let key = if via_heredoc {
                "script execution via heredoc"
            } else {
                "script execution via -e/-c flag"
            };
            if let Some(reason) = &inline.unreadable {
                push(
                    cmd,
                    out,
                    format!(
                        "{name} runs inline code shellgate could not read ({reason}){}",
                        route(cmd)
                    ),
                    key,
                );
                continue;
            }
            if inline.capabilities.is_empty() {
                continue;
            }
            let mut caps: Vec<String> = inline
                .capabilities
                .iter()
                .map(|(k, w)| format!("{k}: {w}"))
                .collect();
            caps.dedup();
            caps.truncate(6);
            push(
                cmd,
                out,
                format!(
                    "{name} inline code can {} ({}){}",
                    kinds(cmd),
                    caps.join(", "),
                    route(cmd)
                ),
                key,
            );
        }
    }
}

fn kinds(cmd: &Command) -> String {
    let mut k: Vec<&str> = cmd
        .inline
        .iter()
        .flat_map(|i| i.capabilities.iter())
        .map(|(k, _)| match k.as_str() {
            "process" => "run processes",
            "delete" => "delete files",
            "write" => "write files",
            "network" => "use the network",
            _ => "evaluate strings",
        })
        .collect();
    k.sort_unstable();
    k.dedup();
    k.join(" and ")
}

fn push(cmd: &Command, out: &mut Vec<Finding>, msg: String, key: &'static str) {
    let mut f = Finding::on(&InlineCodeCapability::META, cmd, msg);
    f.hermes = vec![key];
    out.push(f);
}
