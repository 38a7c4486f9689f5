import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { countIo } from '@platform/common';

/**
 * The subjects of libs/messaging's subscription contract (SubscriptionSubjects), spelled here
 * because the gateway stays free of the NestJS-based messaging library; a unit test holds them equal.
 */
export const LIMITS_GET = 'subscription.limits.get';
export const LIMITS_CHANGED = 'subscription.limits.changed';

/** TenantLimits of libs/messaging, as it arrives. */
export interface TenantLimits {
  tenantId: string;
  plan: string;
  rateLimits: { live: number; test: number; user: number };
  exhausted: { metric: string; limit: number; until: string }[];
  computedAt: string;
}

export interface PlanChannel {
  /** The subscription service's answer, or undefined when it cannot be asked now. */
  get(tenantId: string): Promise<TenantLimits | undefined>;
  /** Limits pushed by the subscription service (every gateway process gets each change). */
  onChange(handler: (limits: TenantLimits) => void): void;
  connected(): boolean;
  close(): void;
}

/**
 * Core NATS for the gateway: one request per tenant it meets (answered by any subscription
 * replica) and the `subscription.limits.changed` events, in the NestJS transport's packet format
 * the services speak. NATS down never fails a request: the gateway keeps the limits it has and
 * keeps trying to connect.
 */
export function natsPlanChannel(options: { url: string; namespace: string; logger: Logger }): PlanChannel {
  const subject = (name: string) => (options.namespace ? `${options.namespace}.${name}` : name);
  const decoder = new TextDecoder();
  let nc: NatsConnection | undefined;
  let closed = false;
  let handler: ((limits: TenantLimits) => void) | undefined;

  const open = async (): Promise<void> => {
    while (!closed && !nc) {
      try {
        nc = await connect({ servers: options.url, name: 'gateway', timeout: 2000, maxReconnectAttempts: -1, reconnectTimeWait: 1000 });
      } catch (error) {
        options.logger.warn({ err: (error as Error).message }, 'plan limits: NATS unreachable, default limits apply until it is back');
        await new Promise((resolve) => setTimeout(resolve, 5000).unref());
      }
    }
    if (!nc || closed) return;
    nc.subscribe(subject(LIMITS_CHANGED), {
      callback: (err, msg) => {
        if (err || !handler) return;
        try {
          const packet = JSON.parse(decoder.decode(msg.data)) as { data?: { data?: TenantLimits } };
          if (packet.data?.data) handler(packet.data.data);
        } catch {
          // A malformed event is the publisher's fault; the periodic refresh repairs what it missed.
        }
      },
    });
  };
  void open();

  return {
    async get(tenantId) {
      if (!nc || nc.isClosed()) return undefined;
      const packet = JSON.stringify({
        pattern: LIMITS_GET,
        data: { context: { requestId: randomUUID(), actor: 'system:gateway' }, data: { tenantId } },
        id: randomUUID(),
      });
      countIo('nats.requests');
      try {
        const reply = await nc.request(subject(LIMITS_GET), packet, { timeout: 2000 });
        const body = JSON.parse(decoder.decode(reply.data)) as { response?: TenantLimits; err?: unknown };
        return body.err ? undefined : body.response;
      } catch {
        return undefined;
      }
    },
    onChange(next) {
      handler = next;
    },
    connected: () => nc !== undefined && !nc.isClosed(),
    close() {
      closed = true;
      void nc?.close();
    },
  };
}
