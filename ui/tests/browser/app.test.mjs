// End-to-end tests of the built UI in Chromium, with the Tauri IPC mocked (mock-backend.js).
// Run with `npm run test:browser` (builds first).
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

async function app(config) {
  const r = await openApp(browser, server.url, config);
  opened.push(r.context);
  return r;
}

const tid = (id) => `[data-testid="${id}"]`;

/** Polls `fn` until it returns a truthy value; returns that value. */
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

async function lastAssistant(page) {
  const m = page.locator(`${tid("message")}[data-role="assistant"]`).last();
  return {
    status: await m.getAttribute("data-status"),
    text: await m.locator(tid("message-content")).innerText(),
    note: (await m.locator(tid("message-note")).count()) ? await m.locator(tid("message-note")).innerText() : null,
  };
}

async function newThreadAndSend(page, text) {
  await page.click(tid("new-thread"));
  await page.locator(tid("thread-item")).first().waitFor();
  await page.fill(tid("composer-input"), text);
  await page.click(tid("send-button"));
}

const SLOW = { chunks: ["The ", "quick ", "brown ", "fox ", "jumps ", "over ", "the ", "lazy ", "dog."], delayMs: 120 };
const FINAL = SLOW.chunks.join("");
const LONG = {
  delayMs: 25,
  chunks: (
    "The dog in that sentence is a prop: the pangram needs a d, a g and a y, and \"lazy dog\" supplies them cheaply.\n\n" +
    "In short:\n" +
    "- the fox brings most of the alphabet,\n" +
    "- the dog fills in the rest,\n" +
    "- and nobody asked how the dog feels about it."
  ).match(/.{1,6}/gs),
};

describe("first run and settings", () => {
  test("first run shows setup; a detected server fills the form; saving opens the main view", async () => {
    const { page, errors } = await app({
      servers: [
        { name: "Ollama", base_url: "http://localhost:11434/v1", models: ["llama3.2", "qwen2.5:7b"] },
        { name: "LM Studio", base_url: "http://localhost:1234/v1", models: ["phi-4"] },
      ],
    });
    await page.locator(tid("provider-setup")).waitFor();
    const servers = page.locator(tid("detected-server"));
    await servers.first().waitFor();
    assert.equal(await servers.count(), 2);
    await servers.nth(1).click();
    assert.equal(await page.inputValue(tid("provider-base-url")), "http://localhost:1234/v1");
    assert.equal(await page.inputValue(tid("provider-model")), "phi-4");
    await servers.nth(0).click();
    assert.equal(await page.inputValue(tid("provider-base-url")), "http://localhost:11434/v1");
    assert.equal(await page.inputValue(tid("provider-model")), "llama3.2");
    await page.getByRole("button", { name: "qwen2.5:7b" }).click();
    assert.equal(await page.inputValue(tid("provider-model")), "qwen2.5:7b");
    assert.equal(await page.getAttribute(tid("provider-api-key"), "placeholder"), "stored in your OS keychain");
    assert.equal(await page.getAttribute(tid("provider-api-key"), "type"), "password");
    await mkdir(join(uiRoot, "test-results"), { recursive: true });
    await page.screenshot({ path: join(uiRoot, "test-results", "setup.png") });

    await page.click(tid("provider-save"));
    await page.locator(tid("new-thread")).waitFor();
    assert.equal(await page.locator(tid("provider-setup")).count(), 0);
    const [save] = await calls(page, "save_provider");
    assert.deepEqual(save.args, {
      settings: { kind: "openai", base_url: "http://localhost:11434/v1", model: "qwen2.5:7b" },
      apiKey: null,
    });
    assert.ok((await calls(page, "list_threads")).length >= 1);
    assert.deepEqual(errors, []);
  });

  test("an invalid URL shows an inline error and keeps the input", async () => {
    const { page } = await app({});
    await page.locator(tid("provider-setup")).waitFor();
    await page.fill(tid("provider-base-url"), "localhost:11434 nope");
    await page.fill(tid("provider-model"), "my-model");
    await page.click(tid("provider-save"));
    const err = page.locator(tid("provider-error"));
    await err.waitFor();
    assert.equal(await err.getAttribute("role"), "alert");
    assert.match(await err.innerText(), /not a valid URL/);
    assert.equal(await page.inputValue(tid("provider-base-url")), "localhost:11434 nope");
    assert.equal(await page.inputValue(tid("provider-model")), "my-model");
    assert.equal((await calls(page, "save_provider")).length, 0);
  });

  test("a keychain error from save is shown and the input kept", async () => {
    const { page } = await app({
      keychainError: "The OS keychain is not available: no Secret Service is running.",
    });
    await page.locator(tid("provider-setup")).waitFor();
    await page.selectOption(tid("provider-kind"), "anthropic");
    assert.equal(await page.inputValue(tid("provider-base-url")), "https://api.anthropic.com/v1");
    await page.fill(tid("provider-model"), "claude-sonnet-4-5");
    await page.fill(tid("provider-api-key"), "sk-ant-secret");
    await page.click(tid("provider-save"));
    const err = page.locator(tid("provider-error"));
    await err.waitFor();
    assert.match(await err.innerText(), /no Secret Service is running/);
    assert.equal(await page.inputValue(tid("provider-api-key")), "sk-ant-secret");
    assert.equal(await page.inputValue(tid("provider-model")), "claude-sonnet-4-5");
    assert.equal(await page.inputValue(tid("provider-kind")), "anthropic");
    assert.equal(await page.locator(tid("provider-setup")).count(), 1);
  });

  test("keychain_error in the provider status is shown; settings reachable from main", async () => {
    const { page } = await app({
      provider: { ...CONFIGURED, keychain_error: "The keychain is locked." },
    });
    await page.click(tid("open-settings"));
    await page.locator(tid("provider-setup")).waitFor();
    assert.match(await page.locator(tid("keychain-error")).innerText(), /The keychain is locked\./);
    assert.equal(await page.inputValue(tid("provider-model")), "llama3.2");
    await page.keyboard.press("Escape");
    await until(async () => (await page.locator(tid("provider-setup")).count()) === 0, "settings to close");
  });
});

