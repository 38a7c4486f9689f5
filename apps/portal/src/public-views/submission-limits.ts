import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { TooManyRequestsError } from '@platform/common';
import { WindowCounter } from '@platform/common/window-counter';
import { PORTAL_CONFIG, type PortalConfig } from '../config/portal.config.js';

const WINDOW_MS = 60_000;
const TTL_MS = WINDOW_MS + 1000;

/**
 * Public form submissions per link (the embed's own limit) and per client address within one
 * tenant, in fixed one-minute windows counted in Redis like the gateway's limits, so every replica
 * shares them. A Redis outage lets submissions through (logged): the gateway's per-address limit
 * still applies.
 */
@Injectable()
export class SubmissionLimits implements OnModuleDestroy {
  private readonly logger = new Logger(SubmissionLimits.name);
  private readonly counter: WindowCounter;

  constructor(@Inject(PORTAL_CONFIG) private readonly config: PortalConfig) {
    this.counter = new WindowCounter({ url: config.REDIS_URL, commandTimeoutMs: 200, onError: (error) => this.logger.warn(`redis: ${error.message}`) });
  }

  /** Throws 429 with Retry-After when this submission is over either limit. */
  async hit(link: { tenantId: string; embedId: string; perMinute: number }, address: string): Promise<void> {
    const now = Date.now();
    const window = Math.floor(now / WINDOW_MS);
    let counts: number[];
    try {
      counts = await this.counter.hit(
        [`portal-form:link:${link.embedId}:${window}`, `portal-form:addr:${link.tenantId}:${address}:${window}`],
        [TTL_MS, TTL_MS],
      );
    } catch (error) {
      this.logger.warn(`form limits not counted: ${(error as Error).message}`);
      return;
    }
    const retry = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    if (counts[0] > link.perMinute) throw new TooManyRequestsError(`Too many submissions of this form: at most ${link.perMinute} per minute`, retry);
    if (counts[1] > this.config.PORTAL_FORM_LIMIT_PER_ADDRESS)
      throw new TooManyRequestsError(`Too many submissions from your address: at most ${this.config.PORTAL_FORM_LIMIT_PER_ADDRESS} per minute`, retry);
  }

  onModuleDestroy(): void {
    this.counter.close();
  }
}
