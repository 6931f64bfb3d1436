// Benchmark: grouping a 10,000-message thread (src/core/groups.ts), the work the chat redoes on
// every streamed event. Target: at most 10 ms per grouping on the machine that runs it. The time
// is printed next to baselines measured in the same run on the same list: JSON.parse of the
// list (what receiving the thread over IPC costs anyway) and a shallow copy of every message,
// so a slower or busier machine shows as slower baselines too and the ratios stay comparable. Run: `npm run bench` (or `node bench/group-messages.mjs`).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const MESSAGES = 10_000;
const TARGET_MS = 10;
const WARMUP = 20;
const RUNS = 60;

/** Bundles the TypeScript module to plain JS in a temp folder and imports it. */
async function load(entry) {
  const out = await mkdtemp(join(tmpdir(), "wb-bench-"));
  await build({
    configFile: false,
    logLevel: "silent",
    build: { outDir: out, emptyOutDir: true, minify: false, lib: { entry, formats: ["es"], fileName: "mod" } },
  });
  const mod = await import(pathToFileURL(join(out, "mod.js")).href);
  return { mod, cleanup: () => rm(out, { recursive: true, force: true }) };
}

/** A realistic thread: user turns, tool-calling turns with parallel calls and results, answers. */
function thread(n) {
  const list = [];
  let i = 0;
  const base = { thread_id: "t", reasoning: "", tool_calls: [], tool_call_id: null, is_error: false, status: "complete", error: null, hidden: false };
  const push = (m) => list.push({ ...base, id: `m${i++}`, created_at: i, ...m });
  while (list.length < n) {
    const run = `r${i}`;
    push({ role: "user", run_id: null, content: "Please look at the build logs and fix what fails. ".repeat(2) });
    for (let step = 0; step < 3 && list.length < n; step++) {
      const calls = [0, 1].map((k) => ({ id: `c${i}-${k}`, name: k ? "read_file" : "bash", arguments: JSON.stringify({ command: "make test", path: "/mnt/user-data/workspace/src/main.rs" }) }));
      push({ role: "assistant", run_id: run, content: step ? "" : "Let me check.", reasoning: "Thinking about it.", tool_calls: calls });
      for (const c of calls) push({ role: "tool", run_id: run, tool_call_id: c.id, content: "ok\n".repeat(20) + "[exit code: 0]", is_error: c.name === "bash" && step === 2 });
    }
    push({ role: "assistant", run_id: run, content: "Done. ".repeat(40) });
  }
  return list.slice(0, n);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn) {
  for (let i = 0; i < WARMUP; i++) fn();
  const out = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return { median: median(out), max: Math.max(...out) };
}

const { mod, cleanup } = await load(resolve(here, "../src/core/groups.ts"));
try {
  // Through JSON, as the list arrives from the backend: every message has the same shape.
  const json = JSON.stringify(thread(MESSAGES));
  const list = JSON.parse(json);
  let sink = 0;
  const baseline = time(() => {
    sink += JSON.parse(json).length;
  });
  const copy = time(() => {
    sink += list.map((m) => ({ ...m })).length;
  });
  const grouping = time(() => {
    sink += mod.groupMessages(list, true).length;
  });
  const groups = mod.groupMessages(list, true);
  console.log(`group-messages: ${MESSAGES} messages -> ${groups.length} groups (sink ${sink > 0})`);
  console.log(`  baseline JSON.parse of the list: median ${baseline.median.toFixed(2)} ms (max ${baseline.max.toFixed(2)})`);
  console.log(`  baseline shallow copy of each:   median ${copy.median.toFixed(2)} ms (max ${copy.max.toFixed(2)})`);
  console.log(`  groupMessages:                   median ${grouping.median.toFixed(2)} ms (max ${grouping.max.toFixed(2)})`);
  console.log(`  ratio groupMessages / JSON.parse: ${(grouping.median / baseline.median).toFixed(2)}x`);
  console.log(`  ratio groupMessages / copy:       ${(grouping.median / copy.median).toFixed(2)}x`);
  console.log(`  target <= ${TARGET_MS} ms: ${grouping.median <= TARGET_MS ? "met" : "NOT met"} on this machine`);
} finally {
  await cleanup();
}
