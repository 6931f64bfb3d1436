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
    assert.equal((await lastAssistant(page)).text, LONG.chunks.join(""));
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
    assert.equal(a.text, "The quick brown ");
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
