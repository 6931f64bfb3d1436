//! `workbench approve THREAD CALL allow|always|deny`: answers a call a run stopped on.

use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use workbench_app::App;
use workbench_core::agent::RunEvent;
use workbench_core::thread::ApprovalDecision;

use crate::run::{choice, follow, ProviderArgs};
use crate::EXIT_USAGE;

#[derive(Clone, Copy, ValueEnum)]
enum Answer {
    /// Run the call this once.
    Allow,
    /// Run it and stop asking for this tool.
    Always,
    /// Do not run it; the model is told.
    Deny,
}

#[derive(Args)]
pub struct ApproveArgs {
    /// The thread that waits.
    thread: String,
    /// The id of the waiting call (printed by `workbench run`).
    call: String,
    /// The answer.
    answer: Answer,
    #[command(flatten)]
    provider: ProviderArgs,
    /// Print one JSON event per line instead of the reply text.
    #[arg(long)]
    json: bool,
}

pub async fn approve(app: Arc<App>, args: ApproveArgs) -> ExitCode {
    let choice = match choice(&args.provider) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("workbench: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let decision = match args.answer {
        Answer::Allow => ApprovalDecision::AllowOnce,
        Answer::Always => ApprovalDecision::AllowAlways,
        Answer::Deny => ApprovalDecision::Deny,
    };
    let json = args.json;
    let sink = Arc::new(move |event: RunEvent| crate::run::print_event(&event, json));
    match app
        .answer_approval(&args.thread, &args.call, decision, choice.clone(), sink)
        .await
    {
        Ok(Some(handle)) => follow(&app, handle, &args.thread, &choice, json).await,
        Ok(None) => {
            eprintln!("workbench: recorded; other calls in this thread still wait for an answer");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("workbench: {e}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// `workbench answer THREAD TEXT`: answers the agent's open question in a thread.
#[derive(Args)]
pub struct AnswerArgs {
    /// The thread whose agent asked.
    thread: String,
    /// The answer, in your words (or one of the offered options).
    text: String,
    #[command(flatten)]
    provider: ProviderArgs,
    /// Print one JSON event per line instead of the reply text.
    #[arg(long)]
    json: bool,
}

pub async fn answer(app: Arc<App>, args: AnswerArgs) -> ExitCode {
    let choice = match choice(&args.provider) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("workbench: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let open = app.get_thread(&args.thread).map(|v| {
        v.thread
            .state
            .pending
            .into_iter()
            .find(|p| p.question.is_some() && p.answer.is_none())
    });
    let call = match open {
        Ok(Some(p)) => p.call.id,
        Ok(None) => {
            eprintln!("workbench: no question waits for an answer in this thread");
            return ExitCode::from(EXIT_USAGE);
        }
        Err(e) => {
            eprintln!("workbench: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let json = args.json;
    let sink = Arc::new(move |event: RunEvent| crate::run::print_event(&event, json));
    match app
        .answer_clarification(&args.thread, &call, &args.text, choice.clone(), sink)
        .await
    {
        Ok(Some(handle)) => follow(&app, handle, &args.thread, &choice, json).await,
        Ok(None) => {
            eprintln!("workbench: recorded; other calls in this thread still wait for an answer");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("workbench: {e}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}
