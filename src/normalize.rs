//! Normalises command text (ANSI/C1 escapes, NUL, CRLF, NFKC) before parsing, keeping a byte map so every span still points into the original text.
//!
//! The pipeline has two stages. Stage one only *deletes* (escape sequences, C1 controls, NUL),
//! so its output is a list of verbatim chunks of the original. Stage two folds CRLF and applies
//! NFKC per normalisation segment; unchanged segments stay verbatim copies and changed ones
//! become replacements mapped to the start of their source. The map is stored as runs rather
//! than one entry per byte so a 10 MB input does not cost 80 MB of offsets.

use unicode_normalization::char::{canonical_combining_class, decompose_compatible};
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

/// How many NFKC examples `notes` spells out before summarising the rest as a count.
const MAX_NFKC_NOTES: usize = 5;
/// Longest sample (in chars) quoted in a note, so notes stay readable for huge inputs.
const MAX_NOTE_SAMPLE_CHARS: usize = 24;

const ESC: u8 = 0x1b;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RunKind {
    /// Normalized bytes are a verbatim copy: offsets advance in lock-step.
    Copy,
    /// Normalized bytes were produced by NFKC from `orig..orig_end`; all of them map to `orig`.
    Replaced { orig_end: usize },
}

/// One piece of the offset map; it extends to the next run's `norm` (or the end of the text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    norm: usize,
    orig: usize,
    kind: RunKind,
}

/// Normalised text plus the information needed to map its offsets back to the original.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Normalized {
    pub text: String,
    runs: Vec<Run>,
    original_len: usize,
    changed: bool,
    notes: Vec<String>,
}

impl Normalized {
    /// Byte offset in `text` (0..=text.len()) → byte offset in the original (0..=original.len()).
    ///
    /// Offsets inside a multi-byte replacement map to the start of the original char sequence
    /// that produced it; `text.len()` (and anything beyond) maps to `original.len()`.
    pub fn to_original(&self, offset: usize) -> usize {
        match self.run_at(offset) {
            Some(run) => match run.kind {
                RunKind::Copy => run.orig + (offset - run.norm),
                RunKind::Replaced { .. } => run.orig,
            },
            None => self.original_len,
        }
    }

    /// Map a normalized span to the original; the end covers the whole original source of the
    /// last normalized byte, so a span over an NFKC replacement covers all of its source chars.
    pub fn span_to_original(&self, start: usize, end: usize) -> crate::Span {
        let s = self.to_original(start);
        if end <= start {
            return crate::Span::new(s, s);
        }
        let e = match self.run_at(end - 1) {
            Some(run) => match run.kind {
                RunKind::Copy => run.orig + (end - 1 - run.norm) + 1,
                RunKind::Replaced { orig_end } => orig_end,
            },
            None => self.original_len,
        };
        crate::Span::new(s, e.max(s))
    }

    /// End every unterminated heredoc at the end of input, as bash does (it warns
    /// "delimited by end-of-file"): the missing delimiter lines are appended, mapped to the
    /// end of the original text, so the parser sees the body bash reads instead of an error.
    fn close_heredocs(&mut self) {
        let Some(closing) = crate::scan::heredoc_closing(&self.text) else {
            return;
        };
        self.runs.push(Run {
            norm: self.text.len(),
            orig: self.original_len,
            kind: RunKind::Replaced {
                orig_end: self.original_len,
            },
        });
        self.text.push_str(&closing);
        self.notes.push(
            "an unterminated heredoc ends at the end of input, as in bash (which warns)".into(),
        );
    }

    /// True when normalisation changed anything (for explain to say so).
    pub fn changed(&self) -> bool {
        self.changed
    }

    /// Human-readable, bounded list of what was changed.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    fn run_at(&self, offset: usize) -> Option<&Run> {
        if offset >= self.text.len() {
            return None;
        }
        let idx = self.runs.partition_point(|r| r.norm <= offset);
        idx.checked_sub(1).and_then(|i| self.runs.get(i))
    }
}

/// The original text unchanged, with the identity map (used to analyse the raw text too,
/// since bash itself does not normalise).
pub fn identity(original: &str) -> Normalized {
    let mut n = Normalized {
        text: original.to_string(),
        runs: if original.is_empty() {
            Vec::new()
        } else {
            vec![Run {
                norm: 0,
                orig: 0,
                kind: RunKind::Copy,
            }]
        },
        original_len: original.len(),
        changed: false,
        notes: Vec::new(),
    };
    n.close_heredocs();
    n
}

