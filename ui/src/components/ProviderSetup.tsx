import { useEffect, useId, useState, type FormEvent } from "react";
import type { DetectedServer } from "../bindings/DetectedServer";
import type { ProviderKind } from "../bindings/ProviderKind";
import { errorText } from "../core/api";
import { formFromStatus, isLocalUrl, validateForm, withKind, type FormErrors, type ProviderForm } from "../core/settings";
import { useAppState, useStore } from "./storeContext";

/** The first-run screen, and the settings dialog opened later from the main view. */
export function ProviderSetup({ firstRun }: { firstRun: boolean }) {
  const store = useStore();
  const { provider } = useAppState();
  const [form, setForm] = useState<ProviderForm>(() => formFromStatus(provider));
  const [errors, setErrors] = useState<FormErrors>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [servers, setServers] = useState<DetectedServer[] | null>(null);
  const [detectError, setDetectError] = useState<string | null>(null);
  const [models, setModels] = useState<string[]>([]);
  const ids = { kind: useId(), url: useId(), model: useId(), key: useId(), models: useId(), keyHint: useId() };

  useEffect(() => {
    let live = true;
    store.detectLocalServers().then(
      (found) => live && setServers(found),
      (err: unknown) => {
        if (!live) return;
        setServers([]);
        setDetectError(errorText(err));
      },
    );
    return () => {
      live = false;
    };
  }, [store]);

  useEffect(() => {
    if (firstRun) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") store.closeSettings();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [firstRun, store]);

  const hasStoredKey = !!provider?.has_key && provider.settings?.kind === form.kind;
  const local = isLocalUrl(form.baseUrl);

  function update(patch: Partial<ProviderForm>) {
    setForm((f) => ({ ...f, ...patch }));
    setErrors((e) => {
      const next = { ...e };
      for (const k of Object.keys(patch)) delete next[k as keyof FormErrors];
      return next;
    });
  }

  function pickServer(server: DetectedServer) {
    setForm((f) => ({
      ...f,
      kind: "openai",
      baseUrl: server.base_url,
      model: server.models.includes(f.model) ? f.model : (server.models[0] ?? f.model),
    }));
    setModels(server.models);
    setErrors({});
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const found = validateForm(form, hasStoredKey);
    setErrors(found);
    setSaveError(null);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    const err = await store.saveProvider(form);
    setSaving(false);
    if (err !== null) setSaveError(err);
  }

  const errorList = [errors.baseUrl, errors.model, errors.apiKey].filter((x): x is string => !!x);

  return (
    <form className="card setup" data-testid="provider-setup" onSubmit={onSubmit} noValidate>
      <header className="setup-head">
        <h1>{firstRun ? "Welcome to Workbench" : "Settings"}</h1>
        <p className="muted">
          {firstRun
            ? "Choose the model provider the agent talks to. You can change it later in Settings."
            : "The model provider the agent talks to."}
        </p>
      </header>

      {provider?.keychain_error && (
        <p className="alert" role="alert" data-testid="keychain-error">
          <strong>The OS keychain is unavailable.</strong> {provider.keychain_error}
        </p>
      )}

      <section className="detected" aria-label="Local servers">
        <h2>Local servers</h2>
        {servers === null && <p className="muted small">Looking for Ollama, llama.cpp and LM Studio…</p>}
        {servers !== null && servers.length === 0 && (
          <p className="muted small">
            {detectError ?? "No local server found on the usual ports (Ollama, llama.cpp, LM Studio)."}
          </p>
        )}
        {servers !== null && servers.length > 0 && (
          <ul className="server-list">
            {servers.map((s) => (
              <li key={s.base_url}>
                <button
                  type="button"
                  className={"server" + (form.baseUrl === s.base_url ? " selected" : "")}
                  data-testid="detected-server"
                  aria-pressed={form.baseUrl === s.base_url}
                  onClick={() => pickServer(s)}
                >
                  <span className="server-name">{s.name}</span>
                  <span className="server-url">{s.base_url}</span>
                  <span className="server-models">
                    {s.models.length === 0 ? "no models listed" : `${s.models.length} model${s.models.length === 1 ? "" : "s"}`}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <div className="field">
        <label htmlFor={ids.kind}>Provider</label>
        <select
          id={ids.kind}
          data-testid="provider-kind"
          value={form.kind}
          onChange={(e) => setForm((f) => withKind(f, e.target.value as ProviderKind))}
        >
          <option value="openai">OpenAI-compatible</option>
          <option value="anthropic">Anthropic</option>
        </select>
      </div>

      <div className="field">
        <label htmlFor={ids.url}>Base URL</label>
        <input
          id={ids.url}
          data-testid="provider-base-url"
          type="url"
          inputMode="url"
          spellCheck={false}
          autoComplete="off"
          value={form.baseUrl}
          aria-invalid={!!errors.baseUrl}
          onChange={(e) => update({ baseUrl: e.target.value })}
          placeholder="http://localhost:11434/v1"
        />
      </div>

      <div className="field">
        <label htmlFor={ids.model}>Model</label>
        <input
          id={ids.model}
          data-testid="provider-model"
          list={models.length > 0 ? ids.models : undefined}
          spellCheck={false}
          autoComplete="off"
          value={form.model}
          aria-invalid={!!errors.model}
          onChange={(e) => update({ model: e.target.value })}
          placeholder={form.kind === "anthropic" ? "claude-sonnet-4-5" : "gpt-4o-mini, llama3.2, …"}
        />
        {models.length > 0 && (
          <>
            <datalist id={ids.models}>
              {models.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
            <div className="chips" aria-label="Models on this server">
              {models.map((m) => (
                <button
                  key={m}
                  type="button"
                  className={"chip" + (form.model === m ? " selected" : "")}
                  aria-pressed={form.model === m}
                  onClick={() => update({ model: m })}
                >
                  {m}
                </button>
              ))}
            </div>
          </>
        )}
      </div>

      <div className="field">
        <label htmlFor={ids.key}>API key</label>
        <input
          id={ids.key}
          data-testid="provider-api-key"
          type="password"
          autoComplete="off"
          value={form.apiKey}
          aria-invalid={!!errors.apiKey}
          aria-describedby={ids.keyHint}
          onChange={(e) => update({ apiKey: e.target.value })}
          placeholder="stored in your OS keychain"
        />
        <p id={ids.keyHint} className="muted small">
          {hasStoredKey
            ? "A key is stored in your OS keychain. Leave this empty to keep it."
            : local
              ? "Local servers need no key."
              : "Stored in your OS keychain, never in a file. Local servers need no key."}
        </p>
      </div>

      {(errorList.length > 0 || saveError !== null) && (
        <div className="alert" role="alert" data-testid="provider-error">
          {saveError !== null && <p>{saveError}</p>}
          {errorList.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      )}

      <div className="actions">
        {!firstRun && (
          <button type="button" className="btn" onClick={() => store.closeSettings()}>
            Cancel
          </button>
        )}
        <button type="submit" className="btn primary" data-testid="provider-save" disabled={saving}>
          {saving ? "Saving…" : "Save"}
        </button>
      </div>
    </form>
  );
}
