//! `tool_search`: how the model finds and loads deferred tools.
//!
//! The first model request lists deferred tools by name only; their schemas stay out of the
//! context until the model searches. A search returns the matching schemas and records them as
//! promoted for the run's catalog (a [`StateUpdate::Promoted`]), so the model-call step sends
//! them from the next turn on. The tool closes over the run's immutable catalog and keeps no
//! state of its own.

use std::sync::Arc;

use serde_json::{json, Value};

use crate::model::ToolSpec;
use crate::tools::search::{parse_query, Query, DEFAULT_LIMIT};
use crate::tools::{
    DeferredCatalog, StateUpdate, Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource,
};

/// The name the model calls.
pub const TOOL_SEARCH_NAME: &str = "tool_search";

/// The most tools one search may return: each carries a full schema (some are 10 KB), so a
/// larger page would bring back the context cost deferral exists to avoid.
pub const MAX_LIMIT: usize = 20;

/// How many catalog names a "nothing matched" answer shows as examples.
const EXAMPLE_NAMES: usize = 8;

const DESCRIPTION: &str = "\
Search the deferred tools (listed by name only) and load the ones you need. Returns the full \
schema of each match; the matched tools are callable from your next turn on. Query forms: \
`select:name1,name2` loads exactly these tools (an exposed name like `github__create_issue`, or \
`server/tool`); `+word rest` keeps only tools whose name contains `word` and ranks them by the \
rest (e.g. `+slack send message`); anything else is free text ranked by relevance (e.g. `take a \
screenshot of the page`). Returns at most `limit` tools (default 5, at most 20).";

/// The built-in `tool_search` over one run's deferred catalog.
pub struct ToolSearch {
    catalog: Arc<DeferredCatalog>,
    spec: ToolSpec,
    meta: ToolMeta,
}

impl ToolSearch {
    /// `tool_search` over `catalog`.
    pub fn new(catalog: Arc<DeferredCatalog>) -> Self {
        let spec = ToolSpec {
            name: TOOL_SEARCH_NAME.into(),
            description: DESCRIPTION.into(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "query": {
                        "type": "string",
                        "description": "`select:a,b`, `+word rest`, or words describing the tool you need."
                    },
                    "limit": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": MAX_LIMIT,
                        "description": "How many tools to return (default 5)."
                    }
                },
                "required": ["query"],
                "additionalProperties": false
            }),
        };
        Self {
            catalog,
            spec,
            meta: ToolMeta::new(ToolSource::Builtin, "builtin"),
        }
    }

    /// The catalog this tool searches.
    pub fn catalog(&self) -> &Arc<DeferredCatalog> {
        &self.catalog
    }

    /// The answer for a search: schemas and a promotion, or a helpful text when nothing matched.
    fn answer(&self, args: &SearchArgs) -> Result<ToolOutput, ToolError> {
        let (limit, missing) = match parse_query(&args.query) {
            // Naming tools one by one is asking for each of them: the default page size does
            // not cut the list, only the hard cap does.
            Query::Select(names) => (
                args.limit.max(names.len()).min(MAX_LIMIT),
                names
                    .into_iter()
                    .filter(|n| self.catalog.resolve(n).is_empty())
                    .collect(),
            ),
            Query::Ranked { .. } => (args.limit, Vec::new()),
        };
        let hits = self.catalog.search(&args.query, limit);
        if hits.is_empty() {
            return Ok(ToolOutput::text(self.no_match(&args.query, &missing)));
        }
        let specs: Vec<&ToolSpec> = hits
            .iter()
            .filter_map(|h| self.catalog.get(&h.name))
            .map(|e| &e.spec)
            .collect();
        let schemas = serde_json::to_string(&specs)
            .map_err(|e| ToolError::Failed(format!("could not encode the tool schemas: {e}")))?;
        let names: Vec<String> = hits.into_iter().map(|h| h.name).collect();
        let mut note = format!(
            "Found {} tool{}: {}. They are callable from your next turn.",
            names.len(),
            if names.len() == 1 { "" } else { "s" },
            names.join(", ")
        );
        if !missing.is_empty() {
            note.push_str(&format!(" Not in the catalog: {}.", missing.join(", ")));
        }
        Ok(
            ToolOutput::text(format!("{note}\n{schemas}")).with_update(StateUpdate::Promoted {
                catalog_hash: self.catalog.hash().to_string(),
                names,
            }),
        )
    }

    /// What to tell the model when nothing matched: not an error, a way forward.
    fn no_match(&self, query: &str, missing: &[String]) -> String {
        let servers = {
            let mut s: Vec<&str> = self
                .catalog
                .entries()
                .iter()
                .filter_map(|e| e.server.as_deref())
                .collect();
            s.sort_unstable();
            s.dedup();
            s.len()
        };
        let head = if missing.is_empty() {
            format!("No deferred tool matched `{query}`.")
        } else {
            format!("None of these is a deferred tool: {}.", missing.join(", "))
        };
        if self.catalog.is_empty() {
            return format!("{head} No tools are deferred in this run.");
        }
        format!(
            "{head} The catalog has {} tools from {servers} servers, e.g. {}. Try other or fewer \
             words, `+word` to require a word in the name, or `select:<name>` with a name from \
             the list of deferred tools.",
            self.catalog.len(),
            example_names(&self.catalog).join(", ")
        )
    }
}

