import { memo, useState, type MouseEvent, type ReactNode } from "react";
import type { ToolCall } from "../bindings/ToolCall";
import type { ToolCallRow } from "../core/groups";
import type { ToolCallState } from "../core/toolCalls";
import { prettyArgs, splitToolName, summarizeArgs } from "../core/toolCalls";
import { argsWithoutPath, filePath, parseShellResult, searchLinks, stringArg, toolKind, type ToolKind } from "../core/toolViews";
import { WebFetchBody, ImageResultsBody } from "./WebToolViews";
import { useChatActions } from "./chat/chatActions";
import { CheckIcon, CrossIcon, FileIcon, GlobeIcon, PauseIcon, PlugIcon, TerminalIcon, WrenchIcon } from "./icons";

const STATE_LABEL: Record<ToolCallState, string> = {
  running: "running",
  done: "done",
  failed: "failed",
  interrupted: "interrupted",
  waiting: "waiting for you",
};

const KIND_ICON: Record<ToolKind, () => ReactNode> = {
  shell: TerminalIcon,
  file: FileIcon,
  search: GlobeIcon,
  mcp: PlugIcon,
  generic: WrenchIcon,
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

const ToolCallRowView = memo(function ToolCallRowView({ row }: { row: ToolCallRow }) {
  const { call, state, result } = row;
  const kind: ToolKind = call !== null ? toolKind(call.name) : "generic";
  const resultText = result?.content ?? "";
  const Icon = KIND_ICON[kind];
  // The body is drawn only while open: most rows are never opened.
  const [open, setOpen] = useState(false);
  return (
    <li
      className={`tool-call state-${state} kind-${kind}`}
      data-testid="tool-call"
      data-call-id={row.key}
      data-name={call?.name ?? ""}
      data-state={state}
      data-kind={kind}
    >
      <details className="tool-call-details" onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary className="tool-call-head" title={call?.name}>
          <span className="tool-icon">
            <Icon />
          </span>
          {call !== null ? <Head call={call} kind={kind} resultText={result !== undefined ? resultText : null} /> : <span className="tool-name generic">tool result</span>}
          {result?.metadata?._deprecation != null && (
            <span
              className="tag deprecated"
              data-testid="tool-deprecated"
              title={`${result.metadata._deprecation.message} (removed in ${result.metadata._deprecation.removed_in})`}
            >
              old name · now {result.metadata._deprecation.use_instead}
            </span>
          )}
          <StateMark state={state} />
        </summary>
        {open && (
          <div className="tool-call-body">
            {call !== null && <Body call={call} kind={kind} resultText={result !== undefined && state !== "failed" ? resultText : null} />}
            {call === null && result !== undefined && state !== "failed" && <ResultBlock text={resultText} />}
            {call !== null && state === "interrupted" && <p className="muted small">No result: the run ended before this call finished.</p>}
          </div>
        )}
      </details>
      {state === "failed" && (
        <pre className="tool-error" data-testid="tool-error">
          {resultText.trim() === "" ? "The tool failed without saying why." : resultText}
        </pre>
      )}
    </li>
  );
});

/** The one-line head of a call: name, server badge, the most telling argument, the exit code. */
function Head({ call, kind, resultText }: { call: ToolCall; kind: ToolKind; resultText: string | null }) {
  const { onOpenFile } = useChatActions();
  const name = splitToolName(call.name);
  let summary: string;
  let path: string | null = null;
  if (kind === "shell") {
    const command = stringArg(call, "command");
    summary = command !== null ? `$ ${command.replace(/\s+/g, " ").trim()}` : summarizeArgs(call.arguments);
  } else if (kind === "file") {
    path = filePath(call);
    summary = summarizeArgs(path !== null ? argsWithoutPath(call) : call.arguments);
  } else if (kind === "search") {
    summary = stringArg(call, "query") ?? stringArg(call, "url") ?? summarizeArgs(call.arguments);
  } else {
    summary = summarizeArgs(call.arguments);
  }
  const shell = kind === "shell" && resultText !== null ? parseShellResult(resultText) : null;
  const open = (e: MouseEvent) => {
    // Open the file, not the row.
    e.preventDefault();
    e.stopPropagation();
    if (path !== null) onOpenFile(path);
  };
  return (
    <>
      <span className="tool-name" data-testid="tool-name">
        {name.tool}
      </span>
      {name.server !== null && (
        <span className="tool-server" data-testid="tool-server" title={`MCP server ${name.server}`}>
          {name.server}
        </span>
      )}
      {path !== null && (
        <button type="button" className="tool-path" data-testid="tool-path" title={`Open ${path}`} onClick={open}>
          {path}
        </button>
      )}
      <span className="tool-args" data-testid="tool-args">
        {summary}
      </span>
      {shell !== null && (shell.exitCode !== null || shell.note !== null) && (
        <span className={`tool-exit ${shell.exitCode === 0 ? "ok" : "bad"}`} data-testid="tool-exit">
          {shell.exitCode !== null ? `exit ${shell.exitCode}` : shell.note}
        </span>
      )}
    </>
  );
}

/** The expanded part of a call, by kind. `resultText` null: no result to show (yet). */
function Body({ call, kind, resultText }: { call: ToolCall; kind: ToolKind; resultText: string | null }) {
  if (kind === "shell") {
    const command = stringArg(call, "command");
    if (command !== null) {
      const shell = resultText !== null ? parseShellResult(resultText) : null;
      const lines = shell === null || shell.output === "" ? 0 : shell.output.replace(/\n$/, "").split("\n").length;
      return (
        <>
          <section>
            <h3>Command</h3>
            <pre className="tool-command" data-testid="tool-command">
              {command}
            </pre>
          </section>
          {shell !== null && (
            <details className="tool-output" open>
              <summary>
                Output <span className="muted">· {lines === 0 ? "none" : `${lines} ${lines === 1 ? "line" : "lines"}`}</span>
              </summary>
              <pre data-testid="tool-result">{shell.output === "" ? "(no output)" : shell.output}</pre>
            </details>
          )}
        </>
      );
    }
  }
  if (call.name === "web_fetch" && resultText !== null) return <WebFetchBody resultText={resultText} />;
  if (call.name === "image_search" && resultText !== null) return <ImageResultsBody resultText={resultText} />;
  if (kind === "search" && resultText !== null) {
    const links = searchLinks(resultText);
    if (links.length > 0) {
      return (
        <>
          <ArgsBlock call={call} />
          <section>
            <h3>Results</h3>
            <ul className="tool-links" data-testid="tool-links">
              {links.map((l) => (
                <li key={l.url}>
                  <a href={l.url} target="_blank" rel="noreferrer noopener" data-testid="tool-link" title={l.url}>
                    {l.title}
                  </a>
                  {l.snippet !== "" && <span className="muted small"> — {l.snippet}</span>}
                </li>
              ))}
            </ul>
          </section>
        </>
      );
    }
  }
  return (
    <>
      <ArgsBlock call={call} />
      {resultText !== null && <ResultBlock text={resultText} />}
    </>
  );
}

function ArgsBlock({ call }: { call: ToolCall }) {
  const args = prettyArgs(call.arguments);
  return (
    <section>
      <h3>Arguments{args.valid ? "" : " (not valid JSON)"}</h3>
      <pre data-testid="tool-args-full">{args.text}</pre>
    </section>
  );
}

function ResultBlock({ text }: { text: string }) {
  return (
    <section>
      <h3>Result</h3>
      <pre data-testid="tool-result">{text === "" ? "(empty)" : text}</pre>
    </section>
  );
}

export function StateMark({ state }: { state: ToolCallState }) {
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
