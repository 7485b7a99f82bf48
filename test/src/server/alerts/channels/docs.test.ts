import { readFileSync } from 'node:fs';
import t from 'tap';
import {
  googlechat,
  matrix,
  mattermost,
  msteams,
  ntfy,
  pushover,
  rocketchat,
  telegram,
} from '@pingmon/server/internal';
import type { HttpChannelKind } from '@pingmon/server/internal';
import { DOC_ALERT, DOC_TARGETS, requestOf } from '../../../helpers/channel-alerts.js';

const KINDS: Record<string, HttpChannelKind> = {
  msteams,
  googlechat,
  mattermost,
  rocketchat,
  telegram,
  ntfy,
  pushover,
  matrix,
};
const docs = readFileSync(new URL('../../../../../docs/channels.md', import.meta.url), 'utf8');

t.test('every example in docs/channels.md is exactly what its kind sends for the fail alert', async (t) => {
  const examples = [...docs.matchAll(/<!-- example: (\w+) -->\n```json\n([^]*?)```\n/g)];
  t.same(
    examples.map(([, type]) => type),
    Object.keys(KINDS),
    'one example per kind, in the order of the table',
  );
  for (const [, type, json] of examples) {
    const request = requestOf(KINDS[type!]!, DOC_TARGETS[type!]!, DOC_ALERT);
    t.strictSame(JSON.parse(json!), JSON.parse(request.body), type);
  }
});

t.test("the table of docs/channels.md says what each kind's secret and URL are", async (t) => {
  for (const [type, kind] of Object.entries(KINDS)) {
    const row = new RegExp(`^\\| \`${type}\` \\|([^|]*)\\|([^|]*)\\|`, 'm').exec(docs);
    t.ok(row, `${type} has a row`);
    const [, url, secret] = row!;
    t.equal(secret!.includes('required'), kind.secret.need === 'required', `${type}: secret ${kind.secret.need}`);
    t.equal(secret!.includes('optional'), kind.secret.need === 'optional', `${type}: secret ${kind.secret.need}`);
    if (kind.url.default) t.match(url, kind.url.default, `${type}: its default URL`);
  }
});
