// A 5,000-message thread in Chromium: opening it and scrolling it from the end to the start,
// measuring every frame. The target is no frame over 50 ms; timing on a shared machine is noisy,
// so the figures are printed and the test fails only far above the target (FAIL_FRAME_MS) or when
// the list stops being virtualized. Run with `npm run test:browser`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { CONFIGURED, launchBrowser, openApp, serveDist, uiRoot } from "./harness.mjs";

const MESSAGES = 5000;
const TARGET_FRAME_MS = 50;
/**
 * Ten times the target: on a 2-core machine shared with builds a single frame of 100-250 ms
 * happens without any fault of the page (the static baseline shows the noise); a frame this
 * slow is a real regression.
 */
const FAIL_FRAME_MS = 500;
/** Pixels scrolled per frame: a fast flick, which is what brings new groups in quickest. */
const STEP_PX = 500;
/** Groups in the DOM at once; a virtualized list keeps this near the viewport's worth. */
const MAX_GROUPS_IN_DOM = 80;

let server;
let browser;
let context;

before(async () => {
  server = await serveDist();
  browser = await launchBrowser();
});
after(async () => {
  await context?.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

/** User asks, the agent works with two tools, then answers in markdown; repeated. */
function longThread(n) {
  const out = [];
  let i = 0;
  while (out.length < n) {
    const k = i++;
    out.push({ role: "user", content: `Question ${k}: what does step ${k} of the build do?` });
    out.push({
      role: "assistant",
      run_id: `r${k}`,
      reasoning: "Look at the makefile first.",
      content: "Let me look.",
      tool_calls: [
        { id: `c${k}a`, name: "bash", arguments: JSON.stringify({ command: `make -n step${k}` }) },
        { id: `c${k}b`, name: "read_file", arguments: JSON.stringify({ path: `/mnt/user-data/workspace/step${k}.md` }) },
      ],
    });
    out.push({ role: "tool", run_id: `r${k}`, tool_call_id: `c${k}a`, content: `cc -c step${k}.c\n[exit code: 0]` });
    out.push({ role: "tool", run_id: `r${k}`, tool_call_id: `c${k}b`, content: `# Step ${k}\nCompiles one file.` });
    out.push({
      role: "assistant",
      run_id: `r${k}`,
      content: `Step **${k}** compiles \`step${k}.c\`:\n\n- it runs \`cc -c\`\n- it writes \`step${k}.o\`\n\n\`\`\`sh\ncc -c step${k}.c -o step${k}.o\n\`\`\``,
    });
  }
  return out.slice(0, n);
}

/** Scrolls `el` from its end to its top by STEP_PX a frame; returns the frame times (ms). */
async function scrollFrames(page, selector) {
  return page.evaluate(
    async ({ selector, step }) => {
      const el = document.querySelector(selector);
      el.scrollTop = el.scrollHeight;
      await new Promise((r) => setTimeout(r, 300));
      const frames = [];
      await new Promise((resolve) => {
        let last = performance.now();
        let n = 0;
        function tick(now) {
          frames.push(now - last);
          last = now;
          if (el.scrollTop <= 0 || n++ > 2000) return resolve();
          el.scrollTop = Math.max(0, el.scrollTop - step);
          requestAnimationFrame(tick);
        }
        requestAnimationFrame(tick);
      });
      return frames.slice(1);
    },
    { selector, step: STEP_PX },
  );
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const pct = (p) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  return { n: s.length, median: pct(50), p95: pct(95), worst: s[s.length - 1] };
};

test(`a ${MESSAGES}-message thread opens and scrolls without long frames`, async () => {
  // Baseline in the same run: the same scroll over a static page of plain paragraphs, which
  // shows what painting alone costs on this machine right now.
  const plain = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await plain.setContent(
    `<div id="s" style="height:800px;overflow:auto;font:14px system-ui">${"<p>A plain paragraph of text, the same on every line, with nothing to lay out.</p>".repeat(6000)}</div>`,
  );
  const base = stats(await scrollFrames(plain, "#s"));
  await plain.close();

  const thread = { id: "long", title: "A long thread", updated_at: 1, messages: longThread(MESSAGES) };
  const r = await openApp(browser, server.url, { provider: CONFIGURED, threads: [thread] });
  context = r.context;
  const { page, errors } = r;

  const t0 = Date.now();
  await page.click('[data-testid="thread-item"][data-thread-id="long"]');
  await page.locator('[data-testid="group"]').first().waitFor();
  const openMs = Date.now() - t0;

  const result = await page.evaluate(
    async ({ step }) => {
      const el = document.querySelector('[data-testid="message-list"]');
      // Let the first measurements settle at the end of the thread.
      await new Promise((r) => setTimeout(r, 300));
      const long = [];
      const obs = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) long.push(e.duration);
      });
      obs.observe({ type: "longtask", buffered: false });
      const frames = [];
      const startTop = el.scrollTop;
      let groupsMax = 0;
      await new Promise((resolve) => {
        let last = performance.now();
        let n = 0;
        function tick(now) {
          frames.push(now - last);
          last = now;
          groupsMax = Math.max(groupsMax, el.querySelectorAll('[data-testid="group"]').length);
          if (el.scrollTop <= 0 || n++ > 2000) return resolve();
          el.scrollTop = Math.max(0, el.scrollTop - step);
          requestAnimationFrame(tick);
        }
        requestAnimationFrame(tick);
      });
      obs.disconnect();
      const firstGroup = el.querySelector('[data-testid="group"]')?.textContent ?? "";
      return { frames: frames.slice(1), long, startTop, groupsMax, firstGroup, height: el.scrollHeight };
    },
    { step: STEP_PX },
  );

  const frames = [...result.frames].sort((a, b) => a - b);
  const pct = (p) => frames[Math.min(frames.length - 1, Math.floor((p / 100) * frames.length))];
  const worst = frames[frames.length - 1];
  const over = frames.filter((f) => f > TARGET_FRAME_MS).length;
  console.log(
    `scroll-perf baseline (static page, same scroll): ${base.n} frames, median ${base.median.toFixed(1)} ms, ` +
      `p95 ${base.p95.toFixed(1)} ms, worst ${base.worst.toFixed(1)} ms`,
  );
  console.log(
    `scroll-perf: ${MESSAGES} messages, list ${Math.round(result.height)} px, opened in ${openMs} ms; ` +
      `${frames.length} frames scrolling ${Math.round(result.startTop)} px to the top: ` +
      `median ${pct(50).toFixed(1)} ms, p95 ${pct(95).toFixed(1)} ms, worst ${worst.toFixed(1)} ms ` +
      `(target <= ${TARGET_FRAME_MS} ms; ${over} frames over); long tasks: ${result.long.length}` +
      (result.long.length ? ` (longest ${Math.max(...result.long).toFixed(0)} ms)` : "") +
      `; at most ${result.groupsMax} groups in the DOM; worst frame vs baseline worst ${(worst / base.worst).toFixed(2)}x`,
  );
  await mkdir(join(uiRoot, "..", "tests", "artifacts"), { recursive: true });
  await page.screenshot({ path: join(uiRoot, "..", "tests", "artifacts", "long-thread-top.png") });

  assert.ok(result.startTop > 100_000, `the thread opened at its end (scrollTop ${result.startTop})`);
  assert.match(result.firstGroup, /Question 0:/, "scrolled back to the first message");
  assert.ok(result.groupsMax <= MAX_GROUPS_IN_DOM, `virtualized: ${result.groupsMax} groups in the DOM`);
  assert.ok(worst < FAIL_FRAME_MS, `worst frame ${worst.toFixed(1)} ms is far above the ${TARGET_FRAME_MS} ms target`);
  assert.deepEqual(errors, []);
});
