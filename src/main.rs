//! The `shellgate` binary. The CLI front end (argument parsing, printing, exit codes) is a
//! module of the binary, not of the library: the library's public surface is the analysis,
//! policy and hook API, as ripgrep keeps its `flags` out of its crates.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
