//! `scripted-model`: the one test double for a language model in Workbench. It is a real HTTP
//! server that speaks OpenAI Chat Completions and Anthropic Messages over SSE and replays
//! recorded response files, so production clients are tested over real sockets.
//!
//! For: Rust integration tests ([`ScriptedServer`]), the e2e tests (the `scripted-model` binary)
//! and benchmarks. Not for: generating answers, validating request semantics beyond what a test
//! needs, or anything in the shipped app.
//!
//! Fixtures live in one folder (see `tests/fixtures/model/README.md`): the request's `model`
//! picks `<model>.openai.sse` or `<model>.anthropic.sse`, and an optional `<model>.script.json`
//! scripts faults (HTTP errors, delays, connections cut mid-stream), one step per request.

#![warn(missing_docs)]

mod fixtures;
mod wire;

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

pub use fixtures::{Script, Step};
pub use wire::Api;

/// After the last event before a cut, give the server a moment to flush what it already wrote,
/// so the client sees exactly `cut_after_events` events and then a broken connection.
const CUT_FLUSH_PAUSE: Duration = Duration::from_millis(20);

/// How the server behaves beyond its fixtures.
#[derive(Debug, Clone, Default)]
pub struct ServerOptions {
    /// When set, requests must carry this key (`Authorization: Bearer K` for OpenAI,
    /// `x-api-key: K` for Anthropic) or get HTTP 401 with the provider's error body.
    pub require_key: Option<String>,
    /// Port to bind on 127.0.0.1; 0 picks a free one.
    pub port: u16,
}

/// What happened to a recorded request's reply stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StreamOutcome {
    /// The reply was not a stream (an error status, the model list).
    NotStreamed,
    /// Events are still being sent.
    Streaming,
    /// Every event of the fixture was sent.
    Completed,
    /// The script cut the connection after `cut_after_events` events.
    Cut,
    /// The client went away before the stream ended (the body was dropped mid-stream).
    ClientClosed,
}

/// One request the server received, for test assertions (`GET /_requests`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedRequest {
    /// The route, e.g. `/v1/chat/completions`.
    pub path: String,
    /// Only `authorization`, `x-api-key` and `anthropic-version`, when present.
    pub headers: BTreeMap<String, String>,
    /// The request body as JSON (`null` if it was not JSON).
    pub body: serde_json::Value,
    /// The HTTP status the server answered with.
    pub status: u16,
    /// How many SSE events were handed to the connection.
    pub events_sent: usize,
    /// How the reply stream ended (or that it is still running).
    pub outcome: StreamOutcome,
}

/// Headers worth recording: the ones tests assert on. Anything else is noise.
const RECORDED_HEADERS: [&str; 3] = ["authorization", "x-api-key", "anthropic-version"];

struct ServerState {
    fixtures: PathBuf,
    options: ServerOptions,
    requests: Mutex<Vec<RecordedRequest>>,
    /// Per model: how many script steps have been consumed.
    step_counters: Mutex<HashMap<String, usize>>,
}

impl ServerState {
    fn requests(&self) -> MutexGuard<'_, Vec<RecordedRequest>> {
        // A panic while holding the lock leaves plain data behind; keep serving it.
        self.requests.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn update(&self, index: usize, f: impl FnOnce(&mut RecordedRequest)) {
        if let Some(r) = self.requests().get_mut(index) {
            f(r);
        }
    }

    fn next_step(&self, model: &str, script: &Script) -> Option<Step> {
        let mut counters = self.step_counters.lock().unwrap_or_else(|e| e.into_inner());
        let n = counters.entry(model.to_string()).or_insert(0);
        // Steps are consumed one per request; the last one then repeats.
        let step = script
            .steps
            .get(*n)
            .or_else(|| script.steps.last())
            .cloned();
        *n += 1;
        step
    }
}

