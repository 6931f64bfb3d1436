use std::sync::Arc;

use futures::StreamExt;
use tokio_util::sync::CancellationToken;
use tracing::{info_span, warn, Instrument};

use super::events::{EventSink, RunEvent, RunOutcome};
use crate::model::{ModelClient, ModelError, ModelRequest, StreamEvent};
use crate::thread::{Message, MessageStatus, StoreError, ThreadStore};

/// What to run: one user message answered by one model turn.
#[derive(Debug, Clone)]
pub struct RunSpec {
    pub thread_id: String,
    pub run_id: String,
    pub user_message: String,
    pub model: String,
    pub system: Option<String>,
}

/// Runs one model turn on a thread: stores the user's message, streams the assistant's reply
/// into the store delta by delta, and announces each committed step on `sink`.
///
/// Never panics on model or network failure: the failure becomes the assistant message's
/// `error` and the run's outcome, and every delta already streamed stays stored.
pub async fn run_turn(
    store: Arc<dyn ThreadStore>,
    model: Arc<dyn ModelClient>,
    spec: RunSpec,
    sink: EventSink,
    cancel: CancellationToken,
) -> RunOutcome {
    let span = info_span!("run", run_id = %spec.run_id, thread_id = %spec.thread_id);
    async move {
        let (outcome, error) = match drive(&store, model.as_ref(), &spec, &sink, &cancel).await {
            Ok(outcome) => outcome,
            Err(e) => {
                warn!(error = %e, "run stopped by a store failure");
                (
                    RunOutcome::Failed,
                    Some(format!("could not save the conversation: {e}")),
                )
            }
        };
        let (s, run_id, status) = (store.clone(), spec.run_id.clone(), outcome.as_str());
        if let Err(e) = blocking(move || s.end_run(&run_id, status)).await {
            warn!(error = %e, "could not record the end of the run");
        }
        sink(RunEvent::RunFinished {
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

async fn drive(
    store: &Arc<dyn ThreadStore>,
    model: &dyn ModelClient,
    spec: &RunSpec,
    sink: &EventSink,
    cancel: &CancellationToken,
) -> Result<(RunOutcome, Option<String>), StoreError> {
    let (s, t, r) = (store.clone(), spec.thread_id.clone(), spec.run_id.clone());
    blocking(move || s.begin_run(&t, &r)).await?;
    sink(RunEvent::RunStarted {
        run_id: spec.run_id.clone(),
        thread_id: spec.thread_id.clone(),
    });

    let user = Message::user(&spec.thread_id, spec.user_message.clone());
    let (s, m) = (store.clone(), user.clone());
    blocking(move || s.append_message(&m)).await?;
    sink(RunEvent::MessageAdded { message: user });

    let (s, t) = (store.clone(), spec.thread_id.clone());
    let history = blocking(move || s.load_messages(&t)).await?;

    let mut reply = Message::assistant_streaming(&spec.thread_id, &spec.run_id);
    let (s, m) = (store.clone(), reply.clone());
    blocking(move || s.append_message(&m)).await?;
    sink(RunEvent::MessageAdded {
        message: reply.clone(),
    });

    let request = ModelRequest {
        model: spec.model.clone(),
        system: spec.system.clone(),
        messages: history,
        tools: Vec::new(),
        max_tokens: None,
    };
    let ended = stream_reply(store, model, request, &mut reply, spec, sink, cancel).await?;

    let (status, outcome, error) = match ended {
        Ended::Finished => (MessageStatus::Complete, RunOutcome::Completed, None),
        Ended::Cancelled => (MessageStatus::Cancelled, RunOutcome::Cancelled, None),
        Ended::Failed(e) => (
            MessageStatus::Error,
            RunOutcome::Failed,
            Some(e.to_string()),
        ),
    };
    reply.status = status;
    reply.error = error.clone();
    let (s, m) = (store.clone(), reply.clone());
    blocking(move || s.finish_message(&m)).await?;
    sink(RunEvent::MessageUpdated { message: reply });
    Ok((outcome, error))
}

enum Ended {
    Finished,
    Cancelled,
    Failed(ModelError),
}

async fn stream_reply(
    store: &Arc<dyn ThreadStore>,
    model: &dyn ModelClient,
    request: ModelRequest,
    reply: &mut Message,
    spec: &RunSpec,
    sink: &EventSink,
    cancel: &CancellationToken,
) -> Result<Ended, StoreError> {
    let mut stream = tokio::select! {
        _ = cancel.cancelled() => return Ok(Ended::Cancelled),
        started = model.stream(request) => match started {
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
                    url: model.describe(),
                    detail: "the stream ended before the model finished its reply".into(),
                }))
            }
            Some(Err(e)) => return Ok(Ended::Failed(e)),
            Some(Ok(StreamEvent::Finish(_))) => return Ok(Ended::Finished),
            Some(Ok(StreamEvent::TextDelta(text))) => {
                commit_delta(store, &reply.id, &text, false).await?;
                reply.content.push_str(&text);
                sink(RunEvent::Delta {
                    message_id: reply.id.clone(),
                    text,
                    reasoning: false,
                });
            }
            Some(Ok(StreamEvent::ReasoningDelta(text))) => {
                commit_delta(store, &reply.id, &text, true).await?;
                reply.reasoning.push_str(&text);
                sink(RunEvent::Delta {
                    message_id: reply.id.clone(),
                    text,
                    reasoning: true,
                });
            }
            Some(Ok(StreamEvent::ToolCall(call))) => reply.tool_calls.push(call),
            Some(Ok(StreamEvent::Usage(usage))) => sink(RunEvent::Usage {
                run_id: spec.run_id.clone(),
                usage,
            }),
        }
    }
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
