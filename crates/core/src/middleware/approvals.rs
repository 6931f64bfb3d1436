//! Approvals: before a tool runs, the user's policy says allow, ask or never, per tool or per
//! group. "Ask" stops the run on that call until the user answers (see
//! [`crate::thread::PendingCall`]); "never" answers the call with an error the model can act
//! on, without running it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Middleware, RunInfo};
use crate::thread::ToolCall;
use crate::tools::ToolMeta;

/// Groups that ask by default: the shell runs arbitrary programs and network tools reach
/// outside the machine. File reads and writes inside the sandbox are allowed by default.
pub const ASK_BY_DEFAULT: &[&str] = &["bash", "web", "network"];

/// Tools that only act on what an approved call started (a background job's output, its
/// cancellation); asking again for them would only be noise.
const FOLLOW_UP_TOOLS: &[&str] = &["job_output", "job_cancel"];

/// What the policy says for one tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum Permission {
    /// Run without asking.
    Allow,
    /// Ask the user each time.
    Ask,
    /// Never run; the model is told the user does not allow it.
    Never,
}

/// The user's approval rules: per tool name first, then per group, then the defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ApprovalPolicy {
    /// Rules for single tools by exposed name (`bash`, `github__create_issue`).
    #[serde(default)]
    pub tools: BTreeMap<String, Permission>,
    /// Rules for whole groups (`bash`, `file`, `web`, `mcp`).
    #[serde(default)]
    pub groups: BTreeMap<String, Permission>,
}

impl ApprovalPolicy {
    /// The permission for `name` and a sentence saying which rule decided.
    pub fn decide(&self, name: &str, meta: &ToolMeta) -> (Permission, String) {
        if let Some(p) = self.tools.get(name) {
            return (*p, format!("`{name}` is set to {}", word(*p)));
        }
        if let Some(p) = self.groups.get(&meta.group) {
            return (*p, format!("group `{}` is set to {}", meta.group, word(*p)));
        }
        if FOLLOW_UP_TOOLS.contains(&name) {
            return (Permission::Allow, "follow-up of an approved command".into());
        }
        if ASK_BY_DEFAULT.contains(&meta.group.as_str()) {
            return (
                Permission::Ask,
                format!("tools of group `{}` ask by default", meta.group),
            );
        }
        (Permission::Allow, "allowed by default".into())
    }
}

fn word(p: Permission) -> &'static str {
    match p {
        Permission::Allow => "always allow",
        Permission::Ask => "ask",
        Permission::Never => "never",
    }
}

/// The middleware's answer for one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Approval {
    /// Run it.
    Granted,
    /// Do not run it; the model reads this sentence as an error result.
    Refused(String),
    /// Stop and ask the user; the sentence says why they are asked.
    Ask(String),
}

/// Applies an [`ApprovalPolicy`] to each call.
pub struct Approvals {
    policy: ApprovalPolicy,
    /// A subagent cannot stop to ask the user: "ask" refuses instead.
    can_ask: bool,
}

impl Approvals {
    /// The middleware for this policy.
    pub fn new(policy: ApprovalPolicy) -> Self {
        Self {
            policy,
            can_ask: true,
        }
    }

    /// The middleware for a subagent's run: calls the policy would ask about are refused
    /// with a sentence telling the subagent to leave them to its lead agent.
    pub fn for_subagent(policy: ApprovalPolicy) -> Self {
        Self {
            policy,
            can_ask: false,
        }
    }
}

impl Middleware for Approvals {
    fn name(&self) -> &'static str {
        "approvals"
    }

    fn check_approval(&self, call: &ToolCall, meta: &ToolMeta, _run: &RunInfo) -> Approval {
        match self.policy.decide(&call.name, meta) {
            (Permission::Allow, _) => Approval::Granted,
            (Permission::Ask, why) if self.can_ask => Approval::Ask(why),
            (Permission::Ask, why) => Approval::Refused(format!(
                "not run: `{}` needs the user's approval ({why}) and a subagent cannot ask; \
                 finish without it and say in your answer what the lead agent should run",
                call.name
            )),
            (Permission::Never, why) => Approval::Refused(format!(
                "not run: the user does not allow `{}` ({why}); do the task without it or \
                 tell the user what you need",
                call.name
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::ToolSource;

    fn call(name: &str) -> ToolCall {
        ToolCall {
            id: "c1".into(),
            name: name.into(),
            arguments: "{}".into(),
        }
    }

    fn check(policy: ApprovalPolicy, name: &str, group: &str) -> Approval {
        let meta = ToolMeta::new(ToolSource::Sandbox, group);
        Approvals::new(policy).check_approval(&call(name), &meta, &RunInfo::default())
    }

    #[test]
    fn defaults_allow_files_and_ask_for_the_shell_and_the_network() {
        let p = ApprovalPolicy::default;
        assert_eq!(check(p(), "read_file", "file"), Approval::Granted);
        assert_eq!(check(p(), "write_file", "file"), Approval::Granted);
        assert_eq!(check(p(), "grep", "search"), Approval::Granted);
        assert!(matches!(check(p(), "bash", "bash"), Approval::Ask(why) if why.contains("bash")));
        assert!(matches!(check(p(), "web_fetch", "web"), Approval::Ask(_)));
        assert_eq!(check(p(), "job_output", "bash"), Approval::Granted);
    }

    #[test]
    fn a_tool_rule_wins_over_its_group_rule() {
        let mut p = ApprovalPolicy::default();
        p.groups.insert("file".into(), Permission::Ask);
        p.tools.insert("read_file".into(), Permission::Allow);
        assert_eq!(check(p.clone(), "read_file", "file"), Approval::Granted);
        assert!(matches!(
            check(p, "write_file", "file"),
            Approval::Ask(why) if why.contains("group `file`")
        ));
    }

    #[test]
    fn always_allow_for_a_tool_stops_the_asking() {
        let mut p = ApprovalPolicy::default();
        p.tools.insert("bash".into(), Permission::Allow);
        assert_eq!(check(p, "bash", "bash"), Approval::Granted);
    }

    #[test]
    fn never_refuses_with_a_sentence_the_model_can_act_on() {
        let mut p = ApprovalPolicy::default();
        p.groups.insert("mcp".into(), Permission::Never);
        match check(p, "github__delete_repo", "mcp") {
            Approval::Refused(why) => {
                assert!(why.contains("github__delete_repo"), "{why}");
                assert!(why.contains("never"), "{why}");
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn a_subagent_is_refused_what_the_lead_would_be_asked() {
        let meta = ToolMeta::new(ToolSource::Sandbox, "bash");
        let sub = Approvals::for_subagent(ApprovalPolicy::default());
        match sub.check_approval(&call("bash"), &meta, &RunInfo::default()) {
            Approval::Refused(why) => assert!(why.contains("subagent cannot ask"), "{why}"),
            other => panic!("expected a refusal, got {other:?}"),
        }
        let file = ToolMeta::new(ToolSource::Sandbox, "file");
        assert_eq!(
            sub.check_approval(&call("read_file"), &file, &RunInfo::default()),
            Approval::Granted
        );
    }

    #[test]
    fn the_policy_reads_back_from_its_json_form() {
        let p: ApprovalPolicy =
            serde_json::from_str(r#"{"tools":{"bash":"allow"},"groups":{"web":"never"}}"#).unwrap();
        assert_eq!(p.tools["bash"], Permission::Allow);
        assert_eq!(p.groups["web"], Permission::Never);
        let empty: ApprovalPolicy = serde_json::from_str("{}").unwrap();
        assert_eq!(empty, ApprovalPolicy::default());
    }
}
