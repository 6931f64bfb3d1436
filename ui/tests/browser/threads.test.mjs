// Thread features in Chromium with the mocked IPC: the model's title after the first
// exchange, export through the save dialog, regenerate the last reply, and editing a past
// message (a branch, with links both ways). Run with `npm run test:browser`.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { CONFIGURED, calls, launchBrowser, openApp, serveDist } from "./harness.mjs";

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

const texts = (page) => page.$$eval(`${tid("message")} ${tid("message-content")}`, (els) => els.map((e) => e.textContent));

const DONE = {
  id: "t-done",
  title: "Trip plans",
  updated_at: 5,
  messages: [
    { id: "u1", role: "user", content: "Where should I go?" },
    { id: "a1", role: "assistant", content: "Lisbon is lovely.", run_id: "r0" },
    { id: "u2", role: "user", content: "And when?" },
    { id: "a2", role: "assistant", content: "In May.", run_id: "r1" },
  ],
};

describe("threads", () => {
  test("after the first exchange the sidebar shows the model's title", async () => {
    const { page, errors } = await app({ provider: CONFIGURED, modelTitle: "Greeting the mock", reply: { chunks: ["Hi", "!"], delayMs: 10 } });
    await page.fill(tid("composer-input"), "hello there friend");
    await page.keyboard.press("Enter");
    await until(async () => (await page.textContent(tid("thread-title")))?.includes("Greeting the mock"), "the model's title in the sidebar");
    assert.equal(await page.textContent(".chat-title"), "Greeting the mock");
    assert.deepEqual(errors, []);
  });

  test("export asks where to save and writes the chosen format there", async () => {
    const { page, errors } = await app({ provider: CONFIGURED, threads: [DONE], savePath: "/home/me/Trip plans.json" });
    await page.click(tid("thread-item"));
    await page.click(tid("open-export"));
    await page.click(tid("export-json"));
    await until(async () => (await page.textContent(tid("export-note")).catch(() => ""))?.includes("Saved to /home/me/Trip plans.json"), "the saved note");
    const dialog = await calls(page, "plugin:dialog|save");
    assert.equal(dialog.length, 1);
    assert.equal(dialog[0].args.options.defaultPath, "Trip plans.json");
    const written = await calls(page, "export_thread");
    assert.deepEqual(written.map((c) => c.args), [{ threadId: "t-done", format: "json", path: "/home/me/Trip plans.json" }]);
    assert.deepEqual(errors, []);
  });

  test("a cancelled save dialog writes nothing", async () => {
    const { page } = await app({ provider: CONFIGURED, threads: [DONE], savePath: null });
    await page.click(tid("thread-item"));
    await page.click(tid("open-export"));
    await page.click(tid("export-md"));
    await until(async () => (await calls(page, "plugin:dialog|save")).length === 1, "the dialog");
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await calls(page, "export_thread")).length, 0);
    assert.equal(await page.$(tid("export-note")), null);
  });

  test("regenerate replaces the last reply", async () => {
    const { page, errors } = await app({ provider: CONFIGURED, threads: [DONE], reply: { chunks: ["In", " June."], delayMs: 10 } });
    await page.click(tid("thread-item"));
    await page.waitForSelector(tid("regenerate"));
    await page.click(tid("regenerate"));
    await until(async () => (await texts(page)).join("|") === "Where should I go?|Lisbon is lovely.|And when?|In June.", "the new reply");
    await page.waitForSelector(tid("regenerate"));
    assert.equal((await calls(page, "regenerate_reply")).length, 1);
    assert.deepEqual(errors, []);
  });

  test("editing a past message branches; both threads link to each other", async () => {
    const { page, errors } = await app({ provider: CONFIGURED, threads: [DONE], reply: { chunks: ["In", " spring."], delayMs: 10 } });
    await page.click(tid("thread-item"));
    await page.waitForSelector(tid("message"));
    const second = page.locator(tid("message")).nth(2);
    await second.hover();
    await second.locator(tid("edit-message")).click();
    await page.fill(tid("message-edit-input"), "And in which season?");
    await page.click(tid("message-edit-send"));

    await until(async () => (await texts(page)).join("|") === "Where should I go?|Lisbon is lovely.|And in which season?|In spring.", "the branch's reply");
    assert.equal(await page.textContent(tid("branch-source-title")), "Trip plans");
    assert.equal((await page.$$(tid("thread-item"))).length, 2, "the branch is listed beside the original");
    const sent = await calls(page, "edit_and_resend");
    assert.deepEqual(
      sent.map((c) => [c.args.threadId, c.args.messageId, c.args.content]),
      [["t-done", "u2", "And in which season?"]],
    );

    // Back to the original: untouched, and the edited message links to the branch.
    await page.click(tid("open-branch-source"));
    await until(async () => (await texts(page)).join("|") === "Where should I go?|Lisbon is lovely.|And when?|In May.", "the original thread");
    await page.waitForSelector(tid("branch-links"));
    await page.click(tid("open-branch"));
    await page.waitForSelector(tid("branch-banner"));
    assert.deepEqual(errors, []);
  });

  test("Esc in the message editor closes it without sending", async () => {
    const { page } = await app({ provider: CONFIGURED, threads: [DONE] });
    await page.click(tid("thread-item"));
    const first = page.locator(tid("message")).first();
    await first.hover();
    await first.locator(tid("edit-message")).click();
    await page.waitForSelector(tid("message-edit-input"));
    await page.keyboard.press("Escape");
    await until(async () => (await page.$(tid("message-edit"))) === null, "the editor to close");
    assert.equal((await calls(page, "edit_and_resend")).length, 0);
  });
});
