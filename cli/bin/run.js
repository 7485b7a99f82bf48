#!/usr/bin/env node
// `pingmon run` sits on the path of every cron job: it starts without loading oclif at all.
const args = process.argv.slice(2);
const dash = args.includes('--') ? args.indexOf('--') : args.length;
const wantsHelp = args.slice(0, dash).some((arg) => arg === '--help' || arg === '-h');

if (args[0] === 'run' && !wantsHelp) {
  const { main } = await import('../dist/run-bundle.js');
  process.exitCode = await main(args.slice(1));
} else {
  const { execute } = await import('@oclif/core');
  await execute({ dir: import.meta.url });
}
