//! Tools for a run: the candidate sources, the assembly input built from the agent, skills and
//! settings, and the system prompt that goes with them.

use std::sync::Arc;

use workbench_core::builtins::{
    AskClarification, Remember, RetrieveToolResult, ToolSearch, WriteTodos,
};
use workbench_core::memory::MemoryStore;
use workbench_core::thread::{ThreadState, ThreadStore, VIEWED_IMAGES_DIR};
use workbench_core::tools::assembly::{
    assemble, ActiveSkill, AgentProfile, Assembly, AssemblyInput, Candidate, ModelCaps,
};
use workbench_core::tools::sources::{CandidateSource, SourceContext};
use workbench_core::tools::{DeferredCatalog, Tool, ToolAlias};

use workbench_sandbox::fs::{PresentFilesTool, ViewImageTool};
use workbench_sandbox::ThreadRoots;

use crate::agents::{load_agents, CustomAgent};
use crate::config_tools::{config_candidates, load_config_tools};
use crate::shells::{ShellSettings, Shells, SHELL_NETWORK_SETTING, SHELL_UNCONFINED_SETTING};
use crate::skills::{load_skills, Skill};
use crate::subagents::{SubagentHost, TaskTool};
use crate::{App, AppError};

/// Settings key: defer MCP tools behind tool_search (default on).
const DEFER_MCP_SETTING: &str = "tools.defer_mcp";

/// The agent and skills a run uses.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunOptions {
    /// A custom agent by name; `None` = the default agent.
    #[serde(default)]
    pub agent: Option<String>,
    /// Skills to activate for this run, besides the agent's own.
    #[serde(default)]
    pub skills: Vec<String>,
}

/// Old tool names that keep working until the version named, each pointing at its tool.
/// Models trained on other agents (and our own first fixtures) call `list_dir`; the tool is `ls`.
pub const TOOL_ALIASES: &[(&str, &str, &str, &str)] = &[(
    "list_dir",
    "ls",
    "0.3.0",
    "the folder tool is named `ls`, like the shell command",
)];

fn tool_aliases() -> Vec<ToolAlias> {
    TOOL_ALIASES
        .iter()
        .map(|(alias, canonical, removed_in, message)| ToolAlias {
            alias: (*alias).into(),
            canonical: (*canonical).into(),
            removed_in: (*removed_in).into(),
            message: (*message).into(),
        })
        .collect()
}

/// The tools Workbench always offers, and `remember` while memory is on. `task` reports to
/// the run's subagent host, if any.
pub(crate) struct BuiltinSource<'a> {
    pub subagents: Option<&'a Arc<SubagentHost>>,
    pub custom_agents: &'a [String],
    pub memory: Option<Arc<dyn MemoryStore>>,
}

impl CandidateSource for BuiltinSource<'_> {
    fn name(&self) -> &str {
        "built-in"
    }

    fn candidates(&self, ctx: &SourceContext) -> Vec<Candidate> {
        let mut tools: Vec<Arc<dyn Tool>> = vec![
            Arc::new(RetrieveToolResult::new(ctx.thread_dir.clone())),
            Arc::new(WriteTodos::new()),
            Arc::new(AskClarification::new()),
            Arc::new(PresentFilesTool::new(ThreadRoots::under(&ctx.thread_dir))),
            Arc::new(TaskTool::new(self.subagents.cloned(), self.custom_agents)),
        ];
        if let Some(store) = &self.memory {
            tools.push(Arc::new(Remember::new(store.clone())));
        }
        tools.into_iter().map(Candidate::new).collect()
    }
}

/// The sandbox's file, search and git tools over the thread's folders (with its mounts), and
/// the thread's shell.
pub(crate) struct SandboxSource<'a> {
    pub roots: ThreadRoots,
    pub shells: &'a Shells,
    pub shell: ShellSettings,
}

impl CandidateSource for SandboxSource<'_> {
    fn name(&self) -> &str {
        "sandbox"
    }

    fn candidates(&self, ctx: &SourceContext) -> Vec<Candidate> {
        // Listing never creates folders (explain_tools lists for threads that may not exist);
        // the run creates them before it starts.
        let mut tools = workbench_sandbox::fs::file_tools(&self.roots);
        tools.extend(workbench_sandbox::git_tools(&self.roots));
        tools.push(Arc::new(ViewImageTool::new(
            self.roots.clone(),
            ctx.thread_dir.join(VIEWED_IMAGES_DIR),
        )));
        tools.extend(self.shells.tools(&ctx.thread_id, &self.roots, self.shell));
        tools.into_iter().map(Candidate::new).collect()
    }
}

