// Approvals in the real window: the scripted model asks to run a shell command, the approval
// card shows the command, the test clicks "Allow once", and the command's output shows in the
// conversation. The shell is the real confined one, so the file it writes is checked on disk.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
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

test('a shell command waits for approval, runs once allowed, and its output shows', async () => {
  const browser = await openApp(driver.port);
  try {
    await (await browser.$(tid('provider-setup'))).waitForDisplayed({ timeout: 30000 });
    await (await browser.$(tid('provider-kind'))).selectByAttribute('value', 'openai');
    await (await browser.$(tid('provider-base-url'))).setValue(model.baseUrl);
    await (await browser.$(tid('provider-model'))).setValue('shell');
    await (await browser.$(tid('provider-save'))).click();

    const newThread = await browser.$(tid('new-thread'));
    await newThread.waitForDisplayed({ timeout: 15000 });
    await newThread.click();
    const composer = await browser.$(tid('composer-input'));
    await composer.waitForDisplayed({ timeout: 10000 });
    await composer.setValue('Run a command');
    await (await browser.$(tid('send-button'))).click();

    const card = await browser.$(tid('approval-card'));
    await card.waitForDisplayed({ timeout: 20000, timeoutMsg: 'no approval card appeared' });
    assert.equal(await card.getAttribute('data-tool'), 'bash');
    const command = await (await card.$(tid('approval-command'))).getText();
    assert.equal(command.trim(), 'echo approved > ran.txt && cat ran.txt');
    // Nothing ran before the answer.
    const threadsDir = join(dataDir, 'threads');
    const ranFiles = () => (existsSync(threadsDir) ? readdirSync(threadsDir) : [])
      .map((t) => join(threadsDir, t, 'workspace', 'ran.txt'))
      .filter((p) => existsSync(p));
    assert.deepEqual(ranFiles(), []);
    await browser.saveScreenshot(artifactPath('e2e-approval-card.png'));

    await (await browser.$(tid('approval-allow-once'))).click();

    // The thread resumes: the card goes and the final answer arrives.
    await browser.waitUntil(async () => {
      if (await (await browser.$(tid('approval-card'))).isExisting()) return false;
      const msgs = await browser.$$(`${tid('message')}[data-role="assistant"]`);
      if (msgs.length === 0) return false;
      const last = msgs[msgs.length - 1];
      return (await last.getAttribute('data-status')) === 'complete'
        && /Done/.test(await last.getText());
    }, { timeout: 30000, timeoutMsg: 'the thread did not resume after the approval' });

    // The command's output is in the conversation: open the folded work, then the row.
    await (await browser.$(tid('processing-summary'))).click();
    const row = await browser.$(tid('tool-call'));
    await row.waitForExist({ timeout: 10000 });
    assert.equal(await row.getAttribute('data-state'), 'done');
    await (await row.$('summary')).click();
    const output = await (await row.$('.tool-call-body')).getText();
    assert.match(output, /approved/);
    const files = ranFiles();
    assert.equal(files.length, 1);
    assert.equal(readFileSync(files[0], 'utf8'), 'approved\n');
    await browser.saveScreenshot(artifactPath('e2e-approval-done.png'));
  } finally {
    await browser.deleteSession();
  }
});
