//! A ceiling on model turns per run, so an agent that never answers in text cannot run (and
//! spend) forever.
//!
//! `after_model` reads [`RunInfo::turns`] as the number of model turns completed including
//! the reply being looked at (the loop counts a turn before asking the chain about it). When
//! that reaches the limit and the reply still asks for tools, the run stops with a sentence;
//! a reply that answers in text is always let through, since it ends the run anyway.

use super::{Flow, Middleware, RunInfo};
use crate::thread::Message;

/// Model turns one run may take. Real tasks (read a few files, edit, run tests, fix, present)
/// fit in well under 25 turns; a run that needs more is usually stuck, and the user can send
/// "continue" to grant another 25.
pub const MAX_TURNS_PER_RUN: usize = 25;

/// Stops a run whose model is still calling tools after `limit` turns.
#[derive(Debug, Clone, Copy)]
pub struct MaxTurns {
    limit: usize,
}

impl MaxTurns {
    /// A ceiling of `limit` turns; `0` is taken as `1` (a run always gets one turn).
    pub fn new(limit: usize) -> Self {
        Self {
            limit: limit.max(1),
        }
    }

    pub fn limit(&self) -> usize {
        self.limit
    }
}

impl Default for MaxTurns {
    fn default() -> Self {
        Self::new(MAX_TURNS_PER_RUN)
    }
}

#[async_trait::async_trait]
impl Middleware for MaxTurns {
    fn name(&self) -> &'static str {
        "max_turns"
    }

    fn after_model(&self, reply: &Message, run: &RunInfo) -> Flow {
        if run.turns < self.limit || reply.tool_calls.is_empty() {
            return Flow::Continue;
        }
        Flow::Stop {
            reason: format!(
                "Stopped after {} model turns, the most one run may take, while the agent still \
                 wanted to use tools. Send a message (for example \"continue\") to let it go on.",
                self.limit
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::middleware::testkit::{assistant, call, run};

    fn at(turns: usize) -> RunInfo {
        RunInfo { turns, ..run() }
    }

    #[test]
    fn stops_when_the_limit_is_reached_with_tool_calls_pending() {
        let m = MaxTurns::new(3);
        let calling = assistant("", vec![call("a", "ls", "{}")]);
        assert_eq!(m.after_model(&calling, &at(1)), Flow::Continue);
        assert_eq!(m.after_model(&calling, &at(2)), Flow::Continue);
        let Flow::Stop { reason } = m.after_model(&calling, &at(3)) else {
            panic!("expected a stop at the limit");
        };
        assert!(reason.contains("3 model turns"), "{reason}");
        assert!(matches!(m.after_model(&calling, &at(4)), Flow::Stop { .. }));
    }

    #[test]
    fn a_text_answer_at_the_limit_is_let_through() {
        let m = MaxTurns::new(3);
        assert_eq!(
            m.after_model(&assistant("done", vec![]), &at(3)),
            Flow::Continue
        );
    }

    #[test]
    fn default_is_the_named_limit_and_zero_means_one() {
        assert_eq!(MaxTurns::default().limit(), MAX_TURNS_PER_RUN);
        let calling = assistant("", vec![call("a", "ls", "{}")]);
        assert_eq!(
            MaxTurns::default().after_model(&calling, &at(24)),
            Flow::Continue
        );
        assert!(matches!(
            MaxTurns::default().after_model(&calling, &at(25)),
            Flow::Stop { .. }
        ));
        assert_eq!(MaxTurns::new(0).limit(), 1);
    }
}
