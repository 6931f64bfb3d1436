import { describe, expect, it } from "vitest";
import type { Message } from "../bindings/Message";
import type { RunEvent } from "../bindings/RunEvent";
import { call, ev, msg, result } from "./fixtures";
import {
  assistantKind,
  groupActive,
  groupMessages,
  groupRows,
  lastGroupOfRun,
  processingSummary,
  reuseGroups,
  type MessageGroup,
} from "./groups";
import { applyRunEvent } from "./messages";

const user = (id: string, content = "hi") => msg({ id, role: "user", content });
const text = (id: string, content: string, over: Partial<Message> = {}) =>
  msg({ id, run_id: "r1", content, ...over });
const calling = (id: string, calls: ReturnType<typeof call>[], over: Partial<Message> = {}) =>
  msg({ id, run_id: "r1", tool_calls: calls, ...over });

/** A group written as `kind[message ids]{call id:state:result id ...}` for compact expectations. */
function shape(groups: MessageGroup[]): string[] {
  return groups.map((g) => {
    const ids = g.items.map((i) => i.message.id).join(",");
    const rows = groupRows(g)
      .map((r) => `${r.key}:${r.state}${r.result ? `:${r.result.id}` : ""}`)
      .join(" ");
    return `${g.kind}[${ids}]${rows === "" ? "" : `{${rows}}`}`;
  });
}

type Case = {
  name: string;
  start: Message[];
  events?: RunEvent[];
  runLive: boolean;
  want: string[];
};

const read = call("c1", "read_file", { path: "/mnt/user-data/workspace/a.md" });
const ls = call("c2", "ls", {});
const bash = call("c3", "bash", { command: "make" });

