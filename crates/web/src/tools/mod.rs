//! The three tools over one shared client and key store. Each file is one tool: its schema,
//! its arguments and the requests it makes.

mod image_search;
mod web_fetch;
mod web_search;

use std::future::Future;
use std::sync::Arc;

use workbench_core::tools::{ToolContext, ToolError, ToolMeta, ToolSource};

pub use image_search::{ImageSearch, IMAGE_SEARCH_NAME};
pub use web_fetch::{WebFetch, WEB_FETCH_NAME};
pub use web_search::{WebSearch, WEB_SEARCH_NAME};

use crate::error::WebError;
use crate::http::Http;
use crate::keys::{first_keyed, KeyStore, KeyedService};

/// The group approvals and agents select the web tools by; it asks by default.
pub const WEB_GROUP: &str = "web";

/// What every web tool shares.
#[derive(Clone)]
pub(crate) struct Shared {
    pub http: Http,
    pub keys: Arc<dyn KeyStore>,
}

impl Shared {
    /// The keyed service to use and its key, read on the blocking pool; `None` = DuckDuckGo.
    pub async fn keyed_service(&self) -> Option<(KeyedService, String)> {
        let keys = self.keys.clone();
        tokio::task::spawn_blocking(move || first_keyed(keys.as_ref()))
            .await
            .unwrap_or_else(|e| {
                tracing::warn!(error = %e, "reading search keys failed");
                None
            })
    }
}

pub(crate) fn meta() -> ToolMeta {
    ToolMeta::new(ToolSource::Web, WEB_GROUP)
}

/// Runs `work` until it ends or the run is cancelled; a web error becomes the tool's error.
pub(crate) async fn cancellable<T>(
    ctx: &ToolContext,
    work: impl Future<Output = Result<T, WebError>>,
) -> Result<T, ToolError> {
    tokio::select! {
        r = work => r.map_err(|e| ToolError::Failed(e.to_string())),
        _ = ctx.cancel.cancelled() => Err(ToolError::Cancelled),
    }
}

/// Parses the arguments object into `T`, with a sentence the model can fix its call from.
pub(crate) fn parse_args<T: serde::de::DeserializeOwned>(
    args: serde_json::Value,
) -> Result<T, ToolError> {
    serde_json::from_value(args).map_err(|e| ToolError::InvalidArguments(e.to_string()))
}

/// A query with its whitespace trimmed; blank and over-long queries are refused.
pub(crate) fn check_query(query: &str) -> Result<String, ToolError> {
    /// Longer is a pasted document, not a query; search services cut or refuse it anyway.
    const MAX_QUERY_CHARS: usize = 400;
    let q = query.split_whitespace().collect::<Vec<_>>().join(" ");
    if q.is_empty() {
        return Err(ToolError::InvalidArguments("`query` is empty".into()));
    }
    if q.chars().count() > MAX_QUERY_CHARS {
        return Err(ToolError::InvalidArguments(format!(
            "`query` is longer than {MAX_QUERY_CHARS} characters; search for the key words"
        )));
    }
    Ok(q)
}

/// A keyed service's HTTP error with a hint: a refused key is the user's to fix.
pub(crate) fn keyed_error(service: KeyedService, name: &str, e: WebError) -> WebError {
    match e {
        WebError::Status { status, .. } if matches!(status, 401 | 403) => WebError::Refused {
            service: name.into(),
            detail: format!(
                "HTTP {status}: the stored key was not accepted; replace it with \
                 `workbench web key {}`",
                service.id()
            ),
        },
        WebError::Status { status: 429, .. } => WebError::Refused {
            service: name.into(),
            detail: "HTTP 429: the key's rate limit or quota is used up; try again later".into(),
        },
        other => other,
    }
}
