//! The rule engine: the one registry list of rules, rules indexed by the programs they
//! apply to, findings with spans and evidence, and the analysis/fallback findings.

pub mod analysis;
pub mod containers;
mod declare;
pub mod disks;
pub mod filesystem;
pub mod git;
pub mod hermes;
pub mod infrastructure;
pub mod interpreters;
pub mod packages;
pub mod permissions;
pub mod processes;
pub mod remote_code;
pub mod self_protection;
pub mod sensitive_writes;
pub mod sql;
pub mod system;
pub mod util;

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Serialize;

use crate::graph::Flow;
use crate::model::{CmdId, Command, Script};
use crate::normalize::Normalized;
use crate::{Context, Severity, Span};

/// Rule categories (one folder each under `src/rules/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Analysis,
    Filesystem,
    Permissions,
    Disks,
    Sql,
    SensitiveWrites,
    Processes,
    System,
    SelfProtection,
    Containers,
    Git,
    RemoteCode,
    Interpreters,
    Packages,
    Infrastructure,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Analysis => "analysis",
            Category::Filesystem => "filesystem",
            Category::Permissions => "permissions",
            Category::Disks => "disks",
            Category::Sql => "sql",
            Category::SensitiveWrites => "sensitive_writes",
            Category::Processes => "processes",
            Category::System => "system",
            Category::SelfProtection => "self_protection",
            Category::Containers => "containers",
            Category::Git => "git",
            Category::RemoteCode => "remote_code",
            Category::Interpreters => "interpreters",
            Category::Packages => "packages",
            Category::Infrastructure => "infrastructure",
        }
    }
}

/// A rule's metadata, docs and examples: what `shellgate rules` prints.
#[derive(Debug, Serialize)]
pub struct RuleMeta {
    /// Stable code, never reused (`SG1001`).
    pub code: &'static str,
    /// Kebab-case name of the hazard.
    pub name: &'static str,
    pub severity: Severity,
    pub category: Category,
    /// Hermes Agent approval keys this rule corresponds to.
    pub hermes: &'static [&'static str],
    /// Program names the rule looks at; empty means it looks at the whole script.
    pub programs: &'static [&'static str],
    pub summary: &'static str,
    /// The rule's `///` docs: What it does / Why is this bad? / Example / Known limitations.
    pub docs: &'static str,
    /// Commands this rule must not flag.
    pub pass: &'static [&'static str],
    /// Commands this rule must flag.
    pub fail: &'static [&'static str],
}

/// What a rule sees.
pub struct Cx<'a> {
    pub script: &'a Script,
    pub flow: &'a Flow,
    pub ctx: &'a Context,
    pub normalized: &'a Normalized,
    pub original: &'a str,
}

/// A rule's metadata; implemented by `declare_rule!`.
pub trait Meta {
    fn meta(&self) -> &'static RuleMeta;
}

/// A structural rule.
pub trait Rule: Meta + Sync + Send {
    /// Called for every command whose program is in `meta().programs`.
    fn check_command(&self, _cx: &Cx, _cmd: &Command, _out: &mut Vec<Finding>) {}
    /// Called once per script (rules with no program list, graph rules).
    fn check_script(&self, _cx: &Cx, _out: &mut Vec<Finding>) {}
}

/// One reason a command is risky.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub rule: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub category: Category,
    pub message: String,
    pub span: Span,
    /// The command the finding is about, for explain's evidence chain.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cmd: Option<CmdId>,
    /// Extra evidence lines (a graph path, a decoded payload, ...).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hermes: Vec<&'static str>,
}

impl Finding {
    /// A finding of `meta` about `cmd`.
    pub fn on(meta: &'static RuleMeta, cmd: &Command, message: impl Into<String>) -> Finding {
        Finding {
            cmd: Some(cmd.id),
            ..Finding::at(meta, cmd.span, message)
        }
    }

