import { describe, expect, it, vi } from "vitest";
import type { McpOverview } from "../bindings/McpOverview";
import type { ServerView } from "../bindings/ServerView";
import { createMcpStore, type McpApi } from "./mcp";
import { emptyRow } from "./mcpForm";

function server(name: string, over: Partial<ServerView> = {}): ServerView {
  return {
    name,
    transport: "stdio",
    command: "npx",
    args: [],
    env: [],
    headers: [],
    enabled: true,
    startupTimeoutSecs: 30,
    callTimeoutSecs: 60,
    status: { state: "connected", toolCount: 1 },
    tools: [{ name: "echo", qualifiedName: `${name}__echo`, enabled: true, inputSchema: { type: "object" } }],
    disabledTools: [],
    ...over,
  };
}

const overview = (...servers: ServerView[]): McpOverview => ({ configPath: "/data/mcp.json", servers });

function fakeApi(over: Partial<McpApi> = {}) {
  let watcher: ((o: McpOverview) => void) | null = null;
  const api: McpApi = {
    mcpOverview: vi.fn(async () => overview(server("a"))),
    mcpWatch: vi.fn(async (cb: (o: McpOverview) => void) => {
      watcher = cb;
    }),
    mcpSaveServer: vi.fn(async (input) => overview(server("a"), server(input.name, { status: { state: "connecting" } }))),
    mcpRemoveServer: vi.fn(async () => overview()),
    mcpSetEnabled: vi.fn(async () => overview(server("a"))),
    mcpSetToolEnabled: vi.fn(async () => overview(server("a"))),
    mcpReconnect: vi.fn(async () => overview(server("a", { status: { state: "connecting" } }))),
    mcpValidate: vi.fn(async () => ({ ok: true, stderr: [], tools: [{ name: "t", inputSchema: {} }], elapsedMs: 12 })),
    mcpImportJson: vi.fn(async () => ({ added: ["gh"], skipped: [] })),
    mcpImportClaude: vi.fn(async () => null),
    mcpResources: vi.fn(async () => [{ uri: "file:///a", name: "a" }]),
    mcpPrompts: vi.fn(async () => []),
    ...over,
  };
  return { api, emit: (o: McpOverview) => watcher?.(o) };
}

