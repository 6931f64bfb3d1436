//! What a front-end offers when the user picks the agent and skills of a thread: the custom
//! agents and skills that loaded (with the problems of those that did not), and the thread's
//! saved choice (`thread.run_options.<id>`, the same setting a resumed run reads).

use serde::Serialize;
use workbench_core::thread::ThreadStore;

use crate::agents::{check_agent_skills, load_agents};
use crate::runs::run_options_key;
use crate::skills::load_skills;
use crate::{App, AppError, RunOptions};

/// A custom agent as a picker shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgentChoice {
    pub name: String,
    /// One line; empty when agent.json gives none.
    pub description: String,
    /// The model it asks for; `None` = the configured one.
    pub model: Option<String>,
    /// The groups it may use; `None` = every group.
    pub tool_groups: Option<Vec<String>>,
    /// Skills it turns on by itself.
    pub skills: Vec<String>,
}

/// A skill as a picker shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkillChoice {
    pub name: String,
    /// When to use it; empty when the frontmatter gives none.
    pub description: String,
    /// The tools it allows; `None` = it does not restrict tools.
    pub allowed_tools: Option<Vec<String>>,
}

/// Everything a picker lists.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RunChoices {
    pub agents: Vec<AgentChoice>,
    pub skills: Vec<SkillChoice>,
    /// Agents and skills that could not be loaded (or loaded with a caveat), one sentence each.
    pub problems: Vec<String>,
}

impl App {
    /// The custom agents and skills in the data folder, sorted by name.
    pub fn run_choices(&self) -> RunChoices {
        let (agents, agent_problems) = load_agents(self.data.path());
        let (skills, skill_problems) = load_skills(self.data.path());
        let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
        let unknown = check_agent_skills(&agents, &names);
        RunChoices {
            problems: agent_problems
                .iter()
                .chain(&skill_problems)
                .chain(&unknown)
                .map(ToString::to_string)
                .collect(),
            agents: agents
                .into_iter()
                .map(|a| AgentChoice {
                    name: a.name,
                    description: a.description,
                    model: a.model,
                    tool_groups: a.tool_groups,
                    skills: a.skills,
                })
                .collect(),
            skills: skills
                .into_iter()
                .map(|s| SkillChoice {
                    name: s.name,
                    description: s.description,
                    allowed_tools: s.allowed_tools,
                })
                .collect(),
        }
    }

    /// The agent and skills the thread's next run uses: the last saved choice, or the
    /// defaults.
    pub fn thread_run_options(&self, thread_id: &str) -> Result<RunOptions, AppError> {
        self.store.get_thread(thread_id)?;
        Ok(self
            .store
            .get_setting::<RunOptions>(&run_options_key(thread_id))?
            .unwrap_or_default())
    }

    /// Saves the thread's choice after checking that the agent and skills exist; skills named
    /// twice are kept once. Returns what was saved.
    pub fn set_thread_run_options(
        &self,
        thread_id: &str,
        options: RunOptions,
    ) -> Result<RunOptions, AppError> {
        self.store.get_thread(thread_id)?;
        let choices = self.run_choices();
        if let Some(agent) = &options.agent {
            if !choices.agents.iter().any(|a| &a.name == agent) {
                return Err(AppError::Invalid(format!(
                    "there is no agent named `{agent}`; agents live in {}",
                    self.data.path().join(crate::agents::AGENTS_DIR).display()
                )));
            }
        }
        let mut skills: Vec<String> = Vec::new();
        for skill in options.skills {
            if !choices.skills.iter().any(|s| s.name == skill) {
                return Err(AppError::Invalid(format!(
                    "there is no skill named `{skill}`; skills live in {}",
                    self.data.path().join(crate::skills::SKILLS_DIR).display()
                )));
            }
            if !skills.contains(&skill) {
                skills.push(skill);
            }
        }
        let clean = RunOptions {
            agent: options.agent,
            skills,
        };
        self.store
            .set_setting(&run_options_key(thread_id), &clean)?;
        Ok(clean)
    }
}
