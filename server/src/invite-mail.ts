import type { Role } from '@pingmon/sdk/wire';
import type { Mailer } from './alerts/email.js';

export interface InviteMail {
  to: string;
  url: string;
  role: Role;
  /** The inviter's address, to say who asks. */
  from: string;
  expiresAt: number;
}

/**
 * Mails an invite's link through the server's SMTP server, within `timeoutMs`: true when the SMTP server took it.
 * Never throws: the inviter has the link anyway, and can pass it on by hand.
 */
export async function mailInvite(mailer: Mailer, mail: InviteMail, timeoutMs: number): Promise<boolean> {
  const until = new Date(mail.expiresAt).toISOString().replace('T', ' ').slice(0, 16);
  const text = [
    `${mail.from} invites you to their pingmon account, as ${articleOf(mail.role)} ${mail.role}.`,
    '',
    'Open this link to accept the invite and set your password:',
    mail.url,
    '',
    `The link works once, until ${until} UTC. If you did not expect this invite, ignore this mail.`,
  ].join('\n');
  try {
    const info = await mailer.transport.sendMail({
      from: mailer.from,
      to: mail.to,
      subject: '[pingmon] You are invited to a pingmon account',
      text,
      headers: { 'X-Pingmon-Event': 'invite' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    return info.rejected.length === 0;
  } catch {
    return false;
  }
}

function articleOf(role: Role): string {
  return role === 'owner' || role === 'admin' ? 'an' : 'a';
}
