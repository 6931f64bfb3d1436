/**
 * Live subagent cards: the updates a run streams for each `task` call, folded into one view
 * per call. Pure, so it is tested without a window.
 */
import type { SubagentStatus } from "../bindings/SubagentStatus";
import type { SubagentUpdate } from "../bindings/SubagentUpdate";
import type { Usage } from "../bindings/Usage";

/** Most steps a card keeps; older ones scroll away. */
export const MAX_CARD_STEPS = 50;

export type SubagentView = {
  status: SubagentStatus;
  description: string;
  subagentType: string;
  /** The steps it took, oldest first. */
  steps: string[];
  usage: Usage | null;
  result: string | null;
  error: string | null;
};

const ENDED: ReadonlySet<SubagentStatus> = new Set(["completed", "failed", "cancelled", "timed_out"]);

/** Whether the subagent can still change (and be cancelled). */
export function isLive(status: SubagentStatus): boolean {
  return !ENDED.has(status);
}

/** Folds one update into the card of its call. An ended card never goes back to running. */
export function applySubagentUpdate(prev: SubagentView | undefined, u: SubagentUpdate): SubagentView {
  if (prev !== undefined && !isLive(prev.status)) return prev;
  const steps = prev?.steps ?? [];
  return {
    status: u.status === "running" && prev !== undefined && prev.status === "started" ? "running" : u.status,
    description: u.description,
    subagentType: u.subagent_type,
    steps: u.step !== null ? [...steps, u.step].slice(-MAX_CARD_STEPS) : steps,
    usage: u.usage ?? prev?.usage ?? null,
    result: u.result ?? prev?.result ?? null,
    error: u.error ?? prev?.error ?? null,
  };
}

/** A card's status as words. */
export const SUBAGENT_STATUS_LABEL: Record<SubagentStatus, string> = {
  started: "starting",
  running: "working",
  completed: "done",
  failed: "failed",
  cancelled: "stopped",
  timed_out: "timed out",
};
