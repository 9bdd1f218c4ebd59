//! The plain-word fast path of `syntax::parse` must build exactly tree-sitter's tree: for
//! every command of corpus/*.toml, grammar-tests/ and the shared corpora (skipped when
//! absent), for generated word and operator sequences, and for long chains past the depth
//! and node cuts, whenever it accepts a text its tree equals tree-sitter's node for node
//! (kind, named, field, span, children, error flags) with the same problems.
#![expect(
    clippy::print_stderr,
    reason = "the test reports how much the fast path took"
)]

use std::path::PathBuf;

use proptest::prelude::*;

#[path = "../benches/support/mod.rs"]
mod support;
use shellgate::syntax;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Checks one text; returns whether the fast path accepted it.
fn same_tree_when_accepted(text: &str) -> Result<bool, String> {
    let Some(fast) = syntax::parse_plain(text) else {
        return Ok(false);
    };
    let ts = syntax::parse_tree_sitter(text).map_err(|e| e.to_string())?;
    if fast == ts {
        Ok(true)
    } else {
        Err(format!(
            "{text:?}\nfast path:\n{}tree-sitter:\n{}\n{fast:?}\n{ts:?}",
            fast.sexp(fast.root, text),
            ts.sexp(ts.root, text)
        ))
    }
}

fn check_all<'a>(texts: impl IntoIterator<Item = &'a str>) -> (usize, usize) {
    let (mut total, mut accepted) = (0, 0);
    let mut failures = Vec::new();
    for t in texts {
        total += 1;
        match same_tree_when_accepted(t) {
            Ok(true) => accepted += 1,
            Ok(false) => {}
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} texts differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    (total, accepted)
}

fn corpus_commands() -> Vec<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(manifest().join("corpus"))
        .expect("corpus dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read corpus file");
        let doc: toml::Table = toml::from_str(&text).expect("corpus toml");
        for case in doc
            .get("case")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
        {
            if let Some(cmd) = case.get("cmd").and_then(|c| c.as_str()) {
                out.push(cmd.to_string());
            }
        }
    }
    out
}

fn grammar_inputs() -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(manifest().join("grammar-tests"))
        .expect("grammar-tests dir")
        .flatten()
    {
        let text = std::fs::read_to_string(e.path()).expect("read grammar file");
        for block in text.split("=== ").skip(1) {
            let (_, rest) = block.split_once('\n').unwrap_or((block, ""));
            let (input, _) = rest.split_once("\n---\n").unwrap_or((rest, ""));
            out.push(input.to_string());
        }
    }
    out
}

#[test]
fn fast_path_equals_tree_sitter_on_every_corpus_command() {
    let cmds = corpus_commands();
    let (total, accepted) = check_all(cmds.iter().map(String::as_str));
    assert!(total > 1000, "corpus read {total} commands");
    // Not vacuous: plenty of the corpus is plain words.
    assert!(accepted > 100, "fast path accepted only {accepted}");
}

#[test]
fn fast_path_equals_tree_sitter_on_every_grammar_test_input() {
    let inputs = grammar_inputs();
    let (total, accepted) = check_all(inputs.iter().map(String::as_str));
    assert!(
        total > 50 && accepted > 0,
        "{total} inputs, {accepted} accepted"
    );
}

#[test]
fn fast_path_equals_tree_sitter_on_the_shared_corpora_when_present() {
    let dir = match std::env::var_os("SHELLGATE_CORPORA") {
        Some(d) => PathBuf::from(d),
        None => manifest().join("../shared/corpora"),
    };
    for name in ["tldr.jsonl", "nl2bash.jsonl"] {
        let Ok(text) = std::fs::read_to_string(dir.join(name)) else {
            eprintln!("{name} not found in {}; skipped", dir.display());
            continue;
        };
        let cmds: Vec<String> = text
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| v.get("cmd").and_then(|c| c.as_str()).map(str::to_string))
            .collect();
        let (total, accepted) = check_all(cmds.iter().map(String::as_str));
        eprintln!("{name}: fast path took {accepted} of {total}");
    }
}

