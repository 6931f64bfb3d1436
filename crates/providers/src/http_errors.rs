//! HTTP failures as [`ModelError`]s: the status says which kind, the body says the detail the
//! server gave, in whatever shape that server uses.

use std::time::Duration;

use reqwest::header::HeaderMap;
use workbench_core::model::ModelError;

/// Server messages are shown to the user; longer ones are cut so an HTML error page does not
/// flood the chat.
const MAX_DETAIL_CHARS: usize = 300;

/// Where a failed call went, for the error's text.
#[derive(Debug, Clone)]
pub(crate) struct CallSite<'a> {
    /// The base URL the user configured.
    pub base_url: &'a str,
    pub model: &'a str,
}

/// The error for a non-success HTTP status. `attempts` is filled in by the retry loop.
pub(crate) fn from_status(
    status: u16,
    body: &str,
    site: &CallSite<'_>,
    retry_after: Option<Duration>,
) -> ModelError {
    let url = site.base_url.to_string();
    match status {
        401 | 403 => ModelError::Auth { url, status },
        // Local servers answer 404 for an unknown model as OpenAI does; a wrong base URL also
        // lands here, and the message names the URL so the user can check both.
        404 => ModelError::ModelNotFound {
            model: site.model.to_string(),
            url,
        },
        429 => ModelError::RateLimited {
            url,
            attempts: 1,
            retry_after,
        },
        500..=599 => ModelError::Server {
            url,
            status,
            detail: server_message(body),
        },
        _ => ModelError::BadRequest {
            url,
            status,
            detail: server_message(body),
        },
    }
}

/// The HTTP status Anthropic uses for each of its error types, so an `error` event inside a
/// stream maps like the same error would as a response.
pub(crate) fn anthropic_error_status(kind: &str) -> u16 {
    match kind {
        "invalid_request_error" => 400,
        "authentication_error" => 401,
        "permission_error" => 403,
        "not_found_error" => 404,
        "request_too_large" => 413,
        "rate_limit_error" => 429,
        "overloaded_error" => 529,
        _ => 500,
    }
}

/// The human part of an error body: `error.message` (OpenAI, Anthropic, vLLM), `error` as text
/// (Ollama), `message` or `detail` (FastAPI servers), else the body itself, shortened.
pub(crate) fn server_message(body: &str) -> String {
    let from_json = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            [
                v.pointer("/error/message"),
                v.get("error"),
                v.get("message"),
                v.get("detail"),
            ]
            .into_iter()
            .flatten()
            .find_map(|m| m.as_str().map(str::to_string))
        });
    let text = from_json.unwrap_or_else(|| body.trim().to_string());
    if text.is_empty() {
        return "no details given".into();
    }
    shorten(&text)
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= MAX_DETAIL_CHARS {
        return text.to_string();
    }
    let cut: String = text.chars().take(MAX_DETAIL_CHARS).collect();
    format!("{cut}…")
}

/// `Retry-After` in seconds, or OpenAI's `retry-after-ms`. HTTP dates are ignored: no provider
/// we talk to sends them, and a wrong clock would turn them into nonsense waits.
pub(crate) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(ms) = header("retry-after-ms").and_then(|v| v.trim().parse::<f64>().ok()) {
        if ms.is_finite() && ms >= 0.0 {
            return Some(Duration::from_secs_f64(ms / 1000.0));
        }
    }
    let secs = header("retry-after")?.trim().parse::<f64>().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> CallSite<'static> {
        CallSite {
            base_url: "http://h/v1",
            model: "m",
        }
    }

    #[test]
    fn statuses_map_to_the_kinds_the_user_can_act_on() {
        let s = site();
        assert!(matches!(
            from_status(401, "", &s, None),
            ModelError::Auth { status: 401, .. }
        ));
        assert!(matches!(
            from_status(403, "", &s, None),
            ModelError::Auth { status: 403, .. }
        ));
        assert!(matches!(
            from_status(429, "", &s, None),
            ModelError::RateLimited { .. }
        ));
        assert!(matches!(
            from_status(503, "", &s, None),
            ModelError::Server { status: 503, .. }
        ));
        assert!(matches!(
            from_status(422, "", &s, None),
            ModelError::BadRequest { status: 422, .. }
        ));
        let e = from_status(404, "", &s, None);
        assert_eq!(e.to_string(), "model `m` was not found at http://h/v1");
    }

    #[test]
    fn bad_request_carries_the_servers_message_in_each_dialect() {
        let s = site();
        let cases = [
            (
                r#"{"error":{"message":"max_tokens is too large","type":"invalid_request_error"}}"#,
                "max_tokens is too large",
            ),
            (
                r#"{"type":"error","error":{"type":"invalid_request_error","message":"messages: empty"}}"#,
                "messages: empty",
            ),
            (
                r#"{"error":"model \"x\" not found, try pulling it first"}"#,
                "model \"x\" not found, try pulling it first",
            ),
            (r#"{"detail":"Field required"}"#, "Field required"),
            ("plain text failure", "plain text failure"),
            ("", "no details given"),
        ];
        for (body, want) in cases {
            match from_status(400, body, &s, None) {
                ModelError::BadRequest { detail, .. } => assert_eq!(detail, want),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn long_bodies_are_shortened() {
        let detail = server_message(&"x".repeat(5000));
        assert!(detail.chars().count() <= MAX_DETAIL_CHARS + 1);
    }

    #[test]
    fn retry_after_reads_seconds_and_milliseconds() {
        let mut h = HeaderMap::new();
        assert_eq!(retry_after(&h), None);
        h.insert("retry-after", "2".parse().expect("valid header"));
        assert_eq!(retry_after(&h), Some(Duration::from_secs(2)));
        h.insert("retry-after-ms", "150".parse().expect("valid header"));
        assert_eq!(retry_after(&h), Some(Duration::from_millis(150)));
        let mut h = HeaderMap::new();
        h.insert(
            "retry-after",
            "Wed, 21 Oct 2015 07:28:00 GMT"
                .parse()
                .expect("valid header"),
        );
        assert_eq!(retry_after(&h), None);
    }
}