/// A few catalog names, one per server in turn, so the examples show the catalog's breadth.
fn example_names(catalog: &DeferredCatalog) -> Vec<&str> {
    let mut by_server: Vec<(Option<&str>, Vec<&str>)> = Vec::new();
    for entry in catalog.entries() {
        let server = entry.server.as_deref();
        match by_server.iter_mut().find(|(s, _)| *s == server) {
            Some((_, names)) => names.push(&entry.name),
            None => by_server.push((server, vec![&entry.name])),
        }
    }
    let mut out = Vec::new();
    let mut round = 0;
    while out.len() < EXAMPLE_NAMES {
        let before = out.len();
        for (_, names) in &by_server {
            if let Some(name) = names.get(round) {
                out.push(*name);
                if out.len() == EXAMPLE_NAMES {
                    break;
                }
            }
        }
        if out.len() == before {
            break;
        }
        round += 1;
    }
    out
}

/// The arguments of one call, validated.
#[derive(Debug, Clone, PartialEq)]
struct SearchArgs {
    query: String,
    limit: usize,
}

/// Checks the arguments and says how to fix them when they are wrong.
fn parse_args(args: &Value) -> Result<SearchArgs, ToolError> {
    let invalid = |msg: String| ToolError::InvalidArguments(msg);
    let Some(obj) = args.as_object() else {
        return Err(invalid(format!(
            "the arguments must be a JSON object like {{\"query\": \"take a screenshot\"}}, got {}",
            kind(args)
        )));
    };
    let query = match obj.get("query") {
        Some(Value::String(q)) if q.trim().is_empty() => {
            return Err(invalid(
                "`query` is empty: give words describing the tool you need, `+word rest`, or \
                 `select:name`"
                    .into(),
            ))
        }
        Some(Value::String(q)) => q.clone(),
        Some(other) => {
            return Err(invalid(format!(
                "`query` must be a string such as \"take a screenshot\", got {}",
                kind(other)
            )))
        }
        None => {
            let others: Vec<&str> = obj.keys().map(String::as_str).collect();
            let got = if others.is_empty() {
                String::new()
            } else {
                format!(" (got {})", others.join(", "))
            };
            return Err(invalid(format!(
                "`query` is required{got}: call tool_search with {{\"query\": \"take a screenshot\"}}"
            )));
        }
    };
    let limit = match obj.get("limit") {
        None | Some(Value::Null) => DEFAULT_LIMIT,
        Some(v) => {
            // Integral floats (`5.0`) are accepted: some models write every number that way.
            let n = v.as_u64().or_else(|| {
                v.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                    .map(|f| f as u64)
            });
            match n {
                Some(n) if (1..=MAX_LIMIT as u64).contains(&n) => n as usize,
                _ => {
                    return Err(invalid(format!(
                        "`limit` must be an integer from 1 to {MAX_LIMIT}, got {v}; leave it out \
                         for {DEFAULT_LIMIT}"
                    )))
                }
            }
        }
    };
    Ok(SearchArgs { query, limit })
}

/// A JSON value's kind, for messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[async_trait::async_trait]
impl Tool for ToolSearch {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn meta(&self) -> &ToolMeta {
        &self.meta
    }

