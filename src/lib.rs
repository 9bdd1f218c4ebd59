//! shellgate: decides whether an AI agent's shell command may run (allow / ask / deny) by
//! parsing it as bash, lowering it to the commands bash would execute, and matching rules.
//!
//! The pipeline is one-way: [`normalize`] → [`syntax`] → [`model`] → [`graph`] →
//! [`rules`] (with [`fallback`] for what does not parse) → findings ([`analyze`]) →
//! decision ([`policy`], the only place findings become allow / ask / deny).
//!
//! ```
//! use shellgate::{Context, Decision, analyze, policy};
//! let a = analyze("rm -rf ~", &Context::fixture());
//! assert_eq!(a.findings[0].rule, "SG1001");
//! // Without a config: block → deny, any other finding → ask, nothing found → allow.
//! assert_eq!(policy::decide_default(&a), Decision::Deny);
//! ```
//!
//! With a user's config, approvals and ledger, front ends call [`policy::evaluate`].
//!
//! Base types sit below every layer in their own modules ([`span`], [`verdict`],
//! [`context`]) and are re-exported here, so `shellgate::{Span, Severity, Decision, Mode,
//! Context}` is the public face and rules name them as `crate::Span` and so on.

pub mod analysis;
pub mod api;
pub mod audit;
pub mod boundary;
pub mod checkpoint;
pub mod context;
pub mod corpus;
pub mod evidence;
pub mod fallback;
pub mod glob;
pub mod graph;
pub mod hooks;
pub mod model;
pub mod normalize;
pub mod policy;
pub mod render;
pub mod report;
pub mod rules;
pub mod scan;
pub mod span;
pub mod syntax;
pub mod text;
pub mod verdict;

pub use analysis::{Analysis, MAX_COMMAND_BYTES, analyze};
pub use context::{Context, Environment};
pub use model::LowerLimits;
pub use rules::Finding;
pub use span::Span;
pub use verdict::{Decision, Mode, Severity};
