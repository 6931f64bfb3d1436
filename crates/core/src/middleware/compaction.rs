//! Context compaction: when a request would fill too much of the model's context window, the
//! older part of the conversation is replaced by one summary message.
//!
//! - **Size** is estimated, not tokenised: characters / [`CHARS_PER_TOKEN`] over the system
//!   prompt, every message's text and tool calls, and the tool schemas. Tokenisers differ by
//!   model and core stays free of them; the share (default [`DEFAULT_COMPACTION_SHARE`]) leaves
//!   the margin the estimate needs.
//! - **Units.** The conversation is cut only between *turns*: a user message, or an assistant
//!   message together with the tool results that follow it. An assistant's tool call is never
//!   separated from its results.
//! - **What is kept whole:** the last `keep_recent_turns` turns, and everything from the first
//!   turn that has an unanswered tool call on (so the cut never passes one and order is kept).
//! - **Summary:** the older turns go to an injected [`Summarizer`] (the app backs it with the
//!   model); its text replaces them as one user message starting with [`SUMMARY_HEADER`]. If
//!   it fails, the request goes out uncompacted.
//! - **Per run, once:** the stored thread is not changed, so the next turn's request carries
//!   the whole history again. The middleware remembers which messages (by id) its summary
//!   covers and reuses it while the request still starts with them, summarising again (the
//!   old summary plus the newly old turns) only when the request grows past the share again.

use std::sync::{Arc, Mutex};

use tracing::{info, warn};

use super::{Middleware, RunInfo};
use crate::model::ModelRequest;
use crate::thread::{Message, Role};

/// Rough characters per token for English prose and code under the common BPE tokenisers.
pub const CHARS_PER_TOKEN: usize = 4;
/// Tokens each message costs besides its text (role and framing), as the providers document.
pub const MESSAGE_OVERHEAD_TOKENS: usize = 4;
/// Share of the context window a request may fill before it is compacted: the rest is left
/// for the reply and for the error of a character-based estimate.
pub const DEFAULT_COMPACTION_SHARE: f64 = 0.8;
/// Turns at the end always kept whole: the model's working memory of what it just did.
pub const DEFAULT_KEEP_RECENT_TURNS: usize = 6;
/// How the summary message starts, so the model (and a reader) knows what it is.
pub const SUMMARY_HEADER: &str =
    "[Summary of the earlier conversation, written to save space. The messages it replaces are \
     no longer shown.]";

/// Writes the summary of older messages. The app implements it with a model call.
#[async_trait::async_trait]
pub trait Summarizer: Send + Sync {
    /// A summary of `messages` (oldest first; the first may be an earlier summary), or why
    /// none could be written.
    async fn summarize(&self, messages: &[Message]) -> Result<String, String>;
}

/// What one compaction did, for the UI to show that it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactionNotice {
    pub run_id: String,
    /// Messages of the request the summary replaced (an earlier summary counts as one).
    pub summarised_messages: usize,
    pub estimated_tokens_before: usize,
    pub estimated_tokens_after: usize,
}

type Observer = Arc<dyn Fn(&CompactionNotice) + Send + Sync>;

/// Replaces older turns by a summary when a request passes a share of the context window.
pub struct ContextCompaction {
    summarizer: Arc<dyn Summarizer>,
    context_window_tokens: usize,
    share: f64,
    keep_recent_turns: usize,
    observer: Option<Observer>,
    cache: Mutex<Option<Cached>>,
}

/// The summary in use this run and the ids of the original messages it replaces, in order.
#[derive(Debug, Clone)]
struct Cached {
    run_id: String,
    covered_ids: Vec<String>,
    message: Message,
}

impl ContextCompaction {
    /// Compaction for a model with a context window of `context_window_tokens`, at the default
    /// share and keeping the default number of recent turns.
    pub fn new(summarizer: Arc<dyn Summarizer>, context_window_tokens: usize) -> Self {
        Self {
            summarizer,
            context_window_tokens,
            share: DEFAULT_COMPACTION_SHARE,
            keep_recent_turns: DEFAULT_KEEP_RECENT_TURNS,
            observer: None,
            cache: Mutex::new(None),
        }
    }

