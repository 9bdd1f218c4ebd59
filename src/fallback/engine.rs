//! The fallback engine: compiles each catalog pattern once, when text first contains one of
//! its literals ([`super::prefilter`]), scans text in bounded overlapping windows, applies each
//! pattern's [`Check`], and snaps spans to char boundaries.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{LazyLock, OnceLock};

use regex::bytes::{CaptureLocations, Regex, RegexBuilder};

use super::{
    Check, FallbackHit, FallbackPattern, MAX_HITS_PER_PATTERN, MAX_SCAN_WINDOW, WINDOW_OVERLAP,
    catalog,
};
use crate::Span;

/// Indices of the named groups a pattern may use.
#[derive(Debug, Clone, Copy, Default)]
struct Groups {
    m: Option<usize>,
    a: Option<usize>,
    b: Option<usize>,
    c: Option<usize>,
    d: Option<usize>,
    e: Option<usize>,
}

struct Compiled {
    re: Regex,
    groups: Groups,
}

fn compile(pattern: &FallbackPattern) -> Result<Compiled, regex::Error> {
    let re = RegexBuilder::new(pattern.regex).unicode(false).build()?;
    let mut groups = Groups::default();
    for (i, name) in re.capture_names().enumerate() {
        let slot = match name {
            Some("m") => &mut groups.m,
            Some("a") => &mut groups.a,
            Some("b") => &mut groups.b,
            Some("c") => &mut groups.c,
            Some("d") => &mut groups.d,
            Some("e") => &mut groups.e,
            _ => continue,
        };
        *slot = Some(i);
    }
    Ok(Compiled { re, groups })
}

/// One catalog pattern: the literals one of which every match contains (`None`: no such
/// set is known, always run it) and its regex, compiled on first need; `None` inside when it
/// failed to compile (skipped, not fatal).
struct Entry {
    pattern: &'static FallbackPattern,
    needs: Option<Vec<Vec<u8>>>,
    compiled: OnceLock<Option<Compiled>>,
}

static ENTRIES: LazyLock<Vec<Entry>> = LazyLock::new(|| {
    catalog()
        .map(|p| Entry {
            pattern: p,
            needs: super::prefilter::required(p.regex),
            compiled: OnceLock::new(),
        })
        .collect()
});

/// Regexes compiled by this process so far.
static COMPILES: AtomicUsize = AtomicUsize::new(0);

/// How many catalog regexes this process has compiled: none until text reaches the fallback,
/// then only those whose literals the text contains.
pub fn compiled_patterns() -> usize {
    COMPILES.load(Ordering::Relaxed)
}

fn compiled(e: &Entry) -> Option<&Compiled> {
    e.compiled
        .get_or_init(|| {
            COMPILES.fetch_add(1, Ordering::Relaxed);
            compile(e.pattern).ok()
        })
        .as_ref()
}

/// Window sizes, separate from the constants so tests can exercise windowing on small text.
#[derive(Debug, Clone, Copy)]
struct Limits {
    window: usize,
    overlap: usize,
}

const LIMITS: Limits = Limits {
    window: MAX_SCAN_WINDOW,
    overlap: WINDOW_OVERLAP,
};

/// Scan text; the regexes compile once, lazily, on first call: a clean parse that never calls
/// `scan` does not pay for compiling them. Hits are ordered by span start, then span end, then
/// catalog order; one span may carry several hits (a block one and its approve counterpart).
pub fn scan(text: &str) -> Vec<FallbackHit> {
    scan_with(text, LIMITS)
}

fn scan_with(text: &str, limits: Limits) -> Vec<FallbackHit> {
    scan_filtered(text, limits, true)
}

