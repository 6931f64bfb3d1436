/** Sidebar helpers: ordering and running marks for the thread list. Pure. */
import type { ThreadSummary } from "../bindings/ThreadSummary";

/** Newest activity first; ties broken by id so the order is stable. */
export function sortThreads(threads: readonly ThreadSummary[]): ThreadSummary[] {
  return [...threads].sort((a, b) => b.updated_at - a.updated_at || a.id.localeCompare(b.id));
}

/**
 * Marks threads running: the backend's flag, or a run this window started and has not seen
 * finish. Returns sorted threads.
 */
export function markRunning(
  threads: readonly ThreadSummary[],
  liveThreadIds: ReadonlySet<string>,
): ThreadSummary[] {
  return sortThreads(
    threads.map((t) =>
      liveThreadIds.has(t.id) && !t.running ? { ...t, running: true } : t,
    ),
  );
}

/** Inserts or replaces one summary, keeping the list sorted. */
export function upsertThread(
  threads: readonly ThreadSummary[],
  summary: ThreadSummary,
): ThreadSummary[] {
  const rest = threads.filter((t) => t.id !== summary.id);
  return sortThreads([...rest, summary]);
}

/** Patches one thread; unknown ids leave the list as it was. */
export function patchThread(
  threads: readonly ThreadSummary[],
  id: string,
  patch: Partial<Omit<ThreadSummary, "id">>,
): ThreadSummary[] {
  if (!threads.some((t) => t.id === id)) return [...threads];
  return sortThreads(threads.map((t) => (t.id === id ? { ...t, ...patch } : t)));
}
