//! `task`: the lead agent hands a self-contained piece of work to a subagent, which is a run of
//! the same loop with its own (in-memory) conversation, the same sandbox folders, and a
//! filtered tool set (no task, ask_clarification or present_files: the assembly's subagent
//! gate). Its progress streams to the lead's event sink as `RunEvent::Subagent`, for a card in
//! the UI with a cancel button; its final answer is the `task` call's result.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use serde::Deserialize;
use tokio_util::sync::CancellationToken;
use workbench_core::agent::{
    run, EventSink, RunEvent, RunInput, RunOutcome, RunParts, RunSpec, SubagentStatus,
    SubagentUpdate,
};
use workbench_core::middleware::{default_chain, Approvals, MAX_TURNS_PER_RUN};
use workbench_core::model::{ToolSpec, Usage};
use workbench_core::thread::{InMemoryStore, Role, ThreadState, ThreadStore};
use workbench_core::tools::assembly::AgentProfile;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource};

use crate::{provider, tools, App, AppError, ModelChoice, RunOptions};

/// The tool's name.
pub const TASK_TOOL: &str = "task";
/// Subagents of one run working at the same time.
pub const MAX_CONCURRENT_SUBAGENTS: usize = 3;
/// Subagents one run may start in total.
pub const MAX_SUBAGENTS_PER_RUN: usize = 6;
/// How long a subagent may work before it is stopped, unless Settings say otherwise.
pub const SUBAGENT_TIMEOUT: Duration = Duration::from_secs(15 * 60);
/// Settings key: the subagent timeout in seconds.
pub const SUBAGENT_TIMEOUT_SETTING: &str = "subagents.timeout_secs";
/// The built-in subagent types and the tool groups each gets (`None` = every group).
const BUILTIN_TYPES: &[(&str, Option<&[&str]>)] = &[
    ("general-purpose", None),
    ("bash", Some(&["bash", "file", "search", "builtin"])),
];

/// What the subagent reads about its situation, after the base prompt.
const SUBAGENT_NOTE: &str = "You are a subagent: the lead agent gave you one task. Work on it \
    on your own with your tools; you cannot ask the user anything. When you are done, answer \
    with a concise report of what you found or did: that answer is all the lead agent sees.";

/// Everything a run's `task` calls share: where to report, which model, and the limits.
pub(crate) struct SubagentHost {
    app: Weak<App>,
    choice: ModelChoice,
    thread_id: String,
    sink: EventSink,
    started: AtomicUsize,
    active: AtomicUsize,
    timeout: Duration,
}

impl SubagentHost {
    /// The host for one run of `thread_id`, reporting on `sink`.
    pub(crate) fn new(
        app: &Arc<App>,
        choice: ModelChoice,
        thread_id: &str,
        sink: EventSink,
    ) -> Self {
        Self {
            app: Arc::downgrade(app),
            choice,
            thread_id: thread_id.to_string(),
            sink,
            started: AtomicUsize::new(0),
            active: AtomicUsize::new(0),
            timeout: SUBAGENT_TIMEOUT,
        }
    }

