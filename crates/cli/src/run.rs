use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use workbench_app::{App, ModelChoice, RunHandle, RunOptions};
use workbench_core::agent::{RunEvent, RunOutcome};
use workbench_core::config::{ProviderKind, ProviderSettings};

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
    follow(&app, handle, &thread_id).await
}

/// Waits for a run (Ctrl-C cancels it) and turns its end into the exit status; a run waiting
/// for approval prints what it waits for and how to answer.
pub async fn follow(app: &Arc<App>, handle: RunHandle, thread_id: &str) -> ExitCode {
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
        RunOutcome::Completed => ExitCode::SUCCESS,
        RunOutcome::Cancelled => ExitCode::from(EXIT_CANCELLED),
        RunOutcome::Failed => ExitCode::from(EXIT_RUN_FAILED),
        RunOutcome::WaitingForUser => {
            print_waiting(app, thread_id);
            ExitCode::from(EXIT_WAITING)
        }
    }
}

fn print_waiting(app: &App, thread_id: &str) {
    let pending = match app.get_thread(thread_id) {
        Ok(view) => view.thread.state.pending,
        Err(e) => {
            eprintln!("workbench: {e}");
            return;
        }
    };
    for p in pending.iter().filter(|p| p.decision.is_none()) {
        eprintln!(
            "workbench: waiting for approval: {} {} ({})\n  answer: workbench approve {thread_id} {} allow|always|deny",
            p.call.name, p.call.arguments, p.reason, p.call.id
        );
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
