//! `shellgate hook HARNESS`: read one hook event on stdin and answer in that harness's
//! protocol. The work runs on a worker thread under a deadline, so a hang (stdin never
//! closed, a locked store) ends in the harness's deny, never in its timeout (which some
//! harnesses treat as "run it").

use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::Duration;

use clap::{Args, ValueEnum};

use shellgate::hooks::judge::{HookEnv, judge};
use shellgate::hooks::{EVENT_LIMIT, Harness, Reply, handle, refuse};

/// Default time the hook gives itself before it answers deny; the installers set each
/// harness's hook timeout well above it.
pub(crate) const DEFAULT_DEADLINE_MS: u64 = 20_000;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum HarnessArg {
    Claude,
    Codex,
    Gemini,
    Copilot,
    Hermes,
    /// The protocol of the Hermes plugin in `integrations/hermes/`.
    HermesPlugin,
    Qwen,
    Crush,
    /// The protocol of the OpenCode plugin in `integrations/opencode/`.
    #[value(name = "opencode")]
    OpenCode,
    /// The protocol of the Pi extension in `integrations/pi/`.
    Pi,
    /// Amp's permission delegation (Amp runs `shellgate` itself with no arguments).
    Amp,
    Cursor,
}

impl HarnessArg {
    pub(crate) fn harness(self) -> Harness {
        match self {
            HarnessArg::Claude => Harness::Claude,
            HarnessArg::Codex => Harness::Codex,
            HarnessArg::Gemini => Harness::Gemini,
            HarnessArg::Copilot => Harness::Copilot,
            HarnessArg::Hermes => Harness::Hermes,
            HarnessArg::HermesPlugin => Harness::HermesPlugin,
            HarnessArg::Qwen => Harness::Qwen,
            HarnessArg::Crush => Harness::Crush,
            HarnessArg::OpenCode => Harness::OpenCode,
            HarnessArg::Pi => Harness::Pi,
            HarnessArg::Amp => Harness::Amp,
            HarnessArg::Cursor => Harness::Cursor,
        }
    }
}

#[derive(Args, Debug)]
pub(crate) struct HookArgs {
    /// The harness whose hook protocol stdin and stdout follow.
    #[arg(value_enum)]
    harness: HarnessArg,
}

/// `hook NAME` exactly, the form every installer writes, read without clap: building
/// clap's command tree for every subcommand is ≈ 0.2 M instructions, a tenth of a hook
/// process. Any other argument list (`--help`, an unknown or misspelt harness, extra
/// arguments) returns `None` and goes through clap, so its messages and exit codes stay.
pub(crate) fn exact_args(mut args: impl Iterator<Item = std::ffi::OsString>) -> Option<HookArgs> {
    let (Some(sub), Some(name), None) = (args.next(), args.next(), args.next()) else {
        return None;
    };
    if sub != "hook" {
        return None;
    }
    let harness = HarnessArg::from_str(name.to_str()?, false).ok()?;
    Some(HookArgs { harness })
}

/// Amp runs the program of a delegating permission rule with no arguments, the tool's
/// name in `AGENT_TOOL_NAME` and `AGENT=amp` (`shellgate install amp`). Only that exact
/// call is Amp's hook; `shellgate` with no arguments anywhere else prints its usage.
pub(crate) fn amp_delegate(
    mut args: impl Iterator<Item = std::ffi::OsString>,
    var: impl Fn(&str) -> Option<String>,
) -> Option<HookArgs> {
    let called_by_amp = var("AGENT").as_deref() == Some("amp")
        && var("AGENT_TOOL_NAME").is_some_and(|t| !t.is_empty());
    (args.next().is_none() && called_by_amp).then_some(HookArgs {
        harness: HarnessArg::Amp,
    })
}

/// The deadline from `SHELLGATE_HOOK_DEADLINE_MS` (for tests), else the default.
fn deadline() -> Duration {
    let ms = std::env::var("SHELLGATE_HOOK_DEADLINE_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(DEFAULT_DEADLINE_MS);
    Duration::from_millis(ms)
}

fn read_stdin() -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    std::io::stdin()
        .take(EVENT_LIMIT as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("could not read the hook event from stdin: {e}"))?;
    Ok(buf)
}

