//! The static shell environment during lowering: known variables, working directory,
//! positional parameters and defined functions, scoped the way bash scopes them.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use super::source::FnBody;

/// What is known about a variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarValue {
    Known(String),
    /// Set, but to a value only known at run time.
    Unknown(String),
}

/// Variables, working directory and functions visible at one point of the script.
///
/// The variable tables are shared between copies (every command's child environment, every
/// branch snapshot) and copied only when one copy changes them: most commands set nothing.
#[derive(Debug, Clone, Default)]
pub struct Env {
    vars: Rc<BTreeMap<String, VarValue>>,
    exported: Rc<BTreeSet<String>>,
    /// Known working directory; `None` when it cannot be known statically.
    pub cwd: Option<String>,
    pub dir_stack: Vec<Option<String>>,
    /// `$1`, `$2`, ... when known (inside `bash -c '..' _ a b` or a function call).
    pub positional: Option<Vec<VarValue>>,
    /// `$0` when known.
    pub arg0: Option<String>,
    pub home: Option<String>,
    pub functions: BTreeMap<String, Rc<FnBody>>,
}

impl Env {
    pub fn new(
        vars: impl IntoIterator<Item = (String, String)>,
        cwd: Option<String>,
        home: Option<String>,
    ) -> Env {
        let vars: BTreeMap<String, VarValue> = vars
            .into_iter()
            .map(|(k, v)| (k, VarValue::Known(v)))
            .collect();
        Env {
            exported: Rc::new(vars.keys().cloned().collect()),
            vars: Rc::new(vars),
            cwd,
            dir_stack: Vec::new(),
            positional: None,
            arg0: None,
            home,
            functions: BTreeMap::new(),
        }
    }

    /// [`Env::new`] for the context's variables, reusing this thread's tables while the
    /// context stays the same: a batch or a hook judges every command under one context,
    /// and copies of the shared tables are only made by a script that assigns.
    pub fn from_context(
        vars: &BTreeMap<String, String>,
        cwd: Option<String>,
        home: Option<String>,
    ) -> Env {
        type Base = (BTreeMap<String, String>, Env);
        thread_local! {
            static BASE: std::cell::RefCell<Option<Base>> = const { std::cell::RefCell::new(None) };
        }
        let shared = BASE.with(|b| {
            let mut b = b.try_borrow_mut().ok()?;
            if b.as_ref().is_none_or(|(v, _)| v != vars) {
                let env = Env::new(vars.iter().map(|(k, v)| (k.clone(), v.clone())), None, None);
                *b = Some((vars.clone(), env));
            }
            b.as_ref()
                .map(|(_, e)| (Rc::clone(&e.vars), Rc::clone(&e.exported)))
        });
        match shared {
            Some((vars, exported)) => Env {
                vars,
                exported,
                cwd,
                home,
                ..Env::default()
            },
            None => Env::new(vars.iter().map(|(k, v)| (k.clone(), v.clone())), cwd, home),
        }
    }

    /// The variable's value; `None` when nothing is known about it (not set by the script
    /// and not in the context), which bash may see as empty or as anything the caller's
    /// environment holds.
    pub fn get(&self, name: &str) -> Option<&VarValue> {
        self.vars.get(name)
    }

    pub fn set(&mut self, name: &str, value: VarValue) {
        Rc::make_mut(&mut self.vars).insert(name.to_string(), value);
    }

    pub fn export(&mut self, name: &str) {
        if !self.exported.contains(name) {
            Rc::make_mut(&mut self.exported).insert(name.to_string());
        }
    }

    /// The environment a child process starts with: exported variables only (none after
    /// `env -i`), the same directory, no positional parameters or functions.
    pub fn child(&self, clear: bool) -> Env {
        let vars = if clear {
            Rc::default()
        } else if self.all_exported() {
            Rc::clone(&self.vars)
        } else {
            Rc::new(
                self.vars
                    .iter()
                    .filter(|(k, _)| self.exported.contains(*k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            )
        };
        Env {
            vars,
            exported: if clear {
                Rc::default()
            } else {
                Rc::clone(&self.exported)
            },
            cwd: self.cwd.clone(),
            dir_stack: Vec::new(),
            positional: None,
            arg0: None,
            home: self.home.clone(),
            functions: BTreeMap::new(),
        }
    }

    /// Every variable is exported (the usual case: the context's variables and nothing
    /// assigned). Both tables are sorted the same way, so one walk over them.
    fn all_exported(&self) -> bool {
        let mut exported = self.exported.iter();
        self.vars.keys().all(|k| exported.any(|e| e == k))
    }

    pub fn unset(&mut self, name: &str) {
        Rc::make_mut(&mut self.vars).insert(name.to_string(), VarValue::Known(String::new()));
    }

    /// After code that may or may not have run (a loop body): `self` is the state after it,
    /// `before` the state before; keep what both agree on.
    pub fn merge_maybe_ran(&mut self, before: Env) {
        let after = std::mem::replace(self, before);
        self.merge_from(&[after]);
    }

    /// After branches that may or may not have run: keep what all agree on, forget the rest.
    pub fn merge_from(&mut self, others: &[Env]) {
        // Branches that assigned nothing still share this table: nothing to compare.
        if !others.iter().all(|o| Rc::ptr_eq(&o.vars, &self.vars)) {
            let mut names: Vec<&String> = self.vars.keys().collect();
            for o in others {
                names.extend(o.vars.keys());
            }
            names.sort();
            names.dedup();
            let differ: Vec<String> = names
                .into_iter()
                .filter(|n| {
                    let mine = self.vars.get(*n);
                    !others.iter().all(|o| o.vars.get(*n) == mine)
                })
                .cloned()
                .collect();
            for n in differ {
                let why = format!("${n} is assigned in a branch that may not run");
                Rc::make_mut(&mut self.vars).insert(n, VarValue::Unknown(why));
            }
        }
        if others.iter().any(|o| o.cwd != self.cwd) {
            self.cwd = None;
        }
        for o in others {
            for (k, f) in &o.functions {
                self.functions.entry(k.clone()).or_insert_with(|| f.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(v: &str) -> VarValue {
        VarValue::Known(v.to_string())
    }

    #[test]
    fn a_child_sees_only_exported_variables_and_shares_the_table_when_all_are() {
        let mut e = Env::new([("B".into(), "2".into())], None, None);
        e.export("A");
        assert!(
            e.all_exported(),
            "an exported name without a value is no obstacle"
        );
        assert!(Rc::ptr_eq(&e.child(false).vars, &e.vars));
        for unexported in ["A0", "C", "0"] {
            let mut x = e.clone();
            x.set(unexported, known("x"));
            assert!(!x.all_exported(), "{unexported}");
            let c = x.child(false);
            assert_eq!(c.get(unexported), None);
            assert_eq!(c.get("B"), Some(&known("2")));
            x.export(unexported);
            assert!(x.all_exported(), "{unexported}");
            assert_eq!(x.child(false).get(unexported), Some(&known("x")));
        }
        assert_eq!(e.child(true).get("B"), None);
    }
}
