//! `web_search(query, max_results?)`: Brave or Tavily when the user stored a key, otherwise
//! DuckDuckGo's HTML results page. Results are title, URL and snippet.

use serde::Deserialize;
use serde_json::json;
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput};

use super::{cancellable, check_query, keyed_error, meta, parse_args, Shared};
use crate::config::{DEFAULT_RESULTS, MAX_RESULTS};
use crate::error::WebError;
use crate::http::endpoint;
use crate::keys::KeyedService;
use crate::results::{format_hits, SearchHit};
use crate::search::duckduckgo::{self, HtmlPage};
use crate::search::{brave, tavily};

/// The tool's name.
pub const WEB_SEARCH_NAME: &str = "web_search";

/// Searches the web.
pub struct WebSearch {
    shared: Shared,
    spec: ToolSpec,
    meta: ToolMeta,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    query: String,
    #[serde(default)]
    max_results: Option<usize>,
}

impl WebSearch {
    pub(crate) fn new(shared: Shared) -> Self {
        Self {
            shared,
            spec: ToolSpec {
                name: WEB_SEARCH_NAME.into(),
                description: "Search the web. Returns a numbered list of results, each with \
                    its title, URL and a snippet. Use web_fetch to read a result's page."
                    .into(),
                parameters: json!({
                    "type": "object",
                    "properties": {
                        "query": {"type": "string", "description": "What to search for, as you would type it into a search engine."},
                        "max_results": {"type": "integer", "minimum": 1, "maximum": MAX_RESULTS, "description": format!("How many results (default {DEFAULT_RESULTS}).")}
                    },
                    "required": ["query"],
                    "additionalProperties": false
                }),
            },
            meta: meta(),
        }
    }

    async fn search(
        &self,
        query: &str,
        n: usize,
    ) -> Result<(&'static str, Vec<SearchHit>), WebError> {
        let http = &self.shared.http;
        let endpoints = &http.config().endpoints;
        let (service, mut hits) = match self.shared.keyed_service().await {
            Some((KeyedService::Brave, key)) => {
                let url = endpoint(&endpoints.brave, "web/search")?;
                let req = http
                    .get(&url)
                    .query(&[("q", query), ("count", &n.to_string())])
                    .header("Accept", "application/json")
                    .header(brave::KEY_HEADER, key);
                let body = http
                    .send(&url, req)
                    .await
                    .map_err(|e| keyed_error(KeyedService::Brave, brave::SERVICE, e))?;
                (brave::SERVICE, brave::parse_web(&body.text)?)
            }
            Some((KeyedService::Tavily, key)) => {
                let url = endpoint(&endpoints.tavily, "search")?;
                let req = http.post(&url).bearer_auth(key).json(&tavily::Request {
                    query,
                    max_results: n,
                    include_images: false,
                    include_image_descriptions: false,
                });
                let body = http
                    .send(&url, req)
                    .await
                    .map_err(|e| keyed_error(KeyedService::Tavily, tavily::SERVICE, e))?;
                (tavily::SERVICE, tavily::parse_web(&body.text)?)
            }
            None => {
                let url = crate::http::web_url(&endpoints.duckduckgo_html)?;
                let req = http
                    .post(&url)
                    .form(&[("q", query), ("b", ""), ("kl", "")])
                    .header("Referer", url.as_str());
                let body = http.send(&url, req).await?;
                match duckduckgo::parse_html_results(&body.text) {
                    HtmlPage::Results(hits) => (duckduckgo::SERVICE, hits),
                    HtmlPage::BotCheck => {
                        return Err(WebError::Refused {
                            service: duckduckgo::SERVICE.into(),
                            detail: "it answered with its bot check instead of results; try \
                                again in a minute, or store a Brave Search or Tavily key for \
                                reliable search"
                                .into(),
                        })
                    }
                }
            }
        };
        hits.truncate(n);
        Ok((service, hits))
    }
}

#[async_trait::async_trait]
impl Tool for WebSearch {
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
        let args: Args = parse_args(args)?;
        let query = check_query(&args.query)?;
        let n = args.max_results.unwrap_or(DEFAULT_RESULTS);
        if !(1..=MAX_RESULTS).contains(&n) {
            return Err(ToolError::InvalidArguments(format!(
                "`max_results` must be between 1 and {MAX_RESULTS}"
            )));
        }
        let (service, hits) = cancellable(ctx, self.search(&query, n)).await?;
        Ok(ToolOutput::text(format_hits(&query, service, &hits)))
    }
}
