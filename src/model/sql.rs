//! Statement-level scanner for SQL handed to database clients: flags DROP TABLE/DATABASE/SCHEMA, TRUNCATE, and DELETE/UPDATE without a top-level WHERE.
//!
//! The text is lexed twice, once with PostgreSQL/psql rules and once with MySQL/mysql-client
//! rules, and the findings are merged. The dialects disagree on exactly the things that decide
//! where strings, comments and statements end (`#`, backslashes in `'...'`, `"..."`, nested
//! `/* */`, `$$`, `/*! */`), so any single blended lexer can be steered into hiding a statement
//! that one of the real servers would run. Taking the union errs towards asking.
//!
//! Everything is iterative with explicit stacks; the only recursion is into `DO $$ ... $$`
//! bodies and it is capped by a constant.

/// What kind of destructive statement was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SqlHazardKind {
    DropTable,
    DropDatabase,
    DropSchema,
    Truncate,
    /// Also reported for a WHERE that is trivially true (`WHERE 1=1`, `WHERE TRUE`).
    DeleteWithoutWhere,
    /// Also reported for a WHERE that is trivially true.
    UpdateWithoutWhere,
}

/// One destructive statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqlHazard {
    pub kind: SqlHazardKind,
    /// Byte span of the statement in the input.
    pub start: usize,
    pub end: usize,
    /// The statement text, truncated to about 120 chars.
    pub statement: String,
}

const STATEMENT_PREVIEW_CHARS: usize = 120;
/// Longer `DELIMITER` strings are matched on this prefix only, which keeps the per-byte check
/// constant-time; the over-splitting it can cause is confined to the MySQL reading, and the
/// PostgreSQL reading (which ignores `DELIMITER`) still sees the text whole.
const MAX_DELIMITER_BYTES: usize = 32;
/// `DO $$ ... $$` bodies are scanned as SQL; a body inside a body is plausible, deeper is not.
const MAX_BODY_NESTING: u8 = 2;

/// Whose lexical rules to read the SQL by, when the caller knows the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SqlDialect {
    /// psql / PostgreSQL.
    Postgres,
    /// mysql / MariaDB client and server.
    MySql,
    /// Unknown client (sqlite3, sqlcmd, ...): the union of both readings.
    Any,
}

/// Scan `sql` under both dialects' rules and return its destructive statements by position.
pub fn scan_sql(sql: &str) -> Vec<SqlHazard> {
    scan_sql_as(sql, SqlDialect::Any)
}

/// Scan `sql` with the lexical rules of `dialect`. Naming the client avoids the false
/// positives of the union (a MySQL reading of `$$ ... $$` bodies, a PostgreSQL reading of
/// `'\''`) without giving up anything that client would execute.
pub fn scan_sql_as(sql: &str, dialect: SqlDialect) -> Vec<SqlHazard> {
    let dialects: &[Dialect] = match dialect {
        SqlDialect::Postgres => &[Dialect::Postgres],
        SqlDialect::MySql => &[Dialect::MySql],
        SqlDialect::Any => &[Dialect::Postgres, Dialect::MySql],
    };
    let mut out = Vec::new();
    for &d in dialects {
        scan_range(sql, 0, sql.len(), d, 0, &mut out);
    }
    merge_overlaps(out)
}

