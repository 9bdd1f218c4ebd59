//! `shellgate install opencode|pi`: these harnesses take a plugin file, not a hook entry.
//! The file is shellgate's own (`integrations/opencode/shellgate.js`,
//! `integrations/pi/shellgate.ts`, with the binary's path filled in): install writes it
//! whole, uninstall removes it, and a file of that name that shellgate did not write is
//! never touched.

use super::Harness;

const OPENCODE: &str = include_str!("../../integrations/opencode/shellgate.js");
const PI: &str = include_str!("../../integrations/pi/shellgate.ts");
/// The placeholder the templates carry for the binary's path.
const BINARY_SLOT: &str = "\"__SHELLGATE_BIN__\"";

fn template(harness: Harness) -> Result<&'static str, String> {
    match harness {
        Harness::OpenCode => Ok(OPENCODE),
        Harness::Pi => Ok(PI),
        h => Err(format!("{} takes no plugin file", h.name())),
    }
}

/// The binary of a hook command line (`'/path/shellgate' hook NAME`).
pub fn binary_of(command: &str) -> Result<String, String> {
    shell_words::split(command)
        .ok()
        .and_then(|w| w.into_iter().next())
        .ok_or_else(|| format!("cannot read the shellgate binary from {command:?}"))
}

/// Did shellgate write this file? Its first line is the template's first line.
fn is_ours(harness: Harness, text: &str) -> bool {
    let first = |t: &str| t.lines().next().map(str::to_string);
    template(harness).is_ok_and(|t| first(t) == first(text))
}

pub fn install(harness: Harness, before: Option<&str>, command: &str) -> Result<String, String> {
    let t = template(harness)?;
    if let Some(b) = before.filter(|b| !b.trim().is_empty() && !is_ours(harness, b)) {
        let _ = b;
        return Err("a file of that name exists and was not written by shellgate".into());
    }
    let bin = serde_json::Value::String(binary_of(command)?).to_string();
    Ok(t.replacen(BINARY_SLOT, &bin, 1))
}

/// `None`: remove the file.
pub fn uninstall(harness: Harness, before: &str) -> Result<Option<String>, String> {
    if is_ours(harness, before) {
        Ok(None)
    } else {
        Err("it was not written by shellgate".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_carries_the_binary_and_uninstall_removes_only_ours() {
        for h in [Harness::OpenCode, Harness::Pi] {
            let text = install(h, None, "'/opt/s g/shellgate' hook x").unwrap_or_default();
            assert!(
                text.contains("const SHELLGATE = \"/opt/s g/shellgate\""),
                "{text}"
            );
            assert!(!text.contains("__SHELLGATE_BIN__"));
            assert_eq!(
                install(h, Some(&text), "/usr/bin/shellgate hook x")
                    .map(|t| t.contains("/usr/bin/shellgate")),
                Ok(true)
            );
            assert_eq!(uninstall(h, &text), Ok(None));
            assert!(uninstall(h, "// my own plugin\n").is_err());
            assert!(install(h, Some("// my own plugin\n"), "/usr/bin/shellgate hook x").is_err());
        }
    }
}
