/**
 * The message list of the open thread, and the one reducer that folds run events into it.
 * Pure: no React, no IPC. The list it returns is the single source of truth the chat renders.
 */
import type { Message } from "../bindings/Message";
import type { MessageStatus } from "../bindings/MessageStatus";
import type { RunEvent } from "../bindings/RunEvent";
import type { ThreadState } from "../bindings/ThreadState";

/**
 * Folds one run event into `messages`.
 *
 * - `message_added` inserts the message, or replaces the one with the same id. Tool results
 *   (role `tool`) arrive this way too, in completion order; they are kept in the list and the
 *   chat attaches them to their calls (see `toolCalls.ts`).
 * - `delta` appends to the content (or the reasoning) of the message it names.
 * - `message_updated` replaces the message with the same id (the final text wins).
 * - Events naming a message that is not in the list (a delta for another thread, a late
 *   update after a reload) change nothing.
 * - When `threadId` is given, messages of any other thread are ignored.
 * - `state_updated` carries thread state, not messages (see `applyThreadState`).
 *
 * Returns the same array when nothing changed, so callers can skip a render.
 */
export function applyRunEvent(messages: Message[], event: RunEvent, threadId?: string): Message[] {
  switch (event.type) {
    case "message_added": {
      const msg = event.message;
      if (threadId !== undefined && msg.thread_id !== threadId) return messages;
      const at = messages.findIndex((m) => m.id === msg.id);
      if (at === -1) return [...messages, msg];
      return replaceAt(messages, at, msg);
    }
    case "delta": {
      if (event.text === "") return messages;
      const at = messages.findIndex((m) => m.id === event.message_id);
      const old = messages[at];
      if (old === undefined) return messages;
      const next: Message = event.reasoning
        ? { ...old, reasoning: old.reasoning + event.text }
        : { ...old, content: old.content + event.text };
      return replaceAt(messages, at, next);
    }
    case "message_updated": {
      const msg = event.message;
      if (threadId !== undefined && msg.thread_id !== threadId) return messages;
      const at = messages.findIndex((m) => m.id === msg.id);
      if (at === -1) return messages;
      return replaceAt(messages, at, msg);
    }
    case "run_started":
    case "usage":
    case "state_updated":
    case "run_finished":
      return messages;
    default:
      // A newer backend may send event types this UI does not know yet.
      return messages;
  }
}

/**
 * Folds a run event into the open thread's state: `state_updated` for that thread replaces
 * it; anything else (or another thread's update) returns `state` unchanged.
 */
export function applyThreadState(state: ThreadState | null, event: RunEvent, threadId: string | null): ThreadState | null {
  if (event.type !== "state_updated" || threadId === null || event.thread_id !== threadId) return state;
  return event.state;
}

function replaceAt(messages: Message[], at: number, msg: Message): Message[] {
  const next = messages.slice();
  next[at] = msg;
  return next;
}

/**
 * When a run ends without a final `message_updated` for a message still marked streaming
 * (the channel closed early), the UI must not show it streaming forever.
 */
export function settleStreaming(messages: Message[], status: MessageStatus): Message[] {
  if (!messages.some((m) => m.status === "streaming")) return messages;
  return messages.map((m) => (m.status === "streaming" ? { ...m, status } : m));
}

/** The short note shown under a message, or null when its status needs none. */
export function statusNote(msg: Message): string | null {
  switch (msg.status) {
    case "cancelled":
      return "stopped";
    case "interrupted":
      return "interrupted — the app closed while this reply was streaming";
    case "error":
      return msg.error?.trim() || "The reply failed.";
    default:
      return null;
  }
}