describe("chat", () => {
  test("send streams the reply in progressively, then the final text", async () => {
    const { page, errors } = await app({ provider: CONFIGURED, replies: [SLOW, LONG] });
    await newThreadAndSend(page, "Tell me about foxes");
    await page.locator(tid("stop-button")).waitFor();
    assert.equal(await page.inputValue(tid("composer-input")), "");
    const user = page.locator(`${tid("message")}[data-role="user"]`);
    await user.waitFor();
    assert.equal(await user.locator(tid("message-content")).innerText(), "Tell me about foxes");

    const partial = await until(async () => {
      const a = await lastAssistant(page).catch(() => null);
      return a && a.status === "streaming" && a.text.length > 0 && a.text !== FINAL ? a : null;
    }, "partial streamed text");
    assert.ok(FINAL.startsWith(partial.text), `partial "${partial.text}" is a prefix of the reply`);

    const done = await until(async () => {
      const a = await lastAssistant(page);
      return a.status === "complete" ? a : null;
    }, "the final message");
    assert.equal(done.text, FINAL);
    assert.equal(done.note, null);
    await page.locator(tid("send-button")).waitFor();
    // The sidebar picked up the title the backend gave the thread.
    await until(async () => (await page.locator(tid("thread-title")).first().innerText()) === "Tell me about foxes", "retitle");
    const [start] = await calls(page, "start_run");
    assert.equal(start.args.content, "Tell me about foxes");
    assert.equal(start.args.onEvent, "<channel>");
    assert.ok(start.args.threadId);

    // A second, longer exchange: screenshots mid-stream and when done.
    await mkdir(join(uiRoot, "test-results"), { recursive: true });
    await page.click(tid("new-thread"));
    await page.locator(tid("thread-item")).nth(1).click();
    await until(async () => (await page.locator(tid("message")).count()) === 2, "reopened thread");
    await page.fill(tid("composer-input"), "And the lazy dog?\nKeep it short.");
    await page.click(tid("send-button"));
    await until(async () => {
      const a = await lastAssistant(page);
      return (await page.locator(tid("message")).count()) === 4 && a.status === "streaming" && a.text.length > 120;
    }, "second reply half streamed");
    await page.screenshot({ path: join(uiRoot, "test-results", "main-streaming.png") });
    await until(async () => (await lastAssistant(page)).status === "complete", "second reply");
    // The reply is markdown: the dashes became a list.
    const last = page.locator(`${tid("message")}[data-role="assistant"]`).last();
    assert.deepEqual(await last.locator("li").allInnerTexts(), [
      "the fox brings most of the alphabet,",
      "the dog fills in the rest,",
      "and nobody asked how the dog feels about it.",
    ]);
    assert.match((await lastAssistant(page)).text, /^The dog in that sentence is a prop: .* supplies them cheaply\.\n\nIn short:/);
    await page.screenshot({ path: join(uiRoot, "test-results", "main.png") });
    assert.deepEqual(errors, []);
  });

  test("Stop mid-stream leaves the partial text marked stopped", async () => {
    const { page } = await app({ provider: CONFIGURED, reply: SLOW });
    await newThreadAndSend(page, "Go");
    await until(async () => {
      const a = await lastAssistant(page).catch(() => null);
      return a && a.text.length >= 8;
    }, "some streamed text");
    await page.click(tid("stop-button"));
    const a = await until(async () => {
      const x = await lastAssistant(page);
      return x.status === "cancelled" ? x : null;
    }, "cancelled status");
    assert.ok(a.text.length > 0 && a.text !== FINAL, `partial text kept: "${a.text}"`);
    assert.equal(a.note, "stopped");
    await page.locator(tid("send-button")).waitFor();
    assert.equal((await calls(page, "cancel_run")).length, 1);
    assert.equal(await page.locator(tid("run-error")).count(), 0);
  });

  test("a run error shows the sentence and keeps the partial text", async () => {
    const { page } = await app({ provider: CONFIGURED, reply: SLOW, failAfter: 3, failError: "The model server stopped answering." });
    await newThreadAndSend(page, "Go");
    const a = await until(async () => {
      const x = await lastAssistant(page).catch(() => null);
      return x && x.status === "error" ? x : null;
    }, "error status");
    // Rendered as markdown, so the trailing space of the last chunk is not shown.
    assert.equal(a.text, "The quick brown");
    assert.equal(a.note, "The model server stopped answering.");
    const note = page.locator(`${tid("message")}[data-status="error"] ${tid("message-note")}`);
    assert.equal(await note.getAttribute("role"), "alert");
    assert.match(await page.locator(tid("run-error")).innerText(), /The model server stopped answering\./);
    await page.locator(tid("send-button")).waitFor();
  });

  test("a failed send keeps the text in the composer and shows the error", async () => {
    const { page } = await app({ provider: CONFIGURED, startError: "No model provider is configured." });
    await newThreadAndSend(page, "Please do not lose this");
    await page.locator(tid("run-error")).waitFor();
    assert.match(await page.locator(tid("run-error")).innerText(), /No model provider is configured\./);
    assert.equal(await page.inputValue(tid("composer-input")), "Please do not lose this");
    assert.equal(await page.locator(tid("message")).count(), 0);
    assert.equal(await page.isEnabled(tid("send-button")), true);
  });

  test("Enter sends, Shift+Enter adds a line, send is disabled while empty", async () => {
    const { page } = await app({ provider: CONFIGURED, reply: { chunks: ["ok"], delayMs: 10 } });
    await page.click(tid("new-thread"));
    await page.locator(tid("thread-item")).first().waitFor();
    assert.equal(await page.isDisabled(tid("send-button")), true);
    const input = page.locator(tid("composer-input"));
    await input.click();
    await page.keyboard.type("   ");
    assert.equal(await page.isDisabled(tid("send-button")), true);
    await page.keyboard.press("Enter");
    assert.equal((await calls(page, "start_run")).length, 0);
    await input.fill("");
    await page.keyboard.type("line one");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("line two");
    assert.equal(await input.inputValue(), "line one\nline two");
    assert.equal((await calls(page, "start_run")).length, 0);
    assert.equal(await page.isEnabled(tid("send-button")), true);
    await page.keyboard.press("Enter");
    await until(async () => (await calls(page, "start_run")).length === 1, "start_run");
    assert.equal((await calls(page, "start_run"))[0].args.content, "line one\nline two");
    await until(async () => (await lastAssistant(page).catch(() => ({}))).status === "complete", "reply");
    const userText = await page.locator(`${tid("message")}[data-role="user"] ${tid("message-content")}`).innerText();
    assert.equal(userText, "line one\nline two");
  });

  test("a thread running elsewhere opens as running; interrupted replies are marked", async () => {
    const { page } = await app({
      provider: CONFIGURED,
      threads: [
        {
          id: "t-old",
          title: "Old one",
          updated_at: 1000,
          messages: [
            { role: "user", content: "Hi" },
            { role: "assistant", content: "Half a rep", status: "interrupted" },
          ],
        },
        {
          id: "t-busy",
          title: "Busy elsewhere",
          updated_at: 2000,
          running: true,
          messages: [
            { role: "user", content: "Work" },
            { role: "assistant", content: "Working on", status: "streaming" },
          ],
        },
      ],
    });
    const items = page.locator(tid("thread-item"));
    await items.first().waitFor();
    assert.equal(await items.first().getAttribute("data-thread-id"), "t-busy");
    await page.click(`${tid("thread-item")}[data-thread-id="t-old"]`);
    const a = await until(async () => (await lastAssistant(page).catch(() => null)) ?? null, "old thread");
    assert.equal(a.status, "interrupted");
    assert.equal(a.note, "interrupted — the app closed while this reply was streaming");
    assert.match(await page.getAttribute(`${tid("thread-item")}[data-thread-id="t-old"]`, "class"), /active/);

    await page.click(`${tid("thread-item")}[data-thread-id="t-busy"]`);
    await page.locator(tid("stop-button")).waitFor();
    assert.equal((await lastAssistant(page)).status, "streaming");
    await page.click(tid("stop-button"));
    await page.locator(tid("send-button")).waitFor({ timeout: 4000 });
    assert.equal((await lastAssistant(page)).status, "cancelled");
  });
});

