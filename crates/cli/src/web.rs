//! `workbench web ...`: the web search keys. Keys go to the OS keychain only; they are read
//! from standard input (never from an argument, which would land in the shell history).

use std::io::{IsTerminal, Read};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use workbench_app::App;

use crate::EXIT_USAGE;

/// `workbench web <command>`.
#[derive(Args)]
pub struct WebArgs {
    #[command(subcommand)]
    pub command: WebCommand,
}

/// What `workbench web` can do.
#[derive(Subcommand)]
pub enum WebCommand {
    /// Stores the API key of `brave` or `tavily` (read from standard input) in the OS keychain;
    /// web_search and image_search use it from the next call. Brave wins when both are set.
    Key {
        /// `brave` or `tavily`.
        service: String,
        /// Remove the stored key instead.
        #[arg(long)]
        remove: bool,
    },
    /// Shows which search keys are stored (never the keys) and the service searches will use.
    Keys,
}

/// Runs a `workbench web` command.
pub async fn run(app: &App, args: WebArgs) -> ExitCode {
    match args.command {
        WebCommand::Key { service, remove } => {
            let key = if remove {
                String::new()
            } else {
                match read_key(&service) {
                    Ok(k) if !k.is_empty() => k,
                    Ok(_) => {
                        eprintln!("workbench: no key given on standard input (use --remove to remove one)");
                        return ExitCode::from(EXIT_USAGE);
                    }
                    Err(e) => {
                        eprintln!("workbench: could not read the key: {e}");
                        return ExitCode::from(EXIT_USAGE);
                    }
                }
            };
            match app.set_search_key(&service, &key).await {
                Ok(()) if remove => {
                    println!("Removed the {service} key from the keychain.");
                    ExitCode::SUCCESS
                }
                Ok(()) => {
                    println!("Stored the {service} key in the keychain.");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("workbench: {e}");
                    ExitCode::from(EXIT_USAGE)
                }
            }
        }
        WebCommand::Keys => match app.search_key_status().await {
            Ok(keys) => {
                for k in &keys {
                    let state = if k.stored { "stored" } else { "not set" };
                    println!("{:<8} {state}", k.service);
                }
                let using = keys
                    .iter()
                    .find(|k| k.stored)
                    .map(|k| k.service.as_str())
                    .unwrap_or("duckduckgo (no key)");
                println!("searches use: {using}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("workbench: {e}");
                ExitCode::from(EXIT_USAGE)
            }
        },
    }
}

/// The key from standard input, trimmed; prompts when it is a terminal.
fn read_key(service: &str) -> std::io::Result<String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprint!("Paste the {service} API key and press Enter: ");
        let mut line = String::new();
        stdin.read_line(&mut line)?;
        return Ok(line.trim().to_string());
    }
    let mut all = String::new();
    stdin.lock().read_to_string(&mut all)?;
    Ok(all.trim().to_string())
}
