import * as oidc from 'openid-client';
import type { OidcSettings } from './config.js';

/** What a sign-in started must find again when the provider sends the user back: kept in a sealed cookie. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  /** The dashboard page to land on. */
  next: string;
}

/** A sign-in through the provider that did not complete, with what to tell the person (and the operator's log). */
export class ProviderError extends Error {
  constructor(
    readonly status: 403 | 404 | 409 | 502,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/**
 * The OpenID Connect relying party: authorization code with PKCE (S256), state and nonce. The provider's metadata
 * is read at the first sign-in, not at start-up (a provider down must not keep pingmon down), and read again after
 * a failure.
 */
export class IdentityProvider {
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(
    private readonly settings: OidcSettings,
    private readonly redirectUri: string,
    private readonly timeoutMs: number,
  ) {}

  get name(): string {
    return this.settings.name;
  }

  async start(next: string): Promise<{ url: string; pending: PendingSignIn }> {
    const config = await this.discover();
    const pending = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      next,
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: this.settings.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, pending };
  }

  /** The claims of whom the provider sent back to `callbackUrl`: the ID token's, with the userinfo's over them. */
  async finish(callbackUrl: URL, pending: PendingSignIn): Promise<Record<string, unknown>> {
    const config = await this.discover();
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      // Many providers put e-mail and groups in the userinfo only (what the scopes grant), not in the ID token.
      if (config.serverMetadata().userinfo_endpoint === undefined) return { ...claims };
      return { ...claims, ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)) };
    } catch (err) {
      throw signInFailed(err, this.settings.issuer);
    }
  }

  private discover(): Promise<oidc.Configuration> {
    this.configuration ??= this.discovery().catch((err: unknown) => {
      this.configuration = undefined;
      throw new ProviderError(
        502,
        'The identity provider could not be reached, or answered wrongly. Try again in a moment; if it lasts, ' +
          'tell the operator of this pingmon server (its log says more).',
        `discovery at ${this.settings.issuer} failed: ${messageOf(err)}`,
      );
    });
    return this.configuration;
  }

  private async discovery(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    const secure = new URL(issuer).protocol === 'https:';
    const auth = clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(clientSecret);
    const config = await oidc.discovery(new URL(issuer), clientId, undefined, auth, {
      // An http:// issuer is the operator's explicit choice (a provider on the same host or network).
      execute: secure ? [] : [oidc.allowInsecureRequests],
      timeout: Math.ceil(this.timeoutMs / 1000),
    });
    config.timeout = Math.ceil(this.timeoutMs / 1000);
    return config;
  }
}

function signInFailed(err: unknown, issuer: string): ProviderError {
  if (err instanceof oidc.AuthorizationResponseError) {
    const said = err.error_description ?? err.error;
    return new ProviderError(403, `The identity provider did not sign you in: ${said}.`);
  }
  return new ProviderError(
    502,
    'Signing in through the identity provider failed. Start again from the sign-in page; if it fails again, tell ' +
      'the operator of this pingmon server (its log says more).',
    `sign-in through ${issuer} failed: ${messageOf(err)}`,
  );
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message;
  return String(err);
}
