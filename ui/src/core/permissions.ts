/**
 * Settings -> Permissions: the approval rules per group and per tool (allow / ask / never) and
 * the shell's switches, as a small external store. `decide` mirrors
 * crates/core/src/middleware/approvals.rs `ApprovalPolicy::decide` so the page shows what a
 * call would get; the backend stays the one that applies it.
 */
import type { ApprovalPolicy } from "../bindings/ApprovalPolicy";
import type { Permission } from "../bindings/Permission";
import type { VisibilityReport } from "../bindings/VisibilityReport";
import { errorText, type Api, type ShellSettings, type ShellSettingsView } from "./api";

export type PermissionsApi = Pick<Api, "approvalPolicy" | "setApprovalPolicy" | "explainTools" | "shellSettings" | "setShellSettings">;

/** Groups that ask by default (approvals.rs ASK_BY_DEFAULT). */
export const ASK_BY_DEFAULT: readonly string[] = ["bash", "web", "network"];
/** Tools that act only on what an approved call started (approvals.rs FOLLOW_UP_TOOLS). */
export const FOLLOW_UP_TOOLS: readonly string[] = ["job_output", "job_cancel"];

export const PERMISSIONS: readonly Permission[] = ["allow", "ask", "never"];

/** The words the page and the backend use for each permission. */
export function permissionWord(p: Permission): string {
  return p === "allow" ? "always allow" : p === "ask" ? "ask" : "never";
}

/** Which rule decided a tool's permission. */
export type RuleSource = "tool" | "group" | "default";

export type Decision = { permission: Permission; source: RuleSource; why: string };

/** A group's permission when no rule names it. */
export function groupDefault(group: string): Permission {
  return ASK_BY_DEFAULT.includes(group) ? "ask" : "allow";
}

/** What `policy` says for tool `name` of `group`: a tool rule, then a group rule, then the defaults. */
export function decide(policy: ApprovalPolicy, name: string, group: string): Decision {
  const tool = policy.tools[name];
  if (tool !== undefined) return { permission: tool, source: "tool", why: `\`${name}\` is set to ${permissionWord(tool)}` };
  const byGroup = policy.groups[group];
  if (byGroup !== undefined) {
    return { permission: byGroup, source: "group", why: `group \`${group}\` is set to ${permissionWord(byGroup)}` };
  }
  if (FOLLOW_UP_TOOLS.includes(name)) return { permission: "allow", source: "default", why: "follow-up of an approved command" };
  if (ASK_BY_DEFAULT.includes(group)) {
    return { permission: "ask", source: "default", why: `tools of group \`${group}\` ask by default` };
  }
  return { permission: "allow", source: "default", why: "allowed by default" };
}

function withRule(rules: ApprovalPolicy["tools"], key: string, p: Permission | null): ApprovalPolicy["tools"] {
  const next = { ...rules };
  if (p === null) delete next[key];
  else next[key] = p;
  return next;
}

/** `policy` with tool `name` set to `p`, or following its group again when `p` is null. */
export function withToolRule(policy: ApprovalPolicy, name: string, p: Permission | null): ApprovalPolicy {
  return { ...policy, tools: withRule(policy.tools, name, p) };
}

/** `policy` with `group` set to `p`, or back to the default when `p` is null. */
export function withGroupRule(policy: ApprovalPolicy, group: string, p: Permission | null): ApprovalPolicy {
  return { ...policy, groups: withRule(policy.groups, group, p) };
}

export type ToolRow = { name: string; rule: Permission | null; decision: Decision };
export type GroupRow = { group: string; rule: Permission | null; fallback: Permission; tools: ToolRow[] };

/** The group of tools a rule names but the report no longer lists (an MCP server that is off). */
export const UNLISTED_GROUP = "not available now";

/**
 * The page's rows: every group of the report's tools (and every group or tool a rule names,
 * so old rules can be cleared), groups that ask by default first, then by name; tools by name.
 */
