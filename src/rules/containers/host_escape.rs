//! SG3203: a container or namespace given the host: `docker|podman run` with the host's root
//! or the engine socket mounted, `--privileged`, `--pid=host`, breakout capabilities or host
//! disks; `nsenter -t 1`; `chroot` into a host mount. Read from the container tables below.

use crate::declare_rule;
use crate::model::opts::{Opts, value_word};
use crate::model::paths::{self, Extent};
use crate::model::{Command, UNKNOWN_TEXT, Word};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags a container or namespace that is handed the host, from the **container
    /// tables** in this file:
    /// * `RUN_OPTIONS`: the options of `docker|podman|nerdctl run|create` (and `container
    ///   run|create`) that give the host away: `--privileged`; `--pid=host`; a bind mount
    ///   (`-v SRC:DST`, `--volume=SRC:DST`, `--mount type=bind,source=SRC,...`) of the host's
    ///   root, of a container engine's socket (`ENGINE_SOCKETS`: `docker.sock`,
    ///   `podman.sock`, ...) or the directory holding it (`SOCKET_DIRS`), or of a top-level
    ///   system directory unless read-only (`-v /etc:/etc`); `--cap-add` of a capability in
    ///   `ESCAPE_CAPS` (`SYS_ADMIN`, `ALL`, ...; `NET_ADMIN` only with `--network host`);
    ///   `--device` of a disk; podman's `--rootfs /`.
    /// * `nsenter` with `-t 1`/`--target 1` or a namespace file of pid 1
    ///   (`--mount=/proc/1/ns/mnt`): the host's init namespaces.
    /// * `chroot` into a host mount (`HOST_MOUNTS`: `/host`, `/hostfs`, `/rootfs`,
    ///   `/proc/1/root`, ...), with a command or without one (an interactive shell).
    ///
    /// Options are read with the engine's real grammar (`CONTAINER_RUN` in
    /// `model::opts::grammars`): global options before the subcommand (`docker -H x run`),
    /// values that consume the next word, and the image, which ends the options, so
    /// `docker run alpine -v /:/x` (a `-v` for the container's own command) is not flagged.
    ///
    /// ## Why is this bad?
    /// A process in such a container is root on the host: it can read every secret, write
    /// `/etc`, load kernel modules, start further containers through the socket, or signal
    /// every host process. The container boundary no longer limits what the agent does.
    ///
    /// ## Example
    /// ```sh
    /// docker run -v /:/host alpine chroot /host    # approve
    /// docker run --privileged alpine               # approve
    /// nsenter -t 1 -m -u -i -n -p sh               # approve
    /// docker run -v "$PWD":/src img make           # allowed
    /// ```
    ///
    /// To add an option, capability, socket or host mount, add a row to the table in this
    /// file (and the option to `CONTAINER_RUN` if it takes a value), with pass/fail examples.
    ///
    /// ## Known limitations
    /// `--network host` alone is allowed (the host's network stack, not its files or
    /// processes); `--ipc=host`, `--userns=host` and `--security-opt` are not judged.
    /// Privileges granted by a compose file, a Kubernetes manifest or `kubectl debug node/..`
    /// are not seen. A mount source known only at run time is judged only by a socket name
    /// at its end.
    pub struct HostEscape;
    code: "SG3203",
    name: "container-given-the-host",
    severity: Approve,
    category: Containers,
    hermes: [],
    programs: [],
    summary: "A container or namespace given the host (-v /:/x, docker.sock, --privileged, nsenter -t 1)",
    pass: ["docker run -v \"$PWD\":/src img make", "docker run --rm -it alpine sh", "docker ps --filter volume=/", "docker run alpine -v /:/x", "docker run -v /etc/localtime:/etc/localtime:ro img", "docker run -v /etc:/etc:ro img", "docker run --network host nginx", "docker run -v data:/var/lib/postgresql/data postgres", "docker run --privileged=false alpine", "nsenter -t 1234 -n ip addr", "chroot /srv/jail /bin/sh", "docker run --cap-add NET_ADMIN alpine", "docker run -e V=/:/x alpine"],
    fail: ["docker run -v /:/x alpine sh", "docker run --volume=/:/host alpine", "docker run --mount type=bind,source=/,target=/h alpine", "podman run --mount type=bind,src=/,dst=/h,ro alpine", "docker run -v /var/run/docker.sock:/var/run/docker.sock img", "podman run -v /run/podman/podman.sock:/run/podman/podman.sock img", "docker run --privileged alpine", "docker run --pid=host alpine", "docker run --pid host alpine", "docker run --cap-add=SYS_ADMIN alpine", "docker -H tcp://h:2375 run -v /:/x alpine", "docker container create -it -v /:/x alpine", "docker run -d --name x -v /etc:/etc img", "docker run --net=host --cap-add=NET_ADMIN alpine", "docker run --device=/dev/sda alpine", "podman run --rootfs / sh", "nerdctl run --privileged alpine", "sudo docker run -it -v /:/mnt alpine", "nsenter -t 1 -m -u -i -n -p", "nsenter --target=1 --mount sh", "sudo nsenter -t 1 -a bash", "nsenter --mount=/proc/1/ns/mnt sh", "chroot /host", "chroot /host /bin/bash", "chroot /proc/1/root sh"],
}

