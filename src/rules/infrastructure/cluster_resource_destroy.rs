//! SG8002: deleting, draining, scaling or cordoning cluster resources (`kubectl delete`,
//! `helm uninstall`).

use super::verb_words;
use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `kubectl`/`oc`/`microk8s kubectl`/`k3s kubectl` `delete`, `drain`, `scale`,
    /// `cordon`, `replace --force`, and `helm uninstall|delete|del|un`. Global options
    /// (`-n ns`, `--context c`, `--kubeconfig f`) do not hide the verb. `get`, `describe`,
    /// `logs`, `apply` and `create` are fine.
    /// `--dry-run`/`--dry-run=client|server` runs change nothing and are not flagged.
    ///
    /// ## Why is this bad?
    /// Deleting or scaling workloads takes services down, and `drain` evicts every pod from
    /// a node; the cluster may be production.
    ///
    /// ## Example
    /// ```sh
    /// kubectl -n prod delete deployment api   # approve
    /// kubectl get pods                        # allow
    /// ```
    ///
    /// ## Known limitations
    /// `kubectl apply --prune` and changes made through manifests are not judged.
    pub struct ClusterResourceDestroy;
    code: "SG8002",
    name: "cluster-resource-destroy",
    severity: Approve,
    category: Infrastructure,
    hermes: [],
    programs: ["kubectl", "oc", "microk8s", "k3s", "helm"],
    summary: "Deletes, drains, scales or cordons cluster resources",
    pass: ["kubectl get pods", "kubectl -n prod describe pod x", "kubectl logs x", "kubectl apply -f k8s/", "helm list", "helm install x chart", "oc get pods"],
    fail: ["kubectl delete pod x", "kubectl -n prod delete deployment api", "kubectl --context prod drain node1 --ignore-daemonsets", "kubectl scale deploy api --replicas=0", "kubectl cordon node1", "helm uninstall release", "helm delete release", "oc delete project p", "microk8s kubectl delete ns x"],
}

fn destroys(cmd: &Command) -> Option<String> {
    let name = cmd.name.as_deref()?;
    let mut w = verb_words(cmd, 3);
    let prog = match name {
        "microk8s" | "k3s" => {
            if w.first().map(String::as_str) != Some("kubectl") {
                return None;
            }
            w.remove(0);
            format!("{name} kubectl")
        }
        n => n.to_string(),
    };
    let verb = w.first()?.as_str();
    let hit = if prog == "helm" {
        matches!(verb, "uninstall" | "delete" | "del" | "un")
    } else {
        matches!(verb, "delete" | "drain" | "scale" | "cordon")
            || (verb == "replace" && cmd.arg_texts().iter().any(|a| a == "--force"))
    };
    hit.then(|| format!("`{prog} {verb}` changes or removes cluster resources"))
}

impl Rule for ClusterResourceDestroy {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if super::dry_run(cmd) {
            return;
        }
        if let Some(m) = destroys(cmd) {
            out.push(Finding::on(&Self::META, cmd, format!("{m}{}", route(cmd))));
        }
    }
}
