use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use workbench_app::{App, ModelChoice, RunHandle, RunOptions};
use workbench_core::agent::{RunEvent, RunOutcome};
use workbench_core::config::{ProviderKind, ProviderSettings};
use workbench_core::thread::PendingCall;

use crate::{EXIT_CANCELLED, EXIT_RUN_FAILED, EXIT_USAGE, EXIT_WAITING};

/// Environment variable with the API key for a provider given by flags.
const API_KEY_ENV: &str = "WORKBENCH_API_KEY";

/// The provider flags shared by every command that starts a run.
#[derive(Args)]
pub struct ProviderArgs {
    /// Provider for this run only: openai (any OpenAI-compatible server) or anthropic.
    #[arg(long, requires_all = ["base_url", "model"])]
    provider: Option<String>,
    /// Base URL of that provider, e.g. http://localhost:11434/v1. Its key, if any, is read
    /// from WORKBENCH_API_KEY.
    #[arg(long)]
    base_url: Option<String>,
    /// Model name at that provider.
    #[arg(long)]
    model: Option<String>,
}

#[derive(Args)]
pub struct RunArgs {
    /// Thread to continue; a new thread is created without it.
    #[arg(long)]
    thread: Option<String>,
    #[command(flatten)]
    provider: ProviderArgs,
    /// A custom agent (a folder under the data folder's agents/).
    #[arg(long)]
    agent: Option<String>,
    /// A skill to activate for this run (repeatable).
    #[arg(long = "skill")]
    skills: Vec<String>,
    /// Print one JSON event per line instead of the reply text.
    #[arg(long)]
    json: bool,
    /// The message to send.
    prompt: String,
}

pub async fn run(app: Arc<App>, args: RunArgs) -> ExitCode {
    let choice = match choice(&args.provider) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("workbench: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let thread_id = match &args.thread {
        Some(id) => id.clone(),
        None => match app.create_thread(None) {
            Ok(t) => t.id,
            Err(e) => {
                eprintln!("workbench: {e}");
                return ExitCode::from(EXIT_USAGE);
            }
        },
    };
    let json = args.json;
    let sink = Arc::new(move |event: RunEvent| print_event(&event, json));
    let options = RunOptions {
        agent: args.agent.clone(),
        skills: args.skills.clone(),
    };
    let choice_for_follow = choice.clone();
    let handle = match app
        .start_run_with(&thread_id, &args.prompt, choice, options, sink)
        .await
    {
        Ok(h) => h,
        Err(e) => {
            eprintln!("workbench: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    follow(&app, handle, &thread_id, &choice_for_follow, json).await
}

/// Waits for a run (Ctrl-C cancels it) and turns its end into the exit status. A run waiting
/// for the user prints what it waits for; on a terminal a question is asked right here and the
/// thread resumes with the answer.
pub async fn follow(
    app: &Arc<App>,
    mut handle: RunHandle,
    thread_id: &str,
    choice: &ModelChoice,
    json: bool,
) -> ExitCode {
    loop {
        let cancel_app = app.clone();
        let cancel_thread = thread_id.to_string();
        let ctrl_c = tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                cancel_app.cancel_run(&cancel_thread);
            }
        });
        let outcome = handle.finished().await;
        ctrl_c.abort();
        match outcome {
            RunOutcome::Completed => return ExitCode::SUCCESS,
            RunOutcome::Cancelled => return ExitCode::from(EXIT_CANCELLED),
            RunOutcome::Failed => return ExitCode::from(EXIT_RUN_FAILED),
            RunOutcome::WaitingForUser => {}
        }
        let pending = match app.get_thread(thread_id) {
            Ok(view) => view.thread.state.pending,
            Err(e) => {
                eprintln!("workbench: {e}");
                return ExitCode::from(EXIT_RUN_FAILED);
            }
        };
        print_waiting(&pending, thread_id);
        let asked = pending
            .iter()
            .find(|p| p.question.is_some() && p.answer.is_none());
        let only_question = pending.iter().filter(|p| !p.is_answered()).count() == 1;
        let (Some(asked), true, true) = (asked, only_question, std::io::stdin().is_terminal())
        else {
            return ExitCode::from(EXIT_WAITING);
        };
        eprint!("your answer> ");
        let mut answer = String::new();
        if std::io::stdin().read_line(&mut answer).is_err() || answer.trim().is_empty() {
            return ExitCode::from(EXIT_WAITING);
        }
        let sink = Arc::new(move |event: RunEvent| print_event(&event, json));
        handle = match app
            .answer_clarification(thread_id, &asked.call.id, &answer, choice.clone(), sink)
            .await
        {
            Ok(Some(h)) => h,
            Ok(None) => return ExitCode::from(EXIT_WAITING),
            Err(e) => {
                eprintln!("workbench: {e}");
                return ExitCode::from(EXIT_USAGE);
            }
        };
    }
}

fn print_waiting(pending: &[PendingCall], thread_id: &str) {
    for p in pending.iter().filter(|p| !p.is_answered()) {
        match &p.question {
            Some(q) => {
                eprintln!("workbench: the agent asks: {}", q.question);
                if let Some(context) = &q.context {
                    eprintln!("  ({context})");
                }
                for (i, o) in q.options.iter().enumerate() {
                    eprintln!("  {}. {o}", i + 1);
                }
                eprintln!("  answer: workbench answer {thread_id} \"TEXT\"");
            }
            None => eprintln!(
                "workbench: waiting for approval: {} {} ({})\n  answer: workbench approve {thread_id} {} allow|always|deny",
                p.call.name, p.call.arguments, p.reason, p.call.id
            ),
        }
    }
}

/// The model for a run: the configured provider, or the one given by flags.
pub fn choice(args: &ProviderArgs) -> Result<ModelChoice, String> {
    let Some(provider) = &args.provider else {
        if args.base_url.is_some() || args.model.is_some() {
            return Err("--base-url and --model need --provider openai|anthropic".into());
        }
        return Ok(ModelChoice::Configured);
    };
    let kind = ProviderKind::parse(provider)
        .ok_or_else(|| format!("unknown provider `{provider}`; use openai or anthropic"))?;
    let settings = ProviderSettings {
        kind,
        base_url: args.base_url.clone().unwrap_or_default(),
        model: args.model.clone().unwrap_or_default(),
        context_window: None,
    };
    settings.validate()?;
    let api_key = std::env::var(API_KEY_ENV).ok().filter(|k| !k.is_empty());
    Ok(ModelChoice::Explicit { settings, api_key })
}

pub fn print_event(event: &RunEvent, json: bool) {
    let mut out = std::io::stdout().lock();
    if json {
        if let Ok(line) = serde_json::to_string(event) {
            let _ = writeln!(out, "{line}");
        }
    } else {
        match event {
            RunEvent::Delta {
                text,
                reasoning: false,
                ..
            } => {
                let _ = write!(out, "{text}");
            }
            RunEvent::RunFinished { outcome, error, .. } => {
                let _ = writeln!(out);
                match (outcome, error) {
                    (_, Some(e)) => eprintln!("workbench: {e}"),
                    (RunOutcome::Cancelled, None) => eprintln!("workbench: stopped"),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    let _ = out.flush();
}
