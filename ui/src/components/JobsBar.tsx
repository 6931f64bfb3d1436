import { useEffect, useState } from "react";
import { errorText, type JobInfo } from "../core/api";
import { isThreadRunning } from "../core/store";
import { useAppState, useStore } from "./storeContext";

/** How often the open thread's background jobs are re-read. */
export const JOBS_POLL_MS = 2000;

/** The open thread's running background jobs, each with a cancel button. */
export function JobsBar() {
  const state = useAppState();
  const store = useStore();
  const threadId = state.activeThreadId;
  const running = isThreadRunning(state, threadId);
  const [jobs, setJobs] = useState<JobInfo[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setJobs([]);
    setError(null);
    if (threadId === null) return;
    let stopped = false;
    const read = async () => {
      try {
        const list = await store.listJobs(threadId);
        if (!stopped) setJobs(list);
      } catch {
        // A failed poll keeps the last list; the next one retries.
      }
    };
    void read();
    const timer = setInterval(() => void read(), JOBS_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
    // A run ending is when jobs usually appear or end: read again then.
  }, [threadId, running, store]);

  const live = jobs.filter((j) => j.running);
  if (threadId === null || (live.length === 0 && error === null)) return null;
  return (
    <section className="jobs-bar" aria-label="Background jobs" data-testid="jobs-bar">
      {live.map((j) => (
        <div key={j.id} className="job-item" data-testid="job-item">
          <span className="spinner" aria-hidden="true" />
          <code className="job-command" title={j.command}>
            {j.command}
          </code>
          <button
            type="button"
            className="btn small-btn"
            data-testid="job-cancel"
            aria-label={`Stop job ${j.id}`}
            onClick={() => {
              setError(null);
              store
                .cancelJob(threadId, j.id)
                .then(() => store.listJobs(threadId))
                .then(setJobs)
                .catch((e: unknown) => setError(errorText(e)));
            }}
          >
            Stop
          </button>
        </div>
      ))}
      {error !== null && (
        <p className="run-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