/// Normalise `original`; never panics and runs in linear time.
pub fn normalize(original: &str) -> Normalized {
    // Printable ASCII (tabs and newlines allowed) with no `\`+newline is normal already:
    // nothing to strip, no CR, and NFKC keeps ASCII. Most commands are; they skip the
    // continuation scan and the NFKC pass (`full` gives the same result, see the tests).
    if is_plain_ascii(original) {
        return identity(original);
    }
    full(original)
}

fn is_plain_ascii(text: &str) -> bool {
    text.bytes()
        .all(|b| matches!(b, 0x20..=0x7e | b'\t' | b'\n'))
        && !text.contains("\\\n")
}

/// Every stage, whatever the text.
fn full(original: &str) -> Normalized {
    let stripped = strip_controls(original);
    let mut stage = Nfkc::new(&stripped.text, &stripped.chunks);
    stage.run();

    let mut notes = Vec::new();
    let c = &stripped.counts;
    if c.sequences > 0 {
        notes.push(format!(
            "removed {} ANSI escape sequence{}",
            c.sequences,
            plural(c.sequences)
        ));
    }
    if c.unterminated > 0 {
        notes.push(format!(
            "removed {} unterminated escape string{} running to end of input",
            c.unterminated,
            plural(c.unterminated)
        ));
    }
    if c.stray_esc > 0 {
        notes.push(format!(
            "removed {} stray ESC character{}",
            c.stray_esc,
            plural(c.stray_esc)
        ));
    }
    if c.c1 > 0 {
        notes.push(format!(
            "removed {} C1 control character{}",
            c.c1,
            plural(c.c1)
        ));
    }
    if c.continuations > 0 {
        notes.push(format!(
            "joined {} line continuation{} (`\\` + newline), as bash does",
            c.continuations,
            plural(c.continuations)
        ));
    }
    if c.nul > 0 {
        notes.push(format!("removed {} NUL{}", c.nul, plural(c.nul)));
    }
    if stage.crlf > 0 {
        notes.push(format!("CRLF → LF ({})", stage.crlf));
    }
    notes.append(&mut stage.nfkc_notes);
    if stage.nfkc_changes > MAX_NFKC_NOTES {
        let more = stage.nfkc_changes - MAX_NFKC_NOTES;
        notes.push(format!("NFKC: {more} more change{}", plural(more)));
    }

    let changed = stripped.text.len() != original.len() || stage.changed;
    let mut n = Normalized {
        text: stage.out,
        runs: stage.runs,
        original_len: original.len(),
        changed,
        notes,
    };
    n.close_heredocs();
    n
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[derive(Default)]
struct Counts {
    sequences: usize,
    unterminated: usize,
    stray_esc: usize,
    c1: usize,
    nul: usize,
    continuations: usize,
}

/// Stage-one output: the kept text and, for each verbatim chunk, `(text_pos, orig_pos)`.
struct Stripped {
    text: String,
    chunks: Vec<(usize, usize)>,
    counts: Counts,
}

impl Stripped {
    fn keep(&mut self, original: &str, from: usize, to: usize) {
        if to <= from {
            return;
        }
        // Every cut point is an ASCII byte or a C1 lead byte, so this slice is always valid;
        // `get` keeps the no-panic guarantee should that reasoning ever break.
        if let Some(piece) = original.get(from..to) {
            self.chunks.push((self.text.len(), from));
            self.text.push_str(piece);
        }
    }
}

/// What a removed control construct was, for the notes.
enum Removed {
    Sequence,
    Unterminated,
    StrayEsc,
    C1,
    Nul,
    Continuation,
}

/// Stage one: delete escape sequences, C1 controls and NUL, scanning bytes.
///
/// Scanning bytes is safe for UTF-8 because everything we look for is ASCII or the lead byte
/// 0xC2, which never occurs inside another character's encoding.
fn strip_controls(original: &str) -> Stripped {
    let b = original.as_bytes();
    let mut out = Stripped {
        text: String::with_capacity(original.len()),
        chunks: Vec::new(),
        counts: Counts::default(),
    };
    // bash removes `\`+newline before it splits words (outside single quotes, comments and
    // quoted heredoc bodies): `r\<newline>m` is `rm`. The scan knows those contexts.
    let joins = crate::scan::continuations(original);
    let mut next_join = 0;
    let mut keep_from = 0;
    let mut i = 0;
    while let Some(&byte) = b.get(i) {
        while joins.get(next_join).is_some_and(|&j| j < i) {
            next_join += 1;
        }
        let removed = match byte {
            b'\\' if joins.get(next_join) == Some(&i) => Some((i + 2, Removed::Continuation)),
            ESC => Some(escape_end(b, i)),
            0x00 => Some((i + 1, Removed::Nul)),
            0xc2 => match b.get(i + 1) {
                Some(0x9b) => Some(csi_end(b, i + 2)),
                Some(0x80..=0x9f) => Some((i + 2, Removed::C1)),
                _ => None,
            },
            _ => None,
        };
        match removed {
            Some((end, what)) => {
                out.keep(original, keep_from, i);
                let c = &mut out.counts;
                match what {
                    Removed::Sequence => c.sequences += 1,
                    Removed::Unterminated => c.unterminated += 1,
                    Removed::StrayEsc => c.stray_esc += 1,
                    Removed::C1 => c.c1 += 1,
                    Removed::Nul => c.nul += 1,
                    Removed::Continuation => c.continuations += 1,
                }
                // `max` guarantees progress even if a helper returned a short end.
                i = end.max(i + 1).min(b.len());
                keep_from = i;
            }
            None => i += 1,
        }
    }
    out.keep(original, keep_from, b.len());
    out
}

/// End of the escape sequence introduced by the ESC at `i` (ECMA-48 / ECMA-35 shapes).
fn escape_end(b: &[u8], i: usize) -> (usize, Removed) {
    match b.get(i + 1) {
        Some(b'[') => csi_end(b, i + 2),
        Some(b']') => string_end(b, i + 2, true),
        Some(b'P' | b'X' | b'^' | b'_') => string_end(b, i + 2, false),
        Some(0x20..=0x2f) => {
            // nF sequences such as `ESC ( B`: intermediates then one final byte.
            let mut j = i + 1;
            while matches!(b.get(j), Some(0x20..=0x2f)) {
                j += 1;
            }
            if matches!(b.get(j), Some(0x30..=0x7e)) {
                j += 1;
            }
            (j, Removed::Sequence)
        }
        Some(0x30..=0x7e) => (i + 2, Removed::Sequence),
        // ESC before a control, DEL, non-ASCII or end of input introduces nothing; drop only it
        // so the following text survives.
        _ => (i + 1, Removed::StrayEsc),
    }
}

/// End of a CSI sequence whose parameters start at `j`.
///
/// A byte outside the CSI grammar ends the sequence without being consumed, so an aborted
/// sequence cannot swallow the command text after it.
fn csi_end(b: &[u8], mut j: usize) -> (usize, Removed) {
    while matches!(b.get(j), Some(0x30..=0x3f)) {
        j += 1;
    }
    while matches!(b.get(j), Some(0x20..=0x2f)) {
        j += 1;
    }
    if matches!(b.get(j), Some(0x40..=0x7e)) {
        j += 1;
    }
    (j, Removed::Sequence)
}

/// End of an OSC/DCS/SOS/PM/APC string whose body starts at `j`.
///
/// ST (`ESC \` or U+009C) terminates; BEL also terminates OSC (xterm practice). Any other ESC
/// cancels the string the way terminals do and is left for the caller to parse as a new
/// sequence. Unterminated strings run to the end of the input.
fn string_end(b: &[u8], j: usize, bel_terminates: bool) -> (usize, Removed) {
    let mut k = j;
    while let Some(&c) = b.get(k) {
        match c {
            0x07 if bel_terminates => return (k + 1, Removed::Sequence),
            ESC => {
                let end = if b.get(k + 1) == Some(&b'\\') {
                    k + 2
                } else {
                    k
                };
                return (end, Removed::Sequence);
            }
            0xc2 if b.get(k + 1) == Some(&0x9c) => return (k + 2, Removed::Sequence),
            _ => k += 1,
        }
    }
    (b.len(), Removed::Unterminated)
}

/// True when a normalisation segment may start at `c`: NFKC of the text before it cannot
/// interact with NFKC of the text from it on.
///
/// That needs more than ccc = 0: the first char of `c`'s compatibility decomposition must be a
/// starter (half-width U+FF9E decomposes to combining U+3099) that never composes with what
/// precedes it (Hangul V/T jamo and the NFKC_QC=Maybe vowel signs do).
fn starts_segment(c: char) -> bool {
    if c.is_ascii() {
        return true;
    }
    let mut first = None;
    decompose_compatible(c, |d| {
        if first.is_none() {
            first = Some(d);
        }
    });
    let d = first.unwrap_or(c);
    canonical_combining_class(d) == 0 && is_nfkc_quick(std::iter::once(d)) != IsNormalized::Maybe
}

/// Stage two: CRLF folding and segment-wise NFKC over the stripped text.
struct Nfkc<'a> {
    src: &'a str,
    chunks: &'a [(usize, usize)],
    chunk_idx: usize,
    out: String,
    runs: Vec<Run>,
    changed: bool,
    crlf: usize,
    nfkc_changes: usize,
    nfkc_notes: Vec<String>,
    /// The NFKC change being accumulated for the notes: source range and output range.
    pending_note: Option<(usize, usize, usize, usize)>,
}

