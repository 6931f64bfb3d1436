//! `workbench mcp ...`: the user's MCP servers from the terminal, the same operations as the
//! MCP manager page (list, add, import, remove, enable, disable, validate, tools).

use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};
use workbench_app::App;
use workbench_mcp::file::ConfigFile;
use workbench_mcp::view::{
    ServerInput, ServerStatus, ServerView, TransportInput, ValidationReport, ValueInput,
};

use crate::{EXIT_RUN_FAILED, EXIT_USAGE};

/// Longest wait for servers to connect before printing their state (each server is bounded
/// by its own startup timeout too).
const CONNECT_WAIT: Duration = Duration::from_secs(60);

/// `workbench mcp <command>`.
#[derive(Args)]
pub struct McpArgs {
    #[command(subcommand)]
    pub command: McpCommand,
}

/// What `workbench mcp` can do.
#[derive(Subcommand)]
pub enum McpCommand {
    /// Lists the servers; connects them first to show their status and tool counts.
    List {
        /// Only read mcp.json; do not start anything.
        #[arg(long)]
        offline: bool,
        /// One JSON object (the overview).
        #[arg(long)]
        json: bool,
    },
    /// Adds (or with --replace, edits) a server. Values of env vars and headers whose names
    /// look secret (Authorization, *KEY*, *TOKEN*, *SECRET*, *PASS*) go to the OS keychain.
    Add(Box<AddArgs>),
    /// Imports servers from mcpServers JSON (a file or - for stdin) or from Claude Desktop.
    Import {
        /// A JSON file (`{"mcpServers": ...}`, a map of servers, or one entry with --name).
        #[arg(long, value_name = "FILE", conflicts_with = "claude")]
        json: Option<String>,
        /// Claude Desktop's config (~/.config/Claude/claude_desktop_config.json).
        #[arg(long)]
        claude: bool,
        /// The name of a single pasted entry.
        #[arg(long)]
        name: Option<String>,
        /// Replace servers of the same name.
        #[arg(long)]
        overwrite: bool,
    },
    /// Removes a server and its keychain entries.
    Remove { name: String },
    /// Switches a server (or with --tool, one of its tools) on.
    Enable {
        name: String,
        /// A tool of the server, by its own name.
        #[arg(long)]
        tool: Option<String>,
    },
    /// Switches a server (or with --tool, one of its tools) off.
    Disable {
        name: String,
        /// A tool of the server, by its own name.
        #[arg(long)]
        tool: Option<String>,
    },
    /// Connects to a configured server and lists its tools, without touching the running ones.
    Validate {
        name: String,
        /// One JSON object (the report).
        #[arg(long)]
        json: bool,
    },
    /// Connects the servers and lists their tools (all servers, or one).
    Tools {
        name: Option<String>,
        /// One JSON object per server.
        #[arg(long)]
        json: bool,
    },
}

/// `workbench mcp add`.
#[derive(Args)]
pub struct AddArgs {
    /// The server's name (prefixes its tools: `<name>__<tool>`).
    pub name: String,
    /// stdio: the program to start (looked up on the login shell's PATH).
    #[arg(long, conflicts_with = "url", required_unless_present = "url")]
    pub command: Option<String>,
    /// streamable HTTP: the endpoint.
    #[arg(long)]
    pub url: Option<String>,
    /// stdio: an environment variable NAME=VALUE (repeatable).
    #[arg(long = "env", value_name = "NAME=VALUE")]
    pub env: Vec<String>,
    /// stdio: an environment variable stored in the OS keychain (repeatable).
    #[arg(long = "secret-env", value_name = "NAME=VALUE")]
    pub secret_env: Vec<String>,
    /// HTTP: a header NAME=VALUE (repeatable).
    #[arg(long = "header", value_name = "NAME=VALUE")]
    pub header: Vec<String>,
    /// HTTP: a header stored in the OS keychain (repeatable).
    #[arg(long = "secret-header", value_name = "NAME=VALUE")]
    pub secret_header: Vec<String>,
    /// Keep these values plain even though their names look secret (repeatable).
    #[arg(long = "plain", value_name = "NAME")]
    pub plain: Vec<String>,
    /// Seconds to start and list tools (default 30).
    #[arg(long)]
    pub startup_timeout: Option<u64>,
    /// Seconds per tool call (default 60).
    #[arg(long)]
    pub call_timeout: Option<u64>,
    /// Add it switched off.
    #[arg(long)]
    pub disabled: bool,
    /// Replace a server of the same name.
    #[arg(long)]
    pub replace: bool,
    /// stdio: the program's arguments, after `--`.
    #[arg(last = true)]
    pub args: Vec<String>,
}