    /// Compacts past `share` of the window; values outside (0, 1] (and NaN) keep the default.
    pub fn with_share(mut self, share: f64) -> Self {
        if share > 0.0 && share <= 1.0 {
            self.share = share;
        }
        self
    }

    /// Keeps the last `turns` turns whole (at least one).
    pub fn with_keep_recent_turns(mut self, turns: usize) -> Self {
        self.keep_recent_turns = turns.max(1);
        self
    }

    /// Calls `observer` after each compaction (the app turns it into a run event).
    pub fn on_compact(
        mut self,
        observer: impl Fn(&CompactionNotice) + Send + Sync + 'static,
    ) -> Self {
        self.observer = Some(Arc::new(observer));
        self
    }

    fn threshold(&self) -> usize {
        (self.context_window_tokens as f64 * self.share) as usize
    }

    fn cached(&self) -> Option<Cached> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn store(&self, cached: Cached) {
        *self.cache.lock().unwrap_or_else(|e| e.into_inner()) = Some(cached);
    }
}

#[async_trait::async_trait]
impl Middleware for ContextCompaction {
    fn name(&self) -> &'static str {
        "context_compaction"
    }

    async fn before_model(&self, request: &mut ModelRequest, run: &RunInfo) {
        let before = estimate_tokens(request);
        // Reuse this run's summary while the request still starts with what it covers.
        let mut prior: Option<Cached> = None;
        if let Some(c) = self.cached().filter(|c| c.run_id == run.run_id) {
            if starts_with_ids(&request.messages, &c.covered_ids) {
                request
                    .messages
                    .splice(..c.covered_ids.len(), [c.message.clone()]);
                prior = Some(c);
            }
        }
        if estimate_tokens(request) <= self.threshold() {
            return;
        }
        let cut = cut_point(&request.messages, self.keep_recent_turns);
        let has_prior = prior.is_some();
        // Nothing older than the kept turns, or only the summary already there.
        if cut == 0 || (has_prior && cut == 1) {
            return;
        }
        let summary = match self.summarizer.summarize(&request.messages[..cut]).await {
            Ok(s) => s,
            Err(e) => {
                warn!(error = %e, "could not summarise older turns; sending the request whole");
                return;
            }
        };
        let mut covered_ids = prior.map(|c| c.covered_ids).unwrap_or_default();
        let fresh_from = usize::from(has_prior);
        covered_ids.extend(
            request.messages[fresh_from..cut]
                .iter()
                .map(|m| m.id.clone()),
        );
        let message = summary_message(&request.messages[0], &summary);
        request.messages.splice(..cut, [message.clone()]);
        let after = estimate_tokens(request);
        info!(
            summarised = cut,
            before, after, "compacted the conversation"
        );
        self.store(Cached {
            run_id: run.run_id.clone(),
            covered_ids,
            message,
        });
        if let Some(observer) = &self.observer {
            observer(&CompactionNotice {
                run_id: run.run_id.clone(),
                summarised_messages: cut,
                estimated_tokens_before: before,
                estimated_tokens_after: after,
            });
        }
    }
}

/// The estimated size of `request` in tokens: characters / [`CHARS_PER_TOKEN`] (rounded up)
/// plus [`MESSAGE_OVERHEAD_TOKENS`] per message.
pub fn estimate_tokens(request: &ModelRequest) -> usize {
    let mut chars = request.system.as_deref().map_or(0, |s| s.chars().count());
    for m in &request.messages {
        chars += m.content.chars().count();
        for c in &m.tool_calls {
            chars += c.id.len() + c.name.chars().count() + c.arguments.chars().count();
        }
        chars += m.tool_call_id.as_deref().map_or(0, str::len);
    }
    for t in &request.tools {
        chars += t.name.chars().count() + t.description.chars().count();
        chars += t.parameters.to_string().chars().count();
    }
    chars.div_ceil(CHARS_PER_TOKEN) + request.messages.len() * MESSAGE_OVERHEAD_TOKENS
}

