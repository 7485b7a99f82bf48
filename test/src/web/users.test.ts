import t from 'tap';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { addUser } from '../helpers/team.js';
import { waitFor } from '../helpers/wait.js';

// The users page and the invite link in the dashboard: a real Chromium against one real server (SQLite).

if (requireTools(t, 'chromium'))
  t.test('users and invites in the dashboard', async (t) => {
    const api = await TestServer.start(t, 'sqlite');
    const origin = api.url.replace(/\/api\/v1$/, '');
    const owner = await api.account();
    const browser = await launchBrowser(t);
    const signIn = async (t: Parameters<typeof openPage>[0], path: string, email: string, password: string) => {
      const page = await openPage(t, browser);
      await page.goto(`${origin}${path}`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      return page;
    };
    const roleOf = async (email: string) => {
      const users = (await api.request('/users', { token: owner.token })).body.users as Array<{
        email: string;
        role: string;
      }>;
      return users.find((u) => u.email === email)?.role;
    };

    t.test('an owner invites someone, who joins by the link as a member and is signed in', async (t) => {
      const page = await signIn(t, '/users', owner.email, owner.password);
      await page.getByRole('heading', { name: 'Users' }).waitFor();
      const form = page.getByRole('form', { name: 'Invite someone' });
      await form.getByLabel('Email').fill('ada@example.com');
      await form.getByLabel('Role').selectOption('member');
      await form.getByRole('button', { name: 'Invite' }).click();
      const link = await page.locator('.new-key .secret').innerText();
      t.match(link, new RegExp(`^${origin}/invite#`));
      await page.getByText('invited as member').waitFor();

      const guest = await openPage(t, browser);
      await guest.goto(link);
      await guest.getByText('You are invited as member').waitFor();
      await guest.getByLabel(/^Password/).fill('ada password');
      await guest.getByRole('button', { name: 'Join' }).click();
      await guest.getByRole('link', { name: 'Monitors' }).waitFor();
      t.equal(new URL(guest.url()).pathname, '/', 'the dashboard, signed in');
      t.equal(await guest.getByRole('link', { name: 'Users' }).count(), 0, 'no users page for a member');
      t.equal(await roleOf('ada@example.com'), 'member');

      const again = await openPage(t, browser);
      await again.goto(link);
      await again.getByRole('alert').filter({ hasText: 'accepted already' }).waitFor();
    });

    t.test('an owner changes a role and removes a user', async (t) => {
      const viewer = await addUser(api, owner, 'viewer');
      const page = await signIn(t, '/users', owner.email, owner.password);
      await page.getByLabel(`Role of ${viewer.email}`).selectOption('admin');
      await waitFor(async () => (await roleOf(viewer.email)) === 'admin', { what: 'the new role' });
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: `Remove ${viewer.email}` }).click();
      await waitFor(async () => (await roleOf(viewer.email)) === undefined, { what: 'the user removed' });
      t.equal((await api.request('/me', { token: viewer.token })).status, 401, 'their session ended');
    });
  });
