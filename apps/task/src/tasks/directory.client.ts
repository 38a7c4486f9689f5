import { Injectable } from '@nestjs/common';
import type { TenantContext } from '@platform/db';
import { AccountSubjects, Bus, messageContext } from '@platform/messaging';

/** Users and teams live in the account service: asked over NATS, in the caller's tenant. */
@Injectable()
export class DirectoryClient {
  constructor(private readonly bus: Bus) {}

  /** `{ userId }`: a member of the tenant; `{ teamId }`: a team of it; both: the user is in the team. */
  async check(ctx: TenantContext, q: { userId?: string; teamId?: string }): Promise<boolean> {
    const answer = await this.bus.request(AccountSubjects.directoryCheck, q, messageContext(ctx));
    return answer.ok;
  }
}