/// The two readings may split the same text differently; one finding per region is enough,
/// and the narrower span is the more precise one.
fn merge_overlaps(mut found: Vec<SqlHazard>) -> Vec<SqlHazard> {
    found.sort_by_key(|h| (h.kind as u8, h.start, h.end));
    let mut out: Vec<SqlHazard> = Vec::with_capacity(found.len());
    for h in found {
        if let Some(last) = out.last_mut()
            && last.kind == h.kind
            && h.start < last.end
        {
            if h.end - h.start < last.end - last.start {
                *last = h;
            }
            continue;
        }
        out.push(h);
    }
    out.sort_by_key(|h| (h.start, h.end, h.kind as u8));
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Postgres,
    MySql,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kw {
    Alter,
    Begin,
    Call,
    Commit,
    Copy,
    Create,
    Database,
    Declare,
    Delete,
    Do,
    Drop,
    Else,
    Exec,
    Execute,
    Explain,
    False,
    From,
    Go,
    Grant,
    Insert,
    Limit,
    Loop,
    Merge,
    Not,
    Order,
    Replace,
    Returning,
    Revoke,
    Rollback,
    Row,
    Schema,
    Select,
    Table,
    Temp,
    Temporary,
    Then,
    True,
    Truncate,
    Update,
    Where,
    With,
}

fn keyword(word: &str) -> Option<Kw> {
    const LONGEST: usize = 9;
    let bytes = word.as_bytes();
    if bytes.len() > LONGEST {
        return None;
    }
    // Upper-casing into a stack buffer lets one `match` do the lookup: this runs per word.
    let mut buf = [0u8; LONGEST];
    let upper = buf.get_mut(..bytes.len())?;
    for (d, s) in upper.iter_mut().zip(bytes) {
        *d = s.to_ascii_uppercase();
    }
    Some(match &*upper {
        b"ALTER" => Kw::Alter,
        b"BEGIN" => Kw::Begin,
        b"CALL" => Kw::Call,
        b"COMMIT" => Kw::Commit,
        b"COPY" => Kw::Copy,
        b"CREATE" => Kw::Create,
        b"DATABASE" => Kw::Database,
        b"DECLARE" => Kw::Declare,
        b"DELETE" => Kw::Delete,
        b"DO" => Kw::Do,
        b"DROP" => Kw::Drop,
        b"ELSE" => Kw::Else,
        b"EXEC" => Kw::Exec,
        b"EXECUTE" => Kw::Execute,
        b"EXPLAIN" => Kw::Explain,
        b"FALSE" => Kw::False,
        b"FROM" => Kw::From,
        b"GO" => Kw::Go,
        b"GRANT" => Kw::Grant,
        b"INSERT" => Kw::Insert,
        b"LIMIT" => Kw::Limit,
        b"LOOP" => Kw::Loop,
        b"MERGE" => Kw::Merge,
        b"NOT" => Kw::Not,
        b"ORDER" => Kw::Order,
        b"REPLACE" => Kw::Replace,
        b"RETURNING" => Kw::Returning,
        b"REVOKE" => Kw::Revoke,
        b"ROLLBACK" => Kw::Rollback,
        b"ROW" => Kw::Row,
        b"SCHEMA" => Kw::Schema,
        b"SELECT" => Kw::Select,
        b"TABLE" => Kw::Table,
        b"TEMP" => Kw::Temp,
        b"TEMPORARY" => Kw::Temporary,
        b"THEN" => Kw::Then,
        b"TRUE" => Kw::True,
        b"TRUNCATE" => Kw::Truncate,
        b"UPDATE" => Kw::Update,
        b"WHERE" => Kw::Where,
        b"WITH" => Kw::With,
        _ => return None,
    })
}

/// Keywords that begin a new statement. When one shows up at the same nesting level as a
/// pending DELETE/UPDATE before any WHERE, the WHERE that may follow belongs to something else
/// (this is what keeps `DELETE FROM t SELECT 1 WHERE x` — two statements to a server that does
/// not need semicolons — from passing as filtered).
fn starts_statement(kw: Kw) -> bool {
    matches!(
        kw,
        Kw::Alter
            | Kw::Begin
            | Kw::Call
            | Kw::Commit
            | Kw::Copy
            | Kw::Create
            | Kw::Declare
            | Kw::Delete
            | Kw::Drop
            | Kw::Exec
            | Kw::Execute
            | Kw::Explain
            | Kw::Go
            | Kw::Grant
            | Kw::Insert
            | Kw::Merge
            | Kw::Replace
            | Kw::Revoke
            | Kw::Rollback
            | Kw::Select
            | Kw::Truncate
            | Kw::Update
    )
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Kw(Kw),
    Ident,
    Str,
    /// A PostgreSQL dollar-quoted string, kept apart so `DO` bodies can be scanned.
    DollarStr,
    Num,
    Open,
    Close,
    Comma,
    Dot,
    Eq,
    /// `#` in PostgreSQL, where it is an operator rather than a comment.
    Hash,
    /// A byte PostgreSQL rejects outside quotes (the backtick).
    Invalid,
    Other,
    /// Statement boundary: `;`, a custom delimiter, a client command, a `GO` line.
    Semi,
}

#[derive(Debug, Clone, Copy)]
struct Token {
    tok: Tok,
    start: usize,
    end: usize,
}

fn is_ident_start(b: u8, dialect: Dialect) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80 || (b == b'$' && dialect == Dialect::MySql)
}

fn is_ident_cont(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// Lexer over `src[pos..end]`; positions are absolute so spans need no rebasing.
struct Lexer<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    end: usize,
    dialect: Dialect,
    /// Only whitespace since the last newline (client commands are line-oriented).
    line_start: bool,
    /// Inside MySQL `/*! ... */`, whose content the server executes.
    in_exec_comment: bool,
    /// MySQL client `DELIMITER` in force, besides `;`.
    delimiter: Option<&'a [u8]>,
}

impl<'a> Lexer<'a> {
    fn new(src: &'a str, start: usize, end: usize, dialect: Dialect) -> Self {
        let end = end.min(src.len());
        Lexer {
            src,
            b: src.as_bytes(),
            pos: start.min(end),
            end,
            dialect,
            line_start: true,
            in_exec_comment: false,
            delimiter: None,
        }
    }

    fn at(&self, i: usize) -> Option<u8> {
        if i < self.end {
            self.b.get(i).copied()
        } else {
            None
        }
    }

    fn token(&mut self, tok: Tok, start: usize, end: usize) -> Option<Token> {
        self.pos = end.min(self.end);
        Some(Token {
            tok,
            start,
            end: self.pos,
        })
    }

