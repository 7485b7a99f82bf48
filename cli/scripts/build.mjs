// After the TypeScript build: the two things that keep `pingmon` quick to start.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Plugin } from '@oclif/core';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

// 1. oclif.manifest.json: oclif finds a command without loading every command's code.
const plugin = new Plugin({ root, type: 'core', ignoreManifest: true, errorOnManifestCreate: true });
await plugin.load();
writeFileSync(`${root}/oclif.manifest.json`, JSON.stringify(plugin.manifest));

// 2. `pingmon run` as one file: resolving and reading hundreds of small modules took longer than the
//    two pings. bin/run.js loads this bundle for `run` only.
await build({
  entryPoints: [`${root}/dist/run/main.js`],
  outfile: `${root}/dist/run-bundle.js`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  // Some dependencies are CommonJS and call require().
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
});
console.log(
  `pingmon: ${Object.keys(plugin.manifest.commands).length} commands in oclif.manifest.json, ` +
    'dist/run-bundle.js written',
);