#[test]
fn fast_path_declines_what_is_not_plain_commands_and_operators() {
    for text in [
        "",
        "   ",
        "\n",
        "\nls",
        "x=1",
        "x=1 ls",
        "export a=b",
        "declare -x a",
        "local a",
        "readonly a",
        "typeset a",
        "unset a",
        "unsetenv a",
        "if",
        "then x",
        "do x",
        "function f",
        "echo 0x1f",
        "echo -0x1",
        "ls 'a'",
        "ls ~",
        "ls *",
        "ls a # c",
        "ls $a",
        "ls \\a",
        "ls a\r",
        "ls é",
        // Operators with no command on one side, or tokens the fast path does not take.
        "ls &&",
        "ls && ",
        "ls &&\n",
        "ls |",
        "&& ls",
        "| ls",
        "; ls",
        "ls && && ls",
        "ls | | ls",
        "ls &&& ls",
        "ls;;",
        "ls ;; ls",
        "ls ;& ls",
        "ls ; ; ls",
        "ls\n;",
        "ls\n&& ls",
        "ls\n| ls",
        "ls &> f",
        "ls & > f",
        "ls && x=1",
        "ls | if",
        "ls; export a",
        // Redirections other than one blank-preceded `> word` at the end of a command.
        "ls >",
        "> f",
        "ls 2>f",
        "ls>f",
        "ls >> f",
        "ls >& f",
        "ls >| f",
        "ls > f g",
        "ls > f\ng > ==",
        "ls < f",
        "ls > ==",
        // The grammar's pipeline conflict (see plain.rs): not mirrored.
        "ls | ls | ls && ls",
        "ls | ls | ls > f && ls",
        "ls > f | ls | ls && ls",
        "ls | ls | ls\nls",
        "ls && ls | ls | ls\nls && ls",
    ] {
        assert!(syntax::parse_plain(text).is_none(), "accepted {text:?}");
    }
}

#[test]
fn fast_path_takes_plain_words_numbers_and_trailing_blanks() {
    for text in [
        "ls -la /tmp",
        "  git  commit\t-m x \n\n",
        "echo 2 -1 08 a=b --x=1 if fi",
        "7z x f.7z",
        "1 a",
        "-1",
    ] {
        assert_eq!(same_tree_when_accepted(text), Ok(true), "{text:?}");
    }
}

#[test]
fn fast_path_takes_lists_pipelines_statements_and_redirects_as_tree_sitter_parses_them() {
    for text in [
        "ls -la && echo ok",
        "ls&&echo||cat",
        "a1 && b2 || c3 && d4",
        "ps aux | grep x",
        "ps aux | grep x | head -n 1",
        "ls |& cat",
        "ls; pwd",
        "ls;pwd;",
        "ls & pwd &",
        "ls\npwd\n\n",
        "ls;\npwd",
        "ls &&\n  pwd",
        "ls |\n\n cat",
        "echo 2 > f2.txt && cd x",
        "echo 2 >f2.txt",
        "mkdir -p d0 && cd d0 && echo 2 > f2.txt && mkdir -p d3 && echo 5 > f5.txt",
        "ls && cat > f | wc -l",
        "ls | cat > f | wc",
        "ls > f > g",
        "ls > f; cat f &",
        "ls | ls | ls; ls && ls",
        "ls | ls | ls & ls && ls",
        "ls && ls | ls | ls && ls",
        "ls | ls | ls > f",
        "ls | ls | ls\n\n",
    ] {
        assert_eq!(same_tree_when_accepted(text), Ok(true), "{text:?}");
    }
}

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-z0-9_./:,+@%=-]{1,8}",
        "-?[0-9]{1,4}",
        "-?0x[0-9a-f]{0,3}",
        "[a-z]{1,3}=[a-z0-9]{0,3}",
        "-{1,2}[a-z]{1,4}(=[a-z0-9]{0,3})?",
        prop::sample::select(vec![
            "if", "then", "else", "elif", "fi", "case", "esac", "in", "for", "select", "while",
            "until", "do", "done", "function", "declare", "typeset", "export", "readonly", "local",
            "unset", "unsetenv", "time", "coproc", "a", "k", "u", "U", "Q", "-", "--", "=", "+",
            "%", ":", "-a", "-o", "-eq", "-f", "-z", "test", "exec", "command", "1", "-1", "0",
            "00", "a=b", "=a", "a=", "@", "@@",
        ])
        .prop_map(str::to_string),
    ]
}