const cases: Case[] = [
  {
    name: "a plain exchange: human, then assistant",
    start: [user("u1"), text("a1", "Hello.")],
    runLive: false,
    want: ["human[u1]", "assistant[a1]"],
  },
  {
    name: "consecutive tool turns merge into one processing group; the answer stands apart",
    start: [
      user("u1"),
      calling("a1", [read]),
      result("t1", "c1", "# A"),
      calling("a2", [bash], { content: "Now build." }),
      result("t3", "c3", "ok\n[exit code: 0]"),
      text("a3", "Built."),
    ],
    runLive: false,
    want: ["human[u1]", "assistant:processing[a1,a2]{c1:done:t1 c3:done:t3}", "assistant[a3]"],
  },
  {
    name: "reasoning alone is processing; reasoning with text is the answer",
    start: [user("u1"), text("a1", "", { reasoning: "Think." }), calling("a2", [ls]), result("t2", "c2", "a"), text("a3", "Done.", { reasoning: "So." })],
    runLive: false,
    want: ["human[u1]", "assistant:processing[a1,a2]{c2:done:t2}", "assistant[a3]"],
  },
  {
    name: "streaming: parallel calls run, then answer out of order, then the next step joins the group",
    start: [],
    events: [
      ev.started(),
      ev.added(user("u1")),
      ev.added(text("a1", "", { status: "streaming" })),
      ev.delta("a1", "Let me look."),
      ev.updated(calling("a1", [read, ls], { content: "Let me look." })),
      ev.added(result("t2", "c2", "a.md")),
      ev.added(text("a2", "", { status: "streaming" })),
    ],
    runLive: true,
    // c1 has no result but a2 is already the next turn: c1 can no longer be answered.
    want: ["human[u1]", "assistant:processing[a1,a2]{c1:interrupted c2:done:t2}"],
  },
  {
    name: "streaming: while the turn's calls run they are running",
    start: [user("u1"), calling("a1", [read, ls])],
    events: [ev.added(result("t1", "c1", "# A"))],
    runLive: true,
    want: ["human[u1]", "assistant:processing[a1]{c1:done:t1 c2:running}"],
  },
  {
    name: "a reply being typed with no step before it is an assistant group",
    start: [user("u1")],
    events: [ev.added(text("a1", "", { status: "streaming" }))],
    runLive: true,
    want: ["human[u1]", "assistant[a1]"],
  },
  {
    name: "streaming text after tool work is the answer, not a step",
    start: [user("u1"), calling("a1", [ls]), result("t2", "c2", "a")],
    events: [ev.added(text("a2", "", { status: "streaming" })), ev.delta("a2", "Here")],
    runLive: true,
    want: ["human[u1]", "assistant:processing[a1]{c2:done:t2}", "assistant[a2]"],
  },
  {
    name: "interrupted run after a reload: unanswered calls are interrupted",
    start: [user("u1"), calling("a1", [read, ls], { status: "interrupted" }), result("t1", "c1", "x")],
    runLive: false,
    want: ["human[u1]", "assistant:processing[a1]{c1:done:t1 c2:interrupted}"],
  },
  {
    name: "reload mid-run: results in the list, the rest still running",
    start: [user("u1"), calling("a1", [read, ls, bash]), result("t3", "c3", "boom", true), result("t1", "c1", "x")],
    runLive: true,
    want: ["human[u1]", "assistant:processing[a1]{c1:done:t1 c2:running c3:failed:t3}"],
  },
  {
    name: "an error result fails its call",
    start: [user("u1"), calling("a1", [read]), result("t1", "c1", "No such file", true), text("a2", "Sorry.")],
    runLive: false,
    want: ["human[u1]", "assistant:processing[a1]{c1:failed:t1}", "assistant[a2]"],
  },
  {
    name: "an orphan result attaches to the last group",
    start: [user("u1"), calling("a1", [read]), result("t1", "c1", "x"), result("tx", "gone", "stray")],
    runLive: false,
    want: ["human[u1]", "assistant:processing[a1]{c1:done:t1 tx:done:tx}"],
  },
  {
    name: "an orphan after an answer attaches to the answer's group",
    start: [user("u1"), text("a1", "Hi."), result("tx", "gone", "stray", true)],
    runLive: false,
    want: ["human[u1]", "assistant[a1]{tx:failed:tx}"],
  },
  {
    name: "an orphan after a human message (or first) opens a processing group",
    start: [result("t0", "gone", "first"), user("u1"), result("tx", "gone", "stray")],
    runLive: false,
    want: ["assistant:processing[t0]{t0:done:t0}", "human[u1]", "assistant:processing[tx]{tx:done:tx}"],
  },
  {
    name: "hidden messages never show; a hidden result still answers its call",
    start: [
      user("u1"),
      msg({ id: "h1", role: "user", content: "<reminder>", hidden: true }),
      calling("a1", [read]),
      result("t1", "c1", "loop warning", false, { hidden: true }),
      msg({ id: "h2", role: "user", content: "[image]", hidden: true }),
      text("a2", "Done."),
    ],
    runLive: false,
    want: ["human[u1]", "assistant:processing[a1]{c1:done}", "assistant[a2]"],
  },
  {
    name: "a hidden message after a live turn does not end it: its calls keep running",
    start: [user("u1"), calling("a1", [read]), msg({ id: "h1", role: "user", content: "[image]", hidden: true })],
    runLive: true,
    want: ["human[u1]", "assistant:processing[a1]{c1:running}"],
  },
  {
    name: "special calls get their own groups, with their results",
    start: [
      user("u1"),
      calling("a1", [ls]),
      result("t2", "c2", "x"),
      calling("a2", [call("p1", "present_files", { filepaths: ["/mnt/user-data/outputs/r.md"] })]),
      result("tp", "p1", "presented"),
      calling("a3", [call("k1", "task", { description: "d", prompt: "p", subagent_type: "bash" }), call("k2", "task", {})]),
      calling("a4", [call("q1", "ask_clarification", { question: "Which?" })]),
    ],
    runLive: false,
    want: [
      "human[u1]",
      "assistant:processing[a1]{c2:done:t2}",
      "assistant:present-files[a2]{p1:done:tp}",
      "assistant:subagent[a3]{k1:interrupted k2:interrupted}",
      "assistant:clarification[a4]{q1:interrupted}",
    ],
  },
  {
    name: "a processing message after a special group starts a new processing group",
    start: [user("u1"), calling("a1", [call("p1", "present_files", {})]), calling("a2", [ls])],
    runLive: true,
    want: ["human[u1]", "assistant:present-files[a1]{p1:interrupted}", "assistant:processing[a2]{c2:running}"],
  },
  {
    name: "a cancelled empty reply stays visible (it carries the stopped note)",
    start: [user("u1"), text("a1", "", { status: "cancelled" })],
    runLive: false,
    want: ["human[u1]", "assistant[a1]"],
  },
  {
    name: "two runs: the second human message splits the processing",
    start: [user("u1"), calling("a1", [ls]), result("t2", "c2", "x"), user("u2"), calling("a2", [read], { run_id: "r2" })],
    runLive: true,
    want: ["human[u1]", "assistant:processing[a1]{c2:done:t2}", "human[u2]", "assistant:processing[a2]{c1:running}"],
  },
];

