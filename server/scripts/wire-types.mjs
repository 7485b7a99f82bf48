// After the build: writes sdk/src/wire-types.ts from the server's joi schemas (answers, requests, ping bodies); with
// --check, only says whether the committed file is what they give (exit 1 when stale). Then build again: the SDK
// compiles what was written.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Joi from 'joi';
import prettier from 'prettier';
import * as responses from '../dist/routes/responses.js';
import * as requests from '../dist/routes/requests.js';
import { PING_BODIES } from '../dist/routes/ping-bodies.js';
import { renderWireTypes } from '../dist/wire-types.js';

const target = fileURLToPath(new URL('../../sdk/src/wire-types.ts', import.meta.url));
// A request schema is named by its export (the routes validate with it unnamed: no component of its own).
const named = Object.entries(requests).map(([name, schema]) => schema.id(name));
const schemas = [
  ...Object.values(responses).filter((value) => Joi.isSchema(value)),
  ...named,
  ...Object.values(PING_BODIES),
];
const text = renderWireTypes(schemas);
const options = await prettier.resolveConfig(target);
const written = await prettier.format(text, { ...options, filepath: target });
const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
if (process.argv.includes('--check')) {
  if (current !== written) {
    console.error(`${target} is stale: run npm run wire-types -w @pingmon/server, then build again.`);
    process.exit(1);
  }
} else if (current !== written) {
  writeFileSync(target, written);
  console.log(`${target} written`);
}
