import { hostname } from 'node:os';
import { PingmonError } from './errors.js';
import type { CallOptions, Http } from './http.js';
import { checkBaseUrl, createHttp, positiveMs } from './http.js';
import { newRunId } from './ids.js';
import { ERROR_MESSAGE_MAX_CHARS, HOST_MAX_CHARS, LOG_MAX_CHARS, storableText } from './limits.js';
import { Redactor } from './redact.js';
import type { RedactOptions } from './redact.js';
import { Spool, defaultSpoolDir, spoolable } from './spool.js';
import type { FlushReport } from './spool.js';
import { SpoolRetry } from './spool-retry.js';
import { refusedSettings, settingsRefusal, withoutSettings } from './ping-settings.js';
import type {
  FailPingBody,
  Meta,
  OutputAck,
  OutputChunkBody,
  PingAck,
  PingKind,
  PingMonitorSettings,
  PingResponse,
  StartPingBody,
  SuccessPingBody,
} from './types.js';

export interface PingerOptions {
  /** The monitor's slug (`nightly-backup`) or id (`mon_…`). */
  monitor?: string;
  /** The same as `monitor` (its older name): one of the two is needed. */
  monitorId?: string;
  /**
   * The monitor's settings (docs/api.md#monitor-settings-in-a-ping), sent with each start, and with a result whose
   * run this pinger did not start: a monitor of an unknown slug is created with them, a known one updated where they
   * differ. Refused (invalid, a ping-only key, the plan's limit), the reason goes to onError once, and the pings go
   * without them from then on.
   */
  settings?: PingMonitorSettings;
  /** Defaults to PINGMON_API_KEY. */
  apiKey?: string;
  /** The server, with or without /api/v1. Defaults to PINGMON_URL. */
  baseUrl?: string;
  /** Where `wrap` reports pings it could not deliver; default: one `[pingmon] …` line on stderr. */
  onError?: (err: PingmonError) => void;
  /** Total time one ping may take, every attempt and wait included (default 30 s). */
  retryBudgetMs?: number;
  /** Time one attempt may take, cut to what is left of the budget (default 10 s). */
  timeoutMs?: number;
  /**
   * Where pings the server cannot take (no answer, 5xx, 503) are kept for later, with their own time (see
   * Spool): default `$XDG_STATE_HOME/pingmon/spool`; false keeps none.
   */
  spool?: string | false;
  /**
   * After a ping went to the spool: `true` (default) tries the spool again in this process, with backoff (1 s
   * doubling to 15 s, for 30 minutes at most; 5 pings a try), on timers that never keep the process alive; `false`
   * leaves it to the next ping, `pingmon run` or `pingmon flush`; a function is called instead (`pingmon run` starts
   * a detached `pingmon flush` with it).
   */
  retrySpool?: boolean | (() => void);
  /**
   * The host name sent with each ping, shown on the run and used to group the missed alerts of one host's
   * monitors (docs/alerts.md): default os.hostname(); false sends none.
   */
  host?: string | false;
  /**
   * Which environment variables hold secrets (docs/api.md#redactions): their values, and common secret shapes, are
   * replaced with `[redacted]` in fail()'s message and log (and meta keys) before they are sent or spooled. Default:
   * PINGMON_REDACT_ENV and PINGMON_REDACT_PATTERN; the built-in shapes always apply.
   */
  redact?: RedactOptions;
}

export interface SuccessOptions {
  meta?: Meta;
  /** Secrets already redacted from this run's output by the caller (a RedactingStream's): added to the count sent. */
  redactions?: number;
  /** Finish this run instead of the one `start()` opened. */
  runId?: string;
}

export interface FailOptions {
  /** Sent as errorMessage, cut to 500 characters, NUL replaced by U+FFFD. */
  message?: string;
  /** Sent as logOutput, cut to its first 10,000 characters, NUL replaced by U+FFFD. */
  log?: string;
  meta?: Meta;
  runId?: string;
  /** Secrets already redacted from this run's output by the caller: added to the count sent. */
  redactions?: number;
}

