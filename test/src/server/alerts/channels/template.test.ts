import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import Joi from 'joi';
import t from 'tap';
import { previewTemplate, SAMPLE_ALERTS, template, testContent } from '@pingmon/server/internal';
import type { AlertContent } from '@pingmon/server/internal';
import { ALERT_FIXTURES } from '../../../helpers/alert-fixtures.js';
import { startReceiver } from '../../../helpers/receiver.js';
import { checkTemplate } from '../../../helpers/vendors/template.js';

type Target = Parameters<typeof template.request>[0];
type Outgoing = ReturnType<typeof template.request>;

const URL_ = 'https://jira.example.com/rest/api/2/issue?token=abc';
const context = { nowSeconds: 1_806_000_000, messageKey: 'msg_0mxb1' };

const channel = (options: object, secret: string | null = null, url = URL_): Target => ({
  channelId: 'ch_0mxb1',
  type: 'template',
  url,
  secret,
  options: Joi.attempt(options, template.options!),
});

/** What a UTF-8 encoder makes of a string: a lone surrogate becomes U+FFFD. */
const wellFormed = (s: string) => Buffer.from(s).toString();

const refusal = (options: object) => template.options!.validate(options).error?.message;
const problem = (options: object, url = URL_) => template.check!(channel(options, null, url));

/** Every event, grouped missed alerts and a test message included, with the headline each one has. */
const EVENTS: Array<[string, AlertContent, string]> = [
  ['fail', ALERT_FIXTURES.fail, 'nightly backup failed'],
  ['long_log', ALERT_FIXTURES.long_log, 'nightly backup failed'],
  ['timed_out', ALERT_FIXTURES.timed_out, 'orders export timed out'],
  ['missed', ALERT_FIXTURES.missed, 'nightly backup did not start on time'],
  ['missed_group', ALERT_FIXTURES.missed_group, '3 monitors did not start on time, all last run on web-1'],
  ['still_down', SAMPLE_ALERTS.still_down!, 'nightly backup is still down'],
  [
    'silent_failure',
    ALERT_FIXTURES.silent_failure,
    'orders export succeeded, but its meta matched 2 alert rules (silent failure)',
  ],
  ['recovered', { ...ALERT_FIXTURES.recovered, incidentKey: 'inc_0mx9k' }, 'nightly backup is up again'],
  ['test', testContent('jira', Date.parse('2027-03-29T09:00:00.000Z')), 'pingmon test message'],
];

const JIRA = {
  body: `{
  "fields": {
    "project": { "key": "OPS" },
    "summary": "[pingmon] {{headline}}",
    "description": "{{details}}\\n\\n{{logTail}}\\n{{links.run}}",
    "labels": ["pingmon", "{{event}}"],
    "incident": {{incidentKey}},
    "meta": {{meta}},
    "run": {{runId}}
  }
}`,
  headers: { 'X-Incident': '{{incidentKey}}', Authorization: 'Basic b3BzOnRva2Vu' },
};

t.test('a Jira-like JSON template: every event sends the request the template writes', async (t) => {
  t.equal(problem(JIRA), null, 'the template is accepted');
  for (const [name, content, headline] of EVENTS) {
    const req = template.request(channel(JIRA), content, context);
    t.same(checkTemplate(req), [], `${name}: the request is well-formed`);
    t.equal(req.method, 'POST');
    t.equal(req.url, URL_);
    const incident = content.incidentKey ?? content.alertId ?? 'pingmon-test';
    t.strictSame(req.headers, {
      'x-incident': incident,
      authorization: 'Basic b3BzOnRva2Vu',
      'content-type': 'application/json',
      'user-agent': req.headers['user-agent'],
    });
    t.match(req.headers['user-agent'], /^pingmon\/\d+\.\d+\.\d+/);
    const { fields } = JSON.parse(req.body);
    t.equal(fields.summary, `[pingmon] ${headline}`, `${name}: summary`);
    t.same(fields.labels, ['pingmon', content.event]);
    t.equal(fields.incident, incident);
    t.strictSame(fields.meta, content.meta);
    t.equal(fields.run, content.runId, `${name}: the run, or null`);
    t.ok(fields.description.startsWith(content.event === 'silent_failure' ? '• rowsProcessed < 1' : ''));
  }
});

