import { SubagentCard } from "../SubagentCard";
import { memo, useState, type ReactNode } from "react";
import type { Usage } from "../../bindings/Usage";
import { groupActive, groupRows, processingSummary, rowCounts, SPECIAL_TOOLS, type ChatItem, type MessageGroup, type ToolCallRow } from "../../core/groups";
import { statusNote } from "../../core/messages";
import { usageText } from "../../core/store";
import { argsObject } from "../../core/toolViews";
import { FileIcon, SparkIcon } from "../icons";
import { StateMark, ToolCallRows } from "../ToolCallRows";
import { useChatActions } from "./chatActions";
import { CopyButton } from "./CopyButton";
import { Markdown } from "./Markdown";
import { MessageEditor, UserMessageTools } from "./MessageEdit";

type Props = {
  group: MessageGroup;
  /** The last group while its run is live: more steps may still join it. */
  live: boolean;
  /** Tokens of the run this group ends, shown under it; null when it does not end one. */
  usage: Usage | null;
  /** Whether a processing group is expanded (the list keeps this across scrolling). */
  open: boolean;
  onToggle: (key: string, open: boolean) => void;
};

/** One group of the conversation, drawn by its kind. */
export const GroupView = memo(function GroupView({ group, live, usage, open, onToggle }: Props) {
  let body: ReactNode;
  switch (group.kind) {
    case "human":
      body = group.items.map((item) => <MessageView key={item.message.id} item={item} />);
      break;
    case "assistant":
      body = group.items.map((item) => <MessageView key={item.message.id} item={item} />);
      break;
    case "assistant:processing":
      body = <ProcessingGroup group={group} live={live} open={open} onToggle={onToggle} />;
      break;
    case "assistant:present-files":
    case "assistant:clarification":
    case "assistant:subagent":
      body = group.items.map((item) => <SpecialItem key={item.message.id} kind={group.kind} item={item} />);
      break;
  }
  return (
    <section className={`group group-${group.kind.replace(":", "-")}`} data-testid="group" data-kind={group.kind} data-key={group.key}>
      {body}
      {usage !== null && (
        <p className="run-usage muted small" data-testid="run-usage" title="Tokens this run used (all its model turns)">
          {usageText(usage)}
        </p>
      )}
    </section>
  );
});

/**
 * The agent at work: expanded while anything in it runs, then one summary line that opens on
 * click (`open` is decided by the list: the user's choice, else whether it is still active).
 */
function ProcessingGroup({
  group,
  live,
  open,
  onToggle,
}: {
  group: MessageGroup;
  live: boolean;
  open: boolean;
  onToggle: (key: string, open: boolean) => void;
}) {
  const active = live || groupActive(group);
  const counts = rowCounts(groupRows(group));
  return (
    <details className="processing" open={open} data-testid="processing" data-active={active ? "true" : "false"}>
      <summary
        className={`processing-head${!active && counts.failed > 0 ? " has-failed" : ""}`}
        data-testid="processing-summary"
        onClick={(e) => {
          // Controlled: the list owns the open state, so a finished group can fold itself.
          e.preventDefault();
          onToggle(group.key, !open);
        }}
      >
        <span className="processing-icon" aria-hidden="true">
          {active ? <span className="spinner" /> : <SparkIcon />}
        </span>
        <span className="processing-text">{active ? "Working…" : processingSummary(group)}</span>
      </summary>
      {/* Folded work is not drawn at all: long threads are mostly folded work. */}
      {open && (
        <div className="processing-body">
          {group.items.map((item) => (
            <MessageView key={item.message.id} item={item} compact />
          ))}
        </div>
      )}
    </details>
  );
}

/** A message with its reasoning, text, tool rows and status note. */
function MessageView({ item, compact = false }: { item: ChatItem; compact?: boolean }) {
  const { message: msg, rows } = item;
  const [editing, setEditing] = useState(false);
  // An orphan result opening a group of its own has no message to show, only its row.
  if (msg.role === "tool") return <ToolCallRows rows={rows} />;
  const note = statusNote(msg);
  const streaming = msg.status === "streaming";
  const empty = msg.content === "" && msg.reasoning === "";
  const user = msg.role === "user";
  if (user && editing) {
    return (
      <article className="message user editing" data-testid="message" data-role={msg.role} data-status={msg.status}>
        <MessageEditor msg={msg} onDone={() => setEditing(false)} />
      </article>
    );
  }
  return (
    <article
      className={`message ${user ? "user" : "assistant"} status-${msg.status}${compact ? " compact" : ""}`}
      data-testid="message"
      data-role={msg.role}
      data-status={msg.status}
    >
      <div className="bubble">
        {msg.reasoning !== "" && (
          <details className="reasoning" open={streaming && msg.content === ""}>
            <summary>Reasoning</summary>
            <div className="reasoning-text">{msg.reasoning}</div>
          </details>
        )}
        <div className={`content${user ? " plain" : ""}`} data-testid="message-content">
          {user || msg.content === "" ? msg.content : <Markdown text={msg.content} streaming={streaming} />}
          {streaming && <span className="cursor" aria-hidden="true" />}
        </div>
        {streaming && empty && rows.length === 0 && (
          <span className="typing" aria-label="The assistant is replying" role="status">
            <i />
            <i />
            <i />
          </span>
        )}
        <ToolCallRows rows={rows} />
      </div>
      {note !== null && (
        <p className={`message-note note-${msg.status}`} data-testid="message-note" role={msg.status === "error" ? "alert" : undefined}>
          {note}
        </p>
      )}
      {!compact && !streaming && msg.content !== "" && (
        <div className="message-actions">
          <CopyButton text={msg.content} label="Copy message" testId="copy-message" />
          {user && <UserMessageTools msg={msg} onEdit={() => setEditing(true)} />}
        </div>
      )}
    </article>
  );
}

