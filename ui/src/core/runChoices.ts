/**
 * The agent and skills a thread runs with, as the composer's picker and the Tools inspector
 * show them. Pure: the store holds the state, components render what these functions derive.
 *
 * The shapes are written by hand after crates/app/src/run_choices.rs and `RunOptions` in
 * crates/app/src/tools.rs (no ts-rs derive in the app crate); keep them in step.
 */

/** The agent and skills of a thread's runs; `agent` null is the default agent. */
export type RunOptions = { agent: string | null; skills: string[] };

/** A custom agent as the picker lists it. */
export type AgentChoice = {
  name: string;
  description: string;
  model: string | null;
  /** null = every group. */
  tool_groups: string[] | null;
  /** Skills the agent turns on by itself. */
  skills: string[];
};

/** A skill as the picker lists it. */
export type SkillChoice = {
  name: string;
  description: string;
  /** null = the skill does not restrict tools. */
  allowed_tools: string[] | null;
};

/** The custom agents and skills in the data folder, and the problems of those that did not load. */
export type RunChoices = { agents: AgentChoice[]; skills: SkillChoice[]; problems: string[] };

export const DEFAULT_OPTIONS: RunOptions = { agent: null, skills: [] };

/** A skill that is on for a run, and why. */
export type ActiveSkill = { name: string; from: "picked" | "agent"; missing: boolean };

/** The options with another agent (null = default). */
export function withAgent(options: RunOptions, agent: string | null): RunOptions {
  return { ...options, agent };
}

/** The options with `skill` switched on or off. */
export function toggleSkill(options: RunOptions, skill: string): RunOptions {
  const on = options.skills.includes(skill);
  return { ...options, skills: on ? options.skills.filter((s) => s !== skill) : [...options.skills, skill] };
}

/**
 * Every skill a run with these options has: the picked ones, then the agent's own that were
 * not also picked. `missing` marks names that no longer load (the run would refuse them).
 */
export function activeSkills(options: RunOptions, choices: RunChoices | null): ActiveSkill[] {
  const known = (name: string) => choices === null || choices.skills.some((s) => s.name === name);
  const agent = choices?.agents.find((a) => a.name === options.agent);
  const out: ActiveSkill[] = options.skills.map((name) => ({ name, from: "picked", missing: !known(name) }));
  for (const name of agent?.skills ?? []) {
    if (!options.skills.includes(name)) out.push({ name, from: "agent", missing: !known(name) });
  }
  return out;
}

/** Whether the picked agent no longer loads (deleted or broken since it was picked). */
export function agentMissing(options: RunOptions, choices: RunChoices | null): boolean {
  return options.agent !== null && choices !== null && !choices.agents.some((a) => a.name === options.agent);
}

/** One line for the composer's button and the inspector: `researcher · pdf-tools, notes`. */
export function optionsLabel(options: RunOptions, choices: RunChoices | null): string {
  const agent = options.agent ?? "Default agent";
  const skills = activeSkills(options, choices).map((s) => s.name);
  return skills.length === 0 ? agent : `${agent} · ${skills.join(", ")}`;
}

/** The sentence the Tools inspector shows under its title. */
export function explainedFor(options: RunOptions, choices: RunChoices | null): string {
  const agent = options.agent === null ? "the default agent" : `agent “${options.agent}”`;
  const skills = activeSkills(options, choices).map((s) => `“${s.name}”`);
  if (skills.length === 0) return `For ${agent}, no skill active`;
  return `For ${agent} with skill${skills.length === 1 ? "" : "s"} ${skills.join(", ")}`;
}

/** Same choice: the store skips saving an unchanged pick. */
export function sameOptions(a: RunOptions, b: RunOptions): boolean {
  return a.agent === b.agent && a.skills.length === b.skills.length && a.skills.every((s, i) => s === b.skills[i]);
}
