//! Path resolution and classification: what a path argument names once `~`, the working
//! directory and `.`/`..` are resolved (root, a system directory, home, a credential file...).

use super::{Piece, Word};

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

/// What a path names, worst first.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum PathClass {
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
    let mut parts: Vec<&str> = Vec::new();
    for comp in path.split('/') {
        match comp {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    format!("/{}", parts.join("/"))
}

fn is_glob(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// Classify a resolved absolute path (glob characters allowed).
pub fn classify_abs(path: &str, home: Option<&str>, cwd: Option<&str>) -> PathClass {
    let folded = fold(path);
    let comps: Vec<&str> = folded.split('/').filter(|c| !c.is_empty()).collect();
    if comps.is_empty() {
        return PathClass::Root;
    }
    // A glob in the first component can match any top-level directory.
    if is_glob(comps[0]) {
        return PathClass::Root;
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
                    return PathClass::Home(folded);
                }
                if let Some(c) = cwd {
                    if within(&folded, c) && folded != fold(c) {
                        return PathClass::Workspace(folded);
                    }
                    if within(c, &folded) {
                        return PathClass::WorkDirItself(folded);
                    }
                }
                return PathClass::InsideHome(folded);
            }
        }
    }
    // Any user's home (`/home/bob`, `/Users/bob`, `/root`) counts as a home directory.
    if (top == "/home" || top == "/Users") && comps.len() >= 2 {
        let rest = &comps[2..];
        if (rest.is_empty() || all_glob(rest)) && !is_glob(comps[1]) {
            return PathClass::Home(folded);
        }
        if is_glob(comps[1]) && (rest.is_empty() || all_glob(rest)) {
            return PathClass::SystemDir(top);
        }
    }
    if SYSTEM_DIRS.contains(&top.as_str()) {
        let rest = &comps[1..];
        if rest.is_empty() || all_glob(rest) {
            return PathClass::SystemDir(top);
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
            return PathClass::SystemDir(folded);
        }
    }
    if top == "/tmp" || folded.starts_with("/var/tmp/") || folded.starts_with("/private/tmp/") {
        if comps.len() == 1 {
            // `/tmp` itself is shared state of every user, but not a system directory.
            return PathClass::InsideSystem(folded);
        }
        return PathClass::Temp(folded);
    }
    // The operating system's own trees stay system paths even when the working directory
    // is inside them (`cd /etc && rm passwd`).
    if PROTECTED_TREES.iter().any(|t| within(&folded, t)) {
        return PathClass::InsideSystem(folded);
    }
    if let Some(c) = cwd {
        if within(&folded, c) && folded != fold(c) {
            return PathClass::Workspace(folded);
        }
        if within(c, &folded) {
            return PathClass::WorkDirItself(folded);
        }
    }
    if SYSTEM_DIRS.contains(&top.as_str()) {
        return PathClass::InsideSystem(folded);
    }
    PathClass::Other(folded)
}

/// Trees owned by the operating system, where no working directory makes a path "the
/// workspace".
pub const PROTECTED_TREES: &[&str] = &[
    "/etc",
    "/boot",
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/var/lib",
    "/System",
    "/private/etc",
];

/// Is `path` equal to or below `dir`?
pub fn within(path: &str, dir: &str) -> bool {
    let p = fold(path);
    let d = fold(dir);
    d == "/" || p == d || p.starts_with(&format!("{d}/"))
}

/// Classify a path argument word given the known working directory and home.
pub fn classify_word(word: &Word, cwd: Option<&str>, home: Option<&str>) -> PathClass {
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
        return PathClass::MaybeRoot(word.text_with("$?"));
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
                    PathClass::Root | PathClass::Home(_) => {
                        PathClass::Unknown(word.text_with("$?"))
                    }
                    PathClass::SystemDir(d) => PathClass::InsideSystem(format!(
                        "{d}/{}",
                        word.text_with("$?").rsplit('/').next().unwrap_or("")
                    )),
                    _ => classify_text(&format!("{dir}\u{fffd}"), cwd, home),
                };
            }
            PathClass::Unknown(word.text_with("$?"))
        }
        _ => PathClass::Unknown(word.text_with("$?")),
    }
}

/// Classify literal path text.
pub fn classify_text(text: &str, cwd: Option<&str>, home: Option<&str>) -> PathClass {
    if text.is_empty() {
        return PathClass::Other(String::new());
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
                PathClass::Workspace(p)
                    if is_glob(text.split('/').next().unwrap_or(""))
                        && !text.contains('/')
                        && text.starts_with('*') =>
                {
                    PathClass::WorkDirItself(p)
                }
                c => c,
            }
        }
        None => {
            let first = text.split('/').next().unwrap_or("");
            if first == "." || first == ".." || text == "*" {
                PathClass::WorkDirItself(text.to_string())
            } else {
                PathClass::Workspace(text.to_string())
            }
        }
    }
}

/// Device nodes whose overwrite destroys a disk (not `/dev/null`, `/dev/tty`, ...).
pub fn is_block_device(path: &str) -> bool {
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
        assert_eq!(classify_text("/", CWD, HOME), PathClass::Root);
        assert_eq!(classify_text("/*", CWD, HOME), PathClass::Root);
        assert_eq!(classify_text("/u*", CWD, HOME), PathClass::Root);
        assert_eq!(
            classify_text("/usr/", CWD, HOME),
            PathClass::SystemDir("/usr".into())
        );
        assert_eq!(
            classify_text("/home/user/*", CWD, HOME),
            PathClass::Home("/home/user/*".into())
        );
        assert_eq!(
            classify_text("/Users/bob", CWD, HOME),
            PathClass::Home("/Users/bob".into())
        );
        assert_eq!(
            classify_text("build", CWD, HOME),
            PathClass::Workspace("/home/user/project/build".into())
        );
        assert!(matches!(
            classify_text(".", CWD, HOME),
            PathClass::WorkDirItself(_)
        ));
        assert!(matches!(classify_text("..", CWD, HOME), PathClass::Home(_)));
        assert_eq!(
            classify_text("../..", CWD, HOME),
            PathClass::SystemDir("/home".into())
        );
        assert!(matches!(
            classify_text("/tmp/x", CWD, HOME),
            PathClass::Temp(_)
        ));
        assert!(matches!(
            classify_text("/etc/passwd", CWD, HOME),
            PathClass::InsideSystem(_)
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
