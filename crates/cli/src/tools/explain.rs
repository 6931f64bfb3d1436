//! `workbench tools --explain`: the visibility report of a thread's next run, as a table or JSON.

use std::process::ExitCode;
use std::sync::Arc;

use workbench_app::{App, RunOptions};
use workbench_core::model::ToolSpec;
use workbench_core::tools::assembly::Candidate;
use workbench_core::tools::sources::{CandidateSource, SourceContext};
use workbench_core::tools::{
    CatalogEntry, Tool, ToolContext, ToolError, ToolMeta, ToolOutput, ToolSource, Visibility,
    VisibilityReport,
};

use super::{load, ToolsArgs};
use crate::EXIT_USAGE;

/// A tool read from a catalog file: it shows how assembly treats such a server's tools, and
/// refuses to run, because no server stands behind it.
struct PreviewTool {
    spec: ToolSpec,
    meta: ToolMeta,
}

#[async_trait::async_trait]
impl Tool for PreviewTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn meta(&self) -> &ToolMeta {
        &self.meta
    }
    async fn call(&self, _: serde_json::Value, _: &ToolContext) -> Result<ToolOutput, ToolError> {
        Err(ToolError::Failed(
            "this tool comes from a catalog file for --explain; it cannot run".into(),
        ))
    }
}

struct PreviewSource(Vec<Candidate>);

impl CandidateSource for PreviewSource {
    fn name(&self) -> &str {
        "catalog preview"
    }
    fn candidates(&self, _: &SourceContext) -> Vec<Candidate> {
        self.0.clone()
    }
}

fn preview_candidate(entry: &CatalogEntry) -> Candidate {
    let source = ToolSource::Mcp {
        server: entry.server.clone().unwrap_or_default(),
    };
    let mut meta = ToolMeta::new(source, "mcp");
    meta.original_name = Some(entry.original_name.clone());
    Candidate::new(Arc::new(PreviewTool {
        spec: entry.spec.clone(),
        meta,
    }))
}

/// Prints the report of the next run.
pub fn run(app: &App, args: ToolsArgs) -> ExitCode {
    if let Some(dir) = &args.catalogs {
        match load(dir) {
            Ok(catalog) => app.add_tool_source(Arc::new(PreviewSource(
                catalog.entries().iter().map(preview_candidate).collect(),
            ))),
            Err(message) => {
                eprintln!("workbench: {message}");
                return ExitCode::from(EXIT_USAGE);
            }
        }
    }
    let options = RunOptions {
        agent: args.agent.clone(),
        skills: args.skills.clone(),
    };
    let report = match app.explain_tools(args.thread.as_deref(), &options) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("workbench: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("workbench: {e}");
                return ExitCode::from(EXIT_USAGE);
            }
        }
    } else {
        print!("{}", table(&report));
    }
    ExitCode::SUCCESS
}

/// The report as an aligned table with a summary line.
fn table(report: &VisibilityReport) -> String {
    let rows: Vec<[String; 5]> = report
        .tools
        .iter()
        .map(|t| {
            [
                t.name.clone(),
                t.source.label(),
                verdict(t.visibility).to_string(),
                t.gate
                    .and_then(|g| serde_json::to_value(g).ok())
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_else(|| "-".into()),
                t.reason.clone(),
            ]
        })
        .collect();
    let header = ["TOOL", "SOURCE", "VERDICT", "GATE", "WHY"].map(String::from);
    let widths: Vec<usize> = (0..4)
        .map(|i| {
            rows.iter()
                .chain(std::iter::once(&header))
                .map(|r| r[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in std::iter::once(&header).chain(rows.iter()) {
        for (i, cell) in row.iter().enumerate().take(4) {
            out.push_str(&format!("{cell:<w$}  ", w = widths[i]));
        }
        out.push_str(&row[4]);
        out.push('\n');
    }
    let count = |v| report.tools.iter().filter(|t| t.visibility == v).count();
    out.push_str(&format!(
        "\n{} visible, {} deferred, {} hidden{}\n",
        count(Visibility::Visible),
        count(Visibility::Deferred),
        count(Visibility::Hidden),
        report
            .catalog_hash
            .as_deref()
            .map(|h| format!("; deferred catalog {}", &h[..h.len().min(12)]))
            .unwrap_or_default()
    ));
    if !report.aliases.is_empty() {
        out.push_str("\nAliases (old names that still work; never shown to the model):\n");
        for a in &report.aliases {
            out.push_str(&format!(
                "  {} -> {}  (removed in {}): {}\n",
                a.alias, a.canonical, a.removed_in, a.reason
            ));
        }
    }
    if !report.problems.is_empty() {
        out.push_str(
            "
Tool configuration problems (these entries are left out):
",
        );
        for p in &report.problems {
            out.push_str(&format!(
                "  {p}
"
            ));
        }
    }
    out
}

fn verdict(v: Visibility) -> &'static str {
    match v {
        Visibility::Visible => "visible",
        Visibility::Deferred => "deferred",
        Visibility::Hidden => "hidden",
    }
}