describe("threads", () => {
  test("rename with the button (Enter saves, Esc cancels) and by double-click", async () => {
    const { page } = await app({
      provider: CONFIGURED,
      threads: [
        { id: "a", title: "Alpha", updated_at: 2 },
        { id: "b", title: "Beta", updated_at: 1 },
      ],
    });
    const item = (id) => page.locator(`${tid("thread-item")}[data-thread-id="${id}"]`);
    await item("a").waitFor();
    await item("a").locator(tid("thread-rename")).click();
    await page.fill(tid("thread-rename-input"), "Alpha renamed");
    await page.keyboard.press("Enter");
    await until(async () => (await item("a").locator(tid("thread-title")).innerText()) === "Alpha renamed", "renamed title");
    assert.deepEqual((await calls(page, "rename_thread"))[0].args, { threadId: "a", title: "Alpha renamed" });

    await item("b").locator(tid("thread-rename")).click();
    await page.fill(tid("thread-rename-input"), "Nope");
    await page.keyboard.press("Escape");
    assert.equal(await item("b").locator(tid("thread-title")).innerText(), "Beta");
    assert.equal((await calls(page, "rename_thread")).length, 1);

    await item("b").locator(tid("thread-title")).dblclick();
    await page.fill(tid("thread-rename-input"), "Beta 2");
    await page.keyboard.press("Enter");
    await until(async () => (await item("b").locator(tid("thread-title")).innerText()) === "Beta 2", "dblclick rename");
  });

  test("delete asks for confirmation first", async () => {
    const { page } = await app({
      provider: CONFIGURED,
      threads: [
        { id: "a", title: "Alpha", updated_at: 2, messages: [{ role: "user", content: "hello alpha" }] },
        { id: "b", title: "Beta", updated_at: 1 },
      ],
    });
    const item = (id) => page.locator(`${tid("thread-item")}[data-thread-id="${id}"]`);
    await item("a").click();
    await page.locator(tid("message")).waitFor();
    await item("a").locator(tid("thread-delete")).click();
    assert.equal((await calls(page, "delete_thread")).length, 0);
    await item("a").locator(tid("thread-delete-confirm")).click();
    await until(async () => (await page.locator(tid("thread-item")).count()) === 1, "one thread left");
    assert.deepEqual((await calls(page, "delete_thread"))[0].args, { threadId: "a" });
    assert.equal(await page.locator(tid("message")).count(), 0);

    await item("b").locator(tid("thread-delete")).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    assert.equal(await page.locator(tid("thread-item")).count(), 1);
    assert.equal((await calls(page, "delete_thread")).length, 1);
  });
});

// ---------------------------------------------------------------------------------------------
// Tools: tool calls in the conversation and the tools inspector.

