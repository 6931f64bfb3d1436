use std::sync::Arc;
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use workbench_core::agent::{
    run, EventSink, ModelSummarizer, RunEvent, RunInput, RunOutcome, RunParts, RunSpec,
};
use workbench_core::middleware::{default_chain, Approvals, ContextCompaction, MAX_TURNS_PER_RUN};
use workbench_core::thread::ThreadStore;

use crate::provider::{self, ModelChoice};
use crate::subagents::{SubagentHost, SUBAGENT_TIMEOUT, SUBAGENT_TIMEOUT_SETTING};
use crate::tools::{self, RunOptions};
use workbench_store::TitleSource;

use crate::{title, App, AppError};

/// Longest message a user may send, in bytes; far above any prompt a person types, it only
/// stops accidental pastes of whole files from reaching the model unannounced.
const MAX_USER_MESSAGE_BYTES: usize = 1 << 20;

/// A run this process owns.
pub(crate) struct LiveRun {
    run_id: String,
    cancel: CancellationToken,
    task: JoinHandle<()>,
}

/// A started run: its id and a way to wait for its end.
pub struct RunHandle {
    /// The run's id.
    pub run_id: String,
    done: oneshot::Receiver<RunOutcome>,
}

impl RunHandle {
    /// Waits until the run ends.
    pub async fn finished(self) -> RunOutcome {
        self.done.await.unwrap_or(RunOutcome::Failed)
    }
}

impl App {
    /// Starts answering `content` in a thread with the default agent; events go to `sink` as
    /// they are committed.
    pub async fn start_run(
        self: &Arc<Self>,
        thread_id: &str,
        content: &str,
        choice: ModelChoice,
        sink: EventSink,
    ) -> Result<RunHandle, AppError> {
        self.start_run_with(thread_id, content, choice, RunOptions::default(), sink)
            .await
    }

    /// Starts a run with a chosen agent and skills.
    pub async fn start_run_with(
        self: &Arc<Self>,
        thread_id: &str,
        content: &str,
        choice: ModelChoice,
        options: RunOptions,
        sink: EventSink,
    ) -> Result<RunHandle, AppError> {
        if content.trim().is_empty() {
            return Err(AppError::Invalid("the message is empty".into()));
        }
        if content.len() > MAX_USER_MESSAGE_BYTES {
            return Err(AppError::Invalid(format!(
                "the message is {} KiB; the limit is {} KiB",
                content.len() / 1024,
                MAX_USER_MESSAGE_BYTES / 1024
            )));
        }
        let (id, opts) = (run_options_key(thread_id), options.clone());
        self.on_store(move |s| s.set_setting(&id, &opts)).await?;
        self.launch(
            thread_id,
            RunInput::Message(content.to_string()),
            choice,
            options,
            sink,
        )
        .await
    }

    /// Resumes a thread whose pending calls the user has all answered, with the agent and
    /// skills of the run that stopped.
    pub(crate) async fn resume_run(
        self: &Arc<Self>,
        thread_id: &str,
        choice: ModelChoice,
        sink: EventSink,
    ) -> Result<RunHandle, AppError> {
        let key = run_options_key(thread_id);
        let options = self
            .on_store(move |s| s.get_setting::<RunOptions>(&key))
            .await?
            .unwrap_or_default();
        self.launch(thread_id, RunInput::Resume, choice, options, sink)
            .await
    }

