//! tool_search and deferral, measured against baselines in the same run:
//! (a) recall@5 on the labelled dev queries, ours vs a DeerFlow-style regex ranking;
//! (b) bytes of tool definitions in the first request, deferred vs eager;
//! (c) catalog build, whole-run assembly and search time over 2,000 tools, vs serialising that
//!     catalog once.
//!
//! Run with `cargo bench -p workbench-core --bench tool_search`. Prints ratios only as figures;
//! nothing here asserts a time (the recall floor is asserted in tests/tool_search.rs).

#![allow(clippy::unwrap_used)] // a benchmark panics to report broken fixtures

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{json, Value};
use workbench_core::builtins::ToolSearch;
use workbench_core::model::ToolSpec;
use workbench_core::thread::ThreadState;
use workbench_core::tools::assembly::{assemble, AssemblyInput, Candidate};
use workbench_core::tools::catalog::{read_catalog_dir, CatalogFile};
use workbench_core::tools::{
    CatalogEntry, DeferredCatalog, Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource,
};

/// Size of the synthetic catalog for the timing figures (the number).
const TIMING_TOOLS: usize = 2_000;
/// Repetitions per timing; the median is reported.
const TIMING_RUNS: usize = 15;
/// Results that count for recall.
const K: usize = 5;

#[derive(Deserialize)]
struct Labelled {
    query: String,
    expected: Vec<String>,
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/mcp-catalogs")
}

fn load_files() -> Vec<CatalogFile> {
    let dir = read_catalog_dir(&fixtures()).unwrap();
    assert!(dir.skipped.is_empty(), "{:?}", dir.skipped);
    dir.files.into_iter().map(|(_, f)| f).collect()
}

fn main() {
    let files = load_files();
    let entries: Vec<CatalogEntry> = files
        .iter()
        .cloned()
        .flat_map(|f| f.into_entries())
        .collect();
    let catalog = DeferredCatalog::new(entries.clone()).unwrap();
    let queries: Vec<Labelled> = serde_json::from_str(
        &std::fs::read_to_string(fixtures().join("queries-dev.json")).unwrap(),
    )
    .unwrap();
    println!(
        "catalogs: {} servers, {} tools; {} labelled queries\n",
        files.len(),
        catalog.len(),
        queries.len()
    );

    recall(&catalog, &queries);
    bytes(&catalog);
    timing(&files, &queries);
}

/// (a) recall@5, ours vs the regex baseline.
fn recall(catalog: &DeferredCatalog, queries: &[Labelled]) {
    let baseline = RegexBaseline::new(catalog);
    let ours = |q: &str| -> Vec<String> {
        catalog
            .search(q, K)
            .into_iter()
            .map(|h| catalog.get(&h.name).unwrap().qualified_name())
            .collect()
    };
    let theirs = |q: &str| -> Vec<String> { baseline.search(q, K) };
    let (ours_any, ours_all) = score(queries, ours);
    let (base_any, base_all) = score(queries, theirs);
    println!(
        "(a) recall@{K} on queries-dev.json ({} queries)",
        queries.len()
    );
    println!("    any expected in top {K} (the data's definition):");
    println!("      ours     {ours_any:.3}");
    println!(
        "      baseline {base_any:.3}   (DeerFlow-style regex: name hit 2, description hit 1)"
    );
    println!("      ours - baseline = {:+.3}", ours_any - base_any);
    println!("    all expected in top {K} (top {K} all expected when more than {K} are listed):");
    println!("      ours     {ours_all:.3}");
    println!("      baseline {base_all:.3}");
    println!("      ours - baseline = {:+.3}\n", ours_all - base_all);
}

/// (recall when any expected name is in the top K, recall when all are, or K of them).
fn score(queries: &[Labelled], search: impl Fn(&str) -> Vec<String>) -> (f64, f64) {
    let (mut any, mut all) = (0usize, 0usize);
    for q in queries {
        let got = search(&q.query);
        let found = q.expected.iter().filter(|e| got.contains(e)).count();
        if found > 0 {
            any += 1;
        }
        if found >= q.expected.len().min(K) {
            all += 1;
        }
    }
    let n = queries.len() as f64;
    (any as f64 / n, all as f64 / n)
}

/// The baseline: each query word compiled as a case-insensitive regex (an invalid one as
/// escaped literal text); a word found in the tool's name scores 2, in its description 1;
/// tools ranked by total score, ties in catalog order.
struct RegexBaseline<'a> {
    catalog: &'a DeferredCatalog,
}

impl<'a> RegexBaseline<'a> {
    fn new(catalog: &'a DeferredCatalog) -> Self {
        Self { catalog }
    }

    fn search(&self, query: &str, limit: usize) -> Vec<String> {
        let patterns: Vec<regex::Regex> = query
            .split_whitespace()
            .map(|w| {
                regex::RegexBuilder::new(w)
                    .case_insensitive(true)
                    .build()
                    .or_else(|_| {
                        regex::RegexBuilder::new(&regex::escape(w))
                            .case_insensitive(true)
                            .build()
                    })
                    .unwrap()
            })
            .collect();
        let mut scored: Vec<(usize, &CatalogEntry)> = self
            .catalog
            .entries()
            .iter()
            .map(|e| {
                let s = patterns
                    .iter()
                    .map(|p| {
                        2 * usize::from(p.is_match(&e.name))
                            + usize::from(p.is_match(&e.spec.description))
                    })
                    .sum();
                (s, e)
            })
            .filter(|(s, _)| *s > 0)
            .collect();
        // Stable: equal scores keep catalog order.
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        scored
            .into_iter()
            .take(limit)
            .map(|(_, e)| e.qualified_name())
            .collect()
    }
}