const TOOL_RUN = {
  turns: [
    {
      chunks: ["Let me ", "check both."],
      delayMs: 30,
      toolCalls: [
        { name: "read_file", arguments: { path: "notes/todo.md", limit: 40 } },
        {
          name: "github__create_issue",
          arguments: {
            repo: "acme/app",
            title: "Flaky test in the sync suite",
            body: "The test `sync_handles_offline` fails about one run in ten on CI; it looks like a race between the retry timer and the fake clock.",
            labels: ["bug", "ci"],
          },
        },
      ],
      results: [
        { call: 0, content: "- renew the TLS certificate\n- file the flaky-test issue\n- answer Dana about the release", delayMs: 700 },
        { call: 1, content: "GitHub answered 403 Forbidden: the token lacks the `repo` scope.", isError: true, delayMs: 700 },
      ],
      state: { promoted: { catalog_hash: "c0ffee", names: ["github__create_issue"] }, artifacts: [] },
    },
    {
      chunks: ["Your todo list has three items. ", "I could not file the issue: ", "the GitHub token lacks the repo scope."],
      delayMs: 40,
    },
  ],
};

/** Name and state of every tool row, read in one snapshot (rows come and go as work folds). */
async function toolRows(page) {
  return page.locator(tid("tool-call")).evaluateAll((els) => els.map((e) => ({ name: e.dataset.name, state: e.dataset.state })));
}

const states = async (page) => (await toolRows(page)).map((r) => r.state).join(",");

describe("tool calls", () => {
  test("a run with two tool calls: running, then done and failed one by one, then the final text", async () => {
    const { page, errors } = await app({ provider: CONFIGURED, reply: TOOL_RUN });
    await newThreadAndSend(page, "Check my todo list and file the flaky-test issue");
    await until(async () => (await states(page)) === "running,running", "two running calls");

    const rows = page.locator(tid("tool-call"));
    assert.equal(await rows.nth(0).locator(tid("tool-name")).innerText(), "read_file");
    assert.equal(await rows.nth(0).locator(tid("tool-server")).count(), 0);
    // A file tool shows its path as a link of its own, the other arguments beside it.
    assert.equal(await rows.nth(0).locator(tid("tool-path")).innerText(), "notes/todo.md");
    assert.equal(await rows.nth(0).locator(tid("tool-args")).innerText(), "limit: 40");
    assert.equal(await rows.nth(1).locator(tid("tool-name")).innerText(), "create_issue");
    assert.equal(await rows.nth(1).locator(tid("tool-server")).innerText(), "github");
    const args1 = await rows.nth(1).locator(tid("tool-args")).innerText();
    assert.match(args1, /^repo: "acme\/app", title: "Flaky test in the sync suite", body: /);
    assert.ok(args1.length <= 96, `summary is truncated: ${args1.length} chars`);
    assert.equal(await rows.nth(0).locator(".spinner").count(), 1);
    // Tool calls render under the assistant's text, within the same message.
    const turn = page.locator(`${tid("message")}[data-role="assistant"]`).first();
    assert.equal(await turn.locator(tid("message-content")).innerText(), "Let me check both.");
    assert.equal(await turn.locator(tid("tool-call")).count(), 2);
    await mkdir(join(uiRoot, "test-results"), { recursive: true });
    await page.screenshot({ path: join(uiRoot, "test-results", "tool-calls-running.png") });

    await until(async () => (await states(page)) === "done,running", "first call done");
    // The second call fails and the answer follows within a few frames; both are checked
    // below, once the answer is there.

    const done = await until(async () => {
      const a = await lastAssistant(page);
      return a.status === "complete" && (await page.locator(tid("send-button")).count()) ? a : null;
    }, "the final text");
    assert.equal(done.text, TOOL_RUN.turns[1].chunks.join(""));
    // With the answer there, the work folds to one line naming the failure; a click opens it.
    const work = page.locator(tid("processing"));
    await until(async () => (await work.getAttribute("open")) === null, "the work folded");
    assert.equal(await page.locator(tid("processing-summary")).innerText(), "2 tool calls: read_file, github__create_issue · 1 failed");
    assert.equal(await page.locator(tid("tool-error")).count(), 0);
    await page.click(tid("processing-summary"));
    assert.equal(await states(page), "done,failed");
    const failed = rows.nth(1);
    assert.equal(await failed.locator(tid("tool-error")).innerText(), "GitHub answered 403 Forbidden: the token lacks the `repo` scope.");
    assert.equal(await failed.locator(tid("tool-error")).isVisible(), true);
    // The done result is collapsed until asked for.
    assert.equal(await rows.nth(0).locator(tid("tool-result")).isVisible(), false);
    await rows.nth(0).locator("summary").click();
    assert.match(await rows.nth(0).locator(tid("tool-result")).innerText(), /renew the TLS certificate/);
    assert.equal(await rows.nth(0).locator(tid("tool-args-full")).innerText(), '{\n  "path": "notes/todo.md",\n  "limit": 40\n}');
    // Tool messages never render as messages of their own.
    assert.equal(await page.locator(tid("message")).count(), 3);
    // Folding again takes the rows out of the page.
    await page.click(tid("processing-summary"));
    assert.equal(await page.locator(tid("tool-call")).count(), 0);
    await page.screenshot({ path: join(uiRoot, "test-results", "tool-calls.png") });
    assert.deepEqual(errors, []);
  });

  test("reopened thread: unanswered calls show interrupted; an orphan result attaches to the assistant", async () => {
    const { page } = await app({
      provider: CONFIGURED,
      threads: [
        {
          id: "t-tools",
          title: "Tools earlier",
          updated_at: 5,
          messages: [
            { role: "user", content: "List and read" },
            {
              role: "assistant",
              run_id: "r-old",
              content: "",
              tool_calls: [
                { id: "c1", name: "list_dir", arguments: '{"path":"."}' },
                { id: "c2", name: "fs__read_file", arguments: '{"path": "README.md"' },
              ],
            },
            { role: "tool", run_id: "r-old", tool_call_id: "c1", content: "README.md\nsrc/" },
            { role: "tool", run_id: "r-old", tool_call_id: "c-gone", content: "a result whose call was lost", is_error: false },
          ],
        },
      ],
    });
    await page.click(`${tid("thread-item")}[data-thread-id="t-tools"]`);
    // The finished work is folded to one line; it opens on click.
    const work = page.locator(tid("processing"));
    await work.waitFor();
    assert.equal(await work.getAttribute("open"), null);
    assert.equal(await page.locator(tid("tool-call")).count(), 0);
    assert.equal(await page.locator(tid("processing-summary")).innerText(), "3 tool calls: list_dir, fs__read_file, tool result · 1 interrupted");
    await page.click(tid("processing-summary"));
    assert.equal(await work.getAttribute("open"), "");
    await until(async () => (await page.locator(tid("tool-call")).count()) === 3, "three rows");
    assert.deepEqual(await toolRows(page), [
      { name: "list_dir", state: "done" },
      { name: "fs__read_file", state: "interrupted" },
      { name: "", state: "done" },
    ]);
    assert.equal(await page.locator(tid("message")).count(), 2);
    // Invalid JSON arguments are shown raw.
    const bad = page.locator(tid("tool-call")).nth(1);
    assert.equal(await bad.locator(tid("tool-args")).innerText(), '{"path": "README.md"');
    await bad.locator("summary").click();
    assert.equal(await bad.locator(tid("tool-args-full")).innerText(), '{"path": "README.md"');
  });
});

