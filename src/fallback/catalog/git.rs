//! Approval tier: git commands that destroy work or history.

use super::A;
use crate::fallback::FallbackPattern;

pub(super) static PATTERNS: &[FallbackPattern] = &[
    pat!(
        "fb-git-reset-hard",
        "git reset --hard (destroys uncommitted changes)",
        A,
        with_flag!(git_sub!("reset"), r"--h(?:a|ar|ard)?"),
        "git reset --hard (or its prefixes --h, --ha, --har), git global options allowed",
        hits: &[
            "git reset --hard",
            "git reset --hard HEAD~1",
            "git -C repo reset --hard",
            "git reset HEAD --har",
            "git -c core.x=y reset --h",
        ],
        misses: &[
            "git reset --soft HEAD~1",
            "git reset --help",
            "git log --hard",
        ],
    ),
    pat!(
        "fb-git-push-force",
        "git force push (rewrites remote history)",
        A,
        with_flag!(git_sub!("push"), r"(?:--force(?:-with-lease|-if-includes)?(?:=[^\s;&|]*)?|--mirror|--delete|\+[^\s;&|]+|:[^\s;&|]+)"),
        "git push --force / --force-with-lease / --mirror / --delete / +refspec / :branch",
        hits: &[
            "git push --force",
            "git push origin main --force",
            "git push --force-with-lease",
            "git push origin +main",
            "git push --mirror",
            "git push origin :old",
            "git push --delete origin x",
        ],
        misses: &[
            "git push origin main",
            "git push -u origin HEAD:main",
            "git push --follow-tags",
        ],
    ),
    pat!(
        "fb-git-push-force-short",
        "git force push short flag (rewrites remote history)",
        A,
        with_flag!(git_sub!("push"), r"-[a-zA-Z]*f[a-zA-Z]*"),
        "git push -f (also in a cluster like -uf)",
        hits: &[
            "git push -f",
            "git push -uf origin x",
            "git -C r push origin main -f",
        ],
        misses: &["git push -u origin x", "git push --force"],
    ),
    pat!(
        "fb-git-clean-force",
        "git clean with force (deletes untracked files)",
        A,
        with_flag!(git_sub!("clean"), r"(?:-[a-zA-Z]*f[a-zA-Z]*|--force)"),
        "git clean -f / -fdx / --force",
        hits: &["git clean -f", "git clean -fdx", "git clean -d --force"],
        misses: &["git clean -n", "git clean --dry-run"],
    ),
    pat!(
        "fb-git-branch-force-delete",
        "git branch force delete",
        A,
        with_flag!(git_sub!("branch"), r"(?:-[a-zA-Z]*D[a-zA-Z]*|-[a-zA-Z]*d[a-zA-Z]*f[a-zA-Z]*|-[a-zA-Z]*f[a-zA-Z]*d[a-zA-Z]*)"),
        "git branch -D (or a cluster with d and f)",
        hits: &[
            "git branch -D feature",
            "git branch -df x",
            "git branch -fd x",
        ],
        misses: &[
            "git branch -d feature",
            "git branch -f x HEAD",
            "git branch -a",
        ],
    ),
    pat!(
        "fb-git-branch-force-delete-long",
        "git branch force delete (long flags)",
        A,
        with_flag!(concat!(git_sub!("branch"), later!(), "(?:--delete|-d)"), "(?:--force|-f)"),
        "git branch --delete ... --force (separate delete and force flags)",
        hits: &["git branch --delete --force x", "git branch -d -f x"],
        misses: &["git branch --delete x", "git branch --force x --delete"],
    ),
    pat!(
        "fb-git-branch-force-delete-force-first",
        "git branch force delete (long flags, force-first)",
        A,
        with_flag!(concat!(git_sub!("branch"), later!(), "(?:--force|-f)"), "(?:--delete|-d)"),
        "git branch --force ... --delete",
        hits: &["git branch --force --delete x", "git branch -f -d x"],
        misses: &["git branch --force x", "git branch --delete --force x"],
    ),
];
