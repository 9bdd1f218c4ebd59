//! The `shellgate` binary. The CLI front end (argument parsing, printing, exit codes) is a
//! module of the binary, not of the library: the library's public surface is the analysis,
//! policy and hook API, as ripgrep keeps its `flags` out of its crates.

// The one place that prints and sets exit codes; the library denies both (Cargo.toml [lints]).
#[expect(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "the CLI front end writes results to stdout and problems to stderr"
)]
mod cli;

// The analysis allocates many short-lived words and spans; mimalloc serves them with a
// fraction of the instructions glibc's malloc/free take (docs/PERFORMANCE.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    no_huge_pages();
    std::process::exit(cli::main());
}

/// A hook process lives a few milliseconds, and each 2 MiB transparent huge page it
/// touches only inflates its peak RSS. mimalloc is built with `no_thp` (Cargo.toml), so it
/// never madvises its arenas for huge pages; this flag also keeps kernels whose THP mode is
/// `always` from backing later mappings with them. (It comes after mimalloc's first arena,
/// which `no_thp` alone covers.)
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    {
        const PR_SET_THP_DISABLE: std::ffi::c_int = 41;
        unsafe extern "C" {
            fn prctl(option: std::ffi::c_int, ...) -> std::ffi::c_int;
        }
        // SAFETY: prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) only sets a flag of this process;
        // on failure (an old kernel) nothing changes but the RSS figure.
        let (on, zero): (std::ffi::c_ulong, std::ffi::c_ulong) = (1, 0);
        unsafe {
            prctl(PR_SET_THP_DISABLE, on, zero, zero, zero);
        }
    }
}

/// mimalloc's option numbers (`mi_option_t`) in the vendored v3 header
/// (libmimalloc-sys `c_src/mimalloc/v3/include/mimalloc.h`); the crate's `extended`
/// bindings lack these two. The test below reads the names back from mimalloc itself.
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;
const MI_OPTION_ARENA_RESERVE: std::ffi::c_int = 23;

/// The first arena's size in KiB. mimalloc reserves 1 GiB by default and lays out some 80
/// bitmaps over it at 2 KiB apart, each touched at its start: 42 page faults (about a
/// tenth of a hook process's) before the first allocation is served. At 64 MiB they share
/// a few pages; a batch that needs more gets further arenas, which mimalloc grows itself.
const ARENA_RESERVE_KIB: std::ffi::c_long = 64 << 10;

unsafe extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// Runs [`tune_allocator`] from the ELF initialiser list, ahead of mimalloc's own
/// constructor (plain `.init_array` with gcc, priority 101 with clang), which already
/// reserves the first arena for the main thread's heap: from `main` it would be too late.
/// Sections with a priority suffix run before plain `.init_array`, lowest first; std puts
/// its argv hook at 00099.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array.00100")]
static TUNE_ALLOCATOR_AT_LOAD: extern "C" fn() = tune_allocator_at_load;

#[cfg(target_os = "linux")]
extern "C" fn tune_allocator_at_load() {
    tune_allocator();
}

/// Set mimalloc's options (they take precedence over `MIMALLOC_*` variables). Purging is
/// off: a hook process lives a few milliseconds, and returning freed pages to the kernel
/// only cost it `madvise` calls at exit; a batch keeps reusing the pages it has.
fn tune_allocator() {
    // SAFETY: `mi_option_set` stores an integer in mimalloc's option table; both numbers
    // are options of the linked mimalloc (checked by the test below).
    unsafe {
        mi_option_set(MI_OPTION_ARENA_RESERVE, ARENA_RESERVE_KIB);
        mi_option_set(MI_OPTION_PURGE_DELAY, -1);
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::{CStr, c_char, c_void};

    unsafe extern "C" {
        fn mi_options_print_out(
            out: unsafe extern "C" fn(*const c_char, *mut c_void),
            arg: *mut c_void,
        );
    }

    unsafe extern "C" fn collect(msg: *const c_char, arg: *mut c_void) {
        // SAFETY: `arg` is the `String` passed below and `msg` a C string from mimalloc.
        let out = unsafe { &mut *arg.cast::<String>() };
        out.push_str(&unsafe { CStr::from_ptr(msg) }.to_string_lossy());
    }

    #[test]
    fn allocator_options_name_the_arena_reserve_and_purge_delay() {
        super::tune_allocator();
        let mut text = String::new();
        // SAFETY: `collect` only appends to `text`, which outlives the call.
        unsafe { mi_options_print_out(collect, (&raw mut text).cast()) };
        let line = |name: &str| {
            text.lines()
                .find(|l| l.contains(&format!("option '{name}'")))
                .unwrap_or_else(|| panic!("no {name} in {text}"))
                .to_string()
        };
        assert!(line("arena_reserve").contains("65536"), "{text}");
        assert!(line("purge_delay").contains("-1"), "{text}");
    }
}
