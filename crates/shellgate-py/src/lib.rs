//! `shellgate._native`: the Python face of the shellgate library. Every decision comes from
//! `shellgate::api` (the same path `shellgate check` takes), the GIL is released while
//! commands are judged, and anything that could not be judged raises, never allows.
//! The typed Python surface is `python/shellgate/` (`__init__.py`, `_native.pyi`).

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

use shellgate::api::{self, CheckOptions, Checker, ConfigChoice};
use shellgate::hooks::{Harness, handle, judge::HookEnv, judge::judge};

create_exception!(
    _native,
    ShellgateError,
    PyException,
    "Base of every shellgate error: no decision was made, so the command must not run."
);
create_exception!(
    _native,
    ConfigError,
    ShellgateError,
    "A config file could not be read or parsed."
);
create_exception!(
    _native,
    InputError,
    ShellgateError,
    "The command (or hook event) is not text shellgate can judge: not UTF-8, lone surrogates."
);
create_exception!(
    _native,
    ArgumentError,
    ShellgateError,
    "An option is not usable: an unknown mode, harness or a conflicting combination."
);

/// One finding: which rule fired, where, and why.
#[pyclass(frozen, get_all, module = "shellgate._native")]
#[derive(Clone)]
struct Finding {
    /// The rule code (`SG1001`).
    rule: String,
    /// The rule's kebab name (`recursive-delete-root`).
    name: String,
    /// `"block"` (never allowed) or `"approve"` (a person must approve).
    severity: &'static str,
    message: String,
    /// `(start, end)` in characters of the command, so `command[start:end]` is the text.
    span: (usize, usize),
    /// `(start, end)` in UTF-8 bytes, as the CLI prints it.
    byte_span: (usize, usize),
    /// The pipeline the finding is in, whitespace collapsed: the approval key's target.
    target: String,
    /// The Hermes Agent approval key this rule corresponds to, if any.
    hermes_key: Option<&'static str>,
}

#[pymethods]
impl Finding {
    fn __repr__(&self) -> String {
        format!(
            "Finding(rule={:?}, name={:?}, severity={:?}, span={:?})",
            self.rule, self.name, self.severity, self.span
        )
    }
}

/// The decision on one command and everything behind it.
#[pyclass(frozen, get_all, module = "shellgate._native")]
struct Verdict {
    command: String,
    /// `"allow"`, `"ask"` or `"deny"`.
    decision: &'static str,
    findings: Vec<Finding>,
    /// Text for the person or the model: what was decided and why.
    reason: String,
    /// What decided it (`rule`, `deny-glob`, `no-findings`, `allowlist`, `ask`, ...).
    decided_by: &'static str,
    /// The mode in force (`manual`, `smart`, `off`).
    mode: &'static str,
}

#[pymethods]
impl Verdict {
    /// The result as `shellgate check --jsonl` writes it for this command (byte spans).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("cmd", &self.command)?;
        d.set_item("decision", self.decision)?;
        let findings = PyList::empty(py);
        for f in &self.findings {
            let fd = PyDict::new(py);
            fd.set_item("rule", &f.rule)?;
            fd.set_item("name", &f.name)?;
            fd.set_item("severity", f.severity)?;
            fd.set_item("message", &f.message)?;
            fd.set_item("span", [f.byte_span.0, f.byte_span.1])?;
            findings.append(fd)?;
        }
        d.set_item("findings", findings)?;
        d.set_item("decided_by", self.decided_by)?;
        d.set_item("reason", &self.reason)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let rules: Vec<&str> = self.findings.iter().map(|f| f.rule.as_str()).collect();
        format!(
            "Verdict(decision={:?}, rules={:?}, command={:?})",
            self.decision, rules, self.command
        )
    }
}

/// Characters before byte `at` of `s` (a span end inside a character counts it).
fn char_offset(s: &str, at: usize) -> usize {
    let at = at.min(s.len());
    s.char_indices().take_while(|(i, _)| *i < at).count()
}

fn severity(s: shellgate::Severity) -> &'static str {
    match s {
        shellgate::Severity::Block => "block",
        shellgate::Severity::Approve => "approve",
    }
}

