use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use tracing::{info_span, warn, Instrument};

use super::events::{EventSink, RunEvent, RunOutcome};
use super::images::attach_viewed_images;
use crate::middleware::{Approval, Chain, Finish, Flow, RunInfo};
use crate::model::{ModelClient, ModelError, ModelRequest, StreamEvent};
use crate::thread::{
    answer_result, denied_result, Message, MessageStatus, PendingCall, StoreError, ThreadState,
    ThreadStore, ToolCall, SUPERSEDED_RESULT,
};
use crate::tools::assembly::Assembly;
use crate::tools::{StateUpdate, Tool, ToolContext, ToolError, ToolOutput, ToolSource};

/// What the model reads when a tool panicked instead of returning.
pub(super) const TOOL_CRASHED: &str =
    "the tool crashed while running; this is a bug in the tool, not in your call";

/// What starts a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunInput {
    /// A new message from the user. Calls still waiting for an answer are settled first (the
    /// model reads that the user moved on).
    Message(String),
    /// The user answered every pending call of the thread: run the allowed ones, tell the
    /// model about the denied ones, and go on.
    Resume,
    /// Answer the thread as it stands, its last shown message being the user's: the reply
    /// to it was removed to be written again (regenerate).
    Again,
}

/// What to run: model turns and tool calls until the model answers in text, a middleware
/// stops the run, a call needs the user's approval, or the user cancels.
#[derive(Debug, Clone)]
pub struct RunSpec {
    pub thread_id: String,
    pub run_id: String,
    pub input: RunInput,
    pub model: String,
    pub system: Option<String>,
    /// The thread's own folder, for middlewares that spill large outputs.
    pub thread_dir: Option<std::path::PathBuf>,
}

/// The parts a run works with.
#[derive(Clone)]
pub struct RunParts {
    pub store: Arc<dyn ThreadStore>,
    pub model: Arc<dyn ModelClient>,
    /// The tools of this run, already assembled.
    pub tools: Assembly,
    pub chain: Chain,
    pub sink: EventSink,
    pub cancel: CancellationToken,
}

/// Runs the agent loop on a thread and announces each committed step on the sink.
///
/// Never panics on model, tool or network failure: a model failure becomes the assistant
/// message's `error` and the run's outcome; a tool failure becomes an error result the model
/// reads. Everything already streamed stays stored.
pub async fn run(parts: RunParts, spec: RunSpec) -> RunOutcome {
    let span = info_span!("run", run_id = %spec.run_id, thread_id = %spec.thread_id);
    async move {
        let (outcome, error) = match drive(&parts, &spec).await {
            Ok(outcome) => outcome,
            Err(e) => {
                warn!(error = %e, "run stopped by a store failure");
                (
                    RunOutcome::Failed,
                    Some(format!("could not save the conversation: {e}")),
                )
            }
        };
        let (s, run_id, status) = (parts.store.clone(), spec.run_id.clone(), outcome.as_str());
        if let Err(e) = blocking(move || s.end_run(&run_id, status)).await {
            warn!(error = %e, "could not record the end of the run");
        }
        (parts.sink)(RunEvent::RunFinished {
            run_id: spec.run_id.clone(),
            thread_id: spec.thread_id.clone(),
            outcome,
            error,
        });
        outcome
    }
    .instrument(span)
    .await
}

type Outcome = (RunOutcome, Option<String>);

