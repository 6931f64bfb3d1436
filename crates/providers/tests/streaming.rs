//! Text, reasoning and tool calls streamed from the scripted server through both clients, and
//! the requests the server received.

mod common;

use common::*;
use serde_json::json;
use workbench_core::config::ProviderKind;
use workbench_core::model::{FinishReason, ToolSpec, Usage};

#[tokio::test]
async fn openai_streams_text_usage_and_finish() {
    let server = server();
    let client = client(ProviderKind::Openai, &server.base_url(), Some(KEY));
    let got = run(&client, request("hello", "Say hello")).await;

    assert_eq!(got.error, None);
    assert_eq!(got.text, HELLO);
    assert_eq!(got.text_deltas, 15, "one delta per content chunk");
    assert_eq!(
        got.usage,
        Some(Usage {
            input_tokens: 12,
            output_tokens: 15
        })
    );
    assert_eq!(got.finish, Some(FinishReason::Stop));
    assert_eq!(got.after_finish, 0);

    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].path, "/v1/chat/completions");
    assert_eq!(
        reqs[0].headers.get("authorization").map(String::as_str),
        Some(&*format!("Bearer {KEY}"))
    );
    let body = &reqs[0].body;
    assert_eq!(body["model"], "hello");
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"], json!({"include_usage": true}));
    assert_eq!(
        body["messages"],
        json!([{"role": "user", "content": "Say hello"}])
    );
    assert!(
        body.get("tools").is_none(),
        "no tools, no tools field: {body}"
    );
}

#[tokio::test]
async fn anthropic_streams_text_usage_and_finish() {
    let server = server();
    let client = client(ProviderKind::Anthropic, &server.base_url(), Some(KEY));
    let mut req = request("hello", "Say hello");
    req.system = Some("You are terse.".into());
    let got = run(&client, req).await;

    assert_eq!(got.error, None);
    assert_eq!(got.text, HELLO);
    assert_eq!(
        got.usage,
        Some(Usage {
            input_tokens: 12,
            output_tokens: 15
        })
    );
    assert_eq!(got.finish, Some(FinishReason::Stop));

    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].path, "/v1/messages");
    assert_eq!(
        reqs[0].headers.get("x-api-key").map(String::as_str),
        Some(KEY)
    );
    assert_eq!(
        reqs[0].headers.get("anthropic-version").map(String::as_str),
        Some("2023-06-01")
    );
    assert!(
        !reqs[0].headers.contains_key("authorization"),
        "the key goes in x-api-key only"
    );
    let body = &reqs[0].body;
    assert_eq!(body["model"], "hello");
    assert_eq!(body["stream"], true);
    assert_eq!(body["max_tokens"], 4096);
    assert_eq!(body["system"], "You are terse.");
    assert_eq!(
        body["messages"],
        json!([{"role": "user", "content": [{"type": "text", "text": "Say hello"}]}])
    );
}

fn tools() -> Vec<ToolSpec> {
    ["read_file", "list_dir"]
        .into_iter()
        .map(|name| ToolSpec {
            name: name.into(),
            description: format!("{name} in the sandbox"),
            parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
        })
        .collect()
}

fn assert_two_calls(got: &Collected, first_id: &str, second_id: &str) {
    assert_eq!(got.error, None);
    assert_eq!(got.calls.len(), 2, "{:?}", got.calls);
    assert_eq!(got.calls[0].id, first_id);
    assert_eq!(got.calls[0].name, "read_file");
    assert_eq!(got.calls[1].id, second_id);
    assert_eq!(got.calls[1].name, "list_dir");
    let args: Vec<serde_json::Value> = got
        .calls
        .iter()
        .map(|c| serde_json::from_str(&c.arguments).expect("accumulated arguments are whole JSON"))
        .collect();
    assert_eq!(
        args[0],
        json!({"path": "/mnt/user-data/workspace/notes.md"})
    );
    assert_eq!(args[1], json!({"path": "/mnt/user-data/outputs"}));
    assert_eq!(got.finish, Some(FinishReason::ToolCalls));
}

