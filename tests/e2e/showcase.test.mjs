// The conversation's special moments in the real window, in one scripted run: the model writes
// a markdown report into outputs and presents it (the artifacts panel opens and renders it),
// asks a clarification (the test clicks an option and the run resumes), then starts two
// subagents (two live cards that go from running to done) and finishes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startScriptedModel, startDriver, openApp, freshDataDir, artifactPath, tid,
} from './harness.mjs';

let model;
let driver;
const dataDir = freshDataDir();

before(async () => {
  model = await startScriptedModel();
  driver = await startDriver(dataDir);
});

after(() => {
  driver?.stop();
  model?.stop();
});

async function cardStates(browser) {
  const out = [];
  for (const c of await browser.$$(tid('subagent-card'))) out.push(await c.getAttribute('data-state'));
  return out;
}

test('a run presents a report, asks a question, and runs two subagents', async () => {
  const browser = await openApp(driver.port);
  try {
    await (await browser.$(tid('provider-setup'))).waitForDisplayed({ timeout: 30000 });
    await (await browser.$(tid('provider-kind'))).selectByAttribute('value', 'openai');
    await (await browser.$(tid('provider-base-url'))).setValue(model.baseUrl);
    await (await browser.$(tid('provider-model'))).setValue('showcase');
    await (await browser.$(tid('provider-save'))).click();

    const newThread = await browser.$(tid('new-thread'));
    await newThread.waitForDisplayed({ timeout: 15000 });
    await newThread.click();
    const composer = await browser.$(tid('composer-input'));
    await composer.waitForDisplayed({ timeout: 10000 });
    await composer.setValue('Write the quarterly report');
    await (await browser.$(tid('send-button'))).click();

    // present_files opens the panel on the report, rendered as markdown (a heading and a table).
    const preview = await browser.$(`${tid('artifact-preview')}[data-kind="markdown"]`);
    await preview.waitForDisplayed({ timeout: 30000, timeoutMsg: 'the presented report was not previewed' });
    await browser.waitUntil(async () => (await preview.$('h1')).isExisting(), { timeout: 10000, timeoutMsg: 'no rendered heading' });
    assert.equal(await (await preview.$('h1')).getText(), 'Quarterly report');
    const cells = [];
    for (const td of await preview.$$('td')) cells.push(await td.getText());
    assert.deepEqual(cells, ['North', '120', 'South', '95']);
    const items = [];
    for (const i of await browser.$$(tid('artifact-item'))) items.push(await i.getAttribute('data-path'));
    assert.ok(items.includes('/mnt/user-data/outputs/report.md'), `report.md listed: ${items.join(' | ')}`);

    // The question waits for the user; clicking an option resumes the thread.
    const question = await browser.$(tid('clarification-prompt'));
    await question.waitForDisplayed({ timeout: 20000, timeoutMsg: 'no clarification card' });
    assert.equal(await question.getAttribute('data-type'), 'approach_choice');
    assert.match(await (await browser.$(tid('clarification-question'))).getText(), /Which format should the report use\?/);
    const options = await browser.$$(tid('clarification-option'));
    const labels = [];
    for (const o of options) labels.push(await o.getText());
    assert.deepEqual(labels.map((l) => l.trim()), ['Markdown', 'CSV']);
    await browser.saveScreenshot(artifactPath('e2e-showcase-question.png'));
    await options[0].click();

    // Two subagent cards appear, are seen running, and both end done.
    let sawRunning = false;
    await browser.waitUntil(async () => {
      const states = await cardStates(browser);
      if (states.length === 2 && states.every((s) => s === 'running')) sawRunning = true;
      return states.length === 2 && states.every((s) => s === 'done');
    }, { timeout: 60000, interval: 100, timeoutMsg: 'the two subagent cards did not both finish' });
    assert.ok(sawRunning, 'both cards were seen running before they finished');
    for (const c of await browser.$$(tid('subagent-card'))) {
      assert.match(await (await c.$(tid('subagent-result'))).getText(), /Subagent report: the task is done\./);
    }
    assert.equal(await (await browser.$(tid('clarification-prompt'))).isExisting(), false, 'the question is answered');

    await browser.waitUntil(async () => {
      const msgs = await browser.$$(`${tid('message')}[data-role="assistant"]`);
      const last = msgs[msgs.length - 1];
      return last !== undefined && (await last.getAttribute('data-status')) === 'complete'
        && /Done/.test(await last.getText());
    }, { timeout: 30000, timeoutMsg: 'the run did not finish after the subagents' });
    await browser.saveScreenshot(artifactPath('e2e-showcase-done.png'));
  } finally {
    await browser.deleteSession();
  }
});
