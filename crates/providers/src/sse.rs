//! The part both providers share: send the request (with retries until the first event), read
//! the SSE body with `eventsource-stream`, and feed each event to a provider's [`WireParser`],
//! which turns it into [`StreamEvent`]s.
//!
//! Dropping the returned stream drops the HTTP response, which closes the connection: that is
//! how a cancelled run stops the network read.

use std::collections::VecDeque;
use std::pin::Pin;

use eventsource_stream::{Event, EventStreamError, Eventsource};
use futures::{Stream, StreamExt};
use workbench_core::model::{ModelError, ModelStream, StreamEvent};

use crate::http_errors::{self, CallSite};
use crate::retry::{self, Failure, RetryPolicy};

/// Error bodies are read up to this size; beyond it the server is sending a page, not a
/// message.
const MAX_ERROR_BODY_BYTES: usize = 64 * 1024;

/// Turns one provider's SSE events into stream events.
pub(crate) trait WireParser: Send + 'static {
    /// Handles one SSE event (`event` is the SSE event name, "message" when absent).
    fn on_event(
        &mut self,
        event: &str,
        data: &str,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), ModelError>;
    /// Whether the terminal event was seen; nothing is read after it.
    fn is_done(&self) -> bool;
    /// The body ended before the terminal event: finish leniently or say the stream broke.
    fn on_eof(&mut self, out: &mut Vec<StreamEvent>) -> Result<(), ModelError>;
}

type SseStream =
    Pin<Box<dyn Stream<Item = Result<Event, EventStreamError<reqwest::Error>>> + Send>>;

/// Reads events from one response until the parser is done or the stream fails.
struct EventReader<P> {
    sse: SseStream,
    parser: P,
    pending: VecDeque<StreamEvent>,
    /// The error that ends the stream, once `pending` is drained.
    failed: Option<ModelError>,
    done: bool,
    url: String,
}

impl<P: WireParser> EventReader<P> {
    fn new(response: reqwest::Response, parser: P, url: String) -> Self {
        Self {
            sse: Box::pin(response.bytes_stream().eventsource()),
            parser,
            pending: VecDeque::new(),
            failed: None,
            done: false,
            url,
        }
    }

    async fn next(&mut self) -> Option<Result<StreamEvent, ModelError>> {
        let mut out = Vec::new();
        loop {
            if let Some(ev) = self.pending.pop_front() {
                return Some(Ok(ev));
            }
            // Events parsed before a failure reach the caller first, then the failure.
            if let Some(e) = self.failed.take() {
                return Some(Err(e));
            }
            if self.done {
                return None;
            }
            let step = match self.sse.next().await {
                Some(Ok(ev)) => {
                    let r = self.parser.on_event(&ev.event, &ev.data, &mut out);
                    self.done = self.parser.is_done();
                    r
                }
                Some(Err(e)) => Err(ModelError::StreamBroken {
                    url: self.url.clone(),
                    detail: stream_error_detail(&e),
                }),
                None => {
                    self.done = true;
                    self.parser.on_eof(&mut out)
                }
            };
            self.pending.extend(out.drain(..));
            if let Err(e) = step {
                self.done = true;
                self.failed = Some(e);
            }
        }
    }
}

/// One streaming call: how to build the request and the parser for its reply.
pub(crate) struct StreamCall<'a, B, M> {
    pub site: CallSite<'a>,
    pub policy: &'a RetryPolicy,
    /// Builds a fresh request for each attempt.
    pub build: B,
    /// Makes a fresh parser for each attempt.
    pub make_parser: M,
}

