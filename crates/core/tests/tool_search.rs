//! tool_search over the real MCP catalogs in tests/fixtures/mcp-catalogs: the recall floor on the
//! labelled dev queries, the query forms, and the built-in tool end to end.

#![allow(clippy::unwrap_used)] // test helpers panic to report failures

use std::path::PathBuf;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use workbench_core::builtins::ToolSearch;
use workbench_core::tools::catalog::read_catalog_dir;
use workbench_core::tools::{DeferredCatalog, StateUpdate, Tool, ToolContext};

/// recall@5 below this fails CI (the issue's target).
const RECALL_FLOOR: f64 = 0.95;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/mcp-catalogs")
}

fn catalog() -> DeferredCatalog {
    let dir = read_catalog_dir(&fixtures()).unwrap();
    assert!(dir.skipped.is_empty(), "{:?}", dir.skipped);
    let entries = dir
        .files
        .into_iter()
        .flat_map(|(_, f)| f.into_entries())
        .collect();
    DeferredCatalog::new(entries).unwrap()
}

#[derive(Deserialize)]
struct Labelled {
    query: String,
    expected: Vec<String>,
    style: String,
}

fn queries() -> Vec<Labelled> {
    let text = std::fs::read_to_string(fixtures().join("queries-dev.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The top `limit` results as `server/tool`.
fn top(catalog: &DeferredCatalog, query: &str, limit: usize) -> Vec<String> {
    catalog
        .search(query, limit)
        .into_iter()
        .map(|h| catalog.get(&h.name).unwrap().qualified_name())
        .collect()
}

#[test]
fn the_fixtures_hold_every_catalog() {
    let catalog = catalog();
    // The data's README: 45 servers, 848 tools.
    assert_eq!(catalog.len(), 848);
    assert_eq!(queries().len(), 77);
    for q in queries() {
        for name in &q.expected {
            let (server, tool) = name.split_once('/').unwrap();
            let exposed = workbench_core::tools::names::qualify_mcp_name(server, tool);
            assert!(
                catalog.get(&exposed).is_some(),
                "{name} is not in the catalogs"
            );
        }
    }
}

#[test]
fn recall_at_5_on_the_dev_queries_stays_above_the_floor() {
    let catalog = catalog();
    let queries = queries();
    let mut hits = 0;
    let mut misses = Vec::new();
    let (mut mrr, mut r1, mut r3) = (0.0, 0, 0);
    for q in &queries {
        let deep = top(&catalog, &q.query, 20);
        if let Some(p) = deep.iter().position(|g| q.expected.contains(g)) {
            mrr += 1.0 / (p as f64 + 1.0);
            if p < 1 {
                r1 += 1;
            }
            if p < 3 {
                r3 += 1;
            }
        }
        let got = top(&catalog, &q.query, 5);
        if q.expected.iter().any(|e| got.contains(e)) {
            hits += 1;
        } else {
            let deep = top(&catalog, &q.query, 100);
            let ranks: Vec<String> = q
                .expected
                .iter()
                .map(|e| {
                    format!(
                        "{e}@{}",
                        deep.iter()
                            .position(|g| g == e)
                            .map_or(-1, |p| p as i64 + 1)
                    )
                })
                .collect();
            misses.push(format!(
                "[{}] {:?} -> {got:?}, want one of {ranks:?}",
                q.style, q.query
            ));
        }
    }
    let recall = hits as f64 / queries.len() as f64;
    println!(
        "recall@5 = {recall:.3} ({hits}/{}) r1={r1} r3={r3} mrr={:.3}",
        queries.len(),
        mrr / queries.len() as f64
    );
    for m in &misses {
        println!("miss: {m}");
    }
    assert!(
        recall >= RECALL_FLOOR,
        "recall@5 {recall:.3} < {RECALL_FLOOR}; misses:\n{}",
        misses.join("\n")
    );
}

#[test]
fn the_issue_example_finds_screenshot_tools_first() {
    let catalog = catalog();
    let got = top(&catalog, "take a screenshot of the page", 5);
    let screenshot_tools = [
        "playwright/browser_take_screenshot",
        "puppeteer/puppeteer_screenshot",
        "chrome-devtools/take_screenshot",
        "browserbase/browserbase_screenshot",
    ];
    assert!(screenshot_tools.contains(&got[0].as_str()), "{got:?}");
}

#[test]
fn select_and_required_forms_work_on_real_names() {
    let catalog = catalog();
    assert_eq!(
        top(
            &catalog,
            "select:github__create_issue,slack/slack_post_message",
            5
        ),
        ["github/create_issue", "slack/slack_post_message"]
    );
    // `create_issue` is the own name of tools on two servers: select returns both.
    let both = top(&catalog, "select:create_issue", 5);
    assert!(
        both.contains(&"github/create_issue".to_string()),
        "{both:?}"
    );
    assert!(
        both.contains(&"gitlab/create_issue".to_string()),
        "{both:?}"
    );

    let got = top(&catalog, "+jira comment", 5);
    assert!(!got.is_empty());
    assert!(got.iter().all(|n| n.contains("jira")), "{got:?}");
    assert!(
        got.contains(&"atlassian/jira_add_comment".to_string()),
        "{got:?}"
    );
}

#[test]
fn odd_queries_on_the_real_catalog_never_fail() {
    let catalog = catalog();
    for q in [
        "",
        " ",
        "+",
        "select:",
        "((",
        "[a-",
        "\\",
        "*",
        ".*",
        "^$",
        "a{1000000}",
        "🙂",
        "select:🙂,,",
        "+🙂 x",
    ] {
        let _ = catalog.search(q, 5);
    }
    // A pattern that matches everything must still rank and stop at the limit.
    assert_eq!(catalog.search(".*", 5).len(), 5);
    let huge = "screenshot page ".repeat(50_000);
    assert!(!catalog.search(&huge, 5).is_empty());
}

#[test]
fn the_same_catalogs_hash_the_same_in_any_order() {
    let a = catalog();
    let dir = read_catalog_dir(&fixtures()).unwrap();
    let mut entries: Vec<_> = dir
        .files
        .into_iter()
        .flat_map(|(_, f)| f.into_entries())
        .collect();
    entries.reverse();
    let b = DeferredCatalog::new(entries).unwrap();
    assert_eq!(a.hash(), b.hash());
}

#[tokio::test]
async fn the_builtin_promotes_what_it_returns() {
    let catalog = Arc::new(catalog());
    let tool = ToolSearch::new(catalog.clone());
    let ctx = ToolContext {
        thread_id: "t".into(),
        run_id: "r".into(),
        call_id: "c".into(),
        cancel: CancellationToken::new(),
    };
    let out = tool
        .call(
            json!({"query": "send a message to a slack channel", "limit": 3}),
            &ctx,
        )
        .await
        .unwrap();
    let (_, body) = out.content.split_once('\n').unwrap();
    let schemas: Vec<Value> = serde_json::from_str(body).unwrap();
    assert_eq!(schemas.len(), 3);
    let Some(StateUpdate::Promoted {
        catalog_hash,
        names,
    }) = out.update
    else {
        panic!("no promotion");
    };
    assert_eq!(catalog_hash, catalog.hash());
    assert!(
        names.contains(&"slack__slack_post_message".to_string()),
        "{names:?}"
    );
    for (schema, name) in schemas.iter().zip(&names) {
        assert_eq!(schema["name"], name.as_str());
        assert_eq!(
            schema,
            &serde_json::to_value(&catalog.get(name).unwrap().spec).unwrap()
        );
    }
}
