import { useEffect, useId, useRef, useState, useSyncExternalStore, type KeyboardEvent as ReactKeyboardEvent } from "react";
import type { ServerView } from "../bindings/ServerView";
import type { ToolView } from "../bindings/ToolView";
import type { ValidationReport } from "../bindings/ValidationReport";
import type { McpStore, PasteState, EditorState, ServerDetails } from "../core/mcp";
import {
  commandLine,
  emptyRow,
  maskValue,
  rowSecret,
  splitCommandLine,
  statusView,
  toolParams,
  type ServerForm,
  type ValueRow,
} from "../core/mcpForm";
import { checkPastedJson } from "../core/mcpJson";
import { PlusIcon, TrashIcon } from "./icons";

/**
 * The MCP manager page: every configured server with its live status and tools, the add/edit
 * form, pasted-JSON and Claude Desktop imports, and a read-only view of resources and prompts.
 * It renders the MCP store (core/mcp.ts); the store keeps what was typed if the page closes.
 */
export function McpManager({ mcp, onClose }: { mcp: McpStore; onClose: () => void }) {
  const state = useSyncExternalStore(mcp.subscribe, mcp.getState);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    void mcp.open();
    heading.current?.focus();
  }, [mcp]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      e.preventDefault();
      onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);

  const page = useRef<HTMLDivElement>(null);
  /** Keeps Tab inside the page while it is open (it is a modal dialog). */
  function trapTab(e: ReactKeyboardEvent<HTMLDivElement>) {
    if (e.key !== "Tab" || page.current === null) return;
    const focusable = [
      ...page.current.querySelectorAll<HTMLElement>("button, input, textarea, summary, [href], [tabindex]:not([tabindex='-1'])"),
    ].filter((el) => !el.hasAttribute("disabled") && el.offsetParent !== null);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (first === undefined || last === undefined) return;
    if (e.shiftKey && (document.activeElement === first || document.activeElement === heading.current)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  }

  const servers = state.overview?.servers ?? [];
  return (
    <div className="mcp-page" data-testid="mcp-manager" ref={page} onKeyDown={trapTab}>
      <header className="mcp-head">
        <div>
          <h2 ref={heading} tabIndex={-1}>
            MCP servers
          </h2>
          {state.overview !== null && (
            <p className="muted small" data-testid="mcp-config-path">
              Saved in <code>{state.overview.configPath}</code>; secrets in the OS keychain.
            </p>
          )}
        </div>
        <div className="mcp-head-actions">
          <button type="button" className="btn primary small-btn" onClick={() => mcp.startAdd()} data-testid="mcp-add">
            <PlusIcon /> Add server
          </button>
          <button type="button" className="btn small-btn" onClick={() => mcp.startPaste()} data-testid="mcp-paste">
            Paste JSON
          </button>
          <button
            type="button"
            className="btn small-btn"
            disabled={state.importingClaude}
            onClick={() => void mcp.importClaude(false)}
            data-testid="mcp-import-claude"
          >
            {state.importingClaude ? "Importing…" : "Import from Claude Desktop"}
          </button>
          <button type="button" className="btn small-btn" onClick={onClose} data-testid="mcp-close">
            Close
          </button>
        </div>
      </header>

      {state.notice !== null && (
        <p className={`mcp-notice ${state.notice.tone}`} role="status" data-testid="mcp-notice">
          {state.notice.text}{" "}
          {state.claudeSkipped.length > 0 && (
            <button type="button" className="link" onClick={() => void mcp.importClaude(true)} data-testid="mcp-claude-replace">
              Replace them
            </button>
          )}{" "}
          <button type="button" className="link" onClick={() => mcp.dismissNotice()}>
            Dismiss
          </button>
        </p>
      )}
      {state.overview?.configError !== undefined && (
        <p className="alert" role="alert" data-testid="mcp-config-error">
          The config file could not be read, so the servers below are the last good ones: {state.overview.configError}
        </p>
      )}

      {state.editor !== null && <ServerEditor editor={state.editor} mcp={mcp} />}
      {state.paste !== null && <PasteImport paste={state.paste} mcp={mcp} />}

      {state.loadError !== null ? (
        <div className="alert" role="alert" data-testid="mcp-load-error">
          <p>The MCP servers could not be listed: {state.loadError}</p>
          <button type="button" className="btn small-btn" onClick={() => void mcp.open()}>
            Try again
          </button>
        </div>
      ) : state.loading ? (
        <p className="muted" role="status">
          Loading MCP servers…
        </p>
      ) : servers.length === 0 ? (
        <p className="muted mcp-empty" data-testid="mcp-empty">
          No MCP servers yet. Add one with the form, paste the JSON from a server's README, or import the servers you set
          up in Claude Desktop.
        </p>
      ) : (
        <ul className="mcp-servers" aria-label="MCP servers">
          {servers.map((s) => (
            <ServerCard
              key={s.name}
              server={s}
              mcp={mcp}
              busy={state.busy[s.name] ?? null}
              error={state.serverErrors[s.name] ?? null}
              details={state.details[s.name] ?? null}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function ServerCard({
  server: s,
  mcp,
  busy,
  error,
  details,
}: {
  server: ServerView;
  mcp: McpStore;
  busy: string | null;
  error: string | null;
  details: ServerDetails | null;
}) {
  const [confirming, setConfirming] = useState(false);
  const off = s.tools.filter((t) => !t.enabled).length;
  const status = statusView(s.status, off);
  const where = s.url ?? (s.command !== undefined ? commandLine(s.command, s.args) : "");
  const values = s.transport === "http" ? s.headers : s.env;

  return (
    <li className={`mcp-server tone-${status.tone}`} data-testid="mcp-server" data-name={s.name}>
      <div className="mcp-server-head">
        <label className="switch" title={s.enabled ? "Switch this server off" : "Switch this server on"}>
          <input
            type="checkbox"
            role="switch"
            checked={s.enabled}
            disabled={busy !== null}
            onChange={(e) => void mcp.setEnabled(s.name, e.target.checked)}
            aria-label={`${s.name} enabled`}
            data-testid="mcp-enabled"
          />
          <span className="switch-track" aria-hidden="true" />
        </label>
        <span className="mcp-name">{s.name}</span>
        <span className="mcp-transport" data-testid="mcp-transport">
          {s.transport === "http" ? "HTTP" : s.transport === "stdio" ? "stdio" : "invalid"}
        </span>
        <span className={`mcp-status ${status.tone}`} data-testid="mcp-status" data-state={s.status.state}>
          {status.tone === "busy" && <span className="spinner" aria-hidden="true" />}
          {status.label}
        </span>
        <span className="mcp-server-actions">
          {confirming ? (
            <span className="mcp-confirm" role="group" aria-label={`Remove ${s.name}?`}>
              <span>Remove “{s.name}” and its keychain entries?</span>
              <button
                type="button"
                className="btn small-btn danger"
                disabled={busy !== null}
                onClick={() => void mcp.remove(s.name).then((ok) => !ok && setConfirming(false))}
                data-testid="mcp-remove-confirm"
              >
                Remove
              </button>
              <button type="button" className="btn small-btn" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </span>
          ) : (
            <>
              <button
                type="button"
                className="btn small-btn"
                disabled={busy !== null || !s.enabled}
                onClick={() => void mcp.reconnect(s.name)}
                title={s.enabled ? "Stop and start it again now" : "Switch it on first"}
                data-testid="mcp-reconnect"
              >
                {busy === "reconnect" ? "Reconnecting…" : "Reconnect"}
              </button>
              <button type="button" className="btn small-btn" onClick={() => mcp.startEdit(s.name)} data-testid="mcp-edit">
                Edit
              </button>
              <button
                type="button"
                className="icon-btn"
                aria-label={`Remove ${s.name}`}
                title="Remove"
                onClick={() => setConfirming(true)}
                data-testid="mcp-remove"
              >
                <TrashIcon />
              </button>
            </>
          )}
        </span>
      </div>
      <div className="mcp-where" data-testid="mcp-where" title={where}>
        {where}
      </div>
      {values.length > 0 && (
        <ul className="mcp-values" aria-label={s.transport === "http" ? "Headers" : "Environment"}>
          {values.map((v) => (
            <li key={v.name} data-testid="mcp-value" data-secret={v.secret}>
              <code>{v.name}</code> = <code className={v.secret ? "masked" : undefined}>{maskValue(v)}</code>
              {v.secret && <span className="muted small"> (in the keychain)</span>}
            </li>
          ))}
        </ul>
      )}
      {status.error !== null && (
        <div className="mcp-failure" data-testid="mcp-error">
          <p>{status.error}</p>
          {status.stderr.length > 0 && (
            <>
              <p className="muted small">Last lines the server wrote to stderr:</p>
              <pre data-testid="mcp-stderr">{status.stderr.join("\n")}</pre>
            </>
          )}
        </div>
      )}
      {error !== null && (
        <p className="alert small" role="alert" data-testid="mcp-server-error">
          {error}
        </p>
      )}
      {s.tools.length > 0 ? (
        <details className="mcp-section" data-testid="mcp-tools">
          <summary>
            Tools ({s.tools.length}
            {off > 0 ? `, ${off} off` : ""})
          </summary>
          <ul className="mcp-tools">
            {s.tools.map((t) => (
              <ToolRow key={t.name} tool={t} server={s.name} mcp={mcp} disabled={busy !== null} />
            ))}
          </ul>
        </details>
      ) : (
        s.disabledTools.length > 0 && (
          <p className="muted small" data-testid="mcp-disabled-tools">
            Switched off: {s.disabledTools.join(", ")}
          </p>
        )
      )}
      {s.status.state === "connected" && (
        <details
          className="mcp-section"
          data-testid="mcp-more"
          onToggle={(e) => {
            if (e.currentTarget.open && (details === null || (!details.loading && details.resources === null && details.prompts === null)))
              void mcp.loadDetails(s.name);
          }}
        >
          <summary>Resources and prompts</summary>
          <ResourcesAndPrompts details={details} onReload={() => void mcp.loadDetails(s.name)} />
        </details>
      )}
    </li>
  );
}

function ToolRow({ tool: t, server, mcp, disabled }: { tool: ToolView; server: string; mcp: McpStore; disabled: boolean }) {
  const params = toolParams(t.inputSchema);
  return (
    <li className={`mcp-tool${t.enabled ? "" : " off"}`} data-testid="mcp-tool" data-name={t.name} data-enabled={t.enabled}>
      <label className="switch small" title={t.enabled ? "Offered to the model; click to switch off" : "Switched off"}>
        <input
          type="checkbox"
          role="switch"
          checked={t.enabled}
          disabled={disabled}
          onChange={(e) => void mcp.setToolEnabled(server, t.name, e.target.checked)}
          aria-label={`${t.name} enabled`}
          data-testid="mcp-tool-toggle"
        />
        <span className="switch-track" aria-hidden="true" />
      </label>
      <div className="mcp-tool-body">
        <div>
          <span className="tool-name">{t.name}</span>{" "}
          <span className="muted small" title="The name the model sees">
            {t.qualifiedName}
          </span>
        </div>
        {t.description !== undefined && <p className="mcp-tool-desc">{t.description}</p>}
        {params.length > 0 && (
          <ul className="mcp-params" aria-label={`${t.name} parameters`}>
            {params.map((p) => (
              <li key={p.name}>
                <code>
                  {p.name}
                  {p.required ? "" : "?"}: {p.type}
                </code>
                {p.description !== null && <span className="muted"> — {p.description}</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}

function ResourcesAndPrompts({ details, onReload }: { details: ServerDetails | null; onReload: () => void }) {
  if (details === null || details.loading) {
    return (
      <p className="muted small" role="status">
        Asking the server…
      </p>
    );
  }
  return (
    <div className="mcp-more">
      <h4>Resources</h4>
      {details.resourcesError !== null ? (
        <p className="muted small">{details.resourcesError}</p>
      ) : (details.resources ?? []).length === 0 ? (
        <p className="muted small">None listed.</p>
      ) : (
        <ul>
          {(details.resources ?? []).map((r) => (
            <li key={r.uri} data-testid="mcp-resource">
              <code>{r.uri}</code> {r.name !== r.uri && <strong>{r.name}</strong>}
              {r.mimeType !== undefined && <span className="muted small"> ({r.mimeType})</span>}
              {r.description !== undefined && <span className="muted"> — {r.description}</span>}
            </li>
          ))}
        </ul>
      )}
      <h4>Prompts</h4>
      {details.promptsError !== null ? (
        <p className="muted small">{details.promptsError}</p>
      ) : (details.prompts ?? []).length === 0 ? (
        <p className="muted small">None listed.</p>
      ) : (
        <ul>
          {(details.prompts ?? []).map((p) => (
            <li key={p.name} data-testid="mcp-prompt">
              <strong>{p.name}</strong>
              {p.arguments.length > 0 && (
                <code className="small"> ({p.arguments.map((a) => (a.required ? a.name : `${a.name}?`)).join(", ")})</code>
              )}
              {p.description !== undefined && <span className="muted"> — {p.description}</span>}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="link small" onClick={onReload}>
        Ask again
      </button>
    </div>
  );
}

function FieldError({ errors, field }: { errors: Record<string, string>; field: string }) {
  const e = errors[field];
  if (e === undefined) return null;
  return (
    <span className="field-error" role="alert" data-testid="mcp-field-error" data-field={field} id={`mcp-err-${field}`}>
      {e}
    </span>
  );
}

function ServerEditor({ editor: e, mcp }: { editor: EditorState; mcp: McpStore }) {
  const id = useId();
  const f = e.form;
  const errors = e.showErrors ? e.errors : {};
  const edit = (patch: Partial<ServerForm>) => mcp.editForm((old) => ({ ...old, ...patch }));
  const invalid = (field: string) => (errors[field] !== undefined ? { "aria-invalid": true, "aria-describedby": `mcp-err-${field}` } : {});
  const looksLikeCommandLine = f.kind === "stdio" && /\s/.test(f.command.trim()) && f.args.trim() === "";

  return (
    <form
      className="mcp-editor card"
      aria-label={e.mode === "add" ? "Add an MCP server" : `Edit ${f.name}`}
      data-testid="mcp-form"
      onSubmit={(ev) => {
        ev.preventDefault();
        void mcp.saveEditor();
      }}
    >
      <h3>{e.mode === "add" ? "Add a server" : `Edit “${f.name}”`}</h3>
      <div className="mcp-grid">
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            value={f.name}
            readOnly={e.mode === "edit"}
            onChange={(ev) => edit({ name: ev.target.value })}
            placeholder="github"
            autoFocus={e.mode === "add"}
            data-testid="mcp-name"
            {...invalid("name")}
          />
          <FieldError errors={errors} field="name" />
        </div>
        <fieldset className="field mcp-kind">
          <legend>Transport</legend>
          <label>
            <input type="radio" name={`${id}-kind`} checked={f.kind === "stdio"} onChange={() => edit({ kind: "stdio" })} data-testid="mcp-kind-stdio" />{" "}
            Program (stdio)
          </label>
          <label>
            <input type="radio" name={`${id}-kind`} checked={f.kind === "http"} onChange={() => edit({ kind: "http" })} data-testid="mcp-kind-http" />{" "}
            URL (streamable HTTP)
          </label>
        </fieldset>
      </div>

      {f.kind === "stdio" ? (
        <>
          <div className="field">
            <label htmlFor={`${id}-command`}>Command</label>
            <input
              id={`${id}-command`}
              value={f.command}
              onChange={(ev) => edit({ command: ev.target.value })}
              placeholder="npx"
              spellCheck={false}
              data-testid="mcp-command"
              {...invalid("command")}
            />
            <FieldError errors={errors} field="command" />
            {looksLikeCommandLine && (
              <span className="muted small" data-testid="mcp-split-hint">
                This looks like a whole command line.{" "}
                <button
                  type="button"
                  className="link"
                  onClick={() => {
                    const [command = "", ...args] = splitCommandLine(f.command);
                    edit({ command, args: args.join("\n") });
                  }}
                  data-testid="mcp-split"
                >
                  Split it into the command and its arguments
                </button>
              </span>
            )}
          </div>
          <div className="field">
            <label htmlFor={`${id}-args`}>Arguments, one per line</label>
            <textarea
              id={`${id}-args`}
              rows={3}
              value={f.args}
              onChange={(ev) => edit({ args: ev.target.value })}
              placeholder={"-y\n@modelcontextprotocol/server-filesystem\n/home/me/projects"}
              spellCheck={false}
              data-testid="mcp-args"
            />
          </div>
          <ValueRows
            title="Environment variables"
            section="env"
            rows={f.env}
            errors={errors}
            onChange={(env) => edit({ env })}
            addLabel="Add variable"
          />
          <div className="field">
            <label htmlFor={`${id}-cwd`}>Working folder (optional)</label>
            <input id={`${id}-cwd`} value={f.cwd} onChange={(ev) => edit({ cwd: ev.target.value })} spellCheck={false} data-testid="mcp-cwd" />
          </div>
        </>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-url`}>URL</label>
            <input
              id={`${id}-url`}
              value={f.url}
              onChange={(ev) => edit({ url: ev.target.value })}
              placeholder="https://example.com/mcp"
              spellCheck={false}
              data-testid="mcp-url"
              {...invalid("url")}
            />
            <FieldError errors={errors} field="url" />
          </div>
          <ValueRows title="Headers" section="headers" rows={f.headers} errors={errors} onChange={(headers) => edit({ headers })} addLabel="Add header" />
        </>
      )}

      <details className="mcp-advanced">
        <summary>Timeouts and start-up</summary>
        <div className="mcp-grid">
          <div className="field">
            <label htmlFor={`${id}-startup`}>Start-up timeout (seconds, default 30)</label>
            <input
              id={`${id}-startup`}
              inputMode="numeric"
              value={f.startupTimeoutSecs}
              onChange={(ev) => edit({ startupTimeoutSecs: ev.target.value })}
              {...invalid("startupTimeoutSecs")}
            />
            <FieldError errors={errors} field="startupTimeoutSecs" />
          </div>
          <div className="field">
            <label htmlFor={`${id}-call`}>Tool call timeout (seconds, default 60)</label>
            <input
              id={`${id}-call`}
              inputMode="numeric"
              value={f.callTimeoutSecs}
              onChange={(ev) => edit({ callTimeoutSecs: ev.target.value })}
              {...invalid("callTimeoutSecs")}
            />
            <FieldError errors={errors} field="callTimeoutSecs" />
          </div>
        </div>
        <label className="mcp-check">
          <input type="checkbox" checked={f.enabled} onChange={(ev) => edit({ enabled: ev.target.checked })} /> Start it (enabled)
        </label>
      </details>

      {e.showErrors && Object.keys(e.errors).length > 0 && (
        <p className="alert small" data-testid="mcp-form-invalid">
          Fix the marked fields first; nothing was sent.
        </p>
      )}
      {e.saveError !== null && (
        <p className="alert" role="alert" data-testid="mcp-save-error">
          Not saved: {e.saveError}
        </p>
      )}
      {e.validationError !== null && (
        <p className="alert" role="alert" data-testid="mcp-validation-error">
          Could not try it: {e.validationError}
        </p>
      )}
      {e.validation !== null && <ValidationResult report={e.validation} />}

      <div className="actions">
        <button type="button" className="btn" onClick={() => void mcp.validateEditor()} disabled={e.validating} data-testid="mcp-validate">
          {e.validating ? "Trying…" : "Try it"}
        </button>
        <button type="button" className="btn" onClick={() => mcp.closeEditor()} data-testid="mcp-cancel">
          Cancel
        </button>
        <button type="submit" className="btn primary" disabled={e.saving} data-testid="mcp-save">
          {e.saving ? "Saving…" : "Save"}
        </button>
      </div>
    </form>
  );
}

function ValueRows({
  title,
  section,
  rows,
  errors,
  onChange,
  addLabel,
}: {
  title: string;
  section: "env" | "headers";
  rows: ValueRow[];
  errors: Record<string, string>;
  onChange: (rows: ValueRow[]) => void;
  addLabel: string;
}) {
  const put = (i: number, patch: Partial<ValueRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const what = section === "env" ? "variable" : "header";
  return (
    <fieldset className="mcp-values-edit" data-testid={`mcp-${section}`}>
      <legend>{title}</legend>
      {rows.length === 0 && <p className="muted small">None.</p>}
      {rows.map((r, i) => {
        const secret = rowSecret(r);
        const key = `${section}.${i}`;
        return (
          <div className="mcp-value-row" key={i} data-testid="mcp-value-row">
            <input
              aria-label={`${what} ${i + 1} name`}
              placeholder={section === "env" ? "NAME" : "Header-Name"}
              value={r.name}
              onChange={(ev) => put(i, { name: ev.target.value })}
              spellCheck={false}
              data-testid="mcp-row-name"
              aria-invalid={errors[`${key}.name`] !== undefined}
            />
            <input
              aria-label={`${what} ${i + 1} value`}
              type={secret ? "password" : "text"}
              autoComplete="off"
              placeholder={r.stored && r.value === "" ? "•••••••• stored in the keychain; type to replace" : "value"}
              value={r.value}
              onChange={(ev) => put(i, { value: ev.target.value })}
              spellCheck={false}
              data-testid="mcp-row-value"
              aria-invalid={errors[`${key}.value`] !== undefined}
            />
            <label className="mcp-check" title="Store the value in the OS keychain; the config file keeps only a reference">
              <input type="checkbox" checked={secret} onChange={(ev) => put(i, { secret: ev.target.checked })} data-testid="mcp-row-secret" />{" "}
              secret
            </label>
            <button
              type="button"
              className="icon-btn"
              aria-label={`Remove ${what} ${r.name || i + 1}`}
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
            >
              <TrashIcon />
            </button>
            <FieldError errors={errors} field={`${key}.name`} />
            <FieldError errors={errors} field={`${key}.value`} />
          </div>
        );
      })}
      <button type="button" className="link small" onClick={() => onChange([...rows, emptyRow()])} data-testid={`mcp-add-${section}`}>
        + {addLabel}
      </button>
    </fieldset>
  );
}

function ValidationResult({ report }: { report: ValidationReport }) {
  return (
    <div className={`mcp-validation ${report.ok ? "ok" : "failed"}`} role="status" data-testid="mcp-validation" data-ok={report.ok}>
      {report.ok ? (
        <>
          <p>
            It works: connected and listed {report.tools.length} {report.tools.length === 1 ? "tool" : "tools"} in {report.elapsedMs} ms. Nothing
            was saved yet.
          </p>
          {report.tools.length > 0 && (
            <ul className="mcp-validation-tools">
              {report.tools.map((t) => (
                <li key={t.name}>
                  <code>{t.name}</code>
                  {t.description !== undefined && <span className="muted"> — {t.description}</span>}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <>
          <p>It did not connect: {report.error ?? "no reason given"}</p>
          {report.stderr.length > 0 && (
            <>
              <p className="muted small">Last lines the server wrote to stderr:</p>
              <pre>{report.stderr.join("\n")}</pre>
            </>
          )}
        </>
      )}
    </div>
  );
}

const PASTE_EXAMPLE = `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/projects"]
    }
  }
}`;

function PasteImport({ paste: p, mcp }: { paste: PasteState; mcp: McpStore }) {
  const id = useId();
  const single = p.text.trim() !== "" && checkPastedJson(p.text, p.name || "x").single;
  return (
    <form
      className="mcp-editor card"
      aria-label="Import servers from JSON"
      data-testid="mcp-paste-form"
      onSubmit={(ev) => {
        ev.preventDefault();
        void mcp.importPaste();
      }}
    >
      <h3>Paste JSON</h3>
      <p className="muted small">
        The <code>mcpServers</code> block Claude Desktop and most server READMEs use, a map of servers, or one server's
        entry. Values of names like <code>*_TOKEN</code>, <code>*_KEY</code> or <code>Authorization</code> go to the keychain.
      </p>
      <div className="field">
        <label htmlFor={`${id}-text`}>JSON</label>
        <textarea
          id={`${id}-text`}
          rows={9}
          value={p.text}
          placeholder={PASTE_EXAMPLE}
          onChange={(ev) => mcp.editPaste({ text: ev.target.value })}
          spellCheck={false}
          autoFocus
          data-testid="mcp-paste-text"
          aria-invalid={p.error !== null}
        />
      </div>
      {single && (
        <div className="field">
          <label htmlFor={`${id}-name`}>This is one server's entry; its name</label>
          <input id={`${id}-name`} value={p.name} onChange={(ev) => mcp.editPaste({ name: ev.target.value })} data-testid="mcp-paste-name" />
        </div>
      )}
      <label className="mcp-check">
        <input type="checkbox" checked={p.overwrite} onChange={(ev) => mcp.editPaste({ overwrite: ev.target.checked })} data-testid="mcp-paste-overwrite" />{" "}
        Replace servers with the same name
      </label>
      {p.error !== null && (
        <p className="alert" role="alert" data-testid="mcp-paste-error">
          {p.error}
        </p>
      )}
      <div className="actions">
        <button type="button" className="btn" onClick={() => mcp.closePaste()}>
          Cancel
        </button>
        <button type="submit" className="btn primary" disabled={p.importing} data-testid="mcp-paste-import">
          {p.importing ? "Importing…" : "Import"}
        </button>
      </div>
    </form>
  );
}
