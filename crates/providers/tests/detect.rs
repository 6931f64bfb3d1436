//! Finding local servers: a live one is listed with its models, a dead port and a server that
//! never answers are skipped, quickly.

mod common;

use std::time::{Duration, Instant};

use common::*;
use scripted_model::{ScriptedServer, ServerOptions};
use workbench_providers::detect_on;

#[tokio::test]
async fn detect_lists_live_servers_with_their_models_and_skips_the_rest() {
    // The model list needs no key here, as on Ollama / llama.cpp / LM Studio.
    let live = ScriptedServer::start(fixtures_dir(), ServerOptions::default()).expect("server");
    let dead = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        format!("http://{}/v1", l.local_addr().expect("addr"))
    };
    // Accepts connections (the kernel does, via the backlog) but never answers.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let silent_url = format!("http://{}/v1", silent.local_addr().expect("addr"));

    let started = Instant::now();
    let found = detect_on(&[
        ("Dead", &dead),
        ("Scripted", &live.base_url()),
        ("Silent", &silent_url),
    ])
    .await;
    let took = started.elapsed();

    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].name, "Scripted");
    assert_eq!(found[0].base_url, live.base_url());
    for m in ["hello", "slow", "tool-call", "ollama-style", "flaky", "cut"] {
        assert!(
            found[0].models.iter().any(|x| x == m),
            "{m} missing from {:?}",
            found[0].models
        );
    }
    // Probes run in parallel with a ~400 ms limit each.
    assert!(
        took < Duration::from_millis(1500),
        "detection took {took:?}"
    );
}
