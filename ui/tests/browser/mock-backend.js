// A fake Workbench backend for browser tests, injected before the app loads. It installs
// window.__TAURI_INTERNALS__ the way the Tauri runtime does: `invoke(cmd, args)` answers
// commands from in-memory state, `transformCallback` registers callbacks, and a `Channel`
// argument (which carries the id of such a callback) receives `{ index, message }` objects,
// then `{ index, end: true }`, exactly what @tauri-apps/api's Channel expects.
//
// Configure with window.__MOCK_CONFIG__ (set by an earlier init script). Every call is
// recorded in window.__mock.calls as { cmd, args } (channels replaced by "<channel>").
(() => {
  const cfg = Object.assign(
    {
      provider: { settings: null, has_key: false, keychain_error: null },
      servers: [],
      /** Reject save_provider with this sentence when a key is given. */
      keychainError: null,
      threads: [],
      /**
       * Reply script: chunks streamed with delayMs between them. A script with `turns` runs
       * several model turns instead: each turn is { chunks, delayMs, toolCalls?, results?,
       * state?, subagents? } where subagents are { call, update, delayMs } subagent events
       * sent before the results, and toolCalls are { name, arguments } (arguments a JSON string or a value),
       * results are { call, content, isError, delayMs } answering toolCalls[call] in the
       * order listed (leave one out to never answer it), and state is a ThreadState sent as
       * state_updated after the results.
       */
      reply: { chunks: ["Hello", " from", " the", " mock."], delayMs: 60 },
      /**
       * A turn with `ask: [i, ...]` stops with those tool calls waiting for approval (the run
       * ends waiting_for_user). Answering the last one resumes: allowed calls get
       * `approvalOutput`, denied ones a refusal, then `afterApproval` chunks stream.
       */
      approvalOutput: "approved\n[exit code: 0]",
      afterApproval: ["The command ", "ran."],
      /** Background jobs per thread id: [{ id, command, running }]. */
      jobs: {},
      /** Optional per-run scripts: run n uses replies[n], falling back to reply. */
      replies: [],
      /** After this many chunks the run fails with failError. */
      failAfter: null,
      failError: "The provider closed the connection.",
      /** Reject start_run with this sentence. */
      startError: null,
      /** What explain_tools answers (a VisibilityReport). */
      toolReport: { tools: [], catalog_hash: null },
      /**
       * Reports per picked agent and skills, keyed "agent|skill,skill" ("" for the default
       * agent, e.g. "researcher|notes" or "|"); explain_tools falls back to toolReport.
       */
      toolReports: {},
      /** What list_run_choices answers: { agents, skills, problems }. */
      runChoices: { agents: [], skills: [], problems: [] },
      /** Saved agent and skills per thread id ({ agent, skills }). */
      runOptions: {},
      /** Reject explain_tools with this sentence. */
      explainError: null,
      /** Delay before explain_tools answers. */
      explainDelayMs: 0,
      /** Saved facts (Settings -> Memory), newest first, and whether memory is on. */
      memories: [],
      memoryEnabled: true,
      /** Reject search_threads with this sentence. */
      searchError: null,
      /**
       * Files per thread id for the artifacts panel: [{ path, text } | { path, base64 }, with
       * optional mime (else from the extension), size, truncated, readError]. `path` is the
       * virtual path; files under /mnt/user-data/outputs are listed. A turn's `outputs` adds
       * files (same shape) to the running thread before its state is sent.
       */
      files: {},
      /** Reject open_artifact with this sentence. */
      openError: null,
      /** Reject save_artifact_as with this sentence. */
      saveError: null,
      /**
       * MCP servers. `overview` is the McpOverview the page starts from. A server saved or
       * imported here goes "connecting", then after connectDelayMs (null: never) "connected"
       * with `toolsFor[name]` (default: none). `validate` is the ValidationReport mcp_validate
       * answers after validateDelayMs. `claude` is Claude Desktop's mcpServers map (null: no
       * config file). `resources` / `prompts` map a server name to its lists. `errors` maps a
       * command name (e.g. "mcp_save_server") to the sentence it rejects with.
       * Tests push live changes with window.__mock.mcpSetStatus(name, status[, tools]).
       */
      mcp: {},
      /**
       * Thread folders, uploads and permissions. `hostFolders` are the folders that exist on
       * the "host" (mounts of others are refused as missing), `hostFiles` maps a host file path
       * to its size in bytes (uploads of others are refused), `pickFolder` / `pickFiles` are
       * the answers of the system pickers in order (null: cancelled; empty queue: cancelled),
       * `mounts` the saved mounts per thread id, `policy` the ApprovalPolicy, `shell` the
       * shell switches with `confinement`. `errors` maps a command name to the sentence it
       * rejects with. Tests drag files over the window with window.__mock.drag(type, paths).
       */
      sandbox: {},
      /** After a thread's first completed run, the title the "model" gives (thread_titled); null: none. */
      modelTitle: null,
      /** What the save dialog answers (plugin:dialog|save): a path, or null as if cancelled. */
      savePath: null,
      /** Reject export_thread with this sentence. */
      exportError: null,
    },
    window.__MOCK_CONFIG__ || {},
  );

  const callbacks = new Map();
  let nextCallbackId = 1;
  let seq = 0;
  let runCount = 0;
  const now = () => Date.now() + seq++;
  const newId = (p) => `${p}-${++seq}`;

  const state = {
    provider: cfg.provider,
    threads: new Map(),
    messages: new Map(),
    running: new Map(), // threadId -> { cancelled: bool }
    calls: [],
    memories: cfg.memories.map((m) => Object.assign({}, m)),
    memoryEnabled: cfg.memoryEnabled,
    runOptions: Object.assign({}, cfg.runOptions),
    files: new Map(Object.entries(cfg.files).map(([id, list]) => [id, list.map((f) => Object.assign({}, f))])),
    /** The channel of the one outputs watch, as the backend keeps it: { threadId, channelId, index }. */
    watch: null,
    /** Adds or replaces a file of a thread (tests call it to change outputs under the panel). */
    putFile(threadId, file) {
      const list = state.files.get(threadId) || [];
      state.files.set(threadId, [...list.filter((f) => f.path !== file.path), Object.assign({}, file)]);
    },
    removeFile(threadId, path) {
      state.files.set(threadId, (state.files.get(threadId) || []).filter((f) => f.path !== path));
    },
    /** Sends the watch's change message, as the backend does shortly after outputs change; false when nothing watches. */
    fireWatch() {
      const w = state.watch;
      const cb = w && callbacks.get(w.channelId);
      if (!cb) return false;
      cb({ index: w.index++, message: null });
      return true;
    },
  };
  for (const t of cfg.threads) {
    state.threads.set(t.id, {
      id: t.id,
      title: t.title,
      created_at: t.updated_at,
      updated_at: t.updated_at,
      state: t.state || { promoted: null, artifacts: [], pending: [], todos: [] },
      externalRunning: !!t.running,
    });
    state.messages.set(t.id, (t.messages || []).map((m) => message(t.id, m)));
  }
  window.__mock = state;

  // ---- MCP servers ------------------------------------------------------------------------
  const mcpCfg = Object.assign(
    {
      overview: { configPath: "/home/me/.local/share/workbench/mcp.json", servers: [] },
      toolsFor: {},
      connectDelayMs: 300,
      validate: { ok: true, stderr: [], tools: [], elapsedMs: 42 },
      validateDelayMs: 150,
      claude: null,
      resources: {},
      prompts: {},
      errors: {},
    },
    cfg.mcp || {},
  );
  const SECRET_PARTS = ["AUTHORIZATION", "KEY", "TOKEN", "SECRET", "PASS", "CREDENTIAL", "COOKIE"];
  const looksSecret = (n) => SECRET_PARTS.some((p) => n.toUpperCase().includes(p));
  const mcpState = {
    overview: JSON.parse(JSON.stringify(mcpCfg.overview)),
    watchers: [], // channel ids
    // What a value-less secret stands for, so edits can keep it (the keychain, in the real app).
    secrets: {},
    gens: {},
  };
  state.mcp = mcpState;
  const qualify = (server, tool) => `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
  function mcpEmit() {
    for (const id of mcpState.watchers) {
      const cb = callbacks.get(id);
      if (cb) cb({ index: (mcpState.seq = (mcpState.seq || 0) + 1) - 1, message: clone(mcpState.overview) });
    }
  }
  function mcpServer(name) {
    const s = mcpState.overview.servers.find((x) => x.name === name);
    if (!s) throw `there is no MCP server named \`${name}\``;
    return s;
  }
  function toolViews(name, tools, disabled) {
    return tools.map((t) => ({ ...t, qualifiedName: qualify(name, t.name), enabled: !disabled.includes(t.name) }));
  }
  function connectLater(name) {
    if (mcpCfg.connectDelayMs === null) return;
    // A newer start of the same server wins over an older one still waiting.
    const gen = (mcpState.gens[name] = (mcpState.gens[name] || 0) + 1);
    setTimeout(() => {
      const now = mcpState.overview.servers.find((x) => x.name === name);
      if (!now || mcpState.gens[name] !== gen || !now.enabled) return;
      const tools = mcpCfg.toolsFor[name] || [];
      now.status = { state: "connected", toolCount: tools.length };
      now.tools = toolViews(name, tools, now.disabledTools);
      mcpEmit();
    }, mcpCfg.connectDelayMs);
  }
  /** A ServerView from a form's ServerInput; `old` supplies values left out (kept secrets). */
  function viewFromInput(input, old) {
    const values = (list, oldList) =>
      list.map((v) => {
        const secret = v.secret ?? looksSecret(v.name);
        const kept = (oldList || []).find((o) => o.name === v.name);
        if (v.value === undefined && !kept) throw `\`${v.name}\` has no value (and none is stored yet)`;
        if (secret) {
          if (v.value !== undefined) mcpState.secrets[`${input.name}/${v.name}`] = v.value;
          return { name: v.name, secret: true };
        }
        return { name: v.name, value: v.value ?? kept.value ?? mcpState.secrets[`${input.name}/${v.name}`], secret: false };
      });
    const t = input.transport;
    const enabled = input.enabled ?? true;
    return {
      name: input.name.trim(),
      transport: t.kind,
      ...(t.kind === "stdio" ? { command: t.command, ...(t.cwd ? { cwd: t.cwd } : {}) } : { url: t.url }),
      args: t.kind === "stdio" ? t.args : [],
      env: t.kind === "stdio" ? values(t.env, old && old.env) : [],
      headers: t.kind === "http" ? values(t.headers, old && old.headers) : [],
      enabled,
      startupTimeoutSecs: input.startupTimeoutSecs ?? 30,
      callTimeoutSecs: input.callTimeoutSecs ?? 60,
      status: enabled ? { state: "connecting" } : { state: "disabled" },
      tools: [],
      disabledTools: input.disabledTools || [],
    };
  }
  /** A ServerView from an imported mcpServers entry (plain values named like secrets go to the keychain). */
  function viewFromEntry(name, e) {
    const values = (map) =>
      Object.entries(map || {}).map(([k, v]) =>
        typeof v === "object" || looksSecret(k) ? { name: k, secret: true } : { name: k, value: v, secret: false },
      );
    const http = e.url !== undefined;
    const enabled = e.enabled ?? true;
    return {
      name,
      transport: http ? "http" : "stdio",
      ...(http ? { url: e.url } : { command: e.command }),
      args: e.args || [],
      env: values(e.env),
      headers: values(e.headers),
      enabled,
      startupTimeoutSecs: 30,
      callTimeoutSecs: 60,
      status: enabled ? { state: "connecting" } : { state: "disabled" },
      tools: [],
      disabledTools: e.disabledTools || [],
    };
  }
  function mcpImport(servers, overwrite) {
    const report = { added: [], skipped: [] };
    for (const [name, entry] of Object.entries(servers)) {
      const at = mcpState.overview.servers.findIndex((x) => x.name === name);
      if (at >= 0 && !overwrite) {
        report.skipped.push(name);
        continue;
      }
      const view = viewFromEntry(name, entry);
      if (at >= 0) mcpState.overview.servers[at] = view;
      else mcpState.overview.servers.push(view);
      report.added.push(name);
      connectLater(name);
    }
    mcpState.overview.servers.sort((a, b) => a.name.localeCompare(b.name));
    mcpEmit();
    return report;
  }
  /** Lets a test change a server's status (and tools) as the backend would, then tells watchers. */
  state.mcpSetStatus = (name, status, tools) => {
    const s = mcpServer(name);
    s.status = status;
    if (tools) s.tools = toolViews(name, tools, s.disabledTools);
    else if (status.state !== "connected") s.tools = [];
    mcpEmit();
  };

  function message(threadId, m) {
    return Object.assign(
      {
        id: newId("m"),
        thread_id: threadId,
        run_id: null,
        role: "user",
        content: "",
        reasoning: "",
        tool_calls: [],
        tool_call_id: null,
        is_error: false,
        status: "complete",
        error: null,
        created_at: now(),
        hidden: false,
      },
      m,
    );
  }

  const OUTPUTS = "/mnt/user-data/outputs/";
  // A few of mime_guess's answers, enough for the tests.
  const MIME = {
    md: "text/markdown", markdown: "text/markdown", html: "text/html", htm: "text/html", csv: "text/csv",
    tsv: "text/tab-separated-values", txt: "text/plain", json: "application/json", py: "text/x-python",
    rs: "text/x-rust", js: "application/javascript", svg: "image/svg+xml", png: "image/png", jpg: "image/jpeg",
    gif: "image/gif", pdf: "application/pdf", zip: "application/zip",
  };
  const mimeOf = (f) => {
    if (f.mime) return f.mime;
    const m = /\.([^./]+)$/.exec(f.path);
    const known = m && MIME[m[1].toLowerCase()];
    return known || (f.base64 !== undefined ? "application/octet-stream" : "text/plain");
  };
  const sizeOf = (f) => f.size ?? (f.text !== undefined ? new TextEncoder().encode(f.text).length : Math.floor(((f.base64 || "").length * 3) / 4));
  function fileOf(threadId, path) {
    thread(threadId);
    const f = (state.files.get(threadId) || []).find((x) => x.path === path);
    if (!f) throw `${path}: no such file in this thread's folders`;
    if (f.readError) throw f.readError;
    return f;
  }

  const summary = (t) => ({
    id: t.id,
    title: t.title,
    updated_at: t.updated_at,
    running: state.running.has(t.id) || t.externalRunning,
  });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const clone = (x) => JSON.parse(JSON.stringify(x));

  /** The backend's check of a picked agent and skills: names must exist; a skill named twice is kept once. */
  function checkRunOptions(options) {
    const c = cfg.runChoices;
    if (options.agent !== null && !c.agents.some((a) => a.name === options.agent)) {
      throw `there is no agent named \`${options.agent}\`; agents live in /home/me/.local/share/workbench/agents`;
    }
    for (const sk of options.skills) {
      if (!c.skills.some((x) => x.name === sk)) throw `there is no skill named \`${sk}\`; skills live in /home/me/.local/share/workbench/skills`;
    }
    return { agent: options.agent, skills: [...new Set(options.skills)] };
  }

  function thread(threadId) {
    const t = state.threads.get(threadId);
    if (!t) throw `No thread with id ${threadId}.`;
    return t;
  }

  async function stream(threadId, content, channelId, runId) {
    let index = 0;
    const send = (message) => {
      const cb = callbacks.get(channelId);
      if (cb) cb({ index: index++, message: clone(message) });
    };
    const t = thread(threadId);
    const list = state.messages.get(threadId);
    const ctl = state.running.get(threadId);
    send({ type: "run_started", run_id: runId, thread_id: threadId });
    // content null: regenerate, the user's message is already the last one.
    if (content !== null) {
      const user = message(threadId, { role: "user", content });
      list.push(user);
      send({ type: "message_added", message: user });
    }
    const first = message(threadId, { role: "assistant", run_id: runId, status: "streaming" });
    list.push(first);
    send({ type: "message_added", message: first });
    t.updated_at = now();

    let outcome = "completed";
    let error = null;
    let i = 0;
    const script = cfg.replies[runCount++] || cfg.reply;
    const turns = script.turns || [script];
    let reply = null;
    for (let n = 0; n < turns.length && outcome === "completed"; n++) {
      const turn = turns[n];
      if (n > 0) {
        reply = message(threadId, { role: "assistant", run_id: runId, status: "streaming" });
        list.push(reply);
        send({ type: "message_added", message: reply });
      } else {
        reply = first;
      }
      for (const chunk of turn.chunks || []) {
        await sleep(turn.delayMs ?? 60);
        if (ctl.cancelled) {
          outcome = "cancelled";
          break;
        }
        if (cfg.failAfter !== null && i === cfg.failAfter) {
          outcome = "failed";
          error = cfg.failError;
          break;
        }
        reply.content += chunk;
        send({ type: "delta", message_id: reply.id, text: chunk, reasoning: false });
        i++;
      }
      if (outcome !== "completed" || !turn.toolCalls) break;
      reply.tool_calls = turn.toolCalls.map((c) => ({
        id: newId("call"),
        name: c.name,
        arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
      }));
      reply.status = "complete";
      send({ type: "message_updated", message: reply });
      if (turn.ask || turn.question) {
        const pending = (turn.ask || []).map((n) => ({
          call: reply.tool_calls[n],
          run_id: runId,
          source: { kind: "sandbox" },
          group: reply.tool_calls[n].name,
          reason: `tools of group \`${reply.tool_calls[n].name}\` ask by default`,
          decision: null,
          question: null,
          answer: null,
        }));
        for (const n of turn.question ? [turn.question.call] : []) {
          const args = JSON.parse(reply.tool_calls[n].arguments);
          pending.push({
            call: reply.tool_calls[n],
            run_id: runId,
            source: { kind: "builtin" },
            group: "clarification",
            reason: "the agent has a question for you",
            decision: null,
            question: { question: args.question, clarification_type: args.clarification_type, context: args.context ?? null, options: args.options ?? [] },
            answer: null,
          });
        }
        t.state = { ...t.state, pending };
        send({ type: "state_updated", thread_id: threadId, state: t.state });
        outcome = "waiting_for_user";
        break;
      }
      for (const sa of turn.subagents || []) {
        const c = reply.tool_calls[sa.call];
        await sleep(sa.delayMs ?? 50);
        send({ type: "subagent", thread_id: threadId, call_id: c.id, update: sa.update });
      }
      const answered = new Set();
      for (const r of turn.results || []) {
        await sleep(r.delayMs ?? 100);
        if (ctl.cancelled) break;
        const c = reply.tool_calls[r.call];
        const res = message(threadId, { role: "tool", run_id: runId, tool_call_id: c.id, content: r.content, is_error: !!r.isError });
        if (r.metadata) res.metadata = r.metadata;
        list.push(res);
        send({ type: "message_added", message: res });
        answered.add(c.id);
        for (const f of r.outputs || []) state.putFile(threadId, f);
        if (r.state) {
          t.state = r.state;
          send({ type: "state_updated", thread_id: threadId, state: r.state });
        }
      }
      if (ctl.cancelled) {
        for (const c of reply.tool_calls) {
          if (answered.has(c.id)) continue;
          const res = message(threadId, { role: "tool", run_id: runId, tool_call_id: c.id, content: "cancelled by the user before the tool finished", is_error: true });
          list.push(res);
          send({ type: "message_added", message: res });
        }
        outcome = "cancelled";
        break;
      }
      for (const f of turn.outputs || []) state.putFile(threadId, f);
      if (turn.state) {
        t.state = turn.state;
        send({ type: "state_updated", thread_id: threadId, state: turn.state });
      }
    }
    if (outcome === "completed" && ctl.cancelled) outcome = "cancelled";
    if (outcome === "waiting_for_user") outcome = "waiting";
    if (reply.status === "streaming") {
      reply.status = outcome === "completed" ? "complete" : outcome === "cancelled" ? "cancelled" : "error";
      reply.error = error;
      send({ type: "message_updated", message: reply });
    }
    send({ type: "usage", run_id: runId, usage: { input_tokens: 12, output_tokens: i } });
    if (t.title === "New thread" && content !== null) t.title = content.slice(0, 30);
    t.updated_at = now();
    state.running.delete(threadId);
    send({ type: "run_finished", run_id: runId, thread_id: threadId, outcome: outcome === "waiting" ? "waiting_for_user" : outcome, error });
    if (outcome === "completed" && cfg.modelTitle && !t.titled) {
      t.titled = true;
      await sleep(20);
      t.title = cfg.modelTitle;
      send({ type: "thread_titled", thread_id: threadId, title: cfg.modelTitle });
    }
    const cb = callbacks.get(channelId);
    if (cb) cb({ index: index++, end: true });
  }

  async function resume(threadId, channelId, runId) {
    let index = 0;
    const send = (message) => {
      const cb = callbacks.get(channelId);
      if (cb) cb({ index: index++, message: clone(message) });
    };
    const t = thread(threadId);
    const list = state.messages.get(threadId);
    send({ type: "run_started", run_id: runId, thread_id: threadId });
    const pending = t.state.pending;
    t.state = { ...t.state, pending: [] };
    send({ type: "state_updated", thread_id: threadId, state: t.state });
    for (const p of pending) {
      await sleep(80);
      const denied = p.question === null && p.decision === "deny";
      const content = p.question !== null
        ? `The user answered: ${p.answer}`
        : denied
        ? `the user denied running \`${p.call.name}\` this time. Do not retry the same call; ask the user what they want instead, or continue without it`
        : cfg.approvalOutput;
      const res = message(threadId, { role: "tool", run_id: runId, tool_call_id: p.call.id, content, is_error: denied });
      list.push(res);
      send({ type: "message_added", message: res });
    }
    const reply = message(threadId, { role: "assistant", run_id: runId, status: "streaming" });
    list.push(reply);
    send({ type: "message_added", message: reply });
    for (const chunk of cfg.afterApproval) {
      await sleep(60);
      reply.content += chunk;
      send({ type: "delta", message_id: reply.id, text: chunk, reasoning: false });
    }
    reply.status = "complete";
    send({ type: "message_updated", message: reply });
    state.running.delete(threadId);
    send({ type: "run_finished", run_id: runId, thread_id: threadId, outcome: "completed", error: null });
    const cb = callbacks.get(channelId);
    if (cb) cb({ index: index++, end: true });
  }

  // ---- Thread folders, uploads, permissions --------------------------------------------------
  const sbCfg = Object.assign(
    {
      hostFolders: [],
      hostFiles: {},
      pickFolder: [],
      pickFiles: [],
      /** Answers of the save dialog, in order (null: cancelled). */
      pickSave: [],
      mounts: {},
      policy: { tools: {}, groups: {} },
      shell: { allow_network: false, allow_unconfined: false, confinement: "landlock+seccomp-net" },
      errors: {},
    },
    cfg.sandbox || {},
  );
  const sb = {
    mounts: new Map(Object.entries(sbCfg.mounts).map(([id, list]) => [id, clone(list)])),
    uploads: new Map(), // threadId -> [name]
    policy: clone(sbCfg.policy),
    shell: clone(sbCfg.shell),
    pickFolder: [...sbCfg.pickFolder],
    pickFiles: [...sbCfg.pickFiles],
    pickSave: [...sbCfg.pickSave],
    opened: [],
    listeners: new Map(), // event name -> [{ id, handler }]
    nextEventId: 1,
  };
  state.sandbox = sb;
  const VROOT = "/mnt/user-data";
  const sbFail = (cmd) => {
    if (sbCfg.errors[cmd]) throw sbCfg.errors[cmd];
  };
  /** The checks of crates/sandbox/src/mounts.rs check_mounts, with its sentences. */
  function checkMounts(specs) {
    if (specs.length > 16) throw `a thread may have at most 16 mounts, ${specs.length} were given`;
    const out = [];
    for (const m of specs) {
      if (m.name !== null && m.name !== undefined) {
        const bad = (why) => `the mount name \`${m.name}\` is not allowed: ${why}`;
        if (m.name === "") throw bad("it is empty");
        if (m.name.length > 64) throw bad("it is longer than 64 characters");
        const c = [...m.name].find((ch) => !/[a-z0-9_-]/.test(ch));
        if (c !== undefined) throw bad(`it contains '${c}'; use a-z, 0-9, \`-\` and \`_\``);
      }
      const name = m.name ?? null;
      if (out.some((o) => o.name === name)) {
        throw `two mounts are ${name === null ? "both the workspace" : `named \`${name}\``}; give each a different name`;
      }
      if (!m.host.startsWith("/")) throw `\`${m.host}\` is not an absolute path; choose the folder with the folder picker`;
      const host = m.host.length > 1 ? m.host.replace(/\/+$/, "") : m.host;
      if (!sbCfg.hostFolders.includes(host)) throw `\`${m.host}\` cannot be mounted: it does not exist`;
      out.push({ name, host, read_only: !!m.read_only });
    }
    for (const ro of out.filter((m) => m.read_only)) {
      const rw = out.find((w) => !w.read_only && (ro.host + "/").startsWith(w.host + "/"));
      if (rw) {
        throw `the read-only folder \`${ro.host}\` lies inside \`${rw.host}\`, which is mounted read-write; mount the outer folder read-only too, or mount only folders that do not nest`;
      }
    }
    return out;
  }
  function folders(threadId) {
    const base = `/home/me/.local/share/workbench/threads/${threadId}`;
    const mounts = sb.mounts.get(threadId) || [];
    const ws = mounts.find((m) => m.name === null);
    return [
      ws
        ? { virtual_path: `${VROOT}/workspace`, host: ws.host, writable: !ws.read_only, mounted: true }
        : { virtual_path: `${VROOT}/workspace`, host: `${base}/workspace`, writable: true, mounted: false },
      { virtual_path: `${VROOT}/uploads`, host: `${base}/uploads`, writable: true, mounted: false },
      { virtual_path: `${VROOT}/outputs`, host: `${base}/outputs`, writable: true, mounted: false },
      ...mounts
        .filter((m) => m.name !== null)
        .map((m) => ({ virtual_path: `${VROOT}/mounts/${m.name}`, host: m.host, writable: !m.read_only, mounted: true })),
    ];
  }
  /** Sends a webview drag-and-drop event, as Tauri does for files dragged over the window. */
  state.drag = (type, paths = []) => {
    const event = { enter: "tauri://drag-enter", over: "tauri://drag-over", drop: "tauri://drag-drop", leave: "tauri://drag-leave" }[type];
    const payload = type === "leave" ? null : { paths, position: { x: 100, y: 100 } };
    const list = sb.listeners.get(event) || [];
    for (const l of list) {
      const cb = callbacks.get(l.handler);
      if (cb) cb({ event, id: l.id, payload });
    }
    return list.length;
  };
  window.__TAURI_EVENT_PLUGIN_INTERNALS__ = {
    unregisterListener(event, eventId) {
      sb.listeners.set(event, (sb.listeners.get(event) || []).filter((l) => l.id !== eventId));
    },
  };
  const sandboxCommands = {
    thread_mounts: ({ threadId }) => {
      thread(threadId);
      sbFail("thread_mounts");
      return sb.mounts.get(threadId) || [];
    },
    set_thread_mounts: ({ threadId, mounts }) => {
      thread(threadId);
      sbFail("set_thread_mounts");
      const checked = checkMounts(mounts);
      sb.mounts.set(threadId, checked);
      return checked;
    },
    thread_folders: ({ threadId }) => {
      thread(threadId);
      sbFail("thread_folders");
      return folders(threadId);
    },
    open_thread_folder: ({ threadId }) => {
      thread(threadId);
      sbFail("open_thread_folder");
      sb.opened.push(threadId);
      return null;
    },
    /** As App::upload_files: every file checked before any is copied; a taken name gets " (n)". */
    upload_files: async ({ threadId, paths }) => {
      thread(threadId);
      await sleep(sbCfg.uploadDelayMs ?? 150);
      sbFail("upload_files");
      if (paths.length === 0) throw "no files were given to upload";
      for (const p of paths) {
        const size = sbCfg.hostFiles[p];
        if (size === undefined) throw `cannot upload ${p}: it does not exist`;
        if (size > 512 * 1024 * 1024) throw `cannot upload ${p}: it is ${Math.ceil(size / 1048576)} MiB, more than the 512 MiB limit`;
      }
      const taken = sb.uploads.get(threadId) || [];
      const out = [];
      for (const p of paths) {
        const name = p.split("/").pop();
        let final = name;
        for (let n = 1; taken.includes(final); n++) {
          const dot = name.lastIndexOf(".");
          final = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
        }
        taken.push(final);
        out.push(`${VROOT}/uploads/${final}`);
      }
      sb.uploads.set(threadId, taken);
      return out;
    },
    approval_policy: () => {
      sbFail("approval_policy");
      return sb.policy;
    },
    set_approval_policy: ({ policy }) => {
      sbFail("set_approval_policy");
      sb.policy = clone(policy);
      return null;
    },
    shell_settings: () => {
      sbFail("shell_settings");
      return sb.shell;
    },
    set_shell_settings: ({ settings }) => {
      sbFail("set_shell_settings");
      sb.shell = { ...sb.shell, allow_network: settings.allow_network, allow_unconfined: settings.allow_unconfined };
      return null;
    },
    "plugin:dialog|open": ({ options }) => {
      if (options.directory) return sb.pickFolder.length > 0 ? sb.pickFolder.shift() : null;
      const files = sb.pickFiles.length > 0 ? sb.pickFiles.shift() : null;
      return files === null ? null : options.multiple ? files : files[0];
    },
    "plugin:event|listen": ({ event, handler }) => {
      const id = sb.nextEventId++;
      sb.listeners.set(event, [...(sb.listeners.get(event) || []), { id, handler }]);
      return id;
    },
    "plugin:event|unlisten": ({ event, eventId }) => {
      window.__TAURI_EVENT_PLUGIN_INTERNALS__.unregisterListener(event, eventId);
      return null;
    },
  };

  const commands = {
    provider_status: () => state.provider,
    detect_local_servers: async () => {
      await sleep(30);
      return cfg.servers;
    },
    save_provider: ({ settings, apiKey }) => {
      if (apiKey !== null && cfg.keychainError) throw cfg.keychainError;
      state.provider = { settings, has_key: apiKey !== null || state.provider.has_key, keychain_error: null };
      return state.provider;
    },
    list_threads: () => [...state.threads.values()].map(summary),
    // Like the store: title or shown (not tool, not hidden) message text, case ignored, newest first.
    search_threads: ({ query }) => {
      if (cfg.searchError) throw cfg.searchError;
      const q = query.trim().toLowerCase();
      if (q === "") return [];
      const hits = [];
      for (const t of state.threads.values()) {
        const m = state.messages.get(t.id).find((x) => x.role !== "tool" && !x.hidden && x.content.toLowerCase().includes(q));
        if (m || t.title.toLowerCase().includes(q)) hits.push({ thread: summary(t), snippet: m ? m.content.replace(/\s+/g, " ") : "" });
      }
      return hits.sort((a, b) => b.thread.updated_at - a.thread.updated_at);
    },
    create_thread: ({ title }) => {
      const t = { id: newId("t"), title: title ?? "New thread", created_at: now(), updated_at: now(), state: { promoted: null, artifacts: [], pending: [], todos: [] } };
      state.threads.set(t.id, t);
      state.messages.set(t.id, []);
      const { externalRunning: _e, ...out } = t;
      return out;
    },
    rename_thread: ({ threadId, title }) => {
      thread(threadId).title = title;
      // The user's title: the model never replaces it.
      thread(threadId).titled = true;
      return null;
    },
    export_thread: ({ threadId, format, path }) => {
      thread(threadId);
      if (cfg.exportError) throw cfg.exportError;
      (state.exports ||= []).push({ threadId, format, path });
      return null;
    },
    regenerate_reply: ({ threadId, onEvent }) => {
      thread(threadId);
      if (state.running.has(threadId)) throw "A run is already going in this thread.";
      const list = state.messages.get(threadId);
      const last = list.map((m) => m.role === "user" && !m.hidden).lastIndexOf(true);
      if (last === -1) throw "there is no message to answer again";
      list.splice(last + 1);
      const runId = newId("r");
      state.running.set(threadId, { cancelled: false });
      setTimeout(() => void stream(threadId, null, onEvent.id, runId), 0);
      return runId;
    },
    edit_and_resend: ({ threadId, messageId, content, onEvent }) => {
      const src = thread(threadId);
      const list = state.messages.get(threadId);
      const at = list.findIndex((m) => m.id === messageId && m.role === "user");
      if (at === -1) throw `message ${messageId} is not one of your messages in this thread`;
      const t = { id: newId("t"), title: src.title, created_at: now(), updated_at: now(), titled: src.titled, branchedFrom: { thread_id: threadId, message_id: messageId }, state: { promoted: null, artifacts: [], pending: [], todos: [] } };
      state.threads.set(t.id, t);
      state.messages.set(t.id, list.slice(0, at).map((m) => Object.assign({}, m, { id: newId("m"), thread_id: t.id })));
      const runId = newId("r");
      state.running.set(t.id, { cancelled: false });
      setTimeout(() => void stream(t.id, content, onEvent.id, runId), 0);
      const { externalRunning: _e, titled: _t, branchedFrom: _b, ...out } = t;
      return { thread: out, run_id: runId };
    },
    delete_thread: ({ threadId }) => {
      thread(threadId);
      state.threads.delete(threadId);
      state.messages.delete(threadId);
      return null;
    },
    get_thread: ({ threadId }) => {
      const t = thread(threadId);
      const { externalRunning: _e, titled: _t, branchedFrom, ...th } = t;
      const link = (id, messageId) => ({ thread_id: id, message_id: messageId, title: state.threads.get(id).title });
      const from = branchedFrom && state.threads.has(branchedFrom.thread_id) ? link(branchedFrom.thread_id, branchedFrom.message_id) : undefined;
      const branches = [...state.threads.values()].filter((b) => b.branchedFrom?.thread_id === threadId).map((b) => link(b.id, b.branchedFrom.message_id));
      return { thread: th, messages: state.messages.get(threadId), running: summary(t).running, branched_from: from, branches };
    },
    start_run: ({ threadId, content, options, onEvent }) => {
      thread(threadId);
      if (cfg.startError) throw cfg.startError;
      if (options) state.runOptions[threadId] = checkRunOptions(options);
      if (state.running.has(threadId)) throw "A run is already going in this thread.";
      const runId = newId("r");
      state.running.set(threadId, { cancelled: false });
      // The real backend answers the command first and streams afterwards.
      setTimeout(() => void stream(threadId, content, onEvent.id, runId), 0);
      return runId;
    },
    answer_clarification: ({ threadId, callId, answer, onEvent }) => {
      const t = thread(threadId);
      if (state.running.has(threadId)) throw "this thread is already answering; stop it or wait for it to finish";
      const p = t.state.pending.find((x) => x.call.id === callId && x.question);
      if (!p) throw `no question in this thread waits for an answer as call \`${callId}\``;
      p.answer = answer;
      if (t.state.pending.some((x) => (x.question ? x.answer === null : x.decision === null))) return null;
      const runId = newId("r");
      state.running.set(threadId, { cancelled: false });
      setTimeout(() => void resume(threadId, onEvent.id, runId), 0);
      return runId;
    },
    cancel_subagent: ({ threadId, callId }) => {
      thread(threadId);
      state.cancelledSubagents = [...(state.cancelledSubagents || []), callId];
      return true;
    },
    list_jobs: ({ threadId }) => {
      thread(threadId);
      return (cfg.jobs && cfg.jobs[threadId]) || [];
    },
    cancel_job: ({ threadId, jobId }) => {
      const j = ((cfg.jobs && cfg.jobs[threadId]) || []).find((x) => x.id === jobId);
      if (!j) throw `no job with id "${jobId}"`;
      j.running = false;
      return `job ${jobId} cancelled; its processes were killed`;
    },
    answer_approval: ({ threadId, callId, decision, onEvent }) => {
      const t = thread(threadId);
      if (state.running.has(threadId)) throw "this thread is already answering; stop it or wait for it to finish";
      const p = t.state.pending.find((x) => x.call.id === callId);
      if (!p) throw `nothing in this thread waits for an answer about call \`${callId}\``;
      p.decision = decision;
      if (t.state.pending.some((x) => (x.question ? x.answer === null : x.decision === null))) return null;
      const runId = newId("r");
      state.running.set(threadId, { cancelled: false });
      setTimeout(() => void resume(threadId, onEvent.id, runId), 0);
      return runId;
    },
    explain_tools: async ({ threadId, agent, skills }) => {
      if (threadId !== null) thread(threadId);
      await sleep(cfg.explainDelayMs);
      if (cfg.explainError) throw cfg.explainError;
      const key = `${agent || ""}|${(skills || []).join(",")}`;
      return cfg.toolReports[key] || cfg.toolReport;
    },
    list_run_choices: () => cfg.runChoices,
    thread_run_options: ({ threadId }) => {
      thread(threadId);
      return state.runOptions[threadId] || { agent: null, skills: [] };
    },
    set_thread_run_options: ({ threadId, options }) => {
      thread(threadId);
      state.runOptions[threadId] = checkRunOptions(options);
      return state.runOptions[threadId];
    },
    list_memories: () => state.memories,
    memory_enabled: () => state.memoryEnabled,
    set_memory_enabled: ({ enabled }) => {
      state.memoryEnabled = enabled;
      return null;
    },
    update_memory: ({ id, fact }) => {
      // The real check lives in Rust; the mock refuses the one shape the tests use.
      if (/\bsk-[A-Za-z0-9_-]{16,}/.test(fact)) {
        throw "not saved: the fact looks like it holds a secret (an API key (sk-...)); memory never stores keys, tokens or passwords. Save what the secret is for instead, without the value";
      }
      const m = state.memories.find((x) => x.id === id);
      if (!m) throw `database error while trying to edit a memory: there is no memory with id ${id} (it may have been deleted)`;
      m.fact = fact.trim();
      m.updated_at = now();
      return m;
    },
    delete_memory: ({ id }) => {
      if (!state.memories.some((m) => m.id === id)) throw `database error while trying to delete a memory: there is no memory with id ${id} (it may have been deleted)`;
      state.memories = state.memories.filter((m) => m.id !== id);
      return null;
    },
    list_outputs: ({ threadId }) => {
      const presented = thread(threadId).state.artifacts || [];
      const rank = (p) => (presented.includes(p) ? presented.indexOf(p) : Infinity);
      return (state.files.get(threadId) || [])
        .filter((f) => f.path.startsWith(OUTPUTS))
        .map((f) => ({ path: f.path, size: sizeOf(f), modified_ms: f.modified_ms ?? 1_700_000_000_000, presented: presented.includes(f.path) }))
        .sort((a, b) => rank(a.path) - rank(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
    read_artifact: ({ threadId, path }) => {
      const f = fileOf(threadId, path);
      return {
        path: f.path,
        mime: mimeOf(f),
        size: sizeOf(f),
        text: f.text ?? null,
        base64: f.text === undefined ? (f.base64 ?? null) : null,
        truncated: !!f.truncated,
      };
    },
    "plugin:dialog|save": () => (sb.pickSave.length > 0 ? sb.pickSave.shift() : cfg.savePath),
    save_artifact_as: ({ threadId, path, dest }) => {
      const f = fileOf(threadId, path);
      if (cfg.saveError) throw cfg.saveError;
      state.savedAs = [...(state.savedAs || []), { path, dest }];
      return sizeOf(f);
    },
    open_artifact: ({ threadId, path }) => {
      fileOf(threadId, path);
      if (cfg.openError) throw cfg.openError;
      state.openedWithApp = [...(state.openedWithApp || []), path];
      return null;
    },
    watch_outputs: ({ threadId, onChange }) => {
      if (threadId !== null) thread(threadId);
      state.watch = threadId === null ? null : { threadId, channelId: onChange.id, index: 0 };
      return null;
    },
    mcp_overview: () => mcpState.overview,
    mcp_watch: ({ onChange }) => {
      mcpState.watchers.push(onChange.id);
      // Like the backend: the current overview at once, then one after every change.
      setTimeout(() => {
        const cb = callbacks.get(onChange.id);
        if (cb) cb({ index: (mcpState.seq = (mcpState.seq || 0) + 1) - 1, message: clone(mcpState.overview) });
      }, 0);
      return null;
    },
    mcp_save_server: ({ server, replace }) => {
      const at = mcpState.overview.servers.findIndex((x) => x.name === server.name.trim());
      if (at >= 0 && !replace) throw `a server named \`${server.name}\` already exists; edit it or pick another name`;
      const view = viewFromInput(server, at >= 0 ? mcpState.overview.servers[at] : null);
      if (at >= 0) mcpState.overview.servers[at] = view;
      else mcpState.overview.servers.push(view);
      mcpState.overview.servers.sort((a, b) => a.name.localeCompare(b.name));
      connectLater(view.name);
      mcpEmit();
      return mcpState.overview;
    },
    mcp_remove_server: ({ name }) => {
      mcpServer(name);
      mcpState.overview.servers = mcpState.overview.servers.filter((x) => x.name !== name);
      mcpEmit();
      return mcpState.overview;
    },
    mcp_set_enabled: ({ name, enabled }) => {
      const s = mcpServer(name);
      s.enabled = enabled;
      s.tools = [];
      s.status = enabled ? { state: "connecting" } : { state: "disabled" };
      if (enabled) connectLater(name);
      mcpEmit();
      return mcpState.overview;
    },
    mcp_set_tool_enabled: ({ name, tool, enabled }) => {
      const s = mcpServer(name);
      s.disabledTools = enabled ? s.disabledTools.filter((t) => t !== tool) : [...s.disabledTools.filter((t) => t !== tool), tool];
      s.tools = s.tools.map((t) => (t.name === tool ? { ...t, enabled } : t));
      mcpEmit();
      return mcpState.overview;
    },
    mcp_reconnect: ({ name }) => {
      const s = mcpServer(name);
      if (s.status.state === "connected") mcpCfg.toolsFor[name] = mcpCfg.toolsFor[name] || s.tools.map(({ qualifiedName: _q, enabled: _e, ...t }) => t);
      s.status = { state: "connecting" };
      s.tools = [];
      connectLater(name);
      mcpEmit();
      return mcpState.overview;
    },
    mcp_validate: async ({ server }) => {
      void server;
      await sleep(mcpCfg.validateDelayMs);
      return mcpCfg.validate;
    },
    mcp_import_json: ({ text, name, overwrite }) => {
      let v;
      try {
        v = JSON.parse(text);
      } catch (e) {
        throw `not JSON: ${e.message}`;
      }
      const servers = v.mcpServers ? v.mcpServers : v.command !== undefined || v.url !== undefined ? { [name]: v } : v;
      return mcpImport(servers, overwrite);
    },
    mcp_import_claude: ({ overwrite }) => (mcpCfg.claude === null ? null : mcpImport(mcpCfg.claude, overwrite)),
    mcp_resources: ({ name }) => {
      const s = mcpServer(name);
      if (s.status.state !== "connected") throw `the MCP server \`${name}\` is not connected (${s.status.state})`;
      return mcpCfg.resources[name] || [];
    },
    mcp_prompts: ({ name }) => {
      const s = mcpServer(name);
      if (s.status.state !== "connected") throw `the MCP server \`${name}\` is not connected (${s.status.state})`;
      return mcpCfg.prompts[name] || [];
    },
    cancel_run: ({ threadId }) => {
      const ctl = state.running.get(threadId);
      if (ctl) ctl.cancelled = true;
      const t = state.threads.get(threadId);
      if (t && t.externalRunning) {
        t.externalRunning = false;
        const last = state.messages.get(threadId).at(-1);
        if (last && last.status === "streaming") last.status = "cancelled";
        return true;
      }
      return !!ctl;
    },
  };

  window.__TAURI_INTERNALS__ = {
    metadata: { currentWindow: { label: "main" }, currentWebview: { windowLabel: "main", label: "main" } },
    transformCallback(cb, once) {
      const id = nextCallbackId++;
      callbacks.set(id, (data) => {
        if (once) callbacks.delete(id);
        return cb && cb(data);
      });
      return id;
    },
    unregisterCallback(id) {
      callbacks.delete(id);
    },
    async invoke(cmd, args = {}) {
      const shown = {};
      for (const [k, v] of Object.entries(args || {})) shown[k] = v && typeof v === "object" && "id" in v && typeof v.toJSON === "function" ? "<channel>" : clone(v);
      state.calls.push({ cmd, args: shown });
      const handler = commands[cmd] || sandboxCommands[cmd];
      if (!handler) throw `Unknown command ${cmd}`;
      if (mcpCfg.errors[cmd]) {
        await sleep(5);
        throw mcpCfg.errors[cmd];
      }
      await sleep(5);
      return clone(await handler(args || {}));
    },
    convertFileSrc: (p) => p,
  };
})();