const verdict = (name, over = {}) => ({
  name,
  original_name: null,
  source: { kind: "builtin" },
  group: "fs",
  visibility: "visible",
  gate: null,
  reason: "",
  ...over,
});
const mcp = (server, tool, over = {}) =>
  verdict(`${server}__${tool}`, {
    original_name: tool,
    source: { kind: "mcp", server },
    group: "mcp",
    visibility: "deferred",
    gate: "deferral",
    reason: "deferred behind tool_search; callable once the model finds it with tool_search",
    ...over,
  });

const REPORT = {
  catalog_hash: "9f2c4e1ab37d55e0",
  tools: [
    verdict("read_file"),
    verdict("write_file"),
    verdict("list_dir"),
    verdict("fetch_url", { source: { kind: "web" }, group: "web" }),
    verdict("run_python", { source: { kind: "sandbox" }, group: "sandbox" }),
    verdict("http_request", {
      source: { kind: "config", impl_id: "http" },
      group: "web",
      reason: "config names it `api_call` but the tool's own name `http_request` is what the model sees; ",
    }),
    verdict("shell", { group: "shell", visibility: "hidden", gate: "host_shell", reason: "no OS confinement (Landlock, bubblewrap) is available on this machine for the shell, and running it unconfined is not enabled in Settings" }),
    verdict("view_image", { group: "vision", visibility: "hidden", gate: "model_capability", reason: "model `llama3.2` does not accept images (not marked as a vision model)" }),
    verdict("task", { group: "agents", visibility: "hidden", gate: "subagent_switch", reason: "only the lead agent may use it; subagents cannot start subagents" }),
    mcp("github", "create_issue"),
    mcp("github", "list_pull_requests"),
    mcp("github", "search_code"),
    mcp("jira", "search_issues"),
    mcp("jira", "create_issue"),
    mcp("files", "read_file", { name: "read_file", visibility: "hidden", gate: "dedupe", reason: "the built-in `read_file` already has this name" }),
    verdict("tool_search", { reason: "searches the 5 deferred tools" }),
  ],
};

async function verdicts(page) {
  return page.locator(tid("tool-verdict")).evaluateAll((els) => els.map((e) => [e.dataset.name, e.dataset.visibility]));
}

