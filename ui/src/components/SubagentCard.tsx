import type { Message } from "../bindings/Message";
import { isLive, SUBAGENT_STATUS_LABEL } from "../core/subagents";
import { Markdown } from "./chat/Markdown";
import { useAppState, useStore } from "./storeContext";

/**
 * A `task` call's subagent: status, steps, usage and result, with Stop while it works. Live
 * updates come from the run's events; after a reload only the call and its result are known.
 */
export function SubagentCard({ callId, args, result }: { callId: string; args: string; result?: Message }) {
  const state = useAppState();
  const store = useStore();
  const live = state.subagents[callId];
  const parsed = parseTaskArgs(args);
  const status = live?.status ?? (result === undefined ? "started" : result.is_error ? "failed" : "completed");
  const threadId = state.activeThreadId;
  const text = live?.result ?? live?.error ?? result?.content ?? null;
  return (
    <div
      className={`subagent-card sub-${status}`}
      data-testid="subagent-card"
      data-status={status}
      data-state={status === "completed" ? "done" : isLive(status) ? "running" : "failed"}
      data-call-id={callId}
    >
      <div className="subagent-head">
        <strong className="subagent-title">{live?.description ?? parsed.description}</strong>
        <span className="muted subagent-type">{live?.subagentType ?? parsed.type}</span>
        <span className="subagent-status" data-testid="subagent-status">
          {isLive(status) && <span className="spinner" aria-hidden="true" />}
          {SUBAGENT_STATUS_LABEL[status]}
        </span>
        {isLive(status) && live !== undefined && threadId !== null && (
          <button
            type="button"
            className="btn small-btn"
            data-testid="subagent-cancel"
            onClick={() => void store.cancelSubagent(threadId, callId)}
          >
            Stop
          </button>
        )}
      </div>
      {live !== undefined && live.steps.length > 0 && (
        <ol className="subagent-steps" data-testid="subagent-steps">
          {live.steps.slice(-5).map((s, i) => (
            <li key={`${i}-${s}`}>{s}</li>
          ))}
        </ol>
      )}
      {live?.usage != null && (
        <p className="muted subagent-usage" data-testid="subagent-usage">
          {live.usage.input_tokens + live.usage.output_tokens} tokens
        </p>
      )}
      {text !== null && !isLive(status) && (
        <div className="subagent-result content" data-testid="subagent-result">
          <Markdown text={text} />
        </div>
      )}
    </div>
  );
}

function parseTaskArgs(raw: string): { description: string; type: string } {
  try {
    const v = JSON.parse(raw) as { description?: unknown; subagent_type?: unknown };
    return {
      description: typeof v.description === "string" ? v.description : "Subagent",
      type: typeof v.subagent_type === "string" ? v.subagent_type : "general-purpose",
    };
  } catch {
    return { description: "Subagent", type: "general-purpose" };
  }
}
