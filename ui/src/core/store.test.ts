import { describe, expect, it, vi } from "vitest";
import type { RunEvent } from "../bindings/RunEvent";
import type { ThreadView } from "../bindings/ThreadView";
import type { Api } from "./api";
import { call, ev, msg, result } from "./fixtures";
import { addUsage, createStore, draftOf, isThreadRunning, runOptionsOf, usageText } from "./store";

function fakeApi(over: Partial<Api> = {}): Api & { emit: (e: RunEvent) => void } {
  let handler: ((e: RunEvent) => void) | null = null;
  const view = (id: string): ThreadView => ({
    thread: { id, title: id, created_at: 1, updated_at: 1, state: { promoted: null, artifacts: [], pending: [], todos: [] } },
    messages: [],
    running: false,
  });
  const api: Api = {
    providerStatus: async () => ({ settings: { kind: "openai", base_url: "http://localhost:1/v1", model: "m" }, has_key: false, keychain_error: null }),
    detectLocalServers: async () => [],
    saveProvider: async (settings) => ({ settings, has_key: false, keychain_error: null }),
    listThreads: async () => [
      { id: "t1", title: "One", updated_at: 10, running: false },
      { id: "t2", title: "Two", updated_at: 20, running: false },
    ],
    searchThreads: async () => [],
    createThread: async () => ({ id: "t3", title: "New thread", created_at: 30, updated_at: 30, state: { promoted: null, artifacts: [], pending: [], todos: [] } }),
    renameThread: async () => {},
    deleteThread: async () => {},
    getThread: async (id) => view(id),
    chooseSavePath: async () => null,
    exportThread: async () => {},
    regenerate: async () => "r9",
    editAndResend: () => Promise.reject("not in these tests"),
    startRun: async (_id, _content, onEvent) => {
      handler = onEvent;
      return "r1";
    },
    cancelRun: async () => true,
    listJobs: async () => [],
    cancelSubagent: async () => true,
    cancelJob: async () => "cancelled",
    answerApproval: async (_id, _call, _decision, onEvent) => {
      handler = onEvent;
      return "r2";
    },
    answerClarification: async (_id, _call, _answer, onEvent) => {
      handler = onEvent;
      return "r3";
    },
    explainTools: async () => ({ tools: [], catalog_hash: null, aliases: [], problems: [] }),
    listRunChoices: async () => ({ agents: [], skills: [], problems: [] }),
    threadRunOptions: async () => ({ agent: null, skills: [] }),
    setThreadRunOptions: async (_id, options) => options,
    listMemories: async () => [],
    updateMemory: async () => Promise.reject("not in these tests"),
    deleteMemory: async () => {},
    memoryEnabled: async () => true,
    setMemoryEnabled: async () => {},
    listOutputs: async () => [],
    readArtifact: async () => Promise.reject("not in these tests"),
    openArtifact: async () => {},
    saveArtifactAs: async () => 0,
    watchOutputs: async () => {},
    mcpOverview: async () => ({ configPath: "/data/mcp.json", servers: [] }),
    mcpWatch: async () => {},
    mcpSaveServer: () => Promise.reject("not in these tests"),
    mcpRemoveServer: () => Promise.reject("not in these tests"),
    mcpSetEnabled: () => Promise.reject("not in these tests"),
    mcpSetToolEnabled: () => Promise.reject("not in these tests"),
    mcpReconnect: () => Promise.reject("not in these tests"),
    mcpValidate: () => Promise.reject("not in these tests"),
    mcpImportJson: () => Promise.reject("not in these tests"),
    mcpImportClaude: async () => null,
    mcpResources: async () => [],
    mcpPrompts: async () => [],
    threadMounts: async () => [],
    setThreadMounts: async (_id, mounts) => mounts,
    threadFolders: async () => [],
    uploadFiles: async (_id, paths) => paths.map((p) => `/mnt/user-data/uploads/${p.split("/").pop() ?? p}`),
    openThreadFolder: async () => {},
    pickFolder: async () => null,
    pickFiles: async () => [],
    onFileDrop: async () => () => {},
    approvalPolicy: async () => ({ tools: {}, groups: {} }),
    setApprovalPolicy: async () => {},
    shellSettings: async () => ({ allow_network: false, allow_unconfined: false, confinement: null }),
    setShellSettings: async () => {},
    ...over,
  };
  return { ...api, emit: (e) => handler?.(e) };
}