describe("groupMessages", () => {
  it.each(cases)("$name", (c) => {
    const list = (c.events ?? []).reduce((l, e) => applyRunEvent(l, e, "t1"), c.start);
    expect(shape(groupMessages(list, c.runLive))).toEqual(c.want);
  });

  it("gives the same groups for a list built by events and the same list reloaded", () => {
    const events: RunEvent[] = [
      ev.added(user("u1")),
      ev.added(text("a1", "", { status: "streaming" })),
      ev.updated(calling("a1", [read, bash])),
      ev.added(result("t3", "c3", "[exit code: 0]")),
      ev.added(result("t1", "c1", "x")),
      ev.added(text("a2", "", { status: "streaming" })),
      ev.delta("a2", "All "),
      ev.delta("a2", "good."),
      ev.updated(text("a2", "All good.")),
    ];
    const streamed = events.reduce((l: Message[], e) => applyRunEvent(l, e, "t1"), []);
    const reloaded = JSON.parse(JSON.stringify(streamed)) as Message[];
    expect(shape(groupMessages(reloaded, false))).toEqual(shape(groupMessages(streamed, false)));
    expect(shape(groupMessages(streamed, false))).toEqual([
      "human[u1]",
      "assistant:processing[a1]{c1:done:t1 c3:done:t3}",
      "assistant[a2]",
    ]);
  });

  it("keeps group keys stable while a message streams and changes kind", () => {
    const start = [user("u1"), text("a1", "", { status: "streaming" })];
    const before = groupMessages(start, true);
    const after = groupMessages([start[0]!, calling("a1", [ls], { status: "complete" })], true);
    expect(before.map((g) => g.key)).toEqual(after.map((g) => g.key));
    expect(after[1]?.kind).toBe("assistant:processing");
  });
});

describe("assistantKind", () => {
  it.each([
    [{ content: "x" }, "assistant"],
    [{ content: "" }, "assistant"],
    [{ reasoning: "r" }, "assistant:processing"],
    [{ tool_calls: [call("a", "grep")] }, "assistant:processing"],
    [{ tool_calls: [call("a", "grep"), call("b", "present_files"), call("c", "task")] }, "assistant:present-files"],
    [{ tool_calls: [call("c", "task"), call("q", "ask_clarification")] }, "assistant:clarification"],
    [{ tool_calls: [call("c", "task")] }, "assistant:subagent"],
  ] as const)("%j -> %s", (over, want) => {
    expect(assistantKind(msg({ id: "a", ...over, tool_calls: [...(over as Partial<Message>).tool_calls ?? []] }))).toBe(want);
  });
});

describe("processingSummary and groupActive", () => {
  it.each([
    [[calling("a1", [read, ls]), result("t1", "c1", "x"), result("t2", "c2", "y", true)], "2 tool calls: read_file, ls · 1 failed"],
    [[calling("a1", [read]), result("t1", "c1", "x")], "1 tool call: read_file"],
    [
      [
        calling("a1", [call("1", "a"), call("2", "b"), call("3", "c"), call("4", "d"), call("5", "a")]),
      ],
      "5 tool calls: a, b, c and 1 more · 5 interrupted",
    ],
    [[text("a1", "", { reasoning: "hmm" })], "Thought"],
  ] as const)("%#: %s", (list, want) => {
    const [g] = groupMessages(list as unknown as Message[], false);
    expect(g && processingSummary(g)).toBe(want);
  });

  it("a group is active while a call runs or a message streams", () => {
    const live = groupMessages([user("u"), calling("a1", [read])], true)[1];
    const done = groupMessages([user("u"), calling("a1", [read]), result("t1", "c1", "x")], true)[1];
    const streaming = groupMessages([user("u"), text("a1", "Hel", { status: "streaming" })], true)[1];
    expect([live, done, streaming].map((g) => g !== undefined && groupActive(g))).toEqual([true, false, true]);
  });
});

describe("reuseGroups", () => {
  it("keeps unchanged groups by identity and replaces the ones an event touched", () => {
    const base = [user("u1"), calling("a1", [read]), result("t1", "c1", "x"), text("a2", "Hel", { status: "streaming" })];
    const prev = groupMessages(base, true);
    const nextList = applyRunEvent(base, ev.delta("a2", "lo"));
    const next = reuseGroups(prev, groupMessages(nextList, true));
    expect(next[0]).toBe(prev[0]);
    expect(next[1]).toBe(prev[1]);
    expect(next[2]).not.toBe(prev[2]);
    expect(next[2]?.items[0]?.message.content).toBe("Hello");
  });

  it("replaces a group whose call changed state", () => {
    const base = [user("u1"), calling("a1", [read])];
    const prev = groupMessages(base, true);
    const next = reuseGroups(prev, groupMessages(base, false));
    expect(next[0]).toBe(prev[0]);
    expect(next[1]).not.toBe(prev[1]);
  });
});

describe("lastGroupOfRun", () => {
  it("points at the last group each run wrote", () => {
    const groups = groupMessages(
      [user("u1"), calling("a1", [ls]), result("t2", "c2", "x"), text("a2", "ok"), user("u2"), text("a3", "again", { run_id: "r2" })],
      false,
    );
    expect([...lastGroupOfRun(groups)]).toEqual([
      ["r1", 2],
      ["r2", 4],
    ]);
  });
});