const LOG = 'step "1" \\ done </script>\n\t🔴 naïve ⚠️ \u2028 '.repeat(400).slice(0, 10_000);
const HOSTILE = {
  ...ALERT_FIXTURES.fail,
  monitorName: '"quoted" \\back\\slash\\\n</script><script>alert(1)</script> 𝄞 🔴 \u0000 \u2028 {{event}} \ud800!',
  errorMessage: '<@U123> @everyone *bold* `code` & ${HOME} 100%',
  logSnippet: LOG,
  logTail: LOG,
  meta: { 'rows.processed': 3, exitCode: 2 },
};

t.test('JSON: values inside quotes are string content, whatever they hold', async (t) => {
  t.equal(LOG.length, 10_000);
  const body = '{"name": "{{monitorName}}", "text": "Job {{monitorName}}: {{errorMessage}}", "log": "{{logTail}}"}';
  const req = template.request(channel({ body }), HOSTILE, context);
  t.same(checkTemplate(req), []);
  const sent = JSON.parse(req.body);
  t.equal(
    sent.name,
    HOSTILE.monitorName,
    'quotes, backslashes, newlines, NUL, lone surrogates, {{event}} in a value: all as they were',
  );
  t.equal(sent.text, `Job ${HOSTILE.monitorName}: ${HOSTILE.errorMessage}`);
  t.equal(sent.log, LOG, 'a 10,000-character log whole');
});

t.test('JSON: a placeholder outside quotes is the whole value, as a JSON literal', async (t) => {
  const body = '[{{monitorName}}, {{meta}}, {{matchedRules}}, {{runId}}, {{meta.exitCode}}, {{links}}, {{monitors}}]';
  t.equal(problem({ body }), null);
  const failed = JSON.parse(template.request(channel({ body }), HOSTILE, context).body);
  t.strictSame(failed, [HOSTILE.monitorName, HOSTILE.meta, [], HOSTILE.runId, 2, { monitor: null, run: null }, null]);
  const silent = JSON.parse(template.request(channel({ body }), ALERT_FIXTURES.silent_failure, context).body);
  t.strictSame(silent[2], ALERT_FIXTURES.silent_failure.matchedRules);
  t.equal(silent[4], 0);
  const missed = JSON.parse(template.request(channel({ body }), ALERT_FIXTURES.missed_group, context).body);
  t.equal(missed[3], null, 'no run: null');
  t.strictSame(
    missed[6].map((m: { monitorName: string }) => m.monitorName),
    ['sitemap', 'cache warmup', 'mail queue'],
  );
  const meta = '{"dotted": {{meta.rows.processed}}, "missing": {{meta.nope}}, "proto": {{meta.constructor}}}';
  t.strictSame(JSON.parse(template.request(channel({ body: meta }), HOSTILE, context).body), {
    dotted: 3,
    missing: null,
    proto: null,
  });
});

t.test('JSON: a key is a placeholder inside quotes; outside quotes one is refused, with where it stands', async (t) => {
  const keyed = template.request(channel({ body: '{"{{monitorName}}": {{meta.exitCode}}}' }), HOSTILE, context);
  t.strictSame(JSON.parse(keyed.body), { [HOSTILE.monitorName]: 2 });
  t.match(
    problem({ body: '{\n  "a": 1,\n  {{monitorName}}: 2\n}' }),
    /^body: \{\{monitorName\}\} at line 3, column 3 is outside quotes, .* inside quotes \("\{\{monitorName\}\}"\)$/,
  );
  t.match(problem({ body: '{"a": 1{{event}}}' }), /^body: \{\{event\}\} at line 1, column 8 is outside quotes/);
  t.match(problem({ body: '{"a": {{event}} {{runId}}}' }), /\{\{runId\}\} at line 1, column 17/);
  t.equal(problem({ body: '{"a": "x" , "b": {{runId}} }' }), null);
});

t.test('JSON: a body that is not JSON is refused with the parser error and where', async (t) => {
  t.equal(
    problem({ body: '{"summary": "{{headline}}",\n "x": 1,}' }),
    'body: not JSON: Expected double-quoted property name in JSON at position 36 (line 2, column 9)',
  );
  t.match(problem({ body: '{"a": "{{headline}}\n"}' }), /^body: not JSON: Bad control character in string literal/);
  t.match(problem({ body: 'summary={{headline}}' }), /^body: not JSON: /);
  t.equal(problem({ body: '{"a": "\\"{{headline}}\\\\"}' }), null, 'escaped quotes do not end the string');
  const literal = template.request(channel({ body: '{"a": "{\\u007b not one }}"}' }), HOSTILE, context);
  t.equal(JSON.parse(literal.body).a, '{{ not one }}', 'a literal {{ in a JSON string, as the docs write it');
});

