// Thread folders, uploads and Settings -> Permissions in Chromium with the mocked IPC: the
// Folders drawer (list, open folder, mounts added with the folder picker, refused with the
// backend's sentence, removed), files dropped on the window or attached with the file picker
// (their paths land in the composer), and the approval rules and shell switches.
// Screenshots go to tests/artifacts/ (repo root, gitignored). Run with `npm run test:browser`,
// or one file: `npm run build && node --test tests/browser/folders.test.mjs`.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { CONFIGURED, calls, launchBrowser, openApp, serveDist, uiRoot } from "./harness.mjs";

const ARTIFACTS = join(uiRoot, "..", "tests", "artifacts");
let server;
let browser;
const opened = [];

before(async () => {
  server = await serveDist();
  browser = await launchBrowser();
  await mkdir(ARTIFACTS, { recursive: true });
});
after(async () => {
  for (const c of opened) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

const tid = (id) => `[data-testid="${id}"]`;
const THREAD = { id: "t1", title: "Site work", updated_at: 5, messages: [] };

async function app(sandbox = {}, extra = {}) {
  const r = await openApp(browser, server.url, { provider: CONFIGURED, threads: [THREAD], sandbox, ...extra });
  opened.push(r.context);
  await r.page.click(`${tid("thread-item")}[data-thread-id="t1"]`);
  await r.page.locator(tid("composer-input")).waitFor();
  return r;
}

async function until(fn, what, timeout = 5000) {
  const end = Date.now() + timeout;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 15));
  }
  throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
}

/** The drawer's folders as [virtual path, mode]. */
const listedFolders = (page) =>
  page
    .locator(tid("folder-item"))
    .evaluateAll((els) => els.map((e) => [e.getAttribute("data-path"), e.querySelector('[data-testid="folder-mode"]').textContent]));