impl<'a> Nfkc<'a> {
    fn new(src: &'a str, chunks: &'a [(usize, usize)]) -> Self {
        Nfkc {
            src,
            chunks,
            chunk_idx: 0,
            out: String::with_capacity(src.len()),
            runs: Vec::new(),
            changed: false,
            crlf: 0,
            nfkc_changes: 0,
            nfkc_notes: Vec::new(),
            pending_note: None,
        }
    }

    fn run(&mut self) {
        let src = self.src;
        let bytes = src.as_bytes();
        let len = bytes.len();
        let mut buf = String::new();
        let mut copy_from = 0;
        let mut pos = 0;
        while let Some(&first) = bytes.get(pos) {
            let seg_start = pos;
            if first == b'\r' && bytes.get(pos + 1) == Some(&b'\n') {
                self.emit_copy(copy_from, pos);
                self.crlf += 1;
                self.changed = true;
                pos += 1;
                copy_from = pos;
                continue;
            }
            pos = self.char_end(pos);
            while pos < len && !self.boundary_at(pos) {
                pos = self.char_end(pos);
            }
            if pos - seg_start == 1 {
                // A lone ASCII byte is its own NFKC form; this keeps plain text on a fast path.
                continue;
            }
            let Some(seg) = src.get(seg_start..pos) else {
                continue;
            };
            if is_nfkc_quick(seg.chars()) == IsNormalized::Yes {
                continue;
            }
            buf.clear();
            buf.extend(seg.nfkc());
            if buf == seg {
                continue;
            }
            self.emit_copy(copy_from, seg_start);
            let out_start = self.out.len();
            self.emit_replacement(seg_start, pos, &buf);
            self.note_change(seg_start, pos, out_start, self.out.len());
            copy_from = pos;
        }
        self.emit_copy(copy_from, len);
        self.flush_note();
    }