t.test('form: every value is form-encoded, and parses back to itself', async (t) => {
  const body =
    'summary={{headline}}&name={{monitorName}}&details={{details}}&log={{logTail}}&run={{runId}}&{{event}}=1';
  const form = channel({ body, contentType: 'form' });
  t.equal(problem({ body, contentType: 'form' }), null);
  const req = template.request(form, HOSTILE, context);
  t.same(checkTemplate(req), []);
  t.equal(req.headers['content-type'], 'application/x-www-form-urlencoded');
  t.match(req.body, /^[A-Za-z0-9*\-._+=&%]*$/, 'nothing left unencoded');
  const sent = new URLSearchParams(req.body);
  t.equal(sent.get('name'), wellFormed(HOSTILE.monitorName), 'a lone surrogate becomes U+FFFD, the rest is exact');
  t.equal(sent.get('details'), HOSTILE.errorMessage);
  t.equal(sent.get('log'), LOG);
  t.equal(sent.get('fail'), '1', 'a placeholder may be a field name');
  t.equal(
    new URLSearchParams(template.request(form, ALERT_FIXTURES.missed, context).body).get('run'),
    '',
    'null: empty',
  );
  t.equal(
    new URLSearchParams(template.request(form, ALERT_FIXTURES.silent_failure, context).body).get('details'),
    '• rowsProcessed < 1 (was 0)\n• durationSeconds > 3600 (was 4210)',
  );
});

t.test("form: the template's own text must be encoded already", async (t) => {
  const form = (body: string) => problem({ body, contentType: 'form' });
  t.equal(
    form('summary=Job {{headline}}'),
    'body: a form body\'s own text must be form-encoded ("+" for a space, %XX for other characters, %25 for "%"): ' +
      '" " at line 1, column 12 is not',
  );
  t.match(form('a=100%&b={{event}}'), /"%" at line 1, column 6 is not$/);
  t.match(form('a={{event}}\n'), /"\\n" at line 1, column 12 is not$/);
  t.match(form('a=caf\u00e9'), /"é" at line 1, column 6/);
  t.equal(form('text=Job+failed%3A+{{headline}}&x=%E2%9C%93'), null);
});

t.test('text: values as they are', async (t) => {
  const body = '{{headline}}\n{{details}}\n\n{{logTail}}\n-- {{runId}}';
  const req = template.request(channel({ body, contentType: 'text', method: 'PUT' }), HOSTILE, context);
  t.same(checkTemplate(req), []);
  t.equal(req.method, 'PUT');
  t.equal(req.headers['content-type'], 'text/plain; charset=utf-8');
  t.equal(req.body, `${HOSTILE.monitorName} failed\n${HOSTILE.errorMessage}\n\n${LOG}\n-- ${HOSTILE.runId}`);
  const missed = template.request(channel({ body, contentType: 'text' }), ALERT_FIXTURES.missed, context);
  t.ok(missed.body.endsWith('\n-- '), 'null is nothing');
});

t.test('headers: values on one line of visible ASCII, percent-encoded, cut whole; empty ones left out', async (t) => {
  const headers = {
    'X-Monitor': '{{monitorName}}',
    'X-Run': '{{runId}}',
    'X-Log': 'log: {{logTail}}',
    'X-Inject': 'a {{errorMessage}}',
    'X-Message': '{{errorMessage}}',
  };
  const injected = { ...HOSTILE, errorMessage: 'x\r\nX-Evil: 1\r\n\r\nbody' };
  const req = template.request(channel({ body: '{}', headers }), injected, context);
  t.same(checkTemplate(req), []);
  t.equal(req.headers['x-inject'], 'a x  X-Evil: 1    body', 'CR and LF are spaces: no header can be added');
  t.notOk('x-evil' in req.headers);
  const message = template.request(channel({ body: '{}', headers }), HOSTILE, context).headers['x-message']!;
  t.equal(decodeURIComponent(message), HOSTILE.errorMessage, '"%" is encoded too');
  t.equal(
    decodeURIComponent(req.headers['x-monitor']!),
    wellFormed(HOSTILE.monitorName).replace(/[\u0000-\u001f]/g, ' '),
    'decoding gives the value back',
  );
  t.ok(req.headers['x-log']!.length <= 1_000, 'a header is cut');
  t.ok(decodeURIComponent(req.headers['x-log']!).startsWith('log: step "1" \\ done </script>'), 'whole escapes');
  const missed = template.request(channel({ body: '{}', headers }), ALERT_FIXTURES.missed, context);
  t.notOk('x-run' in missed.headers, 'a header that renders empty is not sent');
});

