import { randomBytes } from 'node:crypto';
import { SecretRedactor } from '@platform/common';
import { isFinished } from '@platform/messaging';
import {
  call,
  createTenant,
  createTestDatabase,
  removeNatsNamespace,
  startPlatform,
  withKey,
  type ApiRequest,
  type RunningPlatform,
  type TestDatabase,
  type TestTenant,
} from '@platform/testing';

export type Json = Record<string, unknown> & { data?: Record<string, unknown>[] };

/**
 * A platform of its own whose connection service may reach loopback (the stand-in servers), with
 * every line every process writes kept, so tests can search the logs for credentials.
 */
export class PrivatePlatform {
  platform!: RunningPlatform;
  database!: TestDatabase;
  readonly lines: string[] = [];
  readonly responses: string[] = [];
  readonly adminToken = randomBytes(32).toString('base64url');
  private readonly namespace = `conn-${randomBytes(3).toString('hex')}`;

  async start(label: string, env: Record<string, string> = {}): Promise<void> {
    this.database = await createTestDatabase(label);
    this.platform = await startPlatform({
      databaseUrl: this.database.url,
      services: ['account', 'portal', 'catalog', 'connection', 'run'],
      env: {
        // Debug: the connection service's most talkative level, so the credential search covers every line it can write.
        LOG_LEVEL: 'debug',
        PLATFORM_ADMIN_TOKEN: this.adminToken,
        MASTER_KEY: randomBytes(32).toString('base64'),
        NATS_NAMESPACE: this.namespace,
        RATE_LIMIT_ENABLED: 'false',
        CONNECTION_ALLOW_PRIVATE_NETWORKS: 'true',
        RUN_RECONCILE_INTERVAL_MS: '250',
        ...env,
      },
      onLine: (name, line) => this.lines.push(`${name}: ${line}`),
    });
  }

  async stop(): Promise<void> {
    await this.platform?.stop();
    await this.database?.drop();
    await removeNatsNamespace(this.namespace);
  }

  tenant(name: string): Promise<TestTenant> {
    return createTenant(this.platform.gatewayUrl, this.adminToken, name);
  }

  /** A call through the gateway; every answer's text is kept for the credential search. */
  async gw(path: string, request?: ApiRequest) {
    const res = await call<Json>(this.platform.gatewayUrl, path, request);
    this.responses.push(res.text);
    return res;
  }

  as(key: string, extra: Record<string, string> = {}) {
    return withKey(key, extra);
  }

  async customer(tenant: TestTenant, name: string): Promise<string> {
    const res = await this.gw('/portal/customers', { headers: withKey(tenant.test_key), body: { name } });
    if (res.status !== 201) throw new Error(`customer not created: ${res.status} ${res.text}`);
    return res.body.id as string;
  }

  /** A customer API key (bound to one customer) with the given scopes, in the tenant's sandbox. */
  async customerKey(tenant: TestTenant, customerId: string, scopes: string[]): Promise<string> {
    const res = await this.gw('/account/api-keys', {
      headers: withKey(tenant.test_key),
      body: { name: `customer-${customerId.slice(0, 8)}`, type: 'customer', customer_id: customerId, scopes, data_plane_id: tenant.sandbox_data_plane_id },
    });
    if (res.status !== 201) throw new Error(`customer key not created: ${res.status} ${res.text}`);
    return res.body.key as string;
  }

  async workflow(tenant: TestTenant, steps: unknown[]): Promise<string> {
    const res = await this.gw('/api/v1/workflow/workflows', {
      headers: withKey(tenant.test_key),
      body: { name: `wf-${randomBytes(3).toString('hex')}`, steps },
    });
    if (res.status !== 201) throw new Error(`workflow not created: ${res.status} ${res.text}`);
    return res.body.id as string;
  }

  /** Starts a run (as a customer with X-Scope-Key when given) and waits for its end. */
  async run(tenant: TestTenant, workflowId: string, customerId?: string, input: Record<string, unknown> = {}, timeoutMs = 20_000): Promise<Json> {
    const headers = withKey(tenant.test_key, customerId ? { 'x-scope-key': customerId } : {});
    const started = await this.gw('/v1/automations/run', { headers, body: { automation_id: workflowId, input } });
    if (started.status !== 202) throw new Error(`run not started: ${started.status} ${started.text}`);
    const id = started.body.run_id as string;
    for (const end = Date.now() + timeoutMs; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
      const res = await this.gw(`/run/executions/${id}`, { headers });
      if (isFinished(res.body.status as string)) {
        await this.gw(`/run/executions/${id}/logs?limit=200`, { headers });
        return res.body;
      }
    }
    throw new Error(`run ${id} did not finish within ${timeoutMs} ms`);
  }

  /**
   * Every place a credential must never appear: answers, execution records and logs (kept by gw),
   * process output; in any form the platform's redactor knows (URL-encoded, base64, …).
   */
  leaks(secrets: string[]): string[] {
    const haystacks = [...this.responses, ...this.lines];
    return secrets.filter((s) => {
      const one = new SecretRedactor([s]);
      return haystacks.some((h) => one.whole(h) !== h);
    });
  }
}
