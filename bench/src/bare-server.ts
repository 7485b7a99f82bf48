import Hapi from '@hapi/hapi';

// The yardstick: a hapi route answering the ping envelope without authentication or storage.
const server = Hapi.server({ host: '127.0.0.1', port: 0 });
server.route({
  method: 'POST',
  path: '/api/v1/ping/{monitorId}/success',
  handler: (request) => ({
    success: true,
    data: {
      received: true,
      monitorId: request.params.monitorId,
      runId: 'run_bare',
      status: 'success',
      timestamp: new Date().toISOString(),
    },
  }),
});
await server.start();
process.stdout.write(`bare hapi listening on ${server.info.uri}/api/v1\n`);
process.on('SIGTERM', () => void server.stop().then(() => process.exit(0)));
