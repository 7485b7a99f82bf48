import type { FormEvent } from 'react';
import { useEffect, useState } from 'react';
import type { MeResponse, RecoveryCodes, SecondFactorEnrolment } from '@pingmon/sdk/wire';
import { api } from '../api.js';
import { usePoll } from '../use-poll.js';
import { useAction } from './action.js';
import { Failure, Problem } from './problem.js';

/**
 * The TOTP second factor: added with its secret (a QR code scanned, the secret typed or the otpauth:// URI pasted into
 * an authenticator app) and
 * a first code, which answers the recovery codes shown here once; turned off with the password.
 */
export function SecondFactor() {
  const { data, error, reload } = usePoll('me', () => api<MeResponse>('GET', 'me'));
  const action = useAction();
  const [enrolment, setEnrolment] = useState<SecondFactorEnrolment>();
  const [codes, setCodes] = useState<string[]>();
  const start = () =>
    void action.run(async () => setEnrolment(await api<SecondFactorEnrolment>('POST', 'me/second-factor')));
  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = new FormData(event.currentTarget).get('code');
    const done = await action.run(async () => {
      setCodes((await api<RecoveryCodes>('POST', 'me/second-factor/confirm', { code })).recoveryCodes);
    });
    if (done) setEnrolment(undefined);
    reload();
  };
  const disable = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const password = new FormData(event.currentTarget).get('password');
    if (await action.run(() => api('POST', 'me/second-factor/disable', { password }))) reload();
  };
  const status = data?.secondFactor;

  return (
    <section aria-labelledby="second-factor-head">
      <h2 id="second-factor-head">Second factor</h2>
      <Problem error={error} stale={data !== undefined} />
      {codes && (
        <div className="new-key" role="status">
          <p>
            Second factor on. Your recovery codes: each signs you in once when the phone is lost. Store them now: they
            are not shown again.
          </p>
          <ul className="secret" aria-label="Recovery codes">
            {codes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => setCodes(undefined)}>
            Done
          </button>
        </div>
      )}
      {status?.enabled === false && !enrolment && (
        <p>
          Off: signing in asks for your password only.{' '}
          <button type="button" disabled={action.busy} onClick={start}>
            Add a second factor
          </button>
        </p>
      )}
      {enrolment && (
        <form className="stacked" onSubmit={(e) => void confirm(e)} aria-label="Turn the second factor on">
          <p>
            Scan this code with an authenticator app (or type the secret, or paste the URI), then send the code it
            shows.
          </p>
          <QrCode text={enrolment.uri} />
          <code className="secret">{enrolment.secret}</code>
          <code className="url">{enrolment.uri}</code>
          <label>
            Code
            <input name="code" autoComplete="one-time-code" required />
          </label>
          <button type="submit" disabled={action.busy}>
            Turn on
          </button>
        </form>
      )}
      {status?.enabled && (
        <form className="inline" onSubmit={(e) => void disable(e)} aria-label="Turn the second factor off">
          <p>
            On: signing in asks for a code. {status.recoveryCodesLeft} recovery code
            {status.recoveryCodesLeft === 1 ? '' : 's'} left.
          </p>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" disabled={action.busy}>
            Turn off
          </button>
        </form>
      )}
      <Failure message={action.error} />
    </section>
  );
}

/** The otpauth URI as a QR code, drawn here: the secret never leaves the page for an image service. */
function QrCode({ text }: { text: string }) {
  const [svg, setSvg] = useState<string>();
  useEffect(() => {
    import('qrcode')
      .then(({ default: QRCode }) => QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }))
      .then(setSvg, () => setSvg(undefined));
  }, [text]);
  if (!svg) return null;
  return (
    <img
      className="qr"
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt="QR code of the URI below, for an authenticator app"
      width={180}
      height={180}
    />
  );
}
