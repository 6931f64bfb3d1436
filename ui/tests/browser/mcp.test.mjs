// The MCP manager page in the built UI, with the Tauri IPC mocked (mock-backend.js): the server
// list with every status (a failed server with its stderr), adding a server through the form
// with a secret shown masked, pasted JSON, switching a tool off, trying a server without saving,
// live status through the watch channel, reconnect, remove, resources and prompts, and imports.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { CONFIGURED, calls, launchBrowser, openApp, serveDist, uiRoot } from "./harness.mjs";

let server;
let browser;
const opened = [];

before(async () => {
  server = await serveDist();
  browser = await launchBrowser();
});
after(async () => {
  for (const c of opened) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

async function app(mcp, extra = {}) {
  const r = await openApp(browser, server.url, { provider: CONFIGURED, mcp, ...extra });
  opened.push(r.context);
  return r;
}

const tid = (id) => `[data-testid="${id}"]`;
const card = (name) => `${tid("mcp-server")}[data-name="${name}"]`;

async function until(fn, what, timeout = 5000) {
  const end = Date.now() + timeout;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 15));
  }
  throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
}

const text = (page, sel) => page.locator(sel).innerText();

const ECHO = {
  name: "echo",
  description: "Echoes the message back.",
  inputSchema: { type: "object", properties: { message: { type: "string", description: "What to echo" }, times: { type: "integer" } }, required: ["message"] },
};
const ADD = { name: "add", description: "Adds two numbers.", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } };
const tool = (server, t, enabled = true) => ({ ...t, qualifiedName: `${server}__${t.name}`, enabled });

function view(name, over) {
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
    status: { state: "connecting" },
    tools: [],
    disabledTools: [],
    ...over,
  };
}

const OVERVIEW = {
  configPath: "/home/me/.local/share/workbench/mcp.json",
  servers: [
    view("broken", {
      command: "uvx",
      args: ["mcp-server-broken"],
      status: {
        state: "failed",
        error: "the server exited before it listed its tools (exit status 1)",
        stderr: ["Traceback (most recent call last):", "ModuleNotFoundError: No module named 'mcp'"],
      },
    }),
    view("everything", {
      args: ["-y", "@modelcontextprotocol/server-everything"],
      env: [
        { name: "API_KEY", secret: true },
        { name: "LOG_LEVEL", value: "debug", secret: false },
      ],
      status: { state: "connected", toolCount: 2 },
      tools: [tool("everything", ECHO), tool("everything", ADD)],
    }),
    view("off", { command: "node", args: ["server.js"], enabled: false, status: { state: "disabled" }, disabledTools: ["danger"] }),
    view("remote", {
      transport: "http",
      command: undefined,
      url: "https://mcp.example.com/mcp",
      headers: [{ name: "Authorization", secret: true }],
      status: { state: "reconnecting", attempt: 2, retryInMs: 2000, error: "the connection to the server is closed (HTTP 502)", stderr: [] },
    }),
  ],
};

async function openMcp(page) {
  await page.click(tid("open-mcp"));
  await page.waitForSelector(tid("mcp-manager"));
  await page.waitForSelector(`${tid("mcp-server")}, ${tid("mcp-empty")}`);
}

