//! One tool call made by hand (`workbench tool call`), through the same assembly, confinement
//! and middlewares a model's call goes through, with its state update saved to the thread.

use std::sync::Arc;

use workbench_core::agent::{call_once, SingleCall};
use workbench_core::middleware::{default_chain, Approvals, RunInfo, MAX_TURNS_PER_RUN};
use workbench_core::thread::{ThreadStore, ToolCall};
use workbench_core::tools::ToolOutput;

use crate::{App, AppError, RunOptions};

impl App {
    /// Calls tool `name` with `arguments` (JSON text) in a thread as its next run would.
    /// A call the approvals would ask about is refused unless `approve` is set.
    pub async fn call_tool(
        self: &Arc<Self>,
        thread_id: &str,
        name: &str,
        arguments: &str,
        options: RunOptions,
        approve: bool,
    ) -> Result<ToolOutput, AppError> {
        let (app, tid) = (self.clone(), thread_id.to_string());
        let prepared = tokio::task::spawn_blocking(move || {
            let state = app.store.get_thread(&tid)?.state;
            let model = crate::provider::configured_sync(&app)?
                .map(|s| s.model)
                .unwrap_or_default();
            let setup = app.setup_run(&options, &model)?;
            let assembly = app.assemble_for(&tid, &state, &setup)?;
            let dir = app.data.thread_dir(&tid);
            workbench_sandbox::ThreadRoots::under(&dir)
                .create()
                .map_err(|e| AppError::DataDir {
                    path: dir.display().to_string(),
                    detail: e.to_string(),
                })?;
            let policy = app.approval_policy()?;
            Ok::<_, AppError>((state, assembly, dir, policy))
        })
        .await
        .map_err(|e| AppError::Invalid(format!("internal error: {e}")))?;
        let (mut state, assembly, dir, policy) = prepared?;
        let chain = default_chain(MAX_TURNS_PER_RUN, Some(Approvals::new(policy)), None);
        let info = RunInfo {
            thread_id: thread_id.to_string(),
            run_id: workbench_core::new_id(),
            turns: 0,
            thread_dir: Some(dir),
        };
        let call = ToolCall {
            id: format!("manual-{}", workbench_core::new_id()),
            name: name.to_string(),
            arguments: arguments.to_string(),
        };
        match call_once(&assembly, &chain, &call, &state, &info, approve).await {
            SingleCall::NeedsApproval(why) => Err(AppError::Invalid(format!(
                "`{name}` needs approval ({why}); pass --approve to run it anyway"
            ))),
            SingleCall::Done(output) => {
                if let Some(update) = &output.update {
                    state.apply(update);
                    let tid = thread_id.to_string();
                    self.on_store(move |s| s.save_thread_state(&tid, &state))
                        .await?;
                }
                Ok(output)
            }
        }
    }
}
