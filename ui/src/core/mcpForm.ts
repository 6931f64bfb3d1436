/**
 * The MCP manager's pure parts: the add/edit form and its conversion to and from the backend's
 * types, the form's checks, masking of secret values, status and tool descriptions for display,
 * and the check of pasted `mcpServers` JSON with errors a user can act on. No React, no IPC.
 *
 * The checks mirror the backend's (crates/mcp config.rs, edit.rs, import.rs) so mistakes are
 * shown next to the field before anything is sent; the backend checks again and its sentence is
 * shown when it still refuses.
 */
import type { ImportReport } from "../bindings/ImportReport";
import type { ServerInput } from "../bindings/ServerInput";
import type { ServerStatus } from "../bindings/ServerStatus";
import type { ServerView } from "../bindings/ServerView";
import type { ValueInput } from "../bindings/ValueInput";
import type { ValueView } from "../bindings/ValueView";

/** What a secret looks like on screen: fixed length, so it does not tell the value's length. */
export const MASK = "••••••••";

/** As the backend's `MAX_SERVER_NAME_LEN`: the name prefixes tool names and keychain accounts. */
export const MAX_SERVER_NAME_LEN = 40;

/** Name parts that make a value secret unless the user says otherwise (as `secrets::looks_secret`). */
const SECRET_NAME_PARTS = ["AUTHORIZATION", "KEY", "TOKEN", "SECRET", "PASS", "CREDENTIAL", "COOKIE"];

/** Whether a value of this env variable or header is stored in the keychain by default. */
export function looksSecret(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_NAME_PARTS.some((p) => upper.includes(p));
}

/** A secret is shown as the mask, a plain value as itself. */
export function maskValue(v: ValueView): string {
  return v.secret ? MASK : (v.value ?? "");
}

/** One env variable or header in the form. */
export type ValueRow = {
  name: string;
  /** What the user typed; for a stored secret, empty means "keep the stored value". */
  value: string;
  /** The secret checkbox; null = not touched, follow the name (see `rowSecret`). */
  secret: boolean | null;
  /** A secret already in the keychain under `storedName` (its value is never sent to the UI). */
  stored: boolean;
  storedName: string;
};

/** The add/edit form as typed: text fields stay strings until they are sent. */
export type ServerForm = {
  name: string;
  kind: "stdio" | "http";
  command: string;
  /** One argument per line. */
  args: string;
  cwd: string;
  env: ValueRow[];
  url: string;
  headers: ValueRow[];
  enabled: boolean;
  startupTimeoutSecs: string;
  callTimeoutSecs: string;
  /** Kept from the server being edited; the page switches tools in the list, not here. */
  disabledTools: string[];
};

export function emptyRow(): ValueRow {
  return { name: "", value: "", secret: null, stored: false, storedName: "" };
}

export function emptyForm(): ServerForm {
  return {
    name: "",
    kind: "stdio",
    command: "",
    args: "",
    cwd: "",
    env: [],
    url: "",
    headers: [],
    enabled: true,
    startupTimeoutSecs: "",
    callTimeoutSecs: "",
    disabledTools: [],
  };
}

/** Whether a row's value goes to the keychain: the checkbox, or the name when not touched. */
export function rowSecret(row: ValueRow): boolean {
  return row.secret ?? looksSecret(row.name);
}

const DEFAULT_STARTUP_SECS = 30;
const DEFAULT_CALL_SECS = 60;

function rowFromView(v: ValueView): ValueRow {
  return v.secret
    ? { name: v.name, value: "", secret: true, stored: true, storedName: v.name }
    : // Shown plain by the backend: the user (or the name) chose plain, keep it so.
      { name: v.name, value: v.value ?? "", secret: false, stored: false, storedName: v.name };
}

/** The form for editing a configured server. */
export function formFromServer(s: ServerView): ServerForm {
  return {
    name: s.name,
    kind: s.transport ?? (s.url !== undefined ? "http" : "stdio"),
    command: s.command ?? "",
    args: s.args.join("\n"),
    cwd: s.cwd ?? "",
    env: s.env.map(rowFromView),
    url: s.url ?? "",
    headers: s.headers.map(rowFromView),
    enabled: s.enabled,
    startupTimeoutSecs: s.startupTimeoutSecs === DEFAULT_STARTUP_SECS ? "" : String(s.startupTimeoutSecs),
    callTimeoutSecs: s.callTimeoutSecs === DEFAULT_CALL_SECS ? "" : String(s.callTimeoutSecs),
    disabledTools: [...s.disabledTools],
  };
}

function isBlank(row: ValueRow): boolean {
  return row.name.trim() === "" && row.value === "" && !row.stored;
}

function rowInput(row: ValueRow): ValueInput {
  const out: ValueInput = { name: row.name.trim(), secret: rowSecret(row) };
  // An untouched stored secret is left out so the backend keeps the keychain's value.
  if (!(row.stored && row.value === "")) out.value = row.value;
  return out;
}