/// Runs one `workbench mcp` command.
pub async fn run(app: &App, args: McpArgs) -> ExitCode {
    match args.command {
        McpCommand::List {
            offline: true,
            json,
        } => list_offline(app, json),
        McpCommand::List {
            offline: false,
            json,
        } => {
            app.start_mcp_and_wait(CONNECT_WAIT).await;
            let overview = app.mcp().overview();
            if json {
                println!("{}", serde_json::to_string(&overview).unwrap_or_default());
            } else {
                println!("# {}", overview.config_path);
                if let Some(e) = &overview.config_error {
                    println!("! {e}");
                }
                if overview.servers.is_empty() {
                    println!("(no MCP servers; add one with `workbench mcp add`)");
                }
                for s in &overview.servers {
                    println!("{}", server_line(s));
                }
            }
            finish(app, ExitCode::SUCCESS)
        }
        McpCommand::Add(a) => match input_from(*a) {
            Ok((input, replace)) => report(app.mcp().save_server(input, replace).await, "saved"),
            Err(e) => fail(e),
        },
        McpCommand::Import {
            json,
            claude,
            name,
            overwrite,
        } => import(app, json, claude, name, overwrite).await,
        McpCommand::Remove { name } => report(app.mcp().remove_server(&name).await, "removed"),
        McpCommand::Enable { name, tool } => toggle(app, &name, tool, true).await,
        McpCommand::Disable { name, tool } => toggle(app, &name, tool, false).await,
        McpCommand::Validate { name, json } => match app.mcp().validate_saved(&name).await {
            Ok(r) => print_validation(&r, json),
            Err(e) => fail(e.to_string()),
        },
        McpCommand::Tools { name, json } => tools(app, name, json).await,
    }
}

