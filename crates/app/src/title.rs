//! Thread titles: a provisional one from the first message when a run starts, then a short
//! one the model gives after the first exchange (see `App::title_from_model`).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use workbench_core::agent::{EventSink, RunEvent};
use workbench_core::model::{ModelClient, ModelRequest, StreamEvent};
use workbench_core::thread::{Message, Role, ThreadStore};
use workbench_store::TitleSource;

use crate::App;

impl App {
    /// Whether threads get a title from the model after their first exchange. Off by default:
    /// the desktop turns it on; the CLI leaves it off (a one-shot `workbench run` should not
    /// make a second model call the user did not ask for).
    pub fn set_model_titles(&self, on: bool) {
        self.model_titles.store(on, Ordering::Relaxed);
    }

    /// After a completed run: when the thread still has its provisional title, asks the model
    /// for a short one, stores it and announces it on `sink`. Every failure keeps the
    /// provisional title and is only logged; the run has ended well either way.
    pub(crate) async fn title_after_run(
        &self,
        thread_id: &str,
        model: Arc<dyn ModelClient>,
        model_name: &str,
        sink: &EventSink,
    ) {
        if !self.model_titles.load(Ordering::Relaxed) {
            return;
        }
        let id = thread_id.to_string();
        match self.on_store(move |s| s.title_source(&id)).await {
            Ok(TitleSource::FirstMessage) => {}
            Ok(_) => return,
            Err(e) => {
                tracing::warn!(%thread_id, error = %e, "could not read the thread's title source");
                return;
            }
        }
        let id = thread_id.to_string();
        let messages = match self.on_store(move |s| s.load_messages(&id)).await {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!(%thread_id, error = %e, "could not read the thread to title it");
                return;
            }
        };
        let title = match tokio::time::timeout(
            TITLE_TIMEOUT,
            ask_model(model, model_name, &messages),
        )
        .await
        {
            Ok(Ok(title)) => title,
            Ok(Err(e)) => {
                tracing::warn!(%thread_id, error = %e, "the model gave no title; the provisional one stays");
                return;
            }
            Err(_) => {
                tracing::warn!(%thread_id, "the model took too long to title the thread; the provisional title stays");
                return;
            }
        };
        let (id, t) = (thread_id.to_string(), title.clone());
        let replaced = self
            .on_store(move |s| {
                s.set_title_if(&id, &t, TitleSource::Model, &[TitleSource::FirstMessage])
            })
            .await;
        match replaced {
            Ok(true) => sink(RunEvent::ThreadTitled {
                thread_id: thread_id.to_string(),
                title,
            }),
            // The user renamed it meanwhile: their title stays.
            Ok(false) => {}
            Err(e) => tracing::warn!(%thread_id, error = %e, "could not store the model's title"),
        }
    }
}

/// Most words a thread title takes from the first message.
const TITLE_MAX_WORDS: usize = 6;
/// Most characters of such a title, so the sidebar stays one line.
const TITLE_MAX_CHARS: usize = 48;

/// A provisional thread title from the user's first message: its first words.
pub(crate) fn from_first_message(text: &str) -> Option<String> {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let words: Vec<&str> = line.split_whitespace().take(TITLE_MAX_WORDS).collect();
    let mut title = words.join(" ");
    if title.chars().count() > TITLE_MAX_CHARS {
        title = title.chars().take(TITLE_MAX_CHARS - 1).collect::<String>() + "…";
    } else if line.split_whitespace().count() > TITLE_MAX_WORDS {
        title.push('…');
    }
    Some(title)
}

/// What the model is asked when it names a thread.
const TITLE_INSTRUCTIONS: &str = "You name conversations. Reply with a title for the \
conversation below: at most 6 words, in the conversation's language, no quotes, no final \
punctuation, nothing else.";
/// Most characters of each message the model is shown to name the thread; the gist is enough.
const TITLE_EXCERPT_CHARS: usize = 1_000;
/// The title is a few tokens; a cap keeps a chatty model from streaming an essay.
const TITLE_MAX_TOKENS: u32 = 64;
/// How long the title may take before the provisional title stays.
pub(crate) const TITLE_TIMEOUT: Duration = Duration::from_secs(30);

