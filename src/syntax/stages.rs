//! A pre-parse guard for the one input shape that makes tree-sitter-bash quadratic: a single
//! pipeline of thousands of stages with quoted words or compound commands (`grep "x" | grep
//! "x" | ...`). The parser defers every reduction of such a pipeline to its end and then
//! rebuilds the pipeline node once per stage, so 8 000 stages take a second and 440 MB and
//! 80 000 (800 KB) exhaust memory; no progress callback runs during that cascade. Ordinary
//! pipelines, `&&` chains, argument lists and statement sequences of the same length parse
//! in linear time (measured shape by shape, docs/PERFORMANCE.md "Scaling").
//!
//! [`longest_pipeline`] over-approximates the number of stages of the longest pipeline with
//! a small lexer that follows bash's quoting (single and double quotes, backslashes, `$(..)`,
//! backticks, comments, heredoc bodies), so text inside quotes, comments or heredocs (a
//! markdown table written with `cat <<EOF`) is not counted. A line ending in `|`, `&&` or
//! `||` continues the pipeline, as in bash.

/// More stages than this in one pipeline and tree-sitter is not run: the text is judged
/// unparsed. At this length the slowest shape measured parses in about 0.1 s and 45 MB.
pub const MAX_PIPELINE_STAGES: usize = 2_000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// Unquoted text at the top or inside `$(..)` (with its open-paren depth).
    Code(u32),
    Double,
    Backtick,
}

/// The number of stages of the longest pipeline in `text`, over-approximated.
pub fn longest_pipeline(text: &str) -> usize {
    let b = text.as_bytes();
    let mut stack = vec![Ctx::Code(0)];
    let (mut pipes, mut longest) = (0usize, 0usize);
    // The last token continues the statement onto the next line (`|`, `&&`, `||`).
    let mut continued = false;
    let mut word_start = true;
    let mut heredocs: Vec<(Vec<u8>, bool)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        let ctx = stack.last().copied().unwrap_or(Ctx::Code(0));
        i += 1;
        match ctx {
            Ctx::Double | Ctx::Backtick => match c {
                b'\\' => i += 1,
                // Backquoted text is code: its pipes are stages.
                b'|' if ctx == Ctx::Backtick && next != Some(b'|') => {
                    pipes += 1;
                    longest = longest.max(pipes);
                }
                b'"' if ctx == Ctx::Double => {
                    stack.pop();
                }
                b'`' if ctx == Ctx::Backtick => {
                    stack.pop();
                }
                b'`' => stack.push(Ctx::Backtick),
                b'$' if next == Some(b'(') => {
                    stack.push(Ctx::Code(0));
                    i += 1;
                }
                _ => {}
            },
            Ctx::Code(depth) => {
                let blank = matches!(c, b' ' | b'\t');
                let pair = next == Some(c) && matches!(c, b'|' | b'&');
                match c {
                    b'\\' => i += 1,
                    b'\'' => {
                        while i < b.len() && b[i] != b'\'' {
                            i += 1;
                        }
                        i += 1;
                    }
                    b'"' => stack.push(Ctx::Double),
                    b'`' => stack.push(Ctx::Backtick),
                    b'#' if word_start => {
                        while i < b.len() && b[i] != b'\n' {
                            i += 1;
                        }
                    }
                    b'$' if next == Some(b'(') => {
                        stack.push(Ctx::Code(0));
                        i += 1;
                    }
                    // Groups count like parentheses: a `;` inside `{ a; } | { b; }` does not
                    // end the pipeline.
                    b'{' if word_start && matches!(next, Some(b' ' | b'\t' | b'\n')) => {
                        set_depth(&mut stack, depth + 1);
                    }
                    b'}' if word_start && depth > 0 => set_depth(&mut stack, depth - 1),
                    b'(' => set_depth(&mut stack, depth + 1),
                    b')' if depth == 0 && stack.len() > 1 => {
                        stack.pop();
                    }
                    b')' => set_depth(&mut stack, depth.saturating_sub(1)),
                    b'|' if next == Some(b'|') => i += 1,
                    b'|' => {
                        pipes += 1;
                        longest = longest.max(pipes);
                        if next == Some(b'&') {
                            i += 1;
                        }
                    }
                    b'&' if next == Some(b'&') => i += 1,
                    b'&' | b';' if depth == 0 => pipes = 0,
                    // Only outside parentheses: `$((1 << 2))` is a shift, not a heredoc.
                    b'<' if depth == 0 && next == Some(b'<') && b.get(i + 1) != Some(&b'<') => {
                        i += 1;
                        if let Some(h) = heredoc_word(b, &mut i) {
                            heredocs.push(h);
                        }
                    }
                    b'\n' => {
                        if !continued && depth == 0 {
                            pipes = 0;
                        }
                        for (word, tabs) in std::mem::take(&mut heredocs) {
                            skip_body(b, &mut i, &word, tabs);
                        }
                    }
                    _ => {}
                }
                if !blank && c != b'\n' {
                    continued = c == b'|' || pair;
                }
                word_start = blank || matches!(c, b'\n' | b';' | b'&' | b'|' | b'(');
            }
        }
    }
    longest + 1
}

