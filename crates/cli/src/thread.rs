//! `workbench thread ...`: looks at one thread's setup. `thread path ID` prints where the
//! thread's folders are on the host (its own and the folders mounted into it), with the
//! virtual path the agent sees for each and whether the agent may write it. `thread export ID`
//! writes the thread as Markdown or JSON.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use std::io::Write;

use workbench_app::export::ExportFormat;
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
    /// Writes the thread as Markdown or JSON (hidden messages left out), to stdout or a file.
    Export {
        /// The thread's id (see `workbench threads`).
        thread: String,
        /// `md` (readable) or `json` (every shown message as stored).
        #[arg(long, default_value = "md")]
        format: String,
        /// Write to this file instead of stdout.
        #[arg(long, short)]
        output: Option<std::path::PathBuf>,
    },
}

/// Runs a `thread` subcommand.
pub async fn run(app: &App, args: ThreadArgs) -> ExitCode {
    match args.command {
        ThreadCommand::Path { thread, json } => print_paths(app, &thread, json),
        ThreadCommand::Export {
            thread,
            format,
            output,
        } => export(app, &thread, &format, output.as_deref()).await,
    }
}

async fn export(
    app: &App,
    thread: &str,
    format: &str,
    output: Option<&std::path::Path>,
) -> ExitCode {
    let Some(format) = ExportFormat::parse(format) else {
        eprintln!("workbench: unknown export format `{format}`; use md or json");
        return ExitCode::from(EXIT_USAGE);
    };
    let result = match output {
        Some(path) => app.export_thread_to(thread, format, path).await,
        None => app.export_thread(thread, format).map(|text| {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(text.as_bytes());
            if !text.ends_with('\n') {
                let _ = writeln!(out);
            }
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("workbench: {e}");
            ExitCode::from(EXIT_USAGE)
        }
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
