// The working tools in the built UI, with the Tauri IPC mocked (mock-backend.js): the plan panel
// updating live and restored with its thread, Settings -> Memory (edit, refusal, delete, turn
// off), a deprecated alias in the tools inspector and on a tool call.
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

const STEPS = ["Read the failing test", "Fix the parser", "Run the test suite"];
const plan = (...statuses) => ({
  promoted: null,
  artifacts: [],
  todos: STEPS.map((content, i) => ({ content, status: statuses[i] })),
});
const writeTodos = (state, delayMs) => ({
  chunks: [],
  toolCalls: [{ name: "write_todos", arguments: { todos: state.todos } }],
  results: [{ call: 0, content: "plan updated", delayMs, state }],
});

describe("plan panel", () => {
  test("the plan appears above the composer, ticks live, and is restored with its thread", async () => {
    const { page, errors } = await app({
      provider: CONFIGURED,
      reply: {
        turns: [
          writeTodos(plan("in_progress", "pending", "pending"), 50),
          writeTodos(plan("done", "in_progress", "pending"), 500),
          writeTodos(plan("done", "done", "done"), 500),
          { chunks: ["All", " done."], delayMs: 40 },
        ],
      },
    });
    await page.click(tid("new-thread"));
    await page.locator(tid("thread-item")).first().waitFor();
    assert.equal(await page.locator(tid("todo-panel")).count(), 0, "no plan, no panel");
    await page.fill(tid("composer-input"), "Fix the parser bug");
    await page.click(tid("send-button"));

    const heading = page.locator(tid("todo-heading"));
    const seen = [];
    await until(async () => {
      if ((await heading.count()) === 0) return false;
      const h = await heading.innerText();
      if (seen.at(-1) !== h) seen.push(h);
      return h === "Plan · all 3 done";
    }, "the plan to finish", 8000);
    assert.deepEqual(seen, ["Plan · 0 of 3 done", "Plan · 1 of 3 done", "Plan · all 3 done"]);
    const items = page.locator(tid("todo-item"));
    assert.equal(await items.count(), 3);
    assert.deepEqual(await items.evaluateAll((els) => els.map((e) => e.dataset.status)), ["done", "done", "done"]);
    assert.equal(await items.nth(1).innerText().then((t) => t.includes("Fix the parser")), true);

    const panelBox = await page.locator(tid("todo-panel")).boundingBox();
    const composerBox = await page.locator(tid("composer-input")).boundingBox();
    assert.ok(panelBox.y + panelBox.height <= composerBox.y, "the panel sits above the composer");
    await mkdir(join(uiRoot, "test-results"), { recursive: true });
    await page.screenshot({ path: join(uiRoot, "test-results", "todo-panel.png") });

    // Collapsing keeps the heading; opening another thread and coming back restores the plan.
    await page.locator(".todo-head").click();
    assert.equal(await items.count(), 0);
    await page.click(tid("new-thread"));
    await until(async () => (await page.locator(tid("todo-panel")).count()) === 0, "the new thread to have no plan");
    await page.locator(tid("thread-item")).nth(1).locator("button").first().click();
    await until(async () => (await heading.count()) === 1 && (await heading.innerText()) === "Plan · all 3 done", "the plan to be restored");
    assert.deepEqual(errors, []);
  });

  test("a thread saved with a plan shows it when opened (after a restart)", async () => {
    const { page, errors } = await app({
      provider: CONFIGURED,
      threads: [{ id: "t1", title: "Parser work", updated_at: 5, state: plan("done", "in_progress", "pending") }],
    });
    await page.locator(tid("thread-item")).first().locator("button").first().click();
    await until(async () => (await page.locator(tid("todo-heading")).count()) === 1, "the panel");
    assert.equal(await page.locator(tid("todo-heading")).innerText(), "Plan · 1 of 3 done");
    const statuses = await page.locator(tid("todo-item")).evaluateAll((els) => els.map((e) => e.dataset.status));
    assert.deepEqual(statuses, ["done", "in_progress", "pending"]);
    assert.deepEqual(errors, []);
  });
});

const MEMORIES = [
  { id: "m2", fact: "They write British English.", created_at: 2, updated_at: 2, uses: 3 },
  { id: "m1", fact: "The project indents with tabs.", created_at: 1, updated_at: 1, uses: 0 },
];

async function openMemory(page) {
  await page.click(tid("open-settings"));
  await page.click(tid("settings-tab-memory"));
  await page.locator(tid("memory-settings")).waitFor();
}

