/**
 * Checks pasted MCP server JSON before it is sent, in the shapes the backend imports
 * (crates/mcp import.rs): a whole config `{"mcpServers": {...}}`, a map of servers, or one
 * server entry given a name. Mistakes become sentences that say where and what to change;
 * the fragment people copy from READMEs (`"github": {...}` without the outer braces) is
 * accepted by wrapping it.
 */
import { serverNameProblem } from "./mcpForm";

export type PasteCheck =
  | {
      ok: true;
      /** The text to send (wrapped in braces when a fragment was pasted). */
      text: string;
      /** The servers it names; for a single entry, the name given. */
      names: string[];
      /** The JSON is one server entry (the name field is used). */
      single: boolean;
    }
  | { ok: false; error: string; single: boolean };

/** Line and column (1-based) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines.at(-1) ?? "").length + 1 };
}

function lineOf(text: string, offset: number): number {
  return lineColumn(text, offset).line;
}

/**
 * The reason JSON.parse gave, without the engine's wording of where, plus line and column when
 * the engine says (V8 gives a position; WebKit, the desktop window's engine, does not).
 */
export function syntaxSentence(text: string, err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  const trailingComma = /,\s*[}\]]/.exec(text);
  if (trailingComma) {
    return `Line ${lineOf(text, trailingComma.index)} ends a list or object with a comma; JSON allows no comma before } or ]. Remove it.`;
  }
  const comment = /(^|\n)\s*(\/\/|\/\*|#)/.exec(text);
  if (comment) {
    return `Line ${lineOf(text, comment.index + comment[1]!.length)} is a comment; JSON has no comments. Remove it.`;
  }
  const singleQuoted = /'[^'\n]*'\s*:/.exec(text);
  if (singleQuoted) {
    return `Line ${lineOf(text, singleQuoted.index)} uses 'single quotes'; JSON needs "double quotes" around names and text.`;
  }
  const pos = /at position (\d+)/.exec(raw);
  if (/Unexpected end of JSON input|Unterminated string|Unexpected EOF/i.test(raw) || (pos && Number(pos[1]) >= text.trimEnd().length)) {
    return "The JSON ends too early: a closing }, ] or \" is missing. Check that the whole block was copied.";
  }
  // Newer engines already give "(line L column C)"; older ones only the position.
  const detail = raw
    .replace(/\s*\(line \d+ column \d+\)/, "")
    .replace(/\s*in JSON at position \d+/, "")
    .replace(/^JSON\.parse: /, "")
    .replace(/^JSON Parse error: /, "")
    .trim();
  const lc = /line (\d+) column (\d+)/.exec(raw);
  const offset = pos ? Number(pos[1]) : lc ? null : jsonErrorOffset(text);
  const at = offset !== null ? lineColumn(text, offset) : lc ? { line: Number(lc[1]), column: Number(lc[2]) } : null;
  return at !== null
    ? `This is not valid JSON: ${detail} at line ${at.line}, column ${at.column}.`
    : `This is not valid JSON: ${detail}.`;
}

/**
 * Where JSON text first goes wrong (a character offset), or null when it is valid: for engines
 * whose JSON.parse errors do not say where. A plain recursive-descent scan of RFC 8259.
 */
export function jsonErrorOffset(text: string): number | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text.charAt(i))) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    for (const ch of word) if (text.charAt(i++) !== ch) (i--, fail());
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail();
      const c = text.charCodeAt(i);
      if (c === 0x22) return void i++;
      if (c < 0x20) fail();
      if (c === 0x5c) {
        i++;
        const e = text.charAt(i);
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 5;
        } else if ('"\\/bfnrt'.includes(e) && e !== "") i++;
        else fail();
      } else i++;
    }
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (m === null || m[0] === "" || m[0] === "-") fail();
    else i += m[0].length;
  };
  const value = (): void => {
    ws();
    const c = text.charAt(i);
    if (c === "{") {
      i++;
      ws();
      if (text.charAt(i) === "}") return void i++;
      for (;;) {
        ws();
        if (text.charAt(i) !== '"') fail();
        string();
        ws();
        if (text.charAt(i) !== ":") fail();
        i++;
        value();
        ws();
        if (text.charAt(i) === ",") i++;
        else if (text.charAt(i) === "}") return void i++;
        else fail();
      }
    } else if (c === "[") {
      i++;
      ws();
      if (text.charAt(i) === "]") return void i++;
      for (;;) {
        value();
        ws();
        if (text.charAt(i) === ",") i++;
        else if (text.charAt(i) === "]") return void i++;
        else fail();
      }
    } else if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else number();
  };
  try {
    value();
    ws();
    return i < text.length ? i : null;
  } catch (at) {
    return typeof at === "number" ? at : 0;
  }
}

