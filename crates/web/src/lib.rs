//! The web tools of Workbench: `web_search` (DuckDuckGo's HTML page without a key; Brave
//! Search or Tavily when the user stored a key in the OS keychain), `web_fetch` (a page as
//! readable markdown with its title, capped) and `image_search`. All three are in group `web`,
//! which asks the user before each call by default (core's approvals).
//!
//! Not here: storing keys (the app writes them to the keychain; this crate reads them through
//! [`KeyStore`]), approvals, or spilling long results (core's middlewares).

pub mod config;
pub mod error;
pub mod http;
pub mod keys;
pub mod readable;
pub mod results;
pub mod search;
#[cfg(feature = "test-server")]
pub mod test_server;
mod tools;

use std::sync::Arc;

use workbench_core::tools::assembly::Candidate;
use workbench_core::tools::sources::{CandidateSource, SourceContext};
use workbench_core::tools::Tool;

pub use config::{Endpoints, WebConfig};
pub use error::WebError;
pub use keys::{KeyStore, KeyedService, NoKeys};
pub use tools::{
    ImageSearch, WebFetch, WebSearch, IMAGE_SEARCH_NAME, WEB_FETCH_NAME, WEB_GROUP, WEB_SEARCH_NAME,
};

/// The three web tools over one client. Fails only if the TLS backend cannot start.
pub fn web_tools(
    config: WebConfig,
    keys: Arc<dyn KeyStore>,
) -> Result<Vec<Arc<dyn Tool>>, WebError> {
    let shared = tools::Shared {
        http: http::Http::new(config)?,
        keys,
    };
    Ok(vec![
        Arc::new(WebSearch::new(shared.clone())),
        Arc::new(WebFetch::new(shared.clone())),
        Arc::new(ImageSearch::new(shared)),
    ])
}

/// The web tools as a candidate source of every run.
pub struct WebSource {
    tools: Vec<Arc<dyn Tool>>,
}

impl WebSource {
    /// A source offering `tools` (from [`web_tools`]).
    pub fn new(tools: Vec<Arc<dyn Tool>>) -> Self {
        Self { tools }
    }
}

impl CandidateSource for WebSource {
    fn name(&self) -> &str {
        "web"
    }

    fn candidates(&self, _ctx: &SourceContext) -> Vec<Candidate> {
        self.tools.iter().cloned().map(Candidate::new).collect()
    }
}