/// OpenAI-style function definitions, compact JSON: what a provider request carries.
fn function_defs(specs: &[&ToolSpec]) -> String {
    let defs: Vec<Value> = specs
        .iter()
        .map(|s| json!({"type": "function", "function": {"name": s.name, "description": s.description, "parameters": s.parameters}}))
        .collect();
    serde_json::to_string(&defs).unwrap()
}

/// (b) the first request's tool bytes.
fn bytes(catalog: &DeferredCatalog) {
    let all: Vec<&ToolSpec> = catalog.entries().iter().map(|e| &e.spec).collect();
    let eager = function_defs(&all).len();
    let tool_search = ToolSearch::new(Arc::new(DeferredCatalog::new(Vec::new()).unwrap()));
    let search_def = function_defs(&[tool_search.spec()]).len();
    let listing = catalog.listing().len();
    let deferred = search_def + listing;
    println!(
        "(b) tool definitions in the first request, all {} tools enabled",
        catalog.len()
    );
    println!("    eager:    {eager} bytes (every tool's function definition, compact JSON)");
    println!(
        "    deferred: {deferred} bytes (tool_search definition {search_def} + deferred names {listing})"
    );
    println!(
        "    deferred / eager = {:.4}   (target <= 0.03)\n",
        deferred as f64 / eager as f64
    );
}

/// The real catalogs repeated, each copy as servers of their own (`github-r1`, ...), cut to `n`.
fn synthetic(files: &[CatalogFile], n: usize) -> Vec<CatalogEntry> {
    let mut out = Vec::with_capacity(n);
    for copy in 0.. {
        for file in files {
            let mut f = file.clone();
            if copy > 0 {
                f.server = format!("{}-r{copy}", f.server);
            }
            for e in f.into_entries() {
                if out.len() == n {
                    return out;
                }
                out.push(e);
            }
        }
    }
    out
}

/// A deferred MCP tool for the assembly timing; it is never called.
struct BenchTool {
    spec: ToolSpec,
    meta: ToolMeta,
}

#[async_trait::async_trait]
impl Tool for BenchTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn meta(&self) -> &ToolMeta {
        &self.meta
    }
    async fn call(&self, _: Value, _: &ToolContext) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::text(""))
    }
}

fn mcp_candidate(e: &CatalogEntry) -> Candidate {
    let mut meta = ToolMeta::new(
        ToolSource::Mcp {
            server: e.server.clone().unwrap_or_default(),
        },
        "mcp",
    );
    meta.original_name = Some(e.original_name.clone());
    Candidate::new(Arc::new(BenchTool {
        spec: e.spec.clone(),
        meta,
    }))
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// (c) build and search time over 2,000 tools, against serialising them once.
fn timing(files: &[CatalogFile], queries: &[Labelled]) {
    let entries = synthetic(files, TIMING_TOOLS);
    let specs: Vec<&ToolSpec> = entries.iter().map(|e| &e.spec).collect();

    let serialise = median(
        (0..TIMING_RUNS)
            .map(|_| {
                let t = Instant::now();
                black_box(serde_json::to_vec(black_box(&specs)).unwrap());
                t.elapsed()
            })
            .collect(),
    );
    let build = median(
        (0..TIMING_RUNS)
            .map(|_| {
                let copy = entries.clone();
                let t = Instant::now();
                black_box(DeferredCatalog::new(copy).unwrap());
                t.elapsed()
            })
            .collect(),
    );
    let candidates: Vec<Candidate> = entries.iter().map(mcp_candidate).collect();
    let input = AssemblyInput {
        defer_mcp: true,
        ..Default::default()
    };
    let make_search = |c: Arc<DeferredCatalog>| -> Arc<dyn Tool> { Arc::new(ToolSearch::new(c)) };
    let assembly = median(
        (0..TIMING_RUNS)
            .map(|_| {
                let copy = candidates.clone();
                let t = Instant::now();
                black_box(assemble(copy, &input, &ThreadState::default(), &make_search).unwrap());
                t.elapsed()
            })
            .collect(),
    );
    let catalog = DeferredCatalog::new(entries.clone()).unwrap();
    // One search = one query; the median over every dev query, each run TIMING_RUNS times.
    let mut per_query = Vec::new();
    for q in queries {
        for _ in 0..TIMING_RUNS {
            let t = Instant::now();
            black_box(catalog.search(black_box(&q.query), K));
            per_query.push(t.elapsed());
        }
    }
    let slowest = per_query.iter().max().copied().unwrap_or_default();
    let search = median(per_query);
    let ratio = |d: Duration| d.as_secs_f64() / serialise.as_secs_f64();
    println!(
        "(c) time with {} tools (medians of {TIMING_RUNS} runs)",
        catalog.len()
    );
    println!("    serialise the catalog to JSON once: {serialise:?} (the unit)");
    println!(
        "    build the catalog (hash + index):   {build:?} = {:.3} x serialise",
        ratio(build)
    );
    println!(
        "    assemble a run (gates, report, catalog): {assembly:?} = {:.3} x serialise",
        ratio(assembly)
    );
    println!(
        "    one search (median over queries):   {search:?} = {:.4} x serialise",
        ratio(search)
    );
    println!(
        "    slowest single search:              {slowest:?} = {:.4} x serialise",
        ratio(slowest)
    );
}
