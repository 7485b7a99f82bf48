import type { Http } from './http.js';
import { checkBaseUrl, createHttp, positiveMs } from './http.js';
import type {
  AlertList,
  ApiKeyList,
  AuditEntryList,
  Channel,
  ChannelKindList,
  ChannelList,
  ChannelPreview,
  ChannelPreviewRequest,
  ChannelTestResult,
  CreatedInvite,
  CreateApiKeyRequest,
  CreateChannelRequest,
  CreatedApiKey,
  CreateMonitorRequest,
  CreateRuleRequest,
  EventsQuery,
  ExpectedTimes,
  InviteInfo,
  CliTokenRequest,
  InviteList,
  ListAlertsQuery,
  ListAuditQuery,
  ListRunsQuery,
  EndedSessions,
  LoginResponse,
  LogResult,
  RunOutput,
  CreateMaintenanceWindowRequest,
  MaintenanceWindow,
  MaintenanceWindowList,
  MeResponse,
  Monitor,
  MonitorEventList,
  MonitorList,
  PageQuery,
  RecoveryCodes,
  Role,
  Rule,
  RuleList,
  RulePreview,
  RulePreviewQuery,
  RunDetail,
  RunList,
  SchedulePreview,
  SchedulePreviewRequest,
  SetStatusPageRequest,
  StatusPage,
  SecondFactorEnrolment,
  SessionList,
  UpdateChannelRequest,
  UpdateMonitorRequest,
  User,
  UserList,
} from './types.js';

export interface ClientOptions {
  /** The server, with or without /api/v1. Defaults to PINGMON_URL. */
  baseUrl?: string;
  /**
   * A user token from login() (login() and acceptInvite() set it too), or a read or write API key (pm_…), which
   * reaches what its scope covers (docs/api.md#roles).
   */
  token?: string;
  /** Total time one read or rename may take, every attempt and wait included (default 15 s). */
  retryBudgetMs?: number;
  /** Time one attempt may take, cut to what is left of the budget (default 10 s). */
  timeoutMs?: number;
  /**
   * At most this many attempts after the first (default: as many as retryBudgetMs allows). 0 for a caller that
   * tries again on its own, such as a dashboard that refreshes: it hears of a refused connection at once.
   */
  maxRetries?: number;
}

/**
 * The management API (a user token, or a read or write key): monitors, runs, logs, API keys, users, alert rules,
 * channels and alerts. A call the user's role or the key's scope does not cover is a PingmonError 403 that
 * isAccessRefusal() recognizes, whose message says what would do.
 */