/// How an option of `run`/`create` is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// A flag (`--privileged`; `--privileged=false` does not count).
    Flag,
    /// The value `host` (`--pid=host`).
    HostNamespace,
    /// `-v SRC:DST[:MODE]`.
    Bind,
    /// `--mount type=bind,source=SRC,target=DST[,readonly]`.
    MountSpec,
    /// `--cap-add CAP` (one or a comma list, any case, with or without `CAP_`).
    Capability,
    /// `--device HOSTDEV[:DEV]`.
    Device,
    /// podman's `--rootfs`: the first operand is a host directory used as the root.
    Rootfs,
}

/// One option of the container table.
#[derive(Debug, Clone, Copy)]
pub struct HostOption {
    /// Names as the grammar records them (short letter or long name).
    pub names: &'static [&'static str],
    pub reading: Reading,
}

/// The options of `run`/`create` that can give the container the host.
pub static RUN_OPTIONS: &[HostOption] = &[
    HostOption {
        names: &["privileged"],
        reading: Reading::Flag,
    },
    HostOption {
        names: &["pid"],
        reading: Reading::HostNamespace,
    },
    HostOption {
        names: &["v", "volume"],
        reading: Reading::Bind,
    },
    HostOption {
        names: &["mount"],
        reading: Reading::MountSpec,
    },
    HostOption {
        names: &["cap-add"],
        reading: Reading::Capability,
    },
    HostOption {
        names: &["device"],
        reading: Reading::Device,
    },
    HostOption {
        names: &["rootfs"],
        reading: Reading::Rootfs,
    },
];

/// Capabilities that let a root process leave the container, and whether each counts only
/// with the host's network namespace (`NET_ADMIN` rewrites the host's firewall then).
pub static ESCAPE_CAPS: &[(&str, bool)] = &[
    ("ALL", false),
    ("SYS_ADMIN", false),
    ("SYS_MODULE", false),
    ("SYS_RAWIO", false),
    ("DAC_READ_SEARCH", false),
    ("BPF", false),
    ("NET_ADMIN", true),
];

/// File names of container engine sockets: whoever reaches one starts containers as root.
pub static ENGINE_SOCKETS: &[&str] = &[
    "docker.sock",
    "podman.sock",
    "containerd.sock",
    "crio.sock",
    "buildkitd.sock",
    "dockershim.sock",
];

/// Directories that hold an engine socket: mounting one mounts the socket.
pub static SOCKET_DIRS: &[&str] = &[
    "/run",
    "/var/run",
    "/run/docker",
    "/var/run/docker",
    "/run/podman",
    "/var/run/podman",
    "/run/containerd",
    "/var/run/containerd",
];

/// Where containers and rescue images mount the host's root: `chroot` into one of these
/// (a path component, or `/proc/PID/root`) enters the host.
pub static HOST_MOUNTS: &[&str] = &[
    "host",
    "hostfs",
    "host-root",
    "host_root",
    "hostroot",
    "host-rootfs",
    "rootfs",
];

