/**
 * Exporting a thread: the formats offered and the file name the save dialog proposes. Pure;
 * the backend writes the file (crates/app/src/export.rs).
 */

export type ExportFormat = "md" | "json";

export const EXPORT_FORMATS: Record<ExportFormat, { label: string; filterName: string }> = {
  md: { label: "Markdown", filterName: "Markdown" },
  json: { label: "JSON", filterName: "JSON" },
};

/** Longest file stem proposed, in characters; titles are short but may have been pasted. */
const MAX_STEM_CHARS = 60;

/**
 * A file name for the thread: its title without characters file systems refuse or treat
 * specially, spaces collapsed, never empty, never hidden, with the format's extension.
 */
export function exportFileName(title: string, format: ExportFormat): string {
  const cleaned = title
    .normalize("NFC")
    // Path separators, characters Windows refuses, and control characters.
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "")
    .replace(/[. ]+$/, "");
  const stem = Array.from(cleaned).slice(0, MAX_STEM_CHARS).join("").trim() || "thread";
  return `${stem}.${format}`;
}