describe("thread folders", () => {
  test("lists the folders, opens the thread folder, adds a read-only mount chosen with the picker", async () => {
    const { page, errors } = await app({ hostFolders: ["/home/me/Reports 2024", "/home/me/site"], pickFolder: ["/home/me/Reports 2024"] });
    await page.click(tid("open-folders"));
    await page.locator(tid("folders-panel")).waitFor();
    await until(async () => (await listedFolders(page)).length === 3, "the thread's own folders");
    assert.deepEqual(await listedFolders(page), [
      ["/mnt/user-data/workspace", "read-write"],
      ["/mnt/user-data/uploads", "read-write"],
      ["/mnt/user-data/outputs", "read-write"],
    ]);

    await page.click(tid("open-thread-folder"));
    // The click's command answers asynchronously.
    await until(async () => (await page.evaluate(() => window.__mock.sandbox.opened)).length > 0, "the folder opened");
    assert.deepEqual(await page.evaluate(() => window.__mock.sandbox.opened), ["t1"]);

    await page.click(tid("choose-folder"));
    await until(async () => (await page.textContent(tid("chosen-folder"))) === "/home/me/Reports 2024", "the picked folder");
    assert.equal(await page.inputValue(tid("mount-name")), "reports-2024");
    assert.equal(await page.textContent(tid("mount-preview")), "/mnt/user-data/mounts/reports-2024");
    await page.check(tid("mount-read-only"));
    await page.click(tid("add-mount"));
    await page.locator(tid("mount-notice")).waitFor();
    assert.match(await page.textContent(tid("mount-notice")), /from its next run/);
    await until(async () => (await listedFolders(page)).length === 4, "the new mount in the list");
    assert.deepEqual((await listedFolders(page))[3], ["/mnt/user-data/mounts/reports-2024", "read-only"]);
    const saved = await calls(page, "set_thread_mounts");
    assert.deepEqual(saved.at(-1).args, { threadId: "t1", mounts: [{ name: "reports-2024", host: "/home/me/Reports 2024", read_only: true }] });
    // The form is cleared for the next folder.
    assert.equal(await page.textContent(tid("chosen-folder")), "No folder chosen");
    await page.screenshot({ path: join(ARTIFACTS, "folders-panel.png") });

    // Escape closes the drawer and gives the focus back to its button.
    await page.keyboard.press("Escape");
    await page.locator(tid("folders-panel")).waitFor({ state: "detached" });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-testid")), "open-folders");
    assert.deepEqual(errors, []);
  });

  test("a refused mount shows the backend's sentence and keeps the form; fixing it saves", async () => {
    const { page } = await app({ hostFolders: ["/home/me/site"], pickFolder: ["/home/me/site", "/home/me/gone"] });
    await page.click(tid("open-folders"));
    await page.click(tid("choose-folder"));
    await until(async () => (await page.inputValue(tid("mount-name"))) === "site", "the suggested name");
    await page.fill(tid("mount-name"), "My Site");
    await page.click(tid("add-mount"));
    await page.locator(tid("mount-error")).waitFor();
    assert.equal(
      await page.textContent(tid("mount-error")),
      "the mount name `My Site` is not allowed: it contains 'M'; use a-z, 0-9, `-` and `_`",
    );
    assert.equal(await page.inputValue(tid("mount-name")), "My Site");
    assert.equal(await page.textContent(tid("chosen-folder")), "/home/me/site");

    await page.fill(tid("mount-name"), "site");
    await page.click(tid("add-mount"));
    await page.locator(tid("mount-notice")).waitFor();
    assert.equal(await page.locator(tid("mount-error")).count(), 0);

    // A folder that is not there: the sentence, and the workspace choice is kept.
    await page.click(tid("choose-folder"));
    await until(async () => (await page.textContent(tid("chosen-folder"))) === "/home/me/gone", "the second pick");
    await page.check(tid("mount-as-workspace"));
    assert.equal(await page.textContent(tid("mount-preview")), "/mnt/user-data/workspace");
    await page.click(tid("add-mount"));
    await page.locator(tid("mount-error")).waitFor();
    assert.equal(await page.textContent(tid("mount-error")), "`/home/me/gone` cannot be mounted: it does not exist");
    assert.equal(await page.isChecked(tid("mount-as-workspace")), true);
    await page.screenshot({ path: join(ARTIFACTS, "folders-error.png") });
  });

  test("a folder becomes the workspace, and a mount is removed", async () => {
    const { page } = await app({
      hostFolders: ["/home/me/site", "/home/me/docs"],
      pickFolder: ["/home/me/site"],
      mounts: { t1: [{ name: "docs", host: "/home/me/docs", read_only: true }] },
    });
    await page.click(tid("open-folders"));
    await until(async () => (await listedFolders(page)).length === 4, "the saved mount");
    await page.click(tid("choose-folder"));
    await until(async () => (await page.textContent(tid("chosen-folder"))) === "/home/me/site", "the pick");
    await page.check(tid("mount-as-workspace"));
    await page.click(tid("add-mount"));
    await page.locator(tid("mount-notice")).waitFor();
    await until(
      async () => (await page.locator(`${tid("folder-item")}[data-path="/mnt/user-data/workspace"] .folder-host`).textContent()) === "/home/me/site",
      "the workspace on the user's folder",
    );
    assert.equal(await page.locator(`${tid("folder-item")}[data-path="/mnt/user-data/workspace"] .folder-role`).textContent(), "Workspace (your folder)");

    await page.click(`${tid("folder-item")}[data-path="/mnt/user-data/mounts/docs"] ${tid("remove-mount")}`);
    await until(async () => (await listedFolders(page)).length === 3, "the mount gone");
    const last = (await calls(page, "set_thread_mounts")).at(-1);
    assert.deepEqual(last.args.mounts, [{ name: null, host: "/home/me/site", read_only: false }]);
  });

  test("a failure to open the folder is shown as the backend's sentence", async () => {
    const why = "could not open the folder /data/threads/t1 (xdg-open: No such file or directory (os error 2)); open it from your file manager";
    const { page } = await app({ errors: { open_thread_folder: why } });
    await page.click(tid("open-folders"));
    await page.click(tid("open-thread-folder"));
    await page.locator(tid("folders-error")).waitFor();
    assert.equal(await page.textContent(tid("folders-error")), why);
  });
});

