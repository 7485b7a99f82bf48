import t from 'tap';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { TestServer } from '../helpers/server.js';
import { startSmtp } from '../helpers/smtp.js';
import { requireTools } from '../helpers/system-tools.js';
import { waitFor } from '../helpers/wait.js';

// The dashboard's channel form for e-mail, in a real Chromium against a real server and SMTP server.

if (requireTools(t, 'chromium'))
  t.test('an e-mail channel added and tested from the dashboard', async (t) => {
    const smtp = await startSmtp(t);
    const api = await TestServer.start(t, 'sqlite', { smtpUrl: smtp.url, smtpFrom: 'alerts@example.com' });
    const origin = api.url.replace(/\/api\/v1$/, '');
    const account = await api.account();
    const page = await openPage(t, await launchBrowser(t), {});
    await page.goto(`${origin}/channels`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    const form = page.getByRole('form', { name: 'New channel' });
    await form.getByLabel('Type').selectOption('email');
    await form.getByLabel('Name').fill('ops mail');
    await form.getByLabel(/Recipients/).fill('ops@example.com, oncall@example.com');
    await form.getByRole('button', { name: 'Add channel' }).click();
    await page.locator('code.url', { hasText: 'mailto:ops@example.com,oncall@example.com' }).waitFor();
    t.pass('listed with its recipients');

    await page.getByRole('button', { name: 'Test ops mail' }).click();
    await page.getByText(/Test message delivered \(sent, \d+ ms\)\./).waitFor();
    const mail = await waitFor(() => smtp.received[0]);
    t.same(mail.to.sort(), ['oncall@example.com', 'ops@example.com']);
    t.equal(mail.subject, '[pingmon] test message');

    // As the list shows them: mailto: and the addresses.
    await form.getByLabel('Type').selectOption('email');
    await form.getByLabel('Name').fill('night mail');
    await form.getByLabel(/Recipients/).fill(' MAILTO:night@example.com,ops@example.com');
    await form.getByRole('button', { name: 'Add channel' }).click();
    await page.locator('code.url', { hasText: 'mailto:night@example.com,ops@example.com' }).waitFor();
    t.pass('recipients typed as a mailto: URL are taken as they are');

    await form.getByLabel('Type').selectOption('email');
    await form.getByLabel(/Recipients/).fill('not an address');
    await form.getByRole('button', { name: 'Add channel' }).click();
    await page.getByText('"not an address" in "url" is not an e-mail address.').waitFor();
    t.pass('a wrong address is refused, saying which');
  });