function seconds(text: string): number | undefined {
  return text.trim() === "" ? undefined : Number(text.trim());
}

/** The argument list: one per line, surrounding spaces and empty lines dropped. */
export function argList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((a) => a.trim())
    .filter((a) => a !== "");
}

/** What the backend's save and validate take. Call `validateForm` first. */
export function formToInput(f: ServerForm): ServerInput {
  const transport: ServerInput["transport"] =
    f.kind === "stdio"
      ? {
          kind: "stdio",
          command: f.command.trim(),
          args: argList(f.args),
          env: f.env.filter((r) => !isBlank(r)).map(rowInput),
          ...(f.cwd.trim() !== "" ? { cwd: f.cwd.trim() } : {}),
        }
      : { kind: "http", url: f.url.trim(), headers: f.headers.filter((r) => !isBlank(r)).map(rowInput) };
  const input: ServerInput = { name: f.name.trim(), transport, enabled: f.enabled, disabledTools: [...f.disabledTools] };
  const startup = seconds(f.startupTimeoutSecs);
  const call = seconds(f.callTimeoutSecs);
  if (startup !== undefined) input.startupTimeoutSecs = startup;
  if (call !== undefined) input.callTimeoutSecs = call;
  return input;
}

/** Field key -> what is wrong with it. Keys: name, command, url, cwd, startupTimeoutSecs,
 * callTimeoutSecs, `env.<i>.name`, `env.<i>.value`, `headers.<i>.name`, `headers.<i>.value`. */
export type FieldErrors = Record<string, string>;

/** A header name HTTP allows (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** An env variable name the OS accepts: no `=`, no NUL. */
const ENV_NAME = /^[^=\0]+$/;

/** Problems of a server name, as the backend words them; null when it is fine. */
export function serverNameProblem(name: string, taken: readonly string[]): string | null {
  const n = name.trim();
  if (n === "") return "Give the server a name.";
  if ([...n].length > MAX_SERVER_NAME_LEN) return `Use at most ${MAX_SERVER_NAME_LEN} characters.`;
  // eslint-disable-next-line no-control-regex
  if (n.includes("/") || /[\u0000-\u001f\u007f]/.test(n)) return "A name may not contain “/” or control characters.";
  if (taken.includes(n)) return `A server named “${n}” already exists; edit it or pick another name.`;
  return null;
}

function timeoutProblem(text: string): string | null {
  const t = text.trim();
  if (t === "") return null;
  if (!/^\d+$/.test(t) || Number(t) < 1) return "Use a whole number of seconds, at least 1 (empty = default).";
  if (Number(t) > 3600) return "Use at most 3600 seconds.";
  return null;
}

function rowProblems(rows: ValueRow[], section: "env" | "headers", out: FieldErrors) {
  const seen = new Set<string>();
  const what = section === "env" ? "variable" : "header";
  rows.forEach((row, i) => {
    if (isBlank(row)) return;
    const name = row.name.trim();
    const key = `${section}.${i}`;
    if (name === "") out[`${key}.name`] = `This ${what} has a value but no name.`;
    else if (section === "headers" && !HEADER_NAME.test(name)) out[`${key}.name`] = `“${name}” is not a header name HTTP allows (letters, digits, - and _).`;
    else if (section === "env" && !ENV_NAME.test(name)) out[`${key}.name`] = "A variable name may not contain “=”.";
    else if (seen.has(section === "headers" ? name.toLowerCase() : name)) out[`${key}.name`] = `“${name}” is given twice.`;
    seen.add(section === "headers" ? name.toLowerCase() : name);
    if (row.value !== "") return;
    if (!row.stored) out[`${key}.value`] = `Give “${name || what}” a value.`;
    // The keychain entry belongs to the stored name; a renamed or un-secreted row needs its value again.
    else if (name !== row.storedName) out[`${key}.value`] = `Type the value again: the stored secret belongs to “${row.storedName}”.`;
    else if (!rowSecret(row)) out[`${key}.value`] = "Type the value to store it as plain text instead of in the keychain.";
  });
}

/**
 * What is wrong with the form, per field; empty when it can be sent. `taken` are the names
 * of other configured servers (when adding; editing keeps its own name).
 */