async fn drive(parts: &RunParts, spec: &RunSpec) -> Result<Outcome, StoreError> {
    let store = &parts.store;
    let sink = &parts.sink;
    let (s, t, r) = (store.clone(), spec.thread_id.clone(), spec.run_id.clone());
    blocking(move || s.begin_run(&t, &r)).await?;
    sink(RunEvent::RunStarted {
        run_id: spec.run_id.clone(),
        thread_id: spec.thread_id.clone(),
    });

    let (s, t) = (store.clone(), spec.thread_id.clone());
    let mut state = blocking(move || s.get_thread(&t)).await?.state;
    let mut info = RunInfo {
        thread_id: spec.thread_id.clone(),
        run_id: spec.run_id.clone(),
        turns: 0,
        thread_dir: spec.thread_dir.clone(),
    };

    match &spec.input {
        RunInput::Message(text) => {
            settle_superseded(parts, spec, &mut state).await?;
            let user = Message::user(&spec.thread_id, text.clone());
            let (s, m) = (store.clone(), user.clone());
            blocking(move || s.append_message(&m)).await?;
            sink(RunEvent::MessageAdded { message: user });
        }
        RunInput::Resume => {
            if let Some(ended) = resume_pending(parts, spec, &mut state, &info).await? {
                return Ok(ended);
            }
        }
        RunInput::Again => {}
    }

    loop {
        let reply = match model_turn(parts, spec, &state, &info).await? {
            Ok(reply) => reply,
            Err(ended) => return Ok(ended),
        };
        info.turns += 1;
        if reply.tool_calls.is_empty() {
            if parts.chain.before_finish(&reply, &state, &info) == Finish::AnotherTurn {
                continue;
            }
            return Ok((RunOutcome::Completed, None));
        }
        if let Flow::Stop { reason } = parts.chain.after_model(&reply, &info) {
            let note = format!("not run: {reason}");
            for call in &reply.tool_calls {
                commit_result(parts, spec, &call.id, ToolOutput::error(note.clone())).await?;
            }
            return Ok((RunOutcome::Failed, Some(reason)));
        }
        match run_tools(parts, spec, &reply.tool_calls, &mut state, &info, false).await? {
            ToolsEnded::Done => {}
            ToolsEnded::Cancelled => return Ok((RunOutcome::Cancelled, None)),
            ToolsEnded::Waiting(asks) => {
                state.pending = asks;
                save_state(parts, spec, &state).await?;
                return Ok((RunOutcome::WaitingForUser, None));
            }
        }
    }
}

/// Answers calls the user left waiting when they wrote a new message, so the history the
/// model reads has a result for every call.
async fn settle_superseded(
    parts: &RunParts,
    spec: &RunSpec,
    state: &mut ThreadState,
) -> Result<(), StoreError> {
    if state.pending.is_empty() {
        return Ok(());
    }
    let pending = std::mem::take(&mut state.pending);
    save_state(parts, spec, state).await?;
    for p in pending {
        commit_result(
            parts,
            spec,
            &p.call.id,
            ToolOutput::error(SUPERSEDED_RESULT),
        )
        .await?;
    }
    Ok(())
}

/// Carries out the user's answers to the pending calls. `Some` ends the run here.
async fn resume_pending(
    parts: &RunParts,
    spec: &RunSpec,
    state: &mut ThreadState,
    info: &RunInfo,
) -> Result<Option<Outcome>, StoreError> {
    if state.pending.is_empty() {
        return Ok(Some((
            RunOutcome::Failed,
            Some("there is nothing waiting for an answer in this thread".into()),
        )));
    }
    if let Some(open) = state.pending.iter().find(|p| !p.is_answered()) {
        return Ok(Some((
            RunOutcome::Failed,
            Some(format!(
                "`{}` is still waiting for your answer; answer every request before resuming",
                open.call.name
            )),
        )));
    }
    // Cleared first: if the app dies while an approved call runs, that call reads as
    // interrupted (dangling repair) instead of being asked again.
    let pending = std::mem::take(&mut state.pending);
    save_state(parts, spec, state).await?;
    let mut allowed = Vec::new();
    for p in pending {
        if let (Some(_), Some(answer)) = (&p.question, &p.answer) {
            let result = ToolOutput::text(answer_result(answer));
            commit_result(parts, spec, &p.call.id, result).await?;
            continue;
        }
        match p.decision {
            Some(d) if d.allows() => allowed.push(p.call),
            _ => {
                let why = denied_result(&p.call.name);
                commit_result(parts, spec, &p.call.id, ToolOutput::error(why)).await?;
            }
        }
    }
    match run_tools(parts, spec, &allowed, state, info, true).await? {
        ToolsEnded::Done => Ok(None),
        ToolsEnded::Cancelled => Ok(Some((RunOutcome::Cancelled, None))),
        // Approved calls skip the check, so nothing can ask again here.
        ToolsEnded::Waiting(_) => Ok(None),
    }
}