describe("mcp store", () => {
  it("loads, watches once, and follows the watch from its first message on", async () => {
    const { api, emit } = fakeApi();
    const s = createMcpStore(api);
    await s.open();
    await s.open();
    expect(api.mcpWatch).toHaveBeenCalledTimes(1);
    expect(s.getState().overview?.servers.map((x) => x.name)).toEqual(["a"]);
    expect(s.getState().live).toBe(false);
    // Before the watch delivers, a command's answer is the news.
    await s.reconnect("a");
    expect(s.getState().overview?.servers[0]?.status).toEqual({ state: "connecting" });

    emit(overview(server("a", { status: { state: "failed", error: "boom", stderr: ["line"] } })));
    expect(s.getState().live).toBe(true);
    expect(s.getState().overview?.servers[0]?.status.state).toBe("failed");
    // Once live, a (possibly older) command answer does not overwrite the watch's overview.
    await s.reconnect("a");
    expect(s.getState().overview?.servers[0]?.status.state).toBe("failed");
  });

  it("a failed load says why and can be retried", async () => {
    let fail = true;
    const { api } = fakeApi({ mcpOverview: async () => (fail ? Promise.reject("mcp.json is not readable") : overview()) });
    const s = createMcpStore(api);
    await s.open();
    expect(s.getState().loadError).toBe("mcp.json is not readable");
    fail = false;
    await s.open();
    expect(s.getState().loadError).toBeNull();
    expect(s.getState().overview).toEqual(overview());
  });

  it("switches a tool off at once and puts it back with the reason when refused", async () => {
    const { api } = fakeApi({ mcpSetToolEnabled: () => Promise.reject("the config file is read-only") });
    const s = createMcpStore(api);
    await s.open();
    const pending = s.setToolEnabled("a", "echo", false);
    expect(s.getState().overview?.servers[0]?.tools[0]?.enabled).toBe(false);
    expect(s.getState().overview?.servers[0]?.disabledTools).toEqual(["echo"]);
    expect(s.getState().busy).toEqual({ a: "tool" });
    await pending;
    expect(s.getState().overview?.servers[0]?.tools[0]?.enabled).toBe(true);
    expect(s.getState().overview?.servers[0]?.disabledTools).toEqual([]);
    expect(s.getState().serverErrors).toEqual({ a: "the config file is read-only" });
    expect(s.getState().busy).toEqual({});
  });

  it("does not send an invalid form, keeps the form on a refusal, and closes it once saved", async () => {
    let refuse = true;
    const { api } = fakeApi({
      mcpSaveServer: vi.fn(async (input) => (refuse ? Promise.reject("the OS keychain is locked") : overview(server("a"), server(input.name)))),
    });
    const s = createMcpStore(api);
    await s.open();
    s.startAdd();
    s.editForm((f) => ({ ...f, name: "a" }));
    expect(await s.saveEditor()).toBe(false);
    expect(api.mcpSaveServer).not.toHaveBeenCalled();
    expect(s.getState().editor?.errors).toMatchObject({ name: expect.stringMatching(/already exists/), command: expect.any(String) });

    s.editForm((f) => ({ ...f, name: "gh", command: "npx", env: [{ ...emptyRow(), name: "GITHUB_TOKEN", value: "ghp_secret" }] }));
    // Errors stay current once shown.
    expect(s.getState().editor?.errors).toEqual({});
    expect(await s.saveEditor()).toBe(false);
    expect(s.getState().editor?.saveError).toBe("the OS keychain is locked");
    expect(s.getState().editor?.form.env[0]?.value).toBe("ghp_secret");
    expect(s.getState().editor?.saving).toBe(false);

    refuse = false;
    expect(await s.saveEditor()).toBe(true);
    expect(api.mcpSaveServer).toHaveBeenLastCalledWith(
      {
        name: "gh",
        transport: { kind: "stdio", command: "npx", args: [], env: [{ name: "GITHUB_TOKEN", value: "ghp_secret", secret: true }] },
        enabled: true,
        disabledTools: [],
      },
      false,
    );
    expect(s.getState().editor).toBeNull();
    expect(s.getState().notice).toEqual({ text: "Saved “gh”.", tone: "ok" });
    expect(s.getState().overview?.servers.map((x) => x.name)).toEqual(["a", "gh"]);
  });

  it("editing saves with replace and an open add form survives reopening", async () => {
    const { api } = fakeApi();
    const s = createMcpStore(api);
    await s.open();
    s.startAdd();
    s.editForm((f) => ({ ...f, name: "typed" }));
    s.startAdd();
    expect(s.getState().editor?.form.name).toBe("typed");
    s.startEdit("a");
    expect(s.getState().editor?.mode).toBe("edit");
    expect(await s.saveEditor()).toBe(true);
    expect(vi.mocked(api.mcpSaveServer).mock.calls[0]?.[1]).toBe(true);
  });

  it("validates without saving; editing the form clears the old result", async () => {
    const { api } = fakeApi({
      mcpValidate: vi.fn(async () => ({ ok: false, error: "command `uvx` not found", stderr: ["x"], tools: [], elapsedMs: 3 })),
    });
    const s = createMcpStore(api);
    await s.open();
    s.startAdd();
    s.editForm((f) => ({ ...f, name: "py", command: "uvx" }));
    const report = await s.validateEditor();
    expect(report?.error).toBe("command `uvx` not found");
    expect(s.getState().editor?.validation?.ok).toBe(false);
    expect(api.mcpSaveServer).not.toHaveBeenCalled();
    s.editForm((f) => ({ ...f, command: "/usr/bin/uvx" }));
    expect(s.getState().editor?.validation).toBeNull();
  });

  it("checks pasted JSON before sending and keeps the text when refused", async () => {
    let refuse: string | null = "a server named `gh` is not valid";
    const { api } = fakeApi({
      mcpImportJson: vi.fn(async () => (refuse !== null ? Promise.reject(refuse) : { added: ["gh"], skipped: ["a"] })),
    });
    const s = createMcpStore(api);
    await s.open();
    s.startPaste();
    s.editPaste({ text: `{"gh": {"command": "npx",}}` });
    expect(await s.importPaste()).toBe(false);
    expect(api.mcpImportJson).not.toHaveBeenCalled();
    expect(s.getState().paste?.error).toMatch(/comma/);

    const text = `{"mcpServers": {"gh": {"command": "npx"}, "a": {"command": "x"}}}`;
    s.editPaste({ text });
    expect(s.getState().paste?.error).toBeNull();
    expect(await s.importPaste()).toBe(false);
    expect(s.getState().paste).toMatchObject({ text, error: "a server named `gh` is not valid", importing: false });

    refuse = null;
    expect(await s.importPaste()).toBe(true);
    expect(api.mcpImportJson).toHaveBeenLastCalledWith(text, null, false);
    expect(s.getState().paste).toBeNull();
    expect(s.getState().notice?.text).toMatch(/^Added “gh”\. Skipped “a”/);
  });

  it("a single pasted entry is sent with its name", async () => {
    const { api } = fakeApi();
    const s = createMcpStore(api);
    s.startPaste();
    s.editPaste({ text: `{"url": "https://h/mcp"}`, name: " remote " });
    expect(await s.importPaste()).toBe(true);
    expect(api.mcpImportJson).toHaveBeenCalledWith(`{"url": "https://h/mcp"}`, "remote", false);
  });

  it("says when Claude Desktop has no config here", async () => {
    const { api } = fakeApi();
    const s = createMcpStore(api);
    await s.importClaude(false);
    expect(s.getState().notice).toEqual({ text: expect.stringMatching(/not found on this machine/), tone: "error" });
  });

  it("loads resources and prompts, each failing on its own", async () => {
    const { api } = fakeApi({ mcpPrompts: () => Promise.reject("the MCP server `a` is not connected (failed)") });
    const s = createMcpStore(api);
    await s.loadDetails("a");
    expect(s.getState().details.a).toEqual({
      loading: false,
      resources: [{ uri: "file:///a", name: "a" }],
      resourcesError: null,
      prompts: null,
      promptsError: "the MCP server `a` is not connected (failed)",
    });
  });
});