/// What a run is assembled from, resolved from names to loaded files.
pub(crate) struct RunSetup {
    pub agent: Option<CustomAgent>,
    pub skills: Vec<Skill>,
    pub input: AssemblyInput,
    pub shell: ShellSettings,
    /// The user's custom agents, offered to `task` as subagent types.
    pub custom_agents: Vec<String>,
    /// Where this run's subagents report; `None` when only listing tools.
    pub subagents: Option<Arc<SubagentHost>>,
}

fn make_search(catalog: Arc<DeferredCatalog>) -> Arc<dyn Tool> {
    Arc::new(ToolSearch::new(catalog))
}

impl App {
    /// Adds a source of candidate tools; later sources lose name clashes to earlier ones.
    pub fn add_tool_source(&self, source: Arc<dyn CandidateSource>) {
        if let Ok(mut sources) = self.sources.write() {
            sources.push(source);
        }
    }

    pub(crate) fn setup_run(
        &self,
        options: &RunOptions,
        model: &str,
    ) -> Result<RunSetup, AppError> {
        let (agents, problems) = load_agents(self.data.path());
        for p in problems {
            tracing::warn!(problem = %p, "an agent could not be loaded");
        }
        let custom_agents: Vec<String> = agents.iter().map(|a| a.name.clone()).collect();
        let agent =
            match &options.agent {
                None => None,
                Some(name) => Some(agents.into_iter().find(|a| &a.name == name).ok_or_else(
                    || {
                        AppError::Invalid(format!(
                            "there is no agent named `{name}`; agents live in {}",
                            self.data.path().join(crate::agents::AGENTS_DIR).display()
                        ))
                    },
                )?),
            };
        let (all_skills, problems) = load_skills(self.data.path());
        for p in problems {
            tracing::warn!(problem = %p, "a skill could not be loaded");
        }
        let mut wanted: Vec<&str> = options.skills.iter().map(String::as_str).collect();
        if let Some(a) = &agent {
            wanted.extend(a.skills.iter().map(String::as_str));
        }
        let mut skills = Vec::new();
        for name in wanted {
            if skills.iter().any(|s: &Skill| s.name == name) {
                continue;
            }
            let skill = all_skills.iter().find(|s| s.name == name).ok_or_else(|| {
                AppError::Invalid(format!(
                    "there is no skill named `{name}`; skills live in {}",
                    self.data.path().join(crate::skills::SKILLS_DIR).display()
                ))
            })?;
            skills.push(skill.clone());
        }
        let defer_mcp = self
            .store
            .get_setting::<bool>(DEFER_MCP_SETTING)?
            .unwrap_or(true);
        let shell = self.shell_settings()?;
        let input = AssemblyInput {
            agent: match &agent {
                Some(a) => {
                    let (name, tool_groups, model) = a.to_profile_parts();
                    AgentProfile {
                        name,
                        tool_groups,
                        model,
                    }
                }
                None => AgentProfile {
                    name: "default".into(),
                    ..Default::default()
                },
            },
            shell: self.shells.policy(shell),
            model: self.model_caps(agent.as_ref().and_then(|a| a.model.as_deref()), model)?,
            is_subagent: false,
            skills: skills
                .iter()
                .map(|s| {
                    let (name, allowed_tools) = s.to_active_skill_parts();
                    ActiveSkill {
                        name,
                        allowed_tools,
                    }
                })
                .collect(),
            defer_mcp,
            aliases: tool_aliases(),
        };
        Ok(RunSetup {
            agent,
            skills,
            input,
            shell,
            custom_agents,
            subagents: None,
        })
    }

    /// What the model of a run can do: the agent's own model if it names one, else the
    /// provider's.
    fn model_caps(&self, agent_model: Option<&str>, model: &str) -> Result<ModelCaps, AppError> {
        let name = agent_model.unwrap_or(model);
        Ok(ModelCaps {
            name: name.to_string(),
            vision: self.model_vision(name)?,
        })
    }

    /// The shell settings the user chose (both off by default).
    pub fn shell_settings(&self) -> Result<ShellSettings, AppError> {
        Ok(ShellSettings {
            allow_network: self
                .store
                .get_setting::<bool>(SHELL_NETWORK_SETTING)?
                .unwrap_or(false),
            allow_unconfined: self
                .store
                .get_setting::<bool>(SHELL_UNCONFINED_SETTING)?
                .unwrap_or(false),
        })
    }

