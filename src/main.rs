//! The `shellgate` binary. The CLI front end (argument parsing, printing, exit codes) is a
//! module of the binary, not of the library: the library's public surface is the analysis,
//! policy and hook API, as ripgrep keeps its `flags` out of its crates.

mod cli;

// The analysis allocates many short-lived words and spans; mimalloc serves them with a
// fraction of the instructions glibc's malloc/free take (docs/PERFORMANCE.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(cli::main());
}
