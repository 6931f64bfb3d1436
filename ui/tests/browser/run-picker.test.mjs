// The composer's agent and skill picker, and the Tools inspector explaining for the pick,
// in Chromium against the mock backend.
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

const CHOICES = {
  agents: [
    { name: "researcher", description: "Finds and cites sources", model: null, tool_groups: ["file:read", "web"], skills: ["notes"] },
    { name: "coder", description: "", model: "gpt-4.1", tool_groups: null, skills: [] },
  ],
  skills: [
    { name: "notes", description: "Keep notes as you go", allowed_tools: null },
    { name: "pdf-tools", description: "Read PDF files", allowed_tools: ["read_file", "search_files"] },
  ],
  problems: ["/data/skills/broken/SKILL.md: the file does not start with frontmatter"],
};

const v = (name, extra = {}) => ({
  name,
  original_name: null,
  source: { kind: "sandbox" },
  group: "file",
  visibility: "visible",
  gate: null,
  reason: "",
  ...extra,
});
const DEFAULT_REPORT = { tools: [v("read_file"), v("bash", { group: "bash" })], catalog_hash: null, aliases: [], problems: [] };
const RESEARCHER_REPORT = {
  tools: [
    v("search_files", {
      original_name: "grep",
      source: { kind: "config", impl_id: "sandbox.grep" },
      group: "file:read",
      reason: "declared in config; runs `sandbox.grep` (the built-in `grep`)",
    }),
    v("read_file", { visibility: "hidden", gate: "skill_allowed_tools", reason: "not in the allowed_tools of active skill `pdf-tools`" }),
    v("bash", { group: "bash", visibility: "hidden", gate: "agent_tool_groups", reason: "group `bash` is not in agent `researcher`'s tool_groups (file:read, web)" }),
  ],
  catalog_hash: null,
  aliases: [],
  problems: ["/data/tools.json: entry 2 (`broken`): `use` names `sandbox.nope`, which is not a built-in implementation; the entry is skipped"],
};

