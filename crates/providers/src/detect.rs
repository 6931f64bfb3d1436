//! Finding OpenAI-compatible servers running on this machine, for the first-run screen: each
//! usual port is asked for `/models` at once, with a short timeout, so a machine with nothing
//! running answers in well under a second.

use std::time::Duration;

use serde::Deserialize;
use workbench_core::config::DetectedServer;

/// Per-probe limit: a local server answers in milliseconds; anything slower is not one we want
/// to wait for on the first-run screen.
const PROBE_TIMEOUT: Duration = Duration::from_millis(400);

/// Where the common local servers listen by default.
pub const LOCAL_CANDIDATES: [(&str, &str); 3] = [
    ("Ollama", "http://127.0.0.1:11434/v1"),
    ("llama.cpp", "http://127.0.0.1:8080/v1"),
    ("LM Studio", "http://127.0.0.1:1234/v1"),
];

#[derive(Deserialize)]
struct ModelList {
    data: Vec<ModelEntry>,
}

#[derive(Deserialize)]
struct ModelEntry {
    id: String,
}

/// The local servers (Ollama, llama.cpp, LM Studio) answering on their usual ports.
pub async fn detect_local_servers() -> Vec<DetectedServer> {
    detect_on(&LOCAL_CANDIDATES).await
}

/// Probes each `(name, base_url)` in parallel and returns those that answer `GET
/// {base_url}/models` with an OpenAI-style model list, in the order given.
pub async fn detect_on(candidates: &[(&str, &str)]) -> Vec<DetectedServer> {
    let http = match reqwest::Client::builder().timeout(PROBE_TIMEOUT).build() {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!(error = %e, "cannot probe for local servers");
            return Vec::new();
        }
    };
    let probes = candidates
        .iter()
        .map(|(name, base_url)| probe(&http, name, base_url));
    futures::future::join_all(probes)
        .await
        .into_iter()
        .flatten()
        .collect()
}

async fn probe(http: &reqwest::Client, name: &str, base_url: &str) -> Option<DetectedServer> {
    let base_url = base_url.trim_end_matches('/');
    let response = http
        .get(crate::endpoint(base_url, "models"))
        .send()
        .await
        .ok()?;
    if !response.status().is_success() {
        return None;
    }
    // Requiring the OpenAI list shape keeps unrelated servers on the same port (a web dev
    // server on 8080) out of the list.
    let list: ModelList = response.json().await.ok()?;
    tracing::debug!(
        name,
        base_url,
        models = list.data.len(),
        "found a local server"
    );
    Some(DetectedServer {
        name: name.to_string(),
        base_url: base_url.to_string(),
        models: list.data.into_iter().map(|m| m.id).collect(),
    })
}