fn set_depth(stack: &mut [Ctx], depth: u32) {
    if let Some(top) = stack.last_mut() {
        *top = Ctx::Code(depth);
    }
}

/// After `<<`: the delimiter word (quotes and backslashes removed) and whether `<<-` strips
/// leading tabs. `i` is left after the word.
fn heredoc_word(b: &[u8], i: &mut usize) -> Option<(Vec<u8>, bool)> {
    let tabs = b.get(*i) == Some(&b'-');
    if tabs {
        *i += 1;
    }
    while matches!(b.get(*i), Some(b' ' | b'\t')) {
        *i += 1;
    }
    let mut word = Vec::new();
    let mut quote = None;
    while let Some(&c) = b.get(*i) {
        match (quote, c) {
            (None, b'\'' | b'"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, b'\\') => {
                *i += 1;
                if let Some(&e) = b.get(*i) {
                    word.push(e);
                }
            }
            (None, b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')') => break,
            _ => word.push(c),
        }
        *i += 1;
    }
    (!word.is_empty()).then_some((word, tabs))
}

/// Skip heredoc body lines from `i` through the line that is `word` alone.
fn skip_body(b: &[u8], i: &mut usize, word: &[u8], tabs: bool) {
    while *i < b.len() {
        let end = b[*i..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |p| *i + p);
        let mut line = &b[*i..end];
        if tabs {
            while let Some(rest) = line.strip_prefix(b"\t") {
                line = rest;
            }
        }
        *i = end + 1;
        if line == word {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::longest_pipeline;

    #[test]
    fn counts_the_stages_of_the_longest_pipeline() {
        assert_eq!(longest_pipeline("ls"), 1);
        assert_eq!(longest_pipeline("ps aux | grep x | head"), 3);
        assert_eq!(longest_pipeline("a | b; c | d | e"), 3);
        assert_eq!(longest_pipeline("a | b\nc | d | e | f"), 4);
        assert_eq!(longest_pipeline("a |& b | c"), 3);
    }

    #[test]
    fn a_line_ending_in_a_pipe_or_list_operator_continues_the_pipeline() {
        assert_eq!(longest_pipeline("a |\n b |\n c"), 3);
        assert_eq!(longest_pipeline("a | b &&\n c | d"), 3);
    }

    #[test]
    fn pipes_in_quotes_comments_and_heredocs_are_not_stages() {
        assert_eq!(longest_pipeline("echo '| a | b |' \"| c | d\""), 1);
        assert_eq!(longest_pipeline("ls # a | b | c"), 1);
        assert_eq!(
            longest_pipeline("cat <<'EOF' > t.md\n| a | b |\n| c | d |\nEOF\nls | wc"),
            2
        );
        assert_eq!(longest_pipeline("cat <<-X\n\t| a | b |\n\tX\nls"), 1);
        assert_eq!(longest_pipeline("a || b || c"), 1);
    }

    #[test]
    fn separators_inside_groups_and_subshells_do_not_end_the_pipeline() {
        assert_eq!(longest_pipeline("{ a; } | { b; } | (c; d)"), 3);
        assert_eq!(longest_pipeline("{\n a\n} | b"), 2);
        assert_eq!(longest_pipeline("echo {a,b} | c; d | e"), 2);
        assert_eq!(longest_pipeline("echo ${x} | c; d | e"), 2);
    }

    #[test]
    fn pipes_inside_command_substitutions_count() {
        assert_eq!(longest_pipeline("echo \"$(a | b | c)\""), 3);
        assert_eq!(longest_pipeline("echo `a | b`"), 2);
        assert_eq!(longest_pipeline("echo $((1 << 2))\na | b"), 2);
        assert_eq!(longest_pipeline("x=$( (a | b) | c )"), 3);
    }

    #[test]
    fn a_generated_long_pipeline_is_counted_whole() {
        let s = vec!["grep \"x\""; 5_000].join(" | ");
        assert_eq!(longest_pipeline(&s), 5_000);
        let s = vec!["grep \"x\""; 5_000].join(" |\n");
        assert_eq!(longest_pipeline(&s), 5_000);
    }
}
