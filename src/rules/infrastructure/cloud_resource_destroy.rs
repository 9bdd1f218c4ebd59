//! SG8001: deleting or stopping cloud resources (`aws ... delete-*`, `gcloud ... delete`,
//! `az ... delete`, `doctl ... delete`, `eksctl delete`, `gsutil rm`).

use super::{has_long, verb_words};
use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags cloud CLI calls that delete or stop resources: `aws <service>
    /// delete-*|terminate-*|stop-*|deregister-*|purge-*`, `aws s3 rm|rb|mv`, `aws s3 sync
    /// --delete`; `gcloud ... delete|stop|reset` and `gcloud storage rm`; `az ...
    /// delete|stop|deallocate|purge`; `doctl ... delete|rm|del`; `eksctl delete ...`;
    /// `gsutil rm|rb` and `gsutil rsync -d`. Global options (`--profile p`, `--region r`,
    /// `-m`) do not hide the verb. Creating, listing, describing and logging in are fine.
    /// `--dry-run` runs change nothing and are not flagged.
    ///
    /// ## Why is this bad?
    /// Cloud deletions are immediate and usually unrecoverable, and they may hit shared or
    /// production resources that outlive the agent's task.
    ///
    /// ## Example
    /// ```sh
    /// aws ec2 terminate-instances --instance-ids i-123   # approve
    /// aws s3 ls                                          # allow
    /// ```
    ///
    /// ## Known limitations
    /// Calls made through SDKs, `curl` to the cloud API, or `aws ... --cli-input-json` files
    /// are not judged.
    pub struct CloudResourceDestroy;
    code: "SG8001",
    name: "cloud-resource-destroy",
    severity: Approve,
    category: Infrastructure,
    hermes: [],
    programs: ["aws", "gcloud", "az", "doctl", "eksctl", "gsutil"],
    summary: "Deletes or stops cloud resources",
    pass: ["aws s3 ls", "aws ec2 describe-instances", "gcloud compute instances list", "az vm list", "doctl compute droplet list", "eksctl get cluster", "gsutil ls gs://b", "aws s3 cp f s3://b/f", "gcloud auth login"],
    fail: ["aws ec2 terminate-instances --instance-ids i-1", "aws --profile prod s3 rm s3://b/k", "aws s3 rb s3://b --force", "aws rds delete-db-instance --db-instance-identifier x", "aws ec2 stop-instances --instance-ids i-1", "aws s3 sync . s3://b --delete", "gcloud compute instances delete vm1", "gcloud storage rm gs://b/k", "az group delete -n rg", "az vm deallocate -g rg -n vm", "doctl compute droplet delete d1", "eksctl delete cluster --name c", "gsutil -m rm -r gs://b/p"],
}

fn destroys(cmd: &Command) -> Option<String> {
    let name = cmd.name.as_deref()?;
    let hit = match name {
        "aws" => {
            let w = verb_words(cmd, 2);
            let (svc, op) = (
                w.first()?.as_str(),
                w.get(1).map(String::as_str).unwrap_or(""),
            );
            let destructive = [
                "delete-",
                "batch-delete-",
                "terminate-",
                "stop-",
                "deregister-",
                "purge-",
            ]
            .iter()
            .any(|p| op.starts_with(p))
                || matches!(op, "delete" | "terminate" | "stop" | "purge")
                || (svc == "s3"
                    && (matches!(op, "rm" | "rb" | "mv")
                        || (op == "sync" && has_long(cmd, "delete"))));
            destructive.then(|| format!("aws {svc} {op}"))
        }
        "gcloud" => {
            let w = verb_words(cmd, 6);
            w.iter()
                .position(|v| {
                    matches!(v.as_str(), "delete" | "stop" | "reset")
                        || (v == "rm" && w.first().is_some_and(|f| f == "storage"))
                })
                .map(|i| format!("gcloud {}", w[..=i].join(" ")))
        }
        "az" => {
            let w = verb_words(cmd, 5);
            w.iter()
                .position(|v| {
                    matches!(
                        v.as_str(),
                        "delete" | "stop" | "deallocate" | "purge" | "delete-batch"
                    )
                })
                .map(|i| format!("az {}", w[..=i].join(" ")))
        }
        "doctl" => {
            let w = verb_words(cmd, 5);
            // `d` is also the alias of `databases` and `droplet`: it means delete only after
            // a resource word (`doctl compute d d ID`, `doctl apps d ID`).
            w.iter()
                .enumerate()
                .position(|(i, v)| {
                    matches!(v.as_str(), "delete" | "rm" | "del" | "destroy")
                        || (v == "d" && i >= 1 && w[i - 1] != "compute")
                })
                .map(|i| format!("doctl {}", w[..=i].join(" ")))
        }
        "eksctl" => {
            let w = verb_words(cmd, 2);
            w.first()
                .filter(|v| matches!(v.as_str(), "delete" | "drain"))
                .map(|v| format!("eksctl {v} {}", w.get(1).cloned().unwrap_or_default()))
        }
        "gsutil" => {
            let w = verb_words(cmd, 1);
            let v = w.first()?.as_str();
            // `gsutil [-m] rsync -d SRC DST`: `-d` after the verb deletes at the destination
            // (before it, `-d` is gsutil's debug flag).
            let verb_at = cmd.opts.operands.first().copied().unwrap_or(usize::MAX);
            let sync_delete = v == "rsync"
                && cmd
                    .opts
                    .all()
                    .any(|o| !o.long && o.name == "d" && o.word > verb_at);
            (matches!(v, "rm" | "rb") || sync_delete).then(|| format!("gsutil {v}"))
        }
        _ => None,
    }?;
    Some(format!("`{hit}` deletes or stops cloud resources"))
}

impl Rule for CloudResourceDestroy {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if super::dry_run(cmd) {
            return;
        }
        if let Some(m) = destroys(cmd) {
            out.push(Finding::on(&Self::META, cmd, format!("{m}{}", route(cmd))));
        }
    }
}