describe("uploads", () => {
  const files = { "/home/me/report.pdf": 2048, "/home/me/data.csv": 100, "/home/me/huge.iso": 900 * 1024 * 1024 };

  test("files dropped on the window upload, show their names, and their paths go into the message", async () => {
    const { page, errors } = await app({ hostFiles: files, uploadDelayMs: 300 });
    await page.fill(tid("composer-input"), "Summarise these");
    await until(() => page.evaluate(() => window.__mock.drag("enter", ["/home/me/report.pdf"]) > 0), "the drop listener");
    await page.locator(tid("drop-overlay")).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "upload-drop.png") });
    await page.evaluate(() => window.__mock.drag("drop", ["/home/me/report.pdf", "/home/me/data.csv"]));
    await page.locator(tid("drop-overlay")).waitFor({ state: "detached" });
    await page.locator(tid("upload-busy")).waitFor();
    assert.equal((await page.textContent(tid("upload-busy"))).trim(), "Uploading 2 files…");
    await page.locator(tid("upload-result")).waitFor();
    assert.deepEqual(await page.locator(tid("upload-chip")).allTextContents(), ["report.pdf", "data.csv"]);
    assert.equal(
      await page.inputValue(tid("composer-input")),
      "Summarise these\n/mnt/user-data/uploads/report.pdf\n/mnt/user-data/uploads/data.csv\n",
    );
    assert.deepEqual((await calls(page, "upload_files"))[0].args, { threadId: "t1", paths: ["/home/me/report.pdf", "/home/me/data.csv"] });
    await page.screenshot({ path: join(ARTIFACTS, "upload-result.png") });

    // The same name again gets a suffix, as the backend names it.
    await page.evaluate(() => window.__mock.drag("drop", ["/home/me/report.pdf"]));
    await until(async () => (await page.inputValue(tid("composer-input"))).includes("report (1).pdf"), "the renamed upload");

    // Sending carries the paths to the model.
    await page.click(tid("send-button"));
    const sent = await until(async () => (await calls(page, "start_run"))[0], "the run");
    assert.match(sent.args.content, /\/mnt\/user-data\/uploads\/report\.pdf\n\/mnt\/user-data\/uploads\/data\.csv/);
    assert.deepEqual(errors, []);
  });

  test("a refused upload shows the backend's sentence and puts nothing in the message", async () => {
    const { page } = await app({ hostFiles: files });
    await page.fill(tid("composer-input"), "keep me");
    await until(() => page.evaluate(() => window.__mock.drag("drop", ["/home/me/report.pdf", "/home/me/huge.iso"]) > 0), "the drop listener");
    await page.locator(tid("upload-error")).waitFor();
    assert.equal(await page.textContent(`${tid("upload-error")} span`), "cannot upload /home/me/huge.iso: it is 900 MiB, more than the 512 MiB limit");
    assert.equal(await page.inputValue(tid("composer-input")), "keep me");
    await page.click(`${tid("upload-error")} button`);
    await page.locator(tid("upload-error")).waitFor({ state: "detached" });
  });

  test("the attach button uploads what the file picker chose; a cancelled picker uploads nothing", async () => {
    const { page } = await app({ hostFiles: files, pickFiles: [null, ["/home/me/data.csv"]] });
    await page.click(tid("attach-files"));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await calls(page, "upload_files")).length, 0);
    await page.click(tid("attach-files"));
    await page.locator(tid("upload-result")).waitFor();
    assert.equal(await page.inputValue(tid("composer-input")), "/mnt/user-data/uploads/data.csv\n");
    const picked = (await calls(page, "plugin:dialog|open")).map((c) => [c.args.options.directory, c.args.options.multiple]);
    assert.deepEqual(picked, [
      [false, true],
      [false, true],
    ]);
  });

  test("files dragged while Settings covers the chat are not taken", async () => {
    const { page } = await app({ hostFiles: files });
    await page.click(tid("open-settings"));
    await until(() => page.evaluate(() => window.__mock.drag("enter", ["/home/me/report.pdf"]) > 0), "the drop listener");
    await page.evaluate(() => window.__mock.drag("drop", ["/home/me/report.pdf"]));
    await new Promise((r) => setTimeout(r, 250));
    assert.equal(await page.locator(tid("drop-overlay")).count(), 0);
    assert.equal((await calls(page, "upload_files")).length, 0);
  });
});