    /// The same host with another timeout (the `subagents.timeout_secs` setting).
    pub(crate) fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

/// Live subagents by (thread, call), so the UI can cancel one.
#[derive(Default)]
pub(crate) struct LiveSubagents(Mutex<HashMap<(String, String), CancellationToken>>);

/// The built-in `task` tool. Without a host (listing tools outside a run) it only refuses.
pub(crate) struct TaskTool {
    spec: ToolSpec,
    meta: ToolMeta,
    host: Option<Arc<SubagentHost>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskArgs {
    description: String,
    prompt: String,
    #[serde(default = "general_purpose")]
    subagent_type: String,
}

fn general_purpose() -> String {
    "general-purpose".into()
}

impl TaskTool {
    /// The tool; `custom` are the user's custom agents, offered as subagent types too.
    pub(crate) fn new(host: Option<Arc<SubagentHost>>, custom: &[String]) -> Self {
        let mut types: Vec<String> = BUILTIN_TYPES.iter().map(|(n, _)| n.to_string()).collect();
        types.extend(custom.iter().cloned());
        Self {
            spec: ToolSpec {
                name: TASK_TOOL.into(),
                description: format!(
                    "Hand a self-contained task to a subagent that works on its own with the \
                     same folders and tools (it cannot ask the user) and returns a report. Use \
                     it for independent work that can run alongside yours; several task calls \
                     in one turn run in parallel (at most {MAX_CONCURRENT_SUBAGENTS} at once, \
                     {MAX_SUBAGENTS_PER_RUN} per run). `bash` subagents only get the shell and \
                     file tools."
                ),
                parameters: serde_json::json!({
                    "type": "object",
                    "properties": {
                        "description": {"type": "string", "description": "3-6 words naming the task, shown to the user."},
                        "prompt": {"type": "string", "description": "Everything the subagent needs to know: it sees nothing else."},
                        "subagent_type": {"type": "string", "enum": types}
                    },
                    "required": ["description", "prompt"]
                }),
            },
            meta: ToolMeta {
                lead_only: true,
                ..ToolMeta::new(ToolSource::Builtin, "task")
            },
            host,
        }
    }
}

/// Releases the concurrency slot when the subagent ends, however it ends.
struct Slot<'a>(&'a AtomicUsize);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

#[async_trait::async_trait]
impl Tool for TaskTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(
        &self,
        args: serde_json::Value,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let Some(host) = &self.host else {
            return Err(ToolError::Failed("subagents only run inside a run".into()));
        };
        let args: TaskArgs = serde_json::from_value(args).map_err(|e| {
            ToolError::InvalidArguments(format!(
                "{e}; expected {{\"description\": string, \"prompt\": string, \"subagent_type\"?: string}}"
            ))
        })?;
        if args.prompt.trim().is_empty() || args.description.trim().is_empty() {
            return Err(ToolError::InvalidArguments(
                "description and prompt must not be empty".into(),
            ));
        }
        if host.started.fetch_add(1, Ordering::SeqCst) >= MAX_SUBAGENTS_PER_RUN {
            return Err(ToolError::Failed(format!(
                "this run already started {MAX_SUBAGENTS_PER_RUN} subagents, the most one run \
                 may; do the rest yourself or finish and let the user continue"
            )));
        }
        if host.active.fetch_add(1, Ordering::SeqCst) >= MAX_CONCURRENT_SUBAGENTS {
            host.active.fetch_sub(1, Ordering::SeqCst);
            host.started.fetch_sub(1, Ordering::SeqCst);
            return Err(ToolError::Failed(format!(
                "{MAX_CONCURRENT_SUBAGENTS} subagents are already working; wait for their \
                 results before starting another"
            )));
        }
        let _slot = Slot(&host.active);
        let app = host
            .app
            .upgrade()
            .ok_or_else(|| ToolError::Failed("the app is shutting down".into()))?;
        let cancel = ctx.cancel.child_token();
        let key = (host.thread_id.clone(), ctx.call_id.clone());
        if let Ok(mut live) = app.subagents.0.lock() {
            live.insert(key.clone(), cancel.clone());
        }
        let card = Card {
            sink: host.sink.clone(),
            thread_id: host.thread_id.clone(),
            call_id: ctx.call_id.clone(),
            description: args.description.trim().to_string(),
            subagent_type: args.subagent_type.clone(),
        };
        card.send(SubagentStatus::Started, None, None, None, None);
        let outcome =
            tokio::time::timeout(host.timeout, work(&app, host, &args, cancel.clone(), &card))
                .await;
        if let Ok(mut live) = app.subagents.0.lock() {
            live.remove(&key);
        }
        match outcome {
            Err(_) => {
                cancel.cancel();
                let why = format!(
                    "the subagent did not finish within {} s and was stopped",
                    host.timeout.as_secs()
                );
                card.send(
                    SubagentStatus::TimedOut,
                    None,
                    None,
                    None,
                    Some(why.clone()),
                );
                Err(ToolError::Failed(why))
            }
            Ok(Ok((result, usage))) => {
                card.send(
                    SubagentStatus::Completed,
                    None,
                    usage,
                    Some(result.clone()),
                    None,
                );
                Ok(ToolOutput::text(result))
            }
            Ok(Err(SubagentEnd::Cancelled)) => {
                card.send(SubagentStatus::Cancelled, None, None, None, None);
                if ctx.cancel.is_cancelled() {
                    Err(ToolError::Cancelled)
                } else {
                    Err(ToolError::Failed("the user stopped this subagent".into()))
                }
            }
            Ok(Err(SubagentEnd::Failed(why))) => {
                card.send(SubagentStatus::Failed, None, None, None, Some(why.clone()));
                Err(ToolError::Failed(format!("the subagent failed: {why}")))
            }
        }
    }
}

enum SubagentEnd {
    Cancelled,
    Failed(String),
}

/// Sends the card's updates on the lead's sink.
#[derive(Clone)]
struct Card {
    sink: EventSink,
    thread_id: String,
    call_id: String,
    description: String,
    subagent_type: String,
}

impl Card {
    fn send(
        &self,
        status: SubagentStatus,
        step: Option<String>,
        usage: Option<Usage>,
        result: Option<String>,
        error: Option<String>,
    ) {
        (self.sink)(RunEvent::Subagent {
            thread_id: self.thread_id.clone(),
            call_id: self.call_id.clone(),
            update: SubagentUpdate {
                status,
                description: self.description.clone(),
                subagent_type: self.subagent_type.clone(),
                step,
                usage,
                result,
                error,
            },
        });
    }
}

