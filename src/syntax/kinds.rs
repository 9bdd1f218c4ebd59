//! Every tree-sitter-bash node kind shellgate names, as constants checked against the grammar.

pub const PROGRAM: &str = "program";
pub const COMMAND: &str = "command";
pub const COMMAND_NAME: &str = "command_name";
pub const WORD: &str = "word";
pub const NUMBER: &str = "number";
pub const STRING: &str = "string";
pub const STRING_CONTENT: &str = "string_content";
pub const RAW_STRING: &str = "raw_string";
pub const ANSI_C_STRING: &str = "ansi_c_string";
pub const TRANSLATED_STRING: &str = "translated_string";
pub const CONCATENATION: &str = "concatenation";
pub const SIMPLE_EXPANSION: &str = "simple_expansion";
pub const EXPANSION: &str = "expansion";
pub const VARIABLE_NAME: &str = "variable_name";
pub const SPECIAL_VARIABLE_NAME: &str = "special_variable_name";
pub const SUBSCRIPT: &str = "subscript";
pub const COMMAND_SUBSTITUTION: &str = "command_substitution";
pub const PROCESS_SUBSTITUTION: &str = "process_substitution";
pub const ARITHMETIC_EXPANSION: &str = "arithmetic_expansion";
pub const BRACE_EXPRESSION: &str = "brace_expression";
pub const EXTGLOB_PATTERN: &str = "extglob_pattern";
pub const REGEX: &str = "regex";
pub const ARRAY: &str = "array";
pub const VARIABLE_ASSIGNMENT: &str = "variable_assignment";
pub const VARIABLE_ASSIGNMENTS: &str = "variable_assignments";
pub const DECLARATION_COMMAND: &str = "declaration_command";
pub const UNSET_COMMAND: &str = "unset_command";
pub const PIPELINE: &str = "pipeline";
pub const LIST: &str = "list";
pub const SUBSHELL: &str = "subshell";
pub const COMPOUND_STATEMENT: &str = "compound_statement";
pub const REDIRECTED_STATEMENT: &str = "redirected_statement";
pub const NEGATED_COMMAND: &str = "negated_command";
pub const FUNCTION_DEFINITION: &str = "function_definition";
pub const IF_STATEMENT: &str = "if_statement";
pub const ELIF_CLAUSE: &str = "elif_clause";
pub const ELSE_CLAUSE: &str = "else_clause";
pub const CASE_STATEMENT: &str = "case_statement";
pub const CASE_ITEM: &str = "case_item";
pub const FOR_STATEMENT: &str = "for_statement";
pub const C_STYLE_FOR_STATEMENT: &str = "c_style_for_statement";
pub const WHILE_STATEMENT: &str = "while_statement";
pub const DO_GROUP: &str = "do_group";
pub const TEST_COMMAND: &str = "test_command";
pub const TEST_OPERATOR: &str = "test_operator";
pub const FILE_REDIRECT: &str = "file_redirect";
pub const FILE_DESCRIPTOR: &str = "file_descriptor";
pub const HEREDOC_REDIRECT: &str = "heredoc_redirect";
pub const HEREDOC_START: &str = "heredoc_start";
pub const HEREDOC_BODY: &str = "heredoc_body";
pub const HEREDOC_CONTENT: &str = "heredoc_content";
pub const HEREDOC_END: &str = "heredoc_end";
pub const HERESTRING_REDIRECT: &str = "herestring_redirect";
pub const COMMENT: &str = "comment";
pub const BINARY_EXPRESSION: &str = "binary_expression";
pub const UNARY_EXPRESSION: &str = "unary_expression";
pub const POSTFIX_EXPRESSION: &str = "postfix_expression";
pub const TERNARY_EXPRESSION: &str = "ternary_expression";
pub const PARENTHESIZED_EXPRESSION: &str = "parenthesized_expression";
pub const ERROR: &str = "ERROR";

/// Named kinds the lowering reads and turns into model structure.
pub const LOWERED: &[&str] = &[
    PROGRAM,
    COMMAND,
    COMMAND_NAME,
    WORD,
    NUMBER,
    STRING,
    STRING_CONTENT,
    RAW_STRING,
    ANSI_C_STRING,
    TRANSLATED_STRING,
    CONCATENATION,
    SIMPLE_EXPANSION,
    EXPANSION,
    VARIABLE_NAME,
    SPECIAL_VARIABLE_NAME,
    COMMAND_SUBSTITUTION,
    PROCESS_SUBSTITUTION,
    BRACE_EXPRESSION,
    ARRAY,
    VARIABLE_ASSIGNMENT,
    VARIABLE_ASSIGNMENTS,
    DECLARATION_COMMAND,
    UNSET_COMMAND,
    PIPELINE,
    LIST,
    SUBSHELL,
    COMPOUND_STATEMENT,
    REDIRECTED_STATEMENT,
    NEGATED_COMMAND,
    FUNCTION_DEFINITION,
    IF_STATEMENT,
    ELIF_CLAUSE,
    ELSE_CLAUSE,
    CASE_STATEMENT,
    CASE_ITEM,
    FOR_STATEMENT,
    C_STYLE_FOR_STATEMENT,
    WHILE_STATEMENT,
    DO_GROUP,
    TEST_COMMAND,
    FILE_REDIRECT,
    FILE_DESCRIPTOR,
    HEREDOC_REDIRECT,
    HEREDOC_START,
    HEREDOC_BODY,
    HEREDOC_CONTENT,
    HEREDOC_END,
    HERESTRING_REDIRECT,
    COMMENT,
];

/// Named kinds that are not turned into structure of their own but handled conservatively:
/// a word containing them is `Dynamic` (its value is only known at run time), and any
/// command substitution inside them is still lowered.
pub const CONSERVATIVE: &[&str] = &[
    ARITHMETIC_EXPANSION,
    SUBSCRIPT,
    EXTGLOB_PATTERN,
    REGEX,
    TEST_OPERATOR,
    BINARY_EXPRESSION,
    UNARY_EXPRESSION,
    POSTFIX_EXPRESSION,
    TERNARY_EXPRESSION,
    PARENTHESIZED_EXPRESSION,
];