export interface Client {
  readonly token: string | undefined;
  /**
   * Logs in; `code`: of the user's second factor, when they have one (without it, such a login is a PingmonError
   * 401 `second_factor_required`).
   */
  login(email: string, password: string, code?: string): Promise<LoginResponse>;
  /**
   * Signs in with the code the dashboard's /cli-sign-in page handed over and the verifier of the challenge it was
   * made for (`pingmon login --browser`); this client keeps the token, as login.
   */
  exchangeCliCode(request: CliTokenRequest): Promise<LoginResponse>;
  /** Ends the session of this client's token: the token is refused from now on. */
  logout(): Promise<void>;
  /** Sets a new password; every session of the user ends, this client's too: log in again. */
  changePassword(currentPassword: string, newPassword: string): Promise<void>;
  me(): Promise<MeResponse>;
  /** The user's live sessions, newest first; `current` marks this client's. */
  listSessions(): Promise<SessionList>;
  /** Ends one of the user's sessions: its token is refused from the next request on. */
  revokeSession(sessionId: string): Promise<void>;
  /** Ends every session of the user but this client's ("sign out everywhere else"). */
  revokeOtherSessions(): Promise<EndedSessions>;
  /** Starts adding a TOTP second factor: its secret and otpauth:// URI, for an authenticator app. */
  startSecondFactor(): Promise<SecondFactorEnrolment>;
  /** Turns the started second factor on with a first code of it: ten recovery codes, shown only now. */
  confirmSecondFactor(code: string): Promise<RecoveryCodes>;
  /** Turns the second factor off, proven by the password or by a code (or a recovery code). */
  disableSecondFactor(proof: { password: string } | { code: string }): Promise<void>;
  listMonitors(query?: PageQuery): Promise<MonitorList>;
  createMonitor(monitor: CreateMonitorRequest): Promise<Monitor>;
  getMonitor(monitorId: string): Promise<Monitor>;
  updateMonitor(monitorId: string, changes: UpdateMonitorRequest): Promise<Monitor>;
  /** Pauses the monitor: it raises no alert until resumed (an update of `paused`). */
  pauseMonitor(monitorId: string): Promise<Monitor>;
  resumeMonitor(monitorId: string): Promise<Monitor>;
  /** Snoozes the monitor until `until` (ISO 8601; an update of `snoozedUntil`); null ends the snooze. */
  snoozeMonitor(monitorId: string, until: string | null): Promise<Monitor>;
  /** The next `count` expected run openings of a scheduled monitor (default 5). */
  listExpected(monitorId: string, count?: number): Promise<ExpectedTimes>;
  /**
   * A schedule in words and its next expected times, as a monitor given it now would expect them (nothing is
   * saved); an invalid one is a PingmonError 400 `invalid_schedule` naming the field.
   */
  previewSchedule(preview: SchedulePreviewRequest): Promise<SchedulePreview>;
  deleteMonitor(monitorId: string): Promise<void>;
  listRuns(monitorId: string, query?: ListRunsQuery): Promise<RunList>;
  getRun(monitorId: string, runId: string): Promise<RunDetail>;
  getLog(monitorId: string, runId: string): Promise<LogResult>;
  /**
   * A running run's live output from offset `after` (0, then the last answer's `next`); poll it about once a
   * second while `running` (docs/api.md#live-output). Once the run has ended, its log is the one to show.
   */
  getRunOutput(monitorId: string, runId: string, after?: number): Promise<RunOutput>;
  /**
   * The monitor's timeline, newest first: runs started and finished, missed runs, timeouts, incidents opened and
   * closed, alerts with their deliveries, snoozes, pauses and resumptions; `kind` keeps one kind or several.
   */
  listEvents(monitorId: string, query?: EventsQuery): Promise<MonitorEventList>;
  listApiKeys(query?: PageQuery): Promise<ApiKeyList>;
  createApiKey(key?: Partial<CreateApiKeyRequest>): Promise<CreatedApiKey>;
  revokeApiKey(keyId: string): Promise<void>;
  /** The account's users and their roles (admins and owners). */
  listUsers(): Promise<UserList>;
  /** Gives a user another role: owners alone change owners or make one, and the last owner stays one. */
  setUserRole(userId: string, role: Role): Promise<User>;
  /** Removes a user from the account: their sessions end at once. */
  removeUser(userId: string): Promise<void>;
  /** The account's pending invites. */
  listInvites(): Promise<InviteList>;
  /** Invites `email` as `role`: the answer holds the one-time link (`url`), shown this once; mailed if SMTP is set. */
  inviteUser(email: string, role: Role): Promise<CreatedInvite>;
  revokeInvite(inviteId: string): Promise<void>;
  /** What an invite link's token is for (address, role, expiry), while it works; needs no token. */
  lookupInvite(inviteToken: string): Promise<InviteInfo>;
  /** Accepts an invite by setting a password: the new user, signed in (this client keeps the token, as login). */
  acceptInvite(inviteToken: string, password: string): Promise<LoginResponse>;
  listRules(monitorId: string): Promise<RuleList>;
  createRule(monitorId: string, rule: CreateRuleRequest): Promise<Rule>;
  deleteRule(monitorId: string, ruleId: string): Promise<void>;
  /** What `rule` would have matched among the monitor's latest successful runs (20 unless `runs`); nothing saved. */
  previewRule(monitorId: string, rule: CreateRuleRequest, query?: RulePreviewQuery): Promise<RulePreview>;
  listChannels(): Promise<ChannelList>;
  createChannel(channel: CreateChannelRequest): Promise<Channel>;
  updateChannel(channelId: string, changes: UpdateChannelRequest): Promise<Channel>;
  deleteChannel(channelId: string): Promise<void>;
  /** Sends a test message to the channel now (one attempt, never repeated by the client). */
  testChannel(channelId: string): Promise<ChannelTestResult>;
  /** What each kind of channel needs: its URL (or the vendor's default), its secret, its options. */
  listChannelKinds(): Promise<ChannelKindList>;
  /**
   * A template channel's request rendered for a sample alert of every event (nothing is stored or sent): the
   * `problem` that would refuse it at creation, or the previews. Options its schema refuses are a PingmonError 400.
   */
  previewChannel(preview: ChannelPreviewRequest): Promise<ChannelPreview>;
  listAlerts(query?: ListAlertsQuery): Promise<AlertList>;
  listMaintenanceWindows(): Promise<MaintenanceWindowList>;
  createMaintenanceWindow(window: CreateMaintenanceWindowRequest): Promise<MaintenanceWindow>;
  deleteMaintenanceWindow(windowId: string): Promise<void>;
  /** The account's audit trail, newest first (owners and admins): who changed what, when and from where. */
  listAudit(query?: ListAuditQuery): Promise<AuditEntryList>;
  /** The account's public status page: its address, title and public monitors, with their badges' addresses. */
  getStatusPage(): Promise<StatusPage>;
  /** Sets the whole status page at once (admins and owners): what `page` leaves out takes its default. */
  setStatusPage(page: SetStatusPageRequest): Promise<StatusPage>;
}

