import { describe, expect, it } from "vitest";
import type { PendingCall } from "../bindings/PendingCall";
import { approvalPreview, isAnswered, openApprovals, openQuestions, sourceLabel } from "./approvals";

const call = (name: string, args: unknown) => ({
  id: "c1",
  name,
  arguments: typeof args === "string" ? args : JSON.stringify(args),
});

describe("approvalPreview", () => {
  it.each([
    ["bash", { command: "ls -la" }, { kind: "command", command: "ls -la", background: false }],
    ["bash", { command: "npm test", background: true }, { kind: "command", command: "npm test", background: true }],
    [
      "str_replace",
      { path: "/mnt/user-data/workspace/a.py", old_string: "x = 1\ny = 2", new_string: "x = 3" },
      {
        kind: "diff",
        path: "/mnt/user-data/workspace/a.py",
        note: null,
        lines: [
          { sign: "-", text: "x = 1" },
          { sign: "-", text: "y = 2" },
          { sign: "+", text: "x = 3" },
        ],
      },
    ],
    [
      "write_file",
      { path: "/o/n.md", content: "# Title\nbody\n", append: true },
      { kind: "diff", path: "/o/n.md", note: "appended", lines: [{ sign: "+", text: "# Title" }, { sign: "+", text: "body" }] },
    ],
    [
      "apply_patch",
      { patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n keep\n-old\n+new\n*** End Patch" },
      {
        kind: "diff",
        path: "",
        note: null,
        lines: [
          { sign: "@", text: "*** Begin Patch" },
          { sign: "@", text: "*** Update File: a.txt" },
          { sign: "@", text: "@@" },
          { sign: " ", text: "keep" },
          { sign: "-", text: "old" },
          { sign: "+", text: "new" },
          { sign: "@", text: "*** End Patch" },
        ],
      },
    ],
  ])("%s %j", (name, args, expected) => {
    expect(approvalPreview(call(name, args))).toEqual(expected);
  });

  it("shows other tools' arguments as indented JSON", () => {
    expect(approvalPreview(call("github__create_issue", { title: "Bug" }))).toEqual({
      kind: "arguments",
      text: '{\n  "title": "Bug"\n}',
    });
  });

  it.each([
    ["invalid JSON", "{not json"],
    ["an array", "[1,2]"],
    ["a bash call without a command", { cmd: "ls" }],
    ["a str_replace with a number", { path: "a", old_string: 1, new_string: "b" }],
  ])("never throws on %s", (_, args) => {
    const preview = approvalPreview(call(typeof args === "object" && "cmd" in args ? "bash" : "str_replace", args));
    expect(preview.kind).toBe("arguments");
  });
});

describe("openApprovals and sourceLabel", () => {
  const pending = (id: string, decision: PendingCall["decision"]): PendingCall => ({
    call: call("bash", { command: id }),
    run_id: "r",
    source: { kind: "mcp", server: "github" },
    group: "bash",
    reason: "ask",
    decision,
    question: null,
    answer: null,
  });

  it("keeps only unanswered calls, in order", () => {
    const list = [pending("a", null), pending("b", "deny"), pending("c", null)];
    expect(openApprovals(list).map((p) => JSON.parse(p.call.arguments).command)).toEqual(["a", "c"]);
    expect(openApprovals(undefined)).toEqual([]);
  });

  it("names an MCP server", () => {
    expect(sourceLabel(pending("a", null))).toBe("MCP server github");
  });
});

describe("questions", () => {
  const asked = (answer: string | null): PendingCall => ({
    call: call("ask_clarification", { question: "Which?" }),
    run_id: "r",
    source: { kind: "builtin" },
    group: "clarification",
    reason: "the agent has a question for you",
    decision: null,
    question: { question: "Which?", clarification_type: "approach_choice", context: null, options: ["A", "B"] },
    answer,
  });

  it("are not approvals, and are open until answered", () => {
    expect(openApprovals([asked(null)])).toEqual([]);
    expect(openQuestions([asked(null), asked("A")])).toHaveLength(1);
    expect(isAnswered(asked(null))).toBe(false);
    expect(isAnswered(asked("A"))).toBe(true);
  });
});