/// A running scripted model server on 127.0.0.1. It runs on its own thread and runtime, so it
/// works from sync and async tests alike; dropping it stops the server and closes every
/// connection.
pub struct ScriptedServer {
    addr: SocketAddr,
    state: Arc<ServerState>,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ScriptedServer {
    /// Binds 127.0.0.1 (`options.port`, 0 = any free port) and starts serving the fixtures in
    /// `fixtures_dir`. Fixture files are read per request, so tests may write them afterwards.
    pub fn start(
        fixtures_dir: impl Into<PathBuf>,
        options: ServerOptions,
    ) -> std::io::Result<ScriptedServer> {
        let listener = std::net::TcpListener::bind(("127.0.0.1", options.port))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let state = Arc::new(ServerState {
            fixtures: fixtures_dir.into(),
            options,
            requests: Mutex::new(Vec::new()),
            step_counters: Mutex::new(HashMap::new()),
        });
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (tx, rx) = oneshot::channel::<()>();
        let app = router(state.clone());
        let thread = std::thread::Builder::new()
            .name(format!("scripted-model-{}", addr.port()))
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = match tokio::net::TcpListener::from_std(listener) {
                        Ok(l) => l,
                        Err(e) => {
                            tracing::error!(error = %e, "scripted-model could not listen");
                            return;
                        }
                    };
                    // Not a graceful shutdown: a test that drops the server wants streams that
                    // are still running (slow fixtures) to die with it. Dropping the runtime
                    // below cancels every connection task.
                    tokio::select! {
                        r = axum::serve(listener, app) => {
                            if let Err(e) = r {
                                tracing::error!(error = %e, "scripted-model stopped");
                            }
                        }
                        _ = rx => {}
                    }
                });
                drop(runtime);
            })?;
        Ok(ScriptedServer {
            addr,
            state,
            shutdown: Some(tx),
            thread: Some(thread),
        })
    }

    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The base URL clients are configured with, e.g. `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Every request received so far, oldest first.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state.requests().clone()
    }

    /// Blocks the calling thread until the server stops (used by the binary).
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn router(state: Arc<ServerState>) -> Router {
    Router::new()
        .route(
            "/v1/chat/completions",
            post(
                |s: State<Arc<ServerState>>, h: HeaderMap, b: Bytes| async move {
                    handle_completion(Api::OpenAi, s.0, h, b).await
                },
            ),
        )
        .route(
            "/v1/messages",
            post(
                |s: State<Arc<ServerState>>, h: HeaderMap, b: Bytes| async move {
                    handle_completion(Api::Anthropic, s.0, h, b).await
                },
            ),
        )
        .route("/v1/models", get(list_models))
        .route("/_requests", get(list_requests))
        .with_state(state)
}

async fn list_requests(State(state): State<Arc<ServerState>>) -> Json<Vec<RecordedRequest>> {
    Json(state.requests().clone())
}

async fn list_models(State(state): State<Arc<ServerState>>) -> Response {
    match fixtures::model_names(&state.fixtures).await {
        Ok(names) => {
            let data: Vec<_> = names
                .iter()
                .map(|n| {
                    serde_json::json!({"id": n, "object": "model", "created": 0, "owned_by": "scripted-model"})
                })
                .collect();
            Json(serde_json::json!({"object": "list", "data": data})).into_response()
        }
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("scripted-model: cannot list fixtures: {e}"),
        )
            .into_response(),
    }
}

fn error_response(
    api: Api,
    status: u16,
    message: Option<&str>,
    model: &str,
    retry_after: Option<u64>,
) -> Response {
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut resp = (code, Json(wire::error_body(api, status, message, model))).into_response();
    if let Some(secs) = retry_after {
        resp.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    resp
}

async fn handle_completion(
    api: Api,
    state: Arc<ServerState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let json: Option<serde_json::Value> = serde_json::from_slice(&body).ok();
    let recorded_headers = RECORDED_HEADERS
        .iter()
        .filter_map(|name| {
            let v = headers.get(*name)?.to_str().ok()?;
            Some((name.to_string(), v.to_string()))
        })
        .collect();
    let index = {
        let mut reqs = state.requests();
        reqs.push(RecordedRequest {
            path: api.path().to_string(),
            headers: recorded_headers,
            body: json.clone().unwrap_or(serde_json::Value::Null),
            status: 0,
            events_sent: 0,
            outcome: StreamOutcome::NotStreamed,
        });
        reqs.len() - 1
    };
    let resp = respond(api, &state, &headers, json, index).await;
    let status = resp.status().as_u16();
    state.update(index, |r| r.status = status);
    resp
}

async fn respond(
    api: Api,
    state: &Arc<ServerState>,
    headers: &HeaderMap,
    json: Option<serde_json::Value>,
    index: usize,
) -> Response {
    let model = json
        .as_ref()
        .and_then(|j| j.get("model"))
        .and_then(|m| m.as_str())
        .unwrap_or("")
        .to_string();
    if let Some(key) = &state.options.require_key {
        let presented = match api {
            Api::OpenAi => headers
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("Bearer ")),
            Api::Anthropic => headers.get("x-api-key").and_then(|v| v.to_str().ok()),
        };
        if presented != Some(key.as_str()) {
            return error_response(api, 401, None, &model, None);
        }
    }
    let Some(json) = json else {
        return error_response(
            api,
            400,
            Some("the request body is not valid JSON"),
            &model,
            None,
        );
    };
    if model.is_empty() {
        return error_response(api, 400, Some("`model` is required"), &model, None);
    }
    if json.get("stream").and_then(|s| s.as_bool()) != Some(true) {
        return error_response(
            api,
            400,
            Some("scripted-model only replays streams; set `stream: true`"),
            &model,
            None,
        );
    }
    if !fixtures::is_safe_name(&model) {
        return error_response(api, 404, None, &model, None);
    }

    let step = match fixtures::load_script(&state.fixtures, &model).await {
        Ok(Some(script)) => match state.next_step(&model, &script) {
            Some(step) => step,
            None => Step::replay(&model),
        },
        Ok(None) => Step::replay(&model),
        Err(e) => {
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("scripted-model: bad script for `{model}`: {e}"),
            )
                .into_response()
        }
    };

    if let Some(status) = step.status {
        return error_response(
            api,
            status,
            step.message.as_deref(),
            &model,
            step.retry_after_secs,
        );
    }
    let name = step.replay.clone().unwrap_or_else(|| model.clone());
    let events = match fixtures::load_events(&state.fixtures, &name, api).await {
        Ok(Some(events)) => events,
        // A model with no fixture for this API does not exist there, as on a real server.
        Ok(None) => return error_response(api, 404, None, &model, None),
        Err(e) => {
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("scripted-model: cannot read fixture `{name}`: {e}"),
            )
                .into_response()
        }
    };
    let include_usage = json
        .pointer("/stream_options/include_usage")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let events: Vec<String> = events
        .into_iter()
        .filter(|e| api != Api::OpenAi || include_usage || !wire::is_openai_usage_chunk(e))
        .collect();
    state.update(index, |r| r.outcome = StreamOutcome::Streaming);
    stream_response(events, &step, state.clone(), index)
}

/// Sends `events` one body chunk each, with the step's delay and cut, and records how far it
/// got, including when the client goes away (the body is dropped unfinished).
fn stream_response(
    events: Vec<String>,
    step: &Step,
    state: Arc<ServerState>,
    index: usize,
) -> Response {
    struct Sender {
        events: std::vec::IntoIter<String>,
        sent: usize,
        delay: Option<Duration>,
        cut_after: Option<usize>,
        state: Arc<ServerState>,
        index: usize,
        finished: bool,
    }
    impl Drop for Sender {
        fn drop(&mut self) {
            if !self.finished {
                self.state
                    .update(self.index, |r| r.outcome = StreamOutcome::ClientClosed);
            }
        }
    }
    let sender = Sender {
        events: events.into_iter(),
        sent: 0,
        delay: step.delay_ms.map(Duration::from_millis),
        cut_after: step.cut_after_events,
        state,
        index,
        finished: false,
    };
    let body = futures::stream::unfold(sender, |mut s| async move {
        if s.finished {
            return None;
        }
        if s.cut_after == Some(s.sent) {
            tokio::time::sleep(CUT_FLUSH_PAUSE).await;
            s.finished = true;
            s.state.update(s.index, |r| r.outcome = StreamOutcome::Cut);
            // An error from the body makes hyper drop the connection without the terminating
            // chunk: the client sees a broken stream, like a real network failure.
            let err = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "scripted cut");
            return Some((Err(err), s));
        }
        if let Some(d) = s.delay {
            tokio::time::sleep(d).await;
        }
        match s.events.next() {
            Some(event) => {
                s.sent += 1;
                let sent = s.sent;
                s.state.update(s.index, |r| r.events_sent = sent);
                Some((Ok(Bytes::from(format!("{event}\n\n"))), s))
            }
            None => {
                s.finished = true;
                s.state
                    .update(s.index, |r| r.outcome = StreamOutcome::Completed);
                None
            }
        }
    });
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(Body::from_stream(body))
        .unwrap_or_else(|e| {
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("scripted-model: {e}"),
            )
                .into_response()
        })
}
