//! What the two APIs look like on the wire where the server must imitate them: routes, fixture
//! suffixes and error bodies.

use serde_json::{json, Value};

/// Which provider API a request came in on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// OpenAI Chat Completions.
    OpenAi,
    /// Anthropic Messages.
    Anthropic,
}

impl Api {
    /// The route, as recorded.
    pub fn path(self) -> &'static str {
        match self {
            Api::OpenAi => "/v1/chat/completions",
            Api::Anthropic => "/v1/messages",
        }
    }

    /// The fixture file suffix: `<name>.<suffix>.sse`.
    pub fn suffix(self) -> &'static str {
        match self {
            Api::OpenAi => "openai",
            Api::Anthropic => "anthropic",
        }
    }
}

/// The error body each provider sends for `status`, in its own shape.
pub(crate) fn error_body(api: Api, status: u16, message: Option<&str>, model: &str) -> Value {
    match api {
        Api::OpenAi => {
            let (default_message, kind, code): (String, &str, Value) = match status {
                401 => (
                    "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.".into(),
                    "invalid_request_error",
                    json!("invalid_api_key"),
                ),
                404 => (
                    format!("The model `{model}` does not exist"),
                    "invalid_request_error",
                    json!("model_not_found"),
                ),
                429 => (
                    format!("Rate limit reached for {model} on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s."),
                    "requests",
                    json!("rate_limit_exceeded"),
                ),
                400..=499 => ("Invalid request".into(), "invalid_request_error", Value::Null),
                _ => (
                    "The server had an error while processing your request. Sorry about that!".into(),
                    "server_error",
                    Value::Null,
                ),
            };
            let message = message.map(str::to_string).unwrap_or(default_message);
            if status == 404 {
                // The exact shape OpenAI sends for an unknown model.
                return json!({"error": {"message": message, "type": kind, "code": code}});
            }
            json!({"error": {"message": message, "type": kind, "param": null, "code": code}})
        }
        Api::Anthropic => {
            let (default_message, kind) = match status {
                401 => ("invalid x-api-key".to_string(), "authentication_error"),
                403 => (
                    "Your API key does not have permission to use the specified resource.".into(),
                    "permission_error",
                ),
                404 => (format!("model: {model}"), "not_found_error"),
                413 => (
                    "Request exceeds the maximum allowed number of bytes.".into(),
                    "request_too_large",
                ),
                429 => (
                    "Number of request tokens has exceeded your per-minute rate limit".into(),
                    "rate_limit_error",
                ),
                529 => ("Overloaded".into(), "overloaded_error"),
                400..=499 => ("Invalid request".into(), "invalid_request_error"),
                _ => ("Internal server error".into(), "api_error"),
            };
            let message = message.map(str::to_string).unwrap_or(default_message);
            json!({"type": "error", "error": {"type": kind, "message": message}})
        }
    }
}

/// Whether an OpenAI event is the final usage-only chunk (`choices: []` with `usage`), which
/// OpenAI sends only when the request asked for `stream_options.include_usage`.
pub(crate) fn is_openai_usage_chunk(event: &str) -> bool {
    let Some(data) = event.lines().find_map(|l| l.strip_prefix("data:")) else {
        return false;
    };
    let Ok(v) = serde_json::from_str::<Value>(data.trim()) else {
        return false;
    };
    v.get("usage").is_some_and(|u| !u.is_null())
        && v.get("choices")
            .and_then(|c| c.as_array())
            .is_some_and(|c| c.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_model_bodies_have_the_providers_shapes() {
        assert_eq!(
            error_body(Api::OpenAi, 404, None, "x"),
            json!({"error":{"message":"The model `x` does not exist","type":"invalid_request_error","code":"model_not_found"}})
        );
        assert_eq!(
            error_body(Api::Anthropic, 404, None, "x"),
            json!({"type":"error","error":{"type":"not_found_error","message":"model: x"}})
        );
    }

    #[test]
    fn usage_chunk_is_recognised() {
        assert!(is_openai_usage_chunk(
            r#"data: {"id":"a","choices":[],"usage":{"prompt_tokens":1}}"#
        ));
        assert!(!is_openai_usage_chunk(
            r#"data: {"id":"a","choices":[{"index":0}],"usage":null}"#
        ));
        assert!(!is_openai_usage_chunk("data: [DONE]"));
    }
}
