/** Sidebar helpers: ordering and running marks for the thread list. Pure. */
import type { ThreadSearchHit } from "../bindings/ThreadSearchHit";
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

/**
 * The threads whose title contains every word of `query`, ignoring case and accents; all of
 * them for a blank query. Order is kept.
 */
export function filterThreads(threads: readonly ThreadSummary[], query: string): ThreadSummary[] {
  const words = fold(query).split(/\s+/).filter((w) => w !== "");
  if (words.length === 0) return [...threads];
  return threads.filter((t) => {
    const title = fold(t.title);
    return words.every((w) => title.includes(w));
  });
}

/** Lower case without diacritics, so "resume" finds "Résumé". */
function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** A thread in the sidebar's search results, with the excerpt that matched its messages. */
export type SearchRow = { thread: ThreadSummary; snippet: string };

/**
 * The sidebar's list while searching: title matches from the loaded list first (at once, and
 * still when content search failed), then the threads the backend found by their messages.
 * The loaded list's copy of a thread wins (it has the latest title and running mark); a hit
 * for a thread no longer in the list is dropped (deleted meanwhile).
 */
export function searchRows(threads: readonly ThreadSummary[], query: string, hits: readonly ThreadSearchHit[] | null): SearchRow[] {
  const snippets = new Map((hits ?? []).map((h) => [h.thread.id, h.snippet]));
  const rows: SearchRow[] = filterThreads(threads, query).map((t) => ({ thread: t, snippet: snippets.get(t.id) ?? "" }));
  const shown = new Set(rows.map((r) => r.thread.id));
  const byId = new Map(threads.map((t) => [t.id, t]));
  for (const h of hits ?? []) {
    const t = byId.get(h.thread.id);
    if (t === undefined || shown.has(t.id)) continue;
    shown.add(t.id);
    rows.push({ thread: t, snippet: h.snippet });
  }
  return rows;
}
