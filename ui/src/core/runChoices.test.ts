import { describe, expect, it } from "vitest";
import {
  activeSkills,
  agentMissing,
  DEFAULT_OPTIONS,
  explainedFor,
  optionsLabel,
  sameOptions,
  toggleSkill,
  withAgent,
  type RunChoices,
} from "./runChoices";

const choices: RunChoices = {
  agents: [
    { name: "researcher", description: "Finds sources", model: null, tool_groups: ["web", "file"], skills: ["notes"] },
    { name: "coder", description: "", model: "gpt-4.1", tool_groups: null, skills: [] },
  ],
  skills: [
    { name: "notes", description: "Keeps notes", allowed_tools: null },
    { name: "pdf-tools", description: "Reads PDFs", allowed_tools: ["read_file"] },
  ],
  problems: [],
};

describe("run choices", () => {
  it("toggles skills in pick order and keeps the rest of the options", () => {
    let o = withAgent(DEFAULT_OPTIONS, "coder");
    o = toggleSkill(o, "pdf-tools");
    o = toggleSkill(o, "notes");
    expect(o).toEqual({ agent: "coder", skills: ["pdf-tools", "notes"] });
    expect(toggleSkill(o, "pdf-tools")).toEqual({ agent: "coder", skills: ["notes"] });
    expect(DEFAULT_OPTIONS).toEqual({ agent: null, skills: [] });
  });

  it("lists picked skills, then the agent's own once, and marks ones that no longer load", () => {
    const o = { agent: "researcher", skills: ["pdf-tools", "gone"] };
    expect(activeSkills(o, choices)).toEqual([
      { name: "pdf-tools", from: "picked", missing: false },
      { name: "gone", from: "picked", missing: true },
      { name: "notes", from: "agent", missing: false },
    ]);
    expect(activeSkills({ agent: "researcher", skills: ["notes"] }, choices)).toEqual([
      { name: "notes", from: "picked", missing: false },
    ]);
    // Before the list has loaded nothing is called missing.
    expect(activeSkills({ agent: null, skills: ["gone"] }, null)[0]?.missing).toBe(false);
  });

  it("labels the choice for the composer and the inspector", () => {
    expect(optionsLabel(DEFAULT_OPTIONS, choices)).toBe("Default agent");
    expect(optionsLabel({ agent: "researcher", skills: ["pdf-tools"] }, choices)).toBe("researcher · pdf-tools, notes");
    expect(explainedFor(DEFAULT_OPTIONS, choices)).toBe("For the default agent, no skill active");
    expect(explainedFor({ agent: "researcher", skills: [] }, choices)).toBe("For agent “researcher” with skill “notes”");
    expect(explainedFor({ agent: null, skills: ["notes", "pdf-tools"] }, choices)).toBe(
      "For the default agent with skills “notes”, “pdf-tools”",
    );
  });

  it("notices a picked agent that no longer loads", () => {
    expect(agentMissing({ agent: "gone", skills: [] }, choices)).toBe(true);
    expect(agentMissing({ agent: "coder", skills: [] }, choices)).toBe(false);
    expect(agentMissing({ agent: "gone", skills: [] }, null)).toBe(false);
    expect(agentMissing(DEFAULT_OPTIONS, choices)).toBe(false);
  });

  it("compares choices by agent and skills in order", () => {
    expect(sameOptions({ agent: "a", skills: ["x"] }, { agent: "a", skills: ["x"] })).toBe(true);
    expect(sameOptions({ agent: "a", skills: ["x"] }, { agent: null, skills: ["x"] })).toBe(false);
    expect(sameOptions({ agent: "a", skills: ["x", "y"] }, { agent: "a", skills: ["y", "x"] })).toBe(false);
  });
});
