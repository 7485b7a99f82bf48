import type { Mailer } from '../alerts/email.js';
import type { DeliveryWorker } from '../alerts/worker.js';
import type { Request } from '@hapi/hapi';
import type { Config } from '../config.js';
import type { IdentityProvider } from '../identity-provider.js';
import type { Database } from '../db/index.js';
import type { Metrics } from '../metrics.js';
import type { KnownMonitors } from '../use-cases/record-ping.js';

/** What every route handler works with. */
export interface RouteContext {
  readonly config: Config;
  readonly db: Database;
  /** The monitors this server's pings last saw (use-cases/record-ping.ts). */
  readonly knownMonitors: KnownMonitors;
  readonly jwtSecret: string;
  /** This process's alert sender: nudged when a ping queues deliveries. */
  readonly deliveries: Pick<DeliveryWorker, 'nudge'>;
  /** Counters of what the routes answered; undefined while metrics are off (PINGMON_METRICS). */
  readonly metrics: Pick<Metrics, 'pinged'> | undefined;
  /** The server's SMTP transport, for e-mail channels; undefined when PINGMON_SMTP_URL is unset. */
  readonly mailer: Mailer | undefined;
  /** Who sent a request: the peer, or behind PINGMON_TRUSTED_PROXIES the client they name. */
  readonly clientAddress: (request: Request) => string;
  /** The identity provider users may sign in through (PINGMON_OIDC_ISSUER); undefined: none. */
  readonly provider: IdentityProvider | undefined;
  /** Whether the request came over HTTPS, directly or through a proxy (client-address.ts). */
  readonly viaHttps: (request: Request) => boolean;
}
