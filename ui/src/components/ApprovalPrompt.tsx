import { useEffect, useRef } from "react";
import type { ApprovalDecision } from "../bindings/ApprovalDecision";
import type { PendingCall } from "../bindings/PendingCall";
import { approvalPreview, openApprovals, sourceLabel, type ApprovalPreview } from "../core/approvals";
import { isThreadRunning } from "../core/store";
import { useAppState, useStore } from "./storeContext";

/** The calls of the active thread waiting for the user's approval, one card each. */
export function ApprovalPrompt() {
  const state = useAppState();
  const open = openApprovals(state.threadState?.pending);
  if (open.length === 0) return null;
  const busy = isThreadRunning(state, state.activeThreadId);
  return (
    <section className="approvals" aria-label="Waiting for your approval">
      {open.map((p, i) => (
        <ApprovalCard key={p.call.id} pending={p} busy={busy} first={i === 0} />
      ))}
    </section>
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
