import { describe, expect, it } from "vitest";
import { exportFileName } from "./exportFile";

describe("exportFileName", () => {
  it.each([
    ["Plan the trip", "md", "Plan the trip.md"],
    ["a/b\\c: d?*", "json", "a b c d.json"],
    ["  ..hidden  ", "md", "hidden.md"],
    ["ends with dots...", "md", "ends with dots.md"],
    ["line\nbreak\ttab", "md", "line break tab.md"],
    ["", "json", "thread.json"],
    ["///", "md", "thread.md"],
  ] as const)("%j as %s -> %j", (title, format, want) => {
    expect(exportFileName(title, format)).toBe(want);
  });

  it("caps long titles by characters, not bytes", () => {
    const name = exportFileName("é".repeat(100), "md");
    expect(name).toBe(`${"é".repeat(60)}.md`);
  });
});