#[tokio::test]
async fn openai_accumulates_parallel_tool_call_fragments_by_index() {
    let server = server();
    let client = client(ProviderKind::Openai, &server.base_url(), Some(KEY));
    let mut req = request("tool-call", "Read my notes and list the outputs");
    req.tools = tools();
    let got = run(&client, req).await;
    assert_two_calls(
        &got,
        "call_Rk2xYz0a1b2c3d4e5f6g7h8i",
        "call_Qm9pLk8j7h6g5f4d3s2a1z0x",
    );
    assert_eq!(got.text, "");

    let body = &server.requests()[0].body;
    assert_eq!(body["tools"][0]["type"], "function");
    assert_eq!(body["tools"][1]["function"]["name"], "list_dir");
}

#[tokio::test]
async fn anthropic_accumulates_tool_use_input_json() {
    let server = server();
    let client = client(ProviderKind::Anthropic, &server.base_url(), Some(KEY));
    let mut req = request("tool-call", "Read my notes and list the outputs");
    req.tools = tools();
    let got = run(&client, req).await;
    assert_two_calls(
        &got,
        "toolu_01A09q90qw90lq917835lq9",
        "toolu_01B7Xk2mN4pQ8rS1tU3vW5yZ",
    );
    assert_eq!(got.text, "I'll read the notes and list the outputs.");
    assert_eq!(
        got.usage,
        Some(Usage {
            input_tokens: 412,
            output_tokens: 96
        })
    );

    let body = &server.requests()[0].body;
    assert_eq!(body["tools"][0]["name"], "read_file");
    assert_eq!(
        body["tools"][0]["input_schema"]["required"],
        json!(["path"])
    );
}

#[tokio::test]
async fn ollama_style_calls_without_index_are_told_apart_by_id() {
    let server = server();
    let client = client(ProviderKind::Openai, &server.base_url(), Some(KEY));
    let mut req = request("ollama-style", "Read my notes and list the outputs");
    req.tools = tools();
    let got = run(&client, req).await;
    // finish_reason is "stop" on the wire; tools were called, so the caller is told ToolCalls.
    assert_two_calls(&got, "call_lz8d1m2a", "call_p3q9x7we");
    assert_eq!(
        got.usage,
        Some(Usage {
            input_tokens: 230,
            output_tokens: 41
        })
    );
}

#[tokio::test]
async fn reasoning_is_streamed_apart_from_the_answer_by_both_clients() {
    let server = server();
    for kind in [ProviderKind::Openai, ProviderKind::Anthropic] {
        let client = client(kind, &server.base_url(), Some(KEY));
        let got = run(&client, request("reasoning", "Hi")).await;
        assert_eq!(got.error, None, "{kind:?}");
        assert_eq!(
            got.reasoning, "The user greets me. A short greeting back is enough.",
            "{kind:?}"
        );
        assert_eq!(got.text, "Hi there!", "{kind:?}");
        assert_eq!(got.finish, Some(FinishReason::Stop), "{kind:?}");
    }
}

#[tokio::test]
async fn a_conversation_with_tool_results_is_sent_in_each_wire_format() {
    use workbench_core::thread::{Message, Role, ToolCall};
    let mut assistant = Message::assistant_streaming("t1", "r1");
    assistant.tool_calls = vec![ToolCall {
        id: "call_1".into(),
        name: "read_file".into(),
        arguments: r#"{"path":"notes.md"}"#.into(),
    }];
    let mut result = Message::user("t1", "# Notes");
    result.role = Role::Tool;
    result.tool_call_id = Some("call_1".into());
    let mut req = request("hello", "Read notes.md");
    req.messages.push(assistant);
    req.messages.push(result);

    let server = server();
    for kind in [ProviderKind::Openai, ProviderKind::Anthropic] {
        let client = client(kind, &server.base_url(), Some(KEY));
        let got = run(&client, req.clone()).await;
        assert_eq!(got.text, HELLO);
    }
    let reqs = server.requests();
    assert_eq!(
        reqs[0].body["messages"][2],
        json!({"role": "tool", "tool_call_id": "call_1", "content": "# Notes"})
    );
    assert_eq!(
        reqs[1].body["messages"][2],
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_1", "content": "# Notes"}]})
    );
}

#[tokio::test]
async fn the_factory_picks_the_client_for_the_configured_kind() {
    let a = client(
        ProviderKind::Anthropic,
        "https://api.anthropic.com/v1/",
        None,
    );
    assert_eq!(a.describe(), "Anthropic at https://api.anthropic.com/v1");
    let o = client(ProviderKind::Openai, "http://localhost:11434/v1", None);
    assert_eq!(
        o.describe(),
        "OpenAI-compatible at http://localhost:11434/v1"
    );
}
