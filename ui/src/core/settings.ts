/** The provider form: defaults per kind and validation with sentences a person can act on. */
import type { ProviderKind } from "../bindings/ProviderKind";
import type { ProviderSettings } from "../bindings/ProviderSettings";
import type { ProviderStatus } from "../bindings/ProviderStatus";

export type ProviderForm = {
  kind: ProviderKind;
  baseUrl: string;
  model: string;
  /** Empty means "keep the stored key" (sent as null). */
  apiKey: string;
};

export const DEFAULT_BASE_URL: Record<ProviderKind, string> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
};

export function formFromStatus(status: ProviderStatus | null): ProviderForm {
  const s = status?.settings;
  if (!s) return { kind: "openai", baseUrl: DEFAULT_BASE_URL.openai, model: "", apiKey: "" };
  return { kind: s.kind, baseUrl: s.base_url, model: s.model, apiKey: "" };
}

/** Switching kind swaps the base URL only if it was still the other kind's default. */
export function withKind(form: ProviderForm, kind: ProviderKind): ProviderForm {
  const wasDefault =
    form.baseUrl.trim() === "" || Object.values(DEFAULT_BASE_URL).includes(form.baseUrl.trim());
  return { ...form, kind, baseUrl: wasDefault ? DEFAULT_BASE_URL[kind] : form.baseUrl };
}

/** True for loopback and private-network hosts: local servers that need no key. */
export function isLocalUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl.trim()).hostname;
  } catch {
    return false;
  }
  return (
    host === "localhost" ||
    host === "[::1]" ||
    host.endsWith(".local") ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host)
  );
}

export type FormErrors = Partial<Record<"baseUrl" | "model" | "apiKey", string>>;

/**
 * Checks the form before it is sent. `hasStoredKey` is whether the keychain already holds a
 * key for this provider (then an empty key field means "keep it").
 */
export function validateForm(form: ProviderForm, hasStoredKey: boolean): FormErrors {
  const errors: FormErrors = {};
  const url = form.baseUrl.trim();
  if (url === "") {
    errors.baseUrl = "Enter the base URL of the provider, e.g. http://localhost:11434/v1.";
  } else {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
    if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:") || !parsed.host) {
      errors.baseUrl = `"${url}" is not a valid URL. It must start with http:// or https://.`;
    }
  }
  if (form.model.trim() === "") errors.model = "Enter the name of the model to use.";
  if (form.kind === "anthropic" && form.apiKey.trim() === "" && !hasStoredKey) {
    errors.apiKey = "Anthropic needs an API key.";
  }
  return errors;
}

export function toSettings(form: ProviderForm): { settings: ProviderSettings; apiKey: string | null } {
  const key = form.apiKey.trim();
  return {
    settings: { kind: form.kind, base_url: form.baseUrl.trim(), model: form.model.trim() },
    apiKey: key === "" ? null : key,
  };
}