async fn save_state(
    parts: &RunParts,
    spec: &RunSpec,
    state: &ThreadState,
) -> Result<(), StoreError> {
    let (s, t, st) = (parts.store.clone(), spec.thread_id.clone(), state.clone());
    blocking(move || s.save_thread_state(&t, &st)).await?;
    (parts.sink)(RunEvent::StateUpdated {
        thread_id: spec.thread_id.clone(),
        state: state.clone(),
    });
    Ok(())
}

/// How a turn's tool calls ended.
enum ToolsEnded {
    /// Every call has its result.
    Done,
    /// The user cancelled; unfinished calls got a "cancelled" result.
    Cancelled,
    /// These calls wait for the user's approval; every other call has its result.
    Waiting(Vec<PendingCall>),
}

/// A call after the middlewares and the resolver looked at it.
pub(super) enum Prepared {
    Run(Arc<dyn Tool>, serde_json::Value),
    Answer(ToolOutput),
    Ask(PendingCall),
}

/// Streams one model turn into a new assistant message. `Ok(Err(outcome))` ends the run.
async fn model_turn(
    parts: &RunParts,
    spec: &RunSpec,
    state: &ThreadState,
    info: &RunInfo,
) -> Result<Result<Message, Outcome>, StoreError> {
    let (s, t) = (parts.store.clone(), spec.thread_id.clone());
    let history = blocking(move || s.load_messages(&t)).await?;

    let mut reply = Message::assistant_streaming(&spec.thread_id, &spec.run_id);
    let (s, m) = (parts.store.clone(), reply.clone());
    blocking(move || s.append_message(&m)).await?;
    (parts.sink)(RunEvent::MessageAdded {
        message: reply.clone(),
    });

    let mut request = ModelRequest {
        model: spec.model.clone(),
        system: spec.system.clone(),
        messages: history,
        tools: parts.tools.request_tools(state),
        max_tokens: None,
    };
    parts.chain.before_model(&mut request, info).await;
    let attach = parts.tools.model_takes_images() && !state.viewed_images.is_empty();
    if let (true, Some(dir)) = (attach, spec.thread_dir.clone()) {
        // After the middlewares, so the images land in the history they leave (repaired,
        // compacted) and are never counted or summarised as text.
        let (images, messages) = (
            state.viewed_images.clone(),
            std::mem::take(&mut request.messages),
        );
        request.messages = blocking(move || {
            let mut messages = messages;
            attach_viewed_images(&mut messages, &images, &dir);
            Ok(messages)
        })
        .await?;
    }
    let ended = stream_reply(parts, request, &mut reply, spec).await?;

    let (status, outcome) = match ended {
        Ended::Finished => (MessageStatus::Complete, None),
        Ended::Cancelled => (
            MessageStatus::Cancelled,
            Some((RunOutcome::Cancelled, None)),
        ),
        Ended::Failed(e) => {
            reply.error = Some(e.to_string());
            (
                MessageStatus::Error,
                Some((RunOutcome::Failed, Some(e.to_string()))),
            )
        }
    };
    reply.status = status;
    if outcome.is_some() {
        // Calls of an unfinished turn never run; dropping them keeps the history valid.
        reply.tool_calls.clear();
    }
    let (s, m) = (parts.store.clone(), reply.clone());
    blocking(move || s.finish_message(&m)).await?;
    (parts.sink)(RunEvent::MessageUpdated {
        message: reply.clone(),
    });
    Ok(match outcome {
        Some(o) => Err(o),
        None => Ok(reply),
    })
}

enum Ended {
    Finished,
    Cancelled,
    Failed(ModelError),
}

