// The walking skeleton end to end, in the real window: configure the provider on the first-run
// screen (the key goes to the OS keychain), create a thread, watch a reply stream in, stop a
// slow reply mid-stream, restart the app and find everything again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  startScriptedModel, startDriver, openApp, freshDataDir, artifactPath, tid,
} from './harness.mjs';

const API_KEY = 'sk-e2e-secret-key';
const HELLO_REPLY = 'Hello! I am a scripted model. How can I help you today?';

let model;
let driver;
const dataDir = freshDataDir();

before(async () => {
  model = await startScriptedModel({ requireKey: API_KEY });
  driver = await startDriver(dataDir);
});

after(() => {
  driver?.stop();
  model?.stop();
});

async function assistantMessages(browser) {
  return browser.$$(`${tid('message')}[data-role="assistant"]`);
}

test('configure, chat with a streamed reply, stop a reply, and find it all after a restart', async () => {
  let browser = await openApp(driver.port);
  try {
    // First run: the provider setup screen.
    const setup = await browser.$(tid('provider-setup'));
    await setup.waitForDisplayed({ timeout: 30000 });
    await (await browser.$(tid('provider-kind'))).selectByAttribute('value', 'openai');
    await (await browser.$(tid('provider-base-url'))).setValue(model.baseUrl);
    await (await browser.$(tid('provider-model'))).setValue('hello');
    await (await browser.$(tid('provider-api-key'))).setValue(API_KEY);
    await (await browser.$(tid('provider-save'))).click();

    // Main view: new thread, send, watch the reply complete.
    const newThread = await browser.$(tid('new-thread'));
    await newThread.waitForDisplayed({ timeout: 15000 });
    await newThread.click();
    const composer = await browser.$(tid('composer-input'));
    await composer.waitForDisplayed({ timeout: 10000 });
    await composer.setValue('Hi there, who are you?');
    await (await browser.$(tid('send-button'))).click();

    await browser.waitUntil(async () => {
      const msgs = await assistantMessages(browser);
      if (msgs.length !== 1) return false;
      return (await msgs[0].getAttribute('data-status')) === 'complete';
    }, { timeout: 20000, timeoutMsg: 'the reply never completed' });
    const reply = await (await (await assistantMessages(browser))[0].$(tid('message-content'))).getText();
    assert.equal(reply.trim(), HELLO_REPLY);

    // The thread is named after the first message at once, then by the model after the first
    // exchange: the scripted reply, cut to six words, quotes and the final stop removed.
    let title = '';
    await browser.waitUntil(async () => {
      title = await (await browser.$(`${tid('thread-item')} ${tid('thread-title')}`)).getProperty('textContent');
      return title === 'Hello! I am a scripted model';
    }, { timeout: 20000, timeoutMsg: 'the thread did not get its title from the model' }).catch(() => {});
    assert.equal(title, 'Hello! I am a scripted model');

    // Switch to the slow model in Settings (the key stays in the keychain), then stop a reply
    // mid-stream: the text that arrived stays, marked stopped.
    await (await browser.$(tid('open-settings'))).click();
    const modelInput = await browser.$(tid('provider-model'));
    await modelInput.waitForDisplayed({ timeout: 10000 });
    await modelInput.clearValue();
    await modelInput.setValue('slow');
    await (await browser.$(tid('provider-save'))).click();
    await (await browser.$(tid('composer-input'))).waitForDisplayed({ timeout: 10000 });
    await (await browser.$(tid('composer-input'))).setValue('Tell me a long story');
    await (await browser.$(tid('send-button'))).click();
    let partial = '';
    await browser.waitUntil(async () => {
      const msgs = await assistantMessages(browser);
      if (msgs.length !== 2) return false;
      partial = await (await msgs[1].$(tid('message-content'))).getProperty('textContent');
      return partial.length > 10;
    }, { timeout: 20000, timeoutMsg: 'the slow reply never started streaming' });
    await (await browser.$(tid('stop-button'))).click();
    await browser.waitUntil(async () => {
      const msgs = await assistantMessages(browser);
      return (await msgs[1].getAttribute('data-status')) === 'cancelled';
    }, { timeout: 10000, timeoutMsg: 'stopping did not mark the reply cancelled' });
    const stopped = await (await (await assistantMessages(browser))[1].$(tid('message-content'))).getProperty('textContent');
    assert.ok(stopped.startsWith(partial.trim().slice(0, 10)), `kept text: ${stopped}`);
    assert.ok(stopped.length < 400, 'the slow reply was stopped before its end');
    await (await browser.$(tid('send-button'))).waitForDisplayed({ timeout: 5000 });

    await browser.saveScreenshot(artifactPath('e2e-streamed-reply.png'));
    try {
      execFileSync('import', ['-display', process.env.DISPLAY, '-window', 'root', artifactPath('e2e-window.png')]);
    } catch { /* a screenshot is a courtesy, not a test */ }
  } finally {
    await browser.deleteSession();
  }

  // Restart: a new app process on the same data folder shows the thread and its reply.
  browser = await openApp(driver.port);
  try {
    const item = await browser.$(tid('thread-item'));
    await item.waitForDisplayed({ timeout: 30000 });
    await item.click();
    await browser.waitUntil(async () => (await assistantMessages(browser)).length === 2,
      { timeout: 10000, timeoutMsg: 'the stopped reply did not show after restart' });
    const msgs = await assistantMessages(browser);
    assert.equal((await (await msgs[0].$(tid('message-content'))).getText()).trim(), HELLO_REPLY);
    assert.equal(await msgs[0].getAttribute('data-status'), 'complete');
    assert.equal(await msgs[1].getAttribute('data-status'), 'cancelled');
    const users = await browser.$$(`${tid('message')}[data-role="user"]`);
    assert.equal(users.length, 2);
  } finally {
    await browser.deleteSession();
  }
});