    fn char_end(&self, pos: usize) -> usize {
        match self.src.get(pos..).and_then(|s| s.chars().next()) {
            Some(c) => pos + c.len_utf8(),
            None => self.src.len(),
        }
    }

    fn boundary_at(&self, pos: usize) -> bool {
        match self.src.as_bytes().get(pos) {
            Some(b) if b.is_ascii() => true,
            _ => self
                .src
                .get(pos..)
                .and_then(|s| s.chars().next())
                .is_none_or(starts_segment),
        }
    }

    /// The stage-one chunk containing stripped offset `pos`, as `(chunk_start, orig_start, chunk_end)`.
    /// Queries arrive in non-decreasing order, so a forward-only cursor keeps this linear.
    fn chunk_at(&mut self, pos: usize) -> Option<(usize, usize, usize)> {
        while let Some(&(next_start, _)) = self.chunks.get(self.chunk_idx + 1) {
            if next_start > pos {
                break;
            }
            self.chunk_idx += 1;
        }
        let &(start, orig) = self.chunks.get(self.chunk_idx)?;
        let end = self
            .chunks
            .get(self.chunk_idx + 1)
            .map_or(self.src.len(), |c| c.0);
        Some((start, orig, end))
    }

    fn orig_of(&mut self, pos: usize) -> usize {
        match self.chunk_at(pos) {
            Some((start, orig, _)) => orig + pos.saturating_sub(start),
            None => 0,
        }
    }

