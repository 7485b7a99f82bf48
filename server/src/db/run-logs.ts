import type { Knex } from 'knex';

// Logs have their own table so that no list of runs ever reads them.

export async function insertRunLog(knex: Knex, log: { monitorId: string; runId: string; content: string }): Promise<void> {
  await knex('run_logs').insert({ monitor_id: log.monitorId, run_id: log.runId, content: log.content });
}

export async function findRunLog(knex: Knex, monitorId: string, runId: string): Promise<string | undefined> {
  const row = await knex('run_logs').where({ monitor_id: monitorId, run_id: runId }).first('content');
  return row?.content;
}
