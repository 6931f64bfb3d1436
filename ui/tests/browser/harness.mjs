// Shared setup for browser tests: a tiny static server for dist/, Chromium via playwright-core,
// and pages with the mock backend installed before the app's scripts run.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { extname, join, normalize, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
export const uiRoot = resolve(here, "../..");
const dist = join(uiRoot, "dist");
const mockScript = join(here, "mock-backend.js");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
};

export async function serveDist() {
  if (!existsSync(join(dist, "index.html"))) throw new Error("dist/index.html missing: run `npm run build` first");
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    const file = join(dist, path === "/" ? "index.html" : path);
    if (!file.startsWith(dist)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * A fresh context and page with the mock backend configured by `config`. `options.colorScheme`
 * ("light" | "dark") sets the system theme the page sees; `options.viewport` its size.
 * Clipboard writes are recorded in `window.__copied` (the page has no real clipboard here).
 */
export async function openApp(browser, url, config = {}, options = {}) {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? "light",
  });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.addInitScript((c) => {
    window.__MOCK_CONFIG__ = c;
    window.__copied = [];
    Object.defineProperty(navigator, "clipboard", {
      configurable: true,
      value: { writeText: async (t) => void window.__copied.push(t) },
    });
  }, config);
  await page.addInitScript({ path: mockScript });
  await page.goto(url);
  return { page, context, errors };
}

/** The recorded IPC calls of a page, optionally only those of one command. */
export async function calls(page, cmd) {
  const all = await page.evaluate(() => window.__mock.calls);
  return cmd ? all.filter((c) => c.cmd === cmd) : all;
}

export const CONFIGURED = {
  settings: { kind: "openai", base_url: "http://localhost:11434/v1", model: "llama3.2" },
  has_key: false,
  keychain_error: null,
};
