import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document, Node, Pair } from 'yaml';
import { DURATION_FORMS, FAIL_ALERTS, isSlug, MONITOR_DEFAULTS, parseDuration, SLUG_RULE } from '@pingmon/sdk/wire';
import type { FailAlerts, MonitorSettings, Schedule } from '@pingmon/sdk/wire';
import { parseRuleExpression, RULE_FORM } from '../rule-expression.js';
import type { Desired, DesiredChannel, DesiredMonitor } from './plan.js';

// A monitors file (pingmon.yaml, or JSON: YAML reads it too) read into what `pingmon apply` wants, every mistake
// named by its line and field with what to write instead (docs/cli.md#monitors-as-code).

export type FileResult = { ok: true; desired: Desired } | { ok: false; errors: string[] };

type Path = Array<string | number>;
type Plain = Record<string, unknown>;

const MONITOR_KEYS = ['slug', 'name', 'schedule', ...Object.keys(MONITOR_DEFAULTS).filter((k) => k !== 'schedule')];
MONITOR_KEYS.push('rules');
/** What a key written the CLI's way (or misplaced) should be instead. */
const INSTEAD: Record<string, string> = {
  grace: 'startGrace',
  'start-grace': 'startGrace',
  'max-runtime': 'maxRuntime',
  renotify: 'renotifyAfter',
  'failure-threshold': 'failureThreshold',
  'recovery-threshold': 'recoveryThreshold',
  'fail-alerts': 'failAlerts',
  cron: 'schedule: {cron: …}',
  every: 'schedule: {every: …}',
  timezone: 'schedule: {cron: …, timezone: …}',
  tz: 'schedule: {cron: …, timezone: …}',
  id: 'slug (monitors are named by their slug here)',
  monitorId: 'slug (monitors are named by their slug here)',
};

/** Reads the file's text; `name` is how messages call the file. */
export function readMonitorsFile(text: string, name: string): FileResult {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0)
    return {
      ok: false,
      errors: doc.errors.map((e) => `${name}:${lines.linePos(e.pos[0]).line}: ${firstLine(e.message)}`),
    };
  const reader = new Reader(doc, lines, name);
  const desired = reader.file(doc.toJS() as unknown);
  return reader.errors.length > 0 || !desired ? { ok: false, errors: reader.errors } : { ok: true, desired };
}

const firstLine = (text: string) => text.split('\n')[0]!;

class Reader {
  readonly errors: string[] = [];

  constructor(
    private readonly doc: Document,
    private readonly lines: LineCounter,
    private readonly name: string,
  ) {}

  file(value: unknown): Desired | undefined {
    if (!isPlain(value))
      return void this.fail([], 'the file must be a map with `monitors:` (a list); see `pingmon monitors export`');
    this.unknownKeys(value, [], ['version', 'monitors', 'channels'], {});
    if (value.version !== undefined && value.version !== 1) this.fail(['version'], 'must be 1 (or left out)');
    if (!Array.isArray(value.monitors))
      return void this.fail(
        value.monitors === undefined ? [] : ['monitors'],
        'write `monitors:` with a list of monitors (`monitors: []` for none)',
      );
    const monitors = value.monitors.map((m, i) => this.monitor(m, ['monitors', i]));
    const seen = new Map<string, number>();
    monitors.forEach((m, i) => {
      if (!m) return;
      if (seen.has(m.slug))
        this.fail(
          ['monitors', i, 'slug'],
          `"${m.slug}" is already the slug of monitors[${seen.get(m.slug)}]: give each monitor its own`,
        );
      seen.set(m.slug, i);
    });
    let channels: DesiredChannel[] | null = null;
    if (value.channels !== undefined && value.channels !== null) {
      if (!Array.isArray(value.channels))
        this.fail(['channels'], 'write a list of channels, each `- name: …` with `monitors: all` or a list of slugs');
      else channels = this.channels(value.channels);
    }
    return { monitors: monitors.filter((m) => m !== undefined), channels };
  }

  private channels(list: unknown[]): DesiredChannel[] {
    const channels = list.map((c, i) => this.channel(c, ['channels', i]));
    const seen = new Map<string, number>();
    channels.forEach((c, i) => {
      if (!c) return;
      const first = seen.get(c.name);
      if (first !== undefined)
        this.fail(
          ['channels', i, 'name'],
          `channel "${c.name}" is already in channels[${first}]: name each channel once`,
        );
      else seen.set(c.name, i);
    });
    return channels.filter((c) => c !== undefined);
  }