/// Asks the model for a short title of the exchange in `messages` (the first user message and
/// the first shown answer); `Err` says why there is none.
pub(crate) async fn ask_model(
    model: Arc<dyn ModelClient>,
    model_name: &str,
    messages: &[Message],
) -> Result<String, String> {
    let first = |role: Role| {
        messages
            .iter()
            .find(|m| m.role == role && !m.hidden && !m.content.trim().is_empty())
            .map(|m| excerpt(&m.content))
    };
    let question = first(Role::User).ok_or("the thread has no user message")?;
    let answer = first(Role::Assistant).unwrap_or_default();
    let thread_id = messages.first().map(|m| m.thread_id.as_str()).unwrap_or("");
    let request = ModelRequest {
        model: model_name.to_string(),
        system: Some(TITLE_INSTRUCTIONS.into()),
        messages: vec![Message::user(
            thread_id,
            format!("User: {question}\n\nAssistant: {answer}\n\nTitle:"),
        )],
        tools: Vec::new(),
        max_tokens: Some(TITLE_MAX_TOKENS),
    };
    let mut stream = model.stream(request).await.map_err(|e| e.to_string())?;
    let mut text = String::new();
    while let Some(event) = stream.next().await {
        match event.map_err(|e| e.to_string())? {
            StreamEvent::TextDelta(t) => text.push_str(&t),
            StreamEvent::Finish(_) => break,
            _ => {}
        }
    }
    clean_model_title(&text).ok_or_else(|| "the model gave no usable title".to_string())
}

fn excerpt(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(TITLE_EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// The model's reply made into a title: its first non-empty line without a `Title:` label,
/// markdown, quotes or final punctuation, at most six words; `None` when nothing is left.
pub(crate) fn clean_model_title(reply: &str) -> Option<String> {
    let line = reply.lines().map(str::trim).find(|l| !l.is_empty())?;
    let line = strip_label(line);
    let is_wrapper = |c: char| {
        matches!(
            c,
            '"' | '\'' | '`' | '*' | '_' | '#' | '“' | '”' | '‘' | '’' | '«' | '»' | '„'
        )
    };
    let words: Vec<String> = line
        .split_whitespace()
        .map(|w| w.trim_matches(is_wrapper).to_string())
        .filter(|w| !w.is_empty())
        .take(TITLE_MAX_WORDS)
        .collect();
    let mut title = words.join(" ");
    while title.ends_with(|c: char| ".,;:!?…-–—".contains(c) || is_wrapper(c)) {
        title.pop();
    }
    let title = title.trim().to_string();
    if title.is_empty() {
        return None;
    }
    Some(match title.char_indices().nth(TITLE_MAX_CHARS) {
        Some((cut, _)) => format!("{}…", title[..cut].trim_end()),
        None => title,
    })
}

/// `Title: Foo` -> `Foo` (any case); other text unchanged.
fn strip_label(line: &str) -> &str {
    match line.split_once(':') {
        Some((label, rest)) if label.trim().trim_matches('*').eq_ignore_ascii_case("title") => {
            rest.trim()
        }
        _ => line,
    }
}

#[cfg(test)]
mod tests {
    use super::{clean_model_title, from_first_message};

    #[test]
    fn model_titles_lose_quotes_labels_markdown_and_final_punctuation() {
        let cases = [
            (
                "\"Planning a Trip to Lisbon.\"",
                Some("Planning a Trip to Lisbon"),
            ),
            (
                "Title: **Quarterly report summary**\n",
                Some("Quarterly report summary"),
            ),
            (
                "\n\n  “Rust lifetimes explained”!  \nmore text",
                Some("Rust lifetimes explained"),
            ),
            (
                "one two three four five six seven eight",
                Some("one two three four five six"),
            ),
            (
                "Hello! I am a scripted model.",
                Some("Hello! I am a scripted model"),
            ),
            ("C++ vs. Rust?", Some("C++ vs. Rust")),
            ("\"\"...", None),
            ("   \n ", None),
            ("Title:", None),
        ];
        for (reply, want) in cases {
            assert_eq!(clean_model_title(reply).as_deref(), want, "{reply:?}");
        }
    }

    #[test]
    fn model_titles_are_capped_in_characters() {
        let t = clean_model_title(&"y".repeat(300)).unwrap();
        assert_eq!(t.chars().count(), 49);
        assert!(t.ends_with('…'));
    }

    #[test]
    fn takes_the_first_words_of_the_first_non_empty_line() {
        assert_eq!(
            from_first_message("\n  Summarise the quarterly report for me please now\nmore")
                .as_deref(),
            Some("Summarise the quarterly report for me…")
        );
        assert_eq!(from_first_message("hi there").as_deref(), Some("hi there"));
    }

    #[test]
    fn blank_text_gives_no_title() {
        assert_eq!(from_first_message("  \n \t"), None);
    }

    #[test]
    fn long_words_are_cut_by_characters() {
        let t = from_first_message(&"x".repeat(100)).unwrap();
        assert_eq!(t.chars().count(), 48);
        assert!(t.ends_with('…'));
    }
}