/// Engines whose `run`/`create` the table reads.
const ENGINES: &[&str] = &["docker", "podman", "podman-remote", "nerdctl"];

/// A run option's value, as text with unknown parts marked.
fn value_text(args: &[Word], o: &crate::model::opts::Opt) -> Option<String> {
    value_word(args, o).map(|w| w.text_with("\u{fffd}"))
}

/// What mounting host path `src` gives, if anything: the root, a socket, or a system
/// directory (only when writable).
fn host_source(cx: &Cx, cmd: &Command, src: &str, readonly: bool) -> Option<String> {
    let src = src.to_string();
    let known = !src.contains('\u{fffd}');
    let shown = src.replace('\u{fffd}', UNKNOWN_TEXT);
    let src = src.as_str();
    let base = src.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    if ENGINE_SOCKETS.contains(&base) {
        return Some(format!("the container engine's socket {shown}"));
    }
    if !known || !(src.starts_with('/') || src.starts_with('.') || src.starts_with('~')) {
        // A named volume, or a source known only at run time.
        return None;
    }
    let home = cx.ctx.home.as_deref();
    let resolved = paths::resolve(&paths::expand_tilde(src, home), cmd.cwd.as_deref());
    if resolved
        .as_deref()
        .is_some_and(|p| SOCKET_DIRS.contains(&p))
    {
        return Some(format!("{src}, which holds the container engine's socket"));
    }
    match paths::classify_text(src, cmd.cwd.as_deref(), home) {
        Extent::Root => Some(format!("the host's root filesystem ({src})")),
        Extent::SystemDir(p) if !readonly => Some(format!("the host's {p}, writable")),
        _ => None,
    }
}

/// `-v SRC:DST[:MODE]`: the source and whether the mount is read-only.
fn bind_spec(v: &str) -> Option<(&str, bool)> {
    let mut parts = v.split(':');
    let src = parts.next()?;
    parts.next()?;
    let readonly = parts
        .next()
        .is_some_and(|m| m.split(',').any(|o| o == "ro" || o == "readonly"));
    Some((src, readonly))
}

/// `--mount type=bind,source=SRC,...`: the source of a bind mount and whether it is
/// read-only.
fn mount_spec(v: &str) -> Option<(&str, bool)> {
    let mut bind = false;
    let mut src = None;
    let mut readonly = false;
    for field in v.split(',') {
        let (k, val) = field.split_once('=').unwrap_or((field, "true"));
        match k.trim() {
            "type" => bind = val == "bind",
            "source" | "src" => src = Some(val),
            "readonly" | "ro" => readonly = !matches!(val, "false" | "0"),
            _ => {}
        }
    }
    src.filter(|_| bind).map(|s| (s, readonly))
}

fn capability(v: &str, host_net: bool) -> Option<String> {
    v.split(',').find_map(|c| {
        let up = c.trim().to_ascii_uppercase();
        let name = up.strip_prefix("CAP_").unwrap_or(&up);
        ESCAPE_CAPS
            .iter()
            .find(|(cap, needs_net)| *cap == name && (!needs_net || host_net))
            .map(|(cap, _)| format!("the capability {cap}"))
    })
}

