//! The protocol between shellgate and its own plugins inside OpenCode and Pi
//! (`integrations/opencode/`, `integrations/pi/`): the plugin sends the tool call as JSON
//! on stdin and reads one answer on stdout, `{"decision": "allow"|"ask"|"deny",
//! "reason"}`, exit 0. Every answer is explicit, allow included, so a plugin lets a call
//! run only on a well-formed allow: a crash, a timeout, an empty or unreadable answer or
//! another exit status blocks it there (the plugins' own fail-closed rule).

use serde_json::json;

use super::{Action, Event, Reply, Verdict};
use crate::Decision;

/// The answer line for `decision` with `reason`.
pub fn decision(decision: &str, reason: &str) -> Reply {
    let v = if reason.is_empty() {
        json!({ "decision": decision })
    } else {
        json!({ "decision": decision, "reason": reason })
    };
    Reply::stdout(v.to_string() + "\n")
}

/// The answer to a judged call. `ask_as_deny` names the host when its plugin has no way to
/// ask a person, so the ask arrives as a deny saying a person must approve.
pub fn answer(ev: &Event, v: &Verdict, ask_as_deny: Option<&str>) -> Reply {
    if matches!(ev.action, Action::PassThrough) {
        return decision("allow", "");
    }
    match (v.decision, ask_as_deny) {
        (Decision::Allow, _) => decision("allow", ""),
        (Decision::Ask, None) => decision("ask", &v.reason),
        (Decision::Ask, Some(host)) => decision("deny", &super::ask_as_deny(&v.reason, host)),
        (Decision::Deny, _) => decision("deny", &v.reason),
    }
}

/// A deny for what could not be judged; it needs no parsed event.
pub fn refuse(reason: &str) -> Reply {
    decision("deny", reason)
}
