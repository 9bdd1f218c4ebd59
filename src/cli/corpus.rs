//! `shellgate corpus`: run labelled corpus files in the fixture context, print a diff for
//! every case whose decision or rules differ from its label, and end with the summary line
//! `N passed, M failed`; `--update` rewrites the labels of TOML files to the new answers.

use super::{emit, unwritten};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::EXIT_USAGE;
use shellgate::Context;
use shellgate::corpus::{self, Outcome};

#[derive(Args, Debug)]
pub(super) struct CorpusArgs {
    /// Corpus files (`.toml`, `.jsonl`) or directories searched recursively [default: corpus/].
    paths: Vec<PathBuf>,
    /// Rewrite the expectations of failing cases in TOML files to what shellgate answers now
    /// (JSONL files are left alone and reported).
    #[arg(long)]
    update: bool,
}

pub(super) fn run(args: CorpusArgs) -> i32 {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("corpus")]
    } else {
        args.paths.clone()
    };
    // Check up front so a typo is a clear usage error, not an empty (and green) run.
    for p in &paths {
        if !p.exists() {
            eprintln!(
                "shellgate: corpus path {} does not exist; pass a corpus file or directory (the default is corpus/ in the current directory)",
                p.display()
            );
            return EXIT_USAGE;
        }
        match corpus::files(p) {
            Ok(f) if f.is_empty() => {
                eprintln!(
                    "shellgate: no corpus files (*.toml, *.jsonl) under {}; pass a file or a directory that holds some",
                    p.display()
                );
                return EXIT_USAGE;
            }
            Ok(_) => {}
            Err(e) => {
                eprintln!("shellgate: {e}; pass a readable corpus file or directory");
                return EXIT_USAGE;
            }
        }
    }
    let outcomes = match corpus::run_paths(&paths, &Context::fixture()) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("shellgate: {e}; fix the file and run again");
            return EXIT_USAGE;
        }
    };
    let failed: Vec<&Outcome> = outcomes.iter().filter(|o| !o.ok).collect();
    let mut out = std::io::stdout().lock();
    for o in &failed {
        if let Err(e) = emit(&mut out, format_args!("{}\n", corpus::diff(o))) {
            return unwritten(&e, 1);
        }
        // The note says why the label is what it is: what a reviewer needs to judge the diff.
        if let Some(n) = &o.loaded.case.note
            && let Err(e) = emit(&mut out, format_args!("note: {n}\n\n"))
        {
            return unwritten(&e, 1);
        }
    }
    let code = if failed.is_empty() {
        0
    } else if args.update {
        update(&failed, &mut out)
    } else {
        if let Err(e) = emit(
            &mut out,
            format_args!(
                "Fix the analysis, or if the new answers are right run again with --update to rewrite the TOML labels.\n"
            ),
        ) {
            return unwritten(&e, 1);
        }
        1
    };
    // The summary is the last line so harnesses that read a run's closing line find it.
    if let Err(e) = emit(
        &mut out,
        format_args!(
            "{} passed, {} failed\n",
            outcomes.len() - failed.len(),
            failed.len()
        ),
    ) {
        return unwritten(&e, code);
    }
    code
}

/// Rewrite labels file by file; exit 0 only if every failure was rewritten.
fn update(failed: &[&Outcome], out: &mut impl Write) -> i32 {
    let mut by_file: BTreeMap<PathBuf, Vec<&Outcome>> = BTreeMap::new();
    for o in failed {
        by_file.entry(o.loaded.file.clone()).or_default().push(o);
    }
    let mut left = 0usize;
    for (file, os) in by_file {
        if file.extension().and_then(|x| x.to_str()) != Some("toml") {
            left += os.len();
            eprintln!(
                "shellgate: {} is not a TOML corpus file; --update only rewrites TOML, so fix its {} case(s) by hand",
                file.display(),
                os.len()
            );
            continue;
        }
        match corpus::update_file(&file, &os) {
            Ok(n) => {
                if let Err(e) = emit(
                    out,
                    format_args!("updated {n} case(s) in {}\n", file.display()),
                ) {
                    return unwritten(&e, 1);
                }
                left += os.len().saturating_sub(n);
            }
            Err(e) => {
                left += os.len();
                eprintln!("shellgate: {e}; --update needs a readable, writable TOML corpus file");
            }
        }
    }
    if left == 0 { 0 } else { 1 }
}
