//! Redirections: the redirect list of a statement, heredoc bodies, and the files they open.

use crate::model::word::WordMode;
use crate::model::{CmdId, Heredoc, Issue, IssueKind, Redirect, RedirectOp};

use super::{Block, Frame, Lowerer, readback};
use crate::syntax::{NodeId, kinds as k};

impl Lowerer<'_> {
    pub(in crate::model) fn apply_redirects(&mut self, b: &Block, redirs: &[Redirect]) {
        if redirs.is_empty() {
            return;
        }
        let mut ids: Vec<CmdId> = b.heads.iter().chain(&b.tails).copied().collect();
        ids.sort_unstable();
        ids.dedup();
        let stdin = heredoc_stdin(redirs);
        for id in ids {
            if let Some(c) = self.script.commands.get_mut(id) {
                c.redirects.extend(redirs.iter().cloned());
                if c.stdin_text.is_none() {
                    c.stdin_text = stdin.clone();
                }
            }
        }
    }

    pub(in crate::model) fn lower_redirected(
        &mut self,
        f: &mut Frame<'_>,
        id: NodeId,
        outer: &[Redirect],
    ) -> Block {
        let src = f.src;
        let node = src.tree.node(id);
        let body = src.tree.child_by_field(id, "body");
        let mut redirs: Vec<Redirect> = Vec::new();
        let mut pipe_cont: Option<NodeId> = None;
        let mut right: Option<NodeId> = None;
        let mut pre = Block::empty_output();
        let src_id = src.text.as_ptr() as usize;
        let target = body.and_then(|b| readback::last_simple_command(src, b));
        // Text between the body and its redirects that the grammar dropped (`python3 - <<EOF`).
        let named: Vec<NodeId> = src.tree.named_children(id).map(|(c, _)| c).collect();
        match (readback::lost_words(src, &named, true), target) {
            (Ok(lost), Some(cmd)) if !lost.is_empty() => {
                self.pending_lost.push((src_id, cmd, lost))
            }
            (Ok(lost), None) if !lost.is_empty() => self.unread_text(f, node.start, node.end),
            (Err((s, e)), _) => self.unread_text(f, s, e),
            _ => {}
        }
        // The rest of a heredoc's line after a `;` the grammar could not place runs next.
        let mut after_line = Vec::new();
        for &c in &node.children {
            let cn = src.tree.node(c);
            if cn.field == Some("body") || !cn.named {
                continue;
            }
            if cn.kind == k::HEREDOC_REDIRECT {
                let (words, rest) = readback::heredoc_line(src, c);
                if !words.is_empty() {
                    match target {
                        Some(cmd) => self.pending_words.push((src_id, cmd, words)),
                        None => self.unread_text(f, cn.start, cn.end),
                    }
                }
                after_line.extend(rest);
            }
            if cn.kind == k::HEREDOC_REDIRECT {
                for &hc in &cn.children {
                    let h = src.tree.node(hc);
                    if h.field == Some("redirect") {
                        redirs.extend(self.lower_redirect(f, hc, &mut pre));
                    } else if h.field == Some("right") {
                        right = Some(hc);
                    } else if h.kind == k::PIPELINE && h.field.is_none() {
                        pipe_cont = Some(hc);
                    }
                }
            }
            if matches!(
                cn.kind,
                k::FILE_REDIRECT | k::HEREDOC_REDIRECT | k::HERESTRING_REDIRECT
            ) {
                redirs.extend(self.lower_redirect(f, c, &mut pre));
                let next = node
                    .children
                    .iter()
                    .skip_while(|&&x| x != c)
                    .nth(1)
                    .copied();
                let words = readback::redirect_words(src, c, next);
                if !words.is_empty() {
                    match target {
                        Some(cmd) => self.pending_words.push((src_id, cmd, words)),
                        None => self.script.issues.push(Issue {
                            kind: IssueKind::ParseError,
                            span: src.span(cn.start, cn.end, self.norm),
                            message: "words after the redirect of a compound command: bash \
                                      rejects this"
                                .into(),
                            origin: f.origin.clone(),
                            text: src.text.get(node.start..node.end).unwrap_or("").into(),
                        }),
                    }
                }
            } else if cn.kind != k::HEREDOC_REDIRECT {
                // `<>` and other gaps appear as ERROR siblings; already reported.
                let mut subs = Vec::new();
                self.lower_subs(f, c, &mut subs);
            }
        }
        // The grammar's `<>` gap: ERROR(`<`) followed by a `>` redirect is a read-write open.
        for w in node.children.windows(2) {
            let (a, b) = (src.tree.node(w[0]), src.tree.node(w[1]));
            if a.is_error
                && src.text.get(a.start..a.end) == Some("<")
                && b.kind == k::FILE_REDIRECT
                && a.end == b.start
                && let Some(r) = redirs
                    .iter_mut()
                    .find(|r| r.span == src.span(b.start, b.end, self.norm))
            {
                r.op = RedirectOp::ReadWrite;
            }
        }
        redirs.extend(outer.iter().cloned());
        let mut out = pre;
        match (body, pipe_cont) {
            (Some(b), Some(p)) => {
                let mut stages = vec![(b, redirs)];
                for &pc in &src.tree.node(p).children {
                    let pn = src.tree.node(pc);
                    if pn.named && pn.kind != k::COMMENT {
                        stages.push((pc, Vec::new()));
                    }
                }
                let span = src.span(node.start, node.end, self.norm);
                let blk = self.lower_stages(f, stages, span);
                out.then(blk);
            }
            (Some(b), None) => {
                let blk = self.lower_stmt(f, b, &redirs);
                out.then(blk);
            }
            (None, _) => {
                // A bare redirect (`> file`) still opens, truncates or writes the file.
                let span = src.span(node.start, node.end, self.norm);
                let blk = self.push_plain(f, Vec::new(), Vec::new(), redirs, span);
                out.then(blk);
            }
        }
        if let Some(r) = right {
            let blk = self.lower_stmt(&mut f.with_stdin(None), r, &[]);
            out.then(blk);
        }
        for range in after_line {
            let blk = self.lower_text(&mut f.with_stdin(None), range);
            out.then(blk);
        }
        out
    }

    /// Record text the grammar left out of the tree that this reading could not place: the
    /// fallback scans it and the decision is at least ask.
    pub(super) fn unread_text(&mut self, f: &Frame<'_>, s: usize, e: usize) {
        let text = f.src.text.get(s..e).unwrap_or("").to_string();
        self.script.issues.push(Issue {
            kind: IssueKind::ParseError,
            span: f.src.span(s, e, self.norm),
            message: format!("text the parser did not read: `{}`", super::shorten(&text)),
            origin: f.origin.clone(),
            text,
        });
    }

    /// Decode one redirect node (a heredoc may carry more redirects inside it).
    pub(in crate::model) fn lower_redirect(
        &mut self,
        f: &mut Frame<'_>,
        id: NodeId,
        pre: &mut Block,
    ) -> Vec<Redirect> {
        let src = f.src;
        let node = src.tree.node(id);
        let span = src.span(node.start, node.end, self.norm);
        let mut fd = None;
        let mut op_text = String::new();
        let mut dest: Vec<NodeId> = Vec::new();
        let mut heredoc_start = None;
        let mut heredoc_body = None;
        for &c in &node.children {
            let cn = src.tree.node(c);
            let t = src.text.get(cn.start..cn.end).unwrap_or("");
            match (cn.named, cn.kind, cn.field) {
                (_, k::FILE_DESCRIPTOR, _) => fd = t.parse().ok(),
                (_, _, Some("descriptor")) => fd = t.parse().ok(),
                (_, k::HEREDOC_START, _) => heredoc_start = Some(t.to_string()),
                (_, k::HEREDOC_BODY, _) => heredoc_body = Some(c),
                (_, _, Some("destination")) => dest.push(c),
                (false, _, None) if op_text.is_empty() => op_text = t.to_string(),
                (true, _, None) if node.kind == k::HERESTRING_REDIRECT => dest.push(c),
                _ => {}
            }
        }
        // The grammar's `<>` gap inside a redirect: `<` then ERROR(`>`).
        let rw_gap = node.children.windows(2).any(|w| {
            let (a, b) = (src.tree.node(w[0]), src.tree.node(w[1]));
            !a.named
                && a.kind == "<"
                && b.is_error
                && src.text.get(b.start..b.end) == Some(">")
                && a.end == b.start
        });
        if rw_gap {
            op_text = "<>".into();
        }
        // Only the destination nodes that touch each other form the target: the grammar
        // hands a following redirect's fd (`>& f 0>&1`) to this one as another node.
        let mut end = None;
        dest.retain(|&d| {
            let n = src.tree.node(d);
            let keep = end.is_none_or(|e| e == n.start);
            if keep {
                end = Some(n.end);
            }
            keep
        });
        let mut target = None;
        if !dest.is_empty() {
            let words = self.expander().decode_nodes(f, &dest, WordMode::Single);
            target = words.into_iter().next();
            if let Some(t) = &target {
                for s in &t.substitutions {
                    pre.commands.extend(s.commands.iter().copied());
                }
            }
        }
        let op = match (node.kind, op_text.as_str()) {
            (k::HEREDOC_REDIRECT, _) => RedirectOp::Heredoc,
            (k::HERESTRING_REDIRECT, _) => RedirectOp::HereString,
            (_, ">" | ">|") => RedirectOp::Write,
            (_, ">>") => RedirectOp::Append,
            (_, "&>") => RedirectOp::WriteAll,
            (_, "&>>") => RedirectOp::AppendAll,
            (_, "<") => RedirectOp::Read,
            (_, "<>") => RedirectOp::ReadWrite,
            (_, ">&" | "<&" | ">&-" | "<&-") => {
                let is_fd = target
                    .as_ref()
                    .and_then(|w| w.lit())
                    .is_some_and(|v| v == "-" || v.chars().all(|c| c.is_ascii_digit()));
                if is_fd || op_text.starts_with('<') || op_text.ends_with('-') || target.is_none() {
                    RedirectOp::DupFd
                } else {
                    RedirectOp::WriteAll
                }
            }
            _ => RedirectOp::Write,
        };
        let heredoc = match (heredoc_start, heredoc_body) {
            (Some(start), body) => {
                let quoted = start.contains(['\'', '"', '\\']);
                let strip_tabs = op_text == "<<-";
                let mut heredoc_subs = Vec::new();
                // The grammar misreads a body whose first line starts with a backslash: that
                // line becomes words of the redirect and the body node is empty. Then the
                // body is the raw text between the delimiter line and the end marker.
                let end_marker = node
                    .children
                    .iter()
                    .map(|&c| src.tree.node(c))
                    .find(|n| n.kind == k::HEREDOC_END)
                    .map(|n| n.start);
                let start_line_end = node
                    .children
                    .iter()
                    .map(|&c| src.tree.node(c))
                    .find(|n| n.kind == k::HEREDOC_START)
                    .and_then(|n| {
                        src.text
                            .get(n.end..)
                            .and_then(|rest| rest.find('\n'))
                            .map(|i| n.end + i + 1)
                    });
                // The symptom: words of the redirect itself after the delimiter's line.
                let misread =
                    start_line_end.is_some_and(|ls| {
                        node.children
                            .iter()
                            .map(|&c| src.tree.node(c))
                            .any(|n| n.field == Some("argument") && n.end > ls)
                    }) || node.children.iter().map(|&c| src.tree.node(c)).any(|n| {
                        n.kind == k::PIPELINE && start_line_end.is_some_and(|ls| n.end > ls)
                    });
                let (text, raw, bspan, nstart) = match body {
                    _ if misread => {
                        let (ls, le) = (
                            start_line_end.unwrap_or(node.end),
                            end_marker.unwrap_or(node.end),
                        );
                        // Words the grammar took from the body belong to no command.
                        self.heredoc_cuts.push((src.text.as_ptr() as usize, ls, le));
                        let raw = src.text.get(ls..le.max(ls)).unwrap_or("").to_string();
                        let value = if quoted { Some(raw.clone()) } else { None };
                        (value, raw, src.span(ls, le.max(ls), self.norm), None)
                    }
                    Some(b) => {
                        let bn = src.tree.node(b);
                        let raw = src.text.get(bn.start..bn.end).unwrap_or("").to_string();
                        let value = if quoted {
                            Some(raw.clone())
                        } else {
                            let (v, subs) = self.expander().decode_heredoc(f, b);
                            for s in &subs {
                                pre.commands.extend(s.commands.iter().copied());
                            }
                            heredoc_subs = subs;
                            v
                        };
                        (
                            value,
                            raw,
                            src.span(bn.start, bn.end, self.norm),
                            src.nspan(bn.start, bn.end).map(|x| x.0),
                        )
                    }
                    None => (Some(String::new()), String::new(), span, None),
                };
                let fix = |s: String| {
                    if strip_tabs {
                        s.split_inclusive('\n')
                            .map(|l| l.trim_start_matches('\t'))
                            .collect()
                    } else {
                        s
                    }
                };
                Some(Heredoc {
                    body: text.map(fix),
                    raw: fix(raw),
                    quoted,
                    span: bspan,
                    substitutions: heredoc_subs,
                    nstart: if strip_tabs { None } else { nstart },
                })
            }
            _ => None,
        };
        vec![Redirect {
            fd,
            op,
            target,
            heredoc,
            span,
        }]
    }
}

pub(super) fn heredoc_stdin(redirs: &[Redirect]) -> Option<String> {
    redirs.iter().rev().find_map(|r| match r.op {
        RedirectOp::Heredoc => r.heredoc.as_ref().and_then(|h| h.body.clone()),
        RedirectOp::HereString => r.target.as_ref().and_then(|t| t.lit()).map(|s| s + "\n"),
        _ => None,
    })
}
