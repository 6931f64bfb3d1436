//! The user's side of approvals: the policy in Settings, and answering a pending call, which
//! resumes the thread once every pending call has an answer.

use std::sync::Arc;

use workbench_core::agent::EventSink;
use workbench_core::middleware::{ApprovalPolicy, Permission};
use workbench_core::thread::{ApprovalDecision, PendingCall, ThreadStore};

use crate::{App, AppError, ModelChoice, RunHandle};

/// Settings key of the approval policy.
pub const APPROVAL_POLICY_SETTING: &str = "approvals.policy";

impl App {
    /// The approval rules (empty = the defaults: files allowed, shell and network ask).
    pub fn approval_policy(&self) -> Result<ApprovalPolicy, AppError> {
        Ok(self
            .store
            .get_setting::<ApprovalPolicy>(APPROVAL_POLICY_SETTING)?
            .unwrap_or_default())
    }

    /// Replaces the approval rules; the next run uses them.
    pub fn set_approval_policy(&self, policy: &ApprovalPolicy) -> Result<(), AppError> {
        Ok(self.store.set_setting(APPROVAL_POLICY_SETTING, policy)?)
    }

    /// Records the user's answer to a pending call. When it was the last one open, the
    /// thread resumes (allowed calls run, denied ones tell the model) and its run's handle is
    /// returned; events go to `sink`.
    pub async fn answer_approval(
        self: &Arc<Self>,
        thread_id: &str,
        call_id: &str,
        decision: ApprovalDecision,
        choice: ModelChoice,
        sink: EventSink,
    ) -> Result<Option<RunHandle>, AppError> {
        if self.is_running(thread_id) {
            return Err(AppError::RunInProgress);
        }
        let (tool, all_answered) = self
            .record_answer(thread_id, call_id, false, move |p| {
                p.decision = Some(decision)
            })
            .await?;
        tracing::info!(%thread_id, %tool, ?decision, "approval answered");
        if decision == ApprovalDecision::AllowAlways {
            let mut policy = self.approval_policy()?;
            policy.tools.insert(tool, Permission::Allow);
            self.set_approval_policy(&policy)?;
        }
        if !all_answered {
            return Ok(None);
        }
        self.resume_run(thread_id, choice, sink).await.map(Some)
    }
}

/// Longest answer to a question, in bytes (as long as a user message may be).
const MAX_ANSWER_BYTES: usize = 1 << 20;

impl App {
    /// Answers the agent's question (ask_clarification). When nothing else waits, the thread
    /// resumes with the answer as the call's result; events go to `sink`.
    pub async fn answer_clarification(
        self: &Arc<Self>,
        thread_id: &str,
        call_id: &str,
        answer: &str,
        choice: ModelChoice,
        sink: EventSink,
    ) -> Result<Option<RunHandle>, AppError> {
        let answer = answer.trim().to_string();
        if answer.is_empty() {
            return Err(AppError::Invalid("the answer is empty".into()));
        }
        if answer.len() > MAX_ANSWER_BYTES {
            return Err(AppError::Invalid("the answer is too long".into()));
        }
        if self.is_running(thread_id) {
            return Err(AppError::RunInProgress);
        }
        let (_, all_answered) = self
            .record_answer(thread_id, call_id, true, move |p| p.answer = Some(answer))
            .await?;
        if !all_answered {
            return Ok(None);
        }
        self.resume_run(thread_id, choice, sink).await.map(Some)
    }
}

impl App {
    /// Writes the user's answer onto the pending call `call_id` (a question when `question`,
    /// else an approval) and saves the state. Returns the call's tool and whether every
    /// pending call of the thread is now answered.
    async fn record_answer(
        &self,
        thread_id: &str,
        call_id: &str,
        question: bool,
        apply: impl FnOnce(&mut PendingCall) + Send + 'static,
    ) -> Result<(String, bool), AppError> {
        let (tid, cid) = (thread_id.to_string(), call_id.to_string());
        self.on_store(move |s| {
            let mut state = s.get_thread(&tid)?.state;
            let Some(pending) = state
                .pending
                .iter_mut()
                .find(|p| p.call.id == cid && p.question.is_some() == question)
            else {
                return Ok(None);
            };
            apply(pending);
            let tool = pending.call.name.clone();
            let all = state.pending.iter().all(|p| p.is_answered());
            s.save_thread_state(&tid, &state)?;
            Ok(Some((tool, all)))
        })
        .await?
        .ok_or_else(|| {
            let what = if question {
                "a question"
            } else {
                "an approval"
            };
            AppError::Invalid(format!(
                "nothing in this thread waits for {what} as call `{call_id}`; it was answered \
                 already or the thread moved on"
            ))
        })
    }
}
