//! Table tests of the lowered model: word decoding, program resolution, expansion and
//! scoping semantics that every rule relies on.

use shellgate::model::{Command, WordValue};
use shellgate::policy::decide_default;
use shellgate::{Context, analyze};

fn commands(cmd: &str) -> Vec<Command> {
    analyze(cmd, &Context::fixture()).script.commands
}

fn first_named(cmd: &str, name: &str) -> Command {
    match commands(cmd).into_iter().find(|c| c.is(name)) {
        Some(c) => c,
        None => panic!("no `{name}` command lowered from {cmd:?}"),
    }
}

fn args(c: &Command) -> Vec<Option<String>> {
    c.args().iter().map(|w| w.lit()).collect()
}

#[test]
fn every_spelling_of_rm_resolves_to_the_program_rm() {
    for spelling in [
        "rm",
        "r\\m",
        "'r'm",
        "\"rm\"",
        "r\"\"m",
        "$'\\x72\\x6d'",
        "/bin/rm",
        "/usr/bin/rm",
        "\\rm",
        "$'\\162\\155'",
        "$'\\u0072m'",
    ] {
        let cmds = commands(&format!("{spelling} -f x"));
        assert_eq!(cmds.len(), 1, "{spelling}");
        assert_eq!(
            cmds[0].name.as_deref(),
            Some("rm"),
            "{spelling} did not resolve to rm"
        );
    }
}

#[test]
fn prefix_assignment_is_not_seen_by_the_same_command_arguments() {
    let c = first_named("X=1 echo $X", "echo");
    assert!(
        c.args()[0].lit().is_none(),
        "X=1 echo $X must see the old (unknown) X"
    );
    assert_eq!(c.assignments[0].name, "X");
}

#[test]
fn earlier_assignments_expand_later() {
    let c = first_named("X=/srv; export Y=$X/data; ls $Y", "ls");
    assert_eq!(args(&c), vec![Some("/srv/data".to_string())]);
}

#[test]
fn unknown_variable_is_dynamic_and_may_be_empty_never_empty_string() {
    let c = first_named("rm -rf \"$UNSET/\"*", "rm");
    let w = &c.args()[1];
    assert!(w.starts_with_maybe_empty());
    assert!(matches!(w.value(), WordValue::Dynamic { .. }));
}

#[test]
fn parameter_expansion_forms_evaluate_on_known_values() {
    let c = first_named(
        "P=/a/b.tar.gz; echo ${P##*/} ${P%.gz} ${P/a/x} ${P:0:2} ${Q:-d} ${#P}",
        "echo",
    );
    assert_eq!(
        args(&c),
        vec![
            Some("b.tar.gz".into()),
            Some("/a/b.tar".into()),
            Some("/x/b.tar.gz".into()),
            Some("/a".into()),
            None,
            Some("11".into())
        ]
    );
}

#[test]
fn assign_default_sets_the_variable() {
    let c = first_named("Q=; echo ${Q:=/tmp}; ls $Q", "ls");
    assert_eq!(args(&c), vec![Some("/tmp".to_string())]);
}

#[test]
fn cd_is_tracked_and_scoped_by_subshells() {
    let cmds = commands("cd /srv && (cd /tmp; ls); pwd");
    let ls = cmds.iter().find(|c| c.is("ls")).map(|c| c.cwd.clone());
    let pwd = cmds.iter().find(|c| c.is("pwd")).map(|c| c.cwd.clone());
    assert_eq!(ls, Some(Some("/tmp".into())));
    assert_eq!(pwd, Some(Some("/srv".into())));
}

#[test]
fn pushd_and_popd_restore_the_directory() {
    let c = first_named("pushd /var && popd && ls", "ls");
    assert_eq!(c.cwd.as_deref(), Some("/home/user/project"));
}

