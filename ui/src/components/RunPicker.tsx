import { useEffect, useId, useRef, useState } from "react";
import { activeSkills, agentMissing, optionsLabel, toggleSkill, withAgent } from "../core/runChoices";
import { runOptionsOf } from "../core/store";
import { useAppState, useStore } from "./storeContext";

/**
 * The composer's agent and skill picker: a button naming the thread's agent and active skills,
 * opening a small panel with the custom agents (radio) and skills (checkboxes). Choices apply
 * to the thread's next run and are saved with it.
 */
export function RunPicker({ disabled }: { disabled: boolean }) {
  const state = useAppState();
  const store = useStore();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const options = runOptionsOf(state);
  const choices = state.runChoices;
  const skills = activeSkills(options, choices);
  const fromAgent = new Set(skills.filter((s) => s.from === "agent").map((s) => s.name));
  const missing = agentMissing(options, choices) || skills.some((s) => s.missing);

  // The list is folders the user edits by hand: read it again each time the panel opens.
  useEffect(() => {
    if (open) void store.loadRunChoices();
  }, [open, store]);

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>("input:checked, input")?.focus();
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        setOpen(false);
        button.current?.focus();
      }
    };
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!panel.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener("mousedown", onDown);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("mousedown", onDown);
    };
  }, [open]);

  return (
    <div className="run-picker">
      <button
        type="button"
        ref={button}
        className={`btn small-btn run-picker-btn${missing ? " warn" : ""}`}
        data-testid="run-picker"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        disabled={disabled}
        title={disabled ? "The agent can be changed when the run ends" : "Pick the agent and skills for this conversation"}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="visually-hidden">Agent and skills: </span>
        <span data-testid="run-picker-label">{optionsLabel(options, choices)}</span>
      </button>
      {open && (
        <div className="run-picker-panel" id={panelId} ref={panel} role="dialog" aria-label="Agent and skills" data-testid="run-picker-panel">
          {state.runChoicesError !== null && (
            <p className="alert small" role="alert">
              The agents and skills could not be listed: {state.runChoicesError}
            </p>
          )}
          <fieldset>
            <legend>Agent</legend>
            {[{ name: null, description: "Workbench's own agent, every tool group" }, ...(choices?.agents ?? [])].map((a) => (
              <label key={a.name ?? ""} className="pick-row" data-testid="agent-option" data-name={a.name ?? "default"}>
                <input
                  type="radio"
                  name={`${panelId}-agent`}
                  checked={options.agent === a.name}
                  onChange={() => void store.setRunOptions(withAgent(options, a.name))}
                />
                <span className="pick-name">{a.name ?? "Default agent"}</span>
                {a.description !== "" && <span className="muted small pick-desc">{a.description}</span>}
              </label>
            ))}
            {agentMissing(options, choices) && (
              <p className="pick-warn small" data-testid="agent-missing">
                Agent “{options.agent}” no longer loads; the next run will refuse to start until you pick another.
              </p>
            )}
          </fieldset>
          <fieldset>
            <legend>Skills</legend>
            {choices !== null && choices.skills.length === 0 && <p className="muted small">No skills yet: add a folder with a SKILL.md under skills/ in the data folder.</p>}
            {(choices?.skills ?? []).map((sk) => {
              const viaAgent = fromAgent.has(sk.name);
              return (
                <label key={sk.name} className="pick-row" data-testid="skill-option" data-name={sk.name}>
                  <input
                    type="checkbox"
                    checked={viaAgent || options.skills.includes(sk.name)}
                    disabled={viaAgent}
                    onChange={() => void store.setRunOptions(toggleSkill(options, sk.name))}
                  />
                  <span className="pick-name">{sk.name}</span>
                  {viaAgent && <span className="tag">from agent</span>}
                  {sk.allowed_tools !== null && <span className="tag" title={sk.allowed_tools.join(", ")}>narrows tools</span>}
                  {sk.description !== "" && <span className="muted small pick-desc">{sk.description}</span>}
                </label>
              );
            })}
            {skills
              .filter((s) => s.missing)
              .map((s) => (
                <p key={s.name} className="pick-warn small" data-testid="skill-missing">
                  Skill “{s.name}” no longer loads.{" "}
                  {s.from === "picked" && (
                    <button type="button" className="link" onClick={() => void store.setRunOptions(toggleSkill(options, s.name))}>
                      Remove it
                    </button>
                  )}
                </p>
              ))}
          </fieldset>
          {(choices?.problems.length ?? 0) > 0 && (
            <details className="pick-problems small" data-testid="run-choice-problems">
              <summary>{choices?.problems.length} could not be loaded</summary>
              <ul>
                {choices?.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </div>
  );
}