describe("store", () => {
  it("first run shows setup; saving goes to main and loads threads", async () => {
    const api = fakeApi({ providerStatus: async () => ({ settings: null, has_key: false, keychain_error: null }) });
    const s = createStore(api);
    await s.init();
    expect(s.getState().screen).toBe("setup");
    const err = await s.saveProvider({ kind: "openai", baseUrl: "http://localhost:11434/v1", model: "m", apiKey: "" });
    expect(err).toBeNull();
    expect(s.getState().screen).toBe("main");
    expect(s.getState().threads.map((t) => t.id)).toEqual(["t2", "t1"]);
  });

  it("a rejected save returns the backend's sentence", async () => {
    const s = createStore(fakeApi({ saveProvider: () => Promise.reject("The OS keychain is not available.") }));
    expect(await s.saveProvider({ kind: "openai", baseUrl: "http://x/v1", model: "m", apiKey: "k" })).toBe(
      "The OS keychain is not available.",
    );
  });

  it("streams a reply into the active thread and finishes", async () => {
    const api = fakeApi();
    const s = createStore(api);
    await s.init();
    await s.openThread("t1");
    s.setDraft("Hello");
    await s.send();
    expect(draftOf(s.getState())).toBe("");
    expect(isThreadRunning(s.getState(), "t1")).toBe(true);
    api.emit(ev.started("t1"));
    api.emit(ev.added(msg({ id: "u", role: "user", content: "Hello" })));
    api.emit(ev.added(msg({ id: "a", status: "streaming" })));
    api.emit(ev.delta("a", "Hi "));
    api.emit(ev.delta("a", "there"));
    expect(s.getState().messages[1]).toMatchObject({ content: "Hi there", status: "streaming" });
    api.emit(ev.updated(msg({ id: "a", content: "Hi there!", status: "complete" })));
    api.emit(ev.finished("completed"));
    expect(s.getState().messages[1]).toMatchObject({ content: "Hi there!", status: "complete" });
    expect(isThreadRunning(s.getState(), "t1")).toBe(false);
  });

  it("keeps tool results in the list and the thread state from state_updated", async () => {
    const api = fakeApi();
    const s = createStore(api);
    await s.init();
    await s.openThread("t1");
    expect(s.getState().threadState).toEqual({ promoted: null, artifacts: [], pending: [], todos: [] });
    s.setDraft("Search");
    await s.send();
    api.emit(ev.started("t1"));
    api.emit(ev.added(msg({ id: "a", status: "complete", tool_calls: [call("c1", "tool_search", { query: "x" })] })));
    api.emit(ev.added(result("r", "c1", "found x")));
    const promoted = { catalog_hash: "h1", names: ["srv__x"] };
    api.emit(ev.state({ promoted, artifacts: [], pending: [], todos: [] }, "t1"));
    api.emit(ev.state({ promoted: null, artifacts: ["/elsewhere"], pending: [], todos: [] }, "t2"));
    expect(s.getState().messages.map((m) => m.role)).toEqual(["assistant", "tool"]);
    expect(s.getState().threadState).toEqual({ promoted, artifacts: [], pending: [], todos: [] });
  });

  it("a failed start keeps the text in the composer and shows the error", async () => {
    const s = createStore(fakeApi({ startRun: () => Promise.reject("No provider is configured.") }));
    await s.init();
    await s.openThread("t1");
    s.setDraft("Keep me");
    await s.send();
    const st = s.getState();
    expect(draftOf(st)).toBe("Keep me");
    expect(st.runErrors.t1).toBe("No provider is configured.");
    expect(isThreadRunning(st, "t1")).toBe(false);
  });

  it("events of a thread that is not open do not touch the open one", async () => {
    const api = fakeApi();
    const s = createStore(api);
    await s.init();
    await s.openThread("t1");
    s.setDraft("go");
    await s.send();
    await s.openThread("t2");
    api.emit(ev.added(msg({ id: "a", status: "streaming" })));
    api.emit(ev.delta("a", "x"));
    expect(s.getState().messages).toEqual([]);
    api.emit(ev.finished("failed", "Boom."));
    expect(s.getState().runErrors.t1).toBe("Boom.");
    expect(s.getState().runErrors.t2).toBeUndefined();
  });

  it("sending with no thread open creates one", async () => {
    const api = fakeApi();
    const start = vi.spyOn(api, "startRun");
    const s = createStore(api);
    await s.init();
    s.setDraft("first message");
    await s.send();
    expect(s.getState().activeThreadId).toBe("t3");
    expect(start).toHaveBeenCalledWith("t3", "first message", expect.any(Function));
  });

  it("rename and delete update the list", async () => {
    const s = createStore(fakeApi());
    await s.init();
    await s.openThread("t1");
    await s.renameThread("t1", "  Renamed ");
    expect(s.getState().threads.find((t) => t.id === "t1")?.title).toBe("Renamed");
    await s.deleteThread("t1");
    expect(s.getState().threads.map((t) => t.id)).toEqual(["t2"]);
    expect(s.getState().activeThreadId).toBeNull();
  });

  it("a thread running elsewhere shows as running", async () => {
    vi.useFakeTimers();
    try {
      let running = true;
      const s = createStore(
        fakeApi({
          getThread: async (id) => ({
            thread: { id, title: id, created_at: 1, updated_at: 1, state: { promoted: null, artifacts: [], pending: [], todos: [] } },
            messages: [msg({ id: "a", thread_id: id, status: running ? "streaming" : "complete", content: running ? "par" : "partial" })],
            running,
          }),
        }),
      );
      await s.init();
      await s.openThread("t1");
      expect(isThreadRunning(s.getState(), "t1")).toBe(true);
      running = false;
      await vi.advanceTimersByTimeAsync(1100);
      expect(isThreadRunning(s.getState(), "t1")).toBe(false);
      expect(s.getState().messages[0]?.content).toBe("partial");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("compaction notice", () => {
  it("says how many messages were summarised and that the thread itself is unchanged", async () => {
    const { compactionNotice } = await import("./store");
    const text = compactionNotice(12, 9000, 2100);
    expect(text).toContain("12 earlier messages");
    expect(text).toContain("9000 → 2100");
    expect(text).toContain("unchanged");
    expect(compactionNotice(1, 10, 5)).toContain("1 earlier message was summarised");
  });

  describe("approvals", () => {
    const waiting = (ids: string[]): ThreadView => ({
      thread: {
        id: "t1",
        title: "t1",
        created_at: 1,
        updated_at: 1,
        state: {
          promoted: null,
          artifacts: [],
          todos: [],
          pending: ids.map((id) => ({
            call: { id, name: "bash", arguments: '{"command":"ls"}' },
            run_id: "r1",
            source: { kind: "sandbox" },
            group: "bash",
            reason: "asks by default",
            decision: null,
            question: null,
            answer: null,
          })),
        },
      },
      messages: [],
      running: false,
    });

    it("the last answer resumes the thread as a live run; earlier ones only record", async () => {
      const answerApproval = vi.fn(async (_t: string, callId: string, _d: string, onEvent: (e: RunEvent) => void) => {
        if (callId === "c1") return null;
        onEvent(ev.started("t1", "r2"));
        return "r2";
      });
      const s = createStore(fakeApi({ getThread: async () => waiting(["c1", "c2"]), answerApproval }));
      await s.init();
      await s.openThread("t1");
      await s.answerApproval("c1", "deny");
      expect(s.getState().threadState?.pending.map((p) => p.decision)).toEqual(["deny", null]);
      expect(isThreadRunning(s.getState(), "t1")).toBe(false);
      await s.answerApproval("c2", "allow_once");
      expect(answerApproval).toHaveBeenLastCalledWith("t1", "c2", "allow_once", expect.any(Function));
      expect(s.getState().liveRuns).toEqual({ t1: "r2" });
    });

    it("a rejected answer puts the question back and says why", async () => {
      const s = createStore(
        fakeApi({ getThread: async () => waiting(["c1"]), answerApproval: () => Promise.reject("no provider is configured") }),
      );
      await s.init();
      await s.openThread("t1");
      await s.answerApproval("c1", "allow_once");
      expect(s.getState().threadState?.pending[0]?.decision).toBeNull();
      expect(s.getState().runErrors.t1).toBe("no provider is configured");
      expect(isThreadRunning(s.getState(), "t1")).toBe(false);
    });

    it("a run that stops to wait is not shown as failed", async () => {
      const api = fakeApi();
      const s = createStore(api);
      await s.init();
      await s.openThread("t1");
      s.setDraft("run ls");
      await s.send();
      api.emit({ type: "run_finished", run_id: "r1", thread_id: "t1", outcome: "waiting_for_user", error: null });
      expect(s.getState().runErrors.t1).toBeUndefined();
      expect(isThreadRunning(s.getState(), "t1")).toBe(false);
    });
  });
});

describe("usage", () => {
  it("sums each run's turns apart from other runs", async () => {
    const s = createStore(fakeApi());
    await s.init();
    const usage = (run_id: string, input_tokens: number, output_tokens: number): RunEvent => ({
      type: "usage",
      run_id,
      usage: { input_tokens, output_tokens },
    });
    s.onRunEvent("t1", usage("r1", 100, 20));
    s.onRunEvent("t1", usage("r1", 150, 5));
    s.onRunEvent("t2", usage("r2", 7, 1));
    expect(s.getState().runUsage).toEqual({
      r1: { input_tokens: 250, output_tokens: 25 },
      r2: { input_tokens: 7, output_tokens: 1 },
    });
  });

  it("adds and formats", () => {
    expect(addUsage(undefined, { input_tokens: 1, output_tokens: 2 })).toEqual({ input_tokens: 1, output_tokens: 2 });
    expect(usageText({ input_tokens: 12345, output_tokens: 6 }, "en-US")).toBe("12,345 in · 6 out tokens");
  });

  it("openFile records the path the artifacts panel will show", () => {
    const s = createStore(fakeApi());
    s.openFile("/mnt/user-data/outputs/report.md");
    expect(s.getState().openedFile).toBe("/mnt/user-data/outputs/report.md");
    expect(s.getState().artifactsOpen).toBe(true);
  });
});

describe("artifacts panel", () => {
  const OUT = "/mnt/user-data/outputs";
  const file = (name: string, presented = false) => ({ path: `${OUT}/${name}`, size: 10, modified_ms: 1, presented });
  const tick = () => new Promise((r) => setTimeout(r, 0));

  /** An api whose outputs listing and watch are recorded; `fire` plays a watch message. */
  function watched() {
    const watches: (string | null)[] = [];
    let onChange: (() => void) | null = null;
    let listing = [file("a.md", true)];
    const listOutputs = vi.fn(async () => listing);
    const api = fakeApi({
      listOutputs,
      watchOutputs: async (id, cb) => {
        watches.push(id);
        onChange = id === null ? null : cb;
      },
    });
    return {
      api,
      watches,
      listOutputs,
      setListing: (l: typeof listing) => (listing = l),
      fire: () => onChange?.(),
    };
  }

  it("opening the panel watches and lists the active thread's outputs; closing stops the watch", async () => {
    const w = watched();
    const s = createStore(w.api);
    await s.init();
    await s.openThread("t1");
    expect(w.watches).toEqual([]);
    s.toggleArtifacts();
    await tick();
    expect(w.watches).toEqual(["t1"]);
    expect(s.getState().outputs.map((f) => f.path)).toEqual([`${OUT}/a.md`]);
    // Nothing was picked: the first file is, and a file listed above it later does not take over.
    expect(s.getState().openedFile).toBe(`${OUT}/a.md`);
    w.setListing([file("0-new.txt"), file("a.md", true)]);
    w.fire();
    await tick();
    expect(s.getState().outputs).toHaveLength(2);
    expect(s.getState().openedFile).toBe(`${OUT}/a.md`);
    s.closeArtifacts();
    await tick();
    expect(w.watches).toEqual(["t1", null]);
    expect(s.getState().artifactsOpen).toBe(false);
  });

  it("a watch message lists again and bumps the version the preview reloads on", async () => {
    const w = watched();
    const s = createStore(w.api);
    await s.init();
    await s.openThread("t1");
    s.openFile(`${OUT}/a.md`);
    await tick();
    const v = s.getState().outputsVersion;
    w.setListing([file("a.md", true), file("b.csv")]);
    w.fire();
    await tick();
    expect(s.getState().outputsVersion).toBe(v + 1);
    expect(s.getState().outputs.map((f) => f.path)).toEqual([`${OUT}/a.md`, `${OUT}/b.csv`]);
  });

  it("a newly presented file opens the panel on it; the same artifacts again change nothing", async () => {
    const w = watched();
    const s = createStore(w.api);
    await s.init();
    await s.openThread("t1");
    const base = { promoted: null, artifacts: [] as string[], pending: [], todos: [] };
    s.onRunEvent("t1", ev.state({ ...base, todos: [] }));
    expect(s.getState().artifactsOpen).toBe(false);
    s.onRunEvent("t1", ev.state({ ...base, artifacts: [`${OUT}/a.md`, `${OUT}/r.md`] }));
    expect(s.getState().artifactsOpen).toBe(true);
    expect(s.getState().openedFile).toBe(`${OUT}/r.md`);
    await tick();
    expect(w.watches).toEqual(["t1"]);
    // The user picks another file; a state update without new artifacts keeps that choice.
    s.openFile(`${OUT}/a.md`);
    s.onRunEvent("t1", ev.state({ ...base, artifacts: [`${OUT}/a.md`, `${OUT}/r.md`], todos: [] }));
    expect(s.getState().openedFile).toBe(`${OUT}/a.md`);
    // Another thread's state never touches this panel.
    s.onRunEvent("t2", ev.state({ ...base, artifacts: [`${OUT}/z.md`] }, "t2"));
    expect(s.getState().openedFile).toBe(`${OUT}/a.md`);
  });

  it("a thread loaded with artifacts does not pop the panel open", async () => {
    const api = fakeApi({
      getThread: async (id) => ({
        thread: { id, title: id, created_at: 1, updated_at: 1, state: { promoted: null, artifacts: [`${OUT}/a.md`], pending: [], todos: [] } },
        messages: [],
        running: false,
      }),
    });
    const s = createStore(api);
    await s.init();
    await s.openThread("t1");
    expect(s.getState().artifactsOpen).toBe(false);
  });

  it("switching threads clears the selection and watches the new thread", async () => {
    const w = watched();
    const s = createStore(w.api);
    await s.init();
    await s.openThread("t1");
    s.openFile(`${OUT}/a.md`);
    w.setListing([]); // t2 has no outputs
    await s.openThread("t2");
    await tick();
    expect(s.getState().openedFile).toBeNull();
    expect(s.getState().artifactsOpen).toBe(true);
    expect(w.watches).toEqual(["t1", "t2"]);
  });

  it("a failed listing shows its sentence; a failed open with app resolves with it", async () => {
    const s = createStore(
      fakeApi({
        listOutputs: async () => Promise.reject("cannot read the outputs folder"),
        openArtifact: async () => Promise.reject("no app opens .xyz files"),
      }),
    );
    await s.init();
    await s.openThread("t1");
    s.toggleArtifacts();
    await tick();
    expect(s.getState().outputsError).toBe("cannot read the outputs folder");
    expect(await s.openArtifact("t1", `${OUT}/a.xyz`)).toBe("no app opens .xyz files");
  });
});

describe("uploads in the composer", () => {
  it("mentionFiles adds the uploaded paths to that thread's draft only, once each", async () => {
    const s = createStore(fakeApi());
    await s.init();
    await s.openThread("t1");
    s.setDraft("Read this");
    s.mentionFiles("t1", ["/mnt/user-data/uploads/a.pdf"]);
    s.mentionFiles("t1", ["/mnt/user-data/uploads/a.pdf", "/mnt/user-data/uploads/b.csv"]);
    s.mentionFiles("t2", ["/mnt/user-data/uploads/c.txt"]);
    expect(draftOf(s.getState())).toBe("Read this\n/mnt/user-data/uploads/a.pdf\n/mnt/user-data/uploads/b.csv\n");
    expect(s.getState().drafts.t2).toBe("/mnt/user-data/uploads/c.txt\n");
  });
});

describe("thread titles, export, regenerate and branches", () => {
  it("a title from the model renames the thread in the list", async () => {
    const s = createStore(fakeApi());
    await s.init();
    s.onRunEvent("t1", { type: "thread_titled", thread_id: "t1", title: "Trip to Lisbon" });
    expect(s.getState().threads.find((t) => t.id === "t1")?.title).toBe("Trip to Lisbon");
  });

  it("export asks where to save with a name from the title, then writes there", async () => {
    const chooseSavePath = vi.fn(async () => "/home/me/One.md");
    const exportThread = vi.fn(async () => {});
    const s = createStore(fakeApi({ chooseSavePath, exportThread }));
    await s.init();
    await s.openThread("t1");
    expect(await s.exportThread("md")).toEqual({ ok: true, text: "Saved to /home/me/One.md" });
    expect(chooseSavePath).toHaveBeenCalledWith("One.md", "Markdown", "md");
    expect(exportThread).toHaveBeenCalledWith("t1", "md", "/home/me/One.md");
  });

  it("a cancelled dialog writes nothing; a refused write says why", async () => {
    const exportThread = vi.fn(() => Promise.reject("could not write /x.json: permission denied"));
    const s = createStore(fakeApi({ exportThread }));
    await s.init();
    await s.openThread("t1");
    expect(await s.exportThread("json")).toBeNull();
    expect(exportThread).not.toHaveBeenCalled();
    const s2 = createStore(fakeApi({ chooseSavePath: async () => "/x.json", exportThread }));
    await s2.init();
    await s2.openThread("t1");
    expect(await s2.exportThread("json")).toEqual({ ok: false, text: "could not write /x.json: permission denied" });
  });

  it("regenerate drops the reply after the last user message and streams the new one", async () => {
    let handler: ((e: RunEvent) => void) | null = null;
    const regenerate = vi.fn(async (_id: string, onEvent: (e: RunEvent) => void) => {
      handler = onEvent;
      return "r5";
    });
    const messages = [msg({ id: "u", role: "user", content: "Q" }), msg({ id: "a", content: "old answer" })];
    const s = createStore(fakeApi({ regenerate, getThread: async (id) => ({ thread: { id, title: id, created_at: 1, updated_at: 1, state: { promoted: null, artifacts: [], pending: [], todos: [] } }, messages, running: false }) }));
    await s.init();
    await s.openThread("t1");
    await s.regenerate();
    expect(regenerate).toHaveBeenCalledWith("t1", expect.any(Function));
    expect(s.getState().messages.map((m) => m.id)).toEqual(["u"]);
    expect(isThreadRunning(s.getState(), "t1")).toBe(true);
    handler!(ev.added(msg({ id: "a2", content: "new answer" })));
    handler!(ev.finished("completed"));
    expect(s.getState().messages.map((m) => m.content)).toEqual(["Q", "new answer"]);
    expect(isThreadRunning(s.getState(), "t1")).toBe(false);
  });

  it("a refused regenerate puts the old reply back with the reason", async () => {
    const messages = [msg({ id: "u", role: "user", content: "Q" }), msg({ id: "a", content: "old answer" })];
    const s = createStore(
      fakeApi({
        regenerate: () => Promise.reject("no provider is configured"),
        getThread: async (id) => ({ thread: { id, title: id, created_at: 1, updated_at: 1, state: { promoted: null, artifacts: [], pending: [], todos: [] } }, messages, running: false }),
      }),
    );
    await s.init();
    await s.openThread("t1");
    await s.regenerate();
    expect(s.getState().messages.map((m) => m.id)).toEqual(["u", "a"]);
    expect(s.getState().runErrors["t1"]).toBe("no provider is configured");
    expect(isThreadRunning(s.getState(), "t1")).toBe(false);
  });

  it("editing a message moves to the branch, with early events kept and a link back", async () => {
    const messages = [
      msg({ id: "u1", role: "user", content: "first" }),
      msg({ id: "a1", content: "reply" }),
      msg({ id: "u2", role: "user", content: "second" }),
    ];
    const editAndResend = vi.fn(async (_t: string, _m: string, _c: string, onEvent: (e: RunEvent) => void) => {
      // The run starts before the command answers.
      onEvent({ type: "run_started", run_id: "r7", thread_id: "b1" });
      onEvent(ev.added(msg({ id: "nu", thread_id: "b1", role: "user", content: "second, edited" })));
      return { thread: { id: "b1", title: "One", created_at: 5, updated_at: 50, state: { promoted: null, artifacts: [], pending: [], todos: [] } }, run_id: "r7" };
    });
    const s = createStore(
      fakeApi({
        editAndResend,
        getThread: async (id) => ({ thread: { id, title: "One", created_at: 1, updated_at: 1, state: { promoted: null, artifacts: [], pending: [], todos: [] } }, messages, running: false }),
      }),
    );
    await s.init();
    await s.openThread("t1");
    expect(await s.editAndResend("u2", "  second, edited ")).toBeNull();
    expect(editAndResend).toHaveBeenCalledWith("t1", "u2", "second, edited", expect.any(Function));
    const st = s.getState();
    expect(st.activeThreadId).toBe("b1");
    expect(st.messages.map((m) => m.content)).toEqual(["first", "reply", "second, edited"]);
    expect(st.branchedFrom).toEqual({ thread_id: "t1", message_id: "u2", title: "One" });
    expect(st.threads[0]).toMatchObject({ id: "b1", running: true });
    expect(isThreadRunning(st, "b1")).toBe(true);
  });

  it("a refused edit stays on the thread and returns the reason", async () => {
    const s = createStore(
      fakeApi({
        editAndResend: () => Promise.reject("the thread is still answering"),
        getThread: async (id) => ({ thread: { id, title: id, created_at: 1, updated_at: 1, state: { promoted: null, artifacts: [], pending: [], todos: [] } }, messages: [msg({ id: "u1", role: "user", content: "a" })], running: false }),
      }),
    );
    await s.init();
    await s.openThread("t1");
    expect(await s.editAndResend("u1", "b")).toBe("the thread is still answering");
    expect(s.getState().activeThreadId).toBe("t1");
    expect(s.getState().messages.map((m) => m.content)).toEqual(["a"]);
  });
});

describe("store: agent and skills per thread", () => {
  const tick = () => new Promise((r) => setTimeout(r, 0));
  it("a pick made before the thread exists goes with the first message and stays with the thread", async () => {
    const started: unknown[] = [];
    const api = fakeApi({
      startRun: async (_id, _content, _onEvent, options) => {
        started.push(options);
        return "r1";
      },
    });
    const s = createStore(api);
    await s.init();
    await s.setRunOptions({ agent: "researcher", skills: ["notes"] });
    expect(runOptionsOf(s.getState())).toEqual({ agent: "researcher", skills: ["notes"] });
    s.setDraft("hi");
    await s.send();
    expect(s.getState().activeThreadId).toBe("t3");
    expect(started).toEqual([{ agent: "researcher", skills: ["notes"] }]);
    expect(s.getState().runOptions).toEqual({ t3: { agent: "researcher", skills: ["notes"] } });
  });

  it("opening a thread shows its saved choice; a pick is saved, and a refused one is put back with the reason", async () => {
    const saves: unknown[] = [];
    const api = fakeApi({
      threadRunOptions: async (id) => (id === "t1" ? { agent: "coder", skills: [] } : { agent: null, skills: [] }),
      setThreadRunOptions: async (id, options) => {
        saves.push([id, options]);
        if (options.agent === "gone") throw "there is no agent named `gone`";
        return options;
      },
    });
    const s = createStore(api);
    await s.init();
    await s.openThread("t1");
    await tick();
    expect(runOptionsOf(s.getState())).toEqual({ agent: "coder", skills: [] });

    await s.setRunOptions({ agent: "coder", skills: ["pdf"] });
    expect(saves).toEqual([["t1", { agent: "coder", skills: ["pdf"] }]]);
    expect(runOptionsOf(s.getState()).skills).toEqual(["pdf"]);

    await s.setRunOptions({ agent: "gone", skills: [] });
    expect(runOptionsOf(s.getState())).toEqual({ agent: "coder", skills: ["pdf"] });
    expect(s.getState().runErrors.t1).toBe("there is no agent named `gone`");

    // The same choice again is not sent.
    await s.setRunOptions({ agent: "coder", skills: ["pdf"] });
    expect(saves).toHaveLength(2);
  });

  it("the Tools inspector is explained for the thread's choice", async () => {
    const asked: unknown[] = [];
    const api = fakeApi({
      explainTools: async (threadId, agent, skills) => {
        asked.push([threadId, agent, skills]);
        return { tools: [], catalog_hash: null, aliases: [], problems: [] };
      },
    });
    const s = createStore(api);
    await s.init();
    await s.explainTools(null);
    await s.setRunOptions({ agent: "researcher", skills: ["notes"] });
    await s.explainTools(null);
    expect(asked).toEqual([
      [null, null, null],
      [null, "researcher", ["notes"]],
    ]);
  });

  it("lists the agents and skills, and keeps the reason when listing fails", async () => {
    let fail = false;
    const choices = { agents: [], skills: [{ name: "notes", description: "", allowed_tools: null }], problems: ["x"] };
    const s = createStore(fakeApi({ listRunChoices: async () => (fail ? Promise.reject("cannot read skills/") : choices) }));
    await s.loadRunChoices();
    expect(s.getState().runChoices).toEqual(choices);
    fail = true;
    await s.loadRunChoices();
    expect(s.getState().runChoicesError).toBe("cannot read skills/");
    expect(s.getState().runChoices).toEqual(choices);
  });
});
