import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

// The thread of walCheckpointer (sqlite.ts): a connection of its own, copying the WAL into the file when asked.
const conn = new BetterSqlite3(workerData as string, { fileMustExist: true, timeout: 0 });
parentPort!.on('message', (message: 'checkpoint' | 'close') => {
  if (message === 'close') {
    conn.close();
    parentPort!.close();
    return;
  }
  // PASSIVE neither waits for the server's writes nor holds them up; what it leaves, the next one copies.
  conn.pragma('wal_checkpoint(PASSIVE)');
  parentPort!.postMessage('done');
});
