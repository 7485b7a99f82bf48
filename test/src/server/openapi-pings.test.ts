import t from 'tap';
import { parsePingBody } from '@pingmon/server/internal';
import { DocumentChecker } from '../helpers/openapi.js';
import type { OpenApiDocument } from '../helpers/openapi.js';
import { TestServer } from '../helpers/server.js';

// The ping routes validate their bodies with the joi schemas the OpenAPI document is made from. The document's
// JSON Schema must give the same verdict as the server on every body; the one limit it only describes is listed.

const META_51_KEYS = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));

const BODIES: unknown[] = [
  null,
  {},
  { runId: 'nightly-0001' },
  { runId: '0d9e2c1a-7f1b-4c55-9a55-3f0b1c2d3e4f' },
  { runId: 'short' },
  { runId: 'x'.repeat(65) },
  { runId: 'has a space' },
  { runId: 12345678 },
  { runId: null },
  { timestamp: '2026-11-22T03:20:00.000Z' },
  { timestamp: '2026-11-22T03:20:00+01:00' },
  { timestamp: '2026-11-22' },
  { timestamp: '2026-11-22 03:20:00Z' },
  { timestamp: 1795000000000 },
  { timestamp: 'yesterday' },
  { timestamp: null },
  { meta: { rows: 10 } },
  { meta: { rows: 1.5, errors: -2, big: 1e300 } },
  { meta: {} },
  { meta: null },
  { meta: { rows: '10' } },
  { meta: { rows: null } },
  { meta: { rows: { n: 1 } } },
  { meta: [1, 2] },
  { meta: 5 },
  { meta: META_51_KEYS },
  { meta: { ['k'.repeat(65)]: 1 } },
  { meta: { ['k'.repeat(64)]: 1 } },
  { meta: { '': 1 } },
  { meta: { 'rows\u0000': 1 } },
  { meta: { 'rows\ud800': 1 } },
  { meta: { '\ud83d\ude00': 1 } },
  { host: 'backup-01.example.com' },
  { host: 'h\u00e9te \ud83d\ude00' },
  { host: '' },
  { host: null },
  { host: 'x'.repeat(256) },
  { host: 'bad\nhost' },
  { host: 'bad\u0085host' },
  { host: 'lone \udc00' },
  { host: 42 },
  { errorMessage: 'exit code 2', logOutput: 'line 1\nline 2' },
  { errorMessage: '' },
  { errorMessage: null, logOutput: null },
  { errorMessage: 5 },
  { logOutput: { lines: [] } },
  { unknown: 'fields are ignored' },
  [1, 2],
  'text',
  42,
  true,
];

/** Limits the document gives in words only: the server refuses these, the schema lets them through. */
const DESCRIBED_ONLY: unknown[] = [{ timestamp: '2026-13-45T25:61:00Z' }];

t.test("the document's ping bodies accept exactly what the server accepts", async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const doc = (await api.request<OpenApiDocument>('/openapi.json')).body;
  const checker = new DocumentChecker(doc);
  for (const kind of ['start', 'success', 'fail'] as const) {
    const schema = checker.schema(
      'paths',
      `/ping/{monitorId}/${kind}`,
      'post',
      'requestBody',
      'content',
      'application/json',
      'schema',
    );
    for (const body of BODIES) {
      const server = parsePingBody(kind, 'application/json', JSON.stringify(body)).ok;
      t.equal(schema(body), server, `${kind} ${JSON.stringify(body)}: ${server ? 'accepted' : 'refused'}`);
    }
    for (const body of DESCRIBED_ONLY) {
      const server = parsePingBody(kind, 'application/json', JSON.stringify(body)).ok;
      t.equal(server, false, `${kind} ${JSON.stringify(body).slice(0, 40)}`);
      t.equal(schema(body), true, 'described in words, not by the schema');
    }
  }
});