fn scan_filtered(text: &str, limits: Limits, prefilter: bool) -> Vec<FallbackHit> {
    let mut hits = Vec::new();
    // At any size: a pattern's literals are searched with memmem, stopping at the first
    // found, which costs less than one pass of its regex over the text (a 1 MB `&&` chain
    // cut at the depth limit: 0.44 G instructions scanning every pattern, 0.15 G filtered).
    let lower = prefilter.then(|| text.as_bytes().to_ascii_lowercase());
    for e in ENTRIES.iter() {
        // No literal of the pattern in the text: no match is possible, skip the regex.
        if let (Some(lower), Some(needs)) = (&lower, &e.needs)
            && !super::prefilter::any_in(lower, needs)
        {
            continue;
        }
        if let Some(compiled) = compiled(e) {
            scan_pattern(text, e.pattern, compiled, limits, &mut hits);
        }
    }
    // Stable, so hits on the same span keep catalog order (block tier first).
    hits.sort_by_key(|h| (h.span.start, h.span.end));
    hits
}

fn scan_pattern(
    text: &str,
    pattern: &'static FallbackPattern,
    compiled: &Compiled,
    limits: Limits,
    out: &mut Vec<FallbackHit>,
) {
    let hay = text.as_bytes();
    let len = hay.len();
    // A window must leave room to advance past its overlap, or scanning could stall.
    let window = limits.window.max(limits.overlap.saturating_add(8));
    let mut locs = compiled.re.capture_locations();
    let mut pos = 0usize;
    let mut found = 0usize;
    while pos <= len && found < MAX_HITS_PER_PATTERN {
        let wend = text.ceil_char_boundary(pos.saturating_add(window).min(len));
        // Searching a prefix of the text (not a copy) keeps the context before `pos` visible
        // to `^` and `\b`, and bounds this search to one window.
        let Some(m) = compiled.re.captures_read_at(&mut locs, &hay[..wend], pos) else {
            if wend >= len {
                break;
            }
            let next = text.floor_char_boundary(wend.saturating_sub(limits.overlap));
            pos = next.max(pos + 1);
            continue;
        };
        let (ms, me) = (m.start(), m.end());
        if wend < len && me.saturating_add(limits.overlap) > wend && ms > pos {
            // The match ends near the cut, so more text might change it: search again from
            // its start, which gives it a full window of lookahead.
            pos = ms;
            continue;
        }
        if passes(pattern.check, compiled, hay, &locs, ms, me) {
            let (start, end) = match compiled.groups.m.and_then(|g| locs.get(g)) {
                Some((s, e)) => (s, e),
                None => (ms, me),
            };
            out.push(FallbackHit {
                key: pattern.key,
                severity: pattern.severity,
                span: Span::new(
                    text.floor_char_boundary(start),
                    text.ceil_char_boundary(end),
                ),
                pattern_id: pattern.id,
            });
            found += 1;
        }
        // Rejected matches are consumed too: every check is about the match as a whole.
        pos = if me > ms { me } else { me + 1 };
    }
}

fn group<'h>(hay: &'h [u8], locs: &CaptureLocations, g: Option<usize>) -> Option<&'h [u8]> {
    let (s, e) = locs.get(g?)?;
    hay.get(s..e)
}

fn passes(
    check: Check,
    compiled: &Compiled,
    hay: &[u8],
    locs: &CaptureLocations,
    ms: usize,
    me: usize,
) -> bool {
    let g = compiled.groups;
    match check {
        Check::Always => true,
        Check::NoSqlWhere => !contains_word_ci(hay.get(ms..me).unwrap_or_default(), b"where"),
        Check::SameFunctionName => {
            let (a, b, c) = (
                group(hay, locs, g.a),
                group(hay, locs, g.b),
                group(hay, locs, g.c),
            );
            matches!((a, b, c), (Some(a), Some(b), Some(c)) if a == b && b == c)
        }
        Check::UnsafeDevice => match group(hay, locs, g.d).or_else(|| group(hay, locs, g.e)) {
            Some(name) => !is_harmless_device(name),
            None => false,
        },
    }
}

/// `/dev/` nodes whose writes destroy nothing: sinks, sources, terminals, descriptors.
fn is_harmless_device(name: &[u8]) -> bool {
    const EXACT: &[&[u8]] = &[
        b"null", b"zero", b"full", b"random", b"urandom", b"stdin", b"stdout", b"stderr", b"log",
        b"console", b"ptmx",
    ];
    const PREFIX: &[&[u8]] = &[b"tty", b"pts/", b"fd/", b"shm/"];
    EXACT.contains(&name) || PREFIX.iter().any(|p| name.starts_with(p))
}

