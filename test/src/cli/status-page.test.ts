import t from 'tap';
import { pingmon } from '../helpers/cli.js';
import { tempDir } from '../helpers/databases.js';
import { request } from '../helpers/http.js';
import { TestServer } from '../helpers/server.js';

// `pingmon status-page show` and `set` (docs/cli.md): the page's address and each public monitor's badges, as a
// real process against a real server; `set` changes what its flags give and keeps the rest.

t.test('pingmon status-page set and show', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account();
  await api.monitor(account, 'Nightly backup');
  await api.monitor(account, 'DB dump');
  const origin = api.url.replace(/\/api\/v1$/, '');
  const env = { PINGMON_URL: api.url, PINGMON_TOKEN: account.token, XDG_CONFIG_HOME: tempDir('pingmon-config-') };
  const cli = (...args: string[]) => pingmon(['status-page', ...args], env);

  const none = await cli('show');
  t.equal(none.code, 0, none.stderr);
  t.match(none.stdout, /^No status page: set one with `pingmon status-page set --slug acme/);

  const first = await cli('set', '--monitor', 'nightly-backup');
  t.equal(first.code, 2);
  t.match(first.stderr, /the page has no address yet: give one with --slug/);

  const set = await cli(
    'set',
    '--slug',
    'acme',
    '--monitor',
    'nightly-backup',
    '--monitor',
    'db-dump',
    '--title',
    'Acme',
  );
  t.equal(set.code, 0, set.stderr);
  const svg = `${origin}/badge/acme/nightly-backup.svg`;
  t.equal(
    set.stdout.split('\n').slice(0, 8).join('\n'),
    [
      `Status page: ${origin}/status/acme`,
      'Title: Acme (error messages hidden)',
      'Public monitors (2):',
      '  nightly-backup (Nightly backup)',
      `    badge:    ${svg}`,
      `    shields:  https://img.shields.io/endpoint?url=${encodeURIComponent(`${origin}/badge/acme/nightly-backup.json`)}`,
      `    markdown: [![Nightly backup](${svg})](${origin}/status/acme)`,
      '  db-dump (DB dump)',
    ].join('\n'),
  );

  const errors = await cli('set', '--show-errors', '--json');
  t.equal(errors.code, 0, errors.stderr);
  t.match(
    JSON.parse(errors.stdout),
    {
      slug: 'acme',
      title: 'Acme',
      showErrorMessages: true,
      monitors: [{ slug: 'nightly-backup' }, { slug: 'db-dump' }],
    },
    'what the flags did not give is kept',
  );

  const unknown = await cli('set', '--monitor', 'nightly-bakup');
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, /^pingmon: monitorIds: no monitor nightly-bakup in your account\./);

  const shown = await cli('show');
  t.match(shown.stdout, /Title: Acme \(error messages shown\)/);
  t.equal((await request(`${origin}/status/acme`)).status, 200, 'the page is up');

  const off = await cli('set', '--off');
  t.equal(off.code, 0, off.stderr);
  t.match(off.stdout, /^No status page/);
  t.equal((await request(`${origin}/status/acme`)).status, 404, 'the page is down');
});
