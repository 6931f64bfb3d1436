import { describe, expect, it } from "vitest";
import type { SubagentUpdate } from "../bindings/SubagentUpdate";
import { applySubagentUpdate, isLive, MAX_CARD_STEPS, type SubagentView } from "./subagents";

const up = (over: Partial<SubagentUpdate>): SubagentUpdate => ({
  status: "running",
  description: "Count the files",
  subagent_type: "bash",
  step: null,
  usage: null,
  result: null,
  error: null,
  ...over,
});

function fold(list: SubagentUpdate[]): SubagentView | undefined {
  return list.reduce<SubagentView | undefined>((v, u) => applySubagentUpdate(v, u), undefined);
}

describe("applySubagentUpdate", () => {
  it("collects steps and usage, then the result", () => {
    const v = fold([
      up({ status: "started" }),
      up({ step: "calling bash" }),
      up({ usage: { input_tokens: 10, output_tokens: 3 } }),
      up({ step: "calling read_file" }),
      up({ status: "completed", result: "42 files" }),
    ]);
    expect(v).toEqual({
      status: "completed",
      description: "Count the files",
      subagentType: "bash",
      steps: ["calling bash", "calling read_file"],
      usage: { input_tokens: 10, output_tokens: 3 },
      result: "42 files",
      error: null,
    });
  });

  it("an ended card ignores late updates", () => {
    const v = fold([up({ status: "started" }), up({ status: "timed_out", error: "took too long" }), up({ step: "late" })]);
    expect(v?.status).toBe("timed_out");
    expect(v?.steps).toEqual([]);
    expect(isLive("timed_out")).toBe(false);
    expect(isLive("running")).toBe(true);
  });

  it("keeps the last steps only", () => {
    const v = fold(Array.from({ length: MAX_CARD_STEPS + 5 }, (_, i) => up({ step: `s${i}` })));
    expect(v?.steps).toHaveLength(MAX_CARD_STEPS);
    expect(v?.steps[0]).toBe("s5");
  });
});