/// What a `run`/`create` gives the container of the host.
fn run_gives(cx: &Cx, cmd: &Command, o: &Opts) -> Vec<String> {
    let args = cmd.args();
    let host_net = o
        .named(&["net", "network"])
        .any(|n| value_text(args, n).as_deref() == Some("host"));
    let mut out = Vec::new();
    for opt in o.own() {
        let Some(row) = RUN_OPTIONS
            .iter()
            .find(|r| r.names.contains(&opt.name.as_str()))
        else {
            continue;
        };
        let v = value_text(args, opt);
        let gives = match row.reading {
            Reading::Flag => v
                .as_deref()
                .is_none_or(|v| !matches!(v, "false" | "0"))
                .then(|| format!("--{}: every device and capability of the host", opt.name)),
            Reading::HostNamespace => (v.as_deref() == Some("host"))
                .then(|| format!("--{}=host: the host's processes", opt.name)),
            Reading::Bind => v
                .as_deref()
                .and_then(bind_spec)
                .and_then(|(src, ro)| host_source(cx, cmd, src, ro)),
            Reading::MountSpec => v
                .as_deref()
                .and_then(mount_spec)
                .and_then(|(src, ro)| host_source(cx, cmd, src, ro)),
            Reading::Capability => v.as_deref().and_then(|v| capability(v, host_net)),
            Reading::Device => v
                .as_deref()
                .map(|d| d.split(':').next().unwrap_or(d))
                .filter(|d| paths::is_block_device(d) || matches!(*d, "/dev/mem" | "/dev/kmem"))
                .map(|d| format!("the host disk {d}")),
            Reading::Rootfs => o
                .operand_words(args)
                .first()
                .and_then(|w| w.lit())
                .filter(|p| {
                    matches!(
                        paths::classify_text(p, cmd.cwd.as_deref(), cx.ctx.home.as_deref()),
                        Extent::Root | Extent::SystemDir(_)
                    )
                })
                .map(|p| format!("the host's {p} as its root filesystem")),
        };
        out.extend(gives);
    }
    out
}

/// Does `o` (nsenter's options) enter pid 1's namespaces?
fn enters_init(args: &[String], o: &Opts) -> bool {
    o.own().iter().any(|opt| {
        let v = opt
            .value
            .as_ref()
            .and_then(|v| v.attached.clone().or_else(|| args.get(v.word).cloned()));
        match (opt.name.as_str(), v.as_deref()) {
            ("t" | "target", Some(pid)) => pid.trim_start_matches('0') == "1",
            (_, Some(file)) => paths::fold(file).starts_with("/proc/1/"),
            _ => false,
        }
    })
}

/// Is `root` (chroot's new root) where the host's root is mounted?
fn host_mount(root: &str) -> bool {
    let folded = paths::fold(root);
    let comps: Vec<&str> = folded.split('/').filter(|c| !c.is_empty()).collect();
    matches!(comps.as_slice(), ["proc", pid, "root"] if pid.chars().all(|c| c.is_ascii_digit()) || *pid == "self")
        || comps.iter().any(|c| HOST_MOUNTS.contains(c))
}

fn check(cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
    let mut found: Vec<String> = Vec::new();
    let name = cmd.name.as_deref().unwrap_or("");
    let sub: Vec<&str> = cmd
        .opts
        .subcommand
        .iter()
        .map(|(s, _)| s.as_str())
        .collect();
    if ENGINES.contains(&name) && matches!(sub.last(), Some(&("run" | "create"))) {
        for g in run_gives(cx, cmd, &cmd.opts) {
            found.push(format!(
                "`{name} {}` gives the container {g}",
                sub.join(" ")
            ));
        }
    }
    // nsenter and chroot as the command itself (no program: an interactive shell) or as a
    // wrapper around one.
    // The argument texts only when the command itself is one of them: this runs for
    // every command.
    let args = if matches!(name, "nsenter" | "chroot") {
        cmd.arg_texts()
    } else {
        Vec::new()
    };
    let mut uses: Vec<(&str, &[String], &Opts)> = cmd
        .wrappers
        .iter()
        .map(|w| (w.name.as_str(), w.args.as_slice(), &w.opts))
        .collect();
    uses.push((name, &args, &cmd.opts));
    for (prog, wargs, o) in uses {
        match prog {
            "nsenter" if enters_init(wargs, o) => {
                found.push("`nsenter` into pid 1 enters the host's init namespaces".into());
            }
            "chroot" => {
                if let Some(root) = o.operands.first().and_then(|&i| wargs.get(i))
                    && host_mount(root)
                {
                    found.push(format!("`chroot {root}` enters the host's root filesystem"));
                }
            }
            _ => {}
        }
    }
    for m in found {
        out.push(Finding::on(
            &HostEscape::META,
            cmd,
            format!("{m}{}", route(cmd)),
        ));
    }
}

impl Rule for HostEscape {
    fn check_script(&self, cx: &Cx, out: &mut Vec<Finding>) {
        for cmd in &cx.script.commands {
            check(cx, cmd, out);
        }
    }
}
