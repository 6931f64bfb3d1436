import { useEffect, useRef, useState } from "react";
import type { ApprovalDecision } from "../bindings/ApprovalDecision";
import type { PendingCall } from "../bindings/PendingCall";
import {
  approvalPreview,
  openApprovals,
  openQuestions,
  QUESTION_KIND,
  sourceLabel,
  type ApprovalPreview,
} from "../core/approvals";
import { isThreadRunning } from "../core/store";
import { useAppState, useStore } from "./storeContext";

/** What the active thread waits for: the agent's questions and calls to approve, one card each. */
export function ApprovalPrompt() {
  const state = useAppState();
  const questions = openQuestions(state.threadState?.pending);
  const approvals = openApprovals(state.threadState?.pending);
  if (questions.length === 0 && approvals.length === 0) return null;
  const busy = isThreadRunning(state, state.activeThreadId);
  return (
    <section className="approvals" aria-label="Waiting for you">
      {questions.map((p, i) => (
        <ClarificationCard key={p.call.id} pending={p} busy={busy} first={i === 0} />
      ))}
      {approvals.map((p, i) => (
        <ApprovalCard key={p.call.id} pending={p} busy={busy} first={questions.length === 0 && i === 0} />
      ))}
    </section>
  );
}

function ClarificationCard({ pending, busy, first }: { pending: PendingCall; busy: boolean; first: boolean }) {
  const store = useStore();
  const [text, setText] = useState("");
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const firstOption = useRef<HTMLButtonElement>(null);
  const q = pending.question;
  useEffect(() => {
    if (!first) return;
    (firstOption.current ?? inputRef.current)?.focus({ preventScroll: true });
  }, [first]);
  if (q === null) return null;
  const send = (answer: string) => void store.answerClarification(pending.call.id, answer);
  const titleId = `question-${pending.call.id}`;
  return (
    <div className="approval-card question-card" role="group" aria-labelledby={titleId} data-testid="clarification-prompt" data-type={q.clarification_type}>
      <div className="approval-head">
        <span className="question-kind" data-testid="clarification-type">
          {QUESTION_KIND[q.clarification_type]}
        </span>
      </div>
      <p className="question-text" id={titleId} data-testid="clarification-question">
        {q.question}
      </p>
      {q.context !== null && <p className="muted approval-note">{q.context}</p>}
      {q.options.length > 0 && (
        <div className="question-options" role="group" aria-label="Choices">
          {q.options.map((o, i) => (
            <button
              key={o}
              ref={i === 0 ? firstOption : undefined}
              type="button"
              className="btn"
              data-testid="clarification-option"
              disabled={busy}
              onClick={() => send(o)}
            >
              {o}
            </button>
          ))}
        </div>
      )}
      <form
        className="question-answer"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim() !== "") send(text);
        }}
      >
        <label htmlFor={`${titleId}-answer`} className="visually-hidden">
          Your answer
        </label>
        <textarea
          id={`${titleId}-answer`}
          ref={inputRef}
          rows={1}
          data-testid="clarification-input"
          placeholder={q.options.length > 0 ? "Or answer in your own words" : "Your answer"}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              if (text.trim() !== "" && !busy) send(text);
            }
          }}
        />
        <button type="submit" className="btn primary" data-testid="clarification-send" disabled={busy || text.trim() === ""}>
          Answer
        </button>
      </form>
    </div>
  );
}

function ApprovalCard({ pending, busy, first }: { pending: PendingCall; busy: boolean; first: boolean }) {
  const store = useStore();
  const allowRef = useRef<HTMLButtonElement>(null);
  // The question is the next thing to deal with; bring the keyboard to it.
  useEffect(() => {
    if (first) allowRef.current?.focus({ preventScroll: true });
  }, [first]);
  const answer = (d: ApprovalDecision) => void store.answerApproval(pending.call.id, d);
  const titleId = `approval-${pending.call.id}`;
  return (
    <div className="approval-card" role="group" aria-labelledby={titleId} data-testid="approval-card" data-tool={pending.call.name}>
      <div className="approval-head">
        <strong id={titleId}>
          Allow <code>{pending.call.name}</code>?
        </strong>
        <span className="muted approval-source">{sourceLabel(pending)}</span>
      </div>
      <Preview preview={approvalPreview(pending.call)} />
      <p className="muted approval-reason">Asking because {pending.reason}.</p>
      <div className="approval-actions">
        <button ref={allowRef} type="button" className="btn primary" data-testid="approval-allow-once" disabled={busy} onClick={() => answer("allow_once")}>
          Allow once
        </button>
        <button type="button" className="btn" data-testid="approval-allow-always" disabled={busy} onClick={() => answer("allow_always")}
          title={`Stop asking for ${pending.call.name}`}>
          Always allow
        </button>
        <button type="button" className="btn danger-outline" data-testid="approval-deny" disabled={busy} onClick={() => answer("deny")}>
          Deny
        </button>
      </div>
    </div>
  );
}

function Preview({ preview }: { preview: ApprovalPreview }) {
  switch (preview.kind) {
    case "command":
      return (
        <div>
          {preview.background && <p className="muted approval-note">Runs in the background.</p>}
          <pre className="approval-code" data-testid="approval-command">
            <code>{preview.command}</code>
          </pre>
        </div>
      );
    case "diff":
      return (
        <div>
          {(preview.path !== "" || preview.note !== null) && (
            <p className="approval-note">
              {preview.path !== "" && <code>{preview.path}</code>}
              {preview.note !== null && <span className="muted"> ({preview.note})</span>}
            </p>
          )}
          <pre className="approval-code diff" data-testid="approval-diff">
            {preview.lines.map((l, i) => (
              <div key={i} className={`diff-line diff-${l.sign === "+" ? "add" : l.sign === "-" ? "del" : l.sign === "@" ? "meta" : "ctx"}`}>
                <span className="diff-sign" aria-hidden="true">{l.sign === "@" ? " " : l.sign}</span>
                {l.text}
              </div>
            ))}
          </pre>
        </div>
      );
    default:
      return (
        <pre className="approval-code" data-testid="approval-arguments">
          <code>{preview.text}</code>
        </pre>
      );
  }
}
