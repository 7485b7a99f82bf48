// After the TypeScript build: the web dashboard, type-checked and bundled into dist/web (served by src/web.ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/web`;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', `${root}web/tsconfig.json`], { stdio: 'inherit' });

rmSync(out, { recursive: true, force: true });
mkdirSync(`${out}/assets`, { recursive: true });
const result = await build({
  entryPoints: [`${root}web/main.tsx`],
  outdir: `${out}/assets`,
  entryNames: 'app-[hash]',
  // What few pages need (the QR code of a second factor) is a chunk of its own, loaded when shown.
  chunkNames: 'chunk-[hash]',
  splitting: true,
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  metafile: true,
  logLevel: 'warning',
});
const outputs = Object.entries(result.metafile.outputs);
const files = outputs.map(([file]) => basename(file));
const script = basename(outputs.find(([file, output]) => output.entryPoint && file.endsWith('.js'))?.[0] ?? '');
const style = files.find((f) => f.endsWith('.css'));
// No inline script or style: the Content-Security-Policy allows the dashboard's own files only.
writeFileSync(
  `${out}/index.html`,
  `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>pingmon</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/assets/${style}" />
    <script type="module" src="/assets/${script}"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`,
);
const gzipped = (names) => names.reduce((sum, f) => sum + gzipSync(readFileSync(`${out}/assets/${f}`)).length, 0);
const first = [script, style];
const later = files.filter((f) => !first.includes(f) && !f.endsWith('.map'));
console.log(
  `pingmon: dashboard in dist/web (${first.join(', ')}; ${(gzipped(first) / 1024).toFixed(1)} KB gzipped, ` +
    `and ${(gzipped(later) / 1024).toFixed(1)} KB loaded by the pages that need it)`,
);
