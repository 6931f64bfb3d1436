//! `scripted-model --fixtures DIR [--port N] [--require-key K]`: serves the fixtures on
//! 127.0.0.1, prints `listening on http://127.0.0.1:PORT/v1` once, and runs until killed.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use scripted_model::{ScriptedServer, ServerOptions};

/// Replays recorded OpenAI / Anthropic SSE streams for tests.
#[derive(Parser)]
#[command(name = "scripted-model")]
struct Args {
    /// Folder with `<model>.openai.sse`, `<model>.anthropic.sse`, `<model>.script.json`.
    #[arg(long)]
    fixtures: PathBuf,
    /// Port on 127.0.0.1; 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Require this API key (Bearer for OpenAI, x-api-key for Anthropic).
    #[arg(long)]
    require_key: Option<String>,
}

fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    let args = Args::parse();
    if !args.fixtures.is_dir() {
        anyhow::bail!("--fixtures {} is not a folder", args.fixtures.display());
    }
    let server = ScriptedServer::start(
        &args.fixtures,
        ServerOptions {
            require_key: args.require_key,
            port: args.port,
        },
    )
    .with_context(|| format!("could not listen on 127.0.0.1:{}", args.port))?;
    // The e2e harness reads exactly this one line to learn the port.
    let mut out = std::io::stdout().lock();
    writeln!(out, "listening on {}", server.base_url())?;
    out.flush()?;
    drop(out);
    server.wait();
    Ok(())
}
