/**
 * What an approval prompt shows for a tool call: a shell command as a code block, a file
 * change as a diff, anything else as its arguments. Pure, so it is tested without a window.
 */
import type { PendingCall } from "../bindings/PendingCall";
import type { ToolCall } from "../bindings/ToolCall";

export type DiffLine = { sign: "+" | "-" | " " | "@"; text: string };

export type ApprovalPreview =
  | { kind: "command"; command: string; background: boolean }
  | { kind: "diff"; path: string; note: string | null; lines: DiffLine[] }
  | { kind: "arguments"; text: string };

function parseArgs(raw: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(raw.trim() === "" ? "{}" : raw);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

function signed(sign: "+" | "-", text: string): DiffLine[] {
  return text.split("\n").map((line) => ({ sign, text: line }));
}

/** The lines of an `apply_patch` patch, with file headers marked as `@`. */
function patchLines(patch: string): DiffLine[] {
  return patch.split("\n").map((line): DiffLine => {
    const first = line.charAt(0);
    if (line.startsWith("***") || line.startsWith("@@")) return { sign: "@", text: line };
    if (first === "+" || first === "-") return { sign: first, text: line.slice(1) };
    return { sign: " ", text: line.startsWith(" ") ? line.slice(1) : line };
  });
}

/** How to show `call` to the user who must approve it. Never throws, whatever the model sent. */
export function approvalPreview(call: ToolCall): ApprovalPreview {
  const args = parseArgs(call.arguments);
  if (args === null) return { kind: "arguments", text: call.arguments };
  const path = str(args.path) ?? "";
  switch (call.name) {
    case "bash": {
      const command = str(args.command);
      if (command !== null) return { kind: "command", command, background: args.background === true };
      break;
    }
    case "str_replace": {
      const oldText = str(args.old_string);
      const newText = str(args.new_string);
      if (oldText !== null && newText !== null) {
        const note = args.replace_all === true ? "every occurrence" : null;
        return { kind: "diff", path, note, lines: [...signed("-", oldText), ...signed("+", newText)] };
      }
      break;
    }
    case "write_file": {
      const content = str(args.content);
      if (content !== null) {
        const note = args.append === true || args.mode === "append" ? "appended" : "whole file";
        return { kind: "diff", path, note, lines: signed("+", content.replace(/\n$/, "")) };
      }
      break;
    }
    case "apply_patch": {
      const patch = str(args.patch) ?? str(args.input);
      if (patch !== null) return { kind: "diff", path: "", note: null, lines: patchLines(patch.replace(/\n$/, "")) };
      break;
    }
  }
  return { kind: "arguments", text: JSON.stringify(args, null, 2) };
}

/** The approvals still waiting for an answer, oldest first. */
export function openApprovals(pending: readonly PendingCall[] | undefined): PendingCall[] {
  return (pending ?? []).filter((p) => p.question === null && p.decision === null);
}

/** The agent's questions still waiting for an answer, oldest first. */
export function openQuestions(pending: readonly PendingCall[] | undefined): PendingCall[] {
  return (pending ?? []).filter((p) => p.question !== null && p.answer === null);
}

/** Whether the user has answered `p` (an approval decided, or a question answered). */
export function isAnswered(p: PendingCall): boolean {
  return p.question !== null ? p.answer !== null : p.decision !== null;
}

/** A heading for each kind of question. */
export const QUESTION_KIND: Record<NonNullable<PendingCall["question"]>["clarification_type"], string> = {
  missing_info: "Missing information",
  ambiguous_requirement: "Needs clarifying",
  approach_choice: "Choose an approach",
  risk_confirmation: "Please confirm",
  suggestion: "Suggestion",
};

/** Where the tool comes from, for the prompt's subtitle. */
export function sourceLabel(p: PendingCall): string {
  switch (p.source.kind) {
    case "mcp":
      return `MCP server ${p.source.server}`;
    case "sandbox":
      return "sandbox";
    case "web":
      return "web";
    case "config":
      return "configured tool";
    default:
      return "built-in";
  }
}
