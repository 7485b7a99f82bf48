import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Joi from 'joi';
import t from 'tap';
import { renderWireTypes } from '@pingmon/server/internal';

const SCRIPT = fileURLToPath(new URL('../../../server/scripts/wire-types.mjs', import.meta.url));

t.test("the SDK's committed wire types are what the server's schemas give", async (t) => {
  const check = spawnSync(process.execPath, [SCRIPT, '--check'], { encoding: 'utf8' });
  t.equal(check.status, 0, check.stderr);
});

t.test('a schema becomes its TypeScript type: presence, null, named unions and components', async (t) => {
  const Point = Joi.object({ x: Joi.number(), label: Joi.string().allow(null).optional() })
    .prefs({ presence: 'required' })
    .id('Point');
  const Shape = Joi.object({
    kind: Joi.string().valid('dot', 'line').description('What it is'),
    status: Joi.string().valid('running', 'success', 'failed').allow(null).meta({ type: 'RunStatus' }),
    points: Joi.array().items(Point),
    either: Joi.alternatives().try(Point, Joi.valid(null)),
    tags: Joi.object().pattern(/^/, Joi.number()),
    ok: Joi.valid(true),
  }).id('Shape');
  t.equal(
    renderWireTypes([Shape]),
    [
      '// Written by server/scripts/wire-types.mjs from the joi schemas of the server: do not edit.',
      "import type { RunStatus } from './types.js';",
      'export interface Point {\nx: number;\nlabel?: string | null;\n}',
      'export interface Shape {\n/** What it is */\nkind?: "dot" | "line";\nstatus?: RunStatus | null;\n' +
        'points?: Point[];\neither?: Point | null;\ntags?: Record<string, number>;\nok?: true;\n}',
    ].join('\n\n'),
  );
});

t.test('a request schema becomes its type: either-or keys, keys that depend on others, dates', async (t) => {
  const Place = Joi.object({
    city: Joi.string(),
    zone: Joi.string(),
    offset: Joi.number(),
  })
    .xor('city', 'offset')
    .without('offset', 'zone')
    .id('Place');
  const Order = Joi.object({
    kind: Joi.string().valid('mail', 'web').required(),
    to: Joi.when('kind', { is: 'mail', then: Joi.string().email().required(), otherwise: Joi.string().required() }),
    at: Joi.date().iso().allow(null),
    place: Place.allow(null),
    id: Joi.any().forbidden(),
  }).id('Order');
  t.equal(
    renderWireTypes([Order]),
    [
      '// Written by server/scripts/wire-types.mjs from the joi schemas of the server: do not edit.',
      'export interface Order {\nkind: "mail" | "web";\nto: string;\nat?: string | null;\nplace?: Place | null;\n}',
      'export type Place = {\ncity: string;\nzone?: string;\n} | {\noffset: number;\n};',
    ].join('\n\n'),
  );
});
