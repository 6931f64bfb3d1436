//! The visibility calculation for one run: every candidate tool passes the gates in order,
//! survivors are deduplicated, narrowed by active skills and, for MCP tools, deferred behind
//! tool_search. The answer is the callable tools plus a [`VisibilityReport`] that says, for
//! every candidate, where it ended up and which gate decided.

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::aliases::{AliasVerdict, AliasedTool, ToolAlias};
use super::catalog::{CatalogEntry, DeferredCatalog};
use super::gates::{
    agent_groups, dedupe, deferral, host_shell, model_capability, skill_allowed, subagent,
};
use super::{Gate, Tool, ToolOutput, ToolVerdict, Visibility, VisibilityReport};
use crate::model::ToolSpec;
use crate::thread::ThreadState;

/// The agent a run is for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentProfile {
    /// `default` for the built-in lead agent.
    pub name: String,
    /// The groups this agent may use; `None` = every group.
    pub tool_groups: Option<Vec<String>>,
    /// The model this agent asks for, if it names one.
    pub model: Option<String>,
}

/// Whether the shell may run on this machine.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShellPolicy {
    /// The confinement the sandbox can apply (`landlock`, `bubblewrap`), if any.
    pub confinement: Option<String>,
    /// The user enabled an unconfined shell in Settings.
    pub allow_unconfined: bool,
}

/// What the run's model can do.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelCaps {
    pub name: String,
    pub vision: bool,
}

/// A skill active in this run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveSkill {
    pub name: String,
    /// `None` = the skill does not restrict tools.
    pub allowed_tools: Option<Vec<String>>,
}

/// Everything assembly decides by, besides the candidates.
#[derive(Debug, Clone, Default)]
pub struct AssemblyInput {
    pub agent: AgentProfile,
    pub shell: ShellPolicy,
    pub model: ModelCaps,
    pub is_subagent: bool,
    pub skills: Vec<ActiveSkill>,
    /// Defer MCP tools behind tool_search.
    pub defer_mcp: bool,
    /// Old tool names still answered (by the canonical tool, with a deprecation note).
    pub aliases: Vec<ToolAlias>,
}

/// A candidate tool, with the name the user's config gave it when it came from config.
#[derive(Clone)]
pub struct Candidate {
    pub tool: Arc<dyn Tool>,
    /// The `name:` of a config `tools:` entry, reported when it differs from the tool's own.
    pub config_name: Option<String>,
}

impl Candidate {
    /// A candidate with no config name.
    pub fn new(tool: Arc<dyn Tool>) -> Self {
        Self {
            tool,
            config_name: None,
        }
    }

    /// A tool declared in config: the model sees and calls it by its declared name.
    pub fn configured(tool: super::ConfiguredTool) -> Self {
        let name = tool.spec().name.clone();
        Self {
            tool: Arc::new(tool),
            config_name: Some(name),
        }
    }
}

/// Why a run cannot start with these tools.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AssemblyError {
    #[error(
        "{count} MCP tools are deferred but no tool_search catalog could be built ({detail}); \
         refusing to start the run rather than hide them silently"
    )]
    NoCatalog { count: usize, detail: String },
}

/// The tools of one run.
#[derive(Clone)]
pub struct Assembly {
    visible: Vec<Arc<dyn Tool>>,
    deferred: HashMap<String, Arc<dyn Tool>>,
    catalog: Option<Arc<DeferredCatalog>>,
    report: VisibilityReport,
    /// Aliases by old name; only those that no real tool's name shadows.
    aliases: HashMap<String, ToolAlias>,
    /// Whether the run's model takes images (the model-capability gate's input).
    model_vision: bool,
}

/// Builds the search tool over a catalog (the built-in `tool_search`).
pub type SearchToolFactory<'a> = &'a dyn Fn(Arc<DeferredCatalog>) -> Arc<dyn Tool>;