/// How many leading messages may be summarised: whole turns only, none of the last
/// `keep_recent` turns, and nothing from the first turn with an unanswered call on.
fn cut_point(messages: &[Message], keep_recent: usize) -> usize {
    // Turn starts: every message that is not a tool result.
    let starts: Vec<usize> = messages
        .iter()
        .enumerate()
        .filter(|(i, m)| *i == 0 || m.role != Role::Tool)
        .map(|(i, _)| i)
        .collect();
    let mut cut_turn = starts.len().saturating_sub(keep_recent);
    for (t, &start) in starts.iter().enumerate().take(cut_turn) {
        let end = starts.get(t + 1).copied().unwrap_or(messages.len());
        if has_unanswered_call(&messages[start..end]) {
            cut_turn = t;
            break;
        }
    }
    starts.get(cut_turn).copied().unwrap_or(messages.len())
}

/// Whether the turn's assistant message has a call no tool message in the turn answers.
fn has_unanswered_call(turn: &[Message]) -> bool {
    let Some(first) = turn.first() else {
        return false;
    };
    first.tool_calls.iter().any(|c| {
        !turn[1..]
            .iter()
            .any(|m| m.tool_call_id.as_deref() == Some(c.id.as_str()))
    })
}

fn starts_with_ids(messages: &[Message], ids: &[String]) -> bool {
    !ids.is_empty()
        && messages.len() >= ids.len()
        && messages.iter().zip(ids).all(|(m, id)| &m.id == id)
}