export function createClient(options: ClientOptions = {}): Client {
  const baseUrl = options.baseUrl ?? process.env.PINGMON_URL;
  if (!baseUrl)
    throw new TypeError('createClient needs a baseUrl (or PINGMON_URL in the environment), e.g. http://127.0.0.1:8080');
  checkBaseUrl(baseUrl);
  // Shorter than the pinger's 30 s: a person is usually waiting for the answer.
  const retryBudgetMs = positiveMs('retryBudgetMs', options.retryBudgetMs, 15_000);
  const attemptTimeoutMs = positiveMs('timeoutMs', options.timeoutMs, 10_000);
  const maxRetries = options.maxRetries;
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0)) {
    throw new RangeError(`maxRetries must be a whole number, 0 or more (got ${String(maxRetries)})`);
  }
  let token = options.token;
  const connect = (headers: Record<string, string>): Http =>
    createHttp({
      baseUrl,
      headers,
      // Only reads and renames are sent again: a second POST creates twice, and a second DELETE after a lost
      // answer would report 404 for what was in fact deleted.
      retryMethods: ['GET', 'PATCH'],
      retryBudgetMs,
      attemptTimeoutMs,
      maxRetries,
    });
  let http = connect(token ? { authorization: `Bearer ${token}` } : {});
  const id = encodeURIComponent;

  return {
    get token() {
      return token;
    },
    async login(email, password, code) {
      const result = await connect({})<LoginResponse>('POST', 'auth/login', { email, password, code });
      token = result.token;
      http = connect({ authorization: `Bearer ${token}` });
      return result;
    },
    async exchangeCliCode(request) {
      const result = await connect({})<LoginResponse>('POST', 'auth/cli/token', request);
      token = result.token;
      http = connect({ authorization: `Bearer ${token}` });
      return result;
    },
    async acceptInvite(inviteToken, password) {
      const result = await connect({})<LoginResponse>('POST', 'auth/invites/accept', { token: inviteToken, password });
      token = result.token;
      http = connect({ authorization: `Bearer ${token}` });
      return result;
    },
    lookupInvite: (inviteToken) => connect({})<InviteInfo>('POST', 'auth/invites/lookup', { token: inviteToken }),
    logout: async () => void (await http('DELETE', 'auth/session')),
    changePassword: async (currentPassword, newPassword) =>
      void (await http('POST', 'me/password', { currentPassword, newPassword })),
    me: () => http<MeResponse>('GET', 'me'),
    listSessions: () => http<SessionList>('GET', 'me/sessions'),
    revokeSession: async (sessionId) => void (await http('DELETE', `me/sessions/${id(sessionId)}`)),
    revokeOtherSessions: () => http<EndedSessions>('DELETE', 'me/sessions'),
    startSecondFactor: () => http<SecondFactorEnrolment>('POST', 'me/second-factor'),
    confirmSecondFactor: (code) => http<RecoveryCodes>('POST', 'me/second-factor/confirm', { code }),
    disableSecondFactor: async (proof) => void (await http('POST', 'me/second-factor/disable', proof)),
    listMonitors: (query = {}) => http<MonitorList>('GET', `monitors${queryString(query)}`),
    createMonitor: (monitor) => http<Monitor>('POST', 'monitors', monitor),
    getMonitor: (monitorId) => http<Monitor>('GET', `monitors/${id(monitorId)}`),
    updateMonitor: (monitorId, changes) => http<Monitor>('PATCH', `monitors/${id(monitorId)}`, changes),
    pauseMonitor: (monitorId) => http<Monitor>('PATCH', `monitors/${id(monitorId)}`, { paused: true }),
    resumeMonitor: (monitorId) => http<Monitor>('PATCH', `monitors/${id(monitorId)}`, { paused: false }),
    snoozeMonitor: (monitorId, until) => http<Monitor>('PATCH', `monitors/${id(monitorId)}`, { snoozedUntil: until }),
    listExpected: (monitorId, count) =>
      http<ExpectedTimes>('GET', `monitors/${id(monitorId)}/expected${queryString({ count })}`),
    previewSchedule: (preview) => http<SchedulePreview>('POST', 'schedules/preview', preview),
    deleteMonitor: async (monitorId) => void (await http('DELETE', `monitors/${id(monitorId)}`)),
    listRuns: (monitorId, query = {}) => http<RunList>('GET', `monitors/${id(monitorId)}/runs${queryString(query)}`),
    getRun: (monitorId, runId) => http<RunDetail>('GET', `monitors/${id(monitorId)}/runs/${id(runId)}`),
    getLog: (monitorId, runId) => http<LogResult>('GET', `monitors/${id(monitorId)}/runs/${id(runId)}/log`),
    getRunOutput: (monitorId, runId, after = 0) =>
      http<RunOutput>('GET', `monitors/${id(monitorId)}/runs/${id(runId)}/output${queryString({ after })}`),
    listEvents: (monitorId, { kind, ...page } = {}) => {
      // Several kinds go comma-separated; none named (an empty list) is every kind.
      const kinds = typeof kind === 'string' || kind === undefined ? kind : kind.join(',') || undefined;
      const query = { ...page, kind: kinds };
      return http<MonitorEventList>('GET', `monitors/${id(monitorId)}/events${queryString(query)}`);
    },
    listApiKeys: (query = {}) => http<ApiKeyList>('GET', `api-keys${queryString(query)}`),
    createApiKey: (key = {}) => http<CreatedApiKey>('POST', 'api-keys', key),
    revokeApiKey: async (keyId) => void (await http('DELETE', `api-keys/${id(keyId)}`)),
    listUsers: () => http<UserList>('GET', 'users'),
    setUserRole: (userId, role) => http<User>('PATCH', `users/${id(userId)}`, { role }),
    removeUser: async (userId) => void (await http('DELETE', `users/${id(userId)}`)),
    listInvites: () => http<InviteList>('GET', 'users/invites'),
    inviteUser: (email, role) => http<CreatedInvite>('POST', 'users/invites', { email, role }),
    revokeInvite: async (inviteId) => void (await http('DELETE', `users/invites/${id(inviteId)}`)),
    listRules: (monitorId) => http<RuleList>('GET', `monitors/${id(monitorId)}/rules`),
    createRule: (monitorId, rule) => http<Rule>('POST', `monitors/${id(monitorId)}/rules`, rule),
    deleteRule: async (monitorId, ruleId) =>
      void (await http('DELETE', `monitors/${id(monitorId)}/rules/${id(ruleId)}`)),
    previewRule: (monitorId, rule, query = {}) =>
      http<RulePreview>('POST', `monitors/${id(monitorId)}/rules/preview${queryString(query)}`, rule),
    listChannels: () => http<ChannelList>('GET', 'channels'),
    createChannel: (channel) => http<Channel>('POST', 'channels', channel),
    updateChannel: (channelId, changes) => http<Channel>('PATCH', `channels/${id(channelId)}`, changes),
    deleteChannel: async (channelId) => void (await http('DELETE', `channels/${id(channelId)}`)),
    testChannel: (channelId) => http<ChannelTestResult>('POST', `channels/${id(channelId)}/test`),
    listChannelKinds: () => http<ChannelKindList>('GET', 'channel-kinds'),
    previewChannel: (preview) => http<ChannelPreview>('POST', 'channels/preview', preview),
    listAlerts: (query = {}) => http<AlertList>('GET', `alerts${queryString(query)}`),
    listMaintenanceWindows: () => http<MaintenanceWindowList>('GET', 'maintenance-windows'),
    createMaintenanceWindow: (window) => http<MaintenanceWindow>('POST', 'maintenance-windows', window),
    deleteMaintenanceWindow: async (windowId) => void (await http('DELETE', `maintenance-windows/${id(windowId)}`)),
    listAudit: (query = {}) => http<AuditEntryList>('GET', `audit${queryString(query)}`),
    getStatusPage: () => http<StatusPage>('GET', 'status-page'),
    setStatusPage: (page) => http<StatusPage>('PUT', 'status-page', page),
  };
}

function queryString(query: object): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}
