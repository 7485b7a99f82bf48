import { testContent } from '@pingmon/server/internal';
import type { AlertContent, ChannelTarget, HttpChannelKind } from '@pingmon/server/internal';
import { ALERT_FIXTURES } from './alert-fixtures.js';
import type { VendorRequest } from './vendors/common.js';

/** The dashboard's pages, as the server links them when it knows its public URL. */
export const LINKS = {
  monitor: 'https://pingmon.example.com/monitors/mon_0mwrksujegHscDsv5wx',
  run: 'https://pingmon.example.com/monitors/mon_0mwrksujegHscDsv5wx/runs/01a20144-8f00-7a41-9d7a-2f4f3c1e9b10',
};

export const CONTEXT = { nowSeconds: 1_795_336_170, messageKey: 'alert_0mwrksul2SsbNAWELdY.1' };

/** One alert of every event a channel gets; `fail` has a long log (a snippet and the end of the log). */
export const EVENTS: Record<string, AlertContent> = {
  fail: { ...ALERT_FIXTURES.long_log, incidentKey: 'inc_0mwxq3v8Lr5nT2cWy7a', cause: 'fail', links: LINKS },
  timed_out: ALERT_FIXTURES.timed_out,
  missed: { ...ALERT_FIXTURES.missed, incidentKey: 'inc_0mx9k2c1q8hz4w7e3n1', cause: 'missed' },
  missed_group: ALERT_FIXTURES.missed_group,
  still_down: {
    ...ALERT_FIXTURES.missed,
    event: 'still_down',
    alertId: 'alert_0mx9m2c1q8hz4w7e3n9',
    errorMessage: 'Still down: 2 missed runs, down 1d (since 2027-03-28T01:05:02.118Z, a run was missed).',
    expectedAt: null,
    createdAt: Date.parse('2027-03-29T01:05:02.118Z'),
  },
  silent_failure: ALERT_FIXTURES.silent_failure,
  recovered: { ...ALERT_FIXTURES.recovered, incidentKey: 'inc_0mx9k2c1q8hz4w7e3n1', cause: 'missed', links: LINKS },
  test: testContent('ops', Date.parse('2027-03-29T08:00:00.000Z')),
};

/** Markup, mentions and HTML of every medium, a template's date function, and characters outside the BMP. */
export const HOSTILE =
  '<b>x</b> *bold* _it_ ~s~ `c` ```f``` [l](https://evil.example) <https://evil.example|l> <users/all> ' +
  '@all @here @channel @room &amp; &lt;  # h\n- item\n1. one\n> q {{DATE(2017-02-14T06:00:00Z)}} \\ $x$ 🔥';

export function hostileAlert(): AlertContent {
  return {
    ...EVENTS.fail!,
    monitorName: `db ${HOSTILE}`.slice(0, 200),
    errorMessage: HOSTILE,
    logSnippet: `${HOSTILE}\n`,
    logTail: `end ${HOSTILE}`,
  };
}

const EMOJI = '😀🚀🔥';

/** A fail alert at every field's limit, each cut after half a surrogate pair would split. */
export function hugeFail(): AlertContent {
  // n UTF-16 units of text repeated, its last character dropped if it would be cut in half (as stored text is).
  const fill = (n: number, text: string) =>
    text
      .repeat(n)
      .slice(0, n)
      .replace(/[\ud800-\udbff]$/, ' ');
  return {
    ...EVENTS.fail!,
    monitorName: fill(200, `n&<*${EMOJI}`),
    errorMessage: fill(500, `e&<_\`${EMOJI}`),
    logSnippet: fill(500, `s&<\`\`\`${EMOJI}\n`),
    logTail: fill(500, `t&<\`${EMOJI}\n`),
  };
}

/** A missed alert of 300 monitors on one host, far over every medium's limit. */
export function hugeGroup(): AlertContent {
  const group = ALERT_FIXTURES.missed_group;
  const monitors = Array.from({ length: 300 }, (_, i) => ({
    ...group.monitors[0]!,
    monitorId: `mon_${String(i).padStart(19, '0')}`,
    monitorName: `job ${i} ${EMOJI}<&>*_`,
  }));
  return { ...group, monitors };
}

/** A lone surrogate: half of a character that was cut. */
export function brokenCharacter(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

export type Target = Omit<ChannelTarget, 'channelId' | 'type'>;

/** The request a kind makes for an alert (the checkers take its full URL as a receiver's path). */
export function requestOf(
  kind: HttpChannelKind,
  target: Target,
  content: AlertContent,
): VendorRequest & { headers: Record<string, string> } {
  return kind.request({ channelId: 'ch_0mwrm8k2vJd0SxQ5Tb1', type: kind.type, ...target }, content, CONTEXT);
}

/** The alert the examples of docs/channels.md show: docs/alerts.md's fail alert, on a server with a public URL. */
export const DOC_ALERT: AlertContent = { ...ALERT_FIXTURES.fail, links: LINKS };

/** The channels of those examples. */
export const DOC_TARGETS: Record<string, Target> = {
  msteams: {
    url: 'https://prod-42.westeurope.logic.azure.com:443/workflows/0f6c1d2e3a4b/triggers/manual/paths/invoke',
    secret: null,
    options: {},
  },
  googlechat: {
    url: 'https://chat.googleapis.com/v1/spaces/AAAAx1y2z3w/messages?key=AIzaSyDdI0hCZtE6vySjMm&token=tK9f3-Xq',
    secret: null,
    options: {},
  },
  mattermost: { url: 'https://mattermost.example.com/hooks/xq7bpu3shjrz8k1wd9nyf5m6ca', secret: null, options: {} },
  rocketchat: {
    url: 'https://chat.example.com/hooks/6KFXgoPHdB3d7Qs5K/Zn8s2dXkqQv9t4wRbJ7yLmE3cAh5NpUx',
    secret: null,
    options: {},
  },
  telegram: {
    url: 'https://api.telegram.org',
    secret: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
    options: { chatId: -1001234567890 },
  },
  ntfy: { url: 'https://ntfy.sh/pingmon-alerts-7f3k', secret: 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2', options: {} },
  pushover: {
    url: 'https://api.pushover.net/1/messages.json',
    secret: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
    options: { userKey: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG' },
  },
  matrix: {
    url: 'https://matrix.example.org',
    secret: 'syt_cGluZ21vbg_JNfSbMuTqGQoXVsdEzVH_1ALdVx',
    options: { roomId: '!OGEhHVWSdvArJzumhm:matrix.example.org', msgtype: 'm.text' },
  },
};