async fn stream_reply(
    parts: &RunParts,
    request: ModelRequest,
    reply: &mut Message,
    spec: &RunSpec,
) -> Result<Ended, StoreError> {
    let cancel = &parts.cancel;
    let mut stream = tokio::select! {
        _ = cancel.cancelled() => return Ok(Ended::Cancelled),
        started = parts.model.stream(request) => match started {
            Ok(stream) => stream,
            Err(e) => return Ok(Ended::Failed(e)),
        },
    };
    loop {
        let next = tokio::select! {
            _ = cancel.cancelled() => return Ok(Ended::Cancelled),
            next = stream.next() => next,
        };
        match next {
            None => {
                return Ok(Ended::Failed(ModelError::StreamBroken {
                    url: parts.model.describe(),
                    detail: "the stream ended before the model finished its reply".into(),
                }))
            }
            Some(Err(e)) => return Ok(Ended::Failed(e)),
            Some(Ok(StreamEvent::Finish(_))) => return Ok(Ended::Finished),
            Some(Ok(StreamEvent::TextDelta(text))) => {
                commit_delta(&parts.store, &reply.id, &text, false).await?;
                reply.content.push_str(&text);
                (parts.sink)(RunEvent::Delta {
                    message_id: reply.id.clone(),
                    text,
                    reasoning: false,
                });
            }
            Some(Ok(StreamEvent::ReasoningDelta(text))) => {
                commit_delta(&parts.store, &reply.id, &text, true).await?;
                reply.reasoning.push_str(&text);
                (parts.sink)(RunEvent::Delta {
                    message_id: reply.id.clone(),
                    text,
                    reasoning: true,
                });
            }
            Some(Ok(StreamEvent::ToolCall(call))) => reply.tool_calls.push(call),
            Some(Ok(StreamEvent::Usage(usage))) => (parts.sink)(RunEvent::Usage {
                run_id: spec.run_id.clone(),
                usage,
            }),
        }
    }
}

/// Runs a turn's tool calls in parallel, committing each result as it arrives. Calls the
/// approvals ask about are not run but returned as waiting; `approved` skips that check (the
/// user already answered).
async fn run_tools(
    parts: &RunParts,
    spec: &RunSpec,
    calls: &[ToolCall],
    state: &mut ThreadState,
    info: &RunInfo,
    approved: bool,
) -> Result<ToolsEnded, StoreError> {
    let mut set: JoinSet<(usize, ToolOutput)> = JoinSet::new();
    let mut task_call: HashMap<tokio::task::Id, usize> = HashMap::new();
    let mut pending: Vec<Option<&ToolCall>> = calls.iter().map(Some).collect();
    let mut asks = Vec::new();
    for (i, call) in calls.iter().enumerate() {
        let prepared = match prepare_call(&parts.chain, &parts.tools, call, state, info, approved) {
            Prepared::Ask(ask) => {
                pending[i] = None;
                asks.push(ask);
                continue;
            }
            Prepared::Answer(output) => Err(output),
            Prepared::Run(tool, args) => Ok((tool, args)),
        };
        let ctx = ToolContext {
            thread_id: spec.thread_id.clone(),
            run_id: spec.run_id.clone(),
            call_id: call.id.clone(),
            cancel: parts.cancel.child_token(),
        };
        let handle = set.spawn(async move {
            let output = match prepared {
                Err(answer) => answer,
                Ok((tool, args)) => match tool.call(args, &ctx).await {
                    Ok(out) => out,
                    Err(ToolError::Cancelled) => ToolOutput::error("cancelled by the user"),
                    Err(e) => ToolOutput::error(e.to_string()),
                },
            };
            (i, output)
        });
        task_call.insert(handle.id(), i);
    }

    let mut cancelled = false;
    while !set.is_empty() {
        let joined = tokio::select! {
            _ = parts.cancel.cancelled(), if !cancelled => {
                cancelled = true;
                set.abort_all();
                continue;
            }
            joined = set.join_next() => joined,
        };
        let (i, mut output) = match joined {
            None => break,
            Some(Ok(done)) => done,
            Some(Err(e)) if e.is_cancelled() => continue,
            Some(Err(e)) => {
                warn!(error = %e, "a tool panicked");
                let Some(&i) = task_call.get(&e.id()) else {
                    continue;
                };
                (i, ToolOutput::error(TOOL_CRASHED))
            }
        };
        let Some(call) = pending[i].take() else {
            continue;
        };
        if let Some(StateUpdate::AskUser(question)) = &output.update {
            asks.push(PendingCall {
                call: call.clone(),
                run_id: spec.run_id.clone(),
                source: ToolSource::Builtin,
                group: "clarification".into(),
                reason: "the agent has a question for you".into(),
                decision: None,
                question: Some(question.clone()),
                answer: None,
            });
            continue;
        }
        parts.chain.after_tool(call, &mut output, info);
        if let Some(update) = &output.update {
            state.apply(update);
            save_state(parts, spec, state).await?;
        }
        commit_result(parts, spec, &call.id, output).await?;
    }
    for call in pending.into_iter().flatten() {
        let why = if cancelled {
            "cancelled by the user before the tool finished"
        } else {
            TOOL_CRASHED
        };
        commit_result(parts, spec, &call.id, ToolOutput::error(why)).await?;
    }
    if cancelled {
        for ask in asks {
            let why = "cancelled by the user before it was approved";
            commit_result(parts, spec, &ask.call.id, ToolOutput::error(why)).await?;
        }
        return Ok(ToolsEnded::Cancelled);
    }
    Ok(if asks.is_empty() {
        ToolsEnded::Done
    } else {
        ToolsEnded::Waiting(asks)
    })
}

