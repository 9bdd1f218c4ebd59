//! `shellgate install amp`: rules in `amp.permissions` (Amp's `settings.json`) that delegate
//! each shell and file tool to the shellgate binary, which Amp runs with no arguments
//! (`shellgate` recognises the call by `AGENT=amp` and `AGENT_TOOL_NAME`). Amp uses the
//! first rule that matches, so shellgate's rules go before the first rule that is not a
//! `reject`: the user's rejects still reject, and no earlier allow or ask skips shellgate.

use serde_json::{Value, json};

use super::amp::DELEGATED_TOOLS;
use super::install::parse_settings;
use super::jsonedit::{self, Kind, Node};

const KEY: &str = "amp.permissions";

fn is_ours(rule: &Node) -> bool {
    let s = |k: &str| rule.get(k).and_then(Node::as_str);
    s("action") == Some("delegate")
        && s("tool").is_some_and(|t| DELEGATED_TOOLS.contains(&t))
        && s("to").is_some_and(|to| {
            std::path::Path::new(to)
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("shellgate"))
        })
}

fn rules(root: &Node) -> Result<Option<&Node>, String> {
    match root.get(KEY) {
        None => Ok(None),
        Some(n) if matches!(n.kind, Kind::Array(_)) => Ok(Some(n)),
        Some(_) => Err(format!("its \"{KEY}\" is not an array")),
    }
}

pub fn install(before: &str, binary: &str) -> Result<String, String> {
    let mut text = uninstall(before)?;
    let root = parse_settings(&text)?;
    let ours: Vec<Value> = DELEGATED_TOOLS
        .iter()
        .map(|t| json!({"tool": t, "action": "delegate", "to": binary}))
        .collect();
    let Some(arr) = rules(&root)? else {
        return Ok(jsonedit::insert_member(
            &text,
            &root,
            KEY,
            &Value::Array(ours),
        ));
    };
    let at = arr
        .elements()
        .iter()
        .position(|r| r.get("action").and_then(Node::as_str) != Some("reject"))
        .unwrap_or(arr.elements().len());
    for rule in ours.iter().rev() {
        let root = parse_settings(&text)?;
        let Some(arr) = rules(&root)? else {
            return Err(format!("its \"{KEY}\" disappeared while editing"));
        };
        text = jsonedit::insert_element(&text, arr, at, rule);
    }
    Ok(text)
}

/// Remove shellgate's rules; the list itself when nothing else is left in it.
pub fn uninstall(before: &str) -> Result<String, String> {
    let mut text = before.to_string();
    loop {
        let root = parse_settings(&text)?;
        let Some(arr) = rules(&root)? else {
            return Ok(text);
        };
        let Some(i) = arr.elements().iter().position(is_ours) else {
            return Ok(text);
        };
        text = if arr.elements().len() == 1 {
            let idx = match &root.kind {
                Kind::Object(m) => m.iter().position(|(k, _, _)| k == KEY).unwrap_or(0),
                _ => 0,
            };
            jsonedit::remove_child(&text, &root, &jsonedit::member_spans(&root), idx)
        } else {
            jsonedit::remove_child(&text, arr, &jsonedit::element_spans(arr), i)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delegates_go_after_the_users_rejects_and_come_out_byte_for_byte() {
        let before = "{\n  \"amp.url\": \"https://ampcode.com\",\n  \"amp.permissions\": [\n    {\"tool\": \"Bash\", \"matches\": {\"cmd\": \"*git push*\"}, \"action\": \"reject\"},\n    {\"tool\": \"Bash\", \"action\": \"allow\"}\n  ]\n}\n";
        let after = install(before, "/usr/bin/shellgate").unwrap_or_else(|e| panic!("{e}"));
        let v: Value = serde_json::from_str(&after).unwrap_or_else(|e| panic!("{e}: {after}"));
        let rules = v[KEY].as_array().cloned().unwrap_or_default();
        assert_eq!(rules[0]["action"], "reject");
        assert_eq!(rules[1]["to"], "/usr/bin/shellgate");
        assert_eq!(rules[1]["tool"], "Bash");
        assert_eq!(
            rules.last().map(|r| r["action"].clone()),
            Some(json!("allow"))
        );
        assert_eq!(
            install(&after, "/usr/bin/shellgate").as_deref(),
            Ok(after.as_str())
        );
        assert_eq!(uninstall(&after).as_deref(), Ok(before));
        let fresh = install("{}\n", "/usr/bin/shellgate").unwrap_or_default();
        assert_eq!(uninstall(&fresh).as_deref(), Ok("{}\n"));
        assert!(install("{\"amp.permissions\": {}}", "/x/shellgate").is_err());
    }
}
