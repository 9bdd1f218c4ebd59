//! A pre-parse guard for the one input shape that makes tree-sitter-bash quadratic: a single
//! pipeline of thousands of stages with quoted words or compound commands (`grep "x" | grep
//! "x" | ...`). The parser defers every reduction of such a pipeline to its end and then
//! rebuilds the pipeline node once per stage, so 8 000 stages take a second and 440 MB and
//! 80 000 (800 KB) exhaust memory; no progress callback runs during that cascade. Ordinary
//! pipelines, `&&` chains, argument lists and statement sequences of the same length parse
//! in linear time (measured shape by shape, docs/PERFORMANCE.md "Scaling").
//!
//! [`longest_pipeline`] is the count of the crate's one text lexer (`crate::scan`), which
//! follows bash's quoting (single and double quotes, `$'..'`, backslashes, `$(..)`,
//! backticks, arithmetic, comments, heredoc bodies), so text inside quotes, comments or
//! heredocs (a markdown table written with `cat <<EOF`) is not counted. It over-approximates:
//! pipes inside substitutions count toward the pipeline around them, `&&` and `||` do not end
//! it, and a line ending in `|`, `&&` or `||` continues it, as in bash.

/// More stages than this in one pipeline and tree-sitter is not run: the text is judged
/// unparsed. At this length the slowest shape measured parses in about 0.1 s and 45 MB.
pub const MAX_PIPELINE_STAGES: usize = 2_000;

/// The number of stages of the longest pipeline in `text`, over-approximated.
pub fn longest_pipeline(text: &str) -> usize {
    crate::scan::scan(text).longest_pipeline
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
    fn redirections_with_ampersands_do_not_end_a_pipeline() {
        assert_eq!(longest_pipeline("a 2>&1 | b >&2 | c &>/dev/null | d"), 4);
        let s = vec!["grep \"x\" 2>&1"; 3_000].join(" | ");
        assert_eq!(longest_pipeline(&s), 3_000);
    }

    #[test]
    fn a_comment_after_a_pipe_continues_the_pipeline() {
        assert_eq!(longest_pipeline("a | # note\n b | c"), 3);
    }

    #[test]
    fn a_shift_in_arithmetic_does_not_hide_the_pipelines_after_it() {
        let s = format!(
            "echo $((1 << 2))\n{}",
            vec!["grep \"x\""; 5_000].join(" | ")
        );
        assert_eq!(longest_pipeline(&s), 5_000);
    }

    #[test]
    fn a_generated_long_pipeline_is_counted_whole() {
        let s = vec!["grep \"x\""; 5_000].join(" | ");
        assert_eq!(longest_pipeline(&s), 5_000);
        let s = vec!["grep \"x\""; 5_000].join(" |\n");
        assert_eq!(longest_pipeline(&s), 5_000);
    }
}
