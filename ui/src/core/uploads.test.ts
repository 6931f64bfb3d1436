import { describe, expect, it } from "vitest";
import { createUploadsStore, fileName, mentionPaths, uploadedText, uploadingText, type UploadHost, type UploadsApi } from "./uploads";

describe("mentioning uploads in the message", () => {
  it("puts each path on its own line after what was typed", () => {
    expect(mentionPaths("", ["/mnt/user-data/uploads/a.pdf"])).toBe("/mnt/user-data/uploads/a.pdf\n");
    expect(mentionPaths("Summarise this", ["/u/a.pdf", "/u/b.csv"])).toBe("Summarise this\n/u/a.pdf\n/u/b.csv\n");
    expect(mentionPaths("line\n", ["/u/a.pdf"])).toBe("line\n/u/a.pdf\n");
  });
  it("does not repeat a path already in the message", () => {
    expect(mentionPaths("see /u/a.pdf", ["/u/a.pdf", "/u/a.pdf"])).toBe("see /u/a.pdf");
    expect(mentionPaths("", ["/u/a.pdf", "/u/a.pdf"])).toBe("/u/a.pdf\n");
  });
  it("says what is uploading and where it went", () => {
    expect(fileName("C:\\x\\report.pdf")).toBe("report.pdf");
    expect(uploadingText(["/h/report.pdf"])).toBe("Uploading report.pdf…");
    expect(uploadingText(["/h/a", "/h/b"])).toBe("Uploading 2 files…");
    expect(uploadedText(["/mnt/user-data/uploads/report (1).pdf"])).toBe(
      "Uploaded report (1).pdf to /mnt/user-data/uploads; the path is in your message.",
    );
    expect(uploadedText(["/u/a", "/u/b"])).toBe("Uploaded 2 files to /mnt/user-data/uploads; the paths are in your message.");
  });
});

function setup(over: Partial<UploadsApi> = {}, hostOver: Partial<UploadHost> = {}) {
  const mentioned: [string, string[]][] = [];
  const uploads: [string, string[]][] = [];
  let active: string | null = "t1";
  const api: UploadsApi = {
    uploadFiles: async (id, paths) => {
      uploads.push([id, paths]);
      return paths.map((p) => `/mnt/user-data/uploads/${fileName(p)}`);
    },
    pickFiles: async () => ["/home/me/a.txt"],
    ...over,
  };
  const host: UploadHost = {
    activeThread: () => active,
    newThread: async () => (active = "new"),
    mention: (id, paths) => void mentioned.push([id, paths]),
    blocked: () => false,
    ...hostOver,
  };
  return { s: createUploadsStore(api, host), mentioned, uploads, setActive: (id: string | null) => (active = id) };
}

describe("uploads store", () => {
  it("a drop uploads the paths into the open thread and mentions where they went", async () => {
    const { s, mentioned, uploads } = setup();
    s.onDrop({ type: "enter", paths: ["/h/x.pdf"] });
    expect(s.getState().dragging).toBe(true);
    s.onDrop({ type: "over" });
    s.onDrop({ type: "drop", paths: ["/h/x.pdf", "/h/y.csv"] });
    expect(s.getState()).toMatchObject({ dragging: false, busy: { threadId: "t1", text: "Uploading 2 files…" } });
    await new Promise((r) => setTimeout(r, 0));
    expect(uploads).toEqual([["t1", ["/h/x.pdf", "/h/y.csv"]]]);
    expect(mentioned).toEqual([["t1", ["/mnt/user-data/uploads/x.pdf", "/mnt/user-data/uploads/y.csv"]]]);
    expect(s.getState().busy).toBeNull();
    expect(s.getState().result?.paths).toHaveLength(2);
  });

  it("a refusal shows the backend's sentence and mentions nothing", async () => {
    const why = "cannot upload /h/big.iso: it is 900 MiB, more than the 512 MiB limit";
    const { s, mentioned } = setup({ uploadFiles: () => Promise.reject(why) });
    await s.upload(["/h/big.iso"]);
    expect(s.getState().error).toEqual({ threadId: "t1", text: why });
    expect(s.getState().result).toBeNull();
    expect(mentioned).toEqual([]);
    s.dismiss();
    expect(s.getState().error).toBeNull();
  });

  it("files dropped with no thread open go to a new thread", async () => {
    const { s, uploads, setActive } = setup();
    setActive(null);
    await s.upload(["/h/a.txt"]);
    expect(uploads).toEqual([["new", ["/h/a.txt"]]]);
  });

  it("leaving or a covered chat takes nothing; a cancelled picker uploads nothing", async () => {
    let blocked = true;
    const { s, uploads } = setup({ pickFiles: async () => [] }, { blocked: () => blocked });
    s.onDrop({ type: "enter", paths: ["/h/a"] });
    expect(s.getState().dragging).toBe(false);
    s.onDrop({ type: "drop", paths: ["/h/a"] });
    blocked = false;
    s.onDrop({ type: "enter", paths: ["/h/a"] });
    s.onDrop({ type: "leave" });
    expect(s.getState().dragging).toBe(false);
    await s.pickAndUpload();
    expect(uploads).toEqual([]);
  });

  it("the attach button uploads what the picker chose; a picker failure is shown", async () => {
    const { s, uploads } = setup();
    await s.pickAndUpload();
    expect(uploads).toEqual([["t1", ["/home/me/a.txt"]]]);
    const failing = setup({ pickFiles: () => Promise.reject("the file picker is not available") });
    await failing.s.pickAndUpload();
    expect(failing.s.getState().error?.text).toBe("the file picker is not available");
  });

  it("one upload at a time", async () => {
    let release: () => void = () => {};
    const { s, uploads } = setup({
      uploadFiles: (id, paths) => {
        uploads.push([id, paths]);
        return new Promise((ok) => (release = () => ok(paths)));
      },
    });
    const first = s.upload(["/h/a"]);
    await new Promise((r) => setTimeout(r, 0));
    await s.upload(["/h/b"]);
    release();
    await first;
    expect(uploads).toEqual([["t1", ["/h/a"]]]);
  });
});
