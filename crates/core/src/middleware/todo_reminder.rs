//! A nudge when the model tries to finish with its plan still open: once per run, a reply with
//! no tool calls while `write_todos` items are pending or in progress gets one more turn, with
//! a short hidden reminder listing the open items. The model may then carry on, update the
//! plan, or answer again (which ends the run: the reminder is never repeated).

use std::sync::Mutex;

use super::{Finish, Middleware, RunInfo};
use crate::model::ModelRequest;
use crate::thread::{Message, ThreadState};

/// Open items named in the reminder; the rest are counted, so a long plan stays a short note.
pub const REMINDER_MAX_ITEMS: usize = 5;
/// How the reminder starts, so it is recognisable in a request (and in tests).
pub const REMINDER_PREFIX: &str = "[reminder, not from the user]";

/// Gives the model one reminder of its open plan items per run.
#[derive(Debug, Default)]
pub struct TodoReminder {
    state: Mutex<Reminder>,
}

#[derive(Debug, Default)]
struct Reminder {
    /// Already given this run.
    given: bool,
    /// Waiting to be added to the next model request.
    pending: Option<String>,
}

impl TodoReminder {
    /// A reminder not yet given.
    pub fn new() -> Self {
        Self::default()
    }
}

fn reminder_text(state: &ThreadState) -> Option<String> {
    let open: Vec<&str> = state.open_todos().map(|t| t.content.as_str()).collect();
    if open.is_empty() {
        return None;
    }
    let mut s = format!(
        "{REMINDER_PREFIX} Your plan still has {} open item{}:\n",
        open.len(),
        if open.len() == 1 { "" } else { "s" }
    );
    for item in open.iter().take(REMINDER_MAX_ITEMS) {
        s.push_str(&format!("- {item}\n"));
    }
    if open.len() > REMINDER_MAX_ITEMS {
        s.push_str(&format!(
            "- ... and {} more\n",
            open.len() - REMINDER_MAX_ITEMS
        ));
    }
    s.push_str(
        "Carry on with them, or call write_todos to mark finished items done (or drop the ones \
         no longer needed), then give your final answer.",
    );
    Some(s)
}

#[async_trait::async_trait]
impl Middleware for TodoReminder {
    fn name(&self) -> &'static str {
        "todo_reminder"
    }

    async fn before_model(&self, request: &mut ModelRequest, run: &RunInfo) {
        let pending = match self.state.lock() {
            Ok(mut s) => s.pending.take(),
            Err(_) => None,
        };
        if let Some(text) = pending {
            let mut note = Message::user(&run.thread_id, text);
            note.run_id = Some(run.run_id.clone());
            request.messages.push(note);
        }
    }

    fn before_finish(&self, _reply: &Message, state: &ThreadState, _run: &RunInfo) -> Finish {
        let Ok(mut s) = self.state.lock() else {
            return Finish::End;
        };
        if s.given {
            return Finish::End;
        }
        match reminder_text(state) {
            Some(text) => {
                s.given = true;
                s.pending = Some(text);
                Finish::AnotherTurn
            }
            None => Finish::End,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{assistant, request, run, user};
    use super::*;
    use crate::thread::{TodoItem, TodoStatus};

    fn plan(items: &[(&str, TodoStatus)]) -> ThreadState {
        ThreadState {
            todos: items
                .iter()
                .map(|(c, s)| TodoItem {
                    content: c.to_string(),
                    status: *s,
                })
                .collect(),
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn open_items_get_one_hidden_reminder_then_the_run_may_end() {
        let m = TodoReminder::new();
        let state = plan(&[
            ("Read the code", TodoStatus::Done),
            ("Fix the bug", TodoStatus::InProgress),
            ("Run the tests", TodoStatus::Pending),
        ]);
        let reply = assistant("All done!", vec![]);
        assert_eq!(m.before_finish(&reply, &state, &run()), Finish::AnotherTurn);

        let mut req = request(vec![user("fix it"), reply.clone()]);
        m.before_model(&mut req, &run()).await;
        let note = &req.messages.last().unwrap().content;
        assert!(note.starts_with(REMINDER_PREFIX), "{note}");
        assert!(note.contains("2 open items"), "{note}");
        assert!(note.contains("- Fix the bug\n- Run the tests"), "{note}");
        assert!(!note.contains("Read the code"), "done items are not listed");

        // Only once: the next request has no reminder and the next finish ends the run.
        let mut again = request(vec![user("fix it")]);
        m.before_model(&mut again, &run()).await;
        assert_eq!(again.messages.len(), 1);
        assert_eq!(m.before_finish(&reply, &state, &run()), Finish::End);
    }

    #[test]
    fn a_finished_or_missing_plan_lets_the_run_end() {
        let m = TodoReminder::new();
        let reply = assistant("Done", vec![]);
        assert_eq!(
            m.before_finish(&reply, &ThreadState::default(), &run()),
            Finish::End
        );
        let done = plan(&[("a", TodoStatus::Done)]);
        assert_eq!(m.before_finish(&reply, &done, &run()), Finish::End);
    }

    #[test]
    fn a_long_plan_is_named_in_part_and_counted() {
        let items: Vec<(String, TodoStatus)> = (1..=8)
            .map(|i| (format!("step {i}"), TodoStatus::Pending))
            .collect();
        let refs: Vec<(&str, TodoStatus)> = items.iter().map(|(c, s)| (c.as_str(), *s)).collect();
        let text = reminder_text(&plan(&refs)).unwrap();
        assert!(text.contains("- step 5\n- ... and 3 more"), "{text}");
        assert!(!text.contains("step 6"));
    }
}
