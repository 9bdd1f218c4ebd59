//! SG8003: destroying infrastructure-as-code stacks (`terraform destroy`, `pulumi destroy`).

use super::{has_long, verb_words};
use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `terraform`/`tofu`/`terragrunt` `destroy`, `apply -destroy`, `state rm`,
    /// `workspace delete` (also `terragrunt run-all destroy`); `pulumi destroy|down`,
    /// `pulumi stack rm`, `pulumi state delete`; `cdk destroy`, `cdktf destroy`,
    /// `serverless|sls remove`, `sam delete`, `vagrant destroy`. `plan`, `init`, `validate`,
    /// `apply` without `-destroy`, and `preview` are fine.
    ///
    /// ## Why is this bad?
    /// It tears down every resource in the stack, data stores included.
    ///
    /// ## Example
    /// ```sh
    /// terraform destroy -auto-approve   # approve
    /// terraform plan                    # allow
    /// ```
    ///
    /// ## Known limitations
    /// An `apply` of a configuration from which resources were removed also destroys them;
    /// that needs the plan, which shellgate does not read.
    pub struct IacDestroy;
    code: "SG8003",
    name: "iac-stack-destroy",
    severity: Approve,
    category: Infrastructure,
    hermes: [],
    programs: ["terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf", "serverless", "sls", "sam", "vagrant"],
    summary: "Destroys an infrastructure-as-code stack",
    pass: ["terraform plan", "terraform apply", "terraform init", "pulumi preview", "pulumi up", "cdk deploy", "vagrant up", "terraform state list"],
    fail: ["terraform destroy -auto-approve", "terraform -chdir=infra destroy", "terraform apply -destroy", "tofu destroy", "terraform state rm aws_s3_bucket.b", "terragrunt run-all destroy", "pulumi destroy --yes", "pulumi stack rm dev", "cdk destroy", "sls remove", "vagrant destroy -f"],
}

fn destroys(cmd: &Command) -> Option<String> {
    let name = cmd.name.as_deref()?;
    let w = verb_words(cmd, 3);
    let v0 = w.first().map(String::as_str).unwrap_or("");
    let v1 = w.get(1).map(String::as_str).unwrap_or("");
    let hit = match name {
        "terraform" | "tofu" | "terragrunt" => {
            let (v0, v1) = if matches!(v0, "run-all" | "run") {
                (v1, w.get(2).map(String::as_str).unwrap_or(""))
            } else {
                (v0, v1)
            };
            v0 == "destroy"
                || (v0 == "apply" && has_long(cmd, "destroy"))
                || (v0 == "state" && matches!(v1, "rm" | "remove"))
                || (v0 == "workspace" && v1 == "delete")
        }
        "pulumi" => {
            matches!(v0, "destroy" | "down" | "dn")
                || (v0 == "stack" && matches!(v1, "rm" | "remove"))
                || (v0 == "state" && v1 == "delete")
        }
        "cdk" | "cdktf" | "vagrant" => v0 == "destroy",
        "serverless" | "sls" => v0 == "remove",
        "sam" => v0 == "delete",
        _ => false,
    };
    hit.then(|| format!("`{name} {}` destroys infrastructure", w.join(" ")))
}

impl Rule for IacDestroy {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if let Some(m) = destroys(cmd) {
            out.push(Finding::on(&Self::META, cmd, format!("{m}{}", route(cmd))));
        }
    }
}