    /// The OS confinement the shell gets on this machine (`landlock+seccomp-net`), or None
    /// where there is none (then `bash` is hidden unless unconfined runs are allowed).
    pub fn shell_confinement(&self) -> Option<String> {
        self.shells.policy(ShellSettings::default()).confinement
    }

    /// Saves the shell settings; the next run of each thread gets a shell made with them.
    pub fn set_shell_settings(&self, settings: ShellSettings) -> Result<(), AppError> {
        self.store
            .set_setting(SHELL_NETWORK_SETTING, &settings.allow_network)?;
        self.store
            .set_setting(SHELL_UNCONFINED_SETTING, &settings.allow_unconfined)?;
        Ok(())
    }

    pub(crate) fn assemble_for(
        &self,
        thread_id: &str,
        state: &ThreadState,
        setup: &RunSetup,
    ) -> Result<Assembly, AppError> {
        let input = &setup.input;
        let ctx = SourceContext {
            thread_id: thread_id.to_string(),
            thread_dir: self.data.thread_dir(thread_id),
        };
        let builtins = BuiltinSource {
            subagents: setup.subagents.as_ref(),
            custom_agents: &setup.custom_agents,
            memory: self.memory_store(),
        };
        let mut builtin = builtins.candidates(&ctx);
        let sandbox = SandboxSource {
            roots: self.listing_roots(thread_id, &input.agent.name),
            shells: &self.shells,
            shell: setup.shell,
        };
        builtin.extend(sandbox.candidates(&ctx));
        // Config tools come first: a user's declaration wins the name over a built-in.
        let (decls, load_problems) = load_config_tools(self.data.path());
        let (mut candidates, missing) = config_candidates(&decls, &builtin);
        let problems: Vec<String> = load_problems
            .iter()
            .map(ToString::to_string)
            .chain(missing)
            .collect();
        for p in &problems {
            tracing::warn!(problem = %p, "a config tool could not be used");
        }
        candidates.extend(builtin);
        if let Ok(sources) = self.sources.read() {
            for source in sources.iter() {
                candidates.extend(source.candidates(&ctx));
            }
        }
        assemble(candidates, input, state, &make_search)
            .map(|a| a.with_problems(problems))
            .map_err(|e| AppError::Invalid(e.to_string()))
    }

    /// The visibility report of the next run of a thread (or of a new thread): every
    /// candidate tool, visible, deferred or hidden, and why.
    pub fn explain_tools(
        &self,
        thread_id: Option<&str>,
        options: &RunOptions,
    ) -> Result<workbench_core::tools::VisibilityReport, AppError> {
        let state = match thread_id {
            Some(id) => self.store.get_thread(id)?.state,
            None => ThreadState::default(),
        };
        let model = crate::provider::configured_sync(self)?
            .map(|s| s.model)
            .unwrap_or_default();
        let setup = self.setup_run(options, &model)?;
        let assembly = self.assemble_for(thread_id.unwrap_or("preview"), &state, &setup)?;
        Ok(assembly.report().clone())
    }
}

/// The system prompt of a run: the base prompt, the agent's persona, active skills, saved
/// memory, and the names of deferred tools the model can search for.
pub(crate) fn system_prompt(setup: &RunSetup, assembly: &Assembly, memory: &str) -> String {
    let mut prompt = include_str!("../../../assets/system-prompt.md")
        .trim()
        .to_string();
    if let Some(agent) = &setup.agent {
        prompt.push_str("\n\n");
        prompt.push_str(agent.soul.trim());
    }
    for skill in &setup.skills {
        prompt.push_str(&format!(
            "\n\n## Skill: {}\n{}",
            skill.name,
            skill.body.trim()
        ));
    }
    if !memory.is_empty() {
        prompt.push_str("\n\n");
        prompt.push_str(memory.trim_end());
    }
    if let Some(catalog) = assembly.catalog() {
        prompt.push_str(
            "\n\n## Deferred tools\nThese tools exist but their schemas are not loaded. To use \
             one, call tool_search (for example `select:<name>` or a description of the task); \
             the tools it returns are callable from your next turn.\n",
        );
        prompt.push_str(&catalog.listing());
    }
    prompt
}
