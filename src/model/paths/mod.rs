//! Paths: resolving a path word (`~`, the working directory, `.`/`..`), its [`Extent`] (how
//! much of the tree it covers: root, a top-level system directory, a home directory, the
//! working directory itself, ...) for recursive deletes and permission changes, and, in
//! [`catalog`], the one table of what a path *is* (system, credential, shell startup,
//! harness or guard config, temp, workspace) that every write, delete, copy and upload rule
//! reads.

pub mod catalog;

pub use catalog::{PathClass, PathInfo, Roots, classify};

use super::{Command, Piece, Word};

/// Top-level directories whose loss breaks the system (Linux and macOS).
pub const SYSTEM_DIRS: &[&str] = &[
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/home",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/opt",
    "/proc",
    "/root",
    "/sbin",
    "/srv",
    "/sys",
    "/usr",
    "/var",
    "/System",
    "/Library",
    "/Applications",
    "/Users",
    "/private",
    "/Volumes",
    "/nix",
    "/snap",
];

/// How much of the filesystem a path covers, worst first.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Extent {
    /// `/`, `/*`, `/.`, or a glob over top-level entries.
    Root,
    /// A top-level system directory or its contents (`/usr`, `/etc/*`).
    SystemDir(String),
    /// The user's home directory itself or all of its contents (`~`, `~/*`, `/home/alice`).
    Home(String),
    /// The path starts with text that may be empty followed by `/` (`"$DIR/"*`).
    MaybeRoot(String),
    /// The path is only known at run time.
    Unknown(String),
    /// A path under a system directory (`/etc/passwd`, `/usr/local/bin/x`).
    InsideSystem(String),
    /// A path inside home (`~/.cache/x`), outside the working directory.
    InsideHome(String),
    /// The working directory itself, `.`, `..`, `*` in it, or a parent of it.
    WorkDirItself(String),
    /// A temporary path (`/tmp/x`, `/var/tmp/x`).
    Temp(String),
    /// A path inside the working directory.
    Workspace(String),
    /// Anything else (an absolute path elsewhere).
    Other(String),
}

/// Join `path` onto `cwd` and fold `.`, `..` and repeated slashes. Returns `None` for a
/// relative path when the working directory is unknown.
pub fn resolve(path: &str, cwd: Option<&str>) -> Option<String> {
    let joined = if path.starts_with('/') {
        path.to_string()
    } else {
        let base = cwd?;
        format!("{}/{}", base.trim_end_matches('/'), path)
    };
    Some(fold(&joined))
}

