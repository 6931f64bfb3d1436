/**
 * Tool calls as the chat shows them, derived from the message list alone (no parallel state):
 * which calls are running, done, failed or were interrupted, and short readable forms of names
 * and arguments. `groups.ts` places the calls and their results in the conversation. Pure.
 */
import type { Message } from "../bindings/Message";

export type ToolCallState = "running" | "done" | "failed" | "interrupted" | "waiting";

export type ToolCallStatus = {
  state: ToolCallState;
  /** The `tool` message that answered the call, once there is one. */
  result?: Message;
};

/**
 * The state of every tool call in `messages`, by call id.
 *
 * - A result with `is_error` -> failed; any other result -> done.
 * - No result yet: running while the run is live and the call is in its current turn (the
 *   last assistant message, after the last user message, not stopped or broken); otherwise
 *   interrupted — nothing will answer it any more (a run only moves on to its next turn once
 *   every call of the previous one has a result).
 *
 * - No result and its id in `waiting` (the thread state's pending calls): waiting for the
 *   user's approval.
 *
 * Results may arrive in any order (parallel calls answer in completion order); only
 * `tool_call_id` matters, never position. Hidden messages answer calls like any other but do
 * not start or end a turn.
 */
export function toolCallStates(
  messages: readonly Message[],
  runLive: boolean,
  waiting: ReadonlySet<string> = NONE,
): Map<string, ToolCallStatus> {
  const results = new Map<string, Message>();
  let lastUser = -1;
  let lastAssistant = -1;
  messages.forEach((m, i) => {
    if (m.role === "tool" && m.tool_call_id !== null && !results.has(m.tool_call_id)) results.set(m.tool_call_id, m);
    // A hidden message (a reminder or an image injected for the model) is not a new turn.
    if (m.hidden === true) return;
    if (m.role === "user") lastUser = i;
    if (m.role === "assistant") lastAssistant = i;
  });

  const out = new Map<string, ToolCallStatus>();
  messages.forEach((m, i) => {
    if (m.role !== "assistant") return;
    const live = runLive && i === lastAssistant && i > lastUser && !ENDED.has(m.status);
    for (const call of m.tool_calls) {
      const result = results.get(call.id);
      if (result !== undefined) {
        out.set(call.id, { state: result.is_error ? "failed" : "done", result });
      } else {
        out.set(call.id, { state: waiting.has(call.id) ? "waiting" : live ? "running" : "interrupted" });
      }
    }
  });
  return out;
}

const NONE: ReadonlySet<string> = new Set();

/** Assistant statuses after which none of the message's calls can still be answered. */
const ENDED: ReadonlySet<Message["status"]> = new Set(["cancelled", "interrupted", "error"]);

/** `server__tool` (the MCP naming) split for display; other names have no server. */
export function splitToolName(name: string): { tool: string; server: string | null } {
  const at = name.indexOf("__");
  if (at <= 0 || at + 2 >= name.length) return { tool: name, server: null };
  return { server: name.slice(0, at), tool: name.slice(at + 2) };
}

/** Longest argument summary shown on a row (the full JSON is one click away). */
export const ARG_SUMMARY_MAX = 96;
const VALUE_MAX = 40;

/**
 * A one-line summary of a call's JSON arguments: `path: "src/main.rs", limit: 20`. Nested
 * values are abbreviated; invalid JSON is shown as its raw text. Never longer than `max`.
 */
export function summarizeArgs(json: string, max = ARG_SUMMARY_MAX): string {
  let text: string;
  const parsed = parseJson(json);
  if (!parsed.ok) {
    text = json.replace(/\s+/g, " ").trim();
  } else if (isPlainObject(parsed.value)) {
    text = Object.entries(parsed.value)
      .map(([k, v]) => `${k}: ${shortValue(v)}`)
      .join(", ");
  } else {
    text = shortValue(parsed.value);
  }
  return truncate(text, max);
}

/** The arguments for the expanded view: pretty JSON, or the raw text when it is not JSON. */
export function prettyArgs(json: string): { text: string; valid: boolean } {
  if (json.trim() === "") return { text: "(no arguments)", valid: true };
  const parsed = parseJson(json);
  return parsed.ok ? { text: JSON.stringify(parsed.value, null, 2), valid: true } : { text: json, valid: false };
}

function shortValue(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(truncate(v.replace(/\s+/g, " "), VALUE_MAX));
  if (Array.isArray(v)) return v.length === 0 ? "[]" : `[…${v.length}]`;
  if (isPlainObject(v)) return Object.keys(v).length === 0 ? "{}" : "{…}";
  return String(v);
}

function parseJson(json: string): { ok: true; value: unknown } | { ok: false } {
  if (json.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(json) as unknown };
  } catch {
    return { ok: false };
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}