describe("MCP manager", () => {
  test("lists every server with transport, command or URL, status, masked secrets and a failed server's stderr", async () => {
    const { page, errors } = await app({ overview: OVERVIEW });
    await openMcp(page);
    assert.deepEqual(await page.locator(`${tid("mcp-server")}`).evaluateAll((els) => els.map((e) => e.dataset.name)), [
      "broken",
      "everything",
      "off",
      "remote",
    ]);
    const states = await page.locator(tid("mcp-status")).evaluateAll((els) => els.map((e) => [e.dataset.state, e.textContent.trim()]));
    assert.deepEqual(states, [
      ["failed", "Failed"],
      ["connected", "Connected · 2 tools"],
      ["disabled", "Disabled"],
      ["reconnecting", "Reconnecting · attempt 2, next in 2 s"],
    ]);
    // Transport and where.
    assert.equal(await text(page, `${card("everything")} ${tid("mcp-where")}`), "npx -y @modelcontextprotocol/server-everything");
    assert.equal(await text(page, `${card("remote")} ${tid("mcp-transport")}`), "HTTP");
    assert.equal(await text(page, `${card("remote")} ${tid("mcp-where")}`), "https://mcp.example.com/mcp");
    // The failed server: its error and the last stderr lines.
    assert.match(await text(page, `${card("broken")} ${tid("mcp-error")}`), /exited before it listed its tools/);
    assert.equal(await text(page, `${card("broken")} ${tid("mcp-stderr")}`), "Traceback (most recent call last):\nModuleNotFoundError: No module named 'mcp'");
    assert.match(await text(page, `${card("remote")} ${tid("mcp-error")}`), /HTTP 502/);
    // Secrets masked, plain values shown.
    const values = await page.locator(`${card("everything")} ${tid("mcp-value")}`).allInnerTexts();
    assert.deepEqual(values, ["API_KEY = •••••••• (in the keychain)", "LOG_LEVEL = debug"]);
    assert.match(await text(page, `${card("remote")} ${tid("mcp-value")}`), /^Authorization = ••••••••/);
    // Switches reflect enabled.
    assert.equal(await page.isChecked(`${card("off")} ${tid("mcp-enabled")}`), false);
    assert.equal(await page.isChecked(`${card("everything")} ${tid("mcp-enabled")}`), true);
    assert.match(await text(page, `${card("off")} ${tid("mcp-disabled-tools")}`), /danger/);
    // Tools with descriptions and parameters.
    await page.click(`${card("everything")} ${tid("mcp-tools")} summary`);
    const echo = `${card("everything")} ${tid("mcp-tool")}[data-name="echo"]`;
    const echoText = await text(page, echo);
    assert.match(echoText, /Echoes the message back\./);
    assert.match(echoText, /message: string — What to echo/);
    assert.match(echoText, /times\?: integer/);
    assert.match(echoText, /everything__echo/);

    await mkdir(join(uiRoot, "test-results"), { recursive: true });
    await page.screenshot({ path: join(uiRoot, "test-results", "mcp-manager.png"), fullPage: true });
    assert.deepEqual(errors, []);
  });

  test("a status change arrives live through the watch channel", async () => {
    const { page, errors } = await app({ overview: OVERVIEW });
    await openMcp(page);
    assert.equal((await calls(page, "mcp_watch")).length, 1);
    await page.evaluate((t) => window.__mock.mcpSetStatus("broken", { state: "connected", toolCount: 1 }, [t]), ECHO);
    await until(async () => (await page.getAttribute(`${card("broken")} ${tid("mcp-status")}`, "data-state")) === "connected", "broken connected");
    assert.equal(await text(page, `${card("broken")} ${tid("mcp-status")}`), "Connected · 1 tool");
    assert.equal(await page.locator(`${card("broken")} ${tid("mcp-error")}`).count(), 0);
    await page.evaluate(() =>
      window.__mock.mcpSetStatus("everything", { state: "reconnecting", attempt: 1, retryInMs: 1000, error: "the server process exited", stderr: ["killed"] }),
    );
    await until(async () => (await page.getAttribute(`${card("everything")} ${tid("mcp-status")}`, "data-state")) === "reconnecting", "reconnecting");
    assert.equal(await text(page, `${card("everything")} ${tid("mcp-stderr")}`), "killed");
    // Closing and reopening the page does not start a second watch.
    await page.click(tid("mcp-close"));
    await openMcp(page);
    assert.equal((await calls(page, "mcp_watch")).length, 1);
    assert.deepEqual(errors, []);
  });

  test("adds a stdio server with the form; its secret env value is stored as secret and shown masked", async () => {
    const { page, errors } = await app({ overview: OVERVIEW, toolsFor: { github: [ECHO] }, connectDelayMs: 400 });
    await openMcp(page);
    await page.click(tid("mcp-add"));
    await page.fill(tid("mcp-name"), "github");
    // Saving an incomplete form sends nothing and marks the field; what was typed stays.
    await page.click(tid("mcp-save"));
    await page.waitForSelector(`${tid("mcp-field-error")}[data-field="command"]`);
    assert.equal((await calls(page, "mcp_save_server")).length, 0);
    assert.equal(await page.inputValue(tid("mcp-name")), "github");
    // A whole command line typed into the command field is split on request.
    await page.fill(tid("mcp-command"), "npx -y @modelcontextprotocol/server-github");
    await page.click(tid("mcp-split"));
    assert.equal(await page.inputValue(tid("mcp-command")), "npx");
    assert.equal(await page.inputValue(tid("mcp-args")), "-y\n@modelcontextprotocol/server-github");
    await page.click(tid("mcp-add-env"));
    await page.fill(`${tid("mcp-row-name")} >> nth=0`, "GITHUB_TOKEN");
    await page.fill(`${tid("mcp-row-value")} >> nth=0`, "ghp_supersecret123");
    // Named like a secret: the checkbox is ticked and the value is a password field.
    assert.equal(await page.isChecked(`${tid("mcp-row-secret")} >> nth=0`), true);
    assert.equal(await page.getAttribute(`${tid("mcp-row-value")} >> nth=0`, "type"), "password");
    await page.click(tid("mcp-add-env"));
    await page.fill(`${tid("mcp-row-name")} >> nth=1`, "GITHUB_ORG");
    await page.fill(`${tid("mcp-row-value")} >> nth=1`, "acme");
    assert.equal(await page.isChecked(`${tid("mcp-row-secret")} >> nth=1`), false);
    await mkdir(join(uiRoot, "test-results"), { recursive: true });
    await page.screenshot({ path: join(uiRoot, "test-results", "mcp-form.png") });
    await page.click(tid("mcp-save"));
    await page.waitForSelector(card("github"));
    await page.waitForSelector(tid("mcp-form"), { state: "detached" });
    const [save] = await calls(page, "mcp_save_server");
    assert.deepEqual(save.args, {
      server: {
        name: "github",
        transport: {
          kind: "stdio",
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-github"],
          env: [
            { name: "GITHUB_TOKEN", value: "ghp_supersecret123", secret: true },
            { name: "GITHUB_ORG", value: "acme", secret: false },
          ],
        },
        enabled: true,
        disabledTools: [],
      },
      replace: false,
    });
    assert.deepEqual(await page.locator(`${card("github")} ${tid("mcp-value")}`).allInnerTexts(), [
      "GITHUB_TOKEN = •••••••• (in the keychain)",
      "GITHUB_ORG = acme",
    ]);
    assert.ok(!(await page.locator("body").innerText()).includes("ghp_supersecret123"), "the secret is nowhere on the page");
    // Connecting, then connected with its tools (through the watch).
    await until(async () => (await page.getAttribute(`${card("github")} ${tid("mcp-status")}`, "data-state")) === "connected", "github connected");
    assert.equal(await text(page, `${card("github")} ${tid("mcp-status")}`), "Connected · 1 tool");

    // Editing shows the stored secret as a placeholder, never its value, and keeps it when left empty.
    await page.click(`${card("github")} ${tid("mcp-edit")}`);
    assert.equal(await page.inputValue(`${tid("mcp-row-value")} >> nth=0`), "");
    assert.match(await page.getAttribute(`${tid("mcp-row-value")} >> nth=0`, "placeholder"), /stored in the keychain/);
    await page.click(tid("mcp-save"));
    await page.waitForSelector(tid("mcp-form"), { state: "detached" });
    const edit = (await calls(page, "mcp_save_server"))[1];
    assert.equal(edit.args.replace, true);
    assert.deepEqual(edit.args.server.transport.env[0], { name: "GITHUB_TOKEN", secret: true });
    assert.deepEqual(errors, []);
  });

  test("a refused save keeps everything typed and says why", async () => {
    const { page, errors } = await app({ overview: OVERVIEW, errors: { mcp_save_server: "the OS keychain is locked; unlock it and save again" } });
    await openMcp(page);
    await page.click(tid("mcp-add"));
    await page.click(tid("mcp-kind-http"));
    await page.fill(tid("mcp-name"), "linear");
    await page.fill(tid("mcp-url"), "https://mcp.linear.app/mcp");
    await page.click(tid("mcp-add-headers"));
    await page.fill(`${tid("mcp-row-name")} >> nth=0`, "Authorization");
    await page.fill(`${tid("mcp-row-value")} >> nth=0`, "Bearer lin_123");
    await page.click(tid("mcp-save"));
    assert.match(await text(page, tid("mcp-save-error")), /the OS keychain is locked/);
    assert.equal(await page.inputValue(tid("mcp-name")), "linear");
    assert.equal(await page.inputValue(tid("mcp-url")), "https://mcp.linear.app/mcp");
    assert.equal(await page.inputValue(`${tid("mcp-row-value")} >> nth=0`), "Bearer lin_123");
    // Closing the page and coming back keeps the draft too.
    await page.keyboard.press("Escape");
    await page.waitForSelector(tid("mcp-manager"), { state: "detached" });
    await openMcp(page);
    assert.equal(await page.inputValue(tid("mcp-url")), "https://mcp.linear.app/mcp");
    assert.deepEqual(errors, []);
  });

  test("pasted mcpServers JSON: a mistake is explained and kept, the fixed text imports", async () => {
    const { page, errors } = await app({ overview: OVERVIEW, toolsFor: { fs: [ADD] } });
    await openMcp(page);
    await page.click(tid("mcp-paste"));
    const bad = `{\n  "mcpServers": {\n    "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],},\n    "notes": {"url": "https://notes.example/mcp", "headers": {"X-Api-Key": "k-123"}}\n  }\n}`;
    await page.fill(tid("mcp-paste-text"), bad);
    await page.click(tid("mcp-paste-import"));
    assert.match(await text(page, tid("mcp-paste-error")), /^Line 3 ends a list or object with a comma/);
    assert.equal(await page.inputValue(tid("mcp-paste-text")), bad);
    assert.equal((await calls(page, "mcp_import_json")).length, 0);
    await page.fill(tid("mcp-paste-text"), bad.replace('"/tmp"],}', '"/tmp"]}'));
    await page.click(tid("mcp-paste-import"));
    await page.waitForSelector(card("notes"));
    assert.match(await text(page, tid("mcp-notice")), /Added “fs”, “notes”\./);
    await page.waitForSelector(tid("mcp-paste-form"), { state: "detached" });
    assert.match(await text(page, `${card("notes")} ${tid("mcp-value")}`), /^X-Api-Key = ••••••••/);
    assert.ok(!(await page.locator("body").innerText()).includes("k-123"));
    await until(async () => (await page.getAttribute(`${card("fs")} ${tid("mcp-status")}`, "data-state")) === "connected", "fs connected");

    // Pasting again: names taken are skipped and said so.
    await page.click(tid("mcp-paste"));
    await page.fill(tid("mcp-paste-text"), `{"fs": {"command": "npx"}}`);
    await page.click(tid("mcp-paste-import"));
    await until(async () => /Skipped “fs”/.test(await text(page, tid("mcp-notice"))), "skipped notice");
    // One server's entry asks for a name.
    await page.click(tid("mcp-paste"));
    await page.fill(tid("mcp-paste-text"), `{"command": "uvx", "args": ["mcp-server-git"]}`);
    await page.waitForSelector(tid("mcp-paste-name"));
    await page.click(tid("mcp-paste-import"));
    assert.match(await text(page, tid("mcp-paste-error")), /give it a name/);
    await page.fill(tid("mcp-paste-name"), "git");
    await page.click(tid("mcp-paste-import"));
    await page.waitForSelector(card("git"));
    assert.deepEqual((await calls(page, "mcp_import_json")).at(-1).args, {
      text: `{"command": "uvx", "args": ["mcp-server-git"]}`,
      name: "git",
      overwrite: false,
    });
    assert.deepEqual(errors, []);
  });

  test("a tool switched off is sent to the backend and shown off", async () => {
    const { page, errors } = await app({ overview: OVERVIEW });
    await openMcp(page);
    await page.click(`${card("everything")} ${tid("mcp-tools")} summary`);
    const add = `${card("everything")} ${tid("mcp-tool")}[data-name="add"]`;
    await page.click(`${add} ${tid("mcp-tool-toggle")}`);
    await until(async () => (await page.getAttribute(add, "data-enabled")) === "false", "add off");
    assert.deepEqual((await calls(page, "mcp_set_tool_enabled")).map((c) => c.args), [{ name: "everything", tool: "add", enabled: false }]);
    assert.equal(await text(page, `${card("everything")} ${tid("mcp-status")}`), "Connected · 2 tools (1 off)");
    assert.equal(await page.isChecked(`${add} ${tid("mcp-tool-toggle")}`), false);
    // And the server switch.
    await page.click(`${card("everything")} ${tid("mcp-enabled")}`);
    await until(async () => (await page.getAttribute(`${card("everything")} ${tid("mcp-status")}`, "data-state")) === "disabled", "disabled");
    assert.deepEqual((await calls(page, "mcp_set_enabled")).map((c) => c.args), [{ name: "everything", enabled: false }]);
    assert.deepEqual(errors, []);
  });

  test("trying a server shows what it found without saving it", async () => {
    const ok = await app({ overview: OVERVIEW, validate: { ok: true, stderr: [], tools: [ECHO, ADD], elapsedMs: 840 } });
    await openMcp(ok.page);
    await ok.page.click(tid("mcp-add"));
    await ok.page.fill(tid("mcp-name"), "try-me");
    await ok.page.fill(tid("mcp-command"), "npx");
    await ok.page.fill(tid("mcp-args"), "-y\n@modelcontextprotocol/server-everything");
    await ok.page.click(tid("mcp-validate"));
    await ok.page.waitForSelector(tid("mcp-validation"));
    assert.equal(await ok.page.getAttribute(tid("mcp-validation"), "data-ok"), "true");
    const report = await text(ok.page, tid("mcp-validation"));
    assert.match(report, /connected and listed 2 tools in 840 ms/);
    assert.match(report, /echo — Echoes the message back\./);
    assert.equal((await calls(ok.page, "mcp_save_server")).length, 0);
    assert.equal((await calls(ok.page, "mcp_validate"))[0].args.server.transport.args[1], "@modelcontextprotocol/server-everything");
    // Changing the form clears a result that no longer applies.
    await ok.page.fill(tid("mcp-command"), "node");
    assert.equal(await ok.page.locator(tid("mcp-validation")).count(), 0);

    const bad = await app({
      overview: OVERVIEW,
      validate: { ok: false, error: "`uvx` was not found on your PATH (also searched ~/.local/bin, ~/.cargo/bin)", stderr: ["line 1", "line 2"], tools: [], elapsedMs: 12 },
    });
    await openMcp(bad.page);
    await bad.page.click(tid("mcp-add"));
    await bad.page.fill(tid("mcp-name"), "git");
    await bad.page.fill(tid("mcp-command"), "uvx");
    await bad.page.click(tid("mcp-validate"));
    await bad.page.waitForSelector(tid("mcp-validation"));
    assert.equal(await bad.page.getAttribute(tid("mcp-validation"), "data-ok"), "false");
    assert.match(await text(bad.page, tid("mcp-validation")), /`uvx` was not found on your PATH[\s\S]*line 1\nline 2/);
    assert.deepEqual([...ok.errors, ...bad.errors], []);
  });

  test("reconnect, remove with confirmation, and resources and prompts", async () => {
    const { page, errors } = await app({
      overview: OVERVIEW,
      connectDelayMs: 300,
      resources: { everything: [{ uri: "test://static/resource/1", name: "Resource 1", mimeType: "text/plain" }] },
      prompts: { everything: [{ name: "simple_prompt", description: "A prompt without arguments", arguments: [] }, { name: "complex_prompt", arguments: [{ name: "temperature", required: true }, { name: "style", required: false }] }] },
    });
    await openMcp(page);
    await page.click(`${card("everything")} ${tid("mcp-more")} summary`);
    await page.waitForSelector(`${card("everything")} ${tid("mcp-resource")}`);
    assert.match(await text(page, `${card("everything")} ${tid("mcp-resource")}`), /test:\/\/static\/resource\/1 Resource 1 \(text\/plain\)/);
    assert.deepEqual(await page.locator(`${card("everything")} ${tid("mcp-prompt")}`).allInnerTexts(), [
      "simple_prompt — A prompt without arguments",
      "complex_prompt (temperature, style?)",
    ]);

    await page.click(`${card("everything")} ${tid("mcp-reconnect")}`);
    await until(async () => (await page.getAttribute(`${card("everything")} ${tid("mcp-status")}`, "data-state")) === "connecting", "connecting");
    await until(async () => (await page.getAttribute(`${card("everything")} ${tid("mcp-status")}`, "data-state")) === "connected", "connected again");

    await page.click(`${card("broken")} ${tid("mcp-remove")}`);
    assert.equal((await calls(page, "mcp_remove_server")).length, 0, "nothing removed before the confirmation");
    await page.click(`${card("broken")} ${tid("mcp-remove-confirm")}`);
    await page.waitForSelector(card("broken"), { state: "detached" });
    assert.deepEqual((await calls(page, "mcp_remove_server")).map((c) => c.args), [{ name: "broken" }]);
    assert.deepEqual(errors, []);
  });

  test("imports from Claude Desktop, or says its config is not here", async () => {
    const none = await app({ overview: { configPath: "/x/mcp.json", servers: [] } });
    await openMcp(none.page);
    assert.match(await text(none.page, tid("mcp-empty")), /No MCP servers yet/);
    await none.page.click(tid("mcp-import-claude"));
    await none.page.waitForSelector(tid("mcp-notice"));
    assert.match(await text(none.page, tid("mcp-notice")), /not found on this machine/);

    const some = await app({ overview: OVERVIEW, claude: { sqlite: { command: "uvx", args: ["mcp-server-sqlite"] }, everything: { command: "npx" } } });
    await openMcp(some.page);
    await some.page.click(tid("mcp-import-claude"));
    await some.page.waitForSelector(card("sqlite"));
    assert.match(await text(some.page, tid("mcp-notice")), /Added “sqlite”\. Skipped “everything”/);
    await some.page.click(tid("mcp-claude-replace"));
    await until(async () => /^Added “sqlite”, “everything”\./.test(await text(some.page, tid("mcp-notice"))), "replaced");
    assert.deepEqual((await calls(some.page, "mcp_import_claude")).map((c) => c.args), [{ overwrite: false }, { overwrite: true }]);
    assert.deepEqual([...none.errors, ...some.errors], []);
  });
});