/// Sends the request, retrying 429 / 5xx / connection failures / streams that broke before
/// their first event, and returns the stream once its first event is in hand.
pub(crate) async fn open<P, B, M>(call: StreamCall<'_, B, M>) -> Result<ModelStream, ModelError>
where
    P: WireParser,
    B: Fn() -> reqwest::RequestBuilder,
    M: Fn() -> P,
{
    let site = &call.site;
    retry::with_retries(call.policy, |attempt| {
        let request = (call.build)();
        let parser = (call.make_parser)();
        async move {
            tracing::debug!(
                url = site.base_url,
                model = site.model,
                attempt,
                "model request"
            );
            let response = request
                .send()
                .await
                .map_err(|e| transport_failure(&e, site))?;
            let status = response.status();
            if !status.is_success() {
                let retry_after = http_errors::retry_after(response.headers());
                let body = read_capped(response).await;
                let error = http_errors::from_status(status.as_u16(), &body, site, retry_after);
                tracing::debug!(status = status.as_u16(), %error, "model request failed");
                return Err(Failure::from_error(error, retry_after));
            }
            if let Some(ct) = response
                .headers()
                .get(reqwest::header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
            {
                if ct.starts_with("application/json") {
                    let body = read_capped(response).await;
                    return Err(Failure::from_error(
                        ModelError::Protocol {
                            url: site.base_url.to_string(),
                            detail: format!(
                                "expected a stream of events but got a JSON document: {}",
                                http_errors::server_message(&body)
                            ),
                        },
                        None,
                    ));
                }
            }
            let mut reader = EventReader::new(response, parser, site.base_url.to_string());
            match reader.next().await {
                Some(Ok(first)) => {
                    let rest = futures::stream::unfold(reader, |mut r| async move {
                        r.next().await.map(|item| (item, r))
                    });
                    Ok(futures::stream::once(async move { Ok(first) })
                        .chain(rest)
                        .boxed())
                }
                Some(Err(error)) => {
                    // Nothing reached the caller yet, so even a broken stream may be retried.
                    let retryable =
                        error.is_retryable() || matches!(error, ModelError::StreamBroken { .. });
                    Err(Failure {
                        error,
                        retryable,
                        retry_after: None,
                    })
                }
                None => Err(Failure {
                    error: ModelError::StreamBroken {
                        url: site.base_url.to_string(),
                        detail: "the server sent an empty reply".into(),
                    },
                    retryable: true,
                    retry_after: None,
                }),
            }
        }
    })
    .await
}

async fn read_capped(mut response: reqwest::Response) -> String {
    let mut buf = Vec::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        let room = MAX_ERROR_BODY_BYTES.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if buf.len() >= MAX_ERROR_BODY_BYTES {
            break;
        }
    }
    String::from_utf8_lossy(&buf).into_owned()
}

fn transport_failure(e: &reqwest::Error, site: &CallSite<'_>) -> Failure {
    let url = site.base_url.to_string();
    if e.is_builder() {
        // A malformed URL will not get better by retrying.
        return Failure {
            error: ModelError::Unreachable {
                url,
                detail: format!("the URL is not valid ({})", plain_detail(e)),
            },
            retryable: false,
            retry_after: None,
        };
    }
    Failure::from_error(
        ModelError::Unreachable {
            url,
            detail: plain_detail(e),
        },
        None,
    )
}

/// A short plain reason for a transport error ("connection refused"), found by walking the
/// error's sources; hyper's and reqwest's own wording is kept only as a last resort.
pub(crate) fn plain_detail(e: &(dyn std::error::Error + 'static)) -> String {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    let mut innermost = e.to_string();
    let mut timed_out = false;
    while let Some(err) = source {
        if let Some(io) = err.downcast_ref::<std::io::Error>() {
            use std::io::ErrorKind::*;
            let plain = match io.kind() {
                ConnectionRefused => Some("connection refused"),
                ConnectionReset => Some("connection reset"),
                ConnectionAborted => Some("connection aborted"),
                TimedOut => Some("timed out"),
                UnexpectedEof => Some("the connection closed unexpectedly"),
                AddrNotAvailable => Some("address not available"),
                _ => None,
            };
            if let Some(p) = plain {
                return p.to_string();
            }
        }
        if let Some(re) = err.downcast_ref::<reqwest::Error>() {
            timed_out |= re.is_timeout();
        }
        let text = err.to_string();
        if text.contains("dns error") || text.contains("failed to lookup address") {
            return "could not resolve the host name".into();
        }
        innermost = text;
        source = err.source();
    }
    if timed_out {
        return "timed out".into();
    }
    innermost
}

fn stream_error_detail(e: &EventStreamError<reqwest::Error>) -> String {
    match e {
        EventStreamError::Transport(t) => plain_detail(t),
        EventStreamError::Utf8(u) => format!("the reply is not valid UTF-8 ({u})"),
        EventStreamError::Parser(p) => format!("the event stream is malformed ({p})"),
    }
}
