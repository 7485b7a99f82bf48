import { readFileSync } from 'node:fs';
import t from 'tap';
import { discordPayload, slackPayload, webhookPayload } from '@pingmon/server/internal';
import type { AlertContent } from '@pingmon/server/internal';
import { ALERT_FIXTURES } from '../../helpers/alert-fixtures.js';

const docs = (name: string) => readFileSync(new URL(`../../../../docs/${name}`, import.meta.url), 'utf8');

const FIXTURES: Record<string, AlertContent> = ALERT_FIXTURES;
const BUILD = { slack: slackPayload, discord: discordPayload, webhook: webhookPayload } as const;

t.test('every payload example in docs/alerts.md is exactly what the server sends for its alert', async (t) => {
  const examples = [
    ...docs('alerts.md').matchAll(/<!-- example: (slack|discord|webhook) (\w+) -->\n```json\n([\s\S]*?)```\n/g),
  ];
  t.equal(examples.length, 18, 'all the examples were found');
  for (const [, type, fixture, json] of examples) {
    t.ok(FIXTURES[fixture!], `${fixture} is a known alert`);
    t.strictSame(JSON.parse(json!), BUILD[type as keyof typeof BUILD](FIXTURES[fixture!]!), `${type} ${fixture}`);
  }
});

t.test('so are the Slack, Discord and webhook examples of docs/api.md', async (t) => {
  const examples = [...docs('api.md').matchAll(/#### (Slack|Discord|Webhook)\n[\s\S]*?```json\n([\s\S]*?)```\n/g)];
  t.same(
    examples.map((m) => m[1]),
    ['Slack', 'Discord', 'Webhook'],
  );
  for (const [, type, json] of examples)
    t.strictSame(JSON.parse(json!), BUILD[type!.toLowerCase() as keyof typeof BUILD](FIXTURES.fail!), type);
});