export interface Pinger {
  readonly monitorId: string;
  /** The run opened by the last start() and not yet finished. */
  readonly runId: string | undefined;
  start(): Promise<PingAck>;
  success(options?: SuccessOptions): Promise<PingAck>;
  fail(options?: FailOptions): Promise<PingAck>;
  wrap<T>(fn: () => T | Promise<T>): Promise<T>;
  /**
   * Sends a piece of a running run's output (docs/api.md#live-output): one call within timeoutMs, never spooled;
   * a refusal is a PingmonError (409 `run_not_started`: its start is not there yet; `run_finished`: it has ended).
   */
  output(chunk: OutputChunkBody, options?: { signal?: AbortSignal }): Promise<OutputAck>;
}

/** A pinger for one monitor: start(), success(), fail() and wrap(fn). */
export function createPinger(options: PingerOptions): Pinger {
  const apiKey = options.apiKey ?? process.env.PINGMON_API_KEY;
  const baseUrl = options.baseUrl ?? process.env.PINGMON_URL;
  const monitor = options.monitor ?? options.monitorId;
  if (!monitor) throw new TypeError('createPinger needs a monitor: its slug (nightly-backup) or its id (mon_…)');
  if (!apiKey) throw new TypeError('createPinger needs an apiKey (or PINGMON_API_KEY in the environment)');
  if (!baseUrl) {
    throw new TypeError('createPinger needs a baseUrl (or PINGMON_URL in the environment), e.g. http://127.0.0.1:8080');
  }
  checkBaseUrl(baseUrl);
  const limits = {
    retryBudgetMs: positiveMs('retryBudgetMs', options.retryBudgetMs, 30_000),
    timeoutMs: positiveMs('timeoutMs', options.timeoutMs, 10_000),
  };
  const http = createHttp({
    baseUrl,
    headers: { 'x-api-key': apiKey },
    retryMethods: ['POST'],
    retryBudgetMs: limits.retryBudgetMs,
    attemptTimeoutMs: limits.timeoutMs,
  });
  const onError = options.onError ?? ((err: PingmonError) => process.stderr.write(`[pingmon] ${err.message}\n`));
  const spool = options.spool === false ? undefined : new Spool(options.spool ?? defaultSpoolDir());
  const retrySpool = options.retrySpool ?? true;
  const host = hostOf(options.host);
  const redactor = new Redactor(options.redact);
  const delivery = { http, onError, limits, spool, retrySpool, baseUrl, apiKey, host, redactor };
  return new MonitorPinger(monitor, delivery, options.settings);
}

/** The host a pinger names, as the server takes it (docs/api.md): printable, 255 characters at most. */
function hostOf(given: string | false | undefined): string | undefined {
  if (given === false) return undefined;
  const host = (given ?? hostname()).replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  return host === '' ? undefined : storableText(host, HOST_MAX_CHARS);
}

interface Delivery {
  http: Http;
  onError: (err: PingmonError) => void;
  limits: { retryBudgetMs: number; timeoutMs: number };
  spool: Spool | undefined;
  retrySpool: boolean | (() => void);
  /** What a spooled ping needs to be delivered by another process. */
  baseUrl: string;
  apiKey: string;
  /** Sent with each ping. */
  host: string | undefined;
  /** Applied to what a result sends, before it is sent or spooled. */
  redactor: Redactor;
}

/** A start not answered yet: a result for its run waits for it, and may abandon it. */
interface StartInFlight {
  abandon: AbortController;
  settled: Promise<void>;
}

