/** Builders for tests: messages and events with sensible defaults. */
import type { Message } from "../bindings/Message";
import type { RunEvent } from "../bindings/RunEvent";
import type { ThreadState } from "../bindings/ThreadState";
import type { ToolCall } from "../bindings/ToolCall";

export function msg(over: Partial<Message> & Pick<Message, "id">): Message {
  return {
    thread_id: "t1",
    run_id: null,
    role: "assistant",
    content: "",
    reasoning: "",
    tool_calls: [],
    tool_call_id: null,
    is_error: false,
    status: "complete",
    error: null,
    created_at: 1_000,
    hidden: false,
    ...over,
  };
}

/** A tool call with JSON arguments. */
export function call(id: string, name: string, args: unknown = {}): ToolCall {
  return { id, name, arguments: JSON.stringify(args) };
}

/** The `tool` message answering `callId`. */
export function result(id: string, callId: string, content: string, isError = false, over: Partial<Message> = {}): Message {
  return msg({ id, role: "tool", run_id: "r1", tool_call_id: callId, content, is_error: isError, ...over });
}

export const ev = {
  started: (thread_id = "t1", run_id = "r1"): RunEvent => ({ type: "run_started", run_id, thread_id }),
  added: (message: Message): RunEvent => ({ type: "message_added", message }),
  delta: (message_id: string, text: string, reasoning = false): RunEvent => ({
    type: "delta",
    message_id,
    text,
    reasoning,
  }),
  updated: (message: Message): RunEvent => ({ type: "message_updated", message }),
  state: (state: ThreadState, thread_id = "t1"): RunEvent => ({ type: "state_updated", thread_id, state }),
  usage: (run_id = "r1"): RunEvent => ({ type: "usage", run_id, usage: { input_tokens: 1, output_tokens: 2 } }),
  finished: (
    outcome: "completed" | "cancelled" | "failed",
    error: string | null = null,
    thread_id = "t1",
    run_id = "r1",
  ): RunEvent => ({ type: "run_finished", run_id, thread_id, outcome, error }),
};
