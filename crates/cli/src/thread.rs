//! `workbench thread ...`: looks at one thread's setup. `thread path ID` prints where the
//! thread's folders are on the host (its own and the folders mounted into it), with the
//! virtual path the agent sees for each and whether the agent may write it.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use workbench_app::App;

use crate::EXIT_USAGE;

/// The part every virtual path shares, left out of the table (`workspace`, `mounts/docs`).
const VIRTUAL_PREFIX: &str = "/mnt/user-data/";

/// `workbench thread ...`
#[derive(Args)]
pub struct ThreadArgs {
    #[command(subcommand)]
    command: ThreadCommand,
}

#[derive(Subcommand)]
enum ThreadCommand {
    /// Prints the thread's host folders: workspace, uploads, outputs and each mount.
    Path {
        /// The thread's id (see `workbench threads`).
        thread: String,
        /// One JSON object per folder and line.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a `thread` subcommand.
pub fn run(app: &App, args: ThreadArgs) -> ExitCode {
    match args.command {
        ThreadCommand::Path { thread, json } => print_paths(app, &thread, json),
    }
}

fn print_paths(app: &App, thread: &str, json: bool) -> ExitCode {
    let folders = match app.thread_folders(thread) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("workbench: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    for f in folders {
        if json {
            println!("{}", serde_json::to_string(&f).unwrap_or_default());
            continue;
        }
        let name = f
            .virtual_path
            .strip_prefix(VIRTUAL_PREFIX)
            .unwrap_or(&f.virtual_path);
        let mode = if f.writable { "rw" } else { "ro" };
        let origin = if f.mounted { "  (mounted)" } else { "" };
        println!("{name:<16} {mode}  {}{origin}", f.host.display());
    }
    ExitCode::SUCCESS
}