describe("tools inspector", () => {
  test("lists the report by verdict with sources, gates and reasons; filter; Esc closes", async () => {
    const { page, errors } = await app({ provider: CONFIGURED, toolReport: REPORT });
    const open = page.locator(tid("open-tools"));
    await open.click();
    const dlg = page.locator(tid("tools-inspector"));
    await dlg.waitFor();
    assert.equal(await dlg.getAttribute("role"), "dialog");
    assert.equal(await dlg.getAttribute("aria-modal"), "true");
    await page.locator(tid("tool-verdict")).first().waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-testid")), "tools-filter");
    assert.deepEqual((await calls(page, "explain_tools"))[0].args, { threadId: null, agent: null, skills: null });

    const all = await verdicts(page);
    assert.equal(all.length, REPORT.tools.length);
    const count = (v) => all.filter(([, vis]) => vis === v).length;
    assert.deepEqual([count("visible"), count("deferred"), count("hidden")], [7, 5, 4]);
    const sectionCounts = await page.locator(tid("section-count")).allInnerTexts();
    assert.deepEqual(sectionCounts, ["7", "5", "4"]);

    const row = (name, vis) => page.locator(`${tid("tool-verdict")}[data-name="${name}"][data-visibility="${vis}"]`);
    assert.equal(await row("shell", "hidden").locator(tid("verdict-gate")).innerText(), "host shell");
    assert.match(await row("shell", "hidden").locator(tid("verdict-reason")).innerText(), /^No OS confinement .* Settings\.$/);
    assert.equal(await row("view_image", "hidden").locator(tid("verdict-gate")).innerText(), "model capability");
    assert.equal(await row("task", "hidden").locator(tid("verdict-gate")).innerText(), "subagent switch");
    assert.equal(await row("read_file", "hidden").locator(tid("verdict-gate")).innerText(), "duplicate name");
    assert.equal(await row("read_file", "hidden").locator(tid("verdict-source")).innerText(), "mcp: files");
    assert.equal(await row("github__create_issue", "deferred").locator(tid("verdict-gate")).innerText(), "deferred");
    assert.equal(await row("github__create_issue", "deferred").locator(tid("verdict-source")).innerText(), "mcp: github");
    assert.equal(await row("read_file", "visible").locator(tid("verdict-source")).innerText(), "built-in");
    assert.equal(await row("read_file", "visible").locator(tid("verdict-gate")).count(), 0);
    assert.equal(await row("read_file", "visible").locator(tid("verdict-reason")).innerText(), "Passed every gate.");
    assert.equal(await row("fetch_url", "visible").locator(tid("verdict-source")).innerText(), "web");
    assert.equal(await row("run_python", "visible").locator(tid("verdict-source")).innerText(), "sandbox");
    assert.equal(await row("http_request", "visible").locator(tid("verdict-source")).innerText(), "config");
    await mkdir(join(uiRoot, "test-results"), { recursive: true });
    await page.screenshot({ path: join(uiRoot, "test-results", "tools-inspector.png") });
    await page.locator(`${tid("verdict-section")}[data-visibility="hidden"]`).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(uiRoot, "test-results", "tools-inspector-hidden.png") });
    assert.equal(
      await row("http_request", "visible").locator(tid("verdict-reason")).innerText(),
      "Config names it `api_call` but the tool's own name `http_request` is what the model sees.",
    );

    await page.fill(tid("tools-filter"), "jira");
    await until(async () => (await verdicts(page)).length === 2, "filtered to jira");
    assert.deepEqual(await verdicts(page), [
      ["jira__search_issues", "deferred"],
      ["jira__create_issue", "deferred"],
    ]);
    await page.fill(tid("tools-filter"), "READ_FILE");
    await until(async () => (await verdicts(page)).length === 2, "filtered to read_file");
    await page.fill(tid("tools-filter"), "no such tool");
    await page.locator(tid("tools-no-match")).waitFor();

    // Tab stays inside the drawer.
    for (let i = 0; i < 12; i++) await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="tools-inspector"]')), true);

    await page.keyboard.press("Escape");
    await until(async () => (await dlg.count()) === 0, "inspector closed");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-testid")), "open-tools");
    assert.deepEqual(errors, []);
  });

  test("asks for the open thread; an error is shown in the panel and can be retried", async () => {
    const { page } = await app({
      provider: CONFIGURED,
      threads: [{ id: "t-a", title: "Alpha", updated_at: 1 }],
      explainError: "The MCP server `jira` did not answer: connection refused.",
    });
    await page.click(`${tid("thread-item")}[data-thread-id="t-a"]`);
    await page.click(tid("open-tools"));
    const err = page.locator(tid("tools-error"));
    await err.waitFor();
    assert.equal(await err.getAttribute("role"), "alert");
    assert.match(await err.innerText(), /did not answer: connection refused\./);
    assert.equal((await calls(page, "explain_tools"))[0].args.threadId, "t-a");
    await err.getByRole("button", { name: "Try again" }).click();
    await until(async () => (await calls(page, "explain_tools")).length === 2, "retry");
    await err.waitFor();
    await page.click(tid("close-tools"));
    assert.equal(await page.locator(tid("tools-inspector")).count(), 0);
  });

  test("a report with 850 deferred tools opens grouped by server; expanding and filtering work", async () => {
    const servers = Array.from({ length: 17 }, (_, i) => `server${String(i).padStart(2, "0")}`);
    const tools = [verdict("read_file"), verdict("tool_search", { reason: "searches the 850 deferred tools" })];
    for (let i = 0; i < 850; i++) tools.push(mcp(servers[i % servers.length], `operation_${i}`));
    tools.push(verdict("shell", { group: "shell", visibility: "hidden", gate: "host_shell", reason: "no OS confinement" }));
    const { page, errors } = await app({ provider: CONFIGURED, toolReport: { catalog_hash: "abc", tools } });
    await page.click(tid("open-tools"));
    await page.locator(`${tid("verdict-section")}[data-visibility="deferred"]`).waitFor();
    assert.deepEqual(await page.locator(tid("section-count")).allInnerTexts(), ["2", "850", "1"]);
    // Deferred groups start collapsed: one toggle per server, no rows yet.
    const deferred = page.locator(`${tid("verdict-section")}[data-visibility="deferred"]`);
    assert.equal(await deferred.locator(tid("group-toggle")).count(), 17);
    assert.equal(await deferred.locator(tid("tool-verdict")).count(), 0);
    assert.match(await deferred.locator(tid("group-toggle")).first().innerText(), /mcp: server00\s*50/);
    await deferred.locator(tid("group-toggle")).nth(3).click();
    assert.equal(await deferred.locator(tid("group-toggle")).nth(3).getAttribute("aria-expanded"), "true");
    assert.equal(await deferred.locator(tid("tool-verdict")).count(), 50);
    await page.screenshot({ path: join(uiRoot, "test-results", "tools-inspector-large.png") });

    await page.fill(tid("tools-filter"), "server07");
    await until(async () => (await page.locator(tid("tool-verdict")).count()) === 50, "filtered to one server");
    const names = await page.locator(tid("tool-verdict")).evaluateAll((els) => els.map((e) => e.dataset.name));
    assert.ok(names.every((n) => n.startsWith("server07__")));
    await page.fill(tid("tools-filter"), "operation_84");
    await until(async () => (await page.locator(tid("tool-verdict")).count()) === 11, "operation_84*");
    await page.keyboard.press("Escape");
    await until(async () => (await page.locator(tid("tools-inspector")).count()) === 0, "closed");
    assert.deepEqual(errors, []);
  });
});