describe("Settings -> Memory", () => {
  test("facts are listed, edited (a secret is refused), deleted, and memory turned off", async () => {
    const { page, errors } = await app({ provider: CONFIGURED, memories: MEMORIES });
    await openMemory(page);
    const facts = page.locator(tid("memory-fact"));
    await until(async () => (await facts.count()) === 2, "two facts");
    assert.deepEqual(await facts.allInnerTexts(), MEMORIES.map((m) => m.fact));

    // A secret is refused with the backend's sentence, and the old text stays.
    const second = page.locator(tid("memory-item")).nth(1);
    await second.getByRole("button", { name: /^Edit/ }).click();
    await page.fill(tid("memory-input"), "Deploy key sk-proj-abcdefghijklmnop1234");
    await page.click(tid("memory-save"));
    await page.locator(tid("memory-item-error")).waitFor();
    assert.match(await page.locator(tid("memory-item-error")).innerText(), /looks like it holds a secret/);
    await page.getByRole("button", { name: "Cancel" }).click();
    assert.equal(await second.locator(tid("memory-fact")).innerText(), "The project indents with tabs.");

    // A good edit is saved and moves to the top.
    await second.getByRole("button", { name: /^Edit/ }).click();
    await page.fill(tid("memory-input"), "The project indents with four spaces.");
    await page.keyboard.press("Enter");
    await until(async () => (await facts.first().innerText()) === "The project indents with four spaces.", "the edit");
    const [edit] = (await calls(page, "update_memory")).slice(-1);
    assert.deepEqual(edit.args, { id: "m1", fact: "The project indents with four spaces." });

    // Delete.
    await page.getByRole("button", { name: "Delete: They write British English." }).click();
    await until(async () => (await facts.count()) === 1, "the delete");
    assert.deepEqual((await calls(page, "delete_memory")).map((c) => c.args), [{ id: "m2" }]);
    await page.screenshot({ path: join(uiRoot, "test-results", "memory-settings.png") });

    // Turn off; reopening shows it off (read back from the backend).
    await page.click(tid("memory-enabled"));
    await until(async () => (await calls(page, "set_memory_enabled")).length === 1, "the toggle");
    assert.deepEqual((await calls(page, "set_memory_enabled"))[0].args, { enabled: false });
    await page.keyboard.press("Escape");
    await until(async () => (await page.locator(tid("memory-settings")).count()) === 0, "settings to close");
    await openMemory(page);
    await until(async () => !(await page.isChecked(tid("memory-enabled"))), "memory shown off");
    assert.deepEqual(errors, []);
  });

  test("no saved facts says so", async () => {
    const { page } = await app({ provider: CONFIGURED });
    await openMemory(page);
    await page.locator(tid("memory-empty")).waitFor();
  });
});

describe("aliases", () => {
  test("the inspector lists aliases and a call by one is marked", async () => {
    const { page, errors } = await app({
      provider: CONFIGURED,
      toolReport: {
        catalog_hash: null,
        tools: [{ name: "ls", original_name: null, source: { kind: "sandbox" }, group: "file", visibility: "visible", gate: null, reason: "" }],
        aliases: [{ alias: "list_dir", canonical: "ls", removed_in: "0.3.0", target: "visible", reason: "calls run `ls` with a deprecation note; removed in 0.3.0" }],
      },
      reply: {
        turns: [
          {
            chunks: [],
            toolCalls: [{ name: "list_dir", arguments: { path: "/mnt/user-data/workspace" } }],
            results: [
              {
                call: 0,
                content: "notes.txt",
                metadata: { _deprecation: { this_tool: "list_dir", use_instead: "ls", removed_in: "0.3.0", message: "renamed" } },
              },
            ],
          },
          { chunks: ["Listed."] },
        ],
      },
    });
    await page.click(tid("new-thread"));
    await page.locator(tid("thread-item")).first().waitFor();
    await page.fill(tid("composer-input"), "List the files");
    await page.click(tid("send-button"));
    // The finished work folds to its summary line; open it to see the call.
    await page.locator(`${tid("processing")}[data-active="false"]`).waitFor();
    await page.click(tid("processing-summary"));
    await page.locator(tid("tool-deprecated")).waitFor();
    assert.equal(await page.locator(tid("tool-deprecated")).innerText(), "old name · now ls");

    await page.click(tid("open-tools"));
    await page.locator(tid("alias-section")).waitFor();
    const row = page.locator(tid("tool-alias"));
    assert.equal(await row.getAttribute("data-name"), "list_dir");
    assert.equal(await row.locator(tid("alias-target")).innerText(), "ls");
    assert.match(await row.innerText(), /removed in 0\.3\.0/);
    assert.deepEqual(errors, []);
  });
});