    fn push_run(&mut self, run: Run) {
        if let Some(last) = self.runs.last() {
            let contiguous = last.kind == RunKind::Copy
                && run.kind == RunKind::Copy
                && last.orig + (run.norm - last.norm) == run.orig;
            if contiguous {
                return;
            }
        }
        self.runs.push(run);
    }

    /// Copy stripped text `a..b` verbatim, splitting the map wherever stage one deleted text.
    fn emit_copy(&mut self, a: usize, b: usize) {
        if b <= a {
            return;
        }
        let Some(piece) = self.src.get(a..b) else {
            return;
        };
        let out_base = self.out.len();
        let mut p = a;
        while p < b {
            let Some((start, orig, end)) = self.chunk_at(p) else {
                break;
            };
            self.push_run(Run {
                norm: out_base + (p - a),
                orig: orig + (p - start),
                kind: RunKind::Copy,
            });
            if end <= p {
                break;
            }
            p = end.min(b);
        }
        self.out.push_str(piece);
    }

    fn emit_replacement(&mut self, a: usize, b: usize, replacement: &str) {
        self.changed = true;
        if replacement.is_empty() || b <= a {
            return;
        }
        let orig = self.orig_of(a);
        let orig_end = self.orig_of(b - 1) + 1;
        self.push_run(Run {
            norm: self.out.len(),
            orig,
            kind: RunKind::Replaced { orig_end },
        });
        self.out.push_str(replacement);
    }

    /// Adjacent changed segments (e.g. the two letters of full-width `ｒｍ`) form one note.
    fn note_change(&mut self, a: usize, b: usize, oa: usize, ob: usize) {
        if let Some((pa, pb, poa, pob)) = self.pending_note.as_mut() {
            if *pb == a && *pob == oa {
                *pb = b;
                *pob = ob;
                return;
            }
            let done = (*pa, *pb, *poa, *pob);
            self.record_note(done);
        }
        self.pending_note = Some((a, b, oa, ob));
    }

    fn flush_note(&mut self) {
        if let Some(done) = self.pending_note.take() {
            self.record_note(done);
        }
    }

    fn record_note(&mut self, (a, b, oa, ob): (usize, usize, usize, usize)) {
        self.nfkc_changes += 1;
        if self.nfkc_notes.len() >= MAX_NFKC_NOTES {
            return;
        }
        let from = sample(self.src.get(a..b).unwrap_or(""));
        let to = sample(self.out.get(oa..ob).unwrap_or(""));
        self.nfkc_notes.push(format!("NFKC: '{from}' → '{to}'"));
    }
}