  private monitor(value: unknown, at: Path): DesiredMonitor | undefined {
    if (!isPlain(value)) return void this.fail(at, 'each monitor is a map: `- slug: nightly-backup` and its settings');
    this.unknownKeys(value, at, MONITOR_KEYS, INSTEAD);
    const slug = value.slug;
    if (typeof slug !== 'string' || !isSlug(slug)) {
      return void this.fail(
        slug === undefined ? at : [...at, 'slug'],
        `${slug === undefined ? 'slug is missing' : `slug ${JSON.stringify(slug)} is not a slug`}: ` +
          `write ${SLUG_RULE}, such as nightly-backup`,
      );
    }
    const name = value.name ?? slug;
    if (typeof name !== 'string' || name.trim() === '' || name.length > 200)
      this.fail([...at, 'name'], 'name must be text of 1 to 200 characters');
    const settings: MonitorSettings = {
      schedule: this.schedule(value.schedule, [...at, 'schedule']),
      startGrace: this.seconds(value.startGrace, [...at, 'startGrace'], false) ?? MONITOR_DEFAULTS.startGrace,
      maxRuntime: this.seconds(value.maxRuntime, [...at, 'maxRuntime'], true) ?? null,
      failureThreshold: this.count(value.failureThreshold, [...at, 'failureThreshold']),
      recoveryThreshold: this.count(value.recoveryThreshold, [...at, 'recoveryThreshold']),
      renotifyAfter: this.seconds(value.renotifyAfter, [...at, 'renotifyAfter'], true) ?? null,
      failAlerts: this.failAlerts(value.failAlerts, [...at, 'failAlerts']),
      paused: this.flag(value.paused, [...at, 'paused']) ?? false,
    };
    return {
      slug,
      name: String(name).trim(),
      settings,
      rules: this.rules(value.rules, [...at, 'rules']),
      line: this.lineOf(at),
    };
  }

  private schedule(value: unknown, at: Path): Schedule | null {
    if (value === undefined || value === null || value === 'none') return null;
    const form =
      'write `schedule: {cron: "0 3 * * *", timezone: Europe/Berlin}`, `schedule: {every: 1h}` or leave it out';
    if (!isPlain(value)) return (this.fail(at, form), null);
    this.unknownKeys(value, at, ['cron', 'timezone', 'every'], { tz: 'timezone' });
    if (value.every !== undefined) {
      if (value.cron !== undefined || value.timezone !== undefined)
        this.fail(at, `give cron or every, not both: ${form}`);
      const every = this.seconds(value.every, [...at, 'every'], false);
      return every === undefined ? null : { every };
    }
    if (typeof value.cron !== 'string') return (this.fail(value.cron === undefined ? at : [...at, 'cron'], form), null);
    const cron = value.cron.trim().split(/\s+/).join(' ');
    if (cron.split(' ').length !== 5)
      this.fail(
        [...at, 'cron'],
        `"${cron}" has ${cron.split(' ').length} field(s); write 5: minute hour day-of-month month day-of-week`,
      );
    if (value.timezone !== undefined && typeof value.timezone !== 'string')
      this.fail([...at, 'timezone'], 'write an IANA name such as Europe/Berlin');
    return { cron, timezone: typeof value.timezone === 'string' ? value.timezone : 'UTC' };
  }

  private seconds(value: unknown, at: Path, nullable: boolean): number | undefined {
    if (value === undefined || (nullable && (value === null || value === 'none'))) return undefined;
    const seconds = typeof value === 'number' ? value : typeof value === 'string' ? parseDuration(value) : undefined;
    if (seconds === undefined || !Number.isInteger(seconds) || seconds <= 0)
      return void this.fail(
        at,
        `${JSON.stringify(value)} is not a duration: ` +
          `write ${DURATION_FORMS} (whole seconds)${nullable ? ', or none' : ''}`,
      );
    return seconds;
  }