function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return "a text";
  return `a ${typeof v}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** What is wrong with one server entry, or null. */
export function entryProblem(name: string, entry: unknown): string | null {
  const who = `“${name}”`;
  if (!isObject(entry)) return `${who} should be an object with "command" or "url", but it is ${kindOf(entry)}.`;
  const type = typeof entry.type === "string" ? entry.type.trim().toLowerCase() : null;
  if (type === "sse") {
    return `${who} uses the old SSE transport, which Workbench does not speak; most servers also serve streamable HTTP (often at /mcp instead of /sse).`;
  }
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand && hasUrl) return `${who} has both "command" and "url"; keep one.`;
  if (!hasCommand && !hasUrl) return `${who} needs "command" (a program to start) or "url" (a streamable HTTP server).`;
  if (hasCommand && (typeof entry.command !== "string" || entry.command.trim() === "")) return `${who}: "command" should be a non-empty text.`;
  if (hasUrl && (typeof entry.url !== "string" || entry.url.trim() === "")) return `${who}: "url" should be a non-empty text.`;
  if (entry.args !== undefined && !(Array.isArray(entry.args) && entry.args.every((a) => typeof a === "string"))) {
    return `${who}: "args" should be a list of texts, like ["-y", "some-server"].`;
  }
  for (const section of ["env", "headers"] as const) {
    const map = entry[section];
    if (map === undefined) continue;
    if (!isObject(map)) return `${who}: "${section}" should be an object of names and values.`;
    for (const [k, v] of Object.entries(map)) {
      const secretRef = isObject(v) && typeof v.secret === "string";
      if (typeof v !== "string" && !secretRef) return `${who}: "${section}" value “${k}” should be a text, but it is ${kindOf(v)}.`;
    }
  }
  return null;
}

function parse(text: string): { value: unknown; text: string } | { error: unknown } {
  try {
    return { value: JSON.parse(text), text };
  } catch (err) {
    // A fragment copied from a README: `"name": {...}` or `"mcpServers": {...}`.
    if (/^\s*"/.test(text)) {
      const wrapped = `{${text.trim().replace(/,\s*$/, "")}}`;
      try {
        return { value: JSON.parse(wrapped), text: wrapped };
      } catch {
        // Report the error of what was pasted, not of our wrapping.
      }
    }
    return { error: err };
  }
}

/** Checks pasted JSON; `name` names a single pasted entry. */
export function checkPastedJson(pasted: string, name: string): PasteCheck {
  if (pasted.trim() === "") return { ok: false, error: "Paste the JSON first.", single: false };
  const parsed = parse(pasted);
  if ("error" in parsed) return { ok: false, error: syntaxSentence(pasted, parsed.error), single: false };
  const { value, text } = parsed;
  if (!isObject(value)) {
    return { ok: false, error: `Expected a JSON object like {"mcpServers": {...}}, but this is ${kindOf(value)}.`, single: false };
  }
  let servers: Record<string, unknown>;
  let single = false;
  if ("mcpServers" in value) {
    if (!isObject(value.mcpServers)) {
      return { ok: false, error: `"mcpServers" should be an object of servers by name, but it is ${kindOf(value.mcpServers)}.`, single };
    }
    servers = value.mcpServers;
  } else if ("command" in value || "url" in value) {
    single = true;
    const problem = serverNameProblem(name, []);
    if (problem !== null) {
      return { ok: false, error: `This is one server's entry: give it a name. ${problem}`, single };
    }
    servers = { [name.trim()]: value };
  } else {
    servers = value;
  }
  const names = Object.keys(servers);
  if (names.length === 0) return { ok: false, error: "The JSON names no servers.", single };
  for (const n of names) {
    const problem = serverNameProblem(n, []);
    if (problem !== null) return { ok: false, error: `The server name “${n}”: ${problem}`, single };
    const entryError = entryProblem(n, servers[n]);
    if (entryError !== null) return { ok: false, error: entryError, single };
  }
  return { ok: true, text, names, single };
}
