// The artifacts panel in Chromium with the mocked IPC: presented files open it, previews per
// type (markdown, CSV, image, sandboxed HTML, code), chat file links, and live updates from
// the outputs watch. Screenshots go to tests/artifacts/ (repo root, gitignored).
// Run with `npm run test:browser`.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
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

async function app(config) {
  const r = await openApp(browser, server.url, { provider: CONFIGURED, ...config });
  opened.push(r.context);
  return r;
}

const tid = (id) => `[data-testid="${id}"]`;
const OUT = "/mnt/user-data/outputs";
const W = "/mnt/user-data/workspace";
const EMPTY_STATE = { promoted: null, artifacts: [], pending: [], todos: [] };

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

/** A thread with `files` (see mock-backend.js) and optional messages. */
function threadWith(id, files, extra = {}) {
  return { threads: [{ id, title: `Thread ${id}`, updated_at: 5, messages: extra.messages ?? [], state: extra.state }], files: { [id]: files } };
}

async function openThread(page, id) {
  await page.click(`${tid("thread-item")}[data-thread-id="${id}"]`);
  await page.locator(tid("composer-input")).waitFor();
}

/** The panel's list as [name, presented]. */
const listed = (page) =>
  page.locator(tid("artifact-item")).evaluateAll((els) => els.map((e) => [e.querySelector(".artifact-name").textContent, !!e.querySelector('[data-testid="artifact-presented"]')]));

/** A real PNG (RGB, `w`x`h`, a bar chart) so the image preview has something to decode. */
function png(w, h) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows = [];
  const bars = [0.35, 0.8, 0.55, 0.95, 0.6];
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + w * 3);
    for (let x = 0; x < w; x++) {
      const bar = Math.floor((x / w) * bars.length);
      const inBar = x % Math.floor(w / bars.length) > 4 && y > h * (1 - bars[bar]);
      const [r, g, b] = inBar ? [47, 95, 208] : [246, 247, 249];
      row.set([r, g, b], 1 + x * 3);
    }
    rows.push(row);
  }
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(Buffer.concat(rows))), chunk("IEND", Buffer.alloc(0))]).toString("base64");
}

const REPORT = [
  "# Quarterly sales",
  "",
  "Revenue grew **18%** over the quarter; the North region led.",
  "",
  "| region | revenue |",
  "| --- | --- |",
  "| North | 1,200 |",
  "| South | 800 |",
  "",
  "```python",
  "total = sum(r.revenue for r in rows)",
  "```",
].join("\n");

const CSV = 'region,product,"revenue, USD"\r\nNorth,"Widget ""Pro""",1200\r\nSouth,"Gadget\nmini",800\r\n';

