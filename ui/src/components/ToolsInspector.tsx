import { useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { AliasVerdict } from "../bindings/AliasVerdict";
import type { ToolVerdict } from "../bindings/ToolVerdict";
import type { VisibilityReport } from "../bindings/VisibilityReport";
import { errorText } from "../core/api";
import {
  GATE_LABEL,
  groupOpenByDefault,
  groupReport,
  matchingAliases,
  reasonSentence,
  sourceLabel,
  type VerdictGroup,
  type VerdictSection,
} from "../core/toolReport";
import { DEFAULT_OPTIONS, explainedFor } from "../core/runChoices";
import { CrossIcon } from "./icons";
import { useAppState, useStore } from "./storeContext";

/** Rows an open group lists before offering "Show all". */
const GROUP_PAGE = 100;

type Load = { kind: "loading" } | { kind: "error"; message: string } | { kind: "ready"; report: VisibilityReport };

/**
 * A drawer listing every candidate tool of the thread's next run with its verdict. Calls
 * explain_tools when it opens; keeps the report, the filter and which groups are open as its
 * own view state (closing it forgets them).
 */
export function ToolsInspector({ threadId, onClose }: { threadId: string | null; onClose: () => void }) {
  const store = useStore();
  const state = useAppState();
  // The report is for the agent and skills the composer shows; a new pick asks again.
  const options = state.runOptions[threadId ?? ""] ?? DEFAULT_OPTIONS;
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const filterRef = useRef<HTMLInputElement>(null);
  const [load, setLoad] = useState<Load>({ kind: "loading" });
  const [query, setQuery] = useState("");
  const deferredQuery = useDeferredValue(query);
  const request = useRef(0);

  const fetchReport = useCallback(() => {
    const n = ++request.current;
    setLoad({ kind: "loading" });
    store.explainTools(threadId).then(
      (report) => {
        if (request.current === n) setLoad({ kind: "ready", report });
      },
      (err: unknown) => {
        if (request.current === n) setLoad({ kind: "error", message: errorText(err) });
      },
    );
    // `options` is read by store.explainTools; listed so a new pick fetches again.
  }, [store, threadId, options]);

  useEffect(() => {
    fetchReport();
    return () => {
      request.current++; // drop a late answer
    };
  }, [fetchReport]);

  useEffect(() => {
    filterRef.current?.focus();
  }, []);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        onClose();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);

  /** Keeps Tab inside the drawer while it is open. */
  function trapTab(e: KeyboardEvent<HTMLDivElement>) {
    if (e.key !== "Tab" || panel.current === null) return;
    const focusable = [
      ...panel.current.querySelectorAll<HTMLElement>("button, input, summary, [href], [tabindex]:not([tabindex='-1'])"),
    ].filter((el) => !el.hasAttribute("disabled") && el.offsetParent !== null);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (first === undefined || last === undefined) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  }

  const report = load.kind === "ready" ? load.report : null;
  const sections = useMemo(() => (report ? groupReport(report.tools, deferredQuery) : []), [report, deferredQuery]);

  return (
    <div
      className="drawer-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        className="drawer"
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="tools-inspector"
        onKeyDown={trapTab}
      >
        <header className="drawer-head">
          <div className="drawer-title">
            <h2 id={titleId}>Tools</h2>
            <p className="muted small">
              {threadId === null ? "What a new conversation's first run would get" : "What this conversation's next run gets"}
            </p>
            <p className="muted small tools-for" data-testid="tools-for">
              {explainedFor(options, state.runChoices)}
            </p>
          </div>
          <button type="button" className="icon-btn" onClick={onClose} aria-label="Close tools" data-testid="close-tools">
            <CrossIcon />
          </button>
        </header>

        <div className="drawer-tools">
          <label htmlFor={`${titleId}-filter`} className="visually-hidden">
            Filter tools by name or server
          </label>
          <input
            id={`${titleId}-filter`}
            ref={filterRef}
            type="search"
            className="filter-input"
            data-testid="tools-filter"
            placeholder="Filter by name or server"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
          {report !== null && (
            <p className="summary-line small" data-testid="tools-summary" aria-live="polite">
              {sections.map((s, i) => (
                <span key={s.visibility}>
                  {i > 0 && <span className="sep"> · </span>}
                  <span className={`dot ${s.visibility}`} aria-hidden="true" />
                  {deferredQuery.trim() !== "" ? `${s.count} of ${s.total}` : s.total} {s.label.toLowerCase()}
                </span>
              ))}
            </p>
          )}
        </div>

        <div className="drawer-body">
          {load.kind === "loading" && (
            <p className="muted center pad" role="status">
              Asking the app which tools this run gets…
            </p>
          )}
          {load.kind === "error" && (
            <div className="alert inspector-error" role="alert" data-testid="tools-error">
              <p>The tools could not be listed: {load.message}</p>
              <button type="button" className="btn small-btn" onClick={fetchReport}>
                Try again
              </button>
            </div>
          )}
          {report !== null && (report.problems ?? []).length > 0 && (
            <div className="alert inspector-error" role="status" data-testid="tools-problems">
              <p>Some tools in your configuration could not be used:</p>
              <ul>
                {report.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </div>
          )}
          {report !== null && report.tools.length === 0 && <p className="muted center pad">This run has no tools at all.</p>}
          {report !== null && report.tools.length > 0 && sections.every((s) => s.count === 0) && (
            <p className="muted center pad" data-testid="tools-no-match">
              No tool matches “{deferredQuery.trim()}”.
            </p>
          )}
          {sections.map((s) =>
            s.total === 0 ? null : <Section key={s.visibility} section={s} query={deferredQuery} />,
          )}
          {report !== null && <Aliases aliases={matchingAliases(report.aliases, deferredQuery)} />}
          {report?.catalog_hash != null && (
            <p className="muted small catalog-hash" title={report.catalog_hash}>
              Deferred catalog {report.catalog_hash.slice(0, 12)}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}

/** Old tool names that still work, never shown to the model, and where they lead. */
function Aliases({ aliases }: { aliases: AliasVerdict[] }) {
  const headingId = useId();
  if (aliases.length === 0) return null;
  return (
    <section className="verdict-section aliases" aria-labelledby={headingId} data-testid="alias-section">
      <h3 id={headingId} className="section-head">
        Aliases
        <span className="count">{aliases.length}</span>
      </h3>
      <ul className="verdict-list">
        {aliases.map((a) => (
          <li key={a.alias} className="verdict" data-testid="tool-alias" data-name={a.alias}>
            <div className="verdict-line">
              <code className="verdict-name">{a.alias}</code>
              <span aria-hidden="true">→</span>
              <span className="visually-hidden">leads to</span>
              <code data-testid="alias-target">{a.canonical}</code>
              <span className="chips-inline">
                <span className="tag">removed in {a.removed_in}</span>
              </span>
            </div>
            <p className="verdict-reason">{a.reason.charAt(0).toUpperCase() + a.reason.slice(1)}.</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Section({ section, query }: { section: VerdictSection; query: string }) {
  const headingId = useId();
  const openDefault = groupOpenByDefault(section, query);
  return (
    <section
      className={`verdict-section ${section.visibility}`}
      aria-labelledby={headingId}
      data-testid="verdict-section"
      data-visibility={section.visibility}
    >
      <h3 id={headingId} className="section-head">
        <span className={`dot ${section.visibility}`} aria-hidden="true" />
        {section.label}
        <span className="count" data-testid="section-count">
          {section.count}
        </span>
      </h3>
      {section.count === 0 ? (
        <p className="muted small none">None match.</p>
      ) : (
        section.groups.map((g) => <Group key={g.key} group={g} openDefault={openDefault} />)
      )}
    </section>
  );
}

function Group({ group, openDefault }: { group: VerdictGroup; openDefault: boolean }) {
  // The user's choice wins over the default until the drawer closes.
  const [choice, setChoice] = useState<boolean | null>(null);
  const [all, setAll] = useState(false);
  const open = choice ?? openDefault;
  const listId = useId();
  const shown = all ? group.tools : group.tools.slice(0, GROUP_PAGE);
  return (
    <div className="verdict-group" data-testid="verdict-group" data-group={group.label}>
      <button
        type="button"
        className="group-toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setChoice(!open)}
        data-testid="group-toggle"
      >
        <span className={`chevron${open ? " open" : ""}`} aria-hidden="true" />
        <span className="group-label">{group.label}</span>
        <span className="count">{group.tools.length}</span>
      </button>
      {open && (
        <ul className="verdict-list" id={listId}>
          {shown.map((v) => (
            <VerdictRow key={`${v.name}\n${sourceLabel(v.source)}`} v={v} />
          ))}
          {shown.length < group.tools.length && (
            <li className="show-more">
              <button type="button" className="link" onClick={() => setAll(true)}>
                Show all {group.tools.length} ({group.tools.length - shown.length} more)
              </button>
            </li>
          )}
        </ul>
      )}
    </div>
  );
}

function VerdictRow({ v }: { v: ToolVerdict }) {
  const source = sourceLabel(v.source);
  return (
    <li className="verdict" data-testid="tool-verdict" data-name={v.name} data-visibility={v.visibility}>
      <div className="verdict-line">
        <code className="verdict-name">{v.name}</code>
        {v.original_name !== null && v.original_name !== v.name && (
          <span className="muted small" title="The tool's own name at its origin">
            ({v.original_name})
          </span>
        )}
        <span className="chips-inline">
          <span className="tag source" title={v.source.kind === "config" ? `config: ${v.source.impl_id}` : "Source"} data-testid="verdict-source">
            {source}
          </span>
          <span className="tag group" title="Tool group">
            <span className="tag-key">group</span> {v.group}
          </span>
          {v.gate !== null && (
            <span className={`tag gate ${v.visibility}`} title="The gate that decided">
              <span className="tag-key">gate</span> <span data-testid="verdict-gate">{GATE_LABEL[v.gate] ?? v.gate}</span>
            </span>
          )}
        </span>
      </div>
      <p className="verdict-reason" data-testid="verdict-reason">
        {reasonSentence(v)}
      </p>
    </li>
  );
}
