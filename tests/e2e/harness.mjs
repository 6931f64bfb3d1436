// Starts the real pieces an end-to-end test needs: the scripted model server, tauri-driver
// (which starts WebKitWebDriver, which starts the real app binary), and a WebDriver session.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remote } from 'webdriverio';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const APP_BIN = process.env.WORKBENCH_APP_BIN ?? join(ROOT, 'target/debug/workbench-desktop');
export const SCRIPTED_BIN = process.env.WORKBENCH_SCRIPTED_BIN ?? join(ROOT, 'target/debug/scripted-model');
export const FIXTURES = join(ROOT, 'tests/fixtures/model');
export const ARTIFACTS = join(ROOT, 'tests/artifacts');

/** A port nobody listens on right now. */
export async function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

/** Waits for a line matching `re` on a child's stdout; rejects on exit or timeout. */
function waitForLine(child, re, what, timeoutMs = 20000) {
  return new Promise((ok, fail) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`${what}: no "${re}" within ${timeoutMs} ms; output: ${seen}`)), timeoutMs);
    const onData = (chunk) => {
      seen += chunk.toString();
      const m = seen.match(re);
      if (m) { clearTimeout(timer); child.stdout.off('data', onData); ok(m); }
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); fail(new Error(`${what} exited with ${code}; output: ${seen}`)); });
  });
}

/** Starts the scripted model server; returns its base URL and a stop function. */
export async function startScriptedModel({ requireKey } = {}) {
  if (!existsSync(SCRIPTED_BIN)) throw new Error(`${SCRIPTED_BIN} is missing: run 'make build' first`);
  const args = ['--fixtures', FIXTURES, '--port', '0'];
  if (requireKey) args.push('--require-key', requireKey);
  const child = spawn(SCRIPTED_BIN, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const m = await waitForLine(child, /listening on (\S+)/, 'scripted-model');
  return { baseUrl: m[1], stop: () => child.kill('SIGTERM') };
}

/** Starts tauri-driver on free ports, with the app's data folder in its environment. */
export async function startDriver(dataDir) {
  const port = await freePort();
  const nativePort = await freePort();
  const child = spawn('tauri-driver', ['--port', String(port), '--native-port', String(nativePort)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WORKBENCH_DATA_DIR: dataDir, WORKBENCH_LOG: 'info' },
  });
  child.stderr.on('data', (d) => process.stderr.write(`[tauri-driver] ${d}`));
  // tauri-driver prints nothing when ready; poll its status endpoint.
  const deadline = Date.now() + 20000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/status`);
      if (res.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) throw new Error('tauri-driver did not start within 20 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { port, stop: () => child.kill('SIGTERM') };
}

/** Opens the real app window in a WebDriver session. */
export async function openApp(driverPort) {
  return remote({
    hostname: '127.0.0.1',
    port: driverPort,
    logLevel: 'warn',
    connectionRetryCount: 1,
    capabilities: {
      browserName: 'wry',
      'wdio:enforceWebDriverClassic': true,
      'tauri:options': { application: APP_BIN },
    },
  });
}

/** A fresh data folder for one test. */
export function freshDataDir() {
  return mkdtempSync(join(tmpdir(), 'workbench-e2e-'));
}

export function artifactPath(name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}

/** `[data-testid=...]` selector. */
export const tid = (id) => `[data-testid="${id}"]`;