const SPECIAL_NAMES = new Set(SPECIAL_TOOLS.map(([name]) => name));

/**
 * A message calling present_files, ask_clarification or task: its text, a card per such
 * call (showing the call's arguments until those tools have their own views), then its
 * other calls as ordinary rows.
 */
function SpecialItem({ kind, item }: { kind: MessageGroup["kind"]; item: ChatItem }) {
  const special = item.rows.filter((r) => r.call !== null && SPECIAL_NAMES.has(r.call.name));
  const others = item.rows.filter((r) => !special.includes(r));
  const msg = item.message;
  const note = statusNote(msg);
  return (
    <article className="message assistant" data-testid="message" data-role={msg.role} data-status={msg.status}>
      <div className="bubble">
        {msg.content !== "" && (
          <div className="content" data-testid="message-content">
            <Markdown text={msg.content} />
          </div>
        )}
        {special.map((row) => {
          const card =
            row.call?.name === "present_files" ? (
              <PresentFilesCard row={row} />
            ) : row.call?.name === "ask_clarification" ? (
              <ClarificationCard row={row} />
            ) : (
              <SubagentCard callId={row.key} args={row.call?.arguments ?? "{}"} result={row.result} />
            );
          return (
            <div key={row.key} className="card-slot" data-group-kind={kind}>
              {card}
            </div>
          );
        })}
        <ToolCallRows rows={others} />
      </div>
      {note !== null && (
        <p className={`message-note note-${msg.status}`} data-testid="message-note">
          {note}
        </p>
      )}
    </article>
  );
}

function CardShell({ testId, title, row, children }: { testId: string; title: string; row: ToolCallRow; children: ReactNode }) {
  return (
    <div className={`tool-card state-${row.state}`} data-testid={testId} data-state={row.state} data-call-id={row.key}>
      <div className="tool-card-head">
        <span className="tool-card-title">{title}</span>
        <StateMark state={row.state} />
      </div>
      {children}
      {row.state === "failed" && (
        <pre className="tool-error" data-testid="tool-error">
          {row.result?.content.trim() || "The tool failed without saying why."}
        </pre>
      )}
    </div>
  );
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

function text(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" ? v : null;
}

function PresentFilesCard({ row }: { row: ToolCallRow }) {
  const { onOpenFile } = useChatActions();
  const files = row.call !== null ? strings(argsObject(row.call).filepaths) : [];
  return (
    <CardShell testId="present-files-card" title="Presented files" row={row}>
      {files.length === 0 ? (
        <p className="muted small">No files named.</p>
      ) : (
        <ul className="file-list">
          {files.map((f) => (
            <li key={f}>
              <button type="button" className="file-link" data-testid="presented-file" onClick={() => onOpenFile(f)} title={`Open ${f}`}>
                <FileIcon /> {f}
              </button>
            </li>
          ))}
        </ul>
      )}
    </CardShell>
  );
}

function ClarificationCard({ row }: { row: ToolCallRow }) {
  const args = row.call !== null ? argsObject(row.call) : {};
  const question = text(args.question) ?? "(no question given)";
  const type = text(args.clarification_type);
  const context = text(args.context);
  const options = strings(args.options);
  return (
    <CardShell testId="clarification-card" title="The agent asks" row={row}>
      <p className="clarification-question" data-testid="clarification-question">
        {question}
      </p>
      {type !== null && <span className="tag">{type.replace(/_/g, " ")}</span>}
      {context !== null && <p className="muted small">{context}</p>}
      {options.length > 0 && (
        <ol className="clarification-options" data-testid="clarification-options">
          {options.map((o) => (
            <li key={o}>{o}</li>
          ))}
        </ol>
      )}
      {row.result !== undefined && row.state === "done" && <p className="small">Answer: {row.result.content}</p>}
    </CardShell>
  );
}