    pub fn at(meta: &'static RuleMeta, span: Span, message: impl Into<String>) -> Finding {
        Finding {
            rule: meta.code,
            name: meta.name,
            severity: meta.severity,
            category: meta.category,
            message: message.into(),
            span,
            cmd: None,
            evidence: Vec::new(),
            hermes: meta.hermes.first().copied().into_iter().collect(),
        }
    }

    pub fn with_severity(mut self, s: Severity) -> Finding {
        self.severity = s;
        self
    }

    pub fn with_evidence(mut self, e: impl Into<String>) -> Finding {
        self.evidence.push(e.into());
        self
    }

    pub fn with_span(mut self, s: Span) -> Finding {
        self.span = s;
        self
    }
}

/// The registry: every rule, in code order (`tests/catalog.rs` checks it). `rules`, `explain`,
/// docs, tests and [`run`] read this; rules with `programs` are also indexed by program.
pub static RULES: &[&dyn Rule] = &[
    &analysis::UnparsedSyntax,
    &analysis::AnalysisLimit,
    &analysis::InternalError,
    &analysis::FallbackPattern,
    &analysis::HiddenControls,
    &analysis::ParseDistrusted,
    &filesystem::recursive_delete_critical::RecursiveDeleteCritical,
    &filesystem::recursive_delete_maybe_root::RecursiveDeleteMaybeRoot,
    &processes::fork_bomb::ForkBomb,
    &processes::kill_all_processes::KillAllProcesses,
    &disks::block_device_write::BlockDeviceWrite,
    &system::power_state::PowerState,
    &permissions::recursive_perm_system::RecursivePermissionSystem,
    &permissions::sudo_stdin_password::SudoStdinPassword,
    &filesystem::recursive_delete::RecursiveDelete,
    &filesystem::delete_protected_path::DeleteProtectedPath,
    &filesystem::find_delete::FindDelete,
    &filesystem::xargs_rm::XargsRm,
    &filesystem::shred_files::ShredFiles,
    &filesystem::windows_delete::WindowsDelete,
    &permissions::world_writable::WorldWritable,
    &permissions::chown_root::ChownRoot,
    &permissions::chmod_exec::ChmodThenExecute,
    &disks::format_image::FormatImage,
    &disks::partition_write::PartitionWrite,
    &disks::volume_removal::VolumeRemoval,
    &disks::dd_to_file::DdToFile,
    &processes::service_stop::ServiceStop,
    &processes::force_kill::ForceKill,
    &processes::kill_dynamic_pid::KillDynamicPid,
    &processes::crontab_remove::CrontabRemove,
    &self_protection::kill_harness::KillHarness,
    &self_protection::gateway_stop::GatewayStop,
    &self_protection::gateway_detached::GatewayDetached,
    &self_protection::launchd_stop::LaunchdStop,
    &self_protection::guard_loosen::GuardLoosen,
    &self_protection::undo_by_agent::UndoByAgent,
    &containers::lifecycle::ContainerLifecycle,
    &containers::daemon_redirect::DaemonRedirect,
    &containers::host_escape::HostEscape,
    &git::reset_hard::ResetHard,
    &git::force_push::ForcePush,
    &git::clean_force::CleanForce,
    &git::branch_force_delete::BranchForceDelete,
    &git::discard_changes::DiscardChanges,
    &git::stash_drop::StashDrop,
    &git::history_rewrite::HistoryRewrite,
    &git::sync_delete::SyncDelete,
    &remote_code::remote_content_executed::RemoteContentExecuted,
    &remote_code::decoded_content_executed::DecodedContentExecuted,
    &remote_code::runtime_code_string::RuntimeCodeString,
    &remote_code::dynamic_program_name::DynamicProgramName,
    &remote_code::exec_hook::ExecHook,
    &remote_code::reverse_shell::ReverseShell,
    &remote_code::secret_exfiltration::SecretExfiltration,
    &sensitive_writes::overwrite_sensitive::OverwriteSensitive,
    &sensitive_writes::copy_into_sensitive::CopyIntoSensitive,
    &sensitive_writes::in_place_edit_sensitive::InPlaceEditSensitive,
    &sql::destructive_sql::DestructiveSql,
    &interpreters::inline_code_capability::InlineCodeCapability,
    &packages::system_package_removal::SystemPackageRemoval,
    &packages::url_package_install::UrlPackageInstall,
    &packages::package_source_added::PackageSourceAdded,
    &infrastructure::cloud_resource_destroy::CloudResourceDestroy,
    &infrastructure::cluster_resource_destroy::ClusterResourceDestroy,
    &infrastructure::iac_destroy::IacDestroy,
    &infrastructure::firewall_change::FirewallChange,
    &infrastructure::boot_chain_change::BootChainChange,
    &infrastructure::disk_encryption_destroy::DiskEncryptionDestroy,
    &infrastructure::user_account_change::UserAccountChange,
    &infrastructure::destructive_verb::DestructiveVerb,
];