  private count(value: unknown, at: Path): number {
    if (value === undefined) return 1;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 100)
      this.fail(at, `${JSON.stringify(value)} is not a whole number from 1 to 100`);
    return value as number;
  }

  private failAlerts(value: unknown, at: Path): FailAlerts {
    if (value === undefined) return MONITOR_DEFAULTS.failAlerts;
    if (!FAIL_ALERTS.includes(value as FailAlerts))
      this.fail(at, `write ${FAIL_ALERTS.join(' or ')} (got ${JSON.stringify(value)})`);
    return value as FailAlerts;
  }

  private flag(value: unknown, at: Path): boolean | undefined {
    if (value === undefined || typeof value === 'boolean') return value;
    return void this.fail(at, `write true or false (got ${JSON.stringify(value)})`);
  }

  private rules(value: unknown, at: Path): DesiredMonitor['rules'] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value))
      return (this.fail(at, `write a list of rules, each ${RULE_FORM}: - rowsProcessed < 1`), []);
    return value.flatMap((text, i) => {
      const parsed = typeof text === 'string' ? parseRuleExpression(text) : undefined;
      if (parsed?.ok) return [parsed.rule];
      this.fail([...at, i], parsed ? parsed.error : `write the rule as text: ${RULE_FORM}, such as rowsProcessed < 1`);
      return [];
    });
  }

  private channel(value: unknown, at: Path): DesiredChannel | undefined {
    const form = 'each channel is `- name: ops slack` with `monitors: all` or a list of slugs';
    if (!isPlain(value)) return void this.fail(at, form);
    const secret = 'not part of the file (it holds no secrets): change it with `pingmon channels update`';
    this.unknownKeys(value, at, ['name', 'type', 'monitors', 'enabled'], { url: secret, secret, to: secret });
    if (typeof value.name !== 'string') return void this.fail(value.name === undefined ? at : [...at, 'name'], form);
    const monitors = value.monitors;
    const slugs = Array.isArray(monitors) && monitors.every((m) => typeof m === 'string');
    if (monitors !== 'all' && !slugs)
      return void this.fail(
        monitors === undefined ? at : [...at, 'monitors'],
        'write `monitors: all` or a list of slugs: `monitors: [nightly-backup]`',
      );
    if (Array.isArray(monitors) && monitors.length === 0)
      this.fail(
        [...at, 'monitors'],
        'list at least one slug, or write `all`; to silence the channel, write enabled: false',
      );
    if (value.type !== undefined && typeof value.type !== 'string')
      this.fail([...at, 'type'], 'write the channel type, such as slack, or leave it out');
    return {
      name: value.name,
      type: value.type as string | undefined,
      monitors: monitors as 'all' | string[],
      enabled: this.flag(value.enabled, [...at, 'enabled']),
      line: this.lineOf(at),
    };
  }

  private unknownKeys(value: Plain, at: Path, known: string[], instead: Record<string, string>): void {
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const hint = instead[key];
      const message = hint?.startsWith('not part')
        ? `${key} is ${hint}`
        : `${key} is not a field here; ${hint ? `write ${hint}` : `write one of ${known.join(', ')}`}`;
      this.fail([...at, key], message, true);
    }
  }

  private fail(at: Path, message: string, atKey = false): void {
    const field = at.reduce<string>(
      (text, p) => (typeof p === 'number' ? `${text}[${p}]` : text ? `${text}.${p}` : p),
      '',
    );
    this.errors.push(`${this.name}:${this.lineOf(at, atKey)}: ${field ? `${field}: ` : ''}${message}`);
  }

  /** The line of the node at `at` (of its key, with `atKey`), or of the nearest node above it that exists. */
  private lineOf(at: Path, atKey = false): number {
    let node: Node | null | undefined = this.doc.contents;
    let line = 1;
    for (const [i, step] of at.entries()) {
      if (isMap(node)) {
        const pair: Pair | undefined = node.items.find((p: Pair) => isScalar(p.key) && p.key.value === step);
        if (!pair) break;
        const key = pair.key as Node;
        if (atKey && i === at.length - 1) node = key;
        else node = (pair.value as Node | null) ?? key;
      } else if (isSeq(node) && typeof step === 'number') node = node.items[step] as Node | undefined;
      else break;
      if (node?.range) line = this.lines.linePos(node.range[0]).line;
    }
    return line;
  }
}

function isPlain(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
