import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { RequestListener } from 'node:http';
import type { OidcSettings } from '@pingmon/server';
import { listenLocally } from './receiver.js';

/** A person known to the provider, by their login name (what is typed into the provider's login form). */
export interface ProviderUser {
  email: string;
  /** Default true. */
  emailVerified?: boolean;
  groups?: string[];
  name?: string;
}

export interface IdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** What this file uses of oidc-provider, which publishes no types. */
interface ProviderModule {
  Provider: new (issuer: string, configuration: object) => { callback(): RequestListener };
  errors: { AccessDenied: new (description: string) => Error };
  interactionPolicy: {
    base(): Array<{ name: string; checks: { add(check: object): void } }>;
    Check: new (reason: string, description: string, check: (ctx: PolicyContext) => boolean) => object;
  };
}

interface PolicyContext {
  oidc: { session: { accountId?: string }; account?: object };
}

/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1 with one client and the library's development
 * login and consent pages: any password, and the login name picks the user. PKCE (S256) is required.
 */
export async function startIdentityProvider(
  t: { teardown(fn: () => unknown): void },
  options: { redirectUri: string; users: Record<string, ProviderUser>; publicClient?: boolean },
): Promise<IdentityProvider> {
  // The issuer is the provider's own address: listen first, then make the provider that answers there.
  let handler: RequestListener = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handler(req, res));
  const { port, close } = await listenLocally(t, server);

  const issuer = `http://127.0.0.1:${port}`;
  const clientId = `pingmon-${randomBytes(6).toString('hex')}`;
  const clientSecret = options.publicClient ? '' : randomBytes(24).toString('base64url');
  const { users } = options;

  quietDevelopmentNotices();
  // @ts-expect-error -- oidc-provider publishes no types (ProviderModule above is what is used of it).
  const { Provider, errors, interactionPolicy } = (await import('oidc-provider')) as ProviderModule;
  // The dev login page takes any name; the library then fails a name findAccount does not know with a 500
  // (a TypeError in its consent check). Refused here instead, sent back to the relying party as access_denied.
  const policy = interactionPolicy.base();
  const unknownLogin = (ctx: PolicyContext) => {
    if (ctx.oidc.session.accountId !== undefined && ctx.oidc.account === undefined) {
      throw new errors.AccessDenied(`no user "${ctx.oidc.session.accountId}" at this provider`);
    }
    return false;
  };
  policy
    .find((prompt) => prompt.name === 'login')!
    .checks.add(new interactionPolicy.Check('unknown_login', 'the login names no user', unknownLogin));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        ...(options.publicClient
          ? { token_endpoint_auth_method: 'none' }
          : { client_secret: clientSecret, token_endpoint_auth_method: 'client_secret_basic' }),
        redirect_uris: [options.redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    // Every client, confidential too, must send a S256 code challenge (the default asks it of public ones only).
    pkce: { required: () => true },
    // A scope per key; the claims of a scope other than openid are served by userinfo only.
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      groups: ['groups'],
    },
    features: { devInteractions: { enabled: true } },
    interactions: { policy },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    // An unknown login gives undefined, the library's "no such account": the sign-in does not complete.
    findAccount: (_ctx: unknown, id: string) => {
      if (!Object.hasOwn(users, id)) return undefined;
      const user = users[id];
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: user.email,
          email_verified: user.emailVerified ?? true,
          name: user.name,
          groups: user.groups ?? [],
        }),
      };
    },
  });
  handler = provider.callback();
  return { issuer, clientId, clientSecret, close };
}

/** pingmon's settings for a provider (its issuer and client): "Acme SSO", `overrides` on top of the defaults. */
export function providerSettings(
  idp: Pick<OidcSettings, 'issuer' | 'clientId' | 'clientSecret'>,
  overrides: Partial<OidcSettings> = {},
): OidcSettings {
  return {
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    name: 'Acme SSO',
    account: undefined,
    scopes: 'openid email',
    allowedDomains: [],
    groupsClaim: 'groups',
    roles: {},
    defaultRole: 'viewer',
    trustUnverifiedEmail: false,
    ...overrides,
  };
}

/**
 * What oidc-provider prints once about its quick-start defaults: dev keys, memory store, dev pages, default
 * functions (TTLs, error page) kept, and Node 20.
 */
const DEVELOPMENT_NOTICE =
  /oidc-provider (WARNING|NOTICE): (.*development-only|Unsupported runtime|default \S+ function called, you SHOULD)/;
let quieted = false;

/** Drops those notices from console.warn and console.info, and only those; console.error is untouched. */
function quietDevelopmentNotices() {
  if (quieted) return;
  quieted = true;
  for (const level of ['warn', 'info'] as const) {
    const print = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && DEVELOPMENT_NOTICE.test(args[0])) return;
      print(...args);
    };
  }
}
