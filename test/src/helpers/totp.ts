import { Secret, TOTP } from 'otpauth';

/** The code an authenticator app given `secret` shows at `at` (epoch ms), by the library the server uses. */
export function codeAt(secret: string, at: number): string {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: at,
  });
}

/** One TOTP time step, in ms. */
export const STEP_MS = 30_000;
