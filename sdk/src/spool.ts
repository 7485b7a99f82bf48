import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { PingmonError } from './errors.js';
import { createHttp } from './http.js';
import { settingsRefusal, settingsRefused, withoutSettings } from './ping-settings.js';
import type { Http } from './http.js';
import type { PingKind } from './types.js';

/**
 * The job host's spool (DESIGN §14): pings the server could not take (no answer, 5xx, 503) wait here, one
 * file each, and are delivered later with their own time and runId, so that delivering one twice changes
 * nothing. Files are written whole (a temporary name, then a rename), named so that sorting them gives the
 * order the pings were made in, and delivered by one process at a time (a lock file), so that any number of
 * jobs can share one spool.
 */

/** A ping kept for later, as written to its file. */
export interface SpooledPing {
  /** The server, as the pinger was given it. */
  url: string;
  apiKey: string;
  monitorId: string;
  kind: PingKind;
  /** The ping's body, with its runId and `timestamp` (the time it was made). */
  body: { runId: string; timestamp: string } & Record<string, unknown>;
}

/** What the server no longer accepts (LATE_PING_MAX_MS on the server): older pings are dropped. */
export const SPOOL_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** At most this many pings are kept; past it the oldest go. */
export const SPOOL_MAX_PINGS = 10_000;
/** At most this many bytes of pings are kept; past it the oldest go. */
export const SPOOL_MAX_BYTES = 64 * 1024 * 1024;
/** A lock not refreshed for this long is a flush that died without removing it (a flush refreshes it often). */
const LOCK_STALE_MS = 10 * 60 * 1000;
/** A temporary file this old was left by a writer that died before renaming it. */
const ORPHAN_AFTER_MS = 10 * 60 * 1000;
/** Summing the spool's size takes a stat per file: below this many files it cannot reach SPOOL_MAX_BYTES. */
const FILES_BEFORE_SIZING = 1_000;

/** `$XDG_STATE_HOME/pingmon/spool`, or `~/.local/state/pingmon/spool`. */
export function defaultSpoolDir(env: NodeJS.ProcessEnv = process.env): string {
  // A relative XDG_STATE_HOME is ignored, as the XDG spec says: the spool must not move with the working directory.
  const given = env.XDG_STATE_HOME;
  const state = given && isAbsolute(given) ? given : join(homedir(), '.local', 'state');
  return join(state, 'pingmon', 'spool');
}

/** A ping the spool gave up: too old, refused by the server, or unreadable. */
export interface Dropped {
  file: string;
  reason: string;
}

export interface FlushReport {
  delivered: number;
  dropped: Dropped[];
  /** Starts delivered without the monitor settings they carried, which the server refused (the reason). */
  withoutSettings: Dropped[];
  /** Pings still in the spool. */
  left: number;
  /** Why some were left: the last delivery error (the server down, say). */
  error?: PingmonError;
  /** Another process was delivering the spool: this one did nothing. */
  busy: boolean;
}

export interface FlushOptions {
  /** When to stop (epoch ms); what is not delivered by then stays. Default: no limit. */
  deadline?: number;
  /** Stops the flush at once (the delivery under way included); what is not delivered stays. */
  signal?: AbortSignal;
  /** Delivers only these files (of those still in the spool). */
  only?: string[];
  /** Time one delivery may take (default 10 s). */
  timeoutMs?: number;
  /** Tries at most this many pings; the rest stays for the next flush. Default: no limit. */
  limit?: number;
}

export class Spool {
  constructor(readonly dir: string) {}

