import { describe, expect, it } from "vitest";
import type { ToolVerdict } from "../bindings/ToolVerdict";
import { GATE_LABEL, groupOpenByDefault, groupReport, matchesFilter, matchingAliases, reasonSentence, sourceLabel } from "./toolReport";

function v(over: Partial<ToolVerdict> & Pick<ToolVerdict, "name">): ToolVerdict {
  return { original_name: null, source: { kind: "builtin" }, group: "fs", visibility: "visible", gate: null, reason: "", ...over };
}

const report: ToolVerdict[] = [
  v({ name: "read_file" }),
  v({ name: "shell", group: "shell", visibility: "hidden", gate: "host_shell", reason: "no OS confinement is available" }),
  v({ name: "github__create_issue", original_name: "create_issue", source: { kind: "mcp", server: "github" }, group: "mcp", visibility: "deferred", gate: "deferral" }),
  v({ name: "github__list_prs", source: { kind: "mcp", server: "github" }, group: "mcp", visibility: "deferred", gate: "deferral" }),
  v({ name: "jira__search", source: { kind: "mcp", server: "jira" }, group: "mcp", visibility: "deferred", gate: "deferral" }),
  v({ name: "fetch", source: { kind: "web" }, group: "web" }),
  v({ name: "tool_search", reason: "searches the 3 deferred tools" }),
];

describe("groupReport", () => {
  it("splits by verdict, then by source in candidate order", () => {
    const out = groupReport(report);
    expect(out.map((s) => [s.label, s.count, s.total])).toEqual([
      ["Visible", 3, 3],
      ["Deferred", 3, 3],
      ["Hidden", 1, 1],
    ]);
    expect(out[0]?.groups.map((g) => [g.label, g.tools.map((t) => t.name)])).toEqual([
      ["built-in", ["read_file", "tool_search"]],
      ["web", ["fetch"]],
    ]);
    expect(out[1]?.groups.map((g) => [g.key, g.tools.length])).toEqual([
      ["deferred:mcp: github", 2],
      ["deferred:mcp: jira", 1],
    ]);
  });

  it("filters by name, original name and server; every term must match", () => {
    const names = (q: string) => groupReport(report, q).flatMap((s) => s.groups.flatMap((g) => g.tools.map((t) => t.name)));
    expect(names("GITHUB")).toEqual(["github__create_issue", "github__list_prs"]);
    expect(names("jira")).toEqual(["jira__search"]);
    expect(names("github issue")).toEqual(["github__create_issue"]);
    expect(names("nothing-like-this")).toEqual([]);
    expect(names("  ")).toHaveLength(report.length);
    const filtered = groupReport(report, "jira");
    expect(filtered.map((s) => [s.count, s.total])).toEqual([
      [0, 3],
      [1, 3],
      [0, 1],
    ]);
  });

  it("copes with 850 deferred tools", () => {
    const many = Array.from({ length: 850 }, (_, i) =>
      v({ name: `s${i % 17}__tool_${i}`, source: { kind: "mcp", server: `s${i % 17}` }, visibility: "deferred", gate: "deferral" }),
    );
    const [, deferred] = groupReport(many);
    expect(deferred?.count).toBe(850);
    expect(deferred?.groups).toHaveLength(17);
    expect(deferred && groupOpenByDefault(deferred, "")).toBe(false);
    const [, narrowed] = groupReport(many, "s3__");
    expect(narrowed?.count).toBe(50);
    expect(narrowed && groupOpenByDefault(narrowed, "s3__")).toBe(true);
  });
});

describe("labels", () => {
  it.each([
    [{ kind: "builtin" }, "built-in"],
    [{ kind: "config", impl_id: "http" }, "config"],
    [{ kind: "sandbox" }, "sandbox"],
    [{ kind: "web" }, "web"],
    [{ kind: "mcp", server: "github" }, "mcp: github"],
  ] as const)("source %j -> %s", (source, label) => {
    expect(sourceLabel(source)).toBe(label);
  });

  it("names every gate in plain words", () => {
    expect(GATE_LABEL).toEqual({
      agent_tool_groups: "agent tool groups",
      host_shell: "host shell",
      model_capability: "model capability",
      subagent_switch: "subagent switch",
      dedupe: "duplicate name",
      skill_allowed_tools: "skill allowed tools",
      deferral: "deferred",
    });
  });

  it("makes the reason a sentence and never leaves it empty", () => {
    expect(reasonSentence(v({ name: "a" }))).toBe("Passed every gate.");
    expect(reasonSentence(v({ name: "a", reason: "searches the 3 deferred tools" }))).toBe("Searches the 3 deferred tools.");
    expect(reasonSentence(v({ name: "a", reason: "Done." }))).toBe("Done.");
    expect(reasonSentence(v({ name: "a", reason: "config names it `x` but `a` is what the model sees; " }))).toBe(
      "Config names it `x` but `a` is what the model sees.",
    );
    expect(reasonSentence(v({ name: "a", visibility: "hidden", gate: "dedupe" }))).toBe("No reason given.");
  });

  it("matchesFilter ignores case and the group", () => {
    expect(matchesFilter(v({ name: "read_file", group: "fs" }), "READ")).toBe(true);
    expect(matchesFilter(v({ name: "read_file", group: "fs" }), "fs")).toBe(false);
  });
});

describe("matchingAliases", () => {
  const a = (alias: string, canonical: string) => ({
    alias,
    canonical,
    removed_in: "0.3.0",
    target: "visible" as const,
    reason: "calls run it",
  });
  it("filters by old or new name and tolerates reports without aliases", () => {
    const list = [a("list_dir", "ls"), a("open_file", "read_file")];
    expect(matchingAliases(list, "").length).toBe(2);
    expect(matchingAliases(list, "LS").map((x) => x.alias)).toEqual(["list_dir"]);
    expect(matchingAliases(list, "read").map((x) => x.alias)).toEqual(["open_file"]);
    expect(matchingAliases(undefined, "")).toEqual([]);
  });
});