/// Runs the gates over the candidates. `state` is the thread's state (for promotions, shown in
/// the report); `make_search` builds tool_search over the deferred catalog.
pub fn assemble(
    candidates: Vec<Candidate>,
    input: &AssemblyInput,
    state: &ThreadState,
    make_search: SearchToolFactory<'_>,
) -> Result<Assembly, AssemblyError> {
    let mut verdicts: Vec<ToolVerdict> = Vec::with_capacity(candidates.len() + 1);
    let mut fates: Vec<Visibility> = Vec::with_capacity(candidates.len());

    for c in &candidates {
        let (spec, meta) = (c.tool.spec(), c.tool.meta());
        let hidden = agent_groups::check(meta, &input.agent)
            .map(|r| (Gate::AgentToolGroups, r))
            .or_else(|| host_shell::check(meta, &input.shell).map(|r| (Gate::HostShell, r)))
            .or_else(|| {
                model_capability::check(meta, &input.model).map(|r| (Gate::ModelCapability, r))
            })
            .or_else(|| {
                subagent::check(meta, input.is_subagent).map(|r| (Gate::SubagentSwitch, r))
            });
        let mut reason = config_note(c);
        let (visibility, gate) = match hidden {
            Some((gate, why)) => {
                reason.push_str(&why);
                (Visibility::Hidden, Some(gate))
            }
            None => (Visibility::Visible, None),
        };
        fates.push(visibility);
        verdicts.push(ToolVerdict {
            name: spec.name.clone(),
            original_name: meta.original_name.clone(),
            source: meta.source.clone(),
            group: meta.group.clone(),
            visibility,
            gate,
            reason,
        });
    }

    // Dedupe among the survivors only: a hidden tool does not take a name from a usable one.
    let survivors: Vec<usize> = (0..candidates.len())
        .filter(|&i| fates[i] != Visibility::Hidden)
        .collect();
    let lost = dedupe::losers(survivors.iter().map(|&i| {
        (
            candidates[i].tool.spec().name.as_str(),
            &candidates[i].tool.meta().source,
        )
    }));
    for (&i, why) in survivors.iter().zip(lost) {
        if let Some(why) = why {
            hide(&mut verdicts[i], &mut fates[i], Gate::Dedupe, why);
        }
    }

    for i in 0..candidates.len() {
        if fates[i] == Visibility::Hidden {
            continue;
        }
        let (spec, meta) = (candidates[i].tool.spec(), candidates[i].tool.meta());
        if let Some(why) = skill_allowed::check(&spec.name, meta, &input.skills) {
            hide(
                &mut verdicts[i],
                &mut fates[i],
                Gate::SkillAllowedTools,
                why,
            );
        } else if deferral::defers(meta, input.defer_mcp) {
            fates[i] = Visibility::Deferred;
            let v = &mut verdicts[i];
            v.visibility = Visibility::Deferred;
            v.gate = Some(Gate::Deferral);
        }
    }

    let mut visible = Vec::new();
    let mut deferred = HashMap::new();
    let mut entries = Vec::new();
    for (i, c) in candidates.iter().enumerate() {
        match fates[i] {
            Visibility::Visible => visible.push(c.tool.clone()),
            Visibility::Deferred => {
                let (spec, meta) = (c.tool.spec(), c.tool.meta());
                entries.push(CatalogEntry {
                    name: spec.name.clone(),
                    server: match &meta.source {
                        super::ToolSource::Mcp { server } => Some(server.clone()),
                        _ => None,
                    },
                    original_name: meta.original_name.clone().unwrap_or(spec.name.clone()),
                    spec: spec.clone(),
                });
                deferred.insert(spec.name.clone(), c.tool.clone());
            }
            Visibility::Hidden => {}
        }
    }
    let catalog = if entries.is_empty() {
        Ok(None)
    } else {
        DeferredCatalog::new(entries).map(|c| Some(Arc::new(c)))
    };
    match catalog {
        Ok(catalog) => finish(visible, deferred, catalog, verdicts, state, make_search)
            .map(|a| a.with_aliases(&input.aliases))
            .map(|a| Assembly {
                model_vision: input.model.vision,
                ..a
            }),
        Err(e) => Err(AssemblyError::NoCatalog {
            count: deferred.len(),
            detail: e.to_string(),
        }),
    }
}

/// The report's note on a config-declared candidate whose name differs from its
/// implementation's, ending in the separator the gates' reasons follow.
fn config_note(c: &Candidate) -> String {
    let Some(cfg) = &c.config_name else {
        return String::new();
    };
    let (spec, meta) = (c.tool.spec(), c.tool.meta());
    if cfg != &spec.name {
        return format!(
            "config names it `{cfg}` but the tool's own name `{}` is what the model sees; ",
            spec.name
        );
    }
    let own = meta.original_name.as_deref().unwrap_or(&spec.name);
    if own == cfg {
        return String::new();
    }
    match &meta.source {
        super::ToolSource::Config { impl_id } => {
            format!("declared in config; runs `{impl_id}` (the built-in `{own}`); ")
        }
        _ => format!("declared in config; runs the built-in `{own}`; "),
    }
}

