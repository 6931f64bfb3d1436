//! Loop detection: a model that makes the same call again and again is told so, then stopped.
//!
//! Two calls are identical when they have the same tool name and the same arguments after
//! canonicalisation (parsed as JSON and written back with sorted keys and no whitespace;
//! arguments that are not JSON compare as their raw text). Only the last [`LOOP_WINDOW`] calls
//! of the run count, so a call legitimately repeated far apart (re-reading a file after
//! editing it) is not punished.
//!
//! - The [`LOOP_WARN_AT`]th identical call runs, and a warning is appended to its output.
//! - From the [`LOOP_STOP_AT`]th on, the call is answered with an error result without running.
//! - If a model turn consists only of calls that would be refused that way, `after_model`
//!   stops the run: the model has ignored two warnings and would only burn turns.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use tracing::warn;

use super::{Flow, Middleware, RunInfo};
use crate::thread::{Message, ToolCall};
use crate::tools::ToolOutput;

/// Identical calls at which the model is warned: twice can be a retry after a transient
/// failure, a third time is a pattern.
pub const LOOP_WARN_AT: usize = 3;
/// Identical calls from which they are no longer run: the model got warnings at 3 and 4.
pub const LOOP_STOP_AT: usize = 5;
/// How many of the run's most recent calls are compared: enough to span a few multi-call
/// turns, few enough that legitimate repeats far apart are forgotten.
pub const LOOP_WINDOW: usize = 20;

/// Warns the model about repeated identical calls, then refuses them.
#[derive(Debug, Default)]
pub struct LoopDetection {
    state: Mutex<LoopState>,
}

#[derive(Debug, Default)]
struct LoopState {
    /// The run the window belongs to; a different run starts over.
    run_id: String,
    /// Signatures of the most recent calls, oldest first, at most [`LOOP_WINDOW`].
    window: VecDeque<String>,
    /// Calls that ran but must carry a warning: call id -> identical count.
    warned: HashMap<String, usize>,
}

impl LoopState {
    fn for_run(&mut self, run: &RunInfo) -> &mut Self {
        if self.run_id != run.run_id {
            *self = Self {
                run_id: run.run_id.clone(),
                ..Self::default()
            };
        }
        self
    }

    fn count(window: &VecDeque<String>, signature: &str) -> usize {
        window.iter().filter(|s| *s == signature).count()
    }

    fn push(window: &mut VecDeque<String>, signature: String) {
        window.push_back(signature);
        while window.len() > LOOP_WINDOW {
            window.pop_front();
        }
    }
}

