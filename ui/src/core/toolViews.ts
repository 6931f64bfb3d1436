/**
 * What each kind of tool call shows, read from the call's arguments and its result text:
 * the shell's command, output and exit code; a file tool's path; a search's links. Pure: the
 * components only lay out what these functions return.
 */
import type { ToolCall } from "../bindings/ToolCall";
import { splitToolName } from "./toolCalls";

export type ToolKind = "shell" | "file" | "search" | "mcp" | "generic";

/** The sandbox's file and search tools (crates/sandbox/src/fs): each takes a path (see `pathKey`). */
export const FILE_TOOLS: ReadonlySet<string> = new Set([
  "view_image",
  "ls",
  "read_file",
  "write_file",
  "str_replace",
  "glob",
  "grep",
  "file_search",
]);

/** Tools whose results are web pages or images found on the web. */
export const SEARCH_TOOLS: ReadonlySet<string> = new Set(["web_search", "image_search", "web_fetch"]);

export function toolKind(name: string): ToolKind {
  if (name === "bash") return "shell";
  if (FILE_TOOLS.has(name)) return "file";
  if (SEARCH_TOOLS.has(name)) return "search";
  if (splitToolName(name).server !== null) return "mcp";
  return "generic";
}

/** The call's arguments as an object; {} when they are not a JSON object. */
export function argsObject(call: ToolCall): Record<string, unknown> {
  if (call.arguments.trim() === "") return {};
  try {
    const v: unknown = JSON.parse(call.arguments);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A string argument, or null when missing or not a string. */
export function stringArg(call: ToolCall, key: string): string | null {
  const v = argsObject(call)[key];
  return typeof v === "string" ? v : null;
}

/** The argument naming a file tool's path: view_image's is `image_path`, the others' `path`. */
function pathKey(call: ToolCall): string {
  return call.name === "view_image" ? "image_path" : "path";
}

/** The path a file tool works on; null when the model gave none (ls and glob default to the workspace). */
export function filePath(call: ToolCall): string | null {
  const p = stringArg(call, pathKey(call));
  return p !== null && p.trim() !== "" ? p : null;
}

/** A file tool's arguments without its path, for the one-line summary beside the path. */
export function argsWithoutPath(call: ToolCall): string {
  const obj = argsObject(call);
  const key = pathKey(call);
  if (!(key in obj)) return call.arguments;
  const rest = { ...obj };
  delete rest[key];
  return JSON.stringify(rest);
}

export type ShellResult = {
  /** The output without the trailing status line. */
  output: string;
  /** The exit code, or null when the process was killed or the status is unknown. */
  exitCode: number | null;
  /** `killed by signal 9`, `timed out` and the like; null for a normal exit. */
  note: string | null;
};

const EXIT_LINE = /\n?\[exit code: (-?\d+)\]\s*$/;
const SIGNAL_LINE = /\n?\[killed by signal (\d+)\]\s*$/;
const UNKNOWN_LINE = /\n?\[exit status unknown\]\s*$/;
const TIMED_OUT = /^command timed out after (\d+) s[^\n]*\n?(?:Output so far:\n)?/;

/**
 * Splits the bash tool's result (crates/sandbox/src/shell/bash_tool.rs: the output, then
 * `[exit code: N]`, `[killed by signal N]` or `[exit status unknown]`; or `command timed out
 * after N s ...` then the output so far) into output and status. Text in no known shape is
 * all output.
 */
export function parseShellResult(text: string): ShellResult {
  const timeout = TIMED_OUT.exec(text);
  if (timeout !== null) {
    return { output: text.slice(timeout[0].length), exitCode: null, note: `timed out after ${timeout[1]} s` };
  }
  const exit = EXIT_LINE.exec(text);
  if (exit !== null) return { output: cleanOutput(text.slice(0, exit.index)), exitCode: Number(exit[1]), note: null };
  const signal = SIGNAL_LINE.exec(text);
  if (signal !== null) {
    return { output: cleanOutput(text.slice(0, signal.index)), exitCode: null, note: `killed by signal ${signal[1]}` };
  }
  const unknown = UNKNOWN_LINE.exec(text);
  if (unknown !== null) return { output: cleanOutput(text.slice(0, unknown.index)), exitCode: null, note: "exit status unknown" };
  return { output: text, exitCode: null, note: null };
}

function cleanOutput(out: string): string {
  return out === "(no output)" ? "" : out;
}

export type Link = { url: string; title: string; snippet: string };

/** Most links listed for one search result. */
export const LINKS_MAX = 20;
const URL_IN_TEXT = /https?:\/\/[^\s<>"'`)\]]+/g;

/**
 * The links in a search or fetch result: a JSON list of `{url|link|href, title, snippet|
 * description|content}` (or such a list under `results`), or web_search's numbered markdown
 * list (see `webResultLinks`), or else every http(s) URL in the text. Only http and https links are kept: nothing else may become a clickable link.
 */
export function searchLinks(text: string): Link[] {
  const fromJson = linksFromJson(text);
  const fromList = fromJson === null ? webResultLinks(text) : null;
  const links = fromJson ?? (fromList !== null && fromList.length > 0 ? fromList : linksFromText(text));
  const seen = new Set<string>();
  const out: Link[] = [];
  for (const l of links) {
    if (!isWebUrl(l.url) || seen.has(l.url)) continue;
    seen.add(l.url);
    out.push(l);
    if (out.length === LINKS_MAX) break;
  }
  return out;
}

function linksFromJson(text: string): Link[] | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  const list = Array.isArray(v) ? v : isRecord(v) && Array.isArray(v.results) ? v.results : null;
  if (list === null) return null;
  const out: Link[] = [];
  for (const item of list) {
    if (!isRecord(item)) continue;
    const url = firstString(item, ["url", "link", "href"]);
    if (url === null) continue;
    out.push({
      url,
      title: firstString(item, ["title", "name"]) ?? url,
      snippet: firstString(item, ["snippet", "description", "content", "body"]) ?? "",
    });
  }
  return out;
}

function linksFromText(text: string): Link[] {
  return [...text.matchAll(URL_IN_TEXT)].map((m) => {
    const url = m[0].replace(/[.,;:]+$/, "");
    return { url, title: url, snippet: "" };
  });
}

function isWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function firstString(obj: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === "string" && v.trim() !== "") return v;
  }
  return null;
}

