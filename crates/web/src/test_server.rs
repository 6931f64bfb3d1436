//! A local HTTP server for tests (feature `test-server`): it serves recorded pages from a
//! folder (`tests/fixtures/web/`) by path, plus replies a test sets up (a status, a content
//! type, a delay, a chunked body), and records every request so tests can check what the
//! tools sent. It runs on its own thread and runtime; dropping it stops it.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tokio::sync::oneshot;

/// A reply set up by a test for one path.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub body: Bytes,
    /// Wait this long before answering.
    pub delay: Option<Duration>,
    /// Send the body in 1 KiB chunks without a `Content-Length`.
    pub chunked: bool,
    /// A `Location` header (for redirects).
    pub location: Option<String>,
}

impl Reply {
    /// `status` with `body` of `content_type`.
    pub fn new(status: u16, content_type: &str, body: impl Into<Bytes>) -> Self {
        Self {
            status,
            content_type: content_type.into(),
            body: body.into(),
            delay: None,
            chunked: false,
            location: None,
        }
    }
}

/// One request the server received.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    /// The raw query string, empty when none.
    pub query: String,
    /// Header names lowercased.
    pub headers: HashMap<String, String>,
    pub body: String,
}

impl Seen {
    /// The decoded value of query (or form body) parameter `name`.
    pub fn param(&self, name: &str) -> Option<String> {
        [self.query.as_str(), self.body.as_str()]
            .into_iter()
            .find_map(|s| {
                url::form_urlencoded::parse(s.as_bytes())
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| v.into_owned())
            })
    }
}

struct ServerState {
    dir: PathBuf,
    replies: Mutex<HashMap<String, Reply>>,
    seen: Mutex<Vec<Seen>>,
}

/// The running server.
pub struct FixtureServer {
    addr: SocketAddr,
    state: Arc<ServerState>,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FixtureServer {
    /// Serves the files of `dir` on 127.0.0.1 at a free port.
    pub fn start(dir: impl Into<PathBuf>) -> std::io::Result<Self> {
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let state = Arc::new(ServerState {
            dir: dir.into(),
            replies: Mutex::new(HashMap::new()),
            seen: Mutex::new(Vec::new()),
        });
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (tx, rx) = oneshot::channel::<()>();
        let app = Router::new().fallback(handle).with_state(state.clone());
        let thread = std::thread::Builder::new()
            .name(format!("web-fixtures-{}", addr.port()))
            .spawn(move || {
                runtime.block_on(async move {
                    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                        return;
                    };
                    tokio::select! {
                        _ = axum::serve(listener, app) => {}
                        _ = rx => {}
                    }
                });
            })?;
        Ok(Self {
            addr,
            state,
            shutdown: Some(tx),
            thread: Some(thread),
        })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `http://127.0.0.1:PORT/<path>`.
    pub fn url(&self, path: &str) -> String {
        format!("{}/{}", self.base_url(), path.trim_start_matches('/'))
    }

    /// Answers `path` (no query) with `reply` instead of a file.
    pub fn set_reply(&self, path: &str, reply: Reply) {
        let path = format!("/{}", path.trim_start_matches('/'));
        if let Ok(mut r) = self.state.replies.lock() {
            r.insert(path, reply);
        }
    }

    /// Every request so far, oldest first.
    pub fn seen(&self) -> Vec<Seen> {
        self.state
            .seen
            .lock()
            .map(|s| s.clone())
            .unwrap_or_default()
    }
}

impl Drop for FixtureServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

async fn handle(State(state): State<Arc<ServerState>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, 1024 * 1024)
        .await
        .unwrap_or_default();
    let path = parts.uri.path().to_string();
    if let Ok(mut seen) = state.seen.lock() {
        seen.push(Seen {
            method: parts.method.to_string(),
            path: path.clone(),
            query: parts.uri.query().unwrap_or("").to_string(),
            headers: parts
                .headers
                .iter()
                .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
                .collect(),
            body: String::from_utf8_lossy(&body).into_owned(),
        });
    }
    let reply = state
        .replies
        .lock()
        .ok()
        .and_then(|r| r.get(&path).cloned());
    let reply = match reply {
        Some(r) => r,
        None => {
            let rel = path.trim_start_matches('/');
            if rel.contains("..") {
                return StatusCode::BAD_REQUEST.into_response();
            }
            match tokio::fs::read(state.dir.join(rel)).await {
                Ok(bytes) => {
                    let mime = mime_guess::from_path(rel).first_or_octet_stream();
                    let ct = if mime.type_() == "text" || mime.subtype() == "json" {
                        format!("{mime}; charset=utf-8")
                    } else {
                        mime.to_string()
                    };
                    Reply::new(200, &ct, bytes)
                }
                Err(_) => Reply::new(404, "text/html", "<h1>404 Not Found</h1>"),
            }
        }
    };
    if let Some(d) = reply.delay {
        tokio::time::sleep(d).await;
    }
    let mut builder = Response::builder()
        .status(reply.status)
        .header(header::CONTENT_TYPE, reply.content_type.as_str());
    if let Some(loc) = &reply.location {
        builder = builder.header(header::LOCATION, loc.as_str());
    }
    let body = if reply.chunked {
        let chunks: Vec<Result<Bytes, std::io::Error>> = reply
            .body
            .chunks(1024)
            .map(|c| Ok(Bytes::copy_from_slice(c)))
            .collect();
        Body::from_stream(futures::stream::iter(chunks))
    } else {
        Body::from(reply.body)
    };
    builder
        .body(body)
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}
