/**
 * What the artifacts panel derives from a file, without rendering anything: which preview a
 * file gets, the language its code is highlighted as, CSV rows, and the list order.
 */
import type { ArtifactContent, OutputFile } from "./api";

/** How a file is previewed. `none` has no preview in the app (open it with its app). */
export type PreviewKind = "markdown" | "code" | "image" | "html" | "pdf" | "csv" | "text" | "none";

/** Characters of text highlighted at most: highlighting a huge file would freeze the window. */
export const MAX_HIGHLIGHT_CHARS = 200_000;
/** Characters of plain text put in the page at most. */
export const MAX_TEXT_CHARS = 2_000_000;
/** Rows of a CSV table shown at most (the header counts as one). */
export const MAX_CSV_ROWS = 500;

/** File extension (lower case, no dot) -> highlight.js language of the common set. */
const LANGUAGES: Readonly<Record<string, string>> = {
  c: "c", h: "c", cc: "cpp", cpp: "cpp", hpp: "cpp", cs: "csharp", css: "css", diff: "diff",
  patch: "diff", go: "go", graphql: "graphql", ini: "ini", cfg: "ini", toml: "ini", java: "java",
  js: "javascript", mjs: "javascript", cjs: "javascript", jsx: "javascript", json: "json",
  kt: "kotlin", less: "less", lua: "lua", mk: "makefile", m: "objectivec", pl: "perl",
  php: "php", py: "python", r: "r", rb: "ruby", rs: "rust", scss: "scss", sh: "bash",
  bash: "bash", zsh: "bash", sql: "sql", swift: "swift", ts: "typescript", tsx: "typescript",
  mts: "typescript", vb: "vbnet", xml: "xml", svg: "xml", yaml: "yaml", yml: "yaml",
};

/** The last segment of a virtual path. */
export function fileName(path: string): string {
  const parts = path.split("/").filter((p) => p !== "");
  return parts.at(-1) ?? path;
}

/** The lower-case extension of a path, "" when it has none. */
export function extensionOf(path: string): string {
  const name = fileName(path);
  if (name === "Makefile" || name === "makefile") return "mk";
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/** The highlight.js language for a file, or null when it is not code the app knows. */
export function codeLanguage(path: string): string | null {
  return LANGUAGES[extensionOf(path)] ?? null;
}

/** Which preview `content` gets, from its type and name. */
export function previewKind(content: ArtifactContent): PreviewKind {
  const mime = content.mime.toLowerCase();
  const ext = extensionOf(content.path);
  if (content.text === null) {
    if (content.base64 === null) return "none";
    if (mime.startsWith("image/")) return "image";
    if (mime === "application/pdf") return "pdf";
    return "none";
  }
  // SVG arrives as text; shown as an image it cannot run scripts.
  if (mime === "image/svg+xml") return "image";
  if (mime === "text/markdown" || ext === "md" || ext === "markdown") return "markdown";
  if (mime === "text/html" || ext === "html" || ext === "htm") return "html";
  if (mime === "text/csv" || mime === "text/tab-separated-values" || ext === "csv" || ext === "tsv") return "csv";
  if (codeLanguage(content.path) !== null) return "code";
  return "text";
}

/** A `data:` URL for the preview of an image or PDF. */
export function dataUrl(content: ArtifactContent): string | null {
  if (content.base64 !== null) return `data:${content.mime};base64,${content.base64}`;
  if (content.text !== null) return `data:${content.mime};charset=utf-8,${encodeURIComponent(content.text)}`;
  return null;
}

/** `code` as a markdown fenced block the chat's renderer highlights as `lang`. */
export function fencedBlock(code: string, lang: string | null): string {
  // The fence must be longer than any run of backticks inside, or the block ends early.
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${lang ?? ""}\n${code}\n${fence}`;
}

export type CsvTable = {
  rows: string[][];
  /** Rows left out after `maxRows`. */
  omitted: number;
};

/**
 * Rows of CSV text (RFC 4180: quoted fields with doubled quotes, separators and line breaks
 * inside quotes, CRLF or LF). Forgiving, as files from models are: a quote inside an unquoted
 * field is kept as text and an unclosed quote runs to the end. Blank lines are skipped.
 */
export function parseCsv(text: string, delimiter = ",", maxRows = MAX_CSV_ROWS): CsvTable {
  const rows: string[][] = [];
  let omitted = 0;
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let fieldStarted = false;
  const endRow = () => {
    row.push(field);
    field = "";
    fieldStarted = false;
    const blank = row.length === 1 && row[0] === "";
    if (!blank) {
      if (rows.length < maxRows) rows.push(row);
      else omitted++;
    }
    row = [];
  };
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"') {
        if (body[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        field += c;
      }
    } else if (c === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (c === delimiter) {
      row.push(field);
      field = "";
      fieldStarted = false;
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && body[i + 1] === "\n") i++;
      endRow();
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (field !== "" || row.length > 0 || quoted) endRow();
  return { rows, omitted };
}

/** The separator of a CSV-like file: tab for .tsv, otherwise a comma. */
export function csvDelimiter(content: ArtifactContent): string {
  return extensionOf(content.path) === "tsv" || content.mime === "text/tab-separated-values" ? "\t" : ",";
}

/** `1.5 MB`, `312 B`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let n = bytes / 1024;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return `${n < 10 ? n.toFixed(1) : Math.round(n)} ${units[u]}`;
}

/**
 * The panel's list: presented files first in the order they were presented (the thread
 * state may know of a presentation the last listing did not), then the others by path.
 */
export function orderOutputs(files: readonly OutputFile[], presented: readonly string[]): OutputFile[] {
  const rank = (f: OutputFile) => {
    const at = presented.indexOf(f.path);
    return at === -1 ? (f.presented ? presented.length : Number.MAX_SAFE_INTEGER) : at;
  };
  return files
    .map((f) => (presented.includes(f.path) && !f.presented ? { ...f, presented: true } : f))
    .sort((a, b) => rank(a) - rank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The most recently presented file that `before` did not have, or null when none was added. */
export function newlyPresented(before: readonly string[] | null, after: readonly string[]): string | null {
  const seen = new Set(before ?? []);
  for (let i = after.length - 1; i >= 0; i--) {
    const p = after[i];
    if (p !== undefined && !seen.has(p)) return p;
  }
  return null;
}

/** The note shown over a cut preview. */
export function truncationNote(content: ArtifactContent, shownChars?: number): string | null {
  if (content.truncated) return `Only the start of this file is shown (${formatSize(content.size)} in all). Open it with its app to see the rest.`;
  if (shownChars !== undefined && content.text !== null && shownChars < content.text.length) {
    return `Only the first ${shownChars.toLocaleString("en-US")} characters of this file are shown here. Open it with its app to see the rest.`;
  }
  return null;
}