t.test('every request goes over real HTTP as rendered', async (t) => {
  const receiver = await startReceiver(t, (_req, _n, res) => res.end());
  const headers = { 'X-Monitor': '{{monitorName}}', 'X-Key': '{{incidentKey}}' };
  const sent: Outgoing[] = [];
  for (const contentType of ['json', 'form', 'text'] as const) {
    const body = {
      json: '{"m": "{{monitorName}}", "log": {{logTail}}}',
      form: 'm={{monitorName}}',
      text: '{{logTail}}',
    };
    for (const content of [HOSTILE, ...EVENTS.map((e) => e[1])]) {
      const target = channel({ body: body[contentType], contentType, headers }, 'whsec_x', `${receiver.url}/hook`);
      const req = template.request(target, content, context);
      sent.push(req);
      await new Promise<void>((resolve, reject) => {
        const out = httpRequest(req.url, { method: req.method, headers: req.headers }, (res) => {
          res.resume().on('end', resolve);
        });
        out.on('error', reject).end(req.body);
      });
    }
  }
  t.equal(receiver.received.length, sent.length);
  receiver.received.forEach((got, i) => {
    t.same(checkTemplate(got), []);
    t.equal(got.body, sent[i]!.body, 'the body arrives byte for byte');
    t.equal(got.headers['x-monitor'], sent[i]!.headers['x-monitor']);
  });
});

t.test('with a secret, the request is signed as a webhook is; the secret is nowhere else', async (t) => {
  const secret = 'whsec_0123456789abcdef';
  const req = template.request(channel(JIRA, secret), ALERT_FIXTURES.fail, context);
  const mac = createHmac('sha256', secret).update(`${context.nowSeconds}.${req.body}`).digest('hex');
  t.equal(req.headers['x-pingmon-signature'], `t=${context.nowSeconds},v1=${mac}`);
  t.notOk(JSON.stringify(req).includes(secret));
  t.notOk('x-pingmon-signature' in template.request(channel(JIRA), ALERT_FIXTURES.fail, context).headers);
});