/// Runs the subagent's loop to its end; its last answer and the tokens it used.
async fn work(
    app: &Arc<App>,
    host: &SubagentHost,
    args: &TaskArgs,
    cancel: CancellationToken,
    card: &Card,
) -> Result<(String, Option<Usage>), SubagentEnd> {
    let failed = |e: AppError| SubagentEnd::Failed(e.to_string());
    let (model, settings) = provider::client(app, &host.choice).await.map_err(failed)?;
    let builtin = BUILTIN_TYPES.iter().find(|(n, _)| *n == args.subagent_type);
    let options = RunOptions {
        agent: if builtin.is_some() {
            None
        } else {
            Some(args.subagent_type.clone())
        },
        skills: Vec::new(),
    };
    let (app2, tid, model_name) = (app.clone(), host.thread_id.clone(), settings.model.clone());
    let builtin_groups = builtin.map(|(name, groups)| {
        (
            name.to_string(),
            groups.map(|g| g.iter().map(|s| s.to_string()).collect()),
        )
    });
    let (setup, assembly) = tokio::task::spawn_blocking(move || {
        let mut setup = app2.setup_run(&options, &model_name)?;
        setup.input.is_subagent = true;
        if let Some((name, tool_groups)) = builtin_groups {
            setup.input.agent = AgentProfile {
                name,
                tool_groups,
                model: None,
            };
        }
        let assembly = app2.assemble_for(&tid, &ThreadState::default(), &setup)?;
        Ok::<_, AppError>((setup, assembly))
    })
    .await
    .map_err(|e| SubagentEnd::Failed(format!("internal error: {e}")))?
    .map_err(failed)?;
    let mut system = tools::system_prompt(&setup, &assembly, "");
    system.push_str("\n\n");
    system.push_str(SUBAGENT_NOTE);
    let model_name = setup
        .agent
        .as_ref()
        .and_then(|a| a.model.clone())
        .unwrap_or(settings.model);

    let store = Arc::new(InMemoryStore::new());
    let thread = store
        .create_thread(&card.description)
        .map_err(|e| SubagentEnd::Failed(e.to_string()))?;
    let policy = app.approval_policy().map_err(failed)?;
    let usage = Arc::new(Mutex::new(None::<Usage>));
    let parts = RunParts {
        store: store.clone(),
        model,
        tools: assembly,
        chain: default_chain(
            MAX_TURNS_PER_RUN,
            Some(Approvals::for_subagent(policy)),
            None,
        ),
        sink: progress_sink(card.clone(), usage.clone()),
        cancel,
    };
    let spec = RunSpec {
        thread_id: thread.id.clone(),
        run_id: workbench_core::new_id(),
        input: RunInput::Message(args.prompt.clone()),
        model: model_name,
        system: Some(system),
        thread_dir: Some(app.data.thread_dir(&host.thread_id)),
    };
    let outcome = run(parts, spec).await;
    let messages = store.load_messages(&thread.id).unwrap_or_default();
    let last = messages.iter().rev().find(|m| m.role == Role::Assistant);
    let used = usage.lock().ok().and_then(|u| *u);
    match outcome {
        RunOutcome::Completed => {
            let text = last
                .map(|m| m.content.trim().to_string())
                .unwrap_or_default();
            Ok((
                if text.is_empty() {
                    "(the subagent finished without a written answer)".into()
                } else {
                    text
                },
                used,
            ))
        }
        RunOutcome::Cancelled => Err(SubagentEnd::Cancelled),
        RunOutcome::Failed | RunOutcome::WaitingForUser => Err(SubagentEnd::Failed(
            last.and_then(|m| m.error.clone())
                .unwrap_or_else(|| "it stopped before answering".into()),
        )),
    }
}

/// Turns the subagent's own run events into `running` updates on the lead's card: each tool it
/// calls, each result, and the tokens used so far.
fn progress_sink(card: Card, usage: Arc<Mutex<Option<Usage>>>) -> EventSink {
    Arc::new(move |event: RunEvent| match event {
        RunEvent::MessageUpdated { message }
            if message.role == Role::Assistant && !message.tool_calls.is_empty() =>
        {
            let names: Vec<&str> = message.tool_calls.iter().map(|c| c.name.as_str()).collect();
            card.send(
                SubagentStatus::Running,
                Some(format!("calling {}", names.join(", "))),
                None,
                None,
                None,
            );
        }
        RunEvent::Usage { usage: u, .. } => {
            let total = match usage.lock() {
                Ok(mut acc) => {
                    let sum = match *acc {
                        Some(a) => Usage {
                            input_tokens: a.input_tokens + u.input_tokens,
                            output_tokens: a.output_tokens + u.output_tokens,
                        },
                        None => u,
                    };
                    *acc = Some(sum);
                    Some(sum)
                }
                Err(_) => None,
            };
            card.send(SubagentStatus::Running, None, total, None, None);
        }
        _ => {}
    })
}

impl App {
    /// Stops one subagent of a thread's live run; false when none such is working.
    pub fn cancel_subagent(&self, thread_id: &str, call_id: &str) -> bool {
        let key = (thread_id.to_string(), call_id.to_string());
        match self
            .subagents
            .0
            .lock()
            .ok()
            .and_then(|l| l.get(&key).cloned())
        {
            Some(token) => {
                token.cancel();
                true
            }
            None => false,
        }
    }
}