/// Resolves the tool, parses the arguments and asks the approvals, or answers the call
/// without running it.
pub(super) fn prepare_call(
    chain: &Chain,
    tools: &Assembly,
    call: &ToolCall,
    state: &ThreadState,
    info: &RunInfo,
    approved: bool,
) -> Prepared {
    let (tool, args) = match parse_call(chain, tools, call, state, info) {
        Ok(ready) => ready,
        Err(answer) => return Prepared::Answer(answer),
    };
    if approved {
        return Prepared::Run(tool, args);
    }
    let meta = tool.meta();
    match chain.check_approval(call, meta, info) {
        Approval::Granted => Prepared::Run(tool, args),
        Approval::Refused(why) => Prepared::Answer(ToolOutput::error(why)),
        Approval::Ask(reason) => Prepared::Ask(PendingCall {
            call: call.clone(),
            run_id: info.run_id.clone(),
            source: meta.source.clone(),
            group: meta.group.clone(),
            reason,
            decision: None,
            question: None,
            answer: None,
        }),
    }
}

/// Runs the `before_tool` hooks, resolves the tool and parses its arguments.
fn parse_call(
    chain: &Chain,
    tools: &Assembly,
    call: &ToolCall,
    state: &ThreadState,
    info: &RunInfo,
) -> Result<(Arc<dyn Tool>, serde_json::Value), ToolOutput> {
    if let Some(answer) = chain.before_tool(call, info) {
        return Err(answer);
    }
    let tool = tools.resolve(&call.name, state)?;
    let raw = if call.arguments.trim().is_empty() {
        "{}"
    } else {
        call.arguments.as_str()
    };
    let args: serde_json::Value = serde_json::from_str(raw).map_err(|e| {
        ToolOutput::error(format!(
            "the arguments of `{}` are not valid JSON ({e}); send one JSON object",
            call.name
        ))
    })?;
    if !args.is_object() {
        return Err(ToolOutput::error(format!(
            "the arguments of `{}` must be a JSON object, not {}",
            call.name,
            json_kind(&args)
        )));
    }
    Ok((tool, args))
}

fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

async fn commit_result(
    parts: &RunParts,
    spec: &RunSpec,
    call_id: &str,
    output: ToolOutput,
) -> Result<(), StoreError> {
    let mut message = Message::tool_result(
        &spec.thread_id,
        &spec.run_id,
        call_id,
        output.content,
        output.is_error,
    );
    message.metadata = output.metadata.map(|m| *m).filter(|m| !m.is_empty());
    let (s, m) = (parts.store.clone(), message.clone());
    blocking(move || s.append_message(&m)).await?;
    (parts.sink)(RunEvent::MessageAdded { message });
    Ok(())
}

async fn commit_delta(
    store: &Arc<dyn ThreadStore>,
    message_id: &str,
    text: &str,
    reasoning: bool,
) -> Result<(), StoreError> {
    let (s, id, t) = (store.clone(), message_id.to_string(), text.to_string());
    blocking(move || s.append_delta(&id, &t, reasoning)).await
}

/// Runs a quick store call on the blocking pool, off the async threads.
async fn blocking<T, F>(f: F) -> Result<T, StoreError>
where
    F: FnOnce() -> Result<T, StoreError> + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| StoreError::Db {
            op: "run a store call",
            detail: e.to_string(),
        })?
}
