// What the API reads, as the routes validate it, each named as the SDK's type that scripts/wire-types.mjs writes
// from it.
export { keyBody as CreateApiKeyRequest } from './api-keys.js';
export { listQuery as ListAlertsQuery } from './alerts.js';
export { listQuery as ListAuditQuery } from './audit.js';
export { loginBody as LoginRequest } from './auth.js';
export { cliCodeBody as CreateCliCodeRequest, cliTokenBody as CliTokenRequest } from './cli-sign-in.js';
export {
  acceptInviteBody as AcceptInviteRequest,
  inviteBody as InviteUserRequest,
  inviteTokenBody as InviteTokenRequest,
} from './invites.js';
export { updateUserBody as UpdateUserRequest } from './users.js';
export {
  createBody as CreateChannelRequest,
  previewBody as ChannelPreviewRequest,
  updateBody as UpdateChannelRequest,
} from './channels.js';
export { windowBody as CreateMaintenanceWindowRequest } from './maintenance-windows.js';
export {
  CREATE_MONITOR_BODY as CreateMonitorRequest,
  SETTINGS_BODY as MonitorSettings,
  UPDATE_MONITOR_BODY as UpdateMonitorRequest,
} from './monitor-bodies.js';
export { listQuery as ListEventsQuery } from './events.js';
export { rulePreviewQuery as RulePreviewQuery, schedulePreviewBody as SchedulePreviewRequest } from './previews.js';
export { ruleBody as CreateRuleRequest } from './rules.js';
export { listQuery as ListRunsQuery } from './runs.js';
export { outputBody as OutputChunkBody, outputQuery as RunOutputQuery } from './run-output.js';
export { statusPageBody as SetStatusPageRequest } from './status-page.js';
export { pageOnly as PageQuery } from './pagination.js';
