//! The `shellgate` binary: hands over to the CLI front end.

// The analysis allocates many short-lived words and spans; mimalloc serves them with a
// fraction of the instructions glibc's malloc/free take (docs/PERFORMANCE.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(shellgate::cli::main());
}
