#!/usr/bin/env node
// `pingmon run` sits on the path of every cron job: it starts the run command's main without loading oclif,
// which doubles its start-up (`run -- true`: 130 ms of CPU this way, 260 ms through oclif, same bundle).
const args = process.argv.slice(2);
const dash = args.includes('--') ? args.indexOf('--') : args.length;
const wantsHelp = args.slice(0, dash).some((arg) => arg === '--help' || arg === '-h');

if (args[0] === 'run' && !wantsHelp) {
  const { main } = await import('../dist/run-bundle.js');
  const { fileURLToPath } = await import('node:url');
  process.exitCode = await main(args.slice(1), fileURLToPath(import.meta.url));
} else {
  const { flush, handle, run } = await import('@oclif/core');
  try {
    await run(args, import.meta.url);
    flush();
  } catch (err) {
    // pingmon's commands print their own errors (BaseCommand); what comes here is oclif's or a plugin's
    // (`pingmon autocomplete fish`): the same one line, without the usage after it.
    if (err instanceof Error && err.message !== 'SIGINT' && err.oclif?.exit !== 0 && err.code !== 'EEXIT') {
      const { oneLine } = await import('../dist/base-command.js');
      process.stderr.write(`pingmon: ${oneLine(err.message || String(err))}\n`);
      err.skipOclifErrorHandling = true;
    }
    await handle(err);
  }
}