class MonitorPinger implements Pinger {
  runId: string | undefined;
  private readonly starts = new Map<string, StartInFlight>();
  /** The spool files of starts that went to the spool, by runId: their results must follow them there. */
  private readonly spooledStarts = new Map<string, string>();
  /** Called once a ping is in the spool, to deliver it before the next ping if the server is back by then. */
  private readonly retrySpool: (() => void) | undefined;
  /** Runs this pinger started: their results need not carry the settings again. */
  private readonly started = new Set<string>();

  constructor(
    readonly monitorId: string,
    private readonly delivery: Delivery,
    /** Dropped once the server refused them. */
    private settings: PingMonitorSettings | undefined,
  ) {
    const { spool, retrySpool } = delivery;
    if (typeof retrySpool === 'function') this.retrySpool = retrySpool;
    else if (retrySpool && spool)
      this.retrySpool = new SpoolRetry(spool, this.limits.timeoutMs, (r) => this.reportDropped(r)).kept;
  }

  private get limits() {
    return this.delivery.limits;
  }

  async start(): Promise<PingAck> {
    const runId = newRunId();
    this.runId = runId;
    return this.sendStart(runId);
  }

  // A result always names its run, so that retrying it can never record a second result.
  async success(options: SuccessOptions = {}): Promise<PingAck> {
    const runId = this.finishing(options.runId);
    const redacted = this.redacted(options);
    const body: SuccessPingBody & { runId: string } = {
      runId,
      meta: redacted.meta,
      host: this.delivery.host,
      redactions: redacted.redactions,
      ...this.settingsOf(runId),
    };
    return this.sendResult('success', runId, body);
  }

  async fail(options: FailOptions = {}): Promise<PingAck> {
    const runId = this.finishing(options.runId);
    const { message, log, meta, redactions } = this.redacted(options);
    const body: FailPingBody & { runId: string } = {
      runId,
      errorMessage: message === undefined ? undefined : storableText(message, ERROR_MESSAGE_MAX_CHARS),
      logOutput: log === undefined ? undefined : storableText(log, LOG_MAX_CHARS),
      meta,
      host: this.delivery.host,
      redactions,
      ...this.settingsOf(runId),
    };
    return this.sendResult('fail', runId, body);
  }

  /**
   * Runs fn between start and its result, in a run of its own (overlapping wraps never mix their runs, nor
   * the one start() remembers). fn runs while start is still on its way; the result then goes as described
   * at sendResult, so wrap ends at most retryBudgetMs after fn. Pings that cannot be delivered go to onError
   * and never change fn's outcome.
   */
  async wrap<T>(fn: () => T | Promise<T>): Promise<T> {
    const runId = newRunId();
    this.sendStart(runId).catch((err: unknown) => this.report(err));
    let result: T;
    try {
      result = await fn();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const log = err instanceof Error && err.stack ? err.stack : String(err);
      await this.fail({ runId, message, log }).catch((pingErr: unknown) => this.report(pingErr));
      throw err;
    }
    await this.success({ runId }).catch((err: unknown) => this.report(err));
    return result;
  }

  output(chunk: OutputChunkBody, options: { signal?: AbortSignal } = {}): Promise<OutputAck> {
    const path = `ping/${encodeURIComponent(this.monitorId)}/output`;
    const deadline = Date.now() + this.limits.timeoutMs;
    return this.delivery.http<OutputAck>('POST', path, chunk, { deadline, signal: options.signal });
  }

  /**
   * A result's texts with their secrets replaced (before they are cut to their limits, which could cut a secret
   * out of recognition), and the count to send: undefined when none.
   */
  private redacted(options: FailOptions): Pick<FailOptions, 'message' | 'log' | 'meta' | 'redactions'> {
    const { redactor } = this.delivery;
    const before = redactor.redactions;
    const text = (value: string | undefined) => (value === undefined ? undefined : redactor.redact(value));
    const meta =
      options.meta && Object.fromEntries(Object.entries(options.meta).map(([k, v]) => [redactor.redact(k), v]));
    const redacted = { message: text(options.message), log: text(options.log), meta };
    const given = Number.isSafeInteger(options.redactions) && options.redactions! > 0 ? options.redactions! : 0;
    const redactions = given + redactor.redactions - before;
    return { ...redacted, redactions: redactions > 0 ? redactions : undefined };
  }