    fn next_token(&mut self) -> Option<Token> {
        loop {
            let start = self.pos;
            let c = self.at(start)?;
            if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
                if c == b'\n' {
                    self.line_start = true;
                }
                self.pos += 1;
                continue;
            }
            if let Some(d) = self.delimiter
                && self.starts_with_ci(start, d)
            {
                self.line_start = false;
                return self.token(Tok::Semi, start, start + d.len());
            }
            if self.line_start
                && c.is_ascii_alphabetic()
                && let Some(t) = self.line_command(start)
            {
                self.line_start = false;
                return Some(t);
            }
            self.line_start = false;
            let next = self.at(start + 1);
            let mysql = self.dialect == Dialect::MySql;
            match c {
                b';' => return self.token(Tok::Semi, start, start + 1),
                b'\\' => return self.client_command(start),
                b'-' if next == Some(b'-')
                    && (!mysql || self.at(start + 2).is_none_or(|b| b <= b' ')) =>
                {
                    self.skip_line();
                }
                b'#' if mysql => self.skip_line(),
                b'#' => return self.token(Tok::Hash, start, start + 1),
                b'/' if next == Some(b'*') => {
                    if mysql && self.exec_comment_start(start) {
                        continue;
                    }
                    self.skip_block_comment();
                }
                b'*' if mysql && self.in_exec_comment && next == Some(b'/') => {
                    self.in_exec_comment = false;
                    self.pos += 2;
                }
                b'\'' => {
                    let end = self.quoted_end(start, b'\'', mysql);
                    return self.token(Tok::Str, start, end);
                }
                b'"' => {
                    let end = self.quoted_end(start, b'"', mysql);
                    let tok = if mysql { Tok::Str } else { Tok::Ident };
                    return self.token(tok, start, end);
                }
                b'`' if mysql => {
                    let end = self.quoted_end(start, b'`', false);
                    return self.token(Tok::Ident, start, end);
                }
                b'`' => return self.token(Tok::Invalid, start, start + 1),
                b'$' if !mysql => {
                    return match self.dollar_end(start) {
                        Some(end) => self.token(Tok::DollarStr, start, end),
                        None => self.token(Tok::Other, start, start + 1),
                    };
                }
                b'0'..=b'9' => {
                    let mut j = start + 1;
                    while self
                        .at(j)
                        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
                    {
                        j += 1;
                    }
                    return self.token(Tok::Num, start, j);
                }
                b'(' => return self.token(Tok::Open, start, start + 1),
                b')' => return self.token(Tok::Close, start, start + 1),
                b',' => return self.token(Tok::Comma, start, start + 1),
                b'.' => return self.token(Tok::Dot, start, start + 1),
                b'=' => return self.token(Tok::Eq, start, start + 1),
                c if is_ident_start(c, self.dialect) => return self.word(start),
                _ => return self.token(Tok::Other, start, start + 1),
            }
        }
    }

    fn word(&mut self, start: usize) -> Option<Token> {
        let mut j = start + 1;
        while self.at(j).is_some_and(is_ident_cont) {
            j += 1;
        }
        let text = self.src.get(start..j).unwrap_or("");
        // PostgreSQL E'...' strings honour backslash escapes, unlike plain '...'.
        if self.dialect == Dialect::Postgres
            && text.eq_ignore_ascii_case("e")
            && self.at(j) == Some(b'\'')
        {
            let end = self.quoted_end(j, b'\'', true);
            return self.token(Tok::Str, start, end);
        }
        let tok = keyword(text).map_or(Tok::Ident, Tok::Kw);
        self.token(tok, start, j)
    }

    fn starts_with_ci(&self, at: usize, pat: &[u8]) -> bool {
        !pat.is_empty()
            && at.checked_add(pat.len()).is_some_and(|e| e <= self.end)
            && self
                .b
                .get(at..at + pat.len())
                .is_some_and(|s| s.eq_ignore_ascii_case(pat))
    }

    fn word_at_is(&self, at: usize, word: &[u8]) -> bool {
        self.starts_with_ci(at, word) && !self.at(at + word.len()).is_some_and(is_ident_cont)
    }

    fn skip_line(&mut self) {
        while self.at(self.pos).is_some_and(|b| b != b'\n') {
            self.pos += 1;
        }
    }

    fn skip_spaces(&mut self) {
        while matches!(self.at(self.pos), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    /// Line-oriented client commands that end a statement: T-SQL `GO [n]` and mysql `DELIMITER`.
    fn line_command(&mut self, start: usize) -> Option<Token> {
        if self.word_at_is(start, b"go") {
            let mut j = start + 2;
            while matches!(self.at(j), Some(b' ' | b'\t' | b'0'..=b'9')) {
                j += 1;
            }
            if matches!(self.at(j), None | Some(b'\n' | b'\r')) {
                return self.token(Tok::Semi, start, j);
            }
        }
        if self.dialect == Dialect::MySql && self.word_at_is(start, b"delimiter") {
            self.pos = start + "delimiter".len();
            self.set_delimiter();
            // The rest of the line is lexed normally: mysql ignores it, and over-reading can
            // only add findings.
            return Some(Token {
                tok: Tok::Semi,
                start,
                end: self.pos,
            });
        }
        None
    }

    /// Read a mysql delimiter word at `pos` and make it current (`;` restores the default).
    fn set_delimiter(&mut self) {
        self.skip_spaces();
        let from = self.pos;
        while self.at(self.pos).is_some_and(|b| !b.is_ascii_whitespace()) {
            self.pos += 1;
        }
        let word = self.src.get(from..self.pos).unwrap_or("");
        let cut = word.floor_char_boundary(MAX_DELIMITER_BYTES);
        let word = word.get(..cut).unwrap_or("");
        self.delimiter = if word.is_empty() || word == ";" {
            None
        } else {
            Some(word.as_bytes())
        };
    }

    /// psql meta-commands and mysql client commands, introduced by an unquoted backslash.
    /// Either way the statement typed so far ends (psql `\g`, mysql `\G`), which at worst
    /// splits a statement and adds findings.
    fn client_command(&mut self, start: usize) -> Option<Token> {
        let cmd = self.at(start + 1);
        match self.dialect {
            Dialect::Postgres => {
                // `\;` is a literal statement separator and `\\` returns to SQL; otherwise the
                // arguments run to the end of the line or to `\\` (psql's own rule), and are
                // not SQL. Quotes in arguments are ignored: finding `\\` early only exposes
                // more text to the scanner.
                if matches!(cmd, Some(b';' | b'\\')) {
                    return self.token(Tok::Semi, start, start + 2);
                }
                let mut j = start + 1;
                while let Some(b) = self.at(j) {
                    if b == b'\n' {
                        break;
                    }
                    if b == b'\\' && self.at(j + 1) == Some(b'\\') {
                        j += 2;
                        break;
                    }
                    j += 1;
                }
                self.token(Tok::Semi, start, j)
            }
            Dialect::MySql => match cmd {
                // These take the rest of the line as a non-SQL argument (shell command, file,
                // database name, ...).
                Some(b'!' | b'.' | b'u' | b'T' | b'C' | b'P' | b'R' | b'r') => {
                    self.pos = start;
                    self.skip_line();
                    Some(Token {
                        tok: Tok::Semi,
                        start,
                        end: self.pos,
                    })
                }
                Some(b'd') => {
                    self.pos = start + 2;
                    self.set_delimiter();
                    Some(Token {
                        tok: Tok::Semi,
                        start,
                        end: self.pos,
                    })
                }
                // `\g`, `\G`, `\c`, ...: no argument; what follows on the line is SQL again.
                Some(b) if b.is_ascii() => self.token(Tok::Semi, start, start + 2),
                _ => self.token(Tok::Semi, start, start + 1),
            },
        }
    }

    /// MySQL/MariaDB `/*!NNNNN ... */` and `/*M!NNNNN ... */`: the server runs the content.
    fn exec_comment_start(&mut self, start: usize) -> bool {
        let mut j = start + 2;
        if self.at(j) == Some(b'M') {
            j += 1;
        }
        if self.at(j) != Some(b'!') || self.in_exec_comment {
            return false;
        }
        j += 1;
        while self.at(j).is_some_and(|b| b.is_ascii_digit()) {
            j += 1;
        }
        self.in_exec_comment = true;
        self.pos = j;
        true
    }

    /// Block comment at `pos`; nested in PostgreSQL, flat in MySQL. Unterminated runs to end.
    fn skip_block_comment(&mut self) {
        let nested = self.dialect == Dialect::Postgres;
        let mut depth: usize = 1;
        let mut j = self.pos + 2;
        while let Some(b) = self.at(j) {
            if b == b'*' && self.at(j + 1) == Some(b'/') {
                depth -= 1;
                j += 2;
                if depth == 0 {
                    break;
                }
            } else if nested && b == b'/' && self.at(j + 1) == Some(b'*') {
                depth += 1;
                j += 2;
            } else {
                j += 1;
            }
        }
        self.pos = j.min(self.end);
    }

    /// End of the quoted token opening at `start`; a doubled quote is an escaped quote.
    /// Unterminated quotes run to the end, as the servers would wait for more input.
    fn quoted_end(&self, start: usize, quote: u8, backslash: bool) -> usize {
        let mut j = start + 1;
        while let Some(b) = self.at(j) {
            if backslash && b == b'\\' {
                // Skipping a lead byte is harmless: continuation bytes are never quotes.
                j += 2;
            } else if b == quote {
                if self.at(j + 1) == Some(quote) {
                    j += 2;
                } else {
                    return j + 1;
                }
            } else {
                j += 1;
            }
        }
        self.end
    }

    /// End of a `$tag$ ... $tag$` string at `start`, or None when `$` does not open one
    /// (`$1` parameters). An unterminated body runs to the end.
    fn dollar_end(&self, start: usize) -> Option<usize> {
        let mut j = start + 1;
        if self
            .at(j)
            .is_some_and(|b| is_ident_start(b, Dialect::Postgres))
        {
            while self.at(j).is_some_and(|b| is_ident_cont(b) && b != b'$') {
                j += 1;
            }
        }
        if self.at(j) != Some(b'$') {
            return None;
        }
        let tag = self.src.get(start..=j)?;
        let body = self.src.get(j + 1..self.end).unwrap_or("");
        Some(match body.find(tag) {
            Some(k) => j + 1 + k + tag.len(),
            None => self.end,
        })
    }
}

/// Lex `src[start..end]` with `dialect`, split into statements and analyse each.
fn scan_range(
    src: &str,
    start: usize,
    end: usize,
    dialect: Dialect,
    nesting: u8,
    out: &mut Vec<SqlHazard>,
) {
    let mut lexer = Lexer::new(src, start, end, dialect);
    let mut stmt: Vec<Token> = Vec::new();
    loop {
        match lexer.next_token() {
            Some(t) if t.tok == Tok::Semi => {
                analyse(src, &stmt, dialect, nesting, out);
                stmt.clear();
            }
            Some(t) => stmt.push(t),
            None => {
                analyse(src, &stmt, dialect, nesting, out);
                return;
            }
        }
    }
}

fn tok_at(toks: &[Token], i: usize) -> Option<Tok> {
    toks.get(i).map(|t| t.tok)
}

/// Index of the statement's main verb, looking through `EXPLAIN`, `WITH ...` and `BEGIN`.
/// EXPLAIN is looked through even without ANALYZE: erring towards asking is cheaper than
/// parsing its option list.
fn head_index(toks: &[Token]) -> Option<usize> {
    const MAIN: &[Kw] = &[Kw::Select, Kw::Insert, Kw::Update, Kw::Delete, Kw::Merge];
    const AFTER_EXPLAIN: &[Kw] = &[
        Kw::Select,
        Kw::Insert,
        Kw::Update,
        Kw::Delete,
        Kw::Merge,
        Kw::With,
    ];
    let mut i = 0;
    // Each step moves strictly forward, so this is linear in the statement.
    loop {
        i = match tok_at(toks, i)? {
            Tok::Kw(Kw::Explain) => next_at_level(toks, i + 1, AFTER_EXPLAIN)?,
            Tok::Kw(Kw::With) => next_at_level(toks, i + 1, MAIN)?,
            Tok::Kw(Kw::Begin) => i + 1,
            _ => return Some(i),
        };
    }
}

/// First keyword from `wanted` at the nesting level of `from`, skipping parenthesised parts.
fn next_at_level(toks: &[Token], from: usize, wanted: &[Kw]) -> Option<usize> {
    let mut depth: usize = 0;
    for (i, t) in toks.iter().enumerate().skip(from) {
        match t.tok {
            Tok::Open => depth += 1,
            Tok::Close => depth = depth.saturating_sub(1),
            Tok::Kw(k) if depth == 0 && wanted.contains(&k) => return Some(i),
            _ => {}
        }
    }
    None
}

struct Stmt<'s, 't> {
    src: &'s str,
    toks: &'t [Token],
    head: Option<usize>,
    is_merge: bool,
}

impl Stmt<'_, '_> {
    fn tok(&self, i: usize) -> Option<Tok> {
        tok_at(self.toks, i)
    }

    fn prev(&self, i: usize) -> Option<Tok> {
        i.checked_sub(1).and_then(|p| self.tok(p))
    }

    fn text(&self, i: usize) -> &str {
        self.toks
            .get(i)
            .and_then(|t| self.src.get(t.start..t.end))
            .unwrap_or("")
    }

    /// Whether the verb at `i` is in a position where it runs as a statement of its own: the
    /// head, a data-modifying CTE `AS (DELETE ...)`, or a statement inside a procedural block
    /// (`BEGIN`, `THEN`, `ELSE`, `LOOP`, a trigger's `FOR EACH ROW`). MERGE's `THEN UPDATE`
    /// only touches matched rows, so it is excluded.
    fn is_verb_position(&self, i: usize) -> bool {
        if self.head == Some(i) {
            return true;
        }
        match self.prev(i) {
            Some(Tok::Open | Tok::Kw(Kw::Begin | Kw::Loop | Kw::Row)) => true,
            Some(Tok::Kw(Kw::Then | Kw::Else)) => !self.is_merge,
            _ => false,
        }
    }

    /// A statement-starting keyword that is not being used as a name or function
    /// (`SET copy = 1`, `t.replace`, `replace(a, b, c)`).
    fn is_statement_start(&self, i: usize) -> bool {
        let Some(Tok::Kw(kw)) = self.tok(i) else {
            return false;
        };
        starts_statement(kw)
            && !matches!(
                self.tok(i + 1),
                Some(Tok::Open | Tok::Close | Tok::Eq | Tok::Comma | Tok::Dot)
            )
            && self.prev(i) != Some(Tok::Dot)
    }

    fn drop_kind(&self, i: usize) -> Option<SqlHazardKind> {
        let mut j = i + 1;
        if matches!(self.tok(j), Some(Tok::Kw(Kw::Temporary | Kw::Temp))) {
            j += 1;
        }
        match self.tok(j)? {
            Tok::Kw(Kw::Table) => Some(SqlHazardKind::DropTable),
            Tok::Kw(Kw::Database) => Some(SqlHazardKind::DropDatabase),
            Tok::Kw(Kw::Schema) => Some(SqlHazardKind::DropSchema),
            _ => None,
        }
    }

    /// `TRUNCATE TABLE x` anywhere, or `TRUNCATE x` as a statement; `TRUNCATE(1.5, 0)` is the
    /// MySQL function.
    fn is_truncate(&self, i: usize) -> bool {
        match self.tok(i + 1) {
            Some(Tok::Kw(Kw::Table)) => true,
            Some(Tok::Open) | None => false,
            Some(_) => self.is_verb_position(i),
        }
    }

    /// WHERE clauses that filter nothing: `TRUE`, a non-zero integer, `NOT FALSE`, or a literal
    /// compared with an identical literal, standing alone in the clause.
    fn is_trivially_true(&self, w: usize) -> bool {
        let literal = |t: Option<Tok>| matches!(t, Some(Tok::Num | Tok::Str));
        let len = if literal(self.tok(w + 1))
            && self.tok(w + 2) == Some(Tok::Eq)
            && self.tok(w + 3) == self.tok(w + 1)
            && self.text(w + 1) == self.text(w + 3)
        {
            3
        } else {
            match self.tok(w + 1) {
                Some(Tok::Kw(Kw::True)) => 1,
                Some(Tok::Num)
                    if self.text(w + 1).bytes().all(|b| b.is_ascii_digit())
                        && self.text(w + 1).bytes().any(|b| b != b'0') =>
                {
                    1
                }
                Some(Tok::Kw(Kw::Not)) if self.tok(w + 2) == Some(Tok::Kw(Kw::False)) => 2,
                _ => return false,
            }
        };
        let after = w + 1 + len;
        match self.tok(after) {
            None | Some(Tok::Close) => true,
            Some(Tok::Kw(Kw::Returning | Kw::Order | Kw::Limit)) => true,
            Some(_) => self.is_statement_start(after),
        }
    }
}

fn analyse(src: &str, toks: &[Token], dialect: Dialect, nesting: u8, out: &mut Vec<SqlHazard>) {
    let (Some(first), Some(last)) = (toks.first(), toks.last()) else {
        return;
    };
    // PostgreSQL rejects these statements outright, so nothing in them can run there; the
    // MySQL pass reads `#` and backticks properly.
    if dialect == Dialect::Postgres
        && (first.tok == Tok::Hash || toks.iter().any(|t| t.tok == Tok::Invalid))
    {
        return;
    }
    let head = head_index(toks);
    let s = Stmt {
        src,
        toks,
        head,
        is_merge: head.and_then(|h| tok_at(toks, h)) == Some(Tok::Kw(Kw::Merge)),
    };

    let mut found: Vec<SqlHazardKind> = Vec::new();
    let mut mark = |k: SqlHazardKind| {
        if !found.contains(&k) {
            found.push(k);
        }
    };

    // One frame per open parenthesis, holding the DELETE/UPDATE at that level still waiting
    // for its WHERE; an explicit stack keeps deep nesting linear and recursion-free.
    let mut frames: Vec<Option<SqlHazardKind>> = vec![None];
    for (i, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::Open => frames.push(None),
            // The outermost frame is never popped: a stray `)` must not end the statement's
            // pending DELETE early.
            Tok::Close if frames.len() > 1 => {
                if let Some(Some(k)) = frames.pop() {
                    mark(k);
                }
            }
            Tok::Kw(Kw::Where) => {
                // Taking the pending verb first is deliberate: any WHERE settles it, and only a
                // trivially true one turns it back into a finding.
                if let Some(k) = frames.last_mut().and_then(Option::take)
                    && s.is_trivially_true(i)
                {
                    mark(k);
                }
            }
            Tok::Kw(kw) => {
                match kw {
                    Kw::Drop => {
                        if let Some(k) = s.drop_kind(i) {
                            mark(k);
                        }
                    }
                    Kw::Truncate if s.is_truncate(i) => mark(SqlHazardKind::Truncate),
                    _ => {}
                }
                let verb = match kw {
                    Kw::Delete
                        if s.tok(i + 1) == Some(Tok::Kw(Kw::From)) || s.is_verb_position(i) =>
                    {
                        Some(SqlHazardKind::DeleteWithoutWhere)
                    }
                    Kw::Update if s.is_verb_position(i) => Some(SqlHazardKind::UpdateWithoutWhere),
                    _ => None,
                };
                if (verb.is_some() || s.is_statement_start(i))
                    && let Some(slot) = frames.last_mut()
                {
                    if let Some(k) = slot.take() {
                        mark(k);
                    }
                    *slot = verb;
                }
            }
            _ => {}
        }
    }
    for k in frames.into_iter().flatten() {
        mark(k);
    }

    if dialect == Dialect::Postgres && nesting < MAX_BODY_NESTING && first.tok == Tok::Kw(Kw::Do) {
        for t in toks.iter().filter(|t| t.tok == Tok::DollarStr) {
            if let Some((a, b)) = dollar_body(src, t) {
                scan_range(src, a, b, Dialect::Postgres, nesting + 1, out);
            }
        }
    }

    let statement = preview(src.get(first.start..last.end).unwrap_or(""));
    for kind in found {
        out.push(SqlHazard {
            kind,
            start: first.start,
            end: last.end,
            statement: statement.clone(),
        });
    }
}

