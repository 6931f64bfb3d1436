/**
 * The conversation as the chat renders it: the thread's message list grouped into turns, with
 * every tool call's state inferred from the list alone. Pure: no React, no IPC.
 *
 * Groups, in order of the messages they hold:
 * - `human`: one user message.
 * - `assistant:processing`: consecutive assistant messages that call tools or only reason
 *   (the agent working), with their tool results attached to the calls.
 * - `assistant`: an assistant message with text and no tool calls (the answer).
 * - `assistant:present-files` / `assistant:clarification` / `assistant:subagent`: a message
 *   calling present_files / ask_clarification / task. When one message calls more than one of
 *   them, the first of clarification, present-files, subagent wins (a question ends the run,
 *   so it is what the user must see); its other calls are rows of that group.
 *
 * Hidden messages (`hidden: true`: reminders, loop warnings, injected images meant for the
 * model) never show. Their results still count for tool state, so a call answered by one is
 * not shown as running forever; the row just has no result to expand.
 */
import type { Message } from "../bindings/Message";
import type { ToolCall } from "../bindings/ToolCall";
import { toolCallStates, type ToolCallState, type ToolCallStatus } from "./toolCalls";

export type GroupKind =
  | "human"
  | "assistant:processing"
  | "assistant"
  | "assistant:present-files"
  | "assistant:clarification"
  | "assistant:subagent";

/** One row under an assistant message: a call with its inferred state, or an orphan result. */
export type ToolCallRow = {
  /** The call id, or the result message's id for an orphan result. */
  key: string;
  /** null for an orphan result (a `tool` message answering no call in the list). */
  call: ToolCall | null;
  state: ToolCallState;
  result?: Message;
};

/** A message the chat renders, with the tool-call rows shown under it. */
export type ChatItem = { message: Message; rows: ToolCallRow[] };

export type MessageGroup = {
  kind: GroupKind;
  /** Stable across renders and streaming: the id of the group's first message. */
  key: string;
  items: ChatItem[];
  /** The run of the group's last assistant message; null for human groups. */
  runId: string | null;
};

/** The built-in tools whose calls get a group (and a card) of their own. */
export const SPECIAL_TOOLS: ReadonlyArray<readonly [string, GroupKind]> = [
  ["ask_clarification", "assistant:clarification"],
  ["present_files", "assistant:present-files"],
  ["task", "assistant:subagent"],
];

/** Whether the chat never shows this message. */
export function isHidden(m: Message): boolean {
  return m.hidden === true;
}

/** The kind of group an assistant message opens (or joins, for processing). */
export function assistantKind(m: Message): GroupKind {
  for (const [tool, kind] of SPECIAL_TOOLS) {
    if (m.tool_calls.some((c) => c.name === tool)) return kind;
  }
  if (m.tool_calls.length > 0) return "assistant:processing";
  if (m.content === "" && m.reasoning !== "") return "assistant:processing";
  return "assistant";
}

/**
 * Groups `messages` (the thread's list, in order) for display. `runLive`: whether a run of
 * this thread is going on now (calls without a result are running then, interrupted after).
 *
 * - Consecutive processing messages share one group. An empty assistant message still
 *   streaming right after a processing group joins it (the agent's next step, not yet known
 *   to be text or calls); anywhere else it is an `assistant` group (the reply being typed).
 * - A `tool` message attaches to its call's row, wherever that call is. A result whose call
 *   is not in the list (an orphan) becomes a call-less row of the last group before it when
 *   that is an assistant group; otherwise it opens a processing group of its own.
 */
export function groupMessages(
  messages: readonly Message[],
  runLive: boolean,
  waiting: ReadonlySet<string> = new Set(),
): MessageGroup[] {
  const states = toolCallStates(messages, runLive, waiting);
  const groups: MessageGroup[] = [];
  let last: MessageGroup | null = null;

  for (const m of messages) {
    if (isHidden(m)) continue;
    if (m.role === "tool") {
      if (m.tool_call_id !== null && states.has(m.tool_call_id)) continue;
      const row: ToolCallRow = { key: m.id, call: null, state: m.is_error ? "failed" : "done", result: m };
      if (last !== null && last.kind !== "human") {
        const host = last.items[last.items.length - 1];
        if (host !== undefined) {
          host.rows.push(row);
          continue;
        }
      }
      last = { kind: "assistant:processing", key: m.id, items: [{ message: m, rows: [row] }], runId: m.run_id };
      groups.push(last);
      continue;
    }
    if (m.role === "user") {
      last = { kind: "human", key: m.id, items: [{ message: m, rows: [] }], runId: null };
      groups.push(last);
      continue;
    }
    const item: ChatItem = { message: m, rows: m.tool_calls.map((call) => rowOf(call, states.get(call.id))) };
    let kind = assistantKind(m);
    const pendingStep = kind === "assistant" && m.status === "streaming" && m.content === "" && m.reasoning === "";
    if (pendingStep && last?.kind === "assistant:processing") kind = "assistant:processing";
    if (kind === "assistant:processing" && last?.kind === "assistant:processing") {
      last.items.push(item);
      last.runId = m.run_id ?? last.runId;
      continue;
    }
    last = { kind, key: m.id, items: [item], runId: m.run_id };
    groups.push(last);
  }
  return groups;
}

