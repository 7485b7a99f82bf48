import { Secret, TOTP } from 'otpauth';

// The second factor's codes (RFC 6238) through otpauth: SHA-1, 6 digits, 30-second steps, what every authenticator
// app reads from an otpauth:// URI.
const PERIOD_SECONDS = 30;
/** Codes of the step before and after now are taken too: a phone's clock a little off, a code typed at the turn. */
const WINDOW = 1;

function totpOf(secret: string, label = 'pingmon'): TOTP {
  return new TOTP({
    issuer: 'pingmon',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** A new secret of 160 bits (RFC 4226's advice), in base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app is given (as a QR code, or pasted). */
export function totpUri(secret: string, email: string): string {
  return totpOf(secret, email).toString();
}

/** Whether `code` is six digits: anything else sent as a code is taken for a recovery code. */
export function looksLikeTotp(code: string): boolean {
  return /^\d{6}$/.test(code);
}

/** The time step of the code `code` at `now` (epoch ms), within one step either side; undefined when none matches. */
export function stepOfCode(secret: string, code: string, now: number): number | undefined {
  if (!looksLikeTotp(code)) return undefined;
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? undefined : TOTP.counter({ period: PERIOD_SECONDS, timestamp: now }) + delta;
}
