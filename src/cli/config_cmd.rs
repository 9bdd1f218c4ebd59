//! `shellgate config import-hermes [PATH]`: carry a Hermes Agent approval config over.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{EXIT_INTERNAL, EXIT_USAGE};
use shellgate::policy::{self, hermes_import};

#[derive(Args, Debug)]
pub(super) struct ConfigArgs {
    #[command(subcommand)]
    cmd: ConfigCmd,
}

#[derive(Subcommand, Debug)]
enum ConfigCmd {
    /// Write the shellgate config equivalent to a Hermes `config.yaml` (its `approvals:`
    /// section and `command_allowlist`), and report what could not be carried over.
    ImportHermes {
        /// The Hermes config (default: $HERMES_HOME/config.yaml, else ~/.hermes/config.yaml).
        path: Option<PathBuf>,
        /// Where to write (default: the shellgate config path); `-` prints it.
        #[arg(long, short, value_name = "PATH")]
        output: Option<PathBuf>,
        /// Replace an existing shellgate config.
        #[arg(long)]
        force: bool,
        /// Config path to write to, as for other commands (same as --output).
        #[arg(long, value_name = "PATH", conflicts_with = "output")]
        config: Option<PathBuf>,
    },
    /// Print the config file path in use and the effective settings.
    Show {
        #[arg(long, value_name = "PATH")]
        config: Option<PathBuf>,
    },
}

pub(super) fn run(args: ConfigArgs) -> i32 {
    match args.cmd {
        ConfigCmd::ImportHermes {
            path,
            output,
            force,
            config,
        } => import(path, output.or(config), force),
        ConfigCmd::Show { config } => {
            let cwd = std::env::current_dir().ok();
            let c = policy::LoadedConfig::load(config.as_deref(), cwd.as_deref());
            for p in c.problems() {
                eprintln!("shellgate: {p}");
            }
            println!(
                "config: {}",
                c.paths
                    .config
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| "(none)".into())
            );
            for p in &c.project_files {
                println!("project file: {}", p.display());
            }
            println!(
                "state: {}",
                c.paths
                    .state_db
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| "(none)".into())
            );
            match toml::to_string(&c.config) {
                Ok(s) => {
                    println!("\n{s}");
                    if c.is_strict_fallback() {
                        EXIT_USAGE
                    } else {
                        0
                    }
                }
                Err(e) => {
                    eprintln!("shellgate: could not encode the config: {e}");
                    EXIT_INTERNAL
                }
            }
        }
    }
}

fn import(path: Option<PathBuf>, output: Option<PathBuf>, force: bool) -> i32 {
    let Some(src) = path.or_else(hermes_import::default_path) else {
        eprintln!(
            "shellgate: no Hermes config path known; pass PATH (usually ~/.hermes/config.yaml)"
        );
        return EXIT_USAGE;
    };
    let imp = match hermes_import::import_file(&src) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("shellgate: {e}");
            return EXIT_USAGE;
        }
    };
    // The written config must load as it is (a check on the importer itself).
    let check = policy::LoadedConfig::from_toml(&imp.toml);
    if let Some(e) = check.errors.first() {
        eprintln!(
            "shellgate: the imported config does not load ({e}); please report this as a bug"
        );
        return EXIT_INTERNAL;
    }
    for m in &imp.mapped {
        eprintln!("imported: {m}");
    }
    for u in &imp.unmapped {
        eprintln!("not imported: {u}");
    }
    let dest = match output {
        Some(p) if p.as_os_str() == "-" => {
            let _ = std::io::stdout().write_all(imp.toml.as_bytes());
            return 0;
        }
        Some(p) => Some(p),
        None => policy::Paths::from_env(None).config,
    };
    let Some(dest) = dest else {
        eprintln!("shellgate: no shellgate config path known; pass --output PATH or `-`");
        return EXIT_USAGE;
    };
    if dest.exists() && !force {
        eprintln!(
            "shellgate: {} exists; pass --force to replace it, or --output - to print the imported config",
            dest.display()
        );
        return EXIT_USAGE;
    }
    if let Some(dir) = dest.parent()
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("shellgate: cannot create {}: {e}", dir.display());
        return EXIT_INTERNAL;
    }
    match std::fs::write(&dest, &imp.toml) {
        Ok(()) => {
            eprintln!("wrote {}", dest.display());
            0
        }
        Err(e) => {
            eprintln!("shellgate: cannot write {}: {e}", dest.display());
            EXIT_INTERNAL
        }
    }
}
