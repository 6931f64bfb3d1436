import { describe, expect, it } from "vitest";
import type { ServerView } from "../bindings/ServerView";
import {
  MASK,
  argList,
  commandLine,
  emptyForm,
  emptyRow,
  formFromServer,
  formToInput,
  importSentence,
  looksSecret,
  maskValue,
  splitCommandLine,
  statusView,
  toolParams,
  validateForm,
  type ServerForm,
} from "./mcpForm";

function view(over: Partial<ServerView> = {}): ServerView {
  return {
    name: "github",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-github"],
    env: [
      { name: "GITHUB_TOKEN", secret: true },
      { name: "LOG_LEVEL", value: "debug", secret: false },
    ],
    headers: [],
    enabled: true,
    startupTimeoutSecs: 30,
    callTimeoutSecs: 60,
    status: { state: "connected", toolCount: 2 },
    tools: [],
    disabledTools: ["delete_repo"],
    ...over,
  };
}

const stdio = (over: Partial<ServerForm> = {}): ServerForm => ({ ...emptyForm(), name: "fs", command: "npx", ...over });

describe("form <-> ServerInput", () => {
  it("a new stdio form becomes the backend's input, secret decided by the checkbox or the name", () => {
    const f = stdio({
      args: "-y\n @modelcontextprotocol/server-filesystem \n\n/home/me\n",
      env: [
        { ...emptyRow(), name: "API_KEY", value: "sk-123" },
        { ...emptyRow(), name: "MODE", value: "fast" },
        { ...emptyRow(), name: "REGION", value: "eu", secret: true },
        emptyRow(),
      ],
      cwd: "  ",
      startupTimeoutSecs: "45",
    });
    expect(formToInput(f)).toEqual({
      name: "fs",
      transport: {
        kind: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-filesystem", "/home/me"],
        env: [
          { name: "API_KEY", value: "sk-123", secret: true },
          { name: "MODE", value: "fast", secret: false },
          { name: "REGION", value: "eu", secret: true },
        ],
      },
      enabled: true,
      disabledTools: [],
      startupTimeoutSecs: 45,
    });
  });

  it("editing keeps a stored secret by leaving its value out, and keeps plain values plain", () => {
    const f = formFromServer(view());
    expect(f.env).toEqual([
      { name: "GITHUB_TOKEN", value: "", secret: true, stored: true, storedName: "GITHUB_TOKEN" },
      { name: "LOG_LEVEL", value: "debug", secret: false, stored: false, storedName: "LOG_LEVEL" },
    ]);
    expect(f.args).toBe("-y\n@modelcontextprotocol/server-github");
    // Default timeouts show as empty fields (the default), others as numbers.
    expect(f.startupTimeoutSecs).toBe("");
    const input = formToInput(f);
    expect(input.transport).toEqual({
      kind: "stdio",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-github"],
      env: [
        { name: "GITHUB_TOKEN", secret: true },
        { name: "LOG_LEVEL", value: "debug", secret: false },
      ],
    });
    expect(input.disabledTools).toEqual(["delete_repo"]);
    expect(input.startupTimeoutSecs).toBeUndefined();
    // Typing a new value replaces the stored one.
    f.env[0] = { ...f.env[0]!, value: "ghp_new" };
    expect(formToInput(f).transport).toMatchObject({ env: [{ name: "GITHUB_TOKEN", value: "ghp_new", secret: true }, {}] });
  });

  it("an HTTP server round-trips with its headers", () => {
    const v = view({
      name: "remote",
      transport: "http",
      command: undefined,
      args: [],
      env: [],
      url: "https://mcp.example.com/mcp",
      headers: [{ name: "Authorization", secret: true }],
      callTimeoutSecs: 120,
    });
    const f = formFromServer(v);
    expect(f.kind).toBe("http");
    expect(f.callTimeoutSecs).toBe("120");
    expect(formToInput(f)).toEqual({
      name: "remote",
      transport: { kind: "http", url: "https://mcp.example.com/mcp", headers: [{ name: "Authorization", secret: true }] },
      enabled: true,
      disabledTools: ["delete_repo"],
      callTimeoutSecs: 120,
    });
  });

  it("argList drops empty lines and surrounding spaces", () => {
    expect(argList(" a \r\n\r\nb c\n")).toEqual(["a", "b c"]);
  });
});

