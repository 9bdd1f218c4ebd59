#![expect(
    clippy::print_stdout,
    reason = "a measurement tool: it prints its report"
)]
fn main() {
    let src = std::env::args().nth(1).unwrap_or_default();
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_bash::LANGUAGE.into()).unwrap();
    let t = p.parse(&src, None).unwrap();
    fn walk(n: tree_sitter::Node, src: &str, d: usize, field: Option<&str>) {
        let txt = &src[n.byte_range()];
        let txt = if txt.len() > 40 { &txt[..40] } else { txt };
        println!(
            "{}{}{}{} [{}..{}] {:?}",
            "  ".repeat(d),
            field.map(|f| format!("{f}: ")).unwrap_or_default(),
            if n.is_named() { "" } else { "'" },
            n.kind(),
            n.start_byte(),
            n.end_byte(),
            txt
        );
        let mut c = n.walk();
        for (i, ch) in n.children(&mut c).enumerate() {
            walk(ch, src, d + 1, n.field_name_for_child(i as u32));
        }
    }
    walk(t.root_node(), &src, 0, None);
}
