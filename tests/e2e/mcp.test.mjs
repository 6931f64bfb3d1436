// MCP in the real window: the user adds the real server-everything through the MCP manager's
// form (stdio, with an env value marked secret), sees it connected with its tools, and a
// scripted model run finds its `echo` tool through tool_search (MCP tools are deferred by
// default), calls it and the result shows in the conversation. The secret is then looked for in
// every file of the data folder (config, SQLite store, logs): it must be in none of them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  startScriptedModel, startDriver, openApp, freshDataDir, artifactPath, tid,
} from './harness.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EVERYTHING = join(ROOT, 'tests/mcp-servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const SECRET = 'sk-e2e-mcp-SECRET-4b1d9e';

let model;
let driver;
const dataDir = freshDataDir();

before(async () => {
  assert.ok(existsSync(EVERYTHING), `${EVERYTHING} is missing: run 'make setup'`);
  model = await startScriptedModel();
  driver = await startDriver(dataDir);
});

after(() => {
  driver?.stop();
  model?.stop();
});

/** Every regular file under `dir`. */
function filesUnder(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    if (s.isDirectory()) out.push(...filesUnder(p));
    else if (s.isFile()) out.push(p);
  }
  return out;
}

test('a server added through the form connects, and a scripted run calls its tool through tool_search', async () => {
  const browser = await openApp(driver.port);
  try {
    await (await browser.$(tid('provider-setup'))).waitForDisplayed({ timeout: 30000 });
    await (await browser.$(tid('provider-kind'))).selectByAttribute('value', 'openai');
    await (await browser.$(tid('provider-base-url'))).setValue(model.baseUrl);
    await (await browser.$(tid('provider-model'))).setValue('mcp-echo');
    await (await browser.$(tid('provider-save'))).click();

    // The MCP manager, opened from the sidebar, starts empty.
    const open = await browser.$(tid('open-mcp'));
    await open.waitForDisplayed({ timeout: 15000 });
    await open.click();
    await (await browser.$(tid('mcp-manager'))).waitForDisplayed({ timeout: 10000 });
    await (await browser.$(tid('mcp-add'))).click();
    await (await browser.$(tid('mcp-name'))).setValue('everything');
    await (await browser.$(tid('mcp-command'))).setValue('node');
    // One argument (server-everything speaks stdio when given no transport name).
    await (await browser.$(tid('mcp-args'))).setValue(EVERYTHING);
    await (await browser.$(tid('mcp-add-env'))).click();
    await (await browser.$(tid('mcp-row-name'))).setValue('SERVICE_API_KEY');
    await (await browser.$(tid('mcp-row-value'))).setValue(SECRET);
    assert.equal(await (await browser.$(tid('mcp-row-secret'))).isSelected(), true, 'a KEY is marked secret');
    await (await browser.$(tid('mcp-save'))).click();

    const card = await browser.$(`${tid('mcp-server')}[data-name="everything"]`);
    await card.waitForDisplayed({ timeout: 10000 });
    const status = await card.$(tid('mcp-status'));
    let seen = '';
    await browser.waitUntil(async () => {
      seen = `${await status.getAttribute('data-state')}: ${await card.getText()}`;
      return seen.startsWith('connected');
    }, { timeout: 60000, interval: 500 }).catch(async () => {
      await browser.saveScreenshot(artifactPath('e2e-mcp-not-connected.png'));
      assert.fail(`server-everything did not connect; the card says ${seen}`);
    });
    assert.match(await status.getText(), /^Connected · \d+ tools/);
    const toolNames = [];
    for (const t of await card.$$(tid('mcp-tool'))) toolNames.push(await t.getAttribute('data-name'));
    assert.ok(toolNames.includes('echo'), `echo among the tools: ${toolNames.join(', ')}`);
    // The secret is shown masked, never in clear.
    assert.ok(!(await (await browser.$('body')).getText()).includes(SECRET), 'the secret is not on the page');
    await browser.saveScreenshot(artifactPath('e2e-mcp-manager.png'));
    await (await browser.$(tid('mcp-close'))).click();

    const newThread = await browser.$(tid('new-thread'));
    await newThread.waitForDisplayed({ timeout: 10000 });
    await newThread.click();
    const composer = await browser.$(tid('composer-input'));
    await composer.waitForDisplayed({ timeout: 10000 });
    await composer.setValue('Echo a greeting through the MCP server');
    await (await browser.$(tid('send-button'))).click();

    await browser.waitUntil(async () => {
      const msgs = await browser.$$(`${tid('message')}[data-role="assistant"]`);
      const last = msgs[msgs.length - 1];
      return last !== undefined && (await last.getAttribute('data-status')) === 'complete'
        && /Done/.test(await last.getText());
    }, { timeout: 60000, timeoutMsg: 'the scripted run did not finish' });

    // The folded work holds tool_search, then the server's echo with the server's answer.
    await (await browser.$(tid('processing-summary'))).click();
    await browser.waitUntil(async () => (await browser.$$(tid('tool-call'))).length >= 2,
      { timeout: 10000, timeoutMsg: 'the tool rows did not show' });
    const rows = await browser.$$(tid('tool-call'));
    let echo;
    for (const r of rows) {
      if (/echo/.test(await r.getText()) && !/tool_search/.test(await r.getText())) echo = r;
    }
    assert.ok(echo, 'a row for the echo call');
    assert.equal(await echo.getAttribute('data-state'), 'done');
    await (await echo.$('summary')).click();
    const output = await (await echo.$('.tool-call-body')).getText();
    assert.match(output, /Echo: hello from the scripted model/);
    await browser.saveScreenshot(artifactPath('e2e-mcp-run.png'));
  } finally {
    await browser.deleteSession();
  }

  // No file the app wrote (mcp.json, the SQLite store and its WAL, the logs) holds the secret.
  const files = filesUnder(dataDir);
  assert.ok(files.some((f) => f.endsWith('mcp.json')), `mcp.json written: ${files.join(', ')}`);
  for (const f of files) {
    assert.ok(!readFileSync(f).includes(SECRET), `${f} holds the secret`);
  }
});
