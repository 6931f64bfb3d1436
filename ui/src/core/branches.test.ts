import { describe, expect, it } from "vitest";
import { branchesByMessage, canRegenerate } from "./branches";
import { msg } from "./fixtures";

describe("branchesByMessage", () => {
  it("groups branches by the message they edited, keeping their order", () => {
    const map = branchesByMessage([
      { thread_id: "b1", message_id: "m2", title: "One" },
      { thread_id: "b2", message_id: "m4", title: "Two" },
      { thread_id: "b3", message_id: "m2", title: "Three" },
    ]);
    expect([...map.keys()]).toEqual(["m2", "m4"]);
    expect(map.get("m2")?.map((b) => b.thread_id)).toEqual(["b1", "b3"]);
    expect(map.get("m1")).toBeUndefined();
  });
});

describe("canRegenerate", () => {
  it("needs a shown user message and no run going", () => {
    const user = msg({ id: "u", role: "user", content: "hi" });
    const hidden = msg({ id: "h", role: "user", content: "[reminder]", hidden: true });
    expect(canRegenerate([user], false)).toBe(true);
    expect(canRegenerate([user], true)).toBe(false);
    expect(canRegenerate([hidden], false)).toBe(false);
    expect(canRegenerate([], false)).toBe(false);
  });
});
