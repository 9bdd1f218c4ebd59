//! The `shellgate` binary: hands over to the CLI front end.

fn main() {
    std::process::exit(shellgate::cli::main());
}
