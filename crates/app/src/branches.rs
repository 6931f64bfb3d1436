//! Answering again: regenerating the last reply (which replaces it) and editing a past user
//! message (which branches: a new thread, the old one kept and linked both ways).

use std::sync::Arc;

use workbench_core::agent::{EventSink, RunInput};
use workbench_core::thread::{Role, Thread, ThreadStore};

use crate::runs::run_options_key;
use crate::tools::RunOptions;
use crate::{App, AppError, ModelChoice, RunHandle};

impl App {
    /// Answers the thread's last user message again, in place of everything after it (the
    /// reply, its tool calls and results, any question still waiting): the old reply is
    /// replaced, not kept; the user's message stays as it is. Editing the message instead
    /// branches and keeps both. Files the old reply wrote stay in the thread's folders.
    pub async fn regenerate(
        self: &Arc<Self>,
        thread_id: &str,
        choice: ModelChoice,
        sink: EventSink,
    ) -> Result<RunHandle, AppError> {
        if self.is_running(thread_id) {
            return Err(AppError::RunInProgress);
        }
        let id = thread_id.to_string();
        let messages = self.on_store(move |s| s.load_messages(&id)).await?;
        let last = messages
            .iter()
            .rev()
            .find(|m| m.role == Role::User && !m.hidden)
            .ok_or_else(|| AppError::Invalid("there is no message to answer again".into()))?;
        let (id, from) = (thread_id.to_string(), last.id.clone());
        self.on_store(move |s| {
            s.delete_messages_after(&id, &from)?;
            // Questions and approvals waiting belong to the reply that was just removed.
            let mut state = s.get_thread(&id)?.state;
            if !state.pending.is_empty() {
                state.pending.clear();
                s.save_thread_state(&id, &state)?;
            }
            Ok(())
        })
        .await?;
        let options = self.last_run_options(thread_id).await?;
        self.launch(thread_id, RunInput::Again, choice, options, sink)
            .await
    }

    /// Edits a past user message and sends it: a new thread (the branch) gets copies of the
    /// messages before it, the same title, folders mounted and agent, and answers `content`.
    /// The original thread is left as it was and both link to each other (`ThreadView`).
    /// The branch starts with its own empty workspace, outputs and state (plan, artifacts,
    /// promoted tools): files the original made stay in the original's folders.
    pub async fn edit_and_resend(
        self: &Arc<Self>,
        thread_id: &str,
        message_id: &str,
        content: &str,
        choice: ModelChoice,
        sink: EventSink,
    ) -> Result<(Thread, RunHandle), AppError> {
        if content.trim().is_empty() {
            return Err(AppError::Invalid("the message is empty".into()));
        }
        if self.is_running(thread_id) {
            return Err(AppError::Invalid(
                "the thread is still answering; stop it or wait before editing a message".into(),
            ));
        }
        let (id, mid) = (thread_id.to_string(), message_id.to_string());
        let branch = self
            .on_store(move |s| {
                let edited = s.load_messages(&id)?.into_iter().find(|m| m.id == mid);
                let edited = edited.filter(|m| m.role == Role::User && !m.hidden);
                if edited.is_none() {
                    return Ok(None);
                }
                let source = s.get_thread(&id)?;
                let title_source = s.title_source(&id)?;
                s.branch_thread(&id, &mid, &source.title, title_source)
                    .map(Some)
            })
            .await?
            .ok_or_else(|| {
                AppError::Invalid(format!(
                    "message {message_id} is not one of your messages in this thread"
                ))
            })?;
        // The same folders: a branch continues the same work. A folder that has gone since
        // is left out rather than failing the edit.
        match self.thread_mounts(thread_id) {
            Ok(mounts) if !mounts.is_empty() => {
                if let Err(e) = self.set_thread_mounts(&branch.id, &mounts) {
                    tracing::warn!(error = %e, "the branch did not get the thread's folders");
                }
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "could not read the thread's folders"),
        }
        let options = self.last_run_options(thread_id).await?;
        let handle = self
            .start_run_with(&branch.id, content, choice, options, sink)
            .await?;
        Ok((branch, handle))
    }

    /// The agent and skills of the thread's last run (the defaults when it had none).
    async fn last_run_options(&self, thread_id: &str) -> Result<RunOptions, AppError> {
        let key = run_options_key(thread_id);
        Ok(self
            .on_store(move |s| s.get_setting::<RunOptions>(&key))
            .await?
            .unwrap_or_default())
    }
}
