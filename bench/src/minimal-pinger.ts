// The yardstick for `pingmon run -- true`: the least a Node script can do to send the same two pings.
const [url, apiKey, monitorId] = [process.env.PINGMON_URL!, process.env.PINGMON_API_KEY!, process.env.PINGMON_MONITOR!];
const runId = crypto.randomUUID();
const ping = (kind: string, body: object) =>
  fetch(`${url}/api/v1/ping/${monitorId}/${kind}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
await ping('start', { runId });
await ping('success', { runId, meta: { exitCode: 0 } });
