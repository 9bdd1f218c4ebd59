//! The grammar table: one [`Grammar`] per program (or program family), taken from each
//! program's manual. Adding a program is one entry in [`PROGRAMS`]; adding an option is one
//! line in its grammar. See `docs/ARCHITECTURE.md` ("Options: one grammar").

use super::{Grammar, Long, Signals, Sub, flag, optional, value};

/// A program with no entry: GNU-style, no option known to take a value.
pub static GENERIC: Grammar = Grammar::GNU;

/// POSIX-style: options end at the first operand, no option known to take a value.
pub static POSIX: Grammar = Grammar {
    stop_at_operand: true,
    ..Grammar::GNU
};

// --- files -------------------------------------------------------------------------------

pub static RM: Grammar = Grammar {
    longs: &[
        flag("force"),
        optional("interactive"),
        flag("one-file-system"),
        flag("no-preserve-root"),
        optional("preserve-root"),
        flag("recursive"),
        flag("dir"),
        flag("verbose"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `cp`, `mv`, `install`, `ln` (GNU coreutils).
pub static CP: Grammar = Grammar {
    short_values: "tSmogZ",
    longs: &[
        value("target-directory"),
        value("suffix"),
        optional("backup"),
        flag("no-target-directory"),
        flag("recursive"),
        flag("force"),
        flag("archive"),
        value("mode"),
        value("owner"),
        value("group"),
        optional("sparse"),
        optional("reflink"),
        optional("preserve"),
        flag("symbolic"),
        flag("verbose"),
        flag("interactive"),
        optional("update"),
        optional("context"),
        value("strip-program"),
        flag("directory"),
        flag("parents"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `chmod`.
pub static CHMOD: Grammar = Grammar {
    longs: &[
        flag("recursive"),
        value("reference"),
        flag("changes"),
        flag("silent"),
        flag("quiet"),
        flag("verbose"),
        flag("no-preserve-root"),
        flag("preserve-root"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `chown`, `chgrp`.
pub static CHOWN: Grammar = Grammar {
    longs: &[
        flag("recursive"),
        value("reference"),
        flag("changes"),
        flag("silent"),
        flag("quiet"),
        flag("verbose"),
        flag("no-preserve-root"),
        flag("preserve-root"),
        flag("dereference"),
        flag("no-dereference"),
        value("from"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `mkdir` (its `-m MODE`).
pub static MKDIR: Grammar = Grammar {
    short_values: "mZ",
    longs: &[
        value("mode"),
        flag("parents"),
        flag("verbose"),
        optional("context"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

pub static SHRED: Grammar = Grammar {
    short_values: "ns",
    longs: &[
        flag("force"),
        value("iterations"),
        value("random-source"),
        value("size"),
        optional("remove"),
        flag("verbose"),
        flag("exact"),
        flag("zero"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

pub static TRUNCATE: Grammar = Grammar {
    short_values: "sr",
    longs: &[
        value("size"),
        value("reference"),
        flag("no-create"),
        flag("io-blocks"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

pub static TEE: Grammar = Grammar {
    longs: &[
        flag("append"),
        flag("ignore-interrupts"),
        optional("output-error"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `find`'s options before its paths (`-H -L -P -D debugopts -Olevel`); its expression is
/// read by the model's `find -exec` lowering, not by this grammar.
pub static FIND: Grammar = Grammar {
    short_values: "D",
    short_optional: "O",
    stop_at_operand: true,
    ..Grammar::GNU
};

/// A `find` command read with [`FIND`]: the indices of its start paths and the index where
/// its expression starts. The paths are the operands after the options, up to the first word
/// that begins with `-` or is `(` or `!` (find(1)); that word starts the expression.
pub fn find_paths(o: &super::Opts, args: &[crate::model::Word]) -> (Vec<usize>, usize) {
    let mut paths = Vec::new();
    for &i in &o.operands {
        let Some(w) = args.get(i) else { break };
        let t = w.text_with("\u{fffd}");
        if t.starts_with('-') || t == "(" || t == "!" {
            return (paths, i);
        }
        paths.push(i);
    }
    (paths, args.len())
}

/// `find` tests and options whose next word is their value (so `-name -delete` is a
/// pattern, not an action).
pub fn find_takes_value(t: &str) -> bool {
    matches!(
        t,
        "-name"
            | "-iname"
            | "-path"
            | "-ipath"
            | "-wholename"
            | "-iwholename"
            | "-regex"
            | "-iregex"
            | "-lname"
            | "-ilname"
            | "-type"
            | "-xtype"
            | "-user"
            | "-group"
            | "-uid"
            | "-gid"
            | "-perm"
            | "-size"
            | "-mtime"
            | "-atime"
            | "-ctime"
            | "-mmin"
            | "-amin"
            | "-cmin"
            | "-newer"
            | "-anewer"
            | "-cnewer"
            | "-samefile"
            | "-inum"
            | "-links"
            | "-maxdepth"
            | "-mindepth"
            | "-fstype"
            | "-printf"
            | "-fprint"
            | "-fprint0"
            | "-fprintf"
            | "-fls"
            | "-regextype"
            | "-context"
            | "-used"
            | "-files0-from"
    )
}

// --- network and copies -----------------------------------------------------------------

/// `curl` (long names exact: curl does not resolve abbreviations).
pub static CURL: Grammar = Grammar {
    short_values: "AbcCdDeEFHKmoQrTuUwxXyYz",
    longs: &[
        value("data"),
        value("data-binary"),
        value("data-raw"),
        value("data-ascii"),
        value("data-urlencode"),
        value("json"),
        value("form"),
        value("form-string"),
        value("upload-file"),
        value("output"),
        value("output-dir"),
        value("header"),
        value("request"),
        value("user"),
        value("user-agent"),
        value("referer"),
        value("cookie"),
        value("cookie-jar"),
        value("config"),
        value("proxy"),
        value("cert"),
        value("key"),
        value("cacert"),
        value("max-time"),
        value("connect-timeout"),
        value("retry"),
        value("write-out"),
        value("dump-header"),
        value("range"),
        value("url"),
        value("resolve"),
        value("connect-to"),
        value("interface"),
        value("variable"),
        value("expand-data"),
        flag("remote-name"),
        flag("location"),
        flag("silent"),
        flag("show-error"),
        flag("fail"),
        flag("insecure"),
        flag("verbose"),
        flag("include"),
        flag("head"),
        flag("compressed"),
        flag("get"),
        flag("help"),
        flag("version"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `wget` (only the options shellgate reads are listed, so no abbreviation is resolved).
pub static WGET: Grammar = Grammar {
    short_values: "OoaPeUtTwiYlQADRIXB",
    longs: &[
        value("output-document"),
        value("output-file"),
        value("append-output"),
        value("directory-prefix"),
        value("post-file"),
        value("post-data"),
        value("body-file"),
        value("body-data"),
        value("method"),
        value("header"),
        value("user-agent"),
        value("user"),
        value("password"),
        value("tries"),
        value("timeout"),
        value("input-file"),
        value("execute"),
        flag("quiet"),
        flag("verbose"),
        flag("continue"),
        flag("help"),
        flag("version"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `rsync` (popt: long names exact).
pub static RSYNC: Grammar = Grammar {
    short_values: "eBfMT@",
    longs: &[
        value("rsh"),
        value("rsync-path"),
        value("filter"),
        value("exclude"),
        value("include"),
        value("exclude-from"),
        value("include-from"),
        value("files-from"),
        value("password-file"),
        value("log-file"),
        value("log-file-format"),
        value("temp-dir"),
        value("partial-dir"),
        value("compare-dest"),
        value("copy-dest"),
        value("link-dest"),
        value("backup-dir"),
        value("suffix"),
        value("chmod"),
        value("chown"),
        value("usermap"),
        value("groupmap"),
        value("timeout"),
        value("contimeout"),
        value("port"),
        value("bwlimit"),
        value("max-delete"),
        value("max-size"),
        value("min-size"),
        value("block-size"),
        value("out-format"),
        value("compress-level"),
        value("compress-choice"),
        value("checksum-choice"),
        value("skip-compress"),
        value("iconv"),
        value("sockopts"),
        value("remote-option"),
        value("write-batch"),
        value("only-write-batch"),
        value("read-batch"),
        value("protocol"),
        value("modify-window"),
        value("address"),
        value("info"),
        value("debug"),
        value("stop-after"),
        value("stop-at"),
        value("outbuf"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `scp` (OpenSSH getopt).
pub static SCP: Grammar = Grammar {
    short_values: "FiJloPSXDc",
    abbreviate: false,
    ..Grammar::GNU
};

/// `ssh-keygen` (OpenSSH getopt).
pub static SSH_KEYGEN: Grammar = Grammar {
    short_values: "CDEFIJKMNOPRSabefgjmnrstwz",
    abbreviate: false,
    ..Grammar::GNU
};

// --- programs with exec hooks (src/model/hooks.rs reads their hook options) ---------------

/// `rg` (ripgrep's own parser: long names exact, no abbreviations).
pub static RG: Grammar = Grammar {
    short_values: "ABCEefgjMmrTtd",
    longs: &[
        value("after-context"),
        value("before-context"),
        value("context"),
        value("context-separator"),
        value("color"),
        value("colors"),
        value("dfa-size-limit"),
        value("encoding"),
        value("engine"),
        value("field-context-separator"),
        value("field-match-separator"),
        value("file"),
        value("glob"),
        value("iglob"),
        value("hostname-bin"),
        value("hyperlink-format"),
        value("ignore-file"),
        value("max-columns"),
        value("max-count"),
        value("max-depth"),
        value("max-filesize"),
        value("path-separator"),
        value("pre"),
        value("pre-glob"),
        value("regex-size-limit"),
        value("regexp"),
        value("replace"),
        value("sort"),
        value("sortr"),
        value("threads"),
        value("type"),
        value("type-add"),
        value("type-clear"),
        value("type-not"),
        value("generate"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `man` (man-db, argp: unique prefixes resolve; `-H`, `-T`, `-X` take an attached value).
pub static MAN: Grammar = Grammar {
    short_values: "CeELmMPrRSspD",
    short_optional: "HTX",
    longs: &[
        value("config-file"),
        flag("debug"),
        flag("default"),
        optional("warnings"),
        flag("whatis"),
        flag("apropos"),
        flag("global-apropos"),
        flag("regex"),
        flag("wildcard"),
        flag("names-only"),
        flag("all"),
        flag("update"),
        flag("no-subpages"),
        flag("catman"),
        flag("location"),
        flag("location-cat"),
        flag("local-file"),
        value("encoding"),
        flag("no-hyphenation"),
        flag("no-justification"),
        flag("ascii"),
        value("locale"),
        value("systems"),
        value("manpath"),
        value("pager"),
        value("prompt"),
        value("sections"),
        value("extension"),
        flag("ignore-case"),
        flag("match-case"),
        value("preprocessor"),
        flag("troff"),
        optional("troff-device"),
        flag("ditroff"),
        optional("gxditview"),
        optional("html"),
        value("recode"),
        flag("help"),
        flag("usage"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `ag` (the silver searcher, getopt_long).
pub static AG: Grammar = Grammar {
    short_values: "ABGgmpW",
    short_optional: "C",
    longs: &[
        value("after"),
        value("before"),
        optional("context"),
        value("pager"),
        flag("no-pager"),
        value("ignore"),
        value("ignore-dir"),
        value("file-search-regex"),
        value("max-count"),
        value("depth"),
        value("path-to-ignore"),
        value("workers"),
        value("width"),
        value("color-line-number"),
        value("color-match"),
        value("color-path"),
        flag("color"),
        flag("no-color"),
        flag("ignore-case"),
        flag("literal"),
        flag("hidden"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `sort` (GNU coreutils).
pub static SORT: Grammar = Grammar {
    short_values: "kotST",
    longs: &[
        value("batch-size"),
        value("buffer-size"),
        value("compress-program"),
        optional("debug"),
        value("files0-from"),
        value("field-separator"),
        value("key"),
        value("output"),
        value("parallel"),
        value("random-source"),
        value("sort"),
        value("temporary-directory"),
        optional("check"),
        flag("ignore-leading-blanks"),
        flag("dictionary-order"),
        flag("ignore-case"),
        flag("general-numeric-sort"),
        flag("ignore-nonprinting"),
        flag("month-sort"),
        flag("human-numeric-sort"),
        flag("numeric-sort"),
        flag("random-sort"),
        flag("reverse"),
        flag("version-sort"),
        flag("merge"),
        flag("stable"),
        flag("unique"),
        flag("zero-terminated"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `gcc`, `cc`, `g++` (one-dash option names; those that take the next word as value).
pub static GCC: Grammar = Grammar {
    longs: &[
        value("o"),
        value("wrapper"),
        value("x"),
        value("I"),
        value("L"),
        value("l"),
        value("D"),
        value("U"),
        value("B"),
        value("include"),
        value("imacros"),
        value("isystem"),
        value("idirafter"),
        value("iprefix"),
        value("iquote"),
        value("MF"),
        value("MT"),
        value("MQ"),
        value("Xlinker"),
        value("Xassembler"),
        value("Xpreprocessor"),
        value("aux-info"),
        value("param"),
    ],
    abbreviate: false,
    single_dash_long: true,
    ..Grammar::GNU
};

/// `aria2c` (getopt_long).
pub static ARIA2C: Grammar = Grammar {
    short_values: "dosxjilLtmkTMuUN",
    longs: &[
        value("dir"),
        value("out"),
        value("split"),
        value("max-connection-per-server"),
        value("max-concurrent-downloads"),
        value("input-file"),
        value("log"),
        value("timeout"),
        value("max-tries"),
        value("min-split-size"),
        value("torrent-file"),
        value("metalink-file"),
        value("max-upload-limit"),
        value("user-agent"),
        value("header"),
        value("on-download-complete"),
        value("on-download-error"),
        value("on-download-pause"),
        value("on-download-start"),
        value("on-download-stop"),
        value("on-bt-download-complete"),
        value("rpc-secret"),
        value("seed-time"),
        value("select-file"),
        value("conf-path"),
        flag("continue"),
        flag("daemon"),
        flag("enable-rpc"),
        flag("quiet"),
        flag("show-files"),
        optional("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `borg` (argparse; common options before or after the subcommand).
pub static BORG: Grammar = Grammar {
    short_values: "eCPa",
    longs: &[
        value("rsh"),
        value("remote-path"),
        value("lock-wait"),
        value("upload-ratelimit"),
        value("upload-buffer"),
        value("umask"),
        value("debug-topic"),
        value("exclude"),
        value("exclude-from"),
        value("pattern"),
        value("patterns-from"),
        value("comment"),
        value("compression"),
        value("checkpoint-interval"),
        value("chunker-params"),
        value("encryption"),
        value("prefix"),
        value("glob-archives"),
        value("sort-by"),
        value("first"),
        value("last"),
        value("format"),
        flag("progress"),
        flag("stats"),
        flag("list"),
        flag("dry-run"),
        flag("verbose"),
        flag("info"),
        flag("debug"),
        flag("critical"),
        flag("show-rc"),
        flag("show-version"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `busctl` (systemd, getopt_long).
pub static BUSCTL: Grammar = Grammar {
    short_values: "HM",
    longs: &[
        value("address"),
        value("host"),
        value("machine"),
        value("match"),
        value("size"),
        value("timeout"),
        value("json"),
        value("destination"),
        value("limit-messages"),
        flag("user"),
        flag("system"),
        flag("show-machine"),
        flag("unique"),
        flag("acquired"),
        flag("activatable"),
        flag("list"),
        flag("quiet"),
        flag("verbose"),
        flag("expect-reply"),
        flag("auto-start"),
        flag("allow-interactive-authorization"),
        flag("augment-creds"),
        flag("watch-bind"),
        flag("no-pager"),
        flag("no-legend"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `certbot` (argparse: unique prefixes resolve; options before or after the subcommand).
pub static CERTBOT: Grammar = Grammar {
    short_values: "dmwaicnq",
    longs: &[
        value("domains"),
        value("domain"),
        value("email"),
        value("webroot-path"),
        value("authenticator"),
        value("installer"),
        value("config"),
        value("cert-name"),
        value("cert-path"),
        value("key-path"),
        value("fullchain-path"),
        value("chain-path"),
        value("config-dir"),
        value("work-dir"),
        value("logs-dir"),
        value("server"),
        value("key-type"),
        value("rsa-key-size"),
        value("elliptic-curve"),
        value("preferred-challenges"),
        value("preferred-chain"),
        value("pre-hook"),
        value("post-hook"),
        value("deploy-hook"),
        value("renew-hook"),
        value("manual-auth-hook"),
        value("manual-cleanup-hook"),
        value("http-01-port"),
        value("https-port"),
        value("eab-kid"),
        value("eab-hmac-key"),
        flag("webroot"),
        flag("standalone"),
        flag("nginx"),
        flag("apache"),
        flag("manual"),
        flag("dry-run"),
        flag("test-cert"),
        flag("staging"),
        flag("force-renewal"),
        flag("agree-tos"),
        flag("non-interactive"),
        flag("no-eff-email"),
        flag("redirect"),
        flag("expand"),
        flag("quiet"),
        flag("verbose"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `dhclient` (ISC: one-dash names compared exactly).
pub static DHCLIENT: Grammar = Grammar {
    longs: &[
        value("cf"),
        value("lf"),
        value("pf"),
        value("sf"),
        value("s"),
        value("g"),
        value("e"),
        value("p"),
        value("H"),
        value("F"),
        value("V"),
        value("D"),
        value("timeout"),
    ],
    abbreviate: false,
    single_dash_long: true,
    ..Grammar::GNU
};

/// `dnsmasq` (getopt_long; `-6` is `--dhcp-script`).
pub static DNSMASQ: Grammar = Grammar {
    short_values: "aABcCFgGHiIlmMOpPQrsStTuUVWxXY0678",
    longs: &[
        value("listen-address"),
        value("address"),
        value("bogus-nxdomain"),
        value("cache-size"),
        value("conf-file"),
        value("conf-dir"),
        value("conf-script"),
        value("dhcp-script"),
        value("dhcp-luascript"),
        value("dhcp-range"),
        value("dhcp-host"),
        value("dhcp-option"),
        value("dhcp-boot"),
        value("dhcp-leasefile"),
        value("group"),
        value("addn-hosts"),
        value("interface"),
        value("except-interface"),
        value("port"),
        value("pid-file"),
        value("resolv-file"),
        value("domain"),
        value("server"),
        value("user"),
        value("log-facility"),
        flag("no-daemon"),
        flag("keep-in-foreground"),
        flag("no-resolv"),
        flag("no-hosts"),
        flag("log-queries"),
        flag("test"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `fzf` (its own parser: names exact).
pub static FZF: Grammar = Grammar {
    short_values: "qdnf",
    short_optional: "m",
    longs: &[
        value("bind"),
        value("preview"),
        value("preview-window"),
        value("preview-label"),
        value("query"),
        value("delimiter"),
        value("nth"),
        value("with-nth"),
        value("accept-nth"),
        value("header"),
        value("header-lines"),
        value("header-label"),
        value("footer"),
        value("prompt"),
        value("height"),
        value("min-height"),
        value("layout"),
        value("color"),
        value("filter"),
        value("expect"),
        value("tiebreak"),
        value("border-label"),
        value("input-label"),
        value("list-label"),
        value("margin"),
        value("padding"),
        value("history"),
        value("history-size"),
        value("pointer"),
        value("marker"),
        value("info"),
        value("separator"),
        value("scrollbar"),
        value("tabstop"),
        value("jump-labels"),
        value("scheme"),
        value("walker"),
        value("walker-root"),
        value("walker-skip"),
        value("listen"),
        value("ellipsis"),
        value("with-shell"),
        value("style"),
        value("ghost"),
        optional("multi"),
        optional("border"),
        optional("tmux"),
        flag("ansi"),
        flag("exact"),
        flag("reverse"),
        flag("cycle"),
        flag("select-1"),
        flag("exit-0"),
        flag("print-query"),
        flag("read0"),
        flag("print0"),
        flag("sync"),
        flag("help"),
        flag("version"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `hg` (Mercurial's fancyopts: unique prefixes resolve; global options anywhere).
pub static HG: Grammar = Grammar {
    short_values: "R",
    longs: &[
        value("config"),
        value("repository"),
        value("cwd"),
        value("encoding"),
        value("encodingmode"),
        value("color"),
        value("pager"),
        flag("noninteractive"),
        flag("quiet"),
        flag("verbose"),
        flag("debug"),
        flag("debugger"),
        flag("traceback"),
        flag("time"),
        flag("profile"),
        flag("hidden"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// The TeX engines [`TEX`] reads.
pub const TEX_ENGINES: &[&str] = &[
    "tex",
    "latex",
    "pdflatex",
    "xelatex",
    "lualatex",
    "luatex",
    "pdftex",
    "xetex",
    "etex",
    "luahbtex",
    "lualatex-dev",
    "pdflatex-dev",
];

/// vim and the programs that share its command line ([`VIM`]).
pub const VIM_FAMILY: &[&str] = &["vim", "vi", "nvim", "view", "ex", "vimdiff", "gvim", "rvim"];

/// TeX engines (web2c: getopt_long_only, so one dash and unique prefixes).
pub static TEX: Grammar = Grammar {
    longs: &[
        flag("shell-escape"),
        flag("no-shell-escape"),
        flag("shell-restricted"),
        flag("enable-write18"),
        flag("disable-write18"),
        flag("enable-8bit-chars"),
        flag("enable-enctex"),
        flag("enable-mltex"),
        flag("enable-pipes"),
        flag("disable-pipes"),
        flag("etex"),
        flag("halt-on-error"),
        flag("file-line-error"),
        flag("no-file-line-error"),
        flag("draftmode"),
        flag("recorder"),
        flag("ini"),
        flag("help"),
        flag("version"),
        value("output-directory"),
        value("aux-directory"),
        value("jobname"),
        value("interaction"),
        value("output-format"),
        value("fmt"),
        value("progname"),
        value("kpathsea-debug"),
        value("translate-file"),
        value("synctex"),
        value("cnf-line"),
        value("include-directory"),
    ],
    single_dash_long: true,
    ..Grammar::GNU
};

/// `zip` (Info-ZIP: multi-letter one-dash options such as `-TT`; `--unzip-command`).
pub static ZIP: Grammar = Grammar {
    longs: &[
        value("TT"),
        value("unzip-command"),
        value("b"),
        value("temp-path"),
        value("n"),
        value("suffixes"),
        value("t"),
        value("tt"),
        value("P"),
        value("password"),
        value("Z"),
        value("compression-method"),
        value("O"),
        value("output-file"),
        value("lf"),
        value("logfile-path"),
        value("s"),
        value("split-size"),
        value("ds"),
    ],
    abbreviate: false,
    single_dash_long: true,
    ..Grammar::GNU
};

/// GNU `tar` (argp: unique prefixes resolve).
pub static TAR: Grammar = Grammar {
    short_values: "bCfFgHIKLNTVX",
    longs: &[
        value("to-command"),
        value("use-compress-program"),
        value("checkpoint-action"),
        optional("checkpoint"),
        value("info-script"),
        value("new-volume-script"),
        value("rsh-command"),
        value("rmt-command"),
        value("file"),
        value("directory"),
        value("exclude"),
        value("exclude-from"),
        value("files-from"),
        value("transform"),
        value("xform"),
        value("strip-components"),
        value("owner"),
        value("group"),
        value("mode"),
        value("mtime"),
        value("newer"),
        value("newer-mtime"),
        value("after-date"),
        value("format"),
        value("label"),
        value("listed-incremental"),
        value("blocking-factor"),
        value("record-size"),
        value("tape-length"),
        value("suffix"),
        value("index-file"),
        value("volno-file"),
        value("starting-file"),
        value("warning"),
        optional("backup"),
        optional("occurrence"),
        flag("create"),
        flag("extract"),
        flag("list"),
        flag("append"),
        flag("update"),
        flag("diff"),
        flag("delete"),
        flag("concatenate"),
        flag("gzip"),
        flag("bzip2"),
        flag("xz"),
        flag("zstd"),
        flag("lzma"),
        flag("lzip"),
        flag("lzop"),
        flag("auto-compress"),
        flag("verbose"),
        flag("totals"),
        flag("touch"),
        flag("usage"),
        flag("recursion"),
        flag("recursive-unlink"),
        flag("remove-files"),
        flag("restrict"),
        flag("read-full-records"),
        flag("check-device"),
        flag("check-links"),
        flag("keep-old-files"),
        flag("overwrite"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `ssh` (OpenSSH getopt; options may follow the destination).
pub static SSH: Grammar = Grammar {
    short_values: "BbcDEeFIiJLlmOoPpQRSWw",
    abbreviate: false,
    ..Grammar::GNU
};

/// `sftp` (OpenSSH getopt; `-D` and `-S` name programs it runs).
pub static SFTP: Grammar = Grammar {
    short_values: "BbcDFiJloPRSs",
    abbreviate: false,
    ..Grammar::GNU
};

/// `apt`, `apt-get` (apt's CommandLine: names exact).
pub static APT: Grammar = Grammar {
    short_values: "oct",
    longs: &[
        value("option"),
        value("config-file"),
        value("target-release"),
        value("default-release"),
        flag("yes"),
        flag("assume-yes"),
        flag("assume-no"),
        flag("quiet"),
        flag("simulate"),
        flag("dry-run"),
        flag("no-install-recommends"),
        flag("install-suggests"),
        flag("fix-broken"),
        flag("purge"),
        flag("reinstall"),
        flag("download-only"),
        flag("help"),
        flag("version"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `vim` and its kin (`-c CMD`, `--cmd CMD`; `+CMD` words are operands).
pub static VIM: Grammar = Grammar {
    short_values: "cSuUiwWsTtq",
    short_optional: "oOp",
    longs: &[
        value("cmd"),
        value("servername"),
        value("startuptime"),
        value("log"),
        flag("noplugin"),
        flag("clean"),
        flag("not-a-term"),
        flag("ttyfail"),
        flag("nofork"),
        flag("literal"),
        flag("help"),
        flag("version"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `less` (options that take a value; `+CMD` words are operands).
pub static LESS: Grammar = Grammar {
    short_values: "bhjkoOpPtTxyzD#",
    longs: &[
        value("buffers"),
        value("max-back-scroll"),
        value("jump-target"),
        value("lesskey-file"),
        value("log-file"),
        value("LOG-FILE"),
        value("prompt"),
        value("tag"),
        value("tag-file"),
        value("tabs"),
        value("window"),
        value("max-forw-scroll"),
        value("shift"),
        value("color"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `tcpdump` (getopt_long).
pub static TCPDUMP: Grammar = Grammar {
    short_values: "BcCEFGijmMrsTVwWyzZQ",
    longs: &[
        value("buffer-size"),
        value("count"),
        value("interface"),
        value("time-stamp-type"),
        value("time-stamp-precision"),
        value("snapshot-length"),
        value("direction"),
        value("relinquish-privileges"),
        value("print-sampling"),
        value("micro"),
        flag("list-interfaces"),
        flag("list-time-stamp-types"),
        flag("no-promiscuous-mode"),
        flag("immediate-mode"),
        flag("number"),
        flag("print"),
        flag("version"),
        flag("help"),
    ],
    ..Grammar::GNU
};

/// `awk` and its variants (POSIX: the program is the first operand unless `-f` names a file).
pub static AWK: Grammar = Grammar {
    short_values: "fvFEil",
    longs: &[
        value("file"),
        value("assign"),
        value("field-separator"),
        value("exec"),
        value("include"),
        value("load"),
        value("source"),
        optional("dump-variables"),
        optional("debug"),
        optional("profile"),
        optional("pretty-print"),
        optional("lint"),
        flag("posix"),
        flag("traditional"),
        flag("sandbox"),
        flag("characters-as-bytes"),
        flag("help"),
        flag("version"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `base64`, `base32`, `basenc` (GNU coreutils).
pub static BASE64: Grammar = Grammar {
    short_values: "w",
    longs: &[
        flag("decode"),
        flag("ignore-garbage"),
        value("wrap"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `tr` (GNU coreutils).
pub static TR: Grammar = Grammar {
    longs: &[
        flag("complement"),
        flag("delete"),
        flag("squeeze-repeats"),
        flag("truncate-set1"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `at`, `batch` (`-f FILE`, `-q QUEUE`, `-t TIME`).
pub static AT: Grammar = Grammar {
    short_values: "fqtu",
    ..Grammar::GNU
};

/// httpie (`http`, `https`) and `xh`: `-o FILE`.
pub static HTTPIE: Grammar = Grammar {
    short_values: "oa",
    longs: &[value("output"), value("auth"), value("session")],
    abbreviate: false,
    ..Grammar::GNU
};

/// BSD `fetch`: `-o FILE`.
pub static FETCH: Grammar = Grammar {
    short_values: "oNST",
    ..Grammar::GNU
};

// --- processes ---------------------------------------------------------------------------

/// `service NAME VERB [args]`, `service NAME --full-restart`, `service --status-all` (a
/// script that looks at each word, not getopt: exact names, anywhere).
pub static SERVICE: Grammar = Grammar {
    longs: &[
        flag("full-restart"),
        flag("status-all"),
        flag("help"),
        flag("version"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `rc-service [options] NAME VERB` (OpenRC; `-r NAME` resolves a service).
pub static RC_SERVICE: Grammar = Grammar {
    short_values: "r",
    longs: &[
        value("resolve"),
        flag("exists"),
        flag("ifexists"),
        flag("ifinactive"),
        flag("ifnotstarted"),
        flag("ifstarted"),
        flag("ifcrashed"),
        flag("dry-run"),
        flag("list"),
        flag("user"),
        flag("quiet"),
        flag("verbose"),
        flag("help"),
        flag("version"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `sv [-v] [-w sec] VERB SERVICES` (runit).
pub static SV: Grammar = Grammar {
    short_values: "w",
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `initctl [options] VERB JOB` (upstart).
pub static INITCTL: Grammar = Grammar {
    longs: &[
        optional("dest"),
        flag("system"),
        flag("user"),
        flag("session"),
        flag("no-wait"),
        flag("quiet"),
        flag("verbose"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

// --- disks -------------------------------------------------------------------------------

/// `fdisk` (util-linux).
pub static FDISK: Grammar = Grammar {
    short_values: "btoCHSwW",
    short_optional: "cuL",
    longs: &[
        value("sector-size"),
        optional("compatibility"),
        optional("units"),
        optional("color"),
        value("type"),
        value("output"),
        value("wipe"),
        value("wipe-partitions"),
        optional("lock"),
        flag("list"),
        flag("list-details"),
        flag("bytes"),
        flag("noauto-pt"),
        flag("getsz"),
        flag("protect-boot"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `sfdisk` (util-linux): its commands are options (`--delete`, `--dump`).
pub static SFDISK: Grammar = Grammar {
    short_values: "NXYwWoO",
    longs: &[
        value("backup-file"),
        optional("color"),
        optional("lock"),
        value("label"),
        value("label-nested"),
        optional("move-data"),
        value("partno"),
        value("wipe"),
        value("wipe-partitions"),
        value("output"),
        value("sector-size"),
        value("relocate"),
        flag("list"),
        flag("list-free"),
        flag("list-types"),
        flag("dump"),
        flag("json"),
        flag("show-size"),
        flag("show-geometry"),
        flag("verify"),
        flag("delete"),
        flag("part-type"),
        flag("part-uuid"),
        flag("part-label"),
        flag("part-attrs"),
        flag("reorder"),
        flag("activate"),
        flag("backup"),
        flag("append"),
        flag("force"),
        flag("no-act"),
        flag("no-reread"),
        flag("no-tell-kernel"),
        flag("quiet"),
        flag("bytes"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `parted [options] [DEVICE [COMMAND [ARGS]...]]`: options come before the device, and
/// command arguments may be negative numbers (`mkpart p 1 -1`).
pub static PARTED: Grammar = Grammar {
    short_values: "a",
    longs: &[
        value("align"),
        flag("list"),
        flag("script"),
        flag("machine"),
        flag("fix"),
        flag("pretend-input-tty"),
        flag("help"),
        flag("version"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `sgdisk` (popt): nearly every action is an option, many with a value.
pub static SGDISK: Grammar = Grammar {
    short_values: "aAbBcdhijlmnNrRtTuU",
    longs: &[
        value("set-alignment"),
        value("attributes"),
        value("backup"),
        value("byte-swap-name"),
        value("change-name"),
        value("delete"),
        value("hybrid"),
        value("info"),
        value("adjust-main-table"),
        value("load-backup"),
        value("gpttombr"),
        value("new"),
        value("largest-new"),
        value("transpose"),
        value("replicate"),
        value("typecode"),
        value("transform-bsd"),
        value("partition-guid"),
        value("disk-guid"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `gdisk`, `cgdisk`, `cfdisk`: `-l`/`-r` only read.
pub static GDISK: Grammar = Grammar {
    short_optional: "L",
    longs: &[
        optional("color"),
        flag("read-only"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `fuser` (psmisc): `-SIGNAL` words anywhere, `-n SPACE`, `-k`/`--kill`.
pub static FUSER: Grammar = Grammar {
    short_values: "n",
    longs: &[
        value("namespace"),
        flag("kill"),
        flag("all"),
        flag("interactive"),
        flag("list-signals"),
        flag("mount"),
        flag("ismountpoint"),
        flag("silent"),
        flag("user"),
        flag("verbose"),
        flag("writeonly"),
        flag("version"),
        flag("help"),
    ],
    signals: Signals::Spelled,
    ..Grammar::GNU
};

/// `badblocks [-svwnfBX] [-b size] [-c blocks] [-d delay] [-e max] [-i in] [-o out]
/// [-p passes] [-t pattern] device`.
pub static BADBLOCKS: Grammar = Grammar {
    short_values: "bcdeiopt",
    ..Grammar::GNU
};

/// `efibootmgr`: `-b XXXX`, `-d DISK`, `-l LOADER`, `-L LABEL`, `-o ORDER`, `-t SECS`, ...
/// take values; the letters that write NVRAM are read by SG8005.
pub static EFIBOOTMGR: Grammar = Grammar {
    short_values: "bdeEilLmMnopt@",
    longs: &[
        value("bootnum"),
        value("disk"),
        value("edd"),
        value("device"),
        value("iface"),
        value("loader"),
        value("label"),
        value("mirror-below-4G"),
        value("mirror-above-4G"),
        value("bootnext"),
        value("bootorder"),
        value("part"),
        value("timeout"),
        value("append-binary-args"),
        flag("create"),
        flag("create-only"),
        flag("delete-bootnum"),
        flag("delete-bootnext"),
        flag("delete-bootorder"),
        flag("delete-timeout"),
        flag("active"),
        flag("inactive"),
        flag("remove-dups"),
        flag("verbose"),
        flag("quiet"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `nc`/`netcat`/`ncat` (the traditional, OpenBSD and nmap variants together): the options
/// that take a value, so `-e PROG`/`-c CMD` are found in bundles and `-p 4444` is a port.
pub static NC: Grammar = Grammar {
    short_values: "ecgGiIMmOPpqsTVWwXx",
    longs: &[
        value("exec"),
        value("sh-exec"),
        value("lua-exec"),
        value("source-port"),
        value("source"),
        value("wait"),
        value("proxy"),
        value("proxy-type"),
        value("output"),
        flag("listen"),
        flag("udp"),
        flag("verbose"),
        flag("keep-open"),
        flag("help"),
    ],
    ..Grammar::GNU
};

/// `taskkill` (Windows): `/IM image`, `/PID n`, `/FI filter`, `/S system`, `/U user`,
/// `/P password`, `/F`, `/T`; `-` and Git Bash's `//` spellings too.
pub static TASKKILL: Grammar = Grammar {
    longs: &[
        value("im"),
        value("pid"),
        value("fi"),
        value("s"),
        value("u"),
        value("p"),
        flag("f"),
        flag("t"),
    ],
    abbreviate: false,
    windows: true,
    ..Grammar::GNU
};

/// `rclone [global options] <subcommand>`: the global options that take a value.
pub static RCLONE: Grammar = Grammar {
    longs: &[
        value("config"),
        value("log-file"),
        value("log-level"),
        value("transfers"),
        value("checkers"),
        value("bwlimit"),
        value("exclude"),
        value("include"),
        value("filter"),
        value("exclude-from"),
        value("include-from"),
        value("filter-from"),
        value("files-from"),
        value("min-size"),
        value("max-size"),
        value("min-age"),
        value("max-age"),
        value("backup-dir"),
        value("suffix"),
        value("password-command"),
        value("stats"),
        value("user-agent"),
        value("cache-dir"),
        value("max-delete"),
        value("retries"),
        value("timeout"),
        value("contimeout"),
        value("order-by"),
        value("compare-dest"),
        value("copy-dest"),
        value("track-renames-strategy"),
        flag("dry-run"),
        flag("interactive"),
        flag("progress"),
        flag("verbose"),
        flag("help"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

pub static SYSTEMCTL: Grammar = Grammar {
    short_values: "tpHMsnoP",
    longs: &[
        value("type"),
        value("state"),
        value("property"),
        flag("all"),
        flag("reverse"),
        flag("after"),
        flag("before"),
        flag("with-dependencies"),
        flag("full"),
        flag("value"),
        flag("show-types"),
        value("job-mode"),
        flag("fail"),
        value("check-inhibitors"),
        flag("ignore-inhibitors"),
        flag("dry-run"),
        flag("quiet"),
        flag("wait"),
        flag("no-block"),
        flag("user"),
        flag("system"),
        flag("global"),
        flag("runtime"),
        flag("force"),
        flag("now"),
        value("root"),
        value("image"),
        value("preset-mode"),
        value("host"),
        value("machine"),
        value("signal"),
        value("kill-whom"),
        value("kill-value"),
        value("what"),
        value("message"),
        value("lines"),
        value("output"),
        flag("firmware-setup"),
        value("boot-loader-menu"),
        value("boot-loader-entry"),
        value("reboot-argument"),
        flag("plain"),
        flag("no-legend"),
        flag("no-pager"),
        flag("no-wall"),
        flag("no-reload"),
        flag("no-ask-password"),
        flag("legend"),
        value("timestamp"),
        flag("mkdir"),
        flag("marked"),
        flag("read-only"),
        value("drop-in"),
        value("when"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `kill` (util-linux/procps and the bash builtin): `-s SIG`, `-n NUM`, `-SIG`, `-l`. Both
/// read options only before the first pid (bash(1) `kill`; kill(1)): `kill 123 -1` signals
/// pid -1.
pub static KILL: Grammar = Grammar {
    stop_at_operand: true,
    short_values: "snq",
    longs: &[
        value("signal"),
        value("queue"),
        optional("list"),
        flag("table"),
        flag("pid"),
        flag("all"),
        flag("verbose"),
        value("timeout"),
        flag("help"),
        flag("version"),
    ],
    signals: Signals::FirstWord,
    ..Grammar::GNU
};

/// `pkill`, `pgrep` (procps).
pub static PKILL: Grammar = Grammar {
    short_values: "gGPstuUFdA",
    longs: &[
        value("signal"),
        value("group"),
        value("pgroup"),
        value("parent"),
        value("session"),
        value("terminal"),
        value("euid"),
        value("uid"),
        value("pidfile"),
        value("ns"),
        value("nslist"),
        value("older"),
        value("delimiter"),
        value("runstates"),
        value("cgroup"),
        flag("full"),
        flag("newest"),
        flag("oldest"),
        flag("exact"),
        flag("inverse"),
        flag("count"),
        flag("echo"),
        flag("list-name"),
        flag("list-full"),
        flag("lightweight"),
        flag("ignore-case"),
        flag("logpidfile"),
        flag("require-handler"),
        flag("ignore-ancestors"),
        flag("help"),
        flag("version"),
    ],
    signals: Signals::Spelled,
    ..Grammar::GNU
};

/// `killall` (psmisc).
pub static KILLALL: Grammar = Grammar {
    short_values: "suoynZ",
    longs: &[
        value("signal"),
        value("user"),
        value("older-than"),
        value("younger-than"),
        value("ns"),
        value("context"),
        flag("regexp"),
        flag("exact"),
        flag("ignore-case"),
        flag("interactive"),
        flag("process-group"),
        flag("quiet"),
        flag("verbose"),
        flag("wait"),
        flag("list"),
        flag("help"),
        flag("version"),
    ],
    signals: Signals::Spelled,
    ..Grammar::GNU
};

/// `init`, `telinit` (sysvinit: `-t SECONDS`, `-e VAR=VALUE` before the runlevel).
pub static TELINIT: Grammar = Grammar {
    short_values: "te",
    ..Grammar::GNU
};

pub static CRONTAB: Grammar = Grammar {
    short_values: "unx",
    ..Grammar::GNU
};

// --- decoders, editors and interpreters' switches ----------------------------------------

/// bash's `echo` builtin (bash(1), SHELL BUILTIN COMMANDS): a leading word is an option only
/// when it is `-` followed by `n`, `e` and `E` letters; there is no `--`.
pub static ECHO: Grammar = Grammar {
    only_letters: "neE",
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `xxd` (vim's xxd.c): each option word is named by its first letter (`-r`, `-revert`,
/// `-rp` are `-r`; `--r` is `-r`); `-c`, `-g`, `-l`, `-n`, `-o`, `-s` take the rest of the
/// word or the next word; `--` ends the options.
pub static XXD: Grammar = Grammar {
    short_values: "cglnos",
    first_letter: true,
    ..Grammar::GNU
};

/// CPython (python(1)): `-c CMD`, `-m MOD`, `-W ARG`, `-X OPT`, `-Q ARG` (Python 2) take a
/// value, attached or the next word; `-c` and `-m` end the options (what follows is the
/// code's or the module's argv); the first operand (the script) ends them too.
pub static PYTHON: Grammar = Grammar {
    short_values: "cmWXQ",
    ends_options: &["c", "m"],
    longs: &[
        flag("help"),
        flag("version"),
        flag("help-env"),
        flag("help-xoptions"),
        flag("help-all"),
        value("check-hash-based-pycs"),
    ],
    abbreviate: false,
    stop_at_operand: true,
    ..Grammar::GNU
};

/// GNU `sed` (sed(1), info sed "Command-Line Options"): `-e SCRIPT`, `-f FILE`, `-l N` take
/// a value; `-i[SUFFIX]`/`--in-place[=SUFFIX]` take only an attached suffix.
pub static SED: Grammar = Grammar {
    short_values: "efl",
    short_optional: "i",
    longs: &[
        value("expression"),
        value("file"),
        optional("in-place"),
        value("line-length"),
        flag("quiet"),
        flag("silent"),
        flag("debug"),
        flag("posix"),
        flag("regexp-extended"),
        flag("separate"),
        flag("sandbox"),
        flag("unbuffered"),
        flag("null-data"),
        flag("zero-terminated"),
        flag("follow-symlinks"),
        flag("binary"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `perl` switches (perlrun(1)): bundles (`-pi -e`, `-lne`); `-e`/`-E` take the code,
/// attached or the next word; `-I DIR` too; `-i[EXT]`, `-0[DIGITS]`, `-l[OCTNUM]`,
/// `-C[NUMBER]`, `-x[DIR]`, `-d[:MOD]`, `-D[FLAGS]`, `-M`/`-m MODULE` and `-F PATTERN` take
/// only what is attached; the first operand (the script, or the files after `-e`) ends the
/// switches.
pub static PERL: Grammar = Grammar {
    short_values: "eEI",
    short_optional: "i0lCxdDMmFV",
    stop_at_operand: true,
    abbreviate: false,
    ..Grammar::GNU
};

/// `ruby` switches (ruby(1)): `-e CODE`, `-I DIR`, `-r LIB`, `-C DIR`, `-E ENC` take a value;
/// `-i[EXT]`, `-x[DIR]`, `-0[OCTAL]`, `-F PATTERN`, `-K CODE`, `-W[LEVEL]`, `-T[LEVEL]` take
/// only what is attached; the first operand ends the switches.
pub static RUBY: Grammar = Grammar {
    short_values: "eIrCE",
    short_optional: "ix0FKWT",
    longs: &[
        optional("enable"),
        optional("disable"),
        value("encoding"),
        value("external-encoding"),
        value("internal-encoding"),
        optional("dump"),
        flag("verbose"),
        flag("version"),
        flag("help"),
        flag("yydebug"),
        flag("jit"),
        flag("yjit"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `grub-mkconfig [-o FILE]` (grub-mkconfig(8)).
pub static GRUB_MKCONFIG: Grammar = Grammar {
    short_values: "o",
    longs: &[value("output"), flag("help"), flag("version")],
    ..Grammar::GNU
};

/// `mdadm` (mdadm(8); the getopt string in ReadMe.c,
/// `-ABCDEFGIQhVXYWZ:vqbc:i:l:p:m:n:x:u:c:d:z:U:N:safRSow1tye:k:`): the options that take a
/// value, so a level, a name or a size (`-N fail`) is never read as `--fail`.
pub static MDADM: Grammar = Grammar {
    short_values: "ZcilpmnxudzUNek",
    longs: &[
        flag("remove"),
        flag("fail"),
        flag("set-faulty"),
        flag("stop"),
        flag("zero-superblock"),
        flag("add"),
        flag("re-add"),
        flag("force"),
        value("level"),
        value("raid-devices"),
        value("spare-devices"),
        value("chunk"),
        value("metadata"),
        value("name"),
        value("bitmap"),
        value("layout"),
        value("size"),
        value("config"),
        value("homehost"),
        value("uuid"),
        value("update"),
        value("backup-file"),
        value("array-size"),
        value("write-journal"),
        flag("help"),
        flag("version"),
        flag("detail"),
        flag("examine"),
        flag("query"),
        flag("scan"),
    ],
    ..Grammar::GNU
};

/// An `openssl` subcommand (openssl(1), openssl-enc(1), openssl-base64): one-dash option
/// names, compared exactly; those that take a value.
static OPENSSL_CMD: Grammar = Grammar {
    single_dash_long: true,
    abbreviate: false,
    longs: &[
        value("in"),
        value("out"),
        value("pass"),
        value("passin"),
        value("passout"),
        value("k"),
        value("kfile"),
        value("K"),
        value("iv"),
        value("S"),
        value("md"),
        value("engine"),
        value("bufsize"),
        value("iter"),
        value("config"),
        value("provider"),
        value("provider-path"),
        value("propquery"),
        value("inform"),
        value("outform"),
        value("key"),
        value("keyform"),
        value("inkey"),
        value("subj"),
        value("rand"),
        value("writerand"),
    ],
    ..Grammar::GNU
};

/// `openssl SUBCOMMAND [options]` (openssl(1)).
pub static OPENSSL: Grammar = Grammar {
    single_dash_long: true,
    abbreviate: false,
    other_sub: Some(&OPENSSL_CMD),
    ..Grammar::GNU
};

/// `mkfs [-t TYPE] [fs-options] DEVICE [SIZE]` (mkfs(8)): the type-specific options are
/// passed on and read as the generic grammar reads them.
pub static MKFS: Grammar = Grammar {
    short_values: "t",
    longs: &[
        value("type"),
        flag("verbose"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `mke2fs`, `mkfs.ext2|3|4` (mke2fs(8)): the options that take a value.
pub static MKE2FS: Grammar = Grammar {
    short_values: "bCdEGgIiJLlMmNOorTtUez",
    ..Grammar::GNU
};

/// `mkfs.xfs` (mkfs.xfs(8)): `-b`, `-m`, `-d`, `-i`, `-l`, `-n`, `-p`, `-r`, `-s`, `-L`
/// take a value.
pub static MKFS_XFS: Grammar = Grammar {
    short_values: "bmdilnprsL",
    ..Grammar::GNU
};

/// `mkfs.fat`, `mkfs.vfat`, `mkfs.msdos`, `mkdosfs` (mkfs.fat(8)): the options that take a
/// value (`-F 32`, `-n NAME`).
pub static MKFS_FAT: Grammar = Grammar {
    short_values: "bDfFghilmMnrRsS",
    longs: &[
        value("codepage"),
        value("invariant"),
        value("offset"),
        value("variant"),
        value("mbr"),
        flag("help"),
    ],
    ..Grammar::GNU
};

/// `mkfs.btrfs` (mkfs.btrfs(8)): the options that take a value.
pub static MKFS_BTRFS: Grammar = Grammar {
    short_values: "bdmnsLOrUR",
    longs: &[
        value("byte-count"),
        value("data"),
        value("metadata"),
        value("nodesize"),
        value("sectorsize"),
        value("label"),
        value("features"),
        value("rootdir"),
        value("uuid"),
        value("runtime-features"),
        value("checksum"),
        value("csum"),
        flag("force"),
        flag("mixed"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `mkswap` (mkswap(8)): `-L LABEL`, `-U UUID`, `-p PAGESIZE`, `-o OFFSET`, `-s SIZE`,
/// `-e ENDIANNESS` take a value.
pub static MKSWAP: Grammar = Grammar {
    short_values: "LUpose",
    longs: &[
        value("label"),
        value("uuid"),
        value("pagesize"),
        value("offset"),
        value("size"),
        value("endianness"),
        value("lock"),
        flag("file"),
        flag("check"),
        flag("force"),
        flag("verbose"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `powershell`, `pwsh` (about_Pwsh, powershell.exe's parameters): in the order its own
/// matching tries them, so `-e` is `-EncodedCommand` and `-ex` `-ExecutionPolicy`; `-ec` is
/// the alias of `-EncodedCommand`; `-Command` and `-File` take every word after them.
pub static POWERSHELL: Grammar = Grammar {
    powershell: true,
    longs: &[
        value("encodedcommand"),
        value("ec"),
        value("executionpolicy"),
        value("ep"),
        value("command"),
        value("file"),
        flag("noprofile"),
        flag("noexit"),
        flag("nologo"),
        flag("noninteractive"),
        value("inputformat"),
        value("outputformat"),
        value("windowstyle"),
        value("configurationname"),
        value("version"),
        value("psconsolefile"),
        value("workingdirectory"),
        value("settingsfile"),
        value("custompipename"),
        flag("mta"),
        flag("sta"),
        flag("login"),
        flag("help"),
    ],
    ends_options: &["command", "file"],
    ..Grammar::GNU
};

/// PowerShell's `Remove-Item` (and its aliases `rm`, `ri`, `del`, `erase`, `rd`, `rmdir`)
/// parameters (Remove-Item docs), in an order where an ambiguous prefix resolves to the
/// harmless one (`-f` is `-Filter`: PowerShell rejects it as ambiguous). Not in
/// [`PROGRAMS`]: the Windows delete rule reads PowerShell script words with it.
pub static PS_REMOVE_ITEM: Grammar = Grammar {
    powershell: true,
    longs: &[
        value("path"),
        value("literalpath"),
        value("filter"),
        value("include"),
        value("exclude"),
        flag("recurse"),
        flag("force"),
        value("credential"),
        value("stream"),
        flag("whatif"),
        flag("confirm"),
    ],
    ..Grammar::GNU
};

// --- packages ------------------------------------------------------------------------------

/// `rpm` (rpm(8)): the modes are options (`-i`, `-U`, `-F` in a bundle such as `-ivh`,
/// `--install`, `--upgrade`, `--freshen`, `--reinstall`); `--root`, `--dbpath`, `--define`,
/// `--prefix`, `--relocate`, `--excludepath`, `--rcfile`, `--macros`, `-D` take a value.
pub static RPM: Grammar = Grammar {
    short_values: "D",
    longs: &[
        flag("install"),
        flag("upgrade"),
        flag("freshen"),
        flag("reinstall"),
        flag("erase"),
        flag("query"),
        flag("verify"),
        value("root"),
        value("dbpath"),
        value("define"),
        value("prefix"),
        value("relocate"),
        value("excludepath"),
        value("rcfile"),
        value("macros"),
        value("pipe"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// The install options of the package tools without a grammar of their own (`pip install`,
/// `npm install`, `gem install`, `dnf install`, `brew install`, `cargo install`, ...) that take
/// a value (pip(1) `-r`, `-c`, `-t`, `-i`, `-f`, `--index-url`, ...; npm's `--registry`,
/// `--cache`, `--prefix`; cargo's `--git`), so a URL given as a value is never a package.
/// Not in [`PROGRAMS`]: only the package rules read install commands with it.
pub static PACKAGE_INSTALL: Grammar = Grammar {
    short_values: "firct",
    longs: &[
        value("find-links"),
        value("index-url"),
        value("extra-index-url"),
        value("requirement"),
        value("constraint"),
        value("target"),
        value("prefix"),
        value("root"),
        value("platform"),
        value("python-version"),
        value("trusted-host"),
        value("registry"),
        value("cache"),
        value("cwd"),
        value("git"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `dpkg` (dpkg(1)): `-i`/`--install` installs the package files given; `--root`,
/// `--admindir`, `--instdir`, `--log`, `--status-fd` take a value.
pub static DPKG: Grammar = Grammar {
    longs: &[
        flag("install"),
        value("root"),
        value("admindir"),
        value("instdir"),
        value("log"),
        value("status-fd"),
        value("status-logger"),
        value("force"),
    ],
    ..Grammar::GNU
};

// --- shell builtins ------------------------------------------------------------------------

/// bash's `read` (bash(1), SHELL BUILTIN COMMANDS): `-a ANAME`, `-d DELIM`, `-i TEXT`,
/// `-n NCHARS`, `-N NCHARS`, `-p PROMPT`, `-t TIMEOUT`, `-u FD` take a value; the operands
/// are the variable names.
pub static READ: Grammar = Grammar {
    short_values: "adinNptu",
    stop_at_operand: true,
    ..Grammar::GNU
};

/// bash's `cd`/`pushd` (bash(1)): `-L`, `-P`, `-e`, `-@` (cd), `-n` (pushd) are flags; the
/// first operand is the directory (`-` is the previous one).
pub static CD: Grammar = Grammar {
    stop_at_operand: true,
    ..Grammar::GNU
};

/// bash's `declare`/`typeset`/`export`/`local`/`readonly` (bash(1)): flag letters only
/// (`-x` exports; `-p`, `-f`, `-F`, `-g`, `-a`, `-A`, `-i`, `-l`, `-n`, `-r`, `-t`, `-u`),
/// before the first name.
pub static DECLARE: Grammar = Grammar {
    stop_at_operand: true,
    ..Grammar::GNU
};

// --- SQL clients ---------------------------------------------------------------------------

/// `psql` (psql(1), getopt_long): the options that take a value; the operands are the
/// database and the user.
pub static PSQL: Grammar = Grammar {
    short_values: "cdfhLopPRTUvF",
    longs: &[
        value("command"),
        value("dbname"),
        value("file"),
        value("host"),
        value("log-file"),
        value("output"),
        value("port"),
        value("pset"),
        value("record-separator"),
        value("table-attr"),
        value("username"),
        value("set"),
        value("variable"),
        value("field-separator"),
        flag("echo-all"),
        flag("no-align"),
        flag("echo-errors"),
        flag("echo-queries"),
        flag("echo-hidden"),
        flag("html"),
        flag("list"),
        flag("no-readline"),
        flag("quiet"),
        flag("single-step"),
        flag("single-line"),
        flag("tuples-only"),
        flag("no-password"),
        flag("password"),
        flag("expanded"),
        flag("no-psqlrc"),
        flag("single-transaction"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `mysql`, `mariadb` (mysql(1), my_getopt: unique prefixes resolve): `-e STMT`, `-u USER`,
/// `-h HOST`, `-P PORT`, `-D DB`, `-S SOCKET` take a value; `-p[PASSWORD]` and
/// `--password[=PASSWORD]` only an attached one.
pub static MYSQL: Grammar = Grammar {
    short_values: "euhPDSOT",
    short_optional: "p",
    longs: &[
        value("execute"),
        value("user"),
        value("host"),
        value("port"),
        value("database"),
        value("socket"),
        value("protocol"),
        value("init-command"),
        value("default-character-set"),
        value("defaults-file"),
        value("defaults-extra-file"),
        value("defaults-group-suffix"),
        value("login-path"),
        value("prompt"),
        value("tee"),
        value("delimiter"),
        value("connect-timeout"),
        value("max-allowed-packet"),
        value("ssl-ca"),
        value("ssl-cert"),
        value("ssl-key"),
        value("ssl-mode"),
        value("plugin-dir"),
        value("default-auth"),
        value("bind-address"),
        value("character-sets-dir"),
        optional("password"),
        optional("pager"),
        flag("batch"),
        flag("force"),
        flag("silent"),
        flag("verbose"),
        flag("table"),
        flag("skip-column-names"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `sqlite3`, `sqlite`, `duckdb` (the SQLite shell's options: one dash or two, names exact;
/// options may follow the database): `-cmd COMMAND`, duckdb's `-c COMMAND` and `-s COMMAND`,
/// `-init FILE`, `-separator SEP`, ... take a value; the first operand is the database, the
/// rest are SQL.
pub static SQLITE: Grammar = Grammar {
    single_dash_long: true,
    abbreviate: false,
    longs: &[
        value("cmd"),
        value("c"),
        value("s"),
        value("init"),
        value("separator"),
        value("newline"),
        value("nullvalue"),
        value("vfs"),
        value("maxsize"),
        value("mmap"),
        value("heap"),
        value("lookaside"),
        value("pagecache"),
        value("hexkey"),
        value("key"),
    ],
    ..Grammar::GNU
};

/// `clickhouse-client` / `clickhouse client` (boost program_options): `-q QUERY`,
/// `--query QUERY`, `-h`, `-u`, `-d`, `-f`, `-C` and their long names take a value.
pub static CLICKHOUSE: Grammar = Grammar {
    short_values: "qhudfC",
    longs: &[
        value("query"),
        value("queries-file"),
        value("host"),
        value("port"),
        value("user"),
        value("password"),
        value("database"),
        value("format"),
        value("config-file"),
        value("history_file"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `cockroach sql` (pflag: names exact): `-e STMT`/`--execute`, `-u`, `-d`, `-f` and the
/// connection options take a value.
static COCKROACH_SQL: Grammar = Grammar {
    short_values: "eudf",
    longs: &[
        value("execute"),
        value("url"),
        value("host"),
        value("port"),
        value("user"),
        value("database"),
        value("certs-dir"),
        value("format"),
        value("set"),
        value("file"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `cockroach SUBCOMMAND [options]`.
pub static COCKROACH: Grammar = Grammar {
    abbreviate: false,
    other_sub: Some(&COCKROACH_SQL),
    ..Grammar::GNU
};

/// `sqlcmd` (Microsoft's sqlcmd utility): one-letter options, value attached or the next word;
/// `-Q QUERY` runs and exits, `-q QUERY` runs and stays; `-S`, `-U`, `-P`, `-d`, `-i`, `-o`,
/// `-v`, `-H`, `-l`, `-t`, `-h`, `-s`, `-w`, `-a`, `-f`, `-c`, `-m`, `-V`, `-y`, `-Y` take a
/// value.
pub static SQLCMD: Grammar = Grammar {
    short_values: "QqSUPdiovHlthswafcmVyY",
    abbreviate: false,
    ..Grammar::GNU
};

// --- shellgate's own CLI -------------------------------------------------------------------

// shellgate's command line (src/cli/, clap: long names exact, options after their
// subcommand). A test in src/cli/ checks that every option the CLI accepts is here with the
// same arity, so the rules that judge `shellgate ...` and the CLI cannot drift.

static SG_CHECK: Grammar = Grammar {
    longs: &[
        flag("json"),
        value("jsonl"),
        value("jobs"),
        value("cwd"),
        value("home"),
        value("config"),
        flag("no-config"),
        value("mode"),
        value("session"),
        value("harness"),
        flag("unattended"),
        flag("record"),
        flag("help"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

static SG_EXPLAIN: Grammar = Grammar {
    longs: &[
        flag("json"),
        value("cwd"),
        value("home"),
        value("color"),
        flag("cst"),
        flag("model"),
        flag("graph"),
        value("config"),
        flag("no-config"),
        value("mode"),
        value("session"),
        value("harness"),
        flag("unattended"),
        flag("help"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `shellgate exec [options] COMMAND...`: the command's first word ends the options.
static SG_EXEC: Grammar = Grammar {
    longs: &[
        value("cwd"),
        value("config"),
        flag("no-config"),
        value("mode"),
        value("session"),
        value("harness"),
        flag("unattended"),
        flag("help"),
    ],
    abbreviate: false,
    stop_at_operand: true,
    ..Grammar::GNU
};

static SG_FLAGS_JSON: Grammar = Grammar {
    longs: &[flag("json"), flag("help")],
    abbreviate: false,
    ..Grammar::GNU
};

static SG_CORPUS: Grammar = Grammar {
    longs: &[flag("update"), flag("help")],
    abbreviate: false,
    ..Grammar::GNU
};

static SG_LOG: Grammar = Grammar {
    longs: &[
        value("config"),
        value("since"),
        value("decision"),
        value("session"),
        value("harness"),
        value("limit"),
        flag("json"),
        flag("help"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

static SG_AUDIT: Grammar = Grammar {
    longs: &[
        value("since"),
        value("html"),
        value("home"),
        value("config"),
        value("mode"),
        flag("json"),
        flag("jsonl"),
        flag("no-config"),
        flag("progress"),
        flag("help"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

static SG_APPROVALS_LIST: Grammar = Grammar {
    longs: &[
        value("config"),
        value("session"),
        flag("json"),
        flag("help"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

static SG_CONFIG_ONLY: Grammar = Grammar {
    longs: &[value("config"), flag("help")],
    abbreviate: false,
    ..Grammar::GNU
};

static SG_APPROVALS_CLEAR: Grammar = Grammar {
    longs: &[value("config"), value("session"), flag("help")],
    abbreviate: false,
    ..Grammar::GNU
};

static SG_APPROVALS_SUGGEST: Grammar = Grammar {
    longs: &[
        value("config"),
        value("days"),
        value("min-count"),
        value("apply"),
        flag("json"),
        flag("help"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

static SG_CHECKPOINTS_LIST: Grammar = Grammar {
    longs: &[value("config"), flag("json"), flag("help")],
    abbreviate: false,
    ..Grammar::GNU
};

static SG_CHECKPOINTS: Grammar = Grammar {
    longs: &[value("config"), flag("json"), flag("help")],
    abbreviate: false,
    subcommands: &[
        Sub {
            names: &["list"],
            grammar: &SG_CHECKPOINTS_LIST,
        },
        Sub {
            names: &["help"],
            grammar: &SG_HELP,
        },
    ],
    ..Grammar::GNU
};

/// `shellgate undo [ID] [--dry-run] [--force]`.
pub static SG_UNDO: Grammar = Grammar {
    longs: &[
        value("config"),
        flag("dry-run"),
        flag("force"),
        flag("help"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

static SG_HELP: Grammar = Grammar {
    abbreviate: false,
    ..Grammar::GNU
};

static SG_APPROVALS: Grammar = Grammar {
    longs: &[flag("help")],
    abbreviate: false,
    subcommands: &[
        Sub {
            names: &["list"],
            grammar: &SG_APPROVALS_LIST,
        },
        Sub {
            names: &["revoke"],
            grammar: &SG_CONFIG_ONLY,
        },
        Sub {
            names: &["clear"],
            grammar: &SG_APPROVALS_CLEAR,
        },
        Sub {
            names: &["suggest"],
            grammar: &SG_APPROVALS_SUGGEST,
        },
        Sub {
            names: &["help"],
            grammar: &SG_HELP,
        },
    ],
    ..Grammar::GNU
};

static SG_IMPORT_HERMES: Grammar = Grammar {
    short_values: "o",
    longs: &[
        value("output"),
        flag("force"),
        value("config"),
        flag("help"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

static SG_CONFIG: Grammar = Grammar {
    longs: &[flag("help")],
    abbreviate: false,
    subcommands: &[
        Sub {
            names: &["import-hermes"],
            grammar: &SG_IMPORT_HERMES,
        },
        Sub {
            names: &["show"],
            grammar: &SG_CONFIG_ONLY,
        },
        Sub {
            names: &["help"],
            grammar: &SG_HELP,
        },
    ],
    ..Grammar::GNU
};

static SG_INSTALL: Grammar = Grammar {
    longs: &[
        flag("user"),
        flag("project"),
        value("dir"),
        flag("dry-run"),
        value("binary"),
        flag("help"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

static SG_HOOK: Grammar = Grammar {
    longs: &[flag("help")],
    abbreviate: false,
    ..Grammar::GNU
};

/// `shellgate SUBCOMMAND [options]`.
pub static SHELLGATE: Grammar = Grammar {
    longs: &[flag("help"), flag("version")],
    abbreviate: false,
    subcommands: &[
        Sub {
            names: &["check"],
            grammar: &SG_CHECK,
        },
        Sub {
            names: &["explain"],
            grammar: &SG_EXPLAIN,
        },
        Sub {
            names: &["rules"],
            grammar: &SG_FLAGS_JSON,
        },
        Sub {
            names: &["corpus"],
            grammar: &SG_CORPUS,
        },
        Sub {
            names: &["exec"],
            grammar: &SG_EXEC,
        },
        Sub {
            names: &["log"],
            grammar: &SG_LOG,
        },
        Sub {
            names: &["approvals"],
            grammar: &SG_APPROVALS,
        },
        Sub {
            names: &["audit"],
            grammar: &SG_AUDIT,
        },
        Sub {
            names: &["config"],
            grammar: &SG_CONFIG,
        },
        Sub {
            names: &["hook"],
            grammar: &SG_HOOK,
        },
        Sub {
            names: &["install", "uninstall"],
            grammar: &SG_INSTALL,
        },
        Sub {
            names: &["checkpoints"],
            grammar: &SG_CHECKPOINTS,
        },
        Sub {
            names: &["undo"],
            grammar: &SG_UNDO,
        },
        Sub {
            names: &["help"],
            grammar: &SG_HELP,
        },
    ],
    ..Grammar::GNU
};

// --- git ---------------------------------------------------------------------------------

static GIT_PUSH: Grammar = Grammar {
    short_values: "o",
    longs: &[
        flag("all"),
        flag("branches"),
        flag("mirror"),
        flag("delete"),
        flag("tags"),
        flag("dry-run"),
        flag("porcelain"),
        flag("force"),
        optional("force-with-lease"),
        flag("no-force-with-lease"),
        flag("force-if-includes"),
        flag("no-force-if-includes"),
        value("repo"),
        flag("set-upstream"),
        flag("thin"),
        flag("no-thin"),
        value("receive-pack"),
        value("exec"),
        flag("quiet"),
        flag("verbose"),
        flag("progress"),
        flag("no-progress"),
        flag("prune"),
        flag("no-verify"),
        flag("verify"),
        flag("follow-tags"),
        flag("no-follow-tags"),
        optional("signed"),
        flag("no-signed"),
        flag("atomic"),
        flag("no-atomic"),
        value("push-option"),
        optional("recurse-submodules"),
        flag("no-recurse-submodules"),
        flag("ipv4"),
        flag("ipv6"),
        flag("help"),
    ],
    ..Grammar::GNU
};

static GIT_CLEAN: Grammar = Grammar {
    short_values: "e",
    longs: &[
        flag("dry-run"),
        flag("force"),
        flag("interactive"),
        flag("quiet"),
        value("exclude"),
        flag("help"),
    ],
    ..Grammar::GNU
};

static GIT_BRANCH: Grammar = Grammar {
    short_values: "u",
    longs: &[
        flag("delete"),
        flag("force"),
        flag("create-reflog"),
        flag("move"),
        flag("copy"),
        flag("list"),
        value("set-upstream-to"),
        flag("unset-upstream"),
        optional("contains"),
        optional("no-contains"),
        optional("merged"),
        optional("no-merged"),
        value("sort"),
        value("points-at"),
        value("format"),
        optional("color"),
        flag("no-color"),
        optional("column"),
        flag("no-column"),
        optional("track"),
        flag("no-track"),
        flag("edit-description"),
        flag("show-current"),
        flag("verbose"),
        flag("quiet"),
        optional("abbrev"),
        flag("no-abbrev"),
        flag("ignore-case"),
        flag("omit-empty"),
        flag("remotes"),
        flag("all"),
        flag("recurse-submodules"),
        flag("help"),
    ],
    ..Grammar::GNU
};

static GIT_CHECKOUT: Grammar = Grammar {
    short_values: "bBU",
    longs: &[
        flag("quiet"),
        flag("progress"),
        flag("no-progress"),
        flag("force"),
        flag("ours"),
        flag("theirs"),
        optional("track"),
        flag("no-track"),
        flag("guess"),
        flag("no-guess"),
        flag("detach"),
        value("orphan"),
        flag("ignore-skip-worktree-bits"),
        flag("merge"),
        value("conflict"),
        flag("patch"),
        flag("ignore-other-worktrees"),
        flag("overwrite-ignore"),
        flag("no-overwrite-ignore"),
        flag("recurse-submodules"),
        flag("no-recurse-submodules"),
        flag("overlay"),
        flag("no-overlay"),
        value("pathspec-from-file"),
        flag("pathspec-file-nul"),
        flag("help"),
    ],
    ..Grammar::GNU
};

static GIT_RESTORE: Grammar = Grammar {
    short_values: "s",
    longs: &[
        value("source"),
        flag("patch"),
        flag("worktree"),
        flag("staged"),
        flag("quiet"),
        flag("progress"),
        flag("no-progress"),
        flag("ours"),
        flag("theirs"),
        flag("merge"),
        value("conflict"),
        flag("ignore-unmerged"),
        flag("ignore-skip-worktree-bits"),
        flag("recurse-submodules"),
        flag("no-recurse-submodules"),
        flag("overlay"),
        flag("no-overlay"),
        value("pathspec-from-file"),
        flag("pathspec-file-nul"),
        flag("help"),
    ],
    ..Grammar::GNU
};

static GIT_RESET: Grammar = Grammar {
    longs: &[
        flag("soft"),
        flag("mixed"),
        flag("hard"),
        flag("merge"),
        flag("keep"),
        flag("quiet"),
        flag("no-quiet"),
        flag("patch"),
        flag("refresh"),
        flag("no-refresh"),
        value("pathspec-from-file"),
        flag("pathspec-file-nul"),
        flag("recurse-submodules"),
        flag("no-recurse-submodules"),
        flag("intent-to-add"),
        flag("help"),
    ],
    ..Grammar::GNU
};

static GIT_SWITCH: Grammar = Grammar {
    short_values: "cC",
    longs: &[
        value("create"),
        value("force-create"),
        flag("detach"),
        flag("guess"),
        flag("no-guess"),
        flag("force"),
        flag("discard-changes"),
        flag("merge"),
        value("conflict"),
        flag("quiet"),
        flag("progress"),
        flag("no-progress"),
        optional("track"),
        flag("no-track"),
        value("orphan"),
        flag("ignore-other-worktrees"),
        flag("recurse-submodules"),
        flag("no-recurse-submodules"),
        flag("help"),
    ],
    ..Grammar::GNU
};

static GIT_STASH: Grammar = Grammar {
    subcommands: &[],
    other_sub: Some(&GENERIC),
    ..Grammar::GNU
};

/// `git`: global options (`-C dir`, `-c k=v`, `--git-dir`, ...) before the subcommand.
/// git does not abbreviate its global options; its subcommands (parse-options) do.
pub static GIT: Grammar = Grammar {
    short_values: "Cc",
    longs: &[
        value("git-dir"),
        value("work-tree"),
        value("namespace"),
        value("super-prefix"),
        value("config-env"),
        value("attr-source"),
        optional("exec-path"),
        flag("no-pager"),
        flag("paginate"),
        flag("no-replace-objects"),
        flag("no-lazy-fetch"),
        flag("no-optional-locks"),
        flag("no-advice"),
        flag("bare"),
        flag("literal-pathspecs"),
        flag("glob-pathspecs"),
        flag("noglob-pathspecs"),
        flag("icase-pathspecs"),
        flag("html-path"),
        flag("man-path"),
        flag("info-path"),
        flag("version"),
        flag("help"),
    ],
    abbreviate: false,
    subcommands: &[
        Sub {
            names: &["push"],
            grammar: &GIT_PUSH,
        },
        Sub {
            names: &["clean"],
            grammar: &GIT_CLEAN,
        },
        Sub {
            names: &["branch"],
            grammar: &GIT_BRANCH,
        },
        Sub {
            names: &["checkout"],
            grammar: &GIT_CHECKOUT,
        },
        Sub {
            names: &["restore"],
            grammar: &GIT_RESTORE,
        },
        Sub {
            names: &["reset"],
            grammar: &GIT_RESET,
        },
        Sub {
            names: &["switch"],
            grammar: &GIT_SWITCH,
        },
        Sub {
            names: &["stash"],
            grammar: &GIT_STASH,
        },
    ],
    other_sub: Some(&GENERIC),
    ..Grammar::GNU
};

// --- containers --------------------------------------------------------------------------

/// `docker` global options before the subcommand.
pub static DOCKER: Grammar = Grammar {
    short_values: "cHl",
    longs: &[
        value("config"),
        value("context"),
        value("host"),
        value("log-level"),
        value("tlscacert"),
        value("tlscert"),
        value("tlskey"),
        flag("tls"),
        flag("tlsverify"),
        flag("debug"),
        flag("version"),
        flag("help"),
    ],
    abbreviate: false,
    subcommands: CONTAINER_SUBS,
    other_sub: Some(&GENERIC),
    ..Grammar::GNU
};

/// The subcommands of `docker`, `podman` and `nerdctl` whose options matter to rules.
static CONTAINER_SUBS: &[Sub] = &[
    Sub {
        names: &["run", "create"],
        grammar: &CONTAINER_RUN,
    },
    Sub {
        names: &["container"],
        grammar: &CONTAINER_OBJECT,
    },
    Sub {
        names: &["compose"],
        grammar: &COMPOSE,
    },
];

/// `docker container ...`, `podman container ...`.
pub static CONTAINER_OBJECT: Grammar = Grammar {
    subcommands: &[Sub {
        names: &["run", "create"],
        grammar: &CONTAINER_RUN,
    }],
    other_sub: Some(&GENERIC),
    abbreviate: false,
    ..Grammar::GNU
};

/// `docker|podman|nerdctl run|create` (and `container run|create`): every option that takes a
/// value (pflag: no abbreviations), so the image is found and everything after it is the
/// container's own command (`docker run alpine -v /:/x` passes `-v` to the container).
/// Docker's and podman's options together: one engine rejects the other's.
pub static CONTAINER_RUN: Grammar = Grammar {
    short_values: "acehlmpuvw",
    longs: &[
        value("add-host"),
        value("annotation"),
        value("arch"),
        value("attach"),
        value("authfile"),
        value("blkio-weight"),
        value("blkio-weight-device"),
        value("cap-add"),
        value("cap-drop"),
        value("cgroup-conf"),
        value("cgroup-parent"),
        value("cgroupns"),
        value("cgroups"),
        value("chrootdirs"),
        value("cidfile"),
        value("conmon-pidfile"),
        value("cpu-count"),
        value("cpu-percent"),
        value("cpu-period"),
        value("cpu-quota"),
        value("cpu-rt-period"),
        value("cpu-rt-runtime"),
        value("cpu-shares"),
        value("cpus"),
        value("cpuset-cpus"),
        value("cpuset-mems"),
        value("decryption-key"),
        value("detach-keys"),
        value("device"),
        value("device-cgroup-rule"),
        value("device-read-bps"),
        value("device-read-iops"),
        value("device-write-bps"),
        value("device-write-iops"),
        value("dns"),
        value("dns-opt"),
        value("dns-option"),
        value("dns-search"),
        value("domainname"),
        value("entrypoint"),
        value("env"),
        value("env-file"),
        value("env-merge"),
        value("expose"),
        value("gidmap"),
        value("gpus"),
        value("group-add"),
        value("group-entry"),
        value("health-cmd"),
        value("health-interval"),
        value("health-log-destination"),
        value("health-max-log-count"),
        value("health-max-log-size"),
        value("health-on-failure"),
        value("health-retries"),
        value("health-start-interval"),
        value("health-start-period"),
        value("health-startup-cmd"),
        value("health-startup-interval"),
        value("health-startup-retries"),
        value("health-startup-success"),
        value("health-startup-timeout"),
        value("health-timeout"),
        value("hostname"),
        value("hosts-file"),
        value("hostuser"),
        value("image-volume"),
        value("init-path"),
        value("io-maxbandwidth"),
        value("io-maxiops"),
        value("ip"),
        value("ip6"),
        value("ipc"),
        value("isolation"),
        value("kernel-memory"),
        value("label"),
        value("label-file"),
        value("link"),
        value("link-local-ip"),
        value("log-driver"),
        value("log-opt"),
        value("mac-address"),
        value("memory"),
        value("memory-reservation"),
        value("memory-swap"),
        value("memory-swappiness"),
        value("mount"),
        value("name"),
        value("net"),
        value("net-alias"),
        value("network"),
        value("network-alias"),
        value("oom-score-adj"),
        value("os"),
        value("passwd-entry"),
        value("personality"),
        value("pid"),
        value("pidfile"),
        value("pids-limit"),
        value("platform"),
        value("pod"),
        value("pod-id-file"),
        value("preserve-fd"),
        value("preserve-fds"),
        value("publish"),
        value("pull"),
        value("rdt-class"),
        value("requires"),
        value("restart"),
        value("retry"),
        value("retry-delay"),
        value("runtime"),
        value("sdnotify"),
        value("seccomp-policy"),
        value("secret"),
        value("security-opt"),
        value("shm-size"),
        value("shm-size-systemd"),
        value("stop-signal"),
        value("stop-timeout"),
        value("storage-opt"),
        value("subgidname"),
        value("subuidname"),
        value("sysctl"),
        value("systemd"),
        value("timeout"),
        value("tmpfs"),
        value("tz"),
        value("uidmap"),
        value("ulimit"),
        value("umask"),
        value("unsetenv"),
        value("user"),
        value("userns"),
        value("uts"),
        value("variant"),
        value("volume"),
        value("volume-driver"),
        value("volumes-from"),
        value("workdir"),
        flag("privileged"),
        flag("rootfs"),
        flag("detach"),
        flag("interactive"),
        flag("tty"),
        flag("rm"),
        flag("init"),
        flag("read-only"),
        flag("publish-all"),
        flag("quiet"),
        flag("help"),
    ],
    abbreviate: false,
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `nerdctl` global options before the subcommand.
pub static NERDCTL: Grammar = Grammar {
    short_values: "anH",
    longs: &[
        value("address"),
        value("host"),
        value("namespace"),
        value("snapshotter"),
        value("storage-driver"),
        value("cni-path"),
        value("cni-netconfpath"),
        value("data-root"),
        value("cgroup-manager"),
        value("insecure-registry"),
        value("hosts-dir"),
        value("experimental"),
        value("host-gateway-ip"),
        value("bridge-ip"),
        flag("debug"),
        flag("debug-full"),
        flag("version"),
        flag("help"),
    ],
    abbreviate: false,
    subcommands: CONTAINER_SUBS,
    other_sub: Some(&GENERIC),
    ..Grammar::GNU
};

/// `podman` global options before the subcommand.
pub static PODMAN: Grammar = Grammar {
    short_values: "c",
    longs: &[
        value("connection"),
        value("url"),
        value("identity"),
        value("root"),
        value("runroot"),
        value("storage-driver"),
        value("log-level"),
        value("cgroup-manager"),
        value("events-backend"),
        value("hooks-dir"),
        value("imagestore"),
        value("module"),
        value("network-cmd-path"),
        value("network-config-dir"),
        value("runtime"),
        value("runtime-flag"),
        value("ssh"),
        value("storage-opt"),
        value("tmpdir"),
        value("volumepath"),
        value("conmon"),
        value("config"),
        value("cni-config-dir"),
        value("out"),
        flag("remote"),
        flag("syslog"),
        flag("version"),
        flag("help"),
    ],
    abbreviate: false,
    subcommands: CONTAINER_SUBS,
    other_sub: Some(&GENERIC),
    ..Grammar::GNU
};

/// `docker-compose`, `podman-compose` (and `docker compose` after its subcommand).
pub static COMPOSE: Grammar = Grammar {
    short_values: "fpHc",
    longs: &[
        value("file"),
        value("project-name"),
        value("project-directory"),
        value("env-file"),
        value("profile"),
        value("ansi"),
        value("parallel"),
        value("progress"),
        value("host"),
        value("context"),
        flag("verbose"),
        flag("dry-run"),
        flag("compatibility"),
        flag("all-resources"),
        flag("version"),
        flag("help"),
    ],
    abbreviate: false,
    other_sub: Some(&GENERIC),
    ..Grammar::GNU
};

// --- infrastructure CLIs (value options before and between their verbs) ----------------
/// `terraform`, `tofu`, `terragrunt`: Go-style flags, `-name` or `--name`, `-name=value`.
pub static TERRAFORM: Grammar = Grammar {
    longs: &[
        value("chdir"),
        value("var"),
        value("var-file"),
        value("state"),
        value("state-out"),
        value("backup"),
        value("target"),
        value("replace"),
        value("out"),
        value("parallelism"),
        value("lock-timeout"),
        value("working-dir"),
        flag("destroy"),
        flag("auto-approve"),
        flag("refresh-only"),
        flag("input"),
        flag("lock"),
        flag("no-color"),
        flag("json"),
        flag("help"),
        flag("version"),
    ],
    abbreviate: false,
    single_dash_long: true,
    ..Grammar::GNU
};

pub static IAC: Grammar = Grammar {
    short_values: "sC",
    longs: &[
        value("stack"),
        value("cwd"),
        value("profile"),
        value("region"),
        value("stage"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};
pub static AWS: Grammar = Grammar {
    short_values: "",
    longs: &[
        value("profile"),
        value("region"),
        value("output"),
        value("endpoint-url"),
        value("query"),
        value("color"),
        value("ca-bundle"),
        value("cli-read-timeout"),
        value("cli-connect-timeout"),
        value("cli-binary-format"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};
pub static GCLOUD: Grammar = Grammar {
    short_values: "",
    longs: &[
        value("project"),
        value("account"),
        value("configuration"),
        value("format"),
        value("verbosity"),
        value("zone"),
        value("region"),
        value("impersonate-service-account"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};
pub static AZ: Grammar = Grammar {
    short_values: "gn",
    longs: &[
        value("subscription"),
        value("resource-group"),
        value("name"),
        value("output"),
        value("query"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};
pub static DOCTL: Grammar = Grammar {
    short_values: "ct",
    longs: &[
        value("context"),
        value("access-token"),
        value("output"),
        value("format"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};
pub static EKSCTL: Grammar = Grammar {
    short_values: "",
    longs: &[],
    abbreviate: false,
    ..Grammar::GNU
};
pub static GSUTIL: Grammar = Grammar {
    short_values: "ohu",
    longs: &[],
    abbreviate: false,
    ..Grammar::GNU
};
pub static KUBECTL: Grammar = Grammar {
    short_values: "nslof",
    longs: &[
        value("namespace"),
        value("context"),
        value("kubeconfig"),
        value("server"),
        value("cluster"),
        value("user"),
        value("token"),
        value("as"),
        value("as-group"),
        value("request-timeout"),
        value("cache-dir"),
        value("certificate-authority"),
        value("client-certificate"),
        value("client-key"),
        value("selector"),
        value("output"),
        value("filename"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};
/// `iptables`/`ip6tables`/`ebtables`/`arptables` (getopt_long): the commands and the
/// options that take a value, so a value (`--comment -F`) is never read as a command.
pub static IPTABLES: Grammar = Grammar {
    short_values: "ADIRNEPtpsdiojgmcW",
    longs: &[
        value("append"),
        value("delete"),
        value("insert"),
        value("replace"),
        optional("list"),
        optional("list-rules"),
        optional("flush"),
        optional("zero"),
        value("new-chain"),
        value("new"),
        optional("delete-chain"),
        value("policy"),
        value("rename-chain"),
        optional("check"),
        value("table"),
        value("protocol"),
        value("source"),
        value("destination"),
        value("in-interface"),
        value("out-interface"),
        value("jump"),
        value("goto"),
        value("match"),
        value("set-counters"),
        optional("wait"),
        value("wait-interval"),
        value("modprobe"),
        value("comment"),
        value("dport"),
        value("sport"),
        value("dports"),
        value("sports"),
        value("state"),
        value("ctstate"),
        value("to-destination"),
        value("to-source"),
        value("to-ports"),
        value("reject-with"),
        value("log-prefix"),
        value("tcp-flags"),
        value("icmp-type"),
        value("limit"),
        value("uid-owner"),
        flag("numeric"),
        flag("verbose"),
        flag("exact"),
        flag("line-numbers"),
        flag("ipv4"),
        flag("ipv6"),
        flag("fragment"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `iptables-restore` (`-t` only tests).
pub static IPTABLES_RESTORE: Grammar = Grammar {
    short_values: "MTWw",
    longs: &[
        flag("test"),
        flag("noflush"),
        flag("counters"),
        flag("verbose"),
        flag("help"),
        value("modprobe"),
        value("table"),
        optional("wait"),
        value("wait-interval"),
    ],
    ..Grammar::GNU
};

/// `firewall-cmd`: every option long; `--zone`, `--permanent` and the `--list-`/`--get-`/
/// `--query-`/`--info-` families only read.
pub static FIREWALL_CMD: Grammar = Grammar {
    longs: &[
        value("zone"),
        value("policy"),
        value("ipset"),
        value("service"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

/// `pfctl` (BSD getopt): `-e`/`-d` enable/disable, `-f file` loads, `-F` flushes, `-k`
/// kills states; `-s what` only shows.
pub static PFCTL: Grammar = Grammar {
    short_values: "aDfFiKkLpstTxS",
    short_optional: "o",
    abbreviate: false,
    ..Grammar::GNU
};

pub static NFT: Grammar = Grammar {
    short_values: "fIi",
    longs: &[
        value("file"),
        value("includepath"),
        flag("check"),
        flag("help"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};
pub static UFW: Grammar = Grammar {
    short_values: "",
    longs: &[],
    abbreviate: false,
    ..Grammar::GNU
};
pub static CRYPTSETUP: Grammar = Grammar {
    short_values: "cdhkKSsbtT",
    longs: &[
        value("type"),
        value("cipher"),
        value("key-file"),
        value("key-slot"),
        value("key-size"),
        value("hash"),
        value("header"),
        value("iter-time"),
        value("pbkdf"),
        value("label"),
        value("subsystem"),
        value("sector-size"),
        value("offset"),
        value("skip"),
        value("keyfile-size"),
        value("keyfile-offset"),
        value("new-keyfile-size"),
        value("uuid"),
        value("luks2-metadata-size"),
        value("luks2-keyslots-size"),
        value("timeout"),
        value("tries"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};
pub static BOOTCTL: Grammar = Grammar {
    short_values: "",
    longs: &[
        value("esp-path"),
        value("boot-path"),
        value("root"),
        value("image"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};
pub static KERNEL_INSTALL: Grammar = Grammar {
    short_values: "",
    longs: &[],
    abbreviate: false,
    ..Grammar::GNU
};

/// `hermes` (Hermes Agent's CLI): global options before its subcommand.
pub static HERMES: Grammar = Grammar {
    short_values: "pm",
    longs: &[
        value("profile"),
        value("model"),
        value("provider"),
        flag("verbose"),
        flag("version"),
        flag("help"),
    ],
    abbreviate: false,
    ..Grammar::GNU
};

// --- wrappers (options end at the command they run) ---------------------------------------

/// `sudo` (getopt_long `+Aa:BbC:c:D:Eeg:Hh::iKklNnPp:R:r:SsT:t:U:u:Vv`: unique prefixes
/// of long options resolve, `-h` takes only an attached host, options end at the command).
pub static SUDO: Grammar = Grammar {
    short_values: "aCcDgpRrTtUu",
    short_optional: "h",
    longs: &[
        value("auth-type"),
        value("user"),
        value("group"),
        value("prompt"),
        value("close-from"),
        value("chdir"),
        value("host"),
        value("login-class"),
        value("role"),
        value("type"),
        value("command-timeout"),
        value("other-user"),
        value("chroot"),
        flag("askpass"),
        flag("background"),
        flag("bell"),
        optional("preserve-env"),
        flag("edit"),
        flag("help"),
        flag("set-home"),
        flag("login"),
        flag("remove-timestamp"),
        flag("reset-timestamp"),
        flag("list"),
        flag("no-update"),
        flag("non-interactive"),
        flag("preserve-groups"),
        flag("shell"),
        flag("stdin"),
        flag("version"),
        flag("validate"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `doas` (OpenBSD getopt `+a:C:Lnsu:`).
pub static DOAS: Grammar = Grammar {
    short_values: "aCu",
    ..POSIX
};

pub static PKEXEC: Grammar = Grammar {
    longs: &[
        value("user"),
        flag("disable-internal-agent"),
        flag("keep-cwd"),
        flag("help"),
        flag("version"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `env`: `NAME=VALUE` words and the command are operands; `-S` is read by the wrapper code.
pub static ENV: Grammar = Grammar {
    short_values: "uCSaP",
    longs: &[
        value("argv0"),
        flag("ignore-environment"),
        value("unset"),
        value("chdir"),
        value("split-string"),
        flag("null"),
        optional("block-signal"),
        optional("default-signal"),
        optional("ignore-signal"),
        flag("list-signal-handling"),
        flag("debug"),
        flag("help"),
        flag("version"),
    ],
    short_optional: "",
    stop_at_operand: true,
    ..Grammar::GNU
};

pub static NICE: Grammar = Grammar {
    short_values: "n",
    longs: &[value("adjustment"), flag("help"), flag("version")],
    stop_at_operand: true,
    ..Grammar::GNU
};

pub static IONICE: Grammar = Grammar {
    short_values: "cnpPu",
    longs: &[
        value("class"),
        value("classdata"),
        value("pid"),
        value("pgid"),
        value("uid"),
        flag("ignore"),
        flag("toggle"),
        flag("help"),
        flag("version"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

pub static TIMEOUT: Grammar = Grammar {
    short_values: "sk",
    longs: &[
        value("signal"),
        value("kill-after"),
        flag("foreground"),
        flag("preserve-status"),
        flag("verbose"),
        flag("help"),
        flag("version"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

pub static STDBUF: Grammar = Grammar {
    short_values: "ioe",
    longs: &[
        value("input"),
        value("output"),
        value("error"),
        flag("help"),
        flag("version"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `nohup`, `unbuffer`, `builtin`, `catchsegv`: no options of their own.
pub static NOHUP: Grammar = Grammar {
    longs: &[flag("help"), flag("version")],
    ..POSIX
};

/// `setsid` (util-linux `+cfhVw`).
pub static SETSID: Grammar = Grammar {
    longs: &[
        flag("ctty"),
        flag("fork"),
        flag("wait"),
        flag("help"),
        flag("version"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `caffeinate` (macOS: `-t SECONDS`, `-w PID`).
pub static CAFFEINATE: Grammar = Grammar {
    short_values: "tw",
    ..POSIX
};

/// `chrt` (util-linux: `chrt [options] priority command`, `-T`/`-P`/`-D` take nanoseconds).
pub static CHRT: Grammar = Grammar {
    short_values: "TPD",
    longs: &[
        flag("all-tasks"),
        flag("batch"),
        flag("deadline"),
        flag("fifo"),
        flag("idle"),
        flag("other"),
        flag("rr"),
        flag("ext"),
        flag("reset-on-fork"),
        flag("max"),
        flag("pid"),
        flag("verbose"),
        value("sched-runtime"),
        value("sched-period"),
        value("sched-deadline"),
        flag("help"),
        flag("version"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `taskset` (util-linux `+acphV`: the mask or list, then the command).
pub static TASKSET: Grammar = Grammar {
    longs: &[
        flag("all-tasks"),
        flag("cpu-list"),
        flag("pid"),
        flag("help"),
        flag("version"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `cabal exec`, `stack exec`, `poetry run`, ...: the subcommand's options, then the
/// command (`--` ends the options).
pub static RUNNER: Grammar = Grammar {
    short_values: "ne",
    longs: &[
        value("name"),
        value("prefix"),
        value("env-file"),
        value("directory"),
        value("project"),
        value("python"),
        value("with"),
        value("package"),
        value("cwd"),
        value("stack-yaml"),
        value("resolver"),
        value("project-dir"),
        value("builddir"),
        value("package-env"),
        flag("help"),
        flag("quiet"),
        flag("verbose"),
    ],
    abbreviate: false,
    stop_at_operand: true,
    ..Grammar::GNU
};

pub static TIME: Grammar = Grammar {
    short_values: "fo",
    longs: &[
        value("format"),
        value("output"),
        flag("append"),
        flag("verbose"),
        flag("portability"),
        flag("quiet"),
        flag("help"),
        flag("version"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

pub static EXEC: Grammar = Grammar {
    short_values: "a",
    ..POSIX
};

pub static CHROOT: Grammar = Grammar {
    longs: &[
        value("userspec"),
        value("groups"),
        flag("skip-chdir"),
        flag("help"),
        flag("version"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

pub static FLOCK: Grammar = Grammar {
    short_values: "wEc",
    longs: &[
        value("timeout"),
        value("conflict-exit-code"),
        value("command"),
        flag("shared"),
        flag("exclusive"),
        flag("unlock"),
        flag("nonblock"),
        flag("close"),
        flag("no-fork"),
        flag("verbose"),
        flag("help"),
        flag("version"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

pub static WATCH: Grammar = Grammar {
    short_values: "nqd",
    longs: &[
        value("interval"),
        optional("differences"),
        value("equexit"),
        flag("exec"),
        flag("beep"),
        flag("errexit"),
        flag("chgexit"),
        flag("color"),
        flag("no-color"),
        flag("no-title"),
        flag("precise"),
        flag("no-wrap"),
        flag("help"),
        flag("version"),
    ],
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `xargs`: `-I R`, `-iR`/`--replace[=R]` are read by the wrapper code.
pub static XARGS: Grammar = Grammar {
    short_values: "adEeLlnPsI",
    short_optional: "i",
    longs: &[
        value("arg-file"),
        value("delimiter"),
        optional("eof"),
        optional("replace"),
        optional("max-lines"),
        value("max-args"),
        value("max-procs"),
        value("max-chars"),
        value("process-slot-var"),
        flag("null"),
        flag("interactive"),
        flag("no-run-if-empty"),
        flag("open-tty"),
        flag("exit"),
        flag("verbose"),
        flag("show-limits"),
        flag("help"),
        flag("version"),
    ],
    abbreviate: true,
    stop_at_operand: true,
    ..Grammar::GNU
};

pub static PARALLEL: Grammar = Grammar {
    short_values: "jPnNSadIL",
    longs: &[
        value("jobs"),
        value("sshlogin"),
        value("arg-file"),
        value("delimiter"),
        value("colsep"),
        value("joblog"),
        value("results"),
        value("tmpdir"),
        value("timeout"),
        value("delay"),
        value("max-lines"),
        value("max-args"),
    ],
    abbreviate: false,
    stop_at_operand: true,
    ..Grammar::GNU
};

/// `su`, `runuser` (util-linux: options anywhere, `-c CODE`).
pub static SU: Grammar = Grammar {
    short_values: "cgGsuw",
    longs: &[
        value("command"),
        value("session-command"),
        value("group"),
        value("supp-group"),
        value("shell"),
        value("user"),
        value("whitelist-environment"),
        flag("login"),
        flag("preserve-environment"),
        flag("pty"),
        flag("no-pty"),
        flag("fast"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `script` (util-linux).
pub static SCRIPT: Grammar = Grammar {
    short_values: "cEIOTBo",
    short_optional: "t",
    longs: &[
        value("command"),
        value("echo"),
        value("log-in"),
        value("log-out"),
        value("log-io"),
        value("log-timing"),
        value("logging-format"),
        value("output-limit"),
        optional("timing"),
        flag("append"),
        flag("flush"),
        flag("force"),
        flag("quiet"),
        flag("return"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `sg [-] GROUP [-c] CMD`: the `-c` comes after the group.
pub static SG: Grammar = Grammar {
    short_values: "c",
    abbreviate: false,
    ..Grammar::GNU
};

/// `nix-shell` (only `--run`/`--command` matter here; names are exact).
pub static NIX_SHELL: Grammar = Grammar {
    longs: &[
        value("run"),
        value("command"),
        value("arg"),
        value("argstr"),
        value("attr"),
    ],
    short_values: "AI",
    abbreviate: false,
    ..Grammar::GNU
};

// --- low-level filesystem tools and other verb programs (the verb lexicon reads them) ---

/// `debugfs [-DVwcin] [-b blocksize] [-s superblock] [-f cmdfile] [-R request] [-d dev]
/// [-z undo] [device]`.
pub static DEBUGFS: Grammar = Grammar {
    short_values: "bsfRdz",
    ..Grammar::GNU
};

/// `tune2fs`: every option but `-l` changes the filesystem.
pub static TUNE2FS: Grammar = Grammar {
    short_values: "ceiIJmorugCELMOQTUz",
    ..Grammar::GNU
};

/// `e2fsck`/`fsck.ext*` (`-y`/`-p`/`-a` repair without asking) and the `fsck` front end.
pub static E2FSCK: Grammar = Grammar {
    short_values: "tbBlLCjEz",
    ..Grammar::GNU
};

/// `xfs_repair [-dfLnPv] [-m maxmem] [-c subopt] [-o subopt] [-t s] [-l logdev] [-r rtdev]`.
pub static XFS_REPAIR: Grammar = Grammar {
    short_values: "mcotlr",
    ..Grammar::GNU
};

/// `btrfs [global options] <group> <command>`: `check` with its value options.
pub static BTRFS: Grammar = Grammar {
    longs: &[
        value("format"),
        value("log"),
        flag("verbose"),
        flag("quiet"),
    ],
    abbreviate: false,
    subcommands: &[Sub {
        names: &["check"],
        grammar: &BTRFS_CHECK,
    }],
    other_sub: Some(&GENERIC),
    ..Grammar::GNU
};

pub static BTRFS_CHECK: Grammar = Grammar {
    short_values: "sbE",
    longs: &[
        value("super"),
        value("tree-root"),
        value("chunk-root"),
        value("mode"),
        value("subvol-extents"),
        value("clear-space-cache"),
        flag("repair"),
        flag("init-csum-tree"),
        flag("init-extent-tree"),
        flag("readonly"),
        flag("force"),
        flag("progress"),
        flag("qgroup-report"),
        flag("check-data-csum"),
    ],
    ..Grammar::GNU
};

/// `setcap [-q] [-n rootid] [-v] (-r|-|caps) file`.
pub static SETCAP: Grammar = Grammar {
    short_values: "n",
    ..Grammar::GNU
};

/// `do-release-upgrade` (`-c` only checks).
pub static DO_RELEASE_UPGRADE: Grammar = Grammar {
    short_values: "mf",
    longs: &[
        value("mode"),
        value("frontend"),
        flag("check-dist-upgrade-only"),
        flag("devel-release"),
        flag("proposed"),
        flag("sandbox"),
        flag("quiet"),
        flag("allow-third-party"),
        flag("help"),
        flag("version"),
    ],
    ..Grammar::GNU
};

/// `cbatticon`: its `-c`/`-x` values are commands to run, not verbs of its own.
pub static CBATTICON: Grammar = Grammar {
    short_values: "uilrcx",
    longs: &[
        value("update-interval"),
        value("icon-type"),
        value("low-level"),
        value("critical-level"),
        value("command-critical-level"),
        value("command-left-click"),
        flag("hide-notification"),
        flag("list-icon-types"),
        flag("list-power-supplies"),
        flag("debug"),
        flag("version"),
        flag("help"),
    ],
    ..Grammar::GNU
};

/// Wrappers with simple grammars that run the rest of their argv (`strace`, `nsenter`, ...).
const fn wrapper(short_values: &'static str, longs: &'static [Long]) -> Grammar {
    Grammar {
        short_values,
        longs,
        abbreviate: false,
        stop_at_operand: true,
        ..Grammar::GNU
    }
}

pub static STRACE: Grammar = wrapper(
    "abeEIoOpPsSuX",
    &[
        value("output"),
        value("trace"),
        value("signal"),
        value("user"),
    ],
);
pub static LTRACE: Grammar = wrapper("aAenoOpsSu", &[value("output")]);
pub static NSENTER: Grammar = wrapper(
    "tSGwr",
    &[
        value("target"),
        value("setuid"),
        value("setgid"),
        value("wd"),
        value("root"),
    ],
);
pub static UNSHARE: Grammar = wrapper(
    "RwSG",
    &[value("root"), value("wd"), value("setuid"), value("setgid")],
);
pub static SETPRIV: Grammar = wrapper(
    "",
    &[
        value("reuid"),
        value("regid"),
        value("groups"),
        value("inh-caps"),
        value("bounding-set"),
    ],
);
pub static NUMACTL: Grammar = wrapper("CNmlpi", &[]);
pub static PRLIMIT: Grammar = wrapper("p", &[value("pid")]);
pub static FAKEROOT: Grammar = wrapper("lis", &[value("lib"), value("faked")]);
pub static DBUS_RUN_SESSION: Grammar = wrapper("", &[value("config-file"), value("dbus-daemon")]);
pub static XVFB_RUN: Grammar = wrapper(
    "nsfep",
    &[
        value("server-num"),
        value("server-args"),
        value("auth-file"),
        value("error-file"),
    ],
);
pub static SYSTEMD_RUN: Grammar = wrapper(
    "pEuHM",
    &[
        value("property"),
        value("setenv"),
        value("unit"),
        value("host"),
        value("machine"),
        value("description"),
        value("slice"),
        value("uid"),
        value("gid"),
        value("working-directory"),
    ],
);
pub static PROXYCHAINS: Grammar = wrapper("f", &[]);
pub static TORSOCKS: Grammar = wrapper("uaP", &[]);
pub static GTIMEOUT: Grammar = wrapper("sk", &[value("signal"), value("kill-after")]);

/// Every program with a grammar, by name.
pub static PROGRAMS: &[(&[&str], &Grammar)] = &[
    (&["rm"], &RM),
    (&["cp", "mv", "install", "ln"], &CP),
    (&["chmod"], &CHMOD),
    (&["chown", "chgrp"], &CHOWN),
    (&["mkdir"], &MKDIR),
    (&["shred"], &SHRED),
    (&["truncate"], &TRUNCATE),
    (&["tee"], &TEE),
    (&["find"], &FIND),
    (&["curl"], &CURL),
    (&["wget"], &WGET),
    (&["rsync"], &RSYNC),
    (&["rclone"], &RCLONE),
    (&["taskkill", "taskkill.exe"], &TASKKILL),
    (&["fuser"], &FUSER),
    (&["efibootmgr"], &EFIBOOTMGR),
    (
        &[
            "nc",
            "netcat",
            "ncat",
            "nc.traditional",
            "nc.openbsd",
            "busybox-nc",
        ],
        &NC,
    ),
    (&["badblocks"], &BADBLOCKS),
    (&["scp"], &SCP),
    (&["ssh-keygen"], &SSH_KEYGEN),
    (&["base64", "base32", "basenc"], &BASE64),
    (&["tr"], &TR),
    (&["at", "batch"], &AT),
    (&["http", "https", "xh"], &HTTPIE),
    (&["fetch"], &FETCH),
    (&["rg"], &RG),
    (&["man"], &MAN),
    (&["ag"], &AG),
    (&["sort"], &SORT),
    (&["gcc", "g++", "cc", "c++", "gfortran"], &GCC),
    (&["aria2c"], &ARIA2C),
    (&["borg", "borgbackup"], &BORG),
    (&["busctl"], &BUSCTL),
    (&["certbot", "letsencrypt"], &CERTBOT),
    (&["dhclient"], &DHCLIENT),
    (&["dnsmasq"], &DNSMASQ),
    (&["fzf"], &FZF),
    (&["hg"], &HG),
    (TEX_ENGINES, &TEX),
    (&["zip"], &ZIP),
    (&["tar", "gtar", "bsdtar"], &TAR),
    (&["ssh"], &SSH),
    (&["sftp"], &SFTP),
    (&["apt", "apt-get"], &APT),
    (
        &["vim", "vi", "nvim", "view", "ex", "vimdiff", "gvim", "rvim"],
        &VIM,
    ),
    (&["less"], &LESS),
    (&["tcpdump"], &TCPDUMP),
    (&["awk", "gawk", "mawk", "nawk", "busybox-awk"], &AWK),
    (&["systemctl"], &SYSTEMCTL),
    (&["service"], &SERVICE),
    (&["rc-service"], &RC_SERVICE),
    (&["sv"], &SV),
    (&["initctl"], &INITCTL),
    (&["fdisk"], &FDISK),
    (&["sfdisk"], &SFDISK),
    (&["parted"], &PARTED),
    (&["sgdisk"], &SGDISK),
    (&["gdisk", "cgdisk", "cfdisk"], &GDISK),
    (&["crontab"], &CRONTAB),
    (&["echo"], &ECHO),
    (&["psql"], &PSQL),
    (&["mysql", "mariadb"], &MYSQL),
    (&["sqlite3", "sqlite", "duckdb"], &SQLITE),
    (&["clickhouse-client", "clickhouse"], &CLICKHOUSE),
    (&["cockroach"], &COCKROACH),
    (&["sqlcmd"], &SQLCMD),
    (&["shellgate"], &SHELLGATE),
    (&["xxd"], &XXD),
    (&["openssl"], &OPENSSL),
    (&["python", "python2", "python3"], &PYTHON),
    (&["sed", "gsed"], &SED),
    (&["perl"], &PERL),
    (&["ruby"], &RUBY),
    (&["grub-mkconfig", "grub2-mkconfig"], &GRUB_MKCONFIG),
    (&["mdadm"], &MDADM),
    (
        &["powershell", "powershell.exe", "pwsh", "pwsh.exe"],
        &POWERSHELL,
    ),
    (&["mkfs"], &MKFS),
    (&["mke2fs", "mkfs.ext2", "mkfs.ext3", "mkfs.ext4"], &MKE2FS),
    (&["mkfs.xfs"], &MKFS_XFS),
    (
        &["mkfs.fat", "mkfs.vfat", "mkfs.msdos", "mkdosfs"],
        &MKFS_FAT,
    ),
    (&["mkfs.btrfs"], &MKFS_BTRFS),
    (&["mkswap"], &MKSWAP),
    (&["rpm"], &RPM),
    (&["dpkg"], &DPKG),
    (&["read"], &READ),
    (&["cd", "pushd"], &CD),
    (
        &["declare", "typeset", "export", "local", "readonly"],
        &DECLARE,
    ),
    (&["init", "telinit"], &TELINIT),
    (&["kill"], &KILL),
    (&["pkill", "pgrep"], &PKILL),
    (&["killall"], &KILLALL),
    (&["git"], &GIT),
    (&["docker"], &DOCKER),
    (&["podman", "podman-remote"], &PODMAN),
    (&["nerdctl"], &NERDCTL),
    (&["debugfs"], &DEBUGFS),
    (&["tune2fs"], &TUNE2FS),
    (
        &["e2fsck", "fsck", "fsck.ext2", "fsck.ext3", "fsck.ext4"],
        &E2FSCK,
    ),
    (&["xfs_repair"], &XFS_REPAIR),
    (&["btrfs"], &BTRFS),
    (&["setcap"], &SETCAP),
    (&["do-release-upgrade"], &DO_RELEASE_UPGRADE),
    (&["cbatticon"], &CBATTICON),
    (&["docker-compose", "podman-compose"], &COMPOSE),
    (&["terraform", "tofu", "terragrunt"], &TERRAFORM),
    (
        &[
            "pulumi",
            "cdk",
            "cdktf",
            "serverless",
            "sls",
            "sam",
            "vagrant",
        ],
        &IAC,
    ),
    (&["aws"], &AWS),
    (&["gcloud"], &GCLOUD),
    (&["az"], &AZ),
    (&["doctl"], &DOCTL),
    (&["eksctl"], &EKSCTL),
    (&["gsutil"], &GSUTIL),
    (&["kubectl", "oc", "microk8s", "k3s", "helm"], &KUBECTL),
    (&["nft"], &NFT),
    (
        &[
            "iptables",
            "ip6tables",
            "iptables-legacy",
            "iptables-nft",
            "ip6tables-legacy",
            "ip6tables-nft",
            "ebtables",
            "arptables",
        ],
        &IPTABLES,
    ),
    (
        &["iptables-restore", "ip6tables-restore"],
        &IPTABLES_RESTORE,
    ),
    (&["firewall-cmd"], &FIREWALL_CMD),
    (&["pfctl"], &PFCTL),
    (&["ufw"], &UFW),
    (&["cryptsetup"], &CRYPTSETUP),
    (&["bootctl"], &BOOTCTL),
    (&["kernel-install"], &KERNEL_INSTALL),
    (&["hermes"], &HERMES),
    (&["sudo", "sudoedit"], &SUDO),
    (&["doas"], &DOAS),
    (&["pkexec"], &PKEXEC),
    (&["env"], &ENV),
    (&["nice"], &NICE),
    (&["ionice"], &IONICE),
    (&["timeout"], &TIMEOUT),
    (&["stdbuf"], &STDBUF),
    (&["nohup", "unbuffer", "builtin", "catchsegv"], &NOHUP),
    (&["setsid"], &SETSID),
    (&["caffeinate"], &CAFFEINATE),
    (&["time"], &TIME),
    (&["command"], &POSIX),
    (&["exec"], &EXEC),
    (&["chroot"], &CHROOT),
    (&["flock"], &FLOCK),
    (&["su", "runuser"], &SU),
    (&["script"], &SCRIPT),
    (&["sg"], &SG),
    (&["nix-shell"], &NIX_SHELL),
    (&["busybox", "toybox"], &POSIX),
    (&["watch"], &WATCH),
    (&["xargs"], &XARGS),
    (&["parallel"], &PARALLEL),
    (&["strace"], &STRACE),
    (&["ltrace"], &LTRACE),
    (&["nsenter"], &NSENTER),
    (&["unshare"], &UNSHARE),
    (&["setpriv"], &SETPRIV),
    (&["taskset"], &TASKSET),
    (&["chrt"], &CHRT),
    (&["faketime", "firejail"], &POSIX),
    (&["numactl"], &NUMACTL),
    (&["prlimit"], &PRLIMIT),
    (&["fakeroot"], &FAKEROOT),
    (&["dbus-run-session"], &DBUS_RUN_SESSION),
    (&["xvfb-run"], &XVFB_RUN),
    (&["systemd-run"], &SYSTEMD_RUN),
    (&["proxychains", "proxychains4"], &PROXYCHAINS),
    (&["torsocks"], &TORSOCKS),
    (&["gtimeout"], &GTIMEOUT),
];

/// The grammar of program `name` ([`GENERIC`] when it has none).
pub fn for_program(name: Option<&str>) -> &'static Grammar {
    name.and_then(|n| PROGRAMS.iter().find(|(names, _)| names.contains(&n)))
        .map(|(_, g)| *g)
        .unwrap_or(&GENERIC)
}

/// Does the table name `name`?
pub fn has_grammar(name: &str) -> bool {
    PROGRAMS.iter().any(|(names, _)| names.contains(&name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Word;

    #[test]
    fn container_run_values_consume_words_and_the_image_ends_options() {
        let a = Word::literals(&[
            "-H", "tcp://h", "run", "--name", "-v", "-e", "A=1", "-v/:/x", "alpine", "-v", "/:/y",
        ]);
        let o = super::super::parse(&DOCKER, &a);
        let subs: Vec<&str> = o.subcommand.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(subs, ["run"]);
        let names: Vec<&str> = o.options.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(names, ["name", "e", "v"]);
        assert_eq!(o.operands, [8, 9, 10]);
        let a = Word::literals(&["container", "create", "--pid", "host", "img"]);
        let o = super::super::parse_program(Some("podman"), &a);
        assert!(o.long("pid"));
        assert_eq!(o.operands, [4]);
    }

    #[test]
    fn filesystem_tools_read_their_values() {
        // `-L data` is a value; `-l` alone only lists.
        let o =
            super::super::parse_program(Some("tune2fs"), &Word::literals(&["-L", "-l", "/dev/x"]));
        assert!(!o.short('l'));
        let o = super::super::parse_program(Some("e2fsck"), &Word::literals(&["-fy", "/dev/sda1"]));
        assert!(o.short('y'));
        let o = super::super::parse_program(
            Some("btrfs"),
            &Word::literals(&["check", "--repair", "/dev/sda1"]),
        );
        assert_eq!(o.sub(), Some("check"));
        assert!(o.long("repair"));
        let o =
            super::super::parse_program(Some("cbatticon"), &Word::literals(&["-c", "poweroff"]));
        assert!(o.operands.is_empty());
    }

    #[test]
    fn every_program_is_listed_once() {
        let mut seen = std::collections::BTreeSet::new();
        for (names, _) in PROGRAMS {
            for n in *names {
                assert!(seen.insert(*n), "{n} has two grammars");
            }
        }
    }

    /// The first operand (the command a wrapper runs) and whether `-c`/`--long` was given.
    fn read(prog: &str, argv: &[&str], c: char, long: &str) -> (Option<String>, bool) {
        let a = Word::literals(argv);
        let o = super::super::parse_program(Some(prog), &a);
        let first = o.operands.first().and_then(|&i| a[i].lit());
        (first, o.flag(c, long))
    }

    #[test]
    fn sudo_reads_every_spelling_of_its_options() {
        for argv in [
            &["-S", "id"][..],
            &["--stdin", "id"],
            &["--st", "id"],
            &["--std", "id"],
            &["--stdi", "id"],
            &["-kS", "id"],
            &["-Su", "root", "id"],
            &["-u", "#1000", "-S", "id"],
            &["-u#1000", "-S", "id"],
            &["-u", "#-1", "-S", "id"],
            &["-h", "-S", "id"],
            &["-a", "pam", "-S", "id"],
            &["-c", "class", "-S", "id"],
        ] {
            assert_eq!(
                read("sudo", argv, 'S', "stdin"),
                (Some("id".into()), true),
                "{argv:?}"
            );
        }
        for argv in [
            &["-A", "id"][..],
            &["--askpass", "id"],
            &["--ask", "id"],
            &["-kA", "id"],
            &["-Au", "root", "id"],
        ] {
            assert_eq!(
                read("sudo", argv, 'A', "askpass"),
                (Some("id".into()), true),
                "{argv:?}"
            );
        }
        for argv in [
            &["-u", "-A", "id"][..],
            &["-p", "-A", "id"],
            &["-Eu", "-A", "id"],
            &["-iu", "-A", "id"],
            &["-hhost", "id", "-A"],
            &["--", "id", "-A"],
            &["--s", "id"],
        ] {
            let (_, asked) = read("sudo", argv, 'A', "askpass");
            assert!(!asked, "{argv:?}");
        }
    }

    #[test]
    fn wrappers_find_their_command_in_every_spelling() {
        let cases: &[(&str, &[&str])] = &[
            ("env", &["-u", "HOME", "rm"]),
            ("env", &["--uns", "HOME", "rm"]),
            ("env", &["-iu", "X", "rm"]),
            ("env", &["-C", "/tmp", "rm"]),
            ("env", &["-P", "/bin", "rm"]),
            ("env", &["-a", "x", "rm"]),
            ("env", &["-0v", "rm"]),
            ("env", &["--block-signal=INT", "rm"]),
            ("timeout", &["-sKILL", "5", "rm"]),
            ("timeout", &["--sig=KILL", "5", "rm"]),
            ("timeout", &["-k", "1", "5", "rm"]),
            ("timeout", &["-vfp", "5", "rm"]),
            ("nice", &["-n5", "rm"]),
            ("nice", &["-n", "-5", "rm"]),
            ("nice", &["--adj", "5", "rm"]),
            ("nice", &["-5", "rm"]),
            ("nohup", &["--", "rm"]),
            ("setsid", &["-cfw", "rm"]),
            ("setsid", &["--fork", "--wait", "rm"]),
            ("stdbuf", &["-oL", "rm"]),
            ("stdbuf", &["--out", "L", "rm"]),
            ("ionice", &["-c3", "rm"]),
            ("ionice", &["--class", "idle", "rm"]),
            ("chrt", &["-T", "1000", "-P", "2000", "-d", "0", "rm"]),
            ("taskset", &["-c", "0,1", "rm"]),
            ("doas", &["-C", "/etc/doas.conf", "rm"]),
            ("doas", &["-u", "root", "rm"]),
        ];
        for (prog, argv) in cases {
            let a = Word::literals(argv);
            let o = super::super::parse_program(Some(prog), &a);
            let ops: Vec<String> = o.operands.iter().filter_map(|&i| a[i].lit()).collect();
            assert_eq!(
                ops.last().map(String::as_str),
                Some("rm"),
                "{prog} {argv:?}"
            );
        }
    }

    #[test]
    fn long_options_are_listed_once_per_grammar() {
        for (names, g) in PROGRAMS {
            let mut seen = std::collections::BTreeSet::new();
            for l in g.longs {
                assert!(seen.insert(l.name), "{:?}: --{} twice", names, l.name);
            }
            for s in g.subcommands {
                let mut seen = std::collections::BTreeSet::new();
                for l in s.grammar.longs {
                    assert!(
                        seen.insert(l.name),
                        "{:?} {:?}: --{} twice",
                        names,
                        s.names,
                        l.name
                    );
                }
            }
        }
    }
}