describe("Settings -> Permissions", () => {
  const toolReport = {
    tools: [
      { name: "bash", original_name: null, source: { kind: "sandbox" }, group: "bash", visibility: "visible", gate: null, reason: "visible" },
      { name: "job_output", original_name: null, source: { kind: "sandbox" }, group: "bash", visibility: "visible", gate: null, reason: "visible" },
      { name: "read_file", original_name: null, source: { kind: "sandbox" }, group: "file", visibility: "visible", gate: null, reason: "visible" },
      { name: "write_file", original_name: null, source: { kind: "sandbox" }, group: "file", visibility: "visible", gate: null, reason: "visible" },
    ],
    catalog_hash: null,
    aliases: [],
  };

  async function openPermissions(sandbox = {}) {
    const r = await app(sandbox, { toolReport });
    await r.page.click(tid("open-settings"));
    await r.page.click(tid("settings-tab-permissions"));
    await r.page.locator(tid("permissions-settings")).waitFor();
    return r;
  }
  const groupSelect = (g) => `${tid("perm-group")}[data-group="${g}"] ${tid("perm-group-select")}`;
  const toolRow = (t) => `${tid("perm-tool")}[data-tool="${t}"]`;

  test("sets a group and a tool rule, each saved at once, and the effective permission follows", async () => {
    const { page, errors } = await openPermissions({ policy: { tools: {}, groups: { mcp: "ask" } } });
    const groups = await page.locator(tid("perm-group")).evaluateAll((els) => els.map((e) => e.getAttribute("data-group")));
    assert.deepEqual(groups, ["bash", "web", "network", "file", "mcp"]);
    assert.equal(await page.locator(`${groupSelect("bash")} option:checked`).textContent(), "Default (ask)");
    assert.equal(await page.inputValue(groupSelect("mcp")), "ask");

    await page.selectOption(groupSelect("file"), "ask");
    await page.locator(tid("permissions-notice")).waitFor();
    await until(async () => (await calls(page, "set_approval_policy")).length === 1, "the group saved");
    assert.deepEqual((await calls(page, "set_approval_policy"))[0].args.policy, { tools: {}, groups: { mcp: "ask", file: "ask" } });

    await page.click(`${tid("perm-group")}[data-group="file"] summary`);
    assert.equal(await page.textContent(`${toolRow("read_file")} ${tid("perm-effective")}`), "ask");
    await page.selectOption(`${toolRow("read_file")} ${tid("perm-tool-select")}`, "allow");
    await until(async () => (await page.textContent(`${toolRow("read_file")} ${tid("perm-effective")}`)) === "always allow", "the tool rule applied");
    await until(async () => (await calls(page, "set_approval_policy")).length === 2, "the tool saved");
    assert.deepEqual(await page.evaluate(() => window.__mock.sandbox.policy), { tools: { read_file: "allow" }, groups: { mcp: "ask", file: "ask" } });

    // Back to the group's setting removes the tool rule.
    await page.selectOption(`${toolRow("read_file")} ${tid("perm-tool-select")}`, "");
    await until(async () => Object.keys(await page.evaluate(() => window.__mock.sandbox.policy.tools)).length === 0, "the rule removed");
    await page.click(`${tid("perm-group")}[data-group="bash"] summary`);
    assert.equal(await page.textContent(`${toolRow("job_output")} ${tid("perm-effective")}`), "always allow");
    await page.screenshot({ path: join(ARTIFACTS, "permissions.png"), fullPage: true });
    assert.deepEqual(errors, []);
  });

  test("the shell's network switch saves; where there is no confinement the unconfined switch shows", async () => {
    const { page } = await openPermissions({ shell: { allow_network: false, allow_unconfined: false, confinement: null } });
    assert.match(await page.textContent(tid("shell-confinement")), /no OS confinement/);
    await page.check(tid("shell-network"));
    await until(async () => (await calls(page, "set_shell_settings")).length === 1, "the switch saved");
    assert.deepEqual((await calls(page, "set_shell_settings"))[0].args.settings, { allow_network: true, allow_unconfined: false });
    await page.check(tid("shell-unconfined"));
    await until(async () => (await page.evaluate(() => window.__mock.sandbox.shell.allow_unconfined)) === true, "unconfined saved");
  });

  test("with confinement the unconfined switch is not offered", async () => {
    const { page } = await openPermissions();
    assert.match(await page.textContent(tid("shell-confinement")), /confined \(landlock\+seccomp-net\)/);
    assert.equal(await page.locator(tid("shell-unconfined")).count(), 0);
  });

  test("a refused change is undone on screen and the backend's sentence shown", async () => {
    const { page } = await openPermissions({ errors: { set_approval_policy: "database is locked", set_shell_settings: "the settings could not be saved: disk full" } });
    await page.selectOption(groupSelect("bash"), "never");
    await page.locator(tid("permissions-error")).waitFor();
    assert.equal(await page.textContent(tid("permissions-error")), "database is locked");
    assert.equal(await page.inputValue(groupSelect("bash")), "");
    // (click, not check: the switch goes back when the save is refused)
    await page.click(tid("shell-network"));
    await until(async () => (await page.textContent(tid("permissions-error"))) === "the settings could not be saved: disk full", "the shell error");
    assert.equal(await page.isChecked(tid("shell-network")), false);
  });
});