describe("approvals", () => {
  const SHELL_RUN = {
    turns: [{ chunks: ["I will list the files."], delayMs: 20, toolCalls: [{ name: "bash", arguments: { command: "ls -la && echo approved" } }], ask: [0] }],
  };

  test("a shell call waits with its command shown; allow once resumes and the output shows", async () => {
    const { page, errors } = await app({ provider: CONFIGURED, reply: SHELL_RUN });
    await newThreadAndSend(page, "List my files");
    const card = page.locator(tid("approval-card"));
    await card.waitFor();
    assert.equal(await card.getAttribute("data-tool"), "bash");
    assert.equal(await card.locator(tid("approval-command")).innerText(), "ls -la && echo approved");
    assert.match(await card.innerText(), /ask by default/);
    await until(async () => (await states(page)) === "waiting", "the call shown as waiting");
    // The run has stopped: the composer is free, and nothing is marked failed.
    assert.equal(await page.locator(tid("send-button")).count(), 1);
    assert.equal(await page.locator(tid("run-error")).count(), 0);
    // The keyboard is on the answer.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-testid")), "approval-allow-once");
    await mkdir(join(uiRoot, "test-results"), { recursive: true });
    await page.screenshot({ path: join(uiRoot, "test-results", "approval-card.png") });

    await page.click(tid("approval-allow-once"));
    await until(async () => (await page.locator(tid("approval-card")).count()) === 0, "the card to go");
    const done = await until(async () => {
      const a = await lastAssistant(page);
      return a.status === "complete" && a.text === "The command ran." ? a : null;
    }, "the resumed reply");
    assert.ok(done);
    await page.click(tid("processing-summary"));
    assert.equal(await states(page), "done");
    const answer = (await calls(page)).find((c) => c.cmd === "answer_approval");
    assert.equal(answer.args.decision, "allow_once");
    assert.deepEqual(errors, []);
  });

  test("deny: the call shows failed with the refusal the model read", async () => {
    const { page } = await app({ provider: CONFIGURED, reply: SHELL_RUN });
    await newThreadAndSend(page, "List my files");
    await page.locator(tid("approval-deny")).click();
    await until(async () => (await lastAssistant(page)).text === "The command ran.", "the run to go on");
    await page.click(tid("processing-summary"));
    await until(async () => (await states(page)) === "failed", "the denied call failed");
    const row = page.locator(tid("tool-call")).first();
    assert.match(await row.locator(tid("tool-error")).innerText(), /denied running `bash`/);
  });

  test("a waiting approval is there when the thread is opened again; a write shows as a diff", async () => {
    const write = {
      id: "call-w",
      name: "str_replace",
      arguments: JSON.stringify({ path: "/mnt/user-data/workspace/app.py", old_string: "DEBUG = True", new_string: "DEBUG = False" }),
    };
    const { page } = await app({
      provider: CONFIGURED,
      threads: [
        {
          id: "t-wait",
          title: "Turn off debug",
          updated_at: 5,
          messages: [
            { role: "user", content: "Turn off debug" },
            { role: "assistant", content: "Editing.", tool_calls: [write] },
          ],
          state: {
            promoted: null,
            artifacts: [],
            pending: [{ call: write, run_id: "r0", source: { kind: "sandbox" }, group: "file", reason: "group `file` is set to ask", decision: null, question: null, answer: null }],
          },
        },
      ],
    });
    await page.locator(tid("thread-item")).first().click();
    const card = page.locator(tid("approval-card"));
    await card.waitFor();
    const lines = await card.locator(".diff-line").allInnerTexts();
    assert.deepEqual(lines.map((l) => l.trim()), ["-DEBUG = True", "+DEBUG = False"]);
    assert.match(await card.innerText(), /\/mnt\/user-data\/workspace\/app\.py/);
    await page.screenshot({ path: join(uiRoot, "test-results", "approval-diff.png") });
    await page.click(tid("approval-allow-always"));
    await until(async () => (await lastAssistant(page)).text === "The command ran.", "the resumed reply");
    const answer = (await calls(page)).find((c) => c.cmd === "answer_approval");
    assert.deepEqual(answer.args, { threadId: "t-wait", callId: "call-w", decision: "allow_always", onEvent: "<channel>" });
  });
});

describe("background jobs", () => {
  test("running jobs of the open thread are listed with a stop button; stopping removes one", async () => {
    const { page, errors } = await app({
      provider: CONFIGURED,
      threads: [{ id: "t-jobs", title: "Build", updated_at: 5, messages: [{ role: "user", content: "build it" }] }],
      jobs: {
        "t-jobs": [
          { id: "job-1", command: "npm run build -- --watch", running: true },
          { id: "job-2", command: "echo finished", running: false },
          { id: "job-3", command: "python -m http.server", running: true },
        ],
      },
    });
    await page.locator(tid("thread-item")).first().click();
    await page.locator(tid("jobs-bar")).waitFor();
    const items = page.locator(tid("job-item"));
    assert.deepEqual(await items.locator(".job-command").allInnerTexts(), ["npm run build -- --watch", "python -m http.server"]);
    await items.nth(0).locator(tid("job-cancel")).click();
    await until(async () => (await items.count()) === 1, "the stopped job to go");
    assert.equal(await items.locator(".job-command").innerText(), "python -m http.server");
    const cancel = (await calls(page)).find((c) => c.cmd === "cancel_job");
    assert.deepEqual(cancel.args, { threadId: "t-jobs", jobId: "job-1" });
    assert.deepEqual(errors, []);
  });
});

