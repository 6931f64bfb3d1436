//! `workbench tool call [--thread ID] [--approve] NAME ARGS_JSON`: runs one tool exactly as the
//! model would (same resolution, confinement and middlewares) and prints its result.

use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, Subcommand};
use workbench_app::{App, RunOptions};

use crate::{EXIT_RUN_FAILED, EXIT_USAGE};

/// `workbench tool <command>`.
#[derive(Args)]
pub struct ToolArgs {
    #[command(subcommand)]
    command: ToolCommand,
}

#[derive(Subcommand)]
enum ToolCommand {
    /// Calls tool NAME with ARGS_JSON in a thread's sandbox and prints what the model would read.
    Call(CallArgs),
}

#[derive(Args)]
struct CallArgs {
    /// The thread whose folders and state to use; a new thread is created without it.
    #[arg(long)]
    thread: Option<String>,
    /// Run it even when the approval policy would ask the user.
    #[arg(long)]
    approve: bool,
    /// A custom agent whose tool set to use.
    #[arg(long)]
    agent: Option<String>,
    /// Print `{"content", "is_error"}` as JSON.
    #[arg(long)]
    json: bool,
    /// The tool's name as the model sees it (`read_file`, `github__create_issue`).
    name: String,
    /// The arguments, one JSON object.
    #[arg(default_value = "{}")]
    args_json: String,
}

/// Runs a `workbench tool` command.
pub async fn run(app: Arc<App>, args: ToolArgs) -> ExitCode {
    let ToolCommand::Call(args) = args.command;
    let thread_id = match &args.thread {
        Some(id) => id.clone(),
        None => match app.create_thread(Some("tool call")) {
            Ok(t) => {
                eprintln!("workbench: new thread {}", t.id);
                t.id
            }
            Err(e) => {
                eprintln!("workbench: {e}");
                return ExitCode::from(EXIT_USAGE);
            }
        },
    };
    let options = RunOptions {
        agent: args.agent.clone(),
        skills: Vec::new(),
    };
    let output = match app
        .call_tool(
            &thread_id,
            &args.name,
            &args.args_json,
            options,
            args.approve,
        )
        .await
    {
        Ok(o) => o,
        Err(e) => {
            eprintln!("workbench: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    if args.json {
        let line = serde_json::json!({"content": output.content, "is_error": output.is_error});
        println!("{line}");
    } else {
        println!("{}", output.content);
    }
    if output.is_error {
        ExitCode::from(EXIT_RUN_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}
