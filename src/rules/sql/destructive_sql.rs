//! SG6001: `DROP`, `TRUNCATE`, and `DELETE`/`UPDATE` without `WHERE` sent to a SQL client.

use crate::declare_rule;
use crate::model::Command;
use crate::model::opts::value_word;
use crate::model::sql::{SqlDialect, SqlHazardKind, scan_sql_as};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Reads the SQL a command sends to a database client — `psql -c/--command`, `psql -f -`
    /// and stdin, `mysql`/`mariadb -e/--execute`, `sqlite3 DB 'SQL'`, `duckdb -c` or
    /// `duckdb DB 'SQL'`, `clickhouse-client --query`, `cockroach sql -e`, `sqlcmd -Q`, and
    /// heredocs, here-strings or statically known pipes into them — and flags
    /// `DROP TABLE|DATABASE|SCHEMA`, `TRUNCATE`, and `DELETE FROM`/`UPDATE` without a
    /// top-level `WHERE`. The scan is statement by statement with the client's dialect:
    /// comments and string literals are skipped, so `SELECT 'drop table x'` is fine.
    ///
    /// ## Why is this bad?
    /// These statements destroy data in one step; on a production database there may be no
    /// backup recent enough.
    ///
    /// ## Example
    /// ```sh
    /// psql -c 'DROP TABLE users'            # approve
    /// psql -c 'SELECT * FROM users'         # allowed
    /// mysql -e "DELETE FROM logs WHERE id=3" # allowed
    /// ```
    ///
    /// ## Known limitations
    /// SQL read from files (`psql -f dump.sql`) or built at run time is not visible.
    pub struct DestructiveSql;
    code: "SG6001",
    name: "destructive-sql-statement",
    severity: Approve,
    category: Sql,
    hermes: [DROP = "SQL DROP", DELETE_WITHOUT_WHERE = "SQL DELETE without WHERE", TRUNCATE = "SQL TRUNCATE"],
    programs: ["psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb", "clickhouse-client", "clickhouse", "cockroach", "sqlcmd"],
    summary: "Sends DROP, TRUNCATE, or DELETE/UPDATE without WHERE to a database",
    pass: ["psql -c 'SELECT * FROM users'", "mysql -e 'DELETE FROM t WHERE id = 1'", "sqlite3 app.db \"SELECT 'drop table x'\"", "psql -c '-- DROP TABLE x'", "echo 'DROP TABLE x'"],
    fail: ["psql -c 'DROP TABLE users'", "mysql -e 'truncate table logs'", "sqlite3 app.db 'DELETE FROM sessions'", "psql <<EOF\nUPDATE users SET admin = true;\nEOF", "duckdb -c 'drop schema s cascade'", "mysql -u root -p app <<< 'DROP DATABASE app'"],
}

/// The SQL texts this client invocation runs, read with the client's grammar: the values
/// of its statement options (never the value of another option: `mysql -u -e x` is user
/// `-e`, database `x`), SQL operands (`sqlite3 DB SQL`), and stdin.
fn sql_texts(cmd: &Command) -> Vec<String> {
    let name = cmd.name.as_deref().unwrap_or("");
    let args = cmd.args();
    let o = &cmd.opts;
    let statements: &[&str] = match name {
        "psql" => &["c", "command"],
        "mysql" | "mariadb" => &["e", "execute"],
        "duckdb" => &["c", "cmd", "s"],
        "clickhouse-client" | "clickhouse" => &["q", "query"],
        "cockroach" => &["e", "execute"],
        "sqlcmd" => &["Q", "q"],
        _ => &["cmd"],
    };
    let mut out: Vec<String> = o
        .all()
        .filter(|x| statements.contains(&x.name.as_str()))
        .filter_map(|x| value_word(args, x).and_then(|w| w.lit()))
        .collect();
    let reads_stdin_file = o
        .all()
        .filter(|x| matches!(x.name.as_str(), "f" | "file"))
        .any(|x| value_word(args, x).and_then(|w| w.lit()).as_deref() == Some("-"));
    let operands: Vec<String> = o
        .operand_words(args)
        .iter()
        .filter_map(|w| w.lit())
        .collect();
    // `sqlite3 DB SQL...` and `duckdb DB SQL`: operands after the database are SQL.
    if matches!(name, "sqlite3" | "sqlite" | "duckdb") && operands.len() > 1 {
        out.extend(operands[1..].iter().cloned());
    }
    if (out.is_empty() || reads_stdin_file)
        && let Some(s) = &cmd.stdin_text
    {
        out.push(s.clone());
    }
    out
}

fn dialect(name: &str) -> SqlDialect {
    match name {
        "psql" | "cockroach" | "duckdb" => SqlDialect::Postgres,
        "mysql" | "mariadb" | "clickhouse-client" | "clickhouse" => SqlDialect::MySql,
        _ => SqlDialect::Any,
    }
}

impl Rule for DestructiveSql {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let name = cmd.name.as_deref().unwrap_or("");
        if name == "cockroach" && cmd.opts.sub() != Some("sql") {
            return;
        }
        for sql in sql_texts(cmd) {
            for h in scan_sql_as(&sql, dialect(name)) {
                let (what, key) = match h.kind {
                    SqlHazardKind::DropTable => ("drops a table", DestructiveSql::DROP),
                    SqlHazardKind::DropDatabase => ("drops a database", DestructiveSql::DROP),
                    SqlHazardKind::DropSchema => ("drops a schema", DestructiveSql::DROP),
                    SqlHazardKind::Truncate => ("truncates a table", DestructiveSql::TRUNCATE),
                    SqlHazardKind::DeleteWithoutWhere => (
                        "deletes every row (DELETE without WHERE)",
                        DestructiveSql::DELETE_WITHOUT_WHERE,
                    ),
                    SqlHazardKind::UpdateWithoutWhere => (
                        "updates every row (UPDATE without WHERE)",
                        DestructiveSql::DELETE_WITHOUT_WHERE,
                    ),
                };
                let mut f = Finding::on(
                    &Self::META,
                    cmd,
                    format!(
                        "{name} runs SQL that {what}: `{}`{}",
                        h.statement,
                        route(cmd)
                    ),
                );
                f.hermes = vec![key];
                out.push(f);
            }
        }
    }
}
