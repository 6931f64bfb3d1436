import { useEffect, useMemo, useState } from "react";
import { errorText, type ArtifactContent } from "../core/api";
import {
  MAX_HIGHLIGHT_CHARS,
  MAX_TEXT_CHARS,
  codeLanguage,
  csvDelimiter,
  dataUrl,
  fencedBlock,
  fileName,
  formatSize,
  orderOutputs,
  parseCsv,
  previewKind,
  truncationNote,
  type PreviewKind,
} from "../core/artifacts";
import { Markdown } from "./chat/Markdown";
import { CrossIcon, ExternalIcon } from "./icons";
import { useAppState, useStore } from "./storeContext";

/**
 * The right-side panel: the active thread's presented files, then every other file in its
 * outputs, and a preview of the one selected. The store keeps it listed and watched.
 */
export function ArtifactsPanel({ threadId }: { threadId: string }) {
  const state = useAppState();
  const store = useStore();
  const presented = state.threadState?.artifacts;
  const files = useMemo(() => orderOutputs(state.outputs, presented ?? []), [state.outputs, presented]);
  const selected = state.openedFile ?? files[0]?.path ?? null;
  const [openError, setOpenError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    setOpenError(null);
    setSaved(null);
  }, [selected]);

  async function openWithApp() {
    if (selected === null) return;
    setOpenError(await store.openArtifact(threadId, selected));
  }

  async function saveAs() {
    if (selected === null) return;
    const r = await store.saveArtifactAs(threadId, selected);
    if (r === null) return;
    if ("error" in r) {
      setSaved(null);
      setOpenError(r.error);
    } else {
      setOpenError(null);
      setSaved(r.savedTo);
    }
  }

  return (
    <aside className="artifacts" aria-label="Artifacts" data-testid="artifacts-panel">
      <header className="artifacts-head">
        <h2>Artifacts</h2>
        <button
          type="button"
          className="btn small-btn"
          data-testid="artifact-open-app"
          disabled={selected === null}
          title="Open the file with the system's app for its type"
          onClick={() => void openWithApp()}
        >
          <ExternalIcon /> Open with app
        </button>
        <button
          type="button"
          className="btn small-btn"
          data-testid="artifact-save-as"
          disabled={selected === null}
          title="Save a copy of the file where you choose"
          onClick={() => void saveAs()}
        >
          Save as…
        </button>
        <button
          type="button"
          className="icon-btn"
          data-testid="artifacts-close"
          aria-label="Close artifacts"
          title="Close"
          onClick={() => store.closeArtifacts()}
        >
          <CrossIcon />
        </button>
      </header>
      {state.outputsError !== null && (
        <p className="alert artifacts-alert" role="alert" data-testid="artifacts-error">
          {state.outputsError}
        </p>
      )}
      {openError !== null && (
        <p className="alert artifacts-alert" role="alert" data-testid="artifact-open-error">
          {openError}
        </p>
      )}
      {saved !== null && (
        <p className="muted artifacts-note" role="status" data-testid="artifact-saved">
          Saved a copy to {saved}
        </p>
      )}
      {files.length === 0 ? (
        <p className="muted artifacts-empty" data-testid="artifacts-empty">
          No files in this thread's outputs yet.
        </p>
      ) : (
        <ul className="artifact-list" data-testid="artifact-list" aria-label="Files in outputs">
          {files.map((f) => (
            <li key={f.path}>
              <button
                type="button"
                className="artifact-item"
                data-testid="artifact-item"
                data-path={f.path}
                aria-current={f.path === selected ? "true" : undefined}
                title={f.path}
                onClick={() => store.openFile(f.path)}
              >
                <span className="artifact-name">{fileName(f.path)}</span>
                {f.presented && (
                  <span className="artifact-badge" data-testid="artifact-presented">
                    presented
                  </span>
                )}
                <span className="artifact-size">{formatSize(f.size)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {selected !== null && <Preview threadId={threadId} path={selected} version={state.outputsVersion} />}
    </aside>
  );
}

type Loaded = { path: string; content: ArtifactContent } | { path: string; error: string };

/** The selected file, read again whenever outputs change (`version`). */
function Preview({ threadId, path, version }: { threadId: string; path: string; version: number }) {
  const store = useStore();
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    let live = true;
    store.readArtifact(threadId, path).then(
      (content) => live && setLoaded({ path, content }),
      (err: unknown) => live && setLoaded({ path, error: errorText(err) }),
    );
    return () => {
      live = false;
    };
  }, [store, threadId, path, version]);

  // While another file loads, show nothing of the last one; a reload of the same file keeps it.
  const current = loaded !== null && loaded.path === path ? loaded : null;
  return (
    <section className="artifact-view" aria-label={`Preview of ${fileName(path)}`}>
      <div className="artifact-path" data-testid="artifact-path" title={path}>
        {path}
      </div>
      {current === null ? (
        <p className="muted" aria-busy="true">
          Loading…
        </p>
      ) : "error" in current ? (
        <p className="alert" role="alert" data-testid="artifact-error">
          {current.error}
        </p>
      ) : (
        <PreviewBody content={current.content} />
      )}
    </section>
  );
}

function PreviewBody({ content }: { content: ArtifactContent }) {
  let kind: PreviewKind = previewKind(content);
  const text = content.text ?? "";
  // Rendering or highlighting a huge text would freeze the window: show it as plain text.
  if ((kind === "markdown" || kind === "code") && text.length > MAX_HIGHLIGHT_CHARS) kind = "text";
  const shown = kind === "text" ? text.slice(0, MAX_TEXT_CHARS) : text;
  const note = truncationNote(content, kind === "text" ? shown.length : undefined);
  const name = fileName(content.path);
  return (
    <div className="artifact-preview" data-testid="artifact-preview" data-kind={kind}>
      {note !== null && (
        <p className="artifact-note" data-testid="artifact-truncated">
          {note}
        </p>
      )}
      {kind === "markdown" && <Markdown text={text} cached={false} />}
      {kind === "code" && <Markdown text={fencedBlock(text, codeLanguage(content.path))} cached={false} />}
      {kind === "image" && <img className="artifact-image" data-testid="artifact-image" src={dataUrl(content) ?? ""} alt={name} />}
      {kind === "html" && (
        // No permissions at all: no scripts, no forms, no popups, no access to the app.
        <iframe className="artifact-frame" data-testid="artifact-html" sandbox="" srcDoc={text} title={`Preview of ${name}`} />
      )}
      {kind === "pdf" && (
        <iframe className="artifact-frame" data-testid="artifact-pdf" src={dataUrl(content) ?? ""} title={`Preview of ${name}`} />
      )}
      {kind === "csv" && <CsvTable content={content} />}
      {kind === "text" && (
        <pre className="artifact-text" data-testid="artifact-text">
          {shown}
        </pre>
      )}
      {kind === "none" && (
        <p className="muted" data-testid="artifact-no-preview">
          There is no preview for {content.mime} files. Open it with its app.
        </p>
      )}
    </div>
  );
}

function CsvTable({ content }: { content: ArtifactContent }) {
  const table = useMemo(() => parseCsv(content.text ?? "", csvDelimiter(content)), [content]);
  const [head, ...body] = table.rows;
  if (head === undefined) {
    return <p className="muted">This file has no rows.</p>;
  }
  return (
    <>
      <div className="artifact-table-wrap">
        <table className="artifact-table" data-testid="artifact-csv">
          <thead>
            <tr>
              {head.map((cell, i) => (
                <th key={i}>{cell}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {body.map((row, r) => (
              <tr key={r}>
                {row.map((cell, i) => (
                  <td key={i}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {table.omitted > 0 && (
        <p className="artifact-note" data-testid="artifact-rows-omitted">
          {table.omitted.toLocaleString("en-US")} more rows are not shown. Open the file with its app to see them all.
        </p>
      )}
    </>
  );
}