describe("clarification questions", () => {
  const QUESTION = {
    question: "Which format should the report use?",
    clarification_type: "approach_choice",
    context: "Both are easy to produce.",
    options: ["Markdown", "CSV"],
  };
  const ASK_RUN = {
    turns: [{ chunks: ["I need one detail first."], delayMs: 20, toolCalls: [{ name: "ask_clarification", arguments: QUESTION }], question: { call: 0 } }],
  };

  test("the card shows the question, its kind and the options; clicking one resumes with it", async () => {
    const { page, errors } = await app({ provider: CONFIGURED, reply: ASK_RUN, afterApproval: ["A CSV ", "it is."] });
    await newThreadAndSend(page, "Make me a report");
    const card = page.locator(tid("clarification-prompt"));
    await card.waitFor();
    assert.equal(await card.locator(tid("clarification-question")).innerText(), QUESTION.question);
    assert.equal(await card.locator(tid("clarification-type")).innerText(), "CHOOSE AN APPROACH");
    assert.match(await card.innerText(), /Both are easy to produce\./);
    assert.deepEqual(await card.locator(tid("clarification-option")).allInnerTexts(), ["Markdown", "CSV"]);
    assert.equal(await page.locator(tid("approval-card")).count(), 0, "a question is not an approval");
    // Keyboard: the first option has focus; Tab moves to the next; Enter answers.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Markdown");
    await page.screenshot({ path: join(uiRoot, "test-results", "clarification-card.png") });
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await until(async () => (await lastAssistant(page)).text === "A CSV it is.", "the resumed reply");
    assert.equal(await page.locator(tid("clarification-prompt")).count(), 0);
    const sent = (await calls(page)).find((c) => c.cmd === "answer_clarification");
    assert.equal(sent.args.answer, "CSV");
    assert.deepEqual(errors, []);
  });

  test("a free-text answer is sent with Enter", async () => {
    const { page } = await app({ provider: CONFIGURED, reply: ASK_RUN });
    await newThreadAndSend(page, "Make me a report");
    await page.locator(tid("clarification-prompt")).waitFor();
    await page.fill(tid("clarification-input"), "Plain text, please");
    await page.press(tid("clarification-input"), "Enter");
    await until(async () => (await calls(page)).some((c) => c.cmd === "answer_clarification"), "the answer");
    const sent = (await calls(page)).find((c) => c.cmd === "answer_clarification");
    assert.equal(sent.args.answer, "Plain text, please");
  });
});

describe("subagents", () => {
  const upd = (status, over = {}) => ({ status, description: "Count the files", subagent_type: "bash", step: null, usage: null, result: null, error: null, ...over });
  const upd2 = (status, over = {}) => upd(status, { description: "Summarise the notes", subagent_type: "general-purpose", ...over });
  const TASK_RUN = {
    turns: [
      {
        chunks: ["Two helpers will work on this."],
        delayMs: 20,
        toolCalls: [
          { name: "task", arguments: { description: "Count the files", prompt: "Count them.", subagent_type: "bash" } },
          { name: "task", arguments: { description: "Summarise the notes", prompt: "Summarise.", subagent_type: "general-purpose" } },
        ],
        subagents: [
          { call: 0, update: upd("started") },
          { call: 1, update: upd2("started") },
          { call: 0, update: upd("running", { step: "calling bash" }), delayMs: 300 },
          { call: 1, update: upd2("running", { step: "calling read_file" }) },
          { call: 0, update: upd("running", { usage: { input_tokens: 100, output_tokens: 20 } }) },
          { call: 0, update: upd("completed", { result: "42 files" }), delayMs: 1200 },
          { call: 1, update: upd2("completed", { result: "The notes are about the launch." }), delayMs: 300 },
        ],
        results: [
          { call: 0, content: "42 files", delayMs: 10 },
          { call: 1, content: "The notes are about the launch.", delayMs: 10 },
        ],
      },
      { chunks: ["Both are done."], delayMs: 20 },
    ],
  };

  test("two cards go from working, with their steps, to done with their results; Stop is offered while working", async () => {
    const { page, errors } = await app({ provider: CONFIGURED, reply: TASK_RUN });
    await newThreadAndSend(page, "Look at my workspace");
    const cards = page.locator(tid("subagent-card"));
    await until(async () => (await cards.count()) === 2, "two cards");
    await until(async () => (await cards.nth(0).getAttribute("data-status")) === "running", "first card working");
    await until(async () => (await cards.nth(0).locator(tid("subagent-steps")).count()) === 1, "steps shown");
    assert.match(await cards.nth(0).locator(tid("subagent-steps")).innerText(), /calling bash/);
    assert.equal(await cards.nth(0).locator(tid("subagent-cancel")).count(), 1);
    await until(async () => (await cards.nth(0).locator(tid("subagent-usage")).count()) === 1, "usage shown");
    assert.equal(await cards.nth(0).locator(tid("subagent-usage")).innerText(), "120 tokens");
    await mkdir(join(uiRoot, "test-results"), { recursive: true });
    await page.screenshot({ path: join(uiRoot, "test-results", "subagents-running.png") });
    await cards.nth(1).locator(tid("subagent-cancel")).click();
    await until(async () => (await calls(page)).some((c) => c.cmd === "cancel_subagent"), "cancel sent");

    await until(async () => (await cards.nth(1).getAttribute("data-status")) === "completed", "second card done");
    assert.equal(await cards.nth(0).getAttribute("data-status"), "completed");
    assert.equal(await cards.nth(0).locator(tid("subagent-result")).innerText(), "42 files");
    assert.equal(await cards.nth(0).locator(tid("subagent-cancel")).count(), 0);
    const cancel = (await calls(page)).find((c) => c.cmd === "cancel_subagent");
    assert.equal(cancel.args.callId, await cards.nth(1).getAttribute("data-call-id"));
    await until(async () => (await lastAssistant(page)).text === "Both are done.", "final text");
    await page.screenshot({ path: join(uiRoot, "test-results", "subagents-done.png") });
    assert.deepEqual(errors, []);
  });
});
