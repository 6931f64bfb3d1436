/**
 * The backend as the core sees it: one method per Tauri command. `src/ipc.ts` implements it
 * over `invoke`; tests implement it with fakes, so the store is tested without a window.
 */
import type { DetectedServer } from "../bindings/DetectedServer";
import type { ProviderSettings } from "../bindings/ProviderSettings";
import type { ProviderStatus } from "../bindings/ProviderStatus";
import type { RunEvent } from "../bindings/RunEvent";
import type { Thread } from "../bindings/Thread";
import type { ThreadSearchHit } from "../bindings/ThreadSearchHit";
import type { ThreadSummary } from "../bindings/ThreadSummary";
import type { ThreadView } from "../bindings/ThreadView";
import type { VisibilityReport } from "../bindings/VisibilityReport";

export interface Api {
  providerStatus(): Promise<ProviderStatus>;
  detectLocalServers(): Promise<DetectedServer[]>;
  /** `apiKey` null keeps the stored key; a non-empty string replaces it. */
  saveProvider(settings: ProviderSettings, apiKey: string | null): Promise<ProviderStatus>;
  listThreads(): Promise<ThreadSummary[]>;
  /** Threads whose title or shown messages contain `query`, newest first, with an excerpt. */
  searchThreads(query: string): Promise<ThreadSearchHit[]>;
  createThread(title: string | null): Promise<Thread>;
  renameThread(threadId: string, title: string): Promise<void>;
  deleteThread(threadId: string): Promise<void>;
  getThread(threadId: string): Promise<ThreadView>;
  /** Resolves with the run id once the run started; events arrive on `onEvent`. */
  startRun(threadId: string, content: string, onEvent: (event: RunEvent) => void): Promise<string>;
  cancelRun(threadId: string): Promise<boolean>;
  /**
   * Every candidate tool of the next run of `threadId` (a new thread when null) with its
   * verdict. `agent` / `skills` null mean the defaults.
   */
  explainTools(threadId: string | null, agent: string | null, skills: string[] | null): Promise<VisibilityReport>;
}

/** The sentence to show for a rejected command. The backend rejects with plain strings. */
export function errorText(err: unknown): string {
  if (typeof err === "string" && err.trim() !== "") return err;
  if (err instanceof Error && err.message) return err.message;
  if (err && typeof err === "object" && "message" in err && typeof err.message === "string") {
    return err.message;
  }
  return "Something went wrong and the app gave no reason.";
}
