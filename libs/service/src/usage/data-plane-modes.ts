import { Injectable } from '@nestjs/common';
import { AccountSubjects, Bus, messageContext, type TenantRef } from '@platform/messaging';

/** Bounded: a data plane's mode never changes, so entries are never stale, only many. */
const MAX_ENTRIES = 10_000;

/**
 * Whether a data plane is live (production) or test (sandbox), asked of the account service once
 * per data plane. Work that no key started (a public form, a schedule, an event, a webhook) is
 * metered by its data plane: a test plane's is sandbox usage, whatever path started it.
 */
@Injectable()
export class DataPlaneModes {
  private readonly modes = new Map<string, 'live' | 'test'>();

  constructor(private readonly bus: Bus) {}

  async of(plane: TenantRef): Promise<'live' | 'test'> {
    const key = `${plane.tenantId}/${plane.environmentId}`;
    const known = this.modes.get(key);
    if (known) return known;
    const answer = await this.bus.request(
      AccountSubjects.environmentsResolve,
      { tenantId: plane.tenantId, environmentId: plane.environmentId },
      messageContext(null, { actor: 'portal-form' }),
    );
    // A data plane that does work exists; were it gone, nothing is left to bill: metered as a test plane's.
    const mode = answer.found ? answer.mode : 'test';
    if (this.modes.size >= MAX_ENTRIES) this.modes.clear();
    this.modes.set(key, mode);
    return mode;
  }
}