describe("artifacts panel", () => {
  test("presenting a file opens the panel on it, rendered; the other outputs follow in the list", async () => {
    const id = "t-present";
    const run = {
      turns: [
        {
          chunks: ["Writing the report."],
          delayMs: 20,
          toolCalls: [{ name: "write_file", arguments: { path: `${OUT}/report.md`, content: REPORT } }],
          results: [{ call: 0, content: "wrote report.md", delayMs: 50, outputs: [{ path: `${OUT}/report.md`, text: REPORT }] }],
        },
        {
          chunks: [],
          toolCalls: [{ name: "present_files", arguments: { filepaths: [`${OUT}/report.md`] } }],
          results: [{ call: 0, content: "presented 1 file", delayMs: 50, state: { ...EMPTY_STATE, artifacts: [`${OUT}/report.md`] } }],
        },
        { chunks: ["Here it is."], delayMs: 20 },
      ],
    };
    const { page, errors } = await app({ ...threadWith(id, [{ path: `${OUT}/a-notes.txt`, text: "scratch" }]), reply: run });
    await openThread(page, id);
    assert.equal(await page.locator(tid("artifacts-panel")).count(), 0);
    await page.fill(tid("composer-input"), "Write the sales report");
    await page.click(tid("send-button"));
    const panel = page.locator(tid("artifacts-panel"));
    await panel.waitFor();
    const preview = panel.locator(tid("artifact-preview"));
    await preview.waitFor();
    assert.equal(await preview.getAttribute("data-kind"), "markdown");
    assert.equal(await preview.locator("h1").innerText(), "Quarterly sales");
    assert.equal(await preview.locator("strong").innerText(), "18%");
    assert.equal(await preview.locator("table td").count(), 4);
    assert.ok((await preview.locator(".hljs-keyword, .hljs-built_in").count()) >= 1, "the code block is highlighted");
    assert.equal(await panel.locator(tid("artifact-path")).innerText(), `${OUT}/report.md`);
    // Presented first even though another file sorts before it by name.
    await until(async () => (await page.locator(tid("artifact-item")).count()) === 2, "both outputs listed");
    assert.deepEqual(await listed(page), [
      ["report.md", true],
      ["a-notes.txt", false],
    ]);
    assert.equal(await page.locator(tid("artifact-item")).first().getAttribute("aria-current"), "true");
    assert.equal(await page.getAttribute(tid("open-artifacts"), "aria-pressed"), "true");
    assert.equal(await page.locator(tid("artifacts-count")).innerText(), "1");
    await page.locator(tid("stop-button")).waitFor({ state: "detached" });
    await page.screenshot({ path: join(ARTIFACTS, "artifacts-panel-markdown.png") });
    // Picking the other file shows it as text.
    await page.locator(tid("artifact-item")).nth(1).click();
    await until(async () => (await page.locator(tid("artifact-text")).count()) === 1, "the text preview");
    assert.equal(await page.locator(tid("artifact-text")).innerText(), "scratch");
    assert.deepEqual(errors, []);
  });

  test("a CSV file is a table, quotes and line breaks inside cells kept", async () => {
    const id = "t-csv";
    const { page, errors } = await app(threadWith(id, [{ path: `${OUT}/sales.csv`, text: CSV }]));
    await openThread(page, id);
    await page.click(tid("open-artifacts"));
    const table = page.locator(tid("artifact-csv"));
    await table.waitFor();
    assert.deepEqual(await table.locator("th").allInnerTexts(), ["region", "product", "revenue, USD"]);
    const rows = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    assert.deepEqual(rows, [
      ["North", 'Widget "Pro"', "1200"],
      ["South", "Gadget\nmini", "800"],
    ]);
    await page.screenshot({ path: join(ARTIFACTS, "artifacts-panel-csv.png") });
    // The button closes the panel and stops the watch.
    await page.click(tid("open-artifacts"));
    assert.equal(await page.locator(tid("artifacts-panel")).count(), 0);
    await until(async () => (await calls(page, "watch_outputs")).at(-1)?.args.threadId === null, "the watch stopped");
    assert.deepEqual(errors, []);
  });

  test("an image shows decoded from its bytes", async () => {
    const id = "t-img";
    const { page, errors } = await app(
      threadWith(id, [
        { path: `${OUT}/chart.png`, base64: png(240, 140) },
        { path: `${OUT}/readme.txt`, text: "see the chart" },
      ]),
    );
    await openThread(page, id);
    await page.click(tid("open-artifacts"));
    await page.locator(`${tid("artifact-item")}[data-path="${OUT}/chart.png"]`).click();
    const img = page.locator(tid("artifact-image"));
    await img.waitFor();
    assert.match(await img.getAttribute("src"), /^data:image\/png;base64,iVBORw0KGgo/);
    assert.equal(await img.getAttribute("alt"), "chart.png");
    const size = await until(() => img.evaluate((el) => el.complete && el.naturalWidth > 0 && [el.naturalWidth, el.naturalHeight]), "the image decoded");
    assert.deepEqual(size, [240, 140]);
    await page.screenshot({ path: join(ARTIFACTS, "artifacts-panel-image.png") });
    assert.deepEqual(errors, []);
  });

  test("HTML shows in a sandboxed frame whose scripts never run or reach the app", async () => {
    const id = "t-html";
    const HTML =
      '<!doctype html><html><body><h1 id="t">Hello from a page</h1>' +
      '<script>try { window.parent.__pwned = "parent"; } catch (e) {} try { top.__pwned = "top"; } catch (e) {} document.body.dataset.ran = "yes";</script>' +
      "</body></html>";
    const { page, errors } = await app(threadWith(id, [{ path: `${OUT}/page.html`, text: HTML }]));
    await openThread(page, id);
    await page.click(tid("open-artifacts"));
    const frame = page.locator(tid("artifact-html"));
    await frame.waitFor();
    assert.equal(await frame.getAttribute("sandbox"), "");
    assert.equal(await frame.getAttribute("srcdoc"), HTML);
    const inside = page.frameLocator(tid("artifact-html"));
    assert.equal(await inside.locator("#t").innerText(), "Hello from a page");
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await page.evaluate(() => window.__pwned ?? null), null);
    assert.equal(await inside.locator("body").getAttribute("data-ran"), null);
    // Control: the same page in a frame without the sandbox does reach the app, so the checks
    // above can fail.
    await page.evaluate((html) => {
      const f = document.createElement("iframe");
      f.srcdoc = html;
      document.body.append(f);
    }, HTML);
    await until(() => page.evaluate(() => window.__pwned ?? null), "the unsandboxed control to run");
    assert.deepEqual(errors, []);
  });

  test("a file link in a tool row opens the panel on that file, highlighted", async () => {
    const id = "t-link";
    const messages = [
      { id: "u1", role: "user", content: "Summarise the data" },
      {
        id: "a1",
        role: "assistant",
        run_id: "r1",
        tool_calls: [{ id: "c-read", name: "read_file", arguments: JSON.stringify({ path: `${W}/summary.json` }) }],
      },
      { role: "tool", run_id: "r1", tool_call_id: "c-read", content: '{"total": 3}' },
      { id: "a2", role: "assistant", run_id: "r1", content: "Three in all." },
    ];
    const { page, errors } = await app(threadWith(id, [{ path: `${W}/summary.json`, text: '{\n  "total": 3,\n  "ok": true\n}' }], { messages }));
    await openThread(page, id);
    await page.click(tid("processing-summary"));
    await page.locator(tid("tool-path")).click();
    const preview = page.locator(`${tid("artifacts-panel")} ${tid("artifact-preview")}`);
    await preview.waitFor();
    assert.equal(await page.locator(tid("artifact-path")).innerText(), `${W}/summary.json`);
    assert.equal(await preview.getAttribute("data-kind"), "code");
    assert.equal(await preview.locator(".code-lang").innerText(), "json");
    assert.ok((await preview.locator(".hljs-attr").count()) >= 2, "the JSON keys are highlighted");
    // A workspace file is shown but not listed: the list is the outputs folder.
    assert.equal(await page.locator(tid("artifacts-empty")).count(), 1);
    assert.deepEqual(errors, []);
  });

  test("the list and the open preview follow the outputs watch", async () => {
    const id = "t-watch";
    const { page, errors } = await app(threadWith(id, [{ path: `${OUT}/log.txt`, text: "step 1" }]));
    await openThread(page, id);
    await page.click(tid("open-artifacts"));
    await until(async () => (await page.locator(tid("artifact-text")).count()) === 1, "the first file shown");
    assert.equal(await page.locator(tid("artifact-text")).innerText(), "step 1");
    await until(async () => (await calls(page, "watch_outputs")).some((c) => c.args.threadId === id), "the watch started");
    // A change the watch has not reported yet is not shown: the panel does not poll.
    await page.evaluate(
      ([tid, out]) => {
        window.__mock.putFile(tid, { path: `${out}/b-chart.csv`, text: "x,y\n1,2" });
        window.__mock.putFile(tid, { path: `${out}/log.txt`, text: "step 1\nstep 2" });
      },
      [id, OUT],
    );
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(await page.locator(tid("artifact-item")).count(), 1);
    assert.equal(await page.evaluate(() => window.__mock.fireWatch()), true);
    await until(async () => (await page.locator(tid("artifact-item")).count()) === 2, "the new file listed");
    assert.deepEqual(await listed(page), [
      ["b-chart.csv", false],
      ["log.txt", false],
    ]);
    await until(async () => (await page.locator(tid("artifact-text")).innerText()) === "step 1\nstep 2", "the preview read again");
    // The selection stayed on the file the user was looking at.
    assert.equal(await page.locator(`${tid("artifact-item")}[aria-current="true"]`).getAttribute("data-path"), `${OUT}/log.txt`);
    await page.click(tid("artifacts-close"));
    assert.equal(await page.locator(tid("artifacts-panel")).count(), 0);
    await until(() => page.evaluate(() => window.__mock.watch === null), "the watch stopped");
    assert.deepEqual(errors, []);
  });

  test("open with app, errors, cut files and types without a preview", async () => {
    const id = "t-misc";
    const big = "line\n".repeat(50);
    const { page, errors } = await app(
      threadWith(id, [
        { path: `${OUT}/big.log`, text: big, size: 30 << 20, truncated: true },
        { path: `${OUT}/data.zip`, base64: "UEsDBAo=" },
        { path: `${OUT}/gone.md`, text: "x", readError: `${OUT}/gone.md: no such file in this thread's folders` },
      ]),
    );
    await openThread(page, id);
    await page.click(tid("open-artifacts"));
    await page.locator(tid("artifact-truncated")).waitFor();
    assert.match(await page.locator(tid("artifact-truncated")).innerText(), /Only the start of this file is shown \(30 MB in all\)/);
    await page.click(tid("artifact-open-app"));
    await until(async () => (await calls(page, "open_artifact")).length === 1, "open_artifact called");
    assert.deepEqual((await calls(page, "open_artifact"))[0].args, { threadId: id, path: `${OUT}/big.log` });
    await page.locator(`${tid("artifact-item")}[data-path="${OUT}/data.zip"]`).click();
    await page.locator(tid("artifact-no-preview")).waitFor();
    assert.match(await page.locator(tid("artifact-no-preview")).innerText(), /no preview for application\/zip files/);
    await page.locator(`${tid("artifact-item")}[data-path="${OUT}/gone.md"]`).click();
    const err = page.locator(tid("artifact-error"));
    await err.waitFor();
    assert.equal(await err.innerText(), `${OUT}/gone.md: no such file in this thread's folders`);
    assert.equal(await err.getAttribute("role"), "alert");
    assert.deepEqual(errors, []);
  });
  test("save as asks where, saves a copy there, says so; a cancelled dialog does nothing; a failure says why", async () => {
    const id = "t-save";
    const files = [{ path: `${OUT}/report.md`, text: "# Report\n" }];
    const { page, errors } = await app({ ...threadWith(id, files), sandbox: { pickSave: [null, "/home/me/Desktop/report.md"] } });
    await openThread(page, id);
    await page.click(tid("open-artifacts"));
    await page.locator(`${tid("artifact-preview")}[data-kind="markdown"]`).waitFor();
    // Cancelled: no save, no message.
    await page.click(tid("artifact-save-as"));
    await until(async () => (await calls(page, "plugin:dialog|save")).length === 1, "the save dialog asked");
    assert.equal((await calls(page, "save_artifact_as")).length, 0);
    assert.equal(await page.locator(tid("artifact-saved")).count(), 0);
    // Chosen: the copy goes there and the panel says where.
    await page.click(tid("artifact-save-as"));
    await page.locator(tid("artifact-saved")).waitFor();
    assert.equal(await page.locator(tid("artifact-saved")).innerText(), "Saved a copy to /home/me/Desktop/report.md");
    assert.deepEqual((await calls(page, "save_artifact_as"))[0].args, { threadId: id, path: `${OUT}/report.md`, dest: "/home/me/Desktop/report.md" });
    assert.deepEqual(errors, []);

    const failing = await app({ ...threadWith(id, files), saveError: "could not save /mnt/user-data/outputs/report.md to /ro/report.md: Permission denied", sandbox: { pickSave: ["/ro/report.md"] } });
    await openThread(failing.page, id);
    await failing.page.click(tid("open-artifacts"));
    await failing.page.locator(`${tid("artifact-preview")}[data-kind="markdown"]`).waitFor();
    await failing.page.click(tid("artifact-save-as"));
    await failing.page.locator(tid("artifact-open-error")).waitFor();
    assert.match(await failing.page.locator(tid("artifact-open-error")).innerText(), /Permission denied/);
    assert.equal(await failing.page.locator(tid("artifact-saved")).count(), 0);
  });
});