/** One `N. [title](url)` item of web_search's result, its snippet on the indented next line. */
const WEB_RESULT_ITEM = /^\d+\. \[(.*)\]\((\S+)\)[ \t]*$/;

/**
 * The results of web_search (crates/web/src/results.rs `format_hits`): `N. [title](url)`
 * lines, each followed by an indented snippet line. Empty when the text is not in that shape.
 */
export function webResultLinks(text: string): Link[] {
  const lines = text.split("\n");
  const out: Link[] = [];
  lines.forEach((line, i) => {
    const m = WEB_RESULT_ITEM.exec(line);
    const title = m?.[1] ?? "";
    const url = m?.[2];
    if (url === undefined) return;
    const next = lines[i + 1] ?? "";
    const snippet = /^ {3}\S/.test(next) ? next.trim() : "";
    out.push({ url, title: title.trim() === "" ? url : title, snippet });
  });
  return out;
}

export type ImageResult = {
  title: string;
  /** The full-size image. */
  imageUrl: string;
  thumbnailUrl: string | null;
  /** The page the image is on, when known. */
  sourceUrl: string | null;
  /** `1200x800`, when known. */
  size: string | null;
};

/**
 * The results of image_search (crates/web/src/results.rs `format_images`): `N. title` lines,
 * each followed by indented `image:`, `thumbnail:`, `source:` and `size:` lines. Items whose
 * image is not an http(s) URL are dropped; a non-web source or thumbnail becomes null.
 */
export function imageResults(text: string): ImageResult[] {
  const out: ImageResult[] = [];
  let current: ImageResult | null = null;
  const flush = () => {
    if (current !== null && isWebUrl(current.imageUrl)) out.push(current);
    current = null;
  };
  for (const line of text.split("\n")) {
    const item = /^\d+\. (.*)$/.exec(line);
    if (item !== null) {
      flush();
      current = { title: (item[1] ?? "").trim(), imageUrl: "", thumbnailUrl: null, sourceUrl: null, size: null };
      continue;
    }
    const field = /^ {3}(image|thumbnail|source|size): (\S+)\s*$/.exec(line);
    const key = field?.[1];
    const value = field?.[2];
    if (key === undefined || value === undefined || current === null) continue;
    if (key === "image") current.imageUrl = value;
    else if (key === "thumbnail") current.thumbnailUrl = isWebUrl(value) ? value : null;
    else if (key === "source") current.sourceUrl = isWebUrl(value) ? value : null;
    else current.size = value;
  }
  flush();
  return out.slice(0, LINKS_MAX);
}

export type FetchedPage = {
  /** null when the page had none. */
  title: string | null;
  url: string;
  /** The text was cut to the tool's limit. */
  cut: boolean;
};

/**
 * The head of web_fetch's result (crates/web/src/tools/web_fetch.rs `render`): `Title:` and
 * `URL:` lines, then the page's text, ending with a `[Cut: ...]` note when it was cut. Null
 * when the text is not in that shape or the URL is not http(s).
 */
export function fetchedPage(text: string): FetchedPage | null {
  const m = /^Title: (.*)\nURL: (\S+)\n/.exec(text);
  const url = m?.[2];
  if (url === undefined || !isWebUrl(url)) return null;
  const title = (m?.[1] ?? "").trim();
  return {
    title: title === "" || title === "(no title)" ? null : title,
    url,
    cut: /\n\[Cut: showing [\d,]+ of [\d,]+ characters[^\]]*\]\s*$/.test(text),
  };
}
