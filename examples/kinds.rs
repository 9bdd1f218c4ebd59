fn main() {
    let l: tree_sitter::Language = tree_sitter_bash::LANGUAGE.into();
    for id in 0..l.node_kind_count() as u16 {
        if l.node_kind_is_named(id) && l.node_kind_is_visible(id) {
            println!("{}", l.node_kind_for_id(id).unwrap());
        }
    }
}
