import { describe, expect, it } from "vitest";
import type { ApprovalPolicy } from "../bindings/ApprovalPolicy";
import type { ToolVerdict } from "../bindings/ToolVerdict";
import type { VisibilityReport } from "../bindings/VisibilityReport";
import {
  SAVED_NOTICE,
  UNLISTED_GROUP,
  createPermissionsStore,
  decide,
  permissionRows,
  withGroupRule,
  withToolRule,
  type PermissionsApi,
} from "./permissions";

const none: ApprovalPolicy = { tools: {}, groups: {} };

const verdict = (name: string, group: string): ToolVerdict => ({
  name,
  original_name: null,
  source: { kind: "sandbox" },
  group,
  visibility: "visible",
  gate: null,
  reason: "visible",
});
const report = (...tools: [string, string][]): VisibilityReport => ({
  tools: tools.map(([n, g]) => verdict(n, g)),
  catalog_hash: null,
  problems: [],
  aliases: [],
});

describe("decide (as approvals.rs)", () => {
  it("defaults: shell and network ask, follow-ups and the rest allowed", () => {
    expect(decide(none, "bash", "bash")).toMatchObject({ permission: "ask", source: "default" });
    expect(decide(none, "web_fetch", "web").permission).toBe("ask");
    expect(decide(none, "job_output", "bash")).toMatchObject({ permission: "allow", why: "follow-up of an approved command" });
    expect(decide(none, "write_file", "file")).toMatchObject({ permission: "allow", why: "allowed by default" });
  });
  it("a tool rule beats a group rule beats the defaults", () => {
    const p: ApprovalPolicy = { tools: { bash: "allow" }, groups: { bash: "never", file: "ask" } };
    expect(decide(p, "bash", "bash")).toMatchObject({ permission: "allow", source: "tool", why: "`bash` is set to always allow" });
    expect(decide(p, "job_output", "bash")).toMatchObject({ permission: "never", source: "group" });
    expect(decide(p, "read_file", "file")).toMatchObject({ permission: "ask", why: "group `file` is set to ask" });
  });
  it("setting a rule to null removes it without touching the rest", () => {
    const p = withToolRule(withGroupRule(none, "mcp", "never"), "bash", "allow");
    expect(p).toEqual({ tools: { bash: "allow" }, groups: { mcp: "never" } });
    expect(withToolRule(p, "bash", null)).toEqual({ tools: {}, groups: { mcp: "never" } });
    expect(withGroupRule(p, "mcp", null)).toEqual({ tools: { bash: "allow" }, groups: {} });
    expect(p.tools).toEqual({ bash: "allow" });
  });
});

describe("permission rows", () => {
  it("groups the report's tools, groups that ask by default first", () => {
    const rows = permissionRows(report(["write_file", "file"], ["bash", "bash"], ["read_file", "file"], ["gh__issue", "mcp"]), none);
    expect(rows.map((r) => r.group)).toEqual(["bash", "web", "network", "file", "mcp"]);
    expect(rows[0]).toMatchObject({ rule: null, fallback: "ask" });
    expect(rows[3]?.tools.map((t) => t.name)).toEqual(["read_file", "write_file"]);
    expect(rows[3]?.fallback).toBe("allow");
  });
  it("keeps rules for tools and groups no longer listed, so they can be cleared", () => {
    const p: ApprovalPolicy = { tools: { old__tool: "never", bash: "allow" }, groups: { git: "ask" } };
    const rows = permissionRows(report(["bash", "bash"]), p);
    expect(rows.map((r) => r.group)).toEqual(["bash", "web", "network", "git", UNLISTED_GROUP]);
    expect(rows.at(-1)?.tools).toEqual([{ name: "old__tool", rule: "never", decision: expect.objectContaining({ permission: "never" }) }]);
    expect(rows[0]?.tools[0]).toMatchObject({ name: "bash", rule: "allow" });
  });
  it("without a report the default groups are still there to set", () => {
    expect(permissionRows(null, none).map((r) => r.group)).toEqual(["bash", "web", "network"]);
  });
});

function fakeApi(over: Partial<PermissionsApi> = {}) {
  const saved: ApprovalPolicy[] = [];
  const shells: { allow_network: boolean; allow_unconfined: boolean }[] = [];
  const api: PermissionsApi = {
    approvalPolicy: async () => ({ tools: {}, groups: { mcp: "ask" } }),
    setApprovalPolicy: async (p) => void saved.push(p),
    explainTools: async () => report(["bash", "bash"]),
    shellSettings: async () => ({ allow_network: false, allow_unconfined: false, confinement: "landlock+seccomp-net" }),
    setShellSettings: async (s) => void shells.push(s),
    ...over,
  };
  return { api, saved, shells };
}

describe("permissions store", () => {
  it("loads the rules, the tools and the shell switches; saves each change", async () => {
    const { api, saved, shells } = fakeApi();
    const s = createPermissionsStore(api);
    await s.load();
    expect(s.getState()).toMatchObject({ loading: false, policy: { groups: { mcp: "ask" } }, error: null });
    await s.setGroup("bash", "never");
    await s.setTool("bash", "allow");
    expect(saved).toEqual([
      { tools: {}, groups: { mcp: "ask", bash: "never" } },
      { tools: { bash: "allow" }, groups: { mcp: "ask", bash: "never" } },
    ]);
    expect(s.getState().notice).toBe(SAVED_NOTICE);
    await s.setShell({ allow_network: true });
    expect(shells).toEqual([{ allow_network: true, allow_unconfined: false }]);
    expect(s.getState().shell).toMatchObject({ allow_network: true, confinement: "landlock+seccomp-net" });
  });

  it("a refused change is undone on screen with the backend's sentence", async () => {
    const { api } = fakeApi({
      setApprovalPolicy: () => Promise.reject("database is locked"),
      setShellSettings: () => Promise.reject("the settings could not be saved: disk full"),
    });
    const s = createPermissionsStore(api);
    await s.load();
    await s.setGroup("file", "never");
    expect(s.getState().policy).toEqual({ tools: {}, groups: { mcp: "ask" } });
    expect(s.getState().error).toBe("database is locked");
    await s.setShell({ allow_network: true });
    expect(s.getState().shell?.allow_network).toBe(false);
    expect(s.getState().error).toBe("the settings could not be saved: disk full");
  });

  it("saves reach the backend in the order they were made", async () => {
    const order: string[] = [];
    let first = true;
    const { api } = fakeApi({
      setApprovalPolicy: async (p) => {
        if (first) {
          first = false;
          await new Promise((r) => setTimeout(r, 20));
        }
        order.push(JSON.stringify(p.groups));
      },
    });
    const s = createPermissionsStore(api);
    await s.load();
    const a = s.setGroup("bash", "allow");
    const b = s.setGroup("bash", "never");
    await Promise.all([a, b]);
    expect(order).toEqual(['{"mcp":"ask","bash":"allow"}', '{"mcp":"ask","bash":"never"}']);
  });

  it("a tool list that fails to load leaves the rules editable and says why", async () => {
    const { api } = fakeApi({ explainTools: () => Promise.reject("the agent `x` does not exist") });
    const s = createPermissionsStore(api);
    await s.load();
    expect(s.getState()).toMatchObject({ report: null, reportError: "the agent `x` does not exist", error: null });
    expect(s.getState().shell).not.toBeNull();
  });
});
