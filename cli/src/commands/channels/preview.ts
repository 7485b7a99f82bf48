import { Flags } from '@oclif/core';
import type { ChannelPreview, TemplatePreview } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { optionsOf, templateFlags } from '../../channel-options.js';
import { loggedInClient } from '../../client.js';

export default class ChannelsPreview extends BaseCommand {
  static override summary = 'Show the requests a template channel would send, for a sample alert of every event';
  static override description =
    'The server renders the template with the code that sends it, for its sample alerts (fail, timed_out, missed, ' +
    'a grouped missed, still_down, silent_failure, recovered, test); nothing is stored or sent. Exits 1 with the ' +
    'reason when the template cannot render, which `channels add` would refuse. Placeholders: ' +
    'docs/alerts.md#templated-webhook.';
  static override examples = [
    '<%= config.bin %> channels preview --body-file body.json',
    "<%= config.bin %> channels preview --body-file sms.txt --content-type form --header 'Authorization: Basic …'",
  ];
  // --url is the template's URL here, so the server is --server.
  static override enableJsonFlag = true;
  static override flags = {
    server: Flags.string({
      description: 'pingmon server, e.g. http://127.0.0.1:8080 [env: PINGMON_URL; default: from pingmon login]',
      helpValue: 'URL',
    }),
    url: Flags.string({ description: 'the URL the requests would go to (checked, not contacted)', helpValue: 'URL' }),
    ...templateFlags,
    'options-file': Flags.string({
      description: "the template's options as a JSON object (body, contentType, method, headers), from FILE",
      helpValue: 'FILE',
    }),
  };

  async run(): Promise<ChannelPreview | void> {
    const { flags } = await this.parse(ChannelsPreview);
    const options = optionsOf(flags);
    if (typeof options?.body !== 'string')
      this.error('say what to preview: --body-file FILE (or "body" in --options-file)', { exit: 2 });
    const client = loggedInClient({ url: flags.server });
    const result = await client.previewChannel({ type: 'template', url: flags.url, options });
    if (result.problem !== null) {
      // --json prints the answer even then; oclif prints only what a command returns, and this one fails.
      if (this.jsonEnabled()) this.logJson(result);
      this.error(`the template cannot render: ${result.problem}`, { exit: 1 });
    }
    if (this.jsonEnabled()) return result;
    for (const preview of result.previews) this.log(requestText(preview, flags.url));
  }
}

/** One request as an HTTP message, under a line naming its sample: what docs/alerts.md shows. */
function requestText(preview: TemplatePreview, url: string | undefined): string {
  const sample = preview.sample === preview.event ? preview.sample : `${preview.sample} (${preview.event})`;
  const headers = Object.entries(preview.headers).map(([name, value]) => `${name}: ${value}`);
  const line = url === undefined ? preview.method : `${preview.method} ${url}`;
  return [`--- sample ${sample} ---`, line, ...headers, '', preview.body, ''].join('\n');
}
