/**
 * The tools inspector's view of a `VisibilityReport`: plain-word labels for sources and gates,
 * the filter, and the grouping (verdict -> source) that keeps an 850-tool report cheap to
 * render. Pure: no React, no IPC.
 */
import type { AliasVerdict } from "../bindings/AliasVerdict";
import type { Gate } from "../bindings/Gate";
import type { ToolSource } from "../bindings/ToolSource";
import type { ToolVerdict } from "../bindings/ToolVerdict";
import type { Visibility } from "../bindings/Visibility";

export const VISIBILITIES: readonly Visibility[] = ["visible", "deferred", "hidden"];

export const VISIBILITY_LABEL: Record<Visibility, string> = {
  visible: "Visible",
  deferred: "Deferred",
  hidden: "Hidden",
};

export const GATE_LABEL: Record<Gate, string> = {
  agent_tool_groups: "agent tool groups",
  host_shell: "host shell",
  model_capability: "model capability",
  subagent_switch: "subagent switch",
  dedupe: "duplicate name",
  skill_allowed_tools: "skill allowed tools",
  deferral: "deferred",
};

export function sourceLabel(source: ToolSource): string {
  switch (source.kind) {
    case "builtin":
      return "built-in";
    case "config":
      return "config";
    case "sandbox":
      return "sandbox";
    case "web":
      return "web";
    case "mcp":
      return `mcp: ${source.server}`;
    default:
      // A newer backend may know sources this UI does not.
      return (source as { kind: string }).kind;
  }
}

/** The reason as a sentence: capitalised, ending in a full stop; never empty. */
export function reasonSentence(v: ToolVerdict): string {
  // Reasons are built from fragments and may end in a dangling separator ("…sees; ").
  const text = v.reason.trim().replace(/[\s;,:]+$/, "");
  if (text === "") return v.visibility === "visible" ? "Passed every gate." : "No reason given.";
  const first = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/**
 * Whether `v` matches the filter: every whitespace-separated term must occur (case-insensitive)
 * in its name, its original name or its MCP server.
 */
export function matchesFilter(v: ToolVerdict, query: string): boolean {
  const terms = query.toLowerCase().split(/\s+/).filter((t) => t !== "");
  if (terms.length === 0) return true;
  const hay = [v.name, v.original_name ?? "", v.source.kind === "mcp" ? v.source.server : ""].join("\n").toLowerCase();
  return terms.every((t) => hay.includes(t));
}

export type VerdictGroup = {
  /** Stable across filters: `${visibility}:${label}`. */
  key: string;
  /** The source label shared by the group's tools ("built-in", "mcp: github"). */
  label: string;
  tools: ToolVerdict[];
};

export type VerdictSection = {
  visibility: Visibility;
  label: string;
  /** Tools in this section after the filter. */
  count: number;
  /** Tools in this section before the filter. */
  total: number;
  groups: VerdictGroup[];
};

/**
 * The report as the inspector lists it: one section per verdict (Visible, Deferred, Hidden,
 * always all three), each split by source in candidate order, after the filter.
 */
export function groupReport(tools: readonly ToolVerdict[], query = ""): VerdictSection[] {
  const sections = VISIBILITIES.map((visibility) => ({
    visibility,
    label: VISIBILITY_LABEL[visibility],
    count: 0,
    total: 0,
    groups: [] as VerdictGroup[],
    byLabel: new Map<string, VerdictGroup>(),
  }));
  for (const v of tools) {
    const section = sections[VISIBILITIES.indexOf(v.visibility)];
    if (section === undefined) continue; // an unknown verdict from a newer backend
    section.total++;
    if (!matchesFilter(v, query)) continue;
    section.count++;
    const label = sourceLabel(v.source);
    let group = section.byLabel.get(label);
    if (group === undefined) {
      group = { key: `${v.visibility}:${label}`, label, tools: [] };
      section.byLabel.set(label, group);
      section.groups.push(group);
    }
    group.tools.push(v);
  }
  return sections.map(({ byLabel: _unused, ...rest }) => rest);
}

/** Sections up to this size are listed open; larger ones start with their groups collapsed. */
export const OPEN_SECTION_MAX = 40;
/** With a filter, everything is listed open while this few tools match. */
export const OPEN_FILTERED_MAX = 200;

/** Whether a group starts open (before the user toggles it). */
export function groupOpenByDefault(section: VerdictSection, query: string): boolean {
  const matched = query.trim() !== "";
  if (matched) return section.count <= OPEN_FILTERED_MAX;
  return section.total <= OPEN_SECTION_MAX || section.groups.length === 1;
}

/**
 * The report's aliases that match the filter (by old or new name). Older backends send no
 * `aliases` field.
 */
export function matchingAliases(aliases: readonly AliasVerdict[] | undefined, query: string): AliasVerdict[] {
  const terms = query.toLowerCase().split(/\s+/).filter((t) => t !== "");
  return (aliases ?? []).filter((a) => {
    const hay = `${a.alias}\n${a.canonical}`.toLowerCase();
    return terms.every((t) => hay.includes(t));
  });
}
