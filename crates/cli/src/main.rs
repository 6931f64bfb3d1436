//! `workbench`: runs prompts in threads headlessly, with the same core and store as the app.

mod approve;
mod mcp;
mod run;
mod thread;
mod tool_call;
mod tools;
mod web;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use workbench_app::{default_data_dir, App, DataDir};

#[derive(Parser)]
#[command(name = "workbench", version, about = "Workbench, headless")]
struct Cli {
    /// Data folder (database, logs). Defaults to the app's own.
    #[arg(long, global = true, env = "WORKBENCH_DATA_DIR")]
    data_dir: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Sends PROMPT to a thread and prints the streamed reply.
    Run(run::RunArgs),
    /// Lists threads, most recent first.
    Threads {
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
    },
    /// Prints a thread's messages.
    Show {
        thread: String,
        /// The thread as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Answers a tool call waiting for approval; the thread resumes when nothing else waits.
    Approve(approve::ApproveArgs),
    /// Answers the agent's open question in a thread; the thread resumes.
    Answer(approve::AnswerArgs),
    /// Calls one tool by hand, as the model would: `tool call [--thread ID] NAME ARGS_JSON`.
    Tool(tool_call::ToolArgs),
    /// Looks at tools: `tools search` ranks MCP catalog tools for a query.
    Tools(tools::ToolsArgs),
    /// A thread: `thread path ID` prints its host folders, `thread export ID` writes it out.
    Thread(thread::ThreadArgs),
    /// Manages MCP servers: list, add, import, remove, enable, disable, validate, tools.
    Mcp(mcp::McpArgs),
    /// Web search keys: `web key brave|tavily` (key on stdin, stored in the keychain), `web keys`.
    Web(web::WebArgs),
}

/// Exit status when the model or the network failed.
const EXIT_RUN_FAILED: u8 = 1;
/// Exit status for bad input or setup problems.
const EXIT_USAGE: u8 = 2;
/// Exit status when the run stopped to wait for the user (an approval or a question).
const EXIT_WAITING: u8 = 3;
/// Exit status when the user interrupted the run (as shells report SIGINT).
const EXIT_CANCELLED: u8 = 130;

/// How long a headless command waits for the MCP servers before it goes on without the slow ones.
const MCP_STARTUP_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

/// Runs a command that may run tools: the MCP servers' tools are there once they connected,
/// and the servers are stopped afterwards.
async fn with_mcp(
    app: &std::sync::Arc<App>,
    command: impl std::future::Future<Output = ExitCode>,
) -> ExitCode {
    app.start_mcp_and_wait(MCP_STARTUP_WAIT).await;
    let code = command.await;
    app.mcp().shutdown();
    code
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let data = cli
        .data_dir
        .map(DataDir::new)
        .unwrap_or_else(default_data_dir);
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("WORKBENCH_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("workbench: could not start: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    runtime.block_on(async move {
        let app = match App::open(data.clone()) {
            Ok(app) => app,
            Err(e) => {
                eprintln!("workbench: {e} (data folder {})", data.path().display());
                return ExitCode::from(EXIT_USAGE);
            }
        };
        match cli.command {
            Command::Run(args) => with_mcp(&app, run::run(app.clone(), args)).await,
            Command::Threads { json } => list_threads(&app, json),
            Command::Show { thread, json } => show_thread(&app, &thread, json),
            Command::Tools(args) => tools::run(&app, args),
            Command::Mcp(args) => mcp::run(&app, args).await,
            Command::Approve(args) => with_mcp(&app, approve::approve(app.clone(), args)).await,
            Command::Answer(args) => with_mcp(&app, approve::answer(app.clone(), args)).await,
            Command::Tool(args) => with_mcp(&app, tool_call::run(app.clone(), args)).await,
            Command::Thread(args) => thread::run(&app, args).await,
            Command::Web(args) => web::run(&app, args).await,
        }
    })
}

fn list_threads(app: &App, json: bool) -> ExitCode {
    match app.list_threads() {
        Ok(threads) => {
            for t in threads {
                if json {
                    println!("{}", serde_json::to_string(&t).unwrap_or_default());
                } else {
                    println!("{}  {}", t.id, t.title);
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("workbench: {e}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn show_thread(app: &App, thread: &str, json: bool) -> ExitCode {
    match app.get_thread(thread) {
        Ok(view) if json => {
            println!("{}", serde_json::to_string(&view).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Ok(view) => {
            println!("# {}", view.thread.title);
            for m in view.messages {
                let note = match m.status {
                    workbench_core::thread::MessageStatus::Complete => String::new(),
                    s => format!(" [{}]", s.as_str()),
                };
                println!("\n{:?}{note}:\n{}", m.role, m.content);
                if let Some(e) = m.error {
                    println!("(error: {e})");
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("workbench: {e}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}
