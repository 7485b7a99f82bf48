// @pingmon/server/internal: the modules the tests reach into, one line per module, so that a module moved or
// renamed is fixed here once. Not a public API (docs/testing.md): nothing outside this repository may import it.
export {
  breakFences,
  discordPayload,
  signature,
  slackPayload,
  testContent,
  webhookPayload,
  type AlertContent,
} from './alerts/payloads.js';
export { alertmanager } from './alerts/channels/alertmanager.js';
export { opsgenie } from './alerts/channels/opsgenie.js';
export { pagerduty } from './alerts/channels/pagerduty.js';
export { googlechat } from './alerts/channels/googlechat.js';
export { matrix } from './alerts/channels/matrix.js';
export { mattermost } from './alerts/channels/mattermost.js';
export { msteams } from './alerts/channels/msteams.js';
export { ntfy } from './alerts/channels/ntfy.js';
export { pushover } from './alerts/channels/pushover.js';
export { rocketchat } from './alerts/channels/rocketchat.js';
export { telegram } from './alerts/channels/telegram.js';
export { send } from './alerts/deliver.js';
export { CHANNEL_TYPES, kindOf } from './alerts/channels/index.js';
export type {
  ChannelKind,
  ChannelTarget,
  HttpChannelKind,
  OutgoingRequest,
  SendContext,
} from './alerts/channels/kind.js';
export { SAMPLE_ALERTS } from './alerts/channels/samples.js';
export { template } from './alerts/channels/template.js';
export { previewTemplate, templateProblem, type TemplatePreview } from './alerts/channels/template-check.js';
export { PLACEHOLDER_NAMES, renderTemplate, type TemplateOptions } from './alerts/channels/template-fields.js';
export { SMTP_NOT_CONFIGURED, domainOf, emailMessage, sendEmail, withoutRelay } from './alerts/email.js';
export { DeliveryWorker } from './alerts/worker.js';
export { clientAddressOf } from './client-address.js';
export { findPingMonitor, unchangedMonitor } from './db/monitors.js';
export { finishRun, insertRunIf } from './db/runs.js';
export { outageCause, outageClassifier } from './db/unavailable.js';
export { accessRefusal, pingRefusal, wholeAccountRefusal, type Asker, type Refusal } from './domain/access.js';
export { isPublicAddress, nonPublicAddressIn, nonPublicHostOf } from './domain/addresses.js';
export {
  CHANNEL_TESTS_PER_WINDOW,
  CHANNEL_TEST_WINDOW_MS,
  channelTestDecision,
  maskUrl,
  recipientsOf,
} from './domain/channels.js';
export {
  afterAttempt,
  backoffMs,
  parseRetryAfter,
  verdictOf,
  type AttemptResult,
  type RetryPolicy,
} from './domain/delivery.js';
export { afterOutcome, HEALTHY, incidentSummary, monitorStatus, type Health } from './domain/incidents.js';
export { closedInviteRefusal, INVITE_TTL_MS } from './domain/invites.js';
export { logTail } from './domain/log-tail.js';
export { fingerprint, normalise } from './domain/fingerprint.js';
export { DEFAULT_SETTINGS } from './domain/monitor-settings.js';
export { enforcedIntervalMs, pairPing, rateDecision, type Pairing, type PairingState } from './domain/pairing.js';
export { monitorWrites, planPing, type MonitorFacts, type PingFacts, type PingPlan } from './domain/ping-writes.js';
export { parsePingBody } from './routes/ping-bodies.js';
export { matchRules, replayRule, type RuleCondition } from './domain/rules.js';
export { inviteRoleRefusal, roleChangeRefusal } from './domain/roles.js';
export { describeSchedule } from './domain/schedule-words.js';
export { finishedRun, newRun, type RunRecord } from './domain/runs.js';
export {
  afterMiss,
  checkSchedule,
  expectedAfterOpening,
  localTime,
  slotAfter,
  upcoming,
  utcOffsetMinutes,
  type StoredSchedule,
} from './domain/schedule.js';
export { HINT_MIN_RUNS, scheduleHint } from './domain/schedule-hint.js';
export { freshGraceMs, gapOfExpected, gapOnResume, type SweeperRow } from './domain/server-gaps.js';
export { newId } from './ids.js';
export { OutageLog } from './outage-log.js';
export { sweep, type SweepResult } from './use-cases/sweep.js';
export { renderWireTypes } from './wire-types.js';
export { dayBars, uptimeRange, uptimeShare, DAY_MS, UPTIME_DAYS, type DayCounts } from './domain/uptime.js';
export { badgeSvg } from './status/badge.js';
export { textWidth } from './status/text-width.js';
export { OUTPUT_WINDOW_CHARS, outputAfter, withChunk } from './domain/run-output.js';
export { migrate, migrationsUpTo, MIGRATION_NAMES, MIGRATIONS } from './db/migrate.js';
export { TABLES } from './db/tables.js';