t.test('options: defaults, and refusals that say what to give', async (t) => {
  t.strictSame(Joi.attempt({ body: 'x' }, template.options!), { body: 'x', contentType: 'json', method: 'POST' });
  const said = "body: the request's body, with {{placeholders}} for the alert's fields";
  t.equal(refusal({}), said);
  t.equal(refusal({ body: '' }), said);
  t.equal(refusal({ body: 'x'.repeat(16_385) }), 'body: at most 16384 characters');
  t.equal(refusal({ body: { a: 1 } }), 'body: a string (a JSON body is written as text, placeholders and all)');
  t.equal(refusal({ body: 'x', contentType: 'xml' }), 'contentType: "json", "form" or "text"');
  t.equal(refusal({ body: 'x', method: 'GET' }), 'method: "POST" or "PUT"');
  t.equal(refusal({ body: 'x', format: 'json' }), '"format" is not an option: body, contentType, method, headers');
  const header = (headers: object) => refusal({ body: 'x', headers });
  for (const name of ['Host', 'content-length', 'Connection', 'Transfer-Encoding', 'TE', 'Upgrade', 'Keep-Alive'])
    t.equal(
      header({ [name]: 'a' }),
      `headers: "${name}" is set by the HTTP client, as are Host, Content-Length and the hop-by-hop headers`,
    );
  t.equal(
    header({ 'Content-Type': 'text/html' }),
    'headers: "Content-Type" follows contentType ("json", "form" or "text")',
  );
  t.equal(header({ 'User-Agent': 'a' }), 'headers: "User-Agent" is set by pingmon');
  t.equal(header({ 'X-Pingmon-Signature': 'a' }), 'headers: "X-Pingmon-Signature" is set by pingmon');
  t.equal(header({ 'X Bad': 'a' }), 'headers: "X Bad" is not a header name (letters, digits and !#$%&\'*+-.^_`|~)');
  t.equal(header({ 'X-A': 'a', 'x-a': 'b' }), 'headers: "x-a" is given twice (header names are case-insensitive)');
  t.equal(header({ 'X-A': '' }), 'headers: a value may not be empty (leave the header out)');
  t.equal(header({ 'X-A': 1 }), 'headers: each value is a string, with {{placeholders}} if need be');
  t.equal(header(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-${i}`, 'a']))), 'headers: at most 20');
});

t.test('check: an unknown name is refused with the names, and the nearest one', async (t) => {
  const said = problem({ body: '{"a": "{{monitor_name}}"}' })!;
  t.match(
    said,
    /^body: unknown placeholder \{\{monitor_name\}\} at line 1, column 8 \(did you mean \{\{monitorName\}\}\?\); /,
  );
  t.match(said, /the names are event, headline, details, .*links\.run, and meta\.<key> for any key of the run's meta$/);
  t.match(
    problem({ body: 'x', headers: { 'X-A': 'id {{incidentkey}}' } }),
    /^headers\.X-A: unknown placeholder \{\{incidentkey\}\} at column 4 \(did you mean \{\{incidentKey\}\}\?\)/,
  );
  t.notMatch(problem({ body: '{{somethingElse}}', contentType: 'text' }), /did you mean/, 'nothing near: no guess');
  t.match(problem({ body: '{{ }}', contentType: 'text' }), /unknown placeholder \{\{\}\}/);
  t.equal(problem({ body: '{{ monitor.name }} {{monitor.slug}} {{meta.any key}}', contentType: 'text' }), null);
  t.equal(problem({ body: '{"x": 1}' }, 'ftp://example.com/'), 'url: an http:// or https:// URL');
});

t.test('preview: the template rendered for a sample alert of every event', async (t) => {
  const preview = previewTemplate(Joi.attempt(JIRA, template.options!));
  t.equal(preview.problem, null);
  t.same(
    preview.previews.map((p) => p.sample),
    ['fail', 'timed_out', 'missed', 'missed_group', 'still_down', 'silent_failure', 'recovered', 'test'],
  );
  for (const p of preview.previews) {
    t.same(checkTemplate({ ...p, url: URL_ }), [], p.sample);
    t.equal(JSON.parse(p.body).fields.labels[1], p.event);
  }
  t.match(JSON.parse(preview.previews[0]!.body).fields.description, /Permission denied/, 'the fail sample has a log');
  t.strictSame(previewTemplate({ body: '{"a": {{nope}}}' }).previews, []);
  t.match(previewTemplate({ body: '{"a": {{nope}}}' }).problem, /^body: unknown placeholder \{\{nope\}\}/);
});

t.test("docs/alerts.md's template examples are what a preview renders, as the channel would send it", async (t) => {
  const docs = readFileSync(new URL('../../../../../docs/alerts.md', import.meta.url), 'utf8');
  const blocks = (kind: string) =>
    new Map(
      [
        ...docs.matchAll(
          new RegExp(`<!-- template ${kind}: ([\\w ]+) -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\`\\n`, 'g'),
        ),
      ].map((m) => [m[1]!, m[2]!]),
    );
  const [bodies, channels, sends] = [blocks('body'), blocks('channel'), blocks('sends')];
  t.same([...bodies.keys()], ['jira', 'sms', 'text']);
  t.same([...channels.keys()], [...bodies.keys()]);
  t.equal(sends.size, 3);
  for (const [key, shown] of sends) {
    const [name, sample] = key.split(' ') as [string, string];
    const { url, options } = JSON.parse(channels.get(name)!);
    const preview = previewTemplate(Joi.attempt({ ...options, body: bodies.get(name) }, template.options!));
    t.equal(preview.problem, null, name);
    const { method, headers, body } = preview.previews.find((p) => p.sample === sample)!;
    const lines = Object.entries(headers).filter(([header]) => header !== 'user-agent');
    t.equal(`${method} ${url}\n${lines.map(([h, v]) => `${h}: ${v}`).join('\n')}\n\n${body}`, shown, key);
  }
});
