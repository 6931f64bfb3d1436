import { describe, expect, it } from "vitest";
import type { MountSpec, ThreadFolder } from "./api";
import {
  NEXT_RUN_NOTICE,
  baseName,
  createFoldersStore,
  folderRole,
  formToMount,
  formVirtualPath,
  suggestMountName,
  withMount,
  withoutMount,
  type FoldersApi,
} from "./folders";

const own: ThreadFolder[] = [
  { virtual_path: "/mnt/user-data/workspace", host: "/data/threads/t1/workspace", writable: true, mounted: false },
  { virtual_path: "/mnt/user-data/uploads", host: "/data/threads/t1/uploads", writable: true, mounted: false },
  { virtual_path: "/mnt/user-data/outputs", host: "/data/threads/t1/outputs", writable: true, mounted: false },
];

/** A fake backend that keeps mounts like the real one and refuses what `refuse` says. */
function fakeApi(opts: { refuse?: (m: MountSpec[]) => string | null; pick?: (string | null)[] } = {}) {
  let saved: MountSpec[] = [];
  const picks = [...(opts.pick ?? [])];
  const calls: MountSpec[][] = [];
  const api: FoldersApi = {
    threadMounts: async () => saved,
    setThreadMounts: async (_t, mounts) => {
      calls.push(mounts);
      const why = opts.refuse?.(mounts) ?? null;
      if (why !== null) throw why;
      saved = mounts.map((m) => ({ ...m, host: m.host.replace(/\/$/, "") }));
      return saved;
    },
    threadFolders: async () => [
      ...own.filter((f) => !(f.virtual_path.endsWith("workspace") && saved.some((m) => m.name === null))),
      ...saved.map((m) => ({
        virtual_path: m.name === null ? "/mnt/user-data/workspace" : `/mnt/user-data/mounts/${m.name}`,
        host: m.host,
        writable: !m.read_only,
        mounted: true,
      })),
    ],
    openThreadFolder: async () => {},
    pickFolder: async () => picks.shift() ?? null,
  };
  return { api, calls };
}

describe("mount names", () => {
  it("suggests a name the backend accepts from the folder's name", () => {
    expect(suggestMountName("/home/me/My Project!", [])).toBe("my-project");
    expect(suggestMountName("C:\\Users\\me\\Café Docs\\", [])).toBe("cafe-docs");
    expect(suggestMountName("/", [])).toBe("folder");
    expect(suggestMountName("/srv/a_b-c", [])).toBe("a_b-c");
  });
  it("avoids names already taken and stays within 64 characters", () => {
    expect(suggestMountName("/x/site", ["site"])).toBe("site-2");
    expect(suggestMountName("/x/site", ["site", "site-2"])).toBe("site-3");
    const long = `/x/${"a".repeat(80)}`;
    const first = suggestMountName(long, []);
    expect(first).toHaveLength(64);
    const second = suggestMountName(long, [first]);
    expect(second).toHaveLength(64);
    expect(second.endsWith("-2")).toBe(true);
  });
  it("reads the last part of either kind of path", () => {
    expect(baseName("/a/b/")).toBe("b");
    expect(baseName("C:\\a\\b")).toBe("b");
    expect(baseName("")).toBe("");
  });
});

describe("mount lists", () => {
  const docs: MountSpec = { name: "docs", host: "/home/me/docs", read_only: true };
  const ws: MountSpec = { name: null, host: "/home/me/site", read_only: false };
  it("a new workspace folder replaces the old one and comes first", () => {
    const other: MountSpec = { name: null, host: "/home/me/other", read_only: true };
    expect(withMount([docs, ws], other)).toEqual([other, docs]);
  });
  it("a named mount is added after the others, duplicates left for the backend to refuse", () => {
    expect(withMount([ws], docs)).toEqual([ws, docs]);
    expect(withMount([docs], docs)).toEqual([docs, docs]);
  });
  it("removes the mount seen at a virtual path", () => {
    expect(withoutMount([ws, docs], "/mnt/user-data/mounts/docs")).toEqual([ws]);
    expect(withoutMount([ws, docs], "/mnt/user-data/workspace")).toEqual([docs]);
  });
  it("turns the form into a mount and says where the model sees it", () => {
    const form = { host: "/h/d", asWorkspace: false, name: " docs ", readOnly: true };
    expect(formToMount(form)).toEqual({ name: "docs", host: "/h/d", read_only: true });
    expect(formVirtualPath({ ...form, name: "docs" })).toBe("/mnt/user-data/mounts/docs");
    expect(formToMount({ ...form, asWorkspace: true })).toEqual({ name: null, host: "/h/d", read_only: true });
    expect(formVirtualPath({ ...form, asWorkspace: true })).toBe("/mnt/user-data/workspace");
  });
  it("labels folders by what they are to the model", () => {
    expect(own.map(folderRole)).toEqual(["Workspace", "Uploads", "Outputs"]);
    expect(folderRole({ ...own[0]!, mounted: true })).toBe("Workspace (your folder)");
    expect(folderRole({ virtual_path: "/mnt/user-data/mounts/x", host: "/x", writable: false, mounted: true })).toBe("Mounted folder");
  });
});