fn verdict(v: &shellgate::policy::Verdict) -> Verdict {
    let cmd = &v.analysis.command;
    let findings = v
        .findings
        .iter()
        .zip(&v.keys)
        .map(|(f, k)| Finding {
            rule: f.rule.to_string(),
            name: f.name.to_string(),
            severity: severity(f.severity),
            message: f.message.clone(),
            span: (char_offset(cmd, f.span.start), char_offset(cmd, f.span.end)),
            byte_span: (f.span.start, f.span.end),
            target: k.target.clone(),
            hermes_key: f.hermes.first().copied(),
        })
        .collect();
    Verdict {
        command: cmd.clone(),
        decision: v.decision.as_str(),
        findings,
        reason: v.reason.clone(),
        decided_by: v.decided_by.as_str(),
        mode: v.mode.as_str(),
    }
}

/// A command from Python: `str` (no lone surrogates) or UTF-8 `bytes`.
fn text(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    if let Ok(s) = obj.cast::<PyString>() {
        return s.to_str().map(str::to_string).map_err(|_| {
            InputError::new_err(format!(
                "the {what} has characters that are not valid Unicode (lone surrogates); it was not judged"
            ))
        });
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return String::from_utf8(b.as_bytes().to_vec()).map_err(|e| {
            InputError::new_err(format!(
                "the {what} is not valid UTF-8 (at byte {}); it was not judged",
                e.utf8_error().valid_up_to()
            ))
        });
    }
    Err(PyTypeError::new_err(format!(
        "the {what} must be str or bytes, not {}",
        obj.get_type().name()?
    )))
}

/// `config`: `None`/`True` the default files, `False` none, else a path.
fn config_choice(c: &Bound<'_, PyAny>) -> PyResult<ConfigChoice> {
    if c.is_none() {
        return Ok(ConfigChoice::Default);
    }
    if let Ok(b) = c.extract::<bool>() {
        return Ok(if b {
            ConfigChoice::Default
        } else {
            ConfigChoice::None
        });
    }
    let path: std::path::PathBuf = c.extract().map_err(|_| {
        PyTypeError::new_err("config must be a path (str or os.PathLike), None, True or False")
    })?;
    Ok(ConfigChoice::File(path))
}

fn api_err(e: api::ApiError) -> PyErr {
    match e {
        api::ApiError::Config(m) => ConfigError::new_err(m),
        api::ApiError::Argument(m) => ArgumentError::new_err(m),
    }
}

/// The keyword options of `check`, `explain` and `check_many`, as Python passes them.
#[derive(Default)]
struct Opts {
    opts: CheckOptions,
    jobs: Option<usize>,
    color: bool,
}

/// Keywords each function takes besides the shared ones.
const SHARED: &[&str] = &[
    "cwd",
    "home",
    "mode",
    "config",
    "session",
    "harness",
    "unattended",
];

/// Read the keyword arguments: every name must be one `func` takes.
fn opts(func: &str, extra: &[&str], kw: Option<&Bound<'_, PyDict>>) -> PyResult<Opts> {
    let mut o = Opts::default();
    let Some(kw) = kw else {
        return Ok(o);
    };
    for (k, v) in kw.iter() {
        let key: String = k.extract()?;
        if !SHARED.contains(&key.as_str()) && !extra.contains(&key.as_str()) {
            return Err(PyTypeError::new_err(format!(
                "{func}() got an unexpected keyword argument {key:?}"
            )));
        }
        let none = v.is_none();
        let s = || -> PyResult<Option<String>> {
            if none {
                Ok(None)
            } else {
                Ok(Some(v.extract::<String>().map_err(|_| {
                    PyTypeError::new_err(format!("{func}(): {key} must be str or None"))
                })?))
            }
        };
        match key.as_str() {
            "cwd" => o.opts.cwd = s()?,
            "home" => o.opts.home = s()?,
            "session" => o.opts.session = s()?,
            "harness" => o.opts.harness = s()?,
            "mode" => {
                o.opts.mode = s()?
                    .as_deref()
                    .map(api::parse_mode)
                    .transpose()
                    .map_err(api_err)?
            }
            "config" => o.opts.config = config_choice(&v)?,
            "unattended" => o.opts.unattended = v.is_truthy()?,
            "color" => o.color = v.is_truthy()?,
            "jobs" => {
                o.jobs = if none {
                    None
                } else {
                    Some(v.extract::<usize>().map_err(|_| {
                        ArgumentError::new_err("jobs must be a positive int or None")
                    })?)
                };
                if o.jobs == Some(0) {
                    return Err(ArgumentError::new_err("jobs must be at least 1"));
                }
            }
            _ => unreachable_key(&key)?,
        }
    }
    Ok(o)
}

/// A keyword accepted above but not read: a bug in this module, reported as an error.
fn unreachable_key(key: &str) -> PyResult<()> {
    Err(ShellgateError::new_err(format!(
        "internal error: keyword {key:?} was not read"
    )))
}

