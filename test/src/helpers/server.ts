import type { Server } from '@hapi/hapi';
import { closeDatabase, createAccount, createServer, loadConfig, openDatabase } from '@pingmon/server';
import type { Config, ConfigOverrides } from '@pingmon/server';
import type { Plan } from '@pingmon/sdk';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { DatabaseKind, TestDatabase } from './databases.js';
import { createTestDatabase, knexOf } from './databases.js';
import { request } from './http.js';
import type { AnyBody, RequestOptions } from './http.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface TestAccount {
  accountId: string;
  userId: string;
  apiKey: string;
  email: string;
  password: string;
  token: string;
}

/** A real pingmon server on 127.0.0.1 and a free port, on its own fresh database. */
export class TestServer {
  private constructor(
    readonly server: Server,
    readonly config: Config,
    readonly database: TestDatabase,
    readonly url: string,
  ) {}

  static async start(t: Teardown, kind: DatabaseKind, overrides: ConfigOverrides = {}): Promise<TestServer> {
    const database = await createTestDatabase(kind);
    t.teardown(() => database.drop());
    return TestServer.on(t, database, overrides);
  }

  /** Another server on an existing test database (a second process, or one started after a restart). */
  static async on(t: Teardown, database: TestDatabase, overrides: ConfigOverrides = {}): Promise<TestServer> {
    const config = loadConfig(
      {},
      {
        host: '127.0.0.1',
        port: 0,
        dataDir: database.dataDir,
        databaseUrl: database.databaseUrl,
        databaseSchema: database.databaseSchema,
        logLevel: 'silent',
        ...overrides,
      },
    );
    const server = await createServer(config);
    await server.start();
    const test = new TestServer(server, config, database, `${server.info.uri}/api/v1`);
    // Teardowns run last-registered first: this server stops before its database is dropped.
    t.teardown(() => server.stop());
    return test;
  }

  /** Creates an account the way `pingmon admin create-account` does, and logs its user in (with a password). */
  async account(plan: Plan = 'unlimited'): Promise<TestAccount> {
    const email = `user-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'correct horse battery';
    const db = await openDatabase(this.config);
    try {
      const created = await createAccount(db, { email, password, plan });
      // With password sign-in off, its user signs in through the identity provider: no token here.
      if (!this.config.passwordSignIn) return { ...created, email, password, token: '' };
      const login = await this.request('/auth/login', { body: { email, password } });
      if (login.status !== 200) throw new Error(`login failed: ${login.text}`);
      return { ...created, email, password, token: login.body.token };
    } finally {
      await closeDatabase(db);
    }
  }

  async monitor(account: TestAccount, name = 'nightly backup'): Promise<string> {
    const reply = await this.request('/monitors', { token: account.token, body: { name } });
    if (reply.status !== 201) throw new Error(`creating a monitor failed: ${reply.text}`);
    return reply.body.monitorId;
  }

  request<T = AnyBody>(path: string, options?: RequestOptions) {
    return request<T>(this.url + path, options);
  }

  ping<T = AnyBody>(
    account: { apiKey: string },
    monitorId: string,
    kind: 'start' | 'success' | 'fail',
    body?: unknown,
    headers?: Record<string, string>,
  ) {
    return this.request<T>(`/ping/${monitorId}/${kind}`, { method: 'POST', apiKey: account.apiKey, body, headers });
  }

  /** Reads the database directly with a knex of its own, for assertions on what was stored. */
  async query<T>(fn: (knex: Knex) => Promise<T>): Promise<T> {
    const knex = knexOf(this.database);
    try {
      return await fn(knex);
    } finally {
      await knex.destroy();
    }
  }
}
