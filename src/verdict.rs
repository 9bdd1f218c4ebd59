//! The words of a verdict, below every layer: how bad a finding is ([`Severity`]), what the
//! harness should do ([`Decision`]) and how approve findings become decisions ([`Mode`]).
//! Only the policy layer (`policy`) turns findings into a decision.

use serde::{Deserialize, Serialize};

/// How bad a finding is: `Block` is unrecoverable (deny in every mode), `Approve` needs a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Approve,
    Block,
}

/// What the harness should do with the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Allow,
    Ask,
    Deny,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Deny => "deny",
        }
    }
}

/// How `approve` findings become decisions (the config's `mode`, `--mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Every approve finding asks a person (the default).
    #[default]
    Manual,
    /// Findings shellgate rates low-risk are allowed; an optional assessor decides the rest.
    Smart,
    /// Approve findings are allowed; block findings and deny globs still deny.
    Off,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Manual => "manual",
            Mode::Smart => "smart",
            Mode::Off => "off",
        }
    }

    /// Higher is stricter: off < smart < manual.
    pub(crate) fn strictness(self) -> u8 {
        match self {
            Mode::Off => 0,
            Mode::Smart => 1,
            Mode::Manual => 2,
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "manual" => Some(Mode::Manual),
            "smart" => Some(Mode::Smart),
            "off" => Some(Mode::Off),
            _ => None,
        }
    }
}