/// Rules by the program names they apply to.
static BY_PROGRAM: LazyLock<BTreeMap<&'static str, Vec<&'static dyn Rule>>> = LazyLock::new(|| {
    let mut m: BTreeMap<&'static str, Vec<&'static dyn Rule>> = BTreeMap::new();
    for r in RULES {
        for p in r.meta().programs {
            m.entry(p).or_default().push(*r);
        }
    }
    m
});

/// The rules that apply to commands of program `name` (none for most programs).
pub fn for_program(name: &str) -> &'static [&'static dyn Rule] {
    BY_PROGRAM.get(name).map_or(&[], Vec::as_slice)
}

/// The rules that judge the whole script, not one program's commands.
static SCRIPT_RULES: LazyLock<Vec<&'static dyn Rule>> = LazyLock::new(|| {
    RULES
        .iter()
        .copied()
        .filter(|r| r.meta().programs.is_empty())
        .collect()
});

/// Look a rule up by code or name.
pub fn find(id: &str) -> Option<&'static dyn Rule> {
    RULES
        .iter()
        .copied()
        .find(|r| r.meta().code.eq_ignore_ascii_case(id) || r.meta().name == id)
}

/// Run every rule over the script: for each command, the rules that name its program, in
/// registry order; then the rules that name no program, once over the whole script. The
/// decision depends on the findings, not on their order.
pub fn run(cx: &Cx) -> Vec<Finding> {
    let mut out = Vec::new();
    for cmd in &cx.script.commands {
        let Some(name) = cmd.name.as_deref() else {
            continue;
        };
        for r in for_program(name) {
            r.check_command(cx, cmd, &mut out);
        }
    }
    for r in SCRIPT_RULES.iter() {
        r.check_script(cx, &mut out);
    }
    // Identical findings (same rule, span and message) are kept once: nested lowering can see
    // a command twice (a function body where it is defined and where it is called). Findings
    // of one rule on one span that say different things are all kept.
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|f| seen.insert((f.rule, f.span, f.message.clone())));
    out
}

/// A finding of one of the analysis rules (limits, parse errors, internal errors).
pub fn analysis_finding(meta: &'static RuleMeta, message: String, span: Span) -> Finding {
    Finding::at(meta, span, message)
}

/// Scan text with the fallback catalog; hits become findings at `span`.
pub fn fallback_findings(text: &str, span: Span) -> Vec<Finding> {
    crate::fallback::scan(text)
        .into_iter()
        .map(|h| {
            let mut f = Finding::at(
                &analysis::FallbackPattern::META,
                span,
                format!(
                    "text shellgate could not analyse matches the fallback pattern `{}` ({})",
                    h.pattern_id, h.key
                ),
            )
            .with_severity(h.severity);
            f.hermes = vec![h.key];
            f
        })
        .collect()
}