describe("validateForm", () => {
  it("accepts a complete form", () => {
    expect(validateForm(stdio({ env: [{ ...emptyRow(), name: "A", value: "1" }] }), ["other"])).toEqual({});
  });

  it("names every missing or wrong field", () => {
    const errors = validateForm(
      stdio({
        name: "a/b",
        command: " ",
        env: [
          { ...emptyRow(), name: "", value: "orphan" },
          { ...emptyRow(), name: "TOKEN", value: "" },
          { ...emptyRow(), name: "X=Y", value: "1" },
          { ...emptyRow(), name: "DUP", value: "1" },
          { ...emptyRow(), name: "DUP", value: "2" },
        ],
        startupTimeoutSecs: "0",
        callTimeoutSecs: "1.5",
      }),
      [],
    );
    expect(Object.keys(errors).sort()).toEqual(
      ["callTimeoutSecs", "command", "env.0.name", "env.1.value", "env.2.name", "env.4.name", "name", "startupTimeoutSecs"].sort(),
    );
    expect(errors.name).toMatch(/“\/”/);
    expect(errors["env.4.name"]).toMatch(/given twice/);
    expect(errors["env.1.value"]).toMatch(/Give “TOKEN” a value/);
  });

  it("refuses a name that is taken, empty or too long", () => {
    expect(validateForm(stdio({ name: "github" }), ["github"]).name).toMatch(/already exists/);
    expect(validateForm(stdio({ name: "  " }), []).name).toMatch(/name/);
    expect(validateForm(stdio({ name: "x".repeat(41) }), []).name).toMatch(/40/);
  });

  it("checks URLs and header names of HTTP servers", () => {
    const http = (url: string, header = "X-Team") =>
      validateForm({ ...emptyForm(), name: "r", kind: "http", url, headers: [{ ...emptyRow(), name: header, value: "v" }] }, []);
    expect(http("https://h.example/mcp")).toEqual({});
    expect(http("").url).toMatch(/URL/);
    expect(http("h.example/mcp").url).toMatch(/http:\/\//);
    expect(http("ftp://h.example/mcp").url).toMatch(/Only http/);
    expect(http("https://h.example/sse").url).toMatch(/SSE/);
    expect(http("https://h.example/mcp", "Bad Header")["headers.0.name"]).toMatch(/not a header name/);
  });

  it("a stored secret renamed or made plain must be typed again", () => {
    const stored = { name: "TOKEN", value: "", secret: true, stored: true, storedName: "TOKEN" };
    expect(validateForm(stdio({ env: [stored] }), [])).toEqual({});
    expect(validateForm(stdio({ env: [{ ...stored, name: "GH_TOKEN" }] }), [])["env.0.value"]).toMatch(/belongs to “TOKEN”/);
    expect(validateForm(stdio({ env: [{ ...stored, secret: false }] }), [])["env.0.value"]).toMatch(/plain text/);
  });
});

describe("secrets on screen", () => {
  it("masks secrets with a fixed mask and shows plain values", () => {
    expect(maskValue({ name: "GITHUB_TOKEN", secret: true })).toBe(MASK);
    expect(maskValue({ name: "A", value: "visible", secret: false })).toBe("visible");
    // Even a value the backend sent by mistake is not shown when it is marked secret.
    expect(maskValue({ name: "K", value: "leak", secret: true })).toBe(MASK);
  });

  it("looksSecret follows the backend's name parts, case ignored", () => {
    for (const n of ["Authorization", "OPENAI_API_KEY", "github_token", "DB_PASSWORD", "client_secret", "Cookie", "AWS_CREDENTIALS"]) {
      expect(looksSecret(n), n).toBe(true);
    }
    for (const n of ["LOG_LEVEL", "X-Team", "HOME"]) expect(looksSecret(n), n).toBe(false);
  });
});

describe("display helpers", () => {
  it("describes every status", () => {
    expect(statusView({ state: "disabled" })).toMatchObject({ label: "Disabled", tone: "off" });
    expect(statusView({ state: "connecting" }).tone).toBe("busy");
    expect(statusView({ state: "connected", toolCount: 1 }).label).toBe("Connected · 1 tool");
    expect(statusView({ state: "connected", toolCount: 12 }, 2).label).toBe("Connected · 12 tools (2 off)");
    expect(statusView({ state: "failed", error: "command `uvx` not found", stderr: ["x"] })).toEqual({
      label: "Failed",
      tone: "error",
      error: "command `uvx` not found",
      stderr: ["x"],
    });
    expect(statusView({ state: "reconnecting", attempt: 3, retryInMs: 4000, error: "exited", stderr: [] }).label).toBe(
      "Reconnecting · attempt 3, next in 4 s",
    );
  });

  it("lists a tool's parameters from its schema, required first", () => {
    expect(
      toolParams({
        type: "object",
        properties: {
          verbose: { type: "boolean" },
          path: { type: "string", description: "Where to look" },
          tags: { type: "array", items: { type: "string" } },
          mode: { enum: ["fast", "slow"] },
          limit: { type: ["integer", "null"] },
          any: {},
        },
        required: ["path", "nope"],
      }),
    ).toEqual([
      { name: "path", type: "string", required: true, description: "Where to look" },
      { name: "verbose", type: "boolean", required: false, description: null },
      { name: "tags", type: "string[]", required: false, description: null },
      { name: "mode", type: '"fast" | "slow"', required: false, description: null },
      { name: "limit", type: "integer | null", required: false, description: null },
      { name: "any", type: "any", required: false, description: null },
    ]);
    expect(toolParams({ type: "object" })).toEqual([]);
  });

  it("splits a pasted command line like a shell and quotes it back for display", () => {
    expect(splitCommandLine(`npx -y "@scope/server x" 'a b' c\\ d ""`)).toEqual(["npx", "-y", "@scope/server x", "a b", "c d", ""]);
    expect(splitCommandLine("  uvx   mcp-server-git ")).toEqual(["uvx", "mcp-server-git"]);
    expect(commandLine("npx", ["-y", "a b", "it's"])).toBe(`npx -y 'a b' 'it'\\''s'`);
  });

  it("says what an import did", () => {
    expect(importSentence({ added: ["a", "b"], skipped: [] })).toBe("Added “a”, “b”.");
    expect(importSentence({ added: [], skipped: ["gh"] })).toMatch(/^Skipped “gh”: a server of that name already exists/);
    expect(importSentence({ added: [], skipped: [] })).toBe("Nothing was imported.");
  });
});
