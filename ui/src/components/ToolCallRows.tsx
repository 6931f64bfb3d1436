import type { ToolCallRow, ToolCallState } from "../core/toolCalls";
import { prettyArgs, splitToolName, summarizeArgs } from "../core/toolCalls";
import { CheckIcon, CrossIcon, PauseIcon, WrenchIcon } from "./icons";
import { SubagentCard } from "./SubagentCard";

const STATE_LABEL: Record<ToolCallState, string> = {
  running: "running",
  done: "done",
  failed: "failed",
  interrupted: "interrupted",
  waiting: "waiting for you",
};

/** The tool calls of one assistant message, one compact row each. */
export function ToolCallRows({ rows }: { rows: ToolCallRow[] }) {
  if (rows.length === 0) return null;
  return (
    <ul className="tool-calls" aria-label="Tool calls">
      {rows.map((r) => (
        <ToolCallRowView key={r.key} row={r} />
      ))}
    </ul>
  );
}

function ToolCallRowView({ row }: { row: ToolCallRow }) {
  const { call, state, result } = row;
  const name = call !== null ? splitToolName(call.name) : null;
  const summary = call !== null ? summarizeArgs(call.arguments) : "";
  const args = call !== null ? prettyArgs(call.arguments) : null;
  const resultText = result?.content ?? "";
  return (
    <li
      className={`tool-call state-${state}`}
      data-testid="tool-call"
      data-call-id={row.key}
      data-name={call?.name ?? ""}
      data-state={state}
    >
      <details className="tool-call-details">
        <summary className="tool-call-head" title={call?.name}>
          <span className="tool-icon">
            <WrenchIcon />
          </span>
          {name !== null ? (
            <>
              <span className="tool-name" data-testid="tool-name">
                {name.tool}
              </span>
              {name.server !== null && (
                <span className="tool-server" data-testid="tool-server" title={`MCP server ${name.server}`}>
                  {name.server}
                </span>
              )}
            </>
          ) : (
            <span className="tool-name generic">tool result</span>
          )}
          {result?.metadata?._deprecation !== undefined && (
            <span
              className="tag deprecated"
              data-testid="tool-deprecated"
              title={`${result.metadata._deprecation.message} (removed in ${result.metadata._deprecation.removed_in})`}
            >
              old name · now {result.metadata._deprecation.use_instead}
            </span>
          )}
          <span className="tool-args" data-testid="tool-args">
            {summary}
          </span>
          <StateMark state={state} />
        </summary>
        <div className="tool-call-body">
          {args !== null && (
            <section>
              <h3>Arguments{args.valid ? "" : " (not valid JSON)"}</h3>
              <pre data-testid="tool-args-full">{args.text}</pre>
            </section>
          )}
          {result !== undefined && state !== "failed" && (
            <section>
              <h3>Result</h3>
              <pre data-testid="tool-result">{resultText === "" ? "(empty)" : resultText}</pre>
            </section>
          )}
          {call !== null && state === "interrupted" && (
            <p className="muted small">No result: the run ended before this call finished.</p>
          )}
        </div>
      </details>
      {call !== null && call.name === "task" && <SubagentCard callId={call.id} args={call.arguments} result={result} />}
      {state === "failed" && (
        <pre className="tool-error" data-testid="tool-error">
          {resultText.trim() === "" ? "The tool failed without saying why." : resultText}
        </pre>
      )}
    </li>
  );
}

function StateMark({ state }: { state: ToolCallState }) {
  return (
    <span className={`tool-state ${state}`} data-testid="tool-state">
      {state === "running" && <span className="spinner" aria-hidden="true" />}
      {state === "done" && <CheckIcon />}
      {state === "failed" && <CrossIcon />}
      {(state === "interrupted" || state === "waiting") && <PauseIcon />}
      <span className="tool-state-label">{STATE_LABEL[state]}</span>
    </span>
  );
}