/// The hook for `harness`, answered within `limit`.
pub(crate) fn respond(harness: Harness, limit: Duration) -> Reply {
    let started = std::time::Instant::now();
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("hook".into())
        .spawn(move || {
            let reply = match read_stdin() {
                Ok(bytes) => {
                    let bytes = match harness {
                        Harness::Amp => shellgate::hooks::amp::envelope(
                            std::env::var("AGENT_TOOL_NAME").ok().as_deref(),
                            bytes,
                        ),
                        _ => bytes,
                    };
                    let mut env = HookEnv::from_process();
                    env.deadline = Some(started + limit);
                    handle(harness, &bytes, &|ev| judge(harness, ev, &env))
                }
                Err(e) => refuse(harness, None, &e),
            };
            let _ = tx.send(reply);
        });
    if let Err(e) = spawned {
        return refuse(
            harness,
            None,
            &format!("could not start the hook worker: {e}"),
        );
    }
    match rx.recv_timeout(limit) {
        Ok(r) => r,
        Err(mpsc::RecvTimeoutError::Timeout) => refuse(
            harness,
            None,
            &format!(
                "no decision within {} ms (the hook's own deadline)",
                limit.as_millis()
            ),
        ),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            refuse(harness, None, "the hook worker stopped without an answer")
        }
    }
}

/// Write the reply; if a deny cannot be written to stdout, fall back to the blocking exit.
pub(crate) fn emit(reply: &Reply) -> i32 {
    let mut out = std::io::stdout().lock();
    let wrote = out
        .write_all(reply.stdout.as_bytes())
        .and_then(|_| out.flush())
        .is_ok();
    let _ = std::io::stderr().write_all(reply.stderr.as_bytes());
    if reply.block || (!wrote && !reply.stdout.is_empty()) {
        super::EXIT_DENY
    } else if reply.ask {
        super::EXIT_ASK
    } else {
        super::EXIT_ALLOW
    }
}

pub(crate) fn run(a: HookArgs) -> i32 {
    // A panic is turned into a refusal; its default message would only clutter the
    // reason the harness shows.
    std::panic::set_hook(Box::new(|_| {}));
    emit(&respond(a.harness.harness(), deadline()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(args: &[&str]) -> Option<Harness> {
        exact_args(args.iter().map(std::ffi::OsString::from)).map(|a| a.harness.harness())
    }

    #[test]
    fn only_hook_and_a_known_harness_skip_clap() {
        assert_eq!(exact(&["hook", "claude"]), Some(Harness::Claude));
        assert_eq!(
            exact(&["hook", "hermes-plugin"]),
            Some(Harness::HermesPlugin)
        );
        assert_eq!(exact(&["hook", "opencode"]), Some(Harness::OpenCode));
        for args in [
            &["hook"][..],
            &["hook", "--help"],
            &["hook", "Claude"],
            &["hook", "claudee"],
            &["hook", "claude", "--help"],
            &["check", "claude"],
            &[],
        ] {
            assert_eq!(exact(args), None, "{args:?}");
        }
    }

    #[test]
    fn only_a_bare_call_from_amp_is_the_amp_hook() {
        let amp = |k: &str| match k {
            "AGENT" => Some("amp".to_string()),
            "AGENT_TOOL_NAME" => Some("Bash".to_string()),
            _ => None,
        };
        let none: [std::ffi::OsString; 0] = [];
        let is_amp = |a: Option<HookArgs>| a.map(|a| a.harness.harness()) == Some(Harness::Amp);
        assert!(is_amp(amp_delegate(none.clone().into_iter(), amp)));
        assert!(!is_amp(amp_delegate(
            [std::ffi::OsString::from("check")].into_iter(),
            amp
        )));
        assert!(!is_amp(amp_delegate(none.clone().into_iter(), |_| None)));
        assert!(!is_amp(amp_delegate(none.into_iter(), |k| (k == "AGENT")
            .then(|| "amp".to_string()))));
    }
}