    /// Starts a run of `input` in the thread (the one way every kind of run begins).
    pub(crate) async fn launch(
        self: &Arc<Self>,
        thread_id: &str,
        input: RunInput,
        choice: ModelChoice,
        options: RunOptions,
        sink: EventSink,
    ) -> Result<RunHandle, AppError> {
        let id = thread_id.to_string();
        let thread = self.on_store(move |s| s.get_thread(&id)).await?;
        let (model, settings) = provider::client(self, &choice).await?;
        let (model_name, context_window) = (settings.model, settings.context_window);
        let (app, tid, state) = (self.clone(), thread_id.to_string(), thread.state.clone());
        let timeout = self
            .store
            .get_setting::<u64>(SUBAGENT_TIMEOUT_SETTING)?
            .filter(|s| *s > 0)
            .map(Duration::from_secs)
            .unwrap_or(SUBAGENT_TIMEOUT);
        let host = Arc::new(
            SubagentHost::new(self, choice.clone(), thread_id, sink.clone()).with_timeout(timeout),
        );
        let (setup, assembly, thread_dir, memory) = tokio::task::spawn_blocking(move || {
            let mut setup = app.setup_run(&options, &model_name)?;
            setup.subagents = Some(host);
            let assembly = app.assemble_for(&tid, &state, &setup)?;
            // Memory is context, not a reason to refuse the run.
            let memory = app.memory_for_run().unwrap_or_else(|e| {
                tracing::warn!(error = %e, "saved memory could not be read; the run goes on without it");
                String::new()
            });
            let dir = app.data.thread_dir(&tid);
            app.prepare_thread_roots(&tid, setup.agent.as_ref().map(|a| a.name.as_str()))?;
            Ok::<_, AppError>((setup, assembly, dir, memory))
        })
        .await
        .map_err(|e| AppError::Invalid(format!("internal error: {e}")))??;
        let system = tools::system_prompt(&setup, &assembly, &memory);
        let model_name = setup
            .agent
            .as_ref()
            .and_then(|a| a.model.clone())
            .unwrap_or_else(|| setup.input.model.name.clone());

        let policy = self.approval_policy()?;
        let run_id = workbench_core::new_id();
        let cancel = CancellationToken::new();
        let (done_tx, done_rx) = oneshot::channel();
        {
            let mut runs = self.runs.lock().map_err(|_| AppError::RunInProgress)?;
            if runs.contains_key(thread_id) {
                return Err(AppError::RunInProgress);
            }
            let spec = RunSpec {
                thread_id: thread_id.to_string(),
                run_id: run_id.clone(),
                input: input.clone(),
                model: model_name,
                system: Some(system),
                thread_dir: Some(thread_dir),
            };
            let store: Arc<dyn ThreadStore> = self.store.clone();
            let compaction = context_window.map(|window| {
                let summarizer = Arc::new(ModelSummarizer::new(model.clone(), spec.model.clone()));
                let notify = sink.clone();
                ContextCompaction::new(summarizer, window as usize).on_compact(move |n| {
                    notify(RunEvent::ContextCompacted {
                        run_id: n.run_id.clone(),
                        summarised_messages: n.summarised_messages as u32,
                        tokens_before: n.estimated_tokens_before as u32,
                        tokens_after: n.estimated_tokens_after as u32,
                    })
                })
            });
            let titler = (model.clone(), spec.model.clone(), sink.clone());
            let parts = RunParts {
                store,
                model,
                tools: assembly,
                chain: default_chain(MAX_TURNS_PER_RUN, Some(Approvals::new(policy)), compaction),
                sink,
                cancel: cancel.clone(),
            };
            let app = Arc::downgrade(self);
            let tid = thread_id.to_string();
            let task = tokio::spawn(async move {
                let outcome = run(parts, spec).await;
                if let Some(app) = app.upgrade() {
                    if let Ok(mut runs) = app.runs.lock() {
                        runs.remove(&tid);
                    }
                    // The thread is free for the next message while the title is asked for;
                    // `finished` waits for it, so a caller sees the thread as it will stay.
                    if outcome == RunOutcome::Completed {
                        let (model, name, sink) = titler;
                        app.title_after_run(&tid, model, &name, &sink).await;
                    }
                }
                let _ = done_tx.send(outcome);
            });
            runs.insert(
                thread_id.to_string(),
                LiveRun {
                    run_id: run_id.clone(),
                    cancel,
                    task,
                },
            );
        }
        tracing::info!(%run_id, %thread_id, "run started");
        if let RunInput::Message(content) = &input {
            if let Some(title) = title::from_first_message(content) {
                let id = thread_id.to_string();
                // Only a thread still bearing the default title is named from its message.
                let named = self.on_store(move |s| {
                    s.set_title_if(
                        &id,
                        &title,
                        TitleSource::FirstMessage,
                        &[TitleSource::Default],
                    )
                });
                if let Err(e) = named.await {
                    tracing::warn!(error = %e, "could not name the thread");
                }
            }
        }
        Ok(RunHandle {
            run_id,
            done: done_rx,
        })
    }

    /// Asks the thread's live run to stop; false when nothing was running.
    pub fn cancel_run(&self, thread_id: &str) -> bool {
        let Ok(runs) = self.runs.lock() else {
            return false;
        };
        match runs.get(thread_id) {
            Some(run) => {
                tracing::info!(run_id = %run.run_id, "run cancelled by the user");
                run.cancel.cancel();
                true
            }
            None => false,
        }
    }

    /// Cancels every live run, for shutdown.
    pub fn cancel_all(&self) {
        if let Ok(runs) = self.runs.lock() {
            for run in runs.values() {
                run.cancel.cancel();
            }
        }
    }

    /// Whether a run of this thread is live in this process.
    pub(crate) fn is_running(&self, thread_id: &str) -> bool {
        self.runs
            .lock()
            .map(|r| r.contains_key(thread_id))
            .unwrap_or(false)
    }

    pub(crate) fn cancel_and_take(&self, thread_id: &str) -> Option<JoinHandle<()>> {
        let run = self.runs.lock().ok()?.remove(thread_id)?;
        run.cancel.cancel();
        Some(run.task)
    }
}

/// Settings key holding the agent and skills of a thread's last run, so a resumed run uses
/// the same tools.
pub(crate) fn run_options_key(thread_id: &str) -> String {
    format!("thread.run_options.{thread_id}")
}