fn sample(s: &str) -> String {
    let mut out: String = s
        .chars()
        .take(MAX_NOTE_SAMPLE_CHARS)
        .flat_map(char::escape_debug)
        .collect();
    if s.chars().nth(MAX_NOTE_SAMPLE_CHARS).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Span;
    use proptest::prelude::*;

    #[test]
    fn plain_ascii_shortcut_gives_what_every_stage_gives() {
        for t in [
            "",
            "ls -la",
            "  echo 'a\tb' \"$x\" # c\n",
            "cat <<EOF\nbody",
            "cat <<'EOF'\nx\nEOF\n",
            "echo a\\b \\\\",
            "printf '%s\n' ~ * ? [a] {a,b} $((1+2))",
        ] {
            assert!(is_plain_ascii(t), "{t:?}");
            assert_eq!(normalize(t), full(t), "{t:?}");
        }
        for t in [
            "a\\\nb",
            "a\r\nb",
            "a\x1b[0mb",
            "a\0b",
            "é",
            "a\x7fb",
            "a\x01b",
        ] {
            assert!(!is_plain_ascii(t), "{t:?}");
        }
    }

    proptest! {
        #[test]
        fn plain_ascii_shortcut_matches_every_stage_on_generated_text(
            t in "[ -~\t\n]{0,60}",
        ) {
            prop_assume!(is_plain_ascii(&t));
            prop_assert_eq!(normalize(&t), full(&t));
        }
    }

    fn orig_slice<'a>(original: &'a str, n: &Normalized, start: usize, end: usize) -> &'a str {
        let span = n.span_to_original(start, end);
        &original[span.start..span.end]
    }

    #[test]
    fn plain_ascii_is_unchanged_with_no_notes() {
        let n = normalize("rm -rf /tmp/x && echo ok");
        assert_eq!(n.text, "rm -rf /tmp/x && echo ok");
        assert!(!n.changed());
        assert!(n.notes().is_empty());
        assert_eq!(n.to_original(3), 3);
    }

    #[test]
    fn empty_input_maps_zero_to_zero() {
        let n = normalize("");
        assert_eq!(n.text, "");
        assert_eq!(n.to_original(0), 0);
        assert_eq!(n.span_to_original(0, 0), Span::new(0, 0));
        assert!(!n.changed());
    }

    #[test]
    fn csi_colour_codes_are_removed_and_rm_maps_back_to_its_original_bytes() {
        let original = "\x1b[31mrm\x1b[0m -rf /";
        let n = normalize(original);
        assert_eq!(n.text, "rm -rf /");
        assert_eq!(n.span_to_original(0, 2), Span::new(5, 7));
        assert_eq!(orig_slice(original, &n, 0, 2), "rm");
        assert_eq!(orig_slice(original, &n, 3, 6), "-rf");
        assert_eq!(n.to_original(n.text.len()), original.len());
        assert!(n.changed());
        assert_eq!(n.notes(), ["removed 2 ANSI escape sequences"]);
    }

    #[test]
    fn csi_with_private_params_and_intermediates_is_removed() {
        assert_eq!(normalize("a\x1b[?25lb\x1b[1 qc").text, "abc");
    }

    #[test]
    fn eight_bit_csi_is_removed() {
        assert_eq!(normalize("r\u{9b}1;2Hm").text, "rm");
    }

    #[test]
    fn aborted_csi_keeps_the_text_after_it() {
        // The newline is not part of the CSI grammar, so it ends the sequence and survives.
        assert_eq!(normalize("a\x1b[12\nrm").text, "a\nrm");
        assert_eq!(normalize("a\x1b[").text, "a");
    }

    #[test]
    fn osc_terminated_by_bel_is_removed() {
        assert_eq!(normalize("\x1b]0;title\x07ls").text, "ls");
    }

    #[test]
    fn osc_terminated_by_st_is_removed() {
        let original = "\x1b]8;;https://x.example\x1b\\link\x1b]8;;\x1b\\ rest";
        let n = normalize(original);
        assert_eq!(n.text, "link rest");
        assert_eq!(orig_slice(original, &n, 0, 4), "link");
    }

    #[test]
    fn osc_terminated_by_c1_st_is_removed() {
        assert_eq!(normalize("\x1b]2;t\u{9c}ls").text, "ls");
    }

    #[test]
    fn unterminated_osc_strips_to_end_and_says_so() {
        let n = normalize("echo \x1b]0;rm -rf /");
        assert_eq!(n.text, "echo ");
        assert!(n.notes().iter().any(|s| s.contains("unterminated")));
    }

    #[test]
    fn escape_inside_osc_cancels_it_and_starts_a_new_sequence() {
        assert_eq!(normalize("\x1b]0;t\x1b[31mred").text, "red");
    }

    #[test]
    fn dcs_sos_pm_apc_strings_are_removed() {
        for intro in ['P', 'X', '^', '_'] {
            let s = format!("a\x1b{intro}payload\x07still\x1b\\b");
            // BEL does not end these strings; only ST does.
            assert_eq!(normalize(&s).text, "ab", "intro {intro}");
        }
    }

    #[test]
    fn two_byte_and_charset_escapes_are_removed() {
        assert_eq!(normalize("\x1bca\x1b(Bb\x1b7c\x1bMd\x1b=e").text, "abcde");
    }

    #[test]
    fn stray_esc_is_dropped_without_eating_the_next_char() {
        assert_eq!(normalize("a\x1b\x1b\nb\x1bé\x1b").text, "a\nbé");
        assert!(
            normalize("a\x1b")
                .notes()
                .iter()
                .any(|s| s.contains("stray ESC"))
        );
    }

    #[test]
    fn c1_controls_are_removed() {
        let n = normalize("a\u{80}b\u{85}c\u{9f}d");
        assert_eq!(n.text, "abcd");
        assert_eq!(n.notes(), ["removed 3 C1 control characters"]);
    }

    #[test]
    fn nul_bytes_are_removed_and_counted() {
        let original = "r\0m\0 x";
        let n = normalize(original);
        assert_eq!(n.text, "rm x");
        assert_eq!(n.notes(), ["removed 2 NULs"]);
        assert_eq!(orig_slice(original, &n, 0, 2), "r\0m");
        assert_eq!(orig_slice(original, &n, 3, 4), "x");
    }

    #[test]
    fn crlf_becomes_lf_and_lone_cr_stays() {
        let original = "a\r\nb\rc\r\n";
        let n = normalize(original);
        assert_eq!(n.text, "a\nb\rc\n");
        assert_eq!(n.notes(), ["CRLF → LF (2)"]);
        assert_eq!(n.to_original(1), 2);
        assert_eq!(orig_slice(original, &n, 2, 5), "b\rc");
    }

    #[test]
    fn crlf_split_by_an_escape_still_folds() {
        assert_eq!(normalize("a\r\x1b[0m\nb").text, "a\nb");
    }

    #[test]
    fn full_width_command_becomes_ascii_and_maps_back() {
        let original = "ｒｍ －ｒｆ ／";
        let n = normalize(original);
        assert_eq!(n.text, "rm -rf /");
        assert_eq!(orig_slice(original, &n, 0, 2), "ｒｍ");
        assert_eq!(orig_slice(original, &n, 1, 2), "ｍ");
        assert_eq!(orig_slice(original, &n, 3, 6), "－ｒｆ");
        assert_eq!(orig_slice(original, &n, 7, 8), "／");
        assert_eq!(n.notes()[0], "NFKC: 'ｒｍ' → 'rm'");
    }

    #[test]
    fn combining_acute_composes_and_maps_to_its_base() {
        let original = "caf e\u{301}!";
        let n = normalize(original);
        assert_eq!(n.text, "caf é!");
        assert_eq!(orig_slice(original, &n, 4, 6), "e\u{301}");
        // A byte inside the replacement maps to the start of its source.
        assert_eq!(n.to_original(5), 4);
        assert_eq!(orig_slice(original, &n, 6, 7), "!");
    }

    #[test]
    fn combining_mark_after_a_stripped_escape_still_composes() {
        let original = "e\x1b[0m\u{301}";
        let n = normalize(original);
        assert_eq!(n.text, "é");
        assert_eq!(n.span_to_original(0, 2), Span::new(0, original.len()));
    }

    #[test]
    fn hangul_jamo_and_half_width_voiced_kana_compose() {
        assert_eq!(normalize("\u{1100}\u{1161}\u{11a8}").text, "\u{ac01}");
        assert_eq!(normalize("ｶﾞ").text, "ガ");
    }

    #[test]
    fn ligature_expands_and_both_letters_map_to_its_start() {
        let original = "x\u{fb01}le";
        let n = normalize(original);
        assert_eq!(n.text, "xfile");
        assert_eq!(n.to_original(1), 1);
        assert_eq!(n.to_original(2), 1);
        assert_eq!(n.span_to_original(1, 3), Span::new(1, 4));
        assert_eq!(n.to_original(3), 4);
    }

    #[test]
    fn offsets_past_the_end_map_to_original_len() {
        let n = normalize("\x1b[1mab");
        assert_eq!(n.to_original(2), 6);
        assert_eq!(n.to_original(100), 6);
        assert_eq!(n.span_to_original(5, 9), Span::new(6, 6));
    }

    #[test]
    fn nfkc_notes_are_bounded() {
        let original = "ａ ".repeat(50);
        let n = normalize(&original);
        assert_eq!(n.notes().len(), MAX_NFKC_NOTES + 1);
        assert_eq!(n.notes()[MAX_NFKC_NOTES], "NFKC: 45 more changes");
    }

    #[test]
    fn huge_inputs_are_handled() {
        let big = "a\u{301}\x1b[0m\r\n\0ｘ".repeat(200_000);
        let n = normalize(&big);
        assert_eq!(n.text.len(), "á\nx".len() * 200_000);
        let marks = format!("a{}", "\u{301}\u{316}".repeat(200_000));
        assert!(normalize(&marks).changed());
    }

    fn interesting_char() -> impl Strategy<Value = char> {
        prop_oneof![
            Just('\x1b'),
            Just('['),
            Just(']'),
            Just('\\'),
            Just('\x07'),
            Just('\0'),
            Just('\r'),
            Just('\n'),
            Just('P'),
            Just('m'),
            Just('1'),
            Just(';'),
            Just(' '),
            proptest::char::range('\u{80}', '\u{9f}'),
            proptest::char::range('\u{300}', '\u{36f}'),
            proptest::char::range('\u{1100}', '\u{11ff}'),
            proptest::char::range('\u{ac00}', '\u{ac10}'),
            proptest::char::range('\u{ff01}', '\u{ffef}'),
            proptest::char::range('\u{0b3e}', '\u{0b57}'),
            proptest::char::range('\u{0f71}', '\u{0f81}'),
            Just('\u{fb01}'),
            Just('\u{3099}'),
            any::<char>(),
        ]
    }

    fn interesting_string() -> impl Strategy<Value = String> {
        proptest::collection::vec(interesting_char(), 0..64).prop_map(|v| v.into_iter().collect())
    }

    #[test]
    fn joins_line_continuations_outside_single_quotes_and_maps_back() {
        let n = normalize("r\\\nm -rf 'a\\\nb' ~");
        assert_eq!(n.text, "rm -rf 'a\\\nb' ~");
        assert!(n.changed());
        assert_eq!(n.to_original(1), 3);
        assert!(n.notes().iter().any(|x| x.contains("line continuation")));
    }

    #[test]
    fn closes_an_unterminated_heredoc_at_the_end_and_maps_it_to_the_end() {
        let n = normalize("cat <<'EOF'\nrm -rf ~");
        assert_eq!(n.text, "cat <<'EOF'\nrm -rf ~\nEOF\n");
        assert_eq!(n.to_original(n.text.len() - 1), 20);
        assert!(n.notes().iter().any(|x| x.contains("unterminated heredoc")));
    }

    proptest! {
        #[test]
        fn never_panics_and_maps_monotonically_within_bounds(s in interesting_string()) {
            let n = normalize(&s);
            let mut prev = 0;
            for i in 0..=n.text.len() + 2 {
                let o = n.to_original(i);
                prop_assert!(o <= s.len());
                prop_assert!(o >= prev);
                prev = o;
            }
            prop_assert_eq!(n.to_original(n.text.len()), s.len());
            for (i, c) in n.text.char_indices() {
                let span = n.span_to_original(i, i + c.len_utf8());
                prop_assert!(span.start <= span.end && span.end <= s.len());
                prop_assert!(s.is_char_boundary(span.start) && s.is_char_boundary(span.end));
            }
        }

        #[test]
        fn arbitrary_strings_never_panic(s in any::<String>()) {
            let n = normalize(&s);
            prop_assert!(n.to_original(n.text.len()) == s.len());
        }

        #[test]
        fn output_has_no_esc_nul_or_c1(s in interesting_string()) {
            let n = normalize(&s);
            let forbidden = |c: char| c == '\x1b' || c == '\0' || ('\u{80}'..='\u{9f}').contains(&c);
            prop_assert!(!n.text.chars().any(forbidden));
        }

        #[test]
        fn clean_ascii_is_identity_with_identity_map(s in "[ -~\t\n]{0,80}") {
            // Line continuations are removed, as bash does (see `joins_line_continuations`).
            prop_assume!(!s.contains("\\\n"));
            // An unterminated heredoc is closed (see `close_heredocs`).
            prop_assume!(!s.contains("<<"));
            let n = normalize(&s);
            prop_assert_eq!(&n.text, &s);
            prop_assert!(!n.changed());
            for i in 0..=s.len() {
                prop_assert_eq!(n.to_original(i), i);
            }
        }

        #[test]
        fn segmentwise_nfkc_equals_whole_string_nfkc(s in interesting_string()) {
            let clean: String = s
                .chars()
                .filter(|c| !matches!(c, '\x1b' | '\0' | '\r' | '\u{80}'..='\u{9f}'))
                .collect();
            prop_assume!(!clean.contains("\\\n") && !clean.contains("<<"));
            let expected: String = clean.nfkc().collect();
            // NFKC can make a heredoc (`＜<P` is `<<P`), which is then closed (see
            // `close_heredocs`): this property is about NFKC alone.
            prop_assume!(!expected.contains("\\\n") && !expected.contains("<<"));
            prop_assert_eq!(normalize(&clean).text, expected);
        }
    }
}