fn blank() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![" ", " ", "  ", "\t", " \t ", "\t\t"])
}

fn tail() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["", "", " ", "\n", "\n\n", " \n", "\t\n ", "\n \n"])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn generated_word_sequences_parse_as_tree_sitter_parses_them(
        lead in prop::sample::select(vec!["", "", " ", "\t", "  "]),
        words in prop::collection::vec((word(), blank()), 1..7),
        end in tail(),
    ) {
        let mut text = lead.to_string();
        for (i, (w, b)) in words.iter().enumerate() {
            if i > 0 {
                text.push_str(b);
            }
            text.push_str(w);
        }
        text.push_str(end);
        prop_assert_eq!(same_tree_when_accepted(&text).map(|_| ()), Ok(()));
    }

    #[test]
    fn generated_bytes_of_the_alphabet_parse_as_tree_sitter_parses_them(
        text in "[A-Za-z0-9_./:,+@%= \t\n-]{0,30}",
    ) {
        prop_assert_eq!(same_tree_when_accepted(&text).map(|_| ()), Ok(()));
    }

    #[test]
    fn generated_operator_sequences_parse_as_tree_sitter_parses_them(
        lead in prop::sample::select(vec!["", "", " ", "\t", "\n", "&& ", "| "]),
        commands in prop::collection::vec(
            (prop::collection::vec((plain_or_any_word(), blank()), 1..4), operator()),
            1..9,
        ),
        end in prop::sample::select(vec!["", "", "", " ", "\n", " \n\n", "\t"]),
    ) {
        let mut text = lead.to_string();
        for (i, (words, op)) in commands.iter().enumerate() {
            for (j, (w, b)) in words.iter().enumerate() {
                if j > 0 {
                    text.push_str(b);
                }
                text.push_str(w);
            }
            // The last command's operator is trailing: kept one time in three.
            if i + 1 < commands.len() || op.len() % 3 == 0 {
                text.push_str(op);
            }
        }
        text.push_str(end);
        prop_assert_eq!(same_tree_when_accepted(&text).map(|_| ()), Ok(()));
    }

    #[test]
    fn generated_operator_byte_strings_parse_as_tree_sitter_parses_them(
        text in "([b-c1 ]{1,3}[|&;> \n]{0,3}){1,10}",
    ) {
        prop_assert_eq!(same_tree_when_accepted(&text).map(|_| ()), Ok(()));
    }
}

/// Mostly words the fast path takes as commands, so that most generated texts get past the
/// first word and the operators are what is tested; sometimes any word of [`word`].
fn plain_or_any_word() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec![
            "ls", "cd", "echo", "-la", "x", "d0", "f.txt", "1", "-1", "08", "--", "-", "in",
            "do", "done", "a.b", "/tmp",
        ])
        .prop_map(str::to_string),
        1 => word(),
    ]
}