fn hide(verdict: &mut ToolVerdict, fate: &mut Visibility, gate: Gate, why: String) {
    *fate = Visibility::Hidden;
    verdict.visibility = Visibility::Hidden;
    verdict.gate = Some(gate);
    verdict.reason.push_str(&why);
}

/// Adds tool_search over the catalog and fills in the deferred reasons. Fails closed: deferred
/// tools without a catalog would be invisible and uncallable, so the run must not start.
fn finish(
    mut visible: Vec<Arc<dyn Tool>>,
    deferred: HashMap<String, Arc<dyn Tool>>,
    catalog: Option<Arc<DeferredCatalog>>,
    mut verdicts: Vec<ToolVerdict>,
    state: &ThreadState,
    make_search: SearchToolFactory<'_>,
) -> Result<Assembly, AssemblyError> {
    // A config-name note on a tool no gate touched has nothing after its separator.
    for v in &mut verdicts {
        let trimmed = v.reason.trim_end_matches("; ").len();
        v.reason.truncate(trimmed);
    }
    let Some(catalog) = catalog else {
        if !deferred.is_empty() {
            return Err(AssemblyError::NoCatalog {
                count: deferred.len(),
                detail: "no catalog".into(),
            });
        }
        return Ok(Assembly {
            visible,
            deferred,
            catalog: None,
            report: VisibilityReport {
                tools: verdicts,
                catalog_hash: None,
                aliases: Vec::new(),
                problems: Vec::new(),
            },
            aliases: HashMap::new(),
            model_vision: false,
        });
    };
    let hash = catalog.hash().to_string();
    for v in verdicts
        .iter_mut()
        .filter(|v| v.visibility == Visibility::Deferred)
    {
        v.reason.push_str(if state.is_promoted(&hash, &v.name) {
            "deferred behind tool_search; promoted in this thread, so callable"
        } else {
            "deferred behind tool_search; callable once the model finds it with tool_search"
        });
    }
    let search = make_search(catalog.clone());
    let meta = search.meta();
    verdicts.push(ToolVerdict {
        name: search.spec().name.clone(),
        original_name: None,
        source: meta.source.clone(),
        group: meta.group.clone(),
        visibility: Visibility::Visible,
        gate: None,
        reason: format!("searches the {} deferred tools", catalog.len()),
    });
    visible.push(search);
    Ok(Assembly {
        visible,
        deferred,
        catalog: Some(catalog),
        report: VisibilityReport {
            tools: verdicts,
            catalog_hash: Some(hash),
            aliases: Vec::new(),
            problems: Vec::new(),
        },
        aliases: HashMap::new(),
        model_vision: false,
    })
}

impl Assembly {
    /// Records the aliases and their targets in the report. An alias that a candidate's own
    /// name shadows is reported and never used: a real tool always wins its name.
    fn with_aliases(mut self, aliases: &[ToolAlias]) -> Self {
        for a in aliases {
            let shadowed = self.report.verdict(&a.alias).is_some();
            let target = self.report.verdict(&a.canonical).map(|v| v.visibility);
            let reason = if shadowed {
                format!(
                    "unused: a tool named `{}` exists in this run, so calls reach it, not `{}`",
                    a.alias, a.canonical
                )
            } else {
                match target {
                    Some(Visibility::Visible) => format!(
                        "calls run `{}` with a deprecation note; removed in {}",
                        a.canonical, a.removed_in
                    ),
                    Some(Visibility::Deferred) => format!(
                        "calls run `{}` once tool_search promoted it; removed in {}",
                        a.canonical, a.removed_in
                    ),
                    Some(Visibility::Hidden) => format!(
                        "`{}` is hidden in this run, so calls by the alias are refused too",
                        a.canonical
                    ),
                    None => format!("`{}` is not a tool of this run", a.canonical),
                }
            };
            self.report.aliases.push(AliasVerdict {
                alias: a.alias.clone(),
                canonical: a.canonical.clone(),
                removed_in: a.removed_in.clone(),
                target,
                reason,
            });
            if !shadowed {
                self.aliases.insert(a.alias.clone(), a.clone());
            }
        }
        self
    }

