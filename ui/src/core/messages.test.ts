import { describe, expect, it } from "vitest";
import type { Message } from "../bindings/Message";
import type { RunEvent } from "../bindings/RunEvent";
import { ev, msg } from "./fixtures";
import { applyRunEvent, settleStreaming, statusNote } from "./messages";

const user = msg({ id: "u1", role: "user", content: "Hi", status: "complete" });
const empty = msg({ id: "a1", run_id: "r1", status: "streaming" });

type Case = {
  name: string;
  start: Message[];
  events: RunEvent[];
  threadId?: string;
  expect: Array<Pick<Message, "id" | "content" | "status"> & Partial<Message>>;
};

const cases: Case[] = [
  {
    name: "streaming deltas accumulate",
    start: [],
    events: [ev.started(), ev.added(user), ev.added(empty), ev.delta("a1", "Hel"), ev.delta("a1", "lo"), ev.delta("a1", " there")],
    expect: [
      { id: "u1", content: "Hi", status: "complete" },
      { id: "a1", content: "Hello there", status: "streaming" },
    ],
  },
  {
    name: "reasoning deltas go to reasoning, not content",
    start: [user, empty],
    events: [ev.delta("a1", "think", true), ev.delta("a1", "ing", true), ev.delta("a1", "Answer")],
    expect: [
      { id: "u1", content: "Hi", status: "complete" },
      { id: "a1", content: "Answer", status: "streaming", reasoning: "thinking" },
    ],
  },
  {
    name: "final message replaces streamed text",
    start: [user, empty],
    events: [ev.delta("a1", "Hel"), ev.updated({ ...empty, content: "Hello, world.", status: "complete" }), ev.finished("completed")],
    expect: [
      { id: "u1", content: "Hi", status: "complete" },
      { id: "a1", content: "Hello, world.", status: "complete" },
    ],
  },
  {
    name: "cancel keeps text with status cancelled",
    start: [user, empty],
    events: [ev.delta("a1", "Partial ans"), ev.updated({ ...empty, content: "Partial ans", status: "cancelled" }), ev.finished("cancelled")],
    expect: [
      { id: "u1", content: "Hi", status: "complete" },
      { id: "a1", content: "Partial ans", status: "cancelled" },
    ],
  },
  {
    name: "error status keeps partial text and error",
    start: [user, empty],
    events: [
      ev.delta("a1", "Part"),
      ev.updated({ ...empty, content: "Part", status: "error", error: "The provider closed the connection." }),
      ev.finished("failed", "The provider closed the connection."),
    ],
    expect: [
      { id: "u1", content: "Hi", status: "complete" },
      { id: "a1", content: "Part", status: "error", error: "The provider closed the connection." },
    ],
  },
  {
    name: "events for another thread are ignored",
    start: [user, empty],
    threadId: "t1",
    events: [
      ev.added(msg({ id: "x1", thread_id: "t2", role: "user", content: "other" })),
      ev.added(msg({ id: "x2", thread_id: "t2", status: "streaming" })),
      ev.delta("x2", "not mine"),
      ev.updated(msg({ id: "x2", thread_id: "t2", content: "not mine" })),
      ev.updated(msg({ id: "a1", thread_id: "t2", content: "spoofed" })),
      ev.delta("a1", "mine"),
    ],
    expect: [
      { id: "u1", content: "Hi", status: "complete" },
      { id: "a1", content: "mine", status: "streaming" },
    ],
  },
  {
    name: "reload from get_thread then continue streaming",
    // get_thread returned the assistant message with what was committed so far.
    start: [user, { ...empty, content: "Already streamed " }],
    events: [ev.delta("a1", "and more"), ev.updated({ ...empty, content: "Already streamed and more.", status: "complete" })],
    expect: [
      { id: "u1", content: "Hi", status: "complete" },
      { id: "a1", content: "Already streamed and more.", status: "complete" },
    ],
  },
  {
    name: "message_added with a known id replaces, never duplicates",
    start: [user, { ...empty, content: "abc" }],
    events: [ev.added({ ...empty, content: "abc" })],
    expect: [
      { id: "u1", content: "Hi", status: "complete" },
      { id: "a1", content: "abc", status: "streaming" },
    ],
  },
  {
    name: "unknown ids are ignored safely",
    start: [user],
    events: [ev.delta("nope", "x"), ev.updated(msg({ id: "nope", content: "y" })), ev.usage()],
    expect: [{ id: "u1", content: "Hi", status: "complete" }],
  },
];

describe("applyRunEvent", () => {
  it.each(cases)("$name", (c) => {
    const out = c.events.reduce((list, e) => applyRunEvent(list, e, c.threadId), c.start);
    expect(out).toHaveLength(c.expect.length);
    c.expect.forEach((want, i) => expect(out[i]).toMatchObject(want));
  });

  it("returns the same array when nothing changes", () => {
    const list = [user];
    expect(applyRunEvent(list, ev.delta("zzz", "x"))).toBe(list);
    expect(applyRunEvent(list, ev.started())).toBe(list);
    expect(applyRunEvent(list, ev.delta("u1", ""))).toBe(list);
  });

  it("does not mutate its input", () => {
    const list = [user, { ...empty }];
    const frozen = JSON.stringify(list);
    applyRunEvent(list, ev.delta("a1", "x"));
    expect(JSON.stringify(list)).toBe(frozen);
  });

  it("ignores event types it does not know", () => {
    const list = [user];
    const future = { type: "tool_call_started", id: "q" } as unknown as RunEvent;
    expect(applyRunEvent(list, future)).toBe(list);
  });
});

describe("settleStreaming", () => {
  it("marks leftover streaming messages with the run's outcome", () => {
    const out = settleStreaming([user, { ...empty, content: "x" }], "cancelled");
    expect(out[1]).toMatchObject({ status: "cancelled", content: "x" });
    expect(out[0]).toBe(user);
  });
  it("returns the same array when nothing streams", () => {
    const list = [user];
    expect(settleStreaming(list, "complete")).toBe(list);
  });
});

describe("statusNote", () => {
  it.each([
    ["streaming", null, null],
    ["complete", null, null],
    ["cancelled", null, "stopped"],
    ["interrupted", null, "interrupted — the app closed while this reply was streaming"],
    ["error", "Rate limited.", "Rate limited."],
    ["error", null, "The reply failed."],
  ] as const)("%s (%s) -> %s", (status, error, note) => {
    expect(statusNote(msg({ id: "m", status, error }))).toBe(note);
  });
});
