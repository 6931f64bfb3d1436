import { useEffect, useId, useMemo, useSyncExternalStore } from "react";
import type { Permission } from "../bindings/Permission";
import { createPermissionsStore, permissionRows, permissionWord, PERMISSIONS } from "../core/permissions";
import { useStore } from "./storeContext";
import "./folders.css";

const LABEL: Record<Permission, string> = { allow: "Always allow", ask: "Ask", never: "Never" };

/**
 * Settings -> Permissions: whether each group of tools (and each tool) runs, asks first or
 * never runs, and the shell's network and unconfined switches. Every change saves at once.
 */
export function PermissionsSettings() {
  const app = useStore();
  const perms = useMemo(() => createPermissionsStore(app.api), [app]);
  const state = useSyncExternalStore(perms.subscribe, perms.getState);
  const rows = useMemo(() => permissionRows(state.report, state.policy), [state.report, state.policy]);

  useEffect(() => {
    void perms.load();
  }, [perms]);

  if (state.loading) {
    return (
      <p className="muted" role="status">
        Loading permissions…
      </p>
    );
  }
  const shell = state.shell;
  return (
    <div className="permissions" data-testid="permissions-settings">
      {state.error !== null && (
        <p className="alert" role="alert" data-testid="permissions-error">
          {state.error}
        </p>
      )}
      {state.notice !== null && (
        <p className="perm-notice small" role="status" data-testid="permissions-notice">
          {state.notice}
        </p>
      )}
      <section aria-labelledby="perm-shell">
        <h3 id="perm-shell">Shell</h3>
        {shell === null ? (
          <p className="muted small">The shell's settings could not be read.</p>
        ) : (
          <>
            <p className="muted small" data-testid="shell-confinement">
              {shell.confinement !== null
                ? `Commands run confined (${shell.confinement}): they can write only inside the conversation's folders.`
                : "This computer offers no OS confinement for commands, so the shell is off unless you allow it to run unconfined."}
            </p>
            <label className="perm-switch">
              <input
                type="checkbox"
                checked={shell.allow_network}
                onChange={(e) => void perms.setShell({ allow_network: e.target.checked })}
                data-testid="shell-network"
              />
              <span>Let shell commands use the network (downloads, package installs, web requests)</span>
            </label>
            {(shell.confinement === null || shell.allow_unconfined) && (
              <label className="perm-switch">
                <input
                  type="checkbox"
                  checked={shell.allow_unconfined}
                  onChange={(e) => void perms.setShell({ allow_unconfined: e.target.checked })}
                  data-testid="shell-unconfined"
                />
                <span>Run shell commands unconfined: they can then change any file your user account can</span>
              </label>
            )}
          </>
        )}
      </section>
      <section aria-labelledby="perm-approvals">
        <h3 id="perm-approvals">Approvals</h3>
        <p className="muted small">
          Before a tool runs: always allow it, ask you first, or never run it (the agent is told). A tool's own setting beats its
          group's. By default the shell and network tools ask; reading and writing in the conversation's folders is allowed.
        </p>
        {state.reportError !== null && (
          <p className="muted small" data-testid="permissions-report-error">
            The tools could not be listed ({state.reportError}); groups can still be set.
          </p>
        )}
        <ul className="perm-groups" aria-label="Approval rules by group">
          {rows.map((row) => (
            <li key={row.group} className="perm-group" data-testid="perm-group" data-group={row.group}>
              <div className="perm-row">
                <span className="perm-name">
                  <strong>{row.group}</strong>
                </span>
                <PermissionSelect
                  label={`Approval for group ${row.group}`}
                  value={row.rule}
                  inherit={`Default (${permissionWord(row.fallback)})`}
                  testId="perm-group-select"
                  onChange={(p) => void perms.setGroup(row.group, p)}
                />
              </div>
              {row.tools.length > 0 && (
                <details open={row.tools.some((t) => t.rule !== null)}>
                  <summary>
                    {row.tools.length} tool{row.tools.length === 1 ? "" : "s"}
                  </summary>
                  <ul className="perm-tools">
                    {row.tools.map((t) => (
                      <li key={t.name} className="perm-row" data-testid="perm-tool" data-tool={t.name}>
                        <code className="perm-name">{t.name}</code>
                        <span className="perm-why muted" data-testid="perm-effective">
                          {permissionWord(t.decision.permission)}
                        </span>
                        <PermissionSelect
                          label={`Approval for tool ${t.name}`}
                          value={t.rule}
                          inherit="As its group"
                          testId="perm-tool-select"
                          onChange={(p) => void perms.setTool(t.name, p)}
                        />
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function PermissionSelect({
  label,
  value,
  inherit,
  testId,
  onChange,
}: {
  label: string;
  value: Permission | null;
  inherit: string;
  testId: string;
  onChange: (p: Permission | null) => void;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <select
        id={id}
        className="perm-select"
        value={value ?? ""}
        data-testid={testId}
        onChange={(e) => onChange(PERMISSIONS.find((p) => p === e.target.value) ?? null)}
      >
        <option value="">{inherit}</option>
        {PERMISSIONS.map((p) => (
          <option key={p} value={p}>
            {LABEL[p]}
          </option>
        ))}
      </select>
    </>
  );
}
