//! `image_search(query, max_results?)`: images with their URL, a thumbnail, a title and the
//! page they are on. Brave's image API when a Brave key is stored, Tavily's images when a
//! Tavily key is, otherwise DuckDuckGo's image endpoint, which is unofficial and keyless: it
//! needs a token scraped from DuckDuckGo's page and is often refused, and the result says so.

use serde::Deserialize;
use serde_json::json;
use workbench_core::model::ToolSpec;
use workbench_core::tools::{Tool, ToolContext, ToolError, ToolMeta, ToolOutput};

use super::{cancellable, check_query, keyed_error, meta, parse_args, Shared};
use crate::config::MAX_RESULTS;
use crate::error::WebError;
use crate::http::endpoint;
use crate::keys::KeyedService;
use crate::results::{format_images, ImageHit};
use crate::search::{brave, duckduckgo, tavily};

/// The tool's name.
pub const IMAGE_SEARCH_NAME: &str = "image_search";
/// Images returned when the model does not say.
const DEFAULT_IMAGES: usize = 10;
/// Said under keyless results, so the model and the user know why it may fail next time.
const KEYLESS_NOTE: &str = "Found through DuckDuckGo's unofficial keyless image endpoint, which \
    may refuse requests at any time; a Brave Search key makes image search reliable.";

/// Searches for images.
pub struct ImageSearch {
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

impl ImageSearch {
    pub(crate) fn new(shared: Shared) -> Self {
        Self {
            shared,
            spec: ToolSpec {
                name: IMAGE_SEARCH_NAME.into(),
                description: "Search the web for images. Each result has the image URL, a \
                    thumbnail URL, a title and, when known, the page it is on and its size."
                    .into(),
                parameters: json!({
                    "type": "object",
                    "properties": {
                        "query": {"type": "string", "description": "What the images should show."},
                        "max_results": {"type": "integer", "minimum": 1, "maximum": MAX_RESULTS, "description": format!("How many images (default {DEFAULT_IMAGES}).")}
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
    ) -> Result<(&'static str, Vec<ImageHit>, Option<&'static str>), WebError> {
        let http = &self.shared.http;
        let endpoints = &http.config().endpoints;
        let (service, mut hits, note) = match self.shared.keyed_service().await {
            Some((KeyedService::Brave, key)) => {
                let url = endpoint(&endpoints.brave, "images/search")?;
                let req = http
                    .get(&url)
                    .query(&[("q", query), ("count", &n.to_string())])
                    .header("Accept", "application/json")
                    .header(brave::KEY_HEADER, key);
                let body = http
                    .send(&url, req)
                    .await
                    .map_err(|e| keyed_error(KeyedService::Brave, brave::SERVICE, e))?;
                (brave::SERVICE, brave::parse_images(&body.text)?, None)
            }
            Some((KeyedService::Tavily, key)) => {
                let url = endpoint(&endpoints.tavily, "search")?;
                let req = http.post(&url).bearer_auth(key).json(&tavily::Request {
                    query,
                    max_results: 5,
                    include_images: true,
                    include_image_descriptions: true,
                });
                let body = http
                    .send(&url, req)
                    .await
                    .map_err(|e| keyed_error(KeyedService::Tavily, tavily::SERVICE, e))?;
                (tavily::SERVICE, tavily::parse_images(&body.text)?, None)
            }
            None => {
                let hits = self
                    .duckduckgo(query)
                    .await
                    .map_err(|e| WebError::Refused {
                        service: "DuckDuckGo image search".into(),
                        detail: format!(
                            "{e}. It is an unofficial keyless endpoint that often refuses \
                         programs; store a Brave Search or Tavily key for reliable image search"
                        ),
                    })?;
                (duckduckgo::SERVICE, hits, Some(KEYLESS_NOTE))
            }
        };
        hits.truncate(n);
        Ok((service, hits, note))
    }

    /// The token from DuckDuckGo's image page, then the `i.js` results it unlocks.
    async fn duckduckgo(&self, query: &str) -> Result<Vec<ImageHit>, WebError> {
        let http = &self.shared.http;
        let base = &http.config().endpoints.duckduckgo;
        let page_url = endpoint(base, "")?;
        let req = http
            .get(&page_url)
            .query(&[("q", query), ("iax", "images"), ("ia", "images")]);
        let page = http.send(&page_url, req).await?;
        let vqd = duckduckgo::find_vqd(&page.text).ok_or_else(|| WebError::BadAnswer {
            service: duckduckgo::SERVICE.into(),
            detail: "its page carried no search token (vqd)".into(),
        })?;
        let url = endpoint(base, "i.js")?;
        let req = http
            .get(&url)
            .query(&[
                ("l", "wt-wt"),
                ("o", "json"),
                ("q", query),
                ("vqd", vqd.as_str()),
                ("f", ",,,,,"),
                ("p", "1"),
            ])
            .header("Referer", page_url.as_str())
            .header("Accept", "application/json, text/javascript, */*; q=0.01");
        let body = http.send(&url, req).await?;
        duckduckgo::parse_images(&body.text)
    }
}

#[async_trait::async_trait]
impl Tool for ImageSearch {
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
        let n = args.max_results.unwrap_or(DEFAULT_IMAGES);
        if !(1..=MAX_RESULTS).contains(&n) {
            return Err(ToolError::InvalidArguments(format!(
                "`max_results` must be between 1 and {MAX_RESULTS}"
            )));
        }
        let (service, hits, note) = cancellable(ctx, self.search(&query, n)).await?;
        Ok(ToolOutput::text(format_images(
            &query, service, &hits, note,
        )))
    }
}