/// Content range of a dollar-quoted token (between its tags).
fn dollar_body(src: &str, t: &Token) -> Option<(usize, usize)> {
    let text = src.get(t.start..t.end)?;
    let tag_len = text.get(1..)?.find('$')? + 2;
    let tag = text.get(..tag_len)?;
    let content_end = if text.len() >= 2 * tag_len && text.ends_with(tag) {
        t.end - tag_len
    } else {
        t.end
    };
    Some((t.start + tag_len, content_end.max(t.start + tag_len)))
}

fn preview(s: &str) -> String {
    let mut out: String = s.chars().take(STATEMENT_PREVIEW_CHARS).collect();
    if s.chars().nth(STATEMENT_PREVIEW_CHARS).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use SqlHazardKind::*;
    use proptest::prelude::*;

    fn kinds(sql: &str) -> Vec<SqlHazardKind> {
        scan_sql(sql).into_iter().map(|h| h.kind).collect()
    }

    fn assert_clean(sql: &str) {
        assert_eq!(scan_sql(sql), vec![], "expected no hazard in {sql:?}");
    }

    #[test]
    fn drop_table_is_flagged_with_the_statement_span() {
        let sql = "SELECT 1; drop table users;";
        let h = scan_sql(sql);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].kind, DropTable);
        assert_eq!(&sql[h[0].start..h[0].end], "drop table users");
        assert_eq!(h[0].statement, "drop table users");
    }

    #[test]
    fn drop_variants_are_flagged() {
        assert_eq!(kinds("DROP TABLE IF EXISTS a, b CASCADE"), [DropTable]);
        assert_eq!(kinds("DROP TEMPORARY TABLE t"), [DropTable]);
        assert_eq!(kinds("drop database prod"), [DropDatabase]);
        assert_eq!(kinds("DROP SCHEMA IF EXISTS s CASCADE"), [DropSchema]);
    }

    #[test]
    fn other_drops_are_not_flagged() {
        assert_clean("DROP VIEW v; DROP INDEX i; DROP TABLESPACE ts");
        assert_clean("ALTER TABLE t DROP COLUMN c");
        assert_clean("ALTER TABLE t DROP c");
    }

    #[test]
    fn truncate_is_flagged_but_the_truncate_function_is_not() {
        assert_eq!(kinds("TRUNCATE TABLE t"), [Truncate]);
        assert_eq!(kinds("truncate t, u RESTART IDENTITY"), [Truncate]);
        assert_clean("SELECT TRUNCATE(1.234, 1)");
        assert_clean("GRANT TRUNCATE ON t TO bob");
    }

    #[test]
    fn delete_without_where_is_flagged() {
        assert_eq!(kinds("DELETE FROM t"), [DeleteWithoutWhere]);
        assert_eq!(kinds("delete from t;"), [DeleteWithoutWhere]);
        assert_eq!(
            kinds("DELETE t1 FROM t1 JOIN t2 ON t1.id = t2.id"),
            [DeleteWithoutWhere]
        );
    }

    #[test]
    fn delete_and_update_with_where_are_clean() {
        assert_clean("DELETE FROM t WHERE id = 1");
        assert_clean("UPDATE t SET a=1 WHERE id=2");
        assert_clean("UPDATE t SET a = replace(a, 'x', 'y'), copy = 2 WHERE id = 3");
        assert_clean("DELETE FROM t USING u WHERE t.id = u.id");
    }

    #[test]
    fn where_inside_a_subquery_does_not_count() {
        assert_eq!(
            kinds("DELETE FROM t USING (SELECT id FROM u WHERE u.x = 1) s"),
            [DeleteWithoutWhere]
        );
        assert_eq!(
            kinds("UPDATE t SET a = (SELECT max(b) FROM u WHERE u.id = 1)"),
            [UpdateWithoutWhere]
        );
    }

    #[test]
    fn where_inside_strings_identifiers_or_comments_does_not_count() {
        assert_eq!(kinds("DELETE FROM t AS \"where\""), [DeleteWithoutWhere]);
        assert_eq!(kinds("DELETE FROM `where`"), [DeleteWithoutWhere]);
        assert_eq!(kinds("UPDATE t SET a = 'where x'"), [UpdateWithoutWhere]);
        assert_eq!(kinds("DELETE FROM t -- WHERE id = 1"), [DeleteWithoutWhere]);
        assert_eq!(
            kinds("DELETE FROM t /* WHERE id = 1 */"),
            [DeleteWithoutWhere]
        );
    }

    #[test]
    fn update_without_where_is_flagged() {
        assert_eq!(kinds("UPDATE users SET admin = true"), [UpdateWithoutWhere]);
        assert_eq!(
            kinds("update t set a = 1 order by id limit 5"),
            [UpdateWithoutWhere]
        );
    }

    #[test]
    fn trivially_true_where_counts_as_no_where() {
        assert_eq!(kinds("DELETE FROM t WHERE 1=1"), [DeleteWithoutWhere]);
        assert_eq!(kinds("DELETE FROM t WHERE true"), [DeleteWithoutWhere]);
        assert_eq!(
            kinds("UPDATE t SET a = 1 WHERE 'a' = 'a'"),
            [UpdateWithoutWhere]
        );
        assert_clean("DELETE FROM t WHERE 1=1 AND id = 4");
        assert_clean("DELETE FROM t WHERE 0");
    }

    #[test]
    fn cte_main_statement_delete_or_update_is_detected() {
        assert_eq!(
            kinds("WITH old AS (SELECT id FROM t WHERE x) DELETE FROM t"),
            [DeleteWithoutWhere]
        );
        assert_eq!(
            kinds("with recursive r(n) as (select 1) update t set a = 1"),
            [UpdateWithoutWhere]
        );
        assert_clean(
            "WITH old AS (SELECT id FROM t) DELETE FROM t WHERE id IN (SELECT id FROM old)",
        );
    }

    #[test]
    fn data_modifying_cte_is_detected() {
        assert_eq!(
            kinds("WITH gone AS (DELETE FROM t RETURNING *) SELECT count(*) FROM gone"),
            [DeleteWithoutWhere]
        );
        assert_eq!(
            kinds("WITH u AS (UPDATE t SET a = 1 RETURNING id) SELECT * FROM u"),
            [UpdateWithoutWhere]
        );
        assert_clean("WITH gone AS (DELETE FROM t WHERE a < 3 RETURNING *) SELECT 1");
    }

    #[test]
    fn explain_is_looked_through() {
        assert_eq!(
            kinds("EXPLAIN ANALYZE UPDATE t SET a = 1"),
            [UpdateWithoutWhere]
        );
        assert_eq!(
            kinds("EXPLAIN (ANALYZE, BUFFERS) DELETE FROM t"),
            [DeleteWithoutWhere]
        );
    }

    #[test]
    fn hazards_in_strings_and_comments_are_ignored() {
        assert_clean("SELECT 'DROP TABLE x'");
        assert_clean("-- DROP TABLE x");
        assert_clean("# DROP TABLE x");
        assert_clean("/* DROP TABLE x */ SELECT 1");
        assert_clean("/* outer /* nested */ still comment */ SELECT 1");
        assert_clean("INSERT INTO t VALUES ('delete from x')");
        assert_clean("SELECT 'it''s; DROP TABLE x'");
        assert_clean("SELECT E'\\'; DROP TABLE x'");
        assert_clean("SELECT \"DROP TABLE x\"");
        assert_clean("SELECT `DROP TABLE x`");
        assert_clean("CREATE TABLE t (id int); ALTER TABLE t DROP COLUMN id");
    }

    #[test]
    fn postgres_nested_comments_and_dollar_quotes_hide_text_only_in_postgres() {
        let nested = "/* a /* b */ DROP TABLE x */ SELECT 1";
        assert_eq!(scan_sql_as(nested, SqlDialect::Postgres), vec![]);
        // MySQL comments do not nest, so it would see the DROP; the union reports it.
        assert_eq!(kinds(nested), [DropTable]);
        let dollar = "SELECT $$; DROP TABLE x; $$, $tag$ DELETE FROM t $tag$";
        assert_eq!(scan_sql_as(dollar, SqlDialect::Postgres), vec![]);
        assert_eq!(
            scan_sql_as(dollar, SqlDialect::MySql)
                .iter()
                .map(|h| h.kind)
                .collect::<Vec<_>>(),
            [DropTable, DeleteWithoutWhere]
        );
    }

    #[test]
    fn naming_the_dialect_drops_the_other_readings_false_positives() {
        let sql = "SELECT 'a\\'; DROP TABLE t; -- '";
        assert_eq!(scan_sql_as(sql, SqlDialect::MySql), vec![]);
        assert_eq!(
            scan_sql_as(sql, SqlDialect::Postgres)
                .iter()
                .map(|h| h.kind)
                .collect::<Vec<_>>(),
            [DropTable]
        );
    }

    #[test]
    fn keywords_are_case_insensitive() {
        assert_eq!(kinds("dRoP tAbLe t"), [DropTable]);
        assert_eq!(kinds("DeLeTe FrOm t"), [DeleteWithoutWhere]);
    }

    #[test]
    fn several_statements_are_reported_separately_in_order() {
        let sql = "DELETE FROM a; SELECT 1; TRUNCATE b; DROP SCHEMA c";
        let h = scan_sql(sql);
        let got: Vec<_> = h.iter().map(|h| (h.kind, &sql[h.start..h.end])).collect();
        assert_eq!(
            got,
            [
                (DeleteWithoutWhere, "DELETE FROM a"),
                (Truncate, "TRUNCATE b"),
                (DropSchema, "DROP SCHEMA c"),
            ]
        );
    }

    #[test]
    fn psql_meta_commands_are_skipped_but_end_the_statement() {
        assert_clean("\\dt\n\\d users\nSELECT 1;");
        assert_eq!(kinds("\\c prod\nDROP TABLE x;"), [DropTable]);
        // An apostrophe in meta-command arguments must not open a string that hides SQL.
        assert_eq!(kinds("\\echo it's\nDROP TABLE t;"), [DropTable]);
        // `\\` returns to SQL on the same line.
        assert_eq!(kinds("\\x \\\\ DROP TABLE t;"), [DropTable]);
        // `\g` sends the buffer: the WHERE on the next line belongs to another statement.
        assert_eq!(
            kinds("DELETE FROM t \\g\nSELECT 1 WHERE true;"),
            [DeleteWithoutWhere]
        );
    }

    #[test]
    fn mysql_client_commands_end_statements() {
        assert_eq!(kinds("SELECT 1\\G DROP TABLE t;"), [DropTable]);
    }

    #[test]
    fn backslash_quote_is_read_both_ways() {
        // PostgreSQL ends the string at the backslash-quote and runs the DROP.
        assert_eq!(kinds("SELECT 'a\\'; DROP TABLE t; -- '"), [DropTable]);
    }

    #[test]
    fn mysql_hash_comment_hides_a_where() {
        assert_eq!(kinds("DELETE FROM t # WHERE id = 1"), [DeleteWithoutWhere]);
    }

    #[test]
    fn mysql_executable_comment_is_scanned() {
        assert_eq!(kinds("/*!40101 DROP TABLE t */"), [DropTable]);
        assert_eq!(kinds("SELECT 1 /*M!100100 ; TRUNCATE t */"), [Truncate]);
    }

    #[test]
    fn mysql_delimiter_splits_statements() {
        let sql = "DELIMITER //\nSELECT 1 //\nUPDATE t SET a = 1 //\nDELIMITER ;\n";
        let h = scan_sql(sql);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].kind, UpdateWithoutWhere);
        assert_eq!(&sql[h[0].start..h[0].end], "UPDATE t SET a = 1");
    }

    #[test]
    fn go_lines_split_batches() {
        assert_eq!(
            kinds("SELECT 1\nGO\nUPDATE t SET a = 1\ngo 2\n"),
            [UpdateWithoutWhere]
        );
    }

    #[test]
    fn statement_keyword_before_where_ends_the_pending_delete() {
        assert_eq!(
            kinds("DELETE FROM t SELECT * FROM u WHERE id = 1"),
            [DeleteWithoutWhere]
        );
    }

    #[test]
    fn do_block_bodies_are_scanned() {
        let sql = "DO $$ BEGIN DELETE FROM t; UPDATE u SET a = 1 WHERE id = 2; END $$;";
        let h = scan_sql(sql);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].kind, DeleteWithoutWhere);
        assert_eq!(&sql[h[0].start..h[0].end], "BEGIN DELETE FROM t");
    }

    #[test]
    fn procedural_statements_and_triggers_are_detected() {
        assert_eq!(
            kinds("CREATE TRIGGER tr AFTER INSERT ON a FOR EACH ROW UPDATE b SET n = 0"),
            [UpdateWithoutWhere]
        );
        assert_clean("CREATE TABLE c (id int REFERENCES p ON DELETE CASCADE ON UPDATE CASCADE)");
        assert_clean("SELECT * FROM t FOR UPDATE");
        assert_clean("INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = 1");
        assert_clean("INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET a = 1");
        assert_clean(
            "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET a = s.a WHEN NOT MATCHED THEN INSERT VALUES (s.id)",
        );
    }

    #[test]
    fn long_statements_are_truncated_in_the_report() {
        let sql = format!("DELETE FROM t AS {}", "x".repeat(500));
        let h = scan_sql(&sql);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].end, sql.len());
        assert_eq!(h[0].statement.chars().count(), STATEMENT_PREVIEW_CHARS + 1);
        assert!(h[0].statement.ends_with('…'));
    }

    #[test]
    fn unterminated_constructs_do_not_panic() {
        for sql in [
            "SELECT '",
            "SELECT \"",
            "SELECT `",
            "/* ",
            "$$",
            "$a$ x",
            "E'\\",
            "\\",
            "DELIMITER",
            "DELIMITER ",
            "--",
            "#",
            "/*!",
            "DO $x$",
            "DELETE FROM t WHERE",
            "(((",
            ")))",
        ] {
            let _ = scan_sql(sql);
        }
    }

    #[test]
    fn large_and_deeply_nested_inputs_are_linear() {
        let nested = format!(
            "{}DELETE FROM t{}",
            "(".repeat(200_000),
            ")".repeat(200_000)
        );
        assert_eq!(kinds(&nested), [DeleteWithoutWhere]);
        let many = "DELETE FROM t WHERE (".repeat(100_000);
        let _ = scan_sql(&many);
        let long_tag = format!("SELECT ${0}$ x ${0}", "t".repeat(100_000));
        let _ = scan_sql(&long_tag);
        let delimiter = format!("DELIMITER {}\n{}", "/".repeat(1000), "/".repeat(200_000));
        let _ = scan_sql(&delimiter);
    }

    proptest! {
        #[test]
        fn never_panics_and_spans_are_valid(s in any::<String>()) {
            for h in scan_sql(&s) {
                prop_assert!(h.start <= h.end && h.end <= s.len());
                prop_assert!(s.get(h.start..h.end).is_some());
            }
        }

        #[test]
        fn never_panics_on_sql_shaped_noise(
            parts in proptest::collection::vec(
                prop_oneof![
                    Just("DROP"), Just("TABLE"), Just("DELETE"), Just("FROM"), Just("WHERE"),
                    Just("UPDATE"), Just("SET"), Just("WITH"), Just("("), Just(")"), Just(";"),
                    Just("'"), Just("\""), Just("`"), Just("$$"), Just("$t$"), Just("--"),
                    Just("#"), Just("/*"), Just("*/"), Just("/*!"), Just("\\"), Just("\n"),
                    Just("E'"), Just("DELIMITER"), Just("GO"), Just("DO"), Just(" "), Just("x"),
                    Just("1"), Just("="), Just("é"),
                ],
                0..40,
            )
        ) {
            let s: String = parts.concat();
            for h in scan_sql(&s) {
                prop_assert!(s.get(h.start..h.end).is_some());
            }
        }

        #[test]
        fn text_inside_a_string_literal_is_never_a_hazard(body in "[^'\\\\]{0,60}") {
            let sql = format!("SELECT '{body}'");
            prop_assert_eq!(scan_sql(&sql), vec![]);
        }
    }
}
