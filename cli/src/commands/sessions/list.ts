import type { UserSession } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { printTable, when } from '../../output.js';

export default class SessionsList extends BaseCommand {
  static override summary = 'List your live sessions (logins, dashboard sign-ins); * marks this one';
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<UserSession[] | void> {
    const { flags } = await this.parse(SessionsList);
    const { sessions } = await loggedInClient(flags).listSessions();
    if (this.jsonEnabled()) return sessions;
    printTable(
      ['ID', 'SIGNED IN', 'LAST USED', 'FROM', 'CLIENT'],
      sessions.map((s) => [
        `${s.sessionId}${s.current ? ' *' : ''}`,
        when(s.createdAt),
        when(s.lastUsedAt),
        s.address ?? '—',
        s.userAgent ?? '—',
      ]),
      (line) => this.log(line),
    );
  }
}
