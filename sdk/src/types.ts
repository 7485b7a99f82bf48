// Wire types of the pingmon HTTP API (/api/v1). The server builds its responses from these.

export type RunStatus = 'running' | 'success' | 'failed';
export type Plan = 'free' | 'pro' | 'business' | 'unlimited';
export type PingKind = 'start' | 'success' | 'fail';

/** Numeric metadata of a run: a flat object of finite numbers. */
export type Meta = Record<string, number>;

/** The data of every ping response (SPEC §2). */
export interface PingAck {
  received: boolean;
  monitorId: string;
  runId: string;
  status: RunStatus;
  /** ISO 8601 UTC with milliseconds. */
  timestamp: string;
}

export interface PingResponse {
  success: true;
  data: PingAck;
}

export interface StartPingBody {
  runId?: string;
}

export interface SuccessPingBody {
  runId?: string;
  meta?: Meta;
}

export interface FailPingBody {
  runId?: string;
  errorMessage?: string;
  meta?: Meta;
  logOutput?: string;
}

/** Every error response, on every endpoint (DESIGN §4). */
export interface ErrorBody {
  success: false;
  statusCode: number;
  error: string;
  code: string;
  message: string;
  /** Seconds to wait, on 429 responses. */
  retryAfter?: number;
}

export interface LogResult {
  hasLog: boolean;
  content: string | null;
}

export interface Run {
  runId: string;
  monitorId: string;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  meta: Meta;
  errorMessage: string | null;
  hasLog: boolean;
}

export interface LastRun {
  runId: string;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
}

export interface Monitor {
  monitorId: string;
  name: string;
  createdAt: string;
  /** The most recently started run, or null before the first ping. */
  lastRun: LastRun | null;
}

export interface MonitorList {
  monitors: Monitor[];
  nextCursor: string | null;
}

export interface RunList {
  runs: Run[];
  nextCursor: string | null;
}

export interface UpdateMonitorRequest {
  name?: string;
}

export interface ApiKey {
  keyId: string;
  name: string;
  /** The first characters of the key, to tell keys apart. */
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

/** A key as answered once, at creation: the only time `key` is shown. */
export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface ApiKeyList {
  apiKeys: ApiKey[];
  nextCursor: string | null;
}

export interface CreateApiKeyRequest {
  name: string;
}

export interface ListRunsQuery {
  status?: RunStatus;
  limit?: number;
  cursor?: string;
}

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

export interface User {
  userId: string;
  email: string;
  createdAt: string;
}

export interface Account {
  accountId: string;
  plan: Plan;
  createdAt: string;
}

export interface LoginRequest {
  email: string;
  password: string;
}

export interface LoginResponse {
  token: string;
  expiresAt: string;
  user: User;
  account: Account;
}

export interface MeResponse {
  user: User;
  account: Account;
}

export interface CreateMonitorRequest {
  name: string;
}
