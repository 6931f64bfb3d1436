import { useEffect, useState } from "react";
import { CheckIcon, CopyIcon } from "../icons";
import { copyText } from "./copy";

/** How long "Copied" stays before the button reads "Copy" again. */
const COPIED_MS = 1500;

/** A small button that copies `text` and says so. */
export function CopyButton({ text, label, testId }: { text: string; label: string; testId: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), COPIED_MS);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <button
      type="button"
      className={`copy-btn ${state}`}
      data-testid={testId}
      aria-label={label}
      title={label}
      onClick={() => void copyText(text).then((ok) => setState(ok ? "copied" : "failed"))}
    >
      {state === "copied" ? <CheckIcon /> : <CopyIcon />}
      <span className="copy-label" aria-live="polite">
        {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}
      </span>
    </button>
  );
}