describe("folders store", () => {
  it("picks a folder, suggests its name, adds it and says it applies from the next run", async () => {
    const { api, calls } = fakeApi({ pick: ["/home/me/Reports 2024"] });
    const s = createFoldersStore(api, "t1");
    await s.load();
    expect(s.getState().folders).toHaveLength(3);
    await s.pickFolder();
    expect(s.getState().form).toMatchObject({ host: "/home/me/Reports 2024", name: "reports-2024" });
    s.setForm({ readOnly: true });
    expect(await s.addMount()).toBe(true);
    expect(calls.at(-1)).toEqual([{ name: "reports-2024", host: "/home/me/Reports 2024", read_only: true }]);
    const st = s.getState();
    expect(st.notice).toBe(NEXT_RUN_NOTICE);
    expect(st.form.host).toBe("");
    expect(st.folders.map((f) => [f.virtual_path, f.writable])).toContainEqual(["/mnt/user-data/mounts/reports-2024", false]);
  });

  it("a refusal shows the backend's sentence and keeps the form", async () => {
    const sentence = "the mount name `Bad Name` is not allowed: it contains 'B'; use a-z, 0-9, `-` and `_`";
    const { api } = fakeApi({ pick: ["/home/me/docs"], refuse: (m) => (m.some((x) => x.name === "Bad Name") ? sentence : null) });
    const s = createFoldersStore(api, "t1");
    await s.load();
    await s.pickFolder();
    s.setForm({ name: "Bad Name", readOnly: true });
    expect(await s.addMount()).toBe(false);
    expect(s.getState().formError).toBe(sentence);
    expect(s.getState().form).toEqual({ host: "/home/me/docs", asWorkspace: false, name: "Bad Name", readOnly: true });
    expect(s.getState().mounts).toEqual([]);
    // Fixing the name saves and clears the error.
    s.setForm({ name: "docs" });
    expect(await s.addMount()).toBe(true);
    expect(s.getState().formError).toBeNull();
  });

  it("asks for a folder before saving, and a cancelled picker changes nothing", async () => {
    const { api, calls } = fakeApi({ pick: [null] });
    const s = createFoldersStore(api, "t1");
    await s.load();
    s.setForm({ name: "kept" });
    await s.pickFolder();
    expect(s.getState().form.name).toBe("kept");
    expect(await s.addMount()).toBe(false);
    expect(s.getState().formError).toBe("Choose a folder first.");
    expect(calls).toHaveLength(0);
  });

  it("a name the user typed survives picking another folder; a suggested one follows it", async () => {
    const { api } = fakeApi({ pick: ["/a/first", "/a/second", "/a/third"] });
    const s = createFoldersStore(api, "t1");
    await s.load();
    await s.pickFolder();
    await s.pickFolder();
    expect(s.getState().form.name).toBe("second");
    s.setForm({ name: "mine" });
    await s.pickFolder();
    expect(s.getState().form.name).toBe("mine");
  });

  it("removes a mount, and a refused removal keeps it listed with the sentence", async () => {
    let refuse = false;
    const { api } = fakeApi({ pick: ["/a/docs"], refuse: () => (refuse ? "database is locked" : null) });
    const s = createFoldersStore(api, "t1");
    await s.load();
    await s.pickFolder();
    await s.addMount();
    refuse = true;
    expect(await s.removeMount("/mnt/user-data/mounts/docs")).toBe(false);
    expect(s.getState().formError).toBe("database is locked");
    expect(s.getState().mounts).toHaveLength(1);
    refuse = false;
    expect(await s.removeMount("/mnt/user-data/mounts/docs")).toBe(true);
    expect(s.getState().mounts).toEqual([]);
  });

  it("shows why loading or opening the folder failed", async () => {
    const { api } = fakeApi();
    const failing: FoldersApi = {
      ...api,
      threadFolders: () => Promise.reject("No thread with id t9."),
      openThreadFolder: () => Promise.reject("no file manager could be started (xdg-open is missing)"),
    };
    const s = createFoldersStore(failing, "t9");
    await s.load();
    expect(s.getState()).toMatchObject({ loading: false, error: "No thread with id t9." });
    await s.openFolder();
    expect(s.getState().error).toBe("no file manager could be started (xdg-open is missing)");
  });
});