fn list_offline(app: &App, json: bool) -> ExitCode {
    let path = app.data_dir().path().join(workbench_mcp::file::FILE_NAME);
    let cfg = match ConfigFile::new(&path).load() {
        Ok(c) => c,
        Err(e) => return fail(e.to_string()),
    };
    if json {
        println!("{}", serde_json::to_string(&cfg).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    println!("# {}", path.display());
    for (name, s) in &cfg.servers {
        let target = match (&s.command, &s.url) {
            (Some(c), _) => format!("stdio  {c} {}", s.args.join(" ")),
            (_, Some(u)) => format!("http   {u}"),
            _ => "(invalid entry)".into(),
        };
        let on = if s.enabled { "on " } else { "off" };
        println!("{name:<20} {on} {target}");
    }
    ExitCode::SUCCESS
}

fn server_line(s: &ServerView) -> String {
    let target = match (&s.command, &s.url) {
        (Some(c), _) => format!("{c} {}", s.args.join(" ")),
        (_, Some(u)) => u.clone(),
        _ => String::new(),
    };
    let status = match &s.status {
        ServerStatus::Disabled => "disabled".to_string(),
        ServerStatus::Connecting => "connecting".to_string(),
        ServerStatus::Connected { tool_count } => format!("connected, {tool_count} tools"),
        ServerStatus::Failed { error, stderr } => {
            let mut t = format!("failed: {error}");
            for l in stderr.iter().rev().take(5).rev() {
                t.push_str(&format!("\n    stderr: {l}"));
            }
            t
        }
        ServerStatus::Reconnecting {
            attempt,
            retry_in_ms,
            error,
            ..
        } => format!("reconnecting (attempt {attempt}, next in {retry_in_ms} ms): {error}"),
    };
    format!("{:<20} {:<40} {status}", s.name, target.trim())
}

/// Splits `NAME=VALUE`.
fn pair(text: &str, secret: Option<bool>) -> Result<ValueInput, String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not NAME=VALUE"))?;
    Ok(ValueInput {
        name: name.trim().to_string(),
        value: Some(value.to_string()),
        secret,
    })
}

fn values(
    plain: &[String],
    secret: &[String],
    keep_plain: &[String],
) -> Result<Vec<ValueInput>, String> {
    let mut out = Vec::new();
    for p in plain {
        let mut v = pair(p, None)?;
        if keep_plain.contains(&v.name) {
            v.secret = Some(false);
        }
        out.push(v);
    }
    for s in secret {
        out.push(pair(s, Some(true))?);
    }
    Ok(out)
}

fn input_from(a: AddArgs) -> Result<(ServerInput, bool), String> {
    let transport = match (a.command, a.url) {
        (Some(command), None) => {
            if !a.header.is_empty() || !a.secret_header.is_empty() {
                return Err("headers are for HTTP servers (--url)".into());
            }
            TransportInput::Stdio {
                command,
                args: a.args,
                env: values(&a.env, &a.secret_env, &a.plain)?,
                cwd: None,
            }
        }
        (None, Some(url)) => {
            if !a.env.is_empty() || !a.secret_env.is_empty() || !a.args.is_empty() {
                return Err("env and arguments are for stdio servers (--command)".into());
            }
            TransportInput::Http {
                url,
                headers: values(&a.header, &a.secret_header, &a.plain)?,
            }
        }
        _ => return Err("give either --command (stdio) or --url (streamable HTTP)".into()),
    };
    Ok((
        ServerInput {
            name: a.name,
            transport,
            enabled: Some(!a.disabled),
            disabled_tools: Vec::new(),
            startup_timeout_secs: a.startup_timeout,
            call_timeout_secs: a.call_timeout,
        },
        a.replace,
    ))
}

async fn import(
    app: &App,
    json: Option<String>,
    claude: bool,
    name: Option<String>,
    overwrite: bool,
) -> ExitCode {
    let result = if claude {
        match app.import_claude_desktop(overwrite).await {
            Ok(Some(r)) => Ok(r),
            Ok(None) => {
                return fail("Claude Desktop's config was not found on this machine".into())
            }
            Err(e) => Err(e),
        }
    } else {
        let Some(source) = json else {
            return fail("give --json FILE (or - for stdin) or --claude".into());
        };
        let text = if source == "-" {
            let mut t = String::new();
            if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut t) {
                return fail(format!("could not read stdin: {e}"));
            }
            t
        } else {
            match std::fs::read_to_string(&source) {
                Ok(t) => t,
                Err(e) => return fail(format!("could not read {source}: {e}")),
            }
        };
        app.import_mcp_json(&text, name.as_deref(), overwrite).await
    };
    match result {
        Ok(r) => {
            for n in &r.added {
                println!("added {n}");
            }
            for n in &r.skipped {
                println!("skipped {n} (a server of that name exists; use --overwrite)");
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(e.to_string()),
    }
}

async fn toggle(app: &App, name: &str, tool: Option<String>, on: bool) -> ExitCode {
    let result = match &tool {
        Some(t) => app.mcp().set_tool_enabled(name, t, on).await,
        None => app.mcp().set_enabled(name, on).await,
    };
    report(result, if on { "enabled" } else { "disabled" })
}

async fn tools(app: &App, name: Option<String>, json: bool) -> ExitCode {
    app.start_mcp_and_wait(CONNECT_WAIT).await;
    let servers: Vec<ServerView> = match &name {
        Some(n) => match app.mcp().server(n) {
            Ok(s) => vec![s],
            Err(e) => return finish(app, fail(e.to_string())),
        },
        None => app.mcp().overview().servers,
    };
    for s in &servers {
        if json {
            println!("{}", serde_json::to_string(s).unwrap_or_default());
            continue;
        }
        println!("{}", server_line(s));
        for t in &s.tools {
            let on = if t.enabled { " " } else { "-" };
            let first = t
                .info
                .description
                .as_deref()
                .and_then(|d| d.lines().next())
                .unwrap_or_default();
            println!("  {on} {:<40} {first}", t.qualified_name);
        }
    }
    finish(app, ExitCode::SUCCESS)
}

fn print_validation(r: &ValidationReport, json: bool) -> ExitCode {
    if json {
        println!("{}", serde_json::to_string(r).unwrap_or_default());
    } else if r.ok {
        println!("ok: {} tools in {} ms", r.tools.len(), r.elapsed_ms);
        for t in &r.tools {
            println!("  {}", t.name);
        }
    } else {
        println!("failed: {}", r.error.as_deref().unwrap_or("unknown error"));
        for l in &r.stderr {
            println!("  stderr: {l}");
        }
    }
    if r.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_RUN_FAILED)
    }
}

fn report(result: Result<(), workbench_mcp::McpError>, done: &str) -> ExitCode {
    match result {
        Ok(()) => {
            println!("{done}");
            ExitCode::SUCCESS
        }
        Err(e) => fail(e.to_string()),
    }
}

fn fail(message: String) -> ExitCode {
    eprintln!("workbench: {message}");
    ExitCode::from(EXIT_USAGE)
}

/// Stops the servers this command started before the process ends.
fn finish(app: &App, code: ExitCode) -> ExitCode {
    app.mcp().shutdown();
    code
}
