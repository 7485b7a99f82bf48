import t from 'tap';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { json, startReceiver } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { waitFor } from '../helpers/wait.js';

// The dashboard's channel form, made from GET /channel-kinds: a real Chromium against one real server (SQLite),
// one page for the whole file. Channels with the vendor's URL are not tested (that would reach the vendor).

const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const ROUTING_KEY = 'R0123456789abcdef0123456789abcde';

interface Listed {
  channelId: string;
  name: string;
  type: string;
  url: string;
  hasSecret: boolean;
  options: Record<string, unknown>;
  repeatEvery: number | null;
  escalateAfter: number | null;
}

if (requireTools(t, 'chromium'))
  t.test('channels made and edited in the dashboard', async (t) => {
    const api = await TestServer.start(t, 'sqlite');
    const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
    const origin = api.url.replace(/\/api\/v1$/, '');
    const account = await api.account();
    const channels = async (): Promise<Listed[]> =>
      (await api.request('/channels', { token: account.token })).body.channels;
    const byName = async (name: string) => (await channels()).find((c) => c.name === name);
    const page = await openPage(t, await launchBrowser(t));
    const sent: Array<{ method: string; url: string; body: string | null }> = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/channels')) sent.push({ method: r.method(), url: r.url(), body: r.postData() });
    });
    await page.goto(`${origin}/channels`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const form = page.getByRole('form', { name: 'New channel' });
    const item = (name: string) => page.locator('ul.channels > li', { hasText: name });
    const add = async () => form.getByRole('button', { name: 'Add channel' }).click();

    t.test('a Telegram channel: its chat id refused by the server, then right', async (t) => {
      await form.getByLabel('Type').selectOption({ label: 'Telegram' });
      const url = form.getByLabel(/^URL/);
      t.equal(await url.getAttribute('placeholder'), 'https://api.telegram.org', "the kind's default shown");
      t.match(await form.locator('label', { hasText: /^URL/ }).innerText(), /\(optional\)/);
      t.equal(await form.getByLabel(/^Secret/).getAttribute('type'), 'password');
      const chatId = form.getByLabel(/^Chat ID/);
      t.match(await page.locator(`#${await chatId.getAttribute('id')}-hint`).innerText(), /getUpdates/);
      await form.getByLabel(/^Name/).fill('ops telegram');
      await form.getByLabel(/^Secret/).fill(BOT_TOKEN);
      await chatId.fill('the ops group');
      await add();
      const refusal = form.getByRole('alert');
      await refusal.waitFor();
      t.match(await refusal.innerText(), /^options\.chatId: the chat's numeric id/, "the server's message");
      t.equal(await chatId.getAttribute('aria-invalid'), 'true', 'on the field it names');
      t.equal(await page.evaluate('document.activeElement?.id'), await chatId.getAttribute('id'), 'focused');
      t.equal(await byName('ops telegram'), undefined, 'nothing was created');
      await chatId.fill('-1001234567890');
      t.equal(await refusal.count(), 0, 'the refusal goes once the field is changed');
      await add();
      await item('ops telegram').waitFor();
      t.match(await item('ops telegram').innerText(), /Telegram/, 'listed with its label');
      t.match(await byName('ops telegram'), {
        type: 'telegram',
        url: 'https://api.telegram.org/…',
        hasSecret: true,
        options: { chatId: '-1001234567890' },
        repeatEvery: null,
      });
      t.equal(await form.getByLabel(/^Name/).inputValue(), '', 'the form starts again empty');
    });

    t.test('a PagerDuty channel with no URL: the default', async (t) => {
      await form.getByLabel('Type').selectOption('pagerduty');
      await form.getByText('Opens an incident in PagerDuty for each of pingmon', { exact: false }).waitFor();
      t.equal(await form.getByLabel(/^URL/).getAttribute('placeholder'), 'https://events.pagerduty.com/v2/enqueue');
      await form.getByLabel(/^Name/).fill('on-call');
      await form.getByLabel(/^Secret/).fill(ROUTING_KEY);
      t.same(
        await form
          .getByLabel(/^Severity/)
          .locator('option')
          .allInnerTexts(),
        ['—', 'critical', 'error', 'warning', 'info'],
      );
      await form.getByLabel(/^Severity/).selectOption('error');
      await form.getByLabel(/^Escalate after/).fill('15m');
      await add();
      await item('on-call').waitFor();
      t.match(await item('on-call').innerText(), /PagerDuty[\s\S]*after 15m open/);
      t.match(await byName('on-call'), {
        url: 'https://events.pagerduty.com/…',
        options: { severity: 'error' },
        escalateAfter: 900,
      });
      const post = sent.filter((r) => r.method === 'POST' && r.url.endsWith('/channels')).at(-1);
      t.same(JSON.parse(post?.body ?? '{}'), {
        type: 'pagerduty',
        name: 'on-call',
        secret: ROUTING_KEY,
        options: { severity: 'error' },
        escalateAfter: 900,
      });
    });

    t.test('a templated webhook: its body and headers typed, then tested', async (t) => {
      await form.getByLabel('Type').selectOption('template');
      await form.getByLabel(/^Name/).fill('tracker');
      await form.getByLabel(/^URL/).fill(`${receiver.url}/issues`);
      const body = form.getByLabel(/^Body/);
      t.equal(await body.getAttribute('id'), await form.locator('textarea').first().getAttribute('id'), 'a text area');
      t.equal(await form.locator('textarea').count(), 2, 'the body and the headers (JSON)');
      await body.fill('{\n  "title": "{{headline}}",\n  "event": "{{event}}"\n}');
      await form.getByLabel(/^Headers/).fill('{"X-Token": "s3cret"');
      await add();
      await form.getByText(/^headers: not JSON/).waitFor();
      await form.getByLabel(/^Headers/).fill('{"X-Token": "s3cret"}');
      await form.getByLabel(/^Method/).selectOption('PUT');
      await add();
      await item('tracker').waitFor();
      await page.getByRole('button', { name: 'Test tracker' }).click();
      await item('tracker')
        .getByText(/Test message delivered/)
        .waitFor();
      const request = await waitFor(() => receiver.received.find((r) => r.url === '/issues'));
      t.equal(request.method, 'PUT');
      t.equal(request.headers['x-token'], 's3cret');
      t.match(JSON.parse(request.body), { event: 'test', title: /test/ });
    });

    t.test("an edit sends only what changed: the Telegram channel's repeats", async (t) => {
      await page.getByRole('button', { name: 'Edit ops telegram' }).click();
      const edit = page.getByRole('form', { name: 'Edit ops telegram' });
      t.equal(await edit.getByLabel('Chat ID').inputValue(), '-1001234567890', 'its options filled in');
      t.match(await edit.getByLabel(/^New secret/).getAttribute('aria-describedby'), /hint/);
      await edit.getByLabel(/^Repeat every/).fill('30m');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await edit.waitFor({ state: 'detached' });
      await item('ops telegram')
        .getByText(/repeats every 30m/)
        .waitFor();
      const patch = sent.filter((r) => r.method === 'PATCH').at(-1);
      t.same(JSON.parse(patch?.body ?? '{}'), { repeatEvery: 1800 });
      t.match(await byName('ops telegram'), {
        repeatEvery: 1800,
        hasSecret: true,
        options: { chatId: '-1001234567890' },
      });
    });

    t.test("a template's hidden header values must be typed again to change its options", async (t) => {
      await page.getByRole('button', { name: 'Edit tracker' }).click();
      const edit = page.getByRole('form', { name: 'Edit tracker' });
      await edit.getByLabel(/^Body/).fill('{"title": "{{headline}}"}');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await edit.getByText(/^headers: its values are never shown back/).waitFor();
      await edit.getByLabel(/^Headers/).fill('{"X-Token": "n3w"}');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await edit.waitFor({ state: 'detached' });
      t.match(await byName('tracker'), { options: { body: '{"title": "{{headline}}"}', headers: { 'X-Token': '…' } } });
    });

    t.test('nothing sideways at a phone width', async (t) => {
      await page.setViewportSize({ width: 375, height: 700 });
      await form.getByLabel('Type').selectOption('template');
      t.equal(await overflow(page), 0);
    });
  });

function overflow(page: Page) {
  return page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
}
