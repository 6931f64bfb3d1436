import { describe, expect, it } from "vitest";
import type { Message } from "../bindings/Message";
import type { RunEvent } from "../bindings/RunEvent";
import { call, ev, msg, result } from "./fixtures";
import { applyRunEvent } from "./messages";
import {
  ARG_SUMMARY_MAX,
  prettyArgs,
  splitToolName,
  summarizeArgs,
  toolCallStates,
  type ToolCallState,
} from "./toolCalls";

const user = msg({ id: "u1", role: "user", content: "Read two files", status: "complete" });
const calls = [call("c1", "read_file", { path: "a.txt" }), call("c2", "fs__list_dir", { path: "." })];
/** The assistant turn with two parallel calls, as message_added sends it while streaming. */
const turnStreaming = msg({ id: "a1", run_id: "r1", status: "streaming" });
/** The same message once the model finished the turn (message_updated). */
const turn = msg({ id: "a1", run_id: "r1", status: "complete", tool_calls: calls });
const final = msg({ id: "a2", run_id: "r1", status: "complete", content: "Both read." });

type Case = {
  name: string;
  /** The list before the events (e.g. what get_thread returned). */
  start: Message[];
  events: RunEvent[];
  runLive: boolean;
  want: Record<string, ToolCallState>;
  /** Call id -> the id of the result message attached. */
  results?: Record<string, string>;
};

const cases: Case[] = [
  {
    name: "streaming: calls appear with the turn and run until answered",
    start: [],
    events: [ev.started(), ev.added(user), ev.added(turnStreaming), ev.updated(turn)],
    runLive: true,
    want: { c1: "running", c2: "running" },
  },
  {
    name: "parallel calls answered out of order",
    start: [user, turn],
    events: [ev.added(result("t2", "c2", "a.txt\nb.txt"))],
    runLive: true,
    want: { c1: "running", c2: "done" },
    results: { c2: "t2" },
  },
  {
    name: "both answered (second first), then the final text",
    start: [user, turn],
    events: [ev.added(result("t2", "c2", "a.txt")), ev.added(result("t1", "c1", "hello")), ev.added(final), ev.finished("completed")],
    runLive: false,
    want: { c1: "done", c2: "done" },
    results: { c1: "t1", c2: "t2" },
  },
  {
    name: "an error result is failed, its sibling unaffected",
    start: [user, turn],
    events: [ev.added(result("t1", "c1", "No such file: a.txt", true))],
    runLive: true,
    want: { c1: "failed", c2: "running" },
    results: { c1: "t1" },
  },
  {
    name: "interrupted run: unanswered calls are interrupted once the run is not live",
    start: [user, turn],
    events: [ev.added(result("t1", "c1", "hello"))],
    runLive: false,
    want: { c1: "done", c2: "interrupted" },
  },
  {
    name: "a stopped turn's calls are interrupted even while the run is still winding down",
    start: [user, { ...turn, status: "cancelled" }],
    events: [],
    runLive: true,
    want: { c1: "interrupted", c2: "interrupted" },
  },
  {
    name: "an old run's unanswered calls stay interrupted when a new run is live",
    start: [user, turn, result("t1", "c1", "hello")],
    events: [ev.added(msg({ id: "u2", role: "user", content: "again" })), ev.added(msg({ id: "a3", status: "streaming" }))],
    runLive: true,
    want: { c1: "done", c2: "interrupted" },
  },
  {
    name: "reload from get_thread: results already in the list, mid-run",
    start: [user, turn, result("t2", "c2", ".", false), result("t1", "c1", "boom", true)],
    events: [],
    runLive: true,
    want: { c1: "failed", c2: "done" },
    results: { c1: "t1", c2: "t2" },
  },
  {
    name: "reload from get_thread then results keep streaming in",
    start: [user, turn],
    events: [ev.started(), ev.added(result("t1", "c1", "hello")), ev.state({ promoted: null, artifacts: ["/out/a.md"], pending: [], todos: [] })],
    runLive: true,
    want: { c1: "done", c2: "running" },
  },
  {
    name: "calls of an earlier turn that never got a result are interrupted, not running",
    start: [user, turn, result("t1", "c1", "hello"), final],
    events: [],
    runLive: true,
    want: { c1: "done", c2: "interrupted" },
  },
  {
    name: "an orphan result changes no call",
    start: [user, turn],
    events: [ev.added(result("tx", "zzz", "stray"))],
    runLive: true,
    want: { c1: "running", c2: "running" },
  },
];