fn summary_message(first: &Message, summary: &str) -> Message {
    let mut m = Message::user(
        &first.thread_id,
        format!("{SUMMARY_HEADER}\n\n{}", summary.trim()),
    );
    m.created_at = first.created_at;
    m
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::middleware::testkit::{assistant, call, request, result, run, shape, user};

    /// Summarises by listing how many messages it got; counts its calls; fails on request.
    #[derive(Default)]
    struct CountingSummarizer {
        calls: AtomicUsize,
        seen: Mutex<Vec<Vec<String>>>,
        fail: bool,
    }

    #[async_trait::async_trait]
    impl Summarizer for CountingSummarizer {
        async fn summarize(&self, messages: &[Message]) -> Result<String, String> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            self.seen
                .lock()
                .unwrap()
                .push(messages.iter().map(|m| m.content.clone()).collect());
            if self.fail {
                return Err("model unavailable".into());
            }
            Ok(format!("{} messages summarised", messages.len()))
        }
    }

    /// A history of `turns` rounds: user asks, assistant calls a tool, the tool answers with
    /// `size` characters.
    fn history(turns: usize, size: usize) -> Vec<Message> {
        let mut out = Vec::new();
        for i in 0..turns {
            out.push(user(&format!("question {i}")));
            out.push(assistant("", vec![call(&format!("c{i}"), "read", "{}")]));
            out.push(result(&format!("c{i}"), &"x".repeat(size)));
        }
        out
    }

    fn compaction(s: &Arc<CountingSummarizer>, window: usize, keep: usize) -> ContextCompaction {
        ContextCompaction::new(s.clone(), window).with_keep_recent_turns(keep)
    }

    #[tokio::test]
    async fn a_request_under_the_share_is_left_alone() {
        let s = Arc::new(CountingSummarizer::default());
        let m = compaction(&s, 100_000, 2);
        let mut req = request(history(5, 100));
        let original = req.clone();
        m.before_model(&mut req, &run()).await;
        assert_eq!(req, original);
        assert_eq!(s.calls.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn older_turns_become_one_summary_and_recent_turns_stay_whole() {
        let s = Arc::new(CountingSummarizer::default());
        // 5 rounds of ~1,000 tokens each against a 2,000-token window.
        let m = compaction(&s, 2_000, 2);
        let mut req = request(history(5, 4_000));
        m.before_model(&mut req, &run()).await;
        // 10 turns (5 x user, assistant+result) less the last 2 kept: the cut falls between
        // turns, so the last assistant keeps its result.
        assert_eq!(
            shape(&req.messages),
            ["user", "user", "assistant[c4]", "tool(c4)"]
        );
        assert!(req.messages[0].content.starts_with(SUMMARY_HEADER));
        assert!(req.messages[0].content.ends_with("12 messages summarised"));
        assert_eq!(req.messages[1].content, "question 4");
        assert!(estimate_tokens(&req) < 2_000);
    }

    #[tokio::test]
    async fn a_cut_never_separates_a_call_from_its_results() {
        let s = Arc::new(CountingSummarizer::default());
        let m = compaction(&s, 1_000, 1);
        let mut req = request(vec![
            user("go"),
            assistant("", vec![call("a", "x", "{}"), call("b", "y", "{}")]),
            result("a", &"1".repeat(8_000)),
            result("b", &"2".repeat(8_000)),
            assistant("", vec![call("c", "z", "{}"), call("d", "z", "{}")]),
            result("c", &"3".repeat(8_000)),
            result("d", "ok"),
        ]);
        m.before_model(&mut req, &run()).await;
        assert_eq!(
            shape(&req.messages),
            ["user", "assistant[c,d]", "tool(c)", "tool(d)"]
        );
    }

    #[tokio::test]
    async fn an_unanswered_call_and_all_after_it_are_kept_whole() {
        let s = Arc::new(CountingSummarizer::default());
        let m = compaction(&s, 1_000, 1);
        let mut messages = history(2, 8_000);
        messages.push(assistant("", vec![call("open", "x", "{}")])); // no result
        messages.extend(history(2, 8_000));
        let mut req = request(messages);
        m.before_model(&mut req, &run()).await;
        let shape = shape(&req.messages);
        assert_eq!(shape[0], "user");
        assert!(req.messages[0].content.starts_with(SUMMARY_HEADER));
        assert_eq!(shape[1], "assistant[open]");
        assert_eq!(
            shape.len(),
            1 + 1 + 6,
            "everything from the open call on is whole"
        );
    }

    #[tokio::test]
    async fn a_failing_summariser_leaves_the_request_whole() {
        let s = Arc::new(CountingSummarizer {
            fail: true,
            ..CountingSummarizer::default()
        });
        let m = compaction(&s, 1_000, 1);
        let mut req = request(history(4, 8_000));
        let original = req.clone();
        m.before_model(&mut req, &run()).await;
        assert_eq!(req, original);
        assert_eq!(s.calls.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn the_summary_is_reused_on_later_turns_and_extended_when_needed() {
        let s = Arc::new(CountingSummarizer::default());
        let m = compaction(&s, 3_000, 2);
        let mut stored = history(6, 4_000);
        let mut req = request(stored.clone());
        m.before_model(&mut req, &run()).await;
        assert_eq!(s.calls.load(Ordering::SeqCst), 1);

        // Next turn: the loop sends the whole stored history plus a small new message.
        stored.push(assistant("thinking", vec![]));
        let mut next = request(stored.clone());
        m.before_model(&mut next, &run()).await;
        assert_eq!(s.calls.load(Ordering::SeqCst), 1, "the summary was reused");
        assert!(next.messages[0].content.ends_with("15 messages summarised"));
        assert_eq!(next.messages.last().unwrap().content, "thinking");

        // Grown past the share again: the old summary and the newly old turns are summarised.
        stored.extend(history(3, 4_000));
        let mut later = request(stored);
        m.before_model(&mut later, &run()).await;
        assert_eq!(s.calls.load(Ordering::SeqCst), 2);
        let seen = s.seen.lock().unwrap();
        assert!(
            seen[1][0].starts_with(SUMMARY_HEADER),
            "the old summary is folded in"
        );
        assert!(estimate_tokens(&later) < 3_000);
    }

    #[tokio::test]
    async fn the_observer_hears_of_each_compaction() {
        let s = Arc::new(CountingSummarizer::default());
        let notices = Arc::new(Mutex::new(Vec::new()));
        let sink = notices.clone();
        let m = compaction(&s, 1_000, 1).on_compact(move |n| sink.lock().unwrap().push(n.clone()));
        let mut req = request(history(3, 8_000));
        m.before_model(&mut req, &run()).await;
        let notices = notices.lock().unwrap();
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].summarised_messages, 7);
        assert!(notices[0].estimated_tokens_before > notices[0].estimated_tokens_after);
    }

    #[test]
    fn the_estimate_is_characters_over_four_plus_framing() {
        let req = request(vec![user(&"a".repeat(400))]);
        // "You are a test." is 15 characters: (15 + 400) / 4 rounded up, plus one message.
        assert_eq!(estimate_tokens(&req), 104 + MESSAGE_OVERHEAD_TOKENS);
        assert_eq!(
            ContextCompaction::new(Arc::new(CountingSummarizer::default()), 1000)
                .with_share(2.0)
                .share,
            DEFAULT_COMPACTION_SHARE
        );
    }
}