    async fn call(&self, args: Value, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        if ctx.cancel.is_cancelled() {
            return Err(ToolError::Cancelled);
        }
        let args = parse_args(&args)?;
        // Searched inline: the index is in memory and a search over thousands of tools takes
        // well under a millisecond, less than handing it to a blocking thread would cost.
        self.answer(&args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::names::qualify_mcp_name;
    use crate::tools::CatalogEntry;
    use tokio_util::sync::CancellationToken;

    fn entry(server: &str, tool: &str, description: &str) -> CatalogEntry {
        let name = qualify_mcp_name(server, tool);
        CatalogEntry {
            spec: ToolSpec {
                name: name.clone(),
                description: description.into(),
                parameters: json!({"type": "object", "properties": {"url": {"type": "string"}}}),
            },
            name,
            server: Some(server.into()),
            original_name: tool.into(),
        }
    }

    fn tool() -> ToolSearch {
        let catalog = DeferredCatalog::new(vec![
            entry(
                "browser",
                "take_screenshot",
                "Capture an image of the page.",
            ),
            entry("browser", "navigate", "Open a URL."),
            entry("fs", "read_file", "Read a file."),
            entry("slack", "post_message", "Post a message to a channel."),
        ])
        .unwrap();
        ToolSearch::new(Arc::new(catalog))
    }

    fn ctx() -> ToolContext {
        ToolContext {
            thread_id: "t".into(),
            run_id: "r".into(),
            call_id: "c".into(),
            cancel: CancellationToken::new(),
        }
    }

    #[tokio::test]
    async fn returns_schemas_and_promotes() {
        let t = tool();
        let out = t
            .call(json!({"query": "take a screenshot of the page"}), &ctx())
            .await
            .unwrap();
        assert!(!out.is_error);
        let (note, body) = out.content.split_once('\n').unwrap();
        assert!(note.contains("callable from your next turn"), "{note}");
        let schemas: Vec<Value> = serde_json::from_str(body).unwrap();
        assert_eq!(schemas[0]["name"], "browser__take_screenshot");
        assert_eq!(schemas[0]["description"], "Capture an image of the page.");
        assert_eq!(
            schemas[0]["parameters"]["properties"]["url"]["type"],
            "string"
        );
        let Some(StateUpdate::Promoted {
            catalog_hash,
            names,
        }) = out.update
        else {
            panic!("no promotion: {:?}", out.update);
        };
        assert_eq!(catalog_hash, t.catalog().hash());
        assert_eq!(names[0], "browser__take_screenshot");
        assert_eq!(names.len(), schemas.len());
    }

    #[tokio::test]
    async fn select_loads_named_tools_and_reports_unknown_ones() {
        let out = tool()
            .call(json!({"query": "select:fs/read_file,nope"}), &ctx())
            .await
            .unwrap();
        assert!(
            out.content.contains("Not in the catalog: nope."),
            "{}",
            out.content
        );
        let Some(StateUpdate::Promoted { names, .. }) = out.update else {
            panic!("no promotion");
        };
        assert_eq!(names, ["fs__read_file"]);
    }

    #[tokio::test]
    async fn select_is_not_cut_by_the_default_limit() {
        let out = tool()
            .call(
                json!({"query": "select:browser__take_screenshot,browser__navigate,fs__read_file,slack__post_message,fs/read_file,nope", "limit": 2}),
                &ctx(),
            )
            .await
            .unwrap();
        let Some(StateUpdate::Promoted { names, .. }) = out.update else {
            panic!("no promotion");
        };
        assert_eq!(names.len(), 4, "{names:?}");
    }

    #[tokio::test]
    async fn no_match_is_helpful_text_not_an_error() {
        let out = tool()
            .call(json!({"query": "quantum entanglement"}), &ctx())
            .await
            .unwrap();
        assert!(!out.is_error);
        assert!(out.update.is_none());
        assert!(
            out.content.contains("No deferred tool matched"),
            "{}",
            out.content
        );
        assert!(out.content.contains("browser__navigate"), "{}", out.content);
        assert!(
            out.content.contains("4 tools from 3 servers"),
            "{}",
            out.content
        );
    }

    #[tokio::test]
    async fn limit_is_honoured() {
        let out = tool()
            .call(json!({"query": "+browser", "limit": 1}), &ctx())
            .await
            .unwrap();
        let Some(StateUpdate::Promoted { names, .. }) = out.update else {
            panic!("no promotion");
        };
        assert_eq!(names.len(), 1);
    }

    #[tokio::test]
    async fn bad_arguments_say_how_to_fix_the_call() {
        let t = tool();
        let cases = [
            (json!("screenshot"), "must be a JSON object"),
            (json!({}), "`query` is required"),
            (json!({"q": "x"}), "(got q)"),
            (json!({"query": 3}), "must be a string"),
            (json!({"query": "  "}), "`query` is empty"),
            (json!({"query": "x", "limit": 0}), "from 1 to 20"),
            (json!({"query": "x", "limit": 21}), "from 1 to 20"),
            (json!({"query": "x", "limit": "5"}), "from 1 to 20"),
            (json!({"query": "x", "limit": 2.5}), "from 1 to 20"),
            (json!({"query": "x", "limit": -1}), "from 1 to 20"),
        ];
        for (args, want) in cases {
            let err = t.call(args.clone(), &ctx()).await.unwrap_err();
            let ToolError::InvalidArguments(msg) = &err else {
                panic!("{args}: {err:?}");
            };
            assert!(msg.contains(want), "{args}: {msg}");
        }
        // Integral floats and null are fine.
        assert!(t
            .call(json!({"query": "x", "limit": 3.0}), &ctx())
            .await
            .is_ok());
        assert!(t
            .call(json!({"query": "x", "limit": null}), &ctx())
            .await
            .is_ok());
    }

    #[tokio::test]
    async fn cancelled_run_stops_the_call() {
        let c = ctx();
        c.cancel.cancel();
        let err = tool().call(json!({"query": "x"}), &c).await.unwrap_err();
        assert_eq!(err, ToolError::Cancelled);
    }

    #[test]
    fn spec_and_meta() {
        let t = tool();
        assert_eq!(t.spec().name, TOOL_SEARCH_NAME);
        assert!(t.spec().description.contains("select:"));
        assert!(t.spec().description.contains("+word"));
        assert_eq!(t.meta().group, "builtin");
        assert_eq!(t.meta().source, ToolSource::Builtin);
    }

    #[tokio::test]
    async fn empty_catalog_says_so() {
        let t = ToolSearch::new(Arc::new(DeferredCatalog::new(Vec::new()).unwrap()));
        let out = t.call(json!({"query": "anything"}), &ctx()).await.unwrap();
        assert!(
            out.content.contains("No tools are deferred"),
            "{}",
            out.content
        );
    }
}