describe("toolCallStates", () => {
  it.each(cases)("$name", (c) => {
    const list = c.events.reduce((l, e) => applyRunEvent(l, e, "t1"), c.start);
    const states = toolCallStates(list, c.runLive);
    const got = Object.fromEntries([...states].map(([id, s]) => [id, s.state]));
    expect(got).toEqual(c.want);
    for (const [callId, resultId] of Object.entries(c.results ?? {})) {
      expect(states.get(callId)?.result?.id).toBe(resultId);
    }
  });
});

describe("state_updated", () => {
  it("leaves the message list unchanged", () => {
    const list = [user];
    expect(applyRunEvent(list, ev.state({ promoted: { catalog_hash: "h", names: ["x"] }, artifacts: [], pending: [], todos: [] }))).toBe(list);
  });
});

describe("splitToolName", () => {
  it.each([
    ["read_file", { tool: "read_file", server: null }],
    ["github__create_issue", { tool: "create_issue", server: "github" }],
    ["my_server__list__all", { tool: "list__all", server: "my_server" }],
    ["__odd", { tool: "__odd", server: null }],
    ["odd__", { tool: "odd__", server: null }],
  ] as const)("%s", (name, want) => {
    expect(splitToolName(name)).toEqual(want);
  });
});

describe("summarizeArgs", () => {
  it.each([
    ['{"path":"src/main.rs","limit":20}', 'path: "src/main.rs", limit: 20'],
    ['{"q":"a\\n  b","deep":{"x":1},"list":[1,2,3],"none":null,"e":{},"ok":true}', 'q: "a b", deep: {…}, list: […3], none: null, e: {}, ok: true'],
    ["{}", ""],
    ["", ""],
    ['{"path": "a.txt"', '{"path": "a.txt"'],
    ['"just text"', '"just text"'],
  ])("%s", (json, want) => {
    expect(summarizeArgs(json)).toBe(want);
  });

  it("truncates long values and the whole line", () => {
    const long = summarizeArgs(JSON.stringify({ content: "x".repeat(500), more: "y".repeat(80), rest: 1 }));
    expect(long.length).toBeLessThanOrEqual(ARG_SUMMARY_MAX);
    expect(long.endsWith("…")).toBe(true);
    expect(long.startsWith(`content: "${"x".repeat(39)}…"`)).toBe(true);
  });
});

describe("prettyArgs", () => {
  it("pretty-prints JSON and keeps invalid text as is", () => {
    expect(prettyArgs('{"a":1}')).toEqual({ text: '{\n  "a": 1\n}', valid: true });
    expect(prettyArgs('{"a":')).toEqual({ text: '{"a":', valid: false });
    expect(prettyArgs("")).toEqual({ text: "(no arguments)", valid: true });
  });
});

describe("calls waiting for approval", () => {
  it("a call in the waiting set with no result is waiting, not interrupted; once answered it is done", () => {
    const a = msg({ id: "a1", role: "assistant", tool_calls: [call("c1", "bash", '{"command":"ls"}'), call("c2", "ls")] });
    const list = [msg({ id: "u1", role: "user", content: "go" }), a, result("res2", "c2", "x")];
    const states = toolCallStates(list, false, new Set(["c1"]));
    expect(states.get("c1")?.state).toBe("waiting");
    expect(states.get("c2")?.state).toBe("done");
    expect(toolCallStates(list, false).get("c1")?.state).toBe("interrupted");
    const answered = [...list, result("res1", "c1", "approved")];
    expect(toolCallStates(answered, true, new Set(["c1"])).get("c1")?.state).toBe("done");
  });
});

describe("hidden messages", () => {
  it("a hidden message after the live turn does not make its calls interrupted", () => {
    const hidden = msg({ id: "h", role: "user", content: "[image]", hidden: true });
    const states = toolCallStates([user, turn, hidden], true);
    expect([...states.values()].map((s) => s.state)).toEqual(["running", "running"]);
  });
});