export function validateForm(f: ServerForm, taken: readonly string[]): FieldErrors {
  const out: FieldErrors = {};
  const nameProblem = serverNameProblem(f.name, taken);
  if (nameProblem !== null) out.name = nameProblem;
  if (f.kind === "stdio") {
    if (f.command.trim() === "") out.command = "Give the command that starts the server, e.g. npx or uvx.";
    rowProblems(f.env, "env", out);
  } else {
    const url = f.url.trim();
    if (url === "") out.url = "Give the server's URL, e.g. https://example.com/mcp.";
    else {
      let parsed: URL | null = null;
      try {
        parsed = new URL(url);
      } catch {
        out.url = "This is not a full URL; it should start with http:// or https://.";
      }
      if (parsed !== null && parsed.protocol !== "http:" && parsed.protocol !== "https:")
        out.url = "Only http:// and https:// URLs are supported.";
      else if (parsed !== null && /\/sse\/?$/.test(parsed.pathname))
        out.url = "This looks like the old SSE endpoint, which Workbench does not speak; most servers also serve streamable HTTP, often at /mcp.";
    }
    rowProblems(f.headers, "headers", out);
  }
  for (const key of ["startupTimeoutSecs", "callTimeoutSecs"] as const) {
    const p = timeoutProblem(f[key]);
    if (p !== null) out[key] = p;
  }
  return out;
}

/**
 * Splits a pasted command line into words the way a shell would for plain cases: spaces
 * separate, "double" and 'single' quotes group, a backslash escapes the next character
 * (not inside single quotes). For "npx -y @scope/server" typed into the command field.
 */
export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let cur = "";
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quote === "'") {
      if (c === "'") quote = null;
      else cur += c;
    } else if (c === "\\" && i + 1 < text.length) {
      cur += text.charAt(++i);
      inWord = true;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = "";
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

/** A command line for display, with arguments quoted where a shell would need it. */
export function commandLine(command: string, args: readonly string[]): string {
  const quote = (w: string) => (w === "" ? "''" : /[\s"'\\$`]/.test(w) ? `'${w.replace(/'/g, `'\\''`)}'` : w);
  return [command, ...args].map(quote).join(" ");
}

/** How a status is shown: a short label, a tone for its colour, and the error with stderr. */
export type StatusView = {
  label: string;
  tone: "off" | "busy" | "ok" | "error";
  error: string | null;
  stderr: string[];
};

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? "" : "s"}`;
}

/** The status pill of a server. `off` is how many of its listed tools are switched off. */
export function statusView(status: ServerStatus, off = 0): StatusView {
  switch (status.state) {
    case "disabled":
      return { label: "Disabled", tone: "off", error: null, stderr: [] };
    case "connecting":
      return { label: "Connecting…", tone: "busy", error: null, stderr: [] };
    case "connected":
      return {
        label: `Connected · ${plural(status.toolCount, "tool")}${off > 0 ? ` (${off} off)` : ""}`,
        tone: "ok",
        error: null,
        stderr: [],
      };
    case "failed":
      return { label: "Failed", tone: "error", error: status.error, stderr: status.stderr };
    case "reconnecting": {
      const secs = Math.max(1, Math.round(status.retryInMs / 1000));
      return {
        label: `Reconnecting · attempt ${status.attempt}, next in ${secs} s`,
        tone: "busy",
        error: status.error,
        stderr: status.stderr,
      };
    }
  }
}

/** One parameter of a tool, from its input schema. */
export type ToolParam = { name: string; type: string; required: boolean; description: string | null };

function schemaType(s: unknown): string {
  if (s === null || typeof s !== "object") return "any";
  const o = s as Record<string, unknown>;
  if (Array.isArray(o.enum) && o.enum.length > 0) return o.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (o.type === "array") return `${schemaType(o.items)}[]`;
  if (Array.isArray(o.type)) return o.type.filter((t): t is string => typeof t === "string").join(" | ") || "any";
  if (typeof o.type === "string") return o.type;
  for (const key of ["anyOf", "oneOf"]) {
    const alts = o[key];
    if (Array.isArray(alts) && alts.length > 0) return alts.map(schemaType).join(" | ");
  }
  return "any";
}

/** The parameters a tool takes, required ones first, from its JSON Schema. */
export function toolParams(schema: Record<string, unknown>): ToolParam[] {
  const props = schema.properties;
  if (props === null || typeof props !== "object" || Array.isArray(props)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
  const out = Object.entries(props as Record<string, unknown>).map(([name, s]) => {
    const d = s !== null && typeof s === "object" ? (s as Record<string, unknown>).description : undefined;
    return { name, type: schemaType(s), required: required.has(name), description: typeof d === "string" && d.trim() !== "" ? d : null };
  });
  // Stable: the schema's order within each half.
  return [...out.filter((p) => p.required), ...out.filter((p) => !p.required)];
}

/** The sentence after an import; `replaceHint` says how to overwrite skipped servers. */
export function importSentence(
  report: ImportReport,
  replaceHint = "tick “Replace servers with the same name” to overwrite",
): string {
  const list = (names: string[]) => names.map((n) => `“${n}”`).join(", ");
  const parts: string[] = [];
  if (report.added.length > 0) parts.push(`Added ${list(report.added)}.`);
  if (report.skipped.length > 0) {
    parts.push(
      `Skipped ${list(report.skipped)}: a server of that name already exists (${replaceHint}).`,
    );
  }
  return parts.length > 0 ? parts.join(" ") : "Nothing was imported.";
}