function rowOf(call: ToolCall, status: ToolCallStatus | undefined): ToolCallRow {
  const s = status ?? { state: "interrupted" as const };
  const result = s.result !== undefined && !isHidden(s.result) ? s.result : undefined;
  return result !== undefined ? { key: call.id, call, state: s.state, result } : { key: call.id, call, state: s.state };
}

/** Every row of a group, in order. */
export function groupRows(group: MessageGroup): ToolCallRow[] {
  return group.items.flatMap((i) => i.rows);
}

/**
 * Whether anything in the group is still going: a running call, a call waiting for the user,
 * or a streaming message.
 */
export function groupActive(group: MessageGroup): boolean {
  return group.items.some(
    (i) => i.message.status === "streaming" || i.rows.some((r) => r.state === "running" || r.state === "waiting"),
  );
}

/** Counts of a group's rows by state. */
export function rowCounts(rows: readonly ToolCallRow[]): Record<ToolCallState, number> {
  const out: Record<ToolCallState, number> = { running: 0, done: 0, failed: 0, interrupted: 0, waiting: 0 };
  for (const r of rows) out[r.state] += 1;
  return out;
}

/** Longest list of tool names in a processing summary before "and N more". */
const SUMMARY_NAMES_MAX = 3;

/**
 * The one line a finished processing group collapses to:
 * `3 tool calls: read_file, bash, grep · 1 failed`, or `Thought` for reasoning alone.
 */
export function processingSummary(group: MessageGroup): string {
  const rows = groupRows(group);
  if (rows.length === 0) return group.items.some((i) => i.message.reasoning !== "") ? "Thought" : "Worked";
  const names: string[] = [];
  for (const r of rows) {
    const n = r.call?.name ?? "tool result";
    if (!names.includes(n)) names.push(n);
  }
  const shown = names.slice(0, SUMMARY_NAMES_MAX).join(", ");
  const more = names.length > SUMMARY_NAMES_MAX ? ` and ${names.length - SUMMARY_NAMES_MAX} more` : "";
  const c = rowCounts(rows);
  const noun = rows.length === 1 ? "tool call" : "tool calls";
  const tail = [c.failed > 0 ? `${c.failed} failed` : "", c.interrupted > 0 ? `${c.interrupted} interrupted` : "", c.waiting > 0 ? `${c.waiting} waiting for you` : ""]
    .filter((s) => s !== "")
    .join(", ");
  return `${rows.length} ${noun}: ${shown}${more}${tail === "" ? "" : ` · ${tail}`}`;
}

/**
 * Keeps the group objects of `prev` that did not change, so a renderer that compares by
 * identity redraws only what a streaming event touched. Two groups are the same when their
 * kind, run and items match: the same message objects (the reducer replaces a message it
 * changes) and rows with the same call, state and result objects.
 */
export function reuseGroups(prev: readonly MessageGroup[], next: MessageGroup[]): MessageGroup[] {
  if (prev.length === 0) return next;
  const byKey = new Map(prev.map((g) => [g.key, g]));
  return next.map((g) => {
    const old = byKey.get(g.key);
    return old !== undefined && sameGroup(old, g) ? old : g;
  });
}

function sameGroup(a: MessageGroup, b: MessageGroup): boolean {
  if (a.kind !== b.kind || a.runId !== b.runId || a.items.length !== b.items.length) return false;
  return a.items.every((ai, i) => {
    const bi = b.items[i];
    if (bi === undefined || ai.message !== bi.message || ai.rows.length !== bi.rows.length) return false;
    return ai.rows.every((ar, j) => {
      const br = bi.rows[j];
      return br !== undefined && ar.key === br.key && ar.call === br.call && ar.state === br.state && ar.result === br.result;
    });
  });
}

/** The index of the last group of each run: where that run's token usage is shown. */
export function lastGroupOfRun(groups: readonly MessageGroup[]): Map<string, number> {
  const out = new Map<string, number>();
  groups.forEach((g, i) => {
    if (g.runId !== null) out.set(g.runId, i);
  });
  return out;
}