impl LoopDetection {
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LoopState> {
        // A panic elsewhere while holding the lock leaves counts that are still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[async_trait::async_trait]
impl Middleware for LoopDetection {
    fn name(&self) -> &'static str {
        "loop_detection"
    }

    fn after_model(&self, reply: &Message, run: &RunInfo) -> Flow {
        if reply.tool_calls.is_empty() {
            return Flow::Continue;
        }
        let mut state = self.lock();
        // Play the turn's calls onto a copy of the window, as before_tool will.
        let mut window = state.for_run(run).window.clone();
        let mut all_refused = true;
        for c in &reply.tool_calls {
            let sig = signature(c);
            LoopState::push(&mut window, sig.clone());
            if LoopState::count(&window, &sig) < LOOP_STOP_AT {
                all_refused = false;
            }
        }
        if !all_refused {
            return Flow::Continue;
        }
        let name = reply.tool_calls.first().map_or("", |c| c.name.as_str());
        warn!(
            tool = name,
            "stopping a run that repeats identical tool calls"
        );
        Flow::Stop {
            reason: format!(
                "Stopped: the agent kept making the same `{name}` call with the same arguments \
                 ({LOOP_STOP_AT} times or more in its last {LOOP_WINDOW} calls) and was not \
                 getting anywhere."
            ),
        }
    }

    fn before_tool(&self, call: &ToolCall, run: &RunInfo) -> Option<ToolOutput> {
        let sig = signature(call);
        let mut guard = self.lock();
        let state = guard.for_run(run);
        LoopState::push(&mut state.window, sig.clone());
        let n = LoopState::count(&state.window, &sig);
        if n >= LOOP_STOP_AT {
            return Some(ToolOutput::error(format!(
                "Error: not run: this is call number {n} to `{}` with exactly these arguments \
                 in your last {LOOP_WINDOW} calls, and its result would not change. Do not \
                 repeat it: use the results you already have, try a different approach, or \
                 answer the user.",
                call.name
            )));
        }
        if n >= LOOP_WARN_AT {
            state.warned.insert(call.id.clone(), n);
        }
        None
    }

    fn after_tool(&self, call: &ToolCall, output: &mut ToolOutput, _run: &RunInfo) {
        let Some(n) = self.lock().warned.remove(&call.id) else {
            return;
        };
        output.content.push_str(&format!(
            "\n\n[Warning from Workbench: you have now made this exact `{}` call {n} times in \
             your last {LOOP_WINDOW} calls. Repeating it will not give a different result. \
             Change the arguments, try another approach, or answer with what you have; from \
             the {LOOP_STOP_AT}th identical call it will not be run.]",
            call.name
        ));
    }
}

/// The identity of a call: its name and its canonical arguments.
fn signature(call: &ToolCall) -> String {
    format!("{}\u{0}{}", call.name, canonical_arguments(&call.arguments))
}

/// Arguments as canonical JSON (sorted keys, no whitespace), or `raw:` and the trimmed text
/// when they are not JSON. Empty arguments equal `{}`: models send both for tools without
/// parameters.
fn canonical_arguments(arguments: &str) -> String {
    let trimmed = arguments.trim();
    if trimmed.is_empty() {
        return "{}".to_string();
    }
    match serde_json::from_str::<serde_json::Value>(trimmed) {
        Ok(value) => {
            let mut out = String::new();
            write_canonical(&value, &mut out);
            out
        }
        Err(_) => format!("raw:{trimmed}"),
    }
}

/// Writes `value` with object keys sorted, whatever map type serde_json was built with (its
/// `preserve_order` feature keeps insertion order, which would make `{a,b}` != `{b,a}`).
fn write_canonical(value: &serde_json::Value, out: &mut String) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                if let Some(v) = map.get(k) {
                    write_canonical(v, out);
                }
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(v, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::middleware::testkit::{assistant, call, run};

    /// Runs one call through before_tool and, when it was let through, after_tool with an
    /// "ok" output; returns what the model would read.
    fn exec(m: &LoopDetection, c: &ToolCall) -> ToolOutput {
        let r = run();
        match m.before_tool(c, &r) {
            Some(refused) => refused,
            None => {
                let mut out = ToolOutput::text("ok");
                m.after_tool(c, &mut out, &r);
                out
            }
        }
    }

    #[test]
    fn warns_at_the_third_identical_call_and_refuses_from_the_fifth() {
        let m = LoopDetection::new();
        let outs: Vec<ToolOutput> = (0..6)
            .map(|i| exec(&m, &call(&format!("c{i}"), "read", r#"{"path":"a.txt"}"#)))
            .collect();
        assert_eq!(outs[0], ToolOutput::text("ok"));
        assert_eq!(outs[1], ToolOutput::text("ok"));
        for o in &outs[2..4] {
            assert!(!o.is_error);
            assert!(o.content.starts_with("ok"), "the call still ran");
            assert!(o.content.contains("Warning"), "{}", o.content);
        }
        assert!(outs[2].content.contains("3 times"));
        for o in &outs[4..] {
            assert!(o.is_error);
            assert!(o.content.starts_with("Error: not run"), "{}", o.content);
        }
    }

    #[test]
    fn key_order_and_whitespace_do_not_make_calls_different() {
        let m = LoopDetection::new();
        exec(&m, &call("1", "search", r#"{"q":"x","limit":5}"#));
        exec(&m, &call("2", "search", r#"{ "limit": 5, "q": "x" }"#));
        let third = exec(&m, &call("3", "search", "{\"limit\":5,\n\"q\":\"x\"}"));
        assert!(third.content.contains("Warning"));
    }

    #[test]
    fn different_arguments_or_names_are_different_calls() {
        let m = LoopDetection::new();
        for i in 0..6 {
            let out = exec(
                &m,
                &call(&i.to_string(), "read", &format!(r#"{{"path":"{i}"}}"#)),
            );
            assert_eq!(out, ToolOutput::text("ok"));
        }
        for i in 0..3 {
            let name = ["a", "b", "c"][i];
            assert_eq!(exec(&m, &call("x", name, "{}")), ToolOutput::text("ok"));
        }
    }

    #[test]
    fn unparsable_arguments_compare_as_raw_text() {
        let m = LoopDetection::new();
        exec(&m, &call("1", "sh", "{not json"));
        exec(&m, &call("2", "sh", "{not json"));
        assert!(exec(&m, &call("3", "sh", "{not json"))
            .content
            .contains("Warning"));
        assert_eq!(
            exec(&m, &call("4", "sh", "{not json!")),
            ToolOutput::text("ok")
        );
    }

    #[test]
    fn calls_that_left_the_window_are_forgotten() {
        let m = LoopDetection::new();
        let same = call("s", "read", r#"{"path":"a"}"#);
        exec(&m, &same);
        exec(&m, &same);
        for i in 0..LOOP_WINDOW {
            exec(
                &m,
                &call(&i.to_string(), "other", &format!("{{\"i\":{i}}}")),
            );
        }
        assert_eq!(
            exec(&m, &same),
            ToolOutput::text("ok"),
            "the first two are out of the window"
        );
    }

    #[test]
    fn a_new_run_starts_with_an_empty_window() {
        let m = LoopDetection::new();
        let same = call("s", "read", "{}");
        for _ in 0..4 {
            exec(&m, &same);
        }
        let other_run = RunInfo {
            run_id: "r2".into(),
            ..run()
        };
        assert_eq!(m.before_tool(&same, &other_run), None);
    }

    #[test]
    fn after_model_stops_a_turn_made_only_of_refused_calls() {
        let m = LoopDetection::new();
        let same = call("s", "read", r#"{"path":"a"}"#);
        for _ in 0..4 {
            exec(&m, &same);
        }
        // The 5th identical call, alone in its turn: stop.
        let flow = m.after_model(&assistant("", vec![same.clone()]), &run());
        assert!(matches!(flow, Flow::Stop { reason } if reason.contains("`read`")));
        // With a fresh call beside it the turn goes on; the repeat alone is refused.
        let mixed = assistant("", vec![same.clone(), call("n", "write", "{}")]);
        assert_eq!(m.after_model(&mixed, &run()), Flow::Continue);
        // A text answer never stops.
        assert_eq!(
            m.after_model(&assistant("done", vec![]), &run()),
            Flow::Continue
        );
    }

    #[test]
    fn after_model_counts_repeats_within_the_same_turn() {
        let m = LoopDetection::new();
        let same = call("s", "read", "{}");
        exec(&m, &same);
        exec(&m, &same);
        // Three more in one turn: the 3rd and 4th would run with a warning, the 5th not.
        let turn = assistant("", vec![same.clone(), same.clone(), same.clone()]);
        assert_eq!(m.after_model(&turn, &run()), Flow::Continue);
        // after_model does not count: the calls are counted when they are made.
        assert_eq!(m.lock().window.len(), 2);
    }

    #[test]
    fn canonical_form_sorts_nested_keys() {
        assert_eq!(
            canonical_arguments(r#"{"b":{"d":1,"c":[{"z":0,"y":1}]},"a":"é"}"#),
            r#"{"a":"é","b":{"c":[{"y":1,"z":0}],"d":1}}"#
        );
        assert_eq!(canonical_arguments("  "), "{}");
    }
}