  private finishing(runId: string | undefined): string {
    const id = runId ?? this.runId ?? newRunId();
    if (id === this.runId) this.runId = undefined;
    return id;
  }

  private startBody(runId: string): StartPingBody & { runId: string } {
    return { runId, host: this.delivery.host, ...(this.settings && { monitor: this.settings }) };
  }

  /** The settings for a result: none when this pinger started its run (the start carried them). */
  private settingsOf(runId: string): { monitor?: PingMonitorSettings } {
    return this.started.delete(runId) || !this.settings ? {} : { monitor: this.settings };
  }

  /** Sends a start, after the pings spooled before it (so that the server gets a host's pings in order). */
  private sendStart(runId: string): Promise<PingAck> {
    // Now, not once the spool is read: a result asked for meanwhile (a job over at once) leaves its settings out.
    this.started.add(runId);
    const at = Date.now();
    const deadline = at + this.limits.retryBudgetMs;
    const abandon = new AbortController();
    const sent = this.spooledFirst(deadline, abandon.signal).then(() =>
      this.deliver('start', this.startBody(runId), at, { deadline, signal: abandon.signal }),
    );
    const settled = sent
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => this.starts.delete(runId));
    this.starts.set(runId, { abandon, settled });
    return sent;
  }

  /**
   * A result is over within retryBudgetMs of being asked for, start included (and then the time it takes to
   * write it to the spool). If its run's start is still in flight, it waits for it, so that the server gets
   * the two in order (and the run its duration), but gives it up in time to leave itself one whole attempt
   * (or half the budget): after retryBudgetMs − timeoutMs at most. An abandoned start is reported as a
   * timeout, or, when it was waiting to be sent again, with the answer it had (a 503, say), and goes to the
   * spool. A result whose start is in the spool follows it there, unless the spool can be delivered first;
   * without a spool, it opens the run on the server, already finished.
   */
  private async sendResult(
    kind: 'success' | 'fail',
    runId: string,
    body: (SuccessPingBody | FailPingBody) & { runId: string },
  ): Promise<PingAck> {
    const at = Date.now();
    const deadline = at + this.limits.retryBudgetMs;
    const start = this.starts.get(runId);
    if (start) {
      // Given up in time to leave the result one attempt, or half the budget when that is shorter.
      const giveUpAt = deadline - Math.min(this.limits.timeoutMs, this.limits.retryBudgetMs / 2);
      const timer = setTimeout(() => start.abandon.abort(), giveUpAt - Date.now());
      await start.settled;
      clearTimeout(timer);
    }
    const startFile = this.spooledStarts.get(runId);
    const { spool } = this.delivery;
    if (startFile !== undefined && spool) {
      // Its start first, ahead of older spooled pings, so that this run is not held up behind a backlog.
      this.spooledStarts.delete(runId);
      const flushed = spool.flush({ deadline, timeoutMs: this.limits.timeoutMs, only: [startFile] });
      const busy = await flushed.then(
        (report) => {
          this.reportDropped(report);
          return report.busy;
        },
        (err: unknown) => {
          this.report(err);
          return false;
        },
      );
      // Another process's flush holds the spool and will deliver the start: the result goes now. The server pairs
      // the two by runId; a start that comes after its result changes nothing (the run then has no duration).
      if (!busy && (await spool.holds(startFile))) {
        const why = new PingmonError({
          ...{ status: 0, code: 'start_spooled', method: 'POST', url: '' },
          message: `the ${kind} of run ${runId} follows its start, which could not be delivered`,
        });
        throw await this.keep(kind, body, at, why);
      }
      // It waited: it says when it was made.
      return this.deliver(kind, { ...body, timestamp: new Date(at).toISOString() }, at, { deadline });
    }
    return this.deliver(kind, body, at, { deadline });
  }

  private reportDropped(report: FlushReport): void {
    for (const { file, reason } of report.dropped) this.report(new Error(`spooled ping ${file} dropped: ${reason}`));
  }

  /**
   * Delivers the spool's pings before this pinger's next one, if there are any and no other process is at it,
   * within the ping's own deadline. Its start given up, the flush stops too (and gives the spool back).
   */
  private async spooledFirst(deadline: number, abandon: AbortSignal): Promise<void> {
    const { spool } = this.delivery;
    if (!spool) return;
    const options = { deadline, timeoutMs: this.limits.timeoutMs, signal: abandon };
    await spool.flush(options).then(
      (report) => this.reportDropped(report),
      (err: unknown) => this.report(err),
    );
  }

  /** Sends a ping; one the server cannot take now goes to the spool, with its time (and rejects, saying so). */
  private async deliver(
    kind: PingKind,
    body: { runId: string; timestamp?: string | null },
    at: number,
    call: CallOptions,
  ): Promise<PingAck> {
    try {
      return await this.send(kind, body, call);
    } catch (err) {
      if (!this.delivery.spool || !(err instanceof PingmonError) || !spoolable(err)) throw err;
      throw await this.keep(kind, body, at, err);
    }
  }

  /** Writes a ping to the spool; answers the error to report: `why` it is there, or why it is lost. */
  private async keep(kind: PingKind, body: { runId: string }, at: number, why: PingmonError): Promise<PingmonError> {
    const { spool, baseUrl, apiKey } = this.delivery;
    const fields = { status: why.status, method: why.method, url: why.url, cause: why };
    try {
      const timestamp = new Date(at).toISOString();
      const ping = { url: baseUrl, apiKey, monitorId: this.monitorId, kind, body: { ...body, timestamp } };
      const { file, dropped } = await spool!.add(ping);
      if (kind === 'start') this.spooledStarts.set(body.runId, file);
      this.retried();
      const n = dropped.length;
      const full =
        n > 0 ? ` (the spool was full: its ${n === 1 ? 'oldest ping was' : `${n} oldest pings were`} dropped)` : '';
      const soon = this.retrySpool ? 'as soon as the server answers again, or ' : '';
      const message =
        `${why.message}; the ${kind} is kept in the spool${full} and will be sent ${soon}by the next ` +
        '`pingmon run` on this host, or by `pingmon flush`';
      return new PingmonError({ ...fields, code: 'spooled', message });
    } catch (err) {
      const message = `${why.message}; the ${kind} could not be kept in the spool (${String(err)}), and is lost`;
      return new PingmonError({ ...fields, code: why.code, message });
    }
  }

  private retried(): void {
    try {
      this.retrySpool?.();
    } catch (err) {
      this.report(err);
    }
  }

  /** Sends a ping; its settings refused, it reports why once and sends the ping again without them. */
  private async send(kind: PingKind, body: object, call: CallOptions): Promise<PingAck> {
    const path = `ping/${encodeURIComponent(this.monitorId)}/${kind}`;
    try {
      return (await this.delivery.http<PingResponse>('POST', path, body, call)).data;
    } catch (err) {
      if (!refusedSettings(err, body)) throw err;
      if (this.settings) this.report(settingsRefusal(err));
      this.settings = undefined;
      return (await this.delivery.http<PingResponse>('POST', path, withoutSettings(body), call)).data;
    }
  }

  private report(err: unknown): void {
    try {
      this.delivery.onError(
        err instanceof PingmonError
          ? err
          : new PingmonError({
              ...{ status: 0, code: 'error', method: 'POST', url: '' },
              message: err instanceof Error ? err.message : String(err),
            }),
      );
    } catch {
      // A throwing onError must not change fn's outcome either.
    }
  }
}
