import { Flags } from '@oclif/core';
import type { StatusPage } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { serverAddress, statusPageLines } from '../../status-page.js';

export default class StatusPageSet extends BaseCommand {
  static override summary = "Set the account's public status page: its address, title and public monitors";
  static override description =
    'Changes what the flags give and keeps the rest. The page is at /status/SLUG on the server, without sign-in: ' +
    'it shows the public monitors (names, status, the last 90 days), never the others, never logs, and error ' +
    'messages only with --show-errors. Each public monitor gets a badge for a README. Admins and owners only.';
  static override examples = [
    '<%= config.bin %> status-page set --slug acme --monitor nightly-backup --monitor db-dump --title "Acme jobs"',
    '<%= config.bin %> status-page set --show-errors',
    '<%= config.bin %> status-page set --off',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    slug: Flags.string({
      description: 'the page address: /status/SLUG (a-z, 0-9, - and _)',
      helpValue: 'SLUG',
      exclusive: ['off'],
    }),
    monitor: Flags.string({
      description: 'a public monitor, slug or id (repeat for several, in their order on the page; replaces the list)',
      helpValue: 'MON',
      multiple: true,
    }),
    private: Flags.boolean({ description: 'no public monitors (the page shows none)', exclusive: ['monitor'] }),
    title: Flags.string({ description: "the page's heading (default: the slug)", helpValue: 'TITLE' }),
    'show-errors': Flags.boolean({
      description: "show a down monitor's last error message on the page (--no-show-errors: hide it)",
      allowNo: true,
    }),
    off: Flags.boolean({ description: 'take the page and its badges down (the account keeps no slug)' }),
  };

  async run(): Promise<StatusPage | void> {
    const { flags } = await this.parse(StatusPageSet);
    const client = loggedInClient(flags);
    const current = await client.getStatusPage();
    const slug = flags.off ? null : (flags.slug ?? current.slug);
    if (slug === null && !flags.off) {
      this.error('the page has no address yet: give one with --slug, e.g. --slug acme', { exit: 2 });
    }
    const page = await client.setStatusPage({
      slug,
      title: flags.title ?? current.title,
      monitorIds: flags.private ? [] : (flags.monitor ?? current.monitors.map((m) => m.monitorId)),
      showErrorMessages: flags['show-errors'] ?? current.showErrorMessages,
    });
    if (this.jsonEnabled()) return page;
    for (const line of statusPageLines(page, serverAddress(flags))) this.log(line);
  }
}