/// Fold `.`/`..`/`//` in an absolute path (`/a/../b/./c//` → `/b/c`).
pub fn fold(path: &str) -> String {
    // Built in place (a component never holds `/`, so `..` drops back to the last one):
    // this runs for every path-like word of every command.
    let mut out = String::with_capacity(path.len() + 1);
    for comp in path.split('/') {
        match comp {
            "" | "." => {}
            ".." => out.truncate(out.rfind('/').unwrap_or(0)),
            c => {
                out.push('/');
                out.push_str(c);
            }
        }
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

fn is_glob(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// Classify a resolved absolute path (glob characters allowed).
pub fn classify_abs(path: &str, home: Option<&str>, cwd: Option<&str>) -> Extent {
    let folded = fold(path);
    let comps: Vec<&str> = folded.split('/').filter(|c| !c.is_empty()).collect();
    if comps.is_empty() {
        return Extent::Root;
    }
    // A glob in the first component can match any top-level directory.
    if is_glob(comps[0]) {
        return Extent::Root;
    }
    let top = format!("/{}", comps[0]);
    let all_glob = |rest: &[&str]| rest.iter().all(|c| *c == "*" || *c == ".*" || *c == "{*}");
    if let Some(h) = home {
        let hf = fold(h);
        if hf != "/" {
            let hcomps: Vec<&str> = hf.split('/').filter(|c| !c.is_empty()).collect();
            if comps.len() >= hcomps.len() && comps[..hcomps.len()] == hcomps[..] {
                let rest = &comps[hcomps.len()..];
                if rest.is_empty() || all_glob(rest) {
                    return Extent::Home(folded);
                }
                if let Some(c) = cwd {
                    if within(&folded, c) && folded != fold(c) {
                        return Extent::Workspace(folded);
                    }
                    if within(c, &folded) {
                        return Extent::WorkDirItself(folded);
                    }
                }
                return Extent::InsideHome(folded);
            }
        }
    }
    // Any user's home (`/home/bob`, `/Users/bob`, `/root`) counts as a home directory.
    if (top == "/home" || top == "/Users") && comps.len() >= 2 {
        let rest = &comps[2..];
        if (rest.is_empty() || all_glob(rest)) && !is_glob(comps[1]) {
            return Extent::Home(folded);
        }
        if is_glob(comps[1]) && (rest.is_empty() || all_glob(rest)) {
            return Extent::SystemDir(top);
        }
    }
    if SYSTEM_DIRS.contains(&top.as_str()) {
        let rest = &comps[1..];
        if rest.is_empty() || all_glob(rest) {
            return Extent::SystemDir(top);
        }
        // Whole standard subtrees of /usr and /var are as bad as the directory itself.
        if rest.len() == 1
            && matches!(
                (top.as_str(), rest[0]),
                (
                    "/usr",
                    "bin" | "lib" | "lib64" | "sbin" | "share" | "include" | "local" | "libexec"
                ) | ("/var", "lib" | "log" | "cache" | "spool" | "db")
                    | ("/System", "Library")
                    | ("/private", "etc" | "var")
            )
        {
            return Extent::SystemDir(folded);
        }
    }
    if top == "/tmp" || folded.starts_with("/var/tmp/") || folded.starts_with("/private/tmp/") {
        if comps.len() == 1 {
            // `/tmp` itself is shared state of every user, but not a system directory.
            return Extent::InsideSystem(folded);
        }
        return Extent::Temp(folded);
    }
    // The operating system's own trees stay system paths even when the working directory
    // is inside them (`cd /etc && rm passwd`).
    if is_os_tree(&folded) {
        return Extent::InsideSystem(folded);
    }
    if let Some(c) = cwd {
        if within(&folded, c) && folded != fold(c) {
            return Extent::Workspace(folded);
        }
        if within(c, &folded) {
            return Extent::WorkDirItself(folded);
        }
    }
    if SYSTEM_DIRS.contains(&top.as_str()) {
        return Extent::InsideSystem(folded);
    }
    Extent::Other(folded)
}

/// Is `path` in a tree owned by the operating system (the catalog's system and cron rows),
/// where no working directory makes a path "the workspace"?
pub fn is_os_tree(path: &str) -> bool {
    matches!(
        classify(path, Roots::default()).class,
        PathClass::System | PathClass::Cron
    )
}

/// Is `path` equal to or below `dir`?
pub fn within(path: &str, dir: &str) -> bool {
    let p = fold(path);
    let d = fold(dir);
    d == "/" || p == d || p.starts_with(&format!("{d}/"))
}

/// Resolve a path word of `cmd` to an absolute path for the catalog. Unknown pieces become
/// `\u{fffd}`; a path whose directory is unknown keeps its file name (`"$D/.env"` →
/// `/\u{fffd}/.env`), which is all the catalog's name rows need.
pub fn resolve_word(cmd: &Command, w: &Word, home: Option<&str>) -> Option<String> {
    let t = expand_tilde(&w.text_with("\u{fffd}"), home);
    if t.is_empty() || t.starts_with('\u{fffd}') && !t.contains('/') {
        return None;
    }
    let unknown_dir = || format!("/\u{fffd}/{}", t.rsplit('/').next().unwrap_or(""));
    if t.starts_with('\u{fffd}') {
        return Some(unknown_dir());
    }
    resolve(&t, cmd.cwd.as_deref()).or_else(|| Some(unknown_dir()))
}

/// `~/x` → `$HOME/x`. Words are already expanded by the model, but redirect targets and
/// option values such as `-d @~/x` may still hold a literal `~`.
pub fn expand_tilde(t: &str, home: Option<&str>) -> String {
    match home {
        Some(h) if t == "~" => h.to_string(),
        Some(h) => match t.strip_prefix("~/") {
            Some(rest) => format!("{}/{rest}", h.trim_end_matches('/')),
            None => t.to_string(),
        },
        None => t.to_string(),
    }
}

/// A graph file path that was resolved from an unexpanded `~/..` (`/cwd/~/x` → `$HOME/x`).
pub fn fix_tilde_path(p: &str, home: Option<&str>) -> String {
    match (p.find("/~/"), home) {
        (Some(i), Some(h)) => format!("{}/{}", h.trim_end_matches('/'), &p[i + 3..]),
        _ => p.to_string(),
    }
}

/// Classify a path argument word given the known working directory and home.
pub fn classify_word(word: &Word, cwd: Option<&str>, home: Option<&str>) -> Extent {
    if let Some(text) = word.lit() {
        return classify_text(&text, cwd, home);
    }
    // `"$DIR/"*`: unknown text that may be empty, then a slash.
    if let [
        Piece::Unknown {
            may_be_empty: true, ..
        },
        Piece::Lit { text, .. },
        ..,
    ] = word.pieces.as_slice()
        && text.starts_with('/')
    {
        return Extent::MaybeRoot(word.shown());
    }
    match word.value() {
        super::WordValue::Partial { prefix, .. } => {
            // A known directory prefix still says where the path is.
            if prefix.ends_with('/') || prefix.contains('/') {
                let dir = match prefix.rfind('/') {
                    Some(i) => &prefix[..=i],
                    None => prefix.as_str(),
                };
                let dir_only = if dir == "/" {
                    "/"
                } else {
                    dir.trim_end_matches('/')
                };
                // The unknown rest may be empty: inside `/` or a home directory that can
                // mean the directory itself, so the path stays unknown; elsewhere it is
                // something inside the known directory.
                return match classify_text(dir_only, cwd, home) {
                    Extent::Root | Extent::Home(_) => Extent::Unknown(word.shown()),
                    Extent::SystemDir(d) => Extent::InsideSystem(format!(
                        "{d}/{}",
                        word.shown().rsplit('/').next().unwrap_or("")
                    )),
                    _ => classify_text(&format!("{dir}\u{fffd}"), cwd, home),
                };
            }
            Extent::Unknown(word.shown())
        }
        _ => Extent::Unknown(word.shown()),
    }
}

/// Classify literal path text.
pub fn classify_text(text: &str, cwd: Option<&str>, home: Option<&str>) -> Extent {
    if text.is_empty() {
        return Extent::Other(String::new());
    }
    if text.starts_with('/') {
        return classify_abs(text, home, cwd);
    }
    match cwd {
        Some(c) => {
            let resolved = resolve(text, Some(c)).unwrap_or_default();
            let class = classify_abs(&resolved, home, Some(c));
            // `*`, `.`, `..` in the working directory are the directory itself.
            match class {
                Extent::Workspace(p)
                    if is_glob(text.split('/').next().unwrap_or(""))
                        && !text.contains('/')
                        && text.starts_with('*') =>
                {
                    Extent::WorkDirItself(p)
                }
                c => c,
            }
        }
        None => {
            let first = text.split('/').next().unwrap_or("");
            if first == "." || first == ".." || text == "*" {
                Extent::WorkDirItself(text.to_string())
            } else {
                Extent::Workspace(text.to_string())
            }
        }
    }
}

/// Device nodes whose overwrite destroys a disk (not `/dev/null`, `/dev/tty`, ...).
pub fn is_block_device(path: &str) -> bool {
    // Every folded `/dev/…` path names `dev` in the text; most words do not.
    if !path.contains("dev") {
        return false;
    }
    let p = fold(path);
    let Some(dev) = p.strip_prefix("/dev/") else {
        return false;
    };
    let starts = |pre: &str| dev.starts_with(pre);
    starts("sd")
        || starts("hd")
        || starts("vd")
        || starts("xvd")
        || starts("nvme")
        || starts("mmcblk")
        || starts("disk")
        || starts("rdisk")
        || starts("md")
        || starts("dm-")
        || starts("mapper/")
        || starts("loop")
        || starts("sr")
        || starts("block/")
        || starts("disk/")
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOME: Option<&str> = Some("/home/user");
    const CWD: Option<&str> = Some("/home/user/project");

    #[test]
    fn folds_dots_and_slashes() {
        assert_eq!(fold("/a/../b/./c//"), "/b/c");
        assert_eq!(fold("/.."), "/");
        assert_eq!(fold("//"), "/");
    }

    #[test]
    fn classifies_root_system_home_and_workspace() {
        assert_eq!(classify_text("/", CWD, HOME), Extent::Root);
        assert_eq!(classify_text("/*", CWD, HOME), Extent::Root);
        assert_eq!(classify_text("/u*", CWD, HOME), Extent::Root);
        assert_eq!(
            classify_text("/usr/", CWD, HOME),
            Extent::SystemDir("/usr".into())
        );
        assert_eq!(
            classify_text("/home/user/*", CWD, HOME),
            Extent::Home("/home/user/*".into())
        );
        assert_eq!(
            classify_text("/Users/bob", CWD, HOME),
            Extent::Home("/Users/bob".into())
        );
        assert_eq!(
            classify_text("build", CWD, HOME),
            Extent::Workspace("/home/user/project/build".into())
        );
        assert!(matches!(
            classify_text(".", CWD, HOME),
            Extent::WorkDirItself(_)
        ));
        assert!(matches!(classify_text("..", CWD, HOME), Extent::Home(_)));
        assert_eq!(
            classify_text("../..", CWD, HOME),
            Extent::SystemDir("/home".into())
        );
        assert!(matches!(
            classify_text("/tmp/x", CWD, HOME),
            Extent::Temp(_)
        ));
        assert!(matches!(
            classify_text("/etc/passwd", CWD, HOME),
            Extent::InsideSystem(_)
        ));
    }

    #[test]
    fn recognises_block_devices_but_not_pseudo_devices() {
        assert!(is_block_device("/dev/sda"));
        assert!(is_block_device("/dev/nvme0n1p1"));
        assert!(is_block_device("/dev/mapper/root"));
        assert!(!is_block_device("/dev/null"));
        assert!(!is_block_device("/dev/zero"));
        assert!(!is_block_device("/dev/tty"));
        assert!(!is_block_device("/dev/stdout"));
    }
}
