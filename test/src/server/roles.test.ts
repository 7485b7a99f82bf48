import type { RequestRoute, Server } from '@hapi/hapi';
import t from 'tap';
import type { KeyScope, Role } from '@pingmon/sdk';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import { makeTeam } from '../helpers/team.js';

type Level = 'read' | 'write' | 'admin' | 'self' | 'ping';

// docs/api.md#roles, as a table: who reaches each access level.
const ROLE_REACHES: Record<Role, Level[]> = {
  owner: ['read', 'write', 'admin', 'self'],
  admin: ['read', 'write', 'admin', 'self'],
  member: ['read', 'write', 'self'],
  viewer: ['read', 'self'],
};
const KEY_REACHES: Record<KeyScope, Level[]> = { ping: ['ping'], read: ['read'], write: ['read', 'write'] };

/** The strategies of a route's auth, the server's default included; none for a route without auth. */
function strategiesOf(server: Server, route: RequestRoute): string[] {
  const configured = route.settings.auth as { strategies?: string[] } | false | undefined;
  if (configured === false) return [];
  return (configured ?? server.auth.settings.default)?.strategies ?? [];
}

/** The access level a route declares; the ping routes' is their strategy's. */
function levelOf(server: Server, route: RequestRoute): Level | undefined {
  if (strategiesOf(server, route).includes('api-key')) return 'ping';
  return (route.settings.plugins as { access?: Level } | undefined)?.access;
}

/** The route's path with made-up ids: a request every caller may make without changing anything real. */
function pathOf(route: RequestRoute): string {
  return route.path.replace(/^\/api\/v1/, '').replace(/\{(\w+)\*?\??\}/g, (_, name: string) => `nothing_${name}`);
}

for (const kind of DATABASE_KINDS) {
  t.test(`every route checks the caller's role or key scope on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind, { apiKeyCacheMs: 0 });
    const team = await makeTeam(api);
    const routes = api.server
      .table()
      .filter((route) => route.path.startsWith('/api/v1/') && strategiesOf(api.server, route).length > 0);

    t.test('every route a user or a key reaches declares its access level', async (t) => {
      t.ok(routes.length > 30, `${routes.length} authenticated routes`);
      const undeclared = routes.filter((route) => levelOf(api.server, route) === undefined);
      t.same(
        undeclared.map((route) => `${route.method.toUpperCase()} ${route.path}`),
        [],
        'each declares options.plugins.access',
      );
    });

    const callers = [
      ...(Object.keys(ROLE_REACHES) as Role[]).map((role) => ({
        name: `a ${role}`,
        headers: { authorization: `Bearer ${team.users[role].token}` },
        reaches: ROLE_REACHES[role],
        refusal: { status: 403, code: 'forbidden_role' },
      })),
      ...(Object.keys(KEY_REACHES) as KeyScope[]).map((scope) => ({
        name: `a ${scope} key`,
        headers: { authorization: `Bearer ${team.keys[scope]}` },
        reaches: KEY_REACHES[scope],
        refusal: scope === 'ping' ? { status: 401, code: 'user_token_required' } : { status: 403, code: 'key_scope' },
      })),
    ];

    t.test('each caller is refused exactly where the access level says', async (t) => {
      for (const route of routes) {
        const level = levelOf(api.server, route)!;
        const method = route.method.toUpperCase();
        const action = `${method} ${route.path}`;
        for (const caller of callers) {
          const body = method === 'GET' || method === 'DELETE' ? undefined : {};
          const reply = await api.request(pathOf(route), { method, headers: caller.headers, body });
          const allowed = caller.reaches.includes(level);
          // A user token on a ping route is no API key at all.
          const expected =
            level === 'ping' && caller.name.endsWith('key')
              ? { status: 403, code: 'key_scope' }
              : level === 'ping'
                ? { status: 401, code: 'invalid_api_key' }
                : caller.refusal;
          const refused = reply.status === expected.status && reply.body.code === expected.code;
          if (allowed)
            t.notOk(
              refused,
              `${caller.name} reaches ${action} (${level}): ${reply.status} ${reply.text.slice(0, 160)}`,
            );
          else
            t.ok(
              refused,
              `${caller.name} is refused ${action} (${level}): ${reply.status} ${reply.text.slice(0, 160)}`,
            );
          if (!allowed && reply.status === 403) t.match(reply.body.message, /(role|key|scope)/);
        }
      }
    });
  });
}