export function permissionRows(report: VisibilityReport | null, policy: ApprovalPolicy): GroupRow[] {
  const groups = new Map<string, Set<string>>();
  const add = (group: string, tool: string | null) => {
    const set = groups.get(group) ?? new Set<string>();
    if (tool !== null) set.add(tool);
    groups.set(group, set);
  };
  for (const g of ASK_BY_DEFAULT) add(g, null);
  const groupOf = new Map<string, string>();
  for (const t of report?.tools ?? []) {
    groupOf.set(t.name, t.group);
    add(t.group, t.name);
  }
  for (const g of Object.keys(policy.groups)) add(g, null);
  for (const name of Object.keys(policy.tools)) add(groupOf.get(name) ?? UNLISTED_GROUP, name);
  // Groups with nothing in them and no rule are noise, except those asking by default (the
  // user may set them before such a tool is installed).
  const shown = [...groups.entries()].filter(
    ([g, tools]) => tools.size > 0 || policy.groups[g] !== undefined || ASK_BY_DEFAULT.includes(g),
  );
  const rank = (g: string) => (ASK_BY_DEFAULT.includes(g) ? ASK_BY_DEFAULT.indexOf(g) : g === UNLISTED_GROUP ? 1000 : 100);
  shown.sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  return shown.map(([group, tools]) => ({
    group,
    rule: policy.groups[group] ?? null,
    fallback: groupDefault(group),
    tools: [...tools].sort().map((name) => ({ name, rule: policy.tools[name] ?? null, decision: decide(policy, name, group) })),
  }));
}

export type PermissionsState = {
  loading: boolean;
  policy: ApprovalPolicy;
  /** The tools of a new thread's next run; null when they could not be listed. */
  report: VisibilityReport | null;
  /** Why the tools could not be listed (the rules can still be changed by group). */
  reportError: string | null;
  shell: ShellSettingsView | null;
  /** Loading or saving failed: the backend's sentence. A refused change is undone on screen. */
  error: string | null;
  /** Shown after a saved change. */
  notice: string | null;
};

export const initialPermissionsState: PermissionsState = {
  loading: true,
  policy: { tools: {}, groups: {} },
  report: null,
  reportError: null,
  shell: null,
  error: null,
  notice: null,
};

/** Said after a change: runs going now keep the rules they started with. */
export const SAVED_NOTICE = "Saved. New tool calls follow this from the next run.";

export function createPermissionsStore(api: PermissionsApi) {
  let state = initialPermissionsState;
  const listeners = new Set<() => void>();
  const set = (patch: Partial<PermissionsState>) => {
    state = { ...state, ...patch };
    for (const l of listeners) l();
  };
  /** Saves are chained so they reach the backend in the order they were made. */
  let chain: Promise<unknown> = Promise.resolve();

  function savePolicy(next: ApprovalPolicy): Promise<void> {
    const before = state.policy;
    set({ policy: next, error: null, notice: null });
    const done = chain.then(async () => {
      try {
        await api.setApprovalPolicy(next);
        set({ notice: SAVED_NOTICE });
      } catch (err) {
        // Only undo on screen what this save put there.
        if (state.policy === next) set({ policy: before });
        set({ error: errorText(err) });
      }
    });
    chain = done;
    return done;
  }

  return {
    getState: (): PermissionsState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async load(): Promise<void> {
      set({ loading: true, error: null });
      const [policy, report, shell] = await Promise.allSettled([api.approvalPolicy(), api.explainTools(null, null, null), api.shellSettings()]);
      set({
        loading: false,
        policy: policy.status === "fulfilled" ? policy.value : state.policy,
        report: report.status === "fulfilled" ? report.value : null,
        reportError: report.status === "rejected" ? errorText(report.reason) : null,
        shell: shell.status === "fulfilled" ? shell.value : null,
        error:
          policy.status === "rejected" ? errorText(policy.reason) : shell.status === "rejected" ? errorText(shell.reason) : null,
      });
    },
    setGroup(group: string, p: Permission | null): Promise<void> {
      return savePolicy(withGroupRule(state.policy, group, p));
    },
    setTool(name: string, p: Permission | null): Promise<void> {
      return savePolicy(withToolRule(state.policy, name, p));
    },
    /** Changes one shell switch; a refusal puts it back and shows why. */
    async setShell(patch: Partial<ShellSettings>): Promise<void> {
      const before = state.shell;
      if (before === null) return;
      const next = { ...before, ...patch };
      set({ shell: next, error: null, notice: null });
      try {
        await api.setShellSettings({ allow_network: next.allow_network, allow_unconfined: next.allow_unconfined });
        set({ notice: SAVED_NOTICE });
      } catch (err) {
        if (state.shell === next) set({ shell: before });
        set({ error: errorText(err) });
      }
    },
  };
}