    /// Adds sentences about tool configuration that could not be used to the report.
    pub fn with_problems(mut self, problems: Vec<String>) -> Self {
        self.report.problems.extend(problems);
        self
    }

    /// The report of this assembly.
    pub fn report(&self) -> &VisibilityReport {
        &self.report
    }

    /// Whether the run's model takes images: images viewed earlier are attached only then.
    pub fn model_takes_images(&self) -> bool {
        self.model_vision
    }

    /// The deferred catalog, when MCP tools were deferred.
    pub fn catalog(&self) -> Option<&Arc<DeferredCatalog>> {
        self.catalog.as_ref()
    }

    /// The tool specs to send with a model call: the visible tools, plus the deferred tools
    /// the thread has promoted in this catalog. Unpromoted deferred schemas stay hidden.
    pub fn request_tools(&self, state: &ThreadState) -> Vec<ToolSpec> {
        let mut specs: Vec<ToolSpec> = self.visible.iter().map(|t| t.spec().clone()).collect();
        if let Some(catalog) = &self.catalog {
            let mut promoted: Vec<&String> = self
                .deferred
                .keys()
                .filter(|n| state.is_promoted(catalog.hash(), n))
                .collect();
            promoted.sort();
            specs.extend(
                promoted
                    .into_iter()
                    .map(|n| self.deferred[n].spec().clone()),
            );
        }
        specs
    }

    /// The tool a call names, or the error result the model gets instead: unknown tools and
    /// deferred tools not yet promoted are refused with a sentence that says what to do.
    /// A deprecated alias resolves to its canonical tool, wrapped so that its result carries
    /// the deprecation.
    pub fn resolve(&self, name: &str, state: &ThreadState) -> Result<Arc<dyn Tool>, ToolOutput> {
        if let Some(alias) = self.aliases.get(name) {
            let inner = self.resolve_name(&alias.canonical, state)?;
            return Ok(Arc::new(AliasedTool {
                inner,
                alias: alias.clone(),
            }));
        }
        self.resolve_name(name, state)
    }

    fn resolve_name(&self, name: &str, state: &ThreadState) -> Result<Arc<dyn Tool>, ToolOutput> {
        if let Some(t) = self.visible.iter().find(|t| t.spec().name == name) {
            return Ok(t.clone());
        }
        if let (Some(tool), Some(catalog)) = (self.deferred.get(name), &self.catalog) {
            if state.is_promoted(catalog.hash(), name) {
                return Ok(tool.clone());
            }
            return Err(ToolOutput::error(format!(
                "`{name}` is deferred: call tool_search first (for example with the query \
                 `select:{name}`), then call it on the next turn"
            )));
        }
        let hidden = self
            .report
            .verdict(name)
            .filter(|v| v.visibility == Visibility::Hidden);
        Err(ToolOutput::error(match hidden {
            Some(v) => format!("`{name}` is not available in this run: {}", v.reason),
            None => {
                let names: Vec<&str> = self
                    .visible
                    .iter()
                    .map(|t| t.spec().name.as_str())
                    .collect();
                format!(
                    "there is no tool named `{name}`; the tools are: {}",
                    names.join(", ")
                )
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::{ToolContext, ToolError, ToolMeta, ToolSource};

    struct Stub(ToolSpec, ToolMeta);

    #[async_trait::async_trait]
    impl Tool for Stub {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }
        fn meta(&self) -> &ToolMeta {
            &self.1
        }
        async fn call(
            &self,
            _: serde_json::Value,
            _: &ToolContext,
        ) -> Result<ToolOutput, ToolError> {
            Ok(ToolOutput::text(""))
        }
    }

    #[test]
    fn deferred_tools_without_a_catalog_refuse_to_start_the_run() {
        let spec = ToolSpec {
            name: "s__t".into(),
            description: String::new(),
            parameters: serde_json::json!({}),
        };
        let meta = ToolMeta::new(ToolSource::Mcp { server: "s".into() }, "mcp");
        let tool: Arc<dyn Tool> = Arc::new(Stub(spec, meta));
        let deferred = HashMap::from([("s__t".to_string(), tool)]);
        let never = |_: Arc<DeferredCatalog>| -> Arc<dyn Tool> { unreachable!() };
        let result = finish(
            Vec::new(),
            deferred,
            None,
            Vec::new(),
            &ThreadState::default(),
            &never,
        );
        let err = result.err().expect("must refuse");
        assert!(err.to_string().contains("refusing to start"), "{err}");
    }
}
