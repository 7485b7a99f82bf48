import { Flags } from '@oclif/core';
import { BaseCommand } from '../base-command.js';
import { loggedInClient, serverFlags } from '../client.js';
import { forgetContinuousIntegration, readSettings, resolveSetting } from '../settings.js';

export default class Browse extends BaseCommand {
  static override summary = 'Browse monitors, runs and logs in a terminal dashboard';
  static override description =
    "Monitors with their last run, a monitor's runs, and a run's details with its log. " +
    'Keyboard driven (press ? inside for the keys); the open view refreshes itself. ' +
    'Needs an interactive terminal at least 60 columns wide.';
  static override examples = ['<%= config.bin %> browse', '<%= config.bin %> browse --refresh 15'];
  static override flags = {
    ...serverFlags,
    refresh: Flags.integer({ description: 'seconds between automatic refreshes', default: 5, min: 1, max: 3600 }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Browse);
    // One attempt per request: the dashboard tries again on its own at every refresh, and a person looking at
    // "Loading…" should hear at once that the server refuses connections, not after the backoff's waits.
    const connect = () => loggedInClient(flags, { maxRetries: 0 });
    connect(); // not logged in: said now, in one line, before the screen is taken over
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      throw new Error(
        'pingmon browse needs an interactive terminal; ' +
          'in scripts use `pingmon monitors list`, `pingmon runs` and `pingmon logs`',
      );
    }
    const url = resolveSetting('url', flags.url, readSettings())!;
    forgetContinuousIntegration();
    // Loaded here, not at the top: no other command (least of all `pingmon run`) pays for ink and React.
    const { browse } = await import('../tui/main.js');
    await browse({ connect, url, refreshMs: flags.refresh * 1000 });
  }
}
