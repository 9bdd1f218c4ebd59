//! Text shown to people: one way to make command text safe for a terminal (controls and
//! bidi characters escaped), to clip it, and to quote it, used by the model's `Display`, the
//! CLI's renderer and the model's messages alike.

/// How one character of the command is shown. Control and bidi characters are escaped so
/// that a hostile command cannot repaint the terminal or reorder what the reader sees.
pub fn display_char(c: char) -> String {
    match c {
        '\t' => "    ".to_string(),
        '\n' => "\\n".to_string(),
        '\r' => "\\r".to_string(),
        c if c.is_control() => format!("\\x{:02x}", c as u32),
        '\u{200b}'..='\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}'
        | '\u{feff}' => {
            format!("\\u{{{:04x}}}", c as u32)
        }
        c => c.to_string(),
    }
}

/// How many terminal cells `s` takes once made safe.
pub fn display_width(s: &str) -> usize {
    s.chars().map(|c| display_char(c).chars().count()).sum()
}

/// A command or message made safe to print on a terminal (controls and bidi escaped).
pub fn display(s: &str) -> String {
    display_text(s)
}

/// `s` with every character made safe to print.
pub fn display_text(s: &str) -> String {
    s.chars().map(display_char).collect()
}

/// `s` cut to `max` characters, marked with `…` when cut.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut c: String = s.chars().take(max).collect();
        c.push('…');
        c
    }
}

/// Longest quoted text; a heredoc or payload can be megabytes.
const MAX_QUOTE_CHARS: usize = 200;

/// `s` made safe and in backquotes, cut (with its full length) when long.
pub fn quote(s: &str) -> String {
    let shown = display_text(s);
    if shown.chars().count() <= MAX_QUOTE_CHARS {
        return format!("`{shown}`");
    }
    let head: String = shown.chars().take(MAX_QUOTE_CHARS).collect();
    format!("`{head}…` ({} bytes in all)", s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_and_bidi_and_clips_by_characters() {
        assert_eq!(display("a\x1b[2Jb"), "a\\x1b[2Jb");
        assert_eq!(display("\u{202e}x"), "\\u{202e}x");
        assert_eq!(clip("ééé", 2), "éé…");
        assert_eq!(clip("ab", 2), "ab");
    }
}
