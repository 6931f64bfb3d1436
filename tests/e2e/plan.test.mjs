// The agent's plan in the real window: a scripted model writes a three-item plan with
// write_todos, ticks the items, is reminded once when it tries to finish early, finishes; the
// panel above the composer shows every item ticked, and after a restart the thread opens with
// the same plan.
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

async function statuses(browser) {
  const items = await browser.$$(tid('todo-item'));
  const out = [];
  for (const i of items) out.push(await i.getAttribute('data-status'));
  return out;
}

test('a scripted plan is written, ticked and finished, and restored after a restart', async () => {
  let browser = await openApp(driver.port);
  try {
    const setup = await browser.$(tid('provider-setup'));
    await setup.waitForDisplayed({ timeout: 30000 });
    await (await browser.$(tid('provider-kind'))).selectByAttribute('value', 'openai');
    await (await browser.$(tid('provider-base-url'))).setValue(model.baseUrl);
    await (await browser.$(tid('provider-model'))).setValue('todos');
    await (await browser.$(tid('provider-save'))).click();

    const newThread = await browser.$(tid('new-thread'));
    await newThread.waitForDisplayed({ timeout: 15000 });
    await newThread.click();
    const composer = await browser.$(tid('composer-input'));
    await composer.waitForDisplayed({ timeout: 10000 });
    await composer.setValue('Fix the parser bug');
    await (await browser.$(tid('send-button'))).click();

    // The run ends with the final answer; by then the panel shows every item ticked.
    await browser.waitUntil(async () => {
      const msgs = await browser.$$(`${tid('message')}[data-role="assistant"]`);
      const last = msgs[msgs.length - 1];
      if (!last || (await last.getAttribute('data-status')) !== 'complete') return false;
      return /All three steps are done/.test(await (await last.$(tid('message-content'))).getText());
    }, { timeout: 30000, timeoutMsg: 'the scripted run never finished' });
    await browser.waitUntil(async () => (await (await browser.$(tid('todo-heading'))).getText()) === 'Plan · all 3 done',
      { timeout: 10000, timeoutMsg: 'the plan panel did not show all items done' });
    assert.deepEqual(await statuses(browser), ['done', 'done', 'done']);
    const items = await browser.$$(tid('todo-item'));
    assert.match(await items[1].getText(), /Fix the parser/);
    // The early answer and the final one are both shown; the hidden reminder is not.
    const texts = [];
    for (const m of await browser.$$(tid('message-content'))) texts.push(await m.getText());
    assert.ok(texts.some((t) => t.includes('The parser is fixed.')), texts.join(' | '));
    assert.ok(!texts.some((t) => t.includes('[reminder')), 'the reminder is never shown');
    await browser.saveScreenshot(artifactPath('e2e-plan-panel.png'));
  } finally {
    await browser.deleteSession();
  }

  browser = await openApp(driver.port);
  try {
    const item = await browser.$(tid('thread-item'));
    await item.waitForDisplayed({ timeout: 30000 });
    await (await item.$('button')).click();
    await browser.waitUntil(async () => (await browser.$$(tid('todo-item'))).length === 3,
      { timeout: 10000, timeoutMsg: 'the plan was not restored after the restart' });
    assert.deepEqual(await statuses(browser), ['done', 'done', 'done']);
    assert.equal(await (await browser.$(tid('todo-heading'))).getText(), 'Plan · all 3 done');
  } finally {
    await browser.deleteSession();
  }
});
