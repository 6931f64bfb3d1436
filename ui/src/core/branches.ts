/**
 * Branches of a thread (a past message edited and sent again makes one): the pure parts the
 * chat draws from.
 */
import type { BranchLink } from "../bindings/BranchLink";
import type { Message } from "../bindings/Message";

/** The branches made from a thread, grouped by the user message each one edited, in order. */
export function branchesByMessage(branches: readonly BranchLink[]): ReadonlyMap<string, readonly BranchLink[]> {
  const out = new Map<string, BranchLink[]>();
  for (const b of branches) {
    const list = out.get(b.message_id);
    if (list === undefined) out.set(b.message_id, [b]);
    else list.push(b);
  }
  return out;
}

/**
 * Whether the thread has a reply to regenerate: a message the user wrote, and the thread is
 * not answering. (A last user message with no reply, after a failed start, also counts:
 * regenerating then answers it.)
 */
export function canRegenerate(messages: readonly Message[], running: boolean): boolean {
  return !running && messages.some((m) => m.role === "user" && !m.hidden);
}
