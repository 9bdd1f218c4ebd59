//! The `shellgate` binary. The CLI front end (argument parsing, printing, exit codes) is a
//! module of the binary, not of the library: the library's public surface is the analysis,
//! policy and hook API, as ripgrep keeps its `flags` out of its crates.

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