describe("agent and skill picker", () => {
  test("picking an agent and a skill shows in the composer, goes with the run and drives the Tools inspector", async () => {
    const { page, errors } = await app({
      provider: CONFIGURED,
      threads: [{ id: "t-a", title: "Alpha", updated_at: 1 }],
      runChoices: CHOICES,
      toolReport: DEFAULT_REPORT,
      toolReports: { "researcher|pdf-tools": RESEARCHER_REPORT },
      reply: { chunks: ["Done."], delayMs: 10 },
    });
    await page.click(`${tid("thread-item")}[data-thread-id="t-a"]`);
    const picker = page.locator(tid("run-picker"));
    await until(async () => (await calls(page, "thread_run_options")).length === 1, "the thread's saved choice is read");
    assert.equal(await page.locator(tid("run-picker-label")).innerText(), "Default agent");

    await picker.click();
    const panel = page.locator(tid("run-picker-panel"));
    await panel.waitFor();
    assert.equal(await panel.getAttribute("role"), "dialog");
    await page.locator(`${tid("agent-option")}[data-name="researcher"]`).waitFor();
    assert.deepEqual(await page.locator(tid("agent-option")).evaluateAll((els) => els.map((e) => e.dataset.name)), [
      "default",
      "researcher",
      "coder",
    ]);
    assert.match(await page.locator(tid("run-choice-problems")).innerText(), /1 could not be loaded/);

    await page.locator(`${tid("agent-option")}[data-name="researcher"] input`).check();
    // The agent's own skill shows as on, and cannot be switched off here.
    const notes = page.locator(`${tid("skill-option")}[data-name="notes"] input`);
    await until(async () => (await notes.isChecked()) && (await notes.isDisabled()), "the agent's skill is on");
    await page.locator(`${tid("skill-option")}[data-name="pdf-tools"] input`).check();
    await until(
      async () => (await page.locator(tid("run-picker-label")).innerText()) === "researcher · pdf-tools, notes",
      "the composer names the pick",
    );
    const saves = await calls(page, "set_thread_run_options");
    assert.deepEqual(saves.at(-1).args, { threadId: "t-a", options: { agent: "researcher", skills: ["pdf-tools"] } });

    // Escape closes the panel and gives focus back to its button.
    await page.keyboard.press("Escape");
    await until(async () => (await panel.count()) === 0, "the panel closes");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-testid")), "run-picker");

    // The inspector explains for that pick: the config tool, the gates, the config problem.
    await page.click(tid("open-tools"));
    await page.locator(`${tid("tool-verdict")}[data-name="search_files"]`).waitFor();
    assert.deepEqual((await calls(page, "explain_tools")).at(-1).args, { threadId: "t-a", agent: "researcher", skills: ["pdf-tools"] });
    assert.equal(await page.locator(tid("tools-for")).innerText(), "For agent “researcher” with skills “pdf-tools”, “notes”");
    const row = page.locator(`${tid("tool-verdict")}[data-name="search_files"]`);
    assert.equal(await row.locator(tid("verdict-source")).innerText(), "config");
    assert.match(await row.locator(tid("verdict-reason")).innerText(), /runs `sandbox\.grep`/);
    assert.match(await page.locator(tid("tools-problems")).innerText(), /entry 2 \(`broken`\)/);
    await page.click(tid("close-tools"));

    // The run carries the pick.
    await page.fill(tid("composer-input"), "Find the needle");
    await page.click(tid("send-button"));
    await until(async () => (await calls(page, "start_run")).length === 1, "the run starts");
    assert.deepEqual((await calls(page, "start_run"))[0].args.options, { agent: "researcher", skills: ["pdf-tools"] });
    assert.deepEqual(errors, []);
  });

  test("a pick made in a new conversation goes with its first message; a thread's saved pick comes back", async () => {
    const { page, errors } = await app({
      provider: CONFIGURED,
      threads: [{ id: "t-b", title: "Bravo", updated_at: 1 }],
      runChoices: CHOICES,
      runOptions: { "t-b": { agent: "coder", skills: ["notes"] } },
      reply: { chunks: ["Hi."], delayMs: 10 },
    });
    await page.locator(tid("run-picker")).click();
    await page.locator(`${tid("agent-option")}[data-name="coder"] input`).check();
    await page.keyboard.press("Escape");
    assert.equal(await page.locator(tid("run-picker-label")).innerText(), "coder");
    assert.equal((await calls(page, "set_thread_run_options")).length, 0, "no thread to save on yet");
    await page.fill(tid("composer-input"), "hello");
    await page.click(tid("send-button"));
    await until(async () => (await calls(page, "start_run")).length === 1, "the run starts");
    assert.deepEqual((await calls(page, "start_run"))[0].args.options, { agent: "coder", skills: [] });

    await page.click(`${tid("thread-item")}[data-thread-id="t-b"]`);
    await until(
      async () => (await page.locator(tid("run-picker-label")).innerText()) === "coder · notes",
      "the saved pick of the thread",
    );
    assert.deepEqual(errors, []);
  });

  test("an agent that no longer loads is flagged until another is picked", async () => {
    const { page } = await app({
      provider: CONFIGURED,
      threads: [{ id: "t-c", title: "Charlie", updated_at: 1 }],
      runChoices: { agents: [], skills: [], problems: [] },
      runOptions: { "t-c": { agent: "old-agent", skills: [] } },
    });
    await page.click(`${tid("thread-item")}[data-thread-id="t-c"]`);
    await until(async () => (await page.locator(tid("run-picker-label")).innerText()) === "old-agent", "the saved pick");
    await page.locator(tid("run-picker")).click();
    await page.locator(tid("agent-missing")).waitFor();
    assert.match(await page.locator(tid("run-picker")).getAttribute("class"), /warn/);
    await page.locator(`${tid("agent-option")}[data-name="default"] input`).check();
    await until(async () => (await page.locator(tid("run-picker-label")).innerText()) === "Default agent", "back to default");
  });
});
