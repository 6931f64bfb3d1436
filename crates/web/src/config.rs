//! Where the web tools send their requests and the limits they keep. Every base URL can be
//! changed, so tests point the tools at a local server serving recorded pages.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Longest a whole request may take (connect, redirects, body).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
/// Longest the TCP + TLS connection may take; a dead host fails sooner than the whole timeout.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Most bytes read from one page: bigger pages are refused rather than cut mid-tag.
pub const MAX_FETCH_BYTES: usize = 5 * 1024 * 1024;
/// Most characters of page text returned. Below the tool-output budget (12,000) so a fetched
/// page plus its header is never spilled to a file.
pub const MAX_TEXT_CHARS: usize = 10_000;
/// Results a search returns when the model does not say.
pub const DEFAULT_RESULTS: usize = 8;
/// Most results one search may ask for.
pub const MAX_RESULTS: usize = 20;
/// Redirects followed before giving up.
pub const MAX_REDIRECTS: usize = 10;
/// Identifies the app honestly; some sites refuse requests without a user agent.
pub const USER_AGENT: &str = concat!(
    "Mozilla/5.0 (compatible; Workbench/",
    env!("CARGO_PKG_VERSION"),
    "; +https://github.com/workbench)"
);

/// Base URLs of the search services. Stored as the setting `web.endpoints` when changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Endpoints {
    /// DuckDuckGo's HTML-only results page (no key, no JavaScript).
    pub duckduckgo_html: String,
    /// DuckDuckGo's main site: the image search token page and `i.js`.
    pub duckduckgo: String,
    /// Brave Search API, up to `/res/v1/`.
    pub brave: String,
    /// Tavily API root.
    pub tavily: String,
}

impl Default for Endpoints {
    fn default() -> Self {
        Self {
            duckduckgo_html: "https://html.duckduckgo.com/html/".into(),
            duckduckgo: "https://duckduckgo.com/".into(),
            brave: "https://api.search.brave.com/res/v1/".into(),
            tavily: "https://api.tavily.com/".into(),
        }
    }
}

/// Everything the web tools need besides the keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebConfig {
    pub endpoints: Endpoints,
    pub timeout: Duration,
    pub max_fetch_bytes: usize,
    pub max_text_chars: usize,
}

impl Default for WebConfig {
    fn default() -> Self {
        Self {
            endpoints: Endpoints::default(),
            timeout: REQUEST_TIMEOUT,
            max_fetch_bytes: MAX_FETCH_BYTES,
            max_text_chars: MAX_TEXT_CHARS,
        }
    }
}
