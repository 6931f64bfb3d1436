// The conversation views in Chromium with the mocked IPC: message groups, rows per tool kind,
// folding, cards, composer keys, copy, theme, the new-thread shortcut, usage and thread search.
// Screenshots go to tests/artifacts/ (repo root, gitignored). Run with `npm run test:browser`.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { CONFIGURED, calls, launchBrowser, openApp, serveDist, uiRoot } from "./harness.mjs";

const ARTIFACTS = join(uiRoot, "..", "tests", "artifacts");
let server;
let browser;
const opened = [];

before(async () => {
  server = await serveDist();
  browser = await launchBrowser();
  await mkdir(ARTIFACTS, { recursive: true });
});
after(async () => {
  for (const c of opened) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

async function app(config, options) {
  const r = await openApp(browser, server.url, config, options);
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

const W = "/mnt/user-data/workspace";
const OUT = "/mnt/user-data/outputs";
const args = (v) => JSON.stringify(v);
const SEARCH_RESULT = JSON.stringify([
  { title: "Rust release notes", url: "https://blog.rust-lang.org/releases/", snippet: "Every release, explained." },
  { title: "The Cargo Book", url: "https://doc.rust-lang.org/cargo/", snippet: "Cargo, Rust's package manager." },
  { title: "not a web link", url: "javascript:alert(1)" },
]);

/** A finished thread with one of everything the chat draws. */
const RICH = {
  id: "t-rich",
  title: "Weekly report",
  updated_at: 9,
  messages: [
    { id: "u1", role: "user", content: "Build the weekly report from the logs, and tell me what failed." },
    { id: "h1", role: "user", content: "SYSTEM REMINDER: this must never show", hidden: true },
    {
      id: "a1",
      role: "assistant",
      run_id: "r1",
      reasoning: "First the build, then the notes.",
      content: "Let me build it first.",
      tool_calls: [
        { id: "c-make", name: "bash", arguments: args({ command: "make report" }) },
        { id: "c-read", name: "read_file", arguments: args({ path: `${W}/notes.md`, start_line: 1, end_line: 40 }) },
      ],
    },
    { role: "tool", run_id: "r1", tool_call_id: "c-make", content: "cc -o report report.c\nwriting report.md\n[exit code: 0]" },
    { role: "tool", run_id: "r1", tool_call_id: "c-read", content: "# Notes\n- ship it" },
    {
      id: "a2",
      role: "assistant",
      run_id: "r1",
      tool_calls: [
        { id: "c-cat", name: "bash", arguments: args({ command: "cat logs/missing.txt" }) },
        { id: "c-grep", name: "grep", arguments: args({ pattern: "ERROR", path: `${W}/logs` }) },
        { id: "c-web", name: "web_search", arguments: args({ query: "rust release notes" }) },
        { id: "c-mcp", name: "github__search_code", arguments: args({ q: "flaky repo:acme/app" }) },
        { id: "c-gen", name: "tool_search", arguments: args({ query: "jira" }) },
      ],
    },
    { role: "tool", run_id: "r1", tool_call_id: "c-cat", content: "cat: logs/missing.txt: No such file or directory\n[exit code: 1]" },
    { role: "tool", run_id: "r1", tool_call_id: "c-grep", content: "logs/build.log:12: ERROR link failed" },
    { role: "tool", run_id: "r1", tool_call_id: "c-web", content: SEARCH_RESULT },
    { role: "tool", run_id: "r1", tool_call_id: "c-mcp", content: "GitHub rate limit exceeded", is_error: true },
    { role: "tool", run_id: "r1", tool_call_id: "c-gen", content: "found 2 tools: jira__search_issues, jira__create_issue" },
    { role: "tool", run_id: "r1", tool_call_id: "c-lost", content: "a result whose call is gone" },
    {
      id: "a3",
      role: "assistant",
      run_id: "r1",
      content:
        "## Weekly report\n\nThe build **passed**; one log was missing.\n\n| step | result |\n| --- | --- |\n| build | ok |\n| logs | missing |\n\n```rust\nfn main() {\n    println!(\"report\");\n}\n```\n\n- [x] build\n- [ ] upload",
    },
    {
      id: "a4",
      role: "assistant",
      run_id: "r1",
      tool_calls: [{ id: "c-present", name: "present_files", arguments: args({ filepaths: [`${OUT}/report.md`, `${OUT}/chart.png`] }) }],
    },
    { role: "tool", run_id: "r1", tool_call_id: "c-present", content: "presented 2 files" },
    {
      id: "a5",
      role: "assistant",
      run_id: "r1",
      content: "I asked a helper to check the flaky test.",
      tool_calls: [{ id: "c-task", name: "task", arguments: args({ description: "Check the flaky test", prompt: "Run the sync suite 20 times.", subagent_type: "bash" }) }],
    },
    { role: "tool", run_id: "r1", tool_call_id: "c-task", content: "It failed 2 of 20 runs: a **race** in the retry timer." },
    {
      id: "a6",
      role: "assistant",
      run_id: "r1",
      tool_calls: [
        {
          id: "c-ask",
          name: "ask_clarification",
          arguments: args({ question: "Should I upload the report to the wiki?", clarification_type: "approach_choice", options: ["Upload now", "Wait for review"] }),
        },
      ],
    },
  ],
};

async function openRich(options) {
  const r = await app({ provider: CONFIGURED, threads: [RICH] }, options);
  await r.page.click(`${tid("thread-item")}[data-thread-id="t-rich"]`);
  await r.page.locator(tid("group")).first().waitFor();
  return r;
}

const kinds = (page) => page.locator(tid("group")).evaluateAll((els) => els.map((e) => e.dataset.kind));
const row = (page, callId) => page.locator(`${tid("tool-call")}[data-call-id="${callId}"]`);

describe("message groups", () => {
  test("each kind of group is drawn; hidden messages never show", async () => {
    const { page, errors } = await openRich();
    assert.deepEqual(await kinds(page), [
      "human",
      "assistant:processing",
      "assistant",
      "assistant:present-files",
      "assistant:subagent",
      "assistant:clarification",
    ]);
    const text = await page.locator(tid("message-list")).textContent();
    assert.ok(!text.includes("SYSTEM REMINDER"), "a hidden message was shown");
    // The finished work is one line, with the failure named.
    const work = page.locator(tid("processing"));
    assert.equal(await work.getAttribute("open"), null);
    assert.equal(
      await page.locator(tid("processing-summary")).innerText(),
      "8 tool calls: bash, read_file, grep and 4 more · 1 failed",
    );
    // The answer is markdown: a heading, a table, highlighted code, a task list.
    const answer = page.locator(`${tid("group")}[data-kind="assistant"]`);
    assert.equal(await answer.locator("h2").innerText(), "Weekly report");
    assert.equal(await answer.locator("table td").count(), 4);
    assert.equal(await answer.locator(`${tid("code-block")} .code-lang`).innerText(), "rust");
    assert.ok((await answer.locator(".hljs-keyword").count()) >= 1, "the code is highlighted");
    assert.equal(await answer.locator('input[type="checkbox"]').count(), 2);
    // Cards show the calls' arguments.
    assert.deepEqual(await page.locator(tid("presented-file")).allInnerTexts(), [`${OUT}/report.md`, `${OUT}/chart.png`]);
    const sub = page.locator(tid("subagent-card"));
    assert.match(await sub.innerText(), /Check the flaky test/);
    assert.equal(await sub.getAttribute("data-state"), "done");
    assert.match(await sub.locator(tid("subagent-result")).innerText(), /a race in the retry timer/);
    const ask = page.locator(tid("clarification-card"));
    assert.equal(await ask.locator(tid("clarification-question")).innerText(), "Should I upload the report to the wiki?");
    assert.deepEqual(await ask.locator(`${tid("clarification-options")} li`).allInnerTexts(), ["Upload now", "Wait for review"]);
    // The run is over and nobody answered: the question's call is interrupted, not running.
    assert.equal(await ask.getAttribute("data-state"), "interrupted");
    await page.screenshot({ path: join(ARTIFACTS, "chat-groups-light.png"), fullPage: false });
    assert.deepEqual(errors, []);
  });

  test("tool rows by kind: shell, file, search, MCP, generic, orphan", async () => {
    const { page, errors } = await openRich();
    await page.click(tid("processing-summary"));
    assert.equal(await page.locator(tid("processing")).getAttribute("open"), "");
    assert.deepEqual(
      await page.locator(tid("tool-call")).evaluateAll((els) => els.map((e) => [e.dataset.name, e.dataset.kind, e.dataset.state])),
      [
        ["bash", "shell", "done"],
        ["read_file", "file", "done"],
        ["bash", "shell", "done"],
        ["grep", "file", "done"],
        ["web_search", "search", "done"],
        ["github__search_code", "mcp", "failed"],
        ["tool_search", "generic", "done"],
        ["", "generic", "done"],
      ],
    );
    // Shell: the command in the head, the exit code as a badge; the body has command and output.
    const make = row(page, "c-make");
    assert.equal(await make.locator(tid("tool-args")).innerText(), "$ make report");
    assert.equal(await make.locator(tid("tool-exit")).innerText(), "exit 0");
    assert.equal(await row(page, "c-cat").locator(tid("tool-exit")).innerText(), "exit 1");
    assert.match(await row(page, "c-cat").locator(tid("tool-exit")).getAttribute("class"), /bad/);
    await make.locator("summary").first().click();
    assert.equal(await make.locator(tid("tool-command")).innerText(), "make report");
    assert.equal(await make.locator(tid("tool-result")).innerText(), "cc -o report report.c\nwriting report.md");
    assert.match(await make.locator(".tool-output > summary").innerText(), /2 lines/);
    // The output folds on its own.
    await make.locator(".tool-output > summary").click();
    assert.equal(await make.locator(tid("tool-result")).isVisible(), false);
    // File tools: the path is a link that asks the app to open the file, without opening the row.
    const read = row(page, "c-read");
    assert.equal(await read.locator(tid("tool-path")).innerText(), `${W}/notes.md`);
    assert.equal(await read.locator(tid("tool-args")).innerText(), "start_line: 1, end_line: 40");
    await read.locator(tid("tool-path")).click();
    assert.equal(await page.locator(".app").getAttribute("data-opened-file"), `${W}/notes.md`);
    assert.equal(await read.locator("details").getAttribute("open"), null);
    await row(page, "c-grep").locator(tid("tool-path")).click();
    assert.equal(await page.locator(".app").getAttribute("data-opened-file"), `${W}/logs`);
    // Search: the query in the head, the results as web links (never a javascript: link).
    const web = row(page, "c-web");
    assert.equal(await web.locator(tid("tool-args")).innerText(), "rust release notes");
    await web.locator("summary").click();
    const links = web.locator(tid("tool-link"));
    assert.deepEqual(await links.allInnerTexts(), ["Rust release notes", "The Cargo Book"]);
    assert.equal(await links.first().getAttribute("href"), "https://blog.rust-lang.org/releases/");
    assert.equal(await links.first().getAttribute("target"), "_blank");
    // MCP: the tool name with its server as a badge; its failure shown under it.
    const mcp = row(page, "c-mcp");
    assert.equal(await mcp.locator(tid("tool-name")).innerText(), "search_code");
    assert.equal(await mcp.locator(tid("tool-server")).innerText(), "github");
    assert.equal(await mcp.locator(tid("tool-error")).innerText(), "GitHub rate limit exceeded");
    // Generic: wrench, name, arguments.
    const gen = row(page, "c-gen");
    assert.equal(await gen.locator(tid("tool-name")).innerText(), "tool_search");
    assert.equal(await gen.locator(tid("tool-args")).innerText(), 'query: "jira"');
    await page.locator(tid("group")).nth(1).screenshot({ path: join(ARTIFACTS, "chat-tool-rows.png") });
    // Folding again takes the rows out of the page.
    await page.click(tid("processing-summary"));
    assert.equal(await page.locator(tid("tool-call")).count(), 0);
    assert.deepEqual(errors, []);
  });

  test("folded work opens and folds from the keyboard", async () => {
    const { page } = await openRich();
    await page.focus(tid("processing-summary"));
    await page.keyboard.press("Enter");
    assert.equal(await page.locator(tid("processing")).getAttribute("open"), "");
    assert.equal(await page.locator(tid("tool-call")).count(), 8);
    await page.keyboard.press(" ");
    assert.equal(await page.locator(tid("processing")).getAttribute("open"), null);
    assert.equal(await page.locator(tid("tool-call")).count(), 0);
  });

  test("a presented file opens in the panel hook", async () => {
    const { page } = await openRich();
    await page.locator(tid("presented-file")).nth(1).click();
    assert.equal(await page.locator(".app").getAttribute("data-opened-file"), `${OUT}/chart.png`);
  });

  test("a live run: the work group stays open between steps and folds when the answer comes", async () => {
    const RUN = {
      turns: [
        { chunks: ["Checking."], delayMs: 20, toolCalls: [{ name: "bash", arguments: { command: "ls" } }], results: [{ call: 0, content: "a\nb\n[exit code: 0]", delayMs: 400 }] },
        { chunks: [], toolCalls: [{ name: "read_file", arguments: { path: `${W}/a` } }], results: [{ call: 0, content: "A", delayMs: 400 }] },
        { chunks: ["Both ", "files ", "are ", "fine."], delayMs: 150 },
      ],
    };
    const { page } = await app({ provider: CONFIGURED, reply: RUN });
    await page.click(tid("new-thread"));
    await page.locator(tid("thread-item")).first().waitFor();
    await page.fill(tid("composer-input"), "Check the files");
    await page.keyboard.press("Enter");
    const work = page.locator(tid("processing"));
    await work.waitFor();
    assert.equal(await work.getAttribute("open"), "");
    assert.equal(await page.locator(tid("processing-summary")).innerText(), "Working…");
    // Every sample until the answer starts: the group is open. One snapshot per sample, so
    // the group and the answer are read at the same instant.
    const seen = new Set();
    await until(async () => {
      const snap = await page.evaluate(() => {
        const rows = [...document.querySelectorAll('[data-testid="tool-call"]')].map((e) => e.dataset.state);
        const answered = [...document.querySelectorAll('[data-testid="group"][data-kind="assistant"]')].some((g) => g.textContent.includes("Both"));
        const open = document.querySelector('[data-testid="processing"]')?.getAttribute("open");
        return { answered, key: `${rows.length}:${rows.join(",")}:${open}` };
      });
      if (!snap.answered) seen.add(snap.key);
      return snap.answered;
    }, "the answer", 8000);
    assert.ok([...seen].every((s) => s.endsWith(":")), `open between steps: ${[...seen].join(" | ")}`);
    assert.ok(seen.has("2:done,running:"), `saw the second step run: ${[...seen].join(" | ")}`);
    await until(async () => (await work.getAttribute("open")) === null, "folded once the answer streams");
    assert.equal(await page.locator(tid("processing-summary")).innerText(), "2 tool calls: bash, read_file");
    await until(async () => (await page.locator(tid("send-button")).count()) === 1, "run over");
    // Usage of the run is shown under its last group.
    assert.equal(await page.locator(tid("run-usage")).innerText(), "12 in · 5 out tokens");
  });
});

describe("long threads", () => {
  test("a streaming reply at the end of a long thread stays in view; scrolling up draws the groups there", async () => {
    const many = [];
    for (let k = 0; k < 150; k++) {
      many.push({ role: "user", content: `Question ${k}` });
      many.push({ role: "assistant", run_id: `r${k}`, content: `Answer ${k}.\n\n- one\n- two` });
    }
    const reply = { chunks: Array.from({ length: 30 }, (_, i) => `Line ${i} of the reply.\n\n`), delayMs: 40 };
    const { page } = await app({ provider: CONFIGURED, reply, threads: [{ id: "long", title: "Long", updated_at: 1, messages: many }] });
    await page.click(`${tid("thread-item")}[data-thread-id="long"]`);
    await page.locator(tid("group")).first().waitFor();
    const gap = () =>
      page.evaluate(() => {
        const el = document.querySelector('[data-testid="message-list"]');
        return el.scrollHeight - el.scrollTop - el.clientHeight;
      });
    await until(async () => (await gap()) < 2, "opened at the end");
    assert.ok((await page.locator(tid("group")).count()) < 40, "virtualized");
    await page.fill(tid("composer-input"), "One more");
    await page.keyboard.press("Enter");
    // While it streams, every sample shows the end of the list.
    const gaps = [];
    await until(async () => {
      gaps.push(await gap());
      const t = await page.locator(`${tid("message")}[data-role="assistant"]`).last().innerText();
      return t.includes("Line 12");
    }, "half the reply");
    assert.ok(Math.max(...gaps.slice(3)) < 80, `followed the reply: ${gaps.join(",")}`);
    assert.equal(await page.locator(`${tid("message")}[data-role="user"] ${tid("message-content")}`).last().innerText(), "One more");
    // The user scrolls up: groups are drawn where they scrolled to. Whether the view then stays
    // put while the reply grows is not asserted: it does not reliably (the follow can take the
    // view back to the end), a known defect written in docs/architecture.md.
    await page.locator(tid("message-list")).evaluate((el) => (el.scrollTop = el.scrollTop - 1500));
    const anchor = () =>
      page.evaluate(() => {
        const list = document.querySelector('[data-testid="message-list"]').getBoundingClientRect();
        const g = [...document.querySelectorAll('[data-testid="group"]')].find((e) => e.getBoundingClientRect().bottom > list.top);
        return g ? { key: g.dataset.key, top: Math.round(g.getBoundingClientRect().top - list.top) } : null;
      });
    await until(anchor, "a group in view after scrolling up");
    await until(async () => (await page.locator(tid("send-button")).count()) === 1, "run over");
  });
});

describe("composer and shortcuts", () => {
  const SLOW = { chunks: ["The ", "quick ", "brown ", "fox ", "jumps ", "over ", "the ", "lazy ", "dog."], delayMs: 150 };

  test("Esc stops the run; Enter sends; Shift+Enter breaks the line", async () => {
    const { page } = await app({ provider: CONFIGURED, reply: SLOW });
    await page.click(tid("new-thread"));
    await page.locator(tid("thread-item")).first().waitFor();
    await page.click(tid("composer-input"));
    await page.keyboard.type("line one");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("line two");
    assert.equal(await page.inputValue(tid("composer-input")), "line one\nline two");
    await page.keyboard.press("Enter");
    await page.locator(tid("stop-button")).waitFor();
    const [start] = await calls(page, "start_run");
    assert.equal(start.args.content, "line one\nline two");
    await until(async () => (await page.locator(`${tid("message")}[data-role="assistant"] ${tid("message-content")}`).innerText()).length > 4, "some text");
    // Esc from the composer (the focus stays there after sending).
    await page.keyboard.press("Escape");
    await until(async () => (await calls(page, "cancel_run")).length === 1, "cancel_run");
    const note = page.locator(`${tid("message")}[data-role="assistant"] ${tid("message-note")}`);
    await until(async () => (await note.count()) === 1 && (await note.innerText()) === "stopped", "stopped note");
    await page.locator(tid("send-button")).waitFor();
    // With no run, Esc does nothing.
    await page.keyboard.press("Escape");
    assert.equal((await calls(page, "cancel_run")).length, 1);
  });

  test("Esc closes the tools inspector without stopping the run", async () => {
    const { page } = await app({ provider: CONFIGURED, reply: SLOW });
    await page.click(tid("new-thread"));
    await page.locator(tid("thread-item")).first().waitFor();
    await page.fill(tid("composer-input"), "go");
    await page.keyboard.press("Enter");
    await page.locator(tid("stop-button")).waitFor();
    await page.click(tid("open-tools"));
    await page.locator('[role="dialog"]').waitFor();
    await page.keyboard.press("Escape");
    await until(async () => (await page.locator('[role="dialog"]').count()) === 0, "inspector closed");
    assert.equal((await calls(page, "cancel_run")).length, 0);
  });

  test("Ctrl+N starts a new thread and puts the cursor in the composer", async () => {
    const { page } = await app({ provider: CONFIGURED, threads: [{ id: "a", title: "Alpha", updated_at: 1, messages: [{ role: "user", content: "hi" }] }] });
    await page.click(`${tid("thread-item")}[data-thread-id="a"]`);
    await page.locator(tid("message")).waitFor();
    await page.locator(tid("thread-title")).first().click();
    await page.keyboard.press("Control+n");
    await until(async () => (await calls(page, "create_thread")).length === 1, "create_thread");
    await until(async () => (await page.locator(tid("thread-item")).count()) === 2, "two threads");
    assert.equal(await page.locator(tid("message")).count(), 0);
    await until(async () => page.evaluate(() => document.activeElement?.getAttribute("data-testid") === "composer-input"), "composer focused");
  });

  test("copy a message and a code block", async () => {
    const { page } = await openRich();
    const answer = page.locator(`${tid("group")}[data-kind="assistant"]`);
    await answer.locator(tid("copy-code")).click();
    await until(async () => (await answer.locator(tid("copy-code")).innerText()) === "Copied", "code copied");
    await answer.hover();
    await answer.locator(tid("copy-message")).click();
    const copied = await page.evaluate(() => window.__copied);
    assert.equal(copied[0], 'fn main() {\n    println!("report");\n}');
    assert.equal(copied[1], RICH.messages.find((m) => m.id === "a3").content);
    const user = page.locator(`${tid("group")}[data-kind="human"]`);
    await user.hover();
    await user.locator(tid("copy-message")).click();
    assert.equal((await page.evaluate(() => window.__copied))[2], RICH.messages[0].content);
  });
});

describe("theme", () => {
  const colors = (page) =>
    page.evaluate(() => {
      const chat = getComputedStyle(document.querySelector(".chat"));
      return { bg: chat.backgroundColor, fg: chat.color };
    });
  /** Relative luminance of an `rgb(r, g, b)` string, 0 (black) to 1 (white). */
  const lum = (rgb) => {
    const [r, g, b] = rgb.match(/\d+/g).slice(0, 3).map((x) => Number(x) / 255);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };

  test("follows the system: light and dark", async () => {
    const light = await openRich({ colorScheme: "light" });
    const dark = await openRich({ colorScheme: "dark" });
    const l = await colors(light.page);
    const d = await colors(dark.page);
    assert.ok(lum(l.bg) > 0.9 && lum(l.fg) < 0.3, `light: ${JSON.stringify(l)}`);
    assert.ok(lum(d.bg) < 0.15 && lum(d.fg) > 0.7, `dark: ${JSON.stringify(d)}`);
    // The system switching while the app is open is followed too.
    await light.page.emulateMedia({ colorScheme: "dark" });
    assert.deepEqual(await colors(light.page), d);
    await dark.page.click(tid("processing-summary"));
    await dark.page.screenshot({ path: join(ARTIFACTS, "chat-groups-dark.png") });
  });
});

describe("thread search", () => {
  test("filters the list by title; Esc clears", async () => {
    const threads = [
      { id: "a", title: "Résumé for Dana", updated_at: 3 },
      { id: "b", title: "Fix the flaky sync test", updated_at: 2 },
      { id: "c", title: "Sync notes", updated_at: 1 },
    ];
    const { page } = await app({ provider: CONFIGURED, threads });
    const titles = () => page.locator(tid("thread-title")).allInnerTexts();
    await page.locator(tid("thread-search")).waitFor();
    await page.fill(tid("thread-search"), "sync");
    assert.deepEqual(await titles(), ["Fix the flaky sync test", "Sync notes"]);
    await page.fill(tid("thread-search"), "resume");
    assert.deepEqual(await titles(), ["Résumé for Dana"]);
    await page.fill(tid("thread-search"), "nothing like it");
    await until(async () => (await page.locator(tid("thread-search-empty")).innerText()).startsWith("No thread mentions"), "no match");
    await page.screenshot({ path: join(ARTIFACTS, "sidebar-search-empty.png") });
    await page.focus(tid("thread-search"));
    await page.keyboard.press("Escape");
    assert.equal(await page.inputValue(tid("thread-search")), "");
    assert.equal((await titles()).length, 3);
  });

  test("finds threads by what was said, with the excerpt; a failed content search keeps title matches", async () => {
    const threads = [
      { id: "a", title: "Budget", updated_at: 3 },
      { id: "b", title: "Chat", updated_at: 2, messages: [{ role: "user", content: "Check the   budget numbers\nfor March" }] },
      { id: "c", title: "Tools", updated_at: 1, messages: [{ role: "tool", tool_call_id: "x", content: "budget in a tool result" }, { role: "user", content: "budget reminder", hidden: true }] },
    ];
    const { page } = await app({ provider: CONFIGURED, threads });
    await page.locator(tid("thread-search")).waitFor();
    await page.fill(tid("thread-search"), "budget");
    await until(async () => (await page.locator(tid("thread-title")).count()) === 2, "content hit listed");
    assert.deepEqual(await page.locator(tid("thread-title")).allInnerTexts(), ["Budget", "Chat"]);
    assert.deepEqual(await page.locator(tid("thread-snippet")).allInnerTexts(), ["Check the budget numbers for March"]);
    assert.deepEqual((await calls(page, "search_threads")).map((c) => c.args), [{ query: "budget" }]);
    await page.screenshot({ path: join(ARTIFACTS, "sidebar-search.png") });
    await page.locator(`${tid("thread-item")}[data-thread-id="b"] .thread-open`).click();
    await page.locator(tid("message")).first().waitFor();

    const failing = await app({ provider: CONFIGURED, threads, searchError: "The database is locked." });
    await failing.page.locator(tid("thread-search")).waitFor();
    await failing.page.fill(tid("thread-search"), "budget");
    await failing.page.locator(tid("thread-search-error")).waitFor();
    assert.match(await failing.page.locator(tid("thread-search-error")).innerText(), /Only titles were searched: The database is locked\./);
    assert.deepEqual(await failing.page.locator(tid("thread-title")).allInnerTexts(), ["Budget"]);
  });
});