  /** Keeps `ping`; answers its file, and what had to go to keep the spool within its bounds. */
  async add(ping: SpooledPing): Promise<{ file: string; dropped: Dropped[] }> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const at = Date.parse(ping.body.timestamp);
    // Time first, then start before result: sorting the names is the order to deliver in.
    const name = `${String(at).padStart(15, '0')}-${ping.kind === 'start' ? 0 : 1}-${randomBytes(6).toString('hex')}`;
    const temporary = join(this.dir, `.${name}.tmp`);
    // Only this user can read it: it holds the API key.
    await writeFile(temporary, JSON.stringify(ping), { mode: 0o600 });
    await rename(temporary, join(this.dir, `${name}.json`));
    return { file: `${name}.json`, dropped: await this.trim() };
  }

  /** Whether a ping was kept at `at` or later (by its file's time, not the time it stands for). */
  async keptSince(at: number): Promise<boolean> {
    for (const file of await this.files()) {
      const kept = await stat(join(this.dir, file)).then(
        (s) => s.mtimeMs,
        () => 0,
      );
      if (kept >= at) return true;
    }
    return false;
  }

  /** Whether `file` is still waiting in the spool. */
  async holds(file: string): Promise<boolean> {
    return stat(join(this.dir, file)).then(
      () => true,
      () => false,
    );
  }

  /** The spooled pings' file names, oldest first. */
  async files(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).filter((name) => name.endsWith('.json')).sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  /**
   * Delivers the spooled pings, oldest first. A ping the server refuses for good (a monitor deleted, a key
   * revoked) is dropped; once a server cannot be reached, or answers something other than pingmon would (a
   * proxy's page), its later pings stay, in order, for the next flush.
   */
  async flush(options: FlushOptions = {}): Promise<FlushReport> {
    const listed = await this.listed(options);
    if (listed.length === 0) return { delivered: 0, dropped: [], withoutSettings: [], left: 0, busy: false };
    const report = await this.whileHeld((flush) => flush(options));
    return report ?? { delivered: 0, dropped: [], withoutSettings: [], left: listed.length, busy: true };
  }

  /**
   * Runs `fn` holding the spool's lock, with a flush that needs no lock of its own: a flush that goes on for a
   * while (see flushWithBackoff) keeps every other one out meanwhile. Undefined when another process holds it.
   */
  async whileHeld<T>(
    fn: (flush: (options?: FlushOptions) => Promise<FlushReport>) => Promise<T>,
  ): Promise<T | undefined> {
    const lock = await this.lock();
    if (!lock) return undefined;
    try {
      await this.removeOrphans();
      return await fn((options = {}) => this.deliverAll(lock, options));
    } finally {
      await lock.release();
    }
  }

  private async listed(options: FlushOptions): Promise<string[]> {
    const only = options.only && new Set(options.only);
    return (await this.files()).filter((file) => !only || only.has(file));
  }

  private async deliverAll(lock: Lock, options: FlushOptions): Promise<FlushReport> {
    const report: FlushReport = { delivered: 0, dropped: [], withoutSettings: [], left: 0, busy: false };
    const clients = new Map<string, Http>();
    const unreachable = new Set<string>();
    await lock.refresh();
    let tried = 0;
    for (const file of await this.listed(options)) {
      const over = options.deadline !== undefined && Date.now() >= options.deadline;
      if (options.signal?.aborted || over || tried >= (options.limit ?? Infinity)) {
        report.left++;
        continue;
      }
      const ping = await this.read(file, report);
      if (!ping) continue;
      if (unreachable.has(ping.url)) {
        report.left++;
        continue;
      }
      const key = `${ping.url}\n${ping.apiKey}`;
      let http = clients.get(key);
      if (!http) clients.set(key, (http = spoolHttp(ping, options.timeoutMs ?? 10_000)));
      tried++;
      let err = await deliver(http, ping, options);
      const plain = err && settingsRefused(err) ? withoutSettings(ping.body) : undefined;
      if (err && plain) {
        report.withoutSettings.push({ file, reason: settingsRefusal(err).message });
        err = await deliver(http, { ...ping, body: plain }, options);
      }
      await lock.refresh();
      if (err && !refusedForGood(err)) {
        unreachable.add(ping.url);
        report.error = err;
        report.left++;
        continue;
      }
      await this.remove(file);
      if (err) report.dropped.push({ file, reason: `the server refused it: ${err.message}` });
      else report.delivered++;
    }
    return report;
  }

  /** A spooled ping, or undefined (and the file dropped) if it is unreadable or too old to be accepted. */
  private async read(file: string, report: FlushReport): Promise<SpooledPing | undefined> {
    let ping: SpooledPing;
    try {
      ping = JSON.parse(await readFile(join(this.dir, file), 'utf8')) as SpooledPing;
      if (!isSpooledPing(ping)) throw new Error('not a spooled ping');
    } catch (err) {
      // Delivered and removed by another process since the listing: nothing to do.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      report.dropped.push({ file, reason: `unreadable: ${(err as Error).message}` });
      await this.remove(file);
      return undefined;
    }
    if (Date.now() - Date.parse(ping.body.timestamp) > SPOOL_MAX_AGE_MS) {
      report.dropped.push({ file, reason: 'more than 7 days old: the server no longer accepts it' });
      await this.remove(file);
      return undefined;
    }
    return ping;
  }

  /** Temporary files of writers that died before their rename (a live writer renames within milliseconds). */
  private async removeOrphans(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.tmp'))) {
      const info = await stat(join(this.dir, name)).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > ORPHAN_AFTER_MS) await this.remove(name);
    }
  }

  /** Removes the oldest pings past the spool's bounds; answers them. */
  private async trim(): Promise<Dropped[]> {
    const files = await this.files();
    let excess = Math.max(0, files.length - SPOOL_MAX_PINGS);
    if (files.length > FILES_BEFORE_SIZING) {
      let bytes = 0;
      const sizes = await Promise.all(files.map((file) => this.size(file)));
      for (let i = sizes.length - 1; i >= 0; i--) {
        bytes += sizes[i]!;
        if (bytes > SPOOL_MAX_BYTES) {
          excess = Math.max(excess, i + 1);
          break;
        }
      }
    }
    const dropped = files.slice(0, excess).map((file) => ({ file, reason: 'the spool was full' }));
    await Promise.all(dropped.map(({ file }) => this.remove(file)));
    return dropped;
  }

  private async size(file: string): Promise<number> {
    try {
      return (await stat(join(this.dir, file))).size;
    } catch {
      return 0;
    }
  }

  private async remove(file: string): Promise<void> {
    await unlink(join(this.dir, file)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  /**
   * Takes the spool's lock, or answers undefined when a live process holds it. The lock file holds a token
   * of this flush's own, so that it only ever removes its own lock; one left by a process that is gone (or
   * not refreshed for LOCK_STALE_MS) is taken over by renaming it first, which only one process can do.
   */
  private async lock(): Promise<Lock | undefined> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const path = join(this.dir, '.lock');
    const token = `${process.pid} ${randomBytes(8).toString('hex')}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await writeFile(path, token, { flag: 'wx', mode: 0o600 });
        return new Lock(path, token);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        if (!(await staleLock(path))) return undefined;
        const taken = `${path}.${randomBytes(6).toString('hex')}`;
        // Whoever renames it first takes it over; the others find it gone, and try again or give way.
        if (
          await rename(path, taken).then(
            () => true,
            () => false,
          )
        )
          await unlink(taken).catch(() => undefined);
      }
    }
    return undefined;
  }
}

/** A held spool lock: refreshed while a flush goes on, released only if it is still this flush's own. */
class Lock {
  private refreshedAt = Date.now();

  constructor(
    private readonly path: string,
    private readonly token: string,
  ) {}

  async refresh(): Promise<void> {
    if (Date.now() - this.refreshedAt < LOCK_STALE_MS / 10) return;
    this.refreshedAt = Date.now();
    const now = new Date();
    await utimes(this.path, now, now).catch(() => undefined);
  }

  async release(): Promise<void> {
    const held = await readFile(this.path, 'utf8').catch(() => undefined);
    if (held === this.token) await unlink(this.path).catch(() => undefined);
  }
}

/** One attempt to deliver a ping: undefined when delivered, else why not. */
async function deliver(http: Http, ping: SpooledPing, options: FlushOptions): Promise<PingmonError | undefined> {
  try {
    await http('POST', `ping/${encodeURIComponent(ping.monitorId)}/${ping.kind}`, ping.body, options);
    return undefined;
  } catch (err) {
    if (err instanceof PingmonError) return err;
    throw err;
  }
}

/**
 * A refusal that sending again cannot change: pingmon's own 4xx (its error shape has a code of its own; a
 * proxy's page gets `http_…`), other than 408 and a busy server's 429, or a request that cannot be sent at all.
 * Anything else (no answer, 5xx, 503, a redirect, a page that is not JSON) may go through later.
 */
function refusedForGood(err: PingmonError): boolean {
  if (err.code === 'unsendable') return true;
  return err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429 && !/^http_/.test(err.code);
}

function isSpooledPing(value: unknown): value is SpooledPing {
  const ping = value as Partial<SpooledPing> | null;
  return (
    typeof ping?.url === 'string' &&
    typeof ping.apiKey === 'string' &&
    typeof ping.monitorId === 'string' &&
    (ping.kind === 'start' || ping.kind === 'success' || ping.kind === 'fail') &&
    typeof ping.body?.runId === 'string' &&
    Number.isFinite(Date.parse(ping.body.timestamp))
  );
}

/**
 * Whether a ping that failed so goes to the spool: no answer, or the server unable to take it now. Not a
 * 429: the plan's rate limit refuses the run, and would refuse it later too; nor a request Node refuses to send.
 */
export function spoolable(err: PingmonError): boolean {
  return (err.status === 0 && err.code !== 'unsendable') || err.status === 408 || err.status >= 500;
}

/** One attempt per ping: a server that does not answer is tried again at the next flush, not now. */
function spoolHttp(ping: SpooledPing, timeoutMs: number): Http {
  return createHttp({
    baseUrl: ping.url,
    headers: { 'x-api-key': ping.apiKey },
    retryMethods: ['POST'],
    retryBudgetMs: timeoutMs,
    attemptTimeoutMs: timeoutMs,
    maxRetries: 0,
  });
}

/** A lock whose process has gone, or that is older than any flush. */
async function staleLock(path: string): Promise<boolean> {
  try {
    const [token, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    if (Date.now() - info.mtimeMs > LOCK_STALE_MS) return true;
    const pid = Number(token.split(' ')[0]);
    // Being written this very moment: not stale.
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // ESRCH: no such process. ENOENT: given back meanwhile. EPERM: alive, another user's.
    return (err as NodeJS.ErrnoException).code !== 'EPERM';
  }
}
