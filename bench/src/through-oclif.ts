// `pingmon run` through oclif, the way bin/run.js goes for every other command: what its shortcut for `run` saves.
import { createRequire } from 'node:module';
import type * as Oclif from '@oclif/core';
import { pathToFileURL } from 'node:url';
import { CLI } from './processes.js';

const oclif = (await import(createRequire(CLI).resolve('@oclif/core'))) as typeof Oclif;
await oclif.run(process.argv.slice(2), pathToFileURL(CLI).href);
oclif.flush();