fn checker(py: Python<'_>, opts: CheckOptions) -> PyResult<Checker> {
    py.detach(|| Checker::new(opts)).map_err(api_err)
}

/// Decide one command exactly as `shellgate check` does with the same options.
#[pyfunction]
#[pyo3(signature = (command, **options))]
fn check(
    py: Python<'_>,
    command: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Verdict> {
    let cmd = text(command, "command")?;
    let o = opts("check", &[], options)?;
    let c = checker(py, o.opts)?;
    let v = py.detach(|| c.check(&cmd));
    Ok(verdict(&v))
}

/// `shellgate explain`'s text report: the decision, findings underlined, the evidence.
#[pyfunction]
#[pyo3(signature = (command, **options))]
fn explain(
    py: Python<'_>,
    command: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let cmd = text(command, "command")?;
    let o = opts("explain", &["color"], options)?;
    let color = o.color;
    let c = checker(py, o.opts)?;
    Ok(py.detach(|| {
        let v = c.check(&cmd);
        api::explain_text(&v, c.context().cwd.as_deref(), color)
    }))
}

/// Decide many commands on `jobs` threads (default: every core), the GIL released; the
/// verdicts come back in input order.
#[pyfunction]
#[pyo3(signature = (commands, **options))]
fn check_many(
    py: Python<'_>,
    commands: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<Verdict>> {
    if commands.is_instance_of::<PyString>() || commands.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "check_many takes an iterable of commands, not one command",
        ));
    }
    let o = opts("check_many", &["jobs"], options)?;
    let mut cmds = Vec::new();
    for (i, item) in commands.try_iter()?.enumerate() {
        cmds.push(text(&item?, &format!("command at index {i}"))?);
    }
    let jobs = o.jobs;
    let c = checker(py, o.opts)?;
    let vs = py.detach(|| c.check_many(&cmds, jobs));
    Ok(vs.iter().map(verdict).collect())
}

/// Answer one hook event in-process, as `shellgate hook HARNESS` would: returns
/// `(stdout, stderr, block)`, `block` standing for the hook's blocking exit status.
#[pyfunction]
#[pyo3(signature = (harness, event, *, own_binary=None, home=None))]
fn hook(
    py: Python<'_>,
    harness: &str,
    event: &Bound<'_, PyAny>,
    own_binary: Option<String>,
    home: Option<String>,
) -> PyResult<(String, String, bool)> {
    let h = Harness::from_name(harness).ok_or_else(|| {
        ArgumentError::new_err(format!(
            "unknown harness {harness:?}; use one of claude, codex, gemini, copilot, hermes, hermes-plugin"
        ))
    })?;
    let bytes: Vec<u8> = if let Ok(b) = event.cast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else {
        text(event, "hook event")?.into_bytes()
    };
    let reply = py.detach(|| {
        let mut env = HookEnv::from_process();
        env.own_binary = own_binary;
        if home.is_some() {
            // Hermes's home follows the home given, as for `--home`.
            env.process.home = home;
            env.process.hermes_home = None;
        }
        handle(h, &bytes, &|ev| judge(h, ev, &env))
    });
    Ok((reply.stdout, reply.stderr, reply.block))
}

/// The version of the library this module was built from.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// The Hermes Agent keys shellgate knows (unconditional tier, approval tier, detectors).
#[pyfunction]
fn hermes_keys() -> Vec<&'static str> {
    shellgate::rules::hermes::HERMES_KEYS.to_vec()
}

/// Rule code → JSON of its metadata, for tools that show the catalog.
#[pyfunction]
fn rules_json() -> PyResult<String> {
    let metas: Vec<_> = shellgate::rules::RULES
        .iter()
        .map(|r| {
            let m = r.meta();
            serde_json::json!({
                "rule": m.code, "name": m.name, "severity": severity(m.severity),
                "hermes": m.hermes,
            })
        })
        .collect();
    serde_json::to_string(&metas).map_err(|e| ShellgateError::new_err(e.to_string()))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ShellgateError", py.get_type::<ShellgateError>())?;
    m.add("ConfigError", py.get_type::<ConfigError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("ArgumentError", py.get_type::<ArgumentError>())?;
    m.add_class::<Verdict>()?;
    m.add_class::<Finding>()?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(check_many, m)?)?;
    m.add_function(wrap_pyfunction!(hook, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(hermes_keys, m)?)?;
    m.add_function(wrap_pyfunction!(rules_json, m)?)?;
    Ok(())
}