/// What follows a command: the operators the fast path takes with blanks and newlines
/// around them or none, and their near misses (doubled, adjacent, file descriptors, other
/// redirections, case terminators, a newline before an operator, CR, comments).
fn operator() -> impl Strategy<Value = String> {
    let core = prop::sample::select(vec![
        "&&", "||", "|", "|&", ";", "&", "\n", ">", "> f", ">f", "> 2", "> -", "> x=1", "> f > g",
        "> f >g", ";;", ";&", ";;&", "&>", "&>>", ">>", ">&", ">|", "2>", "<", "&& &&", "| |",
        "||&", "&&&", "; ;", "\n&&", "\n|", "&&\n", "||\n\n", "|\n", ";\n", "&\n", "\n\n", "\r\n",
        " #", "\\\n", "> f\n",
    ]);
    (
        prop::sample::select(vec!["", " ", " ", "  ", "\t"]),
        core,
        prop::sample::select(vec!["", " ", " ", "\t", "\n", " \n "]),
    )
        .prop_map(|(a, op, b)| format!("{a}{op}{b}"))
}

#[test]
fn long_chains_past_the_depth_cut_give_tree_sitters_tree_and_problems() {
    let texts = [
        // The scaling series' `and_chain`, ~2 400 commands.
        support::script("and_chain", 30_000),
        vec!["git status"; 2_000].join(" && "),
        vec!["ls -l"; 1_500].join(" || ") + "\n",
        vec!["cat f"; 3_000].join(" | "),
        vec!["echo 1 > f"; 1_000].join("; "),
    ];
    for text in &texts {
        assert_eq!(same_tree_when_accepted(text), Ok(true), "{}", &text[..40]);
    }
    let deep = syntax::parse_plain(&texts[0]).expect("fast path");
    assert!(
        deep.problems
            .iter()
            .any(|p| matches!(p, syntax::ParseProblem::TooDeep { .. })),
        "2 000+ commands joined by && reach the depth cut: {:?}",
        deep.problems
    );
}

#[test]
fn statements_past_the_node_limit_give_tree_sitters_tree_and_problem() {
    // 4 nodes per statement (command, command_name, number, `;`): past MAX_NODES.
    let text = "1;".repeat(syntax::MAX_NODES / 4 + 10);
    let fast = syntax::parse_plain(&text).expect("the fast path takes the statements");
    assert!(
        fast.problems
            .iter()
            .any(|p| matches!(p, syntax::ParseProblem::TooManyNodes { .. })),
        "{:?}",
        fast.problems
    );
    assert_eq!(fast.nodes.len(), syntax::MAX_NODES);
    let ts = syntax::parse_tree_sitter(&text).expect("tree-sitter");
    assert!(fast == ts, "trees or problems differ past the node limit");
}

/// Exhaustive over short words: every first word of up to 4 bytes from a representative of
/// each byte class the fast path takes there, every argument of up to 3 bytes from one of
/// each byte class of the alphabet, alone and between other arguments.
#[test]
fn every_short_word_of_the_alphabet_parses_as_tree_sitter_parses_it() {
    fn strings(alpha: &str, n: usize) -> Vec<String> {
        let alpha: Vec<char> = alpha.chars().collect();
        let mut words = vec![String::new()];
        let mut all = Vec::new();
        for _ in 0..n {
            let mut next = Vec::new();
            for w in &words {
                for c in &alpha {
                    next.push(format!("{w}{c}"));
                }
            }
            all.extend(next.iter().cloned());
            words = next;
        }
        all
    }
    let mut bad_first = Vec::new();
    let mut bad_arg = Vec::new();
    for w in strings("Aa0_./:,-", 4) {
        if same_tree_when_accepted(&w).is_err()
            || same_tree_when_accepted(&format!("{w} a")).is_err()
        {
            bad_first.push(w.clone());
        }
    }
    for w in strings("Aa0_./:,+@%=-", 3) {
        if same_tree_when_accepted(&format!("x {w}")).is_err()
            || same_tree_when_accepted(&format!("x a {w} b")).is_err()
        {
            bad_arg.push(w.clone());
        }
    }
    assert!(bad_first.is_empty(), "first words differ: {bad_first:?}");
    assert!(bad_arg.is_empty(), "arguments differ: {bad_arg:?}");
}
