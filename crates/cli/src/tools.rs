//! `workbench tools ...`: look at tools from outside a run. `tools search` runs tool_search's
//! ranking over stored MCP catalogs, so any labelled query set can be scored from a script.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use workbench_core::tools::catalog::read_catalog_dir;
use workbench_core::tools::search::DEFAULT_LIMIT;
use workbench_core::tools::DeferredCatalog;

use workbench_app::App;

use crate::EXIT_USAGE;

mod explain;

/// `workbench tools --explain ...` or `workbench tools <command>`.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ToolsArgs {
    /// List every candidate tool of the next run: visible, deferred or hidden, and why.
    #[arg(long)]
    pub explain: bool,
    /// The thread whose next run to explain (its promoted tools count).
    #[arg(long, requires = "explain")]
    pub thread: Option<String>,
    /// A custom agent by name.
    #[arg(long, requires = "explain")]
    pub agent: Option<String>,
    /// A skill to activate (repeatable).
    #[arg(long = "skill", requires = "explain")]
    pub skills: Vec<String>,
    /// Also show the tools of these MCP catalog files, as MCP servers would offer them
    /// (a preview: such tools are never callable).
    #[arg(long, value_name = "DIR", requires = "explain")]
    pub catalogs: Option<PathBuf>,
    /// One JSON object (the report) instead of a table.
    #[arg(long, requires = "explain")]
    pub json: bool,
    #[command(subcommand)]
    pub command: Option<ToolsCommand>,
}

/// What `workbench tools` can do.
#[derive(Subcommand)]
pub enum ToolsCommand {
    /// Ranks the tools of MCP catalog files for QUERY, as tool_search would.
    Search(SearchArgs),
}

/// `workbench tools search`.
#[derive(Args)]
pub struct SearchArgs {
    /// Folder of catalog files (`{"server", "package", "tools": [...]}`); every `*.json` but
    /// `queries*.json` is read.
    #[arg(long, value_name = "DIR")]
    pub catalogs: PathBuf,
    /// How many tools to print.
    #[arg(long, default_value_t = DEFAULT_LIMIT)]
    pub limit: usize,
    /// Print a JSON array of `{"name": "server/tool", "score": ...}`.
    #[arg(long)]
    pub json: bool,
    /// `select:a,b`, `+word rest`, or free text.
    pub query: String,
}

/// Runs a `workbench tools` command.
pub fn run(app: &App, args: ToolsArgs) -> ExitCode {
    match args.command {
        Some(ToolsCommand::Search(search_args)) => search(search_args),
        None if args.explain => explain::run(app, args),
        None => {
            eprintln!("workbench: say `tools --explain` or `tools search QUERY`");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn search(args: SearchArgs) -> ExitCode {
    let catalog = match load(&args.catalogs) {
        Ok(catalog) => catalog,
        Err(message) => {
            eprintln!("workbench: {message}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let hits = catalog.search(&args.query, args.limit);
    let named: Vec<(String, f64)> = hits
        .into_iter()
        .filter_map(|h| Some((catalog.get(&h.name)?.qualified_name(), h.score)))
        .collect();
    if args.json {
        let rows: Vec<serde_json::Value> = named
            .iter()
            .map(|(name, score)| serde_json::json!({"name": name, "score": round(*score)}))
            .collect();
        println!("{}", serde_json::Value::Array(rows));
    } else {
        for (name, _) in &named {
            println!("{name}");
        }
    }
    ExitCode::SUCCESS
}

/// Reads every catalog in `dir`; files that do not parse are skipped with a warning, and a
/// folder with no usable catalog is an error.
fn load(dir: &std::path::Path) -> Result<DeferredCatalog, String> {
    if !dir.is_dir() {
        return Err(format!("--catalogs {}: no such folder", dir.display()));
    }
    let found = read_catalog_dir(dir).map_err(|e| e.to_string())?;
    for skipped in &found.skipped {
        eprintln!("workbench: warning: skipped {skipped}");
    }
    if found.files.is_empty() {
        return Err(format!(
            "--catalogs {}: no catalog files (*.json with a server and its tools) in this folder",
            dir.display()
        ));
    }
    // Two files for the same server would expose the same names; the first file (by name)
    // wins, as in assembly's dedupe, and the user is told.
    let mut seen = HashSet::new();
    let mut entries = Vec::new();
    for (path, file) in found.files {
        for entry in file.into_entries() {
            if seen.insert(entry.name.clone()) {
                entries.push(entry);
            } else {
                eprintln!(
                    "workbench: warning: {}: skipped {}, already loaded from an earlier file",
                    path.display(),
                    entry.qualified_name()
                );
            }
        }
    }
    DeferredCatalog::new(entries).map_err(|e| e.to_string())
}

/// Scores to 4 decimals: enough to compare, short to read.
fn round(score: f64) -> f64 {
    (score * 10_000.0).round() / 10_000.0
}