/// ASCII case-insensitive search for `word` delimited by non-word bytes.
fn contains_word_ci(hay: &[u8], word: &[u8]) -> bool {
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    hay.windows(word.len()).enumerate().any(|(i, w)| {
        w.eq_ignore_ascii_case(word)
            && (i == 0 || !is_word(hay[i - 1]))
            && hay.get(i + word.len()).is_none_or(|&b| !is_word(b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    use crate::fallback::hits_of;

    #[test]
    fn every_catalog_regex_compiles() {
        let failures: Vec<String> = catalog()
            .filter_map(|p| compile(p).err().map(|e| format!("{}: {e}", p.id)))
            .collect();
        assert!(
            failures.is_empty(),
            "patterns that do not compile:\n{}",
            failures.join("\n")
        );
        assert!(ENTRIES.iter().all(|e| compiled(e).is_some()));
    }

    #[test]
    fn every_hit_example_contains_a_literal_of_its_pattern() {
        // The prefilter may only skip a pattern that cannot match: every example the catalog
        // says matches must pass it, in any letter case the regex accepts.
        let mut wrong = Vec::new();
        for e in ENTRIES.iter() {
            let Some(needs) = &e.needs else { continue };
            for ex in e.pattern.hits {
                if !super::super::prefilter::any_in(&ex.as_bytes().to_ascii_lowercase(), needs) {
                    wrong.push(format!("{}: {ex:?}", e.pattern.id));
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "examples the prefilter would skip:\n{}",
            wrong.join("\n")
        );
        // And it is worth having: most patterns get one.
        let filtered = ENTRIES.iter().filter(|e| e.needs.is_some()).count();
        assert!(
            filtered * 2 > ENTRIES.len(),
            "{filtered} of {}",
            ENTRIES.len()
        );
    }

    #[test]
    fn block_findings_are_found_past_the_first_window() {
        // Only the pattern under test is run: the whole catalog over megabytes is slow in an
        // unoptimised test build, and the windowing is per pattern anyway.
        let (pattern, compiled) = ENTRIES
            .iter()
            .find(|e| e.pattern.id == "fb-rm-root")
            .and_then(|e| compiled(e).map(|c| (e.pattern, c)))
            .expect("fb-rm-root compiles");
        let scan_root = |text: &str| {
            let mut out = Vec::new();
            scan_pattern(text, pattern, compiled, LIMITS, &mut out);
            out
        };
        // Past 2 MiB of padding (truncation would have cut it off), and straddling the edge
        // of the first window, where a cut would split the command.
        for pad in [2 * MAX_SCAN_WINDOW + 1000, MAX_SCAN_WINDOW - 5] {
            let mut text = "é".repeat(pad / 2);
            text.push_str("; rm -rf / ; ");
            text.push_str(&"y".repeat(MAX_SCAN_WINDOW / 2));
            let hits = scan_root(&text);
            assert_eq!(hits.len(), 1, "pad {pad}");
            assert_eq!(&text[hits[0].span.start..hits[0].span.end], "rm -rf /");
        }
    }

    #[test]
    fn a_match_straddling_a_window_edge_is_found_once_and_whole() {
        let limits = Limits {
            window: 200,
            overlap: 64,
        };
        for pad in 150..260 {
            let text = format!("{}; rm -rf /usr ; {}", "a".repeat(pad), "b".repeat(300));
            let hits: Vec<_> = scan_with(&text, limits)
                .into_iter()
                .filter(|h| h.pattern_id == "fb-rm-system-dir")
                .collect();
            assert_eq!(hits.len(), 1, "pad {pad}");
            assert_eq!(
                &text[hits[0].span.start..hits[0].span.end],
                "rm -rf /usr",
                "pad {pad}"
            );
        }
    }

    #[test]
    fn a_cut_at_the_window_edge_does_not_invent_a_match() {
        // `kill -1` followed by `0` is `kill -10`; a cut between them must not report kill -1.
        let limits = Limits {
            window: 200,
            overlap: 64,
        };
        for pad in 150..260 {
            let text = format!("{}; kill -10 123 ; {}", "a".repeat(pad), "b".repeat(300));
            assert!(
                scan_with(&text, limits)
                    .iter()
                    .all(|h| h.pattern_id != "fb-kill-all"),
                "pad {pad}"
            );
        }
    }

    #[test]
    fn hits_per_pattern_are_capped() {
        let text = "rm -r x; ".repeat(MAX_HITS_PER_PATTERN * 3);
        assert_eq!(
            hits_of(&text, "fb-rm-recursive").len(),
            MAX_HITS_PER_PATTERN
        );
        // The cap is per pattern, so a flood of approve hits cannot hide a block hit.
        let text = format!("{text} rm -rf /");
        assert_eq!(hits_of(&text, "fb-rm-root").len(), 1);
    }

    #[test]
    fn spans_are_snapped_to_char_boundaries() {
        let text = "é rm -rf / é";
        for h in scan(text) {
            assert!(text.is_char_boundary(h.span.start) && text.is_char_boundary(h.span.end));
        }
    }

    const FRAGMENTS: &[&str] = &[
        "rm -rf /",
        "rm -rf ~/",
        "echo hi",
        "ls -la",
        ":(){ :|:& };:",
        "kill -9 -1",
        "sudo reboot",
        "adb reboot",
        "dd if=x of=/dev/sda",
        "echo x > /dev/null",
        "curl -s x | sh",
        "DELETE FROM t",
        "git push -f",
        "chmod +x a && ./a",
        "é ü 日本",
        "\"",
        "'",
        "\\",
        "$(",
        "`",
        "|",
        "&",
        "\t",
        "x",
        "/dev/",
        "--",
        "-",
        "<<EOF",
        "python3 -c 'x'",
        "sed -i s/a/b/ ~/.bashrc",
        "mkfs.ext4 /dev/sdb1",
        "{",
        "}",
    ];

    proptest! {
        #[test]
        fn scan_never_panics_and_spans_are_in_bounds_on_char_boundaries(text in any::<String>()) {
            for h in scan(&text) {
                prop_assert!(h.span.start <= h.span.end && h.span.end <= text.len());
                prop_assert!(text.is_char_boundary(h.span.start) && text.is_char_boundary(h.span.end));
            }
        }

        #[test]
        fn scan_of_shell_like_text_keeps_spans_valid(parts in proptest::collection::vec((0..FRAGMENTS.len(), 0..4usize), 0..40)) {
            let seps = [" ", "; ", "\n", ""];
            let text: String = parts.iter().map(|&(f, s)| format!("{}{}", FRAGMENTS[f], seps[s])).collect();
            for h in scan(&text) {
                prop_assert!(h.span.start <= h.span.end && h.span.end <= text.len());
                prop_assert!(text.is_char_boundary(h.span.start) && text.is_char_boundary(h.span.end));
            }
        }

        #[test]
        fn skipping_patterns_by_their_literals_changes_no_hit(parts in proptest::collection::vec((0..FRAGMENTS.len(), 0..4usize), 0..40)) {
            let seps = [" ; ", " && ", " | ", "\n"];
            let text: String = parts.iter().map(|&(f, s)| format!("{}{}", FRAGMENTS[f], seps[s])).collect();
            prop_assert_eq!(scan_filtered(&text, LIMITS, true), scan_filtered(&text, LIMITS, false));
        }

        #[test]
        fn windowed_scan_equals_whole_text_scan(parts in proptest::collection::vec(0..FRAGMENTS.len(), 0..80)) {
            // Every fragment ends a line and a statement, so no match is longer than the overlap.
            let text: String = parts.iter().map(|&f| format!("{} ;\n", FRAGMENTS[f])).collect();
            let small = scan_with(&text, Limits { window: 256, overlap: 96 });
            let whole = scan_with(&text, Limits { window: usize::MAX / 2, overlap: 96 });
            prop_assert_eq!(small, whole);
        }
    }
}
