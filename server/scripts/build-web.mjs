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
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  metafile: true,
  logLevel: 'warning',
});
const files = Object.keys(result.metafile.outputs).map((file) => basename(file));
const script = files.find((f) => f.endsWith('.js'));
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
const gzipped = files.reduce((sum, f) => sum + gzipSync(readFileSync(`${out}/assets/${f}`)).length, 0);
console.log(`pingmon: dashboard in dist/web (${files.join(', ')}; ${(gzipped / 1024).toFixed(1)} KB gzipped)`);
