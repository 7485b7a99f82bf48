import { createHash } from 'node:crypto';
import Iron from '@hapi/iron';
import Joi from 'joi';
import type { Request, ResponseToolkit, Server, ServerRoute } from '@hapi/hapi';
import { SESSION_COOKIE, sessionCookie } from '../auth.js';
import { auditSignIn } from '../audit.js';
import type { PendingSignIn } from '../identity-provider.js';
import { ProviderError } from '../identity-provider.js';
import { escapeMarkup } from '../status/markup.js';
import { signInThroughProvider } from '../use-cases/provider-sign-in.js';
import { clientOf, startSession } from './auth.js';
import type { RouteContext } from './context.js';
import { replies } from './responses.js';

// Sign-in through the OpenID Connect provider (docs/configuration.md#single-sign-on): the dashboard's button leads
// to /start, which sends the browser to the provider; the provider sends it back to /callback, which opens the
// dashboard's session. Both answer a browser, not a script: redirects, and a page of HTML when something fails.

/** The sign-in under way, sealed (encrypted and signed) in a cookie sent back only to these routes. */
const PENDING_COOKIE = 'pingmon_oidc';
const PENDING_TTL_MS = 10 * 60_000;

export function registerPendingCookie(server: Server, jwtSecret: string): void {
  server.state(PENDING_COOKIE, {
    encoding: 'iron',
    // iron wants 32 characters at least; the JWT secret may be shorter when an operator chose it.
    password: createHash('sha256').update(`oidc:${jwtSecret}`).digest('hex'),
    // The seal expires too, not only the cookie: a copy kept past 10 minutes is refused.
    iron: { ...Iron.defaults, ttl: PENDING_TTL_MS },
    isHttpOnly: true,
    // Lax: the provider's redirect back is a top-level navigation from another site, which Strict would strip.
    isSameSite: 'Lax',
    isSecure: false,
    path: '/api/v1/auth/oidc',
    ttl: PENDING_TTL_MS,
    ignoreErrors: true,
    clearInvalid: true,
  });
}

/** A page of the dashboard to land on: a path of this server, never another site's address. */
const nextPage = Joi.string()
  .max(2000)
  // No control characters either: a browser drops tabs and newlines, so "/\t/evil.example" would go to another site.
  .pattern(/^\/(?![/\\])[^\x00-\x1f\x7f]*$/)
  .default('/');

export function identityProviderRoutes(ctx: RouteContext): ServerRoute[] {
  const { provider } = ctx;
  return [
    {
      method: 'GET',
      path: '/auth/oidc/start',
      options: {
        id: 'startProviderSignIn',
        auth: false,
        description: 'Sign in through the identity provider: a redirect to it (for a browser)',
        tags: ['auth'],
        notes: 'Answers a page of HTML, not JSON, when the sign-in cannot start. `next` is where to land after it.',
        response: replies({ 302: false }),
        // Read by the handler: a wrong `next` lands on the dashboard's first page rather than failing the sign-in.
        plugins: { openapi: { query: Joi.object({ next: nextPage }) } },
      },
      handler: async (request: Request, h: ResponseToolkit) => {
        const { error, value } = nextPage.validate((request.query as { next?: unknown }).next);
        try {
          if (!provider) throw notSetUp();
          const { url, pending } = await provider.start(error ? '/' : (value as string));
          return h.redirect(url).state(PENDING_COOKIE, pending, { isSecure: ctx.viaHttps(request) });
        } catch (err) {
          return failure(h, err);
        }
      },
    },
    {
      method: 'GET',
      path: '/auth/oidc/callback',
      options: {
        id: 'finishProviderSignIn',
        auth: false,
        description: 'Where the identity provider sends the browser back: the dashboard, signed in',
        notes: 'Answers a page of HTML, not JSON, when the sign-in fails.',
        tags: ['auth'],
        response: replies({ 302: false }),
      },
      handler: async (request: Request, h: ResponseToolkit) => {
        const pending = (request.state as Record<string, unknown> | null)?.[PENDING_COOKIE] as
          PendingSignIn | undefined;
        try {
          if (!provider) throw notSetUp();
          if (!pending?.state)
            throw new ProviderError(
              403,
              'This sign-in was not started here, or took longer than 10 minutes. Start again from the sign-in page.',
            );
          const url = new URL(`${ctx.config.publicUrl}${request.path}${request.url.search}`);
          const claims = await provider.finish(url, pending);
          const now = ctx.config.clock();
          const outcome = await signInThroughProvider(ctx.db, ctx.config.oidc!, claims, now);
          if (outcome.kind === 'refused') {
            // Refusals naming a user of this server (another identity, an unverified address) are theirs to see.
            if (outcome.user) await auditSignIn(ctx, request, outcome.user, 'user.sign_in_failed');
            throw new ProviderError(outcome.refusal.status === 409 ? 409 : 403, outcome.refusal.message);
          }
          const session = await startSession(ctx, outcome.user, now, clientOf(ctx, request));
          await auditSignIn(ctx, request, outcome.user, 'user.signed_in');
          if (outcome.roleWas) {
            const change = { field: 'role', from: outcome.roleWas, to: outcome.user.role };
            await auditSignIn(ctx, request, outcome.user, 'user.role_changed', [change]);
          }
          const cookie = sessionCookie(ctx.viaHttps(request), ctx.config.tokenTtlSeconds * 1000);
          return h.redirect(pending.next).state(SESSION_COOKIE, session.token, cookie).unstate(PENDING_COOKIE);
        } catch (err) {
          return failure(h, err).unstate(PENDING_COOKIE);
        }
      },
    },
  ];
}

function notSetUp(): ProviderError {
  return new ProviderError(
    404,
    'This pingmon server has no identity provider set up: sign in with your e-mail and password ' +
      '(its operator sets one up with PINGMON_OIDC_ISSUER).',
  );
}

function failure(h: ResponseToolkit, err: unknown) {
  if (!(err instanceof ProviderError)) throw err;
  if (err.detail) h.request.server.log(['oidc', 'warn'], err.detail);
  return h.response(page(err.message)).type('text/html; charset=utf-8').code(err.status);
}

/** A page a person reads: why the sign-in did not complete, and the way back. */
function page(message: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Not signed in · pingmon</title>' +
    '</head><body><main><h1>Not signed in</h1>' +
    `<p role="alert">${escapeMarkup(message)}</p><p><a href="/">Back to sign-in</a></p></main></body></html>`
  );
}
