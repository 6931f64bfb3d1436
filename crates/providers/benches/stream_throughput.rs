//! Streaming throughput of the OpenAI client against a bare HTTP read of the same reply.
//!
//! Starts the scripted server with a generated reply of `CHUNKS` content chunks, then, in the
//! same run and alternating, (a) streams it through `OpenAiClient` to `Finish`, counting
//! `TextDelta` events, and (b) reads the same response bytes to the end with a bare reqwest
//! client. Prints tokens/s (content chunks per second) for both and the ratio ours / bare: the
//! cost of SSE parsing, JSON decoding and event translation over just moving the bytes.
//!
//! Run: `cargo bench -p workbench-providers --bench stream_throughput`

use std::time::{Duration, Instant};

use futures::StreamExt;
use scripted_model::{ScriptedServer, ServerOptions};
use workbench_core::config::{ProviderKind, ProviderSettings};
use workbench_core::model::{ModelRequest, StreamEvent};
use workbench_core::thread::Message;
use workbench_providers::{client_for_with, ClientOptions};

/// Content chunks in the generated reply: long enough that per-request setup is noise.
const CHUNKS: usize = 20_000;
/// Timed iterations per side, after one warm-up each.
const ITERATIONS: usize = 7;

fn fixture(dir: &std::path::Path) -> std::io::Result<()> {
    let mut out = String::with_capacity(CHUNKS * 200);
    let chunk = |delta: &str, finish: &str| {
        format!(
            "data: {{\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1731062400,\"model\":\"bench\",\"system_fingerprint\":\"fp_bench\",\"choices\":[{{\"index\":0,\"delta\":{delta},\"logprobs\":null,\"finish_reason\":{finish}}}],\"usage\":null}}\n\n"
        )
    };
    out.push_str(&chunk(r#"{"role":"assistant","content":""}"#, "null"));
    for i in 0..CHUNKS {
        out.push_str(&chunk(&format!(r#"{{"content":" word{i}"}}"#), "null"));
    }
    out.push_str(&chunk("{}", r#""stop""#));
    out.push_str("data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1731062400,\"model\":\"bench\",\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":20000,\"total_tokens\":20010}}\n\n");
    out.push_str("data: [DONE]\n\n");
    std::fs::write(dir.join("bench.openai.sse"), out)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    fixture(dir.path())?;
    let server = ScriptedServer::start(dir.path(), ServerOptions::default())?;
    let base_url = server.base_url();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;

    let settings = ProviderSettings {
        kind: ProviderKind::Openai,
        base_url: base_url.clone(),
        model: "bench".into(),
        context_window: None,
    };
    let ours = client_for_with(&settings, None, ClientOptions::default());
    let bare = reqwest::Client::new();
    let request = ModelRequest {
        model: "bench".into(),
        system: None,
        messages: vec![Message::user("t", "go")],
        tools: Vec::new(),
        max_tokens: None,
    };
    let body = serde_json::json!({
        "model": "bench", "stream": true, "stream_options": {"include_usage": true},
        "messages": [{"role": "user", "content": "go"}],
    });

    let run_ours = || async {
        let started = Instant::now();
        let mut stream = ours.stream(request.clone()).await?;
        let mut deltas = 0usize;
        while let Some(ev) = stream.next().await {
            match ev? {
                StreamEvent::TextDelta(_) => deltas += 1,
                StreamEvent::Finish(_) => break,
                _ => {}
            }
        }
        anyhow::ensure!(
            deltas == CHUNKS,
            "ours saw {deltas} deltas, expected {CHUNKS}"
        );
        Ok::<Duration, anyhow::Error>(started.elapsed())
    };
    let run_bare = || async {
        let started = Instant::now();
        let resp = bare
            .post(format!("{base_url}/chat/completions"))
            .json(&body)
            .send()
            .await?;
        anyhow::ensure!(
            resp.status().is_success(),
            "bare got HTTP {}",
            resp.status()
        );
        let mut bytes = resp.bytes_stream();
        let mut total = 0usize;
        while let Some(chunk) = bytes.next().await {
            total += chunk?.len();
        }
        anyhow::ensure!(total > CHUNKS * 100, "bare read only {total} bytes");
        Ok::<Duration, anyhow::Error>(started.elapsed())
    };

    rt.block_on(async {
        // Warm-up: connection pool, page cache, allocator.
        run_ours().await?;
        run_bare().await?;
        let (mut ours_tps, mut bare_tps) = (Vec::new(), Vec::new());
        for _ in 0..ITERATIONS {
            ours_tps.push(CHUNKS as f64 / run_ours().await?.as_secs_f64());
            bare_tps.push(CHUNKS as f64 / run_bare().await?.as_secs_f64());
        }
        let (o, b) = (median(ours_tps), median(bare_tps));
        println!("stream_throughput: {CHUNKS} content chunks, median of {ITERATIONS} runs each");
        println!("  ours (OpenAiClient, TextDelta events): {o:>12.0} tokens/s");
        println!("  bare (reqwest, bytes to the end):      {b:>12.0} tokens/s");
        println!("  ratio ours/bare:                       {:>12.2}", o / b);
        Ok::<(), anyhow::Error>(())
    })
}