#[test]
fn tilde_forms_expand() {
    let c = first_named("echo ~ ~/x ~root ~+", "echo");
    assert_eq!(
        args(&c),
        vec![
            Some("/home/user".into()),
            Some("/home/user/x".into()),
            Some("/root".into()),
            Some("/home/user/project".into())
        ]
    );
}

#[test]
fn brace_expansion_produces_words() {
    let c = first_named("echo a{b,c} {1..3}", "echo");
    assert_eq!(args(&c).len(), 5);
}

#[test]
fn wrappers_are_peeled_and_recorded_in_order() {
    let c = first_named(
        "sudo -u root env -i X=1 nice -n 5 timeout -s KILL 10 nohup stdbuf -oL ionice -c3 rm -f x",
        "rm",
    );
    let names: Vec<&str> = c.wrappers.iter().map(|w| w.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "sudo", "env", "nice", "timeout", "nohup", "stdbuf", "ionice"
        ]
    );
    assert_eq!(args(&c), vec![Some("-f".into()), Some("x".into())]);
}

#[test]
fn nested_shell_code_is_lowered_with_its_origin() {
    let c = first_named("sudo bash -lc 'eval \"ls /srv\"'", "ls");
    assert_eq!(c.origin.describe(), "bash -c → eval");
}

#[test]
fn shell_c_positional_parameters_are_known() {
    let c = first_named("sh -c 'ls \"$1\" \"$0\"' zero one", "ls");
    assert_eq!(args(&c), vec![Some("one".into()), Some("zero".into())]);
}

#[test]
fn child_shell_sees_exported_variables_only() {
    let unexported = first_named("X=/srv; bash -c 'ls $X'", "ls");
    assert!(unexported.args()[0].lit().is_none());
    let exported = first_named("export X=/srv; bash -c 'ls $X'", "ls");
    assert_eq!(args(&exported), vec![Some("/srv".into())]);
}

#[test]
fn decoded_payload_piped_into_a_shell_is_lowered() {
    let c = first_named("echo bHMgL3Nydg== | base64 -d | sh", "ls");
    assert_eq!(args(&c), vec![Some("/srv".into())]);
    assert!(!c.origin.is_top_level());
}

#[test]
fn heredoc_into_a_shell_is_lowered_with_expansion_by_the_outer_shell() {
    let c = first_named("D=/srv; bash <<EOF\nls $D\nEOF", "ls");
    assert_eq!(args(&c), vec![Some("/srv".into())]);
}

#[test]
fn function_calls_lower_the_body_with_arguments() {
    let c = first_named("f(){ ls \"$1\"; }; f /srv", "ls");
    assert_eq!(args(&c), vec![Some("/srv".into())]);
}

#[test]
fn find_exec_clause_becomes_a_command_with_a_dynamic_path() {
    let c = first_named("find . -name '*.o' -exec rm -f {} \\;", "rm");
    assert!(c.args()[1].is_dynamic());
}

#[test]
fn nesting_past_the_limit_is_reported() {
    let a = analyze(
        "eval eval eval eval eval eval eval eval eval eval ls",
        &Context::fixture(),
    );
    assert!(a.findings.iter().any(|f| f.rule == "SG0002"));
    assert_ne!(decide_default(&a), shellgate::Decision::Allow);
}

#[test]
fn spans_point_into_the_original_text() {
    let text = "echo ok; rm -rf /";
    let a = analyze(text, &Context::fixture());
    let f = &a.findings[0];
    assert_eq!(&text[f.span.start..f.span.end], "/");
}

#[test]
fn spans_survive_normalisation() {
    let text = "\u{1b}[31mecho\u{1b}[0m ok; rm -rf /";
    let a = analyze(text, &Context::fixture());
    let f = a
        .findings
        .iter()
        .find(|f| f.rule == "SG1001")
        .map(|f| f.span);
    let Some(span) = f else {
        panic!("no SG1001 finding")
    };
    assert_eq!(&text[span.start..span.end], "/");
}
